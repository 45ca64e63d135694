// Winograd F(5, 2) filter gradients (5 taps along every dimension, 1-D and
// 2-D; --winograd=on, docs/Lowering.md §2.7) through the JIT against the
// reference, on random inputs, with 1, 2, 5 and 9 threads, in reduction
// blocks and not, and the same kernels without them (--compare).

// 2-D 'SAME', 9 x 7 outputs (odd: the last pair of each row padded).
// RUN: conv-run %s --entry same_odd --winograd=on --check --seed 1 --num-threads=1 | FileCheck %s
// RUN: conv-run %s --entry same_odd --winograd=on --check --seed 2 --num-threads=2 --min-parallel-flops=0 | FileCheck %s
// A 4 KiB L2 and a 16 KiB last-level cache: each point's product a 1x1
// conv.backprop_filter lowered in batch blocks.
// RUN: conv-run %s --entry same_odd --winograd=on --l2-cache-bytes=4096 --l3-cache-bytes=16384 --check --seed 3 --num-threads=2 --min-parallel-flops=0 | FileCheck %s
// A 32 KiB L2: the points' reduction blocks of at most 2 KiB, with 2 and 5
// threads (6 points an iteration of the forall), 9 (3 points) and 13 (1).
// RUN: conv-run %s --entry same_odd --winograd=on --l2-cache-bytes=32768 --check --seed 4 --num-threads=2 --min-parallel-flops=0 | FileCheck %s
// RUN: conv-run %s --entry same_odd --winograd=on --l2-cache-bytes=32768 --check --seed 5 --num-threads=5 --min-parallel-flops=0 | FileCheck %s
// RUN: conv-run %s --entry dilated --winograd=on --l2-cache-bytes=32768 --check --seed 6 --num-threads=9 --min-parallel-flops=0 | FileCheck %s
// RUN: conv-run %s --entry same_odd --winograd=on --l2-cache-bytes=32768 --check --seed 11 --num-threads=13 --min-parallel-flops=0 | FileCheck %s
// RUN: conv-opt %s --conv-lower-to-llvm-cpu="optimize winograd=on l2-cache-bytes=32768 num-threads=5" -o /dev/null
// Explicit pads (0, 3) and (4, 1) with dilations 2 and 3.
// RUN: conv-run %s --entry dilated --winograd=on --check --seed 7 --num-threads=2 --min-parallel-flops=0 | FileCheck %s
// 1-D 'VALID' (12 outputs, 6 pairs), channels first.
// RUN: conv-run %s --entry one_d --winograd=on --check --seed 8 | FileCheck %s
// RUN: conv-run %s --entry nchw --winograd=on --check --seed 9 | FileCheck %s
// 3-D layers with 5 taps stay direct (F(5, 2) in 1-D and 2-D only).
// RUN: conv-run %s --entry vol --winograd=on --check --seed 10 | FileCheck %s
// CHECK: check: max abs error {{.*}} (f32): PASS

// 'auto' takes a 2-D 5 x 5 layer with 32 channels each side and more (the
// F(5, 2) rule): against the direct form, within rounding (not equal).
// RUN: conv-run %s --entry auto_on --repeat 2 --compare=winograd=off | FileCheck %s --check-prefix=CMP
// CMP: B (winograd=off): compile
// CMP: B - A: max abs difference {{[0-9]\.[0-9]+e-0[4-9]}}

func.func @same_odd(%x: tensor<3x9x7x20xf32>, %dy: tensor<3x9x7x24xf32>) -> tensor<5x5x20x24xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = SAME
          strides = [1, 1] dilations = [1, 1]
          : tensor<3x9x7x20xf32>, tensor<3x9x7x24xf32> -> tensor<5x5x20x24xf32>
  return %dw : tensor<5x5x20x24xf32>
}

func.func @dilated(%x: tensor<2x15x16x16xf32>, %dy: tensor<2x10x9x18xf32>) -> tensor<5x5x16x18xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = EXPLICIT
          explicit_paddings = [0, 3, 4, 1] strides = [1, 1] dilations = [2, 3]
          : tensor<2x15x16x16xf32>, tensor<2x10x9x18xf32> -> tensor<5x5x16x18xf32>
  return %dw : tensor<5x5x16x18xf32>
}

func.func @one_d(%x: tensor<2x16x12xf32>, %dy: tensor<2x12x20xf32>) -> tensor<5x12x20xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NWC padding = VALID
          strides = [1] dilations = [1]
          : tensor<2x16x12xf32>, tensor<2x12x20xf32> -> tensor<5x12x20xf32>
  return %dw : tensor<5x12x20xf32>
}

func.func @nchw(%x: tensor<2x12x8x9xf32>, %dy: tensor<2x16x8x9xf32>) -> tensor<5x5x12x16xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NCHW padding = SAME
          strides = [1, 1] dilations = [1, 1]
          : tensor<2x12x8x9xf32>, tensor<2x16x8x9xf32> -> tensor<5x5x12x16xf32>
  return %dw : tensor<5x5x12x16xf32>
}

func.func @vol(%x: tensor<2x5x6x7x8xf32>, %dy: tensor<2x5x6x7x16xf32>) -> tensor<5x5x5x8x16xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NDHWC padding = SAME
          strides = [1, 1, 1] dilations = [1, 1, 1]
          : tensor<2x5x6x7x8xf32>, tensor<2x5x6x7x16xf32> -> tensor<5x5x5x8x16xf32>
  return %dw : tensor<5x5x5x8x16xf32>
}

func.func @auto_on(%x: tensor<4x16x16x64xf32>, %dy: tensor<4x16x16x32xf32>) -> tensor<5x5x64x32xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = SAME
          strides = [1, 1] dilations = [1, 1]
          : tensor<4x16x16x64xf32>, tensor<4x16x16x32xf32> -> tensor<5x5x64x32xf32>
  return %dw : tensor<5x5x64x32xf32>
}
