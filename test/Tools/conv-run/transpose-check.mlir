// conv.transpose through the JIT against the reference, on random inputs,
// with the stride-phase lowering and with the zero-insertion oracle.

// RUN: conv-run %s --entry nhwc_f32_same --check | FileCheck %s --check-prefix=F32
// RUN: conv-run %s --entry nhwc_f32_same --check --zero-insertion-transpose | FileCheck %s --check-prefix=F32
// RUN: conv-run %s --entry nchw_f64_output_padding --check --seed 5 | FileCheck %s --check-prefix=F64
// RUN: conv-run %s --entry nwc_bf16_dilated --check --seed 6 | FileCheck %s --check-prefix=BF16
// RUN: conv-run %s --entry ndhwc_f16_strided_dilated --check --seed 7 | FileCheck %s --check-prefix=F16
// RUN: conv-run %s --entry ndhwc_f16_strided_dilated --check --seed 7 --zero-insertion-transpose | FileCheck %s --check-prefix=F16
// Columns lowering with padded KT rows (2-D: 4 x 8 taps x 2 channels = 64
// columns, 256 bytes per row; 1-D ISTFT-like: 256 columns), 1 and 2 threads.
// RUN: conv-run %s --entry columns_padded_2d --check --seed 8 | FileCheck %s --check-prefix=F32
// Columns lowering with fewer pixels than columns, GEMM Y^T = K X^T
// (ISTFT-like 1-D, 12 frames and 256 columns; 2 items of 8 frames; X^T
// rows of 32 values, written into rows one cache line longer; 2-D with
// 64 taps), 1 and 2 threads.
// RUN: conv-run %s --entry columns_padded_1d --check --seed 9 --num-threads=2 --min-parallel-flops=0 | FileCheck %s --check-prefix=F32
// RUN: conv-run %s --entry columns_swapped_batch --check --seed 20 | FileCheck %s --check-prefix=F32
// RUN: conv-run %s --entry columns_swapped_batch --check --seed 20 --num-threads=2 --min-parallel-flops=0 | FileCheck %s --check-prefix=F32
// RUN: conv-run %s --entry columns_swapped_padded --check --seed 21 | FileCheck %s --check-prefix=F32
// RUN: conv-run %s --entry columns_swapped_2d --check --seed 22 --num-threads=2 --min-parallel-flops=0 --transpose-per-tap=columns | FileCheck %s --check-prefix=F32
// Columns lowering whose 21 (tap, co) columns (k7 x 3 channels) are not
// whole vectors: the GEMM runs over the kernel's columns padded with zeros
// to 32 (AVX-512) or 24 (AVX2) and Y is cut back (transpose-columns-lanes),
// on 2 threads the single item in row parts, each part padding its own;
// batched with SAME's crops, and a 2-D layer of 18 columns.
// RUN: conv-run %s --entry columns_padded_18 --check --seed 30 --transpose-per-tap=columns | FileCheck %s --check-prefix=F32
// RUN: conv-run %s --entry columns_padded_18 --check --seed 30 --num-threads=2 --min-parallel-flops=0 --transpose-per-tap=columns | FileCheck %s --check-prefix=F32
// RUN: conv-run %s --entry columns_padded_f64 --check --seed 31 --num-threads=2 --min-parallel-flops=0 | FileCheck %s --check-prefix=F64
// (--transpose-per-tap=columns: these 1-D and 2-D f32 layers take the dot
// lowering by default, checked below.)
// RUN: conv-run %s --entry columns_lanes_1d --check --seed 25 --transpose-per-tap=columns | FileCheck %s --check-prefix=F32
// RUN: conv-run %s --entry columns_lanes_1d --check --seed 25 --transpose-per-tap=columns --num-threads=2 --min-parallel-flops=0 | FileCheck %s --check-prefix=F32
// RUN: conv-run %s --entry columns_lanes_batch --check --seed 26 --transpose-per-tap=columns | FileCheck %s --check-prefix=F32
// The dot lowering (docs/Lowering.md §3.11) of the same layers: masknet
// in small (edge tiles at both ends, output rows past the input) on 1, 2
// and 3 threads, batched with SAME's crop (output-aligned phases), and 2
// items with output_padding.
// RUN: conv-run %s --entry columns_lanes_1d --check --seed 25 | FileCheck %s --check-prefix=F32
// RUN: conv-run %s --entry columns_lanes_1d --check --seed 25 --num-threads=2 --min-parallel-flops=0 | FileCheck %s --check-prefix=F32
// RUN: conv-run %s --entry columns_lanes_1d --check --seed 25 --num-threads=3 --min-parallel-flops=0 | FileCheck %s --check-prefix=F32
// RUN: conv-run %s --entry columns_lanes_batch --check --seed 26 --num-threads=2 --min-parallel-flops=0 | FileCheck %s --check-prefix=F32
// RUN: conv-run %s --entry columns_21 --check --seed 41 --num-threads=2 --min-parallel-flops=0 | FileCheck %s --check-prefix=F32
// DCGAN's RGB layer in small (4x4 taps x 3 channels = 48 columns: 3-vector
// register tiles with AVX-512), 1 and 2 threads.
// RUN: conv-run %s --entry columns_rgb --check --seed 27 --transpose-per-tap=columns | FileCheck %s --check-prefix=F32
// RUN: conv-run %s --entry columns_rgb --check --seed 27 --num-threads=2 --min-parallel-flops=0 --transpose-per-tap=columns | FileCheck %s --check-prefix=F32
// The dot lowering in 2-D (docs/Lowering.md §3.11) of the last three: SAME
// crops inside a phase row along both dimensions (DCGAN's RGB layer),
// kernels of 3x3 and 8x8 taps (a 2x2 input: every tile an edge tile), 1,
// 2 and 3 threads.
// RUN: conv-run %s --entry columns_rgb --check --seed 27 | FileCheck %s --check-prefix=F32
// RUN: conv-run %s --entry columns_rgb --check --seed 27 --num-threads=2 --min-parallel-flops=0 | FileCheck %s --check-prefix=F32
// RUN: conv-run %s --entry columns_padded_18 --check --seed 30 --num-threads=3 --min-parallel-flops=0 | FileCheck %s --check-prefix=F32
// RUN: conv-run %s --entry columns_swapped_2d --check --seed 22 --num-threads=2 --min-parallel-flops=0 | FileCheck %s --check-prefix=F32
// Batched columns lowering in bands of input rows (AlexNet-like, VALID, k 3
// s 2, 27 columns): with a 4400-byte L2 the bands may hold 1100 bytes of Y,
// 2 of the 6 input rows (540 bytes a row), and 1 of 7; 1 and 2 threads.
// RUN: conv-run %s --entry columns_bands --check --seed 28 --l2-cache-bytes=4400 | FileCheck %s --check-prefix=F32
// RUN: conv-run %s --entry columns_bands --check --seed 28 --l2-cache-bytes=4400 --num-threads=2 --min-parallel-flops=0 | FileCheck %s --check-prefix=F32
// RUN: conv-run %s --entry columns_bands_prime --check --seed 29 --l2-cache-bytes=4400 --num-threads=2 --min-parallel-flops=0 | FileCheck %s --check-prefix=F32
// An ISTFT-like layer with 160 frames whose 260 x 256 kernel transpose is
// split over the threads (into a 272-column buffer).
// Kernels of at least 256K elements: the taps relaid out by vectorized
// relayouts (phases, k = 3 s = 2 same, 1 and 2 threads); with one input
// position the taps are one scf.forall (each writes its own output
// position), all output positions covered (no whole-output fill) or not
// (valid with output_padding 1: the last row and column stay zero).
// RUN: conv-run %s --entry phases_relayout --check --seed 19 | FileCheck %s --check-prefix=F32
// RUN: conv-run %s --entry phases_relayout --check --seed 19 --num-threads=2 --min-parallel-flops=0 | FileCheck %s --check-prefix=F32
// A kernel equal to its stride with a large input: the input blocks
// (docs/Lowering.md §3.8), 1 and 2 threads.
// RUN: conv-run %s --entry input_blocks --check --seed 23 | FileCheck %s --check-prefix=F32
// RUN: conv-run %s --entry input_blocks --check --seed 23 --num-threads=2 | FileCheck %s --check-prefix=F32
// The phases in batch blocks (§3.9), 1 and 2 threads.
// RUN: conv-run %s --entry batch_blocks --check --seed 24 | FileCheck %s --check-prefix=F32
// RUN: conv-run %s --entry batch_blocks --check --seed 24 --num-threads=2 | FileCheck %s --check-prefix=F32
// RUN: conv-run %s --entry taps_forall_1x1 --check --seed 17 --num-threads=2 --min-parallel-flops=0 | FileCheck %s --check-prefix=F32
// RUN: conv-run %s --entry taps_forall_1x1 --check --seed 17 | FileCheck %s --check-prefix=F32
// RUN: conv-run %s --entry taps_forall_uncovered --check --seed 18 --num-threads=2 --min-parallel-flops=0 | FileCheck %s --check-prefix=F32
// RUN: conv-run %s --entry columns_threaded_kernel_transpose --check --seed 16 --num-threads=2 --min-parallel-flops=0 | FileCheck %s --check-prefix=F32
// Columns lowering with row adds: one interior input column (its loop folds
// away) and border columns (same, output_padding 0: crop 1); a 2-D
// AlexNet-like stride-4 layer (11 taps: 33-value rows) with 2 threads.
// RUN: conv-run %s --entry columns_one_interior_column --check --seed 10 --transpose-per-tap=columns | FileCheck %s --check-prefix=F64
// RUN: conv-run %s --entry columns_rows_2d --check --seed 11 --num-threads=2 --min-parallel-flops=0 | FileCheck %s --check-prefix=F32
// One batch item: the row adds in rounds of non-overlapping rows, each an
// scf.forall (2-D, 11 taps of stride 4 and 3 channels: 3 rounds of 33-value
// rows, under 3 leading taps; 'same' crops the border columns), 1 and 2
// threads. (columns_padded_1d, columns_threaded_kernel_transpose and
// columns_swapped_padded above also go in rounds.)
// RUN: conv-run %s --entry columns_rounds_2d --check --seed 23 | FileCheck %s --check-prefix=F32
// RUN: conv-run %s --entry columns_rounds_2d --check --seed 23 --num-threads=2 --min-parallel-flops=0 | FileCheck %s --check-prefix=F32
// Channels-first (relayouts around the channels-last kernel), 2 threads.
// RUN: conv-run %s --entry nchw_f64_output_padding --check --seed 5 --num-threads=2 --min-parallel-flops=0 | FileCheck %s --check-prefix=F64
// Depth-to-space lowering (k = s, input >= 1 MiB, kernel <= 128 KiB):
// 2-D with 1 and 2 threads, 3-D 'same' with 2 threads, bf16 inputs.
// RUN: conv-run %s --entry depth_to_space_2d --check --seed 12 | FileCheck %s --check-prefix=F32
// RUN: conv-run %s --entry depth_to_space_2d --check --seed 13 --num-threads=2 --min-parallel-flops=0 | FileCheck %s --check-prefix=F32
// RUN: conv-run %s --entry depth_to_space_3d --check --seed 14 --num-threads=2 --min-parallel-flops=0 | FileCheck %s --check-prefix=F32
// RUN: conv-run %s --entry depth_to_space_bf16 --check --seed 15 | FileCheck %s --check-prefix=BF16
// Phases whose register tiles start from zero in registers (the fused fill),
// over blocks of several output rows: a 3-D k = s layer (a whole 6-row plane
// per block, rows of 10 = 6 + 4 positions) and a 3x3 stride-2 layer (phases
// of 2x2 ... 1x1 taps, 9 rows per block, rows of 11 = 6 + 5 positions),
// also with 2 threads and a 64 KiB L2 assumed:
// RUN: conv-run %s --entry phases_row_blocks_3d --check --seed 20 | FileCheck %s --check-prefix=F32
// RUN: conv-run %s --entry phases_row_blocks_3d --check --seed 21 --num-threads=2 --min-parallel-flops=0 | FileCheck %s --check-prefix=F32
// RUN: conv-run %s --entry phases_row_blocks_taps --check --seed 22 | FileCheck %s --check-prefix=F32
// RUN: conv-run %s --entry phases_row_blocks_taps --check --seed 23 --l2-cache-bytes=65536 --num-threads=2 --min-parallel-flops=0 | FileCheck %s --check-prefix=F32

// Column tiles narrower than a register tile but wider than one vector
// (21 = 7 taps x 3 output channels of the columns GEMM, and 21 output
// channels of a per-phase contraction): a 16-column tile and a peeled
// 5-column one on AVX-512, 16 + 5 on AVX2.
// RUN: conv-run %s --entry columns_21 --check --seed 40 --transpose-per-tap=columns | FileCheck %s --check-prefix=F32
// RUN: conv-run %s --entry phases_cout_21 --check --seed 41 --num-threads=2 --min-parallel-flops=0 | FileCheck %s --check-prefix=F32
// 85 = 2 x 32 + 21 output channels: the 21-column remainder tile is split
// into 16 + 5 columns (AVX-512; 80 + 5 on AVX2).
// RUN: conv-run %s --entry phases_cout_85 --check --seed 42 | FileCheck %s --check-prefix=F32
// The per-tap lowering: DCGAN's 4x4 stride-2 'same' geometry, whose taps 1
// and 2 cover the output (that box goes first and its register tiles start
// from zero; no fill of the output), and a stride-3 2x2 layer whose output
// rows 2, 5 and 8 get no tap (the output keeps its zero fill); 1 and 2
// threads.
// RUN: conv-run %s --entry taps_covering --check --seed 25 --transpose-per-tap=always | FileCheck %s --check-prefix=F32
// RUN: conv-run %s --entry taps_covering --check --seed 26 --transpose-per-tap=always --num-threads=2 --min-parallel-flops=0 | FileCheck %s --check-prefix=F32
// RUN: conv-run %s --entry taps_uncovered --check --seed 27 --transpose-per-tap=always | FileCheck %s --check-prefix=F32
// RUN: conv-run %s --entry taps_uncovered --check --seed 28 --transpose-per-tap=always --num-threads=2 --min-parallel-flops=0 | FileCheck %s --check-prefix=F32
// Keras' 3x3 stride-2 SAME layer with a 73K-element kernel (3x3x64x128):
// 4 phases of 4, 2, 2 and 1 taps, each relaying its taps out with
// vectorized transposes (relayoutPhaseTaps), with 1 and 2 threads.
// RUN: conv-run %s --entry relayout_phases --check --seed 31 | FileCheck %s --check-prefix=F32
// RUN: conv-run %s --entry relayout_phases --check --seed 31 --num-threads=2 --min-parallel-flops=0 | FileCheck %s --check-prefix=F32

// F32: check: max abs error {{.*}} (f32): PASS
// F64: check: max abs error {{.*}} (f64): PASS
// BF16: check: max abs error {{.*}} (bf16): PASS
// F16: check: max abs error {{.*}} (f16): PASS

func.func @nhwc_f32_same(%x: tensor<1x4x4x16xf32>, %k: tensor<4x4x8x16xf32>) -> tensor<1x8x8x8xf32> {
  %y = conv.transpose %x, %k data_format = channels_last padding = same
         strides = [2, 2] dilation_rate = [1, 1]
         : tensor<1x4x4x16xf32>, tensor<4x4x8x16xf32> -> tensor<1x8x8x8xf32>
  return %y : tensor<1x8x8x8xf32>
}

func.func @nchw_f64_output_padding(%x: tensor<2x3x5x4xf64>, %k: tensor<3x3x5x3xf64>) -> tensor<2x5x12x14xf64> {
  %y = conv.transpose %x, %k data_format = channels_first padding = valid
         strides = [2, 3] dilation_rate = [1, 1] output_padding = [1, 2]
         : tensor<2x3x5x4xf64>, tensor<3x3x5x3xf64> -> tensor<2x5x12x14xf64>
  return %y : tensor<2x5x12x14xf64>
}

func.func @nwc_bf16_dilated(%x: tensor<2x7x3xbf16>, %k: tensor<3x4x3xbf16>) -> tensor<2x11x4xbf16> {
  %y = conv.transpose %x, %k data_format = channels_last padding = valid
         strides = [1] dilation_rate = [2]
         : tensor<2x7x3xbf16>, tensor<3x4x3xbf16> -> tensor<2x11x4xbf16>
  return %y : tensor<2x11x4xbf16>
}

// Stride and dilation together (JAX semantics), output_padding with a zero.
func.func @ndhwc_f16_strided_dilated(%x: tensor<1x3x4x3x2xf16>, %k: tensor<2x3x2x3x2xf16>) -> tensor<1x5x8x3x3xf16> {
  %y = conv.transpose %x, %k data_format = channels_last padding = same
         strides = [2, 2, 1] dilation_rate = [2, 1, 2] output_padding = [0, 1, 0]
         : tensor<1x3x4x3x2xf16>, tensor<2x3x2x3x2xf16> -> tensor<1x5x8x3x3xf16>
  return %y : tensor<1x5x8x3x3xf16>
}

func.func @columns_padded_2d(%x: tensor<2x5x6x8xf32>, %k: tensor<4x8x2x8xf32>) -> tensor<2x12x23x2xf32> {
  %y = conv.transpose %x, %k data_format = channels_last padding = valid
         strides = [2, 3] dilation_rate = [1, 1]
         : tensor<2x5x6x8xf32>, tensor<4x8x2x8xf32> -> tensor<2x12x23x2xf32>
  return %y : tensor<2x12x23x2xf32>
}

func.func @taps_forall_1x1(%x: tensor<4x1x1x256xf32>, %k: tensor<3x3x128x256xf32>) -> tensor<4x3x3x128xf32> {
  %y = conv.transpose %x, %k data_format = channels_last padding = valid
         strides = [1, 1] dilation_rate = [1, 1]
         : tensor<4x1x1x256xf32>, tensor<3x3x128x256xf32> -> tensor<4x3x3x128xf32>
  return %y : tensor<4x3x3x128xf32>
}

func.func @taps_forall_uncovered(%x: tensor<2x1x1x256xf32>, %k: tensor<2x2x256x256xf32>) -> tensor<2x3x3x256xf32> {
  %y = conv.transpose %x, %k data_format = channels_last padding = valid
         strides = [2, 2] dilation_rate = [1, 1] output_padding = [1, 1]
         : tensor<2x1x1x256xf32>, tensor<2x2x256x256xf32> -> tensor<2x3x3x256xf32>
  return %y : tensor<2x3x3x256xf32>
}

func.func @phases_relayout(%x: tensor<1x4x4x160xf32>, %k: tensor<3x3x192x160xf32>) -> tensor<1x8x8x192xf32> {
  %y = conv.transpose %x, %k data_format = channels_last padding = same
         strides = [2, 2] dilation_rate = [1, 1]
         : tensor<1x4x4x160xf32>, tensor<3x3x192x160xf32> -> tensor<1x8x8x192xf32>
  return %y : tensor<1x8x8x192xf32>
}

func.func @columns_threaded_kernel_transpose(%x: tensor<1x160x260xf32>, %k: tensor<256x1x260xf32>) -> tensor<1x10432x1xf32> {
  %y = conv.transpose %x, %k data_format = channels_last padding = valid
         strides = [64] dilation_rate = [1]
         : tensor<1x160x260xf32>, tensor<256x1x260xf32> -> tensor<1x10432x1xf32>
  return %y : tensor<1x10432x1xf32>
}

func.func @columns_lanes_1d(%x: tensor<1x64x16xf32>, %k: tensor<7x3x16xf32>) -> tensor<1x134x3xf32> {
  %y = conv.transpose %x, %k data_format = channels_last padding = valid
         strides = [2] dilation_rate = [1] output_padding = [1]
         : tensor<1x64x16xf32>, tensor<7x3x16xf32> -> tensor<1x134x3xf32>
  return %y : tensor<1x134x3xf32>
}

func.func @columns_padded_18(%x: tensor<2x9x7x32xf32>, %k: tensor<3x3x2x32xf32>) -> tensor<2x19x15x2xf32> {
  %y = conv.transpose %x, %k data_format = channels_last padding = valid
         strides = [2, 2] dilation_rate = [1, 1]
         : tensor<2x9x7x32xf32>, tensor<3x3x2x32xf32> -> tensor<2x19x15x2xf32>
  return %y : tensor<2x19x15x2xf32>
}

func.func @columns_padded_f64(%x: tensor<1x64x16xf64>, %k: tensor<7x3x16xf64>) -> tensor<1x134x3xf64> {
  %y = conv.transpose %x, %k data_format = channels_last padding = valid
         strides = [2] dilation_rate = [1] output_padding = [1]
         : tensor<1x64x16xf64>, tensor<7x3x16xf64> -> tensor<1x134x3xf64>
  return %y : tensor<1x134x3xf64>
}

func.func @columns_lanes_batch(%x: tensor<2x48x32xf32>, %k: tensor<7x3x32xf32>) -> tensor<2x96x3xf32> {
  %y = conv.transpose %x, %k data_format = channels_last padding = same
         strides = [2] dilation_rate = [1]
         : tensor<2x48x32xf32>, tensor<7x3x32xf32> -> tensor<2x96x3xf32>
  return %y : tensor<2x96x3xf32>
}

func.func @columns_bands(%x: tensor<2x6x5x8xf32>, %k: tensor<3x3x3x8xf32>) -> tensor<2x13x11x3xf32> {
  %y = conv.transpose %x, %k data_format = channels_last padding = valid
         strides = [2, 2] dilation_rate = [1, 1]
         : tensor<2x6x5x8xf32>, tensor<3x3x3x8xf32> -> tensor<2x13x11x3xf32>
  return %y : tensor<2x13x11x3xf32>
}

func.func @columns_bands_prime(%x: tensor<3x7x5x8xf32>, %k: tensor<5x3x3x8xf32>) -> tensor<3x17x11x3xf32> {
  %y = conv.transpose %x, %k data_format = channels_last padding = valid
         strides = [2, 2] dilation_rate = [1, 1] output_padding = [0, 0]
         : tensor<3x7x5x8xf32>, tensor<5x3x3x8xf32> -> tensor<3x17x11x3xf32>
  return %y : tensor<3x17x11x3xf32>
}

func.func @columns_rgb(%x: tensor<2x8x8x32xf32>, %k: tensor<4x4x3x32xf32>) -> tensor<2x16x16x3xf32> {
  %y = conv.transpose %x, %k data_format = channels_last padding = same
         strides = [2, 2] dilation_rate = [1, 1]
         : tensor<2x8x8x32xf32>, tensor<4x4x3x32xf32> -> tensor<2x16x16x3xf32>
  return %y : tensor<2x16x16x3xf32>
}

func.func @columns_swapped_batch(%x: tensor<2x8x64xf32>, %k: tensor<128x1x64xf32>) -> tensor<2x352x1xf32> {
  %y = conv.transpose %x, %k data_format = channels_last padding = valid
         strides = [32] dilation_rate = [1]
         : tensor<2x8x64xf32>, tensor<128x1x64xf32> -> tensor<2x352x1xf32>
  return %y : tensor<2x352x1xf32>
}

func.func @columns_swapped_padded(%x: tensor<1x32x48xf32>, %k: tensor<512x1x48xf32>) -> tensor<1x4480x1xf32> {
  %y = conv.transpose %x, %k data_format = channels_last padding = same
         strides = [140] dilation_rate = [1]
         : tensor<1x32x48xf32>, tensor<512x1x48xf32> -> tensor<1x4480x1xf32>
  return %y : tensor<1x4480x1xf32>
}

func.func @columns_swapped_2d(%x: tensor<1x2x2x16xf32>, %k: tensor<8x8x1x16xf32>) -> tensor<1x12x12x1xf32> {
  %y = conv.transpose %x, %k data_format = channels_last padding = valid
         strides = [4, 4] dilation_rate = [1, 1]
         : tensor<1x2x2x16xf32>, tensor<8x8x1x16xf32> -> tensor<1x12x12x1xf32>
  return %y : tensor<1x12x12x1xf32>
}

func.func @columns_padded_1d(%x: tensor<1x12x20xf32>, %k: tensor<256x1x20xf32>) -> tensor<1x960x1xf32> {
  %y = conv.transpose %x, %k data_format = channels_last padding = valid
         strides = [64] dilation_rate = [1]
         : tensor<1x12x20xf32>, tensor<256x1x20xf32> -> tensor<1x960x1xf32>
  return %y : tensor<1x960x1xf32>
}

func.func @columns_one_interior_column(%x: tensor<2x6x3x4xf64>, %k: tensor<4x3x1x4xf64>) -> tensor<2x5x5x1xf64> {
  %y = conv.transpose %x, %k data_format = channels_last padding = same
         strides = [1, 2] dilation_rate = [1, 1] output_padding = [0, 0]
         : tensor<2x6x3x4xf64>, tensor<4x3x1x4xf64> -> tensor<2x5x5x1xf64>
  return %y : tensor<2x5x5x1xf64>
}

func.func @columns_rows_2d(%x: tensor<2x6x7x16xf32>, %k: tensor<11x11x3x16xf32>) -> tensor<2x31x35x3xf32> {
  %y = conv.transpose %x, %k data_format = channels_last padding = valid
         strides = [4, 4] dilation_rate = [1, 1]
         : tensor<2x6x7x16xf32>, tensor<11x11x3x16xf32> -> tensor<2x31x35x3xf32>
  return %y : tensor<2x31x35x3xf32>
}

func.func @depth_to_space_2d(%x: tensor<2x40x64x64xf32>, %k: tensor<2x2x24x64xf32>) -> tensor<2x80x128x24xf32> {
  %y = conv.transpose %x, %k data_format = channels_last padding = valid strides = [2, 2] dilation_rate = [1, 1] : tensor<2x40x64x64xf32>, tensor<2x2x24x64xf32> -> tensor<2x80x128x24xf32>
  return %y : tensor<2x80x128x24xf32>
}

func.func @depth_to_space_3d(%x: tensor<1x8x16x33x64xf32>, %k: tensor<2x2x2x16x64xf32>) -> tensor<1x16x32x66x16xf32> {
  %y = conv.transpose %x, %k data_format = channels_last padding = same strides = [2, 2, 2] dilation_rate = [1, 1, 1] : tensor<1x8x16x33x64xf32>, tensor<2x2x2x16x64xf32> -> tensor<1x16x32x66x16xf32>
  return %y : tensor<1x16x32x66x16xf32>
}

func.func @depth_to_space_bf16(%x: tensor<1x64x128x64xbf16>, %k: tensor<2x2x16x64xbf16>) -> tensor<1x128x256x16xbf16> {
  %y = conv.transpose %x, %k data_format = channels_last padding = valid strides = [2, 2] dilation_rate = [1, 1] : tensor<1x64x128x64xbf16>, tensor<2x2x16x64xbf16> -> tensor<1x128x256x16xbf16>
  return %y : tensor<1x128x256x16xbf16>
}

func.func @phases_row_blocks_3d(%x: tensor<1x4x6x10x96xf32>, %k: tensor<2x2x2x64x96xf32>) -> tensor<1x8x12x20x64xf32> {
  %y = conv.transpose %x, %k data_format = channels_last padding = valid strides = [2, 2, 2] dilation_rate = [1, 1, 1] : tensor<1x4x6x10x96xf32>, tensor<2x2x2x64x96xf32> -> tensor<1x8x12x20x64xf32>
  return %y : tensor<1x8x12x20x64xf32>
}

func.func @phases_row_blocks_taps(%x: tensor<2x9x11x40xf32>, %k: tensor<3x3x32x40xf32>) -> tensor<2x18x22x32xf32> {
  %y = conv.transpose %x, %k data_format = channels_last padding = same strides = [2, 2] dilation_rate = [1, 1] : tensor<2x9x11x40xf32>, tensor<3x3x32x40xf32> -> tensor<2x18x22x32xf32>
  return %y : tensor<2x18x22x32xf32>
}

func.func @columns_rounds_2d(%x: tensor<1x3x20x8xf32>, %k: tensor<3x11x3x8xf32>) -> tensor<1x6x80x3xf32> {
  %y = conv.transpose %x, %k data_format = channels_last padding = same
         strides = [2, 4] dilation_rate = [1, 1]
         : tensor<1x3x20x8xf32>, tensor<3x11x3x8xf32> -> tensor<1x6x80x3xf32>
  return %y : tensor<1x6x80x3xf32>
}

func.func @columns_21(%x: tensor<2x64x16xf32>, %k: tensor<7x3x16xf32>) -> tensor<2x134x3xf32> {
  %y = conv.transpose %x, %k data_format = channels_last padding = valid
         strides = [2] dilation_rate = [1] output_padding = [1]
         : tensor<2x64x16xf32>, tensor<7x3x16xf32> -> tensor<2x134x3xf32>
  return %y : tensor<2x134x3xf32>
}

func.func @phases_cout_21(%x: tensor<2x9x11x24xf32>, %k: tensor<3x3x21x24xf32>) -> tensor<2x18x22x21xf32> {
  %y = conv.transpose %x, %k data_format = channels_last padding = same
         strides = [2, 2] dilation_rate = [1, 1]
         : tensor<2x9x11x24xf32>, tensor<3x3x21x24xf32> -> tensor<2x18x22x21xf32>
  return %y : tensor<2x18x22x21xf32>
}

func.func @phases_cout_85(%x: tensor<2x7x9x16xf32>, %k: tensor<3x3x85x16xf32>) -> tensor<2x14x18x85xf32> {
  %y = conv.transpose %x, %k data_format = channels_last padding = same
         strides = [2, 2] dilation_rate = [1, 1]
         : tensor<2x7x9x16xf32>, tensor<3x3x85x16xf32> -> tensor<2x14x18x85xf32>
  return %y : tensor<2x14x18x85xf32>
}

// A kernel equal to its stride, too large for depth-to-space, with 2 MiB of
// input: the input-block lowering (an scf.forall over its 8 depth rows,
// every tap on one row before the next), 1 and 2 threads.
func.func @input_blocks(%x: tensor<1x8x16x16x256xf32>, %k: tensor<2x2x2x128x256xf32>) -> tensor<1x16x32x32x128xf32> {
  %y = conv.transpose %x, %k data_format = channels_last padding = valid
         strides = [2, 2, 2] dilation_rate = [1, 1, 1]
         : tensor<1x8x16x16x256xf32>, tensor<2x2x2x128x256xf32> -> tensor<1x16x32x32x128xf32>
  return %y : tensor<1x16x32x32x128xf32>
}

// A 4x4 stride-2 'same' layer with 1 MiB of input in 16 items of 64 KiB
// and a kernel of 512K elements: the batch blocks (8 blocks of 2 items,
// every phase on a block before the next), 1 and 2 threads.
func.func @batch_blocks(%x: tensor<16x8x8x256xf32>, %k: tensor<4x4x128x256xf32>) -> tensor<16x16x16x128xf32> {
  %y = conv.transpose %x, %k data_format = channels_last padding = same
         strides = [2, 2] dilation_rate = [1, 1]
         : tensor<16x8x8x256xf32>, tensor<4x4x128x256xf32> -> tensor<16x16x16x128xf32>
  return %y : tensor<16x16x16x128xf32>
}

// Per-tap lowerings (run with --transpose-per-tap=always): taps 1 and 2 of
// each dimension cover the 8x8 output; stride 3 with 2 taps leaves every
// third output row without a tap.
func.func @taps_covering(%x: tensor<8x4x4x64xf32>, %k: tensor<4x4x64x64xf32>) -> tensor<8x8x8x64xf32> {
  %y = conv.transpose %x, %k data_format = channels_last padding = same
         strides = [2, 2] dilation_rate = [1, 1]
         : tensor<8x4x4x64xf32>, tensor<4x4x64x64xf32> -> tensor<8x8x8x64xf32>
  return %y : tensor<8x8x8x64xf32>
}

func.func @taps_uncovered(%x: tensor<2x3x3x32xf32>, %k: tensor<2x2x48x32xf32>) -> tensor<2x9x9x48xf32> {
  %y = conv.transpose %x, %k data_format = channels_last padding = valid
         strides = [3, 3] dilation_rate = [1, 1]
         : tensor<2x3x3x32xf32>, tensor<2x2x48x32xf32> -> tensor<2x9x9x48xf32>
  return %y : tensor<2x9x9x48xf32>
}

func.func @relayout_phases(%x: tensor<2x7x7x128xf32>, %k: tensor<3x3x64x128xf32>) -> tensor<2x14x14x64xf32> {
  %y = conv.transpose %x, %k data_format = channels_last padding = same strides = [2, 2] dilation_rate = [1, 1] : tensor<2x7x7x128xf32>, tensor<3x3x64x128xf32> -> tensor<2x14x14x64xf32>
  return %y : tensor<2x14x14x64xf32>
}
