// Filter gradient of a grouped 1-D convolution (NWC) with asymmetric explicit
// padding: 8 input channels in 2 groups of 4, 6 output channels (3 per group),
// kernel width 5, stride 2, 2 columns of padding before and 1 after.
// Output width (spec §1.3, EXPLICIT): (16 + 2 + 1 - 5 + 2) / 2 = 8.
func.func @backprop_filter_nwc_grouped_explicit(
    %x: tensor<4x16x8xf32>, %dy: tensor<4x8x6xf32>) -> tensor<5x4x6xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NWC padding = EXPLICIT
          explicit_paddings = [2, 1] strides = [2] dilations = [1]
          : tensor<4x16x8xf32>, tensor<4x8x6xf32> -> tensor<5x4x6xf32>
  return %dw : tensor<5x4x6xf32>
}
