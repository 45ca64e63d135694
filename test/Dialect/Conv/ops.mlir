// RUN: conv-opt %s | conv-opt | FileCheck %s
// RUN: conv-opt %s --mlir-print-op-generic | conv-opt | FileCheck %s

// Round trip of conv.backprop_filter and conv.transpose, in custom and generic
// form. Every shape below follows spec §1.3 (backprop_filter) and §2.2
// (transpose); the comments give the arithmetic per spatial dimension
// (k_eff = (k - 1) * d + 1). Each check pins the whole printed op line, so an
// optional attribute that is absent in the input must stay absent.

//===----------------------------------------------------------------------===//
// conv.backprop_filter
//===----------------------------------------------------------------------===//

// NHWC, SAME, stride 2: out = ceil(4 / 2) = 2.
// CHECK-LABEL: func.func @bf_same
// CHECK: conv.backprop_filter %{{.*}}, %{{.*}} data_format = NHWC padding = SAME strides = [2, 2] dilations = [1, 1] : tensor<1x4x4x3xf32>, tensor<1x2x2x2xf32> -> tensor<3x3x3x2xf32>
func.func @bf_same(%x: tensor<1x4x4x3xf32>, %dy: tensor<1x2x2x2xf32>) -> tensor<3x3x3x2xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = SAME strides = [2, 2] dilations = [1, 1] : tensor<1x4x4x3xf32>, tensor<1x2x2x2xf32> -> tensor<3x3x3x2xf32>
  return %dw : tensor<3x3x3x2xf32>
}

// NWC, VALID, f16: W out = (10 - 3 + 1) / 1 = 8.
// CHECK-LABEL: func.func @bf_nwc_valid_f16
// CHECK-SAME: (%[[X:.+]]: tensor<2x10x4xf16>, %[[DY:.+]]: tensor<2x8x6xf16>)
// CHECK: %[[DW:.+]] = conv.backprop_filter %[[X]], %[[DY]] data_format = NWC padding = VALID strides = [1] dilations = [1] : tensor<2x10x4xf16>, tensor<2x8x6xf16> -> tensor<3x4x6xf16>
// CHECK: return %[[DW]] : tensor<3x4x6xf16>
func.func @bf_nwc_valid_f16(%x: tensor<2x10x4xf16>, %dy: tensor<2x8x6xf16>) -> tensor<3x4x6xf16> {
  %dw = conv.backprop_filter %x, %dy data_format = NWC padding = VALID strides = [1] dilations = [1] : tensor<2x10x4xf16>, tensor<2x8x6xf16> -> tensor<3x4x6xf16>
  return %dw : tensor<3x4x6xf16>
}

// NDHWC, SAME, bf16, strides [1, 2, 3], dilations [1, 1, 2]:
// D ceil(5 / 1) = 5, H ceil(6 / 2) = 3, W ceil(7 / 3) = 3.
// CHECK-LABEL: func.func @bf_ndhwc_same_bf16
// CHECK: conv.backprop_filter %{{.*}}, %{{.*}} data_format = NDHWC padding = SAME strides = [1, 2, 3] dilations = [1, 1, 2] : tensor<1x5x6x7x2xbf16>, tensor<1x5x3x3x4xbf16> -> tensor<2x3x3x2x4xbf16>
func.func @bf_ndhwc_same_bf16(%x: tensor<1x5x6x7x2xbf16>, %dy: tensor<1x5x3x3x4xbf16>) -> tensor<2x3x3x2x4xbf16> {
  %dw = conv.backprop_filter %x, %dy data_format = NDHWC padding = SAME strides = [1, 2, 3] dilations = [1, 1, 2] : tensor<1x5x6x7x2xbf16>, tensor<1x5x3x3x4xbf16> -> tensor<2x3x3x2x4xbf16>
  return %dw : tensor<2x3x3x2x4xbf16>
}

// NCW, EXPLICIT [1, 2], stride 2, dilation 2, groups 4 / 2 = 2, f64:
// k_eff = 5, W out = (9 + 1 + 2 - 5 + 2) / 2 = 4.
// CHECK-LABEL: func.func @bf_ncw_explicit_grouped_f64
// CHECK: conv.backprop_filter %{{.*}}, %{{.*}} data_format = NCW padding = EXPLICIT explicit_paddings = [1, 2] strides = [2] dilations = [2] : tensor<3x4x9xf64>, tensor<3x8x4xf64> -> tensor<3x2x8xf64>
func.func @bf_ncw_explicit_grouped_f64(%x: tensor<3x4x9xf64>, %dy: tensor<3x8x4xf64>) -> tensor<3x2x8xf64> {
  %dw = conv.backprop_filter %x, %dy data_format = NCW padding = EXPLICIT explicit_paddings = [1, 2] strides = [2] dilations = [2] : tensor<3x4x9xf64>, tensor<3x8x4xf64> -> tensor<3x2x8xf64>
  return %dw : tensor<3x2x8xf64>
}

// NCHW, VALID, strides [2, 1], dilations [2, 3]: k_eff H 5, W 7;
// H (11 - 5 + 2) / 2 = 4, W (12 - 7 + 1) / 1 = 6.
// CHECK-LABEL: func.func @bf_nchw_valid_dilated
// CHECK: conv.backprop_filter %{{.*}}, %{{.*}} data_format = NCHW padding = VALID strides = [2, 1] dilations = [2, 3] : tensor<1x3x11x12xf32>, tensor<1x5x4x6xf32> -> tensor<3x3x3x5xf32>
func.func @bf_nchw_valid_dilated(%x: tensor<1x3x11x12xf32>, %dy: tensor<1x5x4x6xf32>) -> tensor<3x3x3x5xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NCHW padding = VALID strides = [2, 1] dilations = [2, 3] : tensor<1x3x11x12xf32>, tensor<1x5x4x6xf32> -> tensor<3x3x3x5xf32>
  return %dw : tensor<3x3x3x5xf32>
}

// NCDHW, EXPLICIT, groups 6 / 2 = 3 (Cout 9), strides [1, 2, 2], f16:
// D (4 + 0 + 1 - 2 + 1) / 1 = 4, H (5 + 1 + 0 - 2 + 2) / 2 = 3,
// W (6 + 1 + 1 - 2 + 2) / 2 = 4.
// CHECK-LABEL: func.func @bf_ncdhw_explicit_grouped_f16
// CHECK: conv.backprop_filter %{{.*}}, %{{.*}} data_format = NCDHW padding = EXPLICIT explicit_paddings = [0, 1, 1, 0, 1, 1] strides = [1, 2, 2] dilations = [1, 1, 1] : tensor<2x6x4x5x6xf16>, tensor<2x9x4x3x4xf16> -> tensor<2x2x2x2x9xf16>
func.func @bf_ncdhw_explicit_grouped_f16(%x: tensor<2x6x4x5x6xf16>, %dy: tensor<2x9x4x3x4xf16>) -> tensor<2x2x2x2x9xf16> {
  %dw = conv.backprop_filter %x, %dy data_format = NCDHW padding = EXPLICIT explicit_paddings = [0, 1, 1, 0, 1, 1] strides = [1, 2, 2] dilations = [1, 1, 1] : tensor<2x6x4x5x6xf16>, tensor<2x9x4x3x4xf16> -> tensor<2x2x2x2x9xf16>
  return %dw : tensor<2x2x2x2x9xf16>
}

// NHWC, EXPLICIT [1, 1, 2, 0], strides [2, 3], dilations [2, 1], f64:
// H k_eff 5: (7 + 2 - 5 + 2) / 2 = 3; W k_eff 3: (8 + 2 - 3 + 3) / 3 = 3.
// CHECK-LABEL: func.func @bf_nhwc_explicit_strided_dilated_f64
// CHECK: conv.backprop_filter %{{.*}}, %{{.*}} data_format = NHWC padding = EXPLICIT explicit_paddings = [1, 1, 2, 0] strides = [2, 3] dilations = [2, 1] : tensor<2x7x8x4xf64>, tensor<2x3x3x2xf64> -> tensor<3x3x4x2xf64>
func.func @bf_nhwc_explicit_strided_dilated_f64(%x: tensor<2x7x8x4xf64>, %dy: tensor<2x3x3x2xf64>) -> tensor<3x3x4x2xf64> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = EXPLICIT explicit_paddings = [1, 1, 2, 0] strides = [2, 3] dilations = [2, 1] : tensor<2x7x8x4xf64>, tensor<2x3x3x2xf64> -> tensor<3x3x4x2xf64>
  return %dw : tensor<3x3x4x2xf64>
}

// Depthwise-style grouping: Cin 4, filter in-channels 1 (groups 4), Cout 8.
// CHECK-LABEL: func.func @bf_nhwc_depthwise
// CHECK: conv.backprop_filter %{{.*}}, %{{.*}} data_format = NHWC padding = VALID strides = [1, 1] dilations = [1, 1] : tensor<1x5x5x4xf32>, tensor<1x3x3x8xf32> -> tensor<3x3x1x8xf32>
func.func @bf_nhwc_depthwise(%x: tensor<1x5x5x4xf32>, %dy: tensor<1x3x3x8xf32>) -> tensor<3x3x1x8xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = VALID strides = [1, 1] dilations = [1, 1] : tensor<1x5x5x4xf32>, tensor<1x3x3x8xf32> -> tensor<3x3x1x8xf32>
  return %dw : tensor<3x3x1x8xf32>
}

// Zero batch.
// CHECK-LABEL: func.func @bf_zero_batch
// CHECK: conv.backprop_filter %{{.*}}, %{{.*}} data_format = NHWC padding = VALID strides = [1, 1] dilations = [1, 1] : tensor<0x4x4x3xf32>, tensor<0x2x2x2xf32> -> tensor<3x3x3x2xf32>
func.func @bf_zero_batch(%x: tensor<0x4x4x3xf32>, %dy: tensor<0x2x2x2xf32>) -> tensor<3x3x3x2xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = VALID strides = [1, 1] dilations = [1, 1] : tensor<0x4x4x3xf32>, tensor<0x2x2x2xf32> -> tensor<3x3x3x2xf32>
  return %dw : tensor<3x3x3x2xf32>
}

// Zero output channels.
// CHECK-LABEL: func.func @bf_zero_out_channels
// CHECK: conv.backprop_filter %{{.*}}, %{{.*}} data_format = NWC padding = VALID strides = [1] dilations = [1] : tensor<1x4x3xf32>, tensor<1x2x0xf32> -> tensor<3x3x0xf32>
func.func @bf_zero_out_channels(%x: tensor<1x4x3xf32>, %dy: tensor<1x2x0xf32>) -> tensor<3x3x0xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NWC padding = VALID strides = [1] dilations = [1] : tensor<1x4x3xf32>, tensor<1x2x0xf32> -> tensor<3x3x0xf32>
  return %dw : tensor<3x3x0xf32>
}

// Zero filter spatial size: k_eff = (0 - 1) * 1 + 1 = 0, out = (4 - 0 + 1) = 5.
// CHECK-LABEL: func.func @bf_zero_filter_spatial
// CHECK: conv.backprop_filter %{{.*}}, %{{.*}} data_format = NWC padding = VALID strides = [1] dilations = [1] : tensor<1x4x3xf32>, tensor<1x5x2xf32> -> tensor<0x3x2xf32>
func.func @bf_zero_filter_spatial(%x: tensor<1x4x3xf32>, %dy: tensor<1x5x2xf32>) -> tensor<0x3x2xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NWC padding = VALID strides = [1] dilations = [1] : tensor<1x4x3xf32>, tensor<1x5x2xf32> -> tensor<0x3x2xf32>
  return %dw : tensor<0x3x2xf32>
}

// Zero input spatial size, SAME: out = ceil(0 / 1) = 0.
// CHECK-LABEL: func.func @bf_zero_spatial_same
// CHECK: conv.backprop_filter %{{.*}}, %{{.*}} data_format = NCW padding = SAME strides = [1] dilations = [1] : tensor<1x2x0xf32>, tensor<1x4x0xf32> -> tensor<3x2x4xf32>
func.func @bf_zero_spatial_same(%x: tensor<1x2x0xf32>, %dy: tensor<1x4x0xf32>) -> tensor<3x2x4xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NCW padding = SAME strides = [1] dilations = [1] : tensor<1x2x0xf32>, tensor<1x4x0xf32> -> tensor<3x2x4xf32>
  return %dw : tensor<3x2x4xf32>
}

// Truncating division (spec §1.3): VALID with in < k_eff.
// W: in 1, k 4, s 2: (1 - 4 + 2) / 2 = -1 / 2 = 0 (floor division would
// give -1 and an error). H: in 1, k 3, s 2: (1 - 3 + 2) / 2 = 0.
// CHECK-LABEL: func.func @bf_valid_truncating_division
// CHECK: conv.backprop_filter %{{.*}}, %{{.*}} data_format = NHWC padding = VALID strides = [2, 2] dilations = [1, 1] : tensor<1x1x1x2xf32>, tensor<1x0x0x3xf32> -> tensor<3x4x2x3xf32>
func.func @bf_valid_truncating_division(%x: tensor<1x1x1x2xf32>, %dy: tensor<1x0x0x3xf32>) -> tensor<3x4x2x3xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = VALID strides = [2, 2] dilations = [1, 1] : tensor<1x1x1x2xf32>, tensor<1x0x0x3xf32> -> tensor<3x4x2x3xf32>
  return %dw : tensor<3x4x2x3xf32>
}

// Extra discardable attributes are kept next to the op's own.
// CHECK-LABEL: func.func @bf_extra_attr
// CHECK: conv.backprop_filter %{{.*}}, %{{.*}} data_format = NHWC padding = SAME strides = [1, 1] dilations = [1, 1] {tag = "keep"} : tensor<1x3x3x1xf32>, tensor<1x3x3x1xf32> -> tensor<2x2x1x1xf32>
func.func @bf_extra_attr(%x: tensor<1x3x3x1xf32>, %dy: tensor<1x3x3x1xf32>) -> tensor<2x2x1x1xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = SAME strides = [1, 1] dilations = [1, 1] {tag = "keep"} : tensor<1x3x3x1xf32>, tensor<1x3x3x1xf32> -> tensor<2x2x1x1xf32>
  return %dw : tensor<2x2x1x1xf32>
}

//===----------------------------------------------------------------------===//
// conv.transpose
//===----------------------------------------------------------------------===//

// channels_last 2-D, same, output_padding [1, 1]: (4 - 1) * 2 + 3 % 2 + 1 = 8.
// CHECK-LABEL: func.func @tr_nhwc_same_op
// CHECK-SAME: (%[[X:.+]]: tensor<2x4x4x3xf32>, %[[K:.+]]: tensor<3x3x5x3xf32>)
// CHECK: %[[Y:.+]] = conv.transpose %[[X]], %[[K]] data_format = channels_last padding = same strides = [2, 2] dilation_rate = [1, 1] output_padding = [1, 1] : tensor<2x4x4x3xf32>, tensor<3x3x5x3xf32> -> tensor<2x8x8x5xf32>
// CHECK: return %[[Y]] : tensor<2x8x8x5xf32>
func.func @tr_nhwc_same_op(%x: tensor<2x4x4x3xf32>, %k: tensor<3x3x5x3xf32>) -> tensor<2x8x8x5xf32> {
  %y = conv.transpose %x, %k data_format = channels_last padding = same strides = [2, 2] dilation_rate = [1, 1] output_padding = [1, 1] : tensor<2x4x4x3xf32>, tensor<3x3x5x3xf32> -> tensor<2x8x8x5xf32>
  return %y : tensor<2x8x8x5xf32>
}

// channels_last 1-D, valid, None (Keras nn_test): (4 - 1) * 2 + max(2, 2) = 8.
// CHECK-LABEL: func.func @tr_nwc_valid_none
// CHECK: conv.transpose %{{.*}}, %{{.*}} data_format = channels_last padding = valid strides = [2] dilation_rate = [1] : tensor<2x4x3xf32>, tensor<2x5x3xf32> -> tensor<2x8x5xf32>
func.func @tr_nwc_valid_none(%x: tensor<2x4x3xf32>, %k: tensor<2x5x3xf32>) -> tensor<2x8x5xf32> {
  %y = conv.transpose %x, %k data_format = channels_last padding = valid strides = [2] dilation_rate = [1] : tensor<2x4x3xf32>, tensor<2x5x3xf32> -> tensor<2x8x5xf32>
  return %y : tensor<2x8x5xf32>
}

// The three output_padding states of one valid 1-D layer (k 1, s 3, in 4)
// give three different sizes: None (4 - 1) * 3 + max(1, 3) = 12,
// [0] (4 - 1) * 3 + 1 + 0 = 10, [2] (4 - 1) * 3 + 1 + 2 = 12.
// CHECK-LABEL: func.func @tr_valid_output_padding_states
// CHECK: conv.transpose %{{.*}}, %{{.*}} data_format = channels_last padding = valid strides = [3] dilation_rate = [1] : tensor<1x4x2xf32>, tensor<1x3x2xf32> -> tensor<1x12x3xf32>
// CHECK: conv.transpose %{{.*}}, %{{.*}} data_format = channels_last padding = valid strides = [3] dilation_rate = [1] output_padding = [0] : tensor<1x4x2xf32>, tensor<1x3x2xf32> -> tensor<1x10x3xf32>
// CHECK: conv.transpose %{{.*}}, %{{.*}} data_format = channels_last padding = valid strides = [3] dilation_rate = [1] output_padding = [2] : tensor<1x4x2xf32>, tensor<1x3x2xf32> -> tensor<1x12x3xf32>
func.func @tr_valid_output_padding_states(%x: tensor<1x4x2xf32>, %k: tensor<1x3x2xf32>) -> (tensor<1x12x3xf32>, tensor<1x10x3xf32>, tensor<1x12x3xf32>) {
  %a = conv.transpose %x, %k data_format = channels_last padding = valid strides = [3] dilation_rate = [1] : tensor<1x4x2xf32>, tensor<1x3x2xf32> -> tensor<1x12x3xf32>
  %b = conv.transpose %x, %k data_format = channels_last padding = valid strides = [3] dilation_rate = [1] output_padding = [0] : tensor<1x4x2xf32>, tensor<1x3x2xf32> -> tensor<1x10x3xf32>
  %c = conv.transpose %x, %k data_format = channels_last padding = valid strides = [3] dilation_rate = [1] output_padding = [2] : tensor<1x4x2xf32>, tensor<1x3x2xf32> -> tensor<1x12x3xf32>
  return %a, %b, %c : tensor<1x12x3xf32>, tensor<1x10x3xf32>, tensor<1x12x3xf32>
}

// same: None gives in * s = 10, [0] gives (5 - 1) * 2 + 3 % 2 + 0 = 9
// (spec §2.2: 0 and None differ).
// CHECK-LABEL: func.func @tr_same_none_vs_zero
// CHECK: conv.transpose %{{.*}}, %{{.*}} data_format = channels_last padding = same strides = [2] dilation_rate = [1] : tensor<1x5x2xf32>, tensor<3x4x2xf32> -> tensor<1x10x4xf32>
// CHECK: conv.transpose %{{.*}}, %{{.*}} data_format = channels_last padding = same strides = [2] dilation_rate = [1] output_padding = [0] : tensor<1x5x2xf32>, tensor<3x4x2xf32> -> tensor<1x9x4xf32>
func.func @tr_same_none_vs_zero(%x: tensor<1x5x2xf32>, %k: tensor<3x4x2xf32>) -> (tensor<1x10x4xf32>, tensor<1x9x4xf32>) {
  %a = conv.transpose %x, %k data_format = channels_last padding = same strides = [2] dilation_rate = [1] : tensor<1x5x2xf32>, tensor<3x4x2xf32> -> tensor<1x10x4xf32>
  %b = conv.transpose %x, %k data_format = channels_last padding = same strides = [2] dilation_rate = [1] output_padding = [0] : tensor<1x5x2xf32>, tensor<3x4x2xf32> -> tensor<1x9x4xf32>
  return %a, %b : tensor<1x10x4xf32>, tensor<1x9x4xf32>
}

// channels_last 3-D, same, None, f64: D 2 * 1, H 3 * 2, W 4 * 2.
// CHECK-LABEL: func.func @tr_ndhwc_same_none_f64
// CHECK: conv.transpose %{{.*}}, %{{.*}} data_format = channels_last padding = same strides = [1, 2, 2] dilation_rate = [1, 1, 1] : tensor<2x2x3x4x1xf64>, tensor<3x3x3x2x1xf64> -> tensor<2x2x6x8x2xf64>
func.func @tr_ndhwc_same_none_f64(%x: tensor<2x2x3x4x1xf64>, %k: tensor<3x3x3x2x1xf64>) -> tensor<2x2x6x8x2xf64> {
  %y = conv.transpose %x, %k data_format = channels_last padding = same strides = [1, 2, 2] dilation_rate = [1, 1, 1] : tensor<2x2x3x4x1xf64>, tensor<3x3x3x2x1xf64> -> tensor<2x2x6x8x2xf64>
  return %y : tensor<2x2x6x8x2xf64>
}

// channels_first 1-D, same, output_padding [0], dilation 2 with stride 2:
// k_eff 5, (5 - 1) * 2 + 5 % 2 + 0 = 9.
// CHECK-LABEL: func.func @tr_ncw_same_zero_op_dilated
// CHECK: conv.transpose %{{.*}}, %{{.*}} data_format = channels_first padding = same strides = [2] dilation_rate = [2] output_padding = [0] : tensor<2x3x5xf32>, tensor<3x6x3xf32> -> tensor<2x6x9xf32>
func.func @tr_ncw_same_zero_op_dilated(%x: tensor<2x3x5xf32>, %k: tensor<3x6x3xf32>) -> tensor<2x6x9xf32> {
  %y = conv.transpose %x, %k data_format = channels_first padding = same strides = [2] dilation_rate = [2] output_padding = [0] : tensor<2x3x5xf32>, tensor<3x6x3xf32> -> tensor<2x6x9xf32>
  return %y : tensor<2x6x9xf32>
}

// channels_first 2-D, same, None, f16, strides [2, 3]: H 5 * 2, W 6 * 3.
// CHECK-LABEL: func.func @tr_nchw_same_none_f16
// CHECK: conv.transpose %{{.*}}, %{{.*}} data_format = channels_first padding = same strides = [2, 3] dilation_rate = [1, 1] : tensor<1x3x5x6xf16>, tensor<3x3x4x3xf16> -> tensor<1x4x10x18xf16>
func.func @tr_nchw_same_none_f16(%x: tensor<1x3x5x6xf16>, %k: tensor<3x3x4x3xf16>) -> tensor<1x4x10x18xf16> {
  %y = conv.transpose %x, %k data_format = channels_first padding = same strides = [2, 3] dilation_rate = [1, 1] : tensor<1x3x5x6xf16>, tensor<3x3x4x3xf16> -> tensor<1x4x10x18xf16>
  return %y : tensor<1x4x10x18xf16>
}

// channels_first 3-D, valid, output_padding [1, 0, 2], bf16:
// D (3 - 1) * 2 + 2 + 1 = 7, H (3 - 1) * 2 + 2 + 0 = 6, W (3 - 1) * 3 + 2 + 2 = 10.
// CHECK-LABEL: func.func @tr_ncdhw_valid_op_bf16
// CHECK: conv.transpose %{{.*}}, %{{.*}} data_format = channels_first padding = valid strides = [2, 2, 3] dilation_rate = [1, 1, 1] output_padding = [1, 0, 2] : tensor<1x2x3x3x3xbf16>, tensor<2x2x2x4x2xbf16> -> tensor<1x4x7x6x10xbf16>
func.func @tr_ncdhw_valid_op_bf16(%x: tensor<1x2x3x3x3xbf16>, %k: tensor<2x2x2x4x2xbf16>) -> tensor<1x4x7x6x10xbf16> {
  %y = conv.transpose %x, %k data_format = channels_first padding = valid strides = [2, 2, 3] dilation_rate = [1, 1, 1] output_padding = [1, 0, 2] : tensor<1x2x3x3x3xbf16>, tensor<2x2x2x4x2xbf16> -> tensor<1x4x7x6x10xbf16>
  return %y : tensor<1x4x7x6x10xbf16>
}

// Dilation with stride > 1 (JAX semantics), valid, None: k_eff H 5, W 7;
// H (4 - 1) * 2 + max(5, 2) = 11, W (4 - 1) * 2 + max(7, 2) = 13.
// CHECK-LABEL: func.func @tr_nhwc_valid_dilated_strided
// CHECK: conv.transpose %{{.*}}, %{{.*}} data_format = channels_last padding = valid strides = [2, 2] dilation_rate = [2, 3] : tensor<1x4x4x2xf32>, tensor<3x3x3x2xf32> -> tensor<1x11x13x3xf32>
func.func @tr_nhwc_valid_dilated_strided(%x: tensor<1x4x4x2xf32>, %k: tensor<3x3x3x2xf32>) -> tensor<1x11x13x3xf32> {
  %y = conv.transpose %x, %k data_format = channels_last padding = valid strides = [2, 2] dilation_rate = [2, 3] : tensor<1x4x4x2xf32>, tensor<3x3x3x2xf32> -> tensor<1x11x13x3xf32>
  return %y : tensor<1x11x13x3xf32>
}

// valid, None, stride larger than the kernel: (3 - 1) * 4 + max(2, 4) = 12.
// CHECK-LABEL: func.func @tr_valid_stride_gt_kernel
// CHECK: conv.transpose %{{.*}}, %{{.*}} data_format = channels_last padding = valid strides = [4] dilation_rate = [1] : tensor<1x3x1xf32>, tensor<2x1x1xf32> -> tensor<1x12x1xf32>
func.func @tr_valid_stride_gt_kernel(%x: tensor<1x3x1xf32>, %k: tensor<2x1x1xf32>) -> tensor<1x12x1xf32> {
  %y = conv.transpose %x, %k data_format = channels_last padding = valid strides = [4] dilation_rate = [1] : tensor<1x3x1xf32>, tensor<2x1x1xf32> -> tensor<1x12x1xf32>
  return %y : tensor<1x12x1xf32>
}

// Zero batch and zero output channels.
// CHECK-LABEL: func.func @tr_zero_batch_zero_channels
// CHECK: conv.transpose %{{.*}}, %{{.*}} data_format = channels_last padding = valid strides = [2] dilation_rate = [1] : tensor<0x4x3xf32>, tensor<2x0x3xf32> -> tensor<0x8x0xf32>
func.func @tr_zero_batch_zero_channels(%x: tensor<0x4x3xf32>, %k: tensor<2x0x3xf32>) -> tensor<0x8x0xf32> {
  %y = conv.transpose %x, %k data_format = channels_last padding = valid strides = [2] dilation_rate = [1] : tensor<0x4x3xf32>, tensor<2x0x3xf32> -> tensor<0x8x0xf32>
  return %y : tensor<0x8x0xf32>
}

// Zero input spatial size: same, None gives 0 * 2 = 0; valid, None gives
// (0 - 1) * 2 + max(1, 2) = 0.
// CHECK-LABEL: func.func @tr_zero_spatial
// CHECK: conv.transpose %{{.*}}, %{{.*}} data_format = channels_first padding = same strides = [2, 2] dilation_rate = [1, 1] : tensor<1x3x0x4xf32>, tensor<1x1x2x3xf32> -> tensor<1x2x0x8xf32>
// CHECK: conv.transpose %{{.*}}, %{{.*}} data_format = channels_first padding = valid strides = [2, 2] dilation_rate = [1, 1] : tensor<1x3x0x4xf32>, tensor<1x1x2x3xf32> -> tensor<1x2x0x8xf32>
func.func @tr_zero_spatial(%x: tensor<1x3x0x4xf32>, %k: tensor<1x1x2x3xf32>) -> (tensor<1x2x0x8xf32>, tensor<1x2x0x8xf32>) {
  %a = conv.transpose %x, %k data_format = channels_first padding = same strides = [2, 2] dilation_rate = [1, 1] : tensor<1x3x0x4xf32>, tensor<1x1x2x3xf32> -> tensor<1x2x0x8xf32>
  %b = conv.transpose %x, %k data_format = channels_first padding = valid strides = [2, 2] dilation_rate = [1, 1] : tensor<1x3x0x4xf32>, tensor<1x1x2x3xf32> -> tensor<1x2x0x8xf32>
  return %a, %b : tensor<1x2x0x8xf32>, tensor<1x2x0x8xf32>
}
