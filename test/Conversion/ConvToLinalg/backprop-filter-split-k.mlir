// RUN: conv-opt %s --convert-conv-to-linalg="dw-split-max-bytes=100000" --mlir-print-local-scope --split-input-file | FileCheck %s
// RUN: conv-opt %s --convert-conv-to-linalg --mlir-print-local-scope --split-input-file | FileCheck %s --check-prefix=NOSPLIT
// RUN: conv-opt %s --convert-conv-to-linalg="dw-split-max-bytes=100000 dw-split-taps-max-bytes=100000 dw-threads=2" --mlir-print-local-scope --split-input-file | FileCheck %s --check-prefix=TAPS
// RUN: conv-opt %s --convert-conv-to-linalg="dw-split-max-bytes=100000 dw-split-taps-max-bytes=100000 dw-threads=4" --mlir-print-local-scope --split-input-file | FileCheck %s --check-prefix=TAPS4
// RUN: conv-opt %s --convert-conv-to-linalg="dw-split-taps-max-bytes=100000 dw-reduction-block-bytes=100000" --mlir-print-local-scope --split-input-file | FileCheck %s --check-prefix=OBLOCKS
// RUN: conv-opt %s --convert-conv-to-linalg="dw-split-taps-max-bytes=100000 dw-reduction-block-bytes=100000 dw-threads=4" --mlir-print-local-scope --split-input-file | FileCheck %s --check-prefix=BLOCKS

// Split-K of a single-tap filter gradient (4 x 48 x 48 = 9216 output
// positions, dW 8 x 16 f32: 1 KiB for both parts): each half of the batch
// is summed into its own zero-initialized dW in an scf.forall over the two
// parts, then the parts are added in order.
// CHECK-LABEL: func.func @split_k
// CHECK:         %[[DW:.*]] = linalg.fill {{.*}} -> tensor<1x1x8x16xf32>
// CHECK:         %[[P0:.*]] = linalg.fill {{.*}} -> tensor<2x1x1x8x16xf32>
// CHECK:         %[[PARTS:.*]] = scf.forall (%[[P:.*]]) in (2) shared_outs(%[[SH:.*]] = %[[P0]])
// CHECK:           %[[B:.*]] = affine.apply affine_map<(d0) -> (d0 * 2)>(%[[P]])
// CHECK-DAG:       tensor.extract_slice %[[SH]][%[[P]], 0, 0, 0, 0] [1, 1, 1, 8, 16]
// CHECK-DAG:       tensor.extract_slice %{{.*}}[%[[B]], 0, 0, 0] [2, 48, 48, 16]
// CHECK-DAG:       tensor.extract_slice %{{.*}}[%[[B]], 0, 0, 0] [2, 48, 48, 8]
// CHECK:           linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<2x48x48x8xf32>, tensor<2x48x48x16xf32>) outs(%{{.*}} : tensor<8x16xf32>) attrs = {conv.dw_contractions = {{[0-9]+}} : i64, conv.role = "dw_tap"}
// CHECK:           tensor.parallel_insert_slice %{{.*}} into %[[SH]][%[[P]], 0, 0, 0, 0]
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d1, d2, d3, d4)>], iterator_types = ["reduction", "parallel", "parallel", "parallel", "parallel"]} ins(%[[PARTS]] : tensor<2x1x1x8x16xf32>) outs(%[[DW]] : tensor<1x1x8x16xf32>)
// NOSPLIT-LABEL: func.func @split_k
// NOSPLIT-NOT:     tensor<2x1x1x8x16xf32>
// NOSPLIT:         return
func.func @split_k(%x: tensor<4x48x48x8xf32>, %dy: tensor<4x48x48x16xf32>) -> tensor<1x1x8x16xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = VALID strides = [1, 1] dilations = [1, 1] : tensor<4x48x48x8xf32>, tensor<4x48x48x16xf32> -> tensor<1x1x8x16xf32>
  return %dw : tensor<1x1x8x16xf32>
}

// -----

// Not split: a 3x3 kernel (its taps' scf.forall spreads the work), an odd
// batch, too short a reduction (2 x 48 x 48 < 8192), or too large a dW.
// CHECK-LABEL: func.func @taps
// CHECK-NOT:     tensor<2x3x3
// CHECK:         return
// With dw-split-taps-max-bytes (2 x 4.5 KiB of dW fit), the 3x3 kernel is
// split too. On up to 2 threads (dw-threads=2) the parts lead: an
// scf.forall over them, each iteration slicing its half of the batch and
// running the taps' forall (nested: one thread each) into its part's dW.
// TAPS-LABEL: func.func @taps
// TAPS:         %[[DW:.*]] = linalg.fill {{.*}} -> tensor<3x3x8x16xf32>
// TAPS:         %[[P0:.*]] = linalg.fill {{.*}} -> tensor<2x3x3x8x16xf32>
// TAPS:         %[[PARTS:.*]] = scf.forall (%[[P:.*]]) in (2) shared_outs(%[[SH:.*]] = %[[P0]])
// TAPS-DAG:       %[[B:.*]] = affine.apply affine_map<(d0) -> (d0 * 2)>(%[[P]])
// TAPS-DAG:       %[[MINE:.*]] = tensor.extract_slice %[[SH]][%[[P]], 0, 0, 0, 0] [1, 3, 3, 8, 16] [1, 1, 1, 1, 1] : tensor<2x3x3x8x16xf32> to tensor<3x3x8x16xf32>
// TAPS-DAG:       %[[DYP:.*]] = tensor.extract_slice %arg1[%[[B]], 0, 0, 0] [2, 48, 48, 16] [1, 1, 1, 1] : tensor<4x48x48x16xf32> to tensor<2x48x48x16xf32>
// TAPS-DAG:       %[[XP:.*]] = tensor.extract_slice %arg0[%[[B]], 0, 0, 0] [2, 50, 50, 8] [1, 1, 1, 1] : tensor<4x50x50x8xf32> to tensor<2x50x50x8xf32>
// TAPS:           %[[T:.*]] = scf.forall (%[[K0:.*]], %[[K1:.*]]) in (3, 3) shared_outs(%[[TSH:.*]] = %[[MINE]])
// TAPS-DAG:         %[[XK:.*]] = tensor.extract_slice %[[XP]][0, %[[K0]], %[[K1]], 0] [2, 48, 48, 8]
// TAPS-DAG:         %[[TAP:.*]] = tensor.extract_slice %[[TSH]][%[[K0]], %[[K1]], 0, 0] [1, 1, 8, 16]
// TAPS:             %[[R:.*]] = linalg.generic {{.*}} ins(%[[XK]], %[[DYP]] : tensor<2x48x48x8xf32>, tensor<2x48x48x16xf32>) outs(%[[TAP]] : tensor<8x16xf32>) attrs = {conv.dw_contractions = 9 : i64, conv.role = "dw_tap"}
// TAPS:             tensor.parallel_insert_slice %[[R]] into %[[TSH]][%[[K0]], %[[K1]], 0, 0] [1, 1, 8, 16]
// TAPS:           tensor.parallel_insert_slice %[[T]] into %[[SH]][%[[P]], 0, 0, 0, 0] [1, 3, 3, 8, 16]
// TAPS:         linalg.generic {{.*}} iterator_types = ["reduction", "parallel", "parallel", "parallel", "parallel"]} ins(%[[PARTS]] : tensor<2x3x3x8x16xf32>) outs(%[[DW]] : tensor<3x3x8x16xf32>)
// On more threads (dw-threads=4): window and out_backprop viewed as
// [2, N/2, ...], the parts are the first dimension of the taps' scf.forall
// (so that more threads than parts share the work), each iteration reading
// its part's rank-reduced slices and writing its tap of its part's dW.
// 2 x 9 iterations: 2 output-channel parts would be 8 wide, too narrow.
// TAPS4-LABEL: func.func @taps
// TAPS4:         %[[DW:.*]] = linalg.fill {{.*}} -> tensor<3x3x8x16xf32>
// TAPS4:         %[[P0:.*]] = linalg.fill {{.*}} -> tensor<2x3x3x8x16xf32>
// TAPS4-DAG:     %[[DY2:.*]] = tensor.expand_shape %arg1 {{\[\[}}0, 1], [2], [3], [4]] output_shape [2, 2, 48, 48, 16]
// TAPS4-DAG:     %[[X2:.*]] = tensor.expand_shape %arg0 {{\[\[}}0, 1], [2], [3], [4]] output_shape [2, 2, 50, 50, 8]
// TAPS4:         %[[PARTS:.*]] = scf.forall (%[[P:.*]], %[[K0:.*]], %[[K1:.*]]) in (2, 3, 3) shared_outs(%[[SH:.*]] = %[[P0]])
// TAPS4-DAG:       %[[XP:.*]] = tensor.extract_slice %[[X2]][%[[P]], 0, 0, 0, 0] [1, 2, 50, 50, 8] [1, 1, 1, 1, 1] : tensor<2x2x50x50x8xf32> to tensor<2x50x50x8xf32>
// TAPS4-DAG:       %[[DYP:.*]] = tensor.extract_slice %[[DY2]][%[[P]], 0, 0, 0, 0] [1, 2, 48, 48, 16] [1, 1, 1, 1, 1] : tensor<2x2x48x48x16xf32> to tensor<2x48x48x16xf32>
// TAPS4-DAG:       %[[XK:.*]] = tensor.extract_slice %[[XP]][0, %[[K0]], %[[K1]], 0] [2, 48, 48, 8]
// TAPS4-DAG:       %[[TAP:.*]] = tensor.extract_slice %[[SH]][%[[P]], %[[K0]], %[[K1]], 0, 0] [1, 1, 1, 8, 16] [1, 1, 1, 1, 1] : tensor<2x3x3x8x16xf32> to tensor<8x16xf32>
// TAPS4:           %[[R:.*]] = linalg.generic {{.*}} ins(%[[XK]], %[[DYP]] : tensor<2x48x48x8xf32>, tensor<2x48x48x16xf32>) outs(%[[TAP]] : tensor<8x16xf32>) attrs = {conv.dw_contractions = 9 : i64, conv.role = "dw_tap"}
// TAPS4:           tensor.parallel_insert_slice %[[R]] into %[[SH]][%[[P]], %[[K0]], %[[K1]], 0, 0] [1, 1, 1, 8, 16]
// TAPS4:         linalg.generic {{.*}} iterator_types = ["reduction", "parallel", "parallel", "parallel", "parallel"]} ins(%[[PARTS]] : tensor<2x3x3x8x16xf32>) outs(%[[DW]] : tensor<3x3x8x16xf32>)
// Reduction blocks with split parts: one part's item (80 + 144 KiB) exceeds
// the 100000-byte budget, so a part runs in blocks of one item and 16 rows
// (18 window rows). On one thread (the default dw-threads) the parts lead:
// each runs all its blocks, over its own half of the batch.
// OBLOCKS-LABEL: func.func @taps
// OBLOCKS:         scf.forall (%[[P:.*]]) in (2) shared_outs(%{{.*}} = %{{.*}}) -> (tensor<2x3x3x8x16xf32>)
// OBLOCKS-DAG:       tensor.extract_slice %arg1[%{{.*}}, 0, 0, 0] [2, 48, 48, 16]
// OBLOCKS-DAG:       tensor.extract_slice %arg0[%{{.*}}, 0, 0, 0] [2, 50, 50, 8]
// OBLOCKS:           scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %{{.*}}) -> (tensor<3x3x8x16xf32>)
// OBLOCKS:             scf.for %[[R:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %{{.*}}) -> (tensor<3x3x8x16xf32>)
// OBLOCKS-DAG:           tensor.extract_slice %{{.*}}[0, %[[R]], 0, 0] [1, 16, 48, 16]
// OBLOCKS-DAG:           tensor.extract_slice %{{.*}}[0, %[[R]], 0, 0] [1, 18, 50, 8]
// OBLOCKS:               scf.forall (%{{.*}}, %{{.*}}) in (3, 3)
// OBLOCKS:                 conv.role = "dw_tap"
// On more threads than parts, each block is one item of every part (an
// scf.for over the 2 items per part, sliced along dimension 1 of the
// [2, 2, ...] views), with the parts leading the taps' forall inside.
// BLOCKS-LABEL: func.func @taps
// BLOCKS:         scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %{{.*}}) -> (tensor<2x3x3x8x16xf32>)
// BLOCKS-DAG:       tensor.extract_slice %{{.*}}[0, %[[I]], 0, 0, 0] [2, 1, 48, 48, 16]
// BLOCKS-DAG:       tensor.extract_slice %{{.*}}[0, %[[I]], 0, 0, 0] [2, 1, 50, 50, 8]
// BLOCKS:           scf.for %[[R:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %{{.*}}) -> (tensor<2x3x3x8x16xf32>)
// BLOCKS-DAG:         %[[DYB:.*]] = tensor.extract_slice %{{.*}}[0, 0, %[[R]], 0, 0] [2, 1, 16, 48, 16]
// BLOCKS-DAG:         %[[XB:.*]] = tensor.extract_slice %{{.*}}[0, 0, %[[R]], 0, 0] [2, 1, 18, 50, 8]
// BLOCKS:             scf.forall (%[[P:.*]], %{{.*}}, %{{.*}}) in (2, 3, 3)
// BLOCKS-DAG:           tensor.extract_slice %[[XB]][%[[P]], 0, 0, 0, 0] [1, 1, 18, 50, 8] [1, 1, 1, 1, 1] : tensor<2x1x18x50x8xf32> to tensor<1x18x50x8xf32>
// BLOCKS-DAG:           tensor.extract_slice %[[DYB]][%[[P]], 0, 0, 0, 0] [1, 1, 16, 48, 16] [1, 1, 1, 1, 1] : tensor<2x1x16x48x16xf32> to tensor<1x16x48x16xf32>
// BLOCKS:               conv.role = "dw_tap"
func.func @taps(%x: tensor<4x50x50x8xf32>, %dy: tensor<4x48x48x16xf32>) -> tensor<3x3x8x16xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = VALID strides = [1, 1] dilations = [1, 1] : tensor<4x50x50x8xf32>, tensor<4x48x48x16xf32> -> tensor<3x3x8x16xf32>
  return %dw : tensor<3x3x8x16xf32>
}
// An odd batch splits the output rows of the first spatial dimension
// instead (no padding along it: each part reads its own slice of rows).
// CHECK-LABEL: func.func @odd_batch
// CHECK:         %[[DW:.*]] = linalg.fill {{.*}} -> tensor<1x1x8x16xf32>
// CHECK:         %[[PARTS:.*]] = scf.forall (%[[P:.*]]) in (2) shared_outs(%{{.*}}) -> (tensor<2x1x1x8x16xf32>)
// CHECK-DAG:       %[[R:.*]] = affine.apply affine_map<(d0) -> (d0 * 24)>(%[[P]])
// CHECK-DAG:       tensor.extract_slice %{{.*}}[0, %[[R]], 0, 0] [5, 24, 48, 16]
// CHECK-DAG:       tensor.extract_slice %{{.*}}[0, %{{.*}}, 0, 0] [5, 24, 48, 8]
// CHECK:           ins(%{{.*}}, %{{.*}} : tensor<5x24x48x8xf32>, tensor<5x24x48x16xf32>) outs(%{{.*}} : tensor<8x16xf32>)
// CHECK:         linalg.generic {{.*}} ins(%[[PARTS]] : tensor<2x1x1x8x16xf32>) outs(%[[DW]] : tensor<1x1x8x16xf32>)
// CHECK:         return
func.func @odd_batch(%x: tensor<5x48x48x8xf32>, %dy: tensor<5x48x48x16xf32>) -> tensor<1x1x8x16xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = VALID strides = [1, 1] dilations = [1, 1] : tensor<5x48x48x8xf32>, tensor<5x48x48x16xf32> -> tensor<1x1x8x16xf32>
  return %dw : tensor<1x1x8x16xf32>
}
// CHECK-LABEL: func.func @short
// CHECK-NOT:     scf.forall (%{{.*}}) in (2)
// CHECK:         return
func.func @short(%x: tensor<2x48x48x8xf32>, %dy: tensor<2x48x48x16xf32>) -> tensor<1x1x8x16xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = VALID strides = [1, 1] dilations = [1, 1] : tensor<2x48x48x8xf32>, tensor<2x48x48x16xf32> -> tensor<1x1x8x16xf32>
  return %dw : tensor<1x1x8x16xf32>
}
// 2 x 256 x 128 x 4 B = 256 KiB > 100000 B.
// CHECK-LABEL: func.func @large_dw
// CHECK-NOT:     scf.forall (%{{.*}}) in (2)
// CHECK:         return
// TAPS-LABEL: func.func @large_dw
// TAPS-NOT:     scf.forall (%{{.*}}) in (2)
// TAPS:         return
func.func @large_dw(%x: tensor<4x48x48x256xf32>, %dy: tensor<4x48x48x128xf32>) -> tensor<1x1x256x128xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = VALID strides = [1, 1] dilations = [1, 1] : tensor<4x48x48x256xf32>, tensor<4x48x48x128xf32> -> tensor<1x1x256x128xf32>
  return %dw : tensor<1x1x256x128xf32>
}

// -----

// A tiny-Cin 3x3 filter gradient whose taps all fuse into the rows of one
// contraction (Cin = 1: 9 rows) is split as well; with Cin = 3 and a 7x7
// kernel (ResNet's stem), only the last kernel dimension fuses (21 rows) and
// the scf.forall over the 7 leading taps spreads the work instead.
// CHECK-LABEL: func.func @fused_all
// CHECK:         %[[PARTS:.*]] = scf.forall (%{{.*}}) in (2) shared_outs(%{{.*}} = %{{.*}}) -> (tensor<2x3x3x1x16xf32>)
// CHECK:           linalg.generic {{.*}} outs(%{{.*}} : tensor<2x48x48x3x3xf32>) attrs = {conv.role = "row_gather"}
// CHECK:           linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<2x48x48x9xf32>, tensor<2x48x48x16xf32>) outs(%{{.*}} : tensor<9x16xf32>) attrs = {conv.dw_contractions = 1 : i64, conv.dw_stream, conv.role = "dw_tap"}
// CHECK:         linalg.generic {{.*}} iterator_types = ["reduction", "parallel", "parallel", "parallel", "parallel"]} ins(%[[PARTS]] : tensor<2x3x3x1x16xf32>)
// NOSPLIT-LABEL: func.func @fused_all
// NOSPLIT-NOT:     tensor<2x3x3x1x16xf32>
// NOSPLIT:         return
func.func @fused_all(%x: tensor<4x50x50x1xf32>, %dy: tensor<4x48x48x16xf32>) -> tensor<3x3x1x16xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = VALID strides = [1, 1] dilations = [1, 1] : tensor<4x50x50x1xf32>, tensor<4x48x48x16xf32> -> tensor<3x3x1x16xf32>
  return %dw : tensor<3x3x1x16xf32>
}
// With dw-split-taps-max-bytes, the stem-like filter is split as well: the
// parts lead on 2 threads, the leading taps' forall nested in them.
// TAPS-LABEL: func.func @fused_leading
// TAPS:         scf.forall (%{{.*}}) in (2) shared_outs(%{{.*}} = %{{.*}}) -> (tensor<2x7x7x3x16xf32>)
// TAPS:           scf.forall (%{{.*}}) in (7) shared_outs(%{{.*}} = %{{.*}}) -> (tensor<7x7x3x16xf32>)
// TAPS-NOT:         scf.forall
// TAPS:             tensor<2x48x48x21xf32>
// TAPS:         ins(%{{.*}} : tensor<2x7x7x3x16xf32>)
// TAPS4-LABEL: func.func @fused_leading
// TAPS4:         scf.forall (%{{.*}}, %{{.*}}) in (2, 7) shared_outs(%{{.*}} = %{{.*}}) -> (tensor<2x7x7x3x16xf32>)
// TAPS4-NOT:       scf.forall
// TAPS4:           tensor<2x48x48x21xf32>
// TAPS4:         ins(%{{.*}} : tensor<2x7x7x3x16xf32>)
// CHECK-LABEL: func.func @fused_leading
// CHECK-NOT:     tensor<2x7x7
// CHECK:         scf.forall (%{{.*}}) in (7)
// CHECK:           tensor<4x48x48x21xf32>
// CHECK-NOT:     tensor<2x7x7
// CHECK:         return
func.func @fused_leading(%x: tensor<4x54x54x3xf32>, %dy: tensor<4x48x48x16xf32>) -> tensor<7x7x3x16xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = VALID strides = [1, 1] dilations = [1, 1] : tensor<4x54x54x3xf32>, tensor<4x48x48x16xf32> -> tensor<7x7x3x16xf32>
  return %dw : tensor<7x7x3x16xf32>
}

// -----

// Multi-tap split-K follows the same batch and reduction rules as single
// contractions, and each part's dW must fit: an odd batch, 2 x 48 x 48 <
// 8192 positions, and a 3x3x64x64 f32 dW (144 KiB) > 100000 B stay
// unsplit; a 3x3x32x64 one (72 KiB, two of them 144 KiB) is split. A grouped filter
// gradient is split like any other (its taps' contractions carry the
// groups).
// TAPS-LABEL: func.func @taps_grouped
// TAPS:         scf.forall (%{{.*}}) in (2) shared_outs(%{{.*}} = %{{.*}}) -> (tensor<2x3x3x8x16xf32>)
// TAPS:           scf.forall (%{{.*}}, %{{.*}}) in (3, 3)
// TAPS:             conv.role = "dw_tap"
// TAPS:         ins(%{{.*}} : tensor<2x3x3x8x16xf32>) outs(%{{.*}} : tensor<3x3x8x16xf32>)
// TAPS:         return
func.func @taps_grouped(%x: tensor<4x50x50x16xf32>, %dy: tensor<4x48x48x16xf32>) -> tensor<3x3x8x16xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = VALID strides = [1, 1] dilations = [1, 1] : tensor<4x50x50x16xf32>, tensor<4x48x48x16xf32> -> tensor<3x3x8x16xf32>
  return %dw : tensor<3x3x8x16xf32>
}
// TAPS-LABEL: func.func @taps_odd_batch
// TAPS:         scf.forall (%{{.*}}) in (2) shared_outs(%{{.*}}) -> (tensor<2x3x3x8x16xf32>)
// TAPS:           tensor.extract_slice %{{.*}}[0, %{{.*}}, 0, 0] [5, 24, 48, 16]
// TAPS:           tensor.extract_slice %{{.*}}[0, %{{.*}}, 0, 0] [5, 26, 50, 8]
// TAPS:         return
func.func @taps_odd_batch(%x: tensor<5x50x50x8xf32>, %dy: tensor<5x48x48x16xf32>) -> tensor<3x3x8x16xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = VALID strides = [1, 1] dilations = [1, 1] : tensor<5x50x50x8xf32>, tensor<5x48x48x16xf32> -> tensor<3x3x8x16xf32>
  return %dw : tensor<3x3x8x16xf32>
}
// TAPS-LABEL: func.func @taps_short
// TAPS-NOT:     scf.forall (%{{.*}}) in (2)
// TAPS:         return
func.func @taps_short(%x: tensor<2x50x50x8xf32>, %dy: tensor<2x48x48x16xf32>) -> tensor<3x3x8x16xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = VALID strides = [1, 1] dilations = [1, 1] : tensor<2x50x50x8xf32>, tensor<2x48x48x16xf32> -> tensor<3x3x8x16xf32>
  return %dw : tensor<3x3x8x16xf32>
}
// TAPS-LABEL: func.func @taps_large_dw
// TAPS-NOT:     scf.forall (%{{.*}}) in (2)
// TAPS:         return
func.func @taps_large_dw(%x: tensor<4x50x50x64xf32>, %dy: tensor<4x48x48x64xf32>) -> tensor<3x3x64x64xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = VALID strides = [1, 1] dilations = [1, 1] : tensor<4x50x50x64xf32>, tensor<4x48x48x64xf32> -> tensor<3x3x64x64xf32>
  return %dw : tensor<3x3x64x64xf32>
}
// TAPS-LABEL: func.func @taps_part_dw_fits
// TAPS:         scf.forall (%{{.*}}) in (2) shared_outs(%{{.*}} = %{{.*}}) -> (tensor<2x3x3x32x64xf32>)
// TAPS:         return
func.func @taps_part_dw_fits(%x: tensor<4x50x50x32xf32>, %dy: tensor<4x48x48x64xf32>) -> tensor<3x3x32x64xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = VALID strides = [1, 1] dilations = [1, 1] : tensor<4x50x50x32xf32>, tensor<4x48x48x64xf32> -> tensor<3x3x32x64xf32>
  return %dw : tensor<3x3x32x64xf32>
}

// -----

// Row parts of WaveNet-like one long item (8193 output positions, odd):
// two parts of 4096 rows, each reading its 4097 input rows, summed in
// order; the last row follows, summed onto the parts' sum. On more threads
// than parts the parts run one after the other (their windows overlap),
// each spreading its taps over the threads.
// TAPS-LABEL: func.func @rows_remainder
// TAPS:         %[[PARTS:.*]] = scf.forall (%[[P:.*]]) in (2) shared_outs(%{{.*}}) -> (tensor<2x2x8x8xf32>)
// TAPS-DAG:       %[[R:.*]] = affine.apply affine_map<(d0) -> (d0 * 4096)>(%[[P]])
// TAPS-DAG:       tensor.extract_slice %arg1[0, %[[R]], 0] [1, 4096, 8]
// TAPS-DAG:       tensor.extract_slice %arg0[0, %{{.*}}, 0] [1, 4097, 8]
// TAPS:         %[[SUM:.*]] = linalg.generic {{.*}} ins(%[[PARTS]] : tensor<2x2x8x8xf32>)
// TAPS-DAG:     %[[DYR:.*]] = tensor.extract_slice %arg1[0, 8192, 0] [1, 1, 8]
// TAPS-DAG:     %[[XR:.*]] = tensor.extract_slice %arg0[0, 8192, 0] [1, 2, 8]
// TAPS:         scf.forall (%{{.*}}) in (2) shared_outs(%{{.*}} = %[[SUM]]) -> (tensor<2x8x8xf32>)
// TAPS:         return
// TAPS4-LABEL: func.func @rows_remainder
// TAPS4:         %[[PARTS:.*]] = scf.for %[[P:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}}) -> (tensor<2x2x8x8xf32>)
// TAPS4:           tensor.extract_slice %arg1[0, %{{.*}}, 0] [1, 4096, 8]
// TAPS4:           tensor.extract_slice %arg0[0, %{{.*}}, 0] [1, 4097, 8]
// TAPS4:           scf.forall (%{{.*}}) in (2)
// TAPS4:         linalg.generic {{.*}} ins(%[[PARTS]] : tensor<2x2x8x8xf32>)
// TAPS4:         tensor.extract_slice %arg1[0, 8192, 0] [1, 1, 8]
// TAPS4:         return
func.func @rows_remainder(%x: tensor<1x8194x8xf32>, %dy: tensor<1x8193x8xf32>) -> tensor<2x8x8xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NWC padding = VALID strides = [1] dilations = [1] : tensor<1x8194x8xf32>, tensor<1x8193x8xf32> -> tensor<2x8x8xf32>
  return %dw : tensor<2x8x8xf32>
}

// -----

// Stride 2: part p reads the 129 input rows from row 128 p.
// TAPS-LABEL: func.func @taps_rows_strided
// TAPS:         scf.forall (%[[P:.*]]) in (2) shared_outs(%{{.*}}) -> (tensor<2x3x3x8x16xf32>)
// TAPS-DAG:       %[[R:.*]] = affine.apply affine_map<(d0) -> (d0 * 64)>(%[[P]])
// TAPS-DAG:       %[[W:.*]] = affine.apply affine_map<(d0) -> (d0 * 128)>(%[[P]])
// TAPS-DAG:       tensor.extract_slice %arg1[0, %[[R]], 0, 0] [1, 64, 64, 16]
// TAPS-DAG:       tensor.extract_slice %arg0[0, %[[W]], 0, 0] [1, 129, 129, 8]
// TAPS:         return
func.func @taps_rows_strided(%x: tensor<1x257x129x8xf32>, %dy: tensor<1x128x64x16xf32>) -> tensor<3x3x8x16xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = VALID strides = [2, 2] dilations = [1, 1] : tensor<1x257x129x8xf32>, tensor<1x128x64x16xf32> -> tensor<3x3x8x16xf32>
  return %dw : tensor<3x3x8x16xf32>
}

// -----

// Padding along the first spatial dimension: no row parts (a part's taps
// would read padding at one end only).
// TAPS-LABEL: func.func @taps_rows_padded
// TAPS-NOT:     scf.forall (%{{.*}}) in (2)
// TAPS:         return
func.func @taps_rows_padded(%x: tensor<1x96x96x8xf32>, %dy: tensor<1x96x96x16xf32>) -> tensor<3x3x8x16xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = SAME strides = [1, 1] dilations = [1, 1] : tensor<1x96x96x8xf32>, tensor<1x96x96x16xf32> -> tensor<3x3x8x16xf32>
  return %dw : tensor<3x3x8x16xf32>
}
