//===- ConvOps.cpp - conv dialect ops and verifiers -----------------------===//
//
// The verifiers check what only the IR can tell (static shapes, element
// types, data_format vs rank, result types) and delegate every rule of the
// spec's validation tables to the geometry library, so that the verifier, the
// lowering, the JIT API and the Python package share one implementation.
//
//===----------------------------------------------------------------------===//

#include "conv/Dialect/Conv/IR/ConvOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/InterleavedRange.h"

using namespace mlir;
using namespace mlir::conv;

convgen::DataLayout mlir::conv::getLayout(TFDataFormat f) {
  switch (f) {
  case TFDataFormat::NWC:
  case TFDataFormat::NHWC:
  case TFDataFormat::NDHWC:
    return convgen::DataLayout::ChannelsLast;
  default:
    return convgen::DataLayout::ChannelsFirst;
  }
}

int64_t mlir::conv::getNumSpatialDims(TFDataFormat f) {
  switch (f) {
  case TFDataFormat::NWC:
  case TFDataFormat::NCW:
    return 1;
  case TFDataFormat::NHWC:
  case TFDataFormat::NCHW:
    return 2;
  case TFDataFormat::NDHWC:
  case TFDataFormat::NCDHW:
    return 3;
  }
  return 0;
}

TFDataFormat mlir::conv::getTFDataFormat(convgen::DataLayout layout,
                                         int64_t n) {
  bool last = layout == convgen::DataLayout::ChannelsLast;
  if (n == 1)
    return last ? TFDataFormat::NWC : TFDataFormat::NCW;
  if (n == 3)
    return last ? TFDataFormat::NDHWC : TFDataFormat::NCDHW;
  return last ? TFDataFormat::NHWC : TFDataFormat::NCHW;
}

namespace {

convgen::Shape toShape(ArrayRef<int64_t> a) { return {a.begin(), a.end()}; }

/// Static shapes and one element type for every operand and the result.
LogicalResult verifyOperandTypes(Operation *op,
                                 ArrayRef<std::pair<StringRef, Value>> values) {
  Type elementType;
  StringRef firstName;
  for (auto [name, value] : values) {
    auto type = cast<RankedTensorType>(value.getType());
    for (auto [i, size] : llvm::enumerate(type.getShape()))
      if (ShapedType::isDynamic(size))
        return op->emitOpError()
               << name << " dimension " << i
               << " is dynamic; only static shapes are supported (type "
               << type << ")";
    if (!elementType) {
      elementType = type.getElementType();
      firstName = name;
    } else if (type.getElementType() != elementType) {
      return op->emitOpError()
             << "all operands and the result must have one element type: "
             << firstName << " has " << elementType << " but " << name
             << " has " << type.getElementType();
    }
  }
  return success();
}

} // namespace

//===----------------------------------------------------------------------===//
// BackpropFilterOp
//===----------------------------------------------------------------------===//

convgen::BackpropFilterAttrs BackpropFilterOp::getGeometryAttrs() {
  convgen::BackpropFilterAttrs a;
  a.layout = getLayout(getDataFormat());
  a.strides = toShape(getStrides());
  a.dilations = toShape(getDilations());
  switch (getPadding()) {
  case TFPadding::VALID:
    a.padding = convgen::FilterPadding::Valid;
    break;
  case TFPadding::SAME:
    a.padding = convgen::FilterPadding::Same;
    break;
  case TFPadding::EXPLICIT:
    a.padding = convgen::FilterPadding::Explicit;
    break;
  }
  if (auto ep = getExplicitPaddings())
    a.explicitPaddings = toShape(*ep);
  return a;
}

convgen::Result<convgen::BackpropFilterGeometry>
BackpropFilterOp::getGeometry() {
  return convgen::computeBackpropFilterGeometry(
      getGeometryAttrs(), toShape(getInput().getType().getShape()),
      toShape(getFilter().getType().getShape()),
      toShape(getOutBackprop().getType().getShape()));
}

LogicalResult BackpropFilterOp::verify() {
  if (failed(verifyOperandTypes(*this, {{"operand 'input'", getInput()},
                                        {"operand 'out_backprop'",
                                         getOutBackprop()},
                                        {"result 'filter'", getFilter()}})))
    return failure();
  int64_t rank = getInput().getType().getRank();
  int64_t expected = conv::getNumSpatialDims(getDataFormat()) + 2;
  if (rank != expected)
    return emitOpError() << "attribute 'data_format' "
                         << stringifyTFDataFormat(getDataFormat())
                         << " requires rank-" << expected
                         << " operands, but operand 'input' has rank " << rank;
  auto geometry = getGeometry();
  if (!geometry)
    return emitOpError() << geometry.error();
  return success();
}

//===----------------------------------------------------------------------===//
// TransposeOp
//===----------------------------------------------------------------------===//

convgen::TransposeAttrs TransposeOp::getGeometryAttrs() {
  convgen::TransposeAttrs a;
  a.layout = getDataFormat() == KerasDataFormat::channels_last
                 ? convgen::DataLayout::ChannelsLast
                 : convgen::DataLayout::ChannelsFirst;
  a.strides = toShape(getStrides());
  a.dilations = toShape(getDilationRate());
  a.padding = getPadding() == KerasPadding::valid
                  ? convgen::TransposePadding::Valid
                  : convgen::TransposePadding::Same;
  if (auto op = getOutputPadding())
    a.outputPadding = toShape(*op);
  return a;
}

convgen::Result<convgen::TransposeGeometry> TransposeOp::getGeometry() {
  return convgen::computeTransposeGeometry(
      getGeometryAttrs(), toShape(getInputs().getType().getShape()),
      toShape(getKernel().getType().getShape()));
}

LogicalResult TransposeOp::verify() {
  if (failed(verifyOperandTypes(*this, {{"operand 'inputs'", getInputs()},
                                        {"operand 'kernel'", getKernel()},
                                        {"result 'output'", getOutput()}})))
    return failure();
  auto geometry = getGeometry();
  if (!geometry)
    return emitOpError() << geometry.error();
  convgen::Shape expected = geometry->outputShape();
  RankedTensorType outputType = getOutput().getType();
  ArrayRef<int64_t> actual = outputType.getShape();
  if (actual.size() != expected.size())
    return emitOpError() << "result 'output' must have rank " << expected.size()
                         << " like operand 'inputs', got " << outputType
                         << " (the Keras output shape is "
                         << llvm::interleaved_array(expected) << ")";
  for (size_t i = 0; i < expected.size(); ++i) {
    if (actual[i] == expected[i])
      continue;
    InFlightDiagnostic diag = emitOpError();
    diag << "result 'output' dimension " << i << " has size " << actual[i]
         << " but the Keras output shape is "
         << llvm::interleaved_array(expected) << " (dimension " << i
         << " must be " << expected[i]
         << "; data_format = " << stringifyKerasDataFormat(getDataFormat())
         << ", padding = " << stringifyKerasPadding(getPadding())
         << ", strides = " << llvm::interleaved_array(getStrides())
         << ", dilation_rate = " << llvm::interleaved_array(getDilationRate())
         << ", output_padding = ";
    if (auto outputPadding = getOutputPadding())
      diag << llvm::interleaved_array(*outputPadding);
    else
      diag << "None";
    return diag << ")";
  }
  return success();
}

#define GET_OP_CLASSES
#include "conv/Dialect/Conv/IR/ConvOps.cpp.inc"
