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
// Each vector of 16 sums: 15 shuffle pairs and adds (30 shuffles), each
// pair as soon as both halves exist: the first register tile's 24 sums
// (the first vector's 16 and half the second's) reduce to 2 vectors
// before the second register tile starts (44 shuffles), then the rest (46).
// CHECK-COUNT-44:      vector.shuffle
// CHECK:               scf.for %{{.*}} = %c0 to %c4 step %c1
// CHECK-COUNT-84:        vector.fma
// CHECK:                 scf.yield
// CHECK-COUNT-46:      vector.shuffle
// CHECK:               scf.yield
// Edge tiles: every input row read through a clamped index and a mask of
// all lanes or none (a masked load: a select of the read became a branch).
// CHECK:             } else {
// CHECK:               %[[VALID:.*]] = arith.andi
// CHECK:               %[[MASK:.*]] = vector.broadcast %[[VALID]] : i1 to vector<16xi1>
// CHECK:               vector.transfer_read %arg0[%c0, %{{.*}}, %{{.*}}], %{{.*}}, %[[MASK]] {in_bounds = [true]} : tensor<1x512x64xf32>, vector<16xf32>
// CHECK-NOT:           arith.select
// CHECK-COUNT-84:      vector.fma
// CHECK-COUNT-44:      vector.shuffle
// CHECK-COUNT-84:      vector.fma
// CHECK-COUNT-46:      vector.shuffle
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
// output. The phases are aligned to the output: output 2m (phase 0) takes
// taps 3 and 1 of input rows m - 1 and m, output 2m + 1 taps 2 and 0 of
// rows m and m + 1, so every phase row m reads the 3 rows m - 1 .. m + 1
// (window row 0 pairs with tap 3 only, row 2 with tap 0 only) and its 4
// sums are outputs 2m and 2m + 1: the output's 12 phase rows are one tile
// of 12 rows x 4 sums (2 register tiles of 6), written in place (2 items,
// one range each), no temporary.
// CHECK-LABEL: func.func @same_crop
// CHECK:         %[[SUMS:.*]] = scf.forall (%[[I:.*]]) in (2) shared_outs(%{{.*}}) -> (tensor<2x48xf32>)
// CHECK:           scf.for %{{.*}} = %c0 to %c2 step %c1 iter_args
// The first register tile's window row 0 is input row -1: a read masked
// off (all lanes), at the clamped row 0.
// CHECK:             vector.transfer_read %arg0[%[[I]], %c0, %{{.*}}], %{{.*}}, %cst {in_bounds = [true]}
// CHECK-NOT:         vector.fma
// CHECK:             vector.transfer_read %arg1[%c3, %c0,
// CHECK-COUNT-48:    vector.fma
// CHECK-NOT:         vector.fma
// CHECK:             scf.yield
// CHECK:           vector.transfer_write %{{.*}}[%c0] {in_bounds = [true]} : vector<16xf32>, tensor<48xf32>
// CHECK-NOT:     bufferization.materialize_in_destination
// CHECK:         tensor.expand_shape %[[SUMS]] {{\[}}[0], [1, 2]] output_shape [2, 24, 2] : tensor<2x48xf32> into tensor<2x24x2xf32>
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

// 2-D (DCGAN's RGB layer: 4x4 stride 2 SAME, 32 -> 3 channels): along the
// last dimension as in 1-D (S = 2 x 3 = 6 sums a phase row, output-aligned
// phases: window columns m - 1 .. m + 1; tiles of 8 rows as 2 register
// tiles of 4; the 32 phase columns are 4 tiles, 2 ranges of 2), and a loop
// over the 8 phase rows of the first dimension, each computing its 2
// output rows in turn: output row 2 mh takes kernel rows 3 and 1 of input
// rows mh - 1 and mh, row 2 mh + 1 kernel rows 2 and 0 of rows mh and
// mh + 1 (2 x 4 x 3 x 4 = 96 FMAs a chunk per register tile, 384 a tile
// body); window column 0 pairs with kernel column 3 (phase 0). A tile's
// window must lie inside the input along both dimensions for the plain
// loads. Each output row's sums are written in place: [1, 16, 64 x 3].
// CHECK-LABEL: func.func @dcgan_rgb
// CHECK:         %[[OUT:.*]] = tensor.empty() : tensor<1x16x192xf32>
// CHECK:         %[[SUMS:.*]] = scf.forall (%[[P:.*]]) in (2) shared_outs(%[[SH:.*]] = %[[OUT]]) -> (tensor<1x16x192xf32>)
// CHECK:           %[[PART:.*]] = tensor.extract_slice %[[SH]][0, 0, %{{.*}}] [1, 16, %{{.*}}] [1, 1, 1] : tensor<1x16x192xf32> to tensor<16x?xf32>
// CHECK:           scf.for %[[MH:.*]] = %c0 to %c8 step %c1 iter_args(%{{.*}} = %[[PART]]) -> (tensor<16x?xf32>)
// CHECK:             scf.for %{{.*}} = %c0 to %{{.*}} step %c1 iter_args(%{{.*}}) -> (tensor<16x?xf32>)
// CHECK:               %[[COL0:.*]] = arith.addi %{{.*}}, %c-1 : index
// CHECK-DAG:           arith.cmpi sle, %[[COL0]], %c22 : index
// CHECK-DAG:           arith.cmpi sge, %[[COL0]], %c0 : index
// CHECK:               %[[ROW:.*]] = arith.muli %[[MH]], %c2 : index
// CHECK:               %[[ROW0:.*]] = arith.addi %[[MH]], %c-1 : index
// CHECK-DAG:           arith.cmpi sle, %[[ROW0]], %c6 : index
// CHECK-DAG:           arith.cmpi sge, %[[ROW0]], %c0 : index
// CHECK:               scf.if %{{.*}} -> (vector<16xf32>, vector<16xf32>, vector<16xf32>)
// CHECK:                 scf.for %{{.*}} = %c0 to %c2 step %c1 iter_args
// CHECK-NOT:               vector.fma
// CHECK:                   vector.transfer_read %arg1[%c3, %c3, %c0,
// CHECK-COUNT-96:          vector.fma
// CHECK-NOT:               vector.fma
// CHECK:                   scf.yield
// CHECK:               } else {
// CHECK:                 vector.transfer_read %arg0[%c0, %{{.*}}, %{{.*}}, %{{.*}}], %{{.*}}, %{{.*}} {in_bounds = [true]} : tensor<1x8x32x32xf32>, vector<16xf32>
// CHECK-COUNT-3:       vector.transfer_write %{{.*}}, %{{.*}}[%[[ROW]], %{{.*}}] : vector<16xf32>, tensor<16x?xf32>
// CHECK:               %[[ROWX:.*]] = arith.muli %[[MH]], %c2 : index
// CHECK:               %[[ROW1:.*]] = arith.addi %[[ROWX]], %c1 : index
// CHECK-DAG:           arith.cmpi sle, %[[MH]], %c6 : index
// CHECK-DAG:           arith.cmpi sge, %[[MH]], %c0 : index
// CHECK:               scf.if %{{.*}} -> (vector<16xf32>, vector<16xf32>, vector<16xf32>)
// CHECK:                 scf.for %{{.*}} = %c0 to %c2 step %c1 iter_args
// CHECK-NOT:               vector.fma
// CHECK:                   vector.transfer_read %arg1[%c2, %c3, %c0,
// CHECK-COUNT-96:          vector.fma
// CHECK-COUNT-3:       vector.transfer_write %{{.*}}, %{{.*}}[%[[ROW1]], %{{.*}}] : vector<16xf32>, tensor<16x?xf32>
// The loop over phase rows: its tiles' input rows prefetched a phase row
// ahead (conv-cpu-lower-vectors).
// CHECK:           } {conv.prefetch_ahead_nested = 1 : i64}
// CHECK:         tensor.expand_shape %[[SUMS]] {{\[}}[0], [1], [2, 3]] output_shape [1, 16, 64, 3] : tensor<1x16x192xf32> into tensor<1x16x64x3xf32>
// A 5x5 stride-2 layer (3 and 2 kernel rows a phase: 5 x 5 x 8 x 3 = 600
// FMAs a tile body): two bodies would unroll more than 1024 FMAs, so every
// tile reads through masks (all lanes or none; outside the input along
// either dimension: none), one body.
// CHECK-LABEL: func.func @five_by_five
// CHECK:         scf.for %{{.*}} = %c0 to %c8 step %c1
// CHECK-NOT:       scf.if
// CHECK:           vector.broadcast %{{.*}} : i1 to vector<16xi1>
// CHECK:           vector.transfer_read %arg0[%c0, %{{.*}}, %{{.*}}, %{{.*}}], %{{.*}}, %{{.*}} {in_bounds = [true]} : tensor<1x8x32x32xf32>, vector<16xf32>
// CHECK-NOT:       scf.if
// CHECK:         return
// A 3x3 stride-2 layer with 2 output channels (S = 4, tiles of 12 rows as
// 2 of 6): output row 2 mh takes kernel rows 2 and 0, row 2 mh + 1 kernel
// row 1 (2 x 3 x 2 x 6 = 72 and 36 FMAs per register tile, one chunk of
// 16 input channels: 216 a tile body): both bodies, the plain one when the
// tile's window lies inside the input along both dimensions.
// CHECK-LABEL: func.func @two_bodies
// CHECK:         scf.for %[[MH:.*]] = %c0 to %c8 step %c1
// CHECK:           %[[ROW0:.*]] = arith.addi %[[MH]], %c-1 : index
// CHECK-DAG:       arith.cmpi sle, %[[ROW0]], %c6 : index
// CHECK-DAG:       arith.cmpi sge, %[[ROW0]], %c0 : index
// CHECK:           scf.if %{{.*}} -> (vector<16xf32>, vector<16xf32>, vector<16xf32>)
// CHECK-NOT:         vector.broadcast
// CHECK-COUNT-144:   vector.fma
// CHECK-NOT:         vector.fma
// CHECK:             scf.yield
// CHECK:           } else {
// CHECK:             vector.broadcast %{{.*}} : i1 to vector<16xi1>
// CHECK:           scf.if %{{.*}} -> (vector<16xf32>, vector<16xf32>, vector<16xf32>)
// CHECK-COUNT-72:    vector.fma
// CHECK-NOT:         vector.fma
// CHECK:             scf.yield
// CHECK:           } else {
func.func @dcgan_rgb(%x: tensor<1x8x32x32xf32>, %k: tensor<4x4x3x32xf32>) -> tensor<1x16x64x3xf32> {
  %y = conv.transpose %x, %k data_format = channels_last padding = same strides = [2, 2] dilation_rate = [1, 1] : tensor<1x8x32x32xf32>, tensor<4x4x3x32xf32> -> tensor<1x16x64x3xf32>
  return %y : tensor<1x16x64x3xf32>
}
func.func @five_by_five(%x: tensor<1x8x32x32xf32>, %k: tensor<5x5x3x32xf32>) -> tensor<1x16x64x3xf32> {
  %y = conv.transpose %x, %k data_format = channels_last padding = same strides = [2, 2] dilation_rate = [1, 1] : tensor<1x8x32x32xf32>, tensor<5x5x3x32xf32> -> tensor<1x16x64x3xf32>
  return %y : tensor<1x16x64x3xf32>
}
func.func @two_bodies(%x: tensor<1x8x48x16xf32>, %k: tensor<3x3x2x16xf32>) -> tensor<1x16x96x2xf32> {
  %y = conv.transpose %x, %k data_format = channels_last padding = same strides = [2, 2] dilation_rate = [1, 1] : tensor<1x8x48x16xf32>, tensor<3x3x2x16xf32> -> tensor<1x16x96x2xf32>
  return %y : tensor<1x16x96x2xf32>
}

// -----

// Not for: input channels not a multiple of the lanes, more than 8 sums a
// phase row (stride 2 x 5 channels), dilation, 3-D, bf16.
// CHECK-LABEL: func.func @not_cin20
// CHECK-NOT:     vector.fma
// CHECK-LABEL: func.func @not_ten_sums
// CHECK-NOT:     vector.fma
// CHECK-LABEL: func.func @not_dilated
// CHECK-NOT:     vector.fma
// CHECK-LABEL: func.func @not_3d
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
func.func @not_3d(%x: tensor<1x4x4x4x32xf32>, %k: tensor<2x2x2x3x32xf32>) -> tensor<1x8x8x8x3xf32> {
  %y = conv.transpose %x, %k data_format = channels_last padding = valid strides = [2, 2, 2] dilation_rate = [1, 1, 1] : tensor<1x4x4x4x32xf32>, tensor<2x2x2x3x32xf32> -> tensor<1x8x8x8x3xf32>
  return %y : tensor<1x8x8x8x3xf32>
}
func.func @not_bf16(%x: tensor<1x64x32xbf16>, %k: tensor<7x3x32xbf16>) -> tensor<1x133x3xbf16> {
  %y = conv.transpose %x, %k data_format = channels_last padding = valid strides = [2] dilation_rate = [1] : tensor<1x64x32xbf16>, tensor<7x3x32xbf16> -> tensor<1x133x3xbf16>
  return %y : tensor<1x133x3xbf16>
}
