// RUN: conv-opt %s --conv-lower-to-llvm-cpu | \
// RUN:   mlir-runner -e main -entry-point-result=void \
// RUN:     -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils | FileCheck %s
// RUN: conv-opt %s --conv-lower-to-llvm-cpu=zero-insertion-transpose | \
// RUN:   mlir-runner -e main -entry-point-result=void \
// RUN:     -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils | FileCheck %s

// Spec §2.3 worked examples: x = [1, 2, 3], k = [1, 10, 100], stride 2.

func.func private @printMemrefF32(memref<*xf32>)

func.func @print(%t: tensor<*xf32>) {
  %m = bufferization.to_buffer %t : tensor<*xf32> to memref<*xf32>
  call @printMemrefF32(%m) : (memref<*xf32>) -> ()
  return
}

func.func @main() {
  %x = arith.constant dense<[[[1.0], [2.0], [3.0]]]> : tensor<1x3x1xf32>
  %k = arith.constant dense<[[[1.0]], [[10.0]], [[100.0]]]> : tensor<3x1x1xf32>

  // same, output_padding None -> [1, 10, 102, 20, 203, 30]
  %a = conv.transpose %x, %k data_format = channels_last padding = same
         strides = [2] dilation_rate = [1]
         : tensor<1x3x1xf32>, tensor<3x1x1xf32> -> tensor<1x6x1xf32>
  %ua = tensor.cast %a : tensor<1x6x1xf32> to tensor<*xf32>
  call @print(%ua) : (tensor<*xf32>) -> ()
  // CHECK: sizes = [1, 6, 1]
  // CHECK-NEXT{LITERAL}: [[[1],
  // CHECK-NEXT{LITERAL}:   [10],
  // CHECK-NEXT{LITERAL}:   [102],
  // CHECK-NEXT{LITERAL}:   [20],
  // CHECK-NEXT{LITERAL}:   [203],
  // CHECK-NEXT{LITERAL}:   [30]]]

  // same, output_padding 0 -> [10, 102, 20, 203, 30] (differs from None)
  %b = conv.transpose %x, %k data_format = channels_last padding = same
         strides = [2] dilation_rate = [1] output_padding = [0]
         : tensor<1x3x1xf32>, tensor<3x1x1xf32> -> tensor<1x5x1xf32>
  %ub = tensor.cast %b : tensor<1x5x1xf32> to tensor<*xf32>
  call @print(%ub) : (tensor<*xf32>) -> ()
  // CHECK: sizes = [1, 5, 1]
  // CHECK-NEXT{LITERAL}: [[[10],
  // CHECK-NEXT{LITERAL}:   [102],
  // CHECK-NEXT{LITERAL}:   [20],
  // CHECK-NEXT{LITERAL}:   [203],
  // CHECK-NEXT{LITERAL}:   [30]]]

  // valid, output_padding None -> [1, 10, 102, 20, 203, 30, 300]
  %c = conv.transpose %x, %k data_format = channels_last padding = valid
         strides = [2] dilation_rate = [1]
         : tensor<1x3x1xf32>, tensor<3x1x1xf32> -> tensor<1x7x1xf32>
  %uc = tensor.cast %c : tensor<1x7x1xf32> to tensor<*xf32>
  call @print(%uc) : (tensor<*xf32>) -> ()
  // CHECK: sizes = [1, 7, 1]
  // CHECK-NEXT{LITERAL}: [[[1],
  // CHECK-NEXT{LITERAL}:   [10],
  // CHECK-NEXT{LITERAL}:   [102],
  // CHECK-NEXT{LITERAL}:   [20],
  // CHECK-NEXT{LITERAL}:   [203],
  // CHECK-NEXT{LITERAL}:   [30],
  // CHECK-NEXT{LITERAL}:   [300]]]

  // valid, output_padding 1 -> [1, 10, 102, 20, 203, 30, 300, 0]
  %d = conv.transpose %x, %k data_format = channels_last padding = valid
         strides = [2] dilation_rate = [1] output_padding = [1]
         : tensor<1x3x1xf32>, tensor<3x1x1xf32> -> tensor<1x8x1xf32>
  %ud = tensor.cast %d : tensor<1x8x1xf32> to tensor<*xf32>
  call @print(%ud) : (tensor<*xf32>) -> ()
  // CHECK: sizes = [1, 8, 1]
  // CHECK-NEXT{LITERAL}: [[[1],
  // CHECK-NEXT{LITERAL}:   [10],
  // CHECK-NEXT{LITERAL}:   [102],
  // CHECK-NEXT{LITERAL}:   [20],
  // CHECK-NEXT{LITERAL}:   [203],
  // CHECK-NEXT{LITERAL}:   [30],
  // CHECK-NEXT{LITERAL}:   [300],
  // CHECK-NEXT{LITERAL}:   [0]]]
  return
}
