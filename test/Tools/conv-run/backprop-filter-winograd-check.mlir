// Winograd F(3, 2) filter gradients (--winograd=on: the pipeline option
// winograd, docs/Lowering.md §2.7) through the JIT against the reference,
// on random inputs, with 1 and 2 threads, and the same kernels without
// them (--compare: the sums differ only by rounding).

// 2-D 'SAME', 9 x 7 outputs (odd: the last pair of each row padded).
// RUN: conv-run %s --entry same_odd --winograd=on --check --seed 1 --num-threads=1 | FileCheck %s
// RUN: conv-run %s --entry same_odd --winograd=on --check --seed 2 --num-threads=2 --min-parallel-flops=0 | FileCheck %s
// A 4 KiB L2 (points' blocks of at most 256 bytes, less than one 20 x 24
// product: the whole-batch form) and a 16 KiB last-level cache (reduction
// blocks of 4 KiB): each point's product is a 1x1 conv.backprop_filter
// lowered in batch blocks.
// RUN: conv-run %s --entry same_odd --winograd=on --l2-cache-bytes=4096 --l3-cache-bytes=16384 --check --seed 7 --num-threads=2 --min-parallel-flops=0 | FileCheck %s
// A 32 KiB L2: the points' reduction blocks of at most 2 KiB (the pipeline's
// L2 / 16), one pair row of one batch item each (2-D and 3-D), with 2
// threads (4 points an iteration of the forall), 5 (2 points) and 9 (1).
// RUN: conv-run %s --entry same_odd --winograd=on --l2-cache-bytes=32768 --check --seed 8 --num-threads=2 --min-parallel-flops=0 | FileCheck %s
// RUN: conv-run %s --entry same_odd --winograd=on --l2-cache-bytes=32768 --check --seed 9 --num-threads=5 --min-parallel-flops=0 | FileCheck %s
// RUN: conv-run %s --entry dilated --winograd=on --l2-cache-bytes=32768 --check --seed 10 --num-threads=9 --min-parallel-flops=0 | FileCheck %s
// RUN: conv-run %s --entry vol --winograd=on --l2-cache-bytes=32768 --check --seed 11 --num-threads=2 --min-parallel-flops=0 | FileCheck %s
// The whole pipeline with the verifier after every pass (the JIT runs
// without it), 4 and 1 points an iteration.
// RUN: conv-opt %s --conv-lower-to-llvm-cpu="optimize winograd=on l2-cache-bytes=32768 num-threads=2" -o /dev/null
// RUN: conv-opt %s --conv-lower-to-llvm-cpu="optimize winograd=on l2-cache-bytes=32768 num-threads=9" -o /dev/null
// Explicit pads (0, 3) and (2, 1) with dilations 2 and 3 (pairs (o, o + d)).
// RUN: conv-run %s --entry dilated --winograd=on --check --seed 3 --num-threads=2 --min-parallel-flops=0 | FileCheck %s
// 1-D 'VALID' (12 outputs, 6 pairs) and 3-D 'SAME'.
// RUN: conv-run %s --entry one_d --winograd=on --check --seed 4 | FileCheck %s
// RUN: conv-run %s --entry vol --winograd=on --check --seed 5 --num-threads=2 --min-parallel-flops=0 | FileCheck %s
// Channels first (the channels-last relayout, then the same lowering).
// RUN: conv-run %s --entry nchw --winograd=on --check --seed 6 | FileCheck %s
// CHECK: check: max abs error {{.*}} (f32): PASS

// 'auto' (the default) takes this layer on every host (2-D, 128 channels
// each side: the rule's threshold on cores with two 512-bit FMA units, 32
// elsewhere; 8 x 8 pairs a batch item of 4): against the direct form,
// within rounding.
// RUN: conv-run %s --entry auto_on --repeat 2 --compare=winograd=off | FileCheck %s --check-prefix=CMP
// CMP: B (winograd=off): compile
// CMP: B - A: max abs difference {{[0-9]\.[0-9]+e-0[5-9]}}

func.func @same_odd(%x: tensor<3x9x7x20xf32>, %dy: tensor<3x9x7x24xf32>) -> tensor<3x3x20x24xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = SAME
          strides = [1, 1] dilations = [1, 1]
          : tensor<3x9x7x20xf32>, tensor<3x9x7x24xf32> -> tensor<3x3x20x24xf32>
  return %dw : tensor<3x3x20x24xf32>
}

func.func @dilated(%x: tensor<2x11x10x16xf32>, %dy: tensor<2x10x7x18xf32>) -> tensor<3x3x16x18xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = EXPLICIT
          explicit_paddings = [0, 3, 2, 1] strides = [1, 1] dilations = [2, 3]
          : tensor<2x11x10x16xf32>, tensor<2x10x7x18xf32> -> tensor<3x3x16x18xf32>
  return %dw : tensor<3x3x16x18xf32>
}

func.func @one_d(%x: tensor<2x14x12xf32>, %dy: tensor<2x12x20xf32>) -> tensor<3x12x20xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NWC padding = VALID
          strides = [1] dilations = [1]
          : tensor<2x14x12xf32>, tensor<2x12x20xf32> -> tensor<3x12x20xf32>
  return %dw : tensor<3x12x20xf32>
}

func.func @vol(%x: tensor<2x5x6x7x8xf32>, %dy: tensor<2x5x6x7x16xf32>) -> tensor<3x3x3x8x16xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NDHWC padding = SAME
          strides = [1, 1, 1] dilations = [1, 1, 1]
          : tensor<2x5x6x7x8xf32>, tensor<2x5x6x7x16xf32> -> tensor<3x3x3x8x16xf32>
  return %dw : tensor<3x3x3x8x16xf32>
}

func.func @nchw(%x: tensor<2x12x8x9xf32>, %dy: tensor<2x16x8x9xf32>) -> tensor<3x3x12x16xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NCHW padding = SAME
          strides = [1, 1] dilations = [1, 1]
          : tensor<2x12x8x9xf32>, tensor<2x16x8x9xf32> -> tensor<3x3x12x16xf32>
  return %dw : tensor<3x3x12x16xf32>
}

func.func @auto_on(%x: tensor<4x16x16x128xf32>, %dy: tensor<4x16x16x128xf32>) -> tensor<3x3x128x128xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = SAME
          strides = [1, 1] dilations = [1, 1]
          : tensor<4x16x16x128xf32>, tensor<4x16x16x128xf32> -> tensor<3x3x128x128xf32>
  return %dw : tensor<3x3x128x128xf32>
}
