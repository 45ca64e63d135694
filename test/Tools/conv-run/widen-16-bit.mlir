// 16-bit ops with enough work per operand element run as the f32 op between
// conversions (convert-conv-to-linalg widen-16-bit-operands, set by the
// optimized pipeline): against the reference with 1 and 2 threads, and
// bit-identical across them; bf16 transposes widened only without
// bf16-dot.
// RUN: conv-run %s --entry f16_transpose --check --seed 1 --num-threads=1 | FileCheck %s --check-prefix=F16
// RUN: conv-run %s --entry f16_transpose --check --seed 1 --num-threads=2 --min-parallel-flops=0 | FileCheck %s --check-prefix=F16
// RUN: conv-run %s --entry bf16_transpose --check --seed 2 --bf16-dot=off | FileCheck %s --check-prefix=BF16
// RUN: conv-run %s --entry bf16_dw --check --seed 3 --num-threads=1 | FileCheck %s --check-prefix=BF16
// RUN: conv-run %s --entry bf16_dw --check --seed 3 --num-threads=2 --min-parallel-flops=0 | FileCheck %s --check-prefix=BF16
// RUN: conv-run %s --entry f16_dw_nchw --check --seed 4 --num-threads=2 --min-parallel-flops=0 | FileCheck %s --check-prefix=F16
// RUN: conv-run %s --entry bf16_dw --seed 5 --num-threads=1 --output %t.seq.npy
// RUN: conv-run %s --entry bf16_dw --seed 5 --num-threads=2 --min-parallel-flops=0 --output %t.par.npy
// RUN: cmp %t.seq.npy %t.par.npy
// F16: check: max abs error {{.*}} (f16): PASS
// BF16: check: max abs error {{.*}} (bf16): PASS
//
// The f32 ops are visible in the lowered code: the widened operands are
// f32 buffers.
// RUN: conv-opt %s --conv-lower-to-llvm-cpu --mlir-print-ir-after=convert-conv-to-linalg 2>&1 | FileCheck %s --check-prefix=IR
// IR-LABEL: func.func @f16_transpose
// IR:         conv.role = "cast"
// IR:         linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<4x9x9x64xf32>, tensor<2x2x64x64xf32>) {{.*}} {conv.phase_window = {{.*}}, conv.role = "transpose_phase"}

func.func @f16_transpose(%x: tensor<4x8x8x64xf16>, %k: tensor<3x3x64x64xf16>) -> tensor<4x16x16x64xf16> {
  %y = conv.transpose %x, %k data_format = channels_last padding = same strides = [2, 2] dilation_rate = [1, 1] : tensor<4x8x8x64xf16>, tensor<3x3x64x64xf16> -> tensor<4x16x16x64xf16>
  return %y : tensor<4x16x16x64xf16>
}

func.func @bf16_transpose(%x: tensor<4x8x8x64xbf16>, %k: tensor<4x4x40x64xbf16>) -> tensor<4x16x16x40xbf16> {
  %y = conv.transpose %x, %k data_format = channels_last padding = same strides = [2, 2] dilation_rate = [1, 1] : tensor<4x8x8x64xbf16>, tensor<4x4x40x64xbf16> -> tensor<4x16x16x40xbf16>
  return %y : tensor<4x16x16x40xbf16>
}

func.func @bf16_dw(%x: tensor<4x14x14x64xbf16>, %dy: tensor<4x14x14x48xbf16>) -> tensor<3x3x64x48xbf16> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = SAME strides = [1, 1] dilations = [1, 1] : tensor<4x14x14x64xbf16>, tensor<4x14x14x48xbf16> -> tensor<3x3x64x48xbf16>
  return %dw : tensor<3x3x64x48xbf16>
}

func.func @f16_dw_nchw(%x: tensor<2x64x15x15xf16>, %dy: tensor<2x64x7x7xf16>) -> tensor<3x3x64x64xf16> {
  %dw = conv.backprop_filter %x, %dy data_format = NCHW padding = VALID strides = [2, 2] dilations = [1, 1] : tensor<2x64x15x15xf16>, tensor<2x64x7x7xf16> -> tensor<3x3x64x64xf16>
  return %dw : tensor<3x3x64x64xf16>
}
