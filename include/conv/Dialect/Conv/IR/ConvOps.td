//===- ConvOps.td - conv dialect ops -----------------------*- tablegen -*-===//

#ifndef CONV_OPS_TD
#define CONV_OPS_TD

include "conv/Dialect/Conv/IR/ConvBase.td"
include "conv/Dialect/Conv/IR/ConvEnums.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/IR/CommonAttrConstraints.td"

def Conv_FloatTensor : RankedTensorOf<[F16, BF16, F32, F64]>;

def Conv_BackpropFilterOp : Conv_Op<"backprop_filter", [Pure]> {
  let summary = "filter gradient of an N-D grouped convolution "
                "(tf.nn.conv2d_backprop_filter)";
  let description = [{
    Computes the gradient of an N-D convolution (N = 1, 2, 3) with respect to
    its filter, with the semantics of TensorFlow's `Conv2DBackpropFilter`
    generalized to 1-D/3-D and to groups. The result type gives
    `filter_sizes`: it is always `[spatial..., in_channels / groups,
    out_channels]`, whatever the data format.

    ```
    dW[k..., ci, co] = sum_{b, o...} X[b, o*s + k*d - pad_before, g(co)*Cf + ci]
                                     * dY[b, o..., co]
    g(co) = co / (Cout / G),  G = Cin / Cf,  X = 0 outside the input
    ```

    * `data_format`: NWC/NHWC/NDHWC (channels last) or NCW/NCHW/NCDHW
      (channels first); the name must match the operand rank.
    * `strides`, `dilations`: one entry (>= 1) per spatial dimension.
    * `padding`: `SAME` (odd pad after), `VALID`, or `EXPLICIT` with
      `explicit_paddings` = [before, after] per spatial dimension (>= 0).
    * The `out_backprop` spatial sizes must equal TF's computed output sizes
      (truncating division).

    Example:

    ```mlir
    %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = SAME
            strides = [2, 2] dilations = [1, 1]
            : tensor<1x4x4x3xf32>, tensor<1x2x2x2xf32> -> tensor<3x3x3x2xf32>
    ```
  }];
  let arguments = (ins Conv_FloatTensor:$input,
                       Conv_FloatTensor:$out_backprop,
                       Conv_TFDataFormatAttr:$data_format,
                       Conv_TFPaddingAttr:$padding,
                       OptionalAttr<DenseI64ArrayAttr>:$explicit_paddings,
                       DenseI64ArrayAttr:$strides,
                       DenseI64ArrayAttr:$dilations);
  let results = (outs Conv_FloatTensor:$filter);
  let assemblyFormat = [{
    $input `,` $out_backprop
    `data_format` `=` `` $data_format
    `padding` `=` `` $padding
    (`explicit_paddings` `=` $explicit_paddings^)?
    `strides` `=` $strides
    `dilations` `=` $dilations
    attr-dict `:` type($input) `,` type($out_backprop) `->` type($filter)
  }];
  let extraClassDeclaration = [{
    /// Number of spatial dimensions (1, 2 or 3).
    int64_t getNumSpatialDims() {
      return getInput().getType().getRank() - 2;
    }
    /// The geometry-library view of the attributes.
    ::convgen::BackpropFilterAttrs getGeometryAttrs();
    /// Validated geometry (the verifier guarantees success on verified ops).
    ::convgen::Result<::convgen::BackpropFilterGeometry> getGeometry();
  }];
}

def Conv_TransposeOp : Conv_Op<"transpose", [Pure]> {
  let summary = "N-D transposed convolution (keras.ops.conv_transpose)";
  let description = [{
    `keras.ops.conv_transpose` for N = 1, 2, 3 spatial dimensions. The kernel
    layout is `[spatial..., out_channels, in_channels]`.

    ```
    full[p] = sum_{i, m: i*s + m*d = p} sum_c x[i, c] * K[m, o, c]
    out[q]  = full[q + crop_before]        (0 beyond the full extent)
    ```

    Output length per spatial dimension (k_eff = (k - 1) * d + 1):

    | padding | output_padding absent (None) | output_padding = op |
    |---|---|---|
    | valid | (in-1)*s + max(k_eff, s) | (in-1)*s + k_eff + op |
    | same  | in*s | (in-1)*s + k_eff%2 + op |

    An absent `output_padding` and an all-zero one are different. Every
    `output_padding` entry must be in [0, stride). Dilation together with
    stride > 1 is allowed (JAX semantics).

    Example:

    ```mlir
    %y = conv.transpose %x, %k data_format = channels_last padding = same
           strides = [2, 2] dilation_rate = [1, 1] output_padding = [1, 1]
           : tensor<2x4x4x3xf32>, tensor<3x3x5x3xf32> -> tensor<2x8x8x5xf32>
    ```
  }];
  let arguments = (ins Conv_FloatTensor:$inputs,
                       Conv_FloatTensor:$kernel,
                       Conv_KerasDataFormatAttr:$data_format,
                       Conv_KerasPaddingAttr:$padding,
                       DenseI64ArrayAttr:$strides,
                       DenseI64ArrayAttr:$dilation_rate,
                       OptionalAttr<DenseI64ArrayAttr>:$output_padding);
  let results = (outs Conv_FloatTensor:$output);
  let assemblyFormat = [{
    $inputs `,` $kernel
    `data_format` `=` `` $data_format
    `padding` `=` `` $padding
    `strides` `=` $strides
    `dilation_rate` `=` $dilation_rate
    (`output_padding` `=` $output_padding^)?
    attr-dict `:` type($inputs) `,` type($kernel) `->` type($output)
  }];
  let extraClassDeclaration = [{
    int64_t getNumSpatialDims() {
      return getInputs().getType().getRank() - 2;
    }
    ::convgen::TransposeAttrs getGeometryAttrs();
    ::convgen::Result<::convgen::TransposeGeometry> getGeometry();
  }];
}

#endif // CONV_OPS_TD
