//===- ConvDialect.cpp - conv dialect -------------------------------------===//

#include "conv/Dialect/Conv/IR/ConvDialect.h"
#include "conv/Dialect/Conv/IR/ConvOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::conv;

#include "conv/Dialect/Conv/IR/ConvOpsDialect.cpp.inc"
#include "conv/Dialect/Conv/IR/ConvEnums.cpp.inc"
#define GET_ATTRDEF_CLASSES
#include "conv/Dialect/Conv/IR/ConvAttrs.cpp.inc"

void ConvDialect::initialize() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "conv/Dialect/Conv/IR/ConvAttrs.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "conv/Dialect/Conv/IR/ConvOps.cpp.inc"
      >();
}
