// RUN: conv-opt %s --convert-conv-to-linalg="dw-reduction-block-bytes=100000000 dw-small-filter-block-bytes=1000000 dw-wide-row-block-bytes=24576" --split-input-file | FileCheck %s
// RUN: conv-opt %s --convert-conv-to-linalg="dw-reduction-block-bytes=100000000 dw-small-filter-block-bytes=1000000" --split-input-file | FileCheck %s --check-prefix=L2
// RUN: conv-opt %s --convert-conv-to-linalg="dw-reduction-block-bytes=100000000 dw-small-filter-block-bytes=1000000 dw-wide-row-block-bytes=24576 dw-threads=2" --split-input-file | FileCheck %s --check-prefix=THREADS

// Wide-row blocks: a multi-tap 2-D ungrouped filter gradient with a small dW
// (at most twice `dw-small-filter-block-bytes`) whose output rows have at
// least 48 positions runs its taps over blocks of `dw-wide-row-block-bytes`
// (half the L1) instead, one row when a row is larger, so that the taps and
// register tiles re-read the block's out_backprop from the L1.

// 56-position rows of (58 + 56) x 64 x 4 B = 29184 B > 24576: one row a
// block (2 x 56 x 9 x 64 x 64 = 4.1 MFLOP). Without the option: 1 MB blocks
// of 28 rows.
// CHECK-LABEL: func.func @wide_rows
// CHECK:         scf.for %{{.*}} = %c0 to %c56 step %c1
// CHECK:           scf.forall (%{{.*}}, %{{.*}}) in (3, 3)
// CHECK:             linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x?x56x64xf32>, tensor<1x?x56x64xf32>)
// L2-LABEL: func.func @wide_rows
// L2:         scf.for %{{.*}} = %c0 to %c56 step %c28
// Where the taps run on the threads (one image: no split-K parts), each
// block would fork and join them: the small-filter blocks stand.
// THREADS-LABEL: func.func @wide_rows
// THREADS:         scf.for %{{.*}} = %c0 to %c56 step %c28
// THREADS:           scf.forall (%{{.*}}, %{{.*}}, %{{.*}}) in (3, 3, 2)
func.func @wide_rows(%x: tensor<1x56x56x64xf32>, %dy: tensor<1x56x56x64xf32>) -> tensor<3x3x64x64xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = SAME strides = [1, 1] dilations = [1, 1] : tensor<1x56x56x64xf32>, tensor<1x56x56x64xf32> -> tensor<3x3x64x64xf32>
  return %dw : tensor<3x3x64x64xf32>
}

// -----

// 28-position rows: each 1-row block would re-read and re-write dW every 56
// FLOPs of each of its elements; the small-filter rule stands (the whole
// reduction fits 1 MB: no blocks).
// CHECK-LABEL: func.func @narrow_rows
// CHECK-NOT:     scf.for %
// CHECK:         scf.forall (%{{.*}}, %{{.*}}) in (3, 3)
// CHECK:           linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x?x28x64xf32>, tensor<1x?x28x64xf32>)
func.func @narrow_rows(%x: tensor<1x56x28x64xf32>, %dy: tensor<1x56x28x64xf32>) -> tensor<3x3x64x64xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = SAME strides = [1, 1] dilations = [1, 1] : tensor<1x56x28x64xf32>, tensor<1x56x28x64xf32> -> tensor<3x3x64x64xf32>
  return %dw : tensor<3x3x64x64xf32>
}

// -----

// Grouped layers keep the small-filter blocks: 14 rows of 1 MB either way.
// CHECK-LABEL: func.func @grouped
// CHECK:         scf.for %{{.*}} = %c0 to %c56 step %c14
// CHECK:           scf.forall (%{{.*}}, %{{.*}}) in (3, 3)
// L2-LABEL: func.func @grouped
// L2:         scf.for %{{.*}} = %c0 to %c56 step %c14
func.func @grouped(%x: tensor<1x56x56x128xf32>, %dy: tensor<1x56x56x64xf32>) -> tensor<3x3x64x64xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = SAME strides = [1, 1] dilations = [1, 1] : tensor<1x56x56x128xf32>, tensor<1x56x56x64xf32> -> tensor<3x3x64x64xf32>
  return %dw : tensor<3x3x64x64xf32>
}

// -----

// Every tap fused with the single input channel: one contraction, no forall
// over the taps, and its 16 output channels are one column block that the
// code generator does not split over threads, so its blocks fork nothing
// and take one row with 2 threads too (30720 + 1928 B a row).
// CHECK-LABEL: func.func @single_channel
// CHECK:         scf.for %{{.*}} = %c0 to %c48 step %c1
// CHECK-NOT:     scf.forall
// CHECK:         return
// L2-LABEL: func.func @single_channel
// L2:         scf.for %{{.*}} = %c0 to %c48 step %c24
// THREADS-LABEL: func.func @single_channel
// THREADS:         scf.for %{{.*}} = %c0 to %c48 step %c1
// THREADS-NOT:     scf.forall
// THREADS:         return
func.func @single_channel(%x: tensor<1x48x480x1xf32>, %dy: tensor<1x48x480x16xf32>) -> tensor<3x3x1x16xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = SAME strides = [1, 1] dilations = [1, 1] : tensor<1x48x480x1xf32>, tensor<1x48x480x16xf32> -> tensor<3x3x1x16xf32>
  return %dw : tensor<3x3x1x16xf32>
}

// -----

// The same single contraction with 64 output channels: the code generator
// splits them over 2 threads inside each block, so one-row blocks would
// fork once per row. With 2 threads it keeps the half-L2 blocks (8 rows of
// 1928 + 122880 B); with one, the one-row blocks.
// CHECK-LABEL: func.func @single_channel_wide
// CHECK:         scf.for %{{.*}} = %c0 to %c48 step %c1
// CHECK-NOT:     scf.forall
// CHECK:         return
// THREADS-LABEL: func.func @single_channel_wide
// THREADS:         scf.for %{{.*}} = %c0 to %c48 step %c8
// THREADS-NOT:     scf.forall
// THREADS:         return
func.func @single_channel_wide(%x: tensor<1x48x480x1xf32>, %dy: tensor<1x48x480x64xf32>) -> tensor<3x3x1x64xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = SAME strides = [1, 1] dilations = [1, 1] : tensor<1x48x480x1xf32>, tensor<1x48x480x64xf32> -> tensor<3x3x1x64xf32>
  return %dw : tensor<3x3x1x64xf32>
}
