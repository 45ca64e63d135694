// RUN: conv-opt %s --convert-conv-to-linalg --canonicalize --mlir-print-local-scope --split-input-file | FileCheck %s

// Depthwise filter gradients (one input and one output channel a group,
// channels last; docs/Lowering.md §2, step 7): each tap's contraction is
// elementwise over the channels, loops [c, b, o...], on the tap's row of
// dW as a rank-1 [C] slice (conv.role = "dw_depthwise"), without the unit
// ci / co dimensions of the group split.
// CHECK-LABEL: func.func @depthwise
// CHECK:         scf.forall (%[[KH:.*]], %[[KW:.*]]) in (3, 3)
// CHECK:           %[[ROW:.*]] = tensor.extract_slice %{{.*}}[%[[KH]], %[[KW]], 0, 0] [1, 1, 1, 72] [1, 1, 1, 1] : tensor<3x3x1x72xf32> to tensor<72xf32>
// CHECK:           %[[R:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1, d2, d3, d0)>, affine_map<(d0, d1, d2, d3) -> (d1, d2, d3, d0)>, affine_map<(d0, d1, d2, d3) -> (d0)>], iterator_types = ["parallel", "reduction", "reduction", "reduction"]}
// CHECK-SAME:        outs(%[[ROW]] : tensor<72xf32>) attrs = {conv.role = "dw_depthwise"}
// CHECK-NOT:       tensor.expand_shape
// CHECK:           tensor.parallel_insert_slice %[[R]] into %{{.*}}[%[[KH]], %[[KW]], 0, 0] [1, 1, 1, 72] [1, 1, 1, 1] : tensor<72xf32> into tensor<3x3x1x72xf32>
func.func @depthwise(%x: tensor<2x6x20x72xf32>, %dy: tensor<2x6x20x72xf32>) -> tensor<3x3x1x72xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = SAME
          strides = [1, 1] dilations = [1, 1]
          : tensor<2x6x20x72xf32>, tensor<2x6x20x72xf32> -> tensor<3x3x1x72xf32>
  return %dw : tensor<3x3x1x72xf32>
}

// -----

// 1-D, stride 2, dilation 2, bf16 operands (the body widens them; dW
// accumulates in f32).
// CHECK-LABEL: func.func @depthwise_1d_bf16
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d1, d2, d0)>, affine_map<(d0, d1, d2) -> (d1, d2, d0)>, affine_map<(d0, d1, d2) -> (d0)>], iterator_types = ["parallel", "reduction", "reduction"]}
// CHECK-SAME:      ins(%{{.*}}, %{{.*}} : tensor<1x{{.*}}x32xbf16>, tensor<1x{{.*}}x32xbf16>) outs(%{{.*}} : tensor<32xf32>) attrs = {conv.role = "dw_depthwise"}
// CHECK:           arith.extf
func.func @depthwise_1d_bf16(%x: tensor<1x40x32xbf16>, %dy: tensor<1x18x32xbf16>) -> tensor<3x1x32xbf16> {
  %dw = conv.backprop_filter %x, %dy data_format = NWC padding = VALID
          strides = [2] dilations = [2]
          : tensor<1x40x32xbf16>, tensor<1x18x32xbf16> -> tensor<3x1x32xbf16>
  return %dw : tensor<3x1x32xbf16>
}

// -----

// Not depthwise: a channel multiplier of 2 (one input, two output channels
// a group), and channels first (the CPU pipeline relayouts those to
// channels last first): per-group contractions of the group split.
// CHECK-LABEL: func.func @multiplier2
// CHECK-NOT:     dw_depthwise
// CHECK:         conv.role = "dw_tap"
func.func @multiplier2(%x: tensor<2x6x20x32xf32>, %dy: tensor<2x6x20x64xf32>) -> tensor<3x3x1x64xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = SAME
          strides = [1, 1] dilations = [1, 1]
          : tensor<2x6x20x32xf32>, tensor<2x6x20x64xf32> -> tensor<3x3x1x64xf32>
  return %dw : tensor<3x3x1x64xf32>
}
// CHECK-LABEL: func.func @nchw
// CHECK-NOT:     dw_depthwise
// CHECK:         conv.role = "dw_tap"
func.func @nchw(%x: tensor<2x32x6x20xf32>, %dy: tensor<2x32x6x20xf32>) -> tensor<3x3x1x32xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NCHW padding = SAME
          strides = [1, 1] dilations = [1, 1]
          : tensor<2x32x6x20xf32>, tensor<2x32x6x20xf32> -> tensor<3x3x1x32xf32>
  return %dw : tensor<3x3x1x32xf32>
}
