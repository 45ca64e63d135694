// RUN: conv-opt %s --conv-lower-to-llvm-cpu=num-threads=2 | FileCheck %s

// With num-threads != 1 the scf.forall over the filter taps becomes an
// OpenMP worksharing loop over both tap dimensions with 2 threads (the omp
// dialect is translated to libomp calls with the rest of the LLVM dialect).
// CHECK-LABEL: llvm.func @bf(
// CHECK:         %[[T:.+]] = llvm.mlir.constant(2 : i32) : i32
// CHECK:         omp.parallel num_threads(%[[T]] : i32)
// CHECK:           omp.wsloop
// CHECK:             omp.loop_nest ({{.*}}) : i64 = {{.*}} collapse(2)
// CHECK:               llvm.intr.fmuladd
func.func @bf(%x: tensor<1x10x10x16xf32>, %dy: tensor<1x8x8x32xf32>) -> tensor<3x3x16x32xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = VALID strides = [1, 1] dilations = [1, 1] : tensor<1x10x10x16xf32>, tensor<1x8x8x32xf32> -> tensor<3x3x16x32xf32>
  return %dw : tensor<3x3x16x32xf32>
}
