//===- ConvOps.h - conv dialect ops -----------------------------*- C++ -*-===//

#ifndef CONV_DIALECT_CONV_IR_CONVOPS_H
#define CONV_DIALECT_CONV_IR_CONVOPS_H

#include "conv/Dialect/Conv/IR/ConvDialect.h"
#include "conv/Geometry/Geometry.h"

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "conv/Dialect/Conv/IR/ConvEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "conv/Dialect/Conv/IR/ConvAttrs.h.inc"

#define GET_OP_CLASSES
#include "conv/Dialect/Conv/IR/ConvOps.h.inc"

namespace mlir::conv {
/// TF data_format enum <-> geometry layout and rank.
::convgen::DataLayout getLayout(TFDataFormat format);
int64_t getNumSpatialDims(TFDataFormat format);
/// The TF data_format of a layout and number of spatial dimensions.
TFDataFormat getTFDataFormat(::convgen::DataLayout layout,
                             int64_t numSpatialDims);
} // namespace mlir::conv

#endif // CONV_DIALECT_CONV_IR_CONVOPS_H
