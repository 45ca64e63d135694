// The bf16 dot products of conv-cpu-lower-vectors through the LLVM dialect
// to x86 code with AVX512-BF16: one vdpbf16ps per 16-lane accumulator
// vector (3 rows x 2 vectors), the kernel pairs interleaved by word
// permutes, each row's input-channel pair broadcast as a 32-bit word.
// RUN: conv-opt %s --conv-cpu-lower-vectors="vector-bits=512 bf16-dot" \
// RUN:   --convert-vector-to-llvm="enable-x86vector" --convert-to-llvm --reconcile-unrealized-casts \
// RUN:   | mlir-translate --mlir-to-llvmir \
// RUN:   | llc -O2 -mtriple=x86_64-unknown-linux-gnu -mcpu=znver4 -mattr=+avx512bf16 \
// RUN:   | FileCheck %s
// CHECK-LABEL: pair_tile:
// CHECK-COUNT-6: vdpbf16ps {{.*}}%zmm
// CHECK-NOT:     vdpbf16ps
// CHECK-NOT:     vfmadd
// CHECK:         retq
func.func @pair_tile(%x: vector<3x2xbf16>, %w: vector<2x32xbf16>, %acc: vector<3x32xf32>) -> vector<3x32xf32> {
  %a = arith.extf %x : vector<3x2xbf16> to vector<3x2xf32>
  %b = arith.extf %w : vector<2x32xbf16> to vector<2x32xf32>
  %r = vector.contract {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %a, %b, %acc : vector<3x2xf32>, vector<2x32xf32> into vector<3x32xf32>
  return %r : vector<3x32xf32>
}
