//===- ConvBase.td - conv dialect definition ---------------*- tablegen -*-===//

#ifndef CONV_BASE_TD
#define CONV_BASE_TD

include "mlir/IR/OpBase.td"

def Conv_Dialect : Dialect {
  let name = "conv";
  let cppNamespace = "::mlir::conv";
  let summary = "The backward convolutions of deep learning, with exact "
                "TensorFlow / Keras semantics.";
  let description = [{
    The `conv` dialect models the two "backward" convolutions:

    * `conv.backprop_filter`: the filter gradient of an N-D (N = 1, 2, 3)
      grouped convolution with the semantics of TensorFlow's
      `Conv2DBackpropFilter` / `Conv3DBackpropFilterV2` (SAME / VALID /
      EXPLICIT padding, strides, dilations, NWC..NDHWC and NCW..NCDHW).
    * `conv.transpose`: `keras.ops.conv_transpose` (valid / same padding,
      `output_padding` where absent (None) and 0 differ, dilation, both data
      formats, kernel `[spatial..., out_channels, in_channels]`).

    Both ops work on ranked, statically shaped tensors of f16, bf16, f32 or
    f64. The shape arithmetic lives in one C++ library (`conv/Geometry`) that
    the verifiers, the lowerings and the runtime share.
  }];
  let useDefaultAttributePrinterParser = 1;
}

class Conv_Op<string mnemonic, list<Trait> traits = []>
    : Op<Conv_Dialect, mnemonic, traits> {
  let hasVerifier = 1;
}

#endif // CONV_BASE_TD
