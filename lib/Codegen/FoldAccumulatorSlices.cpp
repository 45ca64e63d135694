//===- FoldAccumulatorSlices.cpp - conv-cpu-fold-accumulator-slices -------===//
//
// After loop-invariant-subset-hoisting: the accumulator tiles that it took
// out of the reduction loops are read from and written back to slices of
// the tile block (tensor.extract_slice -> vector.transfer_read, and
// vector.transfer_write -> tensor.insert_slice); the slices fold into the
// transfers, which then read and write the block itself (see Passes.td).
//
//===----------------------------------------------------------------------===//

#include "conv/Codegen/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::conv {
#define GEN_PASS_DEF_CONVCPUFOLDACCUMULATORSLICESPASS
#include "conv/Codegen/Passes.h.inc"
} // namespace mlir::conv

using namespace mlir;

void mlir::conv::populateFoldAccumulatorSlicesPatterns(
    RewritePatternSet &patterns) {
  tensor::populateFoldTensorSubsetIntoVectorTransferPatterns(patterns);
}

namespace {
struct ConvCPUFoldAccumulatorSlicesPass
    : public conv::impl::ConvCPUFoldAccumulatorSlicesPassBase<
          ConvCPUFoldAccumulatorSlicesPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    conv::populateFoldAccumulatorSlicesPatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};
} // namespace
