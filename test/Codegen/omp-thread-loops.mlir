// RUN: conv-opt %s --conv-omp-thread-loops --canonicalize --split-input-file | FileCheck %s

// The worksharing loop of a 3 x 5 nest (collapse(2)) becomes a loop over
// the calling thread's share of the 15 iterations, the runtime's balanced
// static split: 15 / nth each, one more for the first 15 % nth threads.
// The linear index is delinearized row-major.
// CHECK-DAG:   func.func private @__kmpc_global_thread_num(!llvm.ptr) -> i32
// CHECK-DAG:   func.func private @__kmpc_bound_thread_num(!llvm.ptr, i32) -> i32
// CHECK-DAG:   func.func private @__kmpc_bound_num_threads(!llvm.ptr, i32) -> i32
// CHECK-LABEL: func.func @two_d(
// CHECK-SAME:      %[[M:.+]]: memref<3x5xf32>, %[[V:.+]]: f32)
// CHECK-DAG:     %[[C15:.+]] = arith.constant 15 : index
// CHECK-DAG:     %[[C5:.+]] = arith.constant 5 : index
// CHECK-DAG:     %[[C0:.+]] = arith.constant 0 : index
// CHECK-DAG:     %[[C1:.+]] = arith.constant 1 : index
// CHECK-DAG:     %[[NULL:.+]] = llvm.mlir.zero : !llvm.ptr
// CHECK:         omp.parallel num_threads(
// CHECK-NOT:       omp.wsloop
// CHECK:           %[[GTID:.+]] = func.call @__kmpc_global_thread_num(%[[NULL]])
// CHECK:           %[[TID32:.+]] = func.call @__kmpc_bound_thread_num(%[[NULL]], %[[GTID]])
// CHECK:           %[[TID:.+]] = arith.index_cast %[[TID32]] : i32 to index
// CHECK:           %[[NTH32:.+]] = func.call @__kmpc_bound_num_threads(%[[NULL]], %[[GTID]])
// CHECK:           %[[NTH:.+]] = arith.index_cast %[[NTH32]] : i32 to index
// CHECK:           %[[CHUNK:.+]] = arith.divui %[[C15]], %[[NTH]] : index
// CHECK:           %[[EXTRA:.+]] = arith.remui %[[C15]], %[[NTH]] : index
// CHECK:           %[[SKEW:.+]] = arith.minui %[[TID]], %[[EXTRA]] : index
// CHECK:           %[[BASE:.+]] = arith.muli %[[TID]], %[[CHUNK]] : index
// CHECK:           %[[BEGIN:.+]] = arith.addi %[[BASE]], %[[SKEW]] : index
// CHECK:           %[[FIRST:.+]] = arith.cmpi ult, %[[TID]], %[[EXTRA]] : index
// CHECK:           %[[MORE:.+]] = arith.select %[[FIRST]], %[[C1]], %[[C0]] : index
// CHECK:           %[[LEN:.+]] = arith.addi %[[CHUNK]], %[[MORE]] : index
// CHECK:           %[[END:.+]] = arith.addi %[[BEGIN]], %[[LEN]] : index
// CHECK:           scf.for %[[I:.+]] = %[[BEGIN]] to %[[END]] step %[[C1]] {
// CHECK:             %[[J:.+]] = arith.remui %[[I]], %[[C5]] : index
// CHECK:             %[[K:.+]] = arith.divui %[[I]], %[[C5]] : index
// CHECK:             memref.store %[[V]], %[[M]][%[[K]], %[[J]]]
// CHECK:           }
// CHECK:           omp.terminator
func.func @two_d(%m: memref<3x5xf32>, %v: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %n = llvm.mlir.constant(2 : i32) : i32
  omp.parallel num_threads(%n : i32) {
    omp.wsloop {
      omp.loop_nest (%i, %j) : index = (%c0, %c0) to (%c3, %c5) step (%c1, %c1) collapse(2) {
        memref.store %v, %m[%i, %j] : memref<3x5xf32>
        omp.yield
      }
    }
    omp.terminator
  }
  return
}

// -----

// Dynamic i64 bounds and a step of 3: the trip count is
// max(0, ceildiv(ub - lb, 3)), and iteration i runs at lb + 3 i.
// CHECK-LABEL: func.func @steps_i64(
// CHECK-SAME:      %[[M:.+]]: memref<16xf32>, %[[V:.+]]: f32, %[[LB:.+]]: i64, %[[UB:.+]]: i64)
// CHECK-DAG:     %[[C3:.+]] = arith.constant 3 : index
// CHECK-DAG:     %[[C0:.+]] = arith.constant 0 : index
// CHECK:         omp.parallel {
// CHECK:           %[[L:.+]] = arith.index_cast %[[LB]] : i64 to index
// CHECK:           %[[U:.+]] = arith.index_cast %[[UB]] : i64 to index
// CHECK:           %[[SPAN:.+]] = arith.subi %[[U]], %[[L]] : index
// CHECK:           %[[TRIP:.+]] = arith.ceildivsi %[[SPAN]], %[[C3]] : index
// CHECK:           %[[TOTAL:.+]] = arith.maxsi %[[TRIP]], %[[C0]] : index
// CHECK:           arith.divui %[[TOTAL]], %{{.+}} : index
// CHECK:           scf.for %[[I:.+]] = %{{.+}} to %{{.+}} step
// CHECK:             %[[OFF:.+]] = arith.muli %[[I]], %[[C3]] : index
// CHECK:             %[[IV:.+]] = arith.addi %[[L]], %[[OFF]] : index
// CHECK:             memref.store %[[V]], %[[M]][%[[IV]]]
func.func @steps_i64(%m: memref<16xf32>, %v: f32, %lb: i64, %ub: i64) {
  %c3 = llvm.mlir.constant(3 : i64) : i64
  omp.parallel {
    omp.wsloop {
      omp.loop_nest (%i) : i64 = (%lb) to (%ub) step (%c3) {
        %x = arith.index_cast %i : i64 to index
        memref.store %v, %m[%x] : memref<16xf32>
        omp.yield
      }
    }
    omp.terminator
  }
  return
}

// -----

// Left alone: a loop with clauses (nowait, a schedule), and one that is not
// alone in its parallel region. No runtime function is declared.
// CHECK-NOT:   __kmpc
// CHECK-LABEL: func.func @kept(
// CHECK:         omp.wsloop nowait {
// CHECK:         omp.wsloop schedule(dynamic) {
// CHECK:         omp.parallel {
// CHECK-NEXT:      memref.store
// CHECK-NEXT:      omp.wsloop {
// CHECK-NOT:   __kmpc
func.func @kept(%m: memref<16xf32>, %v: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  omp.parallel {
    omp.wsloop nowait {
      omp.loop_nest (%i) : index = (%c0) to (%c16) step (%c1) {
        memref.store %v, %m[%i] : memref<16xf32>
        omp.yield
      }
    }
    omp.terminator
  }
  omp.parallel {
    omp.wsloop schedule(dynamic) {
      omp.loop_nest (%i) : index = (%c0) to (%c16) step (%c1) {
        memref.store %v, %m[%i] : memref<16xf32>
        omp.yield
      }
    }
    omp.terminator
  }
  omp.parallel {
    memref.store %v, %m[%c0] : memref<16xf32>
    omp.wsloop {
      omp.loop_nest (%i) : index = (%c0) to (%c16) step (%c1) {
        memref.store %v, %m[%i] : memref<16xf32>
        omp.yield
      }
    }
    omp.terminator
  }
  return
}

// -----

// A symbol of one of those names that is not the runtime function's
// declaration: the pass leaves the module alone.
// CHECK-LABEL: llvm.func @__kmpc_global_thread_num(i32) -> i32
// CHECK-LABEL: func.func @name_taken(
// CHECK:         omp.wsloop {
llvm.func @__kmpc_global_thread_num(i32) -> i32
func.func @name_taken(%m: memref<16xf32>, %v: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  omp.parallel {
    omp.wsloop {
      omp.loop_nest (%i) : index = (%c0) to (%c16) step (%c1) {
        memref.store %v, %m[%i] : memref<16xf32>
        omp.yield
      }
    }
    omp.terminator
  }
  return
}
