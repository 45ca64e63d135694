//===- ConvDialect.h - conv dialect -----------------------------*- C++ -*-===//

#ifndef CONV_DIALECT_CONV_IR_CONVDIALECT_H
#define CONV_DIALECT_CONV_IR_CONVDIALECT_H

#include "mlir/IR/Dialect.h"

#include "conv/Dialect/Conv/IR/ConvOpsDialect.h.inc"

#endif // CONV_DIALECT_CONV_IR_CONVDIALECT_H
