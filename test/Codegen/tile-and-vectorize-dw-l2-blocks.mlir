// RUN: conv-opt %s --convert-conv-to-linalg --canonicalize --conv-cpu-tile-and-vectorize="vector-bits=256 num-vector-registers=16 l1-cache-bytes=32768 l2-cache-bytes=524288" --mlir-print-local-scope --split-input-file | FileCheck %s
// RUN: conv-opt %s --convert-conv-to-linalg --canonicalize --conv-cpu-tile-and-vectorize="vector-bits=512 num-vector-registers=32 l1-cache-bytes=32768 l2-cache-bytes=1048576" --mlir-print-local-scope --split-input-file | FileCheck %s --check-prefix=AVX512
// RUN: conv-opt %s --convert-conv-to-linalg --canonicalize --conv-cpu-tile-and-vectorize="vector-bits=512 num-vector-registers=32 l1-cache-bytes=32768 l2-cache-bytes=786432" --mlir-print-local-scope --split-input-file | FileCheck %s --check-prefix=HALF
// RUN: conv-opt %s --convert-conv-to-linalg="dw-threads=2" --canonicalize --conv-cpu-tile-and-vectorize="vector-bits=512 num-vector-registers=32 l1-cache-bytes=32768 l2-cache-bytes=1048576 num-threads=2" --mlir-print-local-scope --split-input-file | FileCheck %s --check-prefix=THREADS
// RUN: conv-opt %s --convert-conv-to-linalg="dw-threads=2" --canonicalize --conv-cpu-tile-and-vectorize="vector-bits=512 num-vector-registers=32 l1-cache-bytes=49152 l2-cache-bytes=2097152 num-threads=2" --mlir-print-local-scope --split-input-file | FileCheck %s --check-prefix=THREADS2M
// RUN: conv-opt %s --convert-conv-to-linalg --canonicalize --conv-cpu-tile-and-vectorize="vector-bits=512 num-vector-registers=32 l1-cache-bytes=49152 l2-cache-bytes=2097152" --mlir-print-local-scope --split-input-file | FileCheck %s --check-prefix=ZMM1
// RUN: conv-opt %s --convert-conv-to-linalg --canonicalize --conv-cpu-tile-and-vectorize="vector-bits=512 num-vector-registers=32 l1-cache-bytes=49152 l2-cache-bytes=2097152 two-zmm-fma-units" --mlir-print-local-scope --split-input-file | FileCheck %s --check-prefix=ZMM2

// Reduction blocks of a filter gradient with wide rows (64 + 256 channels:
// 1280 bytes per position), L1 32 KiB, L2 512 KiB.

// A 1x1 layer is one contraction over the whole reduction
// (conv.dw_contractions = 1) with a whole dW (64 KiB, under a quarter of
// the L2): half the L1 would hold only 12 positions (the accumulator tiles
// would be reloaded every 12), so the block is sized for an eighth of the
// L2: 48 positions (51 rounded down to the reduction chunk), which divide
// the 96-long rows. Without AVX-512 such a whole-dW 1x1 contraction steps
// 4 positions at a time (8 with AVX-512: @dw_wide_tiles in
// tile-and-vectorize-avx512.mlir). The tiles of the first block (the first
// row's first 48 positions) start from zero (zeroStartFirstBlocks); that
// row's second block and the other 3 rows follow.
// CHECK-LABEL: func.func @dw_1x1
// CHECK-NOT:     linalg.fill
// CHECK:         scf.for %{{.*}} = %c0 to %c60 step %c6
// CHECK:           scf.for %{{.*}} = %c0 to %c256 step %c16
// CHECK:             vector.transfer_write %cst{{.*}} : vector<6x16xf32>, tensor<6x16xf32>
// CHECK:             scf.for %{{.*}} = %c0 to %c48 step %c4
// CHECK:               vector.contract {{.*}} : vector<4x6xf32>, vector<4x16xf32> into vector<6x16xf32>
// CHECK:         scf.for %{{.*}} = %c1 to %c4 step %c1
// CHECK:           scf.for %{{.*}} = %c0 to %c96 step %c48
// CHECK:             scf.for %{{.*}} = %c0 to %c60 step %c6
// CHECK:               scf.for %{{.*}} = %c0 to %c256 step %c16
// CHECK:                 scf.for %{{.*}} = %c0 to %c48 step %c4
// CHECK:                   vector.contract {{.*}} : vector<4x6xf32>, vector<4x16xf32> into vector<6x16xf32>
func.func @dw_1x1(%x: tensor<1x4x96x64xf32>, %dy: tensor<1x4x96x256xf32>) -> tensor<1x1x64x256xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = VALID strides = [1, 1] dilations = [1, 1] : tensor<1x4x96x64xf32>, tensor<1x4x96x256xf32> -> tensor<1x1x64x256xf32>
  return %dw : tensor<1x1x64x256xf32>
}

// -----

// The same channels with a 3x3 filter (9 contractions): each tap's dW
// (64 KiB) is larger than the L1, so a block reloads its accumulators from
// the L2, and half the L1 would be 12 positions. The blocks are sized for
// a quarter of the L2 instead (as for channel blocks, below; the single
// contraction above takes an eighth): 102 positions, so the whole 96-long
// row: no block loop over the row, and a register tile reduces the tap's
// whole row (its rows that read the input: a dynamic range) at a time.
// CHECK-LABEL: func.func @dw_3x3
// CHECK:         scf.forall (%{{.*}}, %{{.*}}) in (3, 3)
// CHECK:           scf.for %{{.*}} = %c0 to %{{.*}} step %c1
// CHECK-NEXT:        scf.for %{{.*}} = %c0 to %c60 step %c6
// CHECK-NEXT:          scf.for %{{.*}} = %c0 to %c256 step %c16
// CHECK-NEXT:            scf.for %{{.*}} = %c0 to %c96 step %c8
// CHECK-NOT:       step %c48
// CHECK-NOT:       step %c24
func.func @dw_3x3(%x: tensor<1x4x96x64xf32>, %dy: tensor<1x4x96x256xf32>) -> tensor<3x3x64x256xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = SAME strides = [1, 1] dilations = [1, 1] : tensor<1x4x96x64xf32>, tensor<1x4x96x256xf32> -> tensor<3x3x64x256xf32>
  return %dw : tensor<3x3x64x256xf32>
}

// -----

// A 3x3 layer with 128 + 128 channels (1024 bytes per position) and
// 28-position rows: half the L1 holds 16 positions, which would cut every
// row into 16 + 12. The tap's dW (64 KiB) is larger than the L1, so the
// block is sized for a quarter of the L2 (128 positions): four whole rows,
// each reduced in 7 chunks of 4 positions (a whole number of half chunks:
// no peeled remainder). The rows are the tap's rows that read the input
// (27 or 28: a dynamic range), so the last block can be shorter. (All 28
// rows of an image, 784 KiB, would not fit half the L2, which is where a
// multi-tap layer's tiles take all the rows of their block.)
// CHECK-LABEL: func.func @dw_whole_row
// CHECK:         scf.forall (%{{.*}}, %{{.*}}) in (3, 3)
// CHECK:           %[[R:.*]] = affine.max affine_map<(d0, d1) -> (0, d0 - d1)>
// CHECK:           %[[ROWS:.*]] = affine.min affine_map<(d0) -> (28, d0)>(%[[R]])
// CHECK:           scf.for %{{.*}} = %c0 to %c2 step %c1
// CHECK:             scf.for %{{.*}} = %c0 to %{{.*}} step %c4
// CHECK-NOT:           step %c16
// CHECK:               scf.for %{{.*}} = %c0 to %c126 step %c6
// CHECK:                 scf.for %{{.*}} = %c0 to %c128 step %c16
// CHECK:                   scf.for %{{.*}} = %c0 to %c4 step %c1
// CHECK:                     scf.for %{{.*}} = %c0 to %c28 step %c4
// CHECK:                       vector.transfer_read %{{.*}} vector<4x6xf32>
// CHECK-NOT:                   vector<8x6xf32>
// CHECK:             scf.for %{{.*}} = %{{.*}} to %[[ROWS]] step %c4
// CHECK:         return
func.func @dw_whole_row(%x: tensor<2x28x28x128xf32>, %dy: tensor<2x28x28x128xf32>) -> tensor<3x3x128x128xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = SAME strides = [1, 1] dilations = [1, 1] : tensor<2x28x28x128xf32>, tensor<2x28x28x128xf32> -> tensor<3x3x128x128xf32>
  return %dw : tensor<3x3x128x128xf32>
}

// -----

// The same rows in a 1x1 layer (one contraction): its whole dW (64 KiB) is
// larger than the L1, so every block reloads the accumulators from the L2
// and the block is sized for an eighth of the L2 (64 KiB: 64 positions),
// although half the L1 holds two reduction chunks (16 positions). That is
// 2 whole rows, a number that divides the 28 rows (no remainder block).
// Before, a half-L1 block was cut to 8 positions on a 48 KiB L1 (64 ->
// 256 channels at 38 % of peak), and to a 28-position row here.
// CHECK-LABEL: func.func @dw_1x1_row_blocks
// CHECK:         scf.for %{{.*}} = %c0 to %c2 step %c1
// CHECK:           scf.for %{{.*}} = %c0 to %c28 step %c2
// CHECK-NOT:         step %c16 iter_args
// CHECK:             scf.for %{{.*}} = %c0 to %c126 step %c6
// CHECK:               scf.for %{{.*}} = %c0 to %c128 step %c16
// CHECK:                 scf.for %{{.*}} = %c0 to %c2 step %c1
// CHECK:                   scf.for %{{.*}} = %c0 to %c28 step %c4
// CHECK:                     vector.contract {{.*}} : vector<4x6xf32>, vector<4x16xf32> into vector<6x16xf32>
// CHECK-NOT:           vector<8x6xf32>
// CHECK-NOT:       scf.for %{{.*}} = %c26 to %c28
// CHECK:         return
func.func @dw_1x1_row_blocks(%x: tensor<2x28x28x128xf32>, %dy: tensor<2x28x28x128xf32>) -> tensor<1x1x128x128xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = VALID strides = [1, 1] dilations = [1, 1] : tensor<2x28x28x128xf32>, tensor<2x28x28x128xf32> -> tensor<1x1x128x128xf32>
  return %dw : tensor<1x1x128x128xf32>
}

// -----

// 3x3, 512 -> 512 channels, AVX-512 (L1 32 KiB, L2 1 MiB): register tiles
// of 6 rows x 4 vectors (64 output channels); each tap's dW is cut into
// channel blocks of 256 rows (4 column tiles' worth, 252 in whole tiles,
// made 256 to divide the 512 channels; 42 tiles of 6 rows and one of 4)
// and all 512 output channels (256 x 512 x 4 B = 512 KiB, at most half
// the L2), whose rows are 3 KiB a position, so half the L1 would be 5
// positions (the register tiles would reload their accumulators every
// chunk). The block is sized for a quarter of the L2 instead: the whole
// 57-position row (7 chunks of 8 and a peeled one).
// AVX512-LABEL: func.func @dw_3x3_channel_blocks
// AVX512:         scf.forall (%{{.*}}, %{{.*}}) in (3, 3)
// AVX512:           scf.for %{{.*}} = %c0 to %c512 step %c256 iter_args(%{{.*}}) -> (tensor<512x512xf32>)
// AVX512-NOT:         step %c256
// AVX512:             scf.for %{{.*}} = %c0 to %{{.*}} step %c1
// AVX512-NOT:             step %c16
// AVX512:               scf.for %{{.*}} = %c0 to %c252 step %c6 iter_args(%{{.*}}) -> (tensor<256x512xf32>)
// AVX512:                 scf.for %{{.*}} = %c0 to %c512 step %c64
// AVX512:                   scf.for %{{.*}} = %c0 to %c56 step %c8
// AVX512:                     vector.contract {{.*}} : vector<8x6xf32>, vector<8x64xf32> into vector<6x64xf32>
func.func @dw_3x3_channel_blocks(%x: tensor<1x4x57x512xf32>, %dy: tensor<1x4x57x512xf32>) -> tensor<3x3x512x512xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = SAME strides = [1, 1] dilations = [1, 1] : tensor<1x4x57x512xf32>, tensor<1x4x57x512xf32> -> tensor<3x3x512x512xf32>
  return %dw : tensor<3x3x512x512xf32>
}

// -----

// 3x3, 256 -> 256 channels on 7x7 images with 2 threads: the 9 taps are
// not a multiple of the threads, so each tap's output channels are split in
// two (dw-threads): 18 dW tiles of 256 x 128 (128 KiB: larger than the L1,
// under the quarter of the L2 that would cut them into channel blocks).
// Their blocks are sized for a quarter of the L2 (256 KiB, 170 positions
// at 1.5 KiB each: more than the 7 rows), so they take the tap's whole
// image (7 or 6 rows: a dynamic range): no block loop over rows, and no
// 7-position blocks. (With half
// the L1 a block was one row: 7x7x512 -> 512, N16, 2 threads, medians:
// 157 -> 239 GFLOP/s with L2-sized 6-row blocks, 136 -> 157 with whole
// images in a slower period of the host.) With AVX-512 the block takes
// as many whole images as fit it and divide the batch (3 of 73 KiB fit:
// 2), and the batch loop runs inside the register tiles: each tile
// reduces 2 images before it stores its accumulators. The first 2
// images' tiles start from zero (zeroStartFirstBlocks); the block of the
// other 2 follows, a copy of the same tiles (its loop of one iteration
// folded away).
// THREADS-LABEL: func.func @dw_3x3_thread_halves
// THREADS:         scf.forall (%{{.*}}, %{{.*}}, %{{.*}}) in (3, 3, 2)
// THREADS:           scf.for %{{.*}} = %c0 to %c252 step %c6
// THREADS-NEXT:        scf.for %{{.*}} = %c0 to %c128 step %c64
// THREADS:               vector.transfer_write %cst{{.*}} : vector<6x64xf32>, tensor<6x64xf32>
// THREADS-NEXT:          scf.for %{{.*}} = %c0 to %c2 step %c1
// THREADS-NEXT:            scf.for %{{.*}} = %c0 to %[[ROWS:.*]] step %c1
// THREADS-NEXT:              scf.for %{{.*}} = %c0 to %{{.*}} step %c1
// THREADS:                     arith.mulf {{.*}} : vector<6x64xf32>
// THREADS:           scf.for %{{.*}} = %c0 to %c252 step %c6
// THREADS-NEXT:        scf.for %{{.*}} = %c0 to %c128 step %c64
// THREADS-NEXT:          scf.for %{{.*}} = %c0 to %c2 step %c1
// THREADS-NEXT:            scf.for %{{.*}} = %c0 to %[[ROWS]] step %c1
// THREADS-NEXT:              scf.for %{{.*}} = %c0 to %{{.*}} step %c1
// THREADS:                     arith.mulf {{.*}} : vector<6x64xf32>
// THREADS:           scf.forall.in_parallel
func.func @dw_3x3_thread_halves(%x: tensor<4x7x7x256xf32>, %dy: tensor<4x7x7x256xf32>) -> tensor<3x3x256x256xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = SAME strides = [1, 1] dilations = [1, 1] : tensor<4x7x7x256xf32>, tensor<4x7x7x256xf32> -> tensor<3x3x256x256xf32>
  return %dw : tensor<3x3x256x256xf32>
}

// -----

// A 1x1 layer with channel blocks (a 1 MiB dW, over a quarter of the
// 1 MiB L2: 256 x 256 blocks; ResNet's 14x14x1024 -> 256 and 7x7x2048 ->
// 512) and short rows: a half-L1 block would be one 7-position row, after
// which every register tile stores and reloads its accumulators. Its
// blocks are sized for a quarter of the L2 instead (the image's 4 rows, 28
// positions, take all of them), and the rows loop runs inside the register
// tiles. With AVX-512 such a block of whole images holds more than one
// (57 KiB each): the block takes both batch items, and the batch loop runs
// inside the register tiles too. That one block is each channel block's
// first: its tiles start from zero (zeroStartFirstBlocks). Each ci tile
// first copies its 6 channels of the block (4 KiB input rows) into a row
// panel that its 4 co tiles read (packRowPanels).
// AVX512-LABEL: func.func @dw_1x1_channel_blocks
// AVX512:         scf.for %{{.*}} = %c0 to %c1024 step %c256
// AVX512:           scf.for %{{.*}} = %c0 to %c252 step %c6
// AVX512:               vector.transfer_read %arg0{{.*}} : tensor<2x4x7x1024xf32>, vector<6xf32>
// AVX512:             scf.for %{{.*}} = %c0 to %c256 step %c64
// AVX512:               vector.transfer_write %cst{{.*}} : vector<6x64xf32>, tensor<6x64xf32>
// AVX512-NEXT:          scf.for %{{.*}} = %c0 to %c2 step %c1
// AVX512-NEXT:            scf.for %{{.*}} = %c0 to %c4 step %c1
// AVX512:                   vector.contract {{.*}} : vector<7x6xf32>, vector<7x64xf32> into vector<6x64xf32>
// Without AVX-512 (L2 512 KiB) the co blocks are 4 tiles of 2 vectors (64
// channels), and a single contraction's ci blocks take a quarter of the
// L2: 512 ci rows (510 rounded up to divide the 1024 channels; a half-L1
// block would be 64 rows, and every block streams all of out_backprop).
// Its reduction blocks keep that 64-row block's length: the image's 4
// rows of 7 positions (14 KiB of 64 + 64 channels, within half the L1).
// In each channel block the first image's tiles start from zero
// (zeroStartFirstBlocks), then the second image's follow.
// CHECK-LABEL: func.func @dw_1x1_channel_blocks
// CHECK:         scf.for %{{.*}} = %c0 to %c1024 step %c512
// CHECK-NEXT:      scf.for %{{.*}} = %c0 to %c256 step %c64
// CHECK:             scf.for %{{.*}} = %c0 to %c510 step %c6
// CHECK-NEXT:          scf.for %{{.*}} = %c0 to %c64 step %c16
// CHECK:                 vector.transfer_write %cst{{.*}} : vector<6x16xf32>, tensor<6x16xf32>
// CHECK-NEXT:            scf.for %{{.*}} = %c0 to %c4 step %c1
// CHECK:                   vector.contract {{.*}} : vector<7x6xf32>, vector<7x16xf32> into vector<6x16xf32>
// CHECK:               vector.contract {{.*}} : vector<7x2xf32>, vector<7x16xf32> into vector<2x16xf32>
// CHECK:             scf.for %{{.*}} = %c0 to %c510 step %c6
// CHECK-NEXT:          scf.for %{{.*}} = %c0 to %c64 step %c16
// CHECK-NEXT:            scf.for %{{.*}} = %c0 to %c4 step %c1
// CHECK:                   vector.contract {{.*}} : vector<7x6xf32>, vector<7x16xf32> into vector<6x16xf32>
func.func @dw_1x1_channel_blocks(%x: tensor<2x4x7x1024xf32>, %dy: tensor<2x4x7x256xf32>) -> tensor<1x1x1024x256xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = VALID strides = [1, 1] dilations = [1, 1] : tensor<2x4x7x1024xf32>, tensor<2x4x7x256xf32> -> tensor<1x1x1024x256xf32>
  return %dw : tensor<1x1x1024x256xf32>
}

// -----

// The same with 8 batch items of 7x7 images (49 positions of 256 + 256
// channels, 98 KiB each; ResNet's 7x7x2048 -> 512): the quarter-L2 block
// holds 2 images, so each register tile reduces 2 images (98 positions)
// per visit instead of one. The first 2 images' tiles start from zero
// (zeroStartFirstBlocks), the other 3 blocks' from what they left.
// Both kinds of block pack each ci tile's row panel (2 x 7 x 7 positions
// of 6 channels) for its co tiles.
// AVX512-LABEL: func.func @dw_1x1_image_blocks
// AVX512:         scf.for %{{.*}} = %c0 to %c1024 step %c256
// AVX512:           scf.for %{{.*}} = %c0 to %c252 step %c6
// AVX512:               vector.transfer_read %arg0{{.*}} : tensor<8x7x7x1024xf32>, vector<6xf32>
// AVX512:             scf.for %{{.*}} = %c0 to %c256 step %c64
// AVX512:               vector.transfer_write %cst{{.*}} : vector<6x64xf32>, tensor<6x64xf32>
// AVX512-NEXT:          scf.for %{{.*}} = %c0 to %c2 step %c1
// AVX512-NEXT:            scf.for %{{.*}} = %c0 to %c7 step %c1
// AVX512-NEXT:              vector.transfer_read %{{.*}} : tensor<2x7x7x6xf32>, vector<7x6xf32>
// AVX512:                   vector.contract {{.*}} : vector<7x6xf32>, vector<7x64xf32> into vector<6x64xf32>
// AVX512:           scf.for %{{.*}} = %c2 to %c8 step %c2
// AVX512:             scf.for %{{.*}} = %c0 to %c252 step %c6
// AVX512:                 vector.transfer_read %arg0{{.*}} : tensor<8x7x7x1024xf32>, vector<6xf32>
// AVX512:               scf.for %{{.*}} = %c0 to %c256 step %c64
// AVX512-NEXT:            scf.for %{{.*}} = %c0 to %c2 step %c1
// AVX512-NEXT:              scf.for %{{.*}} = %c0 to %c7 step %c1
// AVX512:                     vector.contract {{.*}} : vector<7x6xf32>, vector<7x64xf32> into vector<6x64xf32>
// Without AVX-512 the batch stays outside the register tiles: the first
// image's first block of rows starts from zero, then its last rows and the
// other 7 images follow.
// CHECK-LABEL: func.func @dw_1x1_image_blocks
// CHECK:         scf.for %{{.*}} = %c0 to %c1024 step %c512
// CHECK-NEXT:      scf.for %{{.*}} = %c0 to %c256 step %c64
// CHECK:             scf.for %{{.*}} = %c0 to %c510 step %c6
// CHECK-NEXT:          scf.for %{{.*}} = %c0 to %c64 step %c16
// CHECK:                 vector.transfer_write %cst{{.*}} : vector<6x16xf32>, tensor<6x16xf32>
// CHECK-NEXT:            scf.for %{{.*}} = %c0 to %c4 step %c1
// CHECK:                   vector.contract {{.*}} : vector<7x6xf32>, vector<7x16xf32> into vector<6x16xf32>
// CHECK:             scf.for %{{.*}} = %c1 to %c8 step %c1
// CHECK:               scf.for %{{.*}} = %c0 to %c510 step %c6
// CHECK-NEXT:            scf.for %{{.*}} = %c0 to %c64 step %c16
// CHECK-NEXT:              scf.for %{{.*}} = %c0 to %c4 step %c1
// CHECK:                     vector.contract {{.*}} : vector<7x6xf32>, vector<7x16xf32> into vector<6x16xf32>
func.func @dw_1x1_image_blocks(%x: tensor<8x7x7x1024xf32>, %dy: tensor<8x7x7x256xf32>) -> tensor<1x1x1024x256xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = VALID strides = [1, 1] dilations = [1, 1] : tensor<8x7x7x1024xf32>, tensor<8x7x7x256xf32> -> tensor<1x1x1024x256xf32>
  return %dw : tensor<1x1x1024x256xf32>
}

// -----

// A 1x1 layer whose dW splits over 2 threads into whole 256 x 256 halves
// (column parts: more output than input channels, and a stride of 1; the
// stride-2 ResNet layer these blocks were measured on now takes input-
// channel parts, 128 x 512) of 256 KiB, a quarter of the L2: like a
// channel block of that size, each half takes reduction blocks sized for a
// quarter of the L2 (4 of the 28-position rows, 2 KiB a position), not an
// eighth (2 rows).
// With a 2 MiB L2 the halves are an eighth of it and take a quarter's
// blocks too: 7 rows (9 fit; 7 divides the 28), not an eighth's 4.
// (The first block's tiles start from zero, zeroStartFirstBlocks; the loop
// over the others follows.)
// THREADS2M-LABEL: func.func @dw_1x1_thread_halves
// THREADS2M:         scf.forall (%{{.*}}) in (2)
// THREADS2M:           vector.transfer_write %cst{{.*}} : vector<6x64xf32>, tensor<6x64xf32>
// THREADS2M:           scf.for %{{.*}} = %c7 to %c28 step %c7 iter_args(%{{.*}}) -> (tensor<256x256xf32>)
// THREADS2M-NEXT:        scf.for %{{.*}} = %c0 to %c252 step %c6
// THREADS-LABEL: func.func @dw_1x1_thread_halves
// THREADS:         scf.forall (%{{.*}}) in (2)
// THREADS:           vector.transfer_write %cst{{.*}} : vector<6x64xf32>, tensor<6x64xf32>
// THREADS:           scf.for %{{.*}} = %c4 to %c28 step %c4 iter_args(%{{.*}}) -> (tensor<256x256xf32>)
// THREADS-NEXT:        scf.for %{{.*}} = %c0 to %c252 step %c6
// THREADS-NEXT:          scf.for %{{.*}} = %c0 to %c256 step %c64
// THREADS-NEXT:            scf.for %{{.*}} = %c0 to %c4 step %c1
// THREADS:                   vector.contract {{.*}} : vector<4x6xf32>, vector<4x64xf32> into vector<6x64xf32>
func.func @dw_1x1_thread_halves(%x: tensor<1x28x28x256xf32>, %dy: tensor<1x28x28x512xf32>) -> tensor<1x1x256x512xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = VALID strides = [1, 1] dilations = [1, 1] : tensor<1x28x28x256xf32>, tensor<1x28x28x512xf32> -> tensor<1x1x256x512xf32>
  return %dw : tensor<1x1x256x512xf32>
}

// -----

// ResNet's 14x14x1024 -> 256 on 2 threads with a 2 MiB L2: input-channel
// halves of 512 x 256 (512 KiB, a quarter of the L2) take quarter-L2
// reduction blocks, 12 of the 14 image rows (3 KiB a position). 7 divides
// the 14 and is more than half of 12: 7-row blocks. (The rule that takes
// all the rows for blocks of three quarters of them or more applies only
// without such a divisor: whole images had each 64-channel out_backprop
// column tile, 196 positions x 256 bytes, spill out of the L1.) The first
// image's first 7 rows start the tiles from zero (zeroStartFirstBlocks),
// then its other 7 rows and the other 7 images follow.
// THREADS2M-LABEL: func.func @dw_1x1_divisor_rows
// THREADS2M:         scf.forall (%{{.*}}) in (2)
// THREADS2M:           scf.for %{{.*}} = %c0 to %c510 step %c6
// THREADS2M-NEXT:        scf.for %{{.*}} = %c0 to %c256 step %c64
// THREADS2M:               vector.transfer_write %cst{{.*}} : vector<6x64xf32>, tensor<6x64xf32>
// THREADS2M-NEXT:          scf.for %{{.*}} = %c0 to %c7 step %c1
// THREADS2M:           scf.for %{{.*}} = %c1 to %c8 step %c1 iter_args(%{{.*}}) -> (tensor<512x256xf32>)
// THREADS2M-NEXT:        scf.for %{{.*}} = %c0 to %c14 step %c7 iter_args(%{{.*}}) -> (tensor<512x256xf32>)
// THREADS2M-NEXT:          scf.for %{{.*}} = %c0 to %c510 step %c6
// THREADS2M-NEXT:            scf.for %{{.*}} = %c0 to %c256 step %c64
// THREADS2M-NEXT:              scf.for %{{.*}} = %c0 to %c7 step %c1
func.func @dw_1x1_divisor_rows(%x: tensor<8x14x14x1024xf32>, %dy: tensor<8x14x14x256xf32>) -> tensor<1x1x1024x256xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = VALID strides = [1, 1] dilations = [1, 1] : tensor<8x14x14x1024xf32>, tensor<8x14x14x256xf32> -> tensor<1x1x1024x256xf32>
  return %dw : tensor<1x1x1024x256xf32>
}

// -----

// A multi-tap filter gradient with narrow (2-vector) whole-dW tiles, 48 KiB
// L1, 2 MiB L2: every row of a tap is one reduction block (ZMM1 lines: the
// 28 rows fit half the L2), except on a core with two 512-bit FMA units
// (ZMM2 lines), whose 12-row tiles take blocks of the rows whose
// out_backprop rows fit half the L1 (28 x 32 channels: 3.5 KiB a row, 6
// fit, 4 divide the 28), a block loop and a peeled remainder in each tap's
// cut row range. (A single block starts its tiles from zero, ZMM1; blocks
// over a cut range of dynamic length start from a zero fill of the tap's
// dW (ZMM2 lines): zeroStartFirstBlocks peels static block loops only.)
// ZMM1-LABEL: func.func @dw_narrow_two_zmm
// ZMM1:         scf.forall (%{{.*}}, %{{.*}}) in (5, 5)
// ZMM1:           scf.for %{{.*}} = %c0 to %c192 step %c8
// ZMM1:             vector.transfer_write %cst{{.*}} : vector<8x32xf32>, tensor<8x32xf32>
// ZMM1-NEXT:        scf.for %{{.*}} = %c0 to %{{.*}} step %c1
// ZMM1-NEXT:          scf.for %{{.*}} = %c0 to %c28 step %c4
// ZMM1:                 vector.contract {{.*}} : vector<4x8xf32>, vector<4x32xf32> into vector<8x32xf32>
// ZMM2-LABEL: func.func @dw_narrow_two_zmm
// ZMM2:         scf.forall (%{{.*}}, %{{.*}}) in (5, 5)
// ZMM2:           linalg.fill {{.*}} -> tensor<192x32xf32>
// ZMM2:           scf.for %{{.*}} = %c0 to %[[MAIN:.*]] step %c4
// ZMM2-NEXT:        scf.for %{{.*}} = %c0 to %c192 step %c12
// ZMM2-NEXT:          scf.for %{{.*}} = %c0 to %c4 step %c1
// ZMM2-NEXT:            scf.for %{{.*}} = %c0 to %c28 step %c4
// ZMM2:                   vector.contract {{.*}} : vector<4x12xf32>, vector<4x32xf32> into vector<12x32xf32>
// ZMM2:           scf.for %{{.*}} = %[[MAIN]] to %{{.*}} step %c4
// ZMM2:             scf.for %{{.*}} = %c0 to %c192 step %c12
func.func @dw_narrow_two_zmm(%x: tensor<1x28x28x192xf32>, %dy: tensor<1x28x28x32xf32>) -> tensor<5x5x192x32xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = EXPLICIT explicit_paddings = [2, 2, 2, 2] strides = [1, 1] dilations = [1, 1] : tensor<1x28x28x192xf32>, tensor<1x28x28x32xf32> -> tensor<5x5x192x32xf32>
  return %dw : tensor<5x5x192x32xf32>
}

// -----

// A 1x1 layer with a 4 MiB dW (2048 x 512, ResNet's res5 reduce) on a 2 MiB
// L2: channel-blocked, 256 input channels a block, and the co block takes
// all 512 output channels (256 x 512 x 4 B = 512 KiB, at most half the L2)
// rather than 4 column tiles (256): one pass over the input serves every
// output channel. So on a 1 MiB L2 (AVX512 lines: exactly half); with 768
// KiB (HALF lines: 512 KiB over a half) or without AVX-512 (CHECK lines)
// the co blocks stay 4 column tiles wide. (With AVX-512 each ci tile packs
// its row panel before its co tiles.)
// HALF-LABEL: func.func @dw_1x1_whole_co_blocks
// HALF:         scf.for %{{.*}} = %c0 to %c2048 step %c256
// HALF-NEXT:      scf.for %{{.*}} = %c0 to %c512 step %c256
// ZMM1-LABEL: func.func @dw_1x1_whole_co_blocks
// ZMM1:         scf.for %{{.*}} = %c0 to %c2048 step %c256 iter_args(%{{.*}}) -> (tensor<2048x512xf32>)
// ZMM1-NOT:       scf.for %{{.*}} = %c0 to %c512 step %c256
// ZMM1:             scf.for %{{.*}} = %c0 to %c252 step %c6 iter_args(%{{.*}}) -> (tensor<256x512xf32>)
// ZMM1:                 vector.transfer_read %arg0{{.*}} : tensor<8x7x7x2048xf32>, vector<6xf32>
// ZMM1:               scf.for %{{.*}} = %c0 to %c512 step %c64
// AVX512-LABEL: func.func @dw_1x1_whole_co_blocks
// AVX512:         scf.for %{{.*}} = %c0 to %c2048 step %c256 iter_args(%{{.*}}) -> (tensor<2048x512xf32>)
// AVX512-NOT:       scf.for %{{.*}} = %c0 to %c512 step %c256
// AVX512:             scf.for %{{.*}} = %c0 to %c252 step %c6 iter_args(%{{.*}}) -> (tensor<256x512xf32>)
// CHECK-LABEL: func.func @dw_1x1_whole_co_blocks
// CHECK:         scf.for %{{.*}} = %c0 to %c2048 step %c512
// CHECK-NEXT:      scf.for %{{.*}} = %c0 to %c512 step %c64
func.func @dw_1x1_whole_co_blocks(%x: tensor<8x7x7x2048xf32>, %dy: tensor<8x7x7x512xf32>) -> tensor<1x1x2048x512xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = VALID strides = [1, 1] dilations = [1, 1] : tensor<8x7x7x2048xf32>, tensor<8x7x7x512xf32> -> tensor<1x1x2048x512xf32>
  return %dw : tensor<1x1x2048x512xf32>
}
