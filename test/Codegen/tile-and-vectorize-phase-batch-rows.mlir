// RUN: conv-opt %s --convert-conv-to-linalg --canonicalize --conv-cpu-tile-and-vectorize="vector-bits=512 num-vector-registers=32 l1-cache-bytes=32768 l2-cache-bytes=1048576 num-threads=1" --mlir-print-local-scope --split-input-file | FileCheck %s
// RUN: conv-opt %s --convert-conv-to-linalg --canonicalize --conv-cpu-tile-and-vectorize="vector-bits=512 num-vector-registers=32 l1-cache-bytes=32768 l2-cache-bytes=1048576 num-threads=2" --mlir-print-local-scope --split-input-file | FileCheck %s --check-prefix=T2
// RUN: conv-opt %s --convert-conv-to-linalg --canonicalize --conv-cpu-tile-and-vectorize="vector-bits=512 num-vector-registers=32 l1-cache-bytes=32768 l2-cache-bytes=1048576 num-threads=4" --mlir-print-local-scope --split-input-file | FileCheck %s --check-prefix=T4
// RUN: conv-opt %s --convert-conv-to-linalg --canonicalize --conv-cpu-tile-and-vectorize="vector-bits=256 num-vector-registers=16 l1-cache-bytes=32768 l2-cache-bytes=524288 num-threads=1" --mlir-print-local-scope --split-input-file | FileCheck %s --check-prefix=AVX2

// Register tiles of transposed-convolution phases whose zero-padded window
// (conv.phase_window) is read by the taps along the last dimension: the
// accumulator rows run along the batch, so that every spatial dimension
// has one output row per register tile and the tap loops of both are
// clipped to the taps that read input rows (no padding products along the
// rows either).

// DCGAN-like 4x4 stride-2 `same` layer on 8x8 inputs: four phases of 2x2
// taps over a window padded by one row and column. The first phase reads
// input rows [0, 8) of its 9-row window: output row o takes taps
// t < min(2, 8 - o) along both dimensions. The second phase's window
// starts at column 1: taps t >= max(0, 1 - o) along the columns. The batch
// of 8 makes two 4-row x 4-vector tiles, one a thread with 2 threads
// (which split the batch); with 4 threads a thread's 2 batch items would
// make a 2-row tile, so the rows run along the last dimension again and
// only the tap loop along the first is clipped.
// CHECK-LABEL: func.func @phase_batch_rows
// CHECK:         scf.for %[[OH:.*]] = %c0 to %c8 step %c1
// CHECK:           scf.for %[[OW:.*]] = %c0 to %c8 step %c1
// CHECK:             scf.for %[[B:.*]] = %c0 to %c8 step %c4
// CHECK:               %[[HI0:.*]] = affine.min affine_map<()[s0] -> (-s0 + 8, 2)>()[%[[OH]]]
// CHECK:               scf.for %{{.*}} = %c0 to %[[HI0]] step %c1
// CHECK:                 %[[HI1:.*]] = affine.min affine_map<()[s0] -> (-s0 + 8, 2)>()[%[[OW]]]
// CHECK:                 scf.for %{{.*}} = %c0 to %[[HI1]] step %c1
// CHECK:                   scf.for %{{.*}} = %c0 to %c16 step %c1
// CHECK:                     vector.transfer_read %{{.*}}[%[[B]], %{{.*}}, %{{.*}}, %{{.*}}], %{{.*}} {in_bounds = [true], permutation_map = affine_map<(d0, d1, d2, d3) -> (d0)>} : tensor<8x10x10x16xf32>, vector<4xf32>
// CHECK:                     arith.mulf {{.*}} : vector<4x64xf32>
// CHECK:         scf.for %{{.*}} = %c0 to %c8 step %c1
// CHECK:           scf.for %[[OW2:.*]] = %c0 to %c8 step %c1
// CHECK:             scf.for %{{.*}} = %c0 to %c8 step %c4
// CHECK:               affine.min affine_map<()[s0] -> (-s0 + 8, 2)>
// CHECK:                 %[[LO1:.*]] = affine.max affine_map<()[s0] -> (-s0 + 1, 0)>()[%[[OW2]]]
// CHECK:                 scf.for %{{.*}} = %[[LO1]] to %c2 step %c1
// CHECK:                     arith.mulf {{.*}} : vector<4x64xf32>

// T2-LABEL: func.func @phase_batch_rows
// T2:         scf.forall (%[[T:.*]]) = (0) to (8) step (4)
// T2:           scf.for %[[OH:.*]] = %c0 to %c8 step %c1
// T2:             scf.for %[[OW:.*]] = %c0 to %c8 step %c1
// T2:               affine.min affine_map<()[s0] -> (-s0 + 8, 2)>()[%[[OH]]]
// T2:                 affine.min affine_map<()[s0] -> (-s0 + 8, 2)>()[%[[OW]]]
// T2:                     vector.transfer_read %{{.*}}[%[[T]], %{{.*}}, %{{.*}}, %{{.*}}], %{{.*}} {in_bounds = [true], permutation_map = affine_map<(d0, d1, d2, d3) -> (d0)>} : tensor<8x10x10x16xf32>, vector<4xf32>
// T2:                     arith.mulf {{.*}} : vector<4x64xf32>

// T4-LABEL: func.func @phase_batch_rows
// T4:         scf.forall (%{{.*}}) = (0) to (8) step (2)
// T4:               scf.for %{{.*}} = %c0 to %c8 step %c4
// T4:                 affine.min affine_map<()[s0] -> (-s0 + 8, 2)>
// T4:                 scf.for %{{.*}} = %c0 to %c2 step %c1
// T4:                     vector.transfer_read {{.*}} {in_bounds = [true], permutation_map = affine_map<(d0, d1, d2, d3) -> (d2)>} : tensor<8x10x10x16xf32>, vector<4xf32>
// Without AVX-512 (2-vector tiles) the rows run along the last dimension
// (8 = 4 + 4 columns a row), faster there for every such layer measured.
// AVX2-LABEL: func.func @phase_batch_rows
// AVX2:         scf.for %{{.*}} = %c0 to %c8 step %c1
// AVX2:           scf.for %{{.*}} = %c0 to %c64 step %c16
// AVX2:             scf.for %{{.*}} = %c0 to %c8 step %c1
// AVX2:               scf.for %{{.*}} = %c0 to %c8 step %c4
// AVX2:                 vector.transfer_read {{.*}} {in_bounds = [true], permutation_map = affine_map<(d0, d1, d2, d3) -> (d2)>} : tensor<8x10x10x16xf32>, vector<4xf32>
// AVX2:                 arith.mulf {{.*}} : vector<4x16xf32>
// AVX2-NOT:     permutation_map = affine_map<(d0, d1, d2, d3) -> (d0)>
// AVX2:         return
func.func @phase_batch_rows(%x: tensor<8x8x8x16xf32>, %k: tensor<4x4x64x16xf32>) -> tensor<8x16x16x64xf32> {
  %y = conv.transpose %x, %k data_format = channels_last padding = same strides = [2, 2] dilation_rate = [1, 1] : tensor<8x8x8x16xf32>, tensor<4x4x64x16xf32> -> tensor<8x16x16x64xf32>
  return %y : tensor<8x16x16x64xf32>
}

// -----

// A 4x2 kernel with strides 2: the phases' windows are padded along the
// first dimension only (along the columns one tap reads input positions
// 0..7 of 8), so the rows stay along the last dimension, 8 = 4 + 4, and
// only the tap loop along the first dimension is clipped.
// CHECK-LABEL: func.func @phase_rows_unpadded_last_dim
// CHECK:         scf.for %{{.*}} = %c0 to %c8 step %c1
// CHECK:           scf.for %[[OH:.*]] = %c0 to %c8 step %c1
// CHECK:             scf.for %[[OW:.*]] = %c0 to %c8 step %c4
// CHECK:               affine.min affine_map<()[s0] -> (-s0 + 8, 2)>()[%[[OH]]]
// CHECK:                 vector.transfer_read %{{.*}}[%{{.*}}, %{{.*}}, %[[OW]], %{{.*}}], %{{.*}} {in_bounds = [true], permutation_map = affine_map<(d0, d1, d2, d3) -> (d2)>} : tensor<8x10x8x16xf32>, vector<4xf32>
// CHECK:                 arith.mulf {{.*}} : vector<4x64xf32>
// CHECK-NOT:     permutation_map = affine_map<(d0, d1, d2, d3) -> (d0)>
// CHECK:         return
func.func @phase_rows_unpadded_last_dim(%x: tensor<8x8x8x16xf32>, %k: tensor<4x2x64x16xf32>) -> tensor<8x16x16x64xf32> {
  %y = conv.transpose %x, %k data_format = channels_last padding = same strides = [2, 2] dilation_rate = [1, 1] : tensor<8x8x8x16xf32>, tensor<4x2x64x16xf32> -> tensor<8x16x16x64xf32>
  return %y : tensor<8x16x16x64xf32>
}
