//===- LowerVectors.cpp - conv-cpu-lower-vectors ---------------------------===//
//
// The vector lowering of the verified CPU recipe (research/performance.md §7),
// as separate greedy pattern groups: combining them into one set makes the
// rewrites ping-pong.
//
//===----------------------------------------------------------------------===//

#include "conv/Codegen/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::conv {
#define GEN_PASS_DEF_CONVCPULOWERVECTORSPASS
#include "conv/Codegen/Passes.h.inc"
} // namespace mlir::conv

using namespace mlir;

namespace {

/// transpose(broadcast(v : vector<R>) : vector<CxR>, [1, 0]) : vector<RxC>
/// -> rows broadcast(v[i]) : vector<C>. This is the rank-1 update of a
/// register tile (row operand from a strided read); the generic transpose
/// lowering would shuffle lanes instead of broadcasting scalars.
struct TransposedBroadcastToRowBroadcasts
    : public OpRewritePattern<vector::TransposeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(vector::TransposeOp op,
                                PatternRewriter &rewriter) const override {
    auto broadcast = op.getVector().getDefiningOp<vector::BroadcastOp>();
    auto resultType = op.getResultVectorType();
    if (!broadcast || resultType.getRank() != 2 ||
        op.getPermutation() != ArrayRef<int64_t>{1, 0})
      return failure();
    auto sourceType = dyn_cast<VectorType>(broadcast.getSourceType());
    if (!sourceType || sourceType.getRank() != 1 ||
        sourceType.getDimSize(0) != resultType.getDimSize(0))
      return failure();
    Location loc = op.getLoc();
    auto rowType = VectorType::get({resultType.getDimSize(1)},
                                   resultType.getElementType());
    Value result = ub::PoisonOp::create(rewriter, loc, resultType);
    for (int64_t i = 0, e = resultType.getDimSize(0); i < e; ++i) {
      Value element =
          vector::ExtractOp::create(rewriter, loc, broadcast.getSource(), i);
      Value row = vector::BroadcastOp::create(rewriter, loc, rowType, element);
      result = vector::InsertOp::create(rewriter, loc, row, result, i);
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// 0-d transfers on memrefs (single-element accumulator tiles) as scalar
/// memory accesses; no upstream lowering handles them when their value is
/// carried by a loop instead of being extracted.
struct ZeroDTransferReadToLoad
    : public OpRewritePattern<vector::TransferReadOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(vector::TransferReadOp op,
                                PatternRewriter &rewriter) const override {
    if (op.getVectorType().getRank() != 0 ||
        !isa<MemRefType>(op.getBase().getType()) || op.getMask())
      return failure();
    Value scalar = memref::LoadOp::create(rewriter, op.getLoc(), op.getBase(),
                                          op.getIndices());
    rewriter.replaceOpWithNewOp<vector::BroadcastOp>(op, op.getVectorType(),
                                                     scalar);
    return success();
  }
};

struct ZeroDTransferWriteToStore
    : public OpRewritePattern<vector::TransferWriteOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(vector::TransferWriteOp op,
                                PatternRewriter &rewriter) const override {
    if (op.getVectorType().getRank() != 0 ||
        !isa<MemRefType>(op.getBase().getType()) || op.getMask())
      return failure();
    Value scalar = vector::ExtractOp::create(rewriter, op.getLoc(),
                                             op.getVector(), ArrayRef<int64_t>{});
    memref::StoreOp::create(rewriter, op.getLoc(), scalar, op.getBase(),
                            op.getIndices());
    rewriter.eraseOp(op);
    return success();
  }
};

/// A transfer_read on a memref whose every use extracts one scalar (the
/// broadcast operand of the outer products of a register tile: x[p, ci..ci+R)
/// for a filter gradient) becomes one scalar load per extracted element.
/// Loaded as a vector, a row of 6 floats is split into 4 + 2 lanes; LLVM
/// then broadcasts the last two from a register (a load, a shuffle and
/// two broadcasts, and on AVX2 a spill of the 16-register tile) instead of
/// broadcasting each scalar straight from memory.
struct ScalarExtractsOfTransferReadToLoads
    : public OpRewritePattern<vector::TransferReadOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(vector::TransferReadOp op,
                                PatternRewriter &rewriter) const override {
    VectorType type = op.getVectorType();
    auto memrefType = dyn_cast<MemRefType>(op.getBase().getType());
    int64_t rank = type.getRank();
    if (!memrefType || op.getMask() || rank == 0 || op->use_empty() ||
        !op.getPermutationMap().isMinorIdentity() ||
        llvm::any_of(op.getInBoundsValues(), [](bool b) { return !b; }))
      return failure();
    // Every use a static scalar extract in the same block, with nothing
    // that may write memory between the read and it (the loads move to
    // the extracts).
    auto mayWrite = [](Operation &o) {
      if (isMemoryEffectFree(&o))
        return false;
      auto iface = dyn_cast<MemoryEffectOpInterface>(o);
      if (!iface)
        return true;
      SmallVector<MemoryEffects::EffectInstance> effects;
      iface.getEffects(effects);
      return llvm::any_of(effects, [](const auto &e) {
        return !isa<MemoryEffects::Read>(e.getEffect());
      });
    };
    SmallVector<vector::ExtractOp> extracts;
    for (Operation *user : op->getUsers()) {
      auto extract = dyn_cast<vector::ExtractOp>(user);
      if (!extract || extract.getSource() != op.getResult() ||
          isa<VectorType>(extract.getType()) ||
          !extract.getDynamicPosition().empty() ||
          extract->getBlock() != op->getBlock() ||
          !op->isBeforeInBlock(extract))
        return failure();
      for (Operation &o : llvm::make_range(std::next(op->getIterator()),
                                           extract->getIterator()))
        if (mayWrite(o))
          return failure();
      extracts.push_back(extract);
    }
    Location loc = op.getLoc();
    int64_t first = memrefType.getRank() - rank;
    for (vector::ExtractOp extract : extracts) {
      rewriter.setInsertionPoint(extract);
      SmallVector<Value> indices(op.getIndices());
      for (auto [d, pos] : llvm::enumerate(extract.getStaticPosition())) {
        if (pos == 0)
          continue;
        Value offset = arith::ConstantIndexOp::create(rewriter, loc, pos);
        indices[first + d] = arith::AddIOp::create(
            rewriter, loc, indices[first + d], offset);
      }
      rewriter.replaceOpWithNewOp<memref::LoadOp>(extract, op.getBase(),
                                                  indices);
    }
    rewriter.eraseOp(op);
    return success();
  }
};

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
          p.add<TransposedBroadcastToRowBroadcasts>(p.getContext());
        })) ||
        failed(apply([](RewritePatternSet &p) {
          vector::populateVectorContractLoweringPatterns(
              p, vector::VectorContractLowering::OuterProduct);
          vector::populateVectorOuterProductLoweringPatterns(p);
        })) ||
        failed(apply([](RewritePatternSet &p) {
          p.add<ScalarExtractsOfTransferReadToLoads>(p.getContext());
        })) ||
        failed(apply([](RewritePatternSet &p) {
          vector::populateVectorTransferPermutationMapLoweringPatterns(p);
          vector::populateVectorTransferLoweringPatterns(p,
                                                         /*maxTransferRank=*/1);
          // 0-d transfers (single-element tiles) become scalar loads/stores.
          p.add<ZeroDTransferReadToLoad, ZeroDTransferWriteToStore>(
              p.getContext());
          vector::populateVectorShapeCastLoweringPatterns(p);
          vector::populateVectorBroadcastLoweringPatterns(p);
        })))
      return signalPassFailure();
  }
};
} // namespace
