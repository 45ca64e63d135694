//===- ReturnReshapedAllocs.cpp - conv-return-reshaped-allocs -------------===//
//
// A function that returns a reshape (memref.expand_shape / collapse_shape)
// of a static memref.alloc gets the allocation in the returned shape, seen
// by the computation through the inverse reshape, and returns it directly,
// so that buffer-results-to-out-params (hoist-static-allocs) makes it the
// out-param and no copy into the out-param is left (see Passes.td).
//
//===----------------------------------------------------------------------===//

#include "conv/Codegen/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::conv {
#define GEN_PASS_DEF_CONVRETURNRESHAPEDALLOCSPASS
#include "conv/Codegen/Passes.h.inc"
} // namespace mlir::conv

using namespace mlir;

namespace {

/// Whether `type` is a static memref with the identity layout.
bool isStaticIdentity(MemRefType type) {
  return type && type.hasStaticShape() && type.getLayout().isIdentity();
}

struct ReturnReshapedAlloc : public OpRewritePattern<func::ReturnOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(func::ReturnOp ret,
                                PatternRewriter &rewriter) const override {
    for (OpOperand &operand : ret->getOpOperands()) {
      Operation *reshape = operand.get().getDefiningOp();
      if (!isa_and_nonnull<memref::ExpandShapeOp, memref::CollapseShapeOp>(
              reshape))
        continue;
      Value source = reshape->getOperand(0);
      auto alloc = source.getDefiningOp<memref::AllocOp>();
      auto resultType = dyn_cast<MemRefType>(operand.get().getType());
      if (!alloc || !isStaticIdentity(alloc.getType()) ||
          !isStaticIdentity(resultType) ||
          alloc->getParentRegion() != ret->getParentRegion())
        continue;
      bool expand = isa<memref::ExpandShapeOp>(reshape);
      SmallVector<ReassociationIndices> reassociation =
          expand
              ? cast<memref::ExpandShapeOp>(reshape).getReassociationIndices()
              : cast<memref::CollapseShapeOp>(reshape)
                    .getReassociationIndices();
      // The allocation in the returned shape must be viewable as the old
      // one: collapsing the expanded one of the two types with the
      // reshape's reassociation gives the other (checked before any IR is
      // created, so that a pattern that fails changes nothing).
      MemRefType expanded = expand ? resultType : alloc.getType();
      MemRefType collapsed = expand ? alloc.getType() : resultType;
      if (memref::CollapseShapeOp::computeCollapsedType(
              expanded, reassociation) != collapsed)
        continue;
      rewriter.setInsertionPoint(alloc);
      auto whole = memref::AllocOp::create(rewriter, alloc.getLoc(), resultType,
                                           alloc.getAlignmentAttr());
      // The inverse reshape: the computation's view of the allocation.
      Value view = expand ? Value(memref::CollapseShapeOp::create(
                                rewriter, alloc.getLoc(), whole, reassociation))
                          : Value(memref::ExpandShapeOp::create(
                                rewriter, alloc.getLoc(), alloc.getType(),
                                whole, reassociation));
      rewriter.replaceOp(alloc, view);
      rewriter.modifyOpInPlace(ret, [&] { operand.set(whole); });
      if (reshape->use_empty())
        rewriter.eraseOp(reshape);
      return success();
    }
    return failure();
  }
};

struct ReturnReshapedAllocs
    : public conv::impl::ConvReturnReshapedAllocsPassBase<
          ReturnReshapedAllocs> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    conv::populateReturnReshapedAllocPatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace

void mlir::conv::populateReturnReshapedAllocPatterns(
    RewritePatternSet &patterns) {
  patterns.add<ReturnReshapedAlloc>(patterns.getContext());
}
