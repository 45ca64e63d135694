// RUN: conv-opt %s --conv-cpu-lower-vectors | FileCheck %s

// A 6x16 f32 register tile updated by 8 rank-1 products becomes vector.fma
// on rows of the accumulator: no vector.contract or outer product is left.
// CHECK-LABEL: func.func @contract
// CHECK-NOT:     vector.contract
// CHECK-NOT:     vector.outerproduct
// CHECK-COUNT-48: vector.fma {{.*}} : vector<16xf32>
// CHECK-NOT:     vector.fma
// CHECK:         return
func.func @contract(%a: vector<8x6xf32>, %b: vector<8x16xf32>, %c: vector<6x16xf32>) -> vector<6x16xf32> {
  %r = vector.contract {indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %a, %b, %c : vector<8x6xf32>, vector<8x16xf32> into vector<6x16xf32>
  return %r : vector<6x16xf32>
}

// The same register tile with its operands read from memory (a filter
// gradient's inner step: x rows [8 positions, 6 input channels] and
// out_backprop rows [8, 16]). Every element of the x tile is used only as a
// broadcast scalar, so the x read becomes 48 scalar loads (each one
// broadcast; LLVM emits them as broadcasts from memory) instead of a
// vector<8x6> read; the out_backprop tile stays a vector read.
// CHECK-LABEL: func.func @contract_from_memory
// CHECK-SAME:    (%[[X:[^:]*]]: memref<16x64xf32>, %[[DY:[^:]*]]: memref<16x32xf32>, %[[P:[^:]*]]: index, %[[CI:[^:]*]]: index
// CHECK-NOT:     vector.transfer_read %[[X]]
// CHECK:         vector.transfer_read %[[DY]]{{.*}} : memref<16x32xf32>, vector<8x16xf32>
// CHECK-NOT:     vector.transfer_read %[[X]]
// CHECK:         memref.load %[[X]][%[[P]], %[[CI]]] : memref<16x64xf32>
// CHECK:         %[[C1:.*]] = arith.addi %[[CI]], %c1
// CHECK:         memref.load %[[X]][%[[P]], %[[C1]]] : memref<16x64xf32>
// CHECK-COUNT-46: memref.load %[[X]]
// CHECK-NOT:     vector.transfer_read %[[X]]
// CHECK-NOT:     memref.load %[[X]]
// CHECK:         return
func.func @contract_from_memory(%x: memref<16x64xf32>, %dy: memref<16x32xf32>, %p: index, %ci: index, %co: index, %c: vector<6x16xf32>) -> vector<6x16xf32> {
  %pad = arith.constant 0.0 : f32
  %a = vector.transfer_read %x[%p, %ci], %pad {in_bounds = [true, true]} : memref<16x64xf32>, vector<8x6xf32>
  %b = vector.transfer_read %dy[%p, %co], %pad {in_bounds = [true, true]} : memref<16x32xf32>, vector<8x16xf32>
  %r = vector.contract {indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %a, %b, %c : vector<8x6xf32>, vector<8x16xf32> into vector<6x16xf32>
  return %r : vector<6x16xf32>
}

// A read with a non-scalar use stays a vector read (a 1-D transfer lowers
// to vector.load).
// CHECK-LABEL: func.func @vector_use
// CHECK:         vector.load %{{.*}} : memref<16x64xf32>, vector<8xf32>
// CHECK-NOT:     memref.load
func.func @vector_use(%x: memref<16x64xf32>, %i: index) -> (vector<8xf32>, f32) {
  %pad = arith.constant 0.0 : f32
  %a = vector.transfer_read %x[%i, %i], %pad {in_bounds = [true]} : memref<16x64xf32>, vector<8xf32>
  %e = vector.extract %a[3] : f32 from vector<8xf32>
  return %a, %e : vector<8xf32>, f32
}

// A store between the read and an extract: the scalar would be loaded after
// the store, so the read stays.
// CHECK-LABEL: func.func @store_between
// CHECK:         vector.load
// CHECK:         memref.store
// CHECK-NOT:     memref.load
func.func @store_between(%x: memref<16x64xf32>, %i: index, %v: f32) -> f32 {
  %pad = arith.constant 0.0 : f32
  %a = vector.transfer_read %x[%i, %i], %pad {in_bounds = [true]} : memref<16x64xf32>, vector<8xf32>
  memref.store %v, %x[%i, %i] : memref<16x64xf32>
  %e = vector.extract %a[0] : f32 from vector<8xf32>
  return %e : f32
}
