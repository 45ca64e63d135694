// (transpose-taps-overhead=1.25: some of the small transposed convolutions
// below have phases that multiply 10-25 % padding; the default, 1.10,
// would lower those tap by tap instead of by the phases these tests pin.)
// RUN: conv-opt %s --convert-conv-to-linalg=transpose-taps-overhead=1.25 --canonicalize --conv-cpu-tile-and-vectorize="vector-bits=256 num-vector-registers=16 l1-cache-bytes=8192 l2-cache-bytes=65536" --mlir-print-local-scope --split-input-file | FileCheck %s

// Cache blocking with explicit cache sizes (L1 8 KiB, L2 64 KiB).

// dW of a 1x1 layer with 128 x 128 channels: the tap's dW (64 KiB) is
// larger than half the L2, so (ci, co) are blocked. Half the 8 KiB L1
// would hold 12 x 64 accumulators, but a block has at least as many ci
// rows as co columns (a multiple of the 6-row tile): 60, which becomes 64,
// the next block that divides the 128 channels (rather than 60 and a
// peeled 4-channel block, a second copy of the whole nest): blocks of 64 x
// 64, each with 10 register tiles of 6 x 16 and a remainder tile of 4
// rows. The block loops are outermost and every reduction block of (b, oh,
// ow) runs inside them. A reduction block of channel-blocked tiles takes a
// quarter of the L2 (16 KiB: 32 positions of 64 + 64 channels, four rows
// of 8), so every register tile keeps its accumulators over four rows.
// In each channel block the tiles of the first reduction block (the first
// image's first four rows) start from zero (zeroStartFirstBlocks: no zero
// fill of the dW); that image's other rows and the second image's two
// blocks follow, copies of the same tiles.
// CHECK-LABEL: func.func @dw_channel_blocks
// CHECK-NOT:     linalg.fill
// CHECK:         scf.for %{{.*}} = %c0 to %c128 step %c64
// CHECK:           scf.for %{{.*}} = %c0 to %c128 step %c64
// CHECK:             scf.for %{{.*}} = %c0 to %c60 step %c6
// CHECK:               scf.for %{{.*}} = %c0 to %c64 step %c16
// CHECK:                 vector.transfer_write %cst{{.*}} : vector<6x16xf32>, tensor<6x16xf32>
// CHECK:                 scf.for %{{.*}} = %c0 to %c4 step %c1
// CHECK:                   vector.contract {{.*}} : vector<8x6xf32>, vector<8x16xf32> into vector<6x16xf32>
// CHECK:             scf.for %{{.*}} = %c0 to %c64 step %c16
// CHECK:               vector.transfer_write %cst{{.*}} : vector<4x16xf32>, tensor<4x16xf32>
// CHECK:               vector.contract {{.*}} : vector<8x4xf32>, vector<8x16xf32> into vector<4x16xf32>
// CHECK:             vector.contract {{.*}} : vector<8x6xf32>, vector<8x16xf32> into vector<6x16xf32>
// CHECK:             vector.contract {{.*}} : vector<8x4xf32>, vector<8x16xf32> into vector<4x16xf32>
// CHECK:             scf.for %{{.*}} = %c0 to %c8 step %c4
// CHECK:               scf.for %{{.*}} = %c0 to %c60 step %c6
// CHECK:                 scf.for %{{.*}} = %c0 to %c64 step %c16
// CHECK:                   scf.for %{{.*}} = %c0 to %c4 step %c1
// CHECK:                     vector.contract {{.*}} : vector<8x6xf32>, vector<8x16xf32> into vector<6x16xf32>
// CHECK:               scf.for %{{.*}} = %c0 to %c64 step %c16
// CHECK:                 scf.for %{{.*}} = %c0 to %c4 step %c1
// CHECK:                   vector.contract {{.*}} : vector<8x4xf32>, vector<8x16xf32> into vector<4x16xf32>
// CHECK-NOT:     scf.for %{{.*}} = %c0 to %c128 step %c64
// CHECK:         return
func.func @dw_channel_blocks(%x: tensor<2x8x8x128xf32>, %dy: tensor<2x8x8x128xf32>) -> tensor<1x1x128x128xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = VALID strides = [1, 1] dilations = [1, 1] : tensor<2x8x8x128xf32>, tensor<2x8x8x128xf32> -> tensor<1x1x128x128xf32>
  return %dw : tensor<1x1x128x128xf32>
}

// -----

// Transposed 3x3 stride-1 layer with 128 input channels (one phase with
// all 9 taps): the kernel panel of one 16-column tile (9 taps x 128 ci x 16
// co x 4 B = 72 KiB) exceeds half the L2, so the input channels are blocked
// in the outermost loop: 32 KiB / (9 x 64 B) = 56 channels (a multiple of
// 8) would take 3 blocks, but 56 + 56 + 16 would peel the last one (a
// second copy of the whole nest), so the blocks are the fewest equal ones
// of a multiple of 8 that divide the channels, 4 x 32; the output rows
// sweep every block. The blocks split the reduction, so the phase's zero
// fill is not fused into the tiles (every block would restart from zero):
// it runs once, before. The output rows go two at a time (a 34-position
// row of a 32-channel block is 4.25 KiB; 3 such rows fit a quarter of the
// 64 KiB L2, and 2 is the largest count down to half of that dividing the
// 34 rows), so that each column tile's kernel panel serves the register
// tiles of both rows. The window (a `valid` 3x3 transposed convolution
// reads the input padded by 2 on each side: 36 rows, input in [2, 34))
// has its padding where the first taps of the first output rows and the
// last taps of the last ones read it: the tap loop along the rows (one
// output row o = block + row per register tile) runs over the taps that
// read input only, max(0, 2 - o) <= t < min(3, 34 - o). Along the columns
// (the register tile's 6 rows) all 3 taps stay. One input channel a step:
// without AVX-512 only single-tap phases reduce 4 (compile time).
// CHECK-LABEL: func.func @transpose_ci_blocks
// CHECK:         linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<1x34x34x16xf32>)
// CHECK:         scf.for %{{.*}} = %c0 to %c128 step %c32
// CHECK:           scf.for %[[BLOCK:.*]] = %c0 to %c34 step %c2
// CHECK:             scf.for %[[ROW:.*]] = %c0 to %c2 step %c1
// CHECK:               scf.for %{{.*}} = %c0 to %c30 step %c6
// CHECK:                 %[[LO:.*]] = affine.max affine_map<()[s0, s1] -> (-s0 - s1 + 2, 0)>()[%[[BLOCK]], %[[ROW]]]
// CHECK:                 %[[HI:.*]] = affine.min affine_map<()[s0, s1] -> (-s0 - s1 + 34, 3)>()[%[[BLOCK]], %[[ROW]]]
// CHECK:                 scf.for %{{.*}} = %[[LO]] to %[[HI]] step %c1
// CHECK:                   scf.for %{{.*}} = %c0 to %c3 step %c1
// CHECK:                     scf.for %{{.*}} = %c0 to %c32 step %c1
// CHECK:                       arith.mulf {{.*}} : vector<6x16xf32>
// CHECK-NOT:     scf.for %{{.*}} = %c0 to %c34 step %c2
func.func @transpose_ci_blocks(%x: tensor<1x32x32x128xf32>, %k: tensor<3x3x16x128xf32>) -> tensor<1x34x34x16xf32> {
  %y = conv.transpose %x, %k data_format = channels_last padding = valid strides = [1, 1] dilation_rate = [1, 1] : tensor<1x32x32x128xf32>, tensor<3x3x16x128xf32> -> tensor<1x34x34x16xf32>
  return %y : tensor<1x34x34x16xf32>
}

// -----

// A 1x1 input lowered tap by tap: each tap's output rows are 1 long, so
// the register tile's rows run along the batch, and every step is a rank-1
// update of a 4 x 16 tile (one input channel a step: without AVX-512, tiles
// with rows along the batch keep 1): 8 rows run as 4 + 4 (a 2-row tile has
// too few accumulators to keep the FMA units busy, so 6 + a peeled 2 is
// slower).
// CHECK-LABEL: func.func @transpose_batch_rows
// CHECK:         scf.for %[[B:.*]] = %c0 to %c8 step %c4
// CHECK:           scf.for %{{.*}} = %c0 to %c4 step %c1
// CHECK:             vector.transfer_read %arg0[%[[B]], %c0, %c0, %{{.*}}], {{.*}} : tensor<8x1x1x4xf32>, vector<4xf32>
// CHECK:             arith.mulf {{.*}} : vector<4x16xf32>
// CHECK-NOT:     vector<2xf32>
// CHECK:         return
func.func @transpose_batch_rows(%x: tensor<8x1x1x4xf32>, %k: tensor<2x2x16x4xf32>) -> tensor<8x2x2x16xf32> {
  %y = conv.transpose %x, %k data_format = channels_last padding = valid strides = [1, 1] dilation_rate = [1, 1] : tensor<8x1x1x4xf32>, tensor<2x2x16x4xf32> -> tensor<8x2x2x16xf32>
  return %y : tensor<8x2x2x16xf32>
}

// -----

// Rows of 88 positions with 16 + 16 channels: 128 B per position, so the
// reduction block is 32 positions (half the 8 KiB L1; a row does not fit
// 7/8 of it, and no block in [16, 32] divides 88): two blocks, and the
// peeled block has 24. Blocks that cut the rows of a 2-D layer step 4
// positions at a time without AVX-512 (8 otherwise), and that chunk loop
// divides the peeled range: the `min(24 - iv, 4)` tile size folds to 4,
// so every tile is static and vectorized -- no linalg.generic is left.
// CHECK-LABEL: func.func @dw_peeled_row_block
// CHECK:         scf.for %{{.*}} = %c0 to %c32 step %c4
// CHECK:           vector.contract {{.*}} : vector<4x6xf32>, vector<4x16xf32> into vector<6x16xf32>
// CHECK:         scf.for %{{.*}} = %c0 to %c24 step %c4
// CHECK:           vector.contract {{.*}} : vector<4x6xf32>, vector<4x16xf32> into vector<6x16xf32>
// CHECK-NOT:     linalg.generic
// CHECK:         return
func.func @dw_peeled_row_block(%x: tensor<1x2x89x16xf32>, %dy: tensor<1x2x88x16xf32>) -> tensor<1x2x16x16xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = VALID strides = [1, 1] dilations = [1, 1] : tensor<1x2x89x16xf32>, tensor<1x2x88x16xf32> -> tensor<1x2x16x16xf32>
  return %dw : tensor<1x2x16x16xf32>
}

// -----

// A 1-D layer's one long row (200 positions, 128 B each) cut into blocks of
// 32 positions keeps 8-position chunks without AVX-512 (WaveNet's k2
// layers lost 14-27 % with 4).
// The first block's tiles start from zero (zeroStartFirstBlocks).
// CHECK-LABEL: func.func @dw_1d_row_block
// CHECK:         vector.transfer_write %cst{{.*}} : vector<6x16xf32>, tensor<6x16xf32>
// CHECK:         scf.for %{{.*}} = %c0 to %c32 step %c8
// CHECK:           vector.contract {{.*}} : vector<8x6xf32>, vector<8x16xf32> into vector<6x16xf32>
// CHECK:         scf.for %{{.*}} = %c32 to %c192 step %c32
// CHECK:           scf.for %{{.*}} = %c0 to %c32 step %c8
// CHECK:             vector.contract {{.*}} : vector<8x6xf32>, vector<8x16xf32> into vector<6x16xf32>
// CHECK-NOT:       step %c4
// CHECK:         return
func.func @dw_1d_row_block(%x: tensor<1x201x16xf32>, %dy: tensor<1x200x16xf32>) -> tensor<2x16x16xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NWC padding = VALID strides = [1] dilations = [1] : tensor<1x201x16xf32>, tensor<1x200x16xf32> -> tensor<2x16x16xf32>
  return %dw : tensor<2x16x16xf32>
}

// -----

// Grouped dW (8 groups of 4 input and 8 output channels: per-group tiles,
// one 8-lane vector wide): the group loop is the innermost block loop,
// inside the batch and row loops, so all groups share the cache lines of
// one block of rows (8 x (4 + 8) x 4 B = 384 B per position: blocks of 8
// positions). (With 4 output channels a group, 2 groups share a vector:
// tile-and-vectorize-groups.mlir.)
// The first block (the first image's first row's first 8 positions)
// starts from zero (zeroStartFirstBlocks): its contractions accumulate onto
// a zero vector. The rest of that row, the image's second row and the
// second image follow.
// CHECK-LABEL: func.func @dw_grouped_groups_inside
// CHECK:         %[[Z:.*]] = arith.constant dense<0.000000e+00> : vector<4x8xf32>
// CHECK-NOT:     linalg.fill
// CHECK:         scf.for %{{.*}} = %c0 to %c8 step %c1
// CHECK:           vector.contract {{.*}}, %[[Z]] : vector<8x4xf32>, vector<8x8xf32> into vector<4x8xf32>
// CHECK:         scf.for %{{.*}} = %c8 to %c56 step %c8
// CHECK:           scf.for %{{.*}} = %c0 to %c8 step %c1
// CHECK:             vector.contract {{.*}} : vector<8x4xf32>, vector<8x8xf32> into vector<4x8xf32>
// CHECK:         scf.for %{{.*}} = %c0 to %c56 step %c8
// CHECK:           scf.for %{{.*}} = %c0 to %c8 step %c1
// CHECK:             vector.contract {{.*}} : vector<8x4xf32>, vector<8x8xf32> into vector<4x8xf32>
// CHECK:         scf.for %{{.*}} = %c0 to %c2 step %c1
// CHECK:           scf.for %{{.*}} = %c0 to %c56 step %c8
// CHECK:             scf.for %{{.*}} = %c0 to %c8 step %c1
// CHECK:               vector.contract {{.*}} : vector<8x4xf32>, vector<8x8xf32> into vector<4x8xf32>
// CHECK-NOT:     linalg.generic
// CHECK:         return
func.func @dw_grouped_groups_inside(%x: tensor<2x2x56x32xf32>, %dy: tensor<2x2x56x64xf32>) -> tensor<1x1x4x64xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = VALID strides = [1, 1] dilations = [1, 1] : tensor<2x2x56x32xf32>, tensor<2x2x56x64xf32> -> tensor<1x1x4x64xf32>
  return %dw : tensor<1x1x4x64xf32>
}

// -----

// Channel-blocked 1x1 filter gradient with 1 KiB input rows (256 f32): a
// block of 6 input channels would walk down rows that all fall into the
// same L1 sets, so the input is copied, row by row, into the first 256
// columns of rows one cache line longer (272 f32; the extra line is never
// read or written) and the tap reads the copy. out_backprop's 2 KiB rows
// are left alone: 2 FLOPs x 256 input channels per element do not pay for
// a copy (the threshold is 1024).
// CHECK-LABEL: func.func @dw_repitch_input
// CHECK:         %[[BUF:.*]] = bufferization.alloc_tensor() : tensor<2x4x4x272xf32>
// CHECK:         %[[DST:.*]] = tensor.extract_slice %[[BUF]][0, 0, 0, 0] [2, 4, 4, 256] [1, 1, 1, 1]
// CHECK:         %[[COPY:.*]] = scf.for {{.*}} iter_args(%{{.*}} = %[[DST]])
// CHECK:           scf.for
// CHECK:             scf.for
// CHECK:               %[[ROW:.*]] = tensor.extract_slice %arg0[{{.*}}] [1, 1, 1, 256] [1, 1, 1, 1]
// CHECK:               tensor.insert_slice %[[ROW]] into
// CHECK-NOT:     alloc_tensor
// CHECK-NOT:     tensor.pad
// CHECK:         vector.transfer_read %[[COPY]]{{.*}} : tensor<2x4x4x256xf32>, vector<4x6xf32>
// CHECK:         vector.transfer_read %arg1{{.*}} : tensor<2x4x4x512xf32>, vector<4x16xf32>
func.func @dw_repitch_input(%x: tensor<2x4x4x256xf32>, %dy: tensor<2x4x4x512xf32>) -> tensor<1x1x256x512xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = VALID strides = [1, 1] dilations = [1, 1] : tensor<2x4x4x256xf32>, tensor<2x4x4x512xf32> -> tensor<1x1x256x512xf32>
  return %dw : tensor<1x1x256x512xf32>
}

// -----

// A 3x3 layer's zero-padding copy of the input is widened by one cache line
// per row (free: the copy is there anyway). out_backprop (2 KiB rows, 2 x
// 512 FLOPs per element and tap) is copied once for the nine taps.
// CHECK-LABEL: func.func @dw_repitch_padded_input
// CHECK:         bufferization.alloc_tensor() : tensor<1x4x4x528xf32>
// CHECK:         tensor.pad %arg0 low[0, 1, 1, 0] high[0, 1, 1, 16]
// CHECK:         } : tensor<1x4x4x512xf32> to tensor<1x6x6x528xf32>
// CHECK-NOT:     tensor.pad
// CHECK-NOT:     alloc_tensor
// CHECK:         return
func.func @dw_repitch_padded_input(%x: tensor<1x4x4x512xf32>, %dy: tensor<1x4x4x512xf32>) -> tensor<3x3x512x512xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = SAME strides = [1, 1] dilations = [1, 1] : tensor<1x4x4x512xf32>, tensor<1x4x4x512xf32> -> tensor<3x3x512x512xf32>
  return %dw : tensor<3x3x512x512xf32>
}

// -----

// Stride-2 1x1 filter gradient: the input rows the tap reads are 2 KiB
// apart (256 f32, every other position), so the strided slice itself is
// copied: gathered row by row into rows of 272 f32 (1024 FLOPs per
// gathered element).
// CHECK-LABEL: func.func @dw_repitch_strided
// CHECK:         %[[BUF:.*]] = bufferization.alloc_tensor() : tensor<2x4x4x272xf32>
// CHECK:         tensor.extract_slice %[[BUF]][0, 0, 0, 0] [2, 4, 4, 256] [1, 1, 1, 1]
// CHECK:         %[[ROW:.*]] = tensor.extract_slice %arg0[{{.*}}] [1, 1, 1, 256] [1, 2, 2, 1] : tensor<2x8x8x256xf32> to tensor<1x1x1x256xf32>
// CHECK:         tensor.insert_slice %[[ROW]] into %{{.*}} [1, 1, 1, 256] [1, 1, 1, 1] : tensor<1x1x1x256xf32> into tensor<2x4x4x256xf32>
// CHECK:         vector.transfer_read {{.*}} : tensor<2x4x4x256xf32>, vector<4x6xf32>
func.func @dw_repitch_strided(%x: tensor<2x8x8x256xf32>, %dy: tensor<2x4x4x512xf32>) -> tensor<1x1x256x512xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = VALID strides = [2, 2] dilations = [1, 1] : tensor<2x8x8x256xf32>, tensor<2x4x4x512xf32> -> tensor<1x1x256x512xf32>
  return %dw : tensor<1x1x256x512xf32>
}

// -----

// 768-byte rows (192 f32) spread over 16 set groups: no copy.
// CHECK-LABEL: func.func @dw_no_repitch
// CHECK-NOT:     tensor.pad
// CHECK:         return
func.func @dw_no_repitch(%x: tensor<2x4x4x192xf32>, %dy: tensor<2x4x4x512xf32>) -> tensor<1x1x192x512xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = VALID strides = [1, 1] dilations = [1, 1] : tensor<2x4x4x192xf32>, tensor<2x4x4x512xf32> -> tensor<1x1x192x512xf32>
  return %dw : tensor<1x1x192x512xf32>
}

// -----

// 3-D U-Net up-convolution (k = s = 2: eight phases of one tap each) with
// 8-position output rows of 64 input channels (2 KiB): a quarter of the
// 64 KiB L2 holds 8 rows, so each phase's block is a whole 8x8 plane, and
// the column tile loop runs outside all of its rows: each 16-column kernel
// panel is loaded once per plane and serves 8 rows x 2 register tiles
// (8 = 4 + 4), each starting from zero, 4 input channels a step.
// CHECK-LABEL: func.func @transpose_row_blocks
// CHECK:         scf.for %{{.*}} = %c0 to %c8 step %c1
// CHECK-NOT:       scf.for %{{.*}} = %c0 to %c8 step %c1
// CHECK:           scf.for %{{.*}} = %c0 to %c32 step %c16
// CHECK:             scf.for %{{.*}} = %c0 to %c8 step %c1
// CHECK:               scf.for %{{.*}} = %c0 to %c8 step %c4
// CHECK:                 vector.transfer_write %{{.*}} : vector<4x16xf32>, tensor<1x1x1x4x16xf32>
// CHECK:                 scf.for %{{.*}} = %c0 to %c64 step %c4
// CHECK:                   vector.contract {{.*}} : vector<4x4xf32>, vector<4x16xf32> into vector<4x16xf32>
func.func @transpose_row_blocks(%x: tensor<1x8x8x8x64xf32>, %k: tensor<2x2x2x32x64xf32>) -> tensor<1x16x16x16x32xf32> {
  %y = conv.transpose %x, %k data_format = channels_last padding = valid strides = [2, 2, 2] dilation_rate = [1, 1, 1] : tensor<1x8x8x8x64xf32>, tensor<2x2x2x32x64xf32> -> tensor<1x16x16x16x32xf32>
  return %y : tensor<1x16x16x16x32xf32>
}
