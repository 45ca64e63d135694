// RUN: conv-opt %s --conv-lower-to-llvm-cpu | FileCheck %s

// The depth-to-space lowering of a kernel = stride transposed convolution
// computes into a view of an output-shaped buffer, which bufferization
// makes the out-param: no temporary of the output's size and no copy of it
// into the out-param (before: a 16 MiB memcpy here, 39 MB for U-Net's
// 196x196x128 -> 392x392x64 layer).
// One temporary: the relaid-out kernel (32 KiB).
// CHECK-LABEL: llvm.func @d2s(
// CHECK-NOT:     llvm.intr.memcpy
// CHECK:         llvm.call @malloc
// CHECK-NOT:     llvm.call @malloc
// CHECK-NOT:     llvm.intr.memcpy
// CHECK:         llvm.return
func.func @d2s(%x: tensor<1x64x64x64xf32>, %k: tensor<2x2x32x64xf32>) -> tensor<1x128x128x32xf32> {
  %y = conv.transpose %x, %k data_format = channels_last padding = valid strides = [2, 2] dilation_rate = [1, 1] : tensor<1x64x64x64xf32>, tensor<2x2x32x64xf32> -> tensor<1x128x128x32xf32>
  return %y : tensor<1x128x128x32xf32>
}
