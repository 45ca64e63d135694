//===- WinogradFilterGradient.cpp - Winograd F(3|5, 2) filter gradients ---===//
//
// A stride-1 filter gradient with 3 taps along a spatial dimension,
//
//   dW[k] = sum_o x[o + k*d - pad] * dY[o],    k = 0, 1, 2,
//
// is, for each pair of output positions (o0, o0 + d), the correlation of 4
// input values with 2 out_backprop values into 3 outputs: Winograd's
// minimal filter F(3, 2), the transpose of F(2, 3) (Lavin & Gray, "Fast
// Algorithms for Convolutional Neural Networks", 2016):
//
//   V[a] = sum_i BT[a][i] * x[o0 - pad + i*d]      (BT of F(2, 3))
//   U[a] = sum_j A[a][j] * dY[o0 + j*d]            (A = AT(F(2, 3))^T,
//                                                   with G's halves)
//   dW[k] = sum_a GT[k][a] * M[a],  M[a] = sum_pairs V[a] * U[a]
//
// Because the sum over the pairs (and the batch, and the input / output
// channel outer product) commutes with the output transform GT, the
// products of all pairs accumulate in the transformed domain: M[a] is one
// [Cin, Cout] matrix per point a, a 1x1 filter gradient of V[a] and U[a]
// over (batch, pairs). Per spatial dimension 4 points for 6 taps x
// positions; in 2-D 16 GEMMs for 36 (the direct form's 9 taps over 4
// positions): 2.25x fewer multiplications. The transforms are elementwise
// sums of strided slices (conv.role = winograd_transform); the 1x1 filter
// gradients run in an scf.forall over the points, each on one thread (the
// forall spreads the points over the threads, so the result does not depend
// on their number): the dw_tap contraction BackpropFilter.cpp would build,
// written into the point's slot of M, or, for operands beyond the
// reduction-block budget, a 1x1 conv.backprop_filter op that it lowers in
// blocks. With a point block budget (dw-winograd-block-bytes), 2-D and 3-D
// layers instead run the first dimensions' transforms inside the forall,
// per block of the reduction, for the 4 points of the last dimension
// (blockedProducts). docs/Lowering.md §2.7.
//
// 5 taps (1-D and 2-D layers) are F(5, 2) in the same way: 6 input values
// a pair, 6 points a dimension, in 2-D 36 GEMMs for the direct form's 100
// (2.8x fewer); its BT rows have up to 5 nonzeros and its GT coefficients
// other magnitudes than 1 (kF52).
//
// Dilation d pairs the positions (o0, o0 + d): o0 = 2*d*q + r, r < d. The
// input window, padded to 2*d*(Q + P/2 - 1) rows (P points), is viewed as
// [Q + P/2 - 1, 2*d]: the value x[o0 - pad + i*d] is row q + i/2, column
// r + d*(i%2).
//
//===----------------------------------------------------------------------===//

#include "WinogradUtils.h"

#include "conv/Conversion/ConvToLinalg/ConvToLinalg.h"
#include "conv/Dialect/Conv/IR/ConvOps.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::conv;
using namespace mlir::conv::detail;
using Layout = convgen::DataLayout;

namespace {

constexpr int64_t kPairValues = 2;

/// A Winograd F(r, 2) filter-gradient scheme: r taps and r + 1 points
/// along every spatial dimension.
struct Scheme {
  int64_t taps, points;
  /// V[a] = sum_i bt[a][i] x[i] (points x points).
  WinogradMatrix bt;
  /// U[a] = sum_j a[a][j] e[j] (points x 2).
  WinogradMatrix a;
  /// dW[k] = sum_a gt[k][a] M[a] (taps x points).
  WinogradMatrix gt;
};

// F(3, 2): U's A is F(2, 3)'s A = AT^T, its rows scaled by G's column
// factors (1, 1/2, 1/2, 1) so that the output transform GT (F(2, 3)'s G^T
// without its halves) is +-1; V's BT is F(2, 3)'s.
constexpr double kA3[] = {1, 0, 0.5, 0.5, 0.5, -0.5, 0, -1};
constexpr double kGT3[] = {1, 1, 1, 0, 0, 1, -1, 0, 0, 1, 1, 1};
const Scheme kF32{3, 4, WinogradMatrix{kWinogradF23BT, 4, 4},
                  WinogradMatrix{kA3, 4, kPairValues},
                  WinogradMatrix{kGT3, 3, 4}};

// F(5, 2), the transpose of F(2, 5) with the points 0, 1, -1, 2, -1/2 and
// infinity (Toom-Cook: GT = the evaluation of the 5 taps' polynomial, A =
// of the 2 values', BT = the inverse of the 6-point interpolation,
// transposed). Of the point sets with 0, 1 and -1 this one rounded least
// (max error 1-2.4e-5 of the largest tap on GoogLeNet's 28x28x192 -> 32
// layer with random f32 data, conv-run --check; in a numpy model of the
// same sums 1.6e-5, against 5.2e-5 with +-2). BT's rows are scaled to integers
// (by 2, 6, 6, 30, 15/16, 2), A's by the inverses.
constexpr double kBT5[] = {2, 3,  -4, -3, 2,  0, 0, 2,  5,  1,  -2, 0,
                           0, 2,  1,  -5, 2,  0, 0, -1, -2, 1,  2,  0,
                           0, -2, 1,  2,  -1, 0, 0, 2,  3,  -4, -3, 2};
constexpr double kA5[] = {1.0 / 2,   0,         1.0 / 6,  1.0 / 6,
                          1.0 / 6,   -1.0 / 6,  1.0 / 30, 1.0 / 15,
                          16.0 / 15, -8.0 / 15, 0,        1.0 / 2};
constexpr double kGT5[] = {1, 1, 1,  1,  1,        0, //
                           0, 1, -1, 2,  -1.0 / 2, 0, //
                           0, 1, 1,  4,  1.0 / 4,  0, //
                           0, 1, -1, 8,  -1.0 / 8, 0, //
                           0, 1, 1,  16, 1.0 / 16, 1};
const Scheme kF52{5, 6, WinogradMatrix{kBT5, 6, 6},
                  WinogradMatrix{kA5, 6, kPairValues},
                  WinogradMatrix{kGT5, 5, 6}};

/// The scheme of a layer with `taps` taps along every dimension (3 or 5).
const Scheme &schemeFor(int64_t taps) { return taps == 5 ? kF52 : kF32; }

struct BackpropFilterToWinograd : public OpRewritePattern<BackpropFilterOp> {
  BackpropFilterToWinograd(MLIRContext *ctx, WinogradMode mode,
                           int64_t blockBytes,
                           const WinogradFilterGradientRule &rule,
                           int64_t pointBlockBytes, int64_t threads,
                           int64_t pointBlockL1Bytes)
      : OpRewritePattern(ctx, /*benefit=*/2), mode(mode),
        blockBytes(blockBytes), rule(rule), pointBlockBytes(pointBlockBytes),
        threads(std::max<int64_t>(1, threads)),
        pointBlockL1Bytes(pointBlockL1Bytes) {}

  WinogradMode mode;
  /// A point's 1x1 filter gradient whose operands exceed this many bytes is
  /// a conv.backprop_filter op (lowered in reduction blocks); smaller ones
  /// are its contraction, written into M in place (0: always).
  int64_t blockBytes;
  /// The `auto` rule's thresholds.
  WinogradFilterGradientRule rule;
  /// One point's transformed operands per reduction block, at most
  /// (blockedProducts; 0: the whole-batch form).
  int64_t pointBlockBytes = 0;
  /// The threads that the points' scf.forall is spread over.
  int64_t threads = 1;
  /// F(3, 2): one point's transformed operands per reduction block, at
  /// most, when smaller than pointBlockBytes (0: no such bound).
  int64_t pointBlockL1Bytes = 0;

  /// Point a_last's operands along the last dimension: V (the input
  /// window's transform, BT) and U (out_backprop's, A) of `x` and `dy`
  /// (entries without point dimensions), collapsed to [N, pairs..., C].
  static std::pair<Value, Value>
  lastDimensionOperands(PatternRewriter &rewriter, Location loc,
                        const Scheme &s, Operand x, Operand dy, Value aLast,
                        ArrayRef<int64_t> pairs) {
    int64_t n = static_cast<int64_t>(pairs.size());
    x.value =
        transformEntry(rewriter, loc, x, n - 1, s.bt, aLast, pairs[n - 1]);
    dy.value =
        transformEntry(rewriter, loc, dy, n - 1, s.a, aLast, pairs[n - 1]);
    return {collapseOperand(rewriter, loc, x),
            collapseOperand(rewriter, loc, dy)};
  }

  /// The 1x1 filter gradient of a point, `init` += Vᵀ U, as the
  /// contraction BackpropFilter.cpp builds on one thread (loops [ci, co, b,
  /// o], conv.role = dw_tap): its [Cin, Cout] result. V and U ([N, pairs...,
  /// C], fresh tensors of the transforms) are collapsed to [N, positions,
  /// C] first: one reduction loop over all pair positions, whose register
  /// tiles then reduce a whole block's positions (a block of 2 pair rows
  /// of 14 for GoogLeNet's 28x28 F(5, 2) layer: 28 steps instead of 14).
  static Value pointProduct(PatternRewriter &rewriter, Location loc, Value v,
                            Value u, Value init, int64_t n) {
    if (n > 1) {
      ReassociationIndices positions;
      for (int64_t d = 0; d < n; ++d)
        positions.push_back(1 + d);
      SmallVector<ReassociationIndices> reassoc{{0}, positions, {n + 1}};
      v = tensor::CollapseShapeOp::create(rewriter, loc, v, reassoc);
      u = tensor::CollapseShapeOp::create(rewriter, loc, u, reassoc);
      n = 1;
    }
    MLIRContext *ctx = rewriter.getContext();
    AffineExpr ciE = getAffineDimExpr(0, ctx), coE = getAffineDimExpr(1, ctx);
    SmallVector<AffineExpr> vE{getAffineDimExpr(2, ctx)}, uE;
    for (int64_t d = 0; d < n; ++d)
      vE.push_back(getAffineDimExpr(3 + d, ctx));
    uE = vE;
    vE.push_back(ciE);
    uE.push_back(coE);
    auto contraction =
        createMulAdd(rewriter, loc, v, u, init, vE, uE, {ciE, coE},
                     /*numLoops=*/3 + n, /*numParallel=*/2, kRoleDwTap);
    contraction->setAttr(kDwContractionsAttrName,
                         rewriter.getI64IntegerAttr(1));
    contraction->setAttr(kDwWinogradAttrName, rewriter.getUnitAttr());
    return contraction.getResult(0);
  }

  /// GT along dimension `d` of `v` (s.points points -> s.taps taps) into
  /// `dest` (one op a tap).
  static Value transformTaps(PatternRewriter &rewriter, Location loc,
                             const Scheme &s, Value v, int64_t d, Value dest) {
    for (int64_t k = 0; k < s.taps; ++k) {
      SmallVector<std::pair<Value, double>> terms;
      for (int64_t a = 0; a < s.points; ++a)
        if (s.gt(k, a) != 0)
          terms.push_back({indexSlice(rewriter, loc, v, d, a), s.gt(k, a)});
      Value tap = applyWinogradTerms(rewriter, loc, terms,
                                     indexSlice(rewriter, loc, dest, d, k));
      dest = insertAtIndex(rewriter, loc, tap, dest, d, k);
    }
    return dest;
  }

  /// The sum of the `count` equal parts of `m` along its first dimension,
  /// the first part first (`m` itself for one part).
  static Value sumParts(PatternRewriter &rewriter, Location loc, Value m,
                        int64_t count) {
    if (count == 1)
      return m;
    auto type = cast<RankedTensorType>(m.getType());
    SmallVector<int64_t> shape(type.getShape());
    shape[0] /= count;
    SmallVector<std::pair<Value, double>> terms;
    for (int64_t p = 0; p < count; ++p) {
      SmallVector<OpFoldResult> offsets(shape.size(), rewriter.getIndexAttr(0));
      offsets[0] = rewriter.getIndexAttr(p * shape[0]);
      SmallVector<OpFoldResult> sizes;
      for (int64_t size : shape)
        sizes.push_back(rewriter.getIndexAttr(size));
      terms.push_back({tensor::ExtractSliceOp::create(
                           rewriter, loc, type.clone(shape), m, offsets, sizes,
                           SmallVector<OpFoldResult>(shape.size(),
                                                     rewriter.getIndexAttr(1))),
                       1.0});
    }
    Value sum = bufferization::AllocTensorOp::create(
        rewriter, loc, type.clone(shape), ValueRange{});
    return applyWinogradTerms(rewriter, loc, terms, sum);
  }

  /// dW = GT applied along every point dimension of M [4^n, Cin, Cout]
  /// (one dimension at a time, the last first: 3 ops a dimension); with
  /// `lastDone`, M is [4^(n-1), 3, Cin, Cout], its last dimension's taps
  /// already taken.
  static Value outputTransform(PatternRewriter &rewriter, Location loc,
                               const Scheme &s, Value m, int64_t n, int64_t cin,
                               int64_t cout, bool lastDone = false) {
    Type f32 = rewriter.getF32Type();
    SmallVector<int64_t> rShape(n, s.points);
    if (lastDone)
      rShape[n - 1] = s.taps;
    rShape.append({cin, cout});
    int64_t lead = lastDone ? n - 1 : n;
    auto mType = cast<RankedTensorType>(m.getType());
    SmallVector<ReassociationIndices> split(1);
    for (int64_t d = 0; d < lead; ++d)
      split[0].push_back(d);
    for (int64_t d = lead; d < static_cast<int64_t>(rShape.size()); ++d)
      split.push_back({d});
    Value dw =
        static_cast<int64_t>(rShape.size()) == mType.getRank()
            ? m
            : Value(tensor::ExpandShapeOp::create(
                  rewriter, loc, RankedTensorType::get(rShape, f32), m, split));
    // The last dimension first (where the forall took it, the same sums
    // in the same order: the results do not depend on J, so neither on the
    // thread count), then the others in order.
    SmallVector<int64_t> order;
    if (!lastDone)
      order.push_back(n - 1);
    for (int64_t d = 0; d + 1 < n; ++d)
      order.push_back(d);
    for (int64_t d : order) {
      rShape[d] = s.taps;
      Value next = bufferization::AllocTensorOp::create(
          rewriter, loc, RankedTensorType::get(rShape, f32), ValueRange{});
      dw = transformTaps(rewriter, loc, s, dw, d, next);
    }
    return dw;
  }

  /// dW by Winograd with the products M in blocks of the reduction (2-D
  /// and 3-D layers; docs/Lowering.md §2.7, "Reduction blocks"): an
  /// scf.forall over the 4^(n-1) combinations a' of the first dimensions'
  /// points (entries), each iteration J of the 4 points a = 4 a' + a_last
  /// of one entry (J = 4 unless fewer leave threads idle) or all 4 of E
  /// entries, whose products it accumulates over blocks of (batch items,
  /// pair rows of the first dimension), for small products separately for
  /// each half of an even batch. Per block and entry: the first
  /// dimensions' transforms of the block's input window and out_backprop
  /// rows (rows a' of BT and A), then per point the last dimension's
  /// transform and the contraction into the point's product. Every
  /// transformed value is computed once (J = 4) and read from the L2 by its
  /// contraction (no whole-batch stacks). With J = 4 the iteration also
  /// takes the last dimension's taps of its products. Each point's sum runs
  /// on one thread in the same order for any J and E, and the output
  /// transform sums in the same order too: the results are the same for
  /// every thread count. None for 1-D layers, or when the 4 products of an
  /// iteration exceed 8 x pointBlockBytes (half the L2 with the pipeline's
  /// budget: their accumulators would not stay in the L2 beside the
  /// block's operands).
  std::optional<Value> blockedProducts(PatternRewriter &rewriter, Location loc,
                                       const Scheme &s, const Operand &x,
                                       const Operand &dy,
                                       ArrayRef<int64_t> pairs, int64_t cin,
                                       int64_t cout) const {
    int64_t budget = pointBlockBytes;
    int64_t n = static_cast<int64_t>(pairs.size());
    // The J <= 4 products of an iteration stay in half the L2 with the
    // pipeline's budget (a sixteenth of it): 16 Cin Cout <= 8 budget bytes.
    // (With the whole L2, 16 budgets, ResNet's 14x14x256 layer (rn9) took
    // these blocks with 1 MiB of products on the 1.25 MiB L2 of Ice Lake:
    // one 7-position row a block, its products re-read from the L3; the
    // whole-batch form instead, conv-run with alternating calls, 15 pairs,
    // 1 / 2 threads: +8 / +12 %; rn3, rn8, dl1, dl2 and db7 within +-4 %.)
    if (budget <= 0 || n < 2 || s.points * cin * cout * 4 > 8 * budget)
      return std::nullopt;
    auto yType = cast<RankedTensorType>(dy.value.getType());
    int64_t batch = yType.getDimSize(0), rows = pairs[0];
    // One point's operands per batch item: its pair positions x (Cin +
    // Cout) values.
    int64_t positions = 1;
    for (int64_t d = 0; d < n; ++d)
      positions *= pairs[d] * dy.dilations[d];
    int64_t perItem = positions * (cin + cout) * 4;
    // Small products (all 4^n of them in at most 4 budgets, a quarter of
    // the L2 with the pipeline's: ResNet's 64-channel 3x3 layer) of an even
    // batch: two halves of the batch, each
    // reduced by iterations of its own into products of its own, summed
    // after the forall (in the same order for any thread count). With 2
    // threads each then transforms every entry of its half instead of half
    // the entries of the whole batch, and reads the input and out_backprop
    // once. (conv-run, 15 pairs, 2 / 1 threads: rn3 +10 / -1 %; with their
    // 1 MiB and 4 MiB of products rn8 -4 / -5 %, rn9 -10 / -12 %: the
    // halves' products and their sum.) At most 2 budgets until stop 76: on
    // the 1.25 MiB L2 of Ice Lake rn3's 256 KiB of products exceeded them;
    // with halves there +10-12 % with 2 threads, +1 % with 1 (conv-run,
    // 30 / 15 pairs; rn8, dl2 unchanged). F(5, 2)'s first-dimension
    // transforms (5 terms a value, from 2 R + 4 input rows for R pair rows)
    // weigh more against its products: halves and several entries an
    // iteration pay off up to three quarters of the L2 of products
    // (GoogLeNet's 28x28x192 -> 32 layer, 884 KiB: halves, all 6 entries
    // an iteration, +6 % with 1 and 2 threads on the 1.25 MiB L2 of Ice
    // Lake, paired).
    bool five = s.taps == 5;
    int64_t points = power(s.points, n);
    int64_t batchParts =
        batch % 2 == 0 && points * cin * cout * 4 <= (five ? 12 : 4) * budget
            ? 2
            : 1;
    int64_t partItems = batch / batchParts;
    // F(3, 2) blocks whose point operands (its contraction's) fit the L1:
    // ResNet's 56x56x64 layer (rn3) in blocks of 2 pair rows (29 KiB a
    // point) instead of 4 (57 KiB, the L1 being 48 KiB), conv-run with
    // alternating calls, 15-20 pairs, 1 / 2 threads on Ice Lake: +7.5-12 /
    // +9-11 % (1 row: -8 %); rn8, rn9, dl1, dl2 within +-2 %. F(5, 2)
    // keeps its blocks: GoogLeNet's 5x5 layer (db7) -8 / -6 % with them
    // (its first-dimension transforms weigh more per block).
    int64_t blockBudget = budget;
    if (pointBlockL1Bytes > 0 && s.taps == 3)
      blockBudget = std::min(budget, pointBlockL1Bytes);
    int64_t items = partItems, blockRows = rows;
    if (perItem * partItems <= blockBudget) {
      // One block.
    } else if (perItem <= blockBudget) {
      items = blockBudget / perItem;
      while (partItems % items != 0)
        --items;
    } else {
      items = 1;
      int64_t perRow = std::max<int64_t>(1, perItem / rows);
      blockRows = std::clamp<int64_t>(blockBudget / perRow, 1, rows);
      while (rows % blockRows != 0)
        --blockRows;
    }
    Type f32 = rewriter.getF32Type();
    MLIRContext *ctx = rewriter.getContext();
    int64_t groups = points / s.points;
    // J points an iteration: all 4 (F(5, 2): 6) of an entry a', unless the
    // iterations would be fewer than the threads (each then transforms its
    // block's first dimensions again).
    int64_t perIteration = s.points;
    while (perIteration > 1 &&
           batchParts * groups * (s.points / perIteration) < threads)
      perIteration /= 2;
    int64_t parts = s.points / perIteration;
    // With all 4 points of an entry in an iteration, the iteration also
    // takes their 3 taps along the last dimension (GT) while its products
    // are in the L2: M is then [4^(n-1), 3, Cin, Cout].
    bool lastTaps = perIteration == s.points;
    // E entries an iteration (then all 4 points of each): the most that
    // leave an iteration for every thread and whose 4 E products take at
    // most half the L2 (8 budget with the pipeline's); each block's input
    // and out_backprop rows then come from the L3 once for all of them, and
    // from the L2 for the other entries' transforms.
    int64_t entries = 1;
    if (lastTaps)
      for (int64_t e = groups; e > 1; --e)
        if (groups % e == 0 && batchParts * groups / e >= threads &&
            e * s.points * cin * cout * 4 <= (five ? 12 : 8) * budget) {
          entries = e;
          break;
        }
    int64_t slots = entries * perIteration;
    // The iterations of a batch part; M holds each part's products after
    // the previous part's ([part][...]: iteration it = part * iterations +
    // i writes M's slots from it * slots (it * entries with lastTaps).
    int64_t iterations = groups * parts / entries;
    Value m = bufferization::AllocTensorOp::create(
        rewriter, loc,
        lastTaps ? RankedTensorType::get(
                       {batchParts * groups, s.taps, cin, cout}, f32)
                 : RankedTensorType::get({batchParts * points, cin, cout}, f32),
        ValueRange{});
    auto forall = scf::ForallOp::create(
        rewriter, loc,
        ArrayRef<OpFoldResult>{rewriter.getIndexAttr(batchParts * iterations)},
        ValueRange{m}, std::nullopt);
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointToStart(forall.getBody());
    Value it = forall.getInductionVars()[0];
    AffineExpr s0, s1;
    bindSymbols(ctx, s0, s1);
    // The batch part and the iteration within it.
    Value part, within = it;
    if (batchParts > 1) {
      part = affine::makeComposedAffineApply(
          rewriter, loc, s0.floorDiv(iterations), {OpFoldResult(it)});
      within = affine::makeComposedAffineApply(rewriter, loc, s0 % iterations,
                                               {OpFoldResult(it)});
    }
    // Iteration it: entries a' = E it + e (e < E) with J = 4, else entry
    // a' = it / parts, points 4 a' + J (it % parts) + j (j < J), M's slots
    // [J it, J it + J).
    OpFoldResult firstPoint = affine::makeComposedFoldedAffineApply(
        rewriter, loc, (s0 % parts) * perIteration, {OpFoldResult(within)});
    OpFoldResult base = affine::makeComposedFoldedAffineApply(
        rewriter, loc, s0 * slots, {OpFoldResult(it)});
    auto groupType = RankedTensorType::get({slots, cin, cout}, f32);
    SmallVector<OpFoldResult> groupOffsets{base, rewriter.getIndexAttr(0),
                                           rewriter.getIndexAttr(0)};
    SmallVector<OpFoldResult> groupSizes{rewriter.getIndexAttr(slots),
                                         rewriter.getIndexAttr(cin),
                                         rewriter.getIndexAttr(cout)};
    SmallVector<OpFoldResult> unitStrides(3, rewriter.getIndexAttr(1));
    Value slot =
        lastTaps ? Value(tensor::EmptyOp::create(rewriter, loc,
                                                 groupType.getShape(), f32))
                 : Value(tensor::ExtractSliceOp::create(
                       rewriter, loc, groupType, forall.getRegionIterArgs()[0],
                       groupOffsets, groupSizes, unitStrides));
    Value zero =
        arith::ConstantOp::create(rewriter, loc, rewriter.getZeroAttr(f32));
    slot = linalg::FillOp::create(rewriter, loc, zero, ValueRange{slot})
               .getResult(0);
    Value c0 = arith::ConstantIndexOp::create(rewriter, loc, 0);
    Value c1 = arith::ConstantIndexOp::create(rewriter, loc, 1);
    // The block loops (none of one iteration), the products as iter_arg.
    SmallVector<scf::ForOp> loops;
    Value acc = slot;
    Value item = c0, row = c0;
    auto addLoop = [&](int64_t extent, int64_t step) -> Value {
      auto loop = scf::ForOp::create(
          rewriter, loc, c0,
          arith::ConstantIndexOp::create(rewriter, loc, extent),
          arith::ConstantIndexOp::create(rewriter, loc, step), ValueRange{acc});
      if (!loops.empty())
        scf::YieldOp::create(rewriter, loc, loop.getResult(0));
      loops.push_back(loop);
      rewriter.setInsertionPointToStart(loop.getBody());
      acc = loop.getRegionIterArgs()[0];
      return loop.getInductionVar();
    };
    if (items < partItems)
      item = addLoop(partItems, items);
    if (batchParts > 1)
      item = affine::makeComposedAffineApply(
          rewriter, loc, s0 * partItems + s1,
          {OpFoldResult(part), OpFoldResult(item)});
    if (blockRows < rows)
      row = addLoop(rows, blockRows);
    // The block of an operand: batch items [item, item + items) and the
    // first dimension's rows of pair rows [row, row + blockRows): with
    // dilation 1 positions [2 row, 2 (row + blockRows) + extra), else
    // blocks [row, row + blockRows + extra / 2) of the [blocks, 2 d] view
    // (extra = 2 for the input window, whose pairs read one block more).
    auto block = [&](const Operand &o, int64_t extra) {
      auto type = cast<RankedTensorType>(o.value.getType());
      int64_t rank = type.getRank();
      int64_t dim = o.lead + o.pos[0];
      SmallVector<OpFoldResult> offsets(rank, rewriter.getIndexAttr(0));
      SmallVector<OpFoldResult> sizes;
      for (int64_t size : type.getShape())
        sizes.push_back(rewriter.getIndexAttr(size));
      SmallVector<int64_t> shape(type.getShape());
      offsets[o.lead] = item;
      sizes[o.lead] = rewriter.getIndexAttr(items);
      shape[o.lead] = items;
      int64_t extent;
      if (o.dilations[0] == 1) {
        offsets[dim] = affine::makeComposedFoldedAffineApply(
            rewriter, loc, s0 * 2, {OpFoldResult(row)});
        extent = 2 * blockRows + extra;
      } else {
        offsets[dim] = row;
        extent = blockRows + extra / 2;
      }
      sizes[dim] = rewriter.getIndexAttr(extent);
      shape[dim] = extent;
      Operand b = o;
      b.value = tensor::ExtractSliceOp::create(
          rewriter, loc, type.clone(shape), o.value, offsets, sizes,
          SmallVector<OpFoldResult>(rank, rewriter.getIndexAttr(1)));
      return b;
    };
    Operand xb = block(x, s.points - 2), yb = block(dy, 0);
    // The iteration's entries (a loop when E > 1).
    Value entry = c0;
    scf::ForOp entryLoop;
    if (entries > 1) {
      entryLoop = scf::ForOp::create(
          rewriter, loc, c0,
          arith::ConstantIndexOp::create(rewriter, loc, entries), c1,
          ValueRange{acc});
      if (!loops.empty())
        scf::YieldOp::create(rewriter, loc, entryLoop.getResult(0));
      rewriter.setInsertionPointToStart(entryLoop.getBody());
      acc = entryLoop.getRegionIterArgs()[0];
      entry = entryLoop.getInductionVar();
    }
    Value g = affine::makeComposedAffineApply(
        rewriter, loc, s0.floorDiv(parts) + s1,
        {OpFoldResult(entries > 1 ? Value(affine::makeComposedAffineApply(
                                        rewriter, loc, s0 * entries,
                                        {OpFoldResult(within)}))
                                  : within),
         OpFoldResult(entry)});
    // The first dimensions' points: the base-4 digits of g, the first
    // dimension's the most significant (M's point order).
    SmallVector<Value> lead;
    for (int64_t d = 0; d + 1 < n; ++d) {
      int64_t weight = power(s.points, n - 2 - d);
      lead.push_back(affine::makeComposedAffineApply(
          rewriter, loc, s0.floorDiv(weight) % s.points, {OpFoldResult(g)}));
    }
    for (int64_t d = 0; d + 1 < n; ++d) {
      int64_t dPairs = d == 0 ? blockRows : pairs[d];
      xb.value = transformEntry(rewriter, loc, xb, d, s.bt, lead[d], dPairs);
      yb.value = transformEntry(rewriter, loc, yb, d, s.a, lead[d], dPairs);
    }
    // The iteration's points, one after the other over the block.
    auto pointLoop = scf::ForOp::create(
        rewriter, loc, c0,
        arith::ConstantIndexOp::create(rewriter, loc, perIteration), c1,
        ValueRange{acc});
    if (entries > 1 || !loops.empty())
      scf::YieldOp::create(rewriter, loc, pointLoop.getResult(0));
    {
      OpBuilder::InsertionGuard inner(rewriter);
      rewriter.setInsertionPointToStart(pointLoop.getBody());
      Value j = pointLoop.getInductionVar();
      // (Slot E e + j of the iteration's products.)
      Value slotIndex = affine::makeComposedAffineApply(
          rewriter, loc, s0 * perIteration + s1,
          {OpFoldResult(entry), OpFoldResult(j)});
      Value aLast = affine::makeComposedAffineApply(
          rewriter, loc, s0 + s1, {firstPoint, OpFoldResult(j)});
      Value accIn = pointLoop.getRegionIterArgs()[0];
      auto [va, ua] =
          lastDimensionOperands(rewriter, loc, s, xb, yb, aLast, pairs);
      Value accA = indexSlice(rewriter, loc, accIn, 0, OpFoldResult(slotIndex));
      Value product = pointProduct(rewriter, loc, va, ua, accA, n);
      Entry e =
          indexEntry(rewriter, {slots, cin, cout}, 0, OpFoldResult(slotIndex));
      Value next = tensor::InsertSliceOp::create(
          rewriter, loc, addUnitDim(rewriter, loc, product, 0), accIn,
          e.offsets, e.sizes, e.strides);
      scf::YieldOp::create(rewriter, loc, next);
    }
    Value result = !loops.empty() ? loops.front().getResult(0)
                   : entries > 1  ? entryLoop.getResult(0)
                                  : pointLoop.getResult(0);
    if (!lastTaps) {
      rewriter.setInsertionPointToStart(forall.getTerminator().getBody());
      tensor::ParallelInsertSliceOp::create(
          rewriter, loc, result, forall.getRegionIterArgs()[0], groupOffsets,
          groupSizes, unitStrides);
      // The last dimension's taps of every part's products, then the sum
      // of the parts: the order of the J = 4 iterations (the same bits for
      // any thread count).
      rewriter.setInsertionPointAfter(forall);
      auto flatType = RankedTensorType::get(
          {batchParts * groups, s.points, cin, cout}, f32);
      Value flat = tensor::ExpandShapeOp::create(
          rewriter, loc, flatType, forall.getResult(0),
          ArrayRef<ReassociationIndices>{{0, 1}, {2}, {3}});
      Value taps = bufferization::AllocTensorOp::create(
          rewriter, loc,
          RankedTensorType::get({batchParts * groups, s.taps, cin, cout}, f32),
          ValueRange{});
      taps = transformTaps(rewriter, loc, s, flat, 1, taps);
      return outputTransform(rewriter, loc, s,
                             sumParts(rewriter, loc, taps, batchParts), n, cin,
                             cout, /*lastDone=*/true);
    }
    // The last dimension's taps of each entry's 4 products into M[E it +
    // e].
    rewriter.setInsertionPointAfter(result.getDefiningOp());
    SmallVector<OpFoldResult> mOffsets(4, rewriter.getIndexAttr(0));
    mOffsets[0] = affine::makeComposedFoldedAffineApply(
        rewriter, loc, s0 * entries, {OpFoldResult(it)});
    SmallVector<OpFoldResult> mSizes{
        rewriter.getIndexAttr(entries), rewriter.getIndexAttr(s.taps),
        rewriter.getIndexAttr(cin), rewriter.getIndexAttr(cout)};
    SmallVector<OpFoldResult> mStrides(4, rewriter.getIndexAttr(1));
    Value dest = tensor::ExtractSliceOp::create(
        rewriter, loc, RankedTensorType::get({entries, s.taps, cin, cout}, f32),
        forall.getRegionIterArgs()[0], mOffsets, mSizes, mStrides);
    // Entry e's taps (an scf.for over the entries: the IR, and the
    // bufferization's time, stay the same size for any E).
    auto entryTaps = [&](OpFoldResult e, Value destIn) -> Value {
      Value products = result;
      if (entries > 1)
        products = tensor::ExtractSliceOp::create(
            rewriter, loc, RankedTensorType::get({s.points, cin, cout}, f32),
            result,
            ArrayRef<OpFoldResult>{affine::makeComposedFoldedAffineApply(
                                       rewriter, loc, s0 * s.points, {e}),
                                   rewriter.getIndexAttr(0),
                                   rewriter.getIndexAttr(0)},
            ArrayRef<OpFoldResult>{rewriter.getIndexAttr(s.points),
                                   rewriter.getIndexAttr(cin),
                                   rewriter.getIndexAttr(cout)},
            unitStrides);
      Value taps = transformTaps(rewriter, loc, s, products, 0,
                                 indexSlice(rewriter, loc, destIn, 0, e));
      Entry slot = indexEntry(rewriter, {entries, s.taps, cin, cout}, 0, e);
      return tensor::InsertSliceOp::create(
          rewriter, loc, addUnitDim(rewriter, loc, taps, 0), destIn,
          slot.offsets, slot.sizes, slot.strides);
    };
    if (entries == 1) {
      dest = entryTaps(rewriter.getIndexAttr(0), dest);
    } else {
      auto entryTapLoop = scf::ForOp::create(
          rewriter, loc, c0,
          arith::ConstantIndexOp::create(rewriter, loc, entries), c1,
          ValueRange{dest});
      OpBuilder::InsertionGuard inner(rewriter);
      rewriter.setInsertionPointToStart(entryTapLoop.getBody());
      scf::YieldOp::create(
          rewriter, loc,
          entryTaps(OpFoldResult(entryTapLoop.getInductionVar()),
                    entryTapLoop.getRegionIterArgs()[0]));
      dest = entryTapLoop.getResult(0);
    }
    rewriter.setInsertionPointToStart(forall.getTerminator().getBody());
    tensor::ParallelInsertSliceOp::create(rewriter, loc, dest,
                                          forall.getRegionIterArgs()[0],
                                          mOffsets, mSizes, mStrides);
    rewriter.setInsertionPointAfter(forall);
    return outputTransform(
        rewriter, loc, s,
        sumParts(rewriter, loc, forall.getResult(0), batchParts), n, cin, cout,
        /*lastDone=*/true);
  }

  LogicalResult matchAndRewrite(BackpropFilterOp op,
                                PatternRewriter &rewriter) const override {
    if (mode == WinogradMode::Off)
      return failure();
    auto geometry = op.getGeometry();
    if (!geometry)
      return rewriter.notifyMatchFailure(op, geometry.error());
    const convgen::BackpropFilterGeometry &g = *geometry;
    if (!backpropFilterWinogradApplies(
            g, op.getFilter().getType().getElementType(),
            mode == WinogradMode::Auto, rule))
      return rewriter.notifyMatchFailure(op,
                                         "not a Winograd F(3 or 5, 2) layer");
    Location loc = op.getLoc();
    int64_t n = g.numSpatialDims;
    int64_t cin = g.inChannels, cout = g.outChannels;
    const Scheme &s = schemeFor(g.filterSpatial[0]);
    Type f32 = rewriter.getF32Type();
    SmallVector<int64_t> pairs, xStart, xSize, yStart(n, 0), ySize;
    for (int64_t d = 0; d < n; ++d) {
      int64_t dil = g.dilations[d];
      pairs.push_back(llvm::divideCeil(g.outSpatial[d], 2 * dil));
      xStart.push_back(-g.padBefore[d]);
      // A pair reads s.points input values: blocks [q, q + s.points / 2).
      xSize.push_back(2 * dil * (pairs[d] + s.points / 2 - 1));
      ySize.push_back(2 * dil * pairs[d]);
    }

    // The input window [-pad, -pad + 2 d (Q + 1)) and out_backprop
    // [0, 2 d Q) per dimension, zero outside the operands.
    Operand x = makeOperand(
        rewriter, loc,
        extractZeroPaddedWindow(rewriter, loc, op.getInput(),
                                Layout::ChannelsLast, xStart, xSize),
        g.dilations);
    Operand dy = makeOperand(
        rewriter, loc,
        extractZeroPaddedWindow(rewriter, loc, op.getOutBackprop(),
                                Layout::ChannelsLast, yStart, ySize),
        g.dilations);
    if (std::optional<Value> blocked =
            blockedProducts(rewriter, loc, s, x, dy, pairs, cin, cout)) {
      rewriter.replaceOp(op, *blocked);
      return success();
    }
    // V and U one dimension at a time (separable: 4 ops a dimension each),
    // all but the last before the points' forall. Input value i of a pair
    // is block q + i / 2, column r + d (i % 2); out_backprop value j block
    // q, column r + d j.
    for (int64_t d = 0; d + 1 < n; ++d) {
      int64_t dil = g.dilations[d];
      x = transformAlong(
          rewriter, loc, x, d, s.bt,
          [&](int64_t i) { return std::make_pair(i / 2, dil * (i % 2)); },
          pairs[d]);
      dy = transformAlong(
          rewriter, loc, dy, d, s.a,
          [&](int64_t j) {
            return std::make_pair<int64_t, int64_t>(0, dil * j);
          },
          pairs[d]);
    }
    x = collapseLead(rewriter, loc, x);
    dy = collapseLead(rewriter, loc, dy);

    int64_t points = power(s.points, n);
    // M[a] = the 1x1 filter gradient of V[a] and U[a], one point per
    // iteration of an scf.forall; the iteration transforms its entries
    // along the last dimension (a = 4 a' + a_last: entry a' of the stacks,
    // a_last selecting the transform row), so they are still in the cache
    // when its filter gradient reads them.
    Value m = bufferization::AllocTensorOp::create(
        rewriter, loc, RankedTensorType::get({points, cin, cout}, f32),
        ValueRange{});
    auto forall = scf::ForallOp::create(
        rewriter, loc, ArrayRef<OpFoldResult>{rewriter.getIndexAttr(points)},
        ValueRange{m}, std::nullopt);
    {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToStart(forall.getBody());
      Value a = forall.getInductionVars()[0];
      AffineExpr e;
      bindSymbols(rewriter.getContext(), e);
      Value aLead = affine::makeComposedAffineApply(
          rewriter, loc, e.floorDiv(s.points), {OpFoldResult(a)});
      Value aLast = affine::makeComposedAffineApply(rewriter, loc, e % s.points,
                                                    {OpFoldResult(a)});
      auto entryOf = [&](const Operand &o) {
        Operand entry = o;
        entry.value = extractEntry(rewriter, loc, o.value, aLead);
        entry.lead = 0;
        return entry;
      };
      auto [va, ua] = lastDimensionOperands(rewriter, loc, s, entryOf(x),
                                            entryOf(dy), aLast, pairs);
      Value ma;
      int64_t operandBytes = 4;
      for (int64_t size : cast<RankedTensorType>(va.getType()).getShape())
        operandBytes *= size;
      operandBytes = operandBytes / cin * (cin + cout);
      if (blockBytes == 0 || operandBytes <= blockBytes) {
        // The 1x1 filter gradient's contraction as BackpropFilter.cpp
        // builds it on one thread (loops [ci, co, b, o...], conv.role =
        // dw_tap), written into M's slot itself: no copy of the [Cin,
        // Cout] result into M.
        Value slot = indexSlice(rewriter, loc, forall.getRegionIterArgs()[0], 0,
                                OpFoldResult(a));
        Value zero =
            arith::ConstantOp::create(rewriter, loc, rewriter.getZeroAttr(f32));
        slot = linalg::FillOp::create(rewriter, loc, zero, ValueRange{slot})
                   .getResult(0);
        ma = addUnitDim(rewriter, loc,
                        pointProduct(rewriter, loc, va, ua, slot, n), 0);
      } else {
        // Operands beyond the reduction-block budget: a 1x1
        // conv.backprop_filter, which BackpropFilter.cpp lowers in
        // reduction blocks (one thread: it is inside the forall).
        SmallVector<int64_t> filterShape(n, 1);
        filterShape.append({cin, cout});
        SmallVector<int64_t> ones(n, 1);
        ma = BackpropFilterOp::create(
            rewriter, loc, RankedTensorType::get(filterShape, f32), va, ua,
            getTFDataFormat(Layout::ChannelsLast, n), TFPadding::VALID,
            DenseI64ArrayAttr(), ones, ones);
        // [1..., Cin, Cout] -> [1, Cin, Cout], M's slot (not rank-reduced).
        if (n > 1) {
          ReassociationIndices lead;
          for (int64_t d = 0; d < n; ++d)
            lead.push_back(d);
          ma = tensor::CollapseShapeOp::create(
              rewriter, loc, RankedTensorType::get({1, cin, cout}, f32), ma,
              ArrayRef<ReassociationIndices>{lead, {n}, {n + 1}});
        }
      }
      rewriter.setInsertionPointToStart(forall.getTerminator().getBody());
      Entry entry = indexEntry(rewriter, {points, cin, cout}, 0, a);
      tensor::ParallelInsertSliceOp::create(
          rewriter, loc, ma, forall.getRegionIterArgs()[0], entry.offsets,
          entry.sizes, entry.strides);
    }
    m = forall.getResult(0);

    rewriter.replaceOp(op, outputTransform(rewriter, loc, s, m, n, cin, cout));
    return success();
  }
};

} // namespace

bool mlir::conv::backpropFilterWinogradApplies(
    const convgen::BackpropFilterGeometry &g, Type elementType, bool autoRule,
    const WinogradFilterGradientRule &rule) {
  int64_t n = g.numSpatialDims;
  if (!elementType.isF32() || g.layout != Layout::ChannelsLast ||
      g.groups != 1 || n < 1 || n > 3 || g.batch < 1 || g.inChannels < 1 ||
      g.outChannels < 1)
    return false;
  // F(3, 2) in 1-3 dimensions; F(5, 2) in 1 or 2 (its transforms' larger
  // coefficients round more: 1-2.4e-5 of the largest tap in 2-D).
  int64_t taps = g.filterSpatial[0];
  if (taps != 3 && !(taps == 5 && n <= 2))
    return false;
  const Scheme &s = schemeFor(taps);
  for (int64_t d = 0; d < n; ++d)
    if (g.filterSpatial[d] != s.taps || g.strides[d] != 1 ||
        g.outSpatial[d] < 1)
      return false;
  if (!autoRule)
    return true;
  // The products of the Winograd form against the direct form's, and the
  // reduction of each 1x1 filter gradient (batch x pair positions).
  double direct = 1, winograd = 1, reduction = g.batch;
  for (int64_t d = 0; d < n; ++d) {
    int64_t positions =
        g.dilations[d] * llvm::divideCeil(g.outSpatial[d], 2 * g.dilations[d]);
    direct *= s.taps * g.outSpatial[d];
    winograd *= s.points * positions;
    reduction *= positions;
  }
  // conv-run --compare=winograd=off (10-20 alternating call pairs, Zen 4,
  // 1 / 2 threads): ResNet-50's 3x3 layers 56x56x64 1.21 / 1.08x,
  // 28x28x128 1.51 / 1.57x, 14x14x256 1.6 / 1.6x, the dilated 28x28x128
  // (d 2) 1.37 / 1.41x and 38x57x512 (d 3) 1.47 / 1.40x, 7x7x512 with a
  // batch of 16 1.10 / 1.09x; with a batch of 8 (a reduction of 128, and
  // 16 / 9 x 49 products: the pairs pad 7 to 8) 0.97 / 0.94x, below which
  // the output transform of the 16 [Cin, Cout] products costs more than
  // it saves. 1-D and 3-D layers are not measured yet. These are the
  // rule's defaults; see the CPU pipeline for the Intel thresholds.
  bool five = s.taps == 5;
  int64_t minChannels = five ? rule.minChannels5 : rule.minChannels;
  double maxRatio = five ? std::min(rule.maxProductRatio, rule.maxProductRatio5)
                         : rule.maxProductRatio;
  return n == 2 && g.inChannels >= minChannels &&
         g.outChannels >= minChannels && winograd <= maxRatio * direct &&
         reduction >= rule.minReduction;
}

void mlir::conv::populateBackpropFilterWinogradPatterns(
    RewritePatternSet &patterns, WinogradMode mode, int64_t blockBytes,
    const WinogradFilterGradientRule &rule, int64_t pointBlockBytes,
    int64_t threads, int64_t pointBlockL1Bytes) {
  patterns.add<BackpropFilterToWinograd>(patterns.getContext(), mode,
                                         blockBytes, rule, pointBlockBytes,
                                         threads, pointBlockL1Bytes);
}
