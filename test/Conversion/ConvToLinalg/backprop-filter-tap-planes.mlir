// RUN: conv-opt %s --convert-conv-to-linalg="dw-tap-plane-lanes=16" --canonicalize --mlir-print-local-scope --split-input-file | FileCheck %s
// RUN: conv-opt %s --convert-conv-to-linalg --canonicalize --mlir-print-local-scope --split-input-file | FileCheck %s --check-prefix=OFF
// RUN: conv-opt %s --convert-conv-to-linalg="dw-tap-plane-lanes=16 dw-threads=2" --canonicalize --mlir-print-local-scope --split-input-file | FileCheck %s --check-prefix=PARTS

// Tap planes (docs/Lowering.md §2.9): a depthwise channels-last f32 filter
// gradient contracts all the taps of its last two kernel dimensions in one
// contraction per leading tap, over the output positions (p, q), reading
// the input window at (p*s0 + k0*d0, q*s1 + k1*d1). Over the interior of
// output positions at which every tap reads the input, the window is a
// slice of the input; the strips around it (above and below, whole along
// the last dimension, then left and right) read a zero-bordered copy of the
// input rows they need (conv.role = "window_border"), so the window itself
// only reads its interior; they are marked conv.plane_strip (the code
// generator runs their taps one after the other).

// 3x3 SAME on 10x12: interior output rows [1, 9) x columns [1, 11), which
// read the input whole; the top row 0 reads window rows [0, 3): input rows
// [0, 2) with a zero row above, and its columns [0, 12) with a zero column
// on either side; the bottom row 9 input rows [8, 10) and a zero row below;
// the left column 0 of rows [1, 9) input columns [0, 2) and a zero column on
// the left; the right column 11 input columns [10, 12) and one on the right.
// CHECK-LABEL: func.func @dw_same
// CHECK:         %[[PAD:.*]] = tensor.pad %arg0 low[0, 1, 1, 0] high[0, 1, 1, 0]
// CHECK:         {conv.interior_reads}
// CHECK-NOT:     scf.forall
// CHECK:         %[[ACC:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<3x3x32xf32>)
// CHECK:         %[[Y0:.*]] = tensor.extract_slice %arg1[0, 1, 0, 0] [2, 8, 12, 32]
// CHECK:         %[[X0:.*]] = tensor.extract_slice %[[PAD]][0, 1, 0, 0] [2, 10, 14, 32]
// CHECK:         %[[YI:.*]] = tensor.extract_slice %[[Y0]][0, 0, 1, 0] [2, 8, 10, 32]
// CHECK:         %[[XI:.*]] = tensor.extract_slice %[[X0]][0, 0, 1, 0] [2, 10, 12, 32]
// CHECK:         %[[S0:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d3, d1 + d4, d2 + d5, d0)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d3, d4, d5, d0)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d1, d2, d0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
// CHECK-SAME:      ins(%[[XI]], %[[YI]] : tensor<2x10x12x32xf32>, tensor<2x8x10x32xf32>) outs(%[[ACC]] : tensor<3x3x32xf32>) attrs = {conv.role = "dw_depthwise_plane"}
// CHECK:         tensor.extract_slice %arg1[0, 0, 0, 0] [2, 1, 12, 32]
// CHECK:         tensor.extract_slice %[[PAD]][0, 1, 0, 0] [2, 2, 14, 32]
// CHECK:         %[[XT:.*]] = tensor.extract_slice %{{.*}}[0, 0, 1, 0] [2, 2, 12, 32]
// CHECK:         tensor.pad %[[XT]] low[0, 1, 1, 0] high[0, 0, 1, 0]
// CHECK:         {conv.role = "window_border"} : tensor<2x2x12x32xf32> to tensor<2x3x14x32xf32>
// CHECK:         %[[S1:.*]] = linalg.generic
// CHECK-SAME:      outs(%[[S0]] : tensor<3x3x32xf32>) attrs = {conv.plane_strip, conv.role = "dw_depthwise_plane"}
// CHECK:         tensor.extract_slice %arg1[0, 9, 0, 0] [2, 1, 12, 32]
// CHECK:         tensor.extract_slice %[[PAD]][0, 9, 0, 0] [2, 2, 14, 32]
// CHECK:         tensor.pad %{{.*}} low[0, 0, 1, 0] high[0, 1, 1, 0]
// CHECK:         %[[S2:.*]] = linalg.generic
// CHECK-SAME:      outs(%[[S1]] : tensor<3x3x32xf32>) attrs = {conv.plane_strip, conv.role = "dw_depthwise_plane"}
// CHECK:         tensor.extract_slice %{{.*}}[0, 0, 0, 0] [2, 8, 1, 32]
// CHECK:         tensor.extract_slice %{{.*}}[0, 0, 1, 0] [2, 10, 2, 32]
// CHECK:         tensor.pad %{{.*}} low[0, 0, 1, 0] high[0, 0, 0, 0]
// CHECK:         %[[S3:.*]] = linalg.generic
// CHECK-SAME:      outs(%[[S2]] : tensor<3x3x32xf32>) attrs = {conv.plane_strip, conv.role = "dw_depthwise_plane"}
// CHECK:         tensor.extract_slice %{{.*}}[0, 0, 11, 0] [2, 8, 1, 32]
// CHECK:         tensor.extract_slice %{{.*}}[0, 0, 11, 0] [2, 10, 2, 32]
// CHECK:         tensor.pad %{{.*}} low[0, 0, 0, 0] high[0, 0, 1, 0]
// CHECK:         %[[S4:.*]] = linalg.generic
// CHECK-SAME:      outs(%[[S3]] : tensor<3x3x32xf32>) attrs = {conv.plane_strip, conv.role = "dw_depthwise_plane"}
// CHECK:         %[[OUT:.*]] = tensor.expand_shape %[[S4]] {{\[}}[0], [1], [2, 3]] output_shape [3, 3, 1, 32]
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

// VALID, 2x3 taps with dilation 2 along the columns: every tap reads the
// input at every output position, one contraction and no strip.
// CHECK-LABEL: func.func @dw_valid_dilated
// CHECK-NOT:     tensor.pad
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d3, d1 + d4, d5 + d2 * 2, d0)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d3, d4, d5, d0)>
// CHECK-SAME:      ins(%arg0, %arg1 : tensor<1x9x32x16xf32>, tensor<1x8x28x16xf32>) outs(%{{.*}} : tensor<2x3x16xf32>) attrs = {conv.role = "dw_depthwise_plane"}
// CHECK-NOT:     conv.role = "dw_depthwise_plane"
// CHECK:         return
func.func @dw_valid_dilated(%x: tensor<1x9x32x16xf32>, %dy: tensor<1x8x28x16xf32>) -> tensor<2x3x1x16xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = VALID
          strides = [1, 1] dilations = [1, 2]
          : tensor<1x9x32x16xf32>, tensor<1x8x28x16xf32> -> tensor<2x3x1x16xf32>
  return %dw : tensor<2x3x1x16xf32>
}

// -----

// Stride 2, SAME 3x3 on 16x16 (output 8x8, padding 0 before, 1 after):
// the input read at (2p + k0, 2q + k1); interior output rows and columns
// [0, 7), then the bottom row (a zero row below, a zero column on the
// right) and the right column of rows [0, 7) (a zero column on the right).
// CHECK-LABEL: func.func @dw_strided
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d3, d4 * 2 + d1, d5 * 2 + d2, d0)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d3, d4, d5, d0)>
// CHECK-SAME:      ins(%{{.*}}, %{{.*}} : tensor<1x15x15x16xf32>, tensor<1x7x7x16xf32>)
// CHECK:         tensor.pad %{{.*}} low[0, 0, 0, 0] high[0, 1, 1, 0]
// CHECK:         {conv.role = "window_border"} : tensor<1x2x16x16xf32> to tensor<1x3x17x16xf32>
// CHECK:         conv.role = "dw_depthwise_plane"
// CHECK:         tensor.pad %{{.*}} low[0, 0, 0, 0] high[0, 0, 1, 0]
// CHECK:         conv.role = "dw_depthwise_plane"
// CHECK-NOT:     conv.role = "dw_depthwise_plane"
// CHECK:         return
func.func @dw_strided(%x: tensor<1x16x16x16xf32>, %dy: tensor<1x8x8x16xf32>) -> tensor<3x3x1x16xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = SAME
          strides = [2, 2] dilations = [1, 1]
          : tensor<1x16x16x16xf32>, tensor<1x8x8x16xf32> -> tensor<3x3x1x16xf32>
  return %dw : tensor<3x3x1x16xf32>
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

// Not tap planes: an interior of 2 of 4 output positions (stride 2 on 7x7
// SAME 3x3, padding 1 on either side), channels that are not whole vectors, 5x5 taps (25 accumulators), a 7x7 plane (interior 5 of
// 7), a grouped layer with 2 channels a group, channels first.
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
func.func @not_strided(%x: tensor<1x7x7x16xf32>, %dy: tensor<1x4x4x16xf32>) -> tensor<3x3x1x16xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = SAME
          strides = [2, 2] dilations = [1, 1]
          : tensor<1x7x7x16xf32>, tensor<1x4x4x16xf32> -> tensor<3x3x1x16xf32>
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
