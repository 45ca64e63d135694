// RUN: conv-opt %s --conv-cpu-lower-vectors="vector-bits=512 bf16-dot" --split-input-file | FileCheck %s
// RUN: conv-opt %s --conv-cpu-lower-vectors="vector-bits=512" --split-input-file | FileCheck %s --check-prefix=OFF

// A bf16 register tile of a transposed convolution (3 output positions x 32
// output channels) updated by a pair of input channels: acc[m, n] +=
// x[m, 0] * w[0, n] + x[m, 1] * w[1, n], the operands widened to f32.
// Each row's pair is broadcast as one 32-bit word; each 16-column piece of
// the two kernel rows is interleaved into (w[0, n], w[1, n]) pairs (an i16
// shuffle); every 16-lane accumulator vector is one x86vector.avx512.dot.
// CHECK-LABEL: func.func @pair_tile
// CHECK-SAME:    (%[[X:.*]]: vector<3x2xbf16>, %[[W:.*]]: vector<2x32xbf16>, %[[ACC:.*]]: vector<3x32xf32>)
// CHECK-NOT:     vector.contract
// CHECK-DAG:     %[[W0:.*]] = vector.extract %[[W]][0] : vector<32xbf16> from vector<2x32xbf16>
// CHECK-DAG:     %[[W1:.*]] = vector.extract %[[W]][1] : vector<32xbf16> from vector<2x32xbf16>
// CHECK-DAG:     %[[B0:.*]] = vector.bitcast %[[W0]] : vector<32xbf16> to vector<32xi16>
// CHECK-DAG:     %[[B1:.*]] = vector.bitcast %[[W1]] : vector<32xbf16> to vector<32xi16>
// CHECK:         vector.shuffle %[[B0]], %[[B1]] [0, 32, 1, 33, 2, 34, 3, 35, 4, 36, 5, 37, 6, 38, 7, 39, 8, 40, 9, 41, 10, 42, 11, 43, 12, 44, 13, 45, 14, 46, 15, 47] : vector<32xi16>, vector<32xi16>
// CHECK:         vector.shuffle %[[B0]], %[[B1]] [16, 48, 17, 49, 18, 50, 19, 51, 20, 52, 21, 53, 22, 54, 23, 55, 24, 56, 25, 57, 26, 58, 27, 59, 28, 60, 29, 61, 30, 62, 31, 63] : vector<32xi16>, vector<32xi16>
// CHECK:         %[[P0:.*]] = vector.extract %[[X]][0] : vector<2xbf16> from vector<3x2xbf16>
// CHECK:         %[[WORD:.*]] = vector.bitcast %[[P0]] : vector<2xbf16> to vector<1xi32>
// CHECK:         %[[BITS:.*]] = vector.extract %[[WORD]][0] : i32 from vector<1xi32>
// CHECK:         %[[SPLAT:.*]] = vector.broadcast %[[BITS]] : i32 to vector<16xi32>
// CHECK:         %[[A0:.*]] = vector.bitcast %[[SPLAT]] : vector<16xi32> to vector<32xbf16>
// CHECK:         x86vector.avx512.dot %{{.*}}, %[[A0]], %{{.*}} : vector<32xbf16> -> vector<16xf32>
// CHECK:         x86vector.avx512.dot %{{.*}}, %[[A0]], %{{.*}} : vector<32xbf16> -> vector<16xf32>
// CHECK-COUNT-4: x86vector.avx512.dot
// CHECK-NOT:     x86vector.avx512.dot
// CHECK:         return
// OFF-LABEL: func.func @pair_tile
// OFF-NOT:     x86vector
// OFF-COUNT-6: vector.fma {{.*}} : vector<32xf32>
func.func @pair_tile(%x: vector<3x2xbf16>, %w: vector<2x32xbf16>, %acc: vector<3x32xf32>) -> vector<3x32xf32> {
  %a = arith.extf %x : vector<3x2xbf16> to vector<3x2xf32>
  %b = arith.extf %w : vector<2x32xbf16> to vector<2x32xf32>
  %r = vector.contract {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %a, %b, %acc : vector<3x2xf32>, vector<2x32xf32> into vector<3x32xf32>
  return %r : vector<3x32xf32>
}

// -----

// The operands transposed (x as [k, m], the kernel as [n, k]): still one
// dot product per accumulator vector.
// CHECK-LABEL: func.func @transposed_operands
// CHECK-NOT:     vector.contract
// CHECK-COUNT-2: x86vector.avx512.dot
// CHECK-NOT:     x86vector.avx512.dot
func.func @transposed_operands(%x: vector<2x2xbf16>, %w: vector<16x2xbf16>, %acc: vector<2x16xf32>) -> vector<2x16xf32> {
  %a = arith.extf %x : vector<2x2xbf16> to vector<2x2xf32>
  %b = arith.extf %w : vector<16x2xbf16> to vector<16x2xf32>
  %r = vector.contract {indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %a, %b, %acc : vector<2x2xf32>, vector<16x2xf32> into vector<2x16xf32>
  return %r : vector<2x16xf32>
}

// -----

// Not dot products: a reduction of one input channel (the peeled odd one),
// columns that are not whole 16-lane vectors, f16 operands.
// CHECK-LABEL: func.func @not_pairs
// CHECK-NOT:     x86vector
// CHECK:         return
func.func @not_pairs(%x: vector<3x1xbf16>, %w: vector<1x32xbf16>, %acc: vector<3x32xf32>,
                     %x2: vector<3x2xbf16>, %w2: vector<2x8xbf16>, %acc2: vector<3x8xf32>,
                     %x3: vector<3x2xf16>, %w3: vector<2x16xf16>, %acc3: vector<3x16xf32>)
    -> (vector<3x32xf32>, vector<3x8xf32>, vector<3x16xf32>) {
  %a = arith.extf %x : vector<3x1xbf16> to vector<3x1xf32>
  %b = arith.extf %w : vector<1x32xbf16> to vector<1x32xf32>
  %r = vector.contract {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %a, %b, %acc : vector<3x1xf32>, vector<1x32xf32> into vector<3x32xf32>
  %a2 = arith.extf %x2 : vector<3x2xbf16> to vector<3x2xf32>
  %b2 = arith.extf %w2 : vector<2x8xbf16> to vector<2x8xf32>
  %r2 = vector.contract {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %a2, %b2, %acc2 : vector<3x2xf32>, vector<2x8xf32> into vector<3x8xf32>
  %a3 = arith.extf %x3 : vector<3x2xf16> to vector<3x2xf32>
  %b3 = arith.extf %w3 : vector<2x16xf16> to vector<2x16xf32>
  %r3 = vector.contract {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %a3, %b3, %acc3 : vector<3x2xf32>, vector<2x16xf32> into vector<3x16xf32>
  return %r, %r2, %r3 : vector<3x32xf32>, vector<3x8xf32>, vector<3x16xf32>
}

// -----

// A function with a bf16 vector of 8k + 1 elements (a 9-wide tile row)
// keeps FMAs: LLVM 22 cannot generate code for such vectors with
// AVX512-BF16 on, which the dot product needs for the whole function.
// CHECK-LABEL: func.func @odd_bf16_vector
// CHECK-NOT:     x86vector
// CHECK:         return
func.func @odd_bf16_vector(%x: vector<3x2xbf16>, %w: vector<2x16xbf16>, %acc: vector<3x16xf32>, %row: vector<9xbf16>) -> (vector<3x16xf32>, vector<9xf32>) {
  %a = arith.extf %x : vector<3x2xbf16> to vector<3x2xf32>
  %b = arith.extf %w : vector<2x16xbf16> to vector<2x16xf32>
  %r = vector.contract {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %a, %b, %acc : vector<3x2xf32>, vector<2x16xf32> into vector<3x16xf32>
  %e = arith.extf %row : vector<9xbf16> to vector<9xf32>
  return %r, %e : vector<3x16xf32>, vector<9xf32>
}
