// RUN: conv-opt %s --conv-lower-to-llvm-cpu="optimize num-threads=2" | FileCheck %s

// A module already on memrefs: its linalg.fill (no tensor result) is left to
// the loops lowering by conv-cpu-tile-and-vectorize's thread split of fills,
// which had read the missing result and crashed.
// CHECK-LABEL: llvm.func @fill_buffer(
// CHECK:         llvm.store %{{.+}}, %{{.+}} : f32, !llvm.ptr
// CHECK:         llvm.return
func.func @fill_buffer(%m: memref<4x12xf32>, %v: f32) {
  linalg.fill ins(%v : f32) outs(%m : memref<4x12xf32>)
  return
}
