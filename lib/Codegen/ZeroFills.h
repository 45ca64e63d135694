//===- ZeroFills.h - Zero fills of filter-gradient outputs ------*- C++ -*-===//
//
// Helpers of conv-cpu-tile-and-vectorize (TileAndVectorize.cpp): the zero
// fill that a filter gradient's dW starts from moves from the whole dW to
// each contraction's own output slice, where the register tiles of the
// contraction's first reduction block start from zero instead of reading
// it (docs/Codegen.md, "Zero-started filter gradients").
//
//===----------------------------------------------------------------------===//

#ifndef CONVGEN_LIB_CODEGEN_ZEROFILLS_H
#define CONVGEN_LIB_CODEGEN_ZEROFILLS_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::conv::detail {

/// Marks the ops that sinkZeroFills gave a fill: the tiling starts their
/// first reduction block's register tiles from zero.
constexpr llvm::StringLiteral kZeroStartAttr = "conv.zero_start";

/// Whether `value` holds zeros wherever it is read: a linalg.fill of a
/// constant zero, a slice, reshape or cast of such a tensor, or the shared
/// output of an scf.forall whose init does (the forall's body reads the
/// init: its writes happen in the terminator).
bool isZeroTensor(Value value);

/// Gives each of `ops` whose (only) init is a zero tensor (isZeroTensor)
/// but not a linalg.fill its own zero fill of that init, then replaces
/// every zero linalg.fill of a tensor.empty whose values are no longer read
/// (each read slice is overwritten by a fill, and the slices that the
/// slice inserts and foralls write cover it) by the empty tensor. Marks
/// the ops that got a fill with kZeroStartAttr and returns them.
SmallVector<linalg::GenericOp> sinkZeroFills(RewriterBase &rewriter,
                                             func::FuncOp func,
                                             ArrayRef<linalg::GenericOp> ops);

} // namespace mlir::conv::detail

#endif // CONVGEN_LIB_CODEGEN_ZEROFILLS_H
