// RUN: conv-opt %s --split-input-file --verify-diagnostics

// One case per verifier error of conv.backprop_filter and conv.transpose:
// ODS type and attribute constraints, the checks of ConvOps.cpp (static
// shapes, one element type, data_format vs rank, transpose result type) and
// every failure of computeBackpropFilterGeometry / computeTransposeGeometry
// (lib/Geometry) that the verifier can reach.

//===----------------------------------------------------------------------===//
// conv.backprop_filter: ODS constraints and parsing
//===----------------------------------------------------------------------===//

func.func @bf_memref_operand_custom(%x: memref<1x4x4x3xf32>, %dy: tensor<1x2x2x2xf32>) -> tensor<3x3x3x2xf32> {
  // expected-error @+1 {{invalid kind of type specified: expected builtin.tensor, but found 'memref<1x4x4x3xf32>'}}
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = SAME strides = [2, 2] dilations = [1, 1] : memref<1x4x4x3xf32>, tensor<1x2x2x2xf32> -> tensor<3x3x3x2xf32>
  return %dw : tensor<3x3x3x2xf32>
}

// -----

func.func @bf_memref_operand_generic(%x: memref<1x4x4x3xf32>, %dy: tensor<1x2x2x2xf32>) -> tensor<3x3x3x2xf32> {
  // expected-error @+1 {{'conv.backprop_filter' op operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float values, but got 'memref<1x4x4x3xf32>'}}
  %dw = "conv.backprop_filter"(%x, %dy) <{data_format = #conv<tf_data_format NHWC>, padding = #conv<tf_padding SAME>, strides = array<i64: 2, 2>, dilations = array<i64: 1, 1>}> : (memref<1x4x4x3xf32>, tensor<1x2x2x2xf32>) -> tensor<3x3x3x2xf32>
  return %dw : tensor<3x3x3x2xf32>
}

// -----

func.func @bf_i32(%x: tensor<1x4x4x3xi32>, %dy: tensor<1x2x2x2xi32>) -> tensor<3x3x3x2xi32> {
  // expected-error @+1 {{'conv.backprop_filter' op operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float values, but got 'tensor<1x4x4x3xi32>'}}
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = SAME strides = [2, 2] dilations = [1, 1] : tensor<1x4x4x3xi32>, tensor<1x2x2x2xi32> -> tensor<3x3x3x2xi32>
  return %dw : tensor<3x3x3x2xi32>
}

// -----

func.func @bf_f8(%x: tensor<1x4x4x3xf8E4M3FN>, %dy: tensor<1x2x2x2xf8E4M3FN>) -> tensor<3x3x3x2xf8E4M3FN> {
  // expected-error @+1 {{'conv.backprop_filter' op operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float values, but got 'tensor<1x4x4x3xf8E4M3FN>'}}
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = SAME strides = [2, 2] dilations = [1, 1] : tensor<1x4x4x3xf8E4M3FN>, tensor<1x2x2x2xf8E4M3FN> -> tensor<3x3x3x2xf8E4M3FN>
  return %dw : tensor<3x3x3x2xf8E4M3FN>
}

// -----

// Only the result has an unsupported element type.
func.func @bf_result_f8(%x: tensor<1x4x4x3xf32>, %dy: tensor<1x2x2x2xf32>) -> tensor<3x3x3x2xf8E5M2> {
  // expected-error @+1 {{'conv.backprop_filter' op result #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float values, but got 'tensor<3x3x3x2xf8E5M2>'}}
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = SAME strides = [2, 2] dilations = [1, 1] : tensor<1x4x4x3xf32>, tensor<1x2x2x2xf32> -> tensor<3x3x3x2xf8E5M2>
  return %dw : tensor<3x3x3x2xf8E5M2>
}

// -----

// A Keras data format on the TF op.
func.func @bf_keras_data_format(%x: tensor<1x4x4x3xf32>, %dy: tensor<1x2x2x2xf32>) -> tensor<3x3x3x2xf32> {
  // expected-error @+2 {{expected ::mlir::conv::TFDataFormat to be one of: NWC, NHWC, NDHWC, NCW, NCHW, NCDHW}}
  // expected-error @+1 {{failed to parse Conv_TFDataFormatAttr parameter 'value'}}
  %dw = conv.backprop_filter %x, %dy data_format = channels_last padding = SAME strides = [2, 2] dilations = [1, 1] : tensor<1x4x4x3xf32>, tensor<1x2x2x2xf32> -> tensor<3x3x3x2xf32>
  return %dw : tensor<3x3x3x2xf32>
}

// -----

// TF padding names are upper case.
func.func @bf_lower_case_padding(%x: tensor<1x4x4x3xf32>, %dy: tensor<1x2x2x2xf32>) -> tensor<3x3x3x2xf32> {
  // expected-error @+2 {{expected ::mlir::conv::TFPadding to be one of: VALID, SAME, EXPLICIT}}
  // expected-error @+1 {{failed to parse Conv_TFPaddingAttr parameter 'value'}}
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = same strides = [2, 2] dilations = [1, 1] : tensor<1x4x4x3xf32>, tensor<1x2x2x2xf32> -> tensor<3x3x3x2xf32>
  return %dw : tensor<3x3x3x2xf32>
}

// -----

func.func @bf_strides_array_attr(%x: tensor<1x4x4x3xf32>, %dy: tensor<1x2x2x2xf32>) -> tensor<3x3x3x2xf32> {
  // expected-error @+1 {{Invalid attribute `strides` in property conversion: [2, 2]}}
  %dw = "conv.backprop_filter"(%x, %dy) <{data_format = #conv<tf_data_format NHWC>, padding = #conv<tf_padding SAME>, strides = [2, 2], dilations = array<i64: 1, 1>}> : (tensor<1x4x4x3xf32>, tensor<1x2x2x2xf32>) -> tensor<3x3x3x2xf32>
  return %dw : tensor<3x3x3x2xf32>
}

// -----

func.func @bf_missing_dilations(%x: tensor<1x4x4x3xf32>, %dy: tensor<1x2x2x2xf32>) -> tensor<3x3x3x2xf32> {
  // expected-error @+1 {{'conv.backprop_filter' op requires attribute 'dilations'}}
  %dw = "conv.backprop_filter"(%x, %dy) <{data_format = #conv<tf_data_format NHWC>, padding = #conv<tf_padding SAME>, strides = array<i64: 2, 2>}> : (tensor<1x4x4x3xf32>, tensor<1x2x2x2xf32>) -> tensor<3x3x3x2xf32>
  return %dw : tensor<3x3x3x2xf32>
}

// -----

//===----------------------------------------------------------------------===//
// conv.backprop_filter: ConvOps.cpp checks
//===----------------------------------------------------------------------===//

func.func @bf_dynamic_input(%x: tensor<1x?x4x3xf32>, %dy: tensor<1x2x2x2xf32>) -> tensor<3x3x3x2xf32> {
  // expected-error @+1 {{'conv.backprop_filter' op operand 'input' dimension 1 is dynamic; only static shapes are supported (type 'tensor<1x?x4x3xf32>')}}
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = SAME strides = [2, 2] dilations = [1, 1] : tensor<1x?x4x3xf32>, tensor<1x2x2x2xf32> -> tensor<3x3x3x2xf32>
  return %dw : tensor<3x3x3x2xf32>
}

// -----

func.func @bf_dynamic_out_backprop(%x: tensor<1x4x4x3xf32>, %dy: tensor<?x2x2x2xf32>) -> tensor<3x3x3x2xf32> {
  // expected-error @+1 {{operand 'out_backprop' dimension 0 is dynamic; only static shapes are supported (type 'tensor<?x2x2x2xf32>')}}
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = SAME strides = [2, 2] dilations = [1, 1] : tensor<1x4x4x3xf32>, tensor<?x2x2x2xf32> -> tensor<3x3x3x2xf32>
  return %dw : tensor<3x3x3x2xf32>
}

// -----

func.func @bf_dynamic_filter(%x: tensor<1x4x4x3xf32>, %dy: tensor<1x2x2x2xf32>) -> tensor<3x3x3x?xf32> {
  // expected-error @+1 {{result 'filter' dimension 3 is dynamic; only static shapes are supported (type 'tensor<3x3x3x?xf32>')}}
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = SAME strides = [2, 2] dilations = [1, 1] : tensor<1x4x4x3xf32>, tensor<1x2x2x2xf32> -> tensor<3x3x3x?xf32>
  return %dw : tensor<3x3x3x?xf32>
}

// -----

func.func @bf_mixed_element_types(%x: tensor<1x4x4x3xf32>, %dy: tensor<1x2x2x2xf16>) -> tensor<3x3x3x2xf32> {
  // expected-error @+1 {{all operands and the result must have one element type: operand 'input' has 'f32' but operand 'out_backprop' has 'f16'}}
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = SAME strides = [2, 2] dilations = [1, 1] : tensor<1x4x4x3xf32>, tensor<1x2x2x2xf16> -> tensor<3x3x3x2xf32>
  return %dw : tensor<3x3x3x2xf32>
}

// -----

func.func @bf_mixed_result_element_type(%x: tensor<1x4x4x3xbf16>, %dy: tensor<1x2x2x2xbf16>) -> tensor<3x3x3x2xf64> {
  // expected-error @+1 {{all operands and the result must have one element type: operand 'input' has 'bf16' but result 'filter' has 'f64'}}
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = SAME strides = [2, 2] dilations = [1, 1] : tensor<1x4x4x3xbf16>, tensor<1x2x2x2xbf16> -> tensor<3x3x3x2xf64>
  return %dw : tensor<3x3x3x2xf64>
}

// -----

func.func @bf_data_format_rank_too_small(%x: tensor<1x4x3xf32>, %dy: tensor<1x2x2x2xf32>) -> tensor<3x3x3x2xf32> {
  // expected-error @+1 {{attribute 'data_format' NHWC requires rank-4 operands, but operand 'input' has rank 3}}
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = SAME strides = [2, 2] dilations = [1, 1] : tensor<1x4x3xf32>, tensor<1x2x2x2xf32> -> tensor<3x3x3x2xf32>
  return %dw : tensor<3x3x3x2xf32>
}

// -----

// A 2-D data format on rank-5 operands (shapes consistent for NCDHW).
func.func @bf_data_format_rank_too_large(%x: tensor<1x2x4x4x4xf32>, %dy: tensor<1x3x2x2x2xf32>) -> tensor<3x3x3x2x3xf32> {
  // expected-error @+1 {{attribute 'data_format' NCHW requires rank-4 operands, but operand 'input' has rank 5}}
  %dw = conv.backprop_filter %x, %dy data_format = NCHW padding = VALID strides = [1, 1] dilations = [1, 1] : tensor<1x2x4x4x4xf32>, tensor<1x3x2x2x2xf32> -> tensor<3x3x3x2x3xf32>
  return %dw : tensor<3x3x3x2x3xf32>
}

// -----

// Rank 2: no data format has fewer than one spatial dimension.
func.func @bf_rank2(%x: tensor<4x3xf32>, %dy: tensor<2x2xf32>) -> tensor<3x2xf32> {
  // expected-error @+1 {{attribute 'data_format' NWC requires rank-3 operands, but operand 'input' has rank 2}}
  %dw = conv.backprop_filter %x, %dy data_format = NWC padding = VALID strides = [] dilations = [] : tensor<4x3xf32>, tensor<2x2xf32> -> tensor<3x2xf32>
  return %dw : tensor<3x2xf32>
}

// -----

//===----------------------------------------------------------------------===//
// conv.backprop_filter: computeBackpropFilterGeometry
//===----------------------------------------------------------------------===//

func.func @bf_out_backprop_rank(%x: tensor<1x4x4x3xf32>, %dy: tensor<1x2x2xf32>) -> tensor<3x3x3x2xf32> {
  // expected-error @+1 {{operand 'out_backprop' must have rank 4 like operand 'input' (2 spatial dimensions), got rank 3 (shape [1, 2, 2])}}
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = SAME strides = [2, 2] dilations = [1, 1] : tensor<1x4x4x3xf32>, tensor<1x2x2xf32> -> tensor<3x3x3x2xf32>
  return %dw : tensor<3x3x3x2xf32>
}

// -----

func.func @bf_filter_rank(%x: tensor<1x4x4x3xf32>, %dy: tensor<1x2x2x2xf32>) -> tensor<3x3x3x3x2xf32> {
  // expected-error @+1 {{result 'filter' must have rank 4 like operand 'input' (2 spatial dimensions), got rank 5 (shape [3, 3, 3, 3, 2])}}
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = SAME strides = [2, 2] dilations = [1, 1] : tensor<1x4x4x3xf32>, tensor<1x2x2x2xf32> -> tensor<3x3x3x3x2xf32>
  return %dw : tensor<3x3x3x3x2xf32>
}

// -----

// TF-style length-4 strides are not accepted: one entry per spatial dim.
func.func @bf_strides_length(%x: tensor<1x4x4x3xf32>, %dy: tensor<1x2x2x2xf32>) -> tensor<3x3x3x2xf32> {
  // expected-error @+1 {{attribute 'strides' must have 2 entries (one per spatial dimension), got 4: [1, 2, 2, 1]}}
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = SAME strides = [1, 2, 2, 1] dilations = [1, 1] : tensor<1x4x4x3xf32>, tensor<1x2x2x2xf32> -> tensor<3x3x3x2xf32>
  return %dw : tensor<3x3x3x2xf32>
}

// -----

func.func @bf_dilations_length(%x: tensor<1x2x4x4x4xf32>, %dy: tensor<1x3x2x2x2xf32>) -> tensor<3x3x3x2x3xf32> {
  // expected-error @+1 {{attribute 'dilations' must have 3 entries (one per spatial dimension), got 2: [1, 1]}}
  %dw = conv.backprop_filter %x, %dy data_format = NCDHW padding = VALID strides = [1, 1, 1] dilations = [1, 1] : tensor<1x2x4x4x4xf32>, tensor<1x3x2x2x2xf32> -> tensor<3x3x3x2x3xf32>
  return %dw : tensor<3x3x3x2x3xf32>
}

// -----

func.func @bf_strides_zero(%x: tensor<1x4x4x3xf32>, %dy: tensor<1x2x2x2xf32>) -> tensor<3x3x3x2xf32> {
  // expected-error @+1 {{attribute 'strides' spatial dimension 1 (W) must be >= 1, got 0}}
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = SAME strides = [2, 0] dilations = [1, 1] : tensor<1x4x4x3xf32>, tensor<1x2x2x2xf32> -> tensor<3x3x3x2xf32>
  return %dw : tensor<3x3x3x2xf32>
}

// -----

func.func @bf_strides_negative(%x: tensor<1x4x3xf32>, %dy: tensor<1x2x2xf32>) -> tensor<3x3x2xf32> {
  // expected-error @+1 {{attribute 'strides' spatial dimension 0 (W) must be >= 1, got -2}}
  %dw = conv.backprop_filter %x, %dy data_format = NWC padding = SAME strides = [-2] dilations = [1] : tensor<1x4x3xf32>, tensor<1x2x2xf32> -> tensor<3x3x2xf32>
  return %dw : tensor<3x3x2xf32>
}

// -----

func.func @bf_dilations_zero(%x: tensor<1x4x4x4x3xf32>, %dy: tensor<1x4x4x4x2xf32>) -> tensor<3x3x3x3x2xf32> {
  // expected-error @+1 {{attribute 'dilations' spatial dimension 0 (D) must be >= 1, got 0}}
  %dw = conv.backprop_filter %x, %dy data_format = NDHWC padding = SAME strides = [1, 1, 1] dilations = [0, 1, 1] : tensor<1x4x4x4x3xf32>, tensor<1x4x4x4x2xf32> -> tensor<3x3x3x3x2xf32>
  return %dw : tensor<3x3x3x3x2xf32>
}

// -----

// TF-style explicit_paddings with (0, 0) pairs for N and C are rejected: one
// (before, after) pair per spatial dimension.
func.func @bf_explicit_paddings_length(%x: tensor<1x4x4x3xf32>, %dy: tensor<1x2x2x2xf32>) -> tensor<3x3x3x2xf32> {
  // expected-error @+1 {{attribute 'explicit_paddings' must have 4 entries (before, after per spatial dimension) with padding EXPLICIT, got 8: [0, 0, 1, 1, 1, 1, 0, 0]}}
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = EXPLICIT explicit_paddings = [0, 0, 1, 1, 1, 1, 0, 0] strides = [2, 2] dilations = [1, 1] : tensor<1x4x4x3xf32>, tensor<1x2x2x2xf32> -> tensor<3x3x3x2xf32>
  return %dw : tensor<3x3x3x2xf32>
}

// -----

func.func @bf_explicit_without_paddings(%x: tensor<1x4x4x3xf32>, %dy: tensor<1x2x2x2xf32>) -> tensor<3x3x3x2xf32> {
  // expected-error @+1 {{attribute 'explicit_paddings' must have 4 entries (before, after per spatial dimension) with padding EXPLICIT, got 0: []}}
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = EXPLICIT strides = [2, 2] dilations = [1, 1] : tensor<1x4x4x3xf32>, tensor<1x2x2x2xf32> -> tensor<3x3x3x2xf32>
  return %dw : tensor<3x3x3x2xf32>
}

// -----

func.func @bf_explicit_paddings_negative_after(%x: tensor<1x4x4x3xf32>, %dy: tensor<1x2x2x2xf32>) -> tensor<3x3x3x2xf32> {
  // expected-error @+1 {{attribute 'explicit_paddings' entry 3 (spatial dimension 1 (W), after) must be >= 0, got -1 (All elements of explicit_paddings must be nonnegative)}}
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = EXPLICIT explicit_paddings = [1, 1, 1, -1] strides = [2, 2] dilations = [1, 1] : tensor<1x4x4x3xf32>, tensor<1x2x2x2xf32> -> tensor<3x3x3x2xf32>
  return %dw : tensor<3x3x3x2xf32>
}

// -----

func.func @bf_explicit_paddings_negative_before(%x: tensor<1x3x4x4xf32>, %dy: tensor<1x2x2x2xf32>) -> tensor<3x3x3x2xf32> {
  // expected-error @+1 {{attribute 'explicit_paddings' entry 0 (spatial dimension 0 (H), before) must be >= 0, got -3 (All elements of explicit_paddings must be nonnegative)}}
  %dw = conv.backprop_filter %x, %dy data_format = NCHW padding = EXPLICIT explicit_paddings = [-3, 1, 1, 1] strides = [2, 2] dilations = [1, 1] : tensor<1x3x4x4xf32>, tensor<1x2x2x2xf32> -> tensor<3x3x3x2xf32>
  return %dw : tensor<3x3x3x2xf32>
}

// -----

func.func @bf_explicit_paddings_with_same(%x: tensor<1x4x4x3xf32>, %dy: tensor<1x2x2x2xf32>) -> tensor<3x3x3x2xf32> {
  // expected-error @+1 {{attribute 'explicit_paddings' must be empty if padding is not EXPLICIT (padding is SAME, got [1, 1, 1, 1])}}
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = SAME explicit_paddings = [1, 1, 1, 1] strides = [2, 2] dilations = [1, 1] : tensor<1x4x4x3xf32>, tensor<1x2x2x2xf32> -> tensor<3x3x3x2xf32>
  return %dw : tensor<3x3x3x2xf32>
}

// -----

func.func @bf_explicit_paddings_with_valid(%x: tensor<1x4x3xf32>, %dy: tensor<1x2x2xf32>) -> tensor<3x3x2xf32> {
  // expected-error @+1 {{attribute 'explicit_paddings' must be empty if padding is not EXPLICIT (padding is VALID, got [0, 0])}}
  %dw = conv.backprop_filter %x, %dy data_format = NWC padding = VALID explicit_paddings = [0, 0] strides = [1] dilations = [1] : tensor<1x4x3xf32>, tensor<1x2x2xf32> -> tensor<3x3x2xf32>
  return %dw : tensor<3x3x2xf32>
}

// -----

func.func @bf_batch_mismatch(%x: tensor<1x4x4x3xf32>, %dy: tensor<2x2x2x2xf32>) -> tensor<3x3x3x2xf32> {
  // expected-error @+1 {{operands 'input' and 'out_backprop' must have the same batch size, got input batch 1 and out_backprop batch 2}}
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = SAME strides = [2, 2] dilations = [1, 1] : tensor<1x4x4x3xf32>, tensor<2x2x2x2xf32> -> tensor<3x3x3x2xf32>
  return %dw : tensor<3x3x3x2xf32>
}

// -----

func.func @bf_filter_in_channels_zero(%x: tensor<1x4x4x3xf32>, %dy: tensor<1x2x2x2xf32>) -> tensor<3x3x0x2xf32> {
  // expected-error @+1 {{result 'filter' in-channels (dimension 2) must be > 0, got 0 (filter depth must be strictly greater than zero)}}
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = SAME strides = [2, 2] dilations = [1, 1] : tensor<1x4x4x3xf32>, tensor<1x2x2x2xf32> -> tensor<3x3x0x2xf32>
  return %dw : tensor<3x3x0x2xf32>
}

// -----

func.func @bf_input_channels_not_divisible(%x: tensor<1x4x4x3xf32>, %dy: tensor<1x2x2x2xf32>) -> tensor<3x3x2x2xf32> {
  // expected-error @+1 {{operand 'input' channels (dimension 3) = 3 must be evenly divisible by result 'filter' in-channels (dimension 2) = 2}}
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = SAME strides = [2, 2] dilations = [1, 1] : tensor<1x4x4x3xf32>, tensor<1x2x2x2xf32> -> tensor<3x3x2x2xf32>
  return %dw : tensor<3x3x2x2xf32>
}

// -----

// Channels-first: the out_backprop channel dimension is 1.
func.func @bf_out_channels_mismatch(%x: tensor<1x3x4x4xf32>, %dy: tensor<1x2x2x2xf32>) -> tensor<3x3x3x4xf32> {
  // expected-error @+1 {{result 'filter' out-channels (dimension 3) = 4 and operand 'out_backprop' channels (dimension 1) = 2 must be equal}}
  %dw = conv.backprop_filter %x, %dy data_format = NCHW padding = SAME strides = [2, 2] dilations = [1, 1] : tensor<1x3x4x4xf32>, tensor<1x2x2x2xf32> -> tensor<3x3x3x4xf32>
  return %dw : tensor<3x3x3x4xf32>
}

// -----

func.func @bf_out_channels_not_divisible_by_groups(%x: tensor<1x4x4x6xf32>, %dy: tensor<1x2x2x4xf32>) -> tensor<3x3x2x4xf32> {
  // expected-error @+1 {{result 'filter' out-channels (dimension 3) = 4 must be divisible by the group count 3 (input channels 6 / filter in-channels 2)}}
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = SAME strides = [2, 2] dilations = [1, 1] : tensor<1x4x4x6xf32>, tensor<1x2x2x4xf32> -> tensor<3x3x2x4xf32>
  return %dw : tensor<3x3x2x4xf32>
}

// -----

// Truncating-division trap of spec §1.3: in 1, k_eff 3, s 1, VALID gives
// (1 - 3 + 1) / 1 = -1.
func.func @bf_negative_output_size(%x: tensor<1x1x2xf32>, %dy: tensor<1x0x2xf32>) -> tensor<3x2x2xf32> {
  // expected-error @+1 {{operand 'out_backprop' spatial dimension 0 (W) (dimension 1): Computed output size would be negative: -1 [input_size: 1, effective_filter_size: 3, stride: 1] (filter: 3, dilation: 1, padding: VALID)}}
  %dw = conv.backprop_filter %x, %dy data_format = NWC padding = VALID strides = [1] dilations = [1] : tensor<1x1x2xf32>, tensor<1x0x2xf32> -> tensor<3x2x2xf32>
  return %dw : tensor<3x2x2xf32>
}

// -----

// Dilation makes the window too large: k 2, d 3, k_eff 4; H (3 + 0 + 0 - 4 + 1) / 1 = 0
// is fine but W (2 + 0 + 0 - 4 + 1) / 1 = -1 is not.
func.func @bf_negative_output_size_explicit_dilated(%x: tensor<1x3x2x1xf32>, %dy: tensor<1x0x0x1xf32>) -> tensor<2x2x1x1xf32> {
  // expected-error @+1 {{operand 'out_backprop' spatial dimension 1 (W) (dimension 2): Computed output size would be negative: -1 [input_size: 2, effective_filter_size: 4, stride: 1] (filter: 2, dilation: 3, padding: EXPLICIT)}}
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = EXPLICIT explicit_paddings = [0, 0, 0, 0] strides = [1, 1] dilations = [3, 3] : tensor<1x3x2x1xf32>, tensor<1x0x0x1xf32> -> tensor<2x2x1x1xf32>
  return %dw : tensor<2x2x1x1xf32>
}

// -----

// SAME vs VALID confusion: the out_backprop of the SAME conv (ceil(4 / 2) = 2)
// with padding = VALID ((4 - 3 + 2) / 2 = 1).
func.func @bf_out_backprop_size_valid_vs_same(%x: tensor<1x4x4x3xf32>, %dy: tensor<1x2x2x2xf32>) -> tensor<3x3x3x2xf32> {
  // expected-error @+1 {{operand 'out_backprop' spatial dimension 0 (H) (dimension 1) has size 2 but the computed size is 1 (input: 4, filter: 3, stride: 2, dilation: 1, padding: VALID)}}
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = VALID strides = [2, 2] dilations = [1, 1] : tensor<1x4x4x3xf32>, tensor<1x2x2x2xf32> -> tensor<3x3x3x2xf32>
  return %dw : tensor<3x3x3x2xf32>
}

// -----

// SAME rounds up: ceil(5 / 2) = 3, not 2 (channels-first 3-D, dimension H).
func.func @bf_out_backprop_size_same_ceil(%x: tensor<1x2x4x5x4xf32>, %dy: tensor<1x3x4x2x4xf32>) -> tensor<3x3x3x2x3xf32> {
  // expected-error @+1 {{operand 'out_backprop' spatial dimension 1 (H) (dimension 3) has size 2 but the computed size is 3 (input: 5, filter: 3, stride: 2, dilation: 1, padding: SAME)}}
  %dw = conv.backprop_filter %x, %dy data_format = NCDHW padding = SAME strides = [1, 2, 1] dilations = [1, 1, 1] : tensor<1x2x4x5x4xf32>, tensor<1x3x4x2x4xf32> -> tensor<3x3x3x2x3xf32>
  return %dw : tensor<3x3x3x2x3xf32>
}

// -----

//===----------------------------------------------------------------------===//
// conv.transpose: ODS constraints and parsing
//===----------------------------------------------------------------------===//

func.func @tr_unranked_kernel(%x: tensor<1x4x4x3xf32>, %k: tensor<*xf32>) -> tensor<1x8x8x5xf32> {
  // expected-error @+1 {{'conv.transpose' op operand #1 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float values, but got 'tensor<*xf32>'}}
  %y = "conv.transpose"(%x, %k) <{data_format = #conv<keras_data_format channels_last>, padding = #conv<keras_padding same>, strides = array<i64: 2, 2>, dilation_rate = array<i64: 1, 1>}> : (tensor<1x4x4x3xf32>, tensor<*xf32>) -> tensor<1x8x8x5xf32>
  return %y : tensor<1x8x8x5xf32>
}

// -----

func.func @tr_vector_result(%x: tensor<1x4x4x3xf32>, %k: tensor<3x3x5x3xf32>) -> vector<1x8x8x5xf32> {
  // expected-error @+1 {{invalid kind of type specified: expected builtin.tensor, but found 'vector<1x8x8x5xf32>'}}
  %y = conv.transpose %x, %k data_format = channels_last padding = same strides = [2, 2] dilation_rate = [1, 1] : tensor<1x4x4x3xf32>, tensor<3x3x5x3xf32> -> vector<1x8x8x5xf32>
  return %y : vector<1x8x8x5xf32>
}

// -----

func.func @tr_i32(%x: tensor<1x4x4x3xi32>, %k: tensor<3x3x5x3xi32>) -> tensor<1x8x8x5xi32> {
  // expected-error @+1 {{'conv.transpose' op operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float values, but got 'tensor<1x4x4x3xi32>'}}
  %y = conv.transpose %x, %k data_format = channels_last padding = same strides = [2, 2] dilation_rate = [1, 1] : tensor<1x4x4x3xi32>, tensor<3x3x5x3xi32> -> tensor<1x8x8x5xi32>
  return %y : tensor<1x8x8x5xi32>
}

// -----

func.func @tr_result_i32(%x: tensor<1x4x4x3xf32>, %k: tensor<3x3x5x3xf32>) -> tensor<1x8x8x5xi32> {
  // expected-error @+1 {{'conv.transpose' op result #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float values, but got 'tensor<1x8x8x5xi32>'}}
  %y = conv.transpose %x, %k data_format = channels_last padding = same strides = [2, 2] dilation_rate = [1, 1] : tensor<1x4x4x3xf32>, tensor<3x3x5x3xf32> -> tensor<1x8x8x5xi32>
  return %y : tensor<1x8x8x5xi32>
}

// -----

func.func @tr_f8_kernel(%x: tensor<1x4x4x3xf32>, %k: tensor<3x3x5x3xf8E4M3FN>) -> tensor<1x8x8x5xf32> {
  // expected-error @+1 {{'conv.transpose' op operand #1 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float values, but got 'tensor<3x3x5x3xf8E4M3FN>'}}
  %y = conv.transpose %x, %k data_format = channels_last padding = same strides = [2, 2] dilation_rate = [1, 1] : tensor<1x4x4x3xf32>, tensor<3x3x5x3xf8E4M3FN> -> tensor<1x8x8x5xf32>
  return %y : tensor<1x8x8x5xf32>
}

// -----

// A TF data format on the Keras op.
func.func @tr_tf_data_format(%x: tensor<1x4x4x3xf32>, %k: tensor<3x3x5x3xf32>) -> tensor<1x8x8x5xf32> {
  // expected-error @+2 {{expected ::mlir::conv::KerasDataFormat to be one of: channels_last, channels_first}}
  // expected-error @+1 {{failed to parse Conv_KerasDataFormatAttr parameter 'value'}}
  %y = conv.transpose %x, %k data_format = NHWC padding = same strides = [2, 2] dilation_rate = [1, 1] : tensor<1x4x4x3xf32>, tensor<3x3x5x3xf32> -> tensor<1x8x8x5xf32>
  return %y : tensor<1x8x8x5xf32>
}

// -----

// Keras padding names are lower case.
func.func @tr_upper_case_padding(%x: tensor<1x4x4x3xf32>, %k: tensor<3x3x5x3xf32>) -> tensor<1x8x8x5xf32> {
  // expected-error @+2 {{expected ::mlir::conv::KerasPadding to be one of: valid, same}}
  // expected-error @+1 {{failed to parse Conv_KerasPaddingAttr parameter 'value'}}
  %y = conv.transpose %x, %k data_format = channels_last padding = SAME strides = [2, 2] dilation_rate = [1, 1] : tensor<1x4x4x3xf32>, tensor<3x3x5x3xf32> -> tensor<1x8x8x5xf32>
  return %y : tensor<1x8x8x5xf32>
}

// -----

func.func @tr_missing_dilation_rate(%x: tensor<1x4x4x3xf32>, %k: tensor<3x3x5x3xf32>) -> tensor<1x8x8x5xf32> {
  // expected-error @+1 {{'conv.transpose' op requires attribute 'dilation_rate'}}
  %y = "conv.transpose"(%x, %k) <{data_format = #conv<keras_data_format channels_last>, padding = #conv<keras_padding same>, strides = array<i64: 2, 2>}> : (tensor<1x4x4x3xf32>, tensor<3x3x5x3xf32>) -> tensor<1x8x8x5xf32>
  return %y : tensor<1x8x8x5xf32>
}

// -----

//===----------------------------------------------------------------------===//
// conv.transpose: ConvOps.cpp checks
//===----------------------------------------------------------------------===//

func.func @tr_dynamic_batch(%x: tensor<?x4x3xf32>, %k: tensor<2x5x3xf32>) -> tensor<?x8x5xf32> {
  // expected-error @+1 {{'conv.transpose' op operand 'inputs' dimension 0 is dynamic; only static shapes are supported (type 'tensor<?x4x3xf32>')}}
  %y = conv.transpose %x, %k data_format = channels_last padding = valid strides = [2] dilation_rate = [1] : tensor<?x4x3xf32>, tensor<2x5x3xf32> -> tensor<?x8x5xf32>
  return %y : tensor<?x8x5xf32>
}

// -----

func.func @tr_dynamic_kernel(%x: tensor<2x4x3xf32>, %k: tensor<?x5x3xf32>) -> tensor<2x8x5xf32> {
  // expected-error @+1 {{operand 'kernel' dimension 0 is dynamic; only static shapes are supported (type 'tensor<?x5x3xf32>')}}
  %y = conv.transpose %x, %k data_format = channels_last padding = valid strides = [2] dilation_rate = [1] : tensor<2x4x3xf32>, tensor<?x5x3xf32> -> tensor<2x8x5xf32>
  return %y : tensor<2x8x5xf32>
}

// -----

func.func @tr_dynamic_output(%x: tensor<2x4x3xf32>, %k: tensor<2x5x3xf32>) -> tensor<2x?x5xf32> {
  // expected-error @+1 {{result 'output' dimension 1 is dynamic; only static shapes are supported (type 'tensor<2x?x5xf32>')}}
  %y = conv.transpose %x, %k data_format = channels_last padding = valid strides = [2] dilation_rate = [1] : tensor<2x4x3xf32>, tensor<2x5x3xf32> -> tensor<2x?x5xf32>
  return %y : tensor<2x?x5xf32>
}

// -----

func.func @tr_mixed_kernel_element_type(%x: tensor<2x4x3xf32>, %k: tensor<2x5x3xf16>) -> tensor<2x8x5xf32> {
  // expected-error @+1 {{all operands and the result must have one element type: operand 'inputs' has 'f32' but operand 'kernel' has 'f16'}}
  %y = conv.transpose %x, %k data_format = channels_last padding = valid strides = [2] dilation_rate = [1] : tensor<2x4x3xf32>, tensor<2x5x3xf16> -> tensor<2x8x5xf32>
  return %y : tensor<2x8x5xf32>
}

// -----

func.func @tr_mixed_result_element_type(%x: tensor<2x4x3xf64>, %k: tensor<2x5x3xf64>) -> tensor<2x8x5xbf16> {
  // expected-error @+1 {{all operands and the result must have one element type: operand 'inputs' has 'f64' but result 'output' has 'bf16'}}
  %y = conv.transpose %x, %k data_format = channels_last padding = valid strides = [2] dilation_rate = [1] : tensor<2x4x3xf64>, tensor<2x5x3xf64> -> tensor<2x8x5xbf16>
  return %y : tensor<2x8x5xbf16>
}

// -----

func.func @tr_result_rank(%x: tensor<1x5x2xf32>, %k: tensor<3x4x2xf32>) -> tensor<1x10x4x1xf32> {
  // expected-error @+1 {{result 'output' must have rank 3 like operand 'inputs', got 'tensor<1x10x4x1xf32>' (the Keras output shape is [1, 10, 4])}}
  %y = conv.transpose %x, %k data_format = channels_last padding = same strides = [2] dilation_rate = [1] : tensor<1x5x2xf32>, tensor<3x4x2xf32> -> tensor<1x10x4x1xf32>
  return %y : tensor<1x10x4x1xf32>
}

// -----

// Spec §2.2: output_padding = [0] is not None. same with [0] gives
// (5 - 1) * 2 + 3 % 2 + 0 = 9; 10 is the size for None (5 * 2).
func.func @tr_result_same_zero_output_padding_vs_none(%x: tensor<1x5x2xf32>, %k: tensor<3x4x2xf32>) -> tensor<1x10x4xf32> {
  // expected-error @+1 {{result 'output' dimension 1 has size 10 but the Keras output shape is [1, 9, 4] (dimension 1 must be 9; data_format = channels_last, padding = same, strides = [2], dilation_rate = [1], output_padding = [0])}}
  %y = conv.transpose %x, %k data_format = channels_last padding = same strides = [2] dilation_rate = [1] output_padding = [0] : tensor<1x5x2xf32>, tensor<3x4x2xf32> -> tensor<1x10x4xf32>
  return %y : tensor<1x10x4xf32>
}

// -----

// And the other way round: valid with None gives (4 - 1) * 3 + max(1, 3) = 12,
// 10 is the size for output_padding = [0] ((4 - 1) * 3 + 1 + 0).
func.func @tr_result_valid_none_vs_zero_output_padding(%x: tensor<1x4x2xf32>, %k: tensor<1x3x2xf32>) -> tensor<1x10x3xf32> {
  // expected-error @+1 {{result 'output' dimension 1 has size 10 but the Keras output shape is [1, 12, 3] (dimension 1 must be 12; data_format = channels_last, padding = valid, strides = [3], dilation_rate = [1], output_padding = None)}}
  %y = conv.transpose %x, %k data_format = channels_last padding = valid strides = [3] dilation_rate = [1] : tensor<1x4x2xf32>, tensor<1x3x2xf32> -> tensor<1x10x3xf32>
  return %y : tensor<1x10x3xf32>
}

// -----

// Output channels come from kernel dimension -2 (out_channels), not -1.
func.func @tr_result_channels(%x: tensor<2x3x4x4xf32>, %k: tensor<2x2x5x3xf32>) -> tensor<2x3x8x8xf32> {
  // expected-error @+1 {{result 'output' dimension 1 has size 3 but the Keras output shape is [2, 5, 8, 8] (dimension 1 must be 5; data_format = channels_first, padding = valid, strides = [2, 2], dilation_rate = [1, 1], output_padding = None)}}
  %y = conv.transpose %x, %k data_format = channels_first padding = valid strides = [2, 2] dilation_rate = [1, 1] : tensor<2x3x4x4xf32>, tensor<2x2x5x3xf32> -> tensor<2x3x8x8xf32>
  return %y : tensor<2x3x8x8xf32>
}

// -----

func.func @tr_result_batch(%x: tensor<2x4x3xf32>, %k: tensor<2x5x3xf32>) -> tensor<1x8x5xf32> {
  // expected-error @+1 {{result 'output' dimension 0 has size 1 but the Keras output shape is [2, 8, 5] (dimension 0 must be 2;}}
  %y = conv.transpose %x, %k data_format = channels_last padding = valid strides = [2] dilation_rate = [1] : tensor<2x4x3xf32>, tensor<2x5x3xf32> -> tensor<1x8x5xf32>
  return %y : tensor<1x8x5xf32>
}

// -----

// A channels_last result for channels_first operands.
func.func @tr_result_layout(%x: tensor<1x3x4x4x4xf32>, %k: tensor<2x2x2x6x3xf32>) -> tensor<1x8x8x8x6xf32> {
  // expected-error @+1 {{result 'output' dimension 1 has size 8 but the Keras output shape is [1, 6, 8, 8, 8] (dimension 1 must be 6; data_format = channels_first, padding = same, strides = [2, 2, 2], dilation_rate = [1, 1, 1], output_padding = None)}}
  %y = conv.transpose %x, %k data_format = channels_first padding = same strides = [2, 2, 2] dilation_rate = [1, 1, 1] : tensor<1x3x4x4x4xf32>, tensor<2x2x2x6x3xf32> -> tensor<1x8x8x8x6xf32>
  return %y : tensor<1x8x8x8x6xf32>
}

// -----

//===----------------------------------------------------------------------===//
// conv.transpose: computeTransposeGeometry
//===----------------------------------------------------------------------===//

func.func @tr_rank2(%x: tensor<4x3xf32>, %k: tensor<5x3xf32>) -> tensor<8x5xf32> {
  // expected-error @+1 {{operand 'inputs' must have rank 3, 4 or 5 (1 to 3 spatial dimensions), got rank 2}}
  %y = conv.transpose %x, %k data_format = channels_last padding = same strides = [] dilation_rate = [] : tensor<4x3xf32>, tensor<5x3xf32> -> tensor<8x5xf32>
  return %y : tensor<8x5xf32>
}

// -----

func.func @tr_rank6(%x: tensor<1x2x2x2x2x3xf32>, %k: tensor<1x1x1x1x5x3xf32>) -> tensor<1x2x2x2x2x5xf32> {
  // expected-error @+1 {{operand 'inputs' must have rank 3, 4 or 5 (1 to 3 spatial dimensions), got rank 6}}
  %y = conv.transpose %x, %k data_format = channels_last padding = same strides = [1, 1, 1, 1] dilation_rate = [1, 1, 1, 1] : tensor<1x2x2x2x2x3xf32>, tensor<1x1x1x1x5x3xf32> -> tensor<1x2x2x2x2x5xf32>
  return %y : tensor<1x2x2x2x2x5xf32>
}

// -----

func.func @tr_kernel_rank(%x: tensor<1x4x4x3xf32>, %k: tensor<3x5x3xf32>) -> tensor<1x8x8x5xf32> {
  // expected-error @+1 {{operand 'kernel' must have rank 4 like operand 'inputs' (2 spatial dimensions), got rank 3 (shape [3, 5, 3])}}
  %y = conv.transpose %x, %k data_format = channels_last padding = same strides = [2, 2] dilation_rate = [1, 1] : tensor<1x4x4x3xf32>, tensor<3x5x3xf32> -> tensor<1x8x8x5xf32>
  return %y : tensor<1x8x8x5xf32>
}

// -----

func.func @tr_strides_length(%x: tensor<1x4x4x3xf32>, %k: tensor<3x3x5x3xf32>) -> tensor<1x8x8x5xf32> {
  // expected-error @+1 {{attribute 'strides' must have 2 entries (one per spatial dimension), got 1: [2]}}
  %y = conv.transpose %x, %k data_format = channels_last padding = same strides = [2] dilation_rate = [1, 1] : tensor<1x4x4x3xf32>, tensor<3x3x5x3xf32> -> tensor<1x8x8x5xf32>
  return %y : tensor<1x8x8x5xf32>
}

// -----

func.func @tr_dilation_rate_length(%x: tensor<1x4x4x3xf32>, %k: tensor<3x3x5x3xf32>) -> tensor<1x8x8x5xf32> {
  // expected-error @+1 {{attribute 'dilation_rate' must have 2 entries (one per spatial dimension), got 3: [1, 1, 1]}}
  %y = conv.transpose %x, %k data_format = channels_last padding = same strides = [2, 2] dilation_rate = [1, 1, 1] : tensor<1x4x4x3xf32>, tensor<3x3x5x3xf32> -> tensor<1x8x8x5xf32>
  return %y : tensor<1x8x8x5xf32>
}

// -----

func.func @tr_strides_zero(%x: tensor<1x3x4x4x4xf32>, %k: tensor<2x2x2x6x3xf32>) -> tensor<1x6x8x8x8xf32> {
  // expected-error @+1 {{attribute 'strides' spatial dimension 2 (W) must be >= 1, got 0}}
  %y = conv.transpose %x, %k data_format = channels_first padding = same strides = [2, 2, 0] dilation_rate = [1, 1, 1] : tensor<1x3x4x4x4xf32>, tensor<2x2x2x6x3xf32> -> tensor<1x6x8x8x8xf32>
  return %y : tensor<1x6x8x8x8xf32>
}

// -----

func.func @tr_dilation_rate_negative(%x: tensor<1x4x4x3xf32>, %k: tensor<3x3x5x3xf32>) -> tensor<1x8x8x5xf32> {
  // expected-error @+1 {{attribute 'dilation_rate' spatial dimension 0 (H) must be >= 1, got -1}}
  %y = conv.transpose %x, %k data_format = channels_last padding = same strides = [2, 2] dilation_rate = [-1, 1] : tensor<1x4x4x3xf32>, tensor<3x3x5x3xf32> -> tensor<1x8x8x5xf32>
  return %y : tensor<1x8x8x5xf32>
}

// -----

func.func @tr_output_padding_length(%x: tensor<1x4x4x3xf32>, %k: tensor<3x3x5x3xf32>) -> tensor<1x8x8x5xf32> {
  // expected-error @+1 {{attribute 'output_padding' must have 2 entries (one per spatial dimension), got 1: [1]}}
  %y = conv.transpose %x, %k data_format = channels_last padding = same strides = [2, 2] dilation_rate = [1, 1] output_padding = [1] : tensor<1x4x4x3xf32>, tensor<3x3x5x3xf32> -> tensor<1x8x8x5xf32>
  return %y : tensor<1x8x8x5xf32>
}

// -----

// An empty output_padding is not None.
func.func @tr_output_padding_empty(%x: tensor<1x4x3xf32>, %k: tensor<3x5x3xf32>) -> tensor<1x8x5xf32> {
  // expected-error @+1 {{attribute 'output_padding' must have 1 entry (one per spatial dimension), got 0: []}}
  %y = conv.transpose %x, %k data_format = channels_last padding = same strides = [2] dilation_rate = [1] output_padding = [] : tensor<1x4x3xf32>, tensor<3x5x3xf32> -> tensor<1x8x5xf32>
  return %y : tensor<1x8x5xf32>
}

// -----

func.func @tr_output_padding_negative(%x: tensor<1x4x4x3xf32>, %k: tensor<3x3x5x3xf32>) -> tensor<1x8x8x5xf32> {
  // expected-error @+1 {{attribute 'output_padding' spatial dimension 0 (H) must be >= 0, got -1}}
  %y = conv.transpose %x, %k data_format = channels_last padding = same strides = [2, 2] dilation_rate = [1, 1] output_padding = [-1, 1] : tensor<1x4x4x3xf32>, tensor<3x3x5x3xf32> -> tensor<1x8x8x5xf32>
  return %y : tensor<1x8x8x5xf32>
}

// -----

// output_padding == stride (Keras test_bad_init_args: k 3, s (2, 3), op (1, 3)).
func.func @tr_output_padding_equal_stride(%x: tensor<1x4x4x3xf32>, %k: tensor<3x3x5x3xf32>) -> tensor<1x8x12x5xf32> {
  // expected-error @+1 {{attribute 'output_padding' must be strictly less than 'strides': at spatial dimension 1 (W) output_padding is 3 but strides is 3 (output_padding=[1, 3], strides=[2, 3])}}
  %y = conv.transpose %x, %k data_format = channels_last padding = same strides = [2, 3] dilation_rate = [1, 1] output_padding = [1, 3] : tensor<1x4x4x3xf32>, tensor<3x3x5x3xf32> -> tensor<1x8x12x5xf32>
  return %y : tensor<1x8x12x5xf32>
}

// -----

// output_padding > stride; with stride 1 no nonzero output_padding is allowed.
func.func @tr_output_padding_above_stride(%x: tensor<1x3x4xf32>, %k: tensor<3x5x3xf32>) -> tensor<1x5x4xf32> {
  // expected-error @+1 {{attribute 'output_padding' must be strictly less than 'strides': at spatial dimension 0 (W) output_padding is 2 but strides is 1 (output_padding=[2], strides=[1])}}
  %y = conv.transpose %x, %k data_format = channels_first padding = valid strides = [1] dilation_rate = [1] output_padding = [2] : tensor<1x3x4xf32>, tensor<3x5x3xf32> -> tensor<1x5x4xf32>
  return %y : tensor<1x5x4xf32>
}

// -----

// Keras nn_test channel validation: inputs (2, 4, 3), kernel (2, 4, 5).
func.func @tr_channel_mismatch(%x: tensor<2x4x3xf32>, %k: tensor<2x4x5xf32>) -> tensor<2x8x4xf32> {
  // expected-error @+1 {{the number of input channels must match the kernel's input channels: operand 'inputs' channels (dimension 2) = 3, operand 'kernel' input channels (dimension 2) = 5}}
  %y = conv.transpose %x, %k data_format = channels_last padding = valid strides = [2] dilation_rate = [1] : tensor<2x4x3xf32>, tensor<2x4x5xf32> -> tensor<2x8x4xf32>
  return %y : tensor<2x8x4xf32>
}

// -----

// Channels-first: the inputs channel dimension is 1.
func.func @tr_channel_mismatch_channels_first(%x: tensor<1x4x5x5xf32>, %k: tensor<3x3x2x3xf32>) -> tensor<1x2x10x10xf32> {
  // expected-error @+1 {{operand 'inputs' channels (dimension 1) = 4, operand 'kernel' input channels (dimension 3) = 3}}
  %y = conv.transpose %x, %k data_format = channels_first padding = same strides = [2, 2] dilation_rate = [1, 1] : tensor<1x4x5x5xf32>, tensor<3x3x2x3xf32> -> tensor<1x2x10x10xf32>
  return %y : tensor<1x2x10x10xf32>
}

// -----

// Empty input with output_padding: valid, (0 - 1) * 3 + 1 + 0 = -2.
func.func @tr_negative_output_size_valid(%x: tensor<1x0x2xf32>, %k: tensor<1x4x2xf32>) -> tensor<1x0x4xf32> {
  // expected-error @+1 {{spatial dimension 0 (W): computed output size would be negative: -2 (input: 0, kernel: 1, stride: 3, dilation: 1, padding: valid)}}
  %y = conv.transpose %x, %k data_format = channels_last padding = valid strides = [3] dilation_rate = [1] output_padding = [0] : tensor<1x0x2xf32>, tensor<1x4x2xf32> -> tensor<1x0x4xf32>
  return %y : tensor<1x0x4xf32>
}

// -----

// Empty input with output_padding: same, (0 - 1) * 2 + 3 % 2 + 0 = -1.
func.func @tr_negative_output_size_same(%x: tensor<1x2x4x0xf32>, %k: tensor<3x3x2x2xf32>) -> tensor<1x2x8x0xf32> {
  // expected-error @+1 {{spatial dimension 1 (W): computed output size would be negative: -1 (input: 0, kernel: 3, stride: 2, dilation: 1, padding: same)}}
  %y = conv.transpose %x, %k data_format = channels_first padding = same strides = [2, 2] dilation_rate = [1, 1] output_padding = [1, 0] : tensor<1x2x4x0xf32>, tensor<3x3x2x2xf32> -> tensor<1x2x8x0xf32>
  return %y : tensor<1x2x8x0xf32>
}

// -----

// Cin = 0 with filter in-channels 1: the group count would be 0.
func.func @bf_zero_input_channels(%x: tensor<1x2x2x0xf32>, %dy: tensor<1x2x2x3xf32>) -> tensor<1x1x1x3xf32> {
  // expected-error @+1 {{operand 'input' has 0 channels (dimension 3) but result 'filter' in-channels (dimension 2) is 1: the group count (input channels / filter in-channels) must be >= 1}}
  %0 = conv.backprop_filter %x, %dy data_format = NHWC padding = VALID strides = [1, 1] dilations = [1, 1] : tensor<1x2x2x0xf32>, tensor<1x2x2x3xf32> -> tensor<1x1x1x3xf32>
  return %0 : tensor<1x1x1x3xf32>
}

// -----

// A kernel of spatial size 0 (Keras requires kernel_size > 0).
func.func @tr_zero_kernel(%x: tensor<1x3x1xf32>, %k: tensor<0x1x1xf32>) -> tensor<1x6x1xf32> {
  // expected-error @+1 {{operand 'kernel' spatial dimension 0 (W) (dimension 0) must be >= 1, got 0}}
  %0 = conv.transpose %x, %k data_format = channels_last padding = same strides = [2] dilation_rate = [2] : tensor<1x3x1xf32>, tensor<0x1x1xf32> -> tensor<1x6x1xf32>
  return %0 : tensor<1x6x1xf32>
}
