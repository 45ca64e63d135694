// Grouped filter gradients with few channels per group through the JIT
// against the reference. With 16-lane vectors (AVX-512) the register tiles
// of these layers run over (group, output channel) of several groups, each
// input value broadcast over its group's lanes by a lane shuffle
// (conv-cpu-tile-and-vectorize, GroupedContractionToShuffles); with 8 lanes
// (AVX2) the ones with 2 output channels per group do. The IR checks pin the
// AVX-512 tiles (test/Codegen/tile-and-vectorize-groups.mlir).

// ResNeXt-like 3-D layer (4 -> 4 channels per group, 16 groups, padding 1,
// so the taps' cut ranges are dynamic), 1 and 2 threads, bit-identical.
// RUN: conv-run %s --entry ndhwc_4x4 --check --seed 1 | FileCheck %s --check-prefix=F32
// RUN: conv-run %s --entry ndhwc_4x4 --check --seed 2 --num-threads=2 --min-parallel-flops=0 | FileCheck %s --check-prefix=F32
// RUN: conv-run %s --entry ndhwc_4x4 --seed 3 --num-threads=1 --output %t.seq.npy
// RUN: conv-run %s --entry ndhwc_4x4 --seed 3 --num-threads=2 --min-parallel-flops=0 --output %t.par.npy
// RUN: cmp %t.seq.npy %t.par.npy
// Reduction blocks of one depth row (a last-level cache of 4 x 73728 B:
// one row of window and out_backprop per block): in the first and last
// block the taps that read only padding depth rows are cut to a dynamic 0
// rows (docs/Lowering.md §2.5).
// RUN: conv-run %s --entry ndhwc_4x4 --check --seed 10 --l3-cache-bytes=294912 | FileCheck %s --check-prefix=F32
// RUN: conv-run %s --entry ndhwc_4x4 --check --seed 11 --l3-cache-bytes=294912 --num-threads=2 --min-parallel-flops=0 | FileCheck %s --check-prefix=F32
// A last-level cache of 4 x 40000 B: blocks of 2 rows of the second
// dimension inside each depth row (docs/Lowering.md §2.2), with 1 and 2
// threads, bit-identical.
// RUN: conv-run %s --entry ndhwc_4x4 --check --seed 13 --l3-cache-bytes=160000 | FileCheck %s --check-prefix=F32
// RUN: conv-run %s --entry ndhwc_4x4 --seed 14 --l3-cache-bytes=160000 --num-threads=1 --output %t.rows1.npy
// RUN: conv-run %s --entry ndhwc_4x4 --seed 14 --l3-cache-bytes=160000 --num-threads=2 --min-parallel-flops=0 --output %t.rows2.npy
// RUN: cmp %t.rows1.npy %t.rows2.npy
// Tap rows (docs/Lowering.md §2.8; the default on hosts with two 512-bit
// FMA units) on and off whatever the host: the 3 taps along the last
// dimension in one contraction over the 10 window positions all of them
// read, the 4 positions at the ends tap by tap; with 1, 2 and 3 threads
// (3: the split-K parts inside the taps' forall) and row blocks,
// bit-identical.
// RUN: conv-run %s --entry ndhwc_4x4 --check --seed 15 --dw-tap-rows=on | FileCheck %s --check-prefix=F32
// RUN: conv-run %s --entry ndhwc_4x4 --check --seed 16 --dw-tap-rows=off | FileCheck %s --check-prefix=F32
// RUN: conv-run %s --entry ndhwc_4x4 --check --seed 17 --dw-tap-rows=on --num-threads=2 --min-parallel-flops=0 | FileCheck %s --check-prefix=F32
// RUN: conv-run %s --entry ndhwc_4x4 --seed 18 --dw-tap-rows=on --l3-cache-bytes=160000 --num-threads=1 --output %t.taprows1.npy
// RUN: conv-run %s --entry ndhwc_4x4 --seed 18 --dw-tap-rows=on --l3-cache-bytes=160000 --num-threads=2 --min-parallel-flops=0 --output %t.taprows2.npy
// RUN: cmp %t.taprows1.npy %t.taprows2.npy
// RUN: conv-run %s --entry ndhwc_4x4 --seed 18 --dw-tap-rows=on --l3-cache-bytes=160000 --num-threads=3 --min-parallel-flops=0 --output %t.taprows3.npy
// RUN: cmp %t.taprows1.npy %t.taprows3.npy
// Depthwise (one input and one output channel a group; docs/Lowering.md
// §2, step 7): elementwise taps over 72 channels (a 64-channel tile and an
// 8-channel one), 1 and 2 threads, bit-identical; 1-D strided and dilated,
// 3-D, channels first (relayouted) and bf16.
// RUN: conv-run %s --entry depthwise --check --seed 19 | FileCheck %s --check-prefix=F32
// RUN: conv-run %s --entry depthwise --seed 20 --num-threads=1 --output %t.dw1.npy
// RUN: conv-run %s --entry depthwise --seed 20 --num-threads=2 --min-parallel-flops=0 --output %t.dw2.npy
// RUN: cmp %t.dw1.npy %t.dw2.npy
// RUN: conv-run %s --entry depthwise_1d --check --seed 21 | FileCheck %s --check-prefix=F32
// RUN: conv-run %s --entry depthwise_3d --check --seed 22 --num-threads=2 --min-parallel-flops=0 | FileCheck %s --check-prefix=F32
// RUN: conv-run %s --entry depthwise_nchw --check --seed 23 | FileCheck %s --check-prefix=F32
// RUN: conv-run %s --entry depthwise_bf16 --check --seed 24 | FileCheck %s --check-prefix=BF16
// 3 groups of 2 -> 2 channels in blocks of one row, cut to 0 or 1 rows:
// the accumulators of the cut rows' loop are hoisted before those of the
// loops around it.
// RUN: conv-run %s --entry nhwc_row_blocks --check --seed 12 --l3-cache-bytes=3000 | FileCheck %s --check-prefix=F32
// SAME with stride 2: the positions a tap reads are cut in both dimensions.
// RUN: conv-run %s --entry nhwc_same_s2 --check --seed 4 --num-threads=2 --min-parallel-flops=0 | FileCheck %s --check-prefix=F32
// 8 -> 4 channels per group: two tiles of 8 groups (8 rows each).
// RUN: conv-run %s --entry nhwc_8x4 --check --seed 5 | FileCheck %s --check-prefix=F32
// 4 -> 2 channels per group, 24 groups: tiles of 24 groups (3 vectors).
// RUN: conv-run %s --entry nwc_4x2 --check --seed 6 | FileCheck %s --check-prefix=F32
// 16-bit operands (widened to f32 as read) and 4 -> 8 channels per group
// (per-group tiles).
// RUN: conv-run %s --entry ndhwc_bf16_4x4 --check --seed 7 | FileCheck %s --check-prefix=BF16
// RUN: conv-run %s --entry nhwc_f16_4x4 --check --seed 8 --num-threads=2 --min-parallel-flops=0 | FileCheck %s --check-prefix=F16
// RUN: conv-run %s --entry nhwc_4x8 --check --seed 9 | FileCheck %s --check-prefix=F32

// F32: check: max abs error {{.*}} (f32): PASS
// BF16: check: max abs error {{.*}} (bf16): PASS
// F16: check: max abs error {{.*}} (f16): PASS

func.func @ndhwc_4x4(%x: tensor<2x4x10x12x64xf32>, %dy: tensor<2x4x10x12x64xf32>) -> tensor<3x3x3x4x64xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NDHWC padding = EXPLICIT
          explicit_paddings = [1, 1, 1, 1, 1, 1] strides = [1, 1, 1] dilations = [1, 1, 1]
          : tensor<2x4x10x12x64xf32>, tensor<2x4x10x12x64xf32> -> tensor<3x3x3x4x64xf32>
  return %dw : tensor<3x3x3x4x64xf32>
}

func.func @nhwc_same_s2(%x: tensor<2x13x15x64xf32>, %dy: tensor<2x7x8x64xf32>) -> tensor<3x3x4x64xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = SAME
          strides = [2, 2] dilations = [1, 1]
          : tensor<2x13x15x64xf32>, tensor<2x7x8x64xf32> -> tensor<3x3x4x64xf32>
  return %dw : tensor<3x3x4x64xf32>
}

func.func @nhwc_8x4(%x: tensor<2x10x20x128xf32>, %dy: tensor<2x8x18x64xf32>) -> tensor<3x3x8x64xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = VALID
          strides = [1, 1] dilations = [1, 1]
          : tensor<2x10x20x128xf32>, tensor<2x8x18x64xf32> -> tensor<3x3x8x64xf32>
  return %dw : tensor<3x3x8x64xf32>
}

func.func @nwc_4x2(%x: tensor<3x50x96xf32>, %dy: tensor<3x23x48xf32>) -> tensor<5x4x48xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NWC padding = VALID
          strides = [2] dilations = [1]
          : tensor<3x50x96xf32>, tensor<3x23x48xf32> -> tensor<5x4x48xf32>
  return %dw : tensor<5x4x48xf32>
}

func.func @ndhwc_bf16_4x4(%x: tensor<2x4x10x12x64xbf16>, %dy: tensor<2x4x10x12x64xbf16>) -> tensor<3x3x3x4x64xbf16> {
  %dw = conv.backprop_filter %x, %dy data_format = NDHWC padding = EXPLICIT
          explicit_paddings = [1, 1, 1, 1, 1, 1] strides = [1, 1, 1] dilations = [1, 1, 1]
          : tensor<2x4x10x12x64xbf16>, tensor<2x4x10x12x64xbf16> -> tensor<3x3x3x4x64xbf16>
  return %dw : tensor<3x3x3x4x64xbf16>
}

func.func @nhwc_f16_4x4(%x: tensor<2x12x12x64xf16>, %dy: tensor<2x10x10x64xf16>) -> tensor<3x3x4x64xf16> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = VALID
          strides = [1, 1] dilations = [1, 1]
          : tensor<2x12x12x64xf16>, tensor<2x10x10x64xf16> -> tensor<3x3x4x64xf16>
  return %dw : tensor<3x3x4x64xf16>
}

func.func @nhwc_4x8(%x: tensor<2x12x12x64xf32>, %dy: tensor<2x10x10x128xf32>) -> tensor<3x3x4x128xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = VALID
          strides = [1, 1] dilations = [1, 1]
          : tensor<2x12x12x64xf32>, tensor<2x10x10x128xf32> -> tensor<3x3x4x128xf32>
  return %dw : tensor<3x3x4x128xf32>
}

func.func @nhwc_row_blocks(%x: tensor<3x2x20x6xf32>, %dy: tensor<3x4x21x6xf32>) -> tensor<2x2x2x6xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = EXPLICIT
          explicit_paddings = [1, 2, 1, 1] strides = [1, 1] dilations = [1, 1]
          : tensor<3x2x20x6xf32>, tensor<3x4x21x6xf32> -> tensor<2x2x2x6xf32>
  return %dw : tensor<2x2x2x6xf32>
}

func.func @depthwise(%x: tensor<2x9x21x72xf32>, %dy: tensor<2x9x21x72xf32>) -> tensor<3x3x1x72xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = SAME
          strides = [1, 1] dilations = [1, 1]
          : tensor<2x9x21x72xf32>, tensor<2x9x21x72xf32> -> tensor<3x3x1x72xf32>
  return %dw : tensor<3x3x1x72xf32>
}

func.func @depthwise_1d(%x: tensor<3x40x48xf32>, %dy: tensor<3x18x48xf32>) -> tensor<3x1x48xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NWC padding = VALID
          strides = [2] dilations = [2]
          : tensor<3x40x48xf32>, tensor<3x18x48xf32> -> tensor<3x1x48xf32>
  return %dw : tensor<3x1x48xf32>
}

func.func @depthwise_3d(%x: tensor<2x5x9x11x32xf32>, %dy: tensor<2x3x5x6x32xf32>) -> tensor<3x3x3x1x32xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NDHWC padding = SAME
          strides = [2, 2, 2] dilations = [1, 1, 1]
          : tensor<2x5x9x11x32xf32>, tensor<2x3x5x6x32xf32> -> tensor<3x3x3x1x32xf32>
  return %dw : tensor<3x3x3x1x32xf32>
}

func.func @depthwise_nchw(%x: tensor<2x24x10x13xf32>, %dy: tensor<2x24x10x13xf32>) -> tensor<3x3x1x24xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NCHW padding = SAME
          strides = [1, 1] dilations = [1, 1]
          : tensor<2x24x10x13xf32>, tensor<2x24x10x13xf32> -> tensor<3x3x1x24xf32>
  return %dw : tensor<3x3x1x24xf32>
}

func.func @depthwise_bf16(%x: tensor<2x12x12x32xbf16>, %dy: tensor<2x12x12x32xbf16>) -> tensor<3x3x1x32xbf16> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = SAME
          strides = [1, 1] dilations = [1, 1]
          : tensor<2x12x12x32xbf16>, tensor<2x12x12x32xbf16> -> tensor<3x3x1x32xbf16>
  return %dw : tensor<3x3x1x32xbf16>
}
