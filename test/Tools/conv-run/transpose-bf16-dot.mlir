// bf16 transposed convolutions whose register tiles reduce input-channel
// pairs with vdpbf16ps (bf16-dot=on; on a host without AVX512-BF16 the JIT
// computes the same arithmetic with FMAs), against the reference, and the
// same kernels with bf16-dot=off (f32 FMAs). The lowerings: phases (48
// output channels: 32 + 16-column tiles), an odd input-channel count (7:
// three pairs and a single channel) with 20 output channels (16 columns
// as dot products, 4 as FMAs) and dilation, a channels-first 1-D layer,
// depth-to-space, the per-tap lowering (a 1x1 input) and a 3-D layer.
// RUN: conv-run %s --entry phases_48 --check --seed 1 --bf16-dot=on | FileCheck %s
// RUN: conv-run %s --entry phases_48 --check --seed 1 --bf16-dot=off | FileCheck %s
// RUN: conv-run %s --entry odd_cin_dilated --check --seed 2 --bf16-dot=on | FileCheck %s
// RUN: conv-run %s --entry odd_cin_dilated --check --seed 2 --bf16-dot=on --num-threads=2 --min-parallel-flops=0 | FileCheck %s
// RUN: conv-run %s --entry ncw_1d --check --seed 3 --bf16-dot=on | FileCheck %s
// RUN: conv-run %s --entry depth_to_space --check --seed 4 --bf16-dot=on | FileCheck %s
// RUN: conv-run %s --entry per_tap --check --seed 5 --bf16-dot=on | FileCheck %s
// RUN: conv-run %s --entry ndhwc_3d --check --seed 6 --bf16-dot=on --num-threads=2 --min-parallel-flops=0 | FileCheck %s
// 41 output channels: the bf16 result rows are converted in chunks of 8
// (not 32 + 9: a 9-element bf16 vector would keep the kernel off the dot
// product).
// RUN: conv-run %s --entry cout_41 --check --seed 8 --bf16-dot=on --num-threads=2 --min-parallel-flops=0 | FileCheck %s
// CHECK: check: max abs error {{.*}} (bf16): PASS
//
// Bit-identical for 1 and 2 threads (every output element is summed by one
// thread in one order).
// RUN: conv-run %s --entry phases_48 --seed 7 --bf16-dot=on --num-threads=1 --output %t.seq.npy
// RUN: conv-run %s --entry phases_48 --seed 7 --bf16-dot=on --num-threads=2 --min-parallel-flops=0 --output %t.par.npy
// RUN: cmp %t.seq.npy %t.par.npy
//
// The kernels call the instruction (one call per 16-lane accumulator
// vector of a register tile step) only with bf16-dot; also the
// channels-first layer, whose relayouts move 9 x 8 tiles as 8 + 1 rows,
// and the 41-channel one, whose last 9 columns run as 8 + 1: LLVM 22
// cannot generate code for 9-element bf16 vectors with AVX512-BF16 on.
// RUN: conv-opt %s --conv-lower-to-llvm-cpu="bf16-dot=on" | FileCheck %s --check-prefix=IR
// RUN: conv-opt %s --conv-lower-to-llvm-cpu="bf16-dot=off" | FileCheck %s --check-prefix=NOIR
// IR-LABEL: llvm.func @phases_48(
// IR:         llvm.call_intrinsic "llvm.x86.avx512bf16.dpbf16ps.512"
// IR-LABEL: llvm.func @odd_cin_dilated(
// IR:         llvm.call_intrinsic "llvm.x86.avx512bf16.dpbf16ps.512"
// IR-LABEL: llvm.func @ncw_1d(
// IR:         llvm.call_intrinsic "llvm.x86.avx512bf16.dpbf16ps.512"
// IR-LABEL: llvm.func @depth_to_space(
// IR:         llvm.call_intrinsic "llvm.x86.avx512bf16.dpbf16ps.512"
// IR-LABEL: llvm.func @per_tap(
// IR:         llvm.call_intrinsic "llvm.x86.avx512bf16.dpbf16ps.512"
// IR-LABEL: llvm.func @ndhwc_3d(
// IR:         llvm.call_intrinsic "llvm.x86.avx512bf16.dpbf16ps.512"
// IR-LABEL: llvm.func @cout_41(
// IR:         llvm.call_intrinsic "llvm.x86.avx512bf16.dpbf16ps.512"
// NOIR-NOT: dpbf16ps

func.func @phases_48(%x: tensor<2x5x5x6xbf16>, %k: tensor<3x3x48x6xbf16>) -> tensor<2x10x10x48xbf16> {
  %y = conv.transpose %x, %k data_format = channels_last padding = same
         strides = [2, 2] dilation_rate = [1, 1]
         : tensor<2x5x5x6xbf16>, tensor<3x3x48x6xbf16> -> tensor<2x10x10x48xbf16>
  return %y : tensor<2x10x10x48xbf16>
}

func.func @odd_cin_dilated(%x: tensor<1x6x7x7xbf16>, %k: tensor<3x2x20x7xbf16>) -> tensor<1x10x9x20xbf16> {
  %y = conv.transpose %x, %k data_format = channels_last padding = valid
         strides = [1, 1] dilation_rate = [2, 2]
         : tensor<1x6x7x7xbf16>, tensor<3x2x20x7xbf16> -> tensor<1x10x9x20xbf16>
  return %y : tensor<1x10x9x20xbf16>
}

func.func @ncw_1d(%x: tensor<2x8x9xbf16>, %k: tensor<4x32x8xbf16>) -> tensor<2x32x18xbf16> {
  %y = conv.transpose %x, %k data_format = channels_first padding = same
         strides = [2] dilation_rate = [1]
         : tensor<2x8x9xbf16>, tensor<4x32x8xbf16> -> tensor<2x32x18xbf16>
  return %y : tensor<2x32x18xbf16>
}

func.func @depth_to_space(%x: tensor<1x32x64x16xbf16>, %k: tensor<2x2x16x16xbf16>) -> tensor<1x64x128x16xbf16> {
  %y = conv.transpose %x, %k data_format = channels_last padding = valid
         strides = [2, 2] dilation_rate = [1, 1]
         : tensor<1x32x64x16xbf16>, tensor<2x2x16x16xbf16> -> tensor<1x64x128x16xbf16>
  return %y : tensor<1x64x128x16xbf16>
}

func.func @per_tap(%x: tensor<4x1x1x10xbf16>, %k: tensor<4x4x32x10xbf16>) -> tensor<4x4x4x32xbf16> {
  %y = conv.transpose %x, %k data_format = channels_last padding = valid
         strides = [1, 1] dilation_rate = [1, 1]
         : tensor<4x1x1x10xbf16>, tensor<4x4x32x10xbf16> -> tensor<4x4x4x32xbf16>
  return %y : tensor<4x4x4x32xbf16>
}

func.func @ndhwc_3d(%x: tensor<1x3x4x4x4xbf16>, %k: tensor<2x2x2x16x4xbf16>) -> tensor<1x6x8x8x16xbf16> {
  %y = conv.transpose %x, %k data_format = channels_last padding = same
         strides = [2, 2, 2] dilation_rate = [1, 1, 1]
         : tensor<1x3x4x4x4xbf16>, tensor<2x2x2x16x4xbf16> -> tensor<1x6x8x8x16xbf16>
  return %y : tensor<1x6x8x8x16xbf16>
}

func.func @cout_41(%x: tensor<2x5x5x8xbf16>, %k: tensor<3x3x41x8xbf16>) -> tensor<2x10x10x41xbf16> {
  %y = conv.transpose %x, %k data_format = channels_last padding = same
         strides = [2, 2] dilation_rate = [1, 1]
         : tensor<2x5x5x8xbf16>, tensor<3x3x41x8xbf16> -> tensor<2x10x10x41xbf16>
  return %y : tensor<2x10x10x41xbf16>
}
