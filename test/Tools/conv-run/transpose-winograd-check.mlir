// Winograd F(2, T) phases (--winograd=on: the pipeline option winograd,
// docs/Lowering.md §3.10) through the JIT against the reference, on random
// inputs, with 1 and 2 threads, and the same kernels without them
// (--compare: the sums differ only by rounding).

// DCGAN-like 4x4 stride 2 'same': F(2, 2) in every phase, batch blocks of 4.
// RUN: conv-run %s --entry dcgan --winograd=on --check --seed 1 --num-threads=1 | FileCheck %s
// RUN: conv-run %s --entry dcgan --winograd=on --check --seed 2 --num-threads=2 --min-parallel-flops=0 | FileCheck %s
// Keras-like 5x5 stride 2 'same' with output_padding 0 (13 and 14 outputs
// a phase row: odd and even pair counts): F(2, 3) and F(2, 2) phases.
// RUN: conv-run %s --entry keras5 --winograd=on --check --seed 3 --num-threads=1 | FileCheck %s
// RUN: conv-run %s --entry keras5 --winograd=on --check --seed 4 --num-threads=2 --min-parallel-flops=0 | FileCheck %s
// 1-D, 3 taps, stride 1, 13 outputs, batch 1 (no blocks), phases forced.
// RUN: conv-run %s --entry odd_1d --winograd=on --transpose-per-tap=never --check --seed 5 | FileCheck %s
// 3-D, 2x2x4 kernel stride (1, 1, 2), phases forced: F(2, 2) along the
// last dimension (5 outputs a phase row).
// RUN: conv-run %s --entry vol --winograd=on --transpose-per-tap=never --check --seed 6 --num-threads=2 --min-parallel-flops=0 | FileCheck %s
// CHECK: check: max abs error {{.*}} (f32): PASS

// With against without ('auto', the default, leaves this op's 4 phases
// direct): both kernels compiled, their results within rounding of each
// other.
// RUN: conv-run %s --entry keras5 --repeat 2 --compare=winograd=on | FileCheck %s --check-prefix=CMP
// CMP: B (winograd=on): compile
// CMP: B - A: max abs difference {{[0-9]\.[0-9]+e-0[5-9]}}

func.func @dcgan(%x: tensor<8x8x8x32xf32>, %k: tensor<4x4x48x32xf32>) -> tensor<8x16x16x48xf32> {
  %y = conv.transpose %x, %k data_format = channels_last padding = same
         strides = [2, 2] dilation_rate = [1, 1]
         : tensor<8x8x8x32xf32>, tensor<4x4x48x32xf32> -> tensor<8x16x16x48xf32>
  return %y : tensor<8x16x16x48xf32>
}

func.func @keras5(%x: tensor<4x14x14x24xf32>, %k: tensor<5x5x32x24xf32>) -> tensor<4x27x27x32xf32> {
  %y = conv.transpose %x, %k data_format = channels_last padding = same
         strides = [2, 2] dilation_rate = [1, 1] output_padding = [0, 0]
         : tensor<4x14x14x24xf32>, tensor<5x5x32x24xf32> -> tensor<4x27x27x32xf32>
  return %y : tensor<4x27x27x32xf32>
}

func.func @odd_1d(%x: tensor<1x11x16xf32>, %k: tensor<3x16x16xf32>) -> tensor<1x13x16xf32> {
  %y = conv.transpose %x, %k data_format = channels_last padding = valid
         strides = [1] dilation_rate = [1]
         : tensor<1x11x16xf32>, tensor<3x16x16xf32> -> tensor<1x13x16xf32>
  return %y : tensor<1x13x16xf32>
}

func.func @vol(%x: tensor<4x3x4x5x16xf32>, %k: tensor<2x2x4x16x16xf32>) -> tensor<4x3x4x10x16xf32> {
  %y = conv.transpose %x, %k data_format = channels_last padding = same
         strides = [1, 1, 2] dilation_rate = [1, 1, 1]
         : tensor<4x3x4x5x16xf32>, tensor<2x2x4x16x16xf32> -> tensor<4x3x4x10x16xf32>
  return %y : tensor<4x3x4x10x16xf32>
}
