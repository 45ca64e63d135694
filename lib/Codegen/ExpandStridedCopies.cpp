//===- ExpandStridedCopies.cpp - conv-cpu-expand-strided-copies -----------===//
//
// A strided memref.copy (the interior of a padded input, a strided output
// slice) would lower to the generic memrefCopy runtime call, one element
// per iteration through an indirect loop. Its trailing dimensions that are
// contiguous in both memrefs form rows: with rows of at least
// kMinRowElements, the copy becomes a loop nest over the other dimensions
// with one contiguous 1-D memref.copy (a memcpy) per row, and a large copy
// outside any parallel loop takes its threads as an scf.forall over the
// first of those dimensions that has enough iterations. Shorter rows
// become a linalg.copy loop nest.
//
//===----------------------------------------------------------------------===//

#include "conv/Codegen/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Utils/MemRefUtils.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::conv {
#define GEN_PASS_DEF_CONVCPUEXPANDSTRIDEDCOPIESPASS
#include "conv/Codegen/Passes.h.inc"
} // namespace mlir::conv

using namespace mlir;

namespace {

/// Rows shorter than this are copied by a linalg.copy loop nest (a memcpy
/// call per row would cost more than the row).
constexpr int64_t kMinRowElements = 16;
/// Copies of at least this many bytes are split over threads.
constexpr int64_t kMinThreadedCopyBytes = 256 * 1024;

bool isContiguous(MemRefType type) {
  return type.getLayout().isIdentity() ||
         memref::isStaticShapeAndContiguousRowMajor(type);
}

/// The number of trailing dimensions of `type` (static, strided) that are
/// contiguous, i.e. whose strides are the products of the later sizes.
int64_t contiguousTrailingDims(MemRefType type) {
  auto [strides, offset] = type.getStridesAndOffset();
  (void)offset;
  int64_t rank = type.getRank(), run = 1, dims = 0;
  for (int64_t d = rank - 1; d >= 0; --d) {
    if (strides[d] != run)
      break;
    run *= type.getDimSize(d);
    ++dims;
  }
  return dims;
}

/// Whether `op` already runs inside a parallel loop (the pass runs before
/// they become OpenMP regions).
bool inParallelLoop(Operation *op) {
  return op->getParentOfType<scf::ForallOp>() ||
         op->getParentOfType<scf::ParallelOp>();
}

struct StridedCopyToRows : public OpRewritePattern<memref::CopyOp> {
  StridedCopyToRows(MLIRContext *ctx, int64_t threads)
      : OpRewritePattern(ctx), threads(threads) {}
  int64_t threads;

  LogicalResult matchAndRewrite(memref::CopyOp op,
                                PatternRewriter &rewriter) const override {
    auto source = dyn_cast<MemRefType>(op.getSource().getType());
    auto target = dyn_cast<MemRefType>(op.getTarget().getType());
    if (!source || !target)
      return failure();
    if (isContiguous(source) && isContiguous(target))
      return rewriter.notifyMatchFailure(op, "contiguous: becomes a memcpy");
    Location loc = op.getLoc();
    int64_t rank = source.getRank();
    bool rows = source.hasStaticShape() && target.hasStaticShape() &&
                source.isStrided() && target.isStrided() && rank >= 2 &&
                source.getShape() == target.getShape();
    int64_t rowDims = 0, rowElements = 1;
    if (rows) {
      rowDims = std::min(contiguousTrailingDims(source),
                         contiguousTrailingDims(target));
      for (int64_t d = rank - rowDims; d < rank; ++d)
        rowElements *= source.getDimSize(d);
    }
    if (!rows || rowDims == 0 || rowDims == rank ||
        rowElements < kMinRowElements) {
      rewriter.replaceOpWithNewOp<linalg::CopyOp>(op, op.getSource(),
                                                  op.getTarget());
      return success();
    }

    // The loops over the outer dimensions; the first one with at least as
    // many iterations as threads is an scf.forall for a large copy.
    int64_t outer = rank - rowDims;
    int64_t bytes = source.getNumElements() *
                    std::max<int64_t>(1, source.getElementTypeBitWidth() / 8);
    int64_t threadDim = -1;
    if (threads > 1 && bytes >= kMinThreadedCopyBytes && !inParallelLoop(op))
      for (int64_t d = 0; d < outer && threadDim < 0; ++d)
        if (source.getDimSize(d) >= threads)
          threadDim = d;
    SmallVector<Value> ivs(outer);
    OpBuilder::InsertionGuard guard(rewriter);
    if (threadDim >= 0) {
      auto forall = scf::ForallOp::create(
          rewriter, loc,
          ArrayRef<OpFoldResult>{
              rewriter.getIndexAttr(source.getDimSize(threadDim))},
          ValueRange{}, std::nullopt);
      ivs[threadDim] = forall.getInductionVars()[0];
      rewriter.setInsertionPoint(forall.getBody()->getTerminator());
    }
    Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
    Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
    for (int64_t d = 0; d < outer; ++d) {
      if (d == threadDim)
        continue;
      Value ub =
          arith::ConstantIndexOp::create(rewriter, loc, source.getDimSize(d));
      auto loop = scf::ForOp::create(rewriter, loc, zero, ub, one);
      ivs[d] = loop.getInductionVar();
      rewriter.setInsertionPoint(loop.getBody()->getTerminator());
    }

    // One row: the trailing dimensions of both sides, collapsed to 1-D.
    SmallVector<OpFoldResult> offsets, sizes,
        strides(rank, rewriter.getIndexAttr(1));
    SmallVector<int64_t> rowShape;
    for (int64_t d = 0; d < rank; ++d) {
      bool inRow = d >= outer;
      offsets.push_back(inRow ? OpFoldResult(rewriter.getIndexAttr(0))
                              : OpFoldResult(ivs[d]));
      sizes.push_back(rewriter.getIndexAttr(inRow ? source.getDimSize(d) : 1));
      if (inRow)
        rowShape.push_back(source.getDimSize(d));
    }
    auto row = [&](Value memref) -> Value {
      auto type = cast<MemRefType>(memref.getType());
      auto rowType = memref::SubViewOp::inferRankReducedResultType(
          rowShape, type, offsets, sizes, strides);
      Value view = memref::SubViewOp::create(rewriter, loc, rowType, memref,
                                             offsets, sizes, strides);
      if (rowDims == 1)
        return view;
      ReassociationIndices all;
      for (int64_t i = 0; i < rowDims; ++i)
        all.push_back(i);
      return memref::CollapseShapeOp::create(
          rewriter, loc, view, SmallVector<ReassociationIndices>{all});
    };
    Value from = row(op.getSource());
    Value to = row(op.getTarget());
    memref::CopyOp::create(rewriter, loc, from, to);
    rewriter.eraseOp(op);
    return success();
  }
};

struct ExpandStridedCopies
    : public conv::impl::ConvCPUExpandStridedCopiesPassBase<
          ExpandStridedCopies> {
  using Base::Base;
  void runOnOperation() override {
    int64_t threads = conv::resolveNumThreads(numThreads);
    RewritePatternSet patterns(&getContext());
    patterns.add<StridedCopyToRows>(&getContext(), threads);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
