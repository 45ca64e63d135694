// RUN: conv-opt %s --convert-conv-to-linalg --canonicalize --conv-cpu-tile-and-vectorize="vector-bits=512 num-vector-registers=32 l1-cache-bytes=49152 l2-cache-bytes=2097152" --mlir-print-local-scope --split-input-file | FileCheck %s
// RUN: conv-opt %s --convert-conv-to-linalg --canonicalize --conv-cpu-tile-and-vectorize="vector-bits=256 num-vector-registers=16 l1-cache-bytes=32768 l2-cache-bytes=524288" --mlir-print-local-scope --split-input-file | FileCheck %s --check-prefix=AVX2
// RUN: conv-opt %s --conv-lower-to-llvm-cpu --split-input-file | FileCheck %s --check-prefix=LLVM
// RUN: conv-opt %s --conv-lower-to-llvm-cpu="prefetch=false" --split-input-file | FileCheck %s --check-prefix=OFF
// RUN: conv-opt %s --convert-conv-to-linalg --canonicalize --conv-cpu-tile-and-vectorize="vector-bits=512 num-vector-registers=32 l1-cache-bytes=49152 l2-cache-bytes=2097152 two-zmm-fma-units" --mlir-print-local-scope --split-input-file | FileCheck %s --check-prefix=TZF

// Three input channels and a 3x3 kernel: every kernel dimension fuses into
// the 27 rows of one contraction (conv.dw_stream), which reads each
// out_backprop position once. Its register tiles (9 rows x 2 vectors) run
// over a block of 2 image rows in chunks of 4 positions; the chunk loop
// around their vector.contract is marked conv.prefetch_rhs, and the
// lowered code prefetches the out_backprop rows of the next 32 positions.
// Without AVX-512 (AVX2 lines) the 64 columns are 4 register tiles of 2
// 8-lane vectors, each re-reading the rows: no mark.
// CHECK-LABEL: func.func @stream
// CHECK:         scf.for %{{.*}} = %c0 to %c27 step %c9
// CHECK:           scf.for %{{.*}} = %c0 to %c64 step %c32
// CHECK:             scf.for %{{.*}} = %c0 to %c2 step %c1
// CHECK:               scf.for %{{.*}} = %c0 to %c32 step %c4
// CHECK:                 vector.contract {{.*}} : vector<4x9xf32>, vector<4x32xf32> into vector<9x32xf32>
// CHECK:               } {conv.prefetch_rhs}
// AVX2-LABEL: func.func @stream(
// AVX2:         vector.contract {{.*}} : vector<4x6xf32>, vector<4x16xf32> into vector<6x16xf32>
// AVX2-NOT:     conv.prefetch_rhs
// AVX2:         return
// On a core with two 512-bit FMA units (two-zmm-fma-units, TZF lines) the
// streaming prefetch stays, into the L2 only (conv.prefetch_l2): the 3
// tiles of rows each re-read the current rows from the L1. Their loop is
// marked conv.prefetch_tiles and the loop over the 2 column tiles inside it
// conv.prefetch_tiles_inner: each of the 3 x 2 tiles prefetches a sixth of
// the next rows' lines (whole rows, in memory order).
// TZF-LABEL: func.func @stream
// TZF:         scf.for %{{.*}} = %c0 to %c27 step %c9
// TZF:           scf.for %{{.*}} = %c0 to %c64 step %c32
// TZF:               vector.contract {{.*}} : vector<4x9xf32>, vector<4x32xf32> into vector<9x32xf32>
// TZF:             } {conv.prefetch_l2, conv.prefetch_rhs}
// TZF-NOT:         conv.prefetch
// TZF:           } {conv.prefetch_tiles_inner}
// TZF-NOT:       conv.prefetch
// TZF:         } {conv.prefetch_tiles}
// OFF-LABEL: llvm.func @stream(
// OFF-NOT:     llvm.intr.prefetch
// OFF:         llvm.return
func.func @stream(%x: tensor<2x18x34x3xf32>, %dy: tensor<2x16x32x64xf32>) -> tensor<3x3x3x64xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = VALID strides = [1, 1] dilations = [1, 1] : tensor<2x18x34x3xf32>, tensor<2x16x32x64xf32> -> tensor<3x3x3x64xf32>
  return %dw : tensor<3x3x3x64xf32>
}

// -----

// A 7x7 kernel: only the last kernel dimension fuses (21 rows), the 7
// leading taps are an scf.forall, and every one of them re-reads
// out_backprop: no mark, no prefetch (prefetching the next block evicted
// the block the other taps' register tiles re-read: -15 % on ResNet's stem).
// The 21 rows run as 7 tiles of 3 rows x 4 vectors.
// CHECK-LABEL: func.func @leading_taps
// CHECK:         scf.forall (%{{.*}}) in (7)
// CHECK:           vector.contract {{.*}} : vector<8x3xf32>, vector<8x64xf32> into vector<3x64xf32>
// CHECK-NOT:       vector<5x32xf32>
// CHECK-NOT:     conv.prefetch_rhs
// CHECK-NOT:     conv.prefetch_rows
// CHECK:         return
// LLVM-LABEL: llvm.func @leading_taps
// LLVM-NOT:     llvm.intr.prefetch
// LLVM:         llvm.return
func.func @leading_taps(%x: tensor<2x22x38x3xf32>, %dy: tensor<2x16x32x64xf32>) -> tensor<7x7x3x64xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = VALID strides = [1, 1] dilations = [1, 1] : tensor<2x22x38x3xf32>, tensor<2x16x32x64xf32> -> tensor<7x7x3x64xf32>
  return %dw : tensor<7x7x3x64xf32>
}

// -----

// A 1x1 filter gradient (a single contraction) with a whole 64 x 64 dW
// tile: every (ci, co) register tile sweeps the same block of 3 image rows,
// so the loop around their contractions is marked conv.prefetch_rows (the
// main tiles and the remainder ones alike), and the lowered code
// prefetches.
// CHECK-LABEL: func.func @pointwise
// CHECK:         scf.for %{{.*}} = %c0 to %c60 step %c6
// CHECK:           scf.for %{{.*}} = %c0 to %c3 step %c1
// CHECK:             scf.for %{{.*}} = %c0 to %c16 step %c8
// CHECK:               vector.contract {{.*}} : vector<8x6xf32>, vector<8x64xf32> into vector<6x64xf32>
// CHECK:             } {conv.prefetch_rows}
// CHECK:             vector.contract {{.*}} : vector<8x4xf32>, vector<8x64xf32> into vector<4x64xf32>
// CHECK:           } {conv.prefetch_rows}
// CHECK-NOT:     conv.prefetch_rhs
// Without AVX-512 the hardware prefetchers alone were faster on such
// 2-D layers: no mark (and the whole-dW 1x1 contraction steps 4 positions).
// AVX2-LABEL: func.func @pointwise(
// AVX2:         vector.contract {{.*}} : vector<4x6xf32>, vector<4x16xf32> into vector<6x16xf32>
// AVX2-NOT:     conv.prefetch_rows
// AVX2:         return
// On a core with two 512-bit FMA units (two-zmm-fma-units) only the 1x1
// layers whose block few register tiles sweep (here 11 tiles of rows, one
// of columns: at most 16) prefetch, into the L2 only (conv.prefetch_l2),
// each line by one of the tiles of their loop (conv.prefetch_tiles), at
// the distance of the whole block (conv.prefetch_distance: 3 rows of 16
// positions), so that the tiles fetch the next block.
// TZF-LABEL: func.func @pointwise(
// TZF:         scf.for %{{.*}} = %c0 to %c60 step %c6
// TZF:           scf.for %{{.*}} = %c0 to %c3 step %c1
// TZF:             scf.for %{{.*}} = %c0 to %c16 step %c8
// TZF:               vector.contract {{.*}} : vector<8x6xf32>, vector<8x64xf32> into vector<6x64xf32>
// TZF:             } {conv.prefetch_distance = 48 : i64, conv.prefetch_l2, conv.prefetch_rows}
// TZF:         } {conv.prefetch_tiles}
// TZF:         return
// OFF-LABEL: llvm.func @pointwise(
// OFF-NOT:     llvm.intr.prefetch
// OFF:         llvm.return
func.func @pointwise(%x: tensor<2x16x16x64xf32>, %dy: tensor<2x16x16x64xf32>) -> tensor<1x1x64x64xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = VALID strides = [1, 1] dilations = [1, 1] : tensor<2x16x16x64xf32>, tensor<2x16x16x64xf32> -> tensor<1x1x64x64xf32>
  return %dw : tensor<1x1x64x64xf32>
}

// -----

// More tiles of rows sweeping a block (256 input channels: 43 tiles of 6
// rows), on a core with two 512-bit FMA units: the whole dW (64 KiB) is
// within an eighth of the L2, so the next block goes into the L2 as well,
// spread over the tiles. A strided input is left to the hardware
// prefetchers there; with AVX-512 otherwise both are marked.
// CHECK-LABEL: func.func @pointwise_wide
// CHECK:         conv.prefetch_rows
// TZF-LABEL: func.func @pointwise_wide
// TZF:         scf.for %{{.*}} = %c0 to %c252 step %c6
// TZF:               vector.contract {{.*}} : vector<8x6xf32>, vector<8x64xf32> into vector<6x64xf32>
// TZF:             } {conv.prefetch_distance = 128 : i64, conv.prefetch_l2, conv.prefetch_rows}
// TZF:         } {conv.prefetch_tiles}
// TZF-LABEL: func.func @pointwise_strided
// TZF:         vector.contract {{.*}} : vector<8x6xf32>, vector<8x64xf32> into vector<6x64xf32>
// TZF-NOT:     conv.prefetch
// TZF:         return
func.func @pointwise_wide(%x: tensor<2x16x16x256xf32>, %dy: tensor<2x16x16x64xf32>) -> tensor<1x1x256x64xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = VALID strides = [1, 1] dilations = [1, 1] : tensor<2x16x16x256xf32>, tensor<2x16x16x64xf32> -> tensor<1x1x256x64xf32>
  return %dw : tensor<1x1x256x64xf32>
}
func.func @pointwise_strided(%x: tensor<2x32x32x64xf32>, %dy: tensor<2x16x16x64xf32>) -> tensor<1x1x64x64xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = VALID strides = [2, 2] dilations = [1, 1] : tensor<2x32x32x64xf32>, tensor<2x16x16x64xf32> -> tensor<1x1x64x64xf32>
  return %dw : tensor<1x1x64x64xf32>
}

// -----

// On a core with two 512-bit FMA units, a 1x1 layer with several tiles of
// columns (256 output channels: 4 tiles of 4 vectors) and a whole dW of at
// most an eighth of the L2 (64 x 256, 64 KiB) prefetches too: the block (8
// rows of 16 positions, 128) is swept by 11 x 4 register tiles, the loop
// over the columns counts as tiles as well (conv.prefetch_tiles_inner, a
// tile index over both loops), and each block fetches the next one
// (conv.prefetch_distance = 128). ResNet's 56x56x64 -> 256: +8-10 % with 1
// thread, +6 % with 2.
// TZF-LABEL: func.func @pointwise_expand(
// TZF:         scf.for %{{.*}} = %c0 to %c16 step %c8
// TZF:           scf.for %{{.*}} = %c0 to %c60 step %c6
// TZF:             scf.for %{{.*}} = %c0 to %c256 step %c64
// TZF:               scf.for %{{.*}} = %c0 to %c8 step %c1
// TZF:                 scf.for %{{.*}} = %c0 to %c16 step %c8
// TZF:                   vector.contract {{.*}} : vector<8x6xf32>, vector<8x64xf32> into vector<6x64xf32>
// TZF:                 } {conv.prefetch_distance = 128 : i64, conv.prefetch_l2, conv.prefetch_rows}
// TZF:             } {conv.prefetch_tiles_inner}
// TZF:           } {conv.prefetch_tiles}
// TZF:         return
// A larger whole dW (512 x 256, 512 KiB): the next block would evict the
// dW tiles and the block the other tiles re-read (ResNet's 14x14x1024 ->
// 256 ran 4-7 % slower with the prefetch): no mark.
// TZF-LABEL: func.func @pointwise_expand_large(
// TZF:         vector.contract {{.*}} : vector<8x6xf32>, vector<8x64xf32> into vector<6x64xf32>
// TZF-NOT:     conv.prefetch
// TZF:         return
func.func @pointwise_expand(%x: tensor<2x16x16x64xf32>, %dy: tensor<2x16x16x256xf32>) -> tensor<1x1x64x256xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = VALID strides = [1, 1] dilations = [1, 1] : tensor<2x16x16x64xf32>, tensor<2x16x16x256xf32> -> tensor<1x1x64x256xf32>
  return %dw : tensor<1x1x64x256xf32>
}
func.func @pointwise_expand_large(%x: tensor<2x16x16x512xf32>, %dy: tensor<2x16x16x256xf32>) -> tensor<1x1x512x256xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = VALID strides = [1, 1] dilations = [1, 1] : tensor<2x16x16x512xf32>, tensor<2x16x16x256xf32> -> tensor<1x1x512x256xf32>
  return %dw : tensor<1x1x512x256xf32>
}

// -----

// A 1x1 filter gradient whose 2048 x 256 dW is channel-blocked (over half
// the L2): its blocks of rows are re-read from the L2 by every channel
// block, no mark.
// CHECK-LABEL: func.func @pointwise_blocked
// CHECK:         scf.for %{{.*}} = %c0 to %c2048 step %c256
// CHECK:           vector.contract
// CHECK-NOT:     conv.prefetch_rows
// CHECK:         return
func.func @pointwise_blocked(%x: tensor<2x7x7x2048xf32>, %dy: tensor<2x7x7x256xf32>) -> tensor<1x1x2048x256xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = VALID strides = [1, 1] dilations = [1, 1] : tensor<2x7x7x2048xf32>, tensor<2x7x7x256xf32> -> tensor<1x1x2048x256xf32>
  return %dw : tensor<1x1x2048x256xf32>
}

// -----

// A 1-D filter of 2 taps (WaveNet-like): marked as well, inside the taps'
// scf.forall, over the 64-position sub-blocks of a tap, with AVX-512 or
// without. On a core with two 512-bit FMA units (TZF) its 2-vector tiles
// take 12 rows (24 accumulators: 12 + 12 + 8 of the 32 input channels)
// instead of 8, and the next 64-position block goes to the L2 only, spread
// over the 2 tiles of 12 rows (conv.prefetch_tiles; the remainder tile of 8
// rows, outside that loop, prefetches nothing). (The marks' lowering to
// prefetches is tested in lower-vectors-prefetch.mlir; the host pipeline's,
// LLVM lines, depends on the host's core here.)
// CHECK-LABEL: func.func @one_d
// CHECK:         scf.forall (%{{.*}}) in (2)
// CHECK:           scf.for %{{.*}} = %c0 to %c64 step %c8
// CHECK:             vector.contract {{.*}} : vector<8x8xf32>, vector<8x32xf32> into vector<8x32xf32>
// CHECK:           } {conv.prefetch_rows}
// AVX2-LABEL: func.func @one_d
// AVX2:             vector.contract {{.*}} : vector<8x6xf32>, vector<8x16xf32> into vector<6x16xf32>
// AVX2:           } {conv.prefetch_rows}
// TZF-LABEL: func.func @one_d
// TZF:           scf.for %{{.*}} = %c0 to %c24 step %c12
// TZF:             scf.for %{{.*}} = %c0 to %c64 step %c8
// TZF:               vector.contract {{.*}} : vector<8x12xf32>, vector<8x32xf32> into vector<12x32xf32>
// TZF:             } {conv.prefetch_distance = 64 : i64, conv.prefetch_l2, conv.prefetch_rows}
// TZF-NEXT:        tensor.insert_slice
// TZF-NEXT:        scf.yield
// TZF-NEXT:      } {conv.prefetch_tiles}
// TZF:           vector.contract {{.*}} : vector<8x8xf32>, vector<8x32xf32> into vector<8x32xf32>
// TZF:         return
func.func @one_d(%x: tensor<1x4097x32xf32>, %dy: tensor<1x4096x32xf32>) -> tensor<2x32x32xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NWC padding = VALID strides = [1] dilations = [1] : tensor<1x4097x32xf32>, tensor<1x4096x32xf32> -> tensor<2x32x32xf32>
  return %dw : tensor<2x32x32xf32>
}

// -----

// One input channel and 16 output channels (one or two register tiles of
// columns): the streaming contraction is marked with AVX-512 or without,
// and the lowered code prefetches on any host.
// CHECK-LABEL: func.func @stream_narrow
// CHECK:           vector.contract {{.*}} : vector<9x4xf32>, vector<4x16xf32> into vector<9x16xf32>
// CHECK:         } {conv.prefetch_rhs}
// AVX2-LABEL: func.func @stream_narrow
// AVX2:           vector.contract {{.*}} : vector<6x4xf32>, vector<4x16xf32> into vector<6x16xf32>
// AVX2:         } {conv.prefetch_rhs}
// AVX2:           vector.contract {{.*}} : vector<3x4xf32>, vector<4x16xf32> into vector<3x16xf32>
// AVX2:         } {conv.prefetch_rhs}
// All 9 rows are one tile, which reads each prefetched line once: into
// every level, also on a core with two 512-bit FMA units.
// TZF-LABEL: func.func @stream_narrow
// TZF:           vector.contract {{.*}} : vector<9x4xf32>, vector<4x16xf32> into vector<9x16xf32>
// TZF-NOT:       conv.prefetch_l2
// TZF:         } {conv.prefetch_rhs}
// TZF-NOT:       conv.prefetch_l2
// TZF-NOT:       conv.prefetch_tiles
// TZF:         return
// LLVM-LABEL: llvm.func @stream_narrow
// LLVM:        llvm.intr.prefetch
// LLVM:        llvm.return
func.func @stream_narrow(%x: tensor<2x18x34x1xf32>, %dy: tensor<2x16x32x16xf32>) -> tensor<3x3x1x16xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = VALID strides = [1, 1] dilations = [1, 1] : tensor<2x18x34x1xf32>, tensor<2x16x32x16xf32> -> tensor<3x3x1x16xf32>
  return %dw : tensor<3x3x1x16xf32>
}

// -----

// A 3x3 filter of 64 channels: its 9 taps re-read each block from the L2,
// no mark.
// CHECK-LABEL: func.func @three_by_three
// CHECK:         scf.forall (%{{.*}}, %{{.*}}) in (3, 3)
// CHECK-NOT:     conv.prefetch_rows
// CHECK:         return
func.func @three_by_three(%x: tensor<2x16x16x64xf32>, %dy: tensor<2x14x14x64xf32>) -> tensor<3x3x64x64xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = VALID strides = [1, 1] dilations = [1, 1] : tensor<2x16x16x64xf32>, tensor<2x14x14x64xf32> -> tensor<3x3x64x64xf32>
  return %dw : tensor<3x3x64x64xf32>
}

// -----

// A 5x20 stride-2 filter of one input channel (DeepSpeech-like): its 20
// rows are the last kernel dimension's taps, read from a row-gather pack.
// On a core with two 512-bit FMA units (TZF) they keep the 2 x 10 rows of
// the row-pack tiles: the 12-row rule would make them 12 + 8 (18-23 %
// slower on Emerald Rapids). Its 21-position rows are reduced in 3 chunks
// of 7 positions.
// TZF-LABEL: func.func @fused_rows
// TZF:         scf.for %{{.*}} = %c0 to %c20 step %c10
// TZF:           scf.for %{{.*}} = %c0 to %c21 step %c7
// TZF:           vector.contract {{.*}} : vector<7x10xf32>, vector<7x32xf32> into vector<10x32xf32>
// TZF-NOT:     vector<12x32xf32>
// TZF:         return
func.func @fused_rows(%x: tensor<2x21x60x1xf32>, %dy: tensor<2x9x21x32xf32>) -> tensor<5x20x1x32xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = VALID strides = [2, 2] dilations = [1, 1] : tensor<2x21x60x1xf32>, tensor<2x9x21x32xf32> -> tensor<5x20x1x32xf32>
  return %dw : tensor<5x20x1x32xf32>
}

// -----

// A 1x1 filter gradient over one row of positions (a 1-D single
// contraction, as a Winograd filter gradient's products are): on a core
// with two 512-bit FMA units its tiles prefetch the next block into the L2
// (TZF), except when it is marked conv.dw_winograd (the products, whose
// blocks follow rules of their own).
// TZF-LABEL: func.func @one_d_products(
// TZF:           vector.contract {{.*}} : vector<8x6xf32>, vector<8x64xf32> into vector<6x64xf32>
// TZF:         } {conv.prefetch_distance = {{[0-9]+}} : i64, conv.prefetch_l2, conv.prefetch_rows}
// TZF:         return
// TZF-LABEL: func.func @winograd_products(
// TZF:           vector.contract {{.*}} : vector<8x6xf32>, vector<8x64xf32> into vector<6x64xf32>
// TZF-NOT:     conv.prefetch
// TZF:         return
#v = affine_map<(d0, d1, d2, d3) -> (d2, d3, d0)>
#u = affine_map<(d0, d1, d2, d3) -> (d2, d3, d1)>
#m = affine_map<(d0, d1, d2, d3) -> (d0, d1)>
func.func @one_d_products(%v: tensor<1x448x128xf32>, %u: tensor<1x448x128xf32>) -> tensor<128x128xf32> {
  %f0 = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<128x128xf32>
  %z = linalg.fill ins(%f0 : f32) outs(%e : tensor<128x128xf32>) -> tensor<128x128xf32>
  %r = linalg.generic {indexing_maps = [#v, #u, #m], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%v, %u : tensor<1x448x128xf32>, tensor<1x448x128xf32>) outs(%z : tensor<128x128xf32>) attrs = {conv.dw_contractions = 1 : i64, conv.role = "dw_tap"} {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %p = arith.mulf %a, %b fastmath<contract> : f32
    %s = arith.addf %c, %p fastmath<contract> : f32
    linalg.yield %s : f32
  } -> tensor<128x128xf32>
  return %r : tensor<128x128xf32>
}
func.func @winograd_products(%v: tensor<1x448x128xf32>, %u: tensor<1x448x128xf32>) -> tensor<128x128xf32> {
  %f0 = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<128x128xf32>
  %z = linalg.fill ins(%f0 : f32) outs(%e : tensor<128x128xf32>) -> tensor<128x128xf32>
  %r = linalg.generic {indexing_maps = [#v, #u, #m], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%v, %u : tensor<1x448x128xf32>, tensor<1x448x128xf32>) outs(%z : tensor<128x128xf32>) attrs = {conv.dw_contractions = 1 : i64, conv.dw_winograd, conv.role = "dw_tap"} {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %p = arith.mulf %a, %b fastmath<contract> : f32
    %s = arith.addf %c, %p fastmath<contract> : f32
    linalg.yield %s : f32
  } -> tensor<128x128xf32>
  return %r : tensor<128x128xf32>
}
