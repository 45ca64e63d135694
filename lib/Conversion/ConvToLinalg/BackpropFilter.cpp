//===- BackpropFilter.cpp - conv.backprop_filter to linalg ----------------===//
//
// dW[k..., ci, co] = sum_{b, o...} P[b, o*s + k*d, g*Cf + ci] * dY[b, o..., co]
//
// where P is the input window [-pad_before, (out - 1) * s + k_eff -
// pad_before) per spatial dimension, zero outside the input (which also crops
// the trailing rows that a negative "used" after-pad never reads). Every tap
// k is one contraction over (batch, output spatial) of a strided slice of P
// with dY: a linalg.generic with projected-permutation indexing maps, written
// into the tap's [Cf, Cout] slice of dW. The taps are one scf.forall (they are independent),
// so the IR does not grow with the kernel size. Groups split Cin into [G, Cf] and
// Cout into [G, Cout / G] with tensor.expand_shape.
//
// Tiny input channels (Cin <= 4, channels last, no groups; e.g. the RGB
// first layer): a tap's [Cin, Cout] contraction has too few rows for a
// register tile. The trailing kernel dimensions are then fused with ci: a
// packed copy of the window P'[b, o..., kf..., ci] = P[b, o*s + kf*d, ci]
// (im2col over those dimensions) collapsed to [b, o..., kf*ci] makes one
// contraction with Prod(kf)*Cin rows per leading tap.
//
//===----------------------------------------------------------------------===//

#include "Utils.h"

#include "conv/Conversion/ConvToLinalg/ConvToLinalg.h"
#include "conv/Dialect/Conv/IR/ConvOps.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/ScopeExit.h"

#include <functional>
#include <limits>
#include <numeric>

using namespace mlir;
using namespace mlir::conv;
using namespace mlir::conv::detail;
using Layout = convgen::DataLayout;

namespace {

/// Expands dimension `dim` of `v` into [a, b].
Value expandDim(OpBuilder &b, Location loc, Value v, int64_t dim, int64_t a,
                int64_t bsize) {
  auto type = cast<RankedTensorType>(v.getType());
  SmallVector<int64_t> shape;
  SmallVector<ReassociationIndices> reassoc;
  int64_t out = 0;
  for (int64_t i = 0; i < type.getRank(); ++i) {
    if (i == dim) {
      shape.append({a, bsize});
      reassoc.push_back({out, out + 1});
      out += 2;
    } else {
      shape.push_back(type.getDimSize(i));
      reassoc.push_back({out++});
    }
  }
  return tensor::ExpandShapeOp::create(b, loc, type.clone(shape), v, reassoc);
}

/// `v` with dimension `dim` (static) reversed: one slice copy per index,
/// into a tensor.empty.
Value reverseDim(OpBuilder &b, Location loc, Value v, int64_t dim) {
  auto type = cast<RankedTensorType>(v.getType());
  int64_t rank = type.getRank(), size = type.getDimSize(dim);
  SmallVector<OpFoldResult> sizes, strides(rank, b.getIndexAttr(1));
  SmallVector<int64_t> sliceShape;
  for (int64_t i = 0; i < rank; ++i) {
    int64_t d = i == dim ? 1 : type.getDimSize(i);
    sizes.push_back(b.getIndexAttr(d));
    sliceShape.push_back(d);
  }
  auto sliceType = type.clone(sliceShape);
  auto offsets = [&](int64_t k) {
    SmallVector<OpFoldResult> o(rank, b.getIndexAttr(0));
    o[dim] = b.getIndexAttr(k);
    return o;
  };
  Value out =
      tensor::EmptyOp::create(b, loc, type.getShape(), type.getElementType());
  for (int64_t k = 0; k < size; ++k) {
    Value slice = tensor::ExtractSliceOp::create(b, loc, sliceType, v,
                                                 offsets(k), sizes, strides);
    out = tensor::InsertSliceOp::create(b, loc, slice, out,
                                        offsets(size - 1 - k), sizes, strides);
  }
  return out;
}

/// Collapses dimensions [dim, dim + 1] of `v`.
Value collapseDims(OpBuilder &b, Location loc, Value v, int64_t dim) {
  auto type = cast<RankedTensorType>(v.getType());
  SmallVector<ReassociationIndices> reassoc;
  for (int64_t i = 0; i < type.getRank(); ++i) {
    if (i == dim + 1)
      continue;
    if (i == dim)
      reassoc.push_back({i, i + 1});
    else
      reassoc.push_back({i});
  }
  return tensor::CollapseShapeOp::create(b, loc, v, reassoc);
}

/// The input window of the taps `ivs` of the leading spatial dimensions
/// (ivs.size() of them): along each of those dimensions the output positions
/// o*s + k*d (a strided slice of `window` at offset k*d); the other
/// dimensions whole. `pairs`: `window` is the pair pack of the window
/// (lowerTaps), whose position i along the last spatial dimension holds
/// the positions (i, i + s); its last spatial dimension then runs over the
/// pairs of output positions (2j, 2j + 1), at 2j*s + k*d.
Value tapWindow(OpBuilder &b, Location loc,
                const convgen::BackpropFilterGeometry &g, Value window,
                ArrayRef<Value> ivs, bool pairs = false) {
  auto windowType = cast<RankedTensorType>(window.getType());
  int64_t rank = windowType.getRank();
  SmallVector<OpFoldResult> offsets(rank, b.getIndexAttr(0));
  SmallVector<OpFoldResult> sizes, strides(rank, b.getIndexAttr(1));
  SmallVector<int64_t> sliceShape(windowType.getShape());
  for (int64_t i = 0; i < rank; ++i)
    sizes.push_back(b.getIndexAttr(windowType.getDimSize(i)));
  for (int64_t d = 0, e = static_cast<int64_t>(ivs.size()); d < e; ++d) {
    int64_t dim = spatialDim(g.layout, d);
    Value off = ivs[d];
    if (g.dilations[d] != 1)
      off = arith::MulIOp::create(
          b, loc, off, arith::ConstantIndexOp::create(b, loc, g.dilations[d]));
    bool pairDim = pairs && d == g.numSpatialDims - 1;
    int64_t outSize = pairDim ? g.outSpatial[d] / 2 : g.outSpatial[d];
    offsets[dim] = off;
    sizes[dim] = b.getIndexAttr(outSize);
    strides[dim] = b.getIndexAttr((pairDim ? 2 : 1) * g.strides[d]);
    sliceShape[dim] = outSize;
  }
  return tensor::ExtractSliceOp::create(b, loc, windowType.clone(sliceShape),
                                        window, offsets, sizes, strides);
}

/// The last spatial dimension (the register tiles' reduction chunks) has
/// its zero-padding positions cut only when it is at most this long: a
/// dynamic range there leaves a remainder loop of single steps, which cost
/// more than the few padding products they save in longer rows (56- and
/// 28-position ResNet rows: -3 % and -9 % with 1 thread; 7- and 14-position
/// rows: +18 % and +4 %). With cutLongRows (AVX-512: the code generator
/// then reduces a cut row one position a step, in one loop) every length is
/// cut, and the window needs no padded copy: Zen 4, alternating processes,
/// 7-9 pairs, 1 / 2 threads: GoogLeNet's 5x5 28x28x192 -> 32 +5 / +7 %,
/// ResNet's 28x28x128 3x3 +4 / +12 %, 56x56x64 +3 / +4 %, 56x56x128 s2
/// +6 / +8 %, the dilated 28x28x128 +6 / +8 %.
constexpr int64_t kMaxCutLastDim = 16;

/// The number of kernel taps (positions of the filter window).
int64_t numTaps(const convgen::BackpropFilterGeometry &g) {
  int64_t taps = 1;
  for (int64_t d = 0; d < g.numSpatialDims; ++d)
    taps *= g.filterSpatial[d];
  return taps;
}

/// Whether some tap reads zero padding along spatial dimension `d` (reads
/// a window position outside the input).
bool tapsReadPadding(const convgen::BackpropFilterGeometry &g, int64_t d) {
  for (int64_t k = 0; k < g.filterSpatial[d]; ++k) {
    auto [lo, hi] = g.tapInputRange(d, k);
    if (lo > 0 || hi < g.outSpatial[d])
      return true;
  }
  return false;
}

/// Whether the taps' zero-padding positions along spatial dimension `d` can
/// be cut (docs/Lowering.md §2.5): some tap reads padding there, and every
/// tap reads the input at some position (padding wider than the input
/// leaves taps that read nothing: empty ranges, which the code generator
/// does not tile).
bool tapsCutPadding(const convgen::BackpropFilterGeometry &g, int64_t d) {
  if (!tapsReadPadding(g, d))
    return false;
  for (int64_t k = 0; k < g.filterSpatial[d]; ++k) {
    auto [lo, hi] = g.tapInputRange(d, k);
    if (hi <= lo)
      return false;
  }
  return true;
}

/// Bytes of a static tensor (at least one per element).
int64_t tensorBytes(RankedTensorType type) {
  return type.getNumElements() *
         std::max<int64_t>(1, type.getElementTypeBitWidth() / 8);
}

/// The number of trailing kernel dimensions fused with the input channels
/// (0: none): the fewest that give at least 16 rows, or all of them.
int64_t numFusedTaps(const convgen::BackpropFilterGeometry &g) {
  constexpr int64_t kMaxChannels = 4, kMinRows = 16;
  if (g.layout != Layout::ChannelsLast || g.groups != 1 ||
      g.filterInChannels > kMaxChannels)
    return 0;
  int64_t n = g.numSpatialDims, rows = g.filterInChannels;
  if (numTaps(g) <= 1)
    return 0;
  for (int64_t f = 1; f <= n; ++f) {
    rows *= g.filterSpatial[n - f];
    if (rows >= kMinRows || f == n)
      return f;
  }
  return n;
}

/// Collapses dims [first, first + count) of `v` into one.
Value collapseRange(OpBuilder &b, Location loc, Value v, int64_t first,
                    int64_t count) {
  auto type = cast<RankedTensorType>(v.getType());
  SmallVector<ReassociationIndices> reassoc;
  for (int64_t i = 0; i < type.getRank();) {
    ReassociationIndices group;
    int64_t len = i == first ? count : 1;
    for (int64_t j = 0; j < len; ++j)
      group.push_back(i + j);
    reassoc.push_back(group);
    i += len;
  }
  return tensor::CollapseShapeOp::create(b, loc, v, reassoc);
}

/// The most output channels of a single contraction that the code
/// generator keeps in one column block with several threads (one AVX-512
/// vector; AVX2 register tiles have 2 vectors of 8): more are split over the
/// threads inside each reduction block.
constexpr int64_t kMaxUnsplitColumns = 16;

/// The least work of a small-filter reduction block that lowerInBlocks
/// chooses for its divisibility: with one thread (blocks of 2 MFLOP ran
/// faster; WaveNet's 84349 positions, a prime, must not become 1-position
/// blocks), and when the tap loop is multi-threaded (each block then forks
/// and joins the threads once).
constexpr int64_t kMinBlockFlops = int64_t(1) << 20;
constexpr int64_t kMinThreadedBlockFlops = int64_t(16) << 20;

/// The fewest output positions a row of a 2-D filter gradient with a small
/// dW has for its reduction blocks to be sized for the L1
/// (BackpropFilterLoweringOptions::wideRowBlockBytes). Each block re-reads
/// and re-writes dW: one row of 48 positions or more makes that at most one
/// dW read and write per 96 FLOPs of each dW element. Narrower rows (28
/// positions: ResNet's 3x3 stride-2 128-channel layer, GoogLeNet's 5x5 192
/// -> 32) measured -3 to -7 % with 2 threads in 1-row blocks.
constexpr int64_t kMinWideRowPositions = 48;

/// The most taps in a tap plane (lowerTapPlanes) with 16-lane vectors, one
/// accumulator each at least; half with 8 lanes (AVX2's 16 registers: 3x3).
/// (5x5 kernels, 25 accumulators, ran 1.6-1.8x faster with 1 thread, 240
/// channels on Emerald Rapids, but took 260-360 ms to compile in a slow
/// period of the host, against 50 ms tap by tap.)
constexpr int64_t kMaxTapPlaneTaps = 24;

/// Tap rows (lowerTapRows): the fewest positions along the last dimension
/// that all taps read; dense tap rows' fewest and most taps along it (their
/// register tiles' K x 4 accumulators within the 24 of the grouped tiles,
/// with AVX-512's 32 registers) and their register tiles' input channels
/// (conv-cpu-tile-and-vectorize).
constexpr int64_t kMinTapRowInterior = 4;
/// At most this many accumulator rows (taps x input channels of a group) in
/// a grouped tap-row register tile, one vector each (three quarters of the
/// 32 registers; 16 groups of 8 -> 4 channels, 3 taps: +31 / +15 % with 1 /
/// 2 threads over the per-tap tiles).
constexpr int64_t kMaxTapRowAccumulatorRows = 24;
constexpr int64_t kMinDenseTapRowTaps = 5;
constexpr int64_t kMaxDenseTapRowTaps = 6;
constexpr int64_t kDenseTapRowChannels = 4;

struct BackpropFilterToLinalg : public OpRewritePattern<BackpropFilterOp> {
  BackpropFilterToLinalg(MLIRContext *ctx,
                         const BackpropFilterLoweringOptions &options)
      : OpRewritePattern(ctx), reductionBlockBytes(options.reductionBlockBytes),
        smallFilterBlockBytes(options.smallFilterBlockBytes),
        wideRowBlockBytes(options.wideRowBlockBytes),
        splitMaxBytes(options.splitMaxBytes),
        splitTapsMaxBytes(options.splitTapsMaxBytes), threads(options.threads),
        bf16Pairs(options.bf16Pairs), cutLongRows(options.cutLongRows),
        tapRowLanes(options.tapRowLanes), tapPlaneLanes(options.tapPlaneLanes) {
  }

  /// Largest input window + out_backprop block (bytes) one pass of the taps
  /// works on; 0: no reduction blocks.
  int64_t reductionBlockBytes;

  /// The block size instead for multi-tap filter gradients whose dW is at
  /// most twice this many bytes (0: none).
  int64_t smallFilterBlockBytes;

  /// The block size instead for those of them with wide output rows (the
  /// wideRows condition of lowerInBlocks; 0: none).
  int64_t wideRowBlockBytes;

  /// Split-K applies to single-tap filter gradients whose dW (all parts
  /// together) is at most this many bytes (0: never).
  int64_t splitMaxBytes;

  /// Split-K of multi-tap filter gradients (no groups) whose two partial dWs
  /// together are at most this many bytes (0: never).
  int64_t splitTapsMaxBytes;

  /// The threads the tap scf.forall is spread over (see columnParts).
  int64_t threads;

  /// bf16 filter gradients accepted by dwUsesBF16Pairs contract pairs of
  /// output positions (docs/Lowering.md §2.6).
  bool bf16Pairs;

  /// Ungrouped layers cut long last dimensions too, and read their input
  /// without a padded copy when no tap reads padding (AVX-512).
  bool cutLongRows;

  /// The f32 lanes of the lane-group tiles that tap rows are lowered for
  /// (0: none; see lowerTapRows).
  int64_t tapRowLanes;

  /// The f32 lanes of the vectors that depthwise tap planes are lowered
  /// for (0: none; see lowerTapPlanes).
  int64_t tapPlaneLanes;

  /// Set while lowerInParts lowers the split-K parts of an op (and its odd
  /// last row): the condition of dense tap rows (denseTapRowsApply) that
  /// does not depend on the thread count, which only moves the parts.
  mutable bool inSplitParts = false;

  /// Set while lowerInParts lowers split-K parts whose dW partials carry the
  /// last kernel dimension reversed (tap rows, whose contraction
  /// accumulates the taps in that order: tapRowsApply). lowerBlock
  /// hands such a block to lowerTapRows, which then needs no reversed copy
  /// of its rows; any other lowering gets the block in the natural order.
  mutable bool reversedTaps = false;

  /// Output-channel parts per tap (an extra scf.forall dimension): with T
  /// taps and `threads` threads, `threads / gcd(T, threads)` parts make the
  /// iteration count a multiple of the thread count (9 taps on 2 threads:
  /// 18 half taps, 9 per thread, instead of 5 and 4 taps). Only when every
  /// part is a whole number of 16-channel vectors and at least 32 channels
  /// wide (a narrower register tile would leave the FMA units idle);
  /// otherwise 1.
  int64_t columnParts(const convgen::BackpropFilterGeometry &g,
                      int64_t splitParts = 1) const {
    if (threads <= 1 || g.groups > 1)
      return 1;
    int64_t taps = numTaps(g) * splitParts;
    int64_t parts = threads / std::gcd(taps, threads);
    if (parts <= 1 || !columnPartsFit(g, parts))
      return 1;
    return parts;
  }

  /// Whether the output channels split into `parts` parts of whole
  /// 16-channel vectors, at least 32 wide (a narrower register tile would
  /// leave the FMA units idle).
  static bool columnPartsFit(const convgen::BackpropFilterGeometry &g,
                             int64_t parts) {
    return g.outChannels % (parts * 16) == 0 && g.outChannels / parts >= 32;
  }

  /// Whether the input channels split into `parts` parts of a multiple of 8
  /// channels (register-tile rows), at least 32.
  static bool rowPartsFit(const convgen::BackpropFilterGeometry &g,
                          int64_t parts) {
    return g.filterInChannels % (parts * 8) == 0 &&
           g.filterInChannels / parts >= 32;
  }

  /// Input-channel parts for a single-tap filter gradient (1x1 filters) on
  /// several threads, when it has more input than output channels: the
  /// threads then split the input (the larger operand) instead of each
  /// reading all of it for its output channels (ResNet's 1024 -> 256 and
  /// 2048 -> 512 1x1 layers with 2 threads: +35-50 % over column parts).
  /// A strided input counts its channels times the stride along the last
  /// spatial dimension: each position read is one of `stride` in the
  /// input's rows, and the rest of the rows comes into the caches with it
  /// (the hardware prefetchers), so every thread reading all of it costs
  /// that much more. conv-run --compare (11 call pairs, 2 threads, Emerald
  /// Rapids), input parts against column parts of stride-2 1x1 layers:
  /// ResNet's 56x56x256 -> 512 +8 %, 28x28x512 -> 1024 +3 %, 56x56x64 -> 64
  /// +17 %, 14x14x1024 -> 2048 -3 %; 1x1 stride-1 layers with as many
  /// input as output channels (64 -> 64) 0 %, fewer (64 -> 256) -3 %.
  /// Each part is a multiple of 8 channels (register-tile rows) and at
  /// least 32; otherwise 1.
  int64_t rowParts(const convgen::BackpropFilterGeometry &g) const {
    if (threads <= 1 || g.groups > 1 || numTaps(g) != 1 ||
        !rowPartsFit(g, threads))
      return 1;
    int64_t stride = g.strides.empty() ? 1 : g.strides.back();
    bool strided = stride > 1;
    if (strided ? g.filterInChannels * stride < g.outChannels
                : g.filterInChannels <= g.outChannels)
      return 1;
    return threads;
  }

  /// Whether ops are being created inside an scf.forall (the split-K
  /// parts' or a tap forall): a forall created there is not threaded again.
  static bool insideForall(PatternRewriter &rewriter) {
    Operation *at = rewriter.getInsertionBlock()->getParentOp();
    return isa<scf::ForallOp>(at) || at->getParentOfType<scf::ForallOp>();
  }

  /// The type of one part of a tensor with a leading split-K part dimension.
  static RankedTensorType partType(RankedTensorType type) {
    return RankedTensorType::get(type.getShape().drop_front(),
                                 type.getElementType());
  }

  /// v[p]: the part `p` of a tensor with a leading split-K part dimension
  /// (rank-reduced).
  static Value partSlice(PatternRewriter &rewriter, Location loc, Value v,
                         Value p) {
    auto type = cast<RankedTensorType>(v.getType());
    int64_t rank = type.getRank();
    SmallVector<OpFoldResult> offsets(rank, rewriter.getIndexAttr(0)), sizes,
        strides(rank, rewriter.getIndexAttr(1));
    offsets[0] = p;
    sizes.push_back(rewriter.getIndexAttr(1));
    for (int64_t d = 1; d < rank; ++d)
      sizes.push_back(rewriter.getIndexAttr(type.getDimSize(d)));
    return tensor::ExtractSliceOp::create(rewriter, loc, partType(type), v,
                                          offsets, sizes, strides);
  }

  /// The scf.forall of a filter gradient's taps: one iteration per split-K
  /// part (splitCount > 1, §2.3; the first dimension), per tap of the first
  /// `lead` kernel dimensions, and per channel part (parts > 1; the last
  /// dimension), with `dw` as its shared output. The insertion point moves
  /// to the start of its body, and `window` and `dy` become the iteration's
  /// split-K part.
  struct TapForall {
    scf::ForallOp op;
    SmallVector<Value> taps; // the tap induction variables
    Value part, split;       // null without channel / split-K parts
    Value iter;              // the shared output
  };
  static TapForall createTapForall(PatternRewriter &rewriter, Location loc,
                                   const convgen::BackpropFilterGeometry &g,
                                   int64_t lead, int64_t splitCount,
                                   int64_t parts, Value dw, Value &window,
                                   Value &dy) {
    SmallVector<OpFoldResult> counts;
    if (splitCount > 1)
      counts.push_back(rewriter.getIndexAttr(splitCount));
    for (int64_t d = 0; d < lead; ++d)
      counts.push_back(rewriter.getIndexAttr(g.filterSpatial[d]));
    if (parts > 1)
      counts.push_back(rewriter.getIndexAttr(parts));
    TapForall f;
    f.op = scf::ForallOp::create(rewriter, loc, counts, ValueRange{dw},
                                 std::nullopt);
    rewriter.setInsertionPointToStart(f.op.getBody());
    f.taps = llvm::to_vector(f.op.getInductionVars());
    if (parts > 1)
      f.part = f.taps.pop_back_val();
    if (splitCount > 1) {
      f.split = f.taps.front();
      f.taps.erase(f.taps.begin());
      window = partSlice(rewriter, loc, window, f.split);
      dy = partSlice(rewriter, loc, dy, f.split);
    }
    f.iter = f.op.getRegionIterArgs()[0];
    return f;
  }

  /// Flags the zero-padding tensor.pad that `window` is a view of (through
  /// block and part slices and the split-K parts' reshape) as read in its
  /// padding (kReadsPaddingAttrName): its slices keep reading the padded
  /// copy.
  static void flagReadsPadding(PatternRewriter &rewriter, Value window) {
    Value root = window;
    while (Operation *def = root.getDefiningOp()) {
      if (auto slice = dyn_cast<tensor::ExtractSliceOp>(def))
        root = slice.getSource();
      else if (auto expand = dyn_cast<tensor::ExpandShapeOp>(def))
        root = expand.getSrc();
      else
        break;
    }
    if (auto pad = root.getDefiningOp<tensor::PadOp>())
      pad->setAttr(kReadsPaddingAttrName, rewriter.getUnitAttr());
  }

  /// Tiny-Cin lowering: one contraction per leading tap, with the `fused`
  /// trailing kernel dimensions and ci as its rows (see the file comment).
  Value lowerFused(PatternRewriter &rewriter, Location loc,
                   const convgen::BackpropFilterGeometry &g, Value window,
                   Value dy, Value dw, int64_t fused,
                   int64_t splitCount = 1) const {
    // The fused taps' packed rows read whole window rows, padding included.
    flagReadsPadding(rewriter, window);
    int64_t n = g.numSpatialDims, lead = n - fused;
    MLIRContext *ctx = rewriter.getContext();
    auto windowType = cast<RankedTensorType>(window.getType());
    auto dwType = cast<RankedTensorType>(dw.getType());
    if (splitCount > 1)
      dwType = partType(dwType);
    Type elementType = windowType.getElementType();
    int64_t cin = g.filterInChannels, cout = g.outChannels;
    int64_t rows = cin;
    for (int64_t d = lead; d < n; ++d)
      rows *= g.filterSpatial[d];

    // The leading taps are independent (one scf.forall, as in the general
    // lowering); with every dimension fused there is a single contraction.
    // Leading taps that are not a multiple of the threads get output-channel
    // parts, as in lowerTaps (columnParts): the 7x7 stem's 7 leading taps
    // on 2 threads ran 4 and 3. Each part packs its own rows (the pack is
    // a few percent of a part's work). Not inside another scf.forall.
    int64_t leadTaps = 1;
    for (int64_t d = 0; d < lead; ++d)
      leadTaps *= g.filterSpatial[d];
    bool nested = insideForall(rewriter);
    int64_t parts = 1;
    if (lead > 0 && !nested && threads > 1) {
      int64_t p = threads / std::gcd(leadTaps * splitCount, threads);
      if (p > 1 && cout % p == 0 && (cout / p) % 16 == 0)
        parts = p;
    }
    int64_t width = cout / parts;
    scf::ForallOp forall;
    SmallVector<Value> ivs;
    Value partIv, splitIv;
    Value iter = dw;
    if (lead > 0) {
      // Split-K (lowerInParts): the parts lead the forall dimensions.
      TapForall f = createTapForall(rewriter, loc, g, lead, splitCount, parts,
                                    dw, window, dy);
      forall = f.op;
      ivs = std::move(f.taps);
      partIv = f.part;
      splitIv = f.split;
      iter = f.iter;
    }
    assert((splitCount == 1 || lead > 0) &&
           "split-K parts in the forall need leading taps");
    OpFoldResult coOffset = rewriter.getIndexAttr(0);
    if (partIv) {
      coOffset = affine::makeComposedFoldedAffineApply(
          rewriter, loc, getAffineDimExpr(0, ctx) * width, {partIv});
      // This part's output channels of out_backprop (channels last).
      auto dyType = cast<RankedTensorType>(dy.getType());
      int64_t dyRank = dyType.getRank();
      SmallVector<OpFoldResult> offsets(dyRank, rewriter.getIndexAttr(0)),
          sizes, strides(dyRank, rewriter.getIndexAttr(1));
      for (int64_t d = 0; d < dyRank; ++d)
        sizes.push_back(rewriter.getIndexAttr(dyType.getDimSize(d)));
      offsets.back() = coOffset;
      sizes.back() = rewriter.getIndexAttr(width);
      SmallVector<int64_t> partShape(dyType.getShape());
      partShape.back() = width;
      dy = tensor::ExtractSliceOp::create(
          rewriter, loc,
          RankedTensorType::get(partShape, dyType.getElementType()), dy,
          offsets, sizes, strides);
    }

    // The window restricted to this leading tap (strided over its output
    // dimensions), whole along the fused ones.
    int64_t rank = n + 2;
    Value x = tapWindow(rewriter, loc, g, window, ivs);

    // Pack: P'[b, o_0..o_{n-1}, kf_0..kf_{f-1}, ci] (a copy; the strided
    // access o*s + kf*d is not a projected permutation, so this stays a
    // plain loop nest). With dilation 1 along the last dimension, its
    // (kf, ci) pairs of one output position are a contiguous run of k*Cin
    // input values starting at o*s*Cin: the window's last two dimensions
    // are collapsed and the pack copies whole runs (a row gather, which the
    // CPU code generator copies as vectors).
    bool runs = g.dilations[n - 1] == 1;
    int64_t last = g.filterSpatial[n - 1];
    if (runs)
      x = collapseDims(rewriter, loc, x, n);
    int64_t packLoops = 1 + n + fused + (runs ? 0 : 1);
    SmallVector<int64_t> packShape{g.batch};
    for (int64_t d = 0; d < n; ++d)
      packShape.push_back(g.outSpatial[d]);
    for (int64_t d = lead; d < n; ++d)
      packShape.push_back(runs && d == n - 1 ? last * cin : g.filterSpatial[d]);
    if (!runs)
      packShape.push_back(cin);
    SmallVector<AffineExpr> src{getAffineDimExpr(0, ctx)};
    for (int64_t d = 0; d < n; ++d) {
      AffineExpr o = getAffineDimExpr(1 + d, ctx);
      AffineExpr kf = getAffineDimExpr(1 + n + (d - lead), ctx);
      if (d < lead)
        src.push_back(o);
      else if (runs && d == n - 1)
        src.push_back(o * (g.strides[d] * cin) + kf);
      else
        src.push_back(o * g.strides[d] + kf * g.dilations[d]);
    }
    if (!runs)
      src.push_back(getAffineDimExpr(packLoops - 1, ctx));
    SmallVector<AffineMap> packMaps = {
        AffineMap::get(packLoops, 0, src, ctx),
        AffineMap::getMultiDimIdentityMap(packLoops, ctx)};
    Value packInit = tensor::EmptyOp::create(rewriter, loc, packShape, elementType);
    auto pack = linalg::GenericOp::create(
        rewriter, loc, TypeRange{packInit.getType()}, ValueRange{x},
        ValueRange{packInit}, packMaps,
        SmallVector<utils::IteratorType>(packLoops,
                                         utils::IteratorType::parallel),
        [](OpBuilder &nb, Location nl, ValueRange args) {
          linalg::YieldOp::create(nb, nl, args[0]);
        });
    if (runs)
      pack->setAttr(kRoleAttrName, rewriter.getStringAttr(kRoleRowGather));
    int64_t packedDims = packLoops - 1 - n; // [b, o..., rows]
    Value packed = pack.getResult(0);
    if (packedDims > 1)
      packed = collapseRange(rewriter, loc, packed, 1 + n, packedDims);

    // This leading tap's [kf..., ci, co] block of dW, as [rows, co].
    SmallVector<OpFoldResult> wOffsets, wSizes,
        wStrides(rank, rewriter.getIndexAttr(1));
    SmallVector<int64_t> blockShape;
    for (int64_t d = 0; d < n; ++d) {
      wOffsets.push_back(d < lead ? OpFoldResult(ivs[d])
                                  : OpFoldResult(rewriter.getIndexAttr(0)));
      int64_t extent = d < lead ? 1 : g.filterSpatial[d];
      wSizes.push_back(rewriter.getIndexAttr(extent));
      if (d >= lead)
        blockShape.push_back(extent);
    }
    wOffsets.append({rewriter.getIndexAttr(0), coOffset});
    wSizes.append({rewriter.getIndexAttr(cin), rewriter.getIndexAttr(width)});
    blockShape.append({cin, width});
    if (splitIv) {
      wOffsets.insert(wOffsets.begin(), splitIv);
      wSizes.insert(wSizes.begin(), rewriter.getIndexAttr(1));
      wStrides.push_back(rewriter.getIndexAttr(1));
    }
    auto blockType = RankedTensorType::get(blockShape, dwType.getElementType());
    Value block = tensor::ExtractSliceOp::create(rewriter, loc, blockType, iter,
                                                 wOffsets, wSizes, wStrides);
    Value tap = collapseRange(rewriter, loc, block, 0, fused + 1);

    // Loops [ci', co, b, o_0..o_{n-1}]: the dw_tap contraction.
    int64_t numLoops = 3 + n;
    AffineExpr ciE = getAffineDimExpr(0, ctx), coE = getAffineDimExpr(1, ctx);
    auto activation = [&](AffineExpr inner) {
      SmallVector<AffineExpr> e{getAffineDimExpr(2, ctx)};
      for (int64_t d = 0; d < n; ++d)
        e.push_back(getAffineDimExpr(3 + d, ctx));
      e.push_back(inner);
      return e;
    };
    auto contraction = createMulAdd(
        rewriter, loc, packed, dy, tap, activation(ciE), activation(coE),
        {ciE, coE}, numLoops, /*numParallel=*/2, kRoleDwTap);
    int64_t contractions = 1;
    for (int64_t d = 0; d < lead; ++d)
      contractions *= g.filterSpatial[d];
    contraction->setAttr(kDwContractionsAttrName,
                         rewriter.getI64IntegerAttr(contractions));
    if (lead == 0)
      contraction->setAttr(kDwStreamAttrName, rewriter.getUnitAttr());
    Value result = tensor::ExpandShapeOp::create(
        rewriter, loc, blockType, contraction.getResult(0),
        SmallVector<ReassociationIndices>{
            [&] {
              ReassociationIndices r;
              for (int64_t i = 0; i <= fused; ++i)
                r.push_back(i);
              return r;
            }(),
            {fused + 1}});
    if (!forall)
      return tensor::InsertSliceOp::create(rewriter, loc, result, iter,
                                           wOffsets, wSizes, wStrides);
    rewriter.setInsertionPointToStart(forall.getTerminator().getBody());
    tensor::ParallelInsertSliceOp::create(rewriter, loc, result, iter, wOffsets,
                                          wSizes, wStrides);
    rewriter.setInsertionPointAfter(forall);
    return forall.getResult(0);
  }

  LogicalResult matchAndRewrite(BackpropFilterOp op,
                                PatternRewriter &rewriter) const override {
    // An op inside an scf.forall (the points of a Winograd filter gradient)
    // runs on the thread of its iteration: no thread parts of its own.
    if (threads > 1 && op->getParentOfType<scf::ForallOp>()) {
      BackpropFilterToLinalg sequential(*this);
      sequential.threads = 1;
      return sequential.matchAndRewrite(op, rewriter);
    }
    auto geometry = op.getGeometry();
    if (!geometry)
      return rewriter.notifyMatchFailure(op, geometry.error());
    const convgen::BackpropFilterGeometry &g = *geometry;
    Location loc = op.getLoc();
    auto resultType = op.getFilter().getType();
    Type elementType = resultType.getElementType();
    Type accType = getAccumulatorType(elementType);
    int64_t n = g.numSpatialDims;

    Value dw = createZeros(rewriter, loc, resultType.getShape(), accType);
    int64_t work = g.batch * g.outChannels * g.filterInChannels;
    for (int64_t d = 0; d < n; ++d)
      work *= g.outSpatial[d] * g.filterSpatial[d];
    if (work == 0) {
      // Empty sums: dW is zero (TF returns zeros for empty input).
      rewriter.replaceOp(op, castElements(rewriter, loc, dw, elementType));
      return success();
    }

    // The input window every tap reads from.
    SmallVector<int64_t> start, size;
    for (int64_t d = 0; d < n; ++d) {
      start.push_back(-g.padBefore[d]);
      size.push_back(convgen::windowSpan(g.outSpatial[d], g.strides[d],
                                         g.filterSpatial[d], g.dilations[d]));
    }
    Value window = extractZeroPaddedWindow(rewriter, loc, op.getInput(),
                                           g.layout, start, size);
    Value dy = op.getOutBackprop();
    Value result = lowerInParts(rewriter, loc, g, window, dy, dw);
    // A layer whose every tap slice reads only the input's interior: the
    // pad's slices may read the input itself (the pad goes away in
    // conv-cpu-decompose-pads; ResNeXt's 3-D layer copied its 52 MB input,
    // 14 % of a 1-thread call, GoogLeNet's 5x5 layer its 12.6 MB one, 4 %).
    // Grouped layers, and ungrouped ones with cutLongRows (whose long rows
    // are cut too); the fused taps and the bf16 pair pack, which read whole
    // window rows, flag the pad as read in its padding.
    if (auto pad = window.getDefiningOp<tensor::PadOp>()) {
      if ((g.groups > 1 || cutLongRows) && g.layout == Layout::ChannelsLast &&
          !pad->hasAttr(kReadsPaddingAttrName))
        pad->setAttr(kInteriorReadsAttrName, rewriter.getUnitAttr());
      pad->removeAttr(kReadsPaddingAttrName);
    }
    rewriter.replaceOp(op, castElements(rewriter, loc, result, elementType));
    return success();
  }

  /// The contractions the taps' scf.forall spreads over threads: the taps,
  /// or the leading taps of the tiny-Cin fusion.
  static int64_t
  independentContractions(const convgen::BackpropFilterGeometry &g) {
    int64_t independent = numTaps(g);
    if (int64_t fused = numFusedTaps(g)) {
      independent = 1;
      for (int64_t d = 0; d + fused < g.numSpatialDims; ++d)
        independent *= g.filterSpatial[d];
    }
    return independent;
  }

  /// How many parts the reduction is split into (split-K, see
  /// lowerInParts): 2 when it is long (at least 4096 output positions per
  /// part) and the batch even, or else its first spatial dimension's output
  /// rows can be split (splitsRows), and either
  /// * the whole filter gradient is one contraction (a single tap, or a
  ///   tiny-Cin filter with every tap fused into the rows), so that the tap
  ///   scf.forall has nothing to spread over threads, and the two partial
  ///   dWs fit `splitMaxBytes` (a large single-tap dW is better split by
  ///   output channels: each thread then holds half of it); or
  /// * it has several taps (or leading taps left by the fusion) and each
  ///   partial dW fits `splitTapsMaxBytes` (the L2): with 2 threads each
  ///   then runs the one-thread kernel over half the batch into its own dW
  ///   (in its own core's L2; on one thread the parts run one after the
  ///   other), where the taps' forall made both threads read every block and
  ///   split the taps' output channels into narrower register tiles. conv-run
  ///   --compare, 2 threads: DeepSpeech's 5x20 single-channel layer +92 %,
  ///   ResNet's 3x3x64x64 layer +22 %, its 7x7 stem +15 %, DeepSpeech's
  ///   5x10x32x32 +15 %, GoogLeNet's 5x5 192 -> 32 +8 %; 1 thread within
  ///   +-2 % (DeepSpeech 5x20 +7 %). The 3x3x128x128 layers on 28x28 images
  ///   (3136 positions per part) lost 2-3 % split. Grouped layers too since
  ///   the parts lead on up to 2 threads (outerTapParts): the 3-D ResNeXt
  ///   layer +8 to +23 % with 2 threads, within 1 % with one (it had lost
  ///   2.5 % with 1 thread when the parts were inside the blocks).
  ///   GoogLeNet's 5x5 192 -> 32 (a 600 KiB dW: two of them exceed a
  ///   1 MiB L2, one fits) +4 % with 2 threads, within 1 % with one
  ///   (conv-run, 9 process pairs, Zen 4).
  /// else 1. A function of the shape only, so the result does not depend on
  /// the thread count.
  int64_t splitParts(const convgen::BackpropFilterGeometry &g, int64_t dwBytes,
                     Type operandType) const {
    // Not bf16 pair operands with several taps (lowerTaps packs their pairs
    // before the taps' forall, which the parts would lead).
    if (independentContractions(g) > 1 && bf16Pairs && dwUsesBF16Pairs(g) &&
        operandType.isBF16())
      return 1;
    constexpr int64_t kParts = 2, kMinPositionsPerPart = 4096;
    int64_t positions = g.batch;
    for (int64_t d = 0; d < g.numSpatialDims; ++d)
      positions *= g.outSpatial[d];
    if ((g.batch % kParts != 0 && !splitsRows(g, kParts)) ||
        positions < kParts * kMinPositionsPerPart)
      return 1;
    int64_t independent = independentContractions(g);
    bool single = independent == 1 && kParts * dwBytes <= splitMaxBytes;
    bool taps = independent > 1 && dwBytes <= splitTapsMaxBytes;
    return single || taps ? kParts : 1;
  }

  /// Whether split-K cuts the output rows of the first spatial dimension
  /// into the parts rather than the batch (lowerInParts): for a batch that
  /// does not split evenly (WaveNet's one long item), when every tap reads
  /// only input rows along that dimension (no padding there: each part is
  /// then a "valid" filter gradient of its own over a slice of the input)
  /// and there are at least `parts` rows. An odd last row is a remainder
  /// summed after the parts.
  static bool splitsRows(const convgen::BackpropFilterGeometry &g,
                         int64_t parts) {
    return g.batch % parts != 0 && g.numSpatialDims > 0 &&
           g.outSpatial[0] >= parts && g.padBefore[0] == 0 &&
           g.padAfterUsed[0] <= 0;
  }

  /// Whether the split-K parts of a multi-tap filter gradient lead: an
  /// scf.forall over the parts, each running all of its blocks and taps on
  /// one thread (the taps' forall nested in it), rather than being the
  /// first dimension of the taps' forall inside the blocks. With no more
  /// threads than parts: each thread then forks once per call instead of
  /// once per block, and one thread works through one part's blocks
  /// before the other's (inside the blocks it alternated between the two
  /// parts' blocks and dWs). conv-run --compare, 21 call pairs, 2 threads:
  /// DeepSpeech's 5x20 single-channel layer +11 %, its 5x10x32x32 +4 %,
  /// the grouped 3-D ResNeXt layer +23 % (not split before), ResNet's
  /// 3x3x64x64 and 7x7 stem within 1 %; 1 thread within 2 %. With more
  /// threads the taps share the work (and the column parts of §2.4 count
  /// 2 x taps iterations). Each part sums its items in the same order
  /// either way, so the results are the same bits.
  bool outerTapParts() const {
    return threads >= 1 && threads <= 2; // splitParts' 2 parts
  }

  /// Split-K (see splitParts): the batch (or, for an odd batch, the output
  /// rows of the first spatial dimension: splitsRows) is split into `parts`
  /// equal parts, each summed into its own (zero-initialized) dW (a single
  /// contraction, or several taps on at most 2 threads: in an scf.forall
  /// over the parts; several taps on more threads: batch parts are the
  /// first dimension of the taps' forall, row parts run one after the
  /// other, each on all threads), each reading only its part of the input
  /// and out_backprop; then the parts are added in order (and an odd last
  /// row of row parts after them). Without a split, a 1x1 layer's threads
  /// would split the output channels and each stream all of the input, and
  /// WaveNet's 2-tap layers (one item of 84349 positions) ran one tap per
  /// thread, each thread streaming both tensors: with row parts conv-run
  /// --compare measured +12 % (undilated) and +20 % (dilated 512) with 2
  /// threads, -2.5 / +3 % with one (400 / 200 call pairs, Emerald Rapids);
  /// the N1 3-D U-Net layers +6 % (64 channels) and -1 % (32) with 2.
  Value lowerInParts(PatternRewriter &rewriter, Location loc,
                     const convgen::BackpropFilterGeometry &g, Value window,
                     Value dy, Value dw) const {
    auto dwType = cast<RankedTensorType>(dw.getType());
    int64_t parts =
        splitParts(g, tensorBytes(dwType),
                   cast<RankedTensorType>(dy.getType()).getElementType());
    if (parts <= 1)
      return lowerInThreadParts(rewriter, loc, g, window, dy, dw);
    bool wasInSplitParts = inSplitParts;
    inSplitParts = true;
    auto restore =
        llvm::make_scope_exit([&] { inSplitParts = wasInSplitParts; });
    MLIRContext *ctx = rewriter.getContext();
    int64_t rank = dwType.getRank();
    SmallVector<int64_t> partialShape{parts};
    partialShape.append(dwType.getShape().begin(), dwType.getShape().end());
    Value partials = createZeros(rewriter, loc, partialShape,
                                 dwType.getElementType());
    // The parts: batch items, or output rows of the first spatial dimension
    // (splitsRows), `per` each; an odd last row follows the parts' sum.
    bool rows = splitsRows(g, parts);
    int64_t extent = rows ? g.outSpatial[0] : g.batch;
    int64_t per = extent / parts, rest = extent - per * parts;
    // The geometry of `size` of them, and the window and out_backprop slices
    // of those that start at `start`.
    auto partGeometry = [&](int64_t size) {
      convgen::BackpropFilterGeometry gs = g;
      if (!rows) {
        gs.batch = size;
        return gs;
      }
      gs.outSpatial[0] = size;
      gs.inputSpatial[0] = convgen::windowSpan(
          size, g.strides[0], g.filterSpatial[0], g.dilations[0]);
      gs.padBefore[0] = gs.padAfter[0] = gs.padAfterUsed[0] = 0;
      return gs;
    };
    auto partSlices = [&](OpFoldResult start, int64_t size) {
      if (!rows)
        return std::make_pair(
            extractDimSlice(rewriter, loc, window, 0, start, size).value,
            extractDimSlice(rewriter, loc, dy, 0, start, size).value);
      int64_t sdim = spatialDim(g.layout, 0);
      OpFoldResult winStart = affine::makeComposedFoldedAffineApply(
          rewriter, loc, rewriter.getAffineDimExpr(0) * g.strides[0], {start});
      return std::make_pair(
          extractDimSlice(rewriter, loc, window, sdim, winStart,
                          convgen::windowSpan(size, g.strides[0],
                                              g.filterSpatial[0],
                                              g.dilations[0]))
              .value,
          extractDimSlice(rewriter, loc, dy, sdim, start, size).value);
    };
    convgen::BackpropFilterGeometry gp = partGeometry(per);
    // Part `p` of the partial dWs (rank-reduced), as slice parameters.
    SmallVector<OpFoldResult> pSizes{rewriter.getIndexAttr(1)},
        pStrides(rank + 1, rewriter.getIndexAttr(1));
    for (int64_t d : dwType.getShape())
      pSizes.push_back(rewriter.getIndexAttr(d));
    auto pOffsets = [&](Value p) {
      SmallVector<OpFoldResult> offsets(rank + 1, rewriter.getIndexAttr(0));
      offsets[0] = p;
      return offsets;
    };
    auto partStart = [&](Value p) {
      return affine::makeComposedFoldedAffineApply(
          rewriter, loc, rewriter.getAffineDimExpr(0) * per, {OpFoldResult(p)});
    };
    Value summed;
    bool reversed = false;
    bool manyTaps = independentContractions(g) > 1;
    if (manyTaps && !outerTapParts() && !rows) {
      // Several taps on more threads than parts: the parts become the first
      // dimension of the taps' scf.forall (inside any reduction blocks,
      // which take the same block of every part), so that the threads still
      // share the work: window and out_backprop as [parts, N / parts, ...].
      auto split = [&](Value v) -> Value {
        auto type = cast<RankedTensorType>(v.getType());
        SmallVector<int64_t> shape{parts, per};
        shape.append(type.getShape().begin() + 1, type.getShape().end());
        SmallVector<ReassociationIndices> reassociation{{0, 1}};
        for (int64_t d = 1; d < type.getRank(); ++d)
          reassociation.push_back({d + 1});
        return tensor::ExpandShapeOp::create(rewriter, loc, type.clone(shape),
                                             v, reassociation);
      };
      summed = lowerInBlocks(rewriter, loc, gp, split(window), split(dy),
                             partials, /*threadedTaps=*/true, parts);
    } else if (manyTaps && !outerTapParts()) {
      // Row parts (their windows overlap: no [parts, ...] view) on more
      // threads than parts: one part after the other, each spreading its
      // taps over the threads. Each part sums the same elements in the same
      // order as the forall below, so the results are the same bits.
      Value lb = arith::ConstantIndexOp::create(rewriter, loc, 0);
      Value ub = arith::ConstantIndexOp::create(rewriter, loc, parts);
      Value step = arith::ConstantIndexOp::create(rewriter, loc, 1);
      auto loop =
          scf::ForOp::create(rewriter, loc, lb, ub, step, ValueRange{partials});
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToStart(loop.getBody());
      Value p = loop.getInductionVar();
      Value iter = loop.getRegionIterArgs()[0];
      Value mine = tensor::ExtractSliceOp::create(
          rewriter, loc, dwType, iter, pOffsets(p), pSizes, pStrides);
      auto [w, d] = partSlices(partStart(p), per);
      Value part = lowerInBlocks(rewriter, loc, gp, w, d, mine,
                                 /*threadedTaps=*/true);
      scf::YieldOp::create(rewriter, loc,
                           tensor::InsertSliceOp::create(rewriter, loc, part,
                                                         iter, pOffsets(p),
                                                         pSizes, pStrides)
                               .getResult());
      summed = loop.getResult(0);
    } else {
      // Tap rows accumulate the last kernel dimension's taps in
      // reverse order: the partials keep them so (reversedTaps), and their
      // sum is put back in order once, instead of each block copying its
      // rows of dW into a reversed tile and back (GoogLeNet's 5x5 192 -> 32:
      // 2 x 8 blocks x 5 rows of 5 x 24 KiB, twice, 19.7 MB a call).
      reversed = !rows && tapRowsApply(gp, dwType.getElementType());
      reversedTaps = reversed;
      llvm::scope_exit restoreTaps([&] { reversedTaps = false; });
      auto forall = scf::ForallOp::create(
          rewriter, loc, ArrayRef<OpFoldResult>{rewriter.getIndexAttr(parts)},
          ValueRange{partials}, std::nullopt);
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToStart(forall.getBody());
      Value p = forall.getInductionVars()[0];
      Value shared = forall.getRegionIterArgs()[0];
      auto [w, d] = partSlices(partStart(p), per);
      Value mine = tensor::ExtractSliceOp::create(
          rewriter, loc, dwType, shared, pOffsets(p), pSizes, pStrides);
      Value part = lowerInBlocks(rewriter, loc, gp, w, d, mine,
                                 /*threadedTaps=*/false);
      rewriter.setInsertionPointToStart(forall.getTerminator().getBody());
      tensor::ParallelInsertSliceOp::create(rewriter, loc, part, shared,
                                            pOffsets(p), pSizes, pStrides);
      summed = forall.getResult(0);
    }
    // dW = sum over the parts, in order (a plain reduction loop).
    SmallVector<AffineExpr> all, outer;
    for (int64_t d = 0; d <= rank; ++d) {
      all.push_back(getAffineDimExpr(d, ctx));
      if (d > 0)
        outer.push_back(getAffineDimExpr(d, ctx));
    }
    SmallVector<utils::IteratorType> iterators(rank + 1,
                                               utils::IteratorType::parallel);
    iterators[0] = utils::IteratorType::reduction;
    Value total =
        linalg::GenericOp::create(
            rewriter, loc, TypeRange{dwType}, ValueRange{summed},
            ValueRange{dw},
            SmallVector<AffineMap>{AffineMap::get(rank + 1, 0, all, ctx),
                                   AffineMap::get(rank + 1, 0, outer, ctx)},
            iterators,
            [](OpBuilder &b, Location l, ValueRange args) {
              Value sum = arith::AddFOp::create(b, l, args[1], args[0]);
              linalg::YieldOp::create(b, l, sum);
            })
            .getResult(0);
    if (reversed)
      total = reverseDim(rewriter, loc, total, g.numSpatialDims - 1);
    if (rest == 0)
      return total;
    // The odd last row of row parts, summed onto the parts' sum.
    auto [w, d] = partSlices(rewriter.getIndexAttr(parts * per), rest);
    return lowerInBlocks(rewriter, loc, partGeometry(rest), w, d, total);
  }

  /// The channel parts a multi-tap filter gradient's threads own for all of
  /// its taps and reduction blocks (lowerInThreadParts): {dimension, parts}
  /// with dimension 0 for input channels (the dW rows), 1 for output
  /// channels; {0, 1} for none. On several threads, for a dW larger than
  /// the small-filter blocks take (2 x smallFilterBlockBytes, which must be
  /// set: its reduction blocks are L3-sized), no groups, no fused taps and
  /// no bf16 pairs: `threads` parts of the larger channel count that
  /// rowPartsFit / columnPartsFit accept. conv-run --compare, 21 call
  /// pairs twice, 2 threads: ResNet's 7x7x512 3x3 layer +7 / +11 %,
  /// DeepBench's 7x7x512 +8 / +2 % and 10x42x512 +6 / +5 %, the dilated
  /// RFCN layer +7 / +9 %, ResNet's 14x14x256 3x3 0 / 0 %. (Smaller dWs,
  /// whose L2-sized blocks are many more and shorter: from +4 to -18 %,
  /// GoogLeNet's 5x5 192 -> 32 and DeepSpeech's 5x5 64 -> 128 slower.)
  std::pair<int, int64_t>
  threadChannelParts(const convgen::BackpropFilterGeometry &g,
                     Type operandType, int64_t dwBytes) const {
    if (threads <= 1 || g.groups > 1 || numFusedTaps(g) ||
        independentContractions(g) <= 1 ||
        smallFilterBlockBytes <= 0 || dwBytes <= 2 * smallFilterBlockBytes ||
        (bf16Pairs && dwUsesBF16Pairs(g) && operandType.isBF16()))
      return {0, 1};
    bool rows = rowPartsFit(g, threads), cols = columnPartsFit(g, threads);
    if (rows && (!cols || g.filterInChannels >= g.outChannels))
      return {0, threads};
    if (cols)
      return {1, threads};
    return {0, 1};
  }

  /// A multi-tap filter gradient on several threads: an scf.forall over
  /// `threads` channel parts (threadChannelParts), each thread running all
  /// of the reduction blocks and taps for its input (or output) channels,
  /// the taps' forall nested inside (on one thread). Else lowerInBlocks,
  /// whose taps' forall inside the blocks forks and joins the threads once
  /// per block, and splits 9 taps on 2 threads into 18 half taps. Each dW
  /// element is still summed by one loop in the same order, so the result
  /// does not depend on the thread count.
  Value lowerInThreadParts(PatternRewriter &rewriter, Location loc,
                           const convgen::BackpropFilterGeometry &g,
                           Value window, Value dy, Value dw) const {
    auto [dim, parts] = threadChannelParts(
        g, cast<RankedTensorType>(dy.getType()).getElementType(),
        tensorBytes(cast<RankedTensorType>(dw.getType())));
    if (parts <= 1)
      return lowerInBlocks(rewriter, loc, g, window, dy, dw);
    int64_t n = g.numSpatialDims;
    int64_t width = (dim == 0 ? g.filterInChannels : g.outChannels) / parts;
    auto forall = scf::ForallOp::create(
        rewriter, loc, ArrayRef<OpFoldResult>{rewriter.getIndexAttr(parts)},
        ValueRange{dw}, std::nullopt);
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointToStart(forall.getBody());
    Value q = forall.getInductionVars()[0];
    Value shared = forall.getRegionIterArgs()[0];
    OpFoldResult offset = affine::makeComposedFoldedAffineApply(
        rewriter, loc, rewriter.getAffineDimExpr(0) * width, {OpFoldResult(q)});
    convgen::BackpropFilterGeometry gq = g;
    int64_t cdim = channelDim(g.layout, n);
    if (dim == 0) {
      gq.inChannels = gq.filterInChannels = width;
      window = extractDimSlice(rewriter, loc, window, cdim, offset, width).value;
    } else {
      gq.outChannels = width;
      dy = extractDimSlice(rewriter, loc, dy, cdim, offset, width).value;
    }
    // dW is [spatial..., ci, co].
    DimSlice mine =
        extractDimSlice(rewriter, loc, shared, n + dim, offset, width);
    Value part = lowerInBlocks(rewriter, loc, gq, window, dy, mine.value,
                               /*threadedTaps=*/false);
    rewriter.setInsertionPointToStart(forall.getTerminator().getBody());
    tensor::ParallelInsertSliceOp::create(rewriter, loc, part, shared,
                                          mine.offsets, mine.sizes,
                                          mine.strides);
    return forall.getResult(0);
  }

  /// All taps over one block of the reduction: the tiny-Cin fused lowering
  /// or one contraction per tap.
  /// `rowStarts`: the window is a block of rows of the first
  /// `rowStarts.size()` spatial dimensions (its padding along them is not
  /// that of `g`), each entry the block's first output row along that
  /// dimension when its taps' padding rows are cut (see trimPaddingRows),
  /// else null. `splitCount` > 1: window, out_backprop and dW have a
  /// leading dimension of that many split-K parts, which becomes the first
  /// dimension of the taps' scf.forall (lowerInParts; `g` is the geometry
  /// of one part).
  Value lowerBlock(PatternRewriter &rewriter, Location loc,
                   const convgen::BackpropFilterGeometry &g, Value window,
                   Value dy, Value dw, ArrayRef<OpFoldResult> rowStarts = {},
                   int64_t splitCount = 1) const {
    if (reversedTaps) {
      // dW's last kernel dimension is reversed (lowerInParts): tap rows
      // accumulate in that order; any other lowering (none in the suite)
      // gets the block in the natural order and gives it back reversed.
      // (As lowerTaps would: bf16 pair operands take the per-tap pairs
      // lowering; splitParts gives such layers no parts.)
      if (splitCount == 1 && !tapsUsePairs(g, dy, splitCount) &&
          !numFusedTaps(g) && !tapPlanesApply(g))
        if (Value rows = lowerTapRows(rewriter, loc, g, window, dy, dw,
                                      rowStarts, splitCount, /*pairs=*/false))
          return rows;
      reversedTaps = false;
      llvm::scope_exit restore([&] { reversedTaps = true; });
      int64_t dim = (splitCount > 1 ? 1 : 0) + g.numSpatialDims - 1;
      Value natural = reverseDim(rewriter, loc, dw, dim);
      return reverseDim(rewriter, loc,
                        lowerBlock(rewriter, loc, g, window, dy, natural,
                                   rowStarts, splitCount),
                        dim);
    }
    if (int64_t fused = numFusedTaps(g))
      return lowerFused(rewriter, loc, g, window, dy, dw, fused, splitCount);
    return lowerTaps(rewriter, loc, g, window, dy, dw, rowStarts, splitCount);
  }

  /// How lowerInBlocks splits the reduction for a given block budget.
  struct BlockPlan {
    enum Kind { Whole, Items, Rows } kind = Whole;
    /// Batch items (Items) or output rows of spatial dimension `dim` (Rows,
    /// one item at a time; with `dim` 1, one row of the first at a time)
    /// per block.
    int64_t size = 0;
    int64_t dim = 0;
    /// Whether the last block is smaller (a second copy of the body).
    bool remainder = false;
  };

  /// `minBlockFlops` > 0: a block that divides the reduction is also taken
  /// when it is less than half the budget's, down to this much work (rather
  /// than a remainder block, which costs a second copy of the body).
  BlockPlan planBlocks(const convgen::BackpropFilterGeometry &g,
                       RankedTensorType windowType, RankedTensorType dyType,
                       int64_t budget, int64_t minBlockFlops = 0) const {
    int64_t elemBytes =
        std::max<int64_t>(1, windowType.getElementTypeBitWidth() / 8);
    int64_t itemBytes =
        (windowType.getNumElements() + dyType.getNumElements()) / g.batch *
        elemBytes;
    BlockPlan plan;
    if (budget <= 0 || g.batch * itemBytes <= budget)
      return plan;
    // The largest block of at most `limit` that divides `extent`, if one
    // is at least half of `limit` (with `minBlockFlops`: or does at least
    // that much work, `unitFlops` per unit); else `limit` (with a remainder
    // block).
    auto pick = [&](int64_t limit, int64_t extent, int64_t unitFlops) {
      limit = std::clamp<int64_t>(limit, 1, extent);
      int64_t least = (limit + 1) / 2;
      if (minBlockFlops > 0)
        least = std::min(
            least, std::max<int64_t>(
                       1, llvm::divideCeil(minBlockFlops,
                                           std::max<int64_t>(1, unitFlops))));
      for (int64_t c = limit; c >= least; --c)
        if (extent % c == 0)
          return c;
      return limit;
    };
    if (itemBytes <= budget || g.numSpatialDims == 0) {
      plan.kind = BlockPlan::Items;
      plan.size = pick(budget / itemBytes, g.batch, g.flops() / g.batch);
      plan.remainder = g.batch % plan.size != 0;
      return plan;
    }
    // One batch item at a time, in blocks of output rows along the first
    // spatial dimension (each needs (rows - 1) * s + k_eff window rows).
    int64_t sdim = spatialDim(g.layout, 0);
    int64_t winRowBytes =
        windowType.getNumElements() / g.batch / windowType.getDimSize(sdim) *
        elemBytes;
    int64_t dyRowBytes =
        dyType.getNumElements() / g.batch / dyType.getDimSize(sdim) * elemBytes;
    plan.kind = BlockPlan::Rows;
    int64_t rowBytes = g.strides[0] * winRowBytes + dyRowBytes;
    // A 3-D layer whose single row of the first spatial dimension (a
    // depth slice: its window has k_eff rows of it) exceeds the budget:
    // blocks of rows of the second inside one row of the first. ResNeXt's
    // 56x56x64 slices (1.7 MB a row with the window's 3 depth rows) ran
    // each of their 27 taps over the whole slice from the L3; in 8-row
    // blocks that fit the L2 (see docs/Lowering.md §2.2).
    // Tap planes (lowerTapPlanes) keep their last two spatial dimensions
    // whole: blocks of rows of the first of a 3-D layer, else single items.
    bool planes = tapPlanesApply(g);
    if (planes && g.numSpatialDims < 3) {
      plan.kind = BlockPlan::Items;
      plan.size = 1;
      return plan;
    }
    if (budget < rowBytes && g.numSpatialDims >= 3 && !planes) {
      int64_t sdim1 = spatialDim(g.layout, 1);
      // (One output row of the first dimension reads its window span.)
      int64_t span0 = convgen::windowSpan(1, g.strides[0], g.filterSpatial[0],
                                          g.dilations[0]);
      int64_t winRow1Bytes = windowType.getNumElements() / g.batch /
                             windowType.getDimSize(sdim) /
                             windowType.getDimSize(sdim1) * span0 * elemBytes;
      int64_t dyRow1Bytes = dyType.getNumElements() / g.batch /
                            dyType.getDimSize(sdim) /
                            dyType.getDimSize(sdim1) * elemBytes;
      plan.dim = 1;
      plan.size =
          pick(budget / std::max<int64_t>(
                            1, g.strides[1] * winRow1Bytes + dyRow1Bytes),
               g.outSpatial[1],
               g.flops() / (g.batch * g.outSpatial[0] * g.outSpatial[1]));
      plan.remainder = g.outSpatial[1] % plan.size != 0;
      return plan;
    }
    plan.size = pick(budget / std::max<int64_t>(1, rowBytes), g.outSpatial[0],
                     g.flops() / (g.batch * g.outSpatial[0]));
    plan.remainder = g.outSpatial[0] % plan.size != 0;
    return plan;
  }

  /// The reduction (batch x output positions) in blocks whose input window
  /// and out_backprop fit `reductionBlockBytes`, each block running all the
  /// taps, so that the taps re-read a block from the cache rather than
  /// streaming both tensors from memory once per tap: blocks of batch items,
  /// or, when one item is too large, of rows along the first spatial
  /// dimension (one item at a time). Each block accumulates into dW; the
  /// order is fixed, so results do not depend on the thread count.
  /// `threadedTaps`: the taps' scf.forall runs on `threads` threads (not
  /// inside the split-K forall).
  Value lowerInBlocks(PatternRewriter &rewriter, Location loc,
                      const convgen::BackpropFilterGeometry &g, Value window,
                      Value dy, Value dw, bool threadedTaps = true,
                      int64_t splitCount = 1) const {
    // One part's types (with split-K parts, see lowerBlock).
    auto typeOf = [&](Value v) {
      auto type = cast<RankedTensorType>(v.getType());
      return splitCount == 1 ? type : partType(type);
    };
    auto windowType = typeOf(window);
    auto dyType = typeOf(dy);
    BlockPlan plan = planBlocks(g, windowType, dyType, reductionBlockBytes);
    // A multi-tap filter gradient with a small dW: blocks that fit the L2,
    // so that its taps re-read each block from there. (Each block re-reads
    // and re-writes dW; for a large dW, e.g. 3x3x512x512, that costs more
    // than the L3 reads it saves.) Not when they would need a remainder
    // block that the L3 blocks do not: a second copy of the whole body
    // (DeepSpeech's 79 rows, a prime) doubled the compile time. Rather a
    // smaller block that divides the reduction: DeepSpeech's 5x10x32x32
    // layer (38 rows = 2 x 19) ran each of its 50 taps over all 34 MB of
    // its operands from the L3; in blocks of 2 rows (216 KB) conv-run
    // --compare measured +39-72 % with 1 thread, +23-41 % with 2. With more
    // threads each block is a fork and join: not below kMinThreadedBlockFlops
    // (blocks of 2-4 MFLOP, DeepSpeech's 1-row 5x20 and WaveNet's dilated
    // layer, ran 15 % slower on 2 threads, though 12-19 % faster on one).
    // Not when the taps run on threads, one tap or none per thread: no
    // thread re-reads a block, and each block would only add a fork and
    // join (WaveNet's 1-D k2 layers on 2 threads: 89 blocks of 942
    // positions before, 3 L3 blocks now; alternating binaries, 8 rounds,
    // Zen 3: +13 % and +11 % (dilated)).
    // Tap planes sum their regions block by block: their blocks must not
    // depend on the thread count, or neither would the order of the sums
    // (the other lowerings' blocks only cut one sequence of sums).
    // So must dense tap rows' (their ends are separate contractions after
    // each block's interior).
    bool threadedBlocks = threadedTaps && threads > 1 && !tapPlanesApply(g) &&
                          !denseTapRowsApply(g, typeOf(dw).getElementType());
    bool tapPerThread = threadedBlocks && numTaps(g) <= threads;
    if (smallFilterBlockBytes > 0 && numTaps(g) > 1 && !tapPerThread &&
        tensorBytes(typeOf(dw)) <= 2 * smallFilterBlockBytes &&
        (reductionBlockBytes <= 0 ||
         smallFilterBlockBytes < reductionBlockBytes)) {
      // Wide 2-D rows: blocks that fit half the L1 (one row when a row is
      // larger), so that the taps and every register tile re-read the
      // block's out_backprop rows from the L1. ResNet's 56x56 64 -> 64 3x3
      // layer (a 14 KiB out_backprop row, re-read by 9 taps x 11 register
      // tiles) ran its 28-row blocks from the L2. conv-run --compare, 40
      // call pairs, 1 / 2 threads, Intel Xeon (Sapphire Rapids class, 48
      // KiB L1): rn3 +11 / +8 %, db3 +7 / +9 %, rn1 +3 / +2 %, db2 +4 /
      // +1 %, db1 / db4 / db5 within +-2 %. (All multi-tap small-dW layers
      // in half-L1 blocks: 28-position rows -3 to -7 % with 2 threads, the
      // grouped 3-D ResNeXt layer -8 %, 1-D WaveNet +5 / -4 %.)
      // Not where the taps run on the threads: each block would fork and
      // join them once (rn3 with 3 images on 2 threads, no split-K). Nor
      // where a single contraction (every tap fused with ci) has more than
      // 16 output channels: the code generator splits them over the
      // threads in blocks of its register tile's columns, inside each
      // block (DeepBench's 108x108x3 -> 64 3x3 s2 layer with one or three
      // images on 2 threads forked once per output row, at half its
      // one-thread speed). With 16 (db3) there is one column block, no
      // thread split and no fork.
      bool blocksFork =
          threadedBlocks && (independentContractions(g) > 1 ||
                             g.outChannels > kMaxUnsplitColumns);
      bool wideRows = wideRowBlockBytes > 0 &&
                      wideRowBlockBytes < smallFilterBlockBytes &&
                      !blocksFork && g.numSpatialDims == 2 && g.groups == 1 &&
                      g.outSpatial[1] >= kMinWideRowPositions;
      BlockPlan small =
          planBlocks(g, windowType, dyType,
                     wideRows ? wideRowBlockBytes : smallFilterBlockBytes,
                     threadedBlocks ? kMinThreadedBlockFlops : kMinBlockFlops);
      if (!small.remainder || plan.remainder)
        plan = small;
    }
    auto body = [&](const convgen::BackpropFilterGeometry &gb, Value w, Value d,
                    Value acc, OpFoldResult) {
      return lowerBlock(rewriter, loc, gb, w, d, acc, /*rowStarts=*/{},
                        splitCount);
    };
    switch (plan.kind) {
    case BlockPlan::Whole:
      return lowerBlock(rewriter, loc, g, window, dy, dw, /*rowStarts=*/{},
                        splitCount);
    case BlockPlan::Items:
      return blockLoop(rewriter, loc, g, window, dy, dw, /*sd=*/-1,
                       plan.size, body, splitCount);
    case BlockPlan::Rows:
      break;
    }
    // The taps' rows that read only padding are cut in each row block too
    // (trimPaddingRows) when some tap reads padding rows. A tap may have no
    // row in a block of the block loop (a 1-row block at the border): its
    // contraction there runs over a dynamic 0 rows. Not so in a block
    // whose first row is a constant (the remainder block, or the one block
    // of a loop that runs once, which canonicalization unrolls): that tap
    // would get a static empty contraction, which the code generator does
    // not tile; every tap must read input rows in those blocks.
    auto trimmable = [&](int64_t d, int64_t size) {
      if (!tapsCutPadding(g, d))
        return false;
      bool trim = true;
      int64_t out = g.outSpatial[d];
      int64_t whole = out / size * size;
      bool looped = whole / size >= 2;
      for (int64_t start = looped ? whole : 0; start < out && trim;
           start += size) {
        int64_t end = std::min(out, start + size);
        for (int64_t k = 0; k < g.filterSpatial[d]; ++k) {
          auto [lo, hi] = g.tapInputRange(d, k);
          trim &= lo < end && hi > start;
        }
      }
      return trim;
    };
    // Blocks of rows along the second spatial dimension, each over the
    // single rows of the first (plan.dim 1): for a block of rows, every
    // depth slice in turn. Consecutive depth slices share k_eff - 1 of the
    // k_eff window slices that they read, so the block's window rows of a
    // slice come from memory once and are re-read from the L2 by the next
    // slices. (With the depth slices outermost, a window slice was re-read
    // from the L3 by each of the k_eff output slices that read it: 3 x 861
    // KB slices and out_backprop's beside them exceed a 2 MiB L2.) conv-run
    // --compare, 1 / 2 threads, Intel Xeon (model 167, 2 MiB L2): ResNeXt's
    // grouped 8x56x56 layer +15 / +17 % (8 pairs), 3-D U-Net's
    // 116x132x132 32 -> 32 +2 / +11 %, 32 -> 64 +4 / +3 % (3 pairs).
    bool nested = plan.dim == 1;
    bool trimOuter = nested && trimmable(0, 1);
    bool trimRows = trimmable(plan.dim, plan.size);
    // The blocks of rows along plan.dim of the item; nested, the depth
    // slices of the block of rows that starts at `rowStart`.
    auto rows = [&](const convgen::BackpropFilterGeometry &gb, Value w, Value d,
                    Value acc, OpFoldResult rowStart) {
      if (nested) {
        auto body = [&](const convgen::BackpropFilterGeometry &gr, Value wr,
                        Value dr, Value accr, OpFoldResult depthStart) {
          SmallVector<OpFoldResult, 2> starts{
              trimOuter ? depthStart : OpFoldResult(),
              trimRows ? rowStart : OpFoldResult()};
          return lowerBlock(rewriter, loc, gr, wr, dr, accr, starts,
                            splitCount);
        };
        return blockLoop(rewriter, loc, gb, w, d, acc, /*sd=*/0, 1, body,
                         splitCount);
      }
      SmallVector<OpFoldResult, 1> starts{trimRows ? rowStart : OpFoldResult()};
      return lowerBlock(rewriter, loc, gb, w, d, acc, starts, splitCount);
    };
    auto inner = [&](const convgen::BackpropFilterGeometry &gb, Value w,
                     Value d, Value acc, OpFoldResult) {
      return blockLoop(rewriter, loc, gb, w, d, acc, plan.dim, plan.size, rows,
                       splitCount);
    };
    if (g.batch == 1)
      return inner(g, window, dy, dw, rewriter.getIndexAttr(0));
    return blockLoop(rewriter, loc, g, window, dy, dw, /*sd=*/-1, 1, inner,
                     splitCount);
  }

  /// A block's lowering: its geometry, window, out_backprop, the dW to
  /// accumulate into, and its first batch item or output row.
  using BlockBody =
      llvm::function_ref<Value(const convgen::BackpropFilterGeometry &, Value,
                               Value, Value, OpFoldResult)>;

  /// Runs `body` over blocks of `block` batch items (or, with `sd` >= 0,
  /// output rows along spatial dimension `sd`): an scf.for over the whole blocks
  /// (dW as its iter_arg) and one call for the remainder, so that every
  /// block has a static shape. `splitCount` > 1: window and out_backprop
  /// have a leading dimension of split-K parts (the blocks slice the
  /// dimensions after it: the same block of every part).
  Value blockLoop(PatternRewriter &rewriter, Location loc,
                  const convgen::BackpropFilterGeometry &g, Value window,
                  Value dy, Value dw, int64_t sd, int64_t block,
                  BlockBody body, int64_t splitCount = 1) const {
    bool spatial = sd >= 0;
    int64_t extent = spatial ? g.outSpatial[sd] : g.batch;
    int64_t wdim =
        (spatial ? spatialDim(g.layout, sd) : 0) + (splitCount > 1 ? 1 : 0);
    // The window / out_backprop slices of the block at `pos` of `size`.
    auto slices = [&](OpFoldResult pos, int64_t size,
                      convgen::BackpropFilterGeometry &gb) {
      gb = g;
      OpFoldResult winPos = pos;
      int64_t winSize = size;
      if (spatial) {
        gb.outSpatial[sd] = size;
        winSize = convgen::windowSpan(size, g.strides[sd], g.filterSpatial[sd],
                                      g.dilations[sd]);
        if (g.strides[sd] != 1) {
          if (auto v = dyn_cast<Value>(pos))
            winPos = arith::MulIOp::create(
                         rewriter, loc, v,
                         arith::ConstantIndexOp::create(rewriter, loc,
                                                        g.strides[sd]))
                         .getResult();
          else
            winPos = rewriter.getIndexAttr(
                *getConstantIntValue(pos) * g.strides[sd]);
        }
      } else {
        gb.batch = size;
      }
      auto slice = [&](Value v, OpFoldResult offset, int64_t len) -> Value {
        return extractDimSlice(rewriter, loc, v, wdim, offset, len).value;
      };
      return std::make_pair(slice(window, winPos, winSize),
                            slice(dy, pos, size));
    };
    int64_t whole = extent / block * block;
    Value acc = dw;
    if (whole / block == 1 && whole == extent)
      return body(g, window, dy, dw,
                  rewriter.getIndexAttr(0)); // a single block: no loop
    if (whole > 0) {
      Value lb = arith::ConstantIndexOp::create(rewriter, loc, 0);
      Value ub = arith::ConstantIndexOp::create(rewriter, loc, whole);
      Value step = arith::ConstantIndexOp::create(rewriter, loc, block);
      auto loop = scf::ForOp::create(rewriter, loc, lb, ub, step, ValueRange{dw});
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToStart(loop.getBody());
      convgen::BackpropFilterGeometry gb;
      auto [w, d] = slices(loop.getInductionVar(), block, gb);
      Value next =
          body(gb, w, d, loop.getRegionIterArgs()[0], loop.getInductionVar());
      scf::YieldOp::create(rewriter, loc, next);
      acc = loop.getResult(0);
    }
    if (whole < extent) {
      convgen::BackpropFilterGeometry gb;
      auto [w, d] = slices(rewriter.getIndexAttr(whole), extent - whole, gb);
      acc = body(gb, w, d, acc, rewriter.getIndexAttr(whole));
    }
    return acc;
  }

  /// Cuts `x` and `dy` along spatial dimension `d` to the output rows that
  /// tap `tap` reads input at (BackpropFilterGeometry::tapInputRange with
  /// the tap index, and the first output row `start` of a block of `rows`
  /// rows along `d`, as SSA values; `start` is 0 and `rows` the output
  /// extent for the whole op):
  ///   lo   = min(rows, max(0, ceil((pb - k*dil) / s) - start))
  ///   hi   = min(rows, floor((in - 1 + pb - k*dil) / s) + 1 - start)
  ///   size = min(rows, max(0, hi - lo))
  /// (the outer min gives the code generator an upper bound: an affine.max
  /// has none for its tile heuristics, ValueBoundsConstraintSet).
  void cutTapRows(PatternRewriter &rewriter, Location loc,
                  const convgen::BackpropFilterGeometry &g, int64_t d,
                  Value tap, OpFoldResult start, int64_t rows, Value &x,
                  Value &dy) const {
    MLIRContext *ctx = rewriter.getContext();
    int64_t s = g.strides[d], pb = g.padBefore[d], dil = g.dilations[d];
    AffineExpr k = getAffineDimExpr(0, ctx), r0 = getAffineDimExpr(1, ctx);
    AffineExpr zero = getAffineConstantExpr(0, ctx);
    AffineExpr bound = getAffineConstantExpr(rows, ctx);
    OpFoldResult lo = affine::makeComposedFoldedAffineMax(
        rewriter, loc,
        AffineMap::get(2, 0, {zero, (pb - k * dil).ceilDiv(s) - r0}, ctx),
        {OpFoldResult(tap), start});
    lo = affine::makeComposedFoldedAffineMin(
        rewriter, loc, AffineMap::get(1, 0, {bound, k}, ctx), {lo});
    OpFoldResult hi = affine::makeComposedFoldedAffineMin(
        rewriter, loc,
        AffineMap::get(
            2, 0,
            {bound,
             (g.inputSpatial[d] - 1 + pb - k * dil).floorDiv(s) + 1 - r0},
            ctx),
        {OpFoldResult(tap), start});
    OpFoldResult size = affine::makeComposedFoldedAffineMax(
        rewriter, loc,
        AffineMap::get(2, 0, {zero, k - getAffineDimExpr(1, ctx)}, ctx),
        {hi, lo});
    size = affine::makeComposedFoldedAffineMin(
        rewriter, loc, AffineMap::get(1, 0, {bound, k}, ctx), {size});
    int64_t dim = spatialDim(g.layout, d);
    x = extractDimSlice(rewriter, loc, x, dim, lo, size).value;
    dy = extractDimSlice(rewriter, loc, dy, dim, lo, size).value;
  }

  /// Cuts the output positions of the tap at `ivs` that only read zero
  /// padding from its input window `x` and from `dy`, along every padded
  /// spatial dimension (docs/Lowering.md §2.5): the products with the
  /// padding are not computed. The last dimension (the register tiles'
  /// reduction) only when it is at most kMaxCutLastDim long; the leading
  /// ones whose rows the window is a block of (`rowStarts`), to the tap's
  /// rows within the block that starts at output row `rowStarts[d]` (null:
  /// it stays whole), the last not when `keepLast` (pair operands: a cut
  /// could split a pair). Dimensions where no tap reads padding stay static.
  /// Returns whether the cut slices read no padding at all (every
  /// dimension whose taps read padding was cut).
  /// Grouped layers cut a long last dimension too: their lane-group tiles
  /// run at the same speed with its single-step remainder (ResNeXt's 3-D
  /// layer, 56-position rows, 0.99x with 1 thread), and with every
  /// dimension cut their window needs no zero-padded copy
  /// (kInteriorReadsAttrName).
  bool trimPaddingRows(PatternRewriter &rewriter, Location loc,
                       const convgen::BackpropFilterGeometry &g,
                       ArrayRef<Value> ivs, ArrayRef<OpFoldResult> rowStarts,
                       Value &x, Value &dy, bool keepLast = false,
                       int64_t byCaller = 0) const {
    int64_t n = g.numSpatialDims;
    bool interior = true;
    // Blocks of rows: `g.outSpatial[d]` rows from output row `rowStarts[d]`
    // of the whole op, whose padding and input `g` keeps (the caller checked
    // that the cut leaves no static empty contraction).
    int64_t blocked = static_cast<int64_t>(rowStarts.size());
    for (int64_t d = 0; d < blocked; ++d) {
      if (rowStarts[d])
        cutTapRows(rewriter, loc, g, d, ivs[d], rowStarts[d], g.outSpatial[d],
                   x, dy);
      else
        interior &= !tapsReadPadding(g, d);
    }
    for (int64_t d = blocked; d < n; ++d) {
      // (Tap rows and planes handle their last one or two dimensions
      // themselves: lowerTapRows, lowerTapPlanes.)
      if (d >= n - byCaller)
        continue;
      bool cut =
          tapsCutPadding(g, d) &&
          !(d == n - 1 && (keepLast || (g.outSpatial[d] > kMaxCutLastDim &&
                                        g.groups == 1 && !cutLongRows)));
      if (!cut) {
        interior &= !tapsReadPadding(g, d);
        continue;
      }
      cutTapRows(rewriter, loc, g, d, ivs[d], rewriter.getIndexAttr(0),
                 g.outSpatial[d], x, dy);
    }
    return interior;
  }

  /// Group parts of a tap forall with `leading` iterations (tap rows, tap
  /// planes): `threads / gcd(leading, threads)` parts of the `groups`
  /// groups (`coPer` output channels each) when the forall is neither
  /// inside another one nor over split-K parts and each part is whole
  /// vectors of `lanes` lanes; else 1.
  int64_t groupPartsFor(PatternRewriter &rewriter, int64_t leading,
                        int64_t splitCount, int64_t groups, int64_t coPer,
                        int64_t lanes) const {
    if (insideForall(rewriter) || splitCount != 1 || threads <= 1)
      return 1;
    int64_t parts = threads / std::gcd(leading, threads);
    return parts > 1 && groups % parts == 0 &&
                   groups / parts * coPer % lanes == 0
               ? parts
               : 1;
  }

  /// The window positions q = o + k*dil along the last spatial dimension
  /// at which every tap k of the last kernel dimension reads the input,
  /// [qLo, qHi); empty when some tap reads none.
  static std::pair<int64_t, int64_t>
  tapRowInterior(const convgen::BackpropFilterGeometry &g) {
    int64_t n = g.numSpatialDims, dil = g.dilations[n - 1];
    int64_t qLo = 0, qHi = std::numeric_limits<int64_t>::max();
    for (int64_t k = 0; k < g.filterSpatial[n - 1]; ++k) {
      auto [lo, hi] = g.tapInputRange(n - 1, k);
      if (hi <= lo)
        return {0, 0};
      qLo = std::max(qLo, lo + k * dil);
      qHi = std::min(qHi, hi + k * dil);
    }
    return {qLo, std::max(qLo, qHi)};
  }

  /// Whether lowerTapRows lowers a filter gradient of this geometry and
  /// f32 dW (outside bf16 pairs): dense tap rows (denseTapRowsApply), or a
  /// grouped channels-last layer whose lane-group tiles fit: 2-4 output
  /// channels per group, a quarter of a vector at most, whole vectors of
  /// groups, a stride-1 last dimension of at least 2 taps, at least 2
  /// input channels a group, and at most kMaxTapRowAccumulatorRows (half
  /// with 8-lane vectors) taps x input channels; both with at least
  /// kMinTapRowInterior positions that every tap reads.
  bool tapRowsApply(const convgen::BackpropFilterGeometry &g,
                    Type elementType) const {
    int64_t n = g.numSpatialDims;
    if (tapRowLanes <= 0 || g.layout != Layout::ChannelsLast || n < 2 ||
        !elementType.isF32())
      return false;
    if (g.groups == 1)
      return denseTapRowsApply(g, elementType);
    int64_t taps = g.filterSpatial[n - 1], cf = g.filterInChannels;
    int64_t coPer = g.outChannels / g.groups;
    if (taps < 2 || g.strides[n - 1] != 1 || coPer < 2 ||
        4 * coPer > tapRowLanes || tapRowLanes % coPer != 0 ||
        g.outChannels % tapRowLanes != 0 || cf < 2 ||
        // (8-lane vectors: AVX2's 16 registers, half the rows.)
        taps * cf > (tapRowLanes >= 16 ? kMaxTapRowAccumulatorRows
                                       : kMaxTapRowAccumulatorRows / 2))
      return false;
    auto [qLo, qHi] = tapRowInterior(g);
    return qHi - qLo >= kMinTapRowInterior;
  }

  /// Dense tap rows (docs/Lowering.md §2.8): an ungrouped channels-last
  /// f32 filter gradient with kMinDenseTapRowTaps to kMaxDenseTapRowTaps
  /// taps along a stride-1, undilated last dimension, whole 16-lane vectors
  /// of output channels and input channels a multiple of its register
  /// tiles' 4, lowered in split-K parts. Its register tiles broadcast each
  /// input value with a plain broadcast, but the K taps' tile (K x 4 x one
  /// vector of accumulators) reads each input value once for its K taps instead
  /// of once per tap and, unrolled by LLVM, each out_backprop row once for them
  /// (GoogLeNet's 5x5 28x28x192 -> 32, conv-run --compare, 20 call pairs: +8 /
  /// +5 % with 1 / 2 threads; oneDNN's kernel shares its broadcasts between the
  /// taps the same way). Only in split-K parts, where the leading taps' forall
  /// does not spread the work over the threads (one image on 2 threads: 5
  /// leading taps ran 10 % slower than the per-tap forall of 25), a condition
  /// that does not depend on the thread count: neither may the order of the
  /// sums.
  bool denseTapRowsApply(const convgen::BackpropFilterGeometry &g,
                         Type elementType) const {
    int64_t n = g.numSpatialDims;
    if (tapRowLanes < 16 || !inSplitParts || g.groups != 1 ||
        g.layout != Layout::ChannelsLast || n < 2 || !elementType.isF32())
      return false;
    auto [qLo, qHi] = tapRowInterior(g);
    return g.filterSpatial[n - 1] >= kMinDenseTapRowTaps &&
           g.filterSpatial[n - 1] <= kMaxDenseTapRowTaps &&
           g.strides[n - 1] == 1 && g.dilations[n - 1] == 1 &&
           g.outChannels % tapRowLanes == 0 &&
           g.filterInChannels % kDenseTapRowChannels == 0 &&
           qHi - qLo >= kMinTapRowInterior;
  }

  /// Tap rows (docs/Lowering.md §2.8): a grouped channels-last filter
  /// gradient whose lane-group register tiles broadcast each input value
  /// over its group's lanes with a lane shuffle contracts the K taps of its
  /// last kernel dimension (stride 1) in one contraction per leading tap,
  /// over the window positions q that every one of them reads the input at:
  ///   R[k', ci, g, co] += X[b, o..., q, g, ci] * dY[b, o..., q - k*dil, g, co]
  /// (k' = K-1-k; on the slices from q = qLo and from qLo - (K-1)*dil the
  /// window is read at q and out_backprop at q + k'*dil, positive
  /// coefficients, which the tiling needs) into the leading tap's dW rows
  /// in reverse tap order, with the few positions at the ends
  /// that only some taps read as per-tap contractions (kRoleDwTap). The code
  /// generator then runs the K taps inside one reduction step, and LLVM
  /// shares each input row's shuffles between them (one shuffle per K FMAs
  /// instead of one per FMA). Returns null where it does not apply.
  Value lowerTapRows(PatternRewriter &rewriter, Location loc,
                     const convgen::BackpropFilterGeometry &g, Value window,
                     Value dy, Value dw, ArrayRef<OpFoldResult> rowStarts,
                     int64_t splitCount, bool pairs) const {
    int64_t n = g.numSpatialDims;
    auto dwType = cast<RankedTensorType>(dw.getType());
    if (pairs || !tapRowsApply(g, dwType.getElementType()))
      return nullptr;
    int64_t taps = g.filterSpatial[n - 1], dil = g.dilations[n - 1];
    int64_t cf = g.filterInChannels, groups = g.groups;
    int64_t coPer = g.outChannels / groups;
    auto [qLo, qHi] = tapRowInterior(g);
    Type accType = dwType.getElementType();
    int64_t rank = n + 2, cdim = channelDim(g.layout, n);
    int64_t lastDim = spatialDim(g.layout, n - 1);

    // Group parts (as the column parts of §2.4): a forall of leading taps
    // not a multiple of the threads it runs on (not inside another forall)
    // splits the groups into `threads / gcd(leading taps, threads)` parts
    // of whole vectors, the innermost forall dimension (2-D 3x3 layers: 3
    // leading taps, 2 + 1 on 2 threads, 6 half taps now). conv-run
    // --compare, 10 call pairs, 2 threads: N2 56x56x128 in 32 groups of
    // 4 -> 4 +19 %, N8 28x28x128 -> 64 in 16 groups of 8 -> 4 +21 %, N8
    // 28x28x64 in 32 groups of 2 -> 2 +1 % (its parts' tiles have half the
    // accumulators).
    int64_t groupParts = groupPartsFor(rewriter, numTaps(g) / taps, splitCount,
                                       groups, coPer, tapRowLanes);
    int64_t partGroups = groups / groupParts;

    // One iteration per leading tap (with split-K parts, §2.3: per part
    // and leading tap, the parts first; with group parts, those last).
    TapForall f = createTapForall(rewriter, loc, g, n - 1, splitCount,
                                  groupParts, dw, window, dy);
    scf::ForallOp forall = f.op;
    SmallVector<Value> ivs = std::move(f.taps);
    Value iter = f.iter, splitIv = f.split;
    int64_t width = partGroups * coPer;
    OpFoldResult coOffset = rewriter.getIndexAttr(0);
    if (groupParts > 1) {
      Value part = f.part;
      AffineExpr p0 = rewriter.getAffineDimExpr(0);
      coOffset = affine::makeComposedFoldedAffineApply(rewriter, loc,
                                                       p0 * width, {part});
      window =
          extractDimSlice(rewriter, loc, window, cdim,
                          affine::makeComposedFoldedAffineApply(
                              rewriter, loc, p0 * (partGroups * cf), {part}),
                          partGroups * cf)
              .value;
      dy = extractDimSlice(rewriter, loc, dy, cdim, coOffset, width).value;
    }
    Value x = tapWindow(rewriter, loc, g, window, ivs);
    if (!trimPaddingRows(rewriter, loc, g, ivs, rowStarts, x, dy,
                         /*keepLast=*/false, /*byCaller=*/1))
      flagReadsPadding(rewriter, window);

    // The leading tap's [K, Cf, Cout] rows of dW (of its group part).
    SmallVector<OpFoldResult> wOffsets(ivs.begin(), ivs.end()),
        wSizes(n - 1, rewriter.getIndexAttr(1)),
        wStrides(rank, rewriter.getIndexAttr(1));
    wOffsets.append(
        {rewriter.getIndexAttr(0), rewriter.getIndexAttr(0), coOffset});
    wSizes.append({rewriter.getIndexAttr(taps), rewriter.getIndexAttr(cf),
                   rewriter.getIndexAttr(width)});
    if (splitIv) {
      wOffsets.insert(wOffsets.begin(), splitIv);
      wSizes.insert(wSizes.begin(), rewriter.getIndexAttr(1));
      wStrides.push_back(rewriter.getIndexAttr(1));
    }
    auto rowsType = RankedTensorType::get({taps, cf, width}, accType);
    Value rows = tensor::ExtractSliceOp::create(rewriter, loc, rowsType, iter,
                                                wOffsets, wSizes, wStrides);
    auto one = rewriter.getIndexAttr(1), zero = rewriter.getIndexAttr(0);
    auto tapType = RankedTensorType::get({cf, width}, accType);
    SmallVector<OpFoldResult> tapSizes{one, rewriter.getIndexAttr(cf),
                                       rewriter.getIndexAttr(width)},
        tapStrides(3, one);
    auto tapOffsets = [&](int64_t k) {
      return SmallVector<OpFoldResult>{rewriter.getIndexAttr(k), zero, zero};
    };
    auto extractTap = [&](Value from, int64_t k) -> Value {
      return tensor::ExtractSliceOp::create(
          rewriter, loc, tapType, from, tapOffsets(k), tapSizes, tapStrides);
    };
    auto insertTap = [&](Value tap, Value into, int64_t k) -> Value {
      return tensor::InsertSliceOp::create(rewriter, loc, tap, into,
                                           tapOffsets(k), tapSizes, tapStrides);
    };

    // The interior: the taps in reverse order (dW's rows already are with
    // reversedTaps: lowerInParts).
    bool dwReversed = reversedTaps;
    Value reversed = dwReversed ? rows : reverseDim(rewriter, loc, rows, 0);
    // Tap k's row of `rows`.
    auto rowOf = [&](int64_t k) { return dwReversed ? taps - 1 - k : k; };
    int64_t span = (taps - 1) * dil;
    Value xi = extractDimSlice(rewriter, loc, x, lastDim,
                               rewriter.getIndexAttr(qLo), qHi - qLo)
                   .value;
    Value yi =
        extractDimSlice(rewriter, loc, dy, lastDim,
                        rewriter.getIndexAttr(qLo - span), qHi - qLo + span)
            .value;
    xi = expandDim(rewriter, loc, xi, cdim, partGroups, cf);
    yi = expandDim(rewriter, loc, yi, cdim, partGroups, coPer);
    Value acc = expandDim(rewriter, loc, reversed, 2, partGroups, coPer);
    // Loops [g, ci, co, k', b, o_0..o_{n-2}, q].
    MLIRContext *ctx = rewriter.getContext();
    int64_t numLoops = 4 + 1 + n;
    AffineExpr gE = getAffineDimExpr(0, ctx), ciE = getAffineDimExpr(1, ctx),
               coE = getAffineDimExpr(2, ctx), kE = getAffineDimExpr(3, ctx),
               bE = getAffineDimExpr(4, ctx),
               qE = getAffineDimExpr(numLoops - 1, ctx);
    SmallVector<AffineExpr> xE{bE}, yE{bE};
    for (int64_t d = 0; d + 1 < n; ++d) {
      xE.push_back(getAffineDimExpr(5 + d, ctx));
      yE.push_back(getAffineDimExpr(5 + d, ctx));
    }
    xE.append({qE, gE, ciE});
    yE.append({qE + kE * dil, gE, coE});
    auto contraction =
        createMulAdd(rewriter, loc, xi, yi, acc, xE, yE, {kE, ciE, gE, coE},
                     numLoops, /*numParallel=*/4, kRoleDwTapRow);
    Value result = collapseDims(rewriter, loc, contraction.getResult(0), 2);
    if (dwReversed)
      rows = result;
    else
      for (int64_t k = 0; k < taps; ++k)
        rows = insertTap(extractTap(result, taps - 1 - k), rows, k);

    // The ends: each tap's output positions that read the input outside
    // the interior, [lo_k, qLo - k*dil) and [qHi - k*dil, hi_k).
    for (int64_t k = 0; k < taps; ++k) {
      auto [lo, hi] = g.tapInputRange(n - 1, k);
      for (auto [from, to] : {std::pair<int64_t, int64_t>{lo, qLo - k * dil},
                              std::pair<int64_t, int64_t>{qHi - k * dil, hi}}) {
        if (to <= from)
          continue;
        Value xe =
            extractDimSlice(rewriter, loc, x, lastDim,
                            rewriter.getIndexAttr(from + k * dil), to - from)
                .value;
        Value ye = extractDimSlice(rewriter, loc, dy, lastDim,
                                   rewriter.getIndexAttr(from), to - from)
                       .value;
        rows = insertTap(createTapContraction(rewriter, loc, g, xe, ye,
                                              extractTap(rows, rowOf(k)),
                                              partGroups, /*pairs=*/false),
                         rows, rowOf(k));
      }
    }
    rewriter.setInsertionPointToStart(forall.getTerminator().getBody());
    tensor::ParallelInsertSliceOp::create(rewriter, loc, rows, iter, wOffsets,
                                          wSizes, wStrides);
    rewriter.setInsertionPointAfter(forall);
    return forall.getResult(0);
  }

  /// The output positions [lo, hi) along spatial dimension `d` at which
  /// every tap reads the input (none of them padding); empty when there is
  /// none.
  static std::pair<int64_t, int64_t>
  allTapsInterior(const convgen::BackpropFilterGeometry &g, int64_t d) {
    int64_t lo = 0, hi = g.outSpatial[d];
    for (int64_t k = 0; k < g.filterSpatial[d]; ++k) {
      auto [first, end] = g.tapInputRange(d, k);
      lo = std::max(lo, first);
      hi = std::min(hi, end);
    }
    return {lo, std::max(lo, hi)};
  }

  /// Whether tap planes (lowerTapPlanes) apply to `g`: a depthwise
  /// channels-last layer (one input and one output channel a group) of
  /// whole vectors of channels, at most kMaxTapPlaneTaps taps in the plane
  /// of its last two kernel dimensions (an accumulator each), and along
  /// both of those an interior of output positions at which every tap
  /// reads the input of at least three quarters of them. (The edge strips
  /// cost a contraction each. conv-run --compare against per-tap
  /// contractions, 1 thread, Emerald Rapids, 3x3 taps, measured with the
  /// input-position form of docs/Lowering.md §2.9: 14x14 SAME 1.3x, 8x8
  /// SAME 1.04x, 12x12 VALID 1.1x, but 7x7 SAME (interior 5) 0.67x and 5x5
  /// 0.6x.)
  bool tapPlanesApply(const convgen::BackpropFilterGeometry &g) const {
    int64_t n = g.numSpatialDims;
    if (tapPlaneLanes <= 0 || g.groups <= 1 || g.filterInChannels != 1 ||
        g.outChannels != g.groups || g.outChannels % tapPlaneLanes != 0 ||
        g.layout != Layout::ChannelsLast || n < 2)
      return false;
    int64_t planeTaps = 1;
    for (int64_t d = n - 2; d < n; ++d) {
      auto [lo, hi] = allTapsInterior(g, d);
      if (4 * (hi - lo) < 3 * g.outSpatial[d] || hi <= lo)
        return false;
      planeTaps *= g.filterSpatial[d];
    }
    int64_t maxTaps =
        tapPlaneLanes >= 16 ? kMaxTapPlaneTaps : kMaxTapPlaneTaps / 2;
    return planeTaps >= 4 && planeTaps <= maxTaps;
  }

  /// Tap planes (docs/Lowering.md §2.9): a depthwise filter gradient
  /// contracts all the taps of its last two kernel dimensions in one
  /// contraction per leading tap, over the output positions (p, q) of the
  /// last two spatial dimensions:
  ///   dW[k0, k1, c] += P[b, o..., p*s0 + k0*d0, q*s1 + k1*d1, c]
  ///                    * dY[b, o..., p, q, c]
  /// (P the zero-padded input). Over the interior of output positions at
  /// which every tap reads the input, P is a slice of the input itself; the
  /// strips around it (above and below, whole along the last dimension,
  /// then left and right) are the same contraction on a small zero-bordered
  /// copy of the input rows they read, so that the window's padded copy is
  /// never made. The code generator's register tiles then keep all K0 * K1
  /// taps in registers and load each out_backprop vector once for all of
  /// them (per tap, each tap's contraction loaded both operands again, from
  /// the L2 or further once the block outgrew the L1). Returns null where
  /// it does not apply.
  Value lowerTapPlanes(PatternRewriter &rewriter, Location loc,
                       const convgen::BackpropFilterGeometry &g, Value window,
                       Value dy, Value dw, ArrayRef<OpFoldResult> rowStarts,
                       int64_t splitCount, bool pairs) const {
    int64_t n = g.numSpatialDims;
    auto dwType = cast<RankedTensorType>(dw.getType());
    if (pairs || !tapPlanesApply(g) || !dwType.getElementType().isF32() ||
        static_cast<int64_t>(rowStarts.size()) > n - 2)
      return nullptr;
    int64_t k0 = g.filterSpatial[n - 2], k1 = g.filterSpatial[n - 1];
    int64_t groups = g.groups;
    Type accType = dwType.getElementType();
    int64_t cdim = channelDim(g.layout, n);
    MLIRContext *ctx = rewriter.getContext();

    // Channel parts on threads, as the group parts of tap rows.
    int64_t parts = groupPartsFor(rewriter, numTaps(g) / (k0 * k1), splitCount,
                                  groups, 1, tapPlaneLanes);
    int64_t width = groups / parts;

    // One iteration per leading tap (and split-K or channel part); a 2-D
    // layer's single plane on one thread needs no scf.forall.
    bool direct = n == 2 && splitCount == 1 && parts == 1;
    scf::ForallOp forall;
    SmallVector<Value> ivs;
    Value iter = dw, splitIv;
    OpFoldResult cOffset = rewriter.getIndexAttr(0);
    if (!direct) {
      TapForall f = createTapForall(rewriter, loc, g, n - 2, splitCount, parts,
                                    dw, window, dy);
      forall = f.op;
      ivs = std::move(f.taps);
      iter = f.iter;
      splitIv = f.split;
      if (parts > 1) {
        cOffset = affine::makeComposedFoldedAffineApply(
            rewriter, loc, rewriter.getAffineDimExpr(0) * width, {f.part});
        window =
            extractDimSlice(rewriter, loc, window, cdim, cOffset, width).value;
        dy = extractDimSlice(rewriter, loc, dy, cdim, cOffset, width).value;
      }
    }
    // The leading taps' window (the plane's dimensions whole), cut to the
    // rows that read the input along the leading dimensions.
    Value x = tapWindow(rewriter, loc, g, window, ivs);
    if (!trimPaddingRows(rewriter, loc, g, ivs, rowStarts, x, dy,
                         /*keepLast=*/false, /*byCaller=*/2))
      flagReadsPadding(rewriter, window);

    // The leading tap's [K0, K1, C] taps of dW (of its channel part).
    int64_t rank = n + 2;
    SmallVector<OpFoldResult> wOffsets(ivs.begin(), ivs.end()),
        wSizes(n - 2, rewriter.getIndexAttr(1)),
        wStrides(rank, rewriter.getIndexAttr(1));
    wOffsets.append({rewriter.getIndexAttr(0), rewriter.getIndexAttr(0),
                     rewriter.getIndexAttr(0), cOffset});
    wSizes.append({rewriter.getIndexAttr(k0), rewriter.getIndexAttr(k1),
                   rewriter.getIndexAttr(1), rewriter.getIndexAttr(width)});
    if (splitIv) {
      wOffsets.insert(wOffsets.begin(), splitIv);
      wSizes.insert(wSizes.begin(), rewriter.getIndexAttr(1));
      wStrides.push_back(rewriter.getIndexAttr(1));
    }
    // (Reshaped rather than sliced rank-reducing: once LICM hoists the
    // slice out of an enclosing block loop, the loop must yield a value
    // equivalent to it.)
    Value acc = collapseDims(
        rewriter, loc,
        tensor::ExtractSliceOp::create(
            rewriter, loc, RankedTensorType::get({k0, k1, 1, width}, accType),
            iter, wOffsets, wSizes, wStrides),
        2);

    // Loops [c, k0, k1, b, o_0..o_{n-3}, p, q], elementwise over the
    // channels c (without the unit ci / co dimensions of the group split:
    // the tiles read whole vectors of channels).
    int64_t numLoops = 3 + 1 + n;
    AffineExpr cE = getAffineDimExpr(0, ctx), bE = getAffineDimExpr(3, ctx);
    SmallVector<AffineExpr> xE{bE}, yE{bE};
    for (int64_t d = 0; d + 2 < n; ++d) {
      xE.push_back(getAffineDimExpr(4 + d, ctx));
      yE.push_back(getAffineDimExpr(4 + d, ctx));
    }
    for (int64_t i = 0; i < 2; ++i) {
      int64_t d = n - 2 + i;
      AffineExpr o = getAffineDimExpr(numLoops - 2 + i, ctx);
      xE.push_back(o * g.strides[d] +
                   getAffineDimExpr(1 + i, ctx) * g.dilations[d]);
      yE.push_back(o);
    }
    xE.push_back(cE);
    yE.push_back(cE);

    // The regions of the plane, in output positions: its interior, at which
    // every tap reads the input, and the strips around it, the ones above
    // and below whole along the last dimension.
    struct Range {
      int64_t lo, hi;
    };
    auto [ilo0, ihi0] = allTapsInterior(g, n - 2);
    auto [ilo1, ihi1] = allTapsInterior(g, n - 1);
    Range in0{ilo0, ihi0}, in1{ilo1, ihi1};
    int64_t out0 = g.outSpatial[n - 2], out1 = g.outSpatial[n - 1];
    SmallVector<std::pair<Range, Range>, 5> regions{{in0, in1},
                                                    {{0, in0.lo}, {0, out1}},
                                                    {{in0.hi, out0}, {0, out1}},
                                                    {in0, {0, in1.lo}},
                                                    {in0, {in1.hi, out1}}};
    for (auto [rp, rq] : regions) {
      if (rp.hi <= rp.lo || rq.hi <= rq.lo)
        continue;
      Value xs = x, ys = dy;
      auto xType = cast<RankedTensorType>(x.getType());
      SmallVector<OpFoldResult> low(xType.getRank(), rewriter.getIndexAttr(0)),
          high(xType.getRank(), rewriter.getIndexAttr(0));
      bool padded = false;
      for (auto [i, r] : llvm::enumerate(std::array<Range, 2>{rp, rq})) {
        int64_t d = n - 2 + static_cast<int64_t>(i);
        int64_t dim = spatialDim(g.layout, d);
        ys = extractDimSlice(rewriter, loc, ys, dim,
                             rewriter.getIndexAttr(r.lo), r.hi - r.lo)
                 .value;
        // The window positions the region reads, [first, end), of which
        // those of the input are [pb, pb + in).
        int64_t first = r.lo * g.strides[d];
        int64_t end =
            first + convgen::windowSpan(r.hi - r.lo, g.strides[d],
                                        g.filterSpatial[d], g.dilations[d]);
        int64_t from = std::max(first, g.padBefore[d]);
        int64_t to = std::min(end, g.padBefore[d] + g.inputSpatial[d]);
        xs = extractDimSlice(rewriter, loc, xs, dim,
                             rewriter.getIndexAttr(from), to - from)
                 .value;
        low[dim] = rewriter.getIndexAttr(from - first);
        high[dim] = rewriter.getIndexAttr(end - to);
        padded |= from != first || end != to;
      }
      if (padded) {
        auto xsType = cast<RankedTensorType>(xs.getType());
        SmallVector<int64_t> shape(xsType.getShape());
        for (int64_t d = 0; d < xsType.getRank(); ++d)
          if (!ShapedType::isDynamic(shape[d]))
            shape[d] +=
                *getConstantIntValue(low[d]) + *getConstantIntValue(high[d]);
        Value zero = arith::ConstantOp::create(
            rewriter, loc, rewriter.getZeroAttr(xsType.getElementType()));
        auto pad = tensor::PadOp::create(rewriter, loc, xsType.clone(shape), xs,
                                         low, high, zero);
        pad->setAttr(kRoleAttrName, rewriter.getStringAttr(kRoleWindowBorder));
        xs = pad.getResult();
      }
      auto contraction =
          createMulAdd(rewriter, loc, xs, ys, acc, xE, yE,
                       {getAffineDimExpr(1, ctx), getAffineDimExpr(2, ctx), cE},
                       numLoops, /*numParallel=*/3, kRoleDwDepthwisePlane);
      if (rp.lo != in0.lo || rq.lo != in1.lo)
        contraction->setAttr(kPlaneStripAttrName, rewriter.getUnitAttr());
      acc = contraction.getResult(0);
    }
    Value plane = expandDim(rewriter, loc, acc, 2, 1, width);
    if (direct)
      return tensor::InsertSliceOp::create(rewriter, loc, plane, dw, wOffsets,
                                           wSizes, wStrides);
    rewriter.setInsertionPointToStart(forall.getTerminator().getBody());
    tensor::ParallelInsertSliceOp::create(rewriter, loc, plane, iter, wOffsets,
                                          wSizes, wStrides);
    rewriter.setInsertionPointAfter(forall);
    return forall.getResult(0);
  }

  /// One tap's contraction (steps 6 and 7; with `pairs`, §2.6): `tap`
  /// ([Cf, width]) += the products of the window slice `x` and `dy`
  /// (width output channels) over [(g,) ci, co, b, o_0..o_{n-1} (, e)],
  /// `groups` > 1 splitting their channels into that many groups; returns
  /// the tap's new [Cf, width].
  Value createTapContraction(PatternRewriter &rewriter, Location loc,
                             const convgen::BackpropFilterGeometry &g, Value x,
                             Value dy, Value tap, int64_t groups,
                             bool pairs) const {
    int64_t n = g.numSpatialDims;
    int64_t cdim = channelDim(g.layout, n);
    bool grouped = groups > 1;
    if (grouped) {
      int64_t width = cast<RankedTensorType>(tap.getType()).getDimSize(1);
      x = expandDim(rewriter, loc, x, cdim, groups, g.filterInChannels);
      dy = expandDim(rewriter, loc, dy, cdim, groups, width / groups);
      tap = expandDim(rewriter, loc, tap, 1, groups, width / groups);
    }

    // Loop dims: [g], ci, co, b, o_0..o_{n-1} (pairs: then e).
    MLIRContext *ctx = rewriter.getContext();
    int64_t numLoops = (grouped ? 1 : 0) + 2 + 1 + n + (pairs ? 1 : 0);
    int64_t pos = 0;
    AffineExpr gE = grouped ? getAffineDimExpr(pos++, ctx) : AffineExpr();
    AffineExpr ciE = getAffineDimExpr(pos++, ctx);
    AffineExpr coE = getAffineDimExpr(pos++, ctx);
    AffineExpr bE = getAffineDimExpr(pos++, ctx);
    SmallVector<AffineExpr> oE;
    for (int64_t d = 0; d < n; ++d)
      oE.push_back(getAffineDimExpr(pos++, ctx));
    AffineExpr eE = pairs ? getAffineDimExpr(pos++, ctx) : AffineExpr();
    auto activation = [&](AffineExpr inner) {
      SmallVector<AffineExpr> e{bE};
      if (g.layout == Layout::ChannelsFirst) {
        if (grouped)
          e.push_back(gE);
        e.push_back(inner);
      }
      e.append(oE.begin(), oE.end());
      if (g.layout == Layout::ChannelsLast) {
        if (grouped)
          e.push_back(gE);
        e.push_back(inner);
      }
      if (pairs)
        e.push_back(eE);
      return e;
    };
    SmallVector<AffineExpr> outE{ciE};
    if (grouped)
      outE.push_back(gE);
    outE.push_back(coE);
    auto contraction =
        createMulAdd(rewriter, loc, x, dy, tap, activation(ciE),
                     activation(coE), outE, numLoops,
                     /*numParallel=*/grouped ? 3 : 2, kRoleDwTap);
    contraction->setAttr(kDwContractionsAttrName,
                         rewriter.getI64IntegerAttr(numTaps(g)));
    if (pairs)
      contraction->setAttr(kDwPairsAttrName, rewriter.getUnitAttr());
    Value result = contraction.getResult(0);
    if (grouped)
      result = collapseDims(rewriter, loc, result, 1);
    return result;
  }

  /// Whether lowerTaps runs the taps over bf16 pairs of output positions
  /// (docs/Lowering.md §2.6): bf16 out_backprop `dy` of static shape, whole
  /// rows along the last dimension, no split-K leading dimension.
  bool tapsUsePairs(const convgen::BackpropFilterGeometry &g, Value dy,
                    int64_t splitCount) const {
    int64_t n = g.numSpatialDims;
    auto dyType = cast<RankedTensorType>(dy.getType());
    return splitCount == 1 && bf16Pairs && dwUsesBF16Pairs(g) &&
           dyType.getElementType().isBF16() && dyType.hasStaticShape() &&
           dyType.getDimSize(n) == g.outSpatial[n - 1];
  }

  /// One contraction per tap (an scf.forall over the taps), accumulated
  /// into `dw`.
  Value lowerTaps(PatternRewriter &rewriter, Location loc,
                  const convgen::BackpropFilterGeometry &g, Value window,
                  Value dy, Value dw, ArrayRef<OpFoldResult> rowStarts,
                  int64_t splitCount = 1) const {
    int64_t n = g.numSpatialDims;
    Type accType = cast<RankedTensorType>(dw.getType()).getElementType();
    bool grouped = g.groups > 1;

    // bf16 pairs (docs/Lowering.md §2.6): the reduction runs over pairs of
    // output positions along the last spatial dimension, each operand with
    // the pair innermost, so that vdpbf16ps multiplies a pair at once:
    //   Q[b, o..., j, co, e] = dY[b, o..., 2j + e, co]
    //   P[b, i..., i_last, ci, e] = window[b, i..., i_last + e*s, ci]
    // (one pack of the window for all the taps; tap k reads P at
    // 2j*s + k*d along the last dimension, whose pair partner is the
    // window at (2j + 1)*s + k*d).
    bool pairs = tapsUsePairs(g, dy, splitCount);
    if (pairs) {
      // The pair pack reads the whole window, padding included.
      flagReadsPadding(rewriter, window);
      // The window spans (out - 1)*s + k_eff positions; the pair partner
      // of position i is i + s.
      int64_t out = g.outSpatial[n - 1], s = g.strides[n - 1];
      int64_t length =
          cast<RankedTensorType>(window.getType()).getDimSize(n) - s;
      window = createPairPack(
          rewriter, loc,
          extractDimSlice(rewriter, loc, window, n, rewriter.getIndexAttr(0),
                          length)
              .value,
          extractDimSlice(rewriter, loc, window, n, rewriter.getIndexAttr(s),
                          length)
              .value);
      auto evenOdd = [&](int64_t first) {
        auto type = cast<RankedTensorType>(dy.getType());
        int64_t rank = type.getRank();
        SmallVector<OpFoldResult> offsets(rank, rewriter.getIndexAttr(0)),
            sizes, strides(rank, rewriter.getIndexAttr(1));
        SmallVector<int64_t> shape(type.getShape());
        shape[n] = out / 2;
        for (int64_t size : shape)
          sizes.push_back(rewriter.getIndexAttr(size));
        offsets[n] = rewriter.getIndexAttr(first);
        strides[n] = rewriter.getIndexAttr(2);
        return tensor::ExtractSliceOp::create(rewriter, loc,
                                              type.clone(shape), dy, offsets,
                                              sizes, strides)
            .getResult();
      };
      dy = createPairPack(rewriter, loc, evenOdd(0), evenOdd(1));
    }

    if (Value planes = lowerTapPlanes(rewriter, loc, g, window, dy, dw,
                                      rowStarts, splitCount, pairs))
      return planes;
    if (Value rows = lowerTapRows(rewriter, loc, g, window, dy, dw, rowStarts,
                                  splitCount, pairs))
      return rows;

    // The taps are independent: one scf.forall over them, each writing its
    // own [Cf, Cout] slice of dW (with column parts: its own [Cf, Cout /
    // parts] slice, the parts the innermost forall dimension).
    // Not inside another scf.forall (the split-K parts, §2.3): those
    // already spread the work, and a nested one would not.
    bool nested = insideForall(rewriter);
    // A single tap with more input than output channels splits its input
    // channels instead (row parts): each thread then reads only its share
    // of the input, the larger operand.
    // With split-K parts (splitCount > 1), they lead the forall dimensions.
    int64_t rowParts = nested || splitCount > 1 ? 1 : this->rowParts(g);
    bool rowSplit = rowParts > 1;
    int64_t parts = rowSplit ? rowParts
                    : nested ? 1
                             : columnParts(g, splitCount);
    int64_t width = rowSplit ? g.outChannels : g.outChannels / parts;
    int64_t rowsPer =
        rowSplit ? g.filterInChannels / parts : g.filterInChannels;
    TapForall f =
        createTapForall(rewriter, loc, g, n, splitCount, parts, dw, window, dy);
    scf::ForallOp forall = f.op;
    SmallVector<Value> ivs = std::move(f.taps);
    Value splitIv = f.split;
    OpFoldResult coOffset = rewriter.getIndexAttr(0);
    OpFoldResult ciOffset = rewriter.getIndexAttr(0);
    if (rowSplit) {
      ciOffset = affine::makeComposedFoldedAffineApply(
          rewriter, loc, rewriter.getAffineDimExpr(0) * rowsPer,
          {OpFoldResult(f.part)});
    } else if (parts > 1) {
      coOffset = affine::makeComposedFoldedAffineApply(
          rewriter, loc, rewriter.getAffineDimExpr(0) * width,
          {OpFoldResult(f.part)});
      dy = extractDimSlice(rewriter, loc, dy, channelDim(g.layout, n),
                           coOffset, width)
               .value;
    }
    Value iter = f.iter;

    // Strided slice of the window for this tap.
    int64_t rank = n + 2;
    Value x = tapWindow(rewriter, loc, g, window, ivs, pairs);
    // Some tap slice reads the window's padding: its pad stays.
    if (!trimPaddingRows(rewriter, loc, g, ivs, rowStarts, x, dy,
                         /*keepLast=*/pairs))
      flagReadsPadding(rewriter, window);
    if (rowSplit)
      x = extractDimSlice(rewriter, loc, x, channelDim(g.layout, n), ciOffset,
                          rowsPer)
              .value;

    // This tap's [Cf, Cout] slice of dW.
    SmallVector<OpFoldResult> wOffsets, wSizes, wStrides(rank, rewriter.getIndexAttr(1));
    for (int64_t d = 0; d < n; ++d) {
      wOffsets.push_back(ivs[d]);
      wSizes.push_back(rewriter.getIndexAttr(1));
    }
    wOffsets.append({ciOffset, coOffset});
    wSizes.append({rewriter.getIndexAttr(rowsPer),
                   rewriter.getIndexAttr(width)});
    if (splitIv) {
      wOffsets.insert(wOffsets.begin(), splitIv);
      wSizes.insert(wSizes.begin(), rewriter.getIndexAttr(1));
      wStrides.push_back(rewriter.getIndexAttr(1));
    }
    // Depthwise (one input and one output channel a group, channels last):
    // the tap's contraction is elementwise over the channels,
    //   dW_tap[c] += X_k[b, o..., c] * dY[b, o..., c]   loops [c, b, o...],
    // without the unit ci / co dimensions of the group split, so that the
    // code generator's tiles read whole vectors of channels.
    if (grouped && g.filterInChannels == 1 && g.outChannels == g.groups &&
        g.layout == Layout::ChannelsLast && !pairs && !rowSplit) {
      auto rowType = RankedTensorType::get({width}, accType);
      Value tap = tensor::ExtractSliceOp::create(rewriter, loc, rowType, iter,
                                                 wOffsets, wSizes, wStrides);
      MLIRContext *ctx = rewriter.getContext();
      int64_t numLoops = 2 + n;
      SmallVector<AffineExpr> act{getAffineDimExpr(1, ctx)};
      for (int64_t d = 0; d < n; ++d)
        act.push_back(getAffineDimExpr(2 + d, ctx));
      act.push_back(getAffineDimExpr(0, ctx));
      auto contraction = createMulAdd(rewriter, loc, x, dy, tap, act, act,
                                      {getAffineDimExpr(0, ctx)}, numLoops,
                                      /*numParallel=*/1, kRoleDwDepthwise);
      rewriter.setInsertionPointToStart(forall.getTerminator().getBody());
      tensor::ParallelInsertSliceOp::create(rewriter, loc,
                                            contraction.getResult(0), iter,
                                            wOffsets, wSizes, wStrides);
      rewriter.setInsertionPointAfter(forall);
      return forall.getResult(0);
    }

    auto tapType =
        RankedTensorType::get({rowsPer, width}, accType);
    Value tap = tensor::ExtractSliceOp::create(rewriter, loc, tapType, iter,
                                               wOffsets, wSizes, wStrides);

    Value result = createTapContraction(rewriter, loc, g, x, dy, tap,
                                        grouped ? g.groups : 1, pairs);
    rewriter.setInsertionPointToStart(forall.getTerminator().getBody());
    tensor::ParallelInsertSliceOp::create(rewriter, loc, result, iter, wOffsets,
                                          wSizes, wStrides);

    rewriter.setInsertionPointAfter(forall);
    return forall.getResult(0);
  }
};

} // namespace

bool mlir::conv::detail::dwUsesBF16Pairs(
    const convgen::BackpropFilterGeometry &g) {
  int64_t n = g.numSpatialDims;
  if (g.layout != Layout::ChannelsLast || g.groups != 1 || n < 2 ||
      numFusedTaps(g) != 0 || g.outSpatial[n - 1] < 2 ||
      g.outSpatial[n - 1] % 2 != 0)
    return false;
  double elements = 0;
  for (const convgen::Shape &shape : {g.inputShape(), g.outBackpropShape()})
    elements += std::accumulate(shape.begin(), shape.end(), 1.0,
                                std::multiplies<double>());
  return elements > 0 && g.flops() >= kMin16BitFlopsPerElement * elements;
}

void mlir::conv::populateBackpropFilterToLinalgPatterns(
    RewritePatternSet &patterns, const BackpropFilterLoweringOptions &options) {
  patterns.add<BackpropFilterToLinalg>(patterns.getContext(), options);
}
