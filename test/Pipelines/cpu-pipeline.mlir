// RUN: conv-opt %s --conv-lower-to-llvm-cpu | FileCheck %s --implicit-check-not=conv. --implicit-check-not=linalg. --implicit-check-not=tensor. --implicit-check-not=memref. --implicit-check-not=scf.

// After conv-lower-to-llvm-cpu everything is in the LLVM dialect; the tensor
// result became a trailing out-param (its memref descriptor is expanded into
// allocated/aligned pointers, offset, sizes and strides), nothing is returned,
// and a function marked llvm.emit_c_interface gets a _mlir_ciface_ wrapper.

// 2 inputs + 1 out-param of rank 4: 3 x (2 pointers + 1 + 4 + 4 i64) = 33
// arguments, and no result.
// CHECK-LABEL: llvm.func @bf(
// CHECK-SAME:    %arg0: !llvm.ptr, %arg1: !llvm.ptr, %arg2: i64,
// CHECK-SAME:    %arg22: !llvm.ptr, %arg23: !llvm.ptr, %arg24: i64,
// CHECK-SAME:    %arg32: i64) attributes {llvm.emit_c_interface} {
// CHECK-NOT:     llvm.return %
// CHECK:         llvm.return
// CHECK-LABEL: llvm.func @_mlir_ciface_bf(%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr)
func.func @bf(%x: tensor<1x4x4x3xf32>, %dy: tensor<1x2x2x2xf32>) -> tensor<3x3x3x2xf32> attributes {llvm.emit_c_interface} {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = SAME strides = [2, 2] dilations = [1, 1] : tensor<1x4x4x3xf32>, tensor<1x2x2x2xf32> -> tensor<3x3x3x2xf32>
  return %dw : tensor<3x3x3x2xf32>
}

// The result is computed in the out-param itself: no copy of a separate
// result buffer into it (nor any other memcpy) before the return.
// CHECK-LABEL: llvm.func @tr(
// CHECK-NOT:     llvm.intr.memcpy
// CHECK-NOT:     @memrefCopy
// CHECK:         llvm.return
func.func @tr(%x: tensor<2x4x4x3xf32>, %k: tensor<3x3x5x3xf32>) -> tensor<2x8x8x5xf32> {
  %y = conv.transpose %x, %k data_format = channels_last padding = same strides = [2, 2] dilation_rate = [1, 1] output_padding = [1, 1] : tensor<2x4x4x3xf32>, tensor<3x3x5x3xf32> -> tensor<2x8x8x5xf32>
  return %y : tensor<2x8x8x5xf32>
}
