// RUN: conv-opt %s --conv-cpu-lower-vectors="vector-bits=512" --split-input-file | FileCheck %s
// RUN: conv-opt %s --conv-cpu-lower-vectors="vector-bits=512" \
// RUN:   --convert-vector-to-scf --convert-scf-to-cf --lower-affine --expand-strided-metadata \
// RUN:   --convert-vector-to-llvm --finalize-memref-to-llvm --convert-to-llvm \
// RUN:   --reconcile-unrealized-casts \
// RUN:   | mlir-translate --mlir-to-llvmir \
// RUN:   | llc -O2 -mtriple=x86_64-unknown-linux-gnu -mcpu=znver4 \
// RUN:   | FileCheck %s --check-prefix=ASM
// RUN: conv-opt %s --conv-cpu-lower-vectors="vector-bits=256" --split-input-file | FileCheck %s --check-prefix=AVX2

// The register tile of a grouped filter gradient with 4 -> 4 channels per
// group: acc[ci, g, co] += x[k, g, ci] * dy[k, g, co] over 16 groups. Per
// step k and row ci, one lane shuffle broadcasts x[k, g, ci] over group g's
// four lanes (lanes (g, co) take element g * 4 + ci of the row x[k]), and one
// FMA of 64 lanes (four zmm registers) adds the product with the row dy[k]:
// 2 steps x 4 rows, no outer products.
// CHECK-LABEL: func.func @grouped_contract
// CHECK-SAME:    (%[[X:[^:]*]]: vector<2x16x4xf32>, %[[DY:[^:]*]]: vector<2x16x4xf32>
// CHECK-NOT:     vector.contract
// CHECK-NOT:     vector.outerproduct
// CHECK:         vector.shuffle {{.*}} [0, 0, 0, 0, 4, 4, 4, 4, 8, 8, 8, 8, 12, 12, 12, 12, 16, 16, 16, 16, 20, 20, 20, 20, 24, 24, 24, 24, 28, 28, 28, 28, 32, 32, 32, 32, 36, 36, 36, 36, 40, 40, 40, 40, 44, 44, 44, 44, 48, 48, 48, 48, 52, 52, 52, 52, 56, 56, 56, 56, 60, 60, 60, 60] : vector<64xf32>, vector<64xf32>
// CHECK:         vector.fma {{.*}} : vector<64xf32>
// CHECK:         vector.shuffle {{.*}} [1, 1, 1, 1, 5, 5, 5, 5, 9, 9, 9, 9,
// CHECK-COUNT-7: vector.fma {{.*}} : vector<64xf32>
// CHECK-NOT:     vector.fma
// CHECK:         return
// In zmm registers: 32 FMAs, each with an in-lane shuffle (vshufps or
// vpermilps), no cross-lane permutes.
// ASM-LABEL: grouped_contract:
// ASM-COUNT-32: {{vshufps|vpermilps}} {{.*}}zmm
// ASM-NOT:     {{vpermps|vpermt2ps|vpermi2ps}}
// ASM:         ret
func.func @grouped_contract(%x: vector<2x16x4xf32>, %dy: vector<2x16x4xf32>, %acc: vector<4x16x4xf32>) -> vector<4x16x4xf32> {
  %r = vector.contract {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d3, d0, d1)>, affine_map<(d0, d1, d2, d3) -> (d3, d0, d2)>, affine_map<(d0, d1, d2, d3) -> (d1, d0, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"], kind = #vector.kind<add>} %x, %dy, %acc : vector<2x16x4xf32>, vector<2x16x4xf32> into vector<4x16x4xf32>
  return %r : vector<4x16x4xf32>
}

// -----

// The hoisted tile in its reduction loop: the loop carries the accumulators
// as 4 rows of 64 lanes (four zmm registers a row), read before the loop
// and written after it as whole rows of the memref with its (g, co)
// dimensions collapsed; the operand tiles are read as rows of 64 too. No
// vectors of 4 lanes are left.
// CHECK-LABEL: func.func @grouped_loop
// CHECK-SAME:    (%[[X:[^:]*]]: memref<56x16x4xf32>, %[[DY:[^:]*]]: memref<56x16x4xf32>, %[[OUT:[^:]*]]: memref<4x16x4xf32>)
// CHECK:         %[[ACC:.*]] = memref.collapse_shape %[[OUT]] {{\[}}[0], [1, 2]] : memref<4x16x4xf32> into memref<4x64xf32>
// CHECK:         vector.transfer_read %[[ACC]]{{.*}} : memref<4x64xf32>, vector<4x64xf32>
// CHECK:         scf.for {{.*}} -> (vector<4x64xf32>) {
// CHECK:           memref.collapse_shape %[[X]] {{\[}}[0], [1, 2]] : memref<56x16x4xf32> into memref<56x64xf32>
// CHECK:           vector.transfer_read {{.*}} : memref<56x64xf32>, vector<8x64xf32>
// CHECK:           memref.collapse_shape %[[DY]]
// CHECK:           vector.transfer_read {{.*}} : memref<56x64xf32>, vector<8x64xf32>
// CHECK-NOT:       vector.contract
// CHECK:           vector.fma {{.*}} : vector<64xf32>
// CHECK:         memref.collapse_shape %[[OUT]]
// CHECK:         vector.transfer_write {{.*}} : vector<4x64xf32>, memref<4x64xf32>
// CHECK-NOT:     vector<4xf32>
// CHECK:         return
func.func @grouped_loop(%x: memref<56x16x4xf32>, %dy: memref<56x16x4xf32>, %out: memref<4x16x4xf32>) {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %c56 = arith.constant 56 : index
  %p = ub.poison : f32
  %init = vector.transfer_read %out[%c0, %c0, %c0], %p {in_bounds = [true, true, true]} : memref<4x16x4xf32>, vector<4x16x4xf32>
  %r = scf.for %i = %c0 to %c56 step %c8 iter_args(%acc = %init) -> (vector<4x16x4xf32>) {
    %a = vector.transfer_read %x[%i, %c0, %c0], %p {in_bounds = [true, true, true]} : memref<56x16x4xf32>, vector<8x16x4xf32>
    %b = vector.transfer_read %dy[%i, %c0, %c0], %p {in_bounds = [true, true, true]} : memref<56x16x4xf32>, vector<8x16x4xf32>
    %c = vector.contract {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d3, d0, d1)>, affine_map<(d0, d1, d2, d3) -> (d3, d0, d2)>, affine_map<(d0, d1, d2, d3) -> (d1, d0, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"], kind = #vector.kind<add>} %a, %b, %acc : vector<8x16x4xf32>, vector<8x16x4xf32> into vector<4x16x4xf32>
    scf.yield %c : vector<4x16x4xf32>
  }
  vector.transfer_write %r, %out[%c0, %c0, %c0] {in_bounds = [true, true, true]} : vector<4x16x4xf32>, memref<4x16x4xf32>
  return
}

// -----

// A one-position step of the tile (a tap's cut range of positions is reduced
// a position at a time), as the vectorizer leaves it: the input row
// broadcast over the co lanes, the out_backprop row over the ci rows, both
// transposed to [g, ci, co], and the accumulator transposed likewise. It
// becomes the same shuffles and FMAs (one step: 4 FMAs), and the
// transposes fold away.
// CHECK-LABEL: func.func @grouped_step
// CHECK-NOT:     arith.mulf
// CHECK-NOT:     vector.transpose
// CHECK:         vector.shuffle {{.*}} [0, 0, 0, 0, 4, 4, 4, 4,
// CHECK-COUNT-4: vector.fma {{.*}} : vector<64xf32>
// CHECK-NOT:     vector.fma
// CHECK-NOT:     vector.transpose
// CHECK:         return
func.func @grouped_step(%x: vector<16x4xf32>, %dy: vector<16x4xf32>, %acc: vector<4x16x4xf32>) -> vector<4x16x4xf32> {
  %xb = vector.broadcast %x : vector<16x4xf32> to vector<4x16x4xf32>
  %xt = vector.transpose %xb, [1, 2, 0] : vector<4x16x4xf32> to vector<16x4x4xf32>
  %yb = vector.broadcast %dy : vector<16x4xf32> to vector<4x16x4xf32>
  %yt = vector.transpose %yb, [1, 0, 2] : vector<4x16x4xf32> to vector<16x4x4xf32>
  %at = vector.transpose %acc, [1, 0, 2] : vector<4x16x4xf32> to vector<16x4x4xf32>
  %m = arith.mulf %xt, %yt fastmath<contract> : vector<16x4x4xf32>
  %s = arith.addf %at, %m fastmath<contract> : vector<16x4x4xf32>
  %r = vector.transpose %s, [1, 0, 2] : vector<16x4x4xf32> to vector<4x16x4xf32>
  return %r : vector<4x16x4xf32>
}

// -----

// 16-bit operands: the contraction of the widened rows with the accumulator
// indexed (g, ci, co) between transposes (the 16-bit tiles' form once the
// broadcasts are folded); the same shuffles and FMAs on f32 (each row
// widened as extracted), and the transposes fold.
// CHECK-LABEL: func.func @grouped_contract_bf16
// CHECK:         arith.extf {{.*}} : vector<64xbf16> to vector<64xf32>
// CHECK-NOT:     vector.transpose
// CHECK-COUNT-8: vector.fma {{.*}} : vector<64xf32>
// CHECK-NOT:     vector.transpose
// CHECK:         return
func.func @grouped_contract_bf16(%x: vector<2x16x4xbf16>, %dy: vector<2x16x4xbf16>, %acc: vector<4x16x4xf32>) -> vector<4x16x4xf32> {
  %xe = arith.extf %x : vector<2x16x4xbf16> to vector<2x16x4xf32>
  %ye = arith.extf %dy : vector<2x16x4xbf16> to vector<2x16x4xf32>
  %at = vector.transpose %acc, [1, 0, 2] : vector<4x16x4xf32> to vector<16x4x4xf32>
  %c = vector.contract {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d3, d0, d1)>, affine_map<(d0, d1, d2, d3) -> (d3, d0, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"], kind = #vector.kind<add>} %xe, %ye, %at : vector<2x16x4xf32>, vector<2x16x4xf32> into vector<16x4x4xf32>
  %r = vector.transpose %c, [1, 0, 2] : vector<16x4x4xf32> to vector<4x16x4xf32>
  return %r : vector<4x16x4xf32>
}

// -----

// An AVX2 lane-group tile: 4 of the 16 groups (two ymm registers a row),
// its operand rows read at group %g. The reads still move rows of 16
// elements, from element %g * 4 of the memref with (g, c) collapsed, rather
// than 4-lane pieces put together (which LLVM loaded as xmm halves and
// vinsertf128s: 12 shuffles per 8 FMAs instead of 8).
// AVX2-LABEL: func.func @grouped_loop_some_groups
// AVX2-SAME:    (%[[X:[^:]*]]: memref<56x16x4xf32>, %[[DY:[^:]*]]: memref<56x16x4xf32>, %[[OUT:[^:]*]]: memref<4x4x4xf32, strided<[64, 4, 1], offset: ?>>, %[[G:[^:]*]]: index)
// AVX2-DAG:     %[[C4:.*]] = arith.constant 4 : index
// AVX2:         scf.for {{.*}} -> (vector<4x16xf32>) {
// AVX2-DAG:       %[[XC:.*]] = memref.collapse_shape %[[X]] {{\[}}[0], [1, 2]] : memref<56x16x4xf32> into memref<56x64xf32>
// AVX2-DAG:       %[[COL:.*]] = arith.muli %[[G]], %[[C4]] : index
// AVX2:           vector.transfer_read %[[XC]][%{{.*}}, %[[COL]]]{{.*}} : memref<56x64xf32>, vector<8x16xf32>
// AVX2:           memref.collapse_shape %[[DY]]
// AVX2:           vector.transfer_read {{.*}} : memref<56x64xf32>, vector<8x16xf32>
// AVX2-NOT:       vector.insert_strided_slice
// AVX2:           vector.fma {{.*}} : vector<16xf32>
// AVX2-NOT:     vector<4xf32>
// AVX2:         return
func.func @grouped_loop_some_groups(%x: memref<56x16x4xf32>, %dy: memref<56x16x4xf32>, %out: memref<4x4x4xf32, strided<[64, 4, 1], offset: ?>>, %g: index) {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %c56 = arith.constant 56 : index
  %p = ub.poison : f32
  %init = vector.transfer_read %out[%c0, %c0, %c0], %p {in_bounds = [true, true, true]} : memref<4x4x4xf32, strided<[64, 4, 1], offset: ?>>, vector<4x4x4xf32>
  %r = scf.for %i = %c0 to %c56 step %c8 iter_args(%acc = %init) -> (vector<4x4x4xf32>) {
    %a = vector.transfer_read %x[%i, %g, %c0], %p {in_bounds = [true, true, true]} : memref<56x16x4xf32>, vector<8x4x4xf32>
    %b = vector.transfer_read %dy[%i, %g, %c0], %p {in_bounds = [true, true, true]} : memref<56x16x4xf32>, vector<8x4x4xf32>
    %c = vector.contract {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d3, d0, d1)>, affine_map<(d0, d1, d2, d3) -> (d3, d0, d2)>, affine_map<(d0, d1, d2, d3) -> (d1, d0, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"], kind = #vector.kind<add>} %a, %b, %acc : vector<8x4x4xf32>, vector<8x4x4xf32> into vector<4x4x4xf32>
    scf.yield %c : vector<4x4x4xf32>
  }
  vector.transfer_write %r, %out[%c0, %c0, %c0] {in_bounds = [true, true, true]} : vector<4x4x4xf32>, memref<4x4x4xf32, strided<[64, 4, 1], offset: ?>>
  return
}
