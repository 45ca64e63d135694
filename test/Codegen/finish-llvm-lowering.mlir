// RUN: conv-opt %s --convert-arith-to-llvm --conv-finish-llvm-lowering --reconcile-unrealized-casts | FileCheck %s
// RUN: conv-opt %s --convert-arith-to-llvm --conv-finish-llvm-lowering=use-generic-functions=1 --reconcile-unrealized-casts | FileCheck %s --check-prefix=GENERIC
// RUN: conv-opt %s --convert-arith-to-llvm --finalize-memref-to-llvm --convert-openmp-to-llvm --convert-ub-to-llvm --convert-index-to-llvm --convert-func-to-llvm --reconcile-unrealized-casts > %t.five.mlir
// RUN: conv-opt %s --convert-arith-to-llvm --conv-finish-llvm-lowering --reconcile-unrealized-casts > %t.one.mlir
// RUN: diff %t.five.mlir %t.one.mlir

// memref, OpenMP, ub, index and func operations in one conversion: the
// function, the allocation (malloc / free; with use-generic-functions the
// _mlir_memref_to_llvm_* functions), the poison, the index arithmetic and
// the memref accesses inside the omp.parallel region (its operands now LLVM
// types) are all LLVM dialect, the same module as the five upstream passes
// produce one after the other (the diff).
// CHECK-DAG:   llvm.func @free(!llvm.ptr)
// CHECK-DAG:   llvm.func @malloc(i64) -> !llvm.ptr
// CHECK-LABEL: llvm.func @finish(
// CHECK-SAME:      %[[N:[^:]+]]: i64, %[[V:[^:]+]]: f32) -> f32
// CHECK:         %[[BASE:.+]] = llvm.call @malloc(
// CHECK:         %[[P:.+]] = llvm.mlir.poison : f32
// CHECK:         %[[I:.+]] = llvm.mul %[[N]], %[[N]] : i64
// CHECK:         omp.parallel num_threads(%[[N]] : i64) {
// CHECK:           %[[PTR:.+]] = llvm.getelementptr inbounds|nuw %{{.+}}[%[[I]]] : (!llvm.ptr, i64) -> !llvm.ptr, f32
// CHECK-NEXT:      llvm.store %[[V]], %[[PTR]] : f32, !llvm.ptr
// CHECK-NEXT:      omp.terminator
// CHECK:         %[[R:.+]] = llvm.load
// CHECK:         llvm.call @free(
// CHECK:         %[[S:.+]] = llvm.fadd %[[R]], %[[P]] : f32
// CHECK-NEXT:    llvm.return %[[S]] : f32
// CHECK-NOT:     memref.
// CHECK-NOT:     builtin.unrealized_conversion_cast
// GENERIC-LABEL: llvm.func @finish(
// GENERIC-NOT:     @malloc
// GENERIC:         llvm.call @_mlir_memref_to_llvm_alloc(
// GENERIC:         llvm.call @_mlir_memref_to_llvm_free(
// GENERIC-NOT:     @free
// GENERIC:         llvm.return
func.func @finish(%n: index, %v: f32) -> f32 {
  %c0 = arith.constant 0 : index
  %m = memref.alloc() {alignment = 64 : i64} : memref<16xf32>
  %p = ub.poison : f32
  %i = index.mul %n, %n
  omp.parallel num_threads(%n : index) {
    memref.store %v, %m[%i] : memref<16xf32>
    omp.terminator
  }
  %r = memref.load %m[%c0] : memref<16xf32>
  memref.dealloc %m : memref<16xf32>
  %s = arith.addf %r, %p : f32
  return %s : f32
}
