// keras.ops.conv_transpose(x, k, strides=2, padding="same") on a DCGAN-like
// up-sampling layer (channels_last, kernel [kh, kw, out, in]).
func.func @conv_transpose_nhwc(%x: tensor<1x4x4x16xf32>,
                               %k: tensor<4x4x8x16xf32>) -> tensor<1x8x8x8xf32> {
  %y = conv.transpose %x, %k data_format = channels_last padding = same
         strides = [2, 2] dilation_rate = [1, 1]
         : tensor<1x4x4x16xf32>, tensor<4x4x8x16xf32> -> tensor<1x8x8x8xf32>
  return %y : tensor<1x8x8x8xf32>
}
