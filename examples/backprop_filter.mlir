// Filter gradient of a 3x3, stride-2, SAME 2-D convolution (NHWC), as
// tf.nn.conv2d_backprop_filter(x, [3, 3, 8, 16], dy, [1, 2, 2, 1], "SAME").
func.func @backprop_filter_nhwc(%x: tensor<2x9x9x8xf32>,
                                %dy: tensor<2x5x5x16xf32>) -> tensor<3x3x8x16xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = SAME
          strides = [2, 2] dilations = [1, 1]
          : tensor<2x9x9x8xf32>, tensor<2x5x5x16xf32> -> tensor<3x3x8x16xf32>
  return %dw : tensor<3x3x8x16xf32>
}
