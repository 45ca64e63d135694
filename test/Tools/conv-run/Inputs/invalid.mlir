// Not a test: an invalid module for errors.mlir.
func.func @f(%x: tensor<1x4x3xf32>, %k: tensor<2x5x3xf32>) -> tensor<1x8x5xf32> {
  // output_padding must be < strides.
  %y = conv.transpose %x, %k data_format = channels_last padding = same
         strides = [2] dilation_rate = [1] output_padding = [2]
         : tensor<1x4x3xf32>, tensor<2x5x3xf32> -> tensor<1x8x5xf32>
  return %y : tensor<1x8x5xf32>
}
