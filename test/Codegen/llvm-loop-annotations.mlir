// RUN: conv-opt %s --convert-scf-to-cf --convert-cf-to-llvm --conv-llvm-loop-annotations | FileCheck %s
// RUN: conv-opt %s --convert-scf-to-cf --convert-to-llvm --conv-llvm-loop-annotations --reconcile-unrealized-casts | mlir-translate --mlir-to-llvmir | FileCheck %s --check-prefix=IR
// Without the pass the annotation is lost in the translation:
// RUN: conv-opt %s --convert-scf-to-cf --convert-to-llvm --reconcile-unrealized-casts | mlir-translate --mlir-to-llvmir | FileCheck %s --check-prefix=LOST

// convert-scf-to-cf leaves the loop annotation on the back edge as the
// discardable llvm.loop_annotation; the pass makes it the llvm.br's
// loop_annotation property, which the translation turns into !llvm.loop.

// CHECK-LABEL: func.func @loop
// CHECK:         llvm.br ^{{.*}} {loop_annotation = #{{.*}}}
// CHECK-NOT:     llvm.loop_annotation =
// IR-LABEL: define void @loop
// IR:         br label %{{.*}}, !llvm.loop ![[LOOP:[0-9]+]]
// IR:       ![[LOOP]] = distinct !{![[LOOP]], ![[DISABLE:[0-9]+]]}
// IR:       ![[DISABLE]] = !{!"llvm.loop.unroll.disable"}
// LOST-NOT: !llvm.loop
func.func @loop(%n: index, %m: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %f = arith.constant 1.0 : f32
  scf.for %i = %c0 to %n step %c1 {
    memref.store %f, %m[%i] : memref<?xf32>
  } {llvm.loop_annotation = #llvm.loop_annotation<unroll = <disable = true>>}
  return
}
