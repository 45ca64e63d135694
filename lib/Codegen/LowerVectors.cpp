//===- LowerVectors.cpp - conv-cpu-lower-vectors ---------------------------===//
//
// The vector lowering of the verified CPU recipe (research/performance.md §7),
// as separate greedy pattern groups: combining them into one set makes the
// rewrites ping-pong.
//
//===----------------------------------------------------------------------===//

#include "conv/Codegen/Passes.h"
#include "conv/Conversion/ConvToLinalg/ConvToLinalg.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/Dialect/X86Vector/X86VectorDialect.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/MapVector.h"

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

/// acc + transpose(broadcast(a : vector<M>) : vector<NxM>, [1, 0]) *
///       broadcast(b : vector<N>) : vector<MxN>
/// -> vector.outerproduct a, b, acc. The vectorizer writes the rank-1 update
/// of a register tile like this when the tile's reduction loop has already
/// been tiled to single steps (a transposed convolution's input channels, a
/// filter gradient's edge columns): there is no vector.contract to lower.
/// As an outer product it becomes one FMA per row, like the contractions.
/// Lowered elementwise instead, the broadcast rows of both operands were
/// inserted into whole 2-D vectors, which canonicalize to
/// vector.from_elements of every lane (256 scalar insertelements for a
/// 4x64 tile): about a third of the LLVM IR of the kernels that had them,
/// and a quarter of their compile time.
struct BroadcastProductToOuterProduct : public OpRewritePattern<arith::AddFOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(arith::AddFOp op,
                                PatternRewriter &rewriter) const override {
    // f32 / f64 only: 16-bit tiles are widened to f32 before they multiply
    // (a 16-bit FMA would go through LLVM's soft promotion).
    auto type = dyn_cast<VectorType>(op.getType());
    if (!type || type.getRank() != 2 || type.isScalable() ||
        !(type.getElementType().isF32() || type.getElementType().isF64()))
      return failure();
    for (int accIndex : {0, 1}) {
      Value acc = op->getOperand(accIndex);
      auto mul = op->getOperand(1 - accIndex).getDefiningOp<arith::MulFOp>();
      if (!mul || !mul->hasOneUse())
        continue;
      for (int lhsIndex : {0, 1}) {
        Value lhs = rankOneColumn(mul->getOperand(lhsIndex), type);
        Value rhs = rankOneRow(mul->getOperand(1 - lhsIndex), type);
        if (!lhs || !rhs)
          continue;
        rewriter.replaceOpWithNewOp<vector::OuterProductOp>(
            op, type, lhs, rhs, acc, vector::CombiningKind::ADD);
        return success();
      }
    }
    return failure();
  }

  /// a when `v` is transpose(broadcast(a : vector<M>), [1, 0]) : vector<MxN>.
  static Value rankOneColumn(Value v, VectorType type) {
    auto transpose = v.getDefiningOp<vector::TransposeOp>();
    if (!transpose || transpose.getPermutation() != ArrayRef<int64_t>{1, 0})
      return {};
    auto broadcast = transpose.getVector().getDefiningOp<vector::BroadcastOp>();
    if (!broadcast)
      return {};
    auto source = dyn_cast<VectorType>(broadcast.getSourceType());
    if (!source || source.getShape() != ArrayRef<int64_t>{type.getDimSize(0)})
      return {};
    return broadcast.getSource();
  }

  /// b when `v` is broadcast(b : vector<N>) : vector<MxN>.
  static Value rankOneRow(Value v, VectorType type) {
    auto broadcast = v.getDefiningOp<vector::BroadcastOp>();
    if (!broadcast)
      return {};
    auto source = dyn_cast<VectorType>(broadcast.getSourceType());
    if (!source || source.getShape() != ArrayRef<int64_t>{type.getDimSize(1)})
      return {};
    return broadcast.getSource();
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
    // A software prefetch (it declares no effects) writes nothing, but only
    // a register tile's rows of broadcast values (a rank-2 read: positions x
    // rows) move across one: ResNet's 1x1 256 -> 64 filter gradient, whose
    // 6-value rows the row prefetches of a streamed block had kept as
    // vector reads (a 4 + 2 load, shuffles on the FMA ports and a spilled
    // permutation index), +7-9 % with 1 thread, +5-8 % with 2 (conv-run,
    // alternating kernels, 12-15 pairs, model-167 Xeon); the 4-position
    // windows of one input channel that tiny-Cin layers read (rank 1,
    // each value broadcast for up to 3 taps) measured 10 % slower as
    // scalar loads (48x480x1 -> 16), and keep their vector loads.
    auto mayWrite = [&](Operation &o) {
      if (isMemoryEffectFree(&o) || (isa<memref::PrefetchOp>(o) && rank >= 2))
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

/// Native vector elements of `type` for vectors of `bits` (0 if none).
int64_t nativeLanes(Type type, unsigned bits) {
  auto vectorType = dyn_cast<VectorType>(type);
  if (!vectorType || vectorType.getRank() < 1 || vectorType.isScalable() ||
      !vectorType.getElementType().isIntOrFloat())
    return 0;
  return bits / vectorType.getElementType().getIntOrFloatBitWidth();
}

/// Whether a register tile `vector<... x C>` is split into native-width
/// column pieces: C is a multiple of the native width whose number of
/// native vectors is not a power of two (LLVM widens those types to the
/// next power of two and builds their broadcasts lane by lane).
bool splitsColumns(Type type, unsigned bits) {
  int64_t lanes = nativeLanes(type, bits);
  if (lanes < 1)
    return false;
  int64_t cols = cast<VectorType>(type).getShape().back();
  return cols > lanes && cols % lanes == 0 &&
         !llvm::isPowerOf2_64(static_cast<uint64_t>(cols / lanes));
}

/// Column pieces of `value` (offsets along the last dimension).
SmallVector<Value> extractColumnPieces(OpBuilder &b, Location loc, Value value,
                                       int64_t lanes) {
  auto type = cast<VectorType>(value.getType());
  int64_t rank = type.getRank();
  SmallVector<int64_t> sizes(type.getShape()), strides(rank, 1);
  sizes.back() = lanes;
  SmallVector<Value> pieces;
  for (int64_t c = 0; c < type.getShape().back(); c += lanes) {
    SmallVector<int64_t> offsets(rank, 0);
    offsets.back() = c;
    pieces.push_back(vector::ExtractStridedSliceOp::create(
        b, loc, value, offsets, sizes, strides));
  }
  return pieces;
}

/// The value of `type` made of its column pieces.
Value assembleColumnPieces(OpBuilder &b, Location loc, VectorType type,
                           ValueRange pieces) {
  int64_t rank = type.getRank();
  SmallVector<int64_t> strides(rank, 1);
  Value result = ub::PoisonOp::create(b, loc, type);
  int64_t lanes = type.getShape().back() / static_cast<int64_t>(pieces.size());
  for (auto [i, piece] : llvm::enumerate(pieces)) {
    SmallVector<int64_t> offsets(rank, 0);
    offsets.back() = static_cast<int64_t>(i) * lanes;
    result = vector::InsertStridedSliceOp::create(b, loc, piece, result,
                                                  offsets, strides);
  }
  return result;
}

/// Replaces `loop` by an scf.for that carries each of its values as the
/// values `split` makes of it (one or more, created at the current insertion
/// point); the body and the users see the original values, which `join`
/// rebuilds from those (`join(type, pieces)`; a single piece of the original
/// type is the value itself).
void recarryLoop(PatternRewriter &rewriter, scf::ForOp loop,
                 llvm::function_ref<SmallVector<Value>(Value)> split,
                 llvm::function_ref<Value(Type, ValueRange)> join) {
  Location loc = loop.getLoc();
  SmallVector<Value> inits;
  SmallVector<int64_t> counts;
  for (Value init : loop.getInitArgs()) {
    SmallVector<Value> pieces = split(init);
    counts.push_back(static_cast<int64_t>(pieces.size()));
    llvm::append_range(inits, pieces);
  }
  auto newLoop =
      scf::ForOp::create(rewriter, loc, loop.getLowerBound(),
                         loop.getUpperBound(), loop.getStep(), inits);
  newLoop->setAttrs(loop->getAttrs());
  Block *body = newLoop.getBody();
  // (The builder adds a terminator only to loops without results.)
  if (!body->empty())
    rewriter.eraseOp(body->getTerminator());
  // The original values (of the types of `originals`) from the flat list
  // of pieces.
  auto assemble = [&](ValueRange originals, ValueRange flat) {
    SmallVector<Value> values;
    int64_t next = 0;
    for (auto [original, count] : llvm::zip(originals, counts)) {
      ValueRange pieces = flat.slice(next, count);
      next += count;
      values.push_back(count == 1 && pieces.front().getType() ==
                                         original.getType()
                           ? pieces.front()
                           : join(original.getType(), pieces));
    }
    return values;
  };
  rewriter.setInsertionPointToStart(body);
  SmallVector<Value> argValues{newLoop.getInductionVar()};
  llvm::append_range(argValues, assemble(loop.getInitArgs(),
                                         newLoop.getRegionIterArgs()));
  rewriter.mergeBlocks(loop.getBody(), body, argValues);
  auto yield = cast<scf::YieldOp>(body->getTerminator());
  rewriter.setInsertionPoint(yield);
  SmallVector<Value> yielded;
  for (Value value : yield.getOperands())
    llvm::append_range(yielded, split(value));
  rewriter.replaceOpWithNewOp<scf::YieldOp>(yield, yielded);
  rewriter.setInsertionPointAfter(newLoop);
  rewriter.replaceOp(loop, assemble(loop.getResults(), newLoop.getResults()));
}

/// An scf.for carrying a register tile whose columns are split (see
/// splitsColumns) carries its column pieces instead; the body and the
/// users see the reassembled tile, which folds away once the contraction
/// and the reads are unrolled into the same pieces.
struct SplitLoopCarriedColumns : public OpRewritePattern<scf::ForOp> {
  SplitLoopCarriedColumns(MLIRContext *ctx, unsigned bits)
      : OpRewritePattern(ctx), bits(bits) {}
  LogicalResult matchAndRewrite(scf::ForOp loop,
                                PatternRewriter &rewriter) const override {
    if (llvm::none_of(loop.getInitArgs(), [&](Value v) {
          return splitsColumns(v.getType(), bits);
        }))
      return failure();
    Location loc = loop.getLoc();
    recarryLoop(
        rewriter, loop,
        [&](Value value) -> SmallVector<Value> {
          if (!splitsColumns(value.getType(), bits))
            return {value};
          return extractColumnPieces(rewriter, loc, value,
                                     nativeLanes(value.getType(), bits));
        },
        [&](Type type, ValueRange pieces) {
          return assembleColumnPieces(rewriter, loc, cast<VectorType>(type),
                                      pieces);
        });
    return success();
  }
  unsigned bits;
};

/// Whether `type` is a grouped register tile `vector<R x G x C>` whose
/// groups' columns C are narrower than a native vector of `bits` but fill
/// whole ones together (see GroupedContractionToShuffles).
bool isGroupedTile(Type type, unsigned bits) {
  int64_t lanes = nativeLanes(type, bits);
  auto vectorType = dyn_cast<VectorType>(type);
  if (lanes < 1 || vectorType.getRank() != 3)
    return false;
  int64_t groups = vectorType.getShape()[1], cols = vectorType.getShape()[2];
  return cols < lanes && groups * cols % lanes == 0;
}

/// Whether `type` is one row `vector<G x C>` of a grouped register tile
/// (see isGroupedTile): a one-step tile's operand row.
bool isGroupedRow(Type type, unsigned bits) {
  auto vectorType = dyn_cast<VectorType>(type);
  if (!vectorType || vectorType.getRank() != 2 || vectorType.isScalable())
    return false;
  // As a tile of one row.
  return isGroupedTile(
      VectorType::get({1, vectorType.getShape()[0], vectorType.getShape()[1]},
                      vectorType.getElementType()),
      bits);
}

/// A grouped tile `vector<A x B x C>` as rows: `vector<A x (B*C)>`; a
/// grouped row `vector<B x C>` as `vector<B*C>`.
VectorType groupedTileRows(VectorType type) {
  if (type.getRank() == 2)
    return VectorType::get({type.getShape()[0] * type.getShape()[1]},
                           type.getElementType());
  return VectorType::get(
      {type.getShape()[0], type.getShape()[1] * type.getShape()[2]},
      type.getElementType());
}

/// An scf.for carrying a grouped register tile `vector<R x G x C>` carries
/// it as `vector<R x (G*C)>`. LLVM would carry R * G vectors of C lanes
/// (xmm registers for C = 4 f32) and spill most of them; the rows of
/// G * C lanes are what the FMAs update (the shape casts in the body fold
/// against GroupedContractionToShuffles').
struct FlattenLoopCarriedGroupedTiles : public OpRewritePattern<scf::ForOp> {
  FlattenLoopCarriedGroupedTiles(MLIRContext *ctx, unsigned bits)
      : OpRewritePattern(ctx), bits(bits) {}
  LogicalResult matchAndRewrite(scf::ForOp loop,
                                PatternRewriter &rewriter) const override {
    if (llvm::none_of(loop.getInitArgs(), [&](Value v) {
          return isGroupedTile(v.getType(), bits);
        }))
      return failure();
    Location loc = loop.getLoc();
    recarryLoop(
        rewriter, loop,
        [&](Value value) -> SmallVector<Value> {
          if (!isGroupedTile(value.getType(), bits))
            return {value};
          auto type = cast<VectorType>(value.getType());
          return {vector::ShapeCastOp::create(rewriter, loc,
                                              groupedTileRows(type), value)};
        },
        [&](Type type, ValueRange pieces) -> Value {
          return vector::ShapeCastOp::create(rewriter, loc, type,
                                             pieces.front());
        });
    return success();
  }
  unsigned bits;
};

/// The reassociation of a rank-`rank` memref that collapses its last two
/// dimensions into one.
SmallVector<ReassociationIndices> lastTwoDimsCollapsed(int64_t rank) {
  SmallVector<ReassociationIndices> groups;
  for (int64_t d = 0; d + 2 < rank; ++d)
    groups.push_back({d});
  groups.push_back({rank - 2, rank - 1});
  return groups;
}

/// A grouped-tile transfer's memref with its last two dimensions collapsed
/// into one, and the transfer's indices on it.
struct CollapsedTransfer {
  Value memref;
  SmallVector<Value> indices;
};

/// For a read or write of a grouped register tile `vector<A x B x C>` (see
/// isGroupedTile), unmasked and in bounds, whose minor-identity map covers
/// the last dimension of a memref whole (size C, index 0) and B rows of the
/// one before it (any index), and those dimensions are contiguous: that memref
/// with them collapsed (a `memref.collapse_shape`, created only on success) and
/// the indices.
std::optional<CollapsedTransfer>
collapseGroupedTransfer(PatternRewriter &rewriter,
                        VectorTransferOpInterface op, unsigned bits) {
  VectorType type = op.getVectorType();
  auto memrefType = dyn_cast<MemRefType>(op.getBase().getType());
  if (!(isGroupedTile(type, bits) || isGroupedRow(type, bits)) ||
      op.getMask() || !memrefType ||
      llvm::any_of(op.getInBoundsValues(), [](bool b) { return !b; }) ||
      memrefType.getRank() < 2 || !op.getPermutationMap().isMinorIdentity())
    return std::nullopt;
  int64_t rank = memrefType.getRank();
  ArrayRef<int64_t> shape = memrefType.getShape();
  ValueRange indices = op.getIndices();
  int64_t vrank = type.getRank();
  int64_t cols = type.getShape()[vrank - 1];
  if (ShapedType::isDynamic(shape[rank - 2]) ||
      shape[rank - 2] < type.getShape()[vrank - 2] || shape[rank - 1] != cols ||
      !isZeroInteger(indices[rank - 1]))
    return std::nullopt;
  SmallVector<ReassociationIndices> groups = lastTwoDimsCollapsed(rank);
  if (!memref::CollapseShapeOp::isGuaranteedCollapsible(memrefType, groups))
    return std::nullopt;
  // A tile of some of the groups (AVX2 lane groups: 4 of ResNeXt's 16)
  // starts at row `g * C` of the collapsed dimension; in bounds because
  // the transfer is.
  SmallVector<Value> collapsedIndices(indices.drop_back());
  Value &row = collapsedIndices.back();
  if (!isZeroInteger(row)) {
    Location loc = op.getLoc();
    row = arith::MulIOp::create(
        rewriter, loc, row,
        arith::ConstantIndexOp::create(rewriter, loc, cols));
  }
  return CollapsedTransfer{memref::CollapseShapeOp::create(
                               rewriter, op.getLoc(), op.getBase(), groups),
                           std::move(collapsedIndices)};
}

/// A read or write of a grouped register tile `vector<A x B x C>` that
/// covers the last two dimensions of a contiguous memref moves rows of
/// B * C elements (`vector<A x (B*C)>` on the memref with those dimensions
/// collapsed) instead of A * B vectors of C lanes.
struct CollapseGroupedTileRead
    : public OpRewritePattern<vector::TransferReadOp> {
  CollapseGroupedTileRead(MLIRContext *ctx, unsigned bits)
      : OpRewritePattern(ctx), bits(bits) {}
  LogicalResult matchAndRewrite(vector::TransferReadOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<CollapsedTransfer> collapsed =
        collapseGroupedTransfer(rewriter, op, bits);
    if (!collapsed)
      return failure();
    VectorType rows = groupedTileRows(op.getVectorType());
    Value read = vector::TransferReadOp::create(
        rewriter, op.getLoc(), rows, collapsed->memref, collapsed->indices,
        op.getPadding(), SmallVector<bool>(rows.getRank(), true));
    rewriter.replaceOpWithNewOp<vector::ShapeCastOp>(op, op.getVectorType(),
                                                     read);
    return success();
  }
  unsigned bits;
};

struct CollapseGroupedTileWrite
    : public OpRewritePattern<vector::TransferWriteOp> {
  CollapseGroupedTileWrite(MLIRContext *ctx, unsigned bits)
      : OpRewritePattern(ctx), bits(bits) {}
  LogicalResult matchAndRewrite(vector::TransferWriteOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<CollapsedTransfer> collapsed =
        collapseGroupedTransfer(rewriter, op, bits);
    if (!collapsed)
      return failure();
    Value rows = vector::ShapeCastOp::create(
        rewriter, op.getLoc(), groupedTileRows(op.getVectorType()),
        op.getVector());
    rewriter.replaceOpWithNewOp<vector::TransferWriteOp>(
        op, rows, collapsed->memref, collapsed->indices,
        SmallVector<bool>(cast<VectorType>(rows.getType()).getRank(), true));
    return success();
  }
  unsigned bits;
};

/// Native shapes for the column split: contractions and reads of split
/// tiles are unrolled into native-width column pieces.
std::optional<SmallVector<int64_t>> columnPieceShape(Operation *op,
                                                     unsigned bits) {
  if (auto contract = dyn_cast<vector::ContractionOp>(op)) {
    if (!splitsColumns(contract.getAccType(), bits))
      return std::nullopt;
    AffineMap accMap = contract.getIndexingMapsArray()[2];
    auto column = dyn_cast<AffineDimExpr>(accMap.getResults().back());
    std::optional<SmallVector<int64_t>> shape = contract.getShapeForUnroll();
    if (!column || !shape)
      return std::nullopt;
    (*shape)[column.getPosition()] = nativeLanes(contract.getAccType(), bits);
    return shape;
  }
  // Reads, broadcasts, transposes and elementwise ops (the outer products
  // of a one-step reduction chunk) by their result.
  if (!isa<vector::TransferReadOp, vector::BroadcastOp, vector::TransposeOp>(
          op) &&
      !OpTrait::hasElementwiseMappableTraits(op))
    return std::nullopt;
  if (op->getNumResults() != 1 || !splitsColumns(op->getResult(0).getType(), bits))
    return std::nullopt;
  auto type = cast<VectorType>(op->getResult(0).getType());
  SmallVector<int64_t> shape(type.getShape());
  shape.back() = nativeLanes(type, bits);
  return shape;
}

/// A transpose of a 16-bit float vector becomes the same transpose of its
/// bits (`vector.bitcast` to i16 and back). LLVM 22's x86 code generator
/// miscompiles some bf16 lane shuffles (with AVX-512: a bf16 channels-first
/// relayout of 9 x 14 tiles, the 14 x 9 result read back as values around
/// 1e37); i16 shuffles are plain integer moves. Only the lanes move, so the
/// result is the same.
struct TransposeBitsOf16BitFloats
    : public OpRewritePattern<vector::TransposeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(vector::TransposeOp op,
                                PatternRewriter &rewriter) const override {
    VectorType type = op.getSourceVectorType();
    Type element = type.getElementType();
    if (!isa<BFloat16Type, Float16Type>(element))
      return failure();
    Type i16 = rewriter.getI16Type();
    Location loc = op.getLoc();
    Value bits = vector::BitCastOp::create(rewriter, loc, type.clone(i16),
                                           op.getVector());
    Value moved = vector::TransposeOp::create(rewriter, loc, bits,
                                              op.getPermutation());
    rewriter.replaceOpWithNewOp<vector::BitCastOp>(op, op.getResultVectorType(),
                                                   moved);
    return success();
  }
};

/// Whether `op` reads `vector<N x 2 x T>` (unmasked, in bounds, minor
/// identity) from a memref whose last dimension is that pair (size 2, read
/// from index 0): the pair operands of a bf16 filter gradient
/// (docs/Lowering.md §2.6).
static bool isPairRead(vector::TransferReadOp op) {
  VectorType type = op.getVectorType();
  auto memrefType = dyn_cast<MemRefType>(op.getBase().getType());
  if (type.getRank() != 2 || type.getDimSize(1) != 2 || type.isScalable() ||
      op.getMask() || !memrefType || memrefType.getRank() < 2 ||
      llvm::any_of(op.getInBoundsValues(), [](bool b) { return !b; }) ||
      !op.getPermutationMap().isMinorIdentity())
    return false;
  int64_t rank = memrefType.getRank();
  return memrefType.getDimSize(rank - 1) == 2 &&
         isZeroInteger(op.getIndices()[rank - 1]);
}

/// A pair read (isPairRead) whose every use is a shape cast (the column
/// operand of BF16PairContractionToDot, whose pairs are shuffled as one
/// vector), when the pair dimension is contiguous with the one before: one
/// `vector<2N x T>` read of the memref with those dimensions collapsed,
/// shape-cast back. Read as a 2-D vector it was lowered to N reads of 2
/// elements and reassembled. (PairRowExtractsToLoads handles the broadcast
/// rows.)
struct FlattenPairRead : public OpRewritePattern<vector::TransferReadOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(vector::TransferReadOp op,
                                PatternRewriter &rewriter) const override {
    if (!isPairRead(op) || op->use_empty() ||
        !llvm::all_of(op->getUsers(), [](Operation *user) {
          return isa<vector::ShapeCastOp>(user);
        }))
      return failure();
    VectorType type = op.getVectorType();
    auto memrefType = cast<MemRefType>(op.getBase().getType());
    int64_t rank = memrefType.getRank();
    ValueRange indices = op.getIndices();
    SmallVector<ReassociationIndices> groups = lastTwoDimsCollapsed(rank);
    if (!memref::CollapseShapeOp::isGuaranteedCollapsible(memrefType, groups))
      return failure();
    Location loc = op.getLoc();
    Value collapsed =
        memref::CollapseShapeOp::create(rewriter, loc, op.getBase(), groups);
    SmallVector<Value> flatIndices(indices.drop_back());
    flatIndices.back() = arith::MulIOp::create(
        rewriter, loc, flatIndices.back(),
        arith::ConstantIndexOp::create(rewriter, loc, 2));
    Value read = vector::TransferReadOp::create(
        rewriter, loc,
        VectorType::get({2 * type.getDimSize(0)}, type.getElementType()),
        collapsed, flatIndices, op.getPadding(), ArrayRef<bool>{true});
    rewriter.replaceOpWithNewOp<vector::ShapeCastOp>(op, type, read);
    return success();
  }
};

/// A pair read (isPairRead) whose every use extracts one row, a pair (the
/// broadcast rows of BF16PairContractionToDot): one 2-element load per row,
/// which LLVM emits as a 32-bit broadcast from memory (`vbroadcastss`).
/// Extracted from the 2-D vector, each pair was assembled from 16-bit lanes
/// (two `vpextrw`, two `vmovw` and a `vpunpcklwd` per row and step) before
/// its broadcast.
struct PairRowExtractsToLoads
    : public OpRewritePattern<vector::TransferReadOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(vector::TransferReadOp op,
                                PatternRewriter &rewriter) const override {
    if (!isPairRead(op) || op->use_empty())
      return failure();
    SmallVector<vector::ExtractOp> rows;
    for (Operation *user : op->getUsers()) {
      auto extract = dyn_cast<vector::ExtractOp>(user);
      if (!extract || extract.getNumIndices() != 1 ||
          !extract.getDynamicPosition().empty())
        return failure();
      rows.push_back(extract);
    }
    int64_t rank = cast<MemRefType>(op.getBase().getType()).getRank();
    VectorType pairType =
        VectorType::get({2}, op.getVectorType().getElementType());
    for (vector::ExtractOp extract : rows) {
      rewriter.setInsertionPoint(extract);
      SmallVector<Value> indices(op.getIndices());
      int64_t row = extract.getStaticPosition()[0];
      if (row != 0)
        indices[rank - 2] = arith::AddIOp::create(
            rewriter, extract.getLoc(), indices[rank - 2],
            arith::ConstantIndexOp::create(rewriter, extract.getLoc(), row));
      rewriter.replaceOpWithNewOp<vector::LoadOp>(extract, pairType,
                                                  op.getBase(), indices);
    }
    rewriter.eraseOp(op);
    return success();
  }
};

/// A contraction of bf16 operands (widened to f32) into f32 accumulators
/// over a reduction of 2, `acc[m, n] += sum_k A[m, k] * B[k, n]` with the
/// columns n a multiple of 16, as `x86vector.avx512.dot` (`vdpbf16ps`,
/// AVX512-BF16): for each row m the pair A[m, 0..1] is broadcast as one
/// 32-bit value to the 16 lanes, and each 16-column piece of B's two rows
/// is interleaved into pairs (B[0, n], B[1, n]) (a shuffle of the bits, as
/// i16: LLVM 22 miscompiles some bf16 shuffles). Per lane, vdpbf16ps adds
/// A[m, 1] * B[1, n] and then A[m, 0] * B[0, n], each rounded like an FMA
/// (denormal inputs and results flushed to zero).
struct BF16PairContractionToDot
    : public OpRewritePattern<vector::ContractionOp> {
  using OpRewritePattern::OpRewritePattern;
  static constexpr int64_t kLanes = 16;

  /// The bf16 vector `value` is widened from, if any.
  static Value bf16Source(Value value) {
    auto ext = value.getDefiningOp<arith::ExtFOp>();
    if (!ext)
      return {};
    auto type = dyn_cast<VectorType>(ext.getIn().getType());
    return type && type.getElementType().isBF16() ? ext.getIn() : Value();
  }

  LogicalResult matchAndRewrite(vector::ContractionOp op,
                                PatternRewriter &rewriter) const override {
    // (A masked contraction is a vector.mask region around it.)
    if (op.getKind() != vector::CombiningKind::ADD ||
        isa<vector::MaskOp>(op->getParentOp()))
      return failure();
    auto accType = dyn_cast<VectorType>(op.getAccType());
    if (!accType || !accType.getElementType().isF32() ||
        accType.getRank() < 1 || accType.getRank() > 2)
      return failure();
    SmallVector<AffineMap> maps = op.getIndexingMapsArray();
    SmallVector<int64_t> bounds;
    op.getIterationBounds(bounds);
    SmallVector<vector::IteratorType> iterators = op.getIteratorTypesArray();
    // One reduction dimension of 2; the accumulator indexed (m, n) or (n).
    int64_t k = -1;
    for (auto [d, it] : llvm::enumerate(iterators))
      if (it == vector::IteratorType::reduction) {
        if (k >= 0)
          return failure();
        k = static_cast<int64_t>(d);
      }
    if (k < 0 || bounds[k] != 2 || !maps[2].isProjectedPermutation() ||
        maps[2].getNumResults() != accType.getRank())
      return failure();
    int64_t n = maps[2].getDimPosition(accType.getRank() - 1);
    int64_t m = accType.getRank() == 2 ? maps[2].getDimPosition(0) : -1;
    if (bounds[n] % kLanes != 0 ||
        static_cast<int64_t>(bounds.size()) != accType.getRank() + 1)
      return failure();
    // The broadcast operand is indexed by (m, k), the other by (k, n).
    auto dims = [](AffineMap map) {
      SmallVector<int64_t> d;
      for (unsigned i = 0; i < map.getNumResults(); ++i)
        d.push_back(map.getDimPosition(i));
      return d;
    };
    if (!maps[0].isProjectedPermutation() || !maps[1].isProjectedPermutation())
      return failure();
    SmallVector<int64_t> lhsDims = dims(maps[0]), rhsDims = dims(maps[1]);
    Value lhs = bf16Source(op.getLhs()), rhs = bf16Source(op.getRhs());
    if (!lhs || !rhs)
      return failure();
    if (llvm::is_contained(lhsDims, n))
      std::swap(lhs, rhs), std::swap(lhsDims, rhsDims);
    SmallVector<int64_t> aWant = m >= 0 ? SmallVector<int64_t>{m, k}
                                        : SmallVector<int64_t>{k};
    SmallVector<int64_t> aWantT = m >= 0 ? SmallVector<int64_t>{k, m}
                                         : SmallVector<int64_t>{k};
    SmallVector<int64_t> bWant = {k, n}, bWantT = {n, k};
    if ((lhsDims != aWant && lhsDims != aWantT) ||
        (rhsDims != bWant && rhsDims != bWantT))
      return failure();

    Location loc = op.getLoc();
    Type bf16 = rewriter.getBF16Type(), i16 = rewriter.getI16Type(),
         i32 = rewriter.getI32Type();
    if (m >= 0 && lhsDims != aWant)
      lhs = vector::TransposeOp::create(rewriter, loc, lhs,
                                        ArrayRef<int64_t>{1, 0});
    int64_t rows = m >= 0 ? bounds[m] : 1, cols = bounds[n];
    int64_t pieces = cols / kLanes;
    auto pairType = VectorType::get({2 * kLanes}, bf16);

    // (B[0, n], B[1, n]) pairs, one vector per 16 columns.
    SmallVector<Value> bPairs;
    if (rhsDims == bWantT) {
      // B indexed (n, k): each column's pair is already contiguous (the
      // pair operands of a bf16 filter gradient, docs/Lowering.md §2.6),
      // so the pieces are plain slices of its rows, no shuffle.
      Value flat = vector::ShapeCastOp::create(
          rewriter, loc, VectorType::get({2 * cols}, bf16), rhs);
      for (int64_t p = 0; p < pieces; ++p)
        bPairs.push_back(
            pieces == 1
                ? flat
                : Value(vector::ExtractStridedSliceOp::create(
                      rewriter, loc, flat, ArrayRef<int64_t>{2 * p * kLanes},
                      ArrayRef<int64_t>{2 * kLanes}, ArrayRef<int64_t>{1})));
    } else {
      auto colBits = VectorType::get({cols}, i16);
      Value b0 = vector::BitCastOp::create(
          rewriter, loc, colBits,
          vector::ExtractOp::create(rewriter, loc, rhs, int64_t(0)));
      Value b1 = vector::BitCastOp::create(
          rewriter, loc, colBits,
          vector::ExtractOp::create(rewriter, loc, rhs, int64_t(1)));
      for (int64_t p = 0; p < pieces; ++p) {
        SmallVector<int64_t> mask;
        for (int64_t j = 0; j < kLanes; ++j)
          mask.append({p * kLanes + j, cols + p * kLanes + j});
        Value bits = vector::ShuffleOp::create(rewriter, loc, b0, b1, mask);
        bPairs.push_back(
            vector::BitCastOp::create(rewriter, loc, pairType, bits));
      }
    }

    Value result = op.getAcc();
    for (int64_t r = 0; r < rows; ++r) {
      Value pair = m >= 0 ? Value(vector::ExtractOp::create(rewriter, loc,
                                                            lhs, r))
                          : lhs;
      Value word = vector::BitCastOp::create(
          rewriter, loc, VectorType::get({1}, i32), pair);
      Value splat = vector::BroadcastOp::create(
          rewriter, loc, VectorType::get({kLanes}, i32), word);
      Value a = vector::BitCastOp::create(rewriter, loc, pairType, splat);
      Value row = m >= 0 ? Value(vector::ExtractOp::create(rewriter, loc,
                                                           op.getAcc(), r))
                         : op.getAcc();
      Value newRow = row;
      for (int64_t p = 0; p < pieces; ++p) {
        Value piece =
            pieces == 1
                ? row
                : Value(vector::ExtractStridedSliceOp::create(
                      rewriter, loc, row, ArrayRef<int64_t>{p * kLanes},
                      ArrayRef<int64_t>{kLanes}, ArrayRef<int64_t>{1}));
        Value dot = x86vector::DotBF16Op::create(rewriter, loc, piece.getType(),
                                                 piece, a, bPairs[p]);
        newRow = pieces == 1
                     ? dot
                     : Value(vector::InsertStridedSliceOp::create(
                           rewriter, loc, dot, newRow,
                           ArrayRef<int64_t>{p * kLanes},
                           ArrayRef<int64_t>{1}));
      }
      result = m >= 0 ? Value(vector::InsertOp::create(rewriter, loc, newRow,
                                                       result, r))
                      : newRow;
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// The register tile of a grouped filter gradient with few channels per
/// group (conv-cpu-tile-and-vectorize): a contraction
///   acc[ci, g, co] += lhs[k, g, ci] * rhs[k, g, co]
/// whose (g, co) columns fill vectors. Per reduction step k and row ci, the
/// input values lhs[k, g, ci] are broadcast over their group's lanes by one
/// lane shuffle of the row lhs[k] (an in-lane `vshufps` / `vpermilps` when
/// ci and co have the same extent), and one FMA per vector adds the product
/// with rhs[k]. The
/// sum runs over k in order, as the outer-product lowering's does. (That
/// lowering unrolls the group dimension, which every operand has, into
/// ci x co outer products a few lanes wide.)
struct GroupedContractionToShuffles
    : public OpRewritePattern<vector::ContractionOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(vector::ContractionOp op,
                                PatternRewriter &rewriter) const override {
    if (op.getKind() != vector::CombiningKind::ADD ||
        isa<vector::MaskOp>(op->getParentOp()))
      return failure();
    auto accType = dyn_cast<VectorType>(op.getAccType());
    auto lhsType = op.getLhsType(), rhsType = op.getRhsType();
    if (!accType || accType.getRank() != 3 || lhsType.getRank() != 3 ||
        rhsType.getRank() != 3 || !accType.getElementType().isF32() ||
        !lhsType.getElementType().isF32() ||
        !rhsType.getElementType().isF32() || accType.isScalable())
      return failure();
    SmallVector<vector::IteratorType> iterators = op.getIteratorTypesArray();
    if (iterators.size() != 4)
      return failure();
    int64_t k = -1;
    for (auto [d, it] : llvm::enumerate(iterators))
      if (it == vector::IteratorType::reduction) {
        if (k >= 0)
          return failure();
        k = static_cast<int64_t>(d);
      }
    if (k < 0)
      return failure();
    SmallVector<AffineMap> maps = op.getIndexingMapsArray();
    for (AffineMap map : maps)
      if (!map.isProjectedPermutation() || map.getNumResults() != 3)
        return failure();
    // acc (ci, g, co) or (g, ci, co) (transposed here and back: the
    // 16-bit tiles' contractions take the accumulator so, and the
    // transposes fold against the ones around them), lhs (k, g, ci), rhs
    // (k, g, co).
    int64_t g = maps[0].getDimPosition(1), co = maps[2].getDimPosition(2);
    bool groupsFirst = maps[2].getDimPosition(0) == g;
    int64_t ci = maps[2].getDimPosition(groupsFirst ? 1 : 0);
    if (maps[2].getDimPosition(groupsFirst ? 0 : 1) != g)
      return failure();
    auto dims = [](AffineMap map) {
      SmallVector<int64_t> d;
      for (unsigned i = 0; i < map.getNumResults(); ++i)
        d.push_back(map.getDimPosition(i));
      return d;
    };
    if (dims(maps[0]) != SmallVector<int64_t>{k, g, ci} ||
        dims(maps[1]) != SmallVector<int64_t>{k, g, co})
      return failure();
    SmallVector<int64_t> bounds;
    op.getIterationBounds(bounds);
    int64_t steps = bounds[k], rows = bounds[ci], groups = bounds[g],
            cols = bounds[co];

    Location loc = op.getLoc();
    Type f32 = rewriter.getF32Type();
    // The accumulator as rows of (g, co) (the shape casts fold against a
    // loop that carries it so: FlattenLoopCarriedGroupedTiles).
    auto flatAccType = VectorType::get({rows, groups * cols}, f32);
    Value accValue = op.getAcc();
    if (groupsFirst)
      accValue = vector::TransposeOp::create(rewriter, loc, accValue,
                                             ArrayRef<int64_t>{1, 0, 2});
    Value flatAcc =
        vector::ShapeCastOp::create(rewriter, loc, flatAccType, accValue);
    SmallVector<Value> acc;
    for (int64_t r = 0; r < rows; ++r)
      acc.push_back(vector::ExtractOp::create(rewriter, loc, flatAcc, r));
    SmallVector<SmallVector<int64_t>> masks(rows);
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t gi = 0; gi < groups; ++gi)
        for (int64_t c = 0; c < cols; ++c)
          masks[r].push_back(gi * rows + r);
    // Row `step` of an operand as one vector: from the operand viewed as
    // [steps, G * C] (which folds against a read of whole rows:
    // CollapseGroupedTileRead), widened after the extraction when the
    // operand is a widened 16-bit tile.
    auto row = [&](Value operand, int64_t step) -> Value {
      auto ext = operand.getDefiningOp<arith::ExtFOp>();
      Value source = ext ? ext.getIn() : operand;
      auto type = cast<VectorType>(source.getType());
      auto flatType = VectorType::get(
          {steps, type.getShape()[1] * type.getShape()[2]},
          type.getElementType());
      Value flat =
          vector::ShapeCastOp::create(rewriter, loc, flatType, source);
      Value value = vector::ExtractOp::create(rewriter, loc, flat, step);
      if (ext)
        value = arith::ExtFOp::create(
            rewriter, loc, VectorType::get({flatType.getShape()[1]}, f32),
            value);
      return value;
    };
    for (int64_t step = 0; step < steps; ++step) {
      Value x = row(op.getLhs(), step);
      Value y = row(op.getRhs(), step);
      for (int64_t r = 0; r < rows; ++r) {
        Value spread =
            vector::ShuffleOp::create(rewriter, loc, x, x, masks[r]);
        acc[r] = vector::FMAOp::create(rewriter, loc, spread, y, acc[r]);
      }
    }
    Value result = flatAcc;
    for (int64_t r = 0; r < rows; ++r)
      result = vector::InsertOp::create(rewriter, loc, acc[r], result, r);
    Value tile = vector::ShapeCastOp::create(
        rewriter, loc, VectorType::get({rows, groups, cols}, f32), result);
    if (groupsFirst)
      tile = vector::TransposeOp::create(rewriter, loc, tile,
                                         ArrayRef<int64_t>{1, 0, 2});
    rewriter.replaceOp(op, tile);
    return success();
  }
};

/// A grouped register tile's single reduction step, as the vectorizer
/// leaves it for a tile one position long (the cut ranges of a tap's
/// positions, docs/Lowering.md §2.5):
///   t(acc)[g, ci, co] + x[g, ci] * y[g, co]   (vector<G x CI x CO>)
/// with acc : vector<CI x G x CO> transposed [1, 0, 2], and x and y
/// broadcast and transposed to the whole tile. Rewritten to the contraction
/// acc[ci, g, co] += x[0, g, ci] * y[0, g, co] over one step (then lowered
/// by GroupedContractionToShuffles; the transposes back to the
/// accumulator's layout fold).
struct GroupedStepToContraction : public OpRewritePattern<arith::AddFOp> {
  using OpRewritePattern::OpRewritePattern;

  /// The rank-2 source of transpose(broadcast(source), perm), if `value` is
  /// one; for extf(transpose(broadcast(source))) (16-bit operands), the
  /// source widened to f32 (created before `value`).
  static Value broadcastSource(PatternRewriter &rewriter, Value value,
                               ArrayRef<int64_t> perm) {
    if (auto ext = value.getDefiningOp<arith::ExtFOp>()) {
      Value source = broadcastSource(rewriter, ext.getIn(), perm);
      if (!source)
        return {};
      auto type = cast<VectorType>(source.getType());
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPoint(ext);
      return arith::ExtFOp::create(rewriter, ext.getLoc(),
                                   type.clone(rewriter.getF32Type()), source);
    }
    auto transpose = value.getDefiningOp<vector::TransposeOp>();
    if (!transpose || transpose.getPermutation() != perm)
      return {};
    auto broadcast = transpose.getVector().getDefiningOp<vector::BroadcastOp>();
    if (!broadcast)
      return {};
    auto type = dyn_cast<VectorType>(broadcast.getSourceType());
    return type && type.getRank() == 2 ? broadcast.getSource() : Value();
  }

  /// Whether `value` is [extf of] transpose(broadcast(rank-2), perm).
  static bool matchSource(Value value, ArrayRef<int64_t> perm) {
    if (auto ext = value.getDefiningOp<arith::ExtFOp>())
      value = ext.getIn();
    auto transpose = value.getDefiningOp<vector::TransposeOp>();
    if (!transpose || transpose.getPermutation() != perm)
      return false;
    auto broadcast = transpose.getVector().getDefiningOp<vector::BroadcastOp>();
    auto type =
        broadcast ? dyn_cast<VectorType>(broadcast.getSourceType()) : nullptr;
    // A new leading dimension only (no stretched unit dimension): the
    // source is then [G, CI] (x) or [G, CO] (y).
    return type && type.getRank() == 2 &&
           type.getShape() ==
               broadcast.getResultVectorType().getShape().drop_front();
  }

  LogicalResult matchAndRewrite(arith::AddFOp op,
                                PatternRewriter &rewriter) const override {
    auto type = dyn_cast<VectorType>(op.getType());
    if (!type || type.getRank() != 3 || !type.getElementType().isF32())
      return failure();
    auto accT = op.getLhs().getDefiningOp<vector::TransposeOp>();
    auto mul = op.getRhs().getDefiningOp<arith::MulFOp>();
    if (!accT || !mul || accT.getPermutation() != ArrayRef<int64_t>{1, 0, 2})
      return failure();
    // x[g, ci] over the co lanes: broadcast to [CO, G, CI], transposed
    // [1, 2, 0]; y[g, co] over the ci rows: [CI, G, CO], transposed
    // [1, 0, 2].
    // (Matched before anything is created: a failed match creates nothing.)
    auto matches = [&](Value a, Value b) {
      return matchSource(a, {1, 2, 0}) && matchSource(b, {1, 0, 2});
    };
    Value xOperand = mul.getLhs(), yOperand = mul.getRhs();
    if (!matches(xOperand, yOperand))
      std::swap(xOperand, yOperand);
    if (!matches(xOperand, yOperand))
      return failure();
    Value x = broadcastSource(rewriter, xOperand, {1, 2, 0});
    Value y = broadcastSource(rewriter, yOperand, {1, 0, 2});
    ArrayRef<int64_t> shape = type.getShape(); // [G, CI, CO]
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    AffineExpr g, ci, co, k;
    bindDims(ctx, g, ci, co, k);
    auto maps = AffineMap::inferFromExprList(
        ArrayRef<ArrayRef<AffineExpr>>{{k, g, ci}, {k, g, co}, {ci, g, co}},
        ctx);
    Type f32 = rewriter.getF32Type();
    Value lhs = vector::ShapeCastOp::create(
        rewriter, loc, VectorType::get({1, shape[0], shape[1]}, f32), x);
    Value rhs = vector::ShapeCastOp::create(
        rewriter, loc, VectorType::get({1, shape[0], shape[2]}, f32), y);
    auto contract = vector::ContractionOp::create(
        rewriter, loc, lhs, rhs, accT.getVector(),
        rewriter.getAffineMapArrayAttr(maps),
        rewriter.getArrayAttr(
            {vector::IteratorTypeAttr::get(ctx, vector::IteratorType::parallel),
             vector::IteratorTypeAttr::get(ctx, vector::IteratorType::parallel),
             vector::IteratorTypeAttr::get(ctx, vector::IteratorType::parallel),
             vector::IteratorTypeAttr::get(ctx,
                                           vector::IteratorType::reduction)}));
    rewriter.replaceOpWithNewOp<vector::TransposeOp>(
        op, contract.getResult(), ArrayRef<int64_t>{1, 0, 2});
    return success();
  }
};

/// Whether `func` has a bf16 vector of 8k + 1 > 1 elements (its last
/// dimension; the lowering to 1-D vectors keeps it): LLVM 22's x86 type
/// legalizer aborts on an extractelement or bitcast of one when
/// AVX512-BF16 is enabled (docs/Codegen.md, JIT), which the dot product
/// needs for the whole function.
bool hasOddBF16Vectors(Operation *func) {
  auto odd = [](Type type) {
    auto vector = dyn_cast<VectorType>(type);
    return vector && vector.getElementType().isBF16() &&
           vector.getRank() > 0 &&
           conv::isOddBF16VectorLength(vector.getShape().back());
  };
  bool found = false;
  func->walk([&](Operation *op) {
    if (llvm::any_of(op->getResultTypes(), odd) ||
        llvm::any_of(op->getOperandTypes(), odd))
      found = true;
    return found ? WalkResult::interrupt() : WalkResult::advance();
  });
  return found;
}

/// Software prefetch for the loops marked conv.prefetch_ahead = D (a
/// tap-row tile's loop over window positions, one a step) or
/// conv.prefetch_ahead_nested = D (a transposed convolution's loop over
/// phase rows, TransposeDot.cpp): for every vector.transfer_read of a
/// memref in the body (for the nested form: anywhere in it, in inner loops
/// and branches too) whose indices use the induction
/// variable (itself or plus a constant, through affine.apply or
/// arith.addi), a memref.prefetch of the same indices D iterations ahead
/// (a prefetch past the end of the memref does not fault). Of the reads
/// of one row at several offsets (the same memref, block and other
/// indices) only the furthest prefetches.
void insertAheadPrefetches(func::FuncOp func) {
  func.walk([&](scf::ForOp loop) {
    bool nested = false;
    auto attr = loop->getAttrOfType<IntegerAttr>(conv::kPrefetchAheadAttr);
    if (!attr) {
      attr =
          loop->getAttrOfType<IntegerAttr>(conv::kPrefetchAheadNestedAttrName);
      nested = true;
    }
    if (!attr)
      return;
    loop->removeAttr(conv::kPrefetchAheadAttr);
    loop->removeAttr(conv::kPrefetchAheadNestedAttrName);
    std::optional<int64_t> step = getConstantIntValue(loop.getStep());
    if (!step)
      return;
    int64_t distance = attr.getInt() * *step;
    Value iv = loop.getInductionVar();
    SmallVector<vector::TransferReadOp> reads;
    auto take = [&](vector::TransferReadOp read) {
      if (isa<MemRefType>(read.getBase().getType()))
        reads.push_back(read);
    };
    if (nested)
      loop.getBody()->walk(take);
    else
      for (Operation &op : loop.getBody()->without_terminator())
        if (auto read = dyn_cast<vector::TransferReadOp>(op))
          take(read);
    // The constant c of an index iv + c: iv itself or affine.apply d0 + c;
    // in the nested form also arith.addi of such an index and a constant.
    std::function<std::optional<int64_t>(Value)> offsetFromIv =
        [&](Value index) -> std::optional<int64_t> {
      if (index == iv)
        return 0;
      if (auto apply = index.getDefiningOp<affine::AffineApplyOp>()) {
        if (apply.getMapOperands().size() != 1 ||
            apply.getMapOperands()[0] != iv ||
            apply.getAffineMap().getNumResults() != 1)
          return std::nullopt;
        auto sum =
            dyn_cast<AffineBinaryOpExpr>(apply.getAffineMap().getResult(0));
        if (sum && sum.getKind() == AffineExprKind::Add &&
            isa<AffineDimExpr>(sum.getLHS()))
          if (auto c = dyn_cast<AffineConstantExpr>(sum.getRHS()))
            return c.getValue();
        return std::nullopt;
      }
      auto add = index.getDefiningOp<arith::AddIOp>();
      if (!nested || !add)
        return std::nullopt;
      for (auto [term, other] : {std::pair{add.getLhs(), add.getRhs()},
                                 std::pair{add.getRhs(), add.getLhs()}})
        if (std::optional<int64_t> c = getConstantIntValue(other))
          if (std::optional<int64_t> inner = offsetFromIv(term))
            return *inner + *c;
      return std::nullopt;
    };
    struct Ahead {
      vector::TransferReadOp read;
      int64_t at, offset;
    };
    SmallVector<Ahead> aheads;
    for (vector::TransferReadOp read : reads) {
      ValueRange indices = read.getIndices();
      int64_t at = -1, offset = 0;
      for (auto [i, index] : llvm::enumerate(indices))
        if (std::optional<int64_t> c = offsetFromIv(index)) {
          at = i;
          offset = *c;
          break;
        }
      if (at < 0)
        continue;
      auto sameRow = [&](Ahead &a) {
        if (a.read.getBase() != read.getBase() || a.at != at ||
            a.read->getBlock() != read->getBlock())
          return false;
        for (auto [i, index] : llvm::enumerate(indices))
          if (int64_t(i) != at && a.read.getIndices()[i] != index)
            return false;
        return true;
      };
      auto it = llvm::find_if(aheads, sameRow);
      if (it == aheads.end())
        aheads.push_back({read, at, offset});
      else if (offset > it->offset)
        *it = {read, at, offset};
    }
    for (Ahead &a : aheads) {
      OpBuilder b(a.read);
      Location loc = a.read.getLoc();
      SmallVector<Value> indices(a.read.getIndices());
      indices[a.at] = arith::AddIOp::create(
          b, loc, iv,
          arith::ConstantIndexOp::create(b, loc, a.offset + distance));
      memref::PrefetchOp::create(b, loc, a.read.getBase(), indices,
                                 /*isWrite=*/false, /*localityHint=*/3,
                                 /*isDataCache=*/true);
    }
  });
}

/// The L2 prefetches (conv.prefetch_l2) of a conv.prefetch_rows or
/// conv.prefetch_rhs loop's next block in memory order: the `count`
/// register tiles of the block (`tile`: this one's index, computed in
/// `innermost`, the innermost loop over the tiles) each prefetch a run of
/// consecutive lines of the next block of `distance` rows of `read`'s
/// memref, k lines per reduction step: tile t's step s (of S) prefetches
/// lines (t * S + s) * k ... + k - 1 (at most the block's last line: the
/// tiles past its end repeat that line). The lines are numbered in memory
/// order from the next block's first row, the row the read had at step 0
/// plus `distance`. Applies when the block's rows are contiguous: whole rows
/// of a contiguous memref (`lines` lines each, `base` at column 0), and
/// the S steps of the loops between `innermost` and `at`, `rows` rows each,
/// cover the block's `distance` rows, at most two such loops, the inner one
/// (if two) stepping over the memref's whole rows dimension. Returns false
/// (nothing inserted) otherwise.
///
/// The order across tiles was the other way round before (tile t of T
/// fetched lines t, t + T, ... of every step's rows): each tile's
/// prefetches went to one line every few KiB, and the hardware's L2
/// streamer followed none of them. conv-run on Ice Lake, against that
/// order (20 alternating call pairs, 1 / 2 threads): ResNet's 1x1 64 -> 64
/// +5 / +1.5 %, 64 -> 256 +4 / +7 %, 256 -> 64 +4 / +3 % (another run:
/// +9 / +5 %, +10 / +7 %, +5 / +7 %). The prefetches go after the
/// contraction: before it (where the strided ones were), LLVM's scheduler
/// hoisted 64 -> 256's out_backprop loads above their index arithmetic and
/// spilled them (-40 %).
static bool insertSequentialPrefetches(
    OpBuilder &b, vector::TransferReadOp read, ArrayRef<Value> base,
    Operation *at, scf::ForOp innermost, Value tile, int64_t count,
    int64_t distance, int64_t lines, int64_t lineElements, int64_t locality) {
  auto memrefType = cast<MemRefType>(read.getBase().getType());
  int64_t rank = memrefType.getRank();
  int64_t width = memrefType.getShape().back();
  if (!memrefType.hasStaticShape() || width != lines * lineElements ||
      !memrefType.getLayout().isIdentity())
    return false;
  if (!isConstantIntValue(base[rank - 1], 0))
    return false;
  SmallVector<scf::ForOp> steps;
  for (auto l = at->getParentOfType<scf::ForOp>(); l && l != innermost;
       l = l->getParentOfType<scf::ForOp>())
    steps.insert(steps.begin(), l);
  if (steps.empty() || steps.size() > 2)
    return false;
  int64_t rows = read.getVectorType().getDimSize(0);
  int64_t numSteps = 1;
  SmallVector<std::array<int64_t, 3>> bounds;
  for (scf::ForOp l : steps) {
    std::optional<int64_t> lb = getConstantIntValue(l.getLowerBound());
    std::optional<int64_t> step = getConstantIntValue(l.getStep());
    std::optional<APInt> trips = l.getStaticTripCount();
    if (!lb || !step || !trips || trips->isZero())
      return false;
    bounds.push_back({*lb, *step, int64_t(trips->getZExtValue())});
    numSteps *= bounds.back()[2];
  }
  if (numSteps * rows != distance ||
      (steps.size() == 2 &&
       bounds[1][2] * rows != memrefType.getShape()[rank - 2]))
    return false;
  Location loc = read.getLoc();
  b.setInsertionPointAfter(at);
  auto constant = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  // The step's index s, the steps' iterations in mixed radix.
  Value s = constant(0);
  for (auto [l, bound] : llvm::zip(steps, bounds)) {
    Value iteration = arith::DivUIOp::create(
        b, loc,
        arith::SubIOp::create(b, loc, l.getInductionVar(), constant(bound[0])),
        constant(bound[1]));
    Value outer = arith::MulIOp::create(b, loc, s, constant(bound[2]));
    s = arith::AddIOp::create(b, loc, outer, iteration);
  }
  int64_t blockLines = distance * lines;
  int64_t k = llvm::divideCeil(blockLines, count * numSteps);
  Value tileSteps = arith::MulIOp::create(b, loc, tile, constant(numSteps));
  Value run = arith::AddIOp::create(b, loc, tileSteps, s);
  Value first = arith::MulIOp::create(b, loc, run, constant(k));
  // The next block's first row: this step's row - s * rows + distance (the
  // memref is contiguous: rows beyond the dimension's end continue in the
  // next index of the dimension before).
  Value back = arith::MulIOp::create(b, loc, s, constant(rows));
  Value ahead =
      arith::AddIOp::create(b, loc, base[rank - 2], constant(distance));
  Value row = arith::SubIOp::create(b, loc, ahead, back);
  for (int64_t i = 0; i < k; ++i) {
    Value line = arith::MinUIOp::create(
        b, loc, arith::AddIOp::create(b, loc, first, constant(i)),
        constant(blockLines - 1));
    SmallVector<Value> indices(base);
    indices[rank - 2] = row;
    indices[rank - 1] =
        arith::MulIOp::create(b, loc, line, constant(lineElements));
    memref::PrefetchOp::create(b, loc, read.getBase(), indices,
                               /*isWrite=*/false, /*localityHint=*/locality,
                               /*isDataCache=*/true);
  }
  return true;
}

/// Software prefetch for the contractions in loops marked conv.prefetch_rhs
/// or conv.prefetch_rows (see the pass description): per line of each row r
/// of an operand's read, a memref.prefetch at row index + R + r, R the
/// static range of the enclosing scf.for.
///
/// conv.prefetch_rhs: every line of the right-hand read. The fully fused
/// tiny-Cin filter gradients read out_backprop once, a block of positions
/// at a time; the next block's rows are fetched while this one is computed
/// (conv-run --compare, 21 alternating call pairs, 1 / 2 threads: VGG's
/// 224x224x3 -> 64 first layer +17 / +43 %, a 48x480x1 -> 16 layer +9 /
/// +13 %). Not for layers whose register tiles re-read out_backprop blocks
/// from the L2 (prefetching every contraction's next rows: the 7x7 stem's
/// leading taps -15 %, 3x3 64 -> 64 -5 % with 1 thread): only the
/// lowering's conv.dw_stream contractions get the mark. (Issued by one
/// register tile of a block only, in an scf.if, the prefetches ran 11-22 %
/// slower; two ranges ahead, the same.)
///
/// conv.prefetch_rows (1x1 and 1-D filter gradients, whose (ci, co) tiles
/// all sweep one block of both operands): the left-hand read's rows at its
/// own columns (one line per row when narrower than a line), and one line
/// per row of the right-hand read: line (c / w) mod L of its L lines, c the
/// left-hand read's first column and w its width, so that the tiles of
/// consecutive left-hand column blocks fetch different lines of the same
/// rows (every line when there are fewer blocks than lines). (Those layers
/// also prefetching every right-hand line in every tile: -6 to -10 % with
/// 2 threads on ResNet's 1x1 64 -> 64.)
void insertRowPrefetches(func::FuncOp func) {
  // A 64-byte cache line.
  constexpr int64_t kLineBits = 512;
  struct Prefetch {
    // Where the prefetches go: before the contraction, where both of its
    // reads and their indices are defined.
    Operation *at;
    int64_t distance;
    // 3 (every level) or 2 (the L2 only: conv.prefetch_l2).
    int64_t locality;
    // conv.prefetch_rhs' right-hand reads: the enclosing loop over the tiles
    // that read the same rows (conv.prefetch_tiles), if any, and the loops
    // inside it whose iterations count as tiles too
    // (conv.prefetch_tiles_inner), outermost first.
    scf::ForOp tiles;
    SmallVector<scf::ForOp> innerTiles;
    // conv.prefetch_rows' right-hand reads: the left-hand read whose column
    // block picks the line.
    vector::TransferReadOp lineBy;
    // With `tiles`, the read's whole rows (the memref's last dimension) are
    // spread over the tiles, not its columns: the contraction's left-hand
    // read, and its right-hand one with `innerTiles`.
    bool wholeRows = false;
  };
  llvm::MapVector<vector::TransferReadOp, Prefetch> reads;
  func.walk([&](vector::ContractionOp op) {
    auto loop = dyn_cast<scf::ForOp>(op->getParentOp());
    if (!loop)
      return;
    bool rows = loop->hasAttr(conv::kPrefetchRowsAttr);
    if (!rows && !loop->hasAttr(conv::kPrefetchRhsAttr))
      return;
    std::optional<int64_t> lb = getConstantIntValue(loop.getLowerBound());
    std::optional<int64_t> ub = getConstantIntValue(loop.getUpperBound());
    if (!lb || !ub || *ub <= *lb)
      return;
    auto rowRead = [&](unsigned operand) -> vector::TransferReadOp {
      auto read = op->getOperand(operand).getDefiningOp<vector::TransferReadOp>();
      if (!read || read->getBlock() != op->getBlock())
        return {};
      auto memrefType = dyn_cast<MemRefType>(read.getBase().getType());
      VectorType vt = read.getVectorType();
      if (!memrefType || memrefType.getRank() < 2 || vt.getRank() != 2 ||
          !read.getPermutationMap().isMinorIdentity())
        return {};
      // The read's rows must run along a reduction dimension.
      AffineMap map = op.getIndexingMapsArray()[operand];
      auto rowDim = dyn_cast<AffineDimExpr>(map.getResult(0));
      if (!rowDim || op.getIteratorTypesArray()[rowDim.getPosition()] !=
                         vector::IteratorType::reduction)
        return {};
      return read;
    };
    vector::TransferReadOp lhs = rows ? rowRead(0) : vector::TransferReadOp();
    vector::TransferReadOp rhs = rowRead(1);
    int64_t locality = loop->hasAttr(conv::kPrefetchL2Attr) ? 2 : 3;
    // conv.prefetch_rows with conv.prefetch_l2: the next block's lines
    // are spread over the tiles of conv.prefetch_tiles' loop, the left-hand
    // read's whole rows as well; a register tile outside that loop (a
    // peeled remainder of its rows) prefetches nothing.
    bool spread = !rows || locality == 2;
    scf::ForOp tiles;
    if (spread)
      for (auto outer = loop->getParentOfType<scf::ForOp>(); outer;
           outer = outer->getParentOfType<scf::ForOp>())
        if (outer->hasAttr(conv::kPrefetchTilesAttr)) {
          tiles = outer;
          break;
        }
    if (rows && spread && !tiles)
      return;
    SmallVector<scf::ForOp> innerTiles;
    if (tiles)
      for (auto outer = loop->getParentOfType<scf::ForOp>(); outer != tiles;
           outer = outer->getParentOfType<scf::ForOp>())
        if (outer->hasAttr(conv::kPrefetchTilesInnerAttr))
          innerTiles.insert(innerTiles.begin(), outer);
    int64_t distance = *ub - *lb;
    if (auto attr =
            loop->getAttrOfType<IntegerAttr>(conv::kPrefetchDistanceAttr))
      distance = attr.getInt();
    if (lhs)
      reads.insert(
          {lhs, {op, distance, locality, tiles, innerTiles, {}, true}});
    if (rhs && rhs.getVectorType().getDimSize(1) *
                       rhs.getVectorType().getElementTypeBitWidth() >=
                   kLineBits)
      reads.insert({rhs,
                    {op, distance, locality, tiles, innerTiles,
                     innerTiles.empty() ? lhs : vector::TransferReadOp(),
                     !innerTiles.empty()}});
  });
  for (auto [read, prefetch] : reads) {
    OpBuilder b(prefetch.at);
    Location loc = read.getLoc();
    VectorType vt = read.getVectorType();
    int64_t rank = cast<MemRefType>(read.getBase().getType()).getRank();
    int64_t lineElements = kLineBits / vt.getElementTypeBitWidth();
    int64_t lines = llvm::divideCeil(vt.getDimSize(1), lineElements);
    SmallVector<Value> base(read.getIndices());
    auto constant = [&](int64_t v) -> Value {
      return arith::ConstantIndexOp::create(b, loc, v);
    };
    // Spread over the tiles of conv.prefetch_tiles' loop: its iteration t
    // of T prefetches lines t, t + T, ... (modulo the N lines of a step).
    // The line indices depend on t only: computed at the start of the
    // loop's body.
    std::optional<int64_t> tilesLb, tilesStep;
    std::optional<APInt> tilesTrips;
    if (prefetch.tiles) {
      tilesLb = getConstantIntValue(prefetch.tiles.getLowerBound());
      tilesStep = getConstantIntValue(prefetch.tiles.getStep());
      tilesTrips = prefetch.tiles.getStaticTripCount();
    }
    // Each inner tile loop: its lower bound, step and trip count.
    SmallVector<std::array<int64_t, 3>> inner;
    for (scf::ForOp innerLoop : prefetch.innerTiles) {
      std::optional<int64_t> innerLb =
          getConstantIntValue(innerLoop.getLowerBound());
      std::optional<int64_t> innerStep =
          getConstantIntValue(innerLoop.getStep());
      std::optional<APInt> innerTrips = innerLoop.getStaticTripCount();
      if (!innerLb || !innerStep || !innerTrips || innerTrips->isZero()) {
        tilesTrips.reset();
        break;
      }
      inner.push_back(
          {*innerLb, *innerStep, int64_t(innerTrips->getZExtValue())});
    }
    if (tilesLb && tilesStep && tilesTrips && !tilesTrips->isZero()) {
      int64_t count = tilesTrips->getZExtValue();
      for (auto [innerLb, innerStep, trips] : inner)
        count *= trips;
      if (prefetch.wholeRows) {
        int64_t width =
            cast<MemRefType>(read.getBase().getType()).getShape().back();
        if (ShapedType::isDynamic(width))
          continue;
        lines = llvm::divideCeil(width, lineElements);
        base[rank - 1] = constant(0);
      }
      int64_t total = vt.getDimSize(0) * lines;
      // The tile index: the iteration of `tiles`, then of each inner tile
      // loop (mixed radix, the innermost fastest), computed at the start of
      // the innermost one's body.
      scf::ForOp innermost = prefetch.innerTiles.empty()
                                 ? prefetch.tiles
                                 : prefetch.innerTiles.back();
      OpBuilder head = OpBuilder::atBlockBegin(innermost.getBody());
      auto headConstant = [&](int64_t v) -> Value {
        return arith::ConstantIndexOp::create(head, loc, v);
      };
      auto iteration = [&](scf::ForOp forOp, int64_t lb, int64_t step) {
        return arith::DivUIOp::create(
            head, loc,
            arith::SubIOp::create(head, loc, forOp.getInductionVar(),
                                  headConstant(lb)),
            headConstant(step));
      };
      Value tile = iteration(prefetch.tiles, *tilesLb, *tilesStep);
      for (auto [innerLoop, bounds] : llvm::zip(prefetch.innerTiles, inner))
        tile = arith::AddIOp::create(
            head, loc,
            arith::MulIOp::create(head, loc, tile, headConstant(bounds[2])),
            iteration(innerLoop, bounds[0], bounds[1]));
      if (prefetch.locality == 2 &&
          insertSequentialPrefetches(b, read, base, prefetch.at, innermost,
                                     tile, count, prefetch.distance, lines,
                                     lineElements, prefetch.locality))
        continue;
      Value ahead = arith::AddIOp::create(b, loc, base[rank - 2],
                                          constant(prefetch.distance));
      for (int64_t i = 0, e = llvm::divideCeil(total, count); i < e; ++i) {
        Value line = arith::RemUIOp::create(
            head, loc,
            arith::AddIOp::create(head, loc, tile, headConstant(count * i)),
            headConstant(total));
        Value rowOffset =
            arith::DivUIOp::create(head, loc, line, headConstant(lines));
        Value columnOffset = arith::MulIOp::create(
            head, loc,
            arith::RemUIOp::create(head, loc, line, headConstant(lines)),
            headConstant(lineElements));
        SmallVector<Value> indices(base);
        indices[rank - 2] = arith::AddIOp::create(b, loc, ahead, rowOffset);
        indices[rank - 1] =
            arith::AddIOp::create(b, loc, base[rank - 1], columnOffset);
        memref::PrefetchOp::create(b, loc, read.getBase(), indices,
                                   /*isWrite=*/false,
                                   /*localityHint=*/prefetch.locality,
                                   /*isDataCache=*/true);
      }
      continue;
    }
    // The columns of the lines to prefetch.
    SmallVector<Value> columns;
    if (vector::TransferReadOp by = prefetch.lineBy) {
      auto byType = cast<MemRefType>(by.getBase().getType());
      int64_t width = by.getVectorType().getDimSize(1);
      int64_t extent = byType.getShape().back();
      if (ShapedType::isDynamic(extent) ||
          static_cast<int64_t>(llvm::divideCeil(extent, width)) < lines)
        by = {};
      if (by) {
        Value block = arith::DivUIOp::create(b, loc, by.getIndices().back(),
                                             constant(width));
        Value line = arith::RemUIOp::create(b, loc, block, constant(lines));
        columns.push_back(arith::AddIOp::create(
            b, loc, base[rank - 1],
            arith::MulIOp::create(b, loc, line, constant(lineElements))));
      }
    }
    if (columns.empty())
      for (int64_t c = 0; c < vt.getDimSize(1); c += lineElements)
        columns.push_back(c ? Value(arith::AddIOp::create(
                                  b, loc, base[rank - 1], constant(c)))
                            : base[rank - 1]);
    for (int64_t r = 0; r < vt.getDimSize(0); ++r) {
      Value row = arith::AddIOp::create(b, loc, base[rank - 2],
                                        constant(prefetch.distance + r));
      for (Value column : columns) {
        SmallVector<Value> indices(base);
        indices[rank - 2] = row;
        indices[rank - 1] = column;
        memref::PrefetchOp::create(b, loc, read.getBase(), indices,
                                   /*isWrite=*/false,
                                   /*localityHint=*/prefetch.locality,
                                   /*isDataCache=*/true);
      }
    }
  }
}

struct LowerVectors
    : public conv::impl::ConvCPULowerVectorsPassBase<LowerVectors> {
  using Base::Base;
  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    unsigned bits =
        vectorBits ? unsigned(vectorBits) : conv::HostVectorInfo::detect().vectorBits;
    if (prefetch) {
      insertRowPrefetches(getOperation());
      insertAheadPrefetches(getOperation());
    }
    getOperation().walk([](scf::ForOp loop) {
      loop->removeAttr(conv::kPrefetchRhsAttr);
      loop->removeAttr(conv::kPrefetchRowsAttr);
      loop->removeAttr(conv::kPrefetchL2Attr);
      loop->removeAttr(conv::kPrefetchTilesAttr);
      loop->removeAttr(conv::kPrefetchTilesInnerAttr);
      loop->removeAttr(conv::kPrefetchDistanceAttr);
      loop->removeAttr(conv::kPrefetchAheadAttr);
      loop->removeAttr(conv::kPrefetchAheadNestedAttrName);
    });
    auto apply = [&](auto populate) {
      RewritePatternSet patterns(ctx);
      populate(patterns);
      return applyPatternsGreedily(getOperation(), std::move(patterns),
                                   conv::structuredRewriteConfig());
    };
    // Grouped register tiles: single steps as contractions; loops carry
    // them as rows of whole vectors, and their reads and writes outside the
    // loops move whole rows.
    if (failed(apply([&](RewritePatternSet &p) {
          p.add<GroupedStepToContraction>(p.getContext());
          vector::TransposeOp::getCanonicalizationPatterns(p, p.getContext());
        })) ||
        failed(apply([&](RewritePatternSet &p) {
          p.add<FlattenLoopCarriedGroupedTiles>(p.getContext(), bits);
          vector::ShapeCastOp::getCanonicalizationPatterns(p, p.getContext());
        })))
      return signalPassFailure();
    {
      // The reads and writes of grouped tiles: the accumulators' around the
      // loops, the operand rows' of the contractions (16-bit rows reach
      // theirs through a broadcast, a transpose and an extension, which the
      // contraction's indexing maps absorb below).
      SmallVector<Operation *> transfers;
      getOperation().walk([&](Operation *op) {
        auto feedsGroupedTile = [](Operation *user) {
          return isa<vector::ShapeCastOp, vector::ContractionOp,
                     vector::BroadcastOp>(user);
        };
        if (auto read = dyn_cast<vector::TransferReadOp>(op)) {
          if ((isGroupedTile(read.getVectorType(), bits) ||
               isGroupedRow(read.getVectorType(), bits)) &&
              llvm::all_of(read->getUsers(), feedsGroupedTile))
            transfers.push_back(op);
        } else if (auto write = dyn_cast<vector::TransferWriteOp>(op)) {
          if (isGroupedTile(write.getVectorType(), bits) &&
              write.getVector().getDefiningOp<vector::ShapeCastOp>())
            transfers.push_back(op);
        }
      });
      if (!transfers.empty()) {
        RewritePatternSet patterns(ctx);
        patterns.add<CollapseGroupedTileRead, CollapseGroupedTileWrite>(
            ctx, bits);
        if (failed(applyOpPatternsGreedily(transfers, std::move(patterns))))
          return signalPassFailure();
      }
    }
    if (failed(apply([&](RewritePatternSet &p) {
          p.add<SplitLoopCarriedColumns>(p.getContext(), bits);
          vector::UnrollVectorOptions options;
          options.setNativeShapeFn([bits](Operation *op) {
            return columnPieceShape(op, bits);
          });
          vector::populateVectorUnrollPatterns(p, options);
          vector::ExtractStridedSliceOp::getCanonicalizationPatterns(
              p, p.getContext());
          vector::InsertStridedSliceOp::getCanonicalizationPatterns(
              p, p.getContext());
        })) ||
        // Elementwise ops before broadcasts and transposes
        // (extf(transpose(broadcast(read))) -> transpose(broadcast(extf(read))):
        // a 16-bit tile is widened to f32 as read, and the lane shuffles of
        // the register tile operate on f32. LLVM 22's AVX-512 code generator
        // miscompiled the bf16 shuffles of a 17-column tile (wrong results);
        // f32 tiles have no elementwise ops there and are unchanged.
        failed(apply([](RewritePatternSet &p) {
          vector::populateSinkVectorOpsPatterns(p);
        })) ||
        // Then broadcasts and transposes into the contractions' indexing
        // maps. A 16-bit filter-gradient tile reaches this pass as a
        // contraction of operands broadcast and transposed to its whole
        // iteration space (the extensions kept the vectorizer from
        // building the contraction on the reads); lowered like that, each
        // accumulator was a horizontal reduction: 6 GFLOP/s for bf16 and
        // f16 filter gradients against 75-90 once folded. f32 kernels are
        // unchanged (their contractions read their operands directly).
        failed(apply([](RewritePatternSet &p) {
          vector::populateVectorReductionToContractPatterns(p);
        })) ||
        failed(apply([](RewritePatternSet &p) {
          vector::populateCastAwayVectorLeadingOneDimPatterns(p);
        })) ||
        failed(apply([](RewritePatternSet &p) {
          p.add<BroadcastProductToOuterProduct>(p.getContext());
        })) ||
        failed(apply([](RewritePatternSet &p) {
          p.add<TransposedBroadcastToRowBroadcasts>(p.getContext());
        })) ||
        // Grouped tiles to lane shuffles and FMAs (before the outer
        // products).
        failed(apply([](RewritePatternSet &p) {
          conv::populateGroupedContractionPatterns(p);
          vector::TransposeOp::getCanonicalizationPatterns(p, p.getContext());
        })) ||
        // bf16 pair contractions to vdpbf16ps (before the outer products).
        (bf16Dot && !hasOddBF16Vectors(getOperation()) &&
         failed(apply([](RewritePatternSet &p) {
           conv::populateBF16DotProductPatterns(p);
         }))) ||

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
          // Last, so that the extensions have moved through the transposes
          // first (see above); also catches the transposes the transfer
          // permutation-map lowering creates.
          p.add<TransposeBitsOf16BitFloats>(p.getContext(), /*benefit=*/2);
          vector::populateVectorTransposeLoweringPatterns(
              p, vector::VectorTransposeLowering::Shuffle16x16);
        })))
      return signalPassFailure();
    // f32 -> bf16 roundings (the conversion of a 16-bit result) as integer
    // ops on the bits (round to nearest even; NaN stays NaN): without
    // AVX512-BF16, LLVM calls __truncsfbf2 for every element, also of a
    // vector.
    SmallVector<Operation *> truncations;
    getOperation().walk([&](arith::TruncFOp op) {
      if (getElementTypeOrSelf(op.getType()).isBF16())
        truncations.push_back(op);
    });
    if (!truncations.empty()) {
      RewritePatternSet patterns(ctx);
      arith::populateExpandBFloat16Patterns(patterns);
      if (failed(applyOpPatternsGreedily(truncations, std::move(patterns))))
        return signalPassFailure();
    }
  }
};
} // namespace

void mlir::conv::populateBF16DotProductPatterns(RewritePatternSet &patterns) {
  patterns.add<BF16PairContractionToDot, FlattenPairRead,
               PairRowExtractsToLoads>(patterns.getContext());
}

void mlir::conv::populateGroupedContractionPatterns(
    RewritePatternSet &patterns) {
  patterns.add<GroupedContractionToShuffles>(patterns.getContext());
}
