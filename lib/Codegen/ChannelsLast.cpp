//===- ChannelsLast.cpp - conv-cpu-channels-last ---------------------------===//
//
// Channels-first conv ops run as channels-last ops between linalg.transpose
// relayouts (see Passes.td and docs/Codegen.md): the register tiles of
// conv-cpu-tile-and-vectorize vectorize along the channels, which are only
// contiguous in the channels-last layout.
//
//===----------------------------------------------------------------------===//

#include "conv/Codegen/Passes.h"
#include "conv/Conversion/ConvToLinalg/ConvToLinalg.h"
#include "conv/Dialect/Conv/IR/ConvOps.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::conv {
#define GEN_PASS_DEF_CONVCPUCHANNELSLASTPASS
#include "conv/Codegen/Passes.h.inc"
} // namespace mlir::conv

using namespace mlir;
using namespace mlir::conv;

namespace {

/// [N, C, s...] -> [N, s..., C] (`toLast`) or back.
SmallVector<int64_t> layoutPermutation(int64_t rank, bool toLast) {
  SmallVector<int64_t> perm = {0};
  if (toLast) {
    for (int64_t d = 2; d < rank; ++d)
      perm.push_back(d);
    perm.push_back(1);
  } else {
    perm.push_back(rank - 1);
    for (int64_t d = 1; d + 1 < rank; ++d)
      perm.push_back(d);
  }
  return perm;
}

/// `type` with its dimensions permuted by `perm`.
RankedTensorType permutedType(RankedTensorType type, ArrayRef<int64_t> perm) {
  SmallVector<int64_t> shape;
  for (int64_t p : perm)
    shape.push_back(type.getDimSize(p));
  return type.clone(shape);
}

/// linalg.transpose of `value` by `perm`, tagged as a relayout.
Value relayout(PatternRewriter &rewriter, Location loc, Value value,
               ArrayRef<int64_t> perm) {
  RankedTensorType type =
      permutedType(cast<RankedTensorType>(value.getType()), perm);
  Value init = tensor::EmptyOp::create(rewriter, loc, type.getShape(),
                                       type.getElementType());
  auto op = linalg::TransposeOp::create(rewriter, loc, value, init, perm);
  op->setAttr(kRoleAttrName, rewriter.getStringAttr(kRoleRelayout));
  return op->getResult(0);
}

struct BackpropFilterToChannelsLast
    : public OpRewritePattern<BackpropFilterOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(BackpropFilterOp op,
                                PatternRewriter &rewriter) const override {
    TFDataFormat format = op.getDataFormat();
    if (getLayout(format) == convgen::DataLayout::ChannelsLast)
      return rewriter.notifyMatchFailure(op, "already channels last");
    auto inType = cast<RankedTensorType>(op.getInput().getType());
    auto dyType = cast<RankedTensorType>(op.getOutBackprop().getType());
    if (!inType.hasStaticShape() || !dyType.hasStaticShape())
      return rewriter.notifyMatchFailure(op, "dynamic shapes");
    Location loc = op.getLoc();
    SmallVector<int64_t> perm = layoutPermutation(inType.getRank(), true);
    Value x = relayout(rewriter, loc, op.getInput(), perm);
    Value dy = relayout(rewriter, loc, op.getOutBackprop(), perm);
    auto lastOp = cast<BackpropFilterOp>(rewriter.clone(*op));
    lastOp.setDataFormat(getTFDataFormat(convgen::DataLayout::ChannelsLast,
                                         getNumSpatialDims(format)));
    lastOp->setOperands({x, dy});
    rewriter.replaceOp(op, lastOp->getResults());
    return success();
  }
};

struct TransposeToChannelsLast : public OpRewritePattern<TransposeOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(TransposeOp op,
                                PatternRewriter &rewriter) const override {
    if (op.getDataFormat() != KerasDataFormat::channels_first)
      return rewriter.notifyMatchFailure(op, "already channels last");
    auto inType = cast<RankedTensorType>(op.getInputs().getType());
    auto outType = cast<RankedTensorType>(op.getOutput().getType());
    if (!inType.hasStaticShape() || !outType.hasStaticShape())
      return rewriter.notifyMatchFailure(op, "dynamic shapes");
    Location loc = op.getLoc();
    int64_t rank = inType.getRank();
    SmallVector<int64_t> toLast = layoutPermutation(rank, true);
    Value x = relayout(rewriter, loc, op.getInputs(), toLast);
    auto lastOp = cast<TransposeOp>(rewriter.clone(*op));
    lastOp.setDataFormat(KerasDataFormat::channels_last);
    lastOp->setOperand(0, x);
    lastOp.getOutput().setType(permutedType(outType, toLast));
    Value y = relayout(rewriter, loc, lastOp.getOutput(),
                       layoutPermutation(rank, false));
    rewriter.replaceOp(op, y);
    return success();
  }
};

struct ChannelsLastPass
    : public conv::impl::ConvCPUChannelsLastPassBase<ChannelsLastPass> {
  using Base::Base;

  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateConvChannelsLastPatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace

void mlir::conv::populateConvChannelsLastPatterns(RewritePatternSet &patterns) {
  patterns.add<BackpropFilterToChannelsLast, TransposeToChannelsLast>(
      patterns.getContext());
}
