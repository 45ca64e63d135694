// (transpose-taps-overhead=1.25: some of the small transposed convolutions
// below have phases that multiply 10-25 % padding; the default, 1.10,
// would lower those tap by tap instead of by the phases these tests pin.)
// RUN: conv-opt %s --convert-conv-to-linalg=transpose-taps-overhead=1.25 --canonicalize --conv-cpu-tile-and-vectorize="vector-bits=512 num-vector-registers=32 l1-cache-bytes=32768 l2-cache-bytes=1048576" --mlir-print-local-scope --split-input-file | FileCheck %s
// RUN: conv-opt %s --convert-conv-to-linalg=transpose-taps-overhead=1.25 --canonicalize --conv-cpu-tile-and-vectorize="vector-bits=512 num-vector-registers=32 l1-cache-bytes=32768 l2-cache-bytes=1048576 bf16-dot" --mlir-print-local-scope --split-input-file | FileCheck %s --check-prefix=DOT
// RUN: conv-opt %s --convert-conv-to-linalg=transpose-taps-overhead=1.25 --canonicalize --conv-cpu-tile-and-vectorize="vector-bits=512 num-vector-registers=32 l1-cache-bytes=32768 l2-cache-bytes=1048576 two-zmm-fma-units" --mlir-print-local-scope --split-input-file | FileCheck %s --check-prefix=ZMM2

// AVX-512-sized register tiles (8 rows x 2 zmm of 16 f32) on output-channel
// counts narrower than a tile (32) but wider than one vector: the column
// tile is the largest multiple of the vector width (16) plus a peeled
// 5-column remainder, never one 21-wide tile (odd-length vectors that LLVM
// lowers lane by lane, with spills: the 1-D masknet transpose ran at 5 %
// of peak).

// A filter gradient with 21 output channels.
// CHECK-LABEL: func.func @dw_cout21
// CHECK-NOT:     vector<{{[0-9x]*}}21xf32>
// CHECK:         vector.contract {{.*}} : vector<8x8xf32>, vector<8x16xf32> into vector<8x16xf32>
// CHECK-NOT:     vector<{{[0-9x]*}}21xf32>
// CHECK:         vector.contract {{.*}} : vector<8x8xf32>, vector<8x5xf32> into vector<8x5xf32>
// CHECK-NOT:     vector<{{[0-9x]*}}21xf32>
// CHECK:         return
func.func @dw_cout21(%x: tensor<2x12x12x8xf32>, %dy: tensor<2x10x10x21xf32>) -> tensor<3x3x8x21xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = VALID
          strides = [1, 1] dilations = [1, 1]
          : tensor<2x12x12x8xf32>, tensor<2x10x10x21xf32> -> tensor<3x3x8x21xf32>
  return %dw : tensor<3x3x8x21xf32>
}

// -----

// A transposed convolution with 21 output channels (one tap per phase):
// rank-1 updates of 8 x 16 and 8 x 5 accumulator tiles.
// CHECK-LABEL: func.func @transpose_cout21
// CHECK-NOT:     vector<{{[0-9x]*}}21xf32>
// CHECK:         vector<8x16xf32>
// CHECK-NOT:     vector<{{[0-9x]*}}21xf32>
// CHECK:         vector<8x5xf32>
// CHECK-NOT:     vector<{{[0-9x]*}}21xf32>
// CHECK:         return
func.func @transpose_cout21(%x: tensor<1x40x16xf32>, %k: tensor<2x21x16xf32>) -> tensor<1x80x21xf32> {
  %y = conv.transpose %x, %k data_format = channels_last padding = valid
         strides = [2] dilation_rate = [1]
         : tensor<1x40x16xf32>, tensor<2x21x16xf32> -> tensor<1x80x21xf32>
  return %y : tensor<1x80x21xf32>
}

// -----

// 53 output channels: full 32-column tiles and a 21-column remainder tile,
// which is split into 16 + 5 columns in the same loop nest (the two parts
// share the reduction loops and the broadcast input values).
// CHECK-LABEL: func.func @dw_cout53
// CHECK-NOT:     vector<{{[0-9x]*}}21xf32>
// CHECK:         vector.contract {{.*}} into vector<8x32xf32>
// CHECK-NOT:     vector<{{[0-9x]*}}21xf32>
// CHECK:         vector.contract {{.*}} into vector<8x16xf32>
// CHECK:         vector.contract {{.*}} into vector<8x5xf32>
// CHECK-NOT:     vector<{{[0-9x]*}}21xf32>
// CHECK:         return
func.func @dw_cout53(%x: tensor<2x12x12x8xf32>, %dy: tensor<2x10x10x53xf32>) -> tensor<3x3x8x53xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = VALID
          strides = [1, 1] dilations = [1, 1]
          : tensor<2x12x12x8xf32>, tensor<2x10x10x53xf32> -> tensor<3x3x8x53xf32>
  return %dw : tensor<3x3x8x53xf32>
}

// -----

// A bf16 transposed convolution's phase tiles: by default one input channel
// per step (a rank-1 update from a 6-position column and a 32-channel kernel
// row); with bf16-dot a pair of input channels per step (6 x 2 positions
// and 2 x 32 kernel values), which conv-cpu-lower-vectors turns into
// vdpbf16ps dot products (lower-vectors-bf16-dot.mlir).
// CHECK-LABEL: func.func @bf16_phase_pairs
// CHECK:         scf.for %{{.*}} = %c0 to %c8 step %c1
// CHECK:           vector.transfer_read {{.*}} : tensor<1x8x8x8xbf16>, vector<6xbf16>
// CHECK:           vector.transfer_read {{.*}} : tensor<2x2x8x32xbf16>, vector<32xbf16>
// DOT-LABEL: func.func @bf16_phase_pairs
// DOT:         scf.for %{{.*}} = %c0 to %c8 step %c2
// DOT:           vector.transfer_read {{.*}} : tensor<1x8x8x8xbf16>, vector<6x2xbf16>
// DOT:           vector.transfer_read {{.*}} : tensor<2x2x8x32xbf16>, vector<2x32xbf16>
// DOT:           vector.contract {{.*}} : vector<6x32x2xf32>, vector<6x32x2xf32> into vector<6x32xf32>
func.func @bf16_phase_pairs(%x: tensor<1x6x6x8xbf16>, %k: tensor<4x4x32x8xbf16>) -> tensor<1x12x12x32xbf16> {
  %y = conv.transpose %x, %k data_format = channels_last padding = same strides = [2, 2] dilation_rate = [1, 1] : tensor<1x6x6x8xbf16>, tensor<4x4x32x8xbf16> -> tensor<1x12x12x32xbf16>
  return %y : tensor<1x12x12x32xbf16>
}

// -----

// Filter-gradient rows of 28 positions (a whole number of half chunks, not
// of chunks): reduced 4 positions a step, with no remainder step (3 x 8 + 4
// before). Rows of 10 (@dw_cout21 above) are not a multiple of 4 either
// and keep chunks of 8 (5, their divisor, is under three quarters of a
// chunk: @dw_rows_14 below).
// CHECK-LABEL: func.func @dw_rows_28
// CHECK-NOT:     vector.contract {{.*}} : vector<8x8xf32>
// CHECK:         scf.for %{{.*}} = %c0 to %c28 step %c4
// CHECK:           vector.contract {{.*}} : vector<4x8xf32>, vector<4x32xf32> into vector<8x32xf32>
// CHECK-NOT:     vector.contract {{.*}} : vector<8x8xf32>
// CHECK:         return
func.func @dw_rows_28(%x: tensor<2x30x30x32xf32>, %dy: tensor<2x28x28x32xf32>) -> tensor<3x3x32x32xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = VALID
          strides = [1, 1] dilations = [1, 1]
          : tensor<2x30x30x32xf32>, tensor<2x28x28x32xf32> -> tensor<3x3x32x32xf32>
  return %dw : tensor<3x3x32x32xf32>
}

// -----

// Rows of 14 positions (neither a whole number of chunks of 8 nor of half
// chunks): chunks of 7, the longest of at least three quarters of a chunk
// that divides them (8 + 6 before), in the 6-row tiles and the 4-row
// remainder.
// CHECK-LABEL: func.func @dw_rows_14
// CHECK-NOT:     vector.contract {{.*}} : vector<8x6xf32>
// CHECK:         scf.for %{{.*}} = %c0 to %c14 step %c7
// CHECK:           vector.contract {{.*}} : vector<7x6xf32>, vector<7x64xf32> into vector<6x64xf32>
// CHECK:         scf.for %{{.*}} = %c0 to %c14 step %c7
// CHECK:           vector.contract {{.*}} : vector<7x4xf32>, vector<7x64xf32> into vector<4x64xf32>
// CHECK-NOT:     vector.contract {{.*}} : vector<6x6xf32>
// CHECK:         return
func.func @dw_rows_14(%x: tensor<2x14x14x64xf32>, %dy: tensor<2x14x14x64xf32>) -> tensor<1x1x64x64xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = VALID
          strides = [1, 1] dilations = [1, 1]
          : tensor<2x14x14x64xf32>, tensor<2x14x14x64xf32> -> tensor<1x1x64x64xf32>
  return %dw : tensor<1x1x64x64xf32>
}

// -----

// Rows of 30 positions: chunks of 6 (3 x 8 + 6 before; 30 is no whole
// number of half chunks either).
// CHECK-LABEL: func.func @dw_rows_30
// CHECK:         scf.for %{{.*}} = %c0 to %c30 step %c6
// CHECK:           vector.contract {{.*}} : vector<6x8xf32>, vector<6x32xf32> into vector<8x32xf32>
// CHECK-NOT:     vector.contract {{.*}} : vector<8x8xf32>
// CHECK:         return
func.func @dw_rows_30(%x: tensor<2x32x32x32xf32>, %dy: tensor<2x30x30x32xf32>) -> tensor<3x3x32x32xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = VALID
          strides = [1, 1] dilations = [1, 1]
          : tensor<2x32x32x32xf32>, tensor<2x30x30x32xf32> -> tensor<3x3x32x32xf32>
  return %dw : tensor<3x3x32x32xf32>
}

// -----

// 64 or more output channels with 32 vector registers: filter-gradient
// register tiles of 6 rows x 4 vectors (24 accumulators), 128 input
// channels as 21 tiles of 6 rows and a 2-row remainder. With 32 output
// channels (@dw_rows_28 above, 2 vectors) the tiles stay 8 x 2.
// CHECK-LABEL: func.func @dw_wide_tiles
// CHECK:         scf.for %{{.*}} = %c0 to %c126 step %c6
// CHECK:           vector.contract {{.*}} : vector<8x6xf32>, vector<8x64xf32> into vector<6x64xf32>
// CHECK:         vector.contract {{.*}} : vector<8x2xf32>, vector<8x64xf32> into vector<2x64xf32>
// CHECK-NOT:     into vector<8x32xf32>
// CHECK:         return
// DOT-LABEL: func.func @dw_wide_tiles
// DOT:         into vector<6x64xf32>
func.func @dw_wide_tiles(%x: tensor<2x16x16x128xf32>, %dy: tensor<2x16x16x64xf32>) -> tensor<1x1x128x64xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = VALID
          strides = [1, 1] dilations = [1, 1]
          : tensor<2x16x16x128xf32>, tensor<2x16x16x64xf32> -> tensor<1x1x128x64xf32>
  return %dw : tensor<1x1x128x64xf32>
}

// -----

// The same for a transposed convolution's phases: 64 output channels with
// 32 vector registers give register tiles of up to 6 output positions x 4
// vectors (12-position rows as 2 x 6), 4 input channels a step.
// CHECK-LABEL: func.func @transpose_wide_tiles
// CHECK:         scf.for %{{.*}} = %c0 to %c12 step %c6
// CHECK:           scf.for %{{.*}} = %c0 to %c32 step %c4
// CHECK:             vector.contract {{.*}} : vector<6x4xf32>, vector<4x64xf32> into vector<6x64xf32>
// CHECK-NOT:     vector<{{[0-9]+}}x32xf32>
// CHECK:         return
func.func @transpose_wide_tiles(%x: tensor<1x8x12x32xf32>, %k: tensor<2x2x64x32xf32>) -> tensor<1x16x24x64xf32> {
  %y = conv.transpose %x, %k data_format = channels_last padding = valid
         strides = [2, 2] dilation_rate = [1, 1]
         : tensor<1x8x12x32xf32>, tensor<2x2x64x32xf32> -> tensor<1x16x24x64xf32>
  return %y : tensor<1x16x24x64xf32>
}

// -----

// 48 output channels (3 vectors) with 32 vector registers: register tiles
// of up to 8 output positions x 3 vectors (12-position rows as 2 x 6), not
// 8 x 2 vectors and a peeled 8 x 1 tile.
// CHECK-LABEL: func.func @transpose_three_vectors
// CHECK:         scf.for %{{.*}} = %c0 to %c12 step %c6
// CHECK:           scf.for %{{.*}} = %c0 to %c32 step %c1
// CHECK:             arith.mulf {{.*}} : vector<6x48xf32>
// CHECK-NOT:     vector<{{[0-9]+}}x32xf32>
// CHECK-NOT:     vector<{{[0-9]+}}x16xf32>
// CHECK:         return
func.func @transpose_three_vectors(%x: tensor<1x8x12x32xf32>, %k: tensor<2x2x48x32xf32>) -> tensor<1x16x24x48xf32> {
  %y = conv.transpose %x, %k data_format = channels_last padding = valid
         strides = [2, 2] dilation_rate = [1, 1]
         : tensor<1x8x12x32xf32>, tensor<2x2x48x32xf32> -> tensor<1x16x24x48xf32>
  return %y : tensor<1x16x24x48xf32>
}

// -----

// 8-long phase rows with 4-vector tiles: 4 + 4 rather than 6 + 2 (a 4 x 4
// tile has the accumulators of an 8 x 2 one, so both run at full speed by
// chooseRows's model, and the count without a remainder tile wins: no
// second copy of the loop nest).
// CHECK-LABEL: func.func @transpose_wide_rows_8
// CHECK:         scf.for %{{.*}} = %c0 to %c8 step %c4
// CHECK:           vector.contract {{.*}} into vector<4x64xf32>
// CHECK-NOT:     vector<2x64xf32>
// CHECK-NOT:     vector<6x64xf32>
// CHECK:         return
func.func @transpose_wide_rows_8(%x: tensor<1x8x8x32xf32>, %k: tensor<2x2x64x32xf32>) -> tensor<1x16x16x64xf32> {
  %y = conv.transpose %x, %k data_format = channels_last padding = valid
         strides = [2, 2] dilation_rate = [1, 1]
         : tensor<1x8x8x32xf32>, tensor<2x2x64x32xf32> -> tensor<1x16x16x64xf32>
  return %y : tensor<1x16x16x64xf32>
}

// -----

// 30 input channels (not a multiple of 4): 2 a step.
// CHECK-LABEL: func.func @transpose_wide_tiles_ci30
// CHECK:         scf.for %{{.*}} = %c0 to %c30 step %c2
// CHECK:           vector.contract {{.*}} : vector<6x2xf32>, vector<2x64xf32> into vector<6x64xf32>
// CHECK:         return
func.func @transpose_wide_tiles_ci30(%x: tensor<1x8x12x30xf32>, %k: tensor<2x2x64x30xf32>) -> tensor<1x16x24x64xf32> {
  %y = conv.transpose %x, %k data_format = channels_last padding = valid
         strides = [2, 2] dilation_rate = [1, 1]
         : tensor<1x8x12x30xf32>, tensor<2x2x64x30xf32> -> tensor<1x16x24x64xf32>
  return %y : tensor<1x16x24x64xf32>
}

// -----

// A 2x2 stride-2 up-convolution (the whole transposed convolution is one
// single-tap contraction) with 28-position rows: chooseRows would give 7
// tiles of 4 rows x 4 vectors (16 accumulators); such rows run as 4 tiles
// of 6 rows (24 accumulators) and a remainder tile of 4, not as 2-vector
// tiles of 14 rows.
// CHECK-LABEL: func.func @transpose_narrow_tiles_28
// CHECK:         scf.for %{{.*}} = %c0 to %c24 step %c6
// CHECK:           scf.for %{{.*}} = %c0 to %c64 step %c4
// CHECK:             vector.contract {{.*}} : vector<6x4xf32>, vector<4x64xf32> into vector<6x64xf32>
// CHECK:         scf.for %{{.*}} = %c0 to %c64 step %c4
// CHECK:           vector.contract {{.*}} : vector<4x4xf32>, vector<4x64xf32> into vector<4x64xf32>
// CHECK-NOT:     vector<14x32xf32>
// CHECK:         return
func.func @transpose_narrow_tiles_28(%x: tensor<1x4x28x64xf32>, %k: tensor<2x2x64x64xf32>) -> tensor<1x8x56x64xf32> {
  %y = conv.transpose %x, %k data_format = channels_last padding = valid
         strides = [2, 2] dilation_rate = [1, 1]
         : tensor<1x4x28x64xf32>, tensor<2x2x64x64xf32> -> tensor<1x8x56x64xf32>
  return %y : tensor<1x8x56x64xf32>
}

// -----

// The same with 2048 input channels: a 6-row tile's input rows would be
// 48 KiB, more than 3/4 of the L1 (32 KiB here), which every column tile
// re-reads; the 4-row x 4-vector tiles stay.
// CHECK-LABEL: func.func @transpose_narrow_tiles_wide_input
// CHECK:         vector.contract {{.*}} into vector<4x64xf32>
// CHECK-NOT:     vector<6x64xf32>
// CHECK:         return
func.func @transpose_narrow_tiles_wide_input(%x: tensor<1x4x28x2048xf32>, %k: tensor<2x2x64x2048xf32>) -> tensor<1x8x56x64xf32> {
  %y = conv.transpose %x, %k data_format = channels_last padding = valid
         strides = [2, 2] dilation_rate = [1, 1]
         : tensor<1x4x28x2048xf32>, tensor<2x2x64x2048xf32> -> tensor<1x8x56x64xf32>
  return %y : tensor<1x8x56x64xf32>
}

// -----

// A 3x3 stride-2 kernel has four phases; its single-tap phase keeps the
// 4-row tiles (6-row tiles and a remainder tile there would double the code
// to compile for a quarter of the positions).
// CHECK-LABEL: func.func @transpose_narrow_tiles_phases
// CHECK-NOT:     vector<6x64xf32>
// CHECK:         vector.contract {{.*}} into vector<4x64xf32>
// CHECK-NOT:     vector<6x64xf32>
// CHECK:         return
func.func @transpose_narrow_tiles_phases(%x: tensor<1x4x28x64xf32>, %k: tensor<3x3x64x64xf32>) -> tensor<1x8x56x64xf32> {
  %y = conv.transpose %x, %k data_format = channels_last padding = same
         strides = [2, 2] dilation_rate = [1, 1]
         : tensor<1x4x28x64xf32>, tensor<3x3x64x64xf32> -> tensor<1x8x56x64xf32>
  return %y : tensor<1x8x56x64xf32>
}

// -----

// The phases of a 3x3 stride-2 kernel (4, 2, 2 and 1 taps) with 4-vector
// tiles: the single-tap phase reduces 4 input channels a step, the others
// 1 (their tap loops around 4-channel steps took LLVM 2-3x as long); on
// cores with two 512-bit FMA units (two-zmm-fma-units) all of them take 4.
// CHECK-LABEL: func.func @transpose_phase_taps_chunks
// CHECK-COUNT-3: scf.for %{{.*}} = %c0 to %c32 step %c1
// CHECK:         scf.for %{{.*}} = %c0 to %c32 step %c4
// CHECK:           vector.contract {{.*}} : vector<4x4xf32>, vector<4x64xf32> into vector<4x64xf32>
// CHECK:         return
// ZMM2-LABEL: func.func @transpose_phase_taps_chunks
// ZMM2-NOT:      to %c32 step %c1
// ZMM2-COUNT-4:  vector.contract {{.*}} : vector<4x4xf32>, vector<4x64xf32> into vector<4x64xf32>
// ZMM2-NOT:      to %c32 step %c1
// ZMM2:          return
func.func @transpose_phase_taps_chunks(%x: tensor<2x8x8x32xf32>, %k: tensor<3x3x64x32xf32>) -> tensor<2x16x16x64xf32> {
  %y = conv.transpose %x, %k data_format = channels_last padding = same
         strides = [2, 2] dilation_rate = [1, 1]
         : tensor<2x8x8x32xf32>, tensor<3x3x64x32xf32> -> tensor<2x16x16x64xf32>
  return %y : tensor<2x16x16x64xf32>
}

// -----

// Filter-gradient rows fewer than 48 (too few for the 6-row x 4-vector
// tiles of larger layers) but a multiple of 3 to 6, with 4 vectors of
// output channels: tiles of the most such rows x 4 vectors, one broadcast
// per 4 FMAs, no remainder tile. 24 input channels: 4 tiles of 6 x 64.
// The tiles of the first reduction block (the first image's first rows)
// start from zero (zeroStartFirstBlocks); the rest of that image's rows
// and the second image follow, each a copy of the same tile nest.
// CHECK-LABEL: func.func @dw_24_rows
// CHECK:         scf.for %{{.*}} = %c0 to %c24 step %c6
// CHECK:           vector.transfer_write %cst{{.*}} : vector<6x64xf32>, tensor<6x64xf32>
// CHECK:           vector.contract {{.*}} : vector<8x6xf32>, vector<8x64xf32> into vector<6x64xf32>
// CHECK-COUNT-2:   vector.contract {{.*}} : vector<8x6xf32>, vector<8x64xf32> into vector<6x64xf32>
// CHECK-NOT:     vector.contract
// CHECK:         return
func.func @dw_24_rows(%x: tensor<2x16x16x24xf32>, %dy: tensor<2x16x16x64xf32>) -> tensor<1x1x24x64xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = VALID strides = [1, 1] dilations = [1, 1] : tensor<2x16x16x24xf32>, tensor<2x16x16x64xf32> -> tensor<1x1x24x64xf32>
  return %dw : tensor<1x1x24x64xf32>
}

// -----

// 26 rows (no count of 3 to 6 divides them): 8-row x 2-vector tiles and
// a 2-row remainder, as before.
// CHECK-LABEL: func.func @dw_26_rows
// CHECK:         vector.contract {{.*}} : vector<8x8xf32>, vector<8x32xf32> into vector<8x32xf32>
// CHECK:         vector.contract {{.*}} : vector<8x2xf32>, vector<8x32xf32> into vector<2x32xf32>
// CHECK-NOT:     vector<{{[0-9]+}}x64xf32>
// CHECK:         return
func.func @dw_26_rows(%x: tensor<2x16x16x26xf32>, %dy: tensor<2x16x16x64xf32>) -> tensor<1x1x26x64xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = VALID strides = [1, 1] dilations = [1, 1] : tensor<2x16x16x26xf32>, tensor<2x16x16x64xf32> -> tensor<1x1x26x64xf32>
  return %dw : tensor<1x1x26x64xf32>
}
