// (transpose-taps-overhead=1.25: some of the small transposed convolutions
// below have phases that multiply 10-25 % padding; the default, 1.10,
// would lower those tap by tap instead of by the phases these tests pin.)
// RUN: conv-opt %s --convert-conv-to-linalg=transpose-taps-overhead=1.25 --canonicalize --conv-cpu-tile-and-vectorize="vector-bits=256 num-vector-registers=16 l1-cache-bytes=32768 l2-cache-bytes=1048576" --mlir-print-local-scope --split-input-file | FileCheck %s
// RUN: conv-opt %s --convert-conv-to-linalg=transpose-taps-overhead=1.25 --canonicalize --conv-cpu-tile-and-vectorize="vector-bits=256 num-vector-registers=16 l1-cache-bytes=32768 l2-cache-bytes=1048576 direct-rows=false" --mlir-print-local-scope --split-input-file | FileCheck %s --check-prefix=PACK

// dW tap of a 3x3 NHWC layer, AVX2-sized register tile: 6 rows (ci) x 16
// lanes (co) of f32 accumulators and an inner chunk of 8 over ow. A whole
// output row (16 positions x 52 channels) is small against the L1 cache, and
// the tap's whole dW is one tile block, and all 16 rows of an image (53 KB)
// fit half the L2, so the reduction block is all of them. The accumulator
// tile stays in registers across the inner loops over those 16 rows and
// their ow chunks (no row-block loop).
// ci = 20 does not divide by 6, so the ci loop is peeled: 18 in static 6-row
// tiles, then one static 2-row tile. The reduction block is one image (the
// batch loop runs over the blocks): the first image's tiles start from zero
// (zeroStartFirstBlocks: no zero fill of the dW), then the second image's
// tiles (the loop of one iteration folded away) from what it left.
// CHECK-LABEL: func.func @dw_tap
// CHECK-NOT:     linalg.fill
// CHECK:         scf.forall (%{{.*}}, %{{.*}}) in (3, 3)
// CHECK:           scf.for %{{.*}} = %c0 to %c18 step %c6
// CHECK-NEXT:        scf.for %{{.*}} = %c0 to %c32 step %c16
// CHECK:               vector.transfer_write %cst{{.*}} : vector<6x16xf32>, tensor<6x16xf32>
// CHECK-NEXT:          scf.for %{{.*}} = %c0 to %c16 step %c1
// CHECK-NEXT:            scf.for %{{.*}} = %c0 to %c16 step %c8
// CHECK:                     vector.transfer_read {{.*}} vector<8x6xf32>
// CHECK:                     vector.transfer_read {{.*}} vector<8x16xf32>
// CHECK:                     vector.contract {{.*}} : vector<8x6xf32>, vector<8x16xf32> into vector<6x16xf32>
// CHECK:             scf.for %{{.*}} = %c0 to %c32 step %c16
// CHECK:               vector.transfer_write %cst{{.*}} : vector<2x16xf32>, tensor<2x16xf32>
// CHECK-NEXT:          scf.for %{{.*}} = %c0 to %c16 step %c1
// CHECK-NEXT:            scf.for %{{.*}} = %c0 to %c16 step %c8
// CHECK:                   vector.contract {{.*}} : vector<8x2xf32>, vector<8x16xf32> into vector<2x16xf32>
// CHECK:           scf.for %{{.*}} = %c0 to %c18 step %c6
// CHECK-NEXT:        scf.for %{{.*}} = %c0 to %c32 step %c16
// CHECK-NEXT:          scf.for %{{.*}} = %c0 to %c16 step %c1
// CHECK-NEXT:            scf.for %{{.*}} = %c0 to %c16 step %c8
// CHECK:                     vector.contract {{.*}} : vector<8x6xf32>, vector<8x16xf32> into vector<6x16xf32>
// CHECK:           scf.for %{{.*}} = %c0 to %c32 step %c16
// CHECK-NEXT:        scf.for %{{.*}} = %c0 to %c16 step %c1
// CHECK-NEXT:          scf.for %{{.*}} = %c0 to %c16 step %c8
// CHECK:                   vector.contract {{.*}} : vector<8x2xf32>, vector<8x16xf32> into vector<2x16xf32>
// CHECK-NOT:       step %c4
// CHECK-NOT:     linalg.generic {{.*}}conv.role
func.func @dw_tap(%x: tensor<2x18x18x20xf32>, %dy: tensor<2x16x16x32xf32>) -> tensor<3x3x20x32xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = VALID strides = [1, 1] dilations = [1, 1] : tensor<2x18x18x20xf32>, tensor<2x16x16x32xf32> -> tensor<3x3x20x32xf32>
  return %dw : tensor<3x3x20x32xf32>
}

// -----

// The same with SAME padding on a 7x7 image: each tap's rows and columns
// that read only padding are cut (docs/Lowering.md §2.5), so the row and
// column ranges depend on the tap. The heuristics use their upper bounds
// (7): all rows fit one reduction block (no block loop), and, the columns
// being at most 2 chunks long, they are reduced one per step (a rank-1
// update) in one loop over the tap's columns inside the register tile.
// CHECK-LABEL: func.func @dw_tap_cut_padding
// CHECK:         scf.forall (%[[KH:.*]], %[[KW:.*]]) in (3, 3)
// CHECK:           %[[R:.*]] = affine.max affine_map<(d0, d1) -> (0, d0 - d1)>
// CHECK:           %[[ROWS:.*]] = affine.min affine_map<(d0) -> (7, d0)>(%[[R]])
// CHECK:           %[[C:.*]] = affine.max affine_map<(d0, d1) -> (0, d0 - d1)>
// CHECK:           %[[COLS:.*]] = affine.min affine_map<(d0) -> (7, d0)>(%[[C]])
// CHECK:           scf.for %{{.*}} = %c0 to %c18 step %c6
// CHECK:             scf.for %{{.*}} = %c0 to %c32 step %c16
// CHECK:               vector.transfer_write %cst{{.*}} : vector<6x16xf32>, tensor<6x16xf32>
// CHECK:               scf.for %{{.*}} = %c0 to %[[ROWS]] step %c1 iter_args
// CHECK:                 scf.for %{{.*}} = %c0 to %[[COLS]] step %c1 iter_args
// CHECK:                   vector.transfer_read {{.*}} vector<6xf32>
// CHECK:                   vector.transfer_read {{.*}} vector<16xf32>
// CHECK:                   arith.mulf {{.*}} : vector<6x16xf32>
// CHECK:                   arith.addf {{.*}} : vector<6x16xf32>
// CHECK:           scf.for %{{.*}} = %c0 to %c32 step %c16
// CHECK:               scf.for %{{.*}} = %c0 to %[[ROWS]] step %c1 iter_args
// CHECK:                 scf.for %{{.*}} = %c0 to %[[COLS]] step %c1 iter_args
// CHECK:                   arith.addf {{.*}} : vector<2x16xf32>
// CHECK-NOT:     linalg.generic {{.*}}conv.role
func.func @dw_tap_cut_padding(%x: tensor<2x7x7x20xf32>, %dy: tensor<2x7x7x32xf32>) -> tensor<3x3x20x32xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = SAME strides = [1, 1] dilations = [1, 1] : tensor<2x7x7x20xf32>, tensor<2x7x7x32xf32> -> tensor<3x3x20x32xf32>
  return %dw : tensor<3x3x20x32xf32>
}

// -----

// A transposed-convolution phase (4x4 kernel, stride 2: four 2x2-tap phases
// of 6x6 outputs): the register tile is 6 output columns (ow) x 16 output
// channels; the taps and the input channels (one per step) are inner
// reduction loops. Unit dimensions fold, so the tap offsets become read
// offsets and each step is a rank-1 update of the 6x16 accumulator tile.
// The phases partition the output, so each starts from a zero fill of its
// slice; the fill is fused into the register tiles (a zero accumulator
// tile written just before the tap and channel loops, which the hoisted
// accumulator read folds to: see tile-and-vectorize-zero-start.mlir), not
// run over the whole output beforehand.
// CHECK-LABEL: func.func @transpose_phase
// CHECK:         %[[Z:.*]] = arith.constant dense<0.000000e+00> : vector<6x16xf32>
// CHECK-NOT:     linalg.fill
// CHECK:         scf.for %{{.*}} = %c0 to %c6 step %c1
// CHECK:           vector.transfer_write %[[Z]], %{{.*}} : vector<6x16xf32>, tensor<1x1x6x16xf32>
// CHECK:           scf.for %{{.*}} = %c0 to %c2 step %c1
// CHECK:             scf.for %{{.*}} = %c0 to %c2 step %c1
// CHECK:               scf.for %{{.*}} = %c0 to %c8 step %c1
// CHECK:                 vector.transfer_read {{.*}} : tensor<1x{{[0-9]+}}x{{[0-9]+}}x8xf32>, vector<6xf32>
// CHECK:                 vector.transfer_read {{.*}} : tensor<2x2x8x16xf32>, vector<16xf32>
// CHECK:                 arith.mulf {{.*}} : vector<6x16xf32>
// CHECK:                 arith.addf {{.*}} : vector<6x16xf32>
func.func @transpose_phase(%x: tensor<1x6x6x8xf32>, %k: tensor<4x4x16x8xf32>) -> tensor<1x12x12x16xf32> {
  %y = conv.transpose %x, %k data_format = channels_last padding = same strides = [2, 2] dilation_rate = [1, 1] : tensor<1x6x6x8xf32>, tensor<4x4x16x8xf32> -> tensor<1x12x12x16xf32>
  return %y : tensor<1x12x12x16xf32>
}

// -----

// Channels-first layouts are left as linalg for now (reduction in the
// contiguous dimension).
// CHECK-LABEL: func.func @dw_nchw_untouched
// CHECK:         linalg.generic {{.*}}conv.role = "dw_tap"
// CHECK-NOT:     vector.contract
func.func @dw_nchw_untouched(%x: tensor<1x4x6x6xf32>, %dy: tensor<1x8x4x4xf32>) -> tensor<3x3x4x8xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NCHW padding = VALID strides = [1, 1] dilations = [1, 1] : tensor<1x4x6x6xf32>, tensor<1x8x4x4xf32> -> tensor<3x3x4x8xf32>
  return %dw : tensor<3x3x4x8xf32>
}

// -----

// Few output channels (transpose_lanes, the ci reduction split into 8
// lanes): the register tile is 8 output positions x the 8 lanes, one
// accumulator vector per position; every (tap, ci / 8) step loads 8 input
// vectors and one kernel vector (broadcast over the positions).
// CHECK-LABEL: func.func @transpose_lanes
// CHECK:         scf.for %{{.*}} = %c0 to %c32 step %c8
// CHECK:           scf.for %{{.*}} = %c0 to %c4 step %c1
// CHECK:             scf.for %{{.*}} = %c0 to %c16 step %c1
// CHECK:               vector.transfer_read {{.*}} : tensor<1x38x16x8xf32>, vector<8x8xf32>
// CHECK:               vector.transfer_read {{.*}} : tensor<4x1x16x8xf32>, vector<8xf32>
// CHECK:               vector.broadcast {{.*}} : vector<8xf32> to vector<8x8xf32>
// CHECK:               arith.mulf {{.*}} : vector<8x8xf32>
func.func @transpose_lanes(%x: tensor<1x32x130xf32>, %k: tensor<4x1x130xf32>) -> tensor<1x35x1xf32> {
  %y = conv.transpose %x, %k data_format = channels_last padding = valid strides = [1] dilation_rate = [1] : tensor<1x32x130xf32>, tensor<4x1x130xf32> -> tensor<1x35x1xf32>
  return %y : tensor<1x35x1xf32>
}

// -----

// Register tiles of a phase: the column (co) tile loop runs outside the row
// tiles (2 column tiles of 16 lanes, each sweeping the 2 row tiles of 6
// output positions), so a column's kernel panel stays cached while the rows
// pass over it.
// Single-tap phases (2x2 stride 2) reduce 4 input channels a step, with
// AVX-512's wide tiles or without AVX-512; phases of several taps keep 1
// there (@transpose_phase above).
// CHECK-LABEL: func.func @transpose_columns_outside_rows
// CHECK:         scf.for %{{.*}} = %c0 to %c32 step %c16
// CHECK:           scf.for %{{.*}} = %c0 to %c12 step %c6
// CHECK:             scf.for %{{.*}} = %c0 to %c8 step %c4
// CHECK:               vector.contract {{.*}} into vector<6x16xf32>
func.func @transpose_columns_outside_rows(%x: tensor<1x12x12x8xf32>, %k: tensor<2x2x32x8xf32>) -> tensor<1x24x24x32xf32> {
  %y = conv.transpose %x, %k data_format = channels_last padding = valid strides = [2, 2] dilation_rate = [1, 1] : tensor<1x12x12x8xf32>, tensor<2x2x32x8xf32> -> tensor<1x24x24x32xf32>
  return %y : tensor<1x24x24x32xf32>
}

// -----

// Columns lowering (3 output channels, 11 taps: 33 columns): the kernel
// relayout is tiled into 8 x 8 vector.transpose squares, and each input
// column's row add (33 contiguous values) runs as two 16-lane vector adds
// and a peeled scalar one. The 20 columns go in 3 rounds (columns 3i,
// 3i + 1, 3i + 2: rows 3 apart, 36 values, do not overlap), each a loop:
// a round of 7 rows is too small to split over threads.
// The GEMM's zero fill, fused into its tile (all 20 pixels x 33 columns),
// is written in 16-lane rows too, not as one vector<20x33xf32> (which the
// transfer lowering would unroll element by element).
// CHECK-LABEL: func.func @row_adds
// CHECK-NOT:     vector<20x33xf32>
// CHECK:         vector.transpose %{{.*}}, [1, 0] : vector<8x8xf32> to vector<8x8xf32>
// CHECK:         %[[R0:.*]] = scf.for %[[I:.*]] = %c0 to %c7 step %c1 iter_args(%[[O:.*]] = %{{.*}}) -> (tensor<1x261xf32>)
// CHECK:           affine.apply affine_map<(d0) -> (d0 * 3)>(%[[I]])
// CHECK:           %[[Q:.*]] = affine.apply affine_map<(d0) -> (d0 * 36)>(%[[I]])
// CHECK:           scf.for %{{.*}} = %c0 to %c32 step %c16
// CHECK:             vector.transfer_read {{.*}} : tensor<1x33xf32>, vector<16xf32>
// CHECK:             vector.transfer_read {{.*}} : tensor<1x33xf32>, vector<16xf32>
// CHECK:             arith.addf %{{.*}}, %{{.*}} : vector<16xf32>
// CHECK:           arith.addf %{{.*}}, %{{.*}} : f32
// CHECK:           tensor.insert_slice %{{.*}} into %[[O]][0, %[[Q]]] [1, 33] [1, 1]
// CHECK:         %[[R1:.*]] = scf.for %[[I1:.*]] = %c0 to %c7 step %c1 iter_args(%{{.*}} = %[[R0]])
// CHECK:           affine.apply affine_map<(d0) -> (d0 * 36 + 12)>(%[[I1]])
// CHECK:         scf.for %[[I2:.*]] = %c0 to %c6 step %c1 iter_args(%{{.*}} = %[[R1]])
// CHECK:           affine.apply affine_map<(d0) -> (d0 * 36 + 24)>(%[[I2]])
func.func @row_adds(%x: tensor<1x20x8xf32>, %k: tensor<11x3x8xf32>) -> tensor<1x87x3xf32> {
  %y = conv.transpose %x, %k data_format = channels_last padding = valid strides = [4] dilation_rate = [1] : tensor<1x20x8xf32>, tensor<11x3x8xf32> -> tensor<1x87x3xf32>
  return %y : tensor<1x87x3xf32>
}

// -----

// Depth-to-space contraction (k = s = 2, no tap loops): per input row j_0
// and phase m_0, the (m_1, co) column tiles outside the row tiles along j_1
// (64 = 10 x 6 + a peeled 4), each starting from its own zero tile (the
// fused fill) with the 64 input channels as its reduction, 4 a step.
// CHECK-LABEL: func.func @depth_to_space
// CHECK:         scf.for %{{.*}} = %c0 to %c64 step %c1
// CHECK:           scf.for %{{.*}} = %c0 to %c2 step %c1
// CHECK:             scf.for %{{.*}} = %c0 to %c64 step %c16
// CHECK:               scf.for %{{.*}} = %c0 to %c60 step %c6
// CHECK:                 vector.transfer_write %{{.*}} : vector<6x16xf32>, tensor<1x1x1x6x16xf32>
// CHECK:                 scf.for %{{.*}} = %c0 to %c64 step %c4
// CHECK:                   vector.contract {{.*}} : vector<6x4xf32>, vector<4x16xf32> into vector<6x16xf32>
// CHECK:               vector.transfer_write %{{.*}} : vector<4x16xf32>, tensor<1x1x1x4x16xf32>
// CHECK:               vector.contract {{.*}} : vector<4x4xf32>, vector<4x16xf32> into vector<4x16xf32>
func.func @depth_to_space(%x: tensor<1x64x64x64xf32>, %k: tensor<2x2x32x64xf32>) -> tensor<1x128x128x32xf32> {
  %y = conv.transpose %x, %k data_format = channels_last padding = valid strides = [2, 2] dilation_rate = [1, 1] : tensor<1x64x64x64xf32>, tensor<2x2x32x64xf32> -> tensor<1x128x128x32xf32>
  return %y : tensor<1x128x128x32xf32>
}

// -----

// Tiny-Cin filter gradient (ResNet's 7x7 stem, stride 2): each leading tap's
// pack is a row gather of the window viewed as [b, h, w * ci], runs of
// 7 x 3 = 21 values at input offset 2 * 3 * ow. The register tiles (6 rows
// x 6 positions, and a 3-row remainder) read their rows from the window
// itself: per position one vector of 6 (3) consecutive values of its run,
// at offset 6 * ow plus the tile's first row (ReadRowsFromInput); no
// scratch pack, no copy.
// CHECK-LABEL: func.func @row_gather
// CHECK:         scf.forall (%{{.*}}) in (7)
// CHECK-NOT:       tensor.empty() : tensor<1x6x6x21xf32>
// CHECK:           %[[IN:.+]] = tensor.collapse_shape %{{.*}} {{\[\[}}0], [1], [2, 3]] : tensor<2x6x17x3xf32> into tensor<2x6x51xf32>
// The first image's tiles start from zero (zeroStartFirstBlocks), then the
// second image's (each a copy of the tiles; the batch loop folded away).
// CHECK:           scf.for %[[R:[a-z0-9]+]] = %c0 to %c18 step %c6
// CHECK:             vector.transfer_write %cst{{.*}} : vector<6x16xf32>, tensor<6x16xf32>
// CHECK:             scf.for %[[OH:[a-z0-9]+]] = %c0 to %c6 step %c1
// CHECK:               vector.transfer_read %[[IN]][%c0, %[[OH]], %[[R]]], %{{.*}} {in_bounds = [true]} : tensor<2x6x51xf32>, vector<6xf32>
// CHECK:               %[[R1:.+]] = affine.apply affine_map<(d0) -> (d0 + 6)>(%[[R]])
// CHECK:               vector.transfer_read %[[IN]][%c0, %[[OH]], %[[R1]]], %{{.*}} {in_bounds = [true]} : tensor<2x6x51xf32>, vector<6xf32>
// CHECK:               %[[R5:.+]] = affine.apply affine_map<(d0) -> (d0 + 30)>(%[[R]])
// CHECK:               vector.transfer_read %[[IN]][%c0, %[[OH]], %[[R5]]], %{{.*}} {in_bounds = [true]} : tensor<2x6x51xf32>, vector<6xf32>
// CHECK:               %[[ROWS:.+]] = vector.from_elements {{.*}} : vector<6x6xf32>
// CHECK:               vector.contract {{.*}} %[[ROWS]], {{.*}} : vector<6x6xf32>, vector<6x16xf32> into vector<6x16xf32>
// CHECK:           vector.transfer_write %cst{{.*}} : vector<3x16xf32>, tensor<3x16xf32>
// CHECK:           scf.for %[[OH2:[a-z0-9]+]] = %c0 to %c6 step %c1
// CHECK:             vector.transfer_read %[[IN]][%c0, %[[OH2]], %c18], %{{.*}} {in_bounds = [true]} : tensor<2x6x51xf32>, vector<3xf32>
// CHECK:             vector.transfer_read %[[IN]][%c0, %[[OH2]], %c48], %{{.*}} {in_bounds = [true]} : tensor<2x6x51xf32>, vector<3xf32>
// CHECK:             vector.contract {{.*}} : vector<6x3xf32>, vector<6x16xf32> into vector<3x16xf32>
// CHECK:           scf.for %[[R2:[a-z0-9]+]] = %c0 to %c18 step %c6
// CHECK:             scf.for %[[OH3:[a-z0-9]+]] = %c0 to %c6 step %c1
// CHECK:               vector.transfer_read %[[IN]][%c1, %[[OH3]], %[[R2]]], %{{.*}} {in_bounds = [true]} : tensor<2x6x51xf32>, vector<6xf32>
// CHECK:               vector.contract {{.*}} : vector<6x6xf32>, vector<6x16xf32> into vector<6x16xf32>
// CHECK:           scf.for %[[OH4:[a-z0-9]+]] = %c0 to %c6 step %c1
// CHECK:             vector.transfer_read %[[IN]][%c1, %[[OH4]], %c18], %{{.*}} {in_bounds = [true]} : tensor<2x6x51xf32>, vector<3xf32>
// CHECK:             vector.contract {{.*}} : vector<6x3xf32>, vector<6x16xf32> into vector<3x16xf32>
// CHECK-NOT:     tensor<1x6x6x21xf32>
// CHECK-NOT:     tensor<2x6x6x21xf32>
// With direct-rows=false (PACK lines), each cache block (one batch item)
// packs its own rows, one run as one vector<21xf32> read and write, into a
// scratch tensor made once per tap (fuseInputPack), just before its
// register tiles read them.
// PACK-LABEL: func.func @row_gather
// PACK:         scf.forall (%{{.*}}) in (7)
// PACK:           tensor.empty() : tensor<1x6x6x21xf32>
// PACK:           tensor.collapse_shape %{{.*}} {{\[\[}}0], [1], [2, 3]] : tensor<2x6x17x3xf32> into tensor<2x6x51xf32>
// (Each image packs into its own scratch; the first image's tiles start
// from zero.)
// PACK:             %[[PACKED:.+]] = scf.for %{{.*}} = %c0 to %c6 step %c1 iter_args(%{{.*}} = %{{.*}})
// PACK:               scf.for %[[OW:[a-z0-9]+]] = %c0 to %c6 step %c1
// PACK:                 %[[OFF:.+]] = affine.apply affine_map<(d0) -> (d0 * 6)>(%[[OW]])
// PACK:                 %[[SEG:.+]] = vector.transfer_read %{{.*}}[%c0, %{{.*}}, %[[OFF]]], %{{.*}} {in_bounds = [true]} : tensor<2x6x51xf32>, vector<21xf32>
// PACK:                 vector.transfer_write %[[SEG]], %{{.*}}[%c0, %{{.*}}, %[[OW]], %c0] {in_bounds = [true]} : vector<21xf32>, tensor<1x6x6x21xf32>
// PACK:             vector.transfer_read %[[PACKED]]
// PACK:             vector.contract
// PACK:             vector.transfer_read %{{.*}}[%c1, %{{.*}}, %{{.*}}], %{{.*}} {in_bounds = [true]} : tensor<2x6x51xf32>, vector<21xf32>
// PACK:             vector.contract
// PACK-NOT:     tensor<2x6x6x21xf32>
func.func @row_gather(%x: tensor<2x17x17x3xf32>, %dy: tensor<2x6x6x16xf32>) -> tensor<7x7x3x16xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = VALID strides = [2, 2] dilations = [1, 1] : tensor<2x17x17x3xf32>, tensor<2x6x6x16xf32> -> tensor<7x7x3x16xf32>
  return %dw : tensor<7x7x3x16xf32>
}

// -----

// Single-channel input, unit stride (a 3x3 layer on a 1-channel image):
// consecutive output positions read consecutive input values. The blocks
// are 3 and 2 output rows (8 = 3 + 3 + 2). The 9 tap rows of one 8-lane
// vector are a single 9-row register tile (not 6 + 3), stepping 4
// positions at a time (a contraction that streams out_backprop once). Its
// row operand is read from the padded input itself (direct-rows: the
// transposed pack tile, [tap rows, b, oh, ow], is never copied): per tap
// (kh, kw) one vector<4xf32> of input row oh + kh at column ow + kw.
// CHECK-LABEL: func.func @single_channel_transposed_pack
// CHECK-NOT:     tensor.empty() : tensor<3x3x1x{{[0-9]+}}x16xf32>
// CHECK:         %[[IN:.+]] = tensor.collapse_shape %{{.*}} {{\[\[}}0], [1], [2, 3]] : tensor<2x10x18x1xf32> into tensor<2x10x18xf32>
// CHECK:         scf.for %[[B:[a-z0-9]+]] = %c0 to %c2 step %c1
// CHECK:           scf.for %[[OH:[a-z0-9]+]] = %c0 to %c6 step %c3
// CHECK:             scf.for %[[R:[a-z0-9]+]] = %c0 to %c3 step %c1
// CHECK:               scf.for %[[OW:[a-z0-9]+]] = %c0 to %c16 step %c4
// CHECK:                 %[[H0:.+]] = affine.apply affine_map<()[s0, s1] -> (s0 + s1)>()[%[[OH]], %[[R]]]
// CHECK:                 vector.transfer_read %[[IN]][%[[B]], %[[H0]], %[[OW]]], %{{.*}} {in_bounds = [true]} : tensor<2x10x18xf32>, vector<4xf32>
// CHECK:                 %[[W1:.+]] = affine.apply affine_map<(d0) -> (d0 + 1)>(%[[OW]])
// CHECK:                 vector.transfer_read %[[IN]][%[[B]], %{{.*}}, %[[W1]]], %{{.*}} {in_bounds = [true]} : tensor<2x10x18xf32>, vector<4xf32>
// CHECK:                 %[[H1:.+]] = affine.apply affine_map<(d0)[s0] -> (d0 + s0 + 1)>(%[[R]])[%[[OH]]]
// CHECK:                 vector.transfer_read %[[IN]][%[[B]], %[[H1]], %[[OW]]], %{{.*}} {in_bounds = [true]} : tensor<2x10x18xf32>, vector<4xf32>
// CHECK:                 %[[H2:.+]] = affine.apply affine_map<(d0)[s0] -> (d0 + s0 + 2)>(%[[R]])[%[[OH]]]
// CHECK-NEXT:            vector.transfer_read %[[IN]][%[[B]], %[[H2]], %[[OW]]], %{{.*}} {in_bounds = [true]} : tensor<2x10x18xf32>, vector<4xf32>
// CHECK:                 %[[W21:.+]] = affine.apply affine_map<(d0) -> (d0 + 1)>(%[[OW]])
// CHECK-NEXT:            vector.transfer_read %[[IN]][%[[B]], %{{.*}}, %[[W21]]], %{{.*}} {in_bounds = [true]} : tensor<2x10x18xf32>, vector<4xf32>
// CHECK:                 %[[W22:.+]] = affine.apply affine_map<(d0) -> (d0 + 2)>(%[[OW]])
// CHECK-NEXT:            vector.transfer_read %[[IN]][%[[B]], %{{.*}}, %[[W22]]], %{{.*}} {in_bounds = [true]} : tensor<2x10x18xf32>, vector<4xf32>
// CHECK-NOT:             vector.transfer_read %[[IN]]
// CHECK:                 %[[ROWS:.+]] = vector.from_elements {{.*}} : vector<9x4xf32>
// CHECK:                 vector.transfer_read %{{.*}}[%[[B]], %{{.*}}, %[[OW]], %c0], %{{.*}} : tensor<2x8x16x8xf32>, vector<4x8xf32>
// CHECK:                 vector.contract {{.*}} %[[ROWS]], {{.*}} : vector<9x4xf32>, vector<4x8xf32> into vector<9x8xf32>
// CHECK:               } {conv.prefetch_rhs}
// CHECK:           scf.for %[[T:[a-z0-9]+]] = %c0 to %c2 step %c1
// CHECK:             scf.for %[[OW2:[a-z0-9]+]] = %c0 to %c16 step %c4
// CHECK:               %[[H6:.+]] = affine.apply affine_map<()[s0] -> (s0 + 6)>()[%[[T]]]
// CHECK:               vector.transfer_read %[[IN]][%[[B]], %[[H6]], %[[OW2]]], %{{.*}} {in_bounds = [true]} : tensor<2x10x18xf32>, vector<4xf32>
// CHECK:               vector.contract {{.*}} : vector<9x4xf32>, vector<4x8xf32> into vector<9x8xf32>
// CHECK-NOT:     tensor<3x3x1x3x16xf32>
// CHECK-NOT:     tensor<2x8x16x3x3xf32>
// With direct-rows=false (PACK lines) each block's scratch is packed
// transposed: one contiguous 16-value run per (tap, output row), copied as
// whole vectors, instead of a 3-value run per position; the last block's
// loop of one iteration is promoted so that its size is static, and it has
// its own scratch.
// PACK-LABEL: func.func @single_channel_transposed_pack
// PACK-DAG:     %[[TAIL:.+]] = tensor.empty() : tensor<3x3x1x2x16xf32>
// PACK-DAG:     %[[SCRATCH:.+]] = tensor.empty() : tensor<3x3x1x3x16xf32>
// PACK:         scf.for %[[B:[a-z0-9]+]] = %c0 to %c2 step %c1
// PACK:           scf.for %[[OH:[a-z0-9]+]] = %c0 to %c6 step %c3
// PACK:             %[[PACKED:.+]] = scf.for %{{.*}} = %c0 to %c3 step %c1 iter_args(%{{.*}} = %[[SCRATCH]])
// PACK:               scf.for %{{.*}} = %c0 to %c3 step %c1
// PACK:                 scf.for %{{.*}} = %c0 to %c3 step %c1
// PACK:                   vector.transfer_read %{{.*}}[%[[B]], %{{.*}}, %{{.*}}], %{{.*}} {in_bounds = [true]} : tensor<2x10x18xf32>, vector<16xf32>
// PACK:                   vector.transfer_write %{{.*}} {in_bounds = [true]} : vector<16xf32>, tensor<3x3x1x3x16xf32>
// PACK:             %[[ROWS:.+]] = tensor.collapse_shape %[[PACKED]] {{\[\[}}0, 1], [2], [3], [4]] : tensor<3x3x1x3x16xf32> into tensor<9x1x3x16xf32>
// PACK:             scf.for %{{.*}} = %c0 to %c3 step %c1
// PACK:               scf.for %{{.*}} = %c0 to %c16 step %c4
// PACK:                 vector.transfer_read %[[ROWS]]{{.*}} : tensor<9x1x3x16xf32>, vector<9x4xf32>
// PACK:                 vector.contract {{.*}} : vector<9x4xf32>, vector<4x8xf32> into vector<9x8xf32>
// PACK:           scf.for %{{.*}} = %c0 to %c2 step %c1 iter_args(%{{.*}} = %[[TAIL]])
// PACK:             vector.transfer_write %{{.*}} : vector<16xf32>, tensor<3x3x1x2x16xf32>
// PACK:           vector.contract {{.*}} : vector<9x4xf32>, vector<4x8xf32> into vector<9x8xf32>
// PACK-NOT:     tensor<2x8x16x3x3xf32>
func.func @single_channel_transposed_pack(%x: tensor<2x8x16x1xf32>, %dy: tensor<2x8x16x8xf32>) -> tensor<3x3x1x8xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = SAME strides = [1, 1] dilations = [1, 1] : tensor<2x8x16x1xf32>, tensor<2x8x16x8xf32> -> tensor<3x3x1x8xf32>
  return %dw : tensor<3x3x1x8xf32>
}

// -----

// Single-channel input, stride 2: runs of 3 values (kw x 1 channel), 9
// rows (kh x kw). Each 9-row register tile's rows span three runs, which
// start at the tile's first row: each position's row vector is read as
// three 3-value pieces, one per input row 2 * oh + kh.
// CHECK-LABEL: func.func @single_channel_strided
// CHECK:         %[[IN:.+]] = tensor.collapse_shape %{{.*}} : tensor<2x9x17x1xf32> into tensor<2x9x17xf32>
// CHECK:         scf.for %[[B:[a-z0-9]+]] = %c0 to %c2 step %c1
// CHECK:           scf.for %[[OH:[a-z0-9]+]] = %c0 to %c4 step %c1
// CHECK:             scf.for %[[OW:[a-z0-9]+]] = %c0 to %c8 step %c4
// CHECK:               %[[H0:.+]] = affine.apply affine_map<(d0) -> (d0 * 2)>(%[[OH]])
// CHECK:               %[[W0:.+]] = affine.apply affine_map<(d0) -> (d0 * 2)>(%[[OW]])
// CHECK:               %[[P0:.+]] = vector.transfer_read %[[IN]][%[[B]], %[[H0]], %[[W0]]], %{{.*}} {in_bounds = [true]} : tensor<2x9x17xf32>, vector<3xf32>
// CHECK:               vector.insert_strided_slice %[[P0]], %{{.*}} {offsets = [0], strides = [1]} : vector<3xf32> into vector<9xf32>
// CHECK:               %[[H1:.+]] = affine.apply affine_map<(d0) -> (d0 * 2 + 1)>(%[[OH]])
// CHECK:               %[[P1:.+]] = vector.transfer_read %[[IN]][%[[B]], %[[H1]], %{{.*}}], %{{.*}} {in_bounds = [true]} : tensor<2x9x17xf32>, vector<3xf32>
// CHECK:               vector.insert_strided_slice %[[P1]], %{{.*}} {offsets = [3], strides = [1]} : vector<3xf32> into vector<9xf32>
// CHECK:               %[[H2:.+]] = affine.apply affine_map<(d0) -> (d0 * 2 + 2)>(%[[OH]])
// CHECK:               %[[P2:.+]] = vector.transfer_read %[[IN]][%[[B]], %[[H2]], %{{.*}}], %{{.*}} {in_bounds = [true]} : tensor<2x9x17xf32>, vector<3xf32>
// CHECK:               vector.insert_strided_slice %[[P2]], %{{.*}} {offsets = [6], strides = [1]} : vector<3xf32> into vector<9xf32>
// CHECK:               vector.contract {{.*}} : vector<4x9xf32>, vector<4x8xf32> into vector<9x8xf32>
func.func @single_channel_strided(%x: tensor<2x9x17x1xf32>, %dy: tensor<2x4x8x8xf32>) -> tensor<3x3x1x8xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = VALID strides = [2, 2] dilations = [1, 1] : tensor<2x9x17x1xf32>, tensor<2x4x8x8xf32> -> tensor<3x3x1x8xf32>
  return %dw : tensor<3x3x1x8xf32>
}

// -----

// 3 channels x 3 x 3 taps = 27 rows, 8 output channels (one 8-lane vector):
// the rows are not a multiple of the 6-row tile, so the tile takes the
// fewest more rows that divide them: 3 tiles of 9 rows (not 6 + 6 + 6 + 6
// + 3, whose 3-row remainder is latency-bound).
// CHECK-LABEL: func.func @tiny_cin_even_rows
// CHECK:         scf.for %{{.*}} = %c0 to %c27 step %c9
// CHECK:           vector.contract {{.*}} : vector<4x9xf32>, vector<4x8xf32> into vector<9x8xf32>
// CHECK-NOT:     vector<3x8xf32>
func.func @tiny_cin_even_rows(%x: tensor<2x9x9x3xf32>, %dy: tensor<2x4x4x8xf32>) -> tensor<3x3x3x8xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = VALID strides = [2, 2] dilations = [1, 1] : tensor<2x9x9x3xf32>, tensor<2x4x4x8xf32> -> tensor<3x3x3x8xf32>
  return %dw : tensor<3x3x3x8xf32>
}
