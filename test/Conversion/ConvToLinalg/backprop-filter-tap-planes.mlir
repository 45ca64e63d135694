// RUN: conv-opt %s --convert-conv-to-linalg="dw-tap-plane-lanes=16" --canonicalize --mlir-print-local-scope --split-input-file | FileCheck %s
// RUN: conv-opt %s --convert-conv-to-linalg --canonicalize --mlir-print-local-scope --split-input-file | FileCheck %s --check-prefix=OFF
// RUN: conv-opt %s --convert-conv-to-linalg="dw-tap-plane-lanes=16 dw-threads=2" --canonicalize --mlir-print-local-scope --split-input-file | FileCheck %s --check-prefix=PARTS

// Tap planes (docs/Lowering.md §2.9): a depthwise channels-last f32 filter
// gradient with stride 1 along its last two spatial dimensions contracts all
// the taps of its last two kernel dimensions in one contraction per leading
// tap, over the input positions (p, q), reading out_backprop at
// (p + k0', q + k1') - k' = K - 1 - k, the taps reversed - shifted by
// L = (K-1)*dil - padBefore. Input positions in [L, W - H) read out_backprop
// itself; the strips outside them (above and below, whole along the last
// dimension, then left and right) read a zero-bordered copy of the
// out_backprop rows they pair with.

// 3x3 SAME on 10x12 (L = H = 1): interior rows [1, 9) x columns [1, 11)
// with out_backprop [0, 10) x [0, 12); the top row 0 with out_backprop rows
// [0, 2) padded by 1 above and columns [0, 12) by 1 on both sides; the
// bottom row 9 with rows [8, 10) padded by 1 below; the left column 0 of
// rows [1, 9) with out_backprop columns [0, 2) padded by 1 on the left; the
// right column 11 with columns [10, 12) padded by 1 on the right.
// CHECK-LABEL: func.func @dw_same
// CHECK:         %[[ZERO:.*]] = linalg.fill
// CHECK:         {conv.interior_reads}
// CHECK-NOT:     scf.forall
// CHECK:         %[[X:.*]] = tensor.extract_slice %{{.*}}[0, 0, 1, 0] [2, 10, 12, 32] [1, 1, 1, 1] : tensor<2x10x14x32xf32> to tensor<2x10x12x32xf32>
// CHECK:         %[[REV:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (-d0 + 2, -d1 + 2, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>]
// CHECK-SAME:      ins(%[[ZERO]] : tensor<3x3x1x32xf32>)
// CHECK:         %[[XI0:.*]] = tensor.extract_slice %[[X]][0, 1, 0, 0] [2, 8, 12, 32]
// CHECK:         %[[XI:.*]] = tensor.extract_slice %[[XI0]][0, 0, 1, 0] [2, 8, 10, 32]
// CHECK:         %[[ACC:.*]] = tensor.collapse_shape %[[REV]] {{\[}}[0], [1], [2, 3]] : tensor<3x3x1x32xf32> into tensor<3x3x32xf32>
// CHECK:         %[[S0:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d3, d4, d5, d0)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d3, d1 + d4, d2 + d5, d0)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d1, d2, d0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
// CHECK-SAME:      ins(%[[XI]], %arg1 : tensor<2x8x10x32xf32>, tensor<2x10x12x32xf32>) outs(%[[ACC]] : tensor<3x3x32xf32>) attrs = {conv.role = "dw_depthwise_plane"}
// CHECK:         tensor.extract_slice %[[X]][0, 0, 0, 0] [2, 1, 12, 32]
// CHECK:         %[[YT:.*]] = tensor.extract_slice %arg1[0, 0, 0, 0] [2, 2, 12, 32]
// CHECK:         tensor.pad %[[YT]] low[0, 1, 1, 0] high[0, 0, 1, 0]
// CHECK:         {conv.role = "dy_border"} : tensor<2x2x12x32xf32> to tensor<2x3x14x32xf32>
// CHECK:         %[[S1:.*]] = linalg.generic
// CHECK-SAME:      outs(%[[S0]] : tensor<3x3x32xf32>) attrs = {conv.role = "dw_depthwise_plane"}
// CHECK:         tensor.extract_slice %[[X]][0, 9, 0, 0] [2, 1, 12, 32]
// CHECK:         %[[YB:.*]] = tensor.extract_slice %arg1[0, 8, 0, 0] [2, 2, 12, 32]
// CHECK:         tensor.pad %[[YB]] low[0, 0, 1, 0] high[0, 1, 1, 0]
// CHECK:         %[[S2:.*]] = linalg.generic
// CHECK-SAME:      outs(%[[S1]] : tensor<3x3x32xf32>) attrs = {conv.role = "dw_depthwise_plane"}
// CHECK:         tensor.extract_slice %{{.*}}[0, 0, 0, 0] [2, 8, 1, 32]
// CHECK:         %[[YL:.*]] = tensor.extract_slice %arg1[0, 0, 0, 0] [2, 10, 2, 32]
// CHECK:         tensor.pad %[[YL]] low[0, 0, 1, 0] high[0, 0, 0, 0]
// CHECK:         %[[S3:.*]] = linalg.generic
// CHECK-SAME:      outs(%[[S2]] : tensor<3x3x32xf32>) attrs = {conv.role = "dw_depthwise_plane"}
// CHECK:         tensor.extract_slice %{{.*}}[0, 0, 11, 0] [2, 8, 1, 32]
// CHECK:         %[[YR:.*]] = tensor.extract_slice %arg1[0, 0, 10, 0] [2, 10, 2, 32]
// CHECK:         tensor.pad %[[YR]] low[0, 0, 0, 0] high[0, 0, 1, 0]
// CHECK:         %[[S4:.*]] = linalg.generic
// CHECK-SAME:      outs(%[[S3]] : tensor<3x3x32xf32>) attrs = {conv.role = "dw_depthwise_plane"}
// CHECK:         %[[E:.*]] = tensor.expand_shape %[[S4]]
// CHECK:         %[[OUT:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (-d0 + 2, -d1 + 2, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>]
// CHECK-SAME:      ins(%[[E]] : tensor<3x3x1x32xf32>) outs(%[[ZERO]] : tensor<3x3x1x32xf32>)
// CHECK:         return %[[OUT]]
// On 2 threads: the plane in 2 channel parts of one vector each.
// PARTS-LABEL: func.func @dw_same
// PARTS:         scf.forall (%[[P:.*]]) in (2)
// PARTS:           %[[C:.*]] = affine.apply affine_map<(d0) -> (d0 * 16)>(%[[P]])
// PARTS:           tensor.extract_slice %arg1[0, 0, 0, %[[C]]] [2, 10, 12, 16]
// PARTS:           tensor.extract_slice %{{.*}}[0, 0, 0, %[[C]]] [3, 3, 1, 16]
// PARTS-COUNT-5:   conv.role = "dw_depthwise_plane"
// PARTS:           tensor.parallel_insert_slice %{{.*}} into %{{.*}}[0, 0, 0, %[[C]]] [3, 3, 1, 16]
// Without the option: one contraction per tap.
// OFF-LABEL: func.func @dw_same
// OFF:         scf.forall ({{.*}}) in (3, 3)
// OFF:         conv.role = "dw_depthwise"
// OFF-NOT:     dw_depthwise_plane
// OFF:         return
func.func @dw_same(%x: tensor<2x10x12x32xf32>, %dy: tensor<2x10x12x32xf32>) -> tensor<3x3x1x32xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = SAME
          strides = [1, 1] dilations = [1, 1]
          : tensor<2x10x12x32xf32>, tensor<2x10x12x32xf32> -> tensor<3x3x1x32xf32>
  return %dw : tensor<3x3x1x32xf32>
}

// -----

// VALID, 2x3 taps with dilation 2 along the columns over 9x32, output
// 8x28: L = H = 1 along the rows, 4 along the columns. Interior rows
// [1, 8) x columns [4, 28) with out_backprop whole; the strips' zero
// borders are as wide as the positions they miss.
// CHECK-LABEL: func.func @dw_valid_dilated
// CHECK-NOT:     {conv.interior_reads}
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d3, d4, d5, d0)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d3, d1 + d4, d5 + d2 * 2, d0)>
// CHECK-SAME:      ins(%{{.*}}, %arg1 : tensor<1x7x24x16xf32>, tensor<1x8x28x16xf32>) outs(%{{.*}} : tensor<2x3x16xf32>) attrs = {conv.role = "dw_depthwise_plane"}
// CHECK:         tensor.pad %{{.*}} low[0, 1, 4, 0] high[0, 0, 4, 0]
// CHECK:         conv.role = "dw_depthwise_plane"
// CHECK:         tensor.pad %{{.*}} low[0, 0, 4, 0] high[0, 1, 4, 0]
// CHECK:         conv.role = "dw_depthwise_plane"
// CHECK:         tensor.pad %{{.*}} low[0, 0, 4, 0] high[0, 0, 0, 0]
// CHECK:         conv.role = "dw_depthwise_plane"
// CHECK:         tensor.pad %{{.*}} low[0, 0, 0, 0] high[0, 0, 4, 0]
// CHECK:         conv.role = "dw_depthwise_plane"
// CHECK-NOT:     conv.role = "dw_depthwise_plane"
// CHECK:         return
func.func @dw_valid_dilated(%x: tensor<1x9x32x16xf32>, %dy: tensor<1x8x28x16xf32>) -> tensor<2x3x1x16xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = VALID
          strides = [1, 1] dilations = [1, 2]
          : tensor<1x9x32x16xf32>, tensor<1x8x28x16xf32> -> tensor<2x3x1x16xf32>
  return %dw : tensor<2x3x1x16xf32>
}

// -----

// 3-D: one plane contraction set per leading (depth) tap, the depth rows
// cut to those that read the input.
// CHECK-LABEL: func.func @dw_3d
// CHECK:         scf.forall (%[[KD:.*]]) in (3)
// CHECK:           tensor.extract_slice %{{.*}}[%[[KD]], 0, 0, 0, 0] [1, 3, 3, 1, 32]
// CHECK-COUNT-5:   conv.role = "dw_depthwise_plane"
// CHECK:           tensor.parallel_insert_slice %{{.*}} into %{{.*}}[%[[KD]], 0, 0, 0, 0] [1, 3, 3, 1, 32]
func.func @dw_3d(%x: tensor<1x4x10x10x32xf32>, %dy: tensor<1x4x10x10x32xf32>) -> tensor<3x3x3x1x32xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NDHWC padding = SAME
          strides = [1, 1, 1] dilations = [1, 1, 1]
          : tensor<1x4x10x10x32xf32>, tensor<1x4x10x10x32xf32> -> tensor<3x3x3x1x32xf32>
  return %dw : tensor<3x3x3x1x32xf32>
}

// -----

// Not tap planes: stride 2 along the plane, channels that are not whole
// vectors, 5x5 taps (25 accumulators), a 7x7 plane (interior 5 of 7), a
// grouped layer with 2 channels a group, channels first.
// CHECK-LABEL: func.func @not_strided
// CHECK-NOT:     dw_depthwise_plane
// CHECK-LABEL: func.func @not_24_channels
// CHECK-NOT:     dw_depthwise_plane
// CHECK-LABEL: func.func @not_5x5
// CHECK-NOT:     dw_depthwise_plane
// CHECK-LABEL: func.func @not_small
// CHECK-NOT:     dw_depthwise_plane
// CHECK-LABEL: func.func @not_depthwise
// CHECK-NOT:     dw_depthwise_plane
// CHECK-LABEL: func.func @not_channels_first
// CHECK-NOT:     dw_depthwise_plane
// CHECK:         return
func.func @not_strided(%x: tensor<1x16x16x16xf32>, %dy: tensor<1x8x8x16xf32>) -> tensor<3x3x1x16xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = SAME
          strides = [2, 2] dilations = [1, 1]
          : tensor<1x16x16x16xf32>, tensor<1x8x8x16xf32> -> tensor<3x3x1x16xf32>
  return %dw : tensor<3x3x1x16xf32>
}
func.func @not_24_channels(%x: tensor<1x16x16x24xf32>, %dy: tensor<1x16x16x24xf32>) -> tensor<3x3x1x24xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = SAME
          strides = [1, 1] dilations = [1, 1]
          : tensor<1x16x16x24xf32>, tensor<1x16x16x24xf32> -> tensor<3x3x1x24xf32>
  return %dw : tensor<3x3x1x24xf32>
}
func.func @not_5x5(%x: tensor<1x20x20x16xf32>, %dy: tensor<1x20x20x16xf32>) -> tensor<5x5x1x16xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = SAME
          strides = [1, 1] dilations = [1, 1]
          : tensor<1x20x20x16xf32>, tensor<1x20x20x16xf32> -> tensor<5x5x1x16xf32>
  return %dw : tensor<5x5x1x16xf32>
}
func.func @not_small(%x: tensor<1x7x7x16xf32>, %dy: tensor<1x7x7x16xf32>) -> tensor<3x3x1x16xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = SAME
          strides = [1, 1] dilations = [1, 1]
          : tensor<1x7x7x16xf32>, tensor<1x7x7x16xf32> -> tensor<3x3x1x16xf32>
  return %dw : tensor<3x3x1x16xf32>
}
func.func @not_depthwise(%x: tensor<1x16x16x32xf32>, %dy: tensor<1x16x16x16xf32>) -> tensor<3x3x2x16xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = SAME
          strides = [1, 1] dilations = [1, 1]
          : tensor<1x16x16x32xf32>, tensor<1x16x16x16xf32> -> tensor<3x3x2x16xf32>
  return %dw : tensor<3x3x2x16xf32>
}
func.func @not_channels_first(%x: tensor<1x16x16x16xf32>, %dy: tensor<1x16x16x16xf32>) -> tensor<3x3x1x16xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NCHW padding = SAME
          strides = [1, 1] dilations = [1, 1]
          : tensor<1x16x16x16xf32>, tensor<1x16x16x16xf32> -> tensor<3x3x1x16xf32>
  return %dw : tensor<3x3x1x16xf32>
}
