//===- Passes.h - ConvGen conversion passes ---------------------*- C++ -*-===//

#ifndef CONV_CONVERSION_PASSES_H
#define CONV_CONVERSION_PASSES_H

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::conv {

#define GEN_PASS_DECL
#include "conv/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "conv/Conversion/Passes.h.inc"

} // namespace mlir::conv

#endif // CONV_CONVERSION_PASSES_H
