// RUN: conv-opt %s | conv-opt | FileCheck %s
// RUN: conv-opt %s --mlir-print-op-generic | conv-opt | FileCheck %s

// CHECK-LABEL: func.func @bf_same
// CHECK: conv.backprop_filter %{{.*}}, %{{.*}} data_format = NHWC padding = SAME strides = [2, 2] dilations = [1, 1] : tensor<1x4x4x3xf32>, tensor<1x2x2x2xf32> -> tensor<3x3x3x2xf32>
func.func @bf_same(%x: tensor<1x4x4x3xf32>, %dy: tensor<1x2x2x2xf32>) -> tensor<3x3x3x2xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = SAME strides = [2, 2] dilations = [1, 1] : tensor<1x4x4x3xf32>, tensor<1x2x2x2xf32> -> tensor<3x3x3x2xf32>
  return %dw : tensor<3x3x3x2xf32>
}
