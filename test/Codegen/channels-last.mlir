// RUN: conv-opt %s --conv-cpu-channels-last --split-input-file | FileCheck %s

// A channels-first filter gradient becomes the NHWC op on relayouts of its
// two activations; attributes and the filter ([kh, kw, Cin, Cout]) are
// unchanged.
// CHECK-LABEL: func.func @dw_nchw(
// CHECK-SAME:    %[[X:.*]]: tensor<2x3x9x8xf32>, %[[DY:.*]]: tensor<2x4x4x4xf32>)
// CHECK:         %[[XE:.*]] = tensor.empty() : tensor<2x9x8x3xf32>
// CHECK:         %[[XT:.*]] = linalg.transpose ins(%[[X]] : tensor<2x3x9x8xf32>) outs(%[[XE]] : tensor<2x9x8x3xf32>) permutation = [0, 2, 3, 1] {conv.role = "relayout"}
// CHECK:         %[[DYE:.*]] = tensor.empty() : tensor<2x4x4x4xf32>
// CHECK:         %[[DYT:.*]] = linalg.transpose ins(%[[DY]] : tensor<2x4x4x4xf32>) outs(%[[DYE]] : tensor<2x4x4x4xf32>) permutation = [0, 2, 3, 1] {conv.role = "relayout"}
// CHECK:         %[[DW:.*]] = conv.backprop_filter %[[XT]], %[[DYT]] data_format = NHWC padding = EXPLICIT explicit_paddings = [1, 0, 0, 1] strides = [2, 2] dilations = [1, 1] : tensor<2x9x8x3xf32>, tensor<2x4x4x4xf32> -> tensor<3x3x3x4xf32>
// CHECK:         return %[[DW]]
func.func @dw_nchw(%x: tensor<2x3x9x8xf32>, %dy: tensor<2x4x4x4xf32>) -> tensor<3x3x3x4xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NCHW padding = EXPLICIT explicit_paddings = [1, 0, 0, 1] strides = [2, 2] dilations = [1, 1] : tensor<2x3x9x8xf32>, tensor<2x4x4x4xf32> -> tensor<3x3x3x4xf32>
  return %dw : tensor<3x3x3x4xf32>
}

// -----

// 1-D and 3-D (grouped: the filter's Cin is Cin / groups in both layouts).
// CHECK-LABEL: func.func @dw_ncw_ncdhw(
// CHECK:         linalg.transpose ins(%{{.*}} : tensor<1x4x10xf32>) outs(%{{.*}} : tensor<1x10x4xf32>) permutation = [0, 2, 1]
// CHECK:         linalg.transpose ins(%{{.*}} : tensor<1x6x8xf32>) outs(%{{.*}} : tensor<1x8x6xf32>) permutation = [0, 2, 1]
// CHECK:         conv.backprop_filter {{.*}} data_format = NWC padding = VALID strides = [1] dilations = [1] : tensor<1x10x4xf32>, tensor<1x8x6xf32> -> tensor<3x4x6xf32>
// CHECK:         linalg.transpose ins(%{{.*}} : tensor<2x4x5x6x7xbf16>) outs(%{{.*}} : tensor<2x5x6x7x4xbf16>) permutation = [0, 2, 3, 4, 1]
// CHECK:         linalg.transpose ins(%{{.*}} : tensor<2x6x5x6x7xbf16>) outs(%{{.*}} : tensor<2x5x6x7x6xbf16>) permutation = [0, 2, 3, 4, 1]
// CHECK:         conv.backprop_filter {{.*}} data_format = NDHWC padding = SAME strides = [1, 1, 1] dilations = [1, 1, 1] : tensor<2x5x6x7x4xbf16>, tensor<2x5x6x7x6xbf16> -> tensor<1x3x3x2x6xbf16>
func.func @dw_ncw_ncdhw(%x1: tensor<1x4x10xf32>, %dy1: tensor<1x6x8xf32>, %x3: tensor<2x4x5x6x7xbf16>, %dy3: tensor<2x6x5x6x7xbf16>) -> (tensor<3x4x6xf32>, tensor<1x3x3x2x6xbf16>) {
  %a = conv.backprop_filter %x1, %dy1 data_format = NCW padding = VALID strides = [1] dilations = [1] : tensor<1x4x10xf32>, tensor<1x6x8xf32> -> tensor<3x4x6xf32>
  %b = conv.backprop_filter %x3, %dy3 data_format = NCDHW padding = SAME strides = [1, 1, 1] dilations = [1, 1, 1] : tensor<2x4x5x6x7xbf16>, tensor<2x6x5x6x7xbf16> -> tensor<1x3x3x2x6xbf16>
  return %a, %b : tensor<3x4x6xf32>, tensor<1x3x3x2x6xbf16>
}

// -----

// A channels-first transposed convolution: the input to channels last, the
// channels-last op (output_padding and the [kh, kw, Cout, Cin] kernel
// unchanged), and its result back to channels first.
// CHECK-LABEL: func.func @transpose_nchw(
// CHECK-SAME:    %[[X:.*]]: tensor<2x3x4x5xf32>, %[[K:.*]]: tensor<3x3x7x3xf32>)
// CHECK:         %[[XT:.*]] = linalg.transpose ins(%[[X]] : tensor<2x3x4x5xf32>) outs(%{{.*}} : tensor<2x4x5x3xf32>) permutation = [0, 2, 3, 1] {conv.role = "relayout"}
// CHECK:         %[[Y:.*]] = conv.transpose %[[XT]], %[[K]] data_format = channels_last padding = same strides = [2, 2] dilation_rate = [1, 1] output_padding = [1, 0] : tensor<2x4x5x3xf32>, tensor<3x3x7x3xf32> -> tensor<2x8x9x7xf32>
// CHECK:         %[[YE:.*]] = tensor.empty() : tensor<2x7x8x9xf32>
// CHECK:         %[[YT:.*]] = linalg.transpose ins(%[[Y]] : tensor<2x8x9x7xf32>) outs(%[[YE]] : tensor<2x7x8x9xf32>) permutation = [0, 3, 1, 2] {conv.role = "relayout"}
// CHECK:         return %[[YT]]
func.func @transpose_nchw(%x: tensor<2x3x4x5xf32>, %k: tensor<3x3x7x3xf32>) -> tensor<2x7x8x9xf32> {
  %y = conv.transpose %x, %k data_format = channels_first padding = same strides = [2, 2] dilation_rate = [1, 1] output_padding = [1, 0] : tensor<2x3x4x5xf32>, tensor<3x3x7x3xf32> -> tensor<2x7x8x9xf32>
  return %y : tensor<2x7x8x9xf32>
}

// -----

// Channels-last ops are left alone.
// CHECK-LABEL: func.func @already_last(
// CHECK-NOT:     linalg.transpose
// CHECK:         conv.backprop_filter {{.*}} data_format = NHWC
// CHECK-NOT:     linalg.transpose
// CHECK:         conv.transpose {{.*}} data_format = channels_last
// CHECK-NOT:     linalg.transpose
func.func @already_last(%x: tensor<1x4x4x3xf32>, %dy: tensor<1x4x4x2xf32>, %k: tensor<2x2x5x3xf32>) -> (tensor<3x3x3x2xf32>, tensor<1x8x8x5xf32>) {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = SAME strides = [1, 1] dilations = [1, 1] : tensor<1x4x4x3xf32>, tensor<1x4x4x2xf32> -> tensor<3x3x3x2xf32>
  %y = conv.transpose %x, %k data_format = channels_last padding = valid strides = [2, 2] dilation_rate = [1, 1] : tensor<1x4x4x3xf32>, tensor<2x2x5x3xf32> -> tensor<1x8x8x5xf32>
  return %dw, %y : tensor<3x3x3x2xf32>, tensor<1x8x8x5xf32>
}
