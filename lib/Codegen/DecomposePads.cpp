//===- DecomposePads.cpp - conv-cpu-decompose-pads ------------------------===//
//
// A static tensor.pad with a constant value bufferizes to an allocation
// filled whole with the value and a copy of the source into its interior:
// every element of the interior is written twice, and the fill (a memset
// of the whole padded input, outside any parallel loop) runs on one
// thread. This pass writes the padded tensor in destination-passing style
// instead: a tensor.empty, a linalg.fill of each border slab, and the
// source inserted into the interior. One-shot bufferization keeps the
// slices in place, so the fill writes only the border and the interior
// is one copy (which conv-cpu-expand-strided-copies splits into rows and
// over the threads).
//
// The border is cut into disjoint slabs, two per padded dimension d: the
// low and the high pad of d, over the interior of the dimensions before d
// and the whole extent of the dimensions after it.
//
// A pad whose users read only the source's interior is not copied at all
// (FoldInteriorReadPad). One whose users all take blocks of its unpadded
// dimensions (an image each) inside loops is copied a block at a time, at
// the top of the loop that picks the block (PadPerBlock).
//
//===----------------------------------------------------------------------===//

#include "conv/Codegen/Passes.h"
#include "conv/Conversion/ConvToLinalg/ConvToLinalg.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ValueBoundsOpInterface.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::conv {
#define GEN_PASS_DEF_CONVCPUDECOMPOSEPADSPASS
#include "conv/Codegen/Passes.h.inc"
} // namespace mlir::conv

using namespace mlir;

namespace {

/// A pad the patterns below rewrite: static shapes (rank > 0), a constant
/// padding value, static non-negative padding.
struct StaticPad {
  Value value;
  SmallVector<int64_t> low, high;
};

FailureOr<StaticPad> matchStaticPad(tensor::PadOp op,
                                    PatternRewriter &rewriter) {
  RankedTensorType sourceType = op.getSourceType();
  if (!sourceType.hasStaticShape() || !op.getResultType().hasStaticShape() ||
      sourceType.getRank() == 0)
    return rewriter.notifyMatchFailure(op, "dynamic or rank-0 shape");
  StaticPad pad{op.getConstantPaddingValue(),
                SmallVector<int64_t>(op.getStaticLow()),
                SmallVector<int64_t>(op.getStaticHigh())};
  if (!pad.value)
    return rewriter.notifyMatchFailure(op, "padding value not constant");
  if (ShapedType::isDynamicShape(pad.low) ||
      ShapedType::isDynamicShape(pad.high))
    return rewriter.notifyMatchFailure(op, "dynamic padding");
  for (auto [lo, hi] : llvm::zip(pad.low, pad.high))
    if (lo < 0 || hi < 0)
      return rewriter.notifyMatchFailure(op, "negative padding");
  return pad;
}

/// The padding value to use at the rewriter's insertion point: `value`, or,
/// for a constant yielded from inside the pad's region, a copy of it.
Value padValueOutsideRegion(PatternRewriter &rewriter, tensor::PadOp op,
                            Value value) {
  if (Operation *def = value.getDefiningOp();
      def && op.getRegion().isAncestor(def->getParentRegion()))
    return rewriter.clone(*def)->getResult(0);
  return value;
}

struct DecomposeStaticPad : public OpRewritePattern<tensor::PadOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(tensor::PadOp op,
                                PatternRewriter &rewriter) const override {
    FailureOr<StaticPad> pad = matchStaticPad(op, rewriter);
    if (failed(pad))
      return failure();
    RankedTensorType sourceType = op.getSourceType();
    RankedTensorType resultType = op.getResultType();
    ArrayRef<int64_t> low = pad->low, high = pad->high;
    int64_t rank = sourceType.getRank();
    Value value = padValueOutsideRegion(rewriter, op, pad->value);
    Location loc = op.getLoc();
    ArrayRef<int64_t> source = sourceType.getShape();
    ArrayRef<int64_t> result = resultType.getShape();
    Value dest = tensor::EmptyOp::create(rewriter, loc, result,
                                         resultType.getElementType());
    SmallVector<OpFoldResult> ones(rank, rewriter.getIndexAttr(1));
    auto attrs = [&](ArrayRef<int64_t> values) {
      return getAsIndexOpFoldResult(rewriter.getContext(), values);
    };
    for (int64_t d = 0; d < rank; ++d) {
      for (bool isLow : {true, false}) {
        int64_t extent = isLow ? low[d] : high[d];
        if (extent == 0)
          continue;
        SmallVector<int64_t> offsets(rank, 0), sizes(result);
        for (int64_t e = 0; e < d; ++e) {
          offsets[e] = low[e];
          sizes[e] = source[e];
        }
        offsets[d] = isLow ? 0 : low[d] + source[d];
        sizes[d] = extent;
        if (llvm::is_contained(sizes, 0))
          continue;
        Value slab = tensor::ExtractSliceOp::create(
            rewriter, loc, dest, attrs(offsets), attrs(sizes), ones);
        Value filled =
            linalg::FillOp::create(rewriter, loc, value, slab).getResult(0);
        dest = tensor::InsertSliceOp::create(
            rewriter, loc, filled, dest, attrs(offsets), attrs(sizes), ones);
      }
    }
    rewriter.replaceOpWithNewOp<tensor::InsertSliceOp>(
        op, op.getSource(), dest, attrs(low), attrs(source), ones);
    return success();
  }
};

/// A tensor.pad whose every read the lowering cut to the source's interior
/// (conv.interior_reads, a filter gradient's window: grouped, or any with
/// dw-cut-long-rows): each of its extract_slice users, and each in-bounds
/// unmasked vector.transfer_read the tiling folded such a slice into, reads
/// the source instead, at its offsets minus the low padding, and the pad (a
/// copy of the whole input) goes away. Only when every user is one of those
/// and the low padding is static.
///
/// Without the mark, the same fold when the bounds of the users' positions
/// prove it (ValueBoundsConstraintSet): along every padded dimension, the
/// first position a user reads is at least the low padding and its last one
/// at most the low padding plus the source's extent minus one. A transposed
/// convolution's register tiles whose tap loops are clipped to the input
/// rows along every dimension (conv.phase_window with the rows along the
/// batch) read their padded window that way.
struct FoldInteriorReadPad : public OpRewritePattern<tensor::PadOp> {
  using OpRewritePattern::OpRewritePattern;

  /// At most this many users are proven (each proof walks the backward
  /// slice of the user's positions).
  static constexpr int64_t kMaxProvenUsers = 64;

  /// Whether positions [first, first + (count - 1) * stride] of dimension d
  /// of the pad are provably inside its source's rows.
  static bool provenInterior(OpFoldResult first, OpFoldResult count,
                             OpFoldResult stride, int64_t low,
                             int64_t extent) {
    using VB = ValueBoundsConstraintSet;
    MLIRContext *ctx = first.getContext();
    if (!VB::compare(VB::Variable(first), VB::ComparisonOperator::GE,
                     VB::Variable(OpFoldResult(
                         IntegerAttr::get(IndexType::get(ctx), low)))))
      return false;
    // The last position, first + (count - 1) * stride: affine only with a
    // constant stride (a product of two unknowns has no linear bound).
    std::optional<int64_t> constStride = getConstantIntValue(stride);
    if (!constStride)
      return false;
    AffineExpr f = getAffineSymbolExpr(0, ctx), c = getAffineSymbolExpr(1, ctx);
    VB::Variable last(
        AffineMap::get(0, 2, f + (c - 1) * *constStride),
        ArrayRef<VB::Variable>{VB::Variable(first), VB::Variable(count)});
    return VB::compare(last, VB::ComparisonOperator::LE,
                       VB::Variable(OpFoldResult(IntegerAttr::get(
                           IndexType::get(ctx), low + extent - 1))));
  }

  /// Whether every user of `op` provably reads its source's interior only
  /// (the users: slices, and in-bounds unmasked transfer reads).
  static bool provenInteriorUsers(tensor::PadOp op, ArrayRef<int64_t> low,
                                  ArrayRef<int64_t> high) {
    ArrayRef<int64_t> sourceShape = op.getSourceType().getShape();
    if (ShapedType::isDynamicShape(sourceShape) ||
        ShapedType::isDynamicShape(high))
      return false;
    MLIRContext *ctx = op.getContext();
    auto index = [&](int64_t v) -> OpFoldResult {
      return IntegerAttr::get(IndexType::get(ctx), v);
    };
    int64_t users = 0;
    for (Operation *user : op->getUsers()) {
      if (++users > kMaxProvenUsers)
        return false;
      if (auto slice = dyn_cast<tensor::ExtractSliceOp>(user)) {
        for (auto [d, offset, size, stride] : llvm::enumerate(
                 slice.getMixedOffsets(), slice.getMixedSizes(),
                 slice.getMixedStrides())) {
          if (low[d] == 0 && high[d] == 0)
            continue;
          if (!provenInterior(offset, size, stride, low[d], sourceShape[d]))
            return false;
        }
        continue;
      }
      auto read = dyn_cast<vector::TransferReadOp>(user);
      if (!read || read.getMask() || read.hasOutOfBoundsDim())
        return false;
      // The vector's extent along each dimension of the pad (1 where the
      // dimension is not transferred).
      SmallVector<int64_t> extents(sourceShape.size(), 1);
      for (auto [j, result] :
           llvm::enumerate(read.getPermutationMap().getResults()))
        if (auto dim = dyn_cast<AffineDimExpr>(result))
          extents[dim.getPosition()] = read.getVectorType().getDimSize(j);
      for (auto [d, position] : llvm::enumerate(read.getIndices())) {
        if (low[d] == 0 && high[d] == 0)
          continue;
        if (!provenInterior(position, index(extents[d]), index(1), low[d],
                            sourceShape[d]))
          return false;
      }
    }
    return true;
  }

  LogicalResult matchAndRewrite(tensor::PadOp op,
                                PatternRewriter &rewriter) const override {
    SmallVector<int64_t> low(op.getStaticLow());
    if (ShapedType::isDynamicShape(low))
      return rewriter.notifyMatchFailure(op, "dynamic low padding");
    if (!op->hasAttr(conv::kInteriorReadsAttrName) &&
        !provenInteriorUsers(op, low, op.getStaticHigh()))
      return rewriter.notifyMatchFailure(op, "reads may touch the padding");
    SmallVector<tensor::ExtractSliceOp> slices;
    SmallVector<vector::TransferReadOp> reads;
    ArrayRef<int64_t> sourceShape = op.getSourceType().getShape();
    for (Operation *user : op->getUsers()) {
      if (auto slice = dyn_cast<tensor::ExtractSliceOp>(user)) {
        // A view that is statically not inside the source (a whole-window
        // slice that later slices cut further) keeps the pad: the view of
        // the source would be out of bounds. (Dynamic offsets are the
        // lowering's cut tap slices and blocks, trusted by the mark.)
        for (auto [d, offset, size, stride] :
             llvm::enumerate(slice.getStaticOffsets(), slice.getStaticSizes(),
                             slice.getStaticStrides())) {
          if (ShapedType::isDynamic(offset))
            continue;
          int64_t first = offset - low[d];
          if (first < 0)
            return rewriter.notifyMatchFailure(op, "a slice reads padding");
          if (!ShapedType::isDynamic(size) && !ShapedType::isDynamic(stride) &&
              size > 0 && first + (size - 1) * stride >= sourceShape[d])
            return rewriter.notifyMatchFailure(op, "a slice reads padding");
        }
        slices.push_back(slice);
        continue;
      }
      // A vector read the tiling folded its slice into (in bounds, no
      // mask: it reads the interior like the slice did).
      auto read = dyn_cast<vector::TransferReadOp>(user);
      if (!read || read.getBase() != op.getResult() || read.getMask() ||
          read.hasOutOfBoundsDim())
        return rewriter.notifyMatchFailure(op, "a user is not a slice");
      reads.push_back(read);
    }
    // A position of the pad as one of the source (dimension d).
    auto toSource = [&](Location loc, int64_t d, OpFoldResult position) {
      if (low[d] == 0)
        return position;
      return affine::makeComposedFoldedAffineApply(
          rewriter, loc, rewriter.getAffineSymbolExpr(0) - low[d], {position});
    };
    for (vector::TransferReadOp read : reads) {
      rewriter.setInsertionPoint(read);
      SmallVector<Value> indices;
      for (auto [d, index] : llvm::enumerate(read.getIndices()))
        indices.push_back(getValueOrCreateConstantIndexOp(
            rewriter, read.getLoc(), toSource(read.getLoc(), d, index)));
      rewriter.modifyOpInPlace(read, [&] {
        read.getBaseMutable().assign(op.getSource());
        read.getIndicesMutable().assign(indices);
      });
    }
    for (tensor::ExtractSliceOp slice : slices) {
      rewriter.setInsertionPoint(slice);
      SmallVector<OpFoldResult> offsets;
      for (auto [d, offset] : llvm::enumerate(slice.getMixedOffsets()))
        offsets.push_back(toSource(slice.getLoc(), d, offset));
      rewriter.replaceOpWithNewOp<tensor::ExtractSliceOp>(
          slice, slice.getType(), op.getSource(), offsets,
          slice.getMixedSizes(), slice.getMixedStrides());
    }
    rewriter.eraseOp(op);
    return success();
  }
};

/// A static pad whose every user is a tensor.extract_slice inside loops
/// that take a block of the unpadded dimensions (e.g. one image of the
/// batch) at offsets computed from the loops' induction variables: each
/// block is padded on its own, at the top of the innermost of those loops,
/// and the slices read that block's padded copy. The copy of a block is
/// written just before the block is read (from the L2 rather than from
/// memory) by the thread that reads it, instead of the whole padded input
/// being written in a pass of its own before the loops.
///
/// Only where this copies no element more often than the whole pad did:
/// the static trip counts of the loops around the block's pad, times the
/// block's size, at most the source's size.
struct PadPerBlock : public OpRewritePattern<tensor::PadOp> {
  using OpRewritePattern::OpRewritePattern;

  /// The loop (scf.for or scf.forall) whose induction variable `v` is, or
  /// null.
  static Operation *loopOfInductionVar(Value v) {
    auto arg = dyn_cast<BlockArgument>(v);
    if (!arg || !isa<scf::ForOp, scf::ForallOp>(arg.getOwner()->getParentOp()))
      return nullptr;
    auto loop = cast<LoopLikeOpInterface>(arg.getOwner()->getParentOp());
    std::optional<SmallVector<Value>> ivs = loop.getLoopInductionVars();
    return ivs && llvm::is_contained(*ivs, v) ? loop.getOperation() : nullptr;
  }

  /// The static trip count of an scf.for or scf.forall (the product over its
  /// dimensions), if any.
  static std::optional<int64_t> tripCount(LoopLikeOpInterface loop) {
    std::optional<SmallVector<OpFoldResult>> lbs = loop.getLoopLowerBounds(),
                                             ubs = loop.getLoopUpperBounds(),
                                             steps = loop.getLoopSteps();
    if (!lbs || !ubs || !steps)
      return std::nullopt;
    int64_t count = 1;
    for (auto [lb, ub, step] : llvm::zip(*lbs, *ubs, *steps)) {
      std::optional<int64_t> l = getConstantIntValue(lb),
                             u = getConstantIntValue(ub),
                             st = getConstantIntValue(step);
      if (!l || !u || !st || *st <= 0)
        return std::nullopt;
      count *= *u > *l ? llvm::divideCeil(*u - *l, *st) : 0;
    }
    return count;
  }

  /// Collects, in `ops`, the operations inside `region` that compute `v`
  /// (pure, region-free), and in `loops` the loops whose induction
  /// variables they read. False when `v` depends on anything else inside
  /// `region` (an iter_arg, an op with regions or side effects).
  static bool collectOffsetChain(Value v, Region &region,
                                 SetVector<Operation *> &ops,
                                 SmallPtrSetImpl<Operation *> &loops) {
    if (!region.isAncestor(v.getParentRegion()))
      return true; // defined outside: available everywhere inside
    if (Operation *loop = loopOfInductionVar(v)) {
      // (A loop around the pad itself: its induction variable is as good
      // as defined outside.)
      if (region.isAncestor(loop->getParentRegion()))
        loops.insert(loop);
      return true;
    }
    Operation *def = v.getDefiningOp();
    if (!def || def->getNumRegions() != 0 || !isPure(def))
      return false;
    if (ops.contains(def))
      return true;
    for (Value operand : def->getOperands())
      if (!collectOffsetChain(operand, region, ops, loops))
        return false;
    ops.insert(def);
    return true;
  }

  LogicalResult matchAndRewrite(tensor::PadOp op,
                                PatternRewriter &rewriter) const override {
    FailureOr<StaticPad> pad = matchStaticPad(op, rewriter);
    if (failed(pad))
      return failure();
    ArrayRef<int64_t> low = pad->low, high = pad->high;
    RankedTensorType sourceType = op.getSourceType();
    int64_t rank = sourceType.getRank();
    SmallVector<int64_t> blockDims;
    for (int64_t d = 0; d < rank; ++d)
      if (low[d] == 0 && high[d] == 0)
        blockDims.push_back(d);
    if (blockDims.empty() || int64_t(blockDims.size()) == rank)
      return rewriter.notifyMatchFailure(op, "no unpadded or padded dims");
    if (op->use_empty())
      return failure();

    Region *padRegion = op->getParentRegion();
    ArrayRef<int64_t> source = sourceType.getShape();
    struct Plan {
      tensor::ExtractSliceOp slice;
      Operation *anchor; // the loop at whose body's top the block is padded
      SetVector<Operation *> chain; // computes the block offsets
      SmallVector<OpFoldResult> blockOffsets;
      int64_t copiedElements; // by this block's pad, over all iterations
    };
    SmallVector<Plan> plans;
    for (Operation *user : op->getUsers()) {
      auto slice = dyn_cast<tensor::ExtractSliceOp>(user);
      if (!slice || slice.getSource() != op.getResult())
        return rewriter.notifyMatchFailure(op, "a user is not a slice");
      Plan plan{slice, nullptr, {}, {}, 0};
      SmallPtrSet<Operation *, 4> loops;
      for (int64_t d : blockDims) {
        if (ShapedType::isDynamic(slice.getStaticSizes()[d]) ||
            !isConstantIntValue(slice.getMixedStrides()[d], 1))
          return rewriter.notifyMatchFailure(op, "a dynamic block");
        OpFoldResult offset = slice.getMixedOffsets()[d];
        if (auto v = dyn_cast<Value>(offset))
          if (!collectOffsetChain(v, *padRegion, plan.chain, loops))
            return rewriter.notifyMatchFailure(op, "an opaque block offset");
      }
      // The innermost of the loops (they all enclose the slice).
      for (Operation *loop : loops)
        if (!plan.anchor || plan.anchor->isAncestor(loop))
          plan.anchor = loop;
      if (!plan.anchor)
        return rewriter.notifyMatchFailure(op, "a loop-invariant block");
      // The chain is recomputed at the top of the anchor's body: no op of
      // it may sit inside a loop nested in the anchor and read that loop's
      // values (only the anchor's and outer loops' induction variables).
      for (Operation *loop : loops)
        if (loop != plan.anchor && !loop->isAncestor(plan.anchor))
          return rewriter.notifyMatchFailure(op, "loops not nested");
      // How often the block is padded: the trip counts of the loops
      // around it.
      int64_t copies = 1;
      for (Operation *loop = plan.anchor; loop; loop = loop->getParentOp()) {
        if (isa<scf::ForOp, scf::ForallOp>(loop)) {
          std::optional<int64_t> trips =
              tripCount(cast<LoopLikeOpInterface>(loop));
          if (!trips)
            return rewriter.notifyMatchFailure(op, "a dynamic trip count");
          copies *= *trips;
        }
        if (loop->getParentRegion() == padRegion)
          break;
      }
      plan.copiedElements = copies;
      for (int64_t d : blockDims)
        plan.copiedElements *= slice.getStaticSizes()[d];
      for (int64_t d : blockDims)
        plan.blockOffsets.push_back(slice.getMixedOffsets()[d]);
      plans.push_back(std::move(plan));
    }
    // No element copied more often than by the whole pad: the blocks
    // padded (one per anchor and block offsets), times the trip counts of
    // the loops around them, at most the source's elements.
    int64_t sourceElements = 1, copiedElements = 0;
    for (int64_t d : blockDims)
      sourceElements *= source[d];
    for (auto [i, plan] : llvm::enumerate(plans)) {
      bool repeated = llvm::any_of(
          llvm::ArrayRef(plans).take_front(i), [&](const Plan &other) {
            return other.anchor == plan.anchor &&
                   other.blockOffsets == plan.blockOffsets;
          });
      if (!repeated)
        copiedElements += plan.copiedElements;
    }
    if (copiedElements > sourceElements)
      return rewriter.notifyMatchFailure(op, "blocks would be re-padded");

    // One padded block per anchor and block offsets.
    DenseMap<Operation *,
             SmallVector<std::pair<SmallVector<OpFoldResult>, Value>>>
        padded;
    Location loc = op.getLoc();
    for (Plan &plan : plans) {
      tensor::ExtractSliceOp slice = plan.slice;
      ArrayRef<OpFoldResult> blockOffsets = plan.blockOffsets;
      Value blockPad;
      for (auto &[offsets, v] : padded[plan.anchor])
        if (ArrayRef<OpFoldResult>(offsets) == blockOffsets)
          blockPad = v;
      if (!blockPad) {
        Block &body = plan.anchor->getRegion(0).front();
        rewriter.setInsertionPointToStart(&body);
        IRMapping mapping;
        for (Operation *chainOp : plan.chain)
          rewriter.clone(*chainOp, mapping);
        SmallVector<OpFoldResult> offsets(rank, rewriter.getIndexAttr(0));
        SmallVector<OpFoldResult> sizes, ones(rank, rewriter.getIndexAttr(1));
        for (int64_t d = 0; d < rank; ++d)
          sizes.push_back(rewriter.getIndexAttr(source[d]));
        for (auto [i, d] : llvm::enumerate(blockDims)) {
          OpFoldResult offset = blockOffsets[i];
          if (auto v = dyn_cast<Value>(offset))
            offset = mapping.lookupOrDefault(v);
          offsets[d] = offset;
          sizes[d] = rewriter.getIndexAttr(slice.getStaticSizes()[d]);
        }
        Value block = tensor::ExtractSliceOp::create(
            rewriter, loc, op.getSource(), offsets, sizes, ones);
        SmallVector<int64_t> paddedShape(op.getResultType().getShape());
        for (int64_t d : blockDims)
          paddedShape[d] = slice.getStaticSizes()[d];
        auto paddedType =
            RankedTensorType::get(paddedShape, sourceType.getElementType());
        Value padValue = padValueOutsideRegion(rewriter, op, pad->value);
        blockPad =
            tensor::PadOp::create(
                rewriter, loc, paddedType, block,
                getAsIndexOpFoldResult(rewriter.getContext(), low),
                getAsIndexOpFoldResult(rewriter.getContext(), high), padValue)
                .getResult();
        padded[plan.anchor].push_back(
            {SmallVector<OpFoldResult>(blockOffsets), blockPad});
      }
      rewriter.setInsertionPoint(slice);
      SmallVector<OpFoldResult> offsets(slice.getMixedOffsets());
      for (int64_t d : blockDims)
        offsets[d] = rewriter.getIndexAttr(0);
      rewriter.replaceOpWithNewOp<tensor::ExtractSliceOp>(
          slice, slice.getType(), blockPad, offsets, slice.getMixedSizes(),
          slice.getMixedStrides());
    }
    rewriter.eraseOp(op);
    return success();
  }
};

struct DecomposePads
    : public conv::impl::ConvCPUDecomposePadsPassBase<DecomposePads> {
  using Base::Base;
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    conv::populateDecomposePadsPatterns(patterns);
    // No constant hoisting: the pass rewrites pads only (and its lit test
    // sees the pattern meet a constant inside a pad's region).
    GreedyRewriteConfig config;
    config.enableConstantCSE(false);
    if (failed(
            applyPatternsGreedily(getOperation(), std::move(patterns), config)))
      signalPassFailure();
  }
};

} // namespace

void mlir::conv::populateDecomposePadsPatterns(RewritePatternSet &patterns) {
  // The fold first: a pad it removes is not worth decomposing.
  patterns.add<FoldInteriorReadPad>(patterns.getContext(), /*benefit=*/3);
  patterns.add<PadPerBlock>(patterns.getContext(), /*benefit=*/2);
  patterns.add<DecomposeStaticPad>(patterns.getContext());
}
