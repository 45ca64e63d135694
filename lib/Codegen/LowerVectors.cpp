//===- LowerVectors.cpp - conv-cpu-lower-vectors ---------------------------===//
//
// The vector lowering of the verified CPU recipe (research/performance.md §7),
// as separate greedy pattern groups: combining them into one set makes the
// rewrites ping-pong.
//
//===----------------------------------------------------------------------===//

#include "conv/Codegen/Passes.h"

#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::conv {
#define GEN_PASS_DEF_CONVCPULOWERVECTORSPASS
#include "conv/Codegen/Passes.h.inc"
} // namespace mlir::conv

using namespace mlir;

namespace {
struct LowerVectors
    : public conv::impl::ConvCPULowerVectorsPassBase<LowerVectors> {
  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    auto apply = [&](auto populate) {
      RewritePatternSet patterns(ctx);
      populate(patterns);
      return applyPatternsGreedily(getOperation(), std::move(patterns));
    };
    if (failed(apply([](RewritePatternSet &p) {
          vector::populateCastAwayVectorLeadingOneDimPatterns(p);
        })) ||
        failed(apply([](RewritePatternSet &p) {
          vector::populateVectorContractLoweringPatterns(
              p, vector::VectorContractLowering::OuterProduct);
          vector::populateVectorOuterProductLoweringPatterns(p);
        })) ||
        failed(apply([](RewritePatternSet &p) {
          vector::populateVectorTransferPermutationMapLoweringPatterns(p);
          vector::populateVectorTransferLoweringPatterns(p,
                                                         /*maxTransferRank=*/1);
          vector::populateVectorShapeCastLoweringPatterns(p);
          vector::populateVectorBroadcastLoweringPatterns(p);
        })))
      return signalPassFailure();
  }
};
} // namespace
