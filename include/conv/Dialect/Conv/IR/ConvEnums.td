//===- ConvEnums.td - conv dialect enums -------------------*- tablegen -*-===//

#ifndef CONV_ENUMS_TD
#define CONV_ENUMS_TD

include "conv/Dialect/Conv/IR/ConvBase.td"
include "mlir/IR/EnumAttr.td"

// TensorFlow data formats; the rank of the operands must match the name.
def Conv_TFDataFormat : I32EnumAttr<"TFDataFormat",
    "TensorFlow data format of conv.backprop_filter activations", [
      I32EnumAttrCase<"NWC", 0>, I32EnumAttrCase<"NHWC", 1>,
      I32EnumAttrCase<"NDHWC", 2>, I32EnumAttrCase<"NCW", 3>,
      I32EnumAttrCase<"NCHW", 4>, I32EnumAttrCase<"NCDHW", 5>]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::conv";
}
def Conv_TFDataFormatAttr : EnumAttr<Conv_Dialect, Conv_TFDataFormat,
                                     "tf_data_format">;

def Conv_TFPadding : I32EnumAttr<"TFPadding",
    "TensorFlow padding of conv.backprop_filter", [
      I32EnumAttrCase<"VALID", 0>, I32EnumAttrCase<"SAME", 1>,
      I32EnumAttrCase<"EXPLICIT", 2>]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::conv";
}
def Conv_TFPaddingAttr : EnumAttr<Conv_Dialect, Conv_TFPadding, "tf_padding">;

def Conv_KerasDataFormat : I32EnumAttr<"KerasDataFormat",
    "Keras data format of conv.transpose activations", [
      I32EnumAttrCase<"channels_last", 0>,
      I32EnumAttrCase<"channels_first", 1>]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::conv";
}
def Conv_KerasDataFormatAttr : EnumAttr<Conv_Dialect, Conv_KerasDataFormat,
                                        "keras_data_format">;

def Conv_KerasPadding : I32EnumAttr<"KerasPadding",
    "Keras padding of conv.transpose", [
      I32EnumAttrCase<"valid", 0>, I32EnumAttrCase<"same", 1>]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::conv";
}
def Conv_KerasPaddingAttr : EnumAttr<Conv_Dialect, Conv_KerasPadding,
                                     "keras_padding">;

#endif // CONV_ENUMS_TD
