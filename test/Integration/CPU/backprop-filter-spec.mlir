// RUN: conv-opt %s --conv-lower-to-llvm-cpu | \
// RUN:   mlir-runner -e main -entry-point-result=void \
// RUN:     -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils | FileCheck %s

// Spec §3.3 (XLA conv2d_test.py, canned TF CPU results): input arange(1..6)
// as [1,2,3,1], out_backprop arange(1..2) as [1,1,2,1], 2x2 filter, strides
// 2, SAME -> 7, 2, 16, 5.
func.func @bf(%x: tensor<1x2x3x1xf32>, %dy: tensor<1x1x2x1xf32>) -> tensor<2x2x1x1xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = SAME
          strides = [2, 2] dilations = [1, 1]
          : tensor<1x2x3x1xf32>, tensor<1x1x2x1xf32> -> tensor<2x2x1x1xf32>
  return %dw : tensor<2x2x1x1xf32>
}

func.func private @printMemrefF32(memref<*xf32>)

func.func @main() {
  %x = arith.constant dense<[[[[1.0], [2.0], [3.0]], [[4.0], [5.0], [6.0]]]]> : tensor<1x2x3x1xf32>
  %dy = arith.constant dense<[[[[1.0], [2.0]]]]> : tensor<1x1x2x1xf32>
  %dw = call @bf(%x, %dy) : (tensor<1x2x3x1xf32>, tensor<1x1x2x1xf32>) -> tensor<2x2x1x1xf32>
  %m = bufferization.to_buffer %dw : tensor<2x2x1x1xf32> to memref<2x2x1x1xf32>
  %u = memref.cast %m : memref<2x2x1x1xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
// CHECK: rank = 4 offset = 0 sizes = [2, 2, 1, 1]
// CHECK-NEXT{LITERAL}: [[[[7]],
// CHECK-NEXT{LITERAL}:    [[2]]],
// CHECK-NEXT{LITERAL}:   [[[16]],
// CHECK-NEXT{LITERAL}:    [[5]]]]
