// bf16 filter gradients that contract pairs of output positions with
// vdpbf16ps (bf16-dot=on, docs/Lowering.md §2.6; on a host without
// AVX512-BF16 the JIT computes the same arithmetic with FMAs), against the
// reference: a 3x3 SAME layer with 48 -> 40 output channels (32 + 8
// columns: the 8 as FMAs), stride 2 with 64 channels, dilation 2 with
// explicit padding, a channels-first (NCHW) layer, a 3-D one, the same
// layer split into output-channel parts on 2 threads and into reduction
// blocks (a 64 KiB last-level cache), and 1x1 layers (one contraction:
// split-K; with more input than output channels on 2 threads, row parts).
// RUN: conv-run %s --entry same_40 --check --seed 1 --bf16-dot=on | FileCheck %s
// RUN: conv-run %s --entry same_40 --check --seed 1 --bf16-dot=off | FileCheck %s
// RUN: conv-run %s --entry stride2 --check --seed 2 --bf16-dot=on | FileCheck %s
// RUN: conv-run %s --entry dilated_explicit --check --seed 3 --bf16-dot=on | FileCheck %s
// RUN: conv-run %s --entry nchw --check --seed 4 --bf16-dot=on | FileCheck %s
// RUN: conv-run %s --entry ndhwc --check --seed 5 --bf16-dot=on --num-threads=2 --min-parallel-flops=0 | FileCheck %s
// RUN: conv-run %s --entry stride2 --check --seed 6 --bf16-dot=on --num-threads=2 --min-parallel-flops=0 | FileCheck %s
// RUN: conv-run %s --entry same_40 --check --seed 7 --bf16-dot=on --l3-cache-bytes=65536 | FileCheck %s
// RUN: conv-run %s --entry one_by_one --check --seed 8 --bf16-dot=on --num-threads=2 --min-parallel-flops=0 | FileCheck %s
// RUN: conv-run %s --entry row_parts --check --seed 10 --bf16-dot=on --num-threads=2 --min-parallel-flops=0 | FileCheck %s
// CHECK: check: max abs error {{.*}} (bf16): PASS
//
// Bit-identical for 1 and 2 threads (every dW element is summed by one
// thread in one order).
// RUN: conv-run %s --entry stride2 --seed 9 --bf16-dot=on --num-threads=1 --output %t.seq.npy
// RUN: conv-run %s --entry stride2 --seed 9 --bf16-dot=on --num-threads=2 --min-parallel-flops=0 --output %t.par.npy
// RUN: cmp %t.seq.npy %t.par.npy
//
// The kernels call the instruction only with bf16-dot (off: the op is
// widened to f32 FMAs).
// RUN: conv-opt %s --conv-lower-to-llvm-cpu="bf16-dot=on" | FileCheck %s --check-prefix=IR
// RUN: conv-opt %s --conv-lower-to-llvm-cpu="bf16-dot=off" | FileCheck %s --check-prefix=NOIR
// IR-LABEL: llvm.func @same_40(
// IR:         llvm.call_intrinsic "llvm.x86.avx512bf16.dpbf16ps.512"
// IR-LABEL: llvm.func @stride2(
// IR:         llvm.call_intrinsic "llvm.x86.avx512bf16.dpbf16ps.512"
// IR-LABEL: llvm.func @nchw(
// IR:         llvm.call_intrinsic "llvm.x86.avx512bf16.dpbf16ps.512"
// NOIR-NOT:   dpbf16ps
func.func @same_40(%x: tensor<4x10x12x48xbf16>, %dy: tensor<4x10x12x40xbf16>) -> tensor<3x3x48x40xbf16> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = SAME strides = [1, 1] dilations = [1, 1] : tensor<4x10x12x48xbf16>, tensor<4x10x12x40xbf16> -> tensor<3x3x48x40xbf16>
  return %dw : tensor<3x3x48x40xbf16>
}
func.func @stride2(%x: tensor<2x13x17x64xbf16>, %dy: tensor<2x6x8x64xbf16>) -> tensor<3x3x64x64xbf16> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = VALID strides = [2, 2] dilations = [1, 1] : tensor<2x13x17x64xbf16>, tensor<2x6x8x64xbf16> -> tensor<3x3x64x64xbf16>
  return %dw : tensor<3x3x64x64xbf16>
}
func.func @dilated_explicit(%x: tensor<2x9x10x32xbf16>, %dy: tensor<2x8x8x48xbf16>) -> tensor<3x3x32x48xbf16> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = EXPLICIT explicit_paddings = [1, 2, 2, 0] strides = [1, 1] dilations = [2, 2] : tensor<2x9x10x32xbf16>, tensor<2x8x8x48xbf16> -> tensor<3x3x32x48xbf16>
  return %dw : tensor<3x3x32x48xbf16>
}
func.func @nchw(%x: tensor<2x32x10x10xbf16>, %dy: tensor<2x64x10x10xbf16>) -> tensor<3x3x32x64xbf16> {
  %dw = conv.backprop_filter %x, %dy data_format = NCHW padding = SAME strides = [1, 1] dilations = [1, 1] : tensor<2x32x10x10xbf16>, tensor<2x64x10x10xbf16> -> tensor<3x3x32x64xbf16>
  return %dw : tensor<3x3x32x64xbf16>
}
func.func @ndhwc(%x: tensor<1x6x6x8x32xbf16>, %dy: tensor<1x4x4x6x32xbf16>) -> tensor<3x3x3x32x32xbf16> {
  %dw = conv.backprop_filter %x, %dy data_format = NDHWC padding = VALID strides = [1, 1, 1] dilations = [1, 1, 1] : tensor<1x6x6x8x32xbf16>, tensor<1x4x4x6x32xbf16> -> tensor<3x3x3x32x32xbf16>
  return %dw : tensor<3x3x3x32x32xbf16>
}
func.func @one_by_one(%x: tensor<4x14x14x256xbf16>, %dy: tensor<4x14x14x256xbf16>) -> tensor<1x1x256x256xbf16> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = VALID strides = [1, 1] dilations = [1, 1] : tensor<4x14x14x256xbf16>, tensor<4x14x14x256xbf16> -> tensor<1x1x256x256xbf16>
  return %dw : tensor<1x1x256x256xbf16>
}
func.func @row_parts(%x: tensor<4x14x14x512xbf16>, %dy: tensor<4x14x14x128xbf16>) -> tensor<1x1x512x128xbf16> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = VALID strides = [1, 1] dilations = [1, 1] : tensor<4x14x14x512xbf16>, tensor<4x14x14x128xbf16> -> tensor<1x1x512x128xbf16>
  return %dw : tensor<1x1x512x128xbf16>
}
