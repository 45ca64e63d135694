// RUN: conv-opt %s --convert-conv-to-linalg="transpose-dot-lanes=16 transpose-threads=2" --canonicalize --mlir-print-local-scope --split-input-file | FileCheck %s
// RUN: conv-opt %s --convert-conv-to-linalg="transpose-dot-lanes=8" --canonicalize --mlir-print-local-scope --split-input-file | FileCheck %s --check-prefix=AVX2
// RUN: conv-opt %s --convert-conv-to-linalg --canonicalize --mlir-print-local-scope --split-input-file | FileCheck %s --check-prefix=OFF

// The dot lowering (docs/Lowering.md §3.11) of masknet's 1-D k7 s2
// deconvolution (64 -> 3 channels, output_padding 1): S = 2 phases x 3
// channels = 6 sums per phase row m, R = 4 window rows, tiles of 8 rows
// (48 sums, 3 vectors) as 2 register tiles of 4 rows x 6 sums (24
// accumulators) over 64 / 16 input-channel chunks. 2 tile ranges (threads)
// of 33 tiles; the output [1, 1030 x 3] is written in place, each range cut
// at its end (masked writes).
// CHECK-LABEL: func.func @masknet
// CHECK:         %[[OUT:.*]] = tensor.empty() : tensor<1x3090xf32>
// CHECK:         %[[SUMS:.*]] = scf.forall (%[[P:.*]]) in (2) shared_outs(%[[SH:.*]] = %[[OUT]]) -> (tensor<1x3090xf32>)
// CHECK:           %[[AT:.*]] = arith.muli %[[P]], %c1584 : index
// CHECK:           %[[LEFT:.*]] = arith.subi %c3090, %[[AT]]
// CHECK:           %[[SIZE:.*]] = arith.minsi %{{.*}}, %c1584
// CHECK:           %[[TILES:.*]] = arith.ceildivsi %[[SIZE]], %c48
// CHECK:           %[[PART:.*]] = tensor.extract_slice %[[SH]][0, %[[AT]]] [1, %[[SIZE]]] [1, 1] : tensor<1x3090xf32> to tensor<?xf32>
// CHECK:           scf.for %[[T:.*]] = %c0 to %[[TILES]] step %c1 iter_args(%{{.*}} = %[[PART]]) -> (tensor<?xf32>)
// The tile's window (rows m - 3 .. m + 7) inside the input: plain loads.
// CHECK:             %[[ROW0:.*]] = arith.addi %{{.*}}, %c-3 : index
// CHECK-DAG:         arith.cmpi sle, %[[ROW0]], %c501 : index
// CHECK-DAG:         arith.cmpi sge, %[[ROW0]], %c0 : index
// CHECK:             scf.if %{{.*}} -> (vector<16xf32>, vector<16xf32>, vector<16xf32>)
// CHECK:               scf.for %{{.*}} = %c0 to %c4 step %c1 iter_args({{.*}}) -> (vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>)
// Window row 0 pairs with tap 6 (phase 0), the zero tap 7 of phase 1 is
// skipped: 4 rows x (3 + 3 x 6) sums a chunk.
// CHECK-NOT:             vector.transfer_read %arg1[%c7
// CHECK-COUNT-84:        vector.fma {{.*}} : vector<16xf32>
// CHECK-NOT:             vector.fma
// CHECK:                 scf.yield
// CHECK:               scf.for %{{.*}} = %c0 to %c4 step %c1
// CHECK-COUNT-84:        vector.fma
// CHECK:                 scf.yield
// Each vector of 16 sums: 15 shuffle pairs and adds (30 shuffles).
// CHECK-COUNT-90:      vector.shuffle
// CHECK:               scf.yield
// Edge tiles: every input row read through a clamped index and a select.
// CHECK:             } else {
// CHECK:               arith.select
// CHECK-COUNT-168:     vector.fma
// CHECK-COUNT-90:      vector.shuffle
// CHECK:             vector.transfer_write %{{.*}} : vector<16xf32>, tensor<?xf32>
// CHECK:             vector.transfer_write %{{.*}} : vector<16xf32>, tensor<?xf32>
// CHECK:             vector.transfer_write %{{.*}} : vector<16xf32>, tensor<?xf32>
// CHECK:           tensor.parallel_insert_slice %{{.*}} into %[[SH]][0, %[[AT]]] [1, %[[SIZE]]] [1, 1]
// CHECK:         tensor.expand_shape %[[SUMS]] {{\[}}[0], [1, 2]] output_shape [1, 1030, 3] : tensor<1x3090xf32> into tensor<1x1030x3xf32>
// With 8 lanes (AVX2, 16 registers) and 1 thread: register tiles of 2
// rows x 6 sums, tiles of 4 rows (24 sums, 3 vectors of 8).
// AVX2-LABEL: func.func @masknet
// AVX2:         scf.for %{{.*}} = %c0 to %c8 step %c1 iter_args({{.*}}) -> (vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>)
// AVX2:         vector.shuffle {{.*}} : vector<8xf32>, vector<8xf32>
// AVX2:         vector.transfer_write %{{.*}} : vector<8xf32>, tensor<3090xf32>
// Off by default (the pass option): the columns lowering.
// OFF-LABEL: func.func @masknet
// OFF-NOT:     vector.fma
// OFF:         conv.role = "transpose_phase"
func.func @masknet(%x: tensor<1x512x64xf32>, %k: tensor<7x3x64xf32>) -> tensor<1x1030x3xf32> {
  %y = conv.transpose %x, %k data_format = channels_last padding = valid strides = [2] dilation_rate = [1] output_padding = [1] : tensor<1x512x64xf32>, tensor<7x3x64xf32> -> tensor<1x1030x3xf32>
  return %y : tensor<1x1030x3xf32>
}

// -----

// SAME padding with a 4-tap stride-2 kernel crops 1 position before the
// output: its first phase row's phase-0 sums are not output. The sums go
// to a temporary of whole tiles (2 items x 2 ranges of a tile of 12 rows x
// 4 sums: the output's 13 phase rows), the output is sliced from it (from
// sum 2) and copied to contiguous rows.
// CHECK-LABEL: func.func @same_crop
// CHECK:         %[[SUMS:.*]] = scf.forall (%{{.*}}, %{{.*}}) in (2, 2) shared_outs(%{{.*}}) -> (tensor<2x96xf32>)
// CHECK:           tensor.extract_slice %{{.*}} [1, 48] [1, 1] : tensor<2x96xf32> to tensor<48xf32>
// CHECK:           vector.transfer_write %{{.*}} {in_bounds = [true]} : vector<16xf32>, tensor<48xf32>
// CHECK:         %[[SLICE:.*]] = tensor.extract_slice %[[SUMS]][0, 2] [2, 48] [1, 1] : tensor<2x96xf32> to tensor<2x48xf32>
// CHECK:         %[[ROWS:.*]] = bufferization.materialize_in_destination %[[SLICE]] in %{{.*}} : (tensor<2x48xf32>, tensor<2x48xf32>) -> tensor<2x48xf32>
// CHECK:         tensor.expand_shape %[[ROWS]] {{\[}}[0], [1, 2]] output_shape [2, 24, 2] : tensor<2x48xf32> into tensor<2x24x2xf32>
func.func @same_crop(%x: tensor<2x12x32xf32>, %k: tensor<4x2x32xf32>) -> tensor<2x24x2xf32> {
  %y = conv.transpose %x, %k data_format = channels_last padding = same strides = [2] dilation_rate = [1] : tensor<2x12x32xf32>, tensor<4x2x32xf32> -> tensor<2x24x2xf32>
  return %y : tensor<2x24x2xf32>
}

// -----

// Tiles sized for compile time (at most 512 FMAs a tile body): 16 taps at
// stride 1 with 4 channels take tiles of 4 rows x 4 sums (one vector, 256
// FMAs a body, 16 accumulators), not 12 rows (768); 15 taps with 1
// channel, tiles of 16 rows as 2 register tiles of 8 (240 FMAs a body).
// (That layer had no good lowering before: its phases vectorized along its
// one output channel.)
// CHECK-LABEL: func.func @many_taps
// CHECK:         scf.if %{{.*}} -> (vector<16xf32>)
// CHECK-COUNT-256: vector.fma
// CHECK:         } else {
// CHECK-COUNT-256: vector.fma
// CHECK-NOT:     vector.fma
// CHECK:         return
// CHECK-LABEL: func.func @one_channel_15_taps
// CHECK:         scf.if %{{.*}} -> (vector<16xf32>)
// CHECK:           scf.for %{{.*}} = %c0 to %c2 step %c1 iter_args({{.*}}) -> (vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>)
// CHECK-COUNT-120: vector.fma
// CHECK:           scf.for %{{.*}} = %c0 to %c2 step %c1 iter_args({{.*}}) -> (vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>)
// CHECK-COUNT-120: vector.fma
// CHECK:         } else {
// CHECK:         return
func.func @many_taps(%x: tensor<1x64x16xf32>, %k: tensor<16x4x16xf32>) -> tensor<1x79x4xf32> {
  %y = conv.transpose %x, %k data_format = channels_last padding = valid strides = [1] dilation_rate = [1] : tensor<1x64x16xf32>, tensor<16x4x16xf32> -> tensor<1x79x4xf32>
  return %y : tensor<1x79x4xf32>
}
func.func @one_channel_15_taps(%x: tensor<1x64x32xf32>, %k: tensor<15x1x32xf32>) -> tensor<1x78x1xf32> {
  %y = conv.transpose %x, %k data_format = channels_last padding = valid strides = [1] dilation_rate = [1] : tensor<1x64x32xf32>, tensor<15x1x32xf32> -> tensor<1x78x1xf32>
  return %y : tensor<1x78x1xf32>
}

// -----

// Not for: input channels not a multiple of the lanes, more than 8 sums a
// phase row (stride 2 x 5 channels), dilation, 2-D, bf16.
// CHECK-LABEL: func.func @not_cin20
// CHECK-NOT:     vector.fma
// CHECK-LABEL: func.func @not_ten_sums
// CHECK-NOT:     vector.fma
// CHECK-LABEL: func.func @not_dilated
// CHECK-NOT:     vector.fma
// CHECK-LABEL: func.func @not_2d
// CHECK-NOT:     vector.fma
// CHECK-LABEL: func.func @not_bf16
// CHECK-NOT:     vector.fma
// CHECK:         return
func.func @not_cin20(%x: tensor<1x64x20xf32>, %k: tensor<7x3x20xf32>) -> tensor<1x133x3xf32> {
  %y = conv.transpose %x, %k data_format = channels_last padding = valid strides = [2] dilation_rate = [1] : tensor<1x64x20xf32>, tensor<7x3x20xf32> -> tensor<1x133x3xf32>
  return %y : tensor<1x133x3xf32>
}
func.func @not_ten_sums(%x: tensor<1x64x32xf32>, %k: tensor<7x5x32xf32>) -> tensor<1x133x5xf32> {
  %y = conv.transpose %x, %k data_format = channels_last padding = valid strides = [2] dilation_rate = [1] : tensor<1x64x32xf32>, tensor<7x5x32xf32> -> tensor<1x133x5xf32>
  return %y : tensor<1x133x5xf32>
}
func.func @not_dilated(%x: tensor<1x64x32xf32>, %k: tensor<3x3x32xf32>) -> tensor<1x131x3xf32> {
  %y = conv.transpose %x, %k data_format = channels_last padding = valid strides = [2] dilation_rate = [2] : tensor<1x64x32xf32>, tensor<3x3x32xf32> -> tensor<1x131x3xf32>
  return %y : tensor<1x131x3xf32>
}
func.func @not_2d(%x: tensor<1x8x8x32xf32>, %k: tensor<3x3x3x32xf32>) -> tensor<1x17x17x3xf32> {
  %y = conv.transpose %x, %k data_format = channels_last padding = valid strides = [2, 2] dilation_rate = [1, 1] : tensor<1x8x8x32xf32>, tensor<3x3x3x32xf32> -> tensor<1x17x17x3xf32>
  return %y : tensor<1x17x17x3xf32>
}
func.func @not_bf16(%x: tensor<1x64x32xbf16>, %k: tensor<7x3x32xbf16>) -> tensor<1x133x3xbf16> {
  %y = conv.transpose %x, %k data_format = channels_last padding = valid strides = [2] dilation_rate = [1] : tensor<1x64x32xbf16>, tensor<7x3x32xbf16> -> tensor<1x133x3xbf16>
  return %y : tensor<1x133x3xbf16>
}
