// RUN: conv-opt %s --conv-cpu-expand-strided-copies --split-input-file | FileCheck %s
// RUN: conv-opt %s --conv-cpu-expand-strided-copies="num-threads=2" --split-input-file | FileCheck %s --check-prefix=THREADS

// A copy into the interior of a padded buffer (strided target) whose rows
// (the trailing dimensions contiguous on both sides: 4 x 3 = 12 values)
// are short becomes a linalg.copy loop nest instead of a call of the
// generic memrefCopy runtime function; a contiguous copy stays a
// memref.copy (a memcpy).
// CHECK-LABEL: func.func @short_rows
// CHECK:         linalg.copy ins(%{{.*}} : memref<2x4x4x3xf32>) outs(%{{.*}} : memref<2x4x4x3xf32, strided<[108, 18, 3, 1], offset: 21>>)
// CHECK:         memref.copy %{{.*}}, %{{.*}} : memref<4x8xf32> to memref<4x8xf32>
func.func @short_rows(%x: memref<2x4x4x3xf32>, %padded: memref<2x6x6x3xf32>, %a: memref<4x8xf32>, %b: memref<4x8xf32>) {
  %interior = memref.subview %padded[0, 1, 1, 0] [2, 4, 4, 3] [1, 1, 1, 1] : memref<2x6x6x3xf32> to memref<2x4x4x3xf32, strided<[108, 18, 3, 1], offset: 21>>
  memref.copy %x, %interior : memref<2x4x4x3xf32> to memref<2x4x4x3xf32, strided<[108, 18, 3, 1], offset: 21>>
  memref.copy %a, %b : memref<4x8xf32> to memref<4x8xf32>
  return
}

// -----

// Padding along dimension 1 only: an item's 4 x 4 x 8 = 128 values are
// contiguous on both sides. A loop over the batch copies one 128-value row
// per item as a contiguous 1-D memref.copy (a memcpy). Small (1 KiB): no
// thread split.
// CHECK-LABEL: func.func @rows
// CHECK:         scf.for %[[B:.+]] = %c0 to %c2 step %c1
// CHECK:           %[[S:.+]] = memref.subview %{{.*}}[%[[B]], 0, 0, 0] [1, 4, 4, 8] [1, 1, 1, 1] : memref<2x4x4x8xf32> to memref<4x4x8xf32, strided<[32, 8, 1], offset: ?>>
// CHECK:           %[[SC:.+]] = memref.collapse_shape %[[S]] {{\[\[}}0, 1, 2]] : memref<4x4x8xf32, strided<[32, 8, 1], offset: ?>> into memref<128xf32, strided<[1], offset: ?>>
// CHECK:           %[[T:.+]] = memref.subview %{{.*}}[%[[B]], 0, 0, 0] [1, 4, 4, 8] [1, 1, 1, 1] : memref<2x4x4x8xf32, strided<[192, 32, 8, 1], offset: 32>> to memref<4x4x8xf32, strided<[32, 8, 1], offset: ?>>
// CHECK:           %[[TC:.+]] = memref.collapse_shape %[[T]] {{\[\[}}0, 1, 2]]
// CHECK:           memref.copy %[[SC]], %[[TC]] : memref<128xf32, strided<[1], offset: ?>> to memref<128xf32, strided<[1], offset: ?>>
// THREADS-LABEL: func.func @rows
// THREADS-NOT:     scf.forall
// THREADS:         return
func.func @rows(%x: memref<2x4x4x8xf32>, %padded: memref<2x6x4x8xf32>) {
  %interior = memref.subview %padded[0, 1, 0, 0] [2, 4, 4, 8] [1, 1, 1, 1] : memref<2x6x4x8xf32> to memref<2x4x4x8xf32, strided<[192, 32, 8, 1], offset: 32>>
  memref.copy %x, %interior : memref<2x4x4x8xf32> to memref<2x4x4x8xf32, strided<[192, 32, 8, 1], offset: 32>>
  return
}

// -----

// A 1.6 MB copy (rows of 28 x 128 values) with 2 threads: the batch loop is
// an scf.forall; with 1 thread (the default) an scf.for. Inside an existing
// scf.forall, no nested one.
// CHECK-LABEL: func.func @large
// CHECK-NOT:     scf.forall
// CHECK:         scf.for
// CHECK:           scf.for
// CHECK:             memref.copy {{.*}} : memref<3584xf32, strided<[1], offset: ?>> to memref<3584xf32, strided<[1], offset: ?>>
// THREADS-LABEL: func.func @large
// THREADS:         scf.forall (%[[B:.+]]) in (4)
// THREADS:           scf.for %[[H:.+]] = %c0 to %c28 step %c1
// THREADS:             memref.subview %{{.*}}[%[[B]], %[[H]], 0, 0] [1, 1, 28, 128]
// THREADS:             memref.copy {{.*}} : memref<3584xf32, strided<[1], offset: ?>> to memref<3584xf32, strided<[1], offset: ?>>
// THREADS:         scf.forall (%{{.*}}) in (2)
// THREADS-NOT:       scf.forall
// THREADS:           memref.copy {{.*}} : memref<3584xf32, strided<[1], offset: ?>> to memref<3584xf32, strided<[1], offset: ?>>
func.func @large(%x: memref<4x28x28x128xf32>, %padded: memref<4x29x29x128xf32>) {
  %interior = memref.subview %padded[0, 1, 1, 0] [4, 28, 28, 128] [1, 1, 1, 1] : memref<4x29x29x128xf32> to memref<4x28x28x128xf32, strided<[107648, 3712, 128, 1], offset: 3840>>
  memref.copy %x, %interior : memref<4x28x28x128xf32> to memref<4x28x28x128xf32, strided<[107648, 3712, 128, 1], offset: 3840>>
  scf.forall (%i) in (2) {
    memref.copy %x, %interior : memref<4x28x28x128xf32> to memref<4x28x28x128xf32, strided<[107648, 3712, 128, 1], offset: 3840>>
  }
  return
}
