// RUN: conv-opt %s --convert-conv-to-linalg="dw-tap-row-lanes=16" --canonicalize --mlir-print-local-scope --split-input-file | FileCheck %s
// RUN: conv-opt %s --convert-conv-to-linalg --canonicalize --mlir-print-local-scope --split-input-file | FileCheck %s --check-prefix=OFF
// RUN: conv-opt %s --convert-conv-to-linalg="dw-tap-row-lanes=16 dw-threads=2" --canonicalize --mlir-print-local-scope --split-input-file | FileCheck %s --check-prefix=PARTS
// RUN: conv-opt %s --convert-conv-to-linalg="dw-tap-row-lanes=8" --canonicalize --mlir-print-local-scope --split-input-file | FileCheck %s --check-prefix=LANES8
// RUN: conv-opt %s --convert-conv-to-linalg="dw-tap-row-lanes=16 dw-split-taps-max-bytes=2097152" --canonicalize --mlir-print-local-scope --split-input-file | FileCheck %s --check-prefix=SPLIT

// Tap rows (docs/Lowering.md §2.8): a grouped channels-last f32 filter
// gradient whose groups have 2-4 output channels contracts the taps of its
// last kernel dimension (stride 1) together, one contraction per leading
// tap, over the window positions that every one of them reads the input at.
// The window is read at q and out_backprop at q + k' (k' = 2 - k), so the
// contraction's tap dimension runs over the taps in reverse order: the
// leading tap's dW rows are copied in reversed and out again. The positions
// at the ends that only some taps read stay per-tap contractions.

// 16 groups of 4 -> 4, 3x3 SAME on a 6x20 image: window positions [2, 20)
// of the 22 padded ones (18) are read by all three taps, out_backprop
// positions [0, 20); the ends are tap 0 at output 1 (window 1), tap 1 at
// outputs 0 and 19 (window 1 and 20), tap 2 at output 18 (window 20).
// CHECK-LABEL: func.func @resnext_rows
// CHECK:         {conv.interior_reads}
// CHECK:         scf.forall (%[[KH:.*]]) in (3)
// CHECK:           %[[ROWS:.*]] = tensor.extract_slice %{{.*}}[%[[KH]], 0, 0, 0] [1, 3, 4, 64] [1, 1, 1, 1] : tensor<3x3x4x64xf32> to tensor<3x4x64xf32>
// CHECK:           %[[EMPTY:.*]] = tensor.empty() : tensor<3x4x64xf32>
// CHECK:           %[[T0:.*]] = tensor.extract_slice %[[ROWS]][0, 0, 0] [1, 4, 64]
// CHECK:           %[[R0:.*]] = tensor.insert_slice %[[T0]] into %[[EMPTY]][2, 0, 0] [1, 4, 64]
// CHECK:           %[[T1:.*]] = tensor.extract_slice %[[ROWS]][1, 0, 0] [1, 4, 64]
// CHECK:           %[[R1:.*]] = tensor.insert_slice %[[T1]] into %[[R0]][1, 0, 0] [1, 4, 64]
// CHECK:           %[[T2:.*]] = tensor.extract_slice %[[ROWS]][2, 0, 0] [1, 4, 64]
// CHECK:           %[[R2:.*]] = tensor.insert_slice %[[T2]] into %[[R1]][0, 0, 0] [1, 4, 64]
// CHECK:           tensor.extract_slice %{{.*}}[0, 0, 2, 0] [1, %{{.*}}, 18, 64] [1, 1, 1, 1] : tensor<1x?x22x64xf32> to tensor<1x?x18x64xf32>
// CHECK:           tensor.extract_slice %{{.*}}[0, 0, 0, 0] [1, %{{.*}}, 20, 64] [1, 1, 1, 1] : tensor<1x?x20x64xf32> to tensor<1x?x20x64xf32>
// CHECK:           %[[ACC:.*]] = tensor.expand_shape %[[R2]] {{\[}}[0], [1], [2, 3]] output_shape [3, 4, 16, 4]
// CHECK:           %[[ROW:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d4, d5, d6, d0, d1)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d4, d5, d3 + d6, d0, d2)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d3, d1, d0, d2)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
// CHECK-SAME:        outs(%[[ACC]] : tensor<3x4x16x4xf32>) attrs = {conv.role = "dw_tap_row"}
// CHECK:           %[[RES:.*]] = tensor.collapse_shape %[[ROW]]
// CHECK:           %[[U2:.*]] = tensor.extract_slice %[[RES]][2, 0, 0] [1, 4, 64]
// CHECK:           %[[B0:.*]] = tensor.insert_slice %[[U2]] into %[[ROWS]][0, 0, 0] [1, 4, 64]
// CHECK:           %[[U1:.*]] = tensor.extract_slice %[[RES]][1, 0, 0] [1, 4, 64]
// CHECK:           %[[B1:.*]] = tensor.insert_slice %[[U1]] into %[[B0]][1, 0, 0] [1, 4, 64]
// CHECK:           %[[U0:.*]] = tensor.extract_slice %[[RES]][0, 0, 0] [1, 4, 64]
// CHECK:           %[[B2:.*]] = tensor.insert_slice %[[U0]] into %[[B1]][2, 0, 0] [1, 4, 64]
// Tap 0 at output 1 (window 1).
// CHECK:           tensor.extract_slice %{{.*}}[0, 0, 1, 0] [1, %{{.*}}, 1, 64] [1, 1, 1, 1] : tensor<1x?x22x64xf32>
// CHECK:           tensor.extract_slice %{{.*}}[0, 0, 1, 0] [1, %{{.*}}, 1, 64] [1, 1, 1, 1] : tensor<1x?x20x64xf32>
// CHECK:           tensor.extract_slice %[[B2]][0, 0, 0] [1, 4, 64]
// CHECK:           linalg.generic
// CHECK-SAME:        attrs = {conv.dw_contractions = 9 : i64, conv.role = "dw_tap"}
// Tap 1 at output 0 (window 1) and 19 (window 20).
// CHECK:           tensor.extract_slice %{{.*}}[0, 0, 1, 0] [1, %{{.*}}, 1, 64] [1, 1, 1, 1] : tensor<1x?x22x64xf32>
// CHECK:           tensor.extract_slice %{{.*}}[0, 0, 0, 0] [1, %{{.*}}, 1, 64] [1, 1, 1, 1] : tensor<1x?x20x64xf32>
// CHECK:           conv.role = "dw_tap"
// CHECK:           tensor.extract_slice %{{.*}}[0, 0, 20, 0] [1, %{{.*}}, 1, 64] [1, 1, 1, 1] : tensor<1x?x22x64xf32>
// CHECK:           tensor.extract_slice %{{.*}}[0, 0, 19, 0] [1, %{{.*}}, 1, 64] [1, 1, 1, 1] : tensor<1x?x20x64xf32>
// CHECK:           conv.role = "dw_tap"
// Tap 2 at output 18 (window 20).
// CHECK:           tensor.extract_slice %{{.*}}[0, 0, 20, 0] [1, %{{.*}}, 1, 64] [1, 1, 1, 1] : tensor<1x?x22x64xf32>
// CHECK:           tensor.extract_slice %{{.*}}[0, 0, 18, 0] [1, %{{.*}}, 1, 64] [1, 1, 1, 1] : tensor<1x?x20x64xf32>
// CHECK:           conv.role = "dw_tap"
// CHECK-NOT:       conv.role
// CHECK:           tensor.parallel_insert_slice %{{.*}} into %{{.*}}[%[[KH]], 0, 0, 0] [1, 3, 4, 64] [1, 1, 1, 1] : tensor<3x4x64xf32> into tensor<3x3x4x64xf32>
// On 2 threads the 3 leading taps split the 16 groups into 2 parts of 8
// (32 output channels, 2 vectors): 6 iterations, each on its part's
// input (32) and output (32) channels and dW columns.
// PARTS-LABEL: func.func @resnext_rows
// PARTS:         scf.forall (%[[KH:.*]], %[[P:.*]]) in (3, 2)
// PARTS:           affine.apply affine_map<(d0) -> (d0 * 32)>(%[[P]])
// PARTS:           tensor.extract_slice %{{.*}}[0, 0, 0, %{{.*}}] [1, 8, 22, 32] [1, 1, 1, 1] : tensor<1x8x22x64xf32> to tensor<1x8x22x32xf32>
// PARTS:           tensor.extract_slice %{{.*}}[0, 0, 0, %[[C:.*]]] [1, 6, 20, 32] [1, 1, 1, 1] : tensor<1x6x20x64xf32> to tensor<1x6x20x32xf32>
// PARTS:           tensor.extract_slice %{{.*}}[%[[KH]], 0, 0, %[[C]]] [1, 3, 4, 32] [1, 1, 1, 1] : tensor<3x3x4x64xf32> to tensor<3x4x32xf32>
// PARTS:           linalg.generic
// PARTS-SAME:        outs(%{{.*}} : tensor<3x4x8x4xf32>) attrs = {conv.role = "dw_tap_row"}
// PARTS:           tensor.parallel_insert_slice %{{.*}} into %{{.*}}[%[[KH]], 0, 0, %[[C]]] [1, 3, 4, 32] [1, 1, 1, 1] : tensor<3x4x32xf32> into tensor<3x3x4x64xf32>
// Without the option: one contraction per tap.
// OFF-LABEL: func.func @resnext_rows
// OFF:         scf.forall ({{.*}}) in (3, 3)
// OFF-NOT:     dw_tap_row
// OFF:         return
func.func @resnext_rows(%x: tensor<1x6x20x64xf32>, %dy: tensor<1x6x20x64xf32>) -> tensor<3x3x4x64xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = SAME
          strides = [1, 1] dilations = [1, 1]
          : tensor<1x6x20x64xf32>, tensor<1x6x20x64xf32> -> tensor<3x3x4x64xf32>
  return %dw : tensor<3x3x4x64xf32>
}

// -----

// Split-K parts (2 images, 8256 positions: docs/Lowering.md §2.3) that
// lead the leading taps' forall: the partial dWs keep the last kernel
// dimension in the contraction's reversed order (§2.8), so each leading
// tap's rows go to the dw_tap_row contraction as they are (no reversed
// copy in and out per block), the end contraction of tap 0 (output 1)
// updates row 2, and the parts' sum is put back in order once.
// SPLIT-LABEL: func.func @resnext_parts
// SPLIT:         scf.forall (%{{.*}}) in (2)
// SPLIT:           scf.forall (%[[KH:.*]]) in (3)
// SPLIT:             %[[ROWS:.*]] = tensor.extract_slice %{{.*}}[%[[KH]], 0, 0, 0] [1, 3, 4, 64] [1, 1, 1, 1] : tensor<3x3x4x64xf32> to tensor<3x4x64xf32>
// SPLIT-NOT:         tensor.empty
// SPLIT:             %[[ACC:.*]] = tensor.expand_shape %[[ROWS]] {{\[}}[0], [1], [2, 3]] output_shape [3, 4, 16, 4]
// SPLIT:             linalg.generic {{.*}} outs(%[[ACC]] : tensor<3x4x16x4xf32>) attrs = {conv.role = "dw_tap_row"}
// SPLIT:             %[[INTERIOR:.*]] = tensor.collapse_shape
// SPLIT:             tensor.extract_slice %{{.*}}[0, 0, 1, 0] [1, %{{.*}}, 1, 64] [1, 1, 1, 1] : tensor<1x?x346x64xf32>
// SPLIT:             tensor.extract_slice %{{.*}}[0, 0, 1, 0] [1, %{{.*}}, 1, 64] [1, 1, 1, 1] : tensor<1x?x344x64xf32>
// SPLIT:             tensor.extract_slice %[[INTERIOR]][2, 0, 0] [1, 4, 64]
// SPLIT:         %[[SUM:.*]] = linalg.generic {{.*}}iterator_types = ["reduction", "parallel", "parallel", "parallel", "parallel"]
// SPLIT:         %[[EMPTY:.*]] = tensor.empty() : tensor<3x3x4x64xf32>
// SPLIT:         %[[K0:.*]] = tensor.extract_slice %[[SUM]][0, 0, 0, 0] [3, 1, 4, 64]
// SPLIT:         tensor.insert_slice %[[K0]] into %[[EMPTY]][0, 2, 0, 0] [3, 1, 4, 64]
// SPLIT-COUNT-2: tensor.insert_slice
// SPLIT-NEXT:    return
func.func @resnext_parts(%x: tensor<2x12x344x64xf32>, %dy: tensor<2x12x344x64xf32>) -> tensor<3x3x4x64xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = SAME
          strides = [1, 1] dilations = [1, 1]
          : tensor<2x12x344x64xf32>, tensor<2x12x344x64xf32> -> tensor<3x3x4x64xf32>
  return %dw : tensor<3x3x4x64xf32>
}

// -----

// Dilation 2 along the last dimension, VALID, 8 groups of 2 -> 2: every
// tap reads all 12 output positions, but at window positions q = o + 2k, so
// window positions [4, 12) are read by all three (out_backprop at
// q + 2 k'); the ends are outputs [0, 4) of tap 0, [0, 2) and [10, 12) of
// tap 1 and [8, 12) of tap 2.
// CHECK-LABEL: func.func @dilated_valid
// CHECK:         scf.forall ({{.*}}) in (2)
// CHECK:           linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d4, d5, d6, d0, d1)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d4, d5, d6 + d3 * 2, d0, d2)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d3, d1, d0, d2)>]
// CHECK-SAME:        ins(%{{.*}}, %{{.*}} : tensor<2x4x8x8x3xf32>, tensor<2x4x12x8x2xf32>) outs(%{{.*}} : tensor<3x3x8x2xf32>) attrs = {conv.role = "dw_tap_row"}
// CHECK-COUNT-4:   ins(%{{.*}}, %{{.*}} : tensor<2x4x{{[24]}}x8x3xf32>, tensor<2x4x{{[24]}}x8x2xf32>) outs(%{{.*}} : tensor<3x8x2xf32>) attrs = {conv.dw_contractions = 6 : i64, conv.role = "dw_tap"}
// CHECK-NOT:       conv.role
// CHECK:         return
func.func @dilated_valid(%x: tensor<2x5x16x24xf32>, %dy: tensor<2x4x12x16xf32>) -> tensor<2x3x3x16xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = VALID
          strides = [1, 1] dilations = [1, 2]
          : tensor<2x5x16x24xf32>, tensor<2x4x12x16xf32> -> tensor<2x3x3x16xf32>
  return %dw : tensor<2x3x3x16xf32>
}

// -----

// Not: stride 2 along the last dimension (taps do not share input rows).
// CHECK-LABEL: func.func @stride2
// CHECK-NOT:     dw_tap_row
// CHECK:         return
func.func @stride2(%x: tensor<1x8x20x64xf32>, %dy: tensor<1x8x10x64xf32>) -> tensor<3x3x4x64xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = SAME
          strides = [1, 2] dilations = [1, 1]
          : tensor<1x8x20x64xf32>, tensor<1x8x10x64xf32> -> tensor<3x3x4x64xf32>
  return %dw : tensor<3x3x4x64xf32>
}

// -----

// Not: 12 input channels per group with 3 taps (36 accumulator rows), nor
// 8 output channels per group.
// CHECK-LABEL: func.func @wide_groups
// CHECK-NOT:     dw_tap_row
// CHECK:         return
func.func @wide_groups(%x: tensor<1x8x20x192xf32>, %dy: tensor<1x8x20x64xf32>) -> tensor<3x3x12x64xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = SAME
          strides = [1, 1] dilations = [1, 1]
          : tensor<1x8x20x192xf32>, tensor<1x8x20x64xf32> -> tensor<3x3x12x64xf32>
  return %dw : tensor<3x3x12x64xf32>
}
// CHECK-LABEL: func.func @eight_out
// CHECK-NOT:     dw_tap_row
// CHECK:         return
func.func @eight_out(%x: tensor<1x8x20x32xf32>, %dy: tensor<1x8x20x64xf32>) -> tensor<3x3x4x64xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = SAME
          strides = [1, 1] dilations = [1, 1]
          : tensor<1x8x20x32xf32>, tensor<1x8x20x64xf32> -> tensor<3x3x4x64xf32>
  return %dw : tensor<3x3x4x64xf32>
}

// -----

// Not: fewer than 4 positions that all taps read (a 5-position row, SAME
// 3 taps: 3).
// CHECK-LABEL: func.func @short_rows
// CHECK-NOT:     dw_tap_row
// CHECK:         return
func.func @short_rows(%x: tensor<1x8x5x64xf32>, %dy: tensor<1x8x5x64xf32>) -> tensor<3x3x4x64xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = SAME
          strides = [1, 1] dilations = [1, 1]
          : tensor<1x8x5x64xf32>, tensor<1x8x5x64xf32> -> tensor<3x3x4x64xf32>
  return %dw : tensor<3x3x4x64xf32>
}

// -----

// With 8-lane vectors (AVX2, 16 registers) groups of 2 -> 2 qualify, with
// at most 12 accumulator rows: 4 input channels a group with 3 taps do, 6
// do not.
// LANES8-LABEL: func.func @avx2_rows
// LANES8:         conv.role = "dw_tap_row"
// LANES8-LABEL: func.func @avx2_too_many_rows
// LANES8-NOT:     dw_tap_row
// LANES8:         return
func.func @avx2_rows(%x: tensor<1x6x20x64xf32>, %dy: tensor<1x6x20x32xf32>) -> tensor<3x3x4x32xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = SAME
          strides = [1, 1] dilations = [1, 1]
          : tensor<1x6x20x64xf32>, tensor<1x6x20x32xf32> -> tensor<3x3x4x32xf32>
  return %dw : tensor<3x3x4x32xf32>
}
func.func @avx2_too_many_rows(%x: tensor<1x6x20x96xf32>, %dy: tensor<1x6x20x32xf32>) -> tensor<3x3x6x32xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = SAME
          strides = [1, 1] dilations = [1, 1]
          : tensor<1x6x20x96xf32>, tensor<1x6x20x32xf32> -> tensor<3x3x6x32xf32>
  return %dw : tensor<3x3x6x32xf32>
}
