// RUN: conv-opt %s --convert-conv-to-linalg="dw-tap-row-lanes=16 dw-split-taps-max-bytes=2097152" --canonicalize --mlir-print-local-scope --split-input-file | FileCheck %s
// RUN: conv-opt %s --convert-conv-to-linalg="dw-split-taps-max-bytes=2097152" --canonicalize --mlir-print-local-scope --split-input-file | FileCheck %s --check-prefix=OFF
// RUN: conv-opt %s --convert-conv-to-linalg="dw-tap-row-lanes=8 dw-split-taps-max-bytes=2097152" --canonicalize --mlir-print-local-scope --split-input-file | FileCheck %s --check-prefix=OFF

// Dense tap rows (docs/Lowering.md §2.8): an ungrouped channels-last f32
// filter gradient with 5 or more taps along a stride-1 last dimension
// contracts those taps together, one contraction per leading tap, when
// split-K parts (or another forall) spread the work over the threads.

// GoogLeNet's 5x5 28x28x192 -> 32 (16 images: split-K parts of 8): the
// leading taps' forall of 5 inside the parts, the interior positions in one
// dw_tap_row contraction, the positions at the ends that only some taps
// read in 8 per-tap contractions. The contraction accumulates the taps of
// the last kernel dimension in reverse order (tap k' = 4 - k reads
// out_backprop at q + k'), and so do the split-K partials: each leading
// tap's [5, 192, 32] rows go to the contraction as they are (no reversed
// copy per block), the per-tap contractions of tap k at the ends update
// row 4 - k (tap 0's at the right end: row 4), and the parts' sum is put
// back in order once, after the parts.
// CHECK-LABEL: func.func @dense_5x5
// CHECK:         scf.forall (%{{.*}}) in (2)
// CHECK:           scf.forall (%[[KH:.*]]) in (5)
// CHECK:             %[[ROWS:.*]] = tensor.extract_slice %{{.*}}[%[[KH]], 0, 0, 0] [1, 5, 192, 32] [1, 1, 1, 1] : tensor<5x5x192x32xf32> to tensor<5x192x32xf32>
// CHECK-NOT:         tensor.empty
// CHECK:             %[[ACC:.*]] = tensor.expand_shape %[[ROWS]] {{\[}}[0], [1], [2, 3]] output_shape [5, 192, 1, 32]
// CHECK:             linalg.generic {{.*}}-> (d4, d5, d3 + d6, d0, d2)>{{.*}} outs(%[[ACC]] : tensor<5x192x1x32xf32>) attrs = {conv.role = "dw_tap_row"}
// CHECK:             %[[INTERIOR:.*]] = tensor.collapse_shape
// CHECK:             tensor.extract_slice %[[INTERIOR]][4, 0, 0] [1, 192, 32]
// CHECK-COUNT-8:     conv.role = "dw_tap"
// CHECK-NOT:         conv.role
// CHECK:           scf.forall.in_parallel
// CHECK:         %[[SUM:.*]] = linalg.generic {{.*}}iterator_types = ["reduction", "parallel", "parallel", "parallel", "parallel"]
// CHECK:         %[[EMPTY:.*]] = tensor.empty() : tensor<5x5x192x32xf32>
// CHECK:         %[[K0:.*]] = tensor.extract_slice %[[SUM]][0, 0, 0, 0] [5, 1, 192, 32]
// CHECK:         tensor.insert_slice %[[K0]] into %[[EMPTY]][0, 4, 0, 0] [5, 1, 192, 32]
// CHECK-COUNT-4: tensor.insert_slice
// CHECK-NEXT:    return
// Off, and with 8-lane vectors (AVX2: 16 registers):
// OFF-LABEL: func.func @dense_5x5
// OFF-NOT:     dw_tap_row
// OFF:         scf.forall (%{{.*}}, %{{.*}}) in (5, 5)
// OFF-NOT:     dw_tap_row

func.func @dense_5x5(%x: tensor<16x28x28x192xf32>, %dy: tensor<16x28x28x32xf32>) -> tensor<5x5x192x32xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = EXPLICIT explicit_paddings = [2, 2, 2, 2]
          strides = [1, 1] dilations = [1, 1]
          : tensor<16x28x28x192xf32>, tensor<16x28x28x32xf32> -> tensor<5x5x192x32xf32>
  return %dw : tensor<5x5x192x32xf32>
}

// -----

// One image: no split-K parts, and the leading taps' forall would be the
// threads' (5 iterations instead of 25): per-tap contractions.
// CHECK-LABEL: func.func @one_image
// CHECK-NOT:     dw_tap_row
// CHECK:         scf.forall (%{{.*}}, %{{.*}}) in (5, 5)
// CHECK-NOT:     dw_tap_row
func.func @one_image(%x: tensor<1x28x28x192xf32>, %dy: tensor<1x28x28x32xf32>) -> tensor<5x5x192x32xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = EXPLICIT explicit_paddings = [2, 2, 2, 2]
          strides = [1, 1] dilations = [1, 1]
          : tensor<1x28x28x192xf32>, tensor<1x28x28x32xf32> -> tensor<5x5x192x32xf32>
  return %dw : tensor<5x5x192x32xf32>
}

// -----

// 3 taps along the last dimension (fewer than 5): per-tap contractions.
// CHECK-LABEL: func.func @three_taps
// CHECK-NOT:     dw_tap_row
// CHECK:         scf.forall (%{{.*}}, %{{.*}}) in (3, 3)
// CHECK-NOT:     dw_tap_row
func.func @three_taps(%x: tensor<16x28x28x192xf32>, %dy: tensor<16x28x28x32xf32>) -> tensor<3x3x192x32xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = EXPLICIT explicit_paddings = [1, 1, 1, 1]
          strides = [1, 1] dilations = [1, 1]
          : tensor<16x28x28x192xf32>, tensor<16x28x28x32xf32> -> tensor<3x3x192x32xf32>
  return %dw : tensor<3x3x192x32xf32>
}

// -----

// 6 input channels (not a multiple of the tiles' 4): per-tap contractions.
// CHECK-LABEL: func.func @odd_channels
// CHECK-NOT:     dw_tap_row
// CHECK:         scf.forall (%{{.*}}, %{{.*}}) in (5, 5)
// CHECK-NOT:     dw_tap_row
func.func @odd_channels(%x: tensor<16x28x28x6xf32>, %dy: tensor<16x28x28x32xf32>) -> tensor<5x5x6x32xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = EXPLICIT explicit_paddings = [2, 2, 2, 2]
          strides = [1, 1] dilations = [1, 1]
          : tensor<16x28x28x6xf32>, tensor<16x28x28x32xf32> -> tensor<5x5x6x32xf32>
  return %dw : tensor<5x5x6x32xf32>
}

// -----

// 7 taps along the last dimension: a tile of 7 x 4 accumulators would not
// fit the registers with its broadcasts and rows; per-tap contractions.
// CHECK-LABEL: func.func @seven_taps
// CHECK-NOT:     dw_tap_row
// CHECK:         scf.forall (%{{.*}}) in (7)
// CHECK-NOT:     dw_tap_row
func.func @seven_taps(%x: tensor<16x28x28x192xf32>, %dy: tensor<16x28x28x32xf32>) -> tensor<1x7x192x32xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = EXPLICIT explicit_paddings = [0, 0, 3, 3]
          strides = [1, 1] dilations = [1, 1]
          : tensor<16x28x28x192xf32>, tensor<16x28x28x32xf32> -> tensor<1x7x192x32xf32>
  return %dw : tensor<1x7x192x32xf32>
}
