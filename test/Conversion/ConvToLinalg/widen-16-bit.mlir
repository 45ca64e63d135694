// RUN: conv-opt %s --convert-conv-to-linalg="widen-16-bit-operands bf16-dot" --mlir-print-local-scope --split-input-file | FileCheck %s
// RUN: conv-opt %s --convert-conv-to-linalg="widen-16-bit-operands" --mlir-print-local-scope --split-input-file | FileCheck %s --check-prefix=NODOT
// RUN: conv-opt %s --convert-conv-to-linalg --mlir-print-local-scope --split-input-file | FileCheck %s --check-prefix=OFF

// An f16 transposed convolution (354 FLOPs per operand element) runs as
// the f32 op between conversions: both operands widened (exactly), the f32
// contraction, the result rounded once.
// CHECK-LABEL: func.func @f16_transpose
// CHECK-SAME:    (%[[X:.*]]: tensor<4x8x8x64xf16>, %[[K:.*]]: tensor<3x3x64x64xf16>)
// CHECK:         %[[XW:.*]] = linalg.generic {{.*}} ins(%[[X]] : tensor<4x8x8x64xf16>) outs(%{{.*}} : tensor<4x8x8x64xf32>) attrs =  {conv.role = "cast"}
// CHECK:           arith.extf %{{.*}} : f16 to f32
// CHECK:         %[[KW:.*]] = linalg.generic {{.*}} ins(%[[K]] : tensor<3x3x64x64xf16>) outs(%{{.*}} : tensor<3x3x64x64xf32>) attrs =  {conv.role = "cast"}
// CHECK:         linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<4x9x9x64xf32>, tensor<2x2x64x64xf32>) outs(%{{.*}} : tensor<4x8x8x64xf32>) attrs = {conv.phase_window = {{.*}}, conv.role = "transpose_phase"}
// CHECK-NOT:       arith.extf
// CHECK:         linalg.generic {{.*}} ins(%{{.*}} : tensor<4x16x16x64xf32>) outs(%{{.*}} : tensor<4x16x16x64xf16>) attrs =  {conv.role = "cast"}
// CHECK:           arith.truncf %{{.*}} : f32 to f16
// OFF-LABEL: func.func @f16_transpose
// OFF-NOT:     ins(%{{.*}} : tensor<4x8x8x64xf16>)
// OFF:         linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<4x9x9x64xf16>, tensor<2x2x64x64xf16>) {{.*}} {conv.phase_window = {{.*}}, conv.role = "transpose_phase"}
func.func @f16_transpose(%x: tensor<4x8x8x64xf16>, %k: tensor<3x3x64x64xf16>) -> tensor<4x16x16x64xf16> {
  %y = conv.transpose %x, %k data_format = channels_last padding = same strides = [2, 2] dilation_rate = [1, 1] : tensor<4x8x8x64xf16>, tensor<3x3x64x64xf16> -> tensor<4x16x16x64xf16>
  return %y : tensor<4x16x16x64xf16>
}

// -----

// bf16 transposed convolutions stay bf16 with bf16-dot (their register
// tiles use vdpbf16ps), and are widened without it.
// CHECK-LABEL: func.func @bf16_transpose
// CHECK-NOT:     ins(%{{.*}} : tensor<4x8x8x64xbf16>)
// CHECK:         linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<4x9x9x64xbf16>, tensor<2x2x64x64xbf16>) {{.*}} {conv.phase_window = {{.*}}, conv.role = "transpose_phase"}
// NODOT-LABEL: func.func @bf16_transpose
// NODOT:         outs(%{{.*}} : tensor<4x8x8x64xf32>) attrs =  {conv.role = "cast"}
// NODOT:         linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<4x9x9x64xf32>, tensor<2x2x64x64xf32>) {{.*}} {conv.phase_window = {{.*}}, conv.role = "transpose_phase"}
func.func @bf16_transpose(%x: tensor<4x8x8x64xbf16>, %k: tensor<3x3x64x64xbf16>) -> tensor<4x16x16x64xbf16> {
  %y = conv.transpose %x, %k data_format = channels_last padding = same strides = [2, 2] dilation_rate = [1, 1] : tensor<4x8x8x64xbf16>, tensor<3x3x64x64xbf16> -> tensor<4x16x16x64xbf16>
  return %y : tensor<4x16x16x64xbf16>
}

// -----

// A bf16 filter gradient with 576 FLOPs per operand element is widened
// without bf16-dot; with it, it stays bf16 and contracts pairs of output
// positions (an even last output dimension: 14; backprop-filter-bf16-pairs.mlir).
// One with an odd last output dimension (13) or groups is widened either way.
// A 1-D one with 64 (memory-bound: the conversions would cost more than the
// wider contraction saves) stays bf16.
// CHECK-LABEL: func.func @bf16_dw_widened
// CHECK-NOT:     xf32>) attrs =  {conv.role = "cast"}
// CHECK:         conv.role = "pair_pack"
// CHECK:         conv.role = "pair_pack"
// CHECK:         conv.dw_pairs, conv.role = "dw_tap"
// CHECK:         outs(%{{.*}} : tensor<3x3x64x64xbf16>) attrs =  {conv.role = "cast"}
// NODOT-LABEL: func.func @bf16_dw_widened
// NODOT:         outs(%{{.*}} : tensor<4x14x14x64xf32>) attrs =  {conv.role = "cast"}
// NODOT:         outs(%{{.*}} : tensor<4x14x14x64xf32>) attrs =  {conv.role = "cast"}
// NODOT-NOT:     pair_pack
// NODOT:         conv.role = "dw_tap"
// NODOT:         outs(%{{.*}} : tensor<3x3x64x64xbf16>) attrs =  {conv.role = "cast"}
// CHECK-LABEL: func.func @bf16_dw_odd_width
// CHECK:         outs(%{{.*}} : tensor<4x14x13x64xf32>) attrs =  {conv.role = "cast"}
// CHECK:         outs(%{{.*}} : tensor<4x14x13x64xf32>) attrs =  {conv.role = "cast"}
// CHECK-NOT:     pair_pack
// CHECK:         conv.role = "dw_tap"
// CHECK-LABEL: func.func @bf16_dw_grouped
// CHECK:         outs(%{{.*}} : tensor<4x14x14x128xf32>) attrs =  {conv.role = "cast"}
// CHECK-NOT:     pair_pack
// CHECK:         conv.role = "dw_tap"
// CHECK-LABEL: func.func @bf16_dw_memory_bound
// CHECK-NOT:     xf32>) attrs =  {conv.role = "cast"}
// CHECK:         conv.role = "dw_tap"
// CHECK:         outs(%{{.*}} : tensor<2x32x32xbf16>) attrs =  {conv.role = "cast"}
func.func @bf16_dw_widened(%x: tensor<4x14x14x64xbf16>, %dy: tensor<4x14x14x64xbf16>) -> tensor<3x3x64x64xbf16> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = SAME strides = [1, 1] dilations = [1, 1] : tensor<4x14x14x64xbf16>, tensor<4x14x14x64xbf16> -> tensor<3x3x64x64xbf16>
  return %dw : tensor<3x3x64x64xbf16>
}
func.func @bf16_dw_odd_width(%x: tensor<4x14x13x64xbf16>, %dy: tensor<4x14x13x64xbf16>) -> tensor<3x3x64x64xbf16> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = SAME strides = [1, 1] dilations = [1, 1] : tensor<4x14x13x64xbf16>, tensor<4x14x13x64xbf16> -> tensor<3x3x64x64xbf16>
  return %dw : tensor<3x3x64x64xbf16>
}
func.func @bf16_dw_grouped(%x: tensor<4x14x14x128xbf16>, %dy: tensor<4x14x14x128xbf16>) -> tensor<3x3x64x128xbf16> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = SAME strides = [1, 1] dilations = [1, 1] : tensor<4x14x14x128xbf16>, tensor<4x14x14x128xbf16> -> tensor<3x3x64x128xbf16>
  return %dw : tensor<3x3x64x128xbf16>
}
func.func @bf16_dw_memory_bound(%x: tensor<1x4096x32xbf16>, %dy: tensor<1x4095x32xbf16>) -> tensor<2x32x32xbf16> {
  %dw = conv.backprop_filter %x, %dy data_format = NWC padding = VALID strides = [1] dilations = [1] : tensor<1x4096x32xbf16>, tensor<1x4095x32xbf16> -> tensor<2x32x32xbf16>
  return %dw : tensor<2x32x32xbf16>
}
