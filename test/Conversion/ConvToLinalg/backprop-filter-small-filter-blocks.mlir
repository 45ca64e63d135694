// RUN: conv-opt %s --convert-conv-to-linalg="dw-reduction-block-bytes=1000000 dw-small-filter-block-bytes=30000" --split-input-file | FileCheck %s

// Small-filter blocks: a multi-tap filter gradient whose dW is at most twice
// `dw-small-filter-block-bytes` runs its taps over blocks of that size (the
// L2) instead of `dw-reduction-block-bytes` (a quarter of the L3), so that
// the taps re-read each block from the L2.

// 3x3x8x16 dW (4608 B <= 60000): 12 items of (10x10x8 + 8x8x16) x 4 B =
// 7296 B, fitting the 1 MB budget whole, get 30000-byte blocks of 4 items.
// CHECK-LABEL: func.func @small_filter
// CHECK:         scf.for %{{.*}} = %c0 to %c12 step %c4
// CHECK:           scf.forall (%{{.*}}, %{{.*}}) in (3, 3)
// CHECK:             linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<4x?x?x8xf32>, tensor<4x?x?x16xf32>)
// CHECK-NOT:     scf.forall (
// CHECK:         return
func.func @small_filter(%x: tensor<12x8x8x8xf32>, %dy: tensor<12x8x8x16xf32>) -> tensor<3x3x8x16xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = SAME strides = [1, 1] dilations = [1, 1] : tensor<12x8x8x8xf32>, tensor<12x8x8x16xf32> -> tensor<3x3x8x16xf32>
  return %dw : tensor<3x3x8x16xf32>
}

// -----

// The same with 11 items: blocks of 4 would leave a remainder block of 3 (a
// second copy of the body, which the 1 MB blocks do not need), and a block
// of 1 item (2 x 9 x 8 x 16 x 64 = 147456 FLOP) is less work than the
// 1 MiFLOP that a smaller dividing block must do: one block.
// CHECK-LABEL: func.func @small_filter_remainder
// CHECK-NOT:     scf.for %
// CHECK:         scf.forall (%{{.*}}, %{{.*}}) in (3, 3)
// CHECK:           linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<11x?x?x8xf32>, tensor<11x?x?x16xf32>)
// CHECK-NOT:     scf.forall (
// CHECK:         return
func.func @small_filter_remainder(%x: tensor<11x8x8x8xf32>, %dy: tensor<11x8x8x16xf32>) -> tensor<3x3x8x16xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = SAME strides = [1, 1] dilations = [1, 1] : tensor<11x8x8x8xf32>, tensor<11x8x8x16xf32> -> tensor<3x3x8x16xf32>
  return %dw : tensor<3x3x8x16xf32>
}

// -----

// A 3x3x64x64 dW (147456 B > 60000): re-reading it once per small block
// would cost more than the L3 reads the blocks save; one block.
// CHECK-LABEL: func.func @large_filter
// CHECK-NOT:     scf.for %
// CHECK:         scf.forall (%{{.*}}, %{{.*}}) in (3, 3)
// CHECK:           linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<11x?x?x64xf32>, tensor<11x?x?x64xf32>)
func.func @large_filter(%x: tensor<11x4x4x64xf32>, %dy: tensor<11x4x4x64xf32>) -> tensor<3x3x64x64xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = SAME strides = [1, 1] dilations = [1, 1] : tensor<11x4x4x64xf32>, tensor<11x4x4x64xf32> -> tensor<3x3x64x64xf32>
  return %dw : tensor<3x3x64x64xf32>
}

// -----

// A single tap (1x1): the blocks would give no tap any reuse; one block.
// CHECK-LABEL: func.func @single_tap
// CHECK-NOT:     scf.for %
// CHECK:         linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<11x8x8x8xf32>, tensor<11x8x8x16xf32>)
func.func @single_tap(%x: tensor<11x8x8x8xf32>, %dy: tensor<11x8x8x16xf32>) -> tensor<1x1x8x16xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = VALID strides = [1, 1] dilations = [1, 1] : tensor<11x8x8x8xf32>, tensor<11x8x8x16xf32> -> tensor<1x1x8x16xf32>
  return %dw : tensor<1x1x8x16xf32>
}

// -----

// 11 items of (10x10x32 + 8x8x32) x 4 B = 20992 B with 110000-byte blocks:
// 5 items a block would leave a remainder, and no divisor of 11 is at least
// half of 5. A smaller block that divides the items is taken instead when it
// does at least 1 MiFLOP (one item: 2 x 9 x 32 x 32 x 64 = 1179648 FLOP):
// blocks of 1 item.
// RUN: conv-opt %s --convert-conv-to-linalg="dw-reduction-block-bytes=1000000 dw-small-filter-block-bytes=110000" --split-input-file | FileCheck %s --check-prefix=DIV1
// With 2 threads each block forks and joins them: not below 16 MiFLOP a
// block, so one block (the 1 MB reduction blocks fit all 11 items).
// RUN: conv-opt %s --convert-conv-to-linalg="dw-reduction-block-bytes=1000000 dw-small-filter-block-bytes=110000 dw-threads=2" --split-input-file | FileCheck %s --check-prefix=DIV2
// DIV1-LABEL: func.func @small_filter_divisor
// DIV1:         scf.for %{{.*}} = %c0 to %c11 step %c1
// DIV1:           scf.forall (%{{.*}}, %{{.*}}) in (3, 3)
// DIV1:             linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x?x?x32xf32>, tensor<1x?x?x32xf32>)
// DIV2-LABEL: func.func @small_filter_divisor
// DIV2-NOT:     scf.for %
// DIV2:         scf.forall (%{{.*}}, %{{.*}}) in (3, 3)
// DIV2:           linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<11x?x?x32xf32>, tensor<11x?x?x32xf32>)
func.func @small_filter_divisor(%x: tensor<11x8x8x32xf32>, %dy: tensor<11x8x8x32xf32>) -> tensor<3x3x32x32xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = SAME strides = [1, 1] dilations = [1, 1] : tensor<11x8x8x32xf32>, tensor<11x8x8x32xf32> -> tensor<3x3x32x32xf32>
  return %dw : tensor<3x3x32x32xf32>
}

// -----

// Rows (one item): 38 x 23 output rows of 64 channels, 3x3 taps over
// 2-strided rows of 47 x 32: (2 x 47 x 32 + 23 x 64) x 4 = 17920 B a row,
// 6 rows for 110000 B. 38 = 2 x 19 has no divisor from 3 to 6; 2 rows do
// 2 x (2 x 9 x 32 x 64 x 23) = 1695744 FLOP: blocks of 2 rows. With 2
// threads one block (its 9 taps in 2 output-channel halves each).
// DIV1-LABEL: func.func @small_filter_rows_divisor
// DIV1:         scf.for %{{.*}} = %c0 to %c38 step %c2
// DIV1:           scf.forall (%{{.*}}, %{{.*}}) in (3, 3)
// DIV1:             linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x2x23x32xf32>, tensor<1x2x23x64xf32>)
// DIV2-LABEL: func.func @small_filter_rows_divisor
// DIV2-NOT:     scf.for %
// DIV2:         scf.forall (%{{.*}}, %{{.*}}, %{{.*}}) in (3, 3, 2)
// DIV2:           linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x38x23x32xf32>, tensor<1x38x23x32xf32>)
func.func @small_filter_rows_divisor(%x: tensor<1x77x47x32xf32>, %dy: tensor<1x38x23x64xf32>) -> tensor<3x3x32x64xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = VALID strides = [2, 2] dilations = [1, 1] : tensor<1x77x47x32xf32>, tensor<1x38x23x64xf32> -> tensor<3x3x32x64xf32>
  return %dw : tensor<3x3x32x64xf32>
}

// -----

// A 1-D k2 filter (2 taps, a 2x16x16 dW) over 1024 positions of 16 + 16
// channels (128 KiB): with 1 thread both taps re-read each 30000-byte block
// (8 blocks of 128 positions).
// With 2 threads each thread runs one tap: no thread would re-read a block,
// so the taps' forall runs once over the 1 MB reduction block.
// RUN: conv-opt %s --convert-conv-to-linalg="dw-reduction-block-bytes=1000000 dw-small-filter-block-bytes=30000" --split-input-file | FileCheck %s --check-prefix=TAP1
// RUN: conv-opt %s --convert-conv-to-linalg="dw-reduction-block-bytes=1000000 dw-small-filter-block-bytes=30000 dw-threads=2" --split-input-file | FileCheck %s --check-prefix=TAP2
// TAP1-LABEL: func.func @tap_per_thread
// TAP1:         scf.for %{{.*}} = %c0 to %c1024 step %c128
// TAP1:           scf.forall (%{{.*}}) in (2)
// TAP2-LABEL: func.func @tap_per_thread
// TAP2-NOT:     scf.for %
// TAP2:         scf.forall (%{{.*}}) in (2)
// TAP2:           linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x1024x16xf32>, tensor<1x1024x16xf32>)
func.func @tap_per_thread(%x: tensor<1x1025x16xf32>, %dy: tensor<1x1024x16xf32>) -> tensor<2x16x16xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NWC padding = VALID strides = [1] dilations = [1] : tensor<1x1025x16xf32>, tensor<1x1024x16xf32> -> tensor<2x16x16xf32>
  return %dw : tensor<2x16x16xf32>
}
