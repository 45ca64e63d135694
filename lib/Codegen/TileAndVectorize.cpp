//===- TileAndVectorize.cpp - conv-cpu-tile-and-vectorize ------------------===//
//
// Register-tiles and vectorizes the contractions tagged by
// convert-conv-to-linalg (see Passes.td and docs/Codegen.md):
//
//   1. reduction blocking: one batch item and one row of every output
//      dimension but the last per iteration (the accumulator tile is then
//      reused across a whole row of the reduction);
//   2. a register tile (rows x vector columns of accumulators) plus an inner
//      reduction chunk, with the reduction loops inside the tile loops;
//   3. peeling of every tile loop that does not divide its range, so that
//      the main tiles have static shapes;
//   4. unit-dimension folding (which also turns the tap offsets of the
//      transposed convolution into slice offsets) and vectorization of the
//      static tiles to vector.contract.
//
// Relayouts (linalg.transpose ops of conv-cpu-channels-last) become square
// tiles of vector.transpose.
//
//===----------------------------------------------------------------------===//

#include "ZeroFills.h"
#include "conv/Codegen/Passes.h"
#include "conv/Conversion/ConvToLinalg/ConvToLinalg.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/ValueBoundsOpInterface.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/LoopInvariantCodeMotionUtils.h"

#include "llvm/TargetParser/Host.h"

#include <cctype>
#include <fstream>
#include <string>
#include <thread>

namespace mlir::conv {
#define GEN_PASS_DEF_CONVCPUTILEANDVECTORIZEPASS
#include "conv/Codegen/Passes.h.inc"
} // namespace mlir::conv

using namespace mlir;
using namespace mlir::conv;

/// The host's vector and cache facts, read from the CPU and sysfs.
static HostVectorInfo readHostVectorInfo() {
  HostVectorInfo info;
  llvm::StringMap<bool> features = llvm::sys::getHostCPUFeatures();
  auto has = [&](llvm::StringRef f) {
    auto it = features.find(f);
    return it != features.end() && it->second;
  };
  if (has("avx512f")) {
    info.vectorBits = 512;
    info.numRegisters = 32;
    info.bf16Dot = has("avx512bf16");
    bool zen = llvm::sys::getHostCPUName().starts_with("znver");
    info.bf16DotFast = info.bf16Dot && zen;
    info.twoZmmFMAUnits = !zen;
  } else if (has("avx")) {
    info.vectorBits = 256;
    info.numRegisters = 16;
  }
  // Per-core cache sizes (Linux sysfs; the defaults stay elsewhere).
  for (int index = 0; index < 16; ++index) {
    std::string dir = "/sys/devices/system/cpu/cpu0/cache/index" +
                      std::to_string(index) + "/";
    std::ifstream levelFile(dir + "level"), typeFile(dir + "type"),
        sizeFile(dir + "size");
    int level = 0;
    std::string type, size;
    if (!(levelFile >> level) || !(typeFile >> type) || !(sizeFile >> size))
      break;
    int64_t bytes = 0;
    size_t pos = 0;
    while (pos < size.size() && std::isdigit(static_cast<unsigned char>(size[pos])))
      bytes = bytes * 10 + (size[pos++] - '0');
    if (pos < size.size() && (size[pos] == 'K' || size[pos] == 'k'))
      bytes *= 1024;
    else if (pos < size.size() && size[pos] == 'M')
      bytes *= 1024 * 1024;
    if (bytes <= 0)
      continue;
    if (level == 1 && type == "Data")
      info.l1Bytes = bytes;
    else if (level == 2 && type != "Instruction")
      info.l2Bytes = bytes;
    else if (level == 3 && type != "Instruction")
      info.l3Bytes = bytes;
  }
  return info;
}

HostVectorInfo HostVectorInfo::detect() {
  // Read once per process: every compile's pipeline builders and passes
  // ask (four to five times a kernel), and the host does not change.
  static const HostVectorInfo info = readHostVectorInfo();
  return info;
}

namespace {

/// Register-tile sizes still to apply to a cache-blocked op.
constexpr llvm::StringLiteral kInnerSizesAttr = "conv.inner_tile_sizes";
/// Loop order of the register-tile loops (default: the op's loop order).
constexpr llvm::StringLiteral kInnerInterchangeAttr =
    "conv.inner_tile_interchange";

/// Dimensions whose register-tile loops LLVM's unroller may unroll (the
/// taps of a transposed convolution's tile: conv-cpu-annotate-loop-unrolling
/// disables it for every other loop).
constexpr llvm::StringLiteral kUnrollDimsAttr = "conv.llvm_unroll_dims";
/// Dimensions whose register-tile loops (of a dynamic trip count) LLVM
/// unrolls twice, with a remainder iteration (conv.llvm_unroll_count).
constexpr llvm::StringLiteral kUnrollTwiceDimsAttr =
    "conv.llvm_unroll_twice_dims";

/// Marks tiles (then their register-tile loops) whose accumulator rows run
/// along the batch: see runOnOperation.
constexpr llvm::StringLiteral kHoistEarlyAttr = "conv.hoist_early";
/// The most accumulators (vectors) of a tap-row register tile: as many
/// vectors of groups as keep K x Cf rows of them within it. conv-run
/// --compare against one vector (10-16 call pairs, 1 thread, Emerald Rapids):
/// 32 groups of 2 -> 2 (6 rows) with 4 vectors +31 % (2: +24 %), 32 groups
/// of 4 -> 4 in 2-D (12 rows) with 2 +8 %, ResNeXt's 3-D layer with 2
/// +2 / -1 % (1 / 2 threads).
constexpr int64_t kMaxTapRowAccumulators = 24;

/// Dense tap rows (an ungrouped layer's tap-row contraction): the input
/// channels of a register tile (x K taps x one vector of output channels),
/// how many times LLVM unrolls its loop over the window positions, and the
/// mark of such tiles (see the tiling).
constexpr int64_t kDenseTapRowChannels = 4;
constexpr int64_t kDenseTapRowUnroll = 8;
constexpr llvm::StringLiteral kDenseTapRowsAttr = "conv.dense_tap_rows";

/// How many positions ahead a tap-row tile's loop prefetches its rows.
/// conv-run --compare (10 call pairs, 1 thread, Emerald Rapids, ResNeXt's
/// 3-D layer; group blocks outermost then): against no prefetch 4 +6 %,
/// 8 +18 %, 16 +18 %; 32 +2 % over 16. (With the group blocks inside the
/// rows, 24 measured as 16.)
constexpr int64_t kTapRowPrefetchDistance = 16;

/// The loop dimensions of a tap-row or tap-plane tile (kRoleDwTapRow,
/// kRoleDwDepthwisePlane) whose register-tile loops are unrolled (fully, before
/// vectorization: the taps' accumulators then live in registers across the
/// reduction loops together).
constexpr llvm::StringLiteral kUnrollTapsDimAttr = "conv.unroll_taps_dims";
/// Marks tiles whose register tiles' innermost reduction loop gets
/// conv.prefetch_rows (see tileOne).
constexpr llvm::StringLiteral kPrefetchRowsOpAttr = "conv.prefetch_rows_op";
/// Marks conv.dw_stream tiles whose register tiles' innermost reduction
/// loop gets conv.prefetch_rhs (see tileOne).
constexpr llvm::StringLiteral kPrefetchStreamOpAttr =
    "conv.prefetch_stream_op";
/// Marks conv.dw_stream tiles whose prefetches go to the L2 only
/// (conv.prefetch_l2 on their loop; see tileOne).
constexpr llvm::StringLiteral kPrefetchStreamL2OpAttr =
    "conv.prefetch_stream_l2_op";
/// Marks conv.prefetch_rows tiles whose prefetches go to the L2 only, each
/// line of the next block from one of the register tiles that sweep it
/// (conv.prefetch_l2 on their loop, conv.prefetch_tiles on the loop over
/// those tiles; see tileOne). Its value: the positions of a reduction
/// block, the distance of the next one (conv.prefetch_distance).
constexpr llvm::StringLiteral kPrefetchRowsL2OpAttr =
    "conv.prefetch_rows_l2_op";
/// The most register tiles sweeping each block of a 1x1 filter gradient's
/// whole-dW tiles for which cores with two 512-bit FMA units prefetch the
/// next block (see the heuristic in the filter-gradient tiling).
constexpr int64_t kMaxPrefetchL2Sweeps = 16;

/// Work (FLOPs) per element copied for which a filter gradient copies an
/// operand to a conflict-free row pitch (see repitchInput): the copy costs
/// about one streaming pass, a few percent of such a contraction.
constexpr int64_t kRepitchFlopsPerElement = 1024;
/// Row pitches (bytes) that repitchInput widens: multiples of 512 bytes
/// put a column block's rows in at most 8 of the L1's 64 sets. (256-byte
/// rows, 16 sets: db2 0.88-0.89x, db7 0.94-1.00x, rn3 1.01x widened.)
/// Without AVX-512 only (see tileOne).
constexpr int64_t kRepitchRowBytes = 512;
/// Row panels (packRowPanels): the smallest input row pitch (bytes between
/// consecutive reduction positions of a ci column) that gets its panels
/// packed, and the largest panel (bytes), a part of the L1 beside the
/// out_backprop rows that the column tiles stream.
constexpr int64_t kPanelMinPitchBytes = 1024;
constexpr int64_t kPanelMaxBytes = 16 * 1024;
/// The fewest co tiles that must read a panel for the copy to pay (ResNet's
/// 3x3 stride-2 128 -> 128, 2 tiles of 64 columns: -5 % with 1 thread).
constexpr int64_t kPanelMinColumnTiles = 4;

/// Rows of the 4-vector register tiles (widenRegisterTile).
constexpr int64_t kWideTileRows = 6;

/// A filter gradient's reduction block is a whole output row when that row
/// of input and out_backprop takes at most this many eighths of the L1.
constexpr int64_t kWholeRowL1Eighths = 7;

/// Elements from which a relayout with no outer dimension to split (a 2-D
/// transpose) is split over threads along one of its inner dimensions; a
/// smaller one costs about as much as the fork.
constexpr int64_t kMinThreadedRelayout = 64 * 1024;

/// The most rows of a filter gradient's register tile when all its rows fit
/// one tile (see tileOne).
constexpr int64_t kMaxRegisterTileRows = 12;

/// Marks the innermost tiles that are to be vectorized.
constexpr llvm::StringLiteral kVectorizeAttr = "conv.vectorize";

/// The loop dimension of a register tile's vector columns (the output
/// channels): a static tile whose width there is not a multiple of the
/// vector width is split before vectorization (see runOnOperation).
constexpr llvm::StringLiteral kColsDimAttr = "conv.cols_dim";

/// Marks cache-blocked tiles whose init is a zero fill to fuse into their
/// register tiles (the accumulators then start from zero in registers).
constexpr llvm::StringLiteral kFillInnerAttr = "conv.fill_inner";

/// Marks, for a moment (zeroStartFirstBlocks), the loops of a cache-block
/// tiling and their clones.
constexpr llvm::StringLiteral kBlockLoopAttr = "conv.block_loop";

/// Marks a cache block's row-gather pack tile (fuseInputPack) that is not
/// copied: the register tiles' vector reads of it read the input runs it
/// copies instead (ReadRowsFromInput). A tile some other user still reads
/// afterwards is copied as usual.
constexpr llvm::StringLiteral kDirectRowsAttr = "conv.direct_rows";

/// Register tile: `rows` accumulator rows of `cols` elements.
struct RegisterTile {
  int64_t rows = 1;
  int64_t cols = 1;
  int64_t reductionChunk = 1;
};

struct TileAndVectorize
    : public conv::impl::ConvCPUTileAndVectorizePassBase<TileAndVectorize> {
  using Base::Base;

  void runOnOperation() override;

private:
  RegisterTile registerTile(Type accType, int64_t defaultChunk) const;
  bool widenRegisterTile(RegisterTile &t, Type accType,
                         int64_t colExtent) const;
  LogicalResult tileOne(RewriterBase &rewriter, linalg::GenericOp op);
  LogicalResult tileInner(RewriterBase &rewriter, linalg::GenericOp op);
  SmallVector<linalg::GenericOp> packRowPanels(RewriterBase &rewriter,
                                               linalg::GenericOp op);
  linalg::GenericOp fuseInputPack(RewriterBase &rewriter,
                                  linalg::GenericOp op);
  LogicalResult tileRelayout(RewriterBase &rewriter, linalg::TransposeOp op);
  LogicalResult tileRowAdd(RewriterBase &rewriter, linalg::GenericOp op);
  LogicalResult tileCast(RewriterBase &rewriter, linalg::GenericOp op);
  LogicalResult tilePairPack(RewriterBase &rewriter, linalg::GenericOp op);
  Operation *threadOverFirstDim(RewriterBase &rewriter, Operation *op,
                                bool orLast = false);
  linalg::GenericOp threadOverFirstDim(RewriterBase &rewriter,
                                       linalg::GenericOp op) {
    return cast_or_null<linalg::GenericOp>(
        threadOverFirstDim(rewriter, op.getOperation()));
  }
  LogicalResult tileRowGather(RewriterBase &rewriter, linalg::GenericOp op);
  LogicalResult tileTransposedPack(RewriterBase &rewriter,
                                   linalg::GenericOp packTile);
  void vectorizeTiles(RewriterBase &rewriter, func::FuncOp func);
  void threadFills(RewriterBase &rewriter, func::FuncOp func);
  LogicalResult tileRows(RewriterBase &rewriter, linalg::GenericOp op,
                         int64_t chunk);
  bool repitchInput(RewriterBase &rewriter, linalg::GenericOp op,
                    unsigned index);
  /// Elements of `elementType` per native vector.
  int64_t lanes(Type elementType) const;
  /// The target's vector registers (num-vector-registers, or the host's).
  unsigned vectorRegisters() const {
    return numVectorRegisters ? numVectorRegisters : host.numRegisters;
  }
  int64_t threadCount() const;
  /// The threads that the thread-level tiling splits `op` over: the thread
  /// count, or 1 inside scf.foralls that already have as many iterations.
  int64_t threadsSplitting(Operation *op) const;
  HostVectorInfo host;
  /// Operands already copied to a conflict-free row pitch.
  llvm::DenseSet<Value> repitched;
  /// The function's transpose_phase contractions (before tiling).
  int64_t numPhaseContractions = 0;
  /// The output slices of the transpose_phase contractions that carry
  /// kPhaseWindowAttrName (their init, or the init of their zero fill):
  /// where phaseRowOffsets stops.
  llvm::DenseSet<Value> phaseOutputs;
  std::optional<SmallVector<OpFoldResult>>
  phaseRowOffsets(linalg::GenericOp op, int64_t resultDim) const;
  void clipPhaseTaps(RewriterBase &rewriter, ArrayRef<int64_t> window,
                     ArrayRef<SmallVector<OpFoldResult>> rowOffsets,
                     ArrayRef<LoopLikeOpInterface> parallelLoops,
                     ArrayRef<int64_t> parallelDims,
                     ArrayRef<LoopLikeOpInterface> tapLoops,
                     ArrayRef<int64_t> tapLoopDims);
};

/// Tiles `op` with `sizes`; replaces it and returns the tiled op and loops.
FailureOr<scf::SCFTilingResult> tile(RewriterBase &rewriter,
                                     TilingInterface op,
                                     ArrayRef<int64_t> sizes,
                                     bool forall = false,
                                     ArrayRef<int64_t> interchange = {}) {
  scf::SCFTilingOptions options;
  if (forall)
    options.setLoopType(scf::SCFTilingOptions::LoopType::ForallOp);
  if (!interchange.empty())
    options.setInterchange(interchange);
  SmallVector<OpFoldResult> ofr;
  for (int64_t s : sizes)
    ofr.push_back(rewriter.getIndexAttr(s));
  options.setTileSizes(ofr);
  rewriter.setInsertionPoint(op);
  auto result = scf::tileUsingSCF(rewriter, op, options);
  if (failed(result))
    return failure();
  rewriter.replaceOp(op, result->replacements);
  return result;
}

FailureOr<scf::SCFTilingResult> tile(RewriterBase &rewriter,
                                     linalg::GenericOp op,
                                     ArrayRef<int64_t> sizes,
                                     bool forall = false,
                                     ArrayRef<int64_t> interchange = {}) {
  return tile(rewriter, cast<TilingInterface>(op.getOperation()), sizes,
              forall, interchange);
}

/// Tiles `op` with `sizes`, marks the tile for vectorization and peels the
/// loops whose step does not divide their range.
LogicalResult tileForVectorization(RewriterBase &rewriter,
                                   linalg::GenericOp op,
                                   ArrayRef<int64_t> sizes);

/// Tiles `op` like `tile`, fusing the linalg.fill that produces its init
/// (a zero-started accumulator) into the tiles; the tile sizes must not
/// split a reduction dimension (every tile would restart from zero).
FailureOr<scf::SCFTilingResult>
tileFusingFill(RewriterBase &rewriter, linalg::GenericOp op,
               ArrayRef<int64_t> sizes, bool forall = false,
               ArrayRef<int64_t> interchange = {}) {
  scf::SCFTilingOptions tilingOptions;
  if (forall)
    tilingOptions.setLoopType(scf::SCFTilingOptions::LoopType::ForallOp);
  if (!interchange.empty())
    tilingOptions.setInterchange(interchange);
  SmallVector<OpFoldResult> ofr;
  for (int64_t s : sizes)
    ofr.push_back(rewriter.getIndexAttr(s));
  tilingOptions.setTileSizes(ofr);
  scf::SCFTileAndFuseOptions options;
  options.setTilingOptions(tilingOptions);
  options.setFusionControlFn(
      [](tensor::ExtractSliceOp, OpResult producer, bool isDestination)
          -> std::optional<scf::SCFTileAndFuseOptions::ControlFnResult> {
        if (isDestination && isa<linalg::FillOp>(producer.getOwner()))
          return scf::SCFTileAndFuseOptions::ControlFnResult{};
        return std::nullopt;
      });
  rewriter.setInsertionPoint(op);
  auto result = scf::tileConsumerAndFuseProducersUsingSCF(
      rewriter, cast<TilingInterface>(op.getOperation()), options);
  if (failed(result))
    return failure();
  SmallVector<Value> replacements;
  for (OpResult res : op->getResults())
    replacements.push_back(result->replacements.lookup(res));
  auto fill = op.getDpsInits()[0].getDefiningOp<linalg::FillOp>();
  rewriter.replaceOp(op, replacements);
  if (fill && fill->use_empty())
    rewriter.eraseOp(fill);
  scf::SCFTilingResult tiled;
  tiled.tiledOps.push_back(result->tiledAndFusedOps.front());
  tiled.loops = result->loops;
  return tiled;
}

/// Whether `op`'s (only) init is a linalg.fill.
bool hasFilledInit(linalg::GenericOp op) {
  return op.getNumDpsInits() == 1 &&
         op.getDpsInits()[0].getDefiningOp<linalg::FillOp>();
}

/// Peels every scf.for of `loops` (innermost first) whose step does not
/// divide its range, so that the main iterations have static tile sizes.
void peelLoops(RewriterBase &rewriter, ArrayRef<LoopLikeOpInterface> loops) {
  for (LoopLikeOpInterface loop : llvm::reverse(loops)) {
    auto forOp = dyn_cast<scf::ForOp>(loop.getOperation());
    if (!forOp)
      continue;
    scf::ForOp partial;
    (void)scf::peelForLoopAndSimplifyBounds(rewriter, forOp, partial);
  }
}

LogicalResult tileForVectorization(RewriterBase &rewriter,
                                   linalg::GenericOp op,
                                   ArrayRef<int64_t> sizes) {
  auto tiled = tile(rewriter, op, sizes);
  if (failed(tiled))
    return failure();
  tiled->tiledOps.back()->setAttr(kVectorizeAttr, rewriter.getUnitAttr());
  peelLoops(rewriter, tiled->loops);
  return success();
}

} // namespace

/// Every loaded dialect's and registered op's canonicalization patterns.
static void addCanonicalizationPatterns(MLIRContext *ctx,
                                        RewritePatternSet &patterns) {
  for (Dialect *dialect : ctx->getLoadedDialects())
    dialect->getCanonicalizationPatterns(patterns);
  for (RegisteredOperationName op : ctx->getRegisteredOperations())
    op.getCanonicalizationPatterns(patterns, ctx);
}

/// See the definitions below.
static SmallVector<int64_t> tiledLoopDims(ArrayRef<LoopLikeOpInterface> loops,
                                          ArrayRef<int64_t> sizes,
                                          ArrayRef<int64_t> interchange);
static void zeroStartFirstBlocks(RewriterBase &rewriter,
                                 ArrayRef<LoopLikeOpInterface> loops,
                                 ArrayRef<int64_t> sizes,
                                 ArrayRef<int64_t> interchange,
                                 ArrayRef<utils::IteratorType> iterators);

int64_t TileAndVectorize::lanes(Type elementType) const {
  unsigned bits = vectorBits ? vectorBits : host.vectorBits;
  return std::max<int64_t>(
      1, bits / std::max<int64_t>(8, elementType.getIntOrFloatBitWidth()));
}

RegisterTile TileAndVectorize::registerTile(Type accType,
                                            int64_t defaultChunk) const {
  unsigned regs = vectorRegisters();
  RegisterTile t;
  int64_t vectors = registerTileVectors ? registerTileVectors : 2;
  t.cols = vectors * lanes(accType);
  // Accumulators rows x vectors, plus `vectors` operand registers and one
  // broadcast register.
  int64_t rows = (static_cast<int64_t>(regs) - vectors - 1) / vectors;
  t.rows = registerTileRows ? registerTileRows : std::clamp<int64_t>(rows, 1, 8);
  t.reductionChunk = reductionChunk ? reductionChunk : defaultChunk;
  return t;
}

/// Makes `t` a tile of kWideTileRows rows x 4 vectors (24 f32 accumulators,
/// 4 column operands and a broadcast) when the register tile is not
/// overridden, the accumulators are f32, the target has the registers for
/// it (32 on AVX-512) and the columns span at least 4 vectors; returns
/// whether it did. Filter gradients and transpose phases use it (see
/// their rules in tileOne).
bool TileAndVectorize::widenRegisterTile(RegisterTile &t, Type accType,
                                         int64_t colExtent) const {
  if (registerTileRows || registerTileVectors || !accType.isF32())
    return false;
  unsigned regs = vectorRegisters();
  if ((static_cast<int64_t>(regs) - 4 - 1) / 4 < kWideTileRows ||
      colExtent < 4 * lanes(accType))
    return false;
  t.cols = 4 * lanes(accType);
  t.rows = kWideTileRows;
  return true;
}

/// Register-tile rows for a dimension of `extent` positions: the count up
/// to `maxRows` whose full tiles plus the one peeled remainder tile take
/// the least time. A tile of r rows x 2 vectors runs at a relative speed
/// measured on an AVX2 core (6 rows 1.0, 4 rows 0.89, 2 rows 0.56: fewer
/// accumulators than FMA latency x pipes leave the FMA units idle; the 1-,
/// 3- and 5-row speeds are interpolated, not measured), so an
/// 8-long row runs as 4 + 4 rather than 6 + 2, and a 7-long one as 4 + 3.
/// Tiles of `vectors` vectors count as tiles of `vectors / 2` times as many
/// 2-vector rows (the speed follows the accumulator count: a 4 x 4-vector
/// tile has the accumulators of 8 x 2). Of two counts equally fast the one
/// without a remainder tile wins: the remainder is a second copy of the
/// tile's loop nest (with 4-vector tiles of up to 6 rows, 28-long rows as
/// 6 x 4 + 4 doubled the code of 3x3 stride-2 layers' phases, 123 -> 264 KB
/// of LLVM dialect, against 7 x 4).
int64_t chooseRows(int64_t extent, int64_t maxRows, int64_t vectors = 2) {
  static constexpr double speed[] = {0.0, 0.3, 0.56, 0.75, 0.89, 0.95, 1.0};
  auto rowSpeed = [&](int64_t r) {
    return speed[std::min<int64_t>(r * std::max<int64_t>(1, vectors / 2), 6)];
  };
  int64_t best = maxRows;
  double bestCost = 0;
  bool bestRemainder = false;
  for (int64_t r = maxRows; r >= std::max<int64_t>(1, maxRows - 2); --r) {
    double cost = double(extent / r * r) / rowSpeed(r);
    bool remainder = extent % r != 0;
    if (remainder)
      cost += double(extent % r) / rowSpeed(extent % r);
    if (r == maxRows || cost < bestCost - 1e-9 ||
        (cost < bestCost + 1e-9 && bestRemainder && !remainder)) {
      best = r;
      bestCost = cost;
      bestRemainder = remainder;
    }
  }
  return best;
}

/// Register-tile columns for a dimension of `extent` elements: `cols`, or,
/// when the dimension is narrower than that but wider than one vector, its
/// largest multiple of the vector width (the rest is a peeled remainder
/// tile). A tile as wide as an extent that is not a multiple of the vector
/// width (21 columns with 16-lane AVX-512 vectors) is lowered to vectors of
/// that odd length, which LLVM splits into lane-by-lane shuffles and stack
/// spills: the 1-D masknet transpose ran at 5 % of peak.
int64_t chooseCols(int64_t extent, int64_t cols, int64_t lanes) {
  if (extent >= cols || extent <= lanes || extent % lanes == 0)
    return cols;
  return extent / lanes * lanes;
}

/// `op`'s loop ranges, with the constant upper bound of each dynamic one (a
/// filter gradient's rows cut to those that read the input, sized
/// `min(7, max(0, hi(k) - lo(k)))` for tap k), found through the value
/// bounds of an operand dimension it indexes; 1 when there is none.
SmallVector<int64_t> loopRangeBounds(linalg::GenericOp op) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  for (auto [loop, range] : llvm::enumerate(ranges)) {
    if (!ShapedType::isDynamic(range))
      continue;
    range = 1;
    for (OpOperand &operand : op->getOpOperands()) {
      AffineMap map = op.getMatchingIndexingMap(&operand);
      for (auto [pos, expr] : llvm::enumerate(map.getResults())) {
        auto dimExpr = dyn_cast<AffineDimExpr>(expr);
        if (!dimExpr || dimExpr.getPosition() != loop)
          continue;
        FailureOr<int64_t> bound = ValueBoundsConstraintSet::computeConstantBound(
            presburger::BoundType::UB,
            ValueBoundsConstraintSet::Variable(operand.get(), pos),
            /*stopCondition=*/nullptr, /*closedUB=*/true);
        if (succeeded(bound)) {
          range = std::max<int64_t>(1, *bound);
          break;
        }
      }
      if (range > 1)
        break;
    }
  }
  return ranges;
}

/// The row-gather pack (docs/Lowering.md §2.1) that `rows`, a filter
/// gradient's row operand, reads through an extract_slice and a
/// collapse_shape (each optional), with its leading dimensions' count `lead`
/// ([b, o...]), and whether its runs are unit-stride reads of a
/// single-channel input (its last input index `o_last + kf`: consecutive
/// output positions read consecutive input values).
/// Whole-tensor extract_slices between them (a thread block of all the
/// output channels slices the row operand whole) are looked through.
struct RowPack {
  linalg::GenericOp pack;
  tensor::CollapseShapeOp collapse;
  SmallVector<tensor::ExtractSliceOp> wholeSlices;
  int64_t lead = 0;
  bool unitStrideRuns = false;
};
/// Whether `slice` is its whole source (zero offsets, full sizes, unit
/// strides).
static bool isWholeSlice(tensor::ExtractSliceOp slice) {
  return slice.getSourceType() == slice.getType() && slice.hasUnitStride() &&
         llvm::all_of(slice.getMixedOffsets(), [](OpFoldResult offset) {
           return isConstantIntValue(offset, 0);
         });
}
std::optional<RowPack> findRowPack(Value rows) {
  RowPack result;
  if (auto slice = rows.getDefiningOp<tensor::ExtractSliceOp>())
    rows = slice.getSource();
  while (auto whole = rows.getDefiningOp<tensor::ExtractSliceOp>()) {
    if (!isWholeSlice(whole))
      return std::nullopt;
    result.wholeSlices.push_back(whole);
    rows = whole.getSource();
  }
  result.lead = cast<RankedTensorType>(rows.getType()).getRank() - 1;
  result.collapse = rows.getDefiningOp<tensor::CollapseShapeOp>();
  if (result.collapse)
    rows = result.collapse.getSrc();
  result.pack = rows.getDefiningOp<linalg::GenericOp>();
  if (!result.pack || result.pack.getNumDpsInputs() != 1 ||
      result.pack.getNumDpsInits() != 1)
    return std::nullopt;
  auto role = result.pack->getAttrOfType<StringAttr>(kRoleAttrName);
  if (!role || role.getValue() != kRoleRowGather)
    return std::nullopt;
  int64_t packRank = result.pack.getNumLoops();
  if (result.lead < 1 || result.lead >= packRank ||
      (result.collapse ? result.collapse.getReassociationIndices().size()
                       : size_t(packRank)) != size_t(result.lead + 1))
    return std::nullopt;
  MLIRContext *ctx = rows.getContext();
  AffineMap inputMap = result.pack.getIndexingMapsArray()[0];
  result.unitStrideRuns =
      inputMap.getNumResults() > 0 &&
      inputMap.getResults().back() ==
          getAffineDimExpr(result.lead - 1, ctx) +
              getAffineDimExpr(packRank - 1, ctx);
  return result;
}

/// The products of a transpose_phase contraction's output row along
/// spatial dimension `d` (`outputs` positions, `taps` taps) with the
/// zero padding of its phase window (`window`: the [lo, hi, dil] triples of
/// kPhaseWindowAttrName): the pairs (o, t) whose input row o + t * dil lies
/// outside [lo, hi).
static int64_t phaseWindowPadding(ArrayRef<int64_t> window, int64_t d,
                                  int64_t outputs, int64_t taps) {
  if (3 * d + 2 >= static_cast<int64_t>(window.size()))
    return 0;
  int64_t lo = window[3 * d], hi = window[3 * d + 1], dil = window[3 * d + 2];
  int64_t padding = 0;
  for (int64_t t = 0; t < taps; ++t) {
    // Outputs o in [0, outputs) with lo <= o + t * dil < hi read the input.
    int64_t first = std::max<int64_t>(0, lo - t * dil);
    int64_t last = std::min<int64_t>(outputs, hi - t * dil);
    padding += outputs - std::max<int64_t>(0, last - first);
  }
  return padding;
}

LogicalResult TileAndVectorize::tileOne(RewriterBase &rewriter,
                                        linalg::GenericOp op) {
  auto role = op->getAttrOfType<StringAttr>(kRoleAttrName);
  int64_t numLoops = op.getNumLoops();
  SmallVector<int64_t> outer(numLoops, 0), inner(numLoops, 0);
  Type accType =
      cast<RankedTensorType>(op.getDpsInits()[0].getType())
          .getElementType();
  bool channelsLast;
  int64_t threadDim = -1, threadAlign = 1;
  SmallVector<int64_t> ranges = loopRangeBounds(op);
  int64_t elemBytes = std::max<int64_t>(
      1, cast<RankedTensorType>(op.getDpsInputs()[0].getType())
                 .getElementTypeBitWidth() / 8);
  int64_t accBytes = std::max<int64_t>(1, accType.getIntOrFloatBitWidth() / 8);
  int64_t l1 = l1CacheBytes > 0 ? int64_t(l1CacheBytes) : host.l1Bytes;
  int64_t l2 = l2CacheBytes > 0 ? int64_t(l2CacheBytes) : host.l2Bytes;
  // Some heuristics differ on targets without AVX-512 (AVX2: 8-lane
  // vectors, 16 registers, 2-vector register tiles), each measured there.
  bool avx512 = (vectorBits ? vectorBits : host.vectorBits) >= 512;
  SmallVector<int64_t> interchange, innerInterchange, unrollDims,
      unrollTwiceDims;
  bool hoistEarly = false, fuseFill = false, prefetchRows = false,
       prefetchRowsL2 = false, prefetchStream = false, prefetchStreamL2 = false;
  int64_t colsDim = -1;
  // Filter gradients: the positions of a reduction block (0: unknown).
  int64_t blockPositions = 0;
  if (role.getValue() == kRoleDwTap) {
    // Loops [(g,) ci, co, b, o_0..o_{n-1}].
    int64_t outRank =
        cast<RankedTensorType>(op.getDpsInits()[0].getType()).getRank();
    bool grouped = outRank == 3;
    int64_t p = grouped ? 1 : 0, ci = p, co = p + 1, b = p + 2;
    // bf16 pairs (conv.dw_pairs): a last loop `e` of 2 after the output
    // positions, whose last loop then counts pairs of positions.
    bool pairs = op->hasAttr(kDwPairsAttrName);
    int64_t n = numLoops - b - 1 - (pairs ? 1 : 0);
    int64_t last = numLoops - 1 - (pairs ? 1 : 0);
    // Channels-last iff the input's last index is the ci loop (pairs: the
    // one before the pair index).
    AffineMap xMap = op.getIndexingMapsArray()[0];
    ArrayRef<AffineExpr> xResults = xMap.getResults();
    channelsLast =
        xResults.size() > (pairs ? 1u : 0u) &&
        xResults[xResults.size() - 1 - (pairs ? 1 : 0)] ==
            getAffineDimExpr(ci, op.getContext());
    // (Pairs: the blocks below are counted in chunks of 4 pairs, the 8
    // positions of the other tiles.) A contraction that streams
    // out_backprop once (conv.dw_stream, tiny-Cin layers with every tap
    // fused) steps 4 positions at a time too: its 9-row tiles broadcast 9
    // input values per position, and over 8 positions LLVM's scheduler
    // hoisted the 72 broadcasts and spilled them (a third of the samples of
    // the 48x480x1 -> 16 layer's loop sat on stack reloads). conv-run
    // --compare=reduction-chunk=4, 11-15 call pairs, 1 / 2 threads: VGG's
    // 224x224x3 -> 64 +16 / +13 %, the 48x480x1 -> 16 layer +10 / +2 %,
    // DeepBench's 108x108x3 -> 64 stride 2 +7 / +5 %; the other filter
    // gradients lost up to 31 % with 4 (DeepSpeech 5x10x32x32) and keep 8.
    RegisterTile t = registerTile(
        accType, /*defaultChunk=*/pairs || op->hasAttr(kDwStreamAttrName) ? 4
                                                                         : 8);
    // At least 4 vectors of output channels on a target with 32 vector
    // registers: tiles of 6 rows x 4 vectors (24 accumulators, 4 column
    // operands and a broadcast) instead of 8 x 2. Per reduction step they
    // load 6 broadcasts and 4 vectors for 24 FMAs instead of 8 + 2 for 16,
    // and each out_backprop row is read by a third fewer tiles. conv-run
    // --compare (median speed ratio of 20 alternating call pairs, ResNet-50
    // and DeepBench layers): 1 thread +0-13 % (12 of 14 layers over +5 %),
    // 2 threads +4-21 % on the 12 layers with 64 or more output channels
    // per thread. With 32 (2 vectors, as 3x3 64 -> 64 and 5x5 192 -> 32
    // layers per thread with 2 threads) the 6-row tiles were slower than
    // 8 x 2, which those keep.
    // (Not for fewer than 48 input-channel rows: 27 rows ran as 3 x 9 rows
    // of 2 vectors, 4 x 6 + 3 would add a remainder tile.)
    if (!pairs && !grouped && ranges[ci] >= 8 * kWideTileRows)
      (void)widenRegisterTile(t, accType, ranges[co]);
    // Fewer rows (12 to 47: a tiny-Cin filter's fused taps, e.g. 7 x 3
    // for a 7x7 stem) that some count of 3 to kWideTileRows divides: tiles
    // of that many rows (the most) x 4 vectors, one broadcast per 4 FMAs
    // instead of per 2, and no remainder tile. conv-run --compare (medians
    // of 25 alternating call pairs, 1 / 2 threads, Zen 4): ResNet's 7x7 s2
    // stem (21 rows: 7 x 3 x 4 vectors instead of 8 + 8 + 5 x 2 vectors)
    // +6 / +12 %, its fastest-of-3 compile 195 -> 89 ms with 1 thread.
    // Not for a contraction that streams out_backprop once (conv.dw_stream,
    // every tap fused): 27 rows of the 3x3 tiny-Cin layers as 9 x 3 ran
    // +2-10 % with 1 thread but -10-12 % with 2 (their prefetched rows).
    else if (!pairs && !grouped && !op->hasAttr(kDwStreamAttrName) &&
             ranges[ci] >= 2 * kWideTileRows) {
      RegisterTile wide = t;
      if (widenRegisterTile(wide, accType, ranges[co]))
        for (int64_t r = kWideTileRows; r >= 3; --r)
          if (ranges[ci] % r == 0) {
            wide.rows = r;
            t = wide;
            break;
          }
    }
    // Tiles of 2 vectors a row (at most 32 f32 output channels, or a
    // thread's 32 of 64) on a core with two 512-bit FMA units: 12 rows (24
    // accumulators) instead of 8, a third fewer passes over out_backprop's
    // rows. conv-run --compare=register-tile-rows=12 (10 call pairs,
    // Emerald Rapids, 1 / 2 threads): GoogLeNet's 5x5 192 -> 32 +8 / +9 %,
    // WaveNet's k2 32 -> 32 layers +11 / +4-9 % and +8 / +4 %; mixed with
    // 32 input channels of several taps (12 + 12 + 8 rows): DeepSpeech's
    // 5x10 32 -> 32 +3-5 / -5-6 %, 3-D U-Net's 32-channel layers 0 / -2-4 %.
    // Not for rows that are fused taps read from a row-gather pack (tiny
    // Cin, the last kernel dimension fused into the rows): DeepSpeech's
    // 161x700x1 -> 32 5x20 layer's 20 rows ran as 12 + 8 rows 18-23 % slower
    // than as the row-pack tiles' 2 x 10 (1 / 2 threads, against an 8-row
    // override: 8 + 8 + 4); nor for a contraction that streams
    // out_backprop once (conv.dw_stream, every tap fused), whose tiles have
    // rules of their own above.
    bool narrowTwoZmmTiles =
        twoZmmFMAUnits && !pairs && !grouped &&
        !op->hasAttr(kDwStreamAttrName) && accType.isF32() &&
        t.cols == 2 * lanes(accType) && ranges[co] <= t.cols &&
        !findRowPack(op.getDpsInputs()[0]);
    if (narrowTwoZmmTiles && !registerTileRows)
      t.rows = std::max(t.rows, kMaxRegisterTileRows);
    if (grouped)
      outer[0] = 1;
    // Groups with few channels (2-4 output channels per group for f32 on
    // AVX-512, a multiple of the groups filling a vector): the register
    // tile's columns run over (g, co), several groups at once, and its rows
    // over ci; each input value is broadcast over its group's lanes by a
    // lane shuffle (conv-cpu-lower-vectors, GroupedContractionToShuffles).
    // Per group the tile would be ci x co accumulators a few lanes wide.
    // (8 output channels per group keep the per-group tiles on AVX-512:
    // half a vector, with broadcasts from memory, measured faster than a
    // shuffle per FMA. With 8-lane AVX2 vectors, 2 groups of 4 a vector
    // already win: ResNeXt's 4 x 4 groups (conv-run --compare, 8 call
    // pairs, Zen 3) +54 / +52 % with 1 / 2 threads, 45 -> 70 GFLOP/s.
    // Single-channel groups would need unit dimensions the vector lowering
    // folds away first.)
    int64_t laneGroups = 0;
    if (grouped && channelsLast && accType.isF32() && ranges[co] >= 2 &&
        ranges[ci] >= 2 &&
        (lanes(accType) >= 16 ? 4 : 2) * ranges[co] <= lanes(accType) &&
        lanes(accType) % ranges[co] == 0 &&
        ranges[0] * ranges[co] % lanes(accType) == 0 &&
        ranges[ci] <= kMaxRegisterTileRows) {
      int64_t perVector = lanes(accType) / ranges[co];
      unsigned regs = vectorRegisters();
      // Half the registers hold accumulators (ci rows of `vectors`); the
      // rest the column operands, the read input rows and their shuffles
      // (ResNeXt's 4 x 4 groups: 16 accumulators 56 GFLOP/s with 1 thread,
      // 8: 37, 4: 33).
      int64_t vectors = std::max<int64_t>(
          1, (static_cast<int64_t>(regs) / 2) / ranges[ci]);
      vectors = std::min(vectors, ranges[0] / perVector);
      while (ranges[0] % (vectors * perVector) != 0)
        --vectors;
      laneGroups = vectors * perVector;
      outer[0] = laneGroups == ranges[0] ? 0 : laneGroups;
    }
    // (ci, co) cache block: when a tap's dW does not fit half the L2 (it
    // would stream from L3 once per reduction block), the block of it
    // that every reduction block sweeps over is cut to half the L1 (the loops
    // over the blocks are outermost, so the whole reduction runs per block,
    // re-reading the input and out_backprop once per block), but never to
    // fewer ci rows than co columns: a square block shares each element of
    // the activations it reads with the most accumulators. (AVX2: 60 x 64,
    // half the L1 either way. AVX-512: 128 x 128 = 64 KiB instead of 32 x
    // 128; 512-channel 3x3 layers +4-13 %, strided 1x1 +14 % with 1
    // thread.) Smaller dW tiles stay whole: re-reading the activations would
    // cost more. Half the L2 leaves a quarter-L2 reduction block beside
    // the dW (a quarter had blocked the 1 MiB dWs of 512 x 512 taps and of
    // ResNet's 1x1 1024 -> 256 on a 2 MiB L2). conv-run, half against a
    // quarter (15-21 alternating call pairs, Emerald Rapids, 1 / 2
    // threads): 14x14x1024 -> 256 1x1 +6-7 % (1 thread; with 2 each
    // thread's half was whole already), 7x7x512 -> 512 3x3 +5 % (N16) and
    // +2 % (N8), the dilated 38x57x512 -> 512 +5 / +3 %, DeepBench's
    // 10x42x512 -> 512 +6 / +6 %, a 1x1 s2 28x28x512 -> 1024 +8 % (2
    // threads). (The whole L2: a 2 MiB dW half of 7x7x2048 -> 512 -6 %
    // with 2 threads.)
    int64_t ciBlock = ranges[ci], coBlock = ranges[co];
    auto contractions = op->getAttrOfType<IntegerAttr>(kDwContractionsAttrName);
    bool singleContraction = contractions && contractions.getInt() == 1;
    // The ci rows of a block whose x and dY rows the reduction blocks
    // below are sized for (the L1 block).
    int64_t l1CiBlock = ciBlock;
    if (ciBlock * coBlock * accBytes > l2 / 2) {
      coBlock = std::min(ranges[co], 4 * t.cols);
      ciBlock = std::min(
          ranges[ci],
          std::max({t.rows, coBlock / t.rows * t.rows,
                    l1 / 2 / (coBlock * accBytes) / t.rows * t.rows}));
      // A block up to a tile's rows larger that divides the channels (252
      // -> 256 of 1024 with 6-row tiles): no remainder block, a second copy
      // of the whole nest.
      auto dividingBlock = [&](int64_t rows) {
        for (int64_t b = rows; b < rows + t.rows && b <= ranges[ci]; ++b)
          if (ranges[ci] % b == 0)
            return b;
        return rows;
      };
      ciBlock = dividingBlock(ciBlock);
      // With AVX-512, the co block takes every output channel when that
      // block still fits half the L2: each pass over the input
      // then serves all of dY's channels (the input, the wider operand of
      // ResNet's 7x7x2048 -> 512, is read once per call instead of twice).
      // conv-run, 256 x 512 blocks against 256 x 256 (three runs of 9-11
      // alternating call pairs, 1 / 2 threads, Emerald Rapids' 2 MiB L2):
      // that layer +5-15 / +5-12 %, a 1024 -> 272 one +6 % (1 thread).
      // (512 x 512, half the L2: +8 / -1 %; 128 x 512: +1 / +3 %; 512 x
      // 256: +3 / +3 %.) Until stop 76 the bound was a quarter of the L2,
      // which the 1.25 MiB L2 of Ice Lake kept that layer's 256 x 512
      // blocks (512 KiB) under: with them, conv-run --compare (15-30
      // alternating call pairs, 1 / 2 threads) +6 / +3-6 %; the blocks of
      // the 3x3 512 -> 512 taps with 1 thread (256 x 512, now with row
      // panels) +6 % (N8), +9 % (N16), the dilated 38x57x512 +3 / +4 %.
      if (avx512 && coBlock < ranges[co] &&
          ciBlock * ranges[co] * accBytes <= l2 / 2)
        coBlock = ranges[co];
      l1CiBlock = ciBlock;
      // Without AVX-512, a single contraction (1x1 filters) takes a
      // quarter of the L2 of ci rows per block instead: every block
      // streams all of out_backprop's rows, so a 64 x 64 block of a
      // 1024 -> 256 layer read them 16 times. Its reduction blocks keep the
      // L1 block's length: out_backprop's rows of a reduction block stay in
      // the L1 while the block's ci tiles read their input columns from the
      // L2, and its dW block waits there. conv-run --compare, 1 / 2
      // threads, Zen 3: this rule against the 64-row blocks (30 call
      // pairs) ResNet's 14x14x1024 -> 256 +5 / +12 %, 56x56x256 -> 512 s2
      // (its 256 ci rows whole) +5 / +4 %, 7x7x2048 -> 512 0 / -1 %; for
      // the first, blocks of 96, 128, 192 or 256 rows with the same 2-row
      // reduction blocks (24 pairs) +7 to +17 %. (Reduction blocks sized
      // for half the L1 from the wider rows were 24-33 % slower.)
      if (!avx512 && singleContraction && ciBlock < ranges[ci]) {
        int64_t wide =
            dividingBlock(l2 / 4 / (coBlock * accBytes) / t.rows * t.rows);
        ciBlock = std::clamp(wide, ciBlock, ranges[ci]);
        if (ciBlock == ranges[ci] && coBlock == ranges[co])
          ciBlock = l1CiBlock;
      }
      if (ciBlock < ranges[ci])
        outer[ci] = ciBlock;
      if (coBlock < ranges[co])
        outer[co] = coBlock;
    }
    // The input's rows are read in narrow column blocks (a register tile's
    // ci rows, swept by every co tile of its reduction block): keep those
    // rows from falling into the same L1 sets, whether or not the channels
    // are blocked (rn12, 7x7x2048 -> 512, blocked: 50 -> 70 GFLOP/s with 1
    // thread; rn8, 28x28x128 -> 128 3x3, whole: +17 / +18 % with 1 / 2
    // threads). out_backprop's rows only when its channels are blocked: a
    // whole-dW tile streams them once per ci tile either way (rn8 / dl2
    // 0.94-1.02x copied).
    // Not with AVX-512 (4-vector register tiles: a ci column block is
    // re-read by a quarter as many co tiles as with AVX2's 2-vector ones).
    // conv-run, alternating processes with and without, 11 pairs, 1 / 2
    // threads, Zen 4: the 512-byte and whole-dW widening cost ResNet's 3x3
    // s2 56x56x128 -5 / -8 %, 3x3 28x28x128 -2 / -5 %, 1x1 s2 56x56x256 ->
    // 512 -1 / -4 %, 7x7x512 3x3 (2 threads) -5 %. The widening of
    // channel-blocked rows of a multiple of 1 KiB, kept after those runs,
    // no longer paid once the 1x1 blocks reduced several images per
    // register tile (conv-bench, 4 alternating runs with and without,
    // medians, 1 / 2 threads, Zen 4): rn12 (7x7x2048 -> 512, both operands
    // copied) +3 / +4 % without it, the channel-blocked 3x3 layers (their
    // padded copies one line wider: db6, db9, dl1, rn11) within +-2 %.
    if (channelsLast && !grouped && !pairs && !avx512) {
      AffineMap dyMap = op.getIndexingMapsArray()[1];
      repitchInput(rewriter, op, 0);
      if (coBlock < ranges[co] &&
          dyMap.getResults().back() == getAffineDimExpr(co, op.getContext()))
        repitchInput(rewriter, op, 1);
    }
    outer[b] = 1;
    for (int64_t d = 0; d + 1 < n; ++d)
      outer[b + 1 + d] = 1;
    // Block the last output dimension so that a block of input and
    // out_backprop rows stays in L1 while every (ci, co) tile of the tap
    // walks over it.
    // Groups: the group loop is the innermost block loop (below the
    // reduction blocks), so that every group's few channels share the
    // cache lines of one block of input and out_backprop rows; with the
    // groups outermost each pass over the reduction would use only
    // 1/groups of every cache line it loads.
    int64_t rowBytes = (l1CiBlock + coBlock) * elemBytes * (pairs ? 2 : 1);
    // The reduction block is sized for half the L1, except for a single
    // contraction over the whole reduction (1x1 filters) with a whole dW
    // and wide rows, where that block would be shorter than two reduction
    // chunks: every (ci, co) register tile would then reload and store its
    // accumulators every few positions. Such a block is sized for an eighth
    // of the L2 instead (the register tiles re-read it from the L2). 64 ->
    // 256 and 256 -> 64 channel 1x1 layers: 12 -> 96 positions, +10-30 %;
    // for 3x3 layers and tiny-Cin fused ones larger blocks measured slower.
    // So is a whole dW larger than the L1, whose accumulators every block
    // reloads from the L2, whatever the block's length: with a 48 KiB L1
    // the same 64 KiB dW tiles got 19-position half-L1 blocks (over two
    // chunks), 8 positions once cut to divide the 56-position rows, and
    // ran at 38 % of peak (1 thread, conv-run, paired alternating rounds:
    // 64 -> 256 channels +14 %, 256 -> 64 +8 % in median with the 2-row
    // blocks below).
    int64_t blockBudget = l1 / 2;
    // Without AVX-512, a whole-dW 2-D single contraction (1x1 filters not
    // channel-blocked) steps 4 positions at a time, not 8. conv-run
    // --compare=reduction-chunk=4, 16 call pairs, 1 / 2 threads, Zen 3:
    // ResNet's 1x1 64 -> 64 +5 / +10 %, 64 -> 256 +4 / +4 %, 256 -> 64
    // +3 / +3 %. (The channel-blocked 1x1 layers measured -1 to -2 %, 3x3
    // ones down to -17 %, the 1-D WaveNet layers -21 to -27 %.)
    if (!avx512 && !reductionChunk && !pairs && !grouped &&
        !op->hasAttr(kDwStreamAttrName) && singleContraction && n >= 2 &&
        ciBlock == ranges[ci] && coBlock == ranges[co])
      t.reductionChunk = 4;
    // Whole-dW tiles of a single contraction (1x1 filters) or of a 1-D
    // filter read each block of input and out_backprop rows from memory
    // once, then every other (ci, co) tile re-reads it from the L1 or the
    // L2: the hardware prefetchers stay idle during those re-reads and the
    // next block's first tile waits on memory. Their register tiles
    // prefetch the next block's rows of both operands, spread over the
    // tiles (conv.prefetch_rows, conv-cpu-lower-vectors). conv-run
    // --compare, 31 alternating call pairs, 1 / 2 threads: ResNet's 1x1
    // 64 -> 64 +19 / +18 %, 64 -> 256 +19 / +25 %, 256 -> 64 +10 / +9 %;
    // WaveNet's 1-D k2 layers +9 / +5 % and +12 / +21 % (21 pairs).
    // (Multi-tap 2-D layers ranged from -6 to +7 %: their taps re-read a
    // block from the L2. Channel-blocked 1x1 layers, whose blocks are
    // re-read from the L2 as well, -5 to +2 %. Prefetching every line of
    // the next out_backprop rows in every tile instead of spreading them:
    // 1x1 64 -> 64 -6 to -10 % with 2 threads.)
    prefetchRows = !pairs && !grouped && !op->hasAttr(kDwStreamAttrName) &&
                   ciBlock == ranges[ci] && coBlock == ranges[co] &&
                   (singleContraction || n == 1);
    // Without AVX-512 (8-lane AVX2 tiles of 6 rows x 2 vectors: 12 FMAs per
    // position, half a Zen 4 wide tile's work per prefetch) the 2-D 1x1
    // layers run faster with the hardware prefetchers alone. conv-run
    // --compare=prefetch=0, 10 call pairs, 1 / 2 threads, Zen 3: ResNet's
    // 1x1 64 -> 64 +25 / +15 %, 64 -> 256 +27 / +24 %, 256 -> 64 +40 /
    // +41 %. The 1-D layers keep it (WaveNet's k2 layers +4 / -7 % and
    // +17 / 0 % without). Nor do they on cores with two 512-bit FMA units
    // (two-zmm-fma-units, set by the CPU pipeline; Emerald Rapids,
    // --compare=prefetch=0, 10 call pairs, 1 / 2 threads: ResNet's 1x1
    // 64 -> 64 +5 / +10 %, 64 -> 256 +18 / +23 %, 256 -> 64 +13 / +1 %,
    // s2 256 -> 512 +16 / +14 %, WaveNet's k2 layers +8 / +3 % and +7 /
    // +4 %; the streaming prefetch below stays: without it 108x108x3 -> 64
    // s2 -10 / -10 %, 224x224x3 -> 64 -22 / -26 %).
    //
    // Except, there, for the 2-D 1x1 layers whose rows (a whole dW's ci and
    // co) few register tiles sweep: few tiles re-read a block from the L1
    // for every position loaded from memory, and the first tile waits on
    // the next block's lines. They prefetch the next block into the L2
    // only, each line by one of the tiles (conv.prefetch_l2 and
    // conv.prefetch_tiles, full input rows: Cin values), 8 prefetches per
    // 8-position step of ResNet's 64 -> 64 (11 tiles of 6 rows) instead of
    // 16 in every tile. conv-run --compare, 40 alternating call pairs,
    // 1 / 2 threads, Emerald Rapids: ResNet's 1x1 64 -> 64 +10 / +11 %.
    // The layers with more sweeps lose: 64 -> 256 (44 tile sweeps a block)
    // -4 / -4 %, 256 -> 64 (43) -5 / -4 %, s2 256 -> 512 -9 / -9 %;
    // WaveNet's 1-D k2 layers (3 tiles a tap) -6 / +1 % and -1 / +7 %;
    // a strided 1x1 64 -> 64 (s2, 56x56 input) -3 % with 1 thread.
    // Those prefetches were one image row ahead, the rest of a block of
    // several rows; they now fetch the next block (conv.prefetch_distance:
    // blockPositions below), and a layer with several tiles of columns
    // spreads them over those too (conv.prefetch_tiles_inner): then 64 ->
    // 256 (64 KiB dW, 44 tiles a 2-row block) gains, +10 / +6 % (the old
    // and new conv-run, 4 alternating runs of 100 calls), where a whole dW
    // of at most an eighth of the L2 leaves room for the next block beside
    // the current one. (The 1 MiB dW of 14x14x1024 -> 256, 7-row blocks:
    // -7 / -4 %; the next block evicted the dW tiles and the current block.)
    // The same holds with a single tile of columns: 256 -> 64 (43 tiles of
    // 6 rows a 2-row block, 64 KiB dW), conv-run --compare, 20-30 call
    // pairs, 1 / 2 threads, a model-167 Xeon: +26-40 / -3-+4 % (measured
    // while one thread's memory accesses were slow on that host; the likely
    // reason, not measured: its input rows, 1 KiB apart, 4 lines a page,
    // give the hardware prefetchers little to follow).
    //
    // Since stop 77 each tile prefetches a run of consecutive lines of the
    // next block (conv-cpu-lower-vectors), so that the prefetches walk the
    // next block in memory order; before, tile t of T fetched lines t, t +
    // T, ... of each reduction step's rows, and a tile's prefetches went to
    // one line every few KiB. On Ice Lake (conv-run, the new order against
    // the old, 20 alternating call pairs, 1 / 2 threads): ResNet's 1x1
    // 64 -> 64 +5 / +1.5 %, 64 -> 256 +4 / +7 %, 256 -> 64 +4 / +3 %. With
    // that order the 1-D layers (WaveNet's k2 32 -> 32, 21.6 MB of
    // operands; their tiles had no prefetches on these cores) prefetch into
    // the L2 too: +17 / +6 % and +13 / +9 % (in the strided order 14 %
    // less with 1 thread). (Not the strided 1x1 s2 256 -> 512, -4 / -8 %,
    // the channel-blocked 1x1 1024 -> 256, -24 % with 2 threads, or the
    // Winograd products, -1.5 to +1 %; 2 or 4 blocks ahead instead of the
    // next block: 0 to -10 %.)
    bool stridedInput = false;
    for (auto slice =
             op.getDpsInputs()[0].getDefiningOp<tensor::ExtractSliceOp>();
         slice;
         slice = slice.getSource().getDefiningOp<tensor::ExtractSliceOp>())
      stridedInput |= !slice.hasUnitStride();
    if (twoZmmFMAUnits && prefetchRows && singleContraction && n >= 2 &&
        !stridedInput &&
        ((ranges[co] <= t.cols &&
          llvm::divideCeil(ranges[ci], t.rows) <= kMaxPrefetchL2Sweeps) ||
         ciBlock * coBlock * accBytes <= l2 / 8))
      prefetchRowsL2 = true;
    if (twoZmmFMAUnits && prefetchRows && n == 1 &&
        !op->hasAttr(kDwWinogradAttrName))
      prefetchRowsL2 = true;
    if ((!avx512 && n != 1) || (twoZmmFMAUnits && !prefetchRowsL2))
      prefetchRows = false;
    // A contraction that streams out_backprop once (conv.dw_stream) gets
    // the prefetch of its next rows (conv.prefetch_rhs), except, without
    // AVX-512, when more than 2 register tiles of columns re-read each row:
    // Zen 3, prefetch=0, 1 / 2 threads: 108x108x3 -> 64 stride 2 +26 /
    // +24 %, VGG's 224x224x3 -> 64 +18 / +9 %; 48x480x1 -> 16 (one column
    // tile) needs it (-27 / -23 %), 161x700x1 -> 32 (two) within +-4 %.
    prefetchStream = op->hasAttr(kDwStreamAttrName) &&
                     (avx512 || ranges[co] <= 2 * t.cols);
    bool singleL2Blocks =
        singleContraction && ciBlock == ranges[ci] && coBlock == ranges[co] &&
        (blockBudget / std::max<int64_t>(1, rowBytes) < 2 * t.reductionChunk ||
         ciBlock * coBlock * accBytes > l1);
    // With AVX-512, a whole dW of at least an eighth of the L2 (up to a
    // half, the most a dW has without channel blocks: a thread's 256 x
    // 256 half of a 1x1 256 -> 512 layer) takes blocks of a quarter of the
    // L2, as a channel block does below: with an eighth (2 rows of 28 on a
    // 1 MiB L2) ResNet's 1x1 s2 56x56x256 -> 512 ran at 54-57 % of the
    // peak with 2 threads in a slow period of the Zen 4 host, 61-75 % with
    // a quarter (4 rows; conv-bench, 3 alternating runs); in a quiet period
    // +2 % (conv-run, 12 alternating process pairs, 0.98-1.12). On the
    // Emerald Rapids host (2 MiB L2) the same 256 KiB halves are an eighth
    // of the L2: a quarter's 7 rows against an eighth's 4, conv-run
    // --compare (20 call pairs) +11 % with 2 threads; the other 1x1 layers
    // (dW under an eighth, or channel-blocked) are unchanged. (Its
    // 1-thread kernel, channel-blocked on Zen 4, already had these blocks.)
    if (singleL2Blocks)
      blockBudget = std::max(blockBudget,
                             avx512 && ciBlock * coBlock * accBytes >= l2 / 8
                                 ? l2 / 4
                                 : l2 / 8);
    // Several taps with channel-blocked dW tiles (512 x 512 channels): a
    // half-L1 block is 16 positions, and every register tile reloads and
    // stores its accumulators each 2 reduction chunks. Such blocks are
    // sized for a quarter of the L2 instead (the tiles of a block re-read
    // it from there; with the dW blocks, at most another quarter, they
    // take half the L2). A sixteenth of the L2 on a 2 MiB L2: 38x57
    // dilated 3x3: 16 -> 57 positions (one row), 97 -> 105 GFLOP/s with 1
    // thread, 164 -> 183 with 2; 7x7 images: one image instead of 2 rows,
    // +1-4 %. On a 1 MiB L2 (Zen 4) a sixteenth was 21-28 positions (2
    // rows of 14, 4 + 3 rows of 7, one row of 28). conv-run --compare, 40
    // call pairs, 1 / 2 threads, an eighth against a sixteenth: rn12
    // (7x7x2048 -> 512) +5 / +3 %, dl1 +5 / +2 %, rn6 +4 / +1 %, rn7 +2 %,
    // db6 +2 / +3 %, rn11 +2 / +5 %; a quarter against an eighth (60
    // pairs): rn10 (14x14x1024 -> 256, 7 rows instead of 2) +9 / +8 %, rn7
    // +3 / 0 %, rn9 and rn6 within +-2 %.
    // So are whole dW tiles larger than the L1, whose accumulators a block
    // reloads from the L2: the 512 x 256 halves of a 7x7x512 -> 512 layer's
    // taps with 2 threads (dw-threads) are 512 KiB, not channel-blocked, and
    // their half-L1 blocks were one 7-position row (N16, 2 threads, medians
    // of 6 alternating runs: 157 -> 239 GFLOP/s with these blocks of 6 rows,
    // in a quiet period of the host; 136 -> 157 with the whole-image blocks
    // below, in a slow one).
    // So are the channel blocks of a single contraction (1x1 filters):
    // ResNet's 14x14x1024 -> 256 and 7x7x2048 -> 512 layers (256 x 256
    // blocks) reloaded their accumulators every 7 and 14 positions, one
    // image row; with whole-image blocks conv-run --compare (20 alternating
    // call pairs) measured +32 % and +13 % with 1 thread, +1 % and +8 % with
    // 2.
    bool channelBlocked = ciBlock < ranges[ci] || coBlock < ranges[co];
    if ((channelBlocked ||
         (!singleContraction && ciBlock * coBlock * accBytes > l1)) &&
        blockBudget / std::max<int64_t>(1, rowBytes) < 4 * t.reductionChunk)
      blockBudget = std::max(blockBudget, l2 / 4);
    // Rows packed by each block from a single-channel input (fuseInputPack,
    // transposed): blocks of an eighth of the L1. Measured with 1 thread
    // (16 x 48 x 480 -> 16 channels 3x3: 40 positions 88-93 GFLOP/s, 80
    // positions 78-81, 160 positions 65-67; 8 x 64 x 256 -> 32 channels
    // 5x5: 16 positions 93-95, 32 positions 96-98, 64 positions 90-94).
    std::optional<RowPack> rowPack = findRowPack(op.getDpsInputs()[0]);
    if (rowPack && rowPack->unitStrideRuns)
      blockBudget = l1 / 8;
    if (laneGroups) {
      // Lane-group tiles read whole cache lines of every row: their group
      // blocks are the outermost loop, each over the whole reduction.
      rowBytes *= laneGroups;
    } else if (grouped) {
      rowBytes *= ranges[0];
      for (int64_t d = 1; d < numLoops; ++d)
        interchange.push_back(d);
      interchange.push_back(0);
    }
    int64_t block = std::max<int64_t>(
        t.reductionChunk,
        (blockBudget / std::max<int64_t>(1, rowBytes)) / t.reductionChunk *
            t.reductionChunk);
    // Prefer a block (down to half the size) that divides the range: no
    // partial block.
    for (int64_t bl = block; bl * 2 >= block; bl -= t.reductionChunk)
      if (ranges[last] % bl == 0) {
        block = bl;
        break;
      }
    // Whole-dW tiles: a whole row that fits 7/8 of the L1 is one block. Cut
    // into a half-L1 block and a remainder, every register tile would
    // reload and store its accumulators twice per row (3x3 and 5x5 layers
    // with 28- and 56-position rows: +5-20 %; the 56-position rows of a
    // 64 -> 64 1x1 layer, 32 + 24 before: +15 % with 1 thread, +3-6 % with
    // 2; a tiny-Cin 3x3 s2 layer's 54-position rows: +8-15 % with 2
    // threads. Channel-blocked layers measured the same or slower).
    if (block < ranges[last] &&
        ciBlock == ranges[ci] && coBlock == ranges[co] &&
        ranges[last] * rowBytes <= l1 * kWholeRowL1Eighths / 8)
      block = ranges[last];
    if (block < ranges[last]) {
      outer[last] = block;
      // Without AVX-512, blocks that cut the rows of a 2-D or 3-D layer
      // (channel-blocked taps whose half-L1 block is 32 positions of a
      // 57-position row; tiny-Cin layers' long rows) step 4 positions at a
      // time, not 8. conv-run --compare, 20 call pairs (4-8 for the big
      // shapes), 1 / 2 threads, Zen 3: the dilated 38x57x512 -> 512 +5 /
      // +30 %, DeepSpeech's 161x700x1 -> 32 +1 / +5 % and 79x341x32 -> 32
      // +2 / +3 %, ResNet's 7x7 stem 0 / +6 %, DeepBench's 10x42x512 -> 512
      // +1 / +13 % and 80x350x64 -> 128 +12 / 0 %, the 3-D U-Net's
      // 32 -> 64 layer +9 / +6 %, its 32 -> 32 one -1 / -1 %. (1-D layers,
      // whose one long row every block cuts, lost: WaveNet's k2 layers
      // -27 / -14 % and -22 / -4 %. Layers whose blocks hold whole rows
      // lost up to 26 % with 4: ResNet's 14x14x256 -> 256.)
      if (!avx512 && n >= 2 && !reductionChunk && !pairs && !grouped)
        t.reductionChunk = 4;
    } else if (n >= 2) {
      // Whole rows fit: make the reduction block several rows long so the
      // accumulators stay in registers across more of the reduction.
      int64_t rows = std::min(
          ranges[last - 1],
          std::max<int64_t>(1, (blockBudget / std::max<int64_t>(1, rowBytes)) /
                                   std::max<int64_t>(1, ranges[last])));
      // L2-sized blocks: the most rows, down to half of them, that divide
      // the image (56 rows as 2 x 28, not 3 x 18 + 2: a remainder block is
      // a second copy of the register-tile nest).
      if (blockBudget > l1 / 2 &&
          !ShapedType::isDynamic(op.getStaticLoopRanges()[last - 1]))
        for (int64_t r = rows; r > 0 && 2 * r >= rows; --r)
          if (ranges[last - 1] % r == 0) {
            rows = r;
            break;
          }
      // Blocks sized for the L2 that still cover three quarters of the rows
      // or more (no such divisor) take them all (7x7 images: 6 rows would
      // leave a 1-row block, which reloads every accumulator for 7
      // positions, and a second copy of the register-tile nest). After the
      // divisors, so that a block with one keeps it: ResNet's 14x14x1024
      // -> 256 with 2 threads (512 x 256 halves, quarter-L2 blocks of 12
      // rows) as 7-row blocks instead of whole 14-row images, +6 / +6 %
      // (conv-run --compare, 2 x 30 alternating call pairs, Emerald
      // Rapids); 1040 / 1008 input or 272 output channels +4 to +7 %: a
      // 7-row block's out_backprop column tile (98 positions x 64
      // channels, 25 KiB) stays in the L1 while a block's row tiles sweep
      // it, a 14-row one's (50 KiB) does not.
      if (blockBudget > l1 / 2 && 4 * rows >= 3 * ranges[last - 1])
        rows = ranges[last - 1];
      // The whole-dW tiles of a multi-tap filter gradient (no groups, no
      // packed rows) whose rows all fit half the L2 take them all: each
      // register tile then reduces all the rows of its tap's reduction
      // block (BackpropFilter's L2 block) with its accumulators in
      // registers, its operands streamed from the L2, instead of reloading
      // and storing them at every row, or every few rows, while the other
      // tiles re-read those rows from the L1. (5x5 192 -> 32 channels,
      // 28-position rows: a tile of 8 x 2 vectors reloaded its 16
      // accumulators every 448 FMAs, 11 % of the kernel's samples.) conv-run
      // --compare, 21-25 alternating call pairs, 1 / 2 threads, the 14 rows
      // of the block against 1 (half the L1) or 7 (a quarter of the L2):
      // GoogLeNet's 5x5 28x28x192 -> 32 +6-14 / +12-13 %, ResNet's 3x3
      // 56x56x64 -> 64 +5 / +6-8 %, 28x28x128 -> 128 +1-2 / +11-12 %,
      // 14x14x256 -> 256 +2 / 0 %, the dilated 28x28x128 +1-2 / +6-11 %;
      // the 7 rows of ResNet's 3x3 s2 56x56x128 -> 128 against 1 with 2
      // threads (64-column dW halves) +15 %; in bf16 +4 to +24 %. (The
      // single contractions of 1x1 filters lost up to half their speed with
      // such blocks, the tiny-Cin fused taps 12 %, a channel-blocked 512 ->
      // 512 layer 15 %: they keep their blocks. Fewer rows than all would
      // split a tap's dynamic row range into a loop of blocks and a peeled
      // remainder: two copies of the nest.)
      if (!singleContraction && !channelBlocked && !grouped && !rowPack &&
          !op->hasAttr(kDwStreamAttrName) &&
          ranges[last - 1] * ranges[last] * rowBytes <= l2 / 2) {
        rows = ranges[last - 1];
        // With the narrow (at most 2-vector) tiles of a core with two
        // 512-bit FMA units, whose register tiles each run 2 FMAs a
        // cycle: blocks of the most rows (a divisor of them) whose
        // out_backprop rows take half the L1, so that the block's ci
        // tiles re-read them from the L1 instead of the L2 (a tile's 14
        // loads a position, half of them new lines, ran into the L2's
        // bandwidth). conv-run --compare (10-16 call pairs, Emerald
        // Rapids, 1 / 2 threads): GoogLeNet's 5x5 28x28x192 -> 32, 4 rows
        // instead of 28, +7 / +10 % and +6 / +4 % on a repeat (7 rows +6 /
        // +3 %, 14 rows +3 %); DeepSpeech's 5x10 32 -> 32 (166-position
        // rows), 1 row instead of 2, -1 / +6 %; 3-D U-Net's 32 -> 32
        // (130-position rows), 1 row instead of 13, +2 / +5 %. (Wider
        // tiles did not gain: ResNet's 3x3 64 -> 64 and s2 128 -> 128 -1
        // to -4 % with 4 rows.) A tap's cut row range then takes a block
        // loop and a peeled remainder (the GoogLeNet layer's first compile
        // 69 -> 97 ms).
        if (narrowTwoZmmTiles) {
          int64_t dyRowBytes =
              std::max<int64_t>(1, ranges[last] * coBlock * elemBytes);
          int64_t fit = std::max<int64_t>(1, l1 / 2 / dyRowBytes);
          rows = std::min(rows, fit);
          while (ranges[last - 1] % rows != 0)
            --rows;
        }
      }
      // All the rows: no block loop (for a range cut to the tap's rows, a
      // dynamic one, a block loop would be peeled into two copies).
      outer[last - 1] = rows == ranges[last - 1] ? 0 : rows;
      if (rows > 1)
        inner[last - 1] = 1;
      // Blocks that hold whole images and have room for more: blocks of
      // several images, each register tile reducing them all (a batch loop
      // inside the tile loops) before it stores its accumulators (in the
      // same order of additions as one image a block: the results keep
      // their bits). Small images reloaded and stored them every image:
      // ResNet's 7x7x2048 -> 512 (256 x 256 dW blocks, 49-position
      // images) with 2 images (98 positions), conv-run, alternating
      // processes, 8 pairs, 1 / 2 threads, Zen 4: +3 / +2 %; 4 images 0 /
      // +2 %, all 8 -2 / 0 % (the blocks outgrow the L2 beside the dW
      // block). So do the taps of 3x3 layers on 7x7 images and Winograd's
      // 1x1 products on 7x16 pairs: conv-run --compare, 30 call pairs, 1 /
      // 2 threads, Xeon model 167: 7x7x512 -> 512 N8 +3 / +2 %, N16 +2 /
      // +2 %, 14x14x256 -> 256 (Winograd) +1 / +3 %; 4 images instead of
      // the budget's 2: -1 to -4 %.
      int64_t image = 1;
      bool wholeImage = outer[last] == 0 && outer[last - 1] == 0;
      for (int64_t d = b + 1; d <= last; ++d) {
        image *= ranges[d];
        if (d < last - 1 && ranges[d] != 1)
          wholeImage = false;
      }
      if (avx512 && wholeImage && !pairs && !grouped && !rowPack &&
          ranges[b] > 1) {
        int64_t images = std::min(
            ranges[b], blockBudget / std::max<int64_t>(1, image * rowBytes));
        while (images > 1 && ranges[b] % images != 0)
          --images;
        if (images > 1) {
          outer[b] = images == ranges[b] ? 0 : images;
          inner[b] = 1;
          inner[last - 1] = 1;
        }
      }
    }
    inner[ci] = t.rows;
    inner[co] = chooseCols(ranges[co], t.cols, lanes(accType));
    if (laneGroups) {
      inner[0] = laneGroups;
      inner[ci] = ranges[ci];
      inner[co] = ranges[co];
    }
    // Rows that all fit one register tile (its column vectors, one operand
    // register per column vector and a broadcast register) are one tile:
    // 9 rows of one vector as 8 + 1, the 1-row tile was a chain of
    // dependent FMAs on a single accumulator (16 x 48 x 480 -> 16 channels
    // 3x3: 47 -> 57 GFLOP/s with 1 thread). (Lane-group tiles have all
    // the rows already.)
    if (!laneGroups) {
      unsigned regs = vectorRegisters();
      int64_t cols = std::min(inner[co], ranges[co]);
      int64_t colVectors =
          std::max<int64_t>(1, (cols + lanes(accType) - 1) / lanes(accType));
      int64_t fit = (static_cast<int64_t>(regs) - colVectors - 1) / colVectors;
      int64_t maxRows = std::min(fit, kMaxRegisterTileRows);
      if (!registerTileRows && ranges[ci] > t.rows && ranges[ci] <= maxRows)
        inner[ci] = ranges[ci];
      // Rows that are not a multiple of the tile's: the fewest more rows
      // per tile (up to what fits) that divide them, so that no remainder
      // tile of a few latency-bound rows is left (27 rows as 3 x 9, not
      // 8 + 8 + 8 + 3: N8 108x108x3 -> 64 3x3 s2, 81 -> 85 GFLOP/s with 1
      // thread, 143 -> 159 with 2).
      else if (!registerTileRows && ranges[ci] > t.rows &&
               ranges[ci] % t.rows != 0)
        for (int64_t r = t.rows + 1; r <= maxRows; ++r)
          if (ranges[ci] % r == 0) {
            inner[ci] = r;
            break;
          }
    }
    // A streamed out_backprop row that several register tiles of rows
    // sweep in turn is prefetched into the L2 only: the current rows,
    // re-read by those tiles, keep the L1 (two-zmm-fma-units; Emerald
    // Rapids, conv-run with prefetcht1 instead of prefetcht0, 10 call
    // pairs, 1 / 2 threads: VGG's 224x224x3 -> 64 3x3, 27 rows as 3 tiles
    // of 9, +13 / +8-13 %; 108x108x3 -> 64 3x3 s2, 3 tiles, -1 %; a
    // 48x480x1 -> 16 layer, all 9 rows in one tile, which reads each
    // prefetched line once, -6 / -9 %).
    prefetchStreamL2 = prefetchStream && twoZmmFMAUnits && !laneGroups &&
                       inner[ci] < ranges[ci];
    colsDim = laneGroups ? -1 : co;
    inner[last] = t.reductionChunk;
    // A static block of positions that is not a whole number of chunks but
    // one of half chunks: half chunks. The peeled remainder chunk after the
    // loop of whole ones cost more than the shorter steps (28-position rows
    // in chunks of 4 instead of 3 x 8 + 4, 1 thread: 5x5 192 -> 32
    // channels 95-105 -> 109-112 GFLOP/s, 3x3 128 -> 128 channels, plain
    // +4-6 % and dilated +3-6 %, and stride 2 +3 %. Chunks of 7 measured
    // as fast on the stride-1 layers but 20 % slower on the strided one.)
    // Where half chunks do not divide the block, or are under 4 positions,
    // the longest chunk of at least three quarters of the whole that
    // divides a block longer than a chunk, if any: 14-position rows in
    // chunks of 7, not 8 + 6; 54 in chunks of 3, not 2 (a chunk-4 tile).
    // (Chunks of 5 for 130-position rows, 3-D U-Net's 3x3x3 layer: -0.5 %.)
    int64_t blockLength = outer[last] ? outer[last] : ranges[last];
    if (!reductionChunk &&
        !ShapedType::isDynamic(op.getStaticLoopRanges()[last]) &&
        blockLength % t.reductionChunk != 0) {
      int64_t half = t.reductionChunk / 2;
      bool halves = t.reductionChunk % 2 == 0 && blockLength % half == 0;
      if (halves)
        inner[last] = half;
      if (blockLength > t.reductionChunk && (!halves || half < 4))
        for (int64_t c = t.reductionChunk - 1; 4 * c >= 3 * t.reductionChunk;
             --c)
          if (blockLength % c == 0) {
            inner[last] = c;
            break;
          }
    }
    // A range cut to the tap's positions that read the input (dynamic, at
    // most 2 chunks long: docs/Lowering.md §2.5) is reduced one position
    // per step, in one loop: chunks would leave a dynamic remainder loop
    // after a loop of whole chunks, and the accumulators would be stored
    // and reloaded between the two.
    // With AVX-512 every such range of an ungrouped layer (the rows that
    // dw-cut-long-rows cuts, up to 174 positions in the suite): the 8 x 2
    // tiles ran as fast a position a step as with the padding products in
    // chunks (0.97-1.02x), and the cut lets the window drop its padded
    // copy. (Grouped lane-group tiles keep their chunks: ResNeXt's 3-D
    // layer ran 0.67x a position a step.)
    if (ShapedType::isDynamic(op.getStaticLoopRanges()[last]) &&
        (ranges[last] <= 2 * t.reductionChunk || (avx512 && !grouped))) {
      inner[last] = 1;
      // A strided input's such loop (stride-2 3x3 taps, whose input
      // positions are a 1 KiB step apart in ResNet's 56x56x128 -> 128):
      // unrolled twice by LLVM, with a remainder position; one position a
      // step spent a loop counter, its compare and branch and the input
      // address (a shift and two adds) per 24 FMAs. conv-run, 15 alternating
      // call pairs, 1 / 2 threads, Ice Lake server: +13 / +8 %. (Unrolling
      // every such loop instead: GoogLeNet's 5x5 192 -> 32 -6 / -1 % (its
      // dense tap rows' edges), ResNeXt's 3-D layer -1 / -2 %, 7x7 images
      // within +-1 %.)
      if (stridedInput && !grouped && !pairs)
        unrollTwiceDims.push_back(last);
    }
    // Pairs: one pair of positions per step, the contraction over `e`
    // that conv-cpu-lower-vectors turns into one vdpbf16ps per accumulator
    // vector (the operands' pairs are contiguous: no shuffles).
    if (pairs)
      inner[last] = 1;
    // A group's accumulator tile [ci, 1, co] has a unit dimension between
    // its rows and columns: hoist it before the transfer patterns (as for
    // batch-row tiles).
    if (grouped && !laneGroups)
      hoistEarly = true;
    // The positions of a reduction block (the batch and output dimensions
    // inside the block loops): the next block is that far along the rows.
    blockPositions = 1;
    SmallVector<int64_t> staticRanges = op.getStaticLoopRanges();
    for (int64_t d = b; d <= last; ++d) {
      int64_t extent = outer[d] ? outer[d] : staticRanges[d];
      blockPositions = ShapedType::isDynamic(extent) || blockPositions == 0
                           ? 0
                           : blockPositions * extent;
    }
    // A single tap (1x1 filters): split the output channels over threads;
    // every thread owns whole dW columns, so the result is deterministic.
    threadDim = co;
    threadAlign = t.cols;
  } else if (role.getValue() == kRoleDwDepthwise) {
    // A depthwise tap (loops [c, b, o...]): register tiles of up to 4
    // vectors of channels, one position a step (acc[c] += x[c] * y[c],
    // plain vector FMAs), the channel blocks outermost. (The per-group tiles
    // of the group split had one scalar accumulator: N8 56x56x128 3x3 at
    // 2.4 GFLOP/s with 1 thread.)
    int64_t c = 0;
    channelsLast = true;
    int64_t cols = chooseCols(ranges[c], 4 * lanes(accType), lanes(accType));
    outer[c] = cols >= ranges[c] ? 0 : cols;
    inner[c] = cols;
    for (int64_t d = 1; d < numLoops; ++d)
      inner[d] = 1;
    colsDim = c;
  } else if (role.getValue() == kRoleDwTapRow) {
    // Tap rows (docs/Lowering.md §2.8): loops [g, ci, co, k, b,
    // o_0..o_{n-2}, q]. A register tile steps one window position at a
    // time, the taps innermost and unrolled: the K contractions of a step
    // read the same input row, with out_backprop's rows q + k*dil.
    int64_t g = 0, ci = 1, co = 2, k = 3;
    channelsLast = true;
    if (ranges[g] == 1 && ranges[co] % lanes(accType) == 0) {
      // Dense tap rows (an ungrouped layer): kDenseTapRowChannels input
      // channels x one vector of output channels x K taps, the blocks
      // outermost (each sweeps every row of the reduction block, its
      // accumulators in registers throughout), the accumulator slices
      // hoisted early (their unit group dimension), and the loop over the
      // window positions unrolled kDenseTapRowUnroll times by LLVM, which
      // then loads each out_backprop row once for the K taps of the
      // positions of a step instead of once per tap. conv-run --compare
      // (12 call pairs, 1 thread, GoogLeNet's 5x5 192 -> 32) against the
      // rolled loop: unrolled 2 +4 %, 4 +8 %, 8 +8 %, 12 +10 %; 3 channels
      // -5 %, 2 channels x 2 vectors -2 %; the blocks inside the rows (as
      // the grouped tiles) -1 % (rolled).
      int64_t cb = kDenseTapRowChannels;
      while (cb > 1 && ranges[ci] % cb != 0)
        --cb;
      int64_t cols = lanes(accType);
      outer[ci] = cb == ranges[ci] ? 0 : cb;
      outer[co] = cols == ranges[co] ? 0 : cols;
      inner[g] = 1;
      inner[ci] = cb;
      inner[co] = cols;
      op->setAttr(kDenseTapRowsAttr, rewriter.getUnitAttr());
      hoistEarly = true;
    } else {
      // Lane-group tiles (a grouped layer): every tap and input channel of
      // the most vectors of groups within kMaxTapRowAccumulators (ResNeXt's
      // 4 x 4 groups: 3 taps x 4 rows x 2 vectors); the K contractions'
      // lane shuffles of the input row LLVM then computes once (one per K
      // FMAs).
      int64_t perVector = std::max<int64_t>(
          1, lanes(accType) / std::max<int64_t>(1, ranges[co]));
      // (Three quarters of the registers: 12 of AVX2's 16.)
      unsigned regs = vectorRegisters();
      int64_t maxAccumulators =
          std::min<int64_t>(kMaxTapRowAccumulators, int64_t(regs) * 3 / 4);
      int64_t vectors = std::clamp<int64_t>(
          maxAccumulators / std::max<int64_t>(1, ranges[ci] * ranges[k]), 1,
          std::max<int64_t>(1, ranges[g] / perVector));
      if (registerTileVectors > 0)
        vectors = registerTileVectors;
      while (vectors > 1 && ranges[g] % (vectors * perVector) != 0)
        --vectors;
      int64_t groups = vectors * perVector;
      while (groups > 1 && ranges[g] % groups != 0)
        --groups;
      outer[g] = groups == ranges[g] ? 0 : groups;
      // Group blocks inside the rows (b and the leading output dimensions a
      // position at a time): a row of the window and out_backprop
      // (ResNeXt's 56 positions: 14 KiB each) is read from the L2 by the
      // first group block and from the L1 by the others; each block then
      // reloads and stores its accumulators once per row. (Group blocks
      // outermost, each sweeping every row of the reduction block from the
      // L2 for a quarter of its cache lines: 7 % slower.)
      if (outer[g]) {
        for (int64_t d = k + 1; d + 1 < numLoops; ++d) {
          outer[d] = 1;
          interchange.push_back(d);
        }
        for (int64_t d : {g, ci, co, k, numLoops - 1})
          interchange.push_back(d);
      }
      inner[g] = groups;
      inner[ci] = ranges[ci];
      inner[co] = ranges[co];
    }
    inner[k] = 1;
    for (int64_t d = k + 1; d < numLoops; ++d)
      inner[d] = 1;
    innerInterchange = {g, ci, co};
    for (int64_t d = k + 1; d < numLoops; ++d)
      innerInterchange.push_back(d);
    innerInterchange.push_back(k);
    op->setAttr(kUnrollTapsDimAttr, rewriter.getDenseI64ArrayAttr({k}));
    colsDim = -1;
  } else if (role.getValue() == kRoleDwDepthwisePlane) {
    // Depthwise tap planes (docs/Lowering.md §2.9): loops [c, k0, k1, b,
    // o_0..o_{n-3}, p, q]. A register tile holds all K0 x K1 taps of the
    // most vectors of channels within kMaxTapRowAccumulators (3x3: 2
    // vectors, 18 accumulators) and steps one output position at a time,
    // the taps innermost and unrolled: each out_backprop vector is loaded
    // once for its K0 x K1 FMAs.
    int64_t c = 0, k0 = 1, k1 = 2;
    channelsLast = true;
    unsigned regs = vectorRegisters();
    int64_t maxAccumulators =
        std::min<int64_t>(kMaxTapRowAccumulators, int64_t(regs) * 3 / 4);
    int64_t taps = std::max<int64_t>(1, ranges[k0] * ranges[k1]);
    int64_t vectors = std::max<int64_t>(1, maxAccumulators / taps);
    if (registerTileVectors > 0)
      vectors = registerTileVectors;
    int64_t cols =
        chooseCols(ranges[c], vectors * lanes(accType), lanes(accType));
    outer[c] = cols >= ranges[c] ? 0 : cols;
    // Channel blocks inside the rows, as for tap rows.
    if (outer[c]) {
      for (int64_t d = k1 + 1; d + 1 < numLoops; ++d) {
        outer[d] = 1;
        interchange.push_back(d);
      }
      for (int64_t d : {c, k0, k1, numLoops - 1})
        interchange.push_back(d);
    }
    inner[c] = cols;
    inner[k0] = 1;
    inner[k1] = 1;
    for (int64_t d = k1 + 1; d < numLoops; ++d)
      inner[d] = 1;
    // An edge strip (a row or two of positions) runs its taps one after
    // the other, each over all the strip's positions, instead of unrolled
    // together: four strips of unrolled taps were most of the IR (3x3: 45
    // unrolled products instead of 9 + 4) and of the compile time, most of
    // it in one-shot bufferization and subset hoisting. conv-run --compare,
    // 40 call pairs, Emerald Rapids, MobileNet's 3x3 layers: first compiles
    // 20-45 % shorter, the kernels 1-5 % slower (14x14 planes, whose strips
    // are the largest part, 4-5 %).
    innerInterchange = {c};
    if (op->hasAttr(kPlaneStripAttrName)) {
      innerInterchange.append({k0, k1});
      for (int64_t d = k1 + 1; d < numLoops; ++d)
        innerInterchange.push_back(d);
    } else {
      for (int64_t d = k1 + 1; d < numLoops; ++d)
        innerInterchange.push_back(d);
      innerInterchange.append({k0, k1});
      op->setAttr(kUnrollTapsDimAttr, rewriter.getDenseI64ArrayAttr({k0, k1}));
    }
    op->removeAttr(kPlaneStripAttrName);
    colsDim = c;
  } else if (role.getValue() == kRoleTransposePhase) {
    // The output slice that clipPhaseTaps finds the tiles' rows from.
    if (op->hasAttr(kPhaseWindowAttrName)) {
      Value out = op.getDpsInits()[0];
      if (auto fill = out.getDefiningOp<linalg::FillOp>())
        out = fill.getDpsInits()[0];
      phaseOutputs.insert(out);
    }
    // Loops [b, o_0..o_{n-1}, co, t_0..t_{T-1}, ci]; T = n unless the op
    // says otherwise (conv.phase_taps).
    int64_t numTaps = (numLoops - 3) / 2;
    if (auto attr = op->getAttrOfType<IntegerAttr>(kPhaseTapsAttrName))
      numTaps = attr.getInt();
    int64_t n = numLoops - 3 - numTaps;
    int64_t co = n + 1, ci = numLoops - 1;
    AffineMap outMap = op.getIndexingMapsArray()[2];
    channelsLast =
        outMap.getResults().back() == getAffineDimExpr(co, op.getContext());
    // bf16 with the dot product: input channels in pairs (vdpbf16ps).
    bool pairs =
        bf16Dot && cast<RankedTensorType>(op.getDpsInputs()[0].getType())
                       .getElementType()
                       .isBF16();
    RegisterTile t = registerTile(accType, /*defaultChunk=*/pairs ? 2 : 1);
    // At least 4 vectors of output channels on a target with 32 vector
    // registers: tiles of up to 6 rows x 4 vectors instead of up to 8 x 2
    // (as for filter gradients: a third fewer loads per FMA), their row
    // count from chooseRows. conv-run --compare against 8 x 2 (median speed
    // ratio of 15 alternating call pairs, with 1 / 2 threads): DCGAN 4x4
    // s2 +5 / +4 % (per tap), +2 / -3 %, +8 / +3 %; 2-D U-Net 2x2 s2 -1 to
    // +9 / +1-11 %; Keras 3x3 / 5x5 s2 -1 to +9 / +3-12 %; 3-D U-Net 2x2x2
    // +3 / -3 %; 3-D valid 3x3x3 +21 / +25 %. (6-row tiles with a remainder
    // tile ran up to 13 % faster still on some of these, but doubled their
    // code: chooseRows.) Such tiles of a single-tap phase (2x2 stride-2
    // up-convolutions, the per-tap lowering's contractions) reduce 4 input
    // channels a step (2 when the channels are not a multiple of 4) instead
    // of 1: the same paired runs, 4 channels against 1, +1-23 % with 1
    // thread on 12 of 13 layers and +4-18 % with 2 on all 13. But LLVM's
    // optimizer took 2-3x as long on phases of several taps (their tap
    // loops are unrolled around the 4-channel steps): 3x3 and 5x5 stride-2
    // layers' compile rose from 260-340 to 410-710 ms, so those keep 1.
    int64_t phaseTaps = 1;
    for (int64_t d = 0; d < numTaps; ++d)
      phaseTaps *= ranges[n + 2 + d];
    bool wide = !pairs && widenRegisterTile(t, accType, ranges[co]);
    // Exactly 3 vectors of output channels on a target with 32 vector
    // registers (DCGAN's RGB layer by columns: 4x4 taps x 3 channels = 48
    // columns): tiles of up to 8 rows x 3 vectors (24 accumulators, 3
    // column operands and a broadcast) instead of 8 x 2 and a peeled 8 x 1
    // tile, which broadcasts each row's input value a second time for 8
    // FMAs over only 8 accumulators. conv-run --compare (20 alternating
    // call pairs, 1 thread, Emerald Rapids): DCGAN 32x32x64 -> 64x64x3
    // +9-11 %.
    if (!wide && !pairs && !registerTileRows && !registerTileVectors &&
        accType.isF32() && ranges[co] == 3 * lanes(accType) &&
        vectorRegisters() >= 32) {
      t.cols = 3 * lanes(accType);
      t.rows = 8;
    }
    // Without AVX-512 (AVX2: 2-vector tiles of up to 6 rows) single-tap
    // phases reduce 4 input channels a step too (rows along the batch
    // excepted, below). Phases of several taps keep 1 there as well: with
    // 4, conv-run --compare=reduction-chunk=4 (8 call pairs, 1 thread,
    // Zen 3) measured DCGAN 4x4 s2 +12-16 % and Keras 3x3 s2 +7-24 % on a
    // busy host, but their LLVM dialect grew 1.5-4x (the tap loops around
    // the 4-channel steps, twice over with a remainder tile) and their
    // first-call compiles (5 fresh processes, 1 thread, with the rows
    // along the last dimension too) rose from 185-290 to 300-409 ms (Keras
    // 3x3 s2 valid/op1), 257-351 to 326-472 (5x5 s2) and 195-224 to
    // 237-293 (DCGAN 16x16 -> 32x32); on a quiet host the gain was +13 % on dc3
    // and within +-2 % on the others. On cores with two 512-bit FMA units
    // (where it was measured), phases of several taps with the wide tiles take
    // 4 channels a step too: the compiles that had risen to 410-710 ms now take
    // 80-235 ms (first calls, 1 / 2 threads, the suite's 3x3, 5x5 and 4x4
    // stride-2 layers, Emerald Rapids; 75-190 ms with 1 channel a step), and
    // conv-run --compare=reduction-chunk=4 (30-40 call pairs, 1 / 2
    // threads) measured Keras' 3x3 s2 same +1.5 / +0.9 %, valid with
    // output padding +0.2 / +0.5 %, 5x5 s2 +1.8 / +2.8 %, dilated 3x3 s2
    // +2.0 / +1.5 %, DCGAN's 8x8 -> 16x16 +1.7 / +2.2 % and its other 4x4
    // layers within +-0.3 %.
    if (!pairs && !reductionChunk &&
        (phaseTaps == 1 || (wide && twoZmmFMAUnits)) && (wide || !avx512))
      t.reductionChunk = ranges[ci] % 4 == 0   ? 4
                         : ranges[ci] % 2 == 0 ? 2
                                               : 1;
    // The register tile's rows run along the last output dimension, or
    // along the batch when the output rows are shorter than a tile (e.g.
    // 1x1 inputs of a GAN generator's first layer).
    int64_t rowDim = n;
    if (ranges[n] < t.rows && ranges[0] > ranges[n])
      rowDim = 0;
    // A zero-padded phase window (conv.phase_window) whose padding the
    // last dimension's taps read: rows along the batch instead, when the
    // batch makes whole tiles of at least 4 rows on every thread (the
    // threads split the batch). Every spatial dimension then has one output
    // row per register tile, so clipPhaseTaps skips the padding products
    // along all of them, the last one included (where the accumulator rows
    // multiplied it before). Not with a register-tile-rows override (it
    // pins the rows along the last dimension). conv-run --compare, rows along
    // the batch against along the last dimension (median of 21 alternating call
    // pairs, 1 / 2 threads, Zen 4): DCGAN 4x4 s2 8x8 -> 16x16 (6 % padding
    // products along the rows) +9 / +9 %, 16x16 -> 32x32 (3 %) +7 / +5 %,
    // Keras 3x3 s2 valid with output_padding 1 (29-position rows: 6 x 4 +
    // 5 before, batch 8 = 2 x 4) +12 / +5 %; Keras 3x3 s2 same (2 %), its
    // dilated variant and 5x5 s2 (3 taps along the rows) within +-3 %.
    // (Each row then reads another image: no input reuse between a tile's
    // rows.)
    // Only for wide tiles (4 vectors a row, AVX-512): with AVX2's 2-vector
    // tiles (at most 6 rows) rows along the last dimension were faster
    // (Zen 3, the same paired runs, 8-10 pairs, 1 / 2 threads): Keras 3x3
    // s2 same +6 / +5 %, valid with output_padding 1 +9 / +5 %, 5x5 s2
    // +9 / +15 %, dilated 3x3 +5 / +20 %; DCGAN's 4x4 layers within +-2 %.
    if (rowDim == n && !registerTileRows && numTaps == n && wide) {
      if (auto window =
              op->getAttrOfType<DenseI64ArrayAttr>(kPhaseWindowAttrName)) {
        int64_t batchRows =
            chooseRows(ranges[0], t.rows, t.cols / lanes(accType));
        if (batchRows >= 4 && ranges[0] % (batchRows * threadCount()) == 0 &&
            phaseWindowPadding(window.asArrayRef(), n - 1, ranges[n],
                               ranges[n + 1 + n]) > 0)
          rowDim = 0;
      }
    }
    if (rowDim == n && !registerTileRows && wide &&
        op->hasAttr(kPhaseBatchRowsAttrName)) {
      int64_t batchRows =
          chooseRows(ranges[0], t.rows, t.cols / lanes(accType));
      int64_t threads =
          op->getParentOfType<scf::ForallOp>() ? 1 : threadCount();
      if (batchRows >= 4 && ranges[0] % (batchRows * threads) == 0)
        rowDim = 0;
    }
    hoistEarly = rowDim == 0;
    for (int64_t d = 0; d <= n; ++d)
      outer[d] = d == rowDim ? 0 : 1;
    inner[rowDim] = registerTileRows ? t.rows
                                     : chooseRows(ranges[rowDim], t.rows,
                                                  t.cols / lanes(accType));
    inner[co] = chooseCols(ranges[co], t.cols, lanes(accType));
    // The single-tap contraction of a kernel that equals its stride (the
    // whole transposed convolution is this one contraction: a
    // depth-to-space contraction, or one phase of a single tap) whose rows
    // chooseRows gives 4-vector tiles of at most 4 rows (no count of 5 or 6
    // divides them: 16, 28, 52 or 196 positions) and that has at least 16
    // of them: tiles of kWideTileRows rows and a remainder tile instead
    // (196 = 32 x 6 + 4 rather than 49 x 4: a broadcast per 4 FMAs over 24
    // accumulators instead of 16). conv-run --compare, 15 alternating call
    // pairs, 1 / 2 threads, against the 4-row tiles or the 2-vector tiles
    // of 12-14 rows that such rows took before (26-28 accumulators, a
    // broadcast per 2 FMAs): 2-D U-Net 2x2 s2 up-convolutions 196 rows +12
    // / +5 %, 52 rows +2 / +3 %, 28 rows +3 / +3 %, the 3-D 2x2x2 one (16
    // rows) +3 / +1 %; their compiles no slower (the 14-row tile's code was
    // the larger). (100 rows, 20 x 5 tiles, and 8-position rows as 6 + 2:
    // -3 / -1 %.) Not when a tile's input rows, which every column tile
    // re-reads, would take more than 3/4 of the L1, nor for phases of a
    // kernel larger than its stride: the remainder tile doubles the code of
    // their tap loops (chooseRows).
    if (wide && phaseTaps == 1 && numPhaseContractions == 1 &&
        !registerTileRows && !registerTileVectors && rowDim == n &&
        inner[rowDim] <= 4 && ranges[rowDim] >= 16 &&
        kWideTileRows * ranges[ci] * elemBytes <= l1 * 3 / 4)
      inner[rowDim] = kWideTileRows;
    colsDim = co;
    for (int64_t d = 0; d < numTaps; ++d) {
      inner[n + 2 + d] = 1; // every tap
      unrollDims.push_back(n + 2 + d);
    }
    // Without AVX-512, single-tap contractions whose rows run along the
    // batch (DCGAN's 4x4 -> 8x8 tap contractions, 64 = 10 x 6 + 4) keep
    // 1 input channel a step: with 4 their first-call compile rose from
    // 219-297 to 268-337 ms (5 fresh processes) for +12 % with 1 thread.
    if (!avx512 && !pairs && !reductionChunk && rowDim == 0)
      t.reductionChunk = 1;
    inner[ci] = t.reductionChunk;
    // Input-channel cache block: the kernel panel of one column tile (all
    // taps of the phase) stays in half the L2 cache while the output rows
    // sweep over it; the block loop is outermost.
    int64_t panelBytes = phaseTaps * ranges[ci] * t.cols * elemBytes;
    if (panelBytes > l2 / 2) {
      int64_t ciBlock = std::max<int64_t>(
          8, l2 / 2 / (phaseTaps * t.cols * elemBytes) / 8 * 8);
      // As many blocks, or the fewest more, of equal size (a multiple of
      // 8) that divide the channels: a remainder block is a second copy
      // of the phase's whole register-tile nest. Keras' 5x5 stride-2
      // layer's 9-tap phase on a 1 MiB L2: 128 + 128 channels instead of
      // 224 + 32, first compile 480 -> 300-380 ms, and no slower (conv-run
      // --compare, the unblocked nest's speed over the blocked one's: 1.00
      // with 224 + 32, 0.97-0.98 with 2 x 128).
      for (int64_t blocks = llvm::divideCeil(ranges[ci], ciBlock);
           blocks <= ranges[ci] / 8; ++blocks)
        if (ranges[ci] % blocks == 0 && ranges[ci] / blocks % 8 == 0) {
          ciBlock = ranges[ci] / blocks;
          break;
        }
      if (ciBlock < ranges[ci]) {
        outer[ci] = ciBlock;
        interchange.push_back(ci);
        for (int64_t d = 0; d < ci; ++d)
          interchange.push_back(d);
      }
    }
    // Threads over batch items, or over the first output dimension; over
    // the output channels (whole register-tile column blocks) when the
    // phase's kernel is larger than its input (few positions: one image,
    // or the small input of a GAN generator's early layer): each thread
    // then reads its half of the kernel, a half that its own share of the
    // kernel relayout wrote (tileRelayout), instead of the whole kernel,
    // half of it from the other core. conv-run --compare, 100 call pairs,
    // 2 threads: DCGAN's 4x4 s2 4x4x512 -> 8x8x256 with 1 / 3 images
    // +71 / +20 % (with 1 image it ran at half its one-thread speed).
    threadDim = ranges[0] > 1 ? 0 : 1;
    {
      int64_t positions = 1, kernel = ranges[co];
      for (int64_t d = 0; d <= n; ++d)
        positions *= ranges[d];
      for (int64_t d = co + 1; d < ci; ++d)
        kernel *= ranges[d];
      int64_t threads = threadsSplitting(op);
      if (threads > 1 && kernel > positions && ranges[co] >= threads * t.cols) {
        threadDim = co;
        threadAlign = t.cols;
      }
    }
    // Several output rows per block: the rows along the next-to-last
    // output dimension whose input rows (one channel block's) take a
    // quarter of the L2. The column tile loop is the outermost register-
    // tile loop, so each column tile's kernel panel is loaded into the L1
    // once per block and then serves every row tile of the block, instead
    // of streaming from the L2 again for every output row (3-D U-Net
    // 8x8x8x320 -> 256: 16 register tiles per panel load instead of 2).
    if (rowDim == n && n >= 2 && numTaps == n && ranges[n - 1] > 1) {
      int64_t ciRange = outer[ci] ? outer[ci] : ranges[ci];
      int64_t rowBytes =
          std::max<int64_t>(1, ranges[n] * ciRange * elemBytes);
      // The rows of one thread: when the threads split these rows (a 2-D
      // phase of a single image), the blocks divide a thread's share (the
      // 2-D U-Net's 28 rows as 14 a thread: blocks of 4 had left each
      // thread 3 blocks and a remainder block of 2, a second copy of the
      // register-tile nest).
      int64_t rows = ranges[n - 1];
      int64_t splitThreads = threadsSplitting(op);
      if (threadDim == n - 1 && splitThreads > 1 && rows >= splitThreads)
        rows = llvm::divideCeil(rows, splitThreads);
      // When the phase's kernel (every column tile's panel of the channel
      // block) does not stay in the L2 beside a quarter-L2 block, every
      // block reloads it from the L3: blocks as large as the L2 holds
      // beside two panels then. conv-run with the blocks forced (13 / 11
      // alternating call pairs, 1 / 2 threads, Emerald Rapids, 2 MiB L2):
      // the 2-D U-Net's 28x28x1024 -> 512 (2 MiB kernel a phase, 112 KiB
      // rows) 7-row blocks +2 / +3 % against 4 rows, 14 rows a thread
      // +4 % with 2 threads; its 52x52x512 -> 256 (512 KiB kernel, which
      // stays in the L2) lost 3-4 % with 13- or 26-row blocks.
      int64_t columnPanelBytes = phaseTaps * ciRange * t.cols * elemBytes;
      int64_t kernelBytes = phaseTaps * ciRange * ranges[co] * elemBytes;
      int64_t blockBytes = l2 / 4;
      if (kernelBytes + blockBytes > l2)
        blockBytes = std::max(blockBytes, l2 - 2 * columnPanelBytes);
      int64_t rowsPerBlock =
          std::clamp<int64_t>(blockBytes / rowBytes, 1, rows);
      // A block count that divides the rows (down to half the block): a
      // partial last block would duplicate the whole register-tile nest
      // (compile time). Without such a divisor the rows stay one a block.
      int64_t divisor = rowsPerBlock;
      while (rows % divisor != 0)
        --divisor;
      // A kernel that every block reloads from the L3, and no divisor down
      // to half the block: the next divisor up instead of one row a block,
      // when a block of that many rows still fits the L2 beside the column
      // panel it reads (only the next panel's lines then come from the L3
      // during the block). The 2-D U-Net's 28x28x1024 -> 512 on a 1.25 MiB
      // L2 with 2 threads (14 rows a thread, 6 a block from the sizes
      // above; its largest divisor up to 6 is 2): 7-row blocks, conv-run
      // --compare, 2 x 15 call pairs: +13 % (Ice Lake server; with 1 thread,
      // 7 rows instead of 4 measured +4.5 %, not taken: on a 2 MiB L2 the
      // same rule would give 14-row blocks instead of 7, unmeasured).
      if (kernelBytes + blockBytes > l2 && 2 * divisor < rowsPerBlock) {
        int64_t up = rowsPerBlock + 1;
        while (up < rows && rows % up != 0)
          ++up;
        if (up <= rows && up * rowBytes + columnPanelBytes <= l2)
          divisor = up;
      }
      rowsPerBlock = 2 * divisor >= rowsPerBlock ? divisor : 1;
      if (rowsPerBlock > 1) {
        outer[n - 1] = rowsPerBlock;
        inner[n - 1] = 1;
      }
    }
    // Register tiles: the column (co) tile loop outside the row tiles, so
    // that a column's kernel panel stays in the L1/L2 cache while the row
    // tiles of the block sweep over it (the input rows of a block are the
    // smaller operand: a tile row re-reads them from L1).
    innerInterchange.push_back(co);
    for (int64_t d = 0; d < numLoops; ++d)
      if (d != co)
        innerInterchange.push_back(d);
    // A phase that starts from a zero fill of its output slice (the phases
    // partition the output) fuses the fill into its tiles, unless the
    // input channels are split into cache blocks (a reduction).
    fuseFill = hasFilledInit(op) && outer[ci] == 0;
  } else if (role.getValue() == kRoleTransposeLanes) {
    // Loops [b, o_0..o_{n-1}, co, lane, t_0..t_{n-1}, cio]: few output
    // channels, the input-channel reduction split into vector lanes. The
    // register tile is `rows` output positions x one output channel x the
    // lanes (one vector per row, the kernel vector broadcast over the
    // rows); every step is `rows` FMAs.
    int64_t n = (numLoops - 4) / 2;
    int64_t co = n + 1, cio = numLoops - 1;
    channelsLast = true;
    unsigned regs = vectorRegisters();
    int64_t rows = registerTileRows
                       ? int64_t(registerTileRows)
                       : std::clamp<int64_t>(int64_t(regs) - 2, 1, 8);
    int64_t rowDim = n;
    if (ranges[n] < rows && ranges[0] > ranges[n])
      rowDim = 0;
    hoistEarly = rowDim == 0;
    for (int64_t d = 0; d <= n; ++d)
      outer[d] = d == rowDim ? 0 : 1;
    inner[rowDim] = rows;
    inner[co] = 1;
    for (int64_t d = 0; d < n; ++d) {
      inner[n + 3 + d] = 1; // every tap
      unrollDims.push_back(n + 3 + d);
    }
    inner[cio] = 1;
    threadDim = ranges[0] > 1 ? 0 : 1;
  } else {
    return failure();
  }
  if (!channelsLast)
    return success(); // TODO: vectorize along the contiguous spatial dim.

  // Thread-level tiling: the enclosing scf.forall (the taps of a filter
  // gradient) already spreads the work unless it has fewer iterations than
  // threads; otherwise split one parallel dimension into `threads` blocks.
  // A thread block that the alignment rounds up to the whole range would
  // be an scf.forall of one iteration: no thread tiling then, the same code
  // as with one thread. (Its identity slices of the operands hid the row
  // gather from fuseInputPack: a one-image 48x480x1 -> 16 3x3 layer on 2
  // threads, 16 output channels in one 32-column block, copied its
  // gathered rows up front at 88-103 GFLOP/s, against 187-202 with one
  // thread.)
  int64_t threads = threadsSplitting(op);
  SmallVector<int64_t> threadSizes(numLoops, 0);
  if (threads > 1 && threadDim >= 0 && ranges[threadDim] >= threads) {
    threadSizes[threadDim] = llvm::divideCeil(ranges[threadDim], threads);
    if (threadAlign > 1)
      threadSizes[threadDim] =
          llvm::divideCeil(threadSizes[threadDim], threadAlign) * threadAlign;
  }
  // A filter-gradient contraction that starts from a zero fill of its own
  // output (sinkZeroFills): the fill follows the parallel tilings into
  // the register tiles of the first reduction block (zeroStartFirstBlocks).
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  // (Only the fills that sinkZeroFills made, kZeroStartAttr: the Winograd
  // products' own fills of their slots, run inside the points' forall,
  // gained nothing measurable from it, dl1 and rn9 within +-1 %, and their
  // first compiles grew by 30-66 ms.)
  bool zeroStart = !fuseFill && role.getValue() == kRoleDwTap &&
                   op->hasAttr(conv::detail::kZeroStartAttr) &&
                   hasFilledInit(op);
  if (threadDim >= 0 && threadSizes[threadDim] > 0 &&
      threadSizes[threadDim] < ranges[threadDim]) {
    bool fuseThreadFill =
        fuseFill ||
        (zeroStart && iterators[threadDim] == utils::IteratorType::parallel);
    auto threaded =
        fuseThreadFill
            ? tileFusingFill(rewriter, op, threadSizes, /*forall=*/true)
            : tile(rewriter, op, threadSizes, /*forall=*/true);
    if (failed(threaded))
      return failure();
    op = cast<linalg::GenericOp>(threaded->tiledOps.back());
  }
  zeroStart = zeroStart && hasFilledInit(op);
  bool reductionBlocks = false;
  for (auto [size, iterator] : llvm::zip(outer, iterators))
    reductionBlocks |= size != 0 && iterator == utils::IteratorType::reduction;

  auto outerTiled =
      fuseFill ? tileFusingFill(rewriter, op, outer)
      : zeroStart && !reductionBlocks
          ? tileFusingFill(rewriter, op, outer, /*forall=*/false, interchange)
          : tile(rewriter, op, outer, /*forall=*/false, interchange);
  if (failed(outerTiled))
    return failure();
  // The fused fill of a tile moves on into its register tiles (tileInner),
  // where the accumulators start from zero instead of reading it back.
  if ((fuseFill || zeroStart) &&
      hasFilledInit(cast<linalg::GenericOp>(outerTiled->tiledOps.back())))
    outerTiled->tiledOps.back()->setAttr(kFillInnerAttr,
                                         rewriter.getUnitAttr());
  // The register tiling happens after peeling, on the main block and the
  // peeled one alike (the peeled clone carries the sizes).
  outerTiled->tiledOps.back()->setAttr(kInnerSizesAttr,
                                       rewriter.getDenseI64ArrayAttr(inner));
  if (colsDim >= 0)
    outerTiled->tiledOps.back()->setAttr(kColsDimAttr,
                                         rewriter.getI64IntegerAttr(colsDim));
  if (hoistEarly)
    outerTiled->tiledOps.back()->setAttr(kHoistEarlyAttr,
                                         rewriter.getUnitAttr());
  if (prefetchRows)
    outerTiled->tiledOps.back()->setAttr(kPrefetchRowsOpAttr,
                                         rewriter.getUnitAttr());
  if (prefetchRows && prefetchRowsL2)
    outerTiled->tiledOps.back()->setAttr(
        kPrefetchRowsL2OpAttr, rewriter.getI64IntegerAttr(blockPositions));
  if (prefetchStream)
    outerTiled->tiledOps.back()->setAttr(kPrefetchStreamOpAttr,
                                         rewriter.getUnitAttr());
  if (prefetchStreamL2)
    outerTiled->tiledOps.back()->setAttr(kPrefetchStreamL2OpAttr,
                                         rewriter.getUnitAttr());
  if (!innerInterchange.empty())
    outerTiled->tiledOps.back()->setAttr(
        kInnerInterchangeAttr, rewriter.getDenseI64ArrayAttr(innerInterchange));
  if (!unrollDims.empty())
    outerTiled->tiledOps.back()->setAttr(
        kUnrollDimsAttr, rewriter.getDenseI64ArrayAttr(unrollDims));
  if (!unrollTwiceDims.empty())
    outerTiled->tiledOps.back()->setAttr(
        kUnrollTwiceDimsAttr, rewriter.getDenseI64ArrayAttr(unrollTwiceDims));
  if (zeroStart && reductionBlocks)
    zeroStartFirstBlocks(rewriter, outerTiled->loops, outer, interchange,
                         iterators);
  else
    peelLoops(rewriter, outerTiled->loops);
  return success();
}

/// The loop dimension of each loop of a tiling of `sizes` (in `interchange`
/// order, then the remaining dimensions in order; one scf.for per non-zero
/// size, as scf::tileUsingSCF generates them); empty when the loops do not
/// match.
static SmallVector<int64_t> tiledLoopDims(ArrayRef<LoopLikeOpInterface> loops,
                                          ArrayRef<int64_t> sizes,
                                          ArrayRef<int64_t> interchange) {
  SmallVector<int64_t> order(interchange);
  for (int64_t d = 0, e = sizes.size(); d < e; ++d)
    if (!llvm::is_contained(order, d))
      order.push_back(d);
  SmallVector<int64_t> loopDims;
  for (int64_t d : order)
    if (sizes[d] != 0)
      loopDims.push_back(d);
  if (loopDims.size() != loops.size())
    return {};
  return loopDims;
}

/// The cache-block tiling `loops` (of `sizes`, in `interchange` order) of
/// a contraction whose init is a zero fill, and whose reduction is cut into
/// blocks: peels the first iteration of each loop over a reduction
/// dimension, nested (the first reduction block of every parallel block),
/// and moves the fill into that first block's tile, marked to fuse it into
/// its register tiles (kFillInnerAttr): their accumulators start from zero
/// in registers instead of reading back a filled dW. The whole fill then
/// goes (every element of the output is written by a first block before any
/// later block reads it). Then peels the partial last iterations (peelLoops)
/// of all the loops and their clones. (Left as tiled, with the fill, when
/// the loops are not the perfect nest of scf.for that the tiling makes.)
static void zeroStartFirstBlocks(RewriterBase &rewriter,
                                 ArrayRef<LoopLikeOpInterface> loops,
                                 ArrayRef<int64_t> sizes,
                                 ArrayRef<int64_t> interchange,
                                 ArrayRef<utils::IteratorType> iterators) {
  SmallVector<int64_t> dims = tiledLoopDims(loops, sizes, interchange);
  auto outermost =
      dyn_cast<scf::ForOp>(LoopLikeOpInterface(loops.front()).getOperation());
  linalg::FillOp fill;
  if (outermost && outermost.getInitArgs().size() == 1)
    fill = outermost.getInitArgs()[0].getDefiningOp<linalg::FillOp>();
  // (scf::peelForLoopFirstIteration takes the first iteration for a whole
  // step: only loops of static bounds, where it is.)
  bool nest =
      !dims.empty() && dims.size() == loops.size() && fill && fill->hasOneUse();
  for (auto [loop, d] : llvm::zip(loops, dims)) {
    auto forOp = dyn_cast<scf::ForOp>(LoopLikeOpInterface(loop).getOperation());
    nest = nest && forOp &&
           (iterators[d] == utils::IteratorType::parallel ||
            forOp.getStaticTripCount().has_value());
  }
  if (!nest) {
    peelLoops(rewriter, loops);
    return;
  }
  Operation *parent = outermost->getParentOp();
  for (LoopLikeOpInterface loop : loops)
    loop->setAttr(kBlockLoopAttr, rewriter.getUnitAttr());
  // Follows the first reduction iteration down the nest: the peeled
  // first iteration of each reduction loop, the loop itself for a
  // parallel one (each of its iterations starts its own block).
  SmallVector<Operation *> firstIterations;
  linalg::GenericOp first;
  scf::ForOp loop = outermost;
  for (size_t i = 0; loop && i < dims.size(); ++i) {
    scf::ForOp current = loop;
    if (iterators[dims[i]] == utils::IteratorType::reduction) {
      scf::ForOp firstIteration;
      if (succeeded(
              scf::peelForLoopFirstIteration(rewriter, loop, firstIteration)))
        current = firstIteration;
      firstIterations.push_back(current);
    }
    loop = nullptr;
    for (Operation &nested : current.getBody()->without_terminator()) {
      if (auto inner = dyn_cast<scf::ForOp>(&nested);
          inner && inner->hasAttr(kBlockLoopAttr))
        loop = inner;
      if (auto generic = dyn_cast<linalg::GenericOp>(&nested);
          generic && generic->hasAttr(kInnerSizesAttr))
        first = generic;
    }
  }
  if (first && first.getNumDpsInits() == 1) {
    rewriter.setInsertionPoint(first);
    Value init = first.getDpsInits()[0];
    Value zero = arith::ConstantOp::create(
        rewriter, first.getLoc(),
        rewriter.getZeroAttr(getElementTypeOrSelf(init.getType())));
    Value filled = linalg::FillOp::create(rewriter, first.getLoc(), zero, init)
                       .getResult(0);
    rewriter.modifyOpInPlace(first, [&] {
      first.getDpsInitsMutable()[0].set(filled);
      first->setAttr(kFillInnerAttr, rewriter.getUnitAttr());
    });
    rewriter.replaceOp(fill, fill.getOutputs()[0]);
  }
  // The peeled first iterations run once: fold their bounds and slices to
  // static ones before the register tiling looks at their shapes.
  llvm::SetVector<Operation *> simplify;
  for (Operation *firstIteration : firstIterations)
    firstIteration->walk([&](Operation *op) { simplify.insert(op); });
  if (!simplify.empty()) {
    RewritePatternSet patterns(rewriter.getContext());
    addCanonicalizationPatterns(rewriter.getContext(), patterns);
    scf::populateSCFForLoopCanonicalizationPatterns(patterns);
    GreedyRewriteConfig config;
    config.setStrictness(GreedyRewriteStrictness::ExistingAndNewOps);
    (void)applyOpPatternsGreedily(simplify.getArrayRef(), std::move(patterns),
                                  config);
  }
  SmallVector<LoopLikeOpInterface> blockLoops;
  parent->walk<WalkOrder::PreOrder>([&](scf::ForOp forOp) {
    if (forOp->removeAttr(kBlockLoopAttr))
      blockLoops.push_back(forOp);
  });
  peelLoops(rewriter, blockLoops);
}

/// Marks the loops of a tiling (see tiledLoopDims) that run over one of
/// `dims` with kLLVMUnrollAttr, or with kLLVMUnrollCountAttr = `count`.
static void markUnrolledLoops(RewriterBase &rewriter,
                              ArrayRef<LoopLikeOpInterface> loops,
                              ArrayRef<int64_t> sizes,
                              ArrayRef<int64_t> interchange,
                              ArrayRef<int64_t> dims, int64_t count = 0) {
  if (dims.empty())
    return;
  SmallVector<int64_t> loopDims = tiledLoopDims(loops, sizes, interchange);
  for (auto [loop, d] : llvm::zip(loops, loopDims))
    if (llvm::is_contained(dims, d)) {
      if (count)
        loop->setAttr(conv::kLLVMUnrollCountAttr,
                      rewriter.getI64IntegerAttr(count));
      else
        loop->setAttr(conv::kLLVMUnrollAttr, rewriter.getUnitAttr());
    }
}

/// The offsets, along result dimension `resultDim`, of the slices that
/// lead from a tile of a transpose_phase contraction (its init, through
/// the zero fill fused into it, the slices of the tiling and the loops'
/// iter_args, results and shared outputs) to the contraction's output
/// (phaseOutputs): their sum is the tile's first output row there. None
/// when the chain is anything else.
std::optional<SmallVector<OpFoldResult>>
TileAndVectorize::phaseRowOffsets(linalg::GenericOp op,
                                  int64_t resultDim) const {
  SmallVector<OpFoldResult> offsets;
  Value v = op.getDpsInits()[0];
  for (int64_t steps = 0; !phaseOutputs.contains(v); ++steps) {
    if (steps > 64)
      return std::nullopt;
    if (auto fill = v.getDefiningOp<linalg::FillOp>()) {
      v = fill.getDpsInits()[0];
    } else if (auto slice = v.getDefiningOp<tensor::ExtractSliceOp>()) {
      if (slice.getSourceType().getRank() != slice.getType().getRank() ||
          !isConstantIntValue(slice.getMixedStrides()[resultDim], 1))
        return std::nullopt;
      offsets.push_back(slice.getMixedOffsets()[resultDim]);
      v = slice.getSource();
    } else if (auto loop = v.getDefiningOp<scf::ForOp>()) {
      // The result of a loop (e.g. the main loop before a peeled one) is
      // its init, updated in place.
      v = loop.getInits()[cast<OpResult>(v).getResultNumber()];
    } else if (auto arg = dyn_cast<BlockArgument>(v)) {
      Operation *owner = arg.getOwner()->getParentOp();
      OpOperand *tied = nullptr;
      if (auto forOp = dyn_cast<scf::ForOp>(owner))
        tied = forOp.getTiedLoopInit(arg);
      else if (auto forall = dyn_cast<scf::ForallOp>(owner))
        tied = forall.getTiedOpOperand(arg);
      if (!tied)
        return std::nullopt;
      v = tied->get();
    } else {
      return std::nullopt;
    }
  }
  return offsets;
}

/// Tap clipping of a transpose_phase register tile (kPhaseWindowAttrName):
/// along every spatial dimension d where the tile has a single output row
/// o (every dimension but the one its accumulator rows run along), the
/// tap loop over t_d runs over the taps that read input rows only,
///   max(0, ceil((lo - o) / dil)) <= t_d
///                                < min(T, floor((hi - 1 - o) / dil) + 1),
/// instead of all T: the products with the window's zero padding are not
/// computed. `rowOffsets[d]`: the offsets whose sum is the first output row
/// of the tile being register-tiled (phaseRowOffsets, empty: no clipping
/// along d); `window`: the [lo, hi, dil] triples of kPhaseWindowAttrName;
/// `parallelLoops` / `tapLoops`: the register-tile loops, with the loop
/// dimension of each.
void TileAndVectorize::clipPhaseTaps(
    RewriterBase &rewriter, ArrayRef<int64_t> window,
    ArrayRef<SmallVector<OpFoldResult>> rowOffsets,
    ArrayRef<LoopLikeOpInterface> parallelLoops, ArrayRef<int64_t> parallelDims,
    ArrayRef<LoopLikeOpInterface> tapLoops, ArrayRef<int64_t> tapLoopDims) {
  int64_t n = static_cast<int64_t>(rowOffsets.size());
  MLIRContext *ctx = rewriter.getContext();
  for (int64_t d = 0; d < n; ++d) {
    if (rowOffsets[d].empty())
      continue;
    int64_t lo = window[3 * d], hi = window[3 * d + 1], dil = window[3 * d + 2];
    scf::ForOp tapLoop;
    for (auto [loop, dim] : llvm::zip(tapLoops, tapLoopDims))
      if (dim == n + 2 + d)
        tapLoop = dyn_cast<scf::ForOp>(static_cast<Operation *>(loop));
    if (!tapLoop)
      continue;
    std::optional<int64_t> lb = getConstantIntValue(tapLoop.getLowerBound());
    std::optional<int64_t> ub = getConstantIntValue(tapLoop.getUpperBound());
    std::optional<int64_t> step = getConstantIntValue(tapLoop.getStep());
    if (!lb || !ub || !step || *lb != 0 || *step != 1 || *ub <= 1)
      continue;
    int64_t taps = *ub;
    // The output row: the tile's first row, plus the register-tile loop's
    // index along d when there is one (rows of a row block).
    rewriter.setInsertionPoint(tapLoop);
    SmallVector<OpFoldResult> terms(rowOffsets[d]);
    for (auto [loop, dim] : llvm::zip(parallelLoops, parallelDims))
      if (dim == 1 + d)
        if (auto forOp = dyn_cast<scf::ForOp>(static_cast<Operation *>(loop)))
          terms.push_back(forOp.getInductionVar());
    AffineExpr sum = getAffineConstantExpr(0, ctx);
    for (int64_t i = 0, e = terms.size(); i < e; ++i)
      sum = sum + getAffineSymbolExpr(i, ctx);
    Location loc = tapLoop.getLoc();
    OpFoldResult row = affine::makeComposedFoldedAffineApply(
        rewriter, loc, AffineMap::get(0, terms.size(), sum), terms);
    AffineExpr o = getAffineSymbolExpr(0, ctx);
    OpFoldResult first = affine::makeComposedFoldedAffineMax(
        rewriter, loc,
        AffineMap::get(
            0, 1, {getAffineConstantExpr(0, ctx), (o * -1 + lo).ceilDiv(dil)},
            ctx),
        {row});
    OpFoldResult last = affine::makeComposedFoldedAffineMin(
        rewriter, loc,
        AffineMap::get(0, 1,
                       {getAffineConstantExpr(taps, ctx),
                        (o * -1 + (hi - 1)).floorDiv(dil) + 1},
                       ctx),
        {row});
    Value firstValue = getValueOrCreateConstantIndexOp(rewriter, loc, first);
    Value lastValue = getValueOrCreateConstantIndexOp(rewriter, loc, last);
    rewriter.modifyOpInPlace(tapLoop, [&] {
      tapLoop.setLowerBound(firstValue);
      tapLoop.setUpperBound(lastValue);
      // A loop of a dynamic trip count: no full unrolling by LLVM.
      tapLoop->removeAttr(conv::kLLVMUnrollAttr);
    });
  }
}

int64_t mlir::conv::resolveNumThreads(unsigned numThreads) {
  return numThreads ? static_cast<int64_t>(numThreads)
                    : std::max(1u, std::thread::hardware_concurrency());
}

int64_t TileAndVectorize::threadCount() const {
  return resolveNumThreads(numThreads);
}

int64_t TileAndVectorize::threadsSplitting(Operation *op) const {
  int64_t threads = threadCount();
  // Every enclosing scf.forall counts (e.g. the split-K parts around a
  // single tap's).
  int64_t parallelIterations = 1;
  for (auto parent = op->getParentOfType<scf::ForallOp>(); parent;
       parent = parent->getParentOfType<scf::ForallOp>())
    for (int64_t c : parent.getStaticUpperBound())
      parallelIterations *= ShapedType::isDynamic(c) ? threads : c;
  return parallelIterations < threads ? threads : 1;
}

/// `chunk`, or for a bf16 dimension of `extent` elements that `chunk` would
/// cut into a vector of 8k + 1 > 1 elements (41 as 32 + 9), the largest
/// halving of it that does not (41 as 5 x 8 + 1): LLVM 22 cannot generate
/// code for such vectors in a function with AVX512-BF16 (bf16-dot), and
/// conv-cpu-lower-vectors then keeps the whole function off the dot
/// product.
static int64_t bf16Chunk(Type elementType, int64_t extent, int64_t chunk) {
  if (elementType.isBF16())
    while (chunk > 8 && (isOddBF16VectorLength(extent % chunk) ||
                         isOddBF16VectorLength(std::min(extent, chunk))))
      chunk /= 2;
  return chunk;
}

/// A relayout (linalg.transpose between the channels-first and
/// channels-last layouts): square tiles over the two dimensions that are
/// contiguous in the output and in the input (a vector.transpose of one
/// vector per row), the other dimensions one at a time, the input's
/// contiguous dimension innermost; threads over the first dimension with
/// at least as many iterations as threads.
LogicalResult TileAndVectorize::tileRelayout(RewriterBase &rewriter,
                                             linalg::TransposeOp op) {
  ArrayRef<int64_t> perm = op.getPermutation();
  int64_t rank = perm.size();
  auto outType = cast<RankedTensorType>(op.getInit().getType());
  // (An empty tensor, e.g. the zero-length result of a transposed
  // convolution, has nothing to move; the tiling would divide by zero.)
  if (!outType.hasStaticShape() || rank < 2 || outType.getNumElements() == 0)
    return failure();
  int64_t outInner = rank - 1;
  int64_t inInner = llvm::find(perm, rank - 1) - perm.begin();
  if (inInner == outInner)
    return failure();
  rewriter.setInsertionPoint(op);
  FailureOr<linalg::GenericOp> generic =
      linalg::generalizeNamedOp(rewriter, op);
  if (failed(generic))
    return failure();
  linalg::GenericOp gop = *generic;
  ArrayRef<int64_t> shape = outType.getShape();
  int64_t threads = threadCount();
  // Squares of at most 16 x 16: a 16-bit 32 x 32 square (a vector's worth
  // with AVX-512) is lowered to one shuffle of 1024 lanes (only f32
  // 16 x 16 squares have the AVX-512 shuffle sequence), which took LLVM
  // most of a bf16 transposed convolution's compile (DCGAN dc3: 1.5 s, 0.3 s
  // with 16 x 16 squares; run time unchanged).
  int64_t square = std::min<int64_t>(16, lanes(outType.getElementType()));
  if (threads > 1 && !gop->getParentOfType<scf::ForallOp>()) {
    // The thread split: the first other dimension with at least as many
    // iterations as threads; else (a 2-D transpose, e.g. a transposed
    // convolution's kernel tap, [Cout, Cin] -> [Cin, Cout]) the
    // output-contiguous dimension in whole squares, when the transpose is
    // large enough to pay for the fork: each thread writes its own columns
    // of every row, the output channels that a phase split over the
    // threads by output channels (tileOne) then reads on the same core.
    // (The input-contiguous dimension before: with DCGAN's 4x4x512 ->
    // 8x8x256 on one image, each thread read half of every tap's kernel
    // from the other core; with the channel split of its phases, 2
    // threads, conv-run --compare: +30 %.)
    int64_t splitDim = -1, chunk = 0;
    for (int64_t d = 0; d < rank && splitDim < 0; ++d) {
      if (d == outInner || d == inInner || shape[d] < threads)
        continue;
      splitDim = d;
      chunk = (shape[d] + threads - 1) / threads;
    }
    if (splitDim < 0 && outType.getNumElements() >= kMinThreadedRelayout &&
        shape[outInner] >= threads * square) {
      splitDim = outInner;
      chunk =
          llvm::divideCeil(llvm::divideCeil(shape[outInner], threads), square) *
          square;
    }
    if (splitDim >= 0) {
      SmallVector<int64_t> sizes(rank, 0);
      sizes[splitDim] = chunk;
      auto threaded = tile(rewriter, gop, sizes, /*forall=*/true);
      if (failed(threaded))
        return failure();
      gop = cast<linalg::GenericOp>(threaded->tiledOps.back());
    }
  }
  SmallVector<int64_t> sizes(rank, 1);
  Type element = outType.getElementType();
  sizes[outInner] = bf16Chunk(element, shape[outInner], square);
  sizes[inInner] = bf16Chunk(element, shape[inInner], square);
  // The input-contiguous dimension innermost: each square reads the next
  // 64 bytes of the same input rows, sequential streams that the hardware
  // prefetchers follow. In the output's order the squares walked down a
  // column of input rows, one line per row a page apart (a transposed
  // convolution's 2 MB kernel tap: 4 KB apart), which no prefetcher
  // follows; the writes, to rows of a (usually cached) new tensor, take
  // that pattern instead. conv-run --compare, 30-40 call pairs, 1 / 2
  // threads (Emerald Rapids): DCGAN's 4x4 1024 -> 512 layer +4 / +4 %,
  // U-Net's 2x2 1024 -> 512 up-convolution +1 / +1 %, the 3-D U-Net's
  // 320 -> 256 +2 / +1 %, the 3-D 4x4x4 deconvolution +2 / +1 %, the other
  // transposed convolutions of the suite within +-1 %.
  SmallVector<int64_t> order;
  for (int64_t d = 0; d < rank; ++d)
    if (d != inInner)
      order.push_back(d);
  order.push_back(inInner);
  auto tiled = tile(rewriter, gop, sizes, /*forall=*/false, order);
  if (failed(tiled))
    return failure();
  tiled->tiledOps.back()->setAttr(kVectorizeAttr, rewriter.getUnitAttr());
  peelLoops(rewriter, tiled->loops);
  return success();
}

/// A row add (out += y on contiguous rows, the columns lowering) or a fused
/// zero fill: one row at a time, in chunks of two vectors (the last,
/// partial chunk peeled). (Vectorized whole, a fill of a 3025 x 363 GEMM
/// tile became one vector<3025x363xf32>, fully unrolled by the lowering.)
LogicalResult TileAndVectorize::tileRowAdd(RewriterBase &rewriter,
                                           linalg::GenericOp op) {
  auto outType = cast<RankedTensorType>(op.getDpsInits()[0].getType());
  return tileRows(rewriter, op, 2 * lanes(outType.getElementType()));
}

/// The conversion of the accumulators to a 16-bit result: rows in chunks of
/// two f32 vectors, and, when it has at least kMinThreadedRelayout elements
/// and runs outside any scf.forall, over threads along its first dimension
/// with at least as many iterations as threads. (Left to the loop lowering,
/// it was a scalar loop calling __truncsfbf2 per element on one thread: a
/// third of a bf16 transposed convolution's time once its contraction used
/// vdpbf16ps, and slower with 2 threads than with 1.)
LogicalResult TileAndVectorize::tileCast(RewriterBase &rewriter,
                                         linalg::GenericOp op) {
  auto inType = cast<RankedTensorType>(op.getDpsInputs()[0].getType());
  auto outType = cast<RankedTensorType>(op.getDpsInits()[0].getType());
  int64_t rank = outType.getRank();
  if (!outType.hasStaticShape() || rank < 1 || outType.getNumElements() == 0)
    return failure();
  op = threadOverFirstDim(rewriter, op);
  if (!op)
    return failure();
  int64_t chunk = bf16Chunk(outType.getElementType(), outType.getShape().back(),
                            2 * lanes(inType.getElementType()));
  auto role = op->getAttrOfType<StringAttr>(kRoleAttrName);
  if (!role || role.getValue() != kRoleWinogradTransform)
    return tileRows(rewriter, op, chunk);
  // A Winograd transform: rows of chunks like a cast, its loops kept
  // rolled (kLLVMNoUnrollAttr): LLVM unrolled the 8-16 chunks of a row.
  SmallVector<int64_t> sizes(rank, 1);
  sizes.back() = chunk;
  auto tiled = tile(rewriter, cast<TilingInterface>(op.getOperation()), sizes);
  if (failed(tiled))
    return failure();
  tiled->tiledOps.back()->setAttr(kVectorizeAttr, rewriter.getUnitAttr());
  for (LoopLikeOpInterface loop : tiled->loops)
    loop->setAttr(conv::kLLVMNoUnrollAttr, rewriter.getUnitAttr());
  peelLoops(rewriter, tiled->loops);
  return success();
}

/// `op` (one static tensor result, all loops parallel) split over threads
/// along its first dimension (before the last, unless `orLast`) with at
/// least as many iterations as threads, when it has at least
/// kMinThreadedRelayout elements and runs outside any scf.forall: the tile
/// inside the new scf.forall, or `op` itself; null on failure.
Operation *TileAndVectorize::threadOverFirstDim(RewriterBase &rewriter,
                                                Operation *op, bool orLast) {
  auto outType = cast<RankedTensorType>(op->getResult(0).getType());
  int64_t rank = outType.getRank();
  int64_t threads = threadCount();
  if (threads <= 1 || op->getParentOfType<scf::ForallOp>() ||
      outType.getNumElements() < kMinThreadedRelayout)
    return op;
  ArrayRef<int64_t> shape = outType.getShape();
  for (int64_t d = 0; d < (orLast ? rank : rank - 1); ++d) {
    if (shape[d] < threads)
      continue;
    SmallVector<int64_t> sizes(rank, 0);
    sizes[d] = llvm::divideCeil(shape[d], threads);
    auto threaded =
        tile(rewriter, cast<TilingInterface>(op), sizes, /*forall=*/true);
    if (failed(threaded))
      return nullptr;
    return threaded->tiledOps.back();
  }
  return op;
}

/// A pair pack (bf16 filter gradients, docs/Lowering.md §2.6): over threads
/// like the casts, then one chunk of a vector's worth of channels (both
/// members of each pair) per tile. Vectorized, the two channel runs are read
/// and interleaved into one contiguous `[chunk, 2]` write.
LogicalResult TileAndVectorize::tilePairPack(RewriterBase &rewriter,
                                             linalg::GenericOp op) {
  auto outType = cast<RankedTensorType>(op.getDpsInits()[0].getType());
  int64_t rank = outType.getRank();
  if (!outType.hasStaticShape() || rank < 2 || outType.getNumElements() == 0)
    return failure();
  op = threadOverFirstDim(rewriter, op);
  if (!op)
    return failure();
  int64_t channels = outType.getShape()[rank - 2];
  // (Chunks that leave no 8k + 1-element bf16 run: see bf16Chunk.)
  int64_t chunk = bf16Chunk(outType.getElementType(), channels,
                            lanes(outType.getElementType()));
  SmallVector<int64_t> sizes(rank, 1);
  sizes[rank - 2] = channels <= chunk ? 0 : chunk;
  sizes[rank - 1] = 0;
  return tileForVectorization(rewriter, op, sizes);
}

/// A row gather (the tiny-Cin filter gradient's pack): one contiguous run
/// at a time. Every other loop is tiled to 1, which leaves the run's input
/// map `o * c + j` at o = 0 after the unit loops are dropped: an identity
/// copy that vectorizes to one transfer_read / transfer_write pair per run
/// (runs up to four vectors long whole, longer ones in two-vector chunks).
LogicalResult TileAndVectorize::tileRowGather(RewriterBase &rewriter,
                                              linalg::GenericOp op) {
  auto outType = cast<RankedTensorType>(op.getDpsInits()[0].getType());
  int64_t vector = lanes(outType.getElementType());
  int64_t run = outType.getRank() ? outType.getShape().back() : 0;
  return tileRows(rewriter, op, run <= 4 * vector ? 0 : 2 * vector);
}

/// A pair-pack tile (static, [1..., C, 2]) as vector code: each input's
/// channel run is read as one vector, the two are interleaved (as integers
/// of the same width: LLVM 22 miscompiles some bf16 lane shuffles) and
/// written as one contiguous [C, 2] vector. (linalg::vectorize broadcast
/// each input over the pair and selected per element; the lowering then
/// assembled the tile one scalar at a time.)
static LogicalResult vectorizePairPack(RewriterBase &rewriter,
                                       linalg::GenericOp op) {
  auto outType = cast<RankedTensorType>(op.getDpsInits()[0].getType());
  auto inType = cast<RankedTensorType>(op.getDpsInputs()[0].getType());
  int64_t rank = outType.getRank();
  if (!outType.hasStaticShape() || !inType.hasStaticShape() || rank < 2 ||
      op.getNumDpsInputs() != 2 || outType.getDimSize(rank - 1) != 2)
    return failure();
  for (int64_t d = 0; d + 2 < rank; ++d)
    if (outType.getDimSize(d) != 1)
      return failure();
  int64_t channels = outType.getDimSize(rank - 2);
  Type element = outType.getElementType();
  Type bits = rewriter.getIntegerType(element.getIntOrFloatBitWidth());
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
  Value pad = arith::ConstantOp::create(rewriter, loc,
                                        rewriter.getZeroAttr(element));
  SmallVector<Value> runs;
  for (Value in : op.getDpsInputs()) {
    SmallVector<Value> indices(inType.getRank(), zero);
    Value run = vector::TransferReadOp::create(
        rewriter, loc, VectorType::get({channels}, element), in, indices, pad,
        ArrayRef<bool>{true});
    runs.push_back(vector::BitCastOp::create(
        rewriter, loc, VectorType::get({channels}, bits), run));
  }
  Value pairs = vector::InterleaveOp::create(rewriter, loc, runs[0], runs[1]);
  pairs = vector::BitCastOp::create(
      rewriter, loc, VectorType::get({2 * channels}, element), pairs);
  pairs = vector::ShapeCastOp::create(
      rewriter, loc, VectorType::get({channels, 2}, element), pairs);
  SmallVector<Value> indices(rank, zero);
  auto write = vector::TransferWriteOp::create(
      rewriter, loc, pairs, op.getDpsInits()[0], indices,
      ArrayRef<bool>{true, true});
  rewriter.replaceOp(op, write.getResult());
  return success();
}

/// Tiles every loop of `op` but the last to 1 and the last to `chunk`
/// (0: whole), for vectorization: one row (or chunk of a row) per tile.
LogicalResult TileAndVectorize::tileRows(RewriterBase &rewriter,
                                         linalg::GenericOp op, int64_t chunk) {
  auto outType = cast<RankedTensorType>(op.getDpsInits()[0].getType());
  int64_t rank = outType.getRank();
  if (!outType.hasStaticShape() || rank < 1 || outType.getNumElements() == 0)
    return failure();
  SmallVector<int64_t> sizes(rank, 1);
  sizes.back() = chunk;
  return tileForVectorization(rewriter, op, sizes);
}

/// Gives the tensor that `op`'s input `index` reads (through extract_slice ops)
/// a row pitch one cache line longer when its rows are a multiple of
/// kRepitchRowBytes long. A cache block of a few channels then walks over rows
/// that all map to the same few L1 sets (64 sets of 64-byte lines: 512-byte
/// rows use 8 of them, 4 KiB of the L1; 8 KiB rows one set per line, 8 ways),
/// and every row of the block misses the L1. With one more line per row,
/// consecutive rows use consecutive sets. An existing zero-padding copy
/// (`tensor.pad`) gets one more line of high padding on its last dimension, at
/// no cost. Otherwise, when the contraction does at least
/// kRepitchFlopsPerElement of work per element, the tensor is copied into the
/// first columns of a wider buffer (the extra line per row is never read, so it
/// is not written): a `bufferization.alloc_tensor` and an extract_slice of it
/// as the destination of a copy, one contiguous row (a memcpy) at a time, split
/// over threads unless it already runs inside an scf.forall. Returns whether it
/// changed the IR.
bool TileAndVectorize::repitchInput(RewriterBase &rewriter,
                                    linalg::GenericOp op, unsigned index) {
  // The tensor to widen: the root of the operand's slices, or, for a
  // strided slice (a strided 1x1 filter gradient's input, per reduction
  // block), that slice itself: the copy then also gathers it (its rows are
  // `stride` rows apart in memory).
  Value root = op.getDpsInputs()[index];
  int64_t rowStride = 1;
  auto strided = root.getDefiningOp<tensor::ExtractSliceOp>();
  if (strided && !strided.hasUnitStride() &&
      strided.getType().getRank() >= 2) {
    std::optional<int64_t> s = getConstantIntValue(
        strided.getMixedStrides()[strided.getType().getRank() - 2]);
    rowStride = s ? *s : 1;
  } else {
    while (auto slice = root.getDefiningOp<tensor::ExtractSliceOp>())
      root = slice.getSource();
  }
  if (repitched.contains(root))
    return false;
  auto type = dyn_cast<RankedTensorType>(root.getType());
  if (!type || !type.hasStaticShape() || type.getRank() < 2 ||
      !type.getElementType().isIntOrFloat())
    return false;
  int64_t elemBytes = type.getElementTypeBitWidth() / 8;
  if (elemBytes == 0 || 64 % elemBytes != 0)
    return false;
  int64_t pitch = type.getShape().back() * elemBytes * rowStride;
  if (pitch == 0 || pitch % kRepitchRowBytes != 0)
    return false;
  int64_t rank = type.getRank();
  int64_t extra = 64 / elemBytes;
  Location loc = root.getLoc();
  SmallVector<OpFoldResult> offsets(rank, rewriter.getIndexAttr(0)), sizes,
      strides(rank, rewriter.getIndexAttr(1));
  for (int64_t d : type.getShape())
    sizes.push_back(rewriter.getIndexAttr(d));

  if (auto pad = root.getDefiningOp<tensor::PadOp>()) {
    Value padValue = pad.getConstantPaddingValue();
    SmallVector<OpFoldResult> low = pad.getMixedLowPad(),
                              high = pad.getMixedHighPad();
    std::optional<int64_t> lastHigh = getConstantIntValue(high.back());
    if (!padValue || pad.getNofold() || !lastHigh)
      return false;
    high.back() = rewriter.getIndexAttr(*lastHigh + extra);
    SmallVector<int64_t> shape(type.getShape());
    shape.back() += extra;
    rewriter.setInsertionPoint(pad);
    auto wide = tensor::PadOp::create(
        rewriter, loc, RankedTensorType::get(shape, type.getElementType()),
        pad.getSource(), low, high, padValue);
    Value narrow = tensor::ExtractSliceOp::create(rewriter, loc, type, wide,
                                                  offsets, sizes, strides);
    rewriter.replaceOp(pad, narrow);
    return true;
  }

  // The work of every run of `op`: its own times the static trip counts of
  // the loops around it (the reduction blocks and taps that each read a
  // part of `root`).
  int64_t flops = 2;
  for (int64_t r : loopRangeBounds(op))
    flops *= r;
  for (auto loop = op->getParentOfType<LoopLikeOpInterface>(); loop;
       loop = loop->getParentOfType<LoopLikeOpInterface>()) {
    std::optional<SmallVector<OpFoldResult>> lbs = loop.getLoopLowerBounds(),
                                             ubs = loop.getLoopUpperBounds(),
                                             steps = loop.getLoopSteps();
    if (!lbs || !ubs || !steps)
      continue;
    for (auto [lb, ub, step] : llvm::zip(*lbs, *ubs, *steps)) {
      std::optional<int64_t> l = getConstantIntValue(lb),
                             u = getConstantIntValue(ub),
                             st = getConstantIntValue(step);
      if (l && u && st && *st > 0 && *u > *l)
        flops *= llvm::divideCeil(*u - *l, *st);
    }
  }
  if (flops < kRepitchFlopsPerElement * type.getNumElements())
    return false;
  SmallVector<int64_t> shape(type.getShape());
  shape.back() += extra;
  rewriter.setInsertionPointAfterValue(root);
  Value buffer = bufferization::AllocTensorOp::create(
      rewriter, loc, RankedTensorType::get(shape, type.getElementType()),
      ValueRange{});
  Value dest = tensor::ExtractSliceOp::create(rewriter, loc, type, buffer,
                                              offsets, sizes, strides);
  AffineMap identity = rewriter.getMultiDimIdentityMap(rank);
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  auto copy = linalg::GenericOp::create(
      rewriter, loc, TypeRange{type}, ValueRange{root}, ValueRange{dest},
      ArrayRef<AffineMap>{identity, identity}, iterators,
      [](OpBuilder &b, Location l, ValueRange args) {
        linalg::YieldOp::create(b, l, args[0]);
      });
  rewriter.replaceAllUsesExcept(root, copy.getResult(0), copy);
  // Threads over the first dimension with at least as many iterations
  // (not inside another scf.forall, e.g. a tap's: no nested parallelism).
  linalg::GenericOp rows = copy;
  Value result = copy.getResult(0);
  bool threadSplit = false;
  int64_t threads = threadCount();
  if (threads > 1 && !copy->getParentOfType<scf::ForallOp>())
    for (int64_t d = 0; d + 1 < rank; ++d) {
      if (type.getDimSize(d) < threads)
        continue;
      SmallVector<int64_t> split(rank, 0);
      split[d] = (type.getDimSize(d) + threads - 1) / threads;
      auto threaded = tile(rewriter, rows, split, /*forall=*/true);
      if (succeeded(threaded)) {
        rows = cast<linalg::GenericOp>(threaded->tiledOps.back());
        result = threaded->replacements[0];
        threadSplit = true;
      }
      break;
    }
  // One row at a time: the tile is a pure copy of a row slice, replaced by
  // the slice itself, so that the row's insert_slice bufferizes to a
  // contiguous memref.copy (a memcpy of the row).
  SmallVector<int64_t> row(rank, 1);
  row.back() = 0;
  auto tiled = tile(rewriter, rows, row);
  if (succeeded(tiled)) {
    if (!threadSplit)
      result = tiled->replacements[0];
    auto rowCopy = cast<linalg::GenericOp>(tiled->tiledOps.back());
    rewriter.replaceOp(rowCopy, rowCopy.getDpsInputs()[0]);
  }
  // The other taps reading the same tensor find it done.
  repitched.insert(result);
  return true;
}

/// Sets the insertion point for a per-thread scratch tensor of `op`'s
/// blocks: the start of the enclosing scf.forall's body (a thread), or of
/// the function.
static void setScratchInsertionPoint(RewriterBase &rewriter, Operation *op) {
  if (auto forall = op->getParentOfType<scf::ForallOp>())
    rewriter.setInsertionPointToStart(forall.getBody());
  else
    rewriter.setInsertionPointToStart(
        &op->getParentOfType<FunctionOpInterface>().getFunctionBody().front());
}

/// A cache block of a tiny-Cin filter gradient (docs/Lowering.md §2.1)
/// reads its rows from the pack, a copy of every output position's window
/// ([b, o..., kf..., ci], collapsed to [b, o..., rows]) made in one pass
/// over the whole input before the contraction. That pack is several times
/// the input's size and, with out_backprop, streams from memory: a 16 x 48
/// x 480 single-channel 3x3 layer wrote and re-read a 13 MiB pack beside
/// its 24 MiB out_backprop. Here the block packs its own positions instead,
/// into a scratch tensor that stays in the L1 while the block's register
/// tiles read it (the scratch is allocated once, outside the block loops:
/// at the start of the enclosing scf.forall body, or of the function). The
/// whole pack is left without uses and erased as dead code. Only static
/// blocks of a row-gather pack are fused.
linalg::GenericOp TileAndVectorize::fuseInputPack(RewriterBase &rewriter,
                                                  linalg::GenericOp op) {
  auto slice = op.getDpsInputs()[0].getDefiningOp<tensor::ExtractSliceOp>();
  if (!slice || slice.getSourceType().getRank() != slice.getType().getRank() ||
      !slice.hasUnitStride())
    return op;
  std::optional<RowPack> found = findRowPack(slice);
  // The slice's leading dimensions [b, o...] are the pack's; its last one
  // (the rows) is whole and covers the pack's trailing dimensions.
  if (!found || !isConstantIntValue(slice.getMixedOffsets().back(), 0) ||
      slice.getType().getShape().back() !=
          slice.getSourceType().getShape().back())
    return op;
  // The block's sizes, static in every block: a peeled remainder block
  // (`range - iv` positions, in a loop of one iteration) has its loop
  // promoted first so that its size folds to a constant.
  for (Operation *parent = op->getParentOp();
       parent && !isa<scf::ForallOp, FunctionOpInterface>(parent);) {
    Operation *next = parent->getParentOp();
    if (auto loop = dyn_cast<scf::ForOp>(parent)) {
      std::optional<APInt> trips = loop.getStaticTripCount();
      if (trips && *trips == 1)
        (void)loop.promoteIfSingleIteration(rewriter);
    }
    parent = next;
  }
  SmallVector<int64_t> sliceShape;
  for (OpFoldResult size : slice.getMixedSizes()) {
    FailureOr<int64_t> value = ValueBoundsConstraintSet::computeConstantBound(
        presburger::BoundType::EQ, ValueBoundsConstraintSet::Variable(size));
    if (failed(value))
      return op;
    sliceShape.push_back(*value);
  }
  linalg::GenericOp pack = found->pack;
  tensor::CollapseShapeOp collapse = found->collapse;
  int64_t lead = found->lead;
  auto packType = cast<RankedTensorType>(pack.getResult(0).getType());
  int64_t packRank = packType.getRank();
  SmallVector<OpFoldResult> offsets, sizes;
  SmallVector<int64_t> tileShape;
  for (int64_t d = 0; d < lead; ++d) {
    offsets.push_back(slice.getMixedOffsets()[d]);
    sizes.push_back(rewriter.getIndexAttr(sliceShape[d]));
    tileShape.push_back(sliceShape[d]);
  }
  for (int64_t d = lead; d < packRank; ++d) {
    offsets.push_back(rewriter.getIndexAttr(0));
    sizes.push_back(rewriter.getIndexAttr(packType.getShape()[d]));
    tileShape.push_back(packType.getShape()[d]);
  }
  // Unit-stride runs of a single-channel input: the scratch is packed
  // transposed, [rows, b, o...]. Each of its rows is then a contiguous copy
  // of a run of the input (whole vectors, instead of one short run per
  // output position), and the register tiles broadcast their row operands
  // from it all the same.
  MLIRContext *ctx = rewriter.getContext();
  bool transposed = found->unitStrideRuns;
  SmallVector<int64_t> scratchShape(tileShape);
  if (transposed)
    std::rotate(scratchShape.begin(), scratchShape.begin() + lead,
                scratchShape.end());

  // The scratch: outside every loop of the block, inside the thread's body.
  OpBuilder::InsertionGuard guard(rewriter);
  setScratchInsertionPoint(rewriter, op);
  Value scratch = tensor::EmptyOp::create(rewriter, pack.getLoc(),
                                          scratchShape,
                                          packType.getElementType());

  rewriter.setInsertionPoint(op);
  FailureOr<TilingResult> tiled =
      cast<TilingInterface>(pack.getOperation())
          .getTiledImplementation(rewriter, offsets, sizes);
  if (failed(tiled) || tiled->tiledOps.size() != 1)
    return op;
  auto packTile = cast<linalg::GenericOp>(tiled->tiledOps.front());
  if (transposed) {
    // Same loops and input; the output indexed [kf..., b, o...].
    SmallVector<AffineExpr> outExprs;
    for (int64_t d = lead; d < packRank; ++d)
      outExprs.push_back(getAffineDimExpr(d, ctx));
    for (int64_t d = 0; d < lead; ++d)
      outExprs.push_back(getAffineDimExpr(d, ctx));
    SmallVector<AffineMap> maps{
        packTile.getIndexingMapsArray()[0],
        AffineMap::get(packRank, 0, outExprs, ctx)};
    auto transposedTile = linalg::GenericOp::create(
        rewriter, pack.getLoc(), TypeRange{scratch.getType()},
        ValueRange{packTile.getDpsInputs()[0]}, ValueRange{scratch}, maps,
        packTile.getIteratorTypesArray(),
        [](OpBuilder &nb, Location nl, ValueRange args) {
          linalg::YieldOp::create(nb, nl, args[0]);
        });
    rewriter.eraseOp(packTile);
    packTile = transposedTile;
  } else {
    rewriter.modifyOpInPlace(
        packTile, [&] { packTile.getDpsInitsMutable()[0].set(scratch); });
  }
  Value rows = packTile.getResult(0);
  if (collapse && !transposed)
    rows = tensor::CollapseShapeOp::create(
        rewriter, op.getLoc(), rows, collapse.getReassociationIndices());
  if (transposed && packRank - lead > 1) {
    SmallVector<ReassociationIndices> reassociation(1);
    for (int64_t d = 0; d < packRank - lead; ++d)
      reassociation[0].push_back(d);
    for (int64_t d = packRank - lead; d < packRank; ++d)
      reassociation.push_back({d});
    rows = tensor::CollapseShapeOp::create(rewriter, op.getLoc(), rows,
                                           reassociation);
  }
  if (!transposed && rows.getType() != slice.getType()) {
    if (!tensor::CastOp::areCastCompatible(rows.getType(), slice.getType())) {
      rewriter.eraseOp(packTile);
      return op;
    }
    rows = tensor::CastOp::create(rewriter, op.getLoc(), slice.getType(), rows);
  }
  linalg::GenericOp result = op;
  if (transposed) {
    // The contraction reads the rows from the scratch's first dimension.
    SmallVector<AffineMap> maps = op.getIndexingMapsArray();
    ArrayRef<AffineExpr> e = maps[0].getResults();
    SmallVector<AffineExpr> rotated{e.back()};
    rotated.append(e.begin(), e.end() - 1);
    maps[0] = AffineMap::get(maps[0].getNumDims(), 0, rotated, ctx);
    result = linalg::GenericOp::create(
        rewriter, op.getLoc(), op->getResultTypes(),
        ValueRange{rows, op.getDpsInputs()[1]}, op.getDpsInits(), maps,
        op.getIteratorTypesArray());
    rewriter.inlineRegionBefore(op.getRegion(), result.getRegion(),
                                result.getRegion().begin());
    result->setDiscardableAttrs(op->getDiscardableAttrDictionary());
    rewriter.replaceOp(op, result->getResults());
  } else {
    rewriter.modifyOpInPlace(op, [&] { op->setOperand(0, rows); });
  }
  SmallVector<Operation *> chain{slice.getOperation()};
  for (tensor::ExtractSliceOp whole : found->wholeSlices)
    chain.push_back(whole.getOperation());
  chain.append(
      {collapse ? collapse.getOperation() : nullptr, pack.getOperation()});
  for (Operation *dead : chain)
    if (dead && dead->use_empty())
      rewriter.eraseOp(dead);
  if (directRows)
    packTile->setAttr(kDirectRowsAttr, rewriter.getUnitAttr());
  else if (transposed)
    (void)tileTransposedPack(rewriter, packTile);
  else
    (void)tileRowGather(rewriter, packTile);
  return result;
}

/// Tiles a transposed pack tile (fuseInputPack: loops [b, o..., kf...],
/// output [kf..., b, o...]) for vectorization: one run of the input per
/// (row, b, o_0..o_{n-2}), in vector chunks.
LogicalResult TileAndVectorize::tileTransposedPack(RewriterBase &rewriter,
                                                   linalg::GenericOp packTile) {
  AffineMap outMap = packTile.getIndexingMapsArray()[1];
  int64_t packRank = outMap.getNumDims();
  if (!outMap.isPermutation() || packRank < 2)
    return failure();
  // The output's first dimension is loop `lead`, the first tap dimension.
  int64_t lead = outMap.getDimPosition(0);
  if (lead < 1)
    return failure();
  int64_t run = packTile.getStaticLoopRanges()[lead - 1];
  auto packType = cast<RankedTensorType>(packTile.getResult(0).getType());
  int64_t vector = lanes(packType.getElementType());
  SmallVector<int64_t> packSizes(packRank, 1);
  packSizes[lead - 1] = run <= 4 * vector ? 0 : 2 * vector;
  return tileForVectorization(rewriter, packTile, packSizes);
}

/// Row panels: a filter-gradient contraction [ci, co, reduction...] whose
/// register tiles take their rows (ci) from an input with a long row pitch
/// (channels-last rows of 256+ channels, or strided ones) and whose ci tile
/// loop is the outermost, with several co tiles inside it, reads the same
/// ci column of its reduction block (rows x positions) once per co tile.
/// Those positions lie a pitch apart: 1 KiB apart they fall into 4 of the
/// L1's 64 sets, 4 KiB apart into one, and the column misses the L1 on every
/// sweep. The ci loop is tiled here, before the register tiles, and each
/// full ci tile first copies its column into a small contiguous scratch (the
/// panel: positions x rows, allocated once per thread), which every co tile
/// then reads from the L1: the BLIS-style packing of a GEMM's left-hand
/// panel. The peeled remainder tile of ci reads the input as before.
/// Returns the contractions left for tileInner (the op itself when it does
/// not qualify).
SmallVector<linalg::GenericOp>
TileAndVectorize::packRowPanels(RewriterBase &rewriter, linalg::GenericOp op) {
  SmallVector<linalg::GenericOp> parts{op};
  auto role = op->getAttrOfType<StringAttr>(kRoleAttrName);
  auto sizesAttr = op->getAttrOfType<DenseI64ArrayAttr>(kInnerSizesAttr);
  if (!role || role.getValue() != kRoleDwTap || !sizesAttr ||
      op->hasAttr(kUnrollTapsDimAttr) || op->hasAttr(kDenseTapRowsAttr) ||
      op->hasAttr(kPrefetchRowsOpAttr) || op.getNumDpsInputs() != 2 ||
      op.getNumDpsInits() != 1)
    return parts;
  // AVX-512 only: without it, the input is copied to a conflict-free row
  // pitch instead (repitchInput).
  if ((vectorBits ? vectorBits : host.vectorBits) < 512)
    return parts;
  // The reduction extents may be dynamic (a tap's cut rows): the panel is
  // then sized for their upper bounds.
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  int64_t rank = static_cast<int64_t>(ranges.size());
  if (rank < 3 || ShapedType::isDynamic(ranges[0]) ||
      ShapedType::isDynamic(ranges[1]))
    return parts;
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  if (iterators[0] != utils::IteratorType::parallel ||
      iterators[1] != utils::IteratorType::parallel)
    return parts;
  for (int64_t d = 2; d < rank; ++d)
    if (iterators[d] != utils::IteratorType::reduction)
      return parts;
  // Loops [ci, co, reduction...]; the output [ci, co]; the input's last
  // dimension ci, read independently of co.
  MLIRContext *ctx = rewriter.getContext();
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  AffineExpr ci = getAffineDimExpr(0, ctx), co = getAffineDimExpr(1, ctx);
  if (maps[2].getNumResults() != 2 || maps[2].getResult(0) != ci ||
      maps[2].getResult(1) != co || maps[0].getNumResults() < 2 ||
      maps[0].getResults().back() != ci || maps[0].isFunctionOfDim(1))
    return parts;
  ArrayRef<int64_t> sizes = sizesAttr.asArrayRef();
  int64_t rows = sizes[0];
  // (Every full ci tile copies exactly `rows` channels.)
  if (rows <= 0 || ranges[0] < rows || sizes[1] <= 0 ||
      llvm::divideCeil(ranges[1], sizes[1]) < kPanelMinColumnTiles)
    return parts;
  // The ci tiles must be the outermost register-tile loop.
  SmallVector<int64_t> order;
  if (auto ic = op->getAttrOfType<DenseI64ArrayAttr>(kInnerInterchangeAttr))
    order.assign(ic.asArrayRef().begin(), ic.asArrayRef().end());
  for (int64_t d = 0; d < rank; ++d)
    if (!llvm::is_contained(order, d))
      order.push_back(d);
  for (int64_t d : order)
    if (sizes[d] != 0) {
      if (d != 0)
        return parts;
      break;
    }
  // The input's pitch: bytes between consecutive positions of the innermost
  // reduction dimension that it reads (its row of channels times the
  // slice stride along that dimension).
  Value input = op.getDpsInputs()[0];
  auto inputType = dyn_cast<RankedTensorType>(input.getType());
  if (!inputType || !inputType.getElementType().isIntOrFloat() ||
      inputType.getRank() < 2)
    return parts;
  int64_t elemBytes = inputType.getElementTypeBitWidth() / 8;
  Value root = input;
  int64_t stride = 1;
  while (auto slice = root.getDefiningOp<tensor::ExtractSliceOp>()) {
    int64_t r = slice.getType().getRank();
    if (r == slice.getSourceType().getRank()) {
      std::optional<int64_t> st =
          getConstantIntValue(slice.getMixedStrides()[r - 2]);
      stride *= st ? *st : 1;
    }
    root = slice.getSource();
  }
  auto rootType = dyn_cast<RankedTensorType>(root.getType());
  if (!rootType || rootType.isDynamicDim(rootType.getRank() - 1))
    return parts;
  int64_t pitch = rootType.getShape().back() * elemBytes * stride;
  // The panel's shape: the input's, rows in place of ci, each dimension at
  // its upper bound.
  SmallVector<int64_t> panelShape;
  for (auto [d, size] : llvm::enumerate(inputType.getShape())) {
    int64_t bound = size;
    if (ShapedType::isDynamic(size)) {
      FailureOr<int64_t> ub = ValueBoundsConstraintSet::computeConstantBound(
          presburger::BoundType::UB,
          ValueBoundsConstraintSet::Variable(input, d),
          /*stopCondition=*/nullptr, /*closedUB=*/true);
      if (failed(ub) || *ub <= 0)
        return parts;
      bound = *ub;
    }
    panelShape.push_back(bound);
  }
  panelShape.back() = rows;
  int64_t panelBytes = elemBytes;
  for (int64_t size : panelShape)
    panelBytes *= size;
  if (pitch < kPanelMinPitchBytes || panelBytes > kPanelMaxBytes)
    return parts;

  // The ci tiles, the remainder peeled. A zero-started block's fill goes
  // along into each tile (it moves on into the register tiles).
  SmallVector<int64_t> ciSizes(rank, 0);
  ciSizes[0] = rows;
  bool fillInner = op->hasAttr(kFillInnerAttr) && hasFilledInit(op);
  auto ciTiled = fillInner ? tileFusingFill(rewriter, op, ciSizes)
                           : tile(rewriter, op, ciSizes);
  if (failed(ciTiled))
    return parts;
  scf::ForOp ciLoop;
  if (ciTiled->loops.size() == 1)
    ciLoop = dyn_cast<scf::ForOp>(ciTiled->loops[0].getOperation());
  auto tiled = cast<linalg::GenericOp>(ciTiled->tiledOps.back());
  // tileInner leaves the ci dimension whole now.
  SmallVector<int64_t> innerSizes(sizes);
  innerSizes[0] = 0;
  tiled->setAttr(kInnerSizesAttr, rewriter.getDenseI64ArrayAttr(innerSizes));
  parts.assign({tiled});
  if (!ciLoop)
    return parts;
  scf::ForOp partial;
  if (succeeded(scf::peelForLoopAndSimplifyBounds(rewriter, ciLoop, partial)))
    partial.walk([&](linalg::GenericOp g) {
      if (g->hasAttr(kInnerSizesAttr))
        parts.push_back(g);
    });

  // The full tiles' panel: the scratch, outside every loop of the block
  // (at the start of the thread's body, or of the function).
  auto slice = tiled.getDpsInputs()[0].getDefiningOp<tensor::ExtractSliceOp>();
  if (!slice || slice.getType().getRank() != inputType.getRank())
    return parts;
  OpBuilder::InsertionGuard guard(rewriter);
  setScratchInsertionPoint(rewriter, tiled);
  Location loc = tiled.getLoc();
  Value scratch = tensor::EmptyOp::create(rewriter, loc, panelShape,
                                          inputType.getElementType());
  rewriter.setInsertionPoint(tiled);
  // The copy: one run of the tile's rows (the last dimension) per position,
  // a vector read and write each (built as vector transfers: a linalg copy
  // of the slice would fold into an insert_slice, a strided memref.copy of
  // single elements), into the scratch's leading part of the slice's
  // (possibly dynamic) sizes.
  int64_t panelRank = static_cast<int64_t>(panelShape.size());
  Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
  Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
  Value pad = arith::ConstantOp::create(
      rewriter, loc, rewriter.getZeroAttr(inputType.getElementType()));
  SmallVector<OpFoldResult> runSizes = slice.getMixedSizes();
  runSizes.back() = rewriter.getIndexAttr(rows);
  SmallVector<Value> lbs(panelRank - 1, zero), steps(panelRank - 1, one), ubs;
  for (int64_t d = 0; d + 1 < panelRank; ++d)
    ubs.push_back(getValueOrCreateConstantIndexOp(rewriter, loc, runSizes[d]));
  auto runType =
      VectorType::get({panelShape.back()}, inputType.getElementType());
  Value source = slice.getResult();
  Value dest = scratch;
  if (llvm::any_of(slice.getType().getShape(), ShapedType::isDynamic))
    dest = tensor::ExtractSliceOp::create(
        rewriter, loc, scratch,
        SmallVector<OpFoldResult>(panelRank, rewriter.getIndexAttr(0)),
        runSizes,
        SmallVector<OpFoldResult>(panelRank, rewriter.getIndexAttr(1)));
  scf::LoopNest nest = scf::buildLoopNest(
      rewriter, loc, lbs, ubs, steps, ValueRange{dest},
      [&](OpBuilder &b, Location l, ValueRange ivs,
          ValueRange args) -> scf::ValueVector {
        SmallVector<Value> indices(ivs);
        indices.push_back(zero);
        Value run = vector::TransferReadOp::create(
            b, l, runType, source, indices, pad, ArrayRef<bool>{true});
        return {vector::TransferWriteOp::create(b, l, run, args[0], indices,
                                                ArrayRef<bool>{true})
                    .getResult()};
      });
  Value panel = nest.results[0];
  if (panel.getType() != slice.getType())
    panel = tensor::CastOp::create(rewriter, loc, slice.getType(), panel);
  rewriter.modifyOpInPlace(tiled, [&] { tiled->setOperand(0, panel); });
  return parts;
}

LogicalResult TileAndVectorize::tileInner(RewriterBase &rewriter,
                                          linalg::GenericOp op) {
  auto sizes = op->getAttrOfType<DenseI64ArrayAttr>(kInnerSizesAttr);
  op->removeAttr(kInnerSizesAttr);
  auto role = op->getAttrOfType<StringAttr>(kRoleAttrName);
  if (role && role.getValue() == kRoleDwTap)
    op = fuseInputPack(rewriter, op);
  bool hoistEarly = op->hasAttr(kHoistEarlyAttr);
  op->removeAttr(kHoistEarlyAttr);
  bool stream = role && role.getValue() == kRoleDwTap &&
                op->hasAttr(kPrefetchStreamOpAttr);
  op->removeAttr(kPrefetchStreamOpAttr);
  bool streamL2 = stream && op->hasAttr(kPrefetchStreamL2OpAttr);
  op->removeAttr(kPrefetchStreamL2OpAttr);
  bool prefetchRows = op->hasAttr(kPrefetchRowsOpAttr);
  op->removeAttr(kPrefetchRowsOpAttr);
  auto rowsL2Block = op->getAttrOfType<IntegerAttr>(kPrefetchRowsL2OpAttr);
  bool rowsL2 = prefetchRows && rowsL2Block;
  op->removeAttr(kPrefetchRowsL2OpAttr);
  SmallVector<int64_t> innerInterchange;
  if (auto ic = op->getAttrOfType<DenseI64ArrayAttr>(kInnerInterchangeAttr)) {
    innerInterchange.assign(ic.asArrayRef().begin(), ic.asArrayRef().end());
    op->removeAttr(kInnerInterchangeAttr);
  }
  bool fillInner = op->hasAttr(kFillInnerAttr) && hasFilledInit(op);
  op->removeAttr(kFillInnerAttr);
  SmallVector<int64_t> unrollDims;
  if (auto dims = op->getAttrOfType<DenseI64ArrayAttr>(kUnrollDimsAttr)) {
    unrollDims.assign(dims.asArrayRef().begin(), dims.asArrayRef().end());
    op->removeAttr(kUnrollDimsAttr);
  }
  SmallVector<int64_t> unrollTwiceDims;
  if (auto dims = op->getAttrOfType<DenseI64ArrayAttr>(kUnrollTwiceDimsAttr)) {
    unrollTwiceDims.assign(dims.asArrayRef().begin(), dims.asArrayRef().end());
    op->removeAttr(kUnrollTwiceDimsAttr);
  }
  bool denseTapRows = op->hasAttr(kDenseTapRowsAttr);
  op->removeAttr(kDenseTapRowsAttr);
  SmallVector<int64_t> unrollTapsDims;
  if (auto dims = op->getAttrOfType<DenseI64ArrayAttr>(kUnrollTapsDimAttr)) {
    unrollTapsDims.assign(dims.asArrayRef().begin(), dims.asArrayRef().end());
    op->removeAttr(kUnrollTapsDimAttr);
  }
  // Tap clipping (clipPhaseTaps): the first output row of this tile along
  // every spatial dimension where its register tiles have one row.
  SmallVector<int64_t> phaseWindow;
  SmallVector<SmallVector<OpFoldResult>> phaseRows;
  if (role && role.getValue() == kRoleTransposePhase)
    if (auto window =
            op->getAttrOfType<DenseI64ArrayAttr>(kPhaseWindowAttrName)) {
      phaseWindow.assign(window.asArrayRef().begin(),
                         window.asArrayRef().end());
      int64_t n = static_cast<int64_t>(phaseWindow.size()) / 3;
      SmallVector<int64_t> extents = op.getStaticLoopRanges();
      AffineMap outMap = op.getIndexingMapsArray()[2];
      phaseRows.resize(n);
      for (int64_t d = 0; d < n; ++d) {
        int64_t dim = 1 + d;
        if (!(sizes[dim] == 1 || (sizes[dim] == 0 && extents[dim] == 1)))
          continue;
        std::optional<unsigned> pos =
            outMap.getResultPosition(getAffineDimExpr(dim, op.getContext()));
        if (!pos)
          continue;
        if (auto offsets = phaseRowOffsets(op, *pos)) {
          phaseRows[d] = std::move(*offsets);
          phaseRows[d].push_back(rewriter.getIndexAttr(0));
        }
      }
    }
  SmallVector<LoopLikeOpInterface> loops;
  // The dimension each of `loops` runs over (empty if unknown).
  SmallVector<int64_t> loopDims;
  Operation *tiledOp = nullptr;
  // (The op is replaced by its tiling below.)
  int64_t outRank =
      cast<RankedTensorType>(op.getDpsInits()[0].getType()).getRank();
  if (fillInner) {
    // The register tiles over the parallel dimensions first, each with its
    // own slice of the zero fill, then the reduction loops inside them: the
    // fill of a tile is a zero vector written to the accumulator slice that
    // the hoisted accumulator read then folds to (no zero-fill pass over the
    // output in memory, no reload of it).
    SmallVector<int64_t> parallelSizes(sizes.asArrayRef()),
        reductionSizes(sizes.asArrayRef());
    for (auto [d, type] : llvm::enumerate(op.getIteratorTypesArray())) {
      if (type == utils::IteratorType::reduction)
        parallelSizes[d] = 0;
      else
        reductionSizes[d] = 0;
    }
    auto parallelTiled = tileFusingFill(rewriter, op, parallelSizes,
                                        /*forall=*/false, innerInterchange);
    if (failed(parallelTiled))
      return failure();
    auto parallelOp = cast<linalg::GenericOp>(parallelTiled->tiledOps.back());
    if (auto fill =
            parallelOp.getDpsInits()[0].getDefiningOp<linalg::FillOp>()) {
      rewriter.setInsertionPoint(fill);
      FailureOr<linalg::GenericOp> generic =
          linalg::generalizeNamedOp(rewriter, fill);
      if (succeeded(generic)) {
        (*generic)->setAttr(kVectorizeAttr, rewriter.getUnitAttr());
        // Its columns are split where the tile's are (a 21-column tile as
        // 16 + 5): the hoisted accumulator reads then fold to its zeros.
        if (auto cols = parallelOp->getAttrOfType<IntegerAttr>(kColsDimAttr))
          if (std::optional<unsigned> pos =
                  parallelOp.getIndexingMapsArray().back().getResultPosition(
                      getAffineDimExpr(cols.getInt(), rewriter.getContext())))
            (*generic)->setAttr(kColsDimAttr, rewriter.getI64IntegerAttr(*pos));
      }
    }
    auto reductionTiled = tile(rewriter, parallelOp, reductionSizes);
    if (failed(reductionTiled))
      return failure();
    markUnrolledLoops(rewriter, reductionTiled->loops, reductionSizes, {},
                      unrollDims);
    markUnrolledLoops(rewriter, reductionTiled->loops, reductionSizes, {},
                      unrollTwiceDims, /*count=*/2);
    if (!phaseRows.empty())
      clipPhaseTaps(
          rewriter, phaseWindow, phaseRows, parallelTiled->loops,
          tiledLoopDims(parallelTiled->loops, parallelSizes, innerInterchange),
          reductionTiled->loops,
          tiledLoopDims(reductionTiled->loops, reductionSizes, {}));
    llvm::append_range(loops, parallelTiled->loops);
    llvm::append_range(loops, reductionTiled->loops);
    SmallVector<int64_t> parallelDims =
        tiledLoopDims(parallelTiled->loops, parallelSizes, innerInterchange);
    SmallVector<int64_t> reductionDims =
        tiledLoopDims(reductionTiled->loops, reductionSizes, {});
    if (parallelDims.size() == parallelTiled->loops.size() &&
        reductionDims.size() == reductionTiled->loops.size()) {
      loopDims = parallelDims;
      llvm::append_range(loopDims, reductionDims);
    }
    tiledOp = reductionTiled->tiledOps.back();
  } else {
    auto innerTiled = tile(rewriter, op, sizes.asArrayRef(), /*forall=*/false,
                           innerInterchange);
    if (failed(innerTiled))
      return failure();
    markUnrolledLoops(rewriter, innerTiled->loops, sizes.asArrayRef(),
                      innerInterchange, unrollDims);
    markUnrolledLoops(rewriter, innerTiled->loops, sizes.asArrayRef(),
                      innerInterchange, unrollTwiceDims, /*count=*/2);
    if (!phaseRows.empty()) {
      SmallVector<int64_t> dims = tiledLoopDims(
          innerTiled->loops, sizes.asArrayRef(), innerInterchange);
      clipPhaseTaps(rewriter, phaseWindow, phaseRows, innerTiled->loops, dims,
                    innerTiled->loops, dims);
    }
    llvm::append_range(loops, innerTiled->loops);
    loopDims =
        tiledLoopDims(innerTiled->loops, sizes.asArrayRef(), innerInterchange);
    tiledOp = innerTiled->tiledOps.back();
  }
  if (hoistEarly)
    for (LoopLikeOpInterface loop : loops)
      loop->setAttr(kHoistEarlyAttr, rewriter.getUnitAttr());
  // A contraction that streams out_backprop once (conv.dw_stream): its
  // innermost reduction loop (over the positions of a block, around the
  // register tile's contraction) is marked for the prefetch of the next
  // block's rows (conv-cpu-lower-vectors); tiles marked in tileOne get the
  // prefetch of both operands' next rows.
  if ((stream || prefetchRows) && !loops.empty() &&
      tiledOp->getParentOp() == loops.back().getOperation()) {
    loops.back()->setAttr(prefetchRows ? kPrefetchRowsAttr : kPrefetchRhsAttr,
                          rewriter.getUnitAttr());
    // Into the L2 only, and each line by one of the tiles of rows that
    // all read it (the loop over the ci dimension, [(g,) ci, co, ...]), and
    // of the column tiles inside it (the co loop): the prefetches walk the
    // next block's whole rows in memory order (conv-cpu-lower-vectors).
    // For the streaming contractions (before stop 77 each column tile
    // prefetched its own columns, in every tile of rows): conv-run, 20-60
    // alternating call pairs, 1 / 2 threads, Ice Lake: VGG's 224x224x3 ->
    // 64 (N16, 205 MB of out_backprop) +7-9 / +4-9 % in three runs,
    // DeepBench's 108x108x3 -> 64 s2 (6 MB) -4 to +5 / -5 to +3 % in four.
    if ((streamL2 && !prefetchRows) || rowsL2) {
      loops.back()->setAttr(kPrefetchL2Attr, rewriter.getUnitAttr());
      int64_t ciDim = outRank == 3 ? 1 : 0;
      if (loopDims.size() == loops.size())
        for (auto [loop, d] : llvm::zip(loops, loopDims)) {
          if (d == ciDim && isa<scf::ForOp>(loop.getOperation()))
            loop->setAttr(kPrefetchTilesAttr, rewriter.getUnitAttr());
          if (d == ciDim + 1 && isa<scf::ForOp>(loop.getOperation()))
            loop->setAttr(kPrefetchTilesInnerAttr, rewriter.getUnitAttr());
        }
      if (rowsL2 && rowsL2Block.getInt() > 0)
        loops.back()->setAttr(kPrefetchDistanceAttr, rowsL2Block);
    }
  }
  tiledOp->setAttr(kVectorizeAttr, rewriter.getUnitAttr());
  peelLoops(rewriter, loops);
  // Tap rows and planes: the taps' loops (static, one tap a step) unrolled,
  // the innermost first, each copy of the tile marked as the tile was.
  if (!unrollTapsDims.empty() && !fillInner) {
    SmallVector<int64_t> dims =
        tiledLoopDims(loops, sizes.asArrayRef(), innerInterchange);
    Operation *positions = nullptr;
    SmallVector<scf::ForOp> taps;
    for (auto [loop, d] : llvm::zip(loops, dims)) {
      if (llvm::is_contained(unrollTapsDims, d)) {
        if (auto forOp = dyn_cast<scf::ForOp>(loop.getOperation()))
          taps.push_back(forOp);
      } else {
        positions = loop.getOperation();
      }
    }
    for (scf::ForOp tapLoop : llvm::reverse(taps))
      if (failed(loopUnrollFull(tapLoop)))
        return failure();
    // Its loop over the window positions prefetches the rows that it reads
    // kTapRowPrefetchDistance positions ahead (conv-cpu-lower-vectors,
    // `prefetch`): each position reads one new line of the window and of
    // out_backprop, 256 bytes after the last (a group block's quarter of
    // ResNeXt's rows), which the hardware prefetchers left to stall the
    // loads.
    if (positions)
      positions->setAttr(kPrefetchAheadAttr,
                         rewriter.getI64IntegerAttr(kTapRowPrefetchDistance));
    // Dense tap rows: LLVM unrolls the positions loop (see the tiling).
    if (positions && denseTapRows) {
      MLIRContext *ctx = rewriter.getContext();
      auto unroll = LLVM::LoopUnrollAttr::get(
          ctx, /*disable=*/{},
          /*count=*/rewriter.getI32IntegerAttr(kDenseTapRowUnroll),
          /*runtimeDisable=*/{}, /*full=*/{}, /*followupUnrolled=*/{},
          /*followupRemainder=*/{}, /*followupAll=*/{});
      positions->setAttr(
          conv::kLoopAnnotationAttr,
          LLVM::LoopAnnotationAttr::get(
              ctx, /*disableNonforced=*/{}, /*vectorize=*/{},
              /*interleave=*/{}, unroll, /*unrollAndJam=*/{}, /*licm=*/{},
              /*distribute=*/{}, /*pipeline=*/{}, /*peeled=*/{},
              /*unswitch=*/{}, /*mustProgress=*/{}, /*isVectorized=*/{},
              /*startLoc=*/{}, /*endLoc=*/{}, /*parallelAccesses=*/{}));
    }
  }
  return success();
}

/// The zero fills left outside every scf.forall once the contractions are
/// tiled (a dilated transposed convolution's output, part of which no phase
/// writes; a filter gradient's dW, accumulated over reduction blocks):
/// threadOverFirstDim, the last dimension included. Keras' 3x3 s2
/// dilated 16x16x128 -> 32x32x128 layer zeroed its 4 MB output on one
/// thread, the other spinning in libomp meanwhile: with 2 threads libomp
/// took 14 % of its samples, 5 % with the fill threaded (+15 %, conv-run
/// --compare, 100 call pairs, Zen 3).
void TileAndVectorize::threadFills(RewriterBase &rewriter, func::FuncOp func) {
  if (threadCount() <= 1)
    return;
  SmallVector<linalg::FillOp> fills;
  func.walk([&](linalg::FillOp op) {
    // (A fill of a memref, in IR given already bufferized, has no result.)
    if (op->getNumResults() != 1)
      return;
    auto type = dyn_cast<RankedTensorType>(op.getResult(0).getType());
    if (type && type.hasStaticShape())
      fills.push_back(op);
  });
  for (linalg::FillOp op : fills)
    (void)threadOverFirstDim(rewriter, op.getOperation(), /*orLast=*/true);
}

/// The values an index takes: a constant, or the induction variable of an
/// scf.for with constant bounds (at most `limit` values); none when unknown.
static std::optional<SmallVector<int64_t>> indexValues(Value index,
                                                       int64_t limit = 4096) {
  if (std::optional<int64_t> c = getConstantIntValue(index))
    return SmallVector<int64_t>{*c};
  auto loop = scf::getForInductionVarOwner(index);
  if (!loop)
    return std::nullopt;
  std::optional<int64_t> lb = getConstantIntValue(loop.getLowerBound());
  std::optional<int64_t> ub = getConstantIntValue(loop.getUpperBound());
  std::optional<int64_t> step = getConstantIntValue(loop.getStep());
  if (!lb || !ub || !step || *step <= 0 || (*ub - *lb) / *step > limit)
    return std::nullopt;
  SmallVector<int64_t> values;
  for (int64_t v = *lb; v < *ub; v += *step)
    values.push_back(v);
  return values;
}

namespace {
/// A vector read of a row-gather pack tile left uncopied
/// (kDirectRowsAttr): P[i..., j] = X[f(i...), g(i...) + j], j its last
/// dimension (the run), read through a collapse_shape of its trailing
/// dimensions or directly. A transposed pack (single-channel input,
/// [tap rows, b, o...]: its output map a permutation of its loops) is
/// indexed the same way in its own dimensions; its runs are the positions
/// of one tap row. The read becomes one read of X per row of the
/// vector, inserted into the vector: a contiguous piece of one run when the
/// vector's last dimension lies within one run at every value its index
/// takes, else one read per run when it covers whole runs from a run's
/// start at every value (a 9-row tile over three 3-value runs). The
/// register tiles then broadcast their row operands from the input itself,
/// and the pack tile goes away.
struct ReadRowsFromInput : public OpRewritePattern<vector::TransferReadOp> {
  using OpRewritePattern::OpRewritePattern;

  /// At most this many rows per read (each a read of X).
  static constexpr int64_t kMaxRows = 64;

  LogicalResult matchAndRewrite(vector::TransferReadOp read,
                                PatternRewriter &rewriter) const override {
    if (read.getMask() || read.hasOutOfBoundsDim())
      return failure();
    Value base = read.getBase();
    auto collapse = base.getDefiningOp<tensor::CollapseShapeOp>();
    Value packed = collapse ? collapse.getSrc() : base;
    auto pack = packed.getDefiningOp<linalg::GenericOp>();
    if (!pack || !pack->hasAttr(kDirectRowsAttr) ||
        pack.getNumDpsInputs() != 1 || pack.getNumDpsInits() != 1)
      return failure();
    // A copy: the body yields its input element.
    Block *body = pack.getBlock();
    if (body->getOperations().size() != 1 ||
        body->getTerminator()->getOperand(0) != body->getArgument(0))
      return failure();
    auto packType = cast<RankedTensorType>(pack.getResult(0).getType());
    Value input = pack.getDpsInputs()[0];
    auto inType = dyn_cast<RankedTensorType>(input.getType());
    VectorType vectorType = read.getVectorType();
    if (!packType.hasStaticShape() || !inType || inType.getRank() < 1 ||
        inType.getElementType() != packType.getElementType() ||
        vectorType.getRank() < 1 || vectorType.isScalable())
      return failure();
    SmallVector<AffineMap> maps = pack.getIndexingMapsArray();
    AffineMap inMap = maps[0];
    int64_t packRank = packType.getRank();
    int64_t run = packRank - 1;
    MLIRContext *ctx = rewriter.getContext();
    // A transposed pack (its output a permutation of its loops): the
    // input position of pack element q is inMap(outMap^-1(q)).
    if (!maps[1].isPermutation())
      return failure();
    if (!maps[1].isIdentity())
      inMap = inMap.compose(inversePermutation(maps[1]));
    // The run: the pack's last dimension, the input's last index plus
    // whatever the other dimensions add, and in no other index.
    if (inMap.getNumSymbols() != 0 ||
        static_cast<int64_t>(inMap.getNumDims()) != packRank ||
        static_cast<int64_t>(inMap.getNumResults()) != inType.getRank())
      return failure();
    for (AffineExpr e : inMap.getResults().drop_back())
      if (e.isFunctionOfDim(run))
        return failure();
    AffineExpr rest = simplifyAffineExpr(
        inMap.getResults().back() - getAffineDimExpr(run, ctx), packRank, 0);
    if (rest.isFunctionOfDim(run))
      return failure();

    // The read's dimensions: a base dimension each; the last on the run.
    SmallVector<int64_t> baseDims;
    for (AffineExpr e : read.getPermutationMap().getResults()) {
      auto dim = dyn_cast<AffineDimExpr>(e);
      if (!dim)
        return failure();
      baseDims.push_back(dim.getPosition());
    }
    SmallVector<ReassociationIndices> groups;
    if (collapse)
      groups = collapse.getReassociationIndices();
    else
      for (int64_t d = 0; d < packRank; ++d)
        groups.push_back({d});
    if (groups[baseDims.back()].back() != run)
      return failure();
    int64_t length = vectorType.getShape().back();
    int64_t runLength = packType.getDimSize(run);
    std::optional<SmallVector<int64_t>> starts =
        indexValues(read.getIndices()[baseDims.back()]);
    if (!starts || llvm::any_of(*starts, [](int64_t v) { return v < 0; }))
      return failure();
    // The vector's last dimension in pieces of `piece` elements, each within
    // one run: the whole of it (inside one run at every start), or whole
    // runs (every start at the beginning of a run).
    int64_t piece = length;
    if (llvm::any_of(*starts, [&](int64_t v) {
          return v % runLength + length > runLength;
        })) {
      if (length % runLength != 0 ||
          llvm::any_of(*starts, [&](int64_t v) { return v % runLength; }))
        return failure();
      piece = runLength;
    }
    ArrayRef<int64_t> outer = vectorType.getShape().drop_back();
    int64_t rows = 1;
    for (int64_t extent : outer)
      rows *= extent;
    if (rows * (length / piece) > kMaxRows)
      return failure();

    Location loc = read.getLoc();
    rewriter.setInsertionPoint(read);
    VectorType rowType = VectorType::get({length}, vectorType.getElementType());
    VectorType pieceType =
        VectorType::get({piece}, vectorType.getElementType());
    Value result;
    if (!outer.empty())
      result = ub::PoisonOp::create(rewriter, loc, vectorType);
    SmallVector<int64_t> position(outer.size(), 0);
    for (int64_t r = 0; r < rows; ++r) {
      Value row;
      if (piece != length)
        row = ub::PoisonOp::create(rewriter, loc, rowType);
      for (int64_t k = 0; k < length / piece; ++k) {
        // The base position of this piece of the row.
        SmallVector<OpFoldResult> baseIndex(read.getIndices().begin(),
                                            read.getIndices().end());
        for (auto [j, offset] : llvm::enumerate(position))
          if (offset != 0)
            baseIndex[baseDims[j]] = affine::makeComposedFoldedAffineApply(
                rewriter, loc, getAffineSymbolExpr(0, ctx) + offset,
                {baseIndex[baseDims[j]]});
        if (k != 0)
          baseIndex[baseDims.back()] = affine::makeComposedFoldedAffineApply(
              rewriter, loc, getAffineSymbolExpr(0, ctx) + k * piece,
              {baseIndex[baseDims.back()]});
        // As a position of the pack (delinearized along collapsed groups).
        SmallVector<OpFoldResult> packIndex(packRank);
        for (auto [b, group] : llvm::enumerate(groups)) {
          int64_t stride = 1;
          for (int64_t i = group.size() - 1; i >= 0; --i) {
            int64_t extent = packType.getDimSize(group[i]);
            AffineExpr e = getAffineSymbolExpr(0, ctx);
            if (group.size() > 1)
              e = e.floorDiv(stride) % extent;
            packIndex[group[i]] = affine::makeComposedFoldedAffineApply(
                rewriter, loc, e, {baseIndex[b]});
            stride *= extent;
          }
        }
        // The input position it copies.
        SmallVector<Value> inIndex;
        for (unsigned i = 0; i < inMap.getNumResults(); ++i)
          inIndex.push_back(getValueOrCreateConstantIndexOp(
              rewriter, loc,
              affine::makeComposedFoldedAffineApply(
                  rewriter, loc, inMap.getSubMap({i}), packIndex)));
        Value part = vector::TransferReadOp::create(
            rewriter, loc, pieceType, input, inIndex, read.getPadding(),
            ArrayRef<bool>{true});
        if (piece == length)
          row = part;
        else
          row = vector::InsertStridedSliceOp::create(
              rewriter, loc, part, row, ArrayRef<int64_t>{k * piece},
              ArrayRef<int64_t>{1});
      }
      if (outer.empty())
        result = row;
      else
        result = vector::InsertOp::create(rewriter, loc, row, result, position);
      for (int64_t j = static_cast<int64_t>(outer.size()) - 1; j >= 0; --j) {
        if (++position[j] < outer[j])
          break;
        position[j] = 0;
      }
    }
    rewriter.replaceOp(read, result);
    return success();
  }
};
} // namespace

/// Folds the unit dimensions of every static tile marked kVectorizeAttr and
/// vectorizes it.
void TileAndVectorize::vectorizeTiles(RewriterBase &rewriter,
                                      func::FuncOp func) {
  SmallVector<linalg::GenericOp> tiles;
  func.walk([&](linalg::GenericOp op) {
    if (op->hasAttr(kVectorizeAttr))
      tiles.push_back(op);
  });
  linalg::ControlDropUnitDims dropControl;
  dropControl.rankReductionStrategy =
      linalg::ControlDropUnitDims::RankReductionStrategy::ExtractInsertSlice;
  for (linalg::GenericOp op : tiles) {
    auto role = op->getAttrOfType<StringAttr>(kRoleAttrName);
    if (role && role.getValue() == kRolePairPack &&
        succeeded(vectorizePairPack(rewriter, op)))
      continue;
    bool isStatic = llvm::all_of(op->getOperandTypes(), [](Type t) {
      auto tensor = dyn_cast<RankedTensorType>(t);
      return tensor ? tensor.hasStaticShape() : !isa<ShapedType>(t);
    });
    if (!isStatic)
      continue;
    Operation *target = op;
    rewriter.setInsertionPoint(op);
    auto dropped = linalg::dropUnitDims(rewriter, op, dropControl);
    if (succeeded(dropped)) {
      rewriter.replaceOp(op, dropped->replacements);
      target = dropped->resultOp;
    }
    rewriter.setInsertionPoint(target);
    auto vectorized =
        linalg::vectorize(rewriter, target, /*inputVectorSizes=*/{},
                          /*inputScalableVecDims=*/{},
                          /*vectorizeNDExtract=*/false,
                          /*flatten1DDepthwiseConv=*/false,
                          /*assumeDynamicDimsMatchVecSizes=*/false,
                          /*createNamedContraction=*/true);
    if (succeeded(vectorized))
      rewriter.replaceOp(target, vectorized->replacements);
  }
}

void TileAndVectorize::runOnOperation() {
  host = HostVectorInfo::detect();
  repitched.clear();
  phaseOutputs.clear();
  func::FuncOp func = getOperation();
  MLIRContext *ctx = &getContext();
  IRRewriter rewriter(ctx);

  SmallVector<linalg::TransposeOp> relayouts;
  func.walk([&](linalg::TransposeOp op) {
    auto role = op->getAttrOfType<StringAttr>(kRoleAttrName);
    if (role && role.getValue() == kRoleRelayout)
      relayouts.push_back(op);
  });
  for (linalg::TransposeOp op : relayouts)
    (void)tileRelayout(rewriter, op);

  SmallVector<linalg::GenericOp> roots, rowAdds, rowGathers, casts,
      pairPacks;
  func.walk([&](linalg::GenericOp op) {
    auto role = op->getAttrOfType<StringAttr>(kRoleAttrName);
    if (role && (role.getValue() == kRoleRowAdd ||
                 role.getValue() == kRoleRowFill))
      rowAdds.push_back(op);
    else if (role && (role.getValue() == kRoleCast ||
                      role.getValue() == kRoleWinogradTransform))
      casts.push_back(op);
    else if (role && role.getValue() == kRolePairPack)
      pairPacks.push_back(op);
    else if (role && role.getValue() == kRoleRowGather)
      rowGathers.push_back(op);
    else if (role)
      roots.push_back(op);
  });
  numPhaseContractions = llvm::count_if(roots, [](linalg::GenericOp op) {
    return op->getAttrOfType<StringAttr>(kRoleAttrName).getValue() ==
           kRoleTransposePhase;
  });
  for (linalg::GenericOp op : rowAdds)
    (void)tileRowAdd(rewriter, op);
  for (linalg::GenericOp op : casts)
    (void)tileCast(rewriter, op);
  for (linalg::GenericOp op : pairPacks)
    (void)tilePairPack(rewriter, op);
  // Filter-gradient contractions that accumulate into a zero-filled dW
  // fill their own output slice instead, and their first reduction blocks
  // start from zero (zeroStartFirstBlocks): a 3x3 512 -> 512 layer no
  // longer zeroes its 9 MiB dW and reads it back.
  SmallVector<linalg::GenericOp> taps;
  for (linalg::GenericOp op : roots)
    if (op->getAttrOfType<StringAttr>(kRoleAttrName).getValue() == kRoleDwTap)
      taps.push_back(op);
  (void)conv::detail::sinkZeroFills(rewriter, func, taps);
  for (linalg::GenericOp op : roots)
    (void)tileOne(rewriter, op);
  func.walk([](linalg::GenericOp op) {
    op->removeAttr(conv::detail::kZeroStartAttr);
  });
  SmallVector<linalg::GenericOp> blocked;
  func.walk([&](linalg::GenericOp op) {
    if (op->hasAttr(kInnerSizesAttr))
      blocked.push_back(op);
  });
  for (linalg::GenericOp op : blocked)
    for (linalg::GenericOp part : packRowPanels(rewriter, op))
      (void)tileInner(rewriter, part);
  // The row gathers that no cache block packs itself (fuseInputPack erased
  // those) copy their whole tensor up front.
  rowGathers.clear();
  func.walk([&](linalg::GenericOp op) {
    auto role = op->getAttrOfType<StringAttr>(kRoleAttrName);
    if (role && role.getValue() == kRoleRowGather &&
        !op->hasAttr(kVectorizeAttr) && !op->hasAttr(kDirectRowsAttr))
      rowGathers.push_back(op);
  });
  for (linalg::GenericOp op : rowGathers)
    (void)tileRowGather(rewriter, op);
  threadFills(rewriter, func);

  // Simplify the peeled loops' bounds and slices before looking at shapes.
  auto canonicalize = [&](RewritePatternSet &patterns) {
    addCanonicalizationPatterns(ctx, patterns);
  };
  {
    RewritePatternSet patterns(ctx);
    canonicalize(patterns);
    // Tile sizes `min(range - iv, step)` inside a loop whose step divides
    // its range (e.g. the 8-chunks of a 24-long peeled reduction block) are
    // the step: fold them so that those tiles are static and vectorize.
    scf::populateSCFForLoopCanonicalizationPatterns(patterns);
    (void)applyPatternsGreedily(func, std::move(patterns),
                                structuredRewriteConfig());
  }

  // A register tile whose column count is not a multiple of the vector
  // width but exceeds it (the remainder tile of 53 = 32 + 21 columns with
  // 16-lane vectors) is split into whole vectors and the rest (16 + 5), in
  // the same loop nest: vectorized whole, its odd-length vectors were
  // lowered lane by lane with spills (5x slower than 48 or 64 columns).
  SmallVector<linalg::GenericOp> oddTiles;
  func.walk([&](linalg::GenericOp op) {
    if (op->hasAttr(kVectorizeAttr) && op->hasAttr(kColsDimAttr))
      oddTiles.push_back(op);
  });
  for (linalg::GenericOp op : oddTiles) {
    int64_t dim = op->getAttrOfType<IntegerAttr>(kColsDimAttr).getInt();
    op->removeAttr(kColsDimAttr);
    SmallVector<int64_t> ranges = op.getStaticLoopRanges();
    Type accType =
        cast<ShapedType>(op.getDpsInits()[0].getType()).getElementType();
    int64_t vector = lanes(accType);
    if (dim >= static_cast<int64_t>(ranges.size()) ||
        ShapedType::isDynamic(ranges[dim]))
      continue;
    // With bf16-dot, a bf16 tile's last 8k + 1 > 1 columns (the 9 of
    // 41 = 32 + 9) lose their last column too (8 + 1): their kernel rows
    // would be 9-element bf16 vectors, which keep the function off the dot
    // product (see bf16Chunk).
    // (A register tile's zero fill, fillInner, has a scalar input.)
    auto inputType = dyn_cast<ShapedType>(op.getDpsInputs()[0].getType());
    bool bf16 = bf16Dot && inputType && inputType.getElementType().isBF16();
    int64_t cols = ranges[dim], whole = 0;
    if (cols > vector && cols % vector != 0)
      whole = cols / vector * vector;
    int64_t rest = cols - whole;
    bool oddRest = bf16 && isOddBF16VectorLength(rest);
    if (whole == 0 && !oddRest)
      continue;
    Operation *remainder = op;
    if (whole > 0) {
      rewriter.setInsertionPoint(op);
      auto [head, tail] = linalg::splitOp(
          rewriter, cast<TilingInterface>(op.getOperation()), dim,
          rewriter.getIndexAttr(whole));
      for (TilingInterface part : {head, tail})
        if (part)
          part->setAttr(kVectorizeAttr, rewriter.getUnitAttr());
      remainder = tail;
    }
    if (oddRest && remainder) {
      rewriter.setInsertionPoint(remainder);
      auto [head, tail] = linalg::splitOp(
          rewriter, cast<TilingInterface>(remainder), dim,
          rewriter.getIndexAttr(rest - 1));
      for (TilingInterface part : {head, tail})
        if (part)
          part->setAttr(kVectorizeAttr, rewriter.getUnitAttr());
    }
  }
  func.walk([&](linalg::GenericOp op) { op->removeAttr(kColsDimAttr); });

  // A tile left with a dynamic size (the peeled remainder of a reduction
  // whose range depends on the filter tap: a filter gradient's output
  // positions cut to those that read the input) is tiled by 1 along those
  // dimensions, so that every step is a static tile: a loop of rank-1
  // updates.
  SmallVector<linalg::GenericOp> dynamicTiles;
  func.walk([&](linalg::GenericOp op) {
    if (op->hasAttr(kVectorizeAttr) &&
        llvm::any_of(op.getStaticLoopRanges(), ShapedType::isDynamic))
      dynamicTiles.push_back(op);
  });
  for (linalg::GenericOp op : dynamicTiles) {
    SmallVector<int64_t> sizes;
    for (int64_t range : op.getStaticLoopRanges())
      sizes.push_back(ShapedType::isDynamic(range) ? 1 : 0);
    // Inside loops whose accumulator slices are hoisted early (below), these
    // loops' are too, first: else the enclosing loop's hoisting would take
    // the accumulator's read and write from inside this loop's body and
    // leave values of that body used outside it (a grouped filter
    // gradient's tap whose block of one row is cut to a dynamic 0 or 1).
    bool hoistEarly = false;
    for (Operation *p = op->getParentOp(); p && !hoistEarly;
         p = p->getParentOp())
      hoistEarly = p->hasAttr(kHoistEarlyAttr);
    auto tiled = tile(rewriter, op, sizes);
    if (succeeded(tiled)) {
      tiled->tiledOps.back()->setAttr(kVectorizeAttr, rewriter.getUnitAttr());
      if (hoistEarly)
        for (LoopLikeOpInterface loop : tiled->loops)
          loop->setAttr(kHoistEarlyAttr, rewriter.getUnitAttr());
    }
  }

  vectorizeTiles(rewriter, func);

  // Register tiles whose rows run along the batch ([rows, 1, ..., co]
  // accumulator tiles): hoist their accumulator slices out of the reduction
  // loops before the patterns below fold them into the transfers. The
  // transfer permutation-map lowering rewrites a write whose map skips unit
  // dimensions into a broadcast and a minor-identity write that no longer
  // matches its read, and the pair would stay in the loop; hoisted first,
  // the transfers inside the loops work on the loop-carried 2-D tile. (Only
  // there: elsewhere the slices must fold into the transfers, or a peeled
  // reduction remainder reading the re-inserted tile makes bufferization
  // copy it.)
  func.walk([&](LoopLikeOpInterface loop) {
    if (loop->hasAttr(kHoistEarlyAttr)) {
      loop->removeAttr(kHoistEarlyAttr);
      (void)hoistLoopInvariantSubsets(rewriter, loop);
    }
  });

  auto finalPatterns = [&]() {
    RewritePatternSet patterns(ctx);
    vector::populateVectorReductionToContractPatterns(patterns);
    vector::populateVectorTransferPermutationMapLoweringPatterns(patterns);
    tensor::populateFoldTensorSubsetIntoVectorTransferPatterns(patterns);
    // Rank-reducing slices of the accumulator (left by unit-dim folding)
    // must fold into the transfers on both sides so that the read/write
    // pair is hoistable out of the reduction loops.
    tensor::populateMergeConsecutiveInsertExtractSlicePatterns(patterns);
    tensor::populateFoldTensorSubsetOpPatterns(patterns);
    vector::TransferReadOp::getCanonicalizationPatterns(patterns, ctx);
    vector::TransferWriteOp::getCanonicalizationPatterns(patterns, ctx);
    patterns.add<ReadRowsFromInput>(ctx);
    canonicalize(patterns);
    return applyPatternsGreedily(func, std::move(patterns),
                                 structuredRewriteConfig());
  };
  if (failed(finalPatterns()))
    return signalPassFailure();
  // Pack tiles left uncopied that a user other than a register tile's
  // vector read still reads: copied after all, one run at a time.
  SmallVector<linalg::GenericOp> packTiles;
  func.walk([&](linalg::GenericOp op) {
    if (op->hasAttr(kDirectRowsAttr))
      packTiles.push_back(op);
  });
  if (packTiles.empty())
    return;
  bool copied = false;
  for (linalg::GenericOp op : packTiles) {
    op->removeAttr(kDirectRowsAttr);
    if (op->use_empty()) {
      rewriter.eraseOp(op);
    } else {
      if (op.getIndexingMapsArray()[1].isIdentity())
        (void)tileRowGather(rewriter, op);
      else
        (void)tileTransposedPack(rewriter, op);
      copied = true;
    }
  }
  if (!copied)
    return;
  vectorizeTiles(rewriter, func);
  if (failed(finalPatterns()))
    return signalPassFailure();
}
