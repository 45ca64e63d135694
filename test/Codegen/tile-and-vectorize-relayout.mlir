// RUN: conv-opt %s --conv-cpu-tile-and-vectorize="vector-bits=256 num-vector-registers=16 l1-cache-bytes=32768 l2-cache-bytes=1048576 num-threads=2" --mlir-print-local-scope --split-input-file | FileCheck %s
// RUN: conv-opt %s --conv-cpu-tile-and-vectorize="vector-bits=512 num-vector-registers=32 l1-cache-bytes=32768 l2-cache-bytes=1048576 num-threads=1 bf16-dot" --mlir-print-local-scope --split-input-file | FileCheck %s --check-prefix=AVX512

// A relayout (conv-cpu-channels-last) to channels last, AVX2-sized: 8 x 8
// tiles over C (contiguous in the output) and W (contiguous in the input),
// each one transfer_read of 8 input rows, a vector.transpose and one
// transfer_write; batch items over the threads. C = 20 is peeled: two
// 8-channel tiles, then one static 4-channel tile.
// CHECK-LABEL: func.func @to_last
// CHECK:         scf.forall (%[[N:.*]]) in (2)
// CHECK:           scf.for %[[H:.*]] = %c0 to %c6 step %c1
// CHECK:             scf.for %[[C:.*]] = %c0 to %c16 step %c8
// CHECK:               %[[R:.*]] = vector.transfer_read %arg0[%[[N]], %[[C]], %[[H]], %c0], %{{.*}} {in_bounds = [true, true], permutation_map = affine_map<(d0, d1, d2, d3) -> (d1, d3)>} : tensor<2x20x6x8xf32>, vector<8x8xf32>
// CHECK:               %[[T:.*]] = vector.transpose %[[R]], [1, 0] : vector<8x8xf32> to vector<8x8xf32>
// CHECK:               vector.transfer_write %[[T]], %{{.*}}[%c0, %[[H]], %c0, %[[C]]] {in_bounds = [true, true]} : vector<8x8xf32>, tensor<1x6x8x20xf32>
// CHECK:             vector.transfer_read %arg0[%[[N]], %c16, %[[H]], %c0], {{.*}} : tensor<2x20x6x8xf32>, vector<4x8xf32>
// CHECK:             vector.transpose {{.*}} : vector<4x8xf32> to vector<8x4xf32>
// CHECK:             vector.transfer_write {{.*}} : vector<8x4xf32>, tensor<1x6x8x20xf32>
// CHECK-NOT:     linalg.
func.func @to_last(%x: tensor<2x20x6x8xf32>) -> tensor<2x6x8x20xf32> {
  %e = tensor.empty() : tensor<2x6x8x20xf32>
  %t = linalg.transpose ins(%x : tensor<2x20x6x8xf32>) outs(%e : tensor<2x6x8x20xf32>) permutation = [0, 2, 3, 1] {conv.role = "relayout"}
  return %t : tensor<2x6x8x20xf32>
}

// -----

// Back to channels first with one batch item: the threads split H (the
// first dimension with at least 2 iterations that is not tiled by 8). The
// tile's write skips the unit H dimension between C and W, so it is written
// as 8 x 1 x 8 (after a transpose that only moves the unit dimension).
// CHECK-LABEL: func.func @to_first
// CHECK:         scf.forall (%{{.*}}) = (0) to (6) step (3)
// CHECK:           vector.transfer_read {{.*}} : tensor<1x6x16x8xf32>, vector<8x8xf32>
// CHECK:           vector.transpose {{.*}}, [1, 0] : vector<8x8xf32> to vector<8x8xf32>
// CHECK:           vector.transfer_write {{.*}} : vector<8x1x8xf32>, tensor<1x8x3x16xf32>
// CHECK-NOT:     linalg.
func.func @to_first(%y: tensor<1x6x16x8xf32>) -> tensor<1x8x6x16xf32> {
  %e = tensor.empty() : tensor<1x8x6x16xf32>
  %t = linalg.transpose ins(%y : tensor<1x6x16x8xf32>) outs(%e : tensor<1x8x6x16xf32>) permutation = [0, 3, 1, 2] {conv.role = "relayout"}
  return %t : tensor<1x8x6x16xf32>
}

// -----

// A linalg.transpose that is not a relayout is left alone.
// CHECK-LABEL: func.func @other
// CHECK:         linalg.transpose
func.func @other(%x: tensor<8x16xf32>) -> tensor<16x8xf32> {
  %e = tensor.empty() : tensor<16x8xf32>
  %t = linalg.transpose ins(%x : tensor<8x16xf32>) outs(%e : tensor<16x8xf32>) permutation = [1, 0]
  return %t : tensor<16x8xf32>
}

// -----

// An empty relayout (a zero-length transposed-convolution result) is left
// as it is.
// CHECK-LABEL: func.func @empty
// CHECK:         linalg.transpose
// CHECK-NOT:     scf.for
func.func @empty(%y: tensor<2x4x0x2xbf16>) -> tensor<2x2x4x0xbf16> {
  %e = tensor.empty() : tensor<2x2x4x0xbf16>
  %t = linalg.transpose ins(%y : tensor<2x4x0x2xbf16>) outs(%e : tensor<2x2x4x0xbf16>) permutation = [0, 3, 1, 2] {conv.role = "relayout"}
  return %t : tensor<2x2x4x0xbf16>
}

// -----

// A 2-D relayout (the columns lowering's kernel transpose, KT = K^T) has no
// outer dimension to split: with at least 64K elements, the threads split
// the dimension contiguous in the output (its 256 columns) in whole 8 x 8
// squares, 128 + 128 columns, so that each thread writes its own columns of
// every row (the output channels of a transposed convolution's kernel tap,
// which a phase split by output channels reads on the same core). The
// input-contiguous dimension is the innermost loop: the squares read along
// the input's rows (8 sequential streams), not down its columns; its last
// 4 rows of the output are the remainder.
// CHECK-LABEL: func.func @matrix
// CHECK:         scf.forall (%[[C:.*]]) = (0) to (256) step (128)
// CHECK:           scf.for %[[J:.*]] = %c0 to %c128 step %c8
// CHECK:             scf.for %[[I:.*]] = %c0 to %c256 step %c8
// CHECK:               %[[IN:.*]] = affine.apply affine_map<()[s0, s1] -> (s0 + s1)>()[%[[C]], %[[J]]]
// CHECK:               vector.transfer_read %arg0[%[[IN]], %[[I]]]
// CHECK:               vector.transpose {{.*}}, [1, 0] : vector<8x8xf32> to vector<8x8xf32>
// CHECK:               vector.transfer_write {{.*}}[%[[I]], %[[J]]]
// CHECK:             vector.transfer_read %arg0[%{{.*}}, %c256]{{.*}} : tensor<256x260xf32>, vector<8x4xf32>
// CHECK:             vector.transpose {{.*}}, [1, 0] : vector<8x4xf32> to vector<4x8xf32>
func.func @matrix(%k: tensor<256x260xf32>) -> tensor<260x256xf32> {
  %e = tensor.empty() : tensor<260x256xf32>
  %t = linalg.transpose ins(%k : tensor<256x260xf32>) outs(%e : tensor<260x256xf32>) permutation = [1, 0] {conv.role = "relayout"}
  return %t : tensor<260x256xf32>
}

// -----

// A smaller one (64 x 256: 16K elements) costs about as much as a fork:
// one thread.
// CHECK-LABEL: func.func @small_matrix
// CHECK-NOT:     scf.forall
// CHECK:         vector.transpose
func.func @small_matrix(%k: tensor<256x64xf32>) -> tensor<64x256xf32> {
  %e = tensor.empty() : tensor<64x256xf32>
  %t = linalg.transpose ins(%k : tensor<256x64xf32>) outs(%e : tensor<64x256xf32>) permutation = [1, 0] {conv.role = "relayout"}
  return %t : tensor<64x256xf32>
}

// -----

// AVX-512 (second RUN line): 16 x 16 squares for 16-bit elements too (not
// the 32 x 32 of a vector's worth: lowered as one 1024-lane shuffle, which
// LLVM took most of a second to compile).
// AVX512-LABEL: func.func @bf16_squares
// AVX512:         vector.transfer_read {{.*}} : tensor<48x32xbf16>, vector<16x16xbf16>
// AVX512:         vector.transpose {{.*}} : vector<16x16xbf16> to vector<16x16xbf16>
// AVX512-NOT:     vector<32x32xbf16>
// AVX512:         return
func.func @bf16_squares(%x: tensor<48x32xbf16>) -> tensor<32x48xbf16> {
  %e = tensor.empty() : tensor<32x48xbf16>
  %t = linalg.transpose ins(%x : tensor<48x32xbf16>) outs(%e : tensor<32x48xbf16>) permutation = [1, 0] {conv.role = "relayout"}
  return %t : tensor<32x48xbf16>
}

// -----

// With bf16-dot, a bf16 dimension of 41 runs in chunks of 8 and a last
// single element (16 + 16 + 9 would leave 9-element bf16 vectors, which
// keep the function off the dot product).
// AVX512-LABEL: func.func @bf16_odd_dimension
// AVX512:         vector.transfer_read {{.*}} : tensor<48x41xbf16>, vector<16x8xbf16>
// AVX512:         vector.transpose {{.*}} : vector<16x8xbf16> to vector<8x16xbf16>
// AVX512:         vector.transfer_read {{.*}} : tensor<48x41xbf16>, vector<16xbf16>
// AVX512-NOT:     x9xbf16>
// AVX512-NOT:     vector<9x
// AVX512:         return
func.func @bf16_odd_dimension(%x: tensor<48x41xbf16>) -> tensor<41x48xbf16> {
  %e = tensor.empty() : tensor<41x48xbf16>
  %t = linalg.transpose ins(%x : tensor<48x41xbf16>) outs(%e : tensor<41x48xbf16>) permutation = [1, 0] {conv.role = "relayout"}
  return %t : tensor<41x48xbf16>
}
