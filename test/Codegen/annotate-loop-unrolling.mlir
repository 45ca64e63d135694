// RUN: conv-opt %s --conv-cpu-annotate-loop-unrolling | FileCheck %s
// RUN: conv-opt %s --conv-cpu-annotate-loop-unrolling=max-small-loop-ops=2 \
// RUN:   | FileCheck %s --check-prefix=OPS

// Loops marked conv.llvm_unroll lose the marker and stay LLVM's to unroll;
// so do innermost loops of at most 16 iterations and 64 operations
// (max-small-loop-ops) and loops that already have an annotation. Every other loop gets `unroll disable`, as do loops
// marked conv.llvm_no_unroll.

// CHECK-DAG: #[[$UNROLL:.+]] = #llvm.loop_unroll<disable = true>
// CHECK-DAG: #[[$DISABLE:.+]] = #llvm.loop_annotation<unroll = #[[$UNROLL]]>
// CHECK-DAG: #[[$COUNT:.+]] = #llvm.loop_unroll<count = 2 : i32>
// CHECK-DAG: #[[$TWICE:.+]] = #llvm.loop_annotation<unroll = #[[$COUNT]]>
// CHECK-LABEL: func.func @loops
func.func @loops(%m: memref<64x64xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c16 = arith.constant 16 : index
  %c17 = arith.constant 17 : index
  %c64 = arith.constant 64 : index
  %f = arith.constant 1.0 : f32
  // A marked tap loop around an unmarked 64-iteration loop.
  // CHECK:      scf.for
  // CHECK:        scf.for
  // CHECK:        } {llvm.loop_annotation = #[[$DISABLE]]}
  // CHECK-NEXT: {{^ *}}}{{$}}
  scf.for %i = %c0 to %c3 step %c1 {
    scf.for %j = %c0 to %c64 step %c1 {
      memref.store %f, %m[%i, %j] : memref<64x64xf32>
    }
  } {conv.llvm_unroll}
  // Innermost, 16 iterations: left alone; 17: disabled; a dynamic trip
  // count: disabled.
  // CHECK:      scf.for
  // CHECK-NEXT:   memref.store
  // CHECK-NEXT: {{^ *}}}{{$}}
  // CHECK:      scf.for
  // CHECK:      } {llvm.loop_annotation = #[[$DISABLE]]}
  // CHECK:      scf.for
  // CHECK:      } {llvm.loop_annotation = #[[$DISABLE]]}
  scf.for %j = %c0 to %c16 step %c1 {
    memref.store %f, %m[%c0, %j] : memref<64x64xf32>
  }
  scf.for %j = %c0 to %c17 step %c1 {
    memref.store %f, %m[%c0, %j] : memref<64x64xf32>
  }
  scf.for %j = %c0 to %n step %c1 {
    memref.store %f, %m[%c0, %j] : memref<64x64xf32>
  }
  // A small loop around another loop is not innermost: disabled.
  // CHECK:      scf.for
  // CHECK-NEXT:   scf.for
  // CHECK-NEXT:     memref.store
  // CHECK-NEXT:   {{^ *}}}{{$}}
  // CHECK-NEXT: } {llvm.loop_annotation = #[[$DISABLE]]}
  scf.for %i = %c0 to %c3 step %c1 {
    scf.for %j = %c0 to %c3 step %c1 {
      memref.store %f, %m[%i, %j] : memref<64x64xf32>
    }
  }
  // conv.llvm_no_unroll (the Winograd transforms' tile loops): disabled
  // even when small and innermost; the marker is dropped.
  // CHECK:      scf.for
  // CHECK:      } {llvm.loop_annotation = #[[$DISABLE]]}
  scf.for %j = %c0 to %c16 step %c1 {
    memref.store %f, %m[%c0, %j] : memref<64x64xf32>
  } {conv.llvm_no_unroll}
  // conv.llvm_unroll_count = 2 (a strided filter gradient's position loop
  // of a dynamic trip count): `unroll count 2`, the marker dropped.
  // CHECK:      scf.for
  // CHECK:      } {llvm.loop_annotation = #[[$TWICE]]}
  scf.for %j = %c0 to %n step %c1 {
    memref.store %f, %m[%c0, %j] : memref<64x64xf32>
  } {conv.llvm_unroll_count = 2 : i64}
  // An annotation of its own stays.
  // CHECK:      scf.for
  // CHECK:      } {llvm.loop_annotation = #{{.*}}}
  // CHECK-NOT:  conv.llvm_{{(no_)?}}unroll
  scf.for %j = %c0 to %c64 step %c1 {
    memref.store %f, %m[%c0, %j] : memref<64x64xf32>
  } {llvm.loop_annotation = #llvm.loop_annotation<unroll = <full = true>>}
  return
}

// The operation bound: a 3-iteration innermost loop of 2 operations (the
// store and the yield) stays LLVM's; one of 3 (a register tile's
// reduction loop, in small) is disabled. By default (64) both stay.
// CHECK-LABEL: func.func @loop_sizes
// CHECK:       scf.for
// CHECK-NEXT:    memref.store
// CHECK-NEXT:  {{^ *}}}{{$}}
// CHECK-NEXT:  scf.for
// CHECK-NEXT:    memref.store
// CHECK-NEXT:    memref.store
// CHECK-NEXT:  {{^ *}}}{{$}}
// OPS-LABEL:   func.func @loop_sizes
// OPS:         scf.for
// OPS-NEXT:      memref.store
// OPS-NEXT:    {{^ *}}}{{$}}
// OPS-NEXT:    scf.for
// OPS-NEXT:      memref.store
// OPS-NEXT:      memref.store
// OPS-NEXT:    } {llvm.loop_annotation = #{{.*}}}
func.func @loop_sizes(%m: memref<64x64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %f = arith.constant 1.0 : f32
  scf.for %j = %c0 to %c3 step %c1 {
    memref.store %f, %m[%c0, %j] : memref<64x64xf32>
  }
  scf.for %j = %c0 to %c3 step %c1 {
    memref.store %f, %m[%c0, %j] : memref<64x64xf32>
    memref.store %f, %m[%c1, %j] : memref<64x64xf32>
  }
  return
}
