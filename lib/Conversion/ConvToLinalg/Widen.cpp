//===- Widen.cpp - 16-bit conv ops as f32 ops between conversions ---------===//
//
// A 16-bit conv op as the same op on f32 operands, between elementwise
// conversions (docs/Lowering.md §4.1). The contraction then runs exactly
// like an f32 one: the same tiles, each operand element read as one f32
// (a broadcast from memory) instead of widened in the register tile.
//
//===----------------------------------------------------------------------===//

#include "Utils.h"

#include "conv/Conversion/ConvToLinalg/ConvToLinalg.h"
#include "conv/Dialect/Conv/IR/ConvOps.h"

#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::conv;
using namespace mlir::conv::detail;

namespace {

/// FLOPs per operand element below which an op stays 16-bit: the
/// conversions read the operands once more and write them twice as wide,
/// which memory-bound layers do not earn back (measured, bf16, 1 / 2
/// threads: a 1-D WaveNet filter gradient at 64 FLOPs per element 86 ->
/// 69 GFLOP/s, a grouped 3-D one at 108 26 -> 24; DeepBench's 161x700
/// single-channel one at 177 unchanged; ResNet's first layer at 248 +5 %,
/// its 3x3 256-channel layers at 2304 +15-20 %, 16-bit transposed
/// convolutions at 368-2731 +75-80 %).
constexpr double kMinFlopsPerElement = kMin16BitFlopsPerElement;

/// op(x, y : f16 / bf16) -> op(ext(x), ext(y) : f32) then truncated. The
/// products and sums are the ones the 16-bit lowering computes (it widens
/// every operand to f32 and accumulates in f32), so the results are the
/// same; the extensions are exact.
struct WidenSixteenBitConv : public RewritePattern {
  WidenSixteenBitConv(MLIRContext *ctx, bool keepBF16)
      : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/2, ctx),
        keepBF16(keepBF16) {}

  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    if (!isa<BackpropFilterOp, TransposeOp>(op) || op->getNumOperands() != 2 ||
        op->getNumResults() != 1)
      return failure();
    auto resultType = dyn_cast<RankedTensorType>(op->getResult(0).getType());
    if (!resultType)
      return failure();
    Type element = resultType.getElementType();
    if (!isa<Float16Type, BFloat16Type>(element))
      return failure();
    if (keepBF16 && element.isBF16() && isa<TransposeOp>(op))
      return rewriter.notifyMatchFailure(op, "bf16 transposes use vdpbf16ps");
    // The FLOPs of the geometry (spec §2 conventions) per operand element.
    auto x = cast<RankedTensorType>(op->getOperand(0).getType());
    auto y = cast<RankedTensorType>(op->getOperand(1).getType());
    if (!x.hasStaticShape() || !y.hasStaticShape())
      return failure();
    double flops;
    if (auto dw = dyn_cast<BackpropFilterOp>(op)) {
      auto g = dw.getGeometry();
      if (!g)
        return rewriter.notifyMatchFailure(op, g.error());
      flops = g->flops();
      if (keepBF16 && element.isBF16() && dwUsesBF16Pairs(*g))
        return rewriter.notifyMatchFailure(
            op, "bf16 filter gradients of pairs use vdpbf16ps");
    } else {
      auto g = cast<TransposeOp>(op).getGeometry();
      if (!g)
        return rewriter.notifyMatchFailure(op, g.error());
      flops = g->flops();
    }
    double elements = double(x.getNumElements() + y.getNumElements());
    if (elements == 0 || flops < kMinFlopsPerElement * elements)
      return rewriter.notifyMatchFailure(op, "memory-bound: stays 16-bit");
    Location loc = op->getLoc();
    Type f32 = rewriter.getF32Type();
    SmallVector<Value> operands;
    for (Value operand : op->getOperands())
      operands.push_back(castElements(rewriter, loc, operand, f32));
    OperationState state(loc, op->getName().getIdentifier(), operands,
                         TypeRange{resultType.clone(f32)}, op->getAttrs());
    Operation *wide = rewriter.create(state);
    rewriter.replaceOp(op,
                       castElements(rewriter, loc, wide->getResult(0), element));
    return success();
  }

  bool keepBF16;
};

} // namespace

void mlir::conv::populateWidenSixteenBitConvPatterns(RewritePatternSet &patterns,
                                                     bool keepBF16) {
  patterns.add<WidenSixteenBitConv>(patterns.getContext(), keepBF16);
}
