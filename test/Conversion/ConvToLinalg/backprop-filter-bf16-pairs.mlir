// RUN: conv-opt %s --convert-conv-to-linalg="widen-16-bit-operands bf16-dot" --canonicalize --mlir-print-local-scope --split-input-file | FileCheck %s
// RUN: conv-opt %s --convert-conv-to-linalg="widen-16-bit-operands bf16-dot dw-threads=2" --canonicalize --mlir-print-local-scope --split-input-file | FileCheck %s --check-prefix=PARTS

// bf16 filter gradients with bf16-dot contract pairs of output positions
// along the last spatial dimension (docs/Lowering.md §2.6). Stride 2 along
// W (13 input columns, 3 taps: 6 output columns, 3 pairs):
//   Q[b, oh, j, co, e] = dY[b, oh, 2j + e, co]      (two stride-2 slices)
//   P[b, ih, i, ci, e] = x[b, ih, i + e*2, ci]       (i < (6 - 2)*2 + 2 + 1 = 11)
// and tap (kh, kw) reads P at rows kh + oh and columns kw + 4j: the pair
// (2j, 2j + 1) of output columns reads x at kw + 4j and kw + 4j + 2.
// CHECK-LABEL: func.func @stride2
// CHECK-SAME:    (%[[X:.*]]: tensor<2x5x13x64xbf16>, %[[DY:.*]]: tensor<2x3x6x64xbf16>)
// CHECK-DAG:     %[[X0:.*]] = tensor.extract_slice %[[X]][0, 0, 0, 0] [2, 5, 11, 64] [1, 1, 1, 1]
// CHECK-DAG:     %[[X1:.*]] = tensor.extract_slice %[[X]][0, 0, 2, 0] [2, 5, 11, 64] [1, 1, 1, 1]
// CHECK:         %[[P:.*]] = linalg.generic {{.*}} ins(%[[X0]], %[[X1]] : tensor<2x5x11x64xbf16>, tensor<2x5x11x64xbf16>) outs(%{{.*}} : tensor<2x5x11x64x2xbf16>) attrs =  {conv.role = "pair_pack"}
// CHECK:           %[[E:.*]] = linalg.index 4 : index
// CHECK:           %[[FIRST:.*]] = arith.cmpi eq, %[[E]], %{{.*}} : index
// CHECK:           arith.select %[[FIRST]], %{{.*}}, %{{.*}} : bf16
// CHECK-DAG:     %[[D1:.*]] = tensor.extract_slice %[[DY]][0, 0, 1, 0] [2, 3, 3, 64] [1, 1, 2, 1]
// CHECK-DAG:     %[[D0:.*]] = tensor.extract_slice %[[DY]][0, 0, 0, 0] [2, 3, 3, 64] [1, 1, 2, 1]
// CHECK:         %[[Q:.*]] = linalg.generic {{.*}} ins(%[[D0]], %[[D1]] : tensor<2x3x3x64xbf16>, tensor<2x3x3x64xbf16>) outs(%{{.*}} : tensor<2x3x3x64x2xbf16>) attrs =  {conv.role = "pair_pack"}
// CHECK:         scf.forall (%[[KH:.*]], %[[KW:.*]]) in (3, 3)
// CHECK:           %[[PT:.*]] = tensor.extract_slice %[[P]][0, %[[KH]], %[[KW]], 0, 0] [2, 3, 3, 64, 2] [1, 1, 4, 1, 1]
// CHECK:           linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d2, d3, d4, d0, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d2, d3, d4, d1, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction", "reduction", "reduction"]}
// CHECK-SAME:        ins(%[[PT]], %[[Q]] : tensor<2x3x3x64x2xbf16>, tensor<2x3x3x64x2xbf16>) outs(%{{.*}} : tensor<64x64xf32>)
// CHECK-SAME:        conv.dw_contractions = 9 : i64, conv.dw_pairs, conv.role = "dw_tap"
// CHECK:             arith.extf
// CHECK:             arith.extf
// The 9 taps on 2 threads: each tap's output channels in 2 parts, each
// reading its 32 columns of Q.
// PARTS-LABEL: func.func @stride2
// PARTS:         linalg.generic {{.*}} outs(%{{.*}} : tensor<2x5x11x64x2xbf16>) attrs =  {conv.role = "pair_pack"}
// PARTS:         %[[Q:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<2x3x3x64x2xbf16>) attrs =  {conv.role = "pair_pack"}
// PARTS:         scf.forall (%{{.*}}, %{{.*}}, %[[PART:.*]]) in (3, 3, 2)
// PARTS:           %[[CO:.*]] = affine.apply affine_map<(d0) -> (d0 * 32)>(%[[PART]])
// PARTS:           tensor.extract_slice %[[Q]][0, 0, 0, %[[CO]], 0] [2, 3, 3, 32, 2] [1, 1, 1, 1, 1]
// PARTS:           conv.dw_pairs, conv.role = "dw_tap"
func.func @stride2(%x: tensor<2x5x13x64xbf16>, %dy: tensor<2x3x6x64xbf16>) -> tensor<3x3x64x64xbf16> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = VALID strides = [1, 2] dilations = [1, 1] : tensor<2x5x13x64xbf16>, tensor<2x3x6x64xbf16> -> tensor<3x3x64x64xbf16>
  return %dw : tensor<3x3x64x64xbf16>
}

// -----

// Dilation 2 and SAME padding along W: the window is padded by 2 + 2
// columns (k_eff 5), P spans (8 - 2) + 4 + 1 = 11 of its 12 columns, tap kw
// reads it at 2*kw + 2j. The rows keep their padding cuts (dynamic
// sizes); the columns are not cut (a cut could split a pair).
// CHECK-LABEL: func.func @dilated_same
// CHECK:         tensor.pad %{{.*}} low[0, 1, 2, 0] high[0, 1, 2, 0]
// CHECK:         linalg.generic {{.*}} outs(%{{.*}} : tensor<1x6x11x48x2xbf16>) attrs =  {conv.role = "pair_pack"}
// CHECK:         linalg.generic {{.*}} outs(%{{.*}} : tensor<1x4x4x80x2xbf16>) attrs =  {conv.role = "pair_pack"}
// CHECK:         scf.forall (%[[KH:.*]], %[[KW:.*]]) in (3, 3)
// CHECK:           %[[OFF:.*]] = arith.muli %[[KW]], %{{.*}} : index
// CHECK:           tensor.extract_slice %{{.*}}[0, %[[KH]], %[[OFF]], 0, 0] [1, 4, 4, 48, 2] [1, 1, 2, 1, 1]
// CHECK:           tensor<1x?x4x48x2xbf16>
// CHECK:           conv.dw_pairs, conv.role = "dw_tap"
func.func @dilated_same(%x: tensor<1x4x8x48xbf16>, %dy: tensor<1x4x8x80xbf16>) -> tensor<3x3x48x80xbf16> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = SAME strides = [1, 1] dilations = [1, 2] : tensor<1x4x8x48xbf16>, tensor<1x4x8x80xbf16> -> tensor<3x3x48x80xbf16>
  return %dw : tensor<3x3x48x80xbf16>
}
