// conv.backprop_filter through the JIT against the reference, on random
// inputs: both layouts, 1-D to 3-D, groups, every padding, every dtype.

// RUN: conv-run %s --entry nhwc_f32 --check --seed 1 | FileCheck %s --check-prefix=F32
// The plain loops' forall over the 3 x 3 taps on 4 threads: 9 iterations
// split 3 + 2 + 2 + 2 by thread number (conv-omp-thread-loops).
// RUN: conv-run %s --entry nhwc_f32 --check --seed 21 --no-optimize --num-threads=4 --min-parallel-flops=0 | FileCheck %s --check-prefix=F32
// RUN: conv-run %s --entry nchw_f64_dilated --check --seed 2 | FileCheck %s --check-prefix=F64
// RUN: conv-run %s --entry nwc_bf16_groups_explicit --check --seed 3 | FileCheck %s --check-prefix=BF16
// RUN: conv-run %s --entry ncdhw_f16_groups_same --check --seed 4 | FileCheck %s --check-prefix=F16
// bf16 vectors of 9 and 17 elements (rows of a channels-first layout):
// LLVM 22 aborts on such vectors when AVX512-BF16 is on, so the JIT leaves
// that feature off (Jit.cpp, createHostTargetMachine).
// RUN: conv-run %s --entry nchw_bf16_rows_9 --check --seed 15 | FileCheck %s --check-prefix=BF16
// RUN: conv-run %s --entry nhwc_bf16_cols_17 --check --seed 16 | FileCheck %s --check-prefix=BF16
// 53 output channels: a 21-column remainder register tile, split into
// 16 + 5 columns with 16-lane vectors (conv-cpu-tile-and-vectorize).
// RUN: conv-run %s --entry nhwc_f32_cout_53 --check --seed 17 --num-threads=2 --min-parallel-flops=0 | FileCheck %s --check-prefix=F32
// Channel-blocked filter gradients whose operands get a conflict-free row
// pitch (conv-cpu-tile-and-vectorize, repitchInput): an added copy of a
// 1x1 layer's input (1 KiB rows), a gathering copy of a stride-2 1x1
// layer's input, a widened zero-padding copy of a 3x3
// layer's input plus one copy of its out_backprop for the nine taps, with
// 1 and 2 threads.
// RUN: conv-run %s --entry nhwc_f32_repitch_1x1 --check --seed 5 --l1-cache-bytes=32768 --l2-cache-bytes=524288 | FileCheck %s --check-prefix=F32
// RUN: conv-run %s --entry nhwc_f32_repitch_1x1 --check --seed 7 --l1-cache-bytes=32768 --l2-cache-bytes=524288 --num-threads=2 --min-parallel-flops=0 | FileCheck %s --check-prefix=F32
// RUN: conv-run %s --entry nhwc_f32_repitch_strided --check --seed 8 --l1-cache-bytes=32768 --l2-cache-bytes=524288 --num-threads=2 --min-parallel-flops=0 | FileCheck %s --check-prefix=F32
// RUN: conv-run %s --entry nhwc_f32_repitch_3x3 --check --seed 6 --l1-cache-bytes=32768 --l2-cache-bytes=524288 --num-threads=2 --min-parallel-flops=0 | FileCheck %s --check-prefix=F32
// Row panels (conv-cpu-tile-and-vectorize, packRowPanels; AVX-512 hosts):
// a stride-2 1x1 layer with 2 KiB input rows (520 channels: 86 ci tiles of
// 6 packed, a remainder of 4 read in place) and 200 output channels (3 co
// tiles of 64 and a remainder), with 1 and 2 threads; a 3x3 SAME layer
// whose taps' panels cover their cut (dynamic) row ranges.
// RUN: conv-run %s --entry nhwc_f32_row_panels --check --seed 31 | FileCheck %s --check-prefix=F32
// RUN: conv-run %s --entry nhwc_f32_row_panels --check --seed 32 --num-threads=2 --min-parallel-flops=0 | FileCheck %s --check-prefix=F32
// RUN: conv-run %s --entry nhwc_f32_row_panels_3x3 --check --seed 33 | FileCheck %s --check-prefix=F32
// RUN: conv-run %s --entry nhwc_f32_row_panels_3x3 --check --seed 34 --num-threads=2 --min-parallel-flops=0 | FileCheck %s --check-prefix=F32
// Tiny-Cin filter gradients (kernel dimensions fused with ci, the pack a
// row gather of k*Cin-long input runs where the last dilation is 1): the
// 7x7 stem with SAME padding, with 1 and 2 threads (7 leading taps: 2 and
// 4 output-channel parts of each with 2 and 4 threads, the 2-thread result
// bit-identical to the sequential one) and with small-filter row blocks (a
// 32 KiB L2); a 3-D layer with two fused dimensions; all taps fused with a
// dilated first dimension; a dilated last dimension (no runs).
// RUN: conv-run %s --entry nhwc_f32_stem --check --seed 9 | FileCheck %s --check-prefix=F32
// RUN: conv-run %s --entry nhwc_f32_stem --check --seed 10 --num-threads=2 --min-parallel-flops=0 | FileCheck %s --check-prefix=F32
// RUN: conv-run %s --entry nhwc_f32_stem --check --seed 10 --num-threads=4 --min-parallel-flops=0 | FileCheck %s --check-prefix=F32
// RUN: conv-run %s --entry nhwc_f32_stem --check --seed 11 --l2-cache-bytes=32768 --num-threads=2 --min-parallel-flops=0 | FileCheck %s --check-prefix=F32
// RUN: conv-run %s --entry nhwc_f32_stem --seed 20 --num-threads=1 --output %t.stem.seq.npy
// RUN: conv-run %s --entry nhwc_f32_stem --seed 20 --num-threads=2 --min-parallel-flops=0 --output %t.stem.par.npy
// RUN: cmp %t.stem.seq.npy %t.stem.par.npy
// RUN: conv-run %s --entry ndhwc_f32_tiny --check --seed 12 --num-threads=2 --min-parallel-flops=0 | FileCheck %s --check-prefix=F32
// RUN: conv-run %s --entry nhwc_f32_tiny_dilated_rows --check --seed 13 | FileCheck %s --check-prefix=F32
// RUN: conv-run %s --entry nhwc_f32_tiny_dilated_cols --check --seed 14 | FileCheck %s --check-prefix=F32
// Runs of 11 x 4 = 44 values: copied in 16-value chunks and a peeled 12.
// RUN: conv-run %s --entry nhwc_f32_tiny_long_runs --check --seed 16 | FileCheck %s --check-prefix=F32
// A padded input of 320 KiB (SAME) with 2 threads: its copy into the padded
// buffer is split over the threads, one contiguous row per image row
// (conv-cpu-expand-strided-copies).
// RUN: conv-run %s --entry nhwc_f32_padded_copy_threads --check --seed 15 --num-threads=2 --min-parallel-flops=0 | FileCheck %s --check-prefix=F32

// 9 taps on 2 and 4 threads: each tap's 96 / 128 output channels split into
// 2 / 4 parts (column parts, docs/Lowering.md §2.4). Every dW element is
// still summed by one iteration in the same order, so the result is
// bit-identical to the sequential kernel's.
// RUN: conv-run %s --entry nhwc_f32_column_parts --check --seed 18 --num-threads=2 --min-parallel-flops=0 | FileCheck %s --check-prefix=F32
// RUN: conv-run %s --entry nhwc_f32_column_parts_4 --check --seed 19 --num-threads=4 --min-parallel-flops=0 | FileCheck %s --check-prefix=F32
// RUN: conv-run %s --entry nhwc_f32_column_parts --seed 18 --num-threads=1 --output %t.seq.npy
// RUN: conv-run %s --entry nhwc_f32_column_parts --seed 18 --num-threads=2 --min-parallel-flops=0 --output %t.par.npy
// RUN: cmp %t.seq.npy %t.par.npy
// A 1x1 filter with 256 -> 64 channels on 2 threads: row parts (the input
// channels split), again bit-identical to the sequential result.
// RUN: conv-run %s --entry nhwc_f32_row_parts --check --seed 21 --num-threads=2 --min-parallel-flops=0 | FileCheck %s --check-prefix=F32
// RUN: conv-run %s --entry nhwc_f32_row_parts --seed 21 --num-threads=1 --output %t.rseq.npy
// RUN: conv-run %s --entry nhwc_f32_row_parts --seed 21 --num-threads=2 --min-parallel-flops=0 --output %t.rpar.npy
// RUN: cmp %t.rseq.npy %t.rpar.npy
// 3-D layers in nested row blocks (a last-level cache of 4 x 12000 B: each
// block of 2 rows of the second dimension runs over the depth rows,
// docs/Lowering.md §2.2): strided SAME with 2 images, and dilated SAME (the
// taps' padding rows cut in both block loops), 1 and 2 threads,
// bit-identical.
// RUN: conv-run %s --entry ndhwc_f32_nested_s2 --check --seed 22 --l3-cache-bytes=48000 | FileCheck %s --check-prefix=F32
// RUN: conv-run %s --entry ndhwc_f32_nested_s2 --check --seed 23 --l3-cache-bytes=48000 --num-threads=2 --min-parallel-flops=0 | FileCheck %s --check-prefix=F32
// RUN: conv-run %s --entry ndhwc_f32_nested_dilated --check --seed 24 --l3-cache-bytes=48000 | FileCheck %s --check-prefix=F32
// RUN: conv-run %s --entry ndhwc_f32_nested_dilated --seed 25 --l3-cache-bytes=48000 --num-threads=1 --output %t.nseq.npy
// RUN: conv-run %s --entry ndhwc_f32_nested_dilated --seed 25 --l3-cache-bytes=48000 --num-threads=2 --min-parallel-flops=0 --output %t.npar.npy
// RUN: cmp %t.nseq.npy %t.npar.npy

// bf16 channels-first with groups, stride 2 and dilation 3: the relayouts
// transpose 9 x 14 and 6 x 7 bf16 tiles, as i16 (LLVM 22 miscompiled the
// bf16 lane shuffles: results around 1e37).
// RUN: conv-run %s --entry nchw_bf16_relayout_groups --check --seed 20 | FileCheck %s --check-prefix=BF16
// Single-channel inputs with unit stride: the register tiles of each cache
// block read their tap rows from the input itself (conv-cpu-tile-and-vectorize,
// fuseInputPack's transposed pack left uncopied, ReadRowsFromInput), including
// a peeled partial block (100 positions a row); 2-D SAME and 1-D VALID,
// with 1 and 2 threads, bit-identical across thread counts and to the
// blocks' transposed scratch copies (direct-rows=0).
// RUN: conv-run %s --entry nhwc_f32_single_channel --check --seed 22 | FileCheck %s --check-prefix=F32
// RUN: conv-run %s --entry nhwc_f32_single_channel --check --seed 22 --num-threads=2 --min-parallel-flops=0 | FileCheck %s --check-prefix=F32
// RUN: conv-run %s --entry nwc_f32_single_channel --check --seed 23 | FileCheck %s --check-prefix=F32
// RUN: conv-run %s --entry nwc_f32_single_channel --check --seed 23 --num-threads=2 --min-parallel-flops=0 | FileCheck %s --check-prefix=F32
// RUN: conv-run %s --entry nhwc_f32_single_channel --seed 22 --num-threads=1 --output %t.sseq.npy
// RUN: conv-run %s --entry nhwc_f32_single_channel --seed 22 --num-threads=2 --min-parallel-flops=0 --output %t.spar.npy
// RUN: cmp %t.sseq.npy %t.spar.npy
// RUN: conv-run %s --entry nhwc_f32_single_channel --seed 22 --repeat 2 --compare=direct-rows=0 | FileCheck %s --check-prefix=SAME
// RUN: conv-run %s --entry nwc_f32_single_channel --seed 23 --repeat 2 --num-threads=2 --min-parallel-flops=0 --compare=direct-rows=0 | FileCheck %s --check-prefix=SAME
// Small-filter blocks that divide the reduction though less than half the
// budget (BackpropFilter.cpp, planBlocks with minBlockFlops): with a 220000
// B L2 (110000 B blocks) one thread runs the 38 output rows in blocks of 2,
// two threads (16 MiFLOP a block at least) in one block; both sum every dW
// element in the same order, so the results are bit-identical.
// RUN: conv-run %s --entry nhwc_f32_rows_divisor --check --seed 24 --l2-cache-bytes=220000 | FileCheck %s --check-prefix=F32
// RUN: conv-run %s --entry nhwc_f32_rows_divisor --seed 24 --l2-cache-bytes=220000 --num-threads=1 --output %t.dseq.npy
// RUN: conv-run %s --entry nhwc_f32_rows_divisor --seed 24 --l2-cache-bytes=220000 --num-threads=2 --min-parallel-flops=0 --output %t.dpar.npy
// RUN: cmp %t.dseq.npy %t.dpar.npy

// F32: check: max abs error {{.*}} (f32): PASS
// SAME: B (direct-rows=0): compile
// SAME: B - A: max abs difference 0.000e+00 (max |A| {{[0-9.]+}}e+{{[0-9]+}})
// F64: check: max abs error {{.*}} (f64): PASS
// BF16: check: max abs error {{.*}} (bf16): PASS
// F16: check: max abs error {{.*}} (f16): PASS

func.func @nhwc_f32(%x: tensor<2x9x9x8xf32>, %dy: tensor<2x5x5x16xf32>) -> tensor<3x3x8x16xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = SAME
          strides = [2, 2] dilations = [1, 1]
          : tensor<2x9x9x8xf32>, tensor<2x5x5x16xf32> -> tensor<3x3x8x16xf32>
  return %dw : tensor<3x3x8x16xf32>
}

func.func @nchw_f64_dilated(%x: tensor<2x3x10x7xf64>, %dy: tensor<2x4x6x3xf64>) -> tensor<3x2x3x4xf64> {
  %dw = conv.backprop_filter %x, %dy data_format = NCHW padding = VALID
          strides = [1, 2] dilations = [2, 1]
          : tensor<2x3x10x7xf64>, tensor<2x4x6x3xf64> -> tensor<3x2x3x4xf64>
  return %dw : tensor<3x2x3x4xf64>
}

// Cin 6, filter in-channels 2: 3 groups.
func.func @nwc_bf16_groups_explicit(%x: tensor<3x11x6xbf16>, %dy: tensor<3x4x9xbf16>) -> tensor<4x2x9xbf16> {
  %dw = conv.backprop_filter %x, %dy data_format = NWC padding = EXPLICIT
          explicit_paddings = [2, 1] strides = [3] dilations = [1]
          : tensor<3x11x6xbf16>, tensor<3x4x9xbf16> -> tensor<4x2x9xbf16>
  return %dw : tensor<4x2x9xbf16>
}

func.func @nchw_bf16_rows_9(%x: tensor<1x3x1x9xbf16>, %dy: tensor<1x1x1x5xbf16>) -> tensor<1x2x3x1xbf16> {
  %dw = conv.backprop_filter %x, %dy data_format = NCHW padding = SAME
          strides = [1, 2] dilations = [1, 1]
          : tensor<1x3x1x9xbf16>, tensor<1x1x1x5xbf16> -> tensor<1x2x3x1xbf16>
  return %dw : tensor<1x2x3x1xbf16>
}

func.func @nhwc_bf16_cols_17(%x: tensor<2x6x6x9xbf16>, %dy: tensor<2x6x6x17xbf16>) -> tensor<3x3x9x17xbf16> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = SAME
          strides = [1, 1] dilations = [1, 1]
          : tensor<2x6x6x9xbf16>, tensor<2x6x6x17xbf16> -> tensor<3x3x9x17xbf16>
  return %dw : tensor<3x3x9x17xbf16>
}

func.func @nhwc_f32_cout_53(%x: tensor<2x9x9x24xf32>, %dy: tensor<2x9x9x53xf32>) -> tensor<3x3x24x53xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = SAME
          strides = [1, 1] dilations = [1, 1]
          : tensor<2x9x9x24xf32>, tensor<2x9x9x53xf32> -> tensor<3x3x24x53xf32>
  return %dw : tensor<3x3x24x53xf32>
}

func.func @ncdhw_f16_groups_same(%x: tensor<1x4x5x6x5xf16>, %dy: tensor<1x6x3x6x3xf16>) -> tensor<2x3x2x2x6xf16> {
  %dw = conv.backprop_filter %x, %dy data_format = NCDHW padding = SAME
          strides = [2, 1, 2] dilations = [1, 1, 1]
          : tensor<1x4x5x6x5xf16>, tensor<1x6x3x6x3xf16> -> tensor<2x3x2x2x6xf16>
  return %dw : tensor<2x3x2x2x6xf16>
}

func.func @nhwc_f32_repitch_1x1(%x: tensor<1x4x5x256xf32>, %dy: tensor<1x4x5x512xf32>) -> tensor<1x1x256x512xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = VALID
          strides = [1, 1] dilations = [1, 1]
          : tensor<1x4x5x256xf32>, tensor<1x4x5x512xf32> -> tensor<1x1x256x512xf32>
  return %dw : tensor<1x1x256x512xf32>
}

func.func @nhwc_f32_repitch_3x3(%x: tensor<2x5x6x512xf32>, %dy: tensor<2x5x6x512xf32>) -> tensor<3x3x512x512xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = SAME
          strides = [1, 1] dilations = [1, 1]
          : tensor<2x5x6x512xf32>, tensor<2x5x6x512xf32> -> tensor<3x3x512x512xf32>
  return %dw : tensor<3x3x512x512xf32>
}

func.func @nhwc_f32_repitch_strided(%x: tensor<2x9x8x256xf32>, %dy: tensor<2x5x4x512xf32>) -> tensor<1x1x256x512xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = VALID
          strides = [2, 2] dilations = [1, 1]
          : tensor<2x9x8x256xf32>, tensor<2x5x4x512xf32> -> tensor<1x1x256x512xf32>
  return %dw : tensor<1x1x256x512xf32>
}

func.func @nhwc_f32_stem(%x: tensor<3x30x30x3xf32>, %dy: tensor<3x15x15x64xf32>) -> tensor<7x7x3x64xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = SAME
          strides = [2, 2] dilations = [1, 1]
          : tensor<3x30x30x3xf32>, tensor<3x15x15x64xf32> -> tensor<7x7x3x64xf32>
  return %dw : tensor<7x7x3x64xf32>
}

func.func @ndhwc_f32_tiny(%x: tensor<2x6x7x9x2xf32>, %dy: tensor<2x4x5x7x16xf32>) -> tensor<3x3x3x2x16xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NDHWC padding = VALID
          strides = [1, 1, 1] dilations = [1, 1, 1]
          : tensor<2x6x7x9x2xf32>, tensor<2x4x5x7x16xf32> -> tensor<3x3x3x2x16xf32>
  return %dw : tensor<3x3x3x2x16xf32>
}

func.func @nhwc_f32_tiny_dilated_rows(%x: tensor<2x12x12x1xf32>, %dy: tensor<2x8x10x8xf32>) -> tensor<3x3x1x8xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = VALID
          strides = [1, 1] dilations = [2, 1]
          : tensor<2x12x12x1xf32>, tensor<2x8x10x8xf32> -> tensor<3x3x1x8xf32>
  return %dw : tensor<3x3x1x8xf32>
}

func.func @nhwc_f32_tiny_dilated_cols(%x: tensor<2x10x12x1xf32>, %dy: tensor<2x8x8x8xf32>) -> tensor<3x3x1x8xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = VALID
          strides = [1, 1] dilations = [1, 2]
          : tensor<2x10x12x1xf32>, tensor<2x8x8x8xf32> -> tensor<3x3x1x8xf32>
  return %dw : tensor<3x3x1x8xf32>
}

func.func @nhwc_f32_padded_copy_threads(%x: tensor<2x32x32x40xf32>, %dy: tensor<2x32x32x16xf32>) -> tensor<3x3x40x16xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = SAME
          strides = [1, 1] dilations = [1, 1]
          : tensor<2x32x32x40xf32>, tensor<2x32x32x16xf32> -> tensor<3x3x40x16xf32>
  return %dw : tensor<3x3x40x16xf32>
}

func.func @nhwc_f32_tiny_long_runs(%x: tensor<2x9x30x4xf32>, %dy: tensor<2x7x20x16xf32>) -> tensor<3x11x4x16xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = VALID
          strides = [1, 1] dilations = [1, 1]
          : tensor<2x9x30x4xf32>, tensor<2x7x20x16xf32> -> tensor<3x11x4x16xf32>
  return %dw : tensor<3x11x4x16xf32>
}

func.func @nhwc_f32_column_parts(%x: tensor<2x7x7x24xf32>, %dy: tensor<2x7x7x96xf32>) -> tensor<3x3x24x96xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = SAME
          strides = [1, 1] dilations = [1, 1]
          : tensor<2x7x7x24xf32>, tensor<2x7x7x96xf32> -> tensor<3x3x24x96xf32>
  return %dw : tensor<3x3x24x96xf32>
}

func.func @nhwc_f32_column_parts_4(%x: tensor<2x9x9x16xf32>, %dy: tensor<2x7x7x128xf32>) -> tensor<3x3x16x128xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = VALID
          strides = [1, 1] dilations = [1, 1]
          : tensor<2x9x9x16xf32>, tensor<2x7x7x128xf32> -> tensor<3x3x16x128xf32>
  return %dw : tensor<3x3x16x128xf32>
}

func.func @nchw_bf16_relayout_groups(%x: tensor<1x9x11x14xbf16>, %dy: tensor<1x6x6x7xbf16>) -> tensor<3x3x3x6xbf16> {
  %dw = conv.backprop_filter %x, %dy data_format = NCHW padding = SAME
          strides = [2, 2] dilations = [3, 3]
          : tensor<1x9x11x14xbf16>, tensor<1x6x6x7xbf16> -> tensor<3x3x3x6xbf16>
  return %dw : tensor<3x3x3x6xbf16>
}

func.func @nhwc_f32_row_parts(%x: tensor<3x9x9x256xf32>, %dy: tensor<3x5x5x64xf32>) -> tensor<1x1x256x64xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = VALID
          strides = [2, 2] dilations = [1, 1]
          : tensor<3x9x9x256xf32>, tensor<3x5x5x64xf32> -> tensor<1x1x256x64xf32>
  return %dw : tensor<1x1x256x64xf32>
}

func.func @nhwc_f32_single_channel(%x: tensor<3x20x100x1xf32>, %dy: tensor<3x20x100x16xf32>) -> tensor<3x3x1x16xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = SAME
          strides = [1, 1] dilations = [1, 1]
          : tensor<3x20x100x1xf32>, tensor<3x20x100x16xf32> -> tensor<3x3x1x16xf32>
  return %dw : tensor<3x3x1x16xf32>
}

func.func @nwc_f32_single_channel(%x: tensor<4x1000x1xf32>, %dy: tensor<4x992x24xf32>) -> tensor<9x1x24xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NWC padding = VALID
          strides = [1] dilations = [1]
          : tensor<4x1000x1xf32>, tensor<4x992x24xf32> -> tensor<9x1x24xf32>
  return %dw : tensor<9x1x24xf32>
}

func.func @nhwc_f32_rows_divisor(%x: tensor<1x77x47x32xf32>, %dy: tensor<1x38x23x64xf32>) -> tensor<3x3x32x64xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = VALID
          strides = [2, 2] dilations = [1, 1]
          : tensor<1x77x47x32xf32>, tensor<1x38x23x64xf32> -> tensor<3x3x32x64xf32>
  return %dw : tensor<3x3x32x64xf32>
}

func.func @ndhwc_f32_nested_s2(%x: tensor<2x7x20x18x8xf32>, %dy: tensor<2x4x10x9x8xf32>) -> tensor<3x3x3x8x8xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NDHWC padding = SAME strides = [2, 2, 2] dilations = [1, 1, 1] : tensor<2x7x20x18x8xf32>, tensor<2x4x10x9x8xf32> -> tensor<3x3x3x8x8xf32>
  return %dw : tensor<3x3x3x8x8xf32>
}

func.func @ndhwc_f32_nested_dilated(%x: tensor<1x6x16x16x8xf32>, %dy: tensor<1x6x16x16x16xf32>) -> tensor<3x3x3x8x16xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NDHWC padding = SAME strides = [1, 1, 1] dilations = [2, 2, 2] : tensor<1x6x16x16x8xf32>, tensor<1x6x16x16x16xf32> -> tensor<3x3x3x8x16xf32>
  return %dw : tensor<3x3x3x8x16xf32>
}

func.func @nhwc_f32_row_panels(%x: tensor<4x16x16x520xf32>, %dy: tensor<4x8x8x200xf32>) -> tensor<1x1x520x200xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = VALID
          strides = [2, 2] dilations = [1, 1]
          : tensor<4x16x16x520xf32>, tensor<4x8x8x200xf32> -> tensor<1x1x520x200xf32>
  return %dw : tensor<1x1x520x200xf32>
}

func.func @nhwc_f32_row_panels_3x3(%x: tensor<2x7x7x520xf32>, %dy: tensor<2x7x7x256xf32>) -> tensor<3x3x520x256xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = SAME
          strides = [1, 1] dilations = [1, 1]
          : tensor<2x7x7x520xf32>, tensor<2x7x7x256xf32> -> tensor<3x3x520x256xf32>
  return %dw : tensor<3x3x520x256xf32>
}
