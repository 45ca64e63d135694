// keras.ops.conv_transpose(x, k, strides=2, padding="valid",
//                          output_padding=1, data_format="channels_first",
//                          dilation_rate=2)
// A dilated 3x3 kernel (effective size (3 - 1) * 2 + 1 = 5) with stride 2;
// keras.ops allows dilation together with stride > 1 (JAX semantics), unlike
// the Keras Conv2DTranspose layer. Kernel layout: [kh, kw, out, in].
// Output size (spec §2.2, valid, output_padding given):
// (5 - 1) * 2 + 5 + 1 = 14 (with output_padding None it would be 13).
func.func @conv_transpose_nchw_dilated(%x: tensor<1x8x5x5xf32>,
                                       %k: tensor<3x3x4x8xf32>)
    -> tensor<1x4x14x14xf32> {
  %y = conv.transpose %x, %k data_format = channels_first padding = valid
         strides = [2, 2] dilation_rate = [2, 2] output_padding = [1, 1]
         : tensor<1x8x5x5xf32>, tensor<3x3x4x8xf32> -> tensor<1x4x14x14xf32>
  return %y : tensor<1x4x14x14xf32>
}
