// RUN: conv-opt %s --conv-lower-to-llvm-cpu=num-threads=2 | FileCheck %s

// With num-threads != 1 the scf.forall over the filter taps becomes an
// OpenMP parallel region with 2 threads (the omp dialect is translated to
// libomp calls with the rest of the LLVM dialect). Its worksharing loop
// over both tap dimensions is split by conv-omp-thread-loops: each thread
// finds its share of the iterations from its libomp thread number and team
// size, with no __kmpc_for_static_init call.
// CHECK-DAG:   llvm.func @__kmpc_global_thread_num(!llvm.ptr) -> i32
// CHECK-DAG:   llvm.func @__kmpc_bound_thread_num(!llvm.ptr, i32) -> i32
// CHECK-DAG:   llvm.func @__kmpc_bound_num_threads(!llvm.ptr, i32) -> i32
// CHECK-LABEL: llvm.func @bf(
// CHECK:         %[[T:.+]] = llvm.mlir.constant(2 : i32) : i32
// CHECK:         omp.parallel num_threads(%[[T]] : i32)
// CHECK-NOT:       omp.wsloop
// CHECK:           %[[GTID:.+]] = llvm.call @__kmpc_global_thread_num(
// CHECK:           llvm.call @__kmpc_bound_thread_num({{.*}}, %[[GTID]])
// CHECK:           llvm.call @__kmpc_bound_num_threads({{.*}}, %[[GTID]])
// CHECK:           llvm.intr.fmuladd
// CHECK:           omp.terminator
func.func @bf(%x: tensor<1x10x10x16xf32>, %dy: tensor<1x8x8x32xf32>) -> tensor<3x3x16x32xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = VALID strides = [1, 1] dilations = [1, 1] : tensor<1x10x10x16xf32>, tensor<1x8x8x32xf32> -> tensor<3x3x16x32xf32>
  return %dw : tensor<3x3x16x32xf32>
}
