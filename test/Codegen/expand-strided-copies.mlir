// RUN: conv-opt %s --conv-cpu-expand-strided-copies | FileCheck %s

// A copy into the interior of a padded buffer (strided target) becomes a
// linalg.copy loop nest instead of a call of the generic memrefCopy runtime
// function; a contiguous copy stays a memref.copy (a memcpy).
// CHECK-LABEL: func.func @copies
// CHECK:         linalg.copy ins(%{{.*}} : memref<2x4x4x8xf32>) outs(%{{.*}} : memref<2x4x4x8xf32, strided<[288, 48, 8, 1], offset: 56>>)
// CHECK:         memref.copy %{{.*}}, %{{.*}} : memref<4x8xf32> to memref<4x8xf32>
func.func @copies(%x: memref<2x4x4x8xf32>, %padded: memref<2x6x6x8xf32>, %a: memref<4x8xf32>, %b: memref<4x8xf32>) {
  %interior = memref.subview %padded[0, 1, 1, 0] [2, 4, 4, 8] [1, 1, 1, 1] : memref<2x6x6x8xf32> to memref<2x4x4x8xf32, strided<[288, 48, 8, 1], offset: 56>>
  memref.copy %x, %interior : memref<2x4x4x8xf32> to memref<2x4x4x8xf32, strided<[288, 48, 8, 1], offset: 56>>
  memref.copy %a, %b : memref<4x8xf32> to memref<4x8xf32>
  return
}
