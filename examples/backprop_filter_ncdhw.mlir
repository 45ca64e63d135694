// Filter gradient of a 3x3x3 video convolution in channels-first layout
// (NCDHW), SAME padding, stride 1 in time and 2 in space: the gradient
// tf.nn.conv3d_backprop_filter_v2(x, [3, 3, 3, 4, 8], dy, [1, 1, 1, 2, 2],
// "SAME", data_format="NCDHW") defines (TF runs NCDHW on GPU only).
// Output sizes (spec §1.3, SAME): D ceil(8 / 1) = 8, H and W ceil(16 / 2) = 8.
// The filter is [D, H, W, in_channels, out_channels] whatever the data format.
func.func @backprop_filter_ncdhw(%x: tensor<2x4x8x16x16xf16>,
                                 %dy: tensor<2x8x8x8x8xf16>)
    -> tensor<3x3x3x4x8xf16> {
  %dw = conv.backprop_filter %x, %dy data_format = NCDHW padding = SAME
          strides = [1, 2, 2] dilations = [1, 1, 1]
          : tensor<2x4x8x16x16xf16>, tensor<2x8x8x8x8xf16>
          -> tensor<3x3x3x4x8xf16>
  return %dw : tensor<3x3x3x4x8xf16>
}
