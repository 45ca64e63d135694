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
