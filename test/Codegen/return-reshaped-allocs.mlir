// RUN: conv-opt %s --conv-return-reshaped-allocs --split-input-file | FileCheck %s

// A result computed in a flattened allocation and returned through an
// expand_shape: the allocation takes the returned shape, the computation
// writes through its collapse_shape, and the allocation itself is returned
// (buffer-results-to-out-params then makes it the out-param).
// CHECK-LABEL: func.func @expand
// CHECK:         %[[ALLOC:.*]] = memref.alloc() {alignment = 64 : i64} : memref<1x4x3xf32>
// CHECK:         %[[VIEW:.*]] = memref.collapse_shape %[[ALLOC]] {{\[}}[0], [1, 2]] : memref<1x4x3xf32> into memref<1x12xf32>
// CHECK:         linalg.fill ins(%{{.*}} : f32) outs(%[[VIEW]] : memref<1x12xf32>)
// CHECK-NOT:     memref.expand_shape
// CHECK:         return %[[ALLOC]] : memref<1x4x3xf32>
func.func @expand(%v: f32) -> memref<1x4x3xf32> {
  %alloc = memref.alloc() {alignment = 64 : i64} : memref<1x12xf32>
  linalg.fill ins(%v : f32) outs(%alloc : memref<1x12xf32>)
  %e = memref.expand_shape %alloc [[0], [1, 2]] output_shape [1, 4, 3] : memref<1x12xf32> into memref<1x4x3xf32>
  return %e : memref<1x4x3xf32>
}

// -----

// The same through a collapse_shape: the computation's view is the
// expand_shape of the returned allocation.
// CHECK-LABEL: func.func @collapse
// CHECK:         %[[ALLOC:.*]] = memref.alloc() : memref<12xf32>
// CHECK:         %[[VIEW:.*]] = memref.expand_shape %[[ALLOC]] {{\[}}[0, 1]] output_shape [4, 3] : memref<12xf32> into memref<4x3xf32>
// CHECK:         linalg.fill ins(%{{.*}} : f32) outs(%[[VIEW]] : memref<4x3xf32>)
// CHECK:         return %[[ALLOC]] : memref<12xf32>
func.func @collapse(%v: f32) -> memref<12xf32> {
  %alloc = memref.alloc() : memref<4x3xf32>
  linalg.fill ins(%v : f32) outs(%alloc : memref<4x3xf32>)
  %c = memref.collapse_shape %alloc [[0, 1]] : memref<4x3xf32> into memref<12xf32>
  return %c : memref<12xf32>
}

// -----

// Left alone: a reshape of an argument, and of a dynamic allocation.
// CHECK-LABEL: func.func @argument
// CHECK:         %[[E:.*]] = memref.expand_shape %arg0
// CHECK:         return %[[E]]
func.func @argument(%a: memref<12xf32>) -> memref<4x3xf32> {
  %e = memref.expand_shape %a [[0, 1]] output_shape [4, 3] : memref<12xf32> into memref<4x3xf32>
  return %e : memref<4x3xf32>
}

// CHECK-LABEL: func.func @dynamic
// CHECK:         %[[ALLOC:.*]] = memref.alloc(%arg0) : memref<?xf32>
// CHECK:         %[[E:.*]] = memref.expand_shape %[[ALLOC]]
// CHECK:         return %[[E]]
func.func @dynamic(%n: index) -> memref<?x3xf32> {
  %alloc = memref.alloc(%n) : memref<?xf32>
  %c3 = arith.constant 3 : index
  %m = arith.divui %n, %c3 : index
  %e = memref.expand_shape %alloc [[0, 1]] output_shape [%m, 3] : memref<?xf32> into memref<?x3xf32>
  return %e : memref<?x3xf32>
}
