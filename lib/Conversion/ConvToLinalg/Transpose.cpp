//===- Transpose.cpp - conv.transpose to linalg ---------------------------===//
//
// Phase (sub-pixel) decomposition, per spatial dimension (formulas in
// docs/Lowering.md):
//
//   full[s*j + r] = sum_{m : m*d = r (mod s)} x[j - floor(m*d/s)] * K[m]
//
// The taps of phase r form the progression m = m0 + t*s' (s' = s/gcd(s,d)),
// t < T, and floor(m*d/s) = e0 + t*d' (d' = d/gcd(s,d)). Reversing the taps
// turns every phase into a dense stride-1 correlation with dilation d' of the
// input window x[j - e0 - (T-1)*d' + u*d'] with the reversed sub-kernel: a
// linalg.generic with loops [b, o..., co, t..., ci] that accumulates straight
// into the phase's strided slice of the output. Output q = s*j + r - crop, so phase r fills the
// strided output slice q0, q0 + s, ... (q0 = (r - crop) mod s). Phases with
// no taps stay zero; nothing is multiplied by an inserted zero.
//
// The zero-insertion lowering (test oracle) instead correlates the
// zero-inserted, JAX-padded input with the flipped kernel.
//
//===----------------------------------------------------------------------===//

#include "TransposeDot.h"
#include "Utils.h"

#include "conv/Conversion/ConvToLinalg/ConvToLinalg.h"
#include "conv/Dialect/Conv/IR/ConvOps.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/DenseSet.h"

#include <array>
#include <limits>
#include <map>
#include <numeric>
#include <tuple>

using namespace mlir;
using namespace mlir::conv;
using namespace mlir::conv::detail;
using Layout = convgen::DataLayout;

namespace {

/// Values a round of row adds (lowerByColumns) needs to be split over the
/// threads (an scf.forall); smaller rounds run as one loop.
constexpr int64_t kMinThreadedRowAddValues = 16 * 1024;

/// One phase of one spatial dimension.
struct Phase1D {
  int64_t tapOffset = 0; // m0
  int64_t tapStep = 1;   // s'
  int64_t numTaps = 0;   // T
  int64_t dilation = 1;  // d'
  int64_t windowStart = 0;
  int64_t windowSize = 0;
  int64_t outOffset = 0; // q0
  int64_t outCount = 0;  // n_r
};

Phase1D computePhase(int64_t r, int64_t in, int64_t k, int64_t s, int64_t d,
                     int64_t crop, int64_t out) {
  Phase1D p;
  int64_t gcd = std::gcd(s, d);
  p.tapStep = s / gcd;
  p.dilation = d / gcd;
  int64_t m0 = -1;
  for (int64_t m = 0; m < std::min(k, p.tapStep); ++m)
    if ((m * d) % s == r) {
      m0 = m;
      break;
    }
  if (m0 < 0)
    return p; // no taps land on this phase
  p.tapOffset = m0;
  p.numTaps = (k - 1 - m0) / p.tapStep + 1;
  int64_t e0 = (m0 * d) / s;
  int64_t lead = e0 + (p.numTaps - 1) * p.dilation;
  p.outOffset = (((r - crop) % s) + s) % s;
  if (out > p.outOffset)
    p.outCount = (out - p.outOffset + s - 1) / s;
  int64_t j0 = (p.outOffset + crop - r) / s;
  p.windowStart = j0 - lead;
  p.windowSize = p.outCount + (p.numTaps - 1) * p.dilation;
  (void)in;
  return p;
}

/// Output positions j of one tap m in one spatial dimension: the input
/// rows j in [lo, lo + count) whose output q = j*s + m*d - crop lies in
/// [0, out).
struct TapRange1D {
  int64_t lo = 0, count = 0;
};

TapRange1D computeTapRange(int64_t m, int64_t in, int64_t s, int64_t d,
                           int64_t crop, int64_t out) {
  auto floorDiv = [](int64_t a, int64_t b) {
    return a >= 0 ? a / b : -((-a + b - 1) / b);
  };
  TapRange1D r;
  int64_t shift = m * d - crop; // q = j*s + shift
  int64_t lo = std::max<int64_t>(0, floorDiv(-shift + s - 1, s));
  int64_t hi = std::min<int64_t>(in, floorDiv(out - 1 - shift, s) + 1);
  if (hi <= lo)
    return r;
  r.lo = lo;
  r.count = hi - lo;
  return r;
}

/// Runs `body(index, acc)` for every point of the static box
/// prod_d [begin_d, end_d), carrying `init`: an scf.for nest over the
/// dimensions with more than one point (their index is the loop variable),
/// the other dimensions get their single index as a constant. Returns the
/// final value of the carried tensor.
Value forEachInBox(
    OpBuilder &b, Location loc, ArrayRef<int64_t> begin, ArrayRef<int64_t> end,
    Value init,
    function_ref<Value(OpBuilder &, Location, ArrayRef<OpFoldResult>, Value)>
        body) {
  int64_t n = static_cast<int64_t>(begin.size());
  SmallVector<Value> lbs, ubs, steps;
  SmallVector<int64_t> loopDims;
  for (int64_t d = 0; d < n; ++d)
    if (end[d] - begin[d] > 1) {
      loopDims.push_back(d);
      lbs.push_back(arith::ConstantIndexOp::create(b, loc, begin[d]));
      ubs.push_back(arith::ConstantIndexOp::create(b, loc, end[d]));
      steps.push_back(arith::ConstantIndexOp::create(b, loc, 1));
    }
  auto point = [&](OpBuilder &nb, ValueRange ivs) {
    SmallVector<OpFoldResult> index;
    for (int64_t d = 0; d < n; ++d)
      index.push_back(nb.getIndexAttr(begin[d]));
    for (auto [i, d] : llvm::enumerate(loopDims))
      index[d] = ivs[i];
    return index;
  };
  if (loopDims.empty())
    return body(b, loc, point(b, {}), init);
  scf::LoopNest nest = scf::buildLoopNest(
      b, loc, lbs, ubs, steps, ValueRange{init},
      [&](OpBuilder &nb, Location nl, ValueRange ivs,
          ValueRange iters) -> scf::ValueVector {
        return {body(nb, nl, point(nb, ivs), iters[0])};
      });
  return nest.results[0];
}

/// An scf.forall over the static box prod_d [0, counts_d) with the shared
/// output `out`; the builder's insertion point moves to the start of its
/// body (callers hold an InsertionGuard).
scf::ForallOp createBoxForall(OpBuilder &b, Location loc,
                              ArrayRef<int64_t> counts, Value out) {
  SmallVector<OpFoldResult> ubs;
  for (int64_t c : counts)
    ubs.push_back(b.getIndexAttr(c));
  auto forall =
      scf::ForallOp::create(b, loc, ubs, ValueRange{out}, std::nullopt);
  b.setInsertionPointToStart(forall.getBody());
  return forall;
}

/// The taps t < count_d of a phase or tap group of a channels-last
/// transposed convolution's kernel K[k..., Cout, Cin], reversed, as the
/// filter of createTapCorrelation:
///   f[t..., ci, co] = K[first + (count - 1 - t) * step..., co, ci]
/// (`first`: constants or loop indices). The copy gatherKernelTaps makes,
/// but as one linalg.transpose per tap tagged as a relayout (the tiling
/// vectorizes it in lanes x lanes squares and splits a large one over
/// threads; the generic copy ran as scalar loops on one thread), in an
/// scf.for nest over the taps. It is made right before the correlation
/// that reads it, so the taps are still cached. When a row of f (Cout
/// entries) is a multiple of 128 bytes, f is the first Cout columns of
/// rows one cache line longer (a bufferization.alloc_tensor whose extra
/// entries are never written nor read): a column tile's panel then spans
/// every L1 set.
Value relayoutReversedTaps(OpBuilder &b, Location loc, Value kernel,
                           ArrayRef<OpFoldResult> first,
                           ArrayRef<int64_t> step, ArrayRef<int64_t> count) {
  auto kType = cast<RankedTensorType>(kernel.getType());
  int64_t n = kType.getRank() - 2;
  int64_t cout = kType.getDimSize(n), cin = kType.getDimSize(n + 1);
  Type elementType = kType.getElementType();
  SmallVector<int64_t> shape(count);
  shape.append({cin, cout});
  auto fType = RankedTensorType::get(shape, elementType);
  // The taps are written into slices of the (wide) buffer itself, the loop
  // carrying it, and the [..., 0:Cout) view is taken after the loop (a view
  // of a view as the carried value would bufferize to a copy).
  SmallVector<int64_t> wide(shape);
  int64_t pad = conflictFreeRowPad(cout, elementType);
  bool pitched = pad > 0;
  wide.back() += pad;
  Value buffer =
      pitched ? Value(bufferization::AllocTensorOp::create(
                    b, loc, RankedTensorType::get(wide, elementType),
                    ValueRange{}))
              : Value(tensor::EmptyOp::create(b, loc, wide, elementType));
  SmallVector<int64_t> begin(n, 0);
  // The tap's [Cout, Cin] slice of K and its [Cin, Cout] slice of `acc`.
  auto slices = [&](OpBuilder &nb, Location nl, ArrayRef<OpFoldResult> t,
                    Value acc) {
    SmallVector<OpFoldResult> src, dst, ones(n + 2, nb.getIndexAttr(1)),
        srcSizes(n, nb.getIndexAttr(1)), dstSizes(n, nb.getIndexAttr(1));
    for (int64_t d = 0; d < n; ++d) {
      AffineExpr e = nb.getAffineDimExpr(0) +
                     (count[d] - 1 - nb.getAffineDimExpr(1)) * step[d];
      src.push_back(
          affine::makeComposedFoldedAffineApply(nb, nl, e, {first[d], t[d]}));
      dst.push_back(t[d]);
    }
    src.append({nb.getIndexAttr(0), nb.getIndexAttr(0)});
    dst.append({nb.getIndexAttr(0), nb.getIndexAttr(0)});
    srcSizes.append({nb.getIndexAttr(cout), nb.getIndexAttr(cin)});
    dstSizes.append({nb.getIndexAttr(cin), nb.getIndexAttr(cout)});
    Value tap = tensor::ExtractSliceOp::create(
        nb, nl, RankedTensorType::get({cout, cin}, elementType), kernel, src,
        srcSizes, ones);
    Value init = tensor::ExtractSliceOp::create(
        nb, nl, RankedTensorType::get({cin, cout}, elementType), acc, dst,
        dstSizes, ones);
    auto transpose = linalg::TransposeOp::create(nb, nl, tap, init,
                                                 ArrayRef<int64_t>{1, 0});
    transpose->setAttr(kRoleAttrName, nb.getStringAttr(kRoleRelayout));
    return std::make_tuple(transpose->getResult(0), dst, dstSizes, ones);
  };
  // Several taps, outside any scf.forall: an scf.forall over them, so that
  // the threads share the relayout (it ran on one thread, before the
  // correlation's scf.forall: a Keras 5x5 stride-2 layer's 3.3 MB kernel
  // took ~6 % of a 2-thread call, the other thread waiting). One tap, or
  // a relayout inside a forall (per-tap lowerings), stays an scf.for nest;
  // conv-cpu-tile-and-vectorize splits a large single tap over threads.
  int64_t numTaps = 1;
  for (int64_t c : count)
    numTaps *= c;
  Operation *parent = b.getInsertionBlock()->getParentOp();
  bool inForall =
      isa<scf::ForallOp>(parent) || parent->getParentOfType<scf::ForallOp>();
  Value f;
  if (numTaps > 1 && !inForall) {
    OpBuilder::InsertionGuard guard(b);
    auto forall = createBoxForall(b, loc, count, buffer);
    SmallVector<OpFoldResult> t;
    for (Value iv : forall.getInductionVars())
      t.push_back(iv);
    auto [relaid, dst, dstSizes, ones] =
        slices(b, loc, t, forall.getRegionIterArgs()[0]);
    b.setInsertionPointToStart(forall.getTerminator().getBody());
    tensor::ParallelInsertSliceOp::create(
        b, loc, relaid, forall.getRegionIterArgs()[0], dst, dstSizes, ones);
    f = forall.getResult(0);
  } else {
    f = forEachInBox(b, loc, begin, count, buffer,
                     [&](OpBuilder &nb, Location nl, ArrayRef<OpFoldResult> t,
                         Value acc) -> Value {
                       auto [relaid, dst, dstSizes, ones] =
                           slices(nb, nl, t, acc);
                       return tensor::InsertSliceOp::create(
                           nb, nl, relaid, acc, dst, dstSizes, ones);
                     });
  }
  if (!pitched)
    return f;
  SmallVector<OpFoldResult> offsets(n + 2, b.getIndexAttr(0)), sizes,
      strides(n + 2, b.getIndexAttr(1));
  for (int64_t d : shape)
    sizes.push_back(b.getIndexAttr(d));
  return tensor::ExtractSliceOp::create(b, loc, fType, f, offsets, sizes,
                                        strides);
}

/// The taps that relayoutReversedTaps(kernel, first, step, count) lays out,
/// as a strided slice of `laidOut`, the whole kernel so relaid out
/// (first 0, step 1, count k): F[u] = K[k - 1 - u], so
/// K[first + (count - 1 - t) step] = F[k - 1 - first - (count - 1) step +
/// t step].
Value laidOutTaps(OpBuilder &b, Location loc, Value laidOut,
                  const convgen::TransposeGeometry &g,
                  ArrayRef<OpFoldResult> first, ArrayRef<int64_t> step,
                  ArrayRef<int64_t> count) {
  auto type = cast<RankedTensorType>(laidOut.getType());
  int64_t n = g.numSpatialDims;
  SmallVector<OpFoldResult> offsets, sizes, strides;
  SmallVector<int64_t> shape;
  for (int64_t d = 0; d < n; ++d) {
    AffineExpr e = (g.kernelSpatial[d] - 1 - (count[d] - 1) * step[d]) -
                   b.getAffineDimExpr(0);
    offsets.push_back(
        affine::makeComposedFoldedAffineApply(b, loc, e, {first[d]}));
    sizes.push_back(b.getIndexAttr(count[d]));
    strides.push_back(b.getIndexAttr(step[d]));
    shape.push_back(count[d]);
  }
  for (int64_t i = n; i < n + 2; ++i) {
    offsets.push_back(b.getIndexAttr(0));
    sizes.push_back(b.getIndexAttr(type.getDimSize(i)));
    strides.push_back(b.getIndexAttr(1));
    shape.push_back(type.getDimSize(i));
  }
  return tensor::ExtractSliceOp::create(b, loc, type.clone(shape), laidOut,
                                        offsets, sizes, strides);
}

/// The spatial slice of `dest` at `offsets` with `sizes` and `strides`
/// (batch and channels whole), as tensor.extract_slice offsets/sizes/strides.
struct SpatialSlice {
  SmallVector<OpFoldResult> offsets, sizes, strides;
  SmallVector<int64_t> shape;
};

SpatialSlice spatialSlice(OpBuilder &b, RankedTensorType type, Layout layout,
                          ArrayRef<OpFoldResult> offsets,
                          ArrayRef<int64_t> sizes, ArrayRef<int64_t> strides) {
  int64_t rank = type.getRank(), n = rank - 2;
  SpatialSlice s;
  s.shape.assign(type.getShape().begin(), type.getShape().end());
  s.offsets.assign(rank, b.getIndexAttr(0));
  s.strides.assign(rank, b.getIndexAttr(1));
  for (int64_t d = 0; d < n; ++d) {
    int64_t dim = spatialDim(layout, d);
    s.offsets[dim] = offsets[d];
    s.strides[dim] = b.getIndexAttr(strides[d]);
    s.shape[dim] = sizes[d];
  }
  for (int64_t i = 0; i < rank; ++i)
    s.sizes.push_back(b.getIndexAttr(s.shape[i]));
  return s;
}

SpatialSlice spatialSlice(OpBuilder &b, RankedTensorType type, Layout layout,
                          ArrayRef<int64_t> offsets, ArrayRef<int64_t> sizes,
                          ArrayRef<int64_t> strides) {
  return spatialSlice(b, type, layout,
                      getAsIndexOpFoldResult(b.getContext(), offsets), sizes,
                      strides);
}

SmallVector<int64_t> activationShape(Layout layout, int64_t batch,
                                     ArrayRef<int64_t> spatial,
                                     int64_t channels) {
  auto s = convgen::activationShape(layout, batch, {spatial.begin(), spatial.end()},
                                    channels);
  return {s.begin(), s.end()};
}

/// Consecutive taps of one spatial dimension whose input rows (the rows
/// that land in the output) are the same.
struct TapSegment {
  int64_t mBegin, mEnd;
  TapRange1D range;
};

/// Appends tap `m` with rows `r` to `segs`, extending the last segment when
/// it ends at m with the same rows.
void appendTap(SmallVector<TapSegment> &segs, int64_t m, TapRange1D r) {
  if (!segs.empty() && segs.back().mEnd == m && segs.back().range.lo == r.lo &&
      segs.back().range.count == r.count)
    segs.back().mEnd = m + 1;
  else
    segs.push_back({m, m + 1, r});
}

SmallVector<SmallVector<TapSegment>>
tapSegments(const convgen::TransposeGeometry &g) {
  int64_t n = g.numSpatialDims;
  SmallVector<SmallVector<TapSegment>> segments(n);
  for (int64_t d = 0; d < n; ++d)
    for (int64_t m = 0; m < g.kernelSpatial[d]; ++m)
      appendTap(segments[d], m,
                computeTapRange(m, g.inputSpatial[d], g.strides[d],
                                g.dilations[d], g.cropBefore[d],
                                g.outSpatial[d]));
  return segments;
}

/// Advances `idx` (one index into each of `lists`, the last fastest) to the
/// next combination; false after the last one.
template <typename T>
bool nextBoxIndex(MutableArrayRef<int64_t> idx,
                  ArrayRef<SmallVector<T>> lists) {
  int64_t d = static_cast<int64_t>(idx.size()) - 1;
  while (d >= 0 && ++idx[d] == static_cast<int64_t>(lists[d].size()))
    idx[d--] = 0;
  return d >= 0;
}

/// Taps of one spatial dimension with the same number of input rows whose
/// tap index and first input row both step by a constant: tap t < length is
/// m = mBegin + t * mStep, reading the input rows [lo + t * loStep, ... +
/// count). (A segment is a run with loStep 0 and mStep 1; the runs also
/// join taps with different rows: DCGAN's 4x4 stride-2 SAME taps 0 and 3
/// read rows [1, 4) and [0, 3), one run of two.)
struct TapRun {
  int64_t mBegin, mStep, lo, loStep, length, count;
};

/// The taps with input rows of each spatial dimension as runs: grouped by
/// their row count (in the order of the taps), each group cut into the
/// fewest runs in tap order.
SmallVector<SmallVector<TapRun>> tapRuns(const convgen::TransposeGeometry &g) {
  int64_t n = g.numSpatialDims;
  SmallVector<SmallVector<TapRun>> runs(n);
  for (int64_t d = 0; d < n; ++d) {
    SmallVector<std::pair<int64_t, TapRange1D>> taps;
    SmallVector<int64_t> counts;
    for (int64_t m = 0; m < g.kernelSpatial[d]; ++m) {
      TapRange1D r =
          computeTapRange(m, g.inputSpatial[d], g.strides[d], g.dilations[d],
                          g.cropBefore[d], g.outSpatial[d]);
      if (r.count == 0)
        continue;
      taps.push_back({m, r});
      if (!llvm::is_contained(counts, r.count))
        counts.push_back(r.count);
    }
    for (int64_t count : counts) {
      SmallVector<std::pair<int64_t, TapRange1D>> group;
      for (const auto &tap : taps)
        if (tap.second.count == count)
          group.push_back(tap);
      for (size_t i = 0; i < group.size();) {
        TapRun run{group[i].first, 1, group[i].second.lo, 0, 1, count};
        if (i + 1 < group.size()) {
          run.mStep = group[i + 1].first - group[i].first;
          run.loStep = group[i + 1].second.lo - group[i].second.lo;
          run.length = 2;
          while (i + run.length < group.size() &&
                 group[i + run.length].first ==
                     run.mBegin + run.length * run.mStep &&
                 group[i + run.length].second.lo ==
                     run.lo + run.length * run.loStep)
            ++run.length;
        }
        runs[d].push_back(run);
        i += run.length;
      }
    }
  }
  return runs;
}

/// Runs `box(b, loc, inOffset, count, m, acc)` for every tap of every box of
/// tap runs (one run per dimension): an scf.for nest over the runs longer
/// than one tap, the tap index `m` and the first input row `inOffset` per
/// dimension affine in the loop variables (constants for single taps), and
/// the row counts static. Carries `init`; returns the final value.
Value forEachTapRunBox(
    OpBuilder &b, Location loc, ArrayRef<SmallVector<TapRun>> runs, Value init,
    function_ref<Value(OpBuilder &, Location, ArrayRef<OpFoldResult>,
                       ArrayRef<int64_t>, ArrayRef<OpFoldResult>, Value)>
        box) {
  int64_t n = static_cast<int64_t>(runs.size());
  for (const auto &dimRuns : runs)
    if (dimRuns.empty())
      return init;
  SmallVector<int64_t> idx(n, 0);
  Value acc = init;
  while (true) {
    SmallVector<TapRun> chosen;
    SmallVector<int64_t> begin(n, 0), end, count;
    for (int64_t d = 0; d < n; ++d) {
      chosen.push_back(runs[d][idx[d]]);
      end.push_back(chosen.back().length);
      count.push_back(chosen.back().count);
    }
    acc = forEachInBox(b, loc, begin, end, acc,
                       [&](OpBuilder &nb, Location nl, ArrayRef<OpFoldResult> t,
                           Value boxAcc) -> Value {
                         SmallVector<OpFoldResult> inOffset, m;
                         AffineExpr e = nb.getAffineDimExpr(0);
                         for (int64_t d = 0; d < n; ++d) {
                           const TapRun &run = chosen[d];
                           inOffset.push_back(
                               affine::makeComposedFoldedAffineApply(
                                   nb, nl, e * run.loStep + run.lo, {t[d]}));
                           m.push_back(affine::makeComposedFoldedAffineApply(
                               nb, nl, e * run.mStep + run.mBegin, {t[d]}));
                         }
                         return box(nb, nl, inOffset, count, m, boxAcc);
                       });
    if (!nextBoxIndex(idx, runs))
      break;
  }
  return acc;
}

/// out += y, elementwise (both of the same static shape).
linalg::GenericOp createAccumulate(OpBuilder &b, Location loc, Value y,
                                   Value out) {
  auto type = cast<RankedTensorType>(out.getType());
  int64_t rank = type.getRank();
  SmallVector<AffineMap> maps(
      2, AffineMap::getMultiDimIdentityMap(rank, b.getContext()));
  return linalg::GenericOp::create(
      b, loc, TypeRange{type}, ValueRange{y}, ValueRange{out}, maps,
      SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel),
      [](OpBuilder &eb, Location el, ValueRange args) {
        Value v = arith::AddFOp::create(eb, el, args[1], args[0]);
        linalg::YieldOp::create(eb, el, v);
      });
}

/// Runs `box(b, loc, inOffset, count, mBegin, mEnd, acc)` for every box of
/// tap segments (one segment per dimension) whose input rows are not empty:
/// input rows [inOffset, inOffset + count) and taps [mBegin, mEnd) per
/// dimension. Carries `init`; returns the final value.
Value forEachTapBox(
    OpBuilder &b, Location loc, ArrayRef<SmallVector<TapSegment>> segments,
    Value init,
    function_ref<Value(OpBuilder &, Location, ArrayRef<int64_t>,
                       ArrayRef<int64_t>, ArrayRef<int64_t>, ArrayRef<int64_t>,
                       Value)>
        box) {
  int64_t n = static_cast<int64_t>(segments.size());
  SmallVector<int64_t> idx(n, 0);
  Value acc = init;
  while (true) {
    bool empty = false;
    SmallVector<int64_t> inOffset, count, mBegin, mEnd;
    for (int64_t d = 0; d < n; ++d) {
      const TapSegment &seg = segments[d][idx[d]];
      empty |= seg.range.count == 0;
      inOffset.push_back(seg.range.lo);
      count.push_back(seg.range.count);
      mBegin.push_back(seg.mBegin);
      mEnd.push_back(seg.mEnd);
    }
    if (!empty)
      acc = box(b, loc, inOffset, count, mBegin, mEnd, acc);
    if (!nextBoxIndex(idx, segments))
      break;
  }
  return acc;
}

/// The output slice that tap `m` (per dimension: a loop variable or a
/// constant) writes from the input rows [inOffset, inOffset + count): along
/// every spatial dimension offset inOffset*s + m*d - crop, `count` positions
/// with stride s; the batch [batchOffset, batchOffset + batchSize); the
/// channels whole.
SpatialSlice tapOutputSlice(OpBuilder &b, Location loc,
                            const convgen::TransposeGeometry &g,
                            RankedTensorType outType, OpFoldResult batchOffset,
                            int64_t batchSize, ArrayRef<OpFoldResult> inOffset,
                            ArrayRef<int64_t> count, ArrayRef<OpFoldResult> m) {
  int64_t n = g.numSpatialDims, rank = n + 2;
  SpatialSlice slice;
  slice.shape.assign(outType.getShape().begin(), outType.getShape().end());
  slice.offsets.assign(rank, b.getIndexAttr(0));
  slice.strides.assign(rank, b.getIndexAttr(1));
  slice.offsets[0] = batchOffset;
  slice.shape[0] = batchSize;
  for (int64_t d = 0; d < n; ++d) {
    int64_t dim = spatialDim(g.layout, d);
    // (Folds to a constant when both are.)
    AffineExpr e = b.getAffineDimExpr(0) * g.strides[d] +
                   b.getAffineDimExpr(1) * g.dilations[d] - g.cropBefore[d];
    slice.offsets[dim] =
        affine::makeComposedFoldedAffineApply(b, loc, e, {inOffset[d], m[d]});
    slice.strides[dim] = b.getIndexAttr(g.strides[d]);
    slice.shape[dim] = count[d];
  }
  for (int64_t i = 0; i < rank; ++i)
    slice.sizes.push_back(b.getIndexAttr(slice.shape[i]));
  return slice;
}

SpatialSlice tapOutputSlice(OpBuilder &b, Location loc,
                            const convgen::TransposeGeometry &g,
                            RankedTensorType outType, OpFoldResult batchOffset,
                            int64_t batchSize, ArrayRef<int64_t> inOffset,
                            ArrayRef<int64_t> count, ArrayRef<OpFoldResult> m) {
  return tapOutputSlice(b, loc, g, outType, batchOffset, batchSize,
                        getAsIndexOpFoldResult(b.getContext(), inOffset), count,
                        m);
}

struct TransposeToLinalg : public OpRewritePattern<TransposeOp> {
  TransposeToLinalg(MLIRContext *ctx, const TransposeLoweringOptions &options)
      : OpRewritePattern(ctx), lowering(options.lowering), taps(options.taps),
        tapsOverhead(options.tapsOverhead), threads(options.threads),
        batchRows(options.batchRows), columnsLanes(options.columnsLanes),
        columnsBandBytes(options.columnsBandBytes), winograd(options.winograd),
        winogradManyPhaseOutChannels(options.winogradManyPhaseOutChannels),
        dotLanes(options.dotLanes) {}

  LogicalResult matchAndRewrite(TransposeOp op,
                                PatternRewriter &rewriter) const override {
    auto geometry = op.getGeometry();
    if (!geometry)
      return rewriter.notifyMatchFailure(op, geometry.error());
    const convgen::TransposeGeometry &g = *geometry;
    Location loc = op.getLoc();
    auto resultType = op.getOutput().getType();
    Type elementType = resultType.getElementType();
    Type accType = getAccumulatorType(elementType);

    Value out = createZeros(rewriter, loc, resultType.getShape(), accType);
    int64_t work = g.batch * g.inChannels * g.outChannels;
    for (int64_t d = 0; d < g.numSpatialDims; ++d)
      work *= g.inputSpatial[d] * g.kernelSpatial[d] * g.outSpatial[d];
    if (work != 0) {
      std::optional<TransposeDotPlan> dot;
      if (taps == TransposeTaps::Auto && dotLanes > 0 &&
          lowering != TransposeLowering::ZeroInsertion)
        dot = planTransposeDot(g, elementType, dotLanes, threads);
      if (lowering == TransposeLowering::ZeroInsertion)
        out = lowerByZeroInsertion(rewriter, loc, op, g, accType);
      else if (dot)
        out = lowerTransposeByDot(rewriter, loc, op.getInputs(), op.getKernel(),
                                  g, *dot);
      else if (g.layout == Layout::ChannelsLast &&
               (taps == TransposeTaps::Columns ||
                (taps == TransposeTaps::Auto && preferColumns(g))))
        out = lowerByColumns(rewriter, loc, op, g, out);
      else if (taps == TransposeTaps::Auto && preferDepthToSpace(g))
        out = lowerByDepthToSpace(rewriter, loc, op, g);
      else if (int64_t rows =
                   taps == TransposeTaps::Auto ? inputBlockRows(g, threads) : 0)
        out = lowerByInputBlocks(rewriter, loc, op, g, rows);
      else if (int64_t items =
                   taps == TransposeTaps::Auto && !preferTaps(g, tapsOverhead)
                       ? winogradBlockItems(g, elementType, accType)
                       : 0)
        out = lowerByBatchBlocks(rewriter, loc, op, g, items, accType);
      else if (int64_t items =
                   taps == TransposeTaps::Auto && !preferTaps(g, tapsOverhead)
                       ? batchBlockItems(g, threads,
                                         batchRows && elementType.isF32())
                       : 0)
        out = lowerByBatchBlocks(rewriter, loc, op, g, items, accType);
      else if (taps == TransposeTaps::Always ||
               (taps == TransposeTaps::Auto && preferTaps(g, tapsOverhead)))
        out = lowerByTaps(rewriter, loc, op, g, out);
      else
        out = lowerByPhases(rewriter, loc, op, g, out);
    }
    if (!out) // (a batch block's geometry; a valid op's always is)
      return rewriter.notifyMatchFailure(op, "no geometry for a batch block");
    rewriter.replaceOp(op, castElements(rewriter, loc, out, elementType));
    return success();
  }

  /// Along spatial dimension `d`: the products the phases compute (each
  /// phase's output rows times its taps, padding included) and the useful
  /// ones (the input rows of each tap that land in the output).
  static std::pair<int64_t, int64_t>
  phaseProducts(const convgen::TransposeGeometry &g, int64_t d) {
    int64_t computed = 0, useful = 0;
    for (int64_t r = 0; r < g.strides[d]; ++r) {
      Phase1D p =
          computePhase(r, g.inputSpatial[d], g.kernelSpatial[d], g.strides[d],
                       g.dilations[d], g.cropBefore[d], g.outSpatial[d]);
      if (p.numTaps > 0)
        computed += p.outCount * p.numTaps;
    }
    for (int64_t m = 0; m < g.kernelSpatial[d]; ++m)
      useful +=
          computeTapRange(m, g.inputSpatial[d], g.strides[d], g.dilations[d],
                          g.cropBefore[d], g.outSpatial[d])
              .count;
    return {computed, useful};
  }

  /// The phase correlations multiply the padding around the input too: per
  /// dimension they compute sum_r outCount_r * numTaps_r products where only
  /// sum_m (input rows of tap m that land in the output) are useful. When
  /// that overhead is large (small inputs: GAN generators' first layers, 3-D
  /// "valid" up-convolutions) and the kernel has few taps, the per-tap
  /// lowering computes exactly the useful products instead, at the cost of
  /// more code (one contraction per box of tap segments). The phases' tap
  /// loops skip the padding along every dimension but the last
  /// (kPhaseWindowAttrName), so only the last dimension's overhead counts.
  /// `maxOverhead` (option transpose-taps-overhead, default 1.10). With
  /// those clipped taps, phases against per tap (conv-run --compare, 30-40
  /// call pairs, 1 / 2 threads): DCGAN's 8x8 -> 16x16 4x4 layer (1.07
  /// along its last dimension) +10 / +7 %; its 4x4 -> 8x8 layer (1.14)
  /// -4 / -5 %, a 3-D valid 3x3x3 layer (1.22) -21 %. Before that, per tap
  /// against phases
  /// (conv-run --compare, median speed ratio of 20 alternating call pairs,
  /// 1 / 2 threads): DCGAN's 8x8 -> 16x16 4x4 layer (overhead 1.14) +6 /
  /// +16 % at about the phases' compile time (tap runs); a dilated 16x16 ->
  /// 32x32 3x3 layer (1.09) +11 / +18 %, but its compile rose from 120 to
  /// 280-320 ms, past the 300 ms target; 16x16 -> 32x32 4x4 (1.07) -4 / +1
  /// %, 28x28 -> 58x58 3x3 valid (1.07) +1 / -1 %, 28x28 -> 56x56 3x3
  /// same (1.02) -6 / -2 %.
  static bool preferTaps(const convgen::TransposeGeometry &g,
                         double maxOverhead) {
    constexpr int64_t kMaxTaps = 64; // one linalg.generic per tap
    double computed = 1, useful = 1;
    int64_t taps = 1;
    for (int64_t d = 0; d < g.numSpatialDims; ++d) {
      auto [c, u] = phaseProducts(g, d);
      // Along every dimension but the last the CPU code generator runs one
      // output row per register tile and skips the taps that read padding
      // (kPhaseWindowAttrName): only the last dimension's padding products
      // are computed.
      if (d + 1 < g.numSpatialDims)
        c = u;
      computed *= static_cast<double>(c);
      useful *= static_cast<double>(u);
      taps *= g.kernelSpatial[d];
    }
    return taps <= kMaxTaps && computed > maxOverhead * useful;
  }

  /// A kernel equal to its stride in every dimension, no crop, dilation 1
  /// and out = in * s (valid, or same, without output padding): every
  /// output position gets exactly one tap, so the transposed convolution is
  /// a 1x1 GEMM followed by depth-to-space. The phase lowering reads the
  /// whole input once per phase (prod(s) times) and writes each phase's
  /// output positions interleaved with the others'; one contraction over
  /// all phases reads every input row once and writes whole output rows.
  /// Used when the input is large (re-reading it per phase costs memory
  /// traffic; a small one stays cached) and the whole kernel small enough to
  /// stay L2-resident (it is re-read for every input row). Larger kernels
  /// keep the phases, each of which keeps its own kernel slice resident
  /// while it sweeps the input (measured: 2-D U-Net 100x100x256 -> 128 with
  /// its 512 KiB kernel, and the 3-D U-Net layers, ran slower merged).
  /// Every output position gets exactly one tap: a kernel equal to its
  /// stride in every dimension, dilation 1, no crop and out = in * s (the
  /// geometry of the depth-to-space and input-block lowerings).
  static bool oneTapPerOutput(const convgen::TransposeGeometry &g) {
    for (int64_t d = 0; d < g.numSpatialDims; ++d)
      if (g.kernelSpatial[d] != g.strides[d] || g.dilations[d] != 1 ||
          g.cropBefore[d] != 0 ||
          g.outSpatial[d] != g.inputSpatial[d] * g.strides[d])
        return false;
    return true;
  }

  /// Whether `blocks` iterations of a block lowering's scf.forall (the
  /// thread loop) make a balanced split: evenly over the threads, or at
  /// least 4 a thread.
  static bool blocksSplitOverThreads(int64_t blocks, int64_t threads) {
    int64_t t = std::max<int64_t>(1, threads);
    return blocks >= t && (blocks % t == 0 || blocks >= 4 * t);
  }

  /// The stride phases, Π s.
  static int64_t numPhases(const convgen::TransposeGeometry &g) {
    int64_t phases = 1;
    for (int64_t d = 0; d < g.numSpatialDims; ++d)
      phases *= g.strides[d];
    return phases;
  }

  /// The f32 bytes of one batch item's input (the block rules' measure).
  static int64_t itemInputBytes(const convgen::TransposeGeometry &g) {
    int64_t bytes = g.inChannels * 4;
    for (int64_t d = 0; d < g.numSpatialDims; ++d)
      bytes *= g.inputSpatial[d];
    return bytes;
  }

  static bool preferDepthToSpace(const convgen::TransposeGeometry &g) {
    constexpr int64_t kMaxKernelBytes = 128 * 1024;
    constexpr int64_t kMinInputBytes = 1024 * 1024;
    if (g.layout != Layout::ChannelsLast || !oneTapPerOutput(g))
      return false;
    int64_t phases = numPhases(g), inputBytes = g.batch * itemInputBytes(g);
    return phases > 1 && inputBytes >= kMinInputBytes &&
           phases * g.inChannels * g.outChannels * 4 <= kMaxKernelBytes;
  }

  /// Depth-to-space lowering (preferDepthToSpace; docs/Lowering.md §3.7):
  ///   out[b, j_0 s_0 + m_0, ..., j_{n-1} s_{n-1} + m_{n-1}, co]
  ///     = sum_ci x[b, j..., ci] * K[m..., co, ci]
  /// as one contraction over the output viewed as
  /// [N, I_0, s_0, ..., I_{n-2}, s_{n-2}, I_{n-1}, s_{n-1} * Cout] (a
  /// reshape, no copy) with loops [b, j_0, m_0, ..., j_{n-1}, c2, ci] and
  /// the kernel relaid out as KD[m_0..m_{n-2}, ci, (m_{n-1}, co)].
  Value lowerByDepthToSpace(PatternRewriter &b, Location loc, TransposeOp op,
                            const convgen::TransposeGeometry &g) const {
    MLIRContext *ctx = b.getContext();
    int64_t n = g.numSpatialDims;
    Value input = op.getInputs(), kernel = op.getKernel();
    auto kType = cast<RankedTensorType>(kernel.getType());
    Type accType = getAccumulatorType(
        cast<RankedTensorType>(input.getType()).getElementType());
    int64_t sLast = g.strides[n - 1], cols = sLast * g.outChannels;

    // KD = transpose(K, [m_0..m_{n-2}, ci, m_{n-1}, co]), then (m_{n-1}, co)
    // collapsed.
    SmallVector<int64_t> perm, kdShape;
    for (int64_t d = 0; d + 1 < n; ++d)
      perm.push_back(d);
    perm.append({n + 1, n - 1, n});
    for (int64_t p : perm)
      kdShape.push_back(kType.getDimSize(p));
    Value kdInit =
        tensor::EmptyOp::create(b, loc, kdShape, kType.getElementType());
    auto kd = linalg::TransposeOp::create(b, loc, kernel, kdInit, perm);
    kd->setAttr(kRoleAttrName, b.getStringAttr(kRoleRelayout));
    SmallVector<ReassociationIndices> kdAssoc;
    for (int64_t d = 0; d < n; ++d)
      kdAssoc.push_back({d});
    kdAssoc.push_back({n, n + 1});
    SmallVector<int64_t> kdCollapsed(kdShape.begin(), kdShape.begin() + n);
    kdCollapsed.push_back(cols);
    Value kdMatrix = tensor::CollapseShapeOp::create(
        b, loc, RankedTensorType::get(kdCollapsed, kType.getElementType()),
        kd.getResult()[0], kdAssoc);

    // The output [N, O_0, ..., O_{n-1}, Cout] viewed as [N, I_0, s_0, ...,
    // I_{n-1}, s_{n-1} * Cout]: split every O_d into (I_d, s_d), then merge
    // (s_{n-1}, Cout); the result goes back the same way.
    SmallVector<int64_t> viewShape = {g.batch};
    for (int64_t d = 0; d + 1 < n; ++d)
      viewShape.append({g.inputSpatial[d], g.strides[d]});
    viewShape.append({g.inputSpatial[n - 1], cols});
    SmallVector<int64_t> splitShape(viewShape.begin(), viewShape.end() - 1);
    splitShape.append({sLast, g.outChannels});
    SmallVector<ReassociationIndices> splitAssoc;
    int64_t viewRank = static_cast<int64_t>(viewShape.size());
    for (int64_t i = 0; i + 1 < viewRank; ++i)
      splitAssoc.push_back({i});
    splitAssoc.push_back({viewRank - 1, viewRank});
    SmallVector<ReassociationIndices> mergeAssoc = {{0}};
    for (int64_t d = 0; d < n; ++d)
      mergeAssoc.push_back({1 + 2 * d, 2 + 2 * d});
    mergeAssoc.push_back({2 * n + 1});
    SmallVector<int64_t> outShape = {g.batch};
    for (int64_t d = 0; d < n; ++d)
      outShape.push_back(g.outSpatial[d]);
    outShape.push_back(g.outChannels);
    // The view of an output-shaped buffer (bufferization.alloc_tensor: a
    // tensor.empty would fold with the reshapes into a view-shaped one), so
    // that after bufferization the result is that buffer itself, which
    // buffer-results-to-out-params turns into the out-param. A view-shaped
    // buffer was copied into the out-param after the contraction: a 39 MB
    // copy for U-Net's 196x196x128 -> 392x392x64 layer.
    Value out = bufferization::AllocTensorOp::create(
        b, loc, RankedTensorType::get(outShape, accType), ValueRange{});
    Value outSplit = tensor::ExpandShapeOp::create(
        b, loc, RankedTensorType::get(splitShape, accType), out, mergeAssoc);
    Value outView = tensor::CollapseShapeOp::create(
        b, loc, RankedTensorType::get(viewShape, accType), outSplit,
        splitAssoc);
    // Zero filled (the fill is fused into the tiles).
    Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(accType));
    Value init =
        linalg::FillOp::create(b, loc, zero, ValueRange{outView}).getResult(0);

    // Loops [b, j_0, m_0, ..., j_{n-2}, m_{n-2}, j_{n-1}, c2, ci].
    int64_t numOut = 2 * n - 1, numLoops = numOut + 3;
    AffineExpr c2 = getAffineDimExpr(numOut + 1, ctx);
    AffineExpr ci = getAffineDimExpr(numOut + 2, ctx);
    SmallVector<AffineExpr> xE = {getAffineDimExpr(0, ctx)}, kE, oE;
    for (int64_t i = 0; i <= numOut; ++i)
      oE.push_back(getAffineDimExpr(i, ctx));
    oE.push_back(c2);
    for (int64_t d = 0; d < n; ++d)
      xE.push_back(getAffineDimExpr(1 + 2 * d, ctx));
    xE.push_back(ci);
    for (int64_t d = 0; d + 1 < n; ++d)
      kE.push_back(getAffineDimExpr(2 + 2 * d, ctx));
    kE.append({ci, c2});
    auto gemm = createMulAdd(b, loc, input, kdMatrix, init, xE, kE, oE,
                             numLoops, /*numParallel=*/numLoops - 1,
                             kRoleTransposePhase);
    gemm->setAttr(kPhaseTapsAttrName, b.getI64IntegerAttr(0));

    // Back to [N, O_0, ..., O_{n-1}, Cout]: split the last dimension into
    // (s_{n-1}, Cout), then merge every (I_d, s_d) pair.
    Value split = tensor::ExpandShapeOp::create(
        b, loc, RankedTensorType::get(splitShape, accType), gemm.getResult(0),
        splitAssoc);
    return tensor::CollapseShapeOp::create(
        b, loc, RankedTensorType::get(outShape, accType), split, mergeAssoc);
  }

  /// Input blocks for a kernel equal to its stride (preferDepthToSpace's
  /// geometry: every output position gets exactly one tap) whose kernel is
  /// too large for the depth-to-space contraction and relaid out tap by tap
  /// (preferRelayout), with at least 1 MiB of input. The phase lowering
  /// sweeps the whole input once per tap (a 3-D 2x2x2 layer reads its 8 MiB
  /// input 8 times from memory); here an scf.forall over blocks of whole
  /// rows of the first spatial dimension (one batch item each, at most 256
  /// KiB of input: the L2 keeps them while every tap reads them) runs every
  /// tap on its block before the next. Returns the block's rows of the first
  /// spatial dimension (a divisor of it), or 0 for the other lowerings: 2-D
  /// and 3-D layers only (a 1-D one has no rows to block), and only when the
  /// blocks split evenly over the threads or are at least 4 a thread (the
  /// forall is the thread loop). conv-run --compare=transpose-per-tap=never
  /// (the phases), 1 / 2 threads, Zen 3: see docs/Lowering.md §3.8.
  static int64_t inputBlockRows(const convgen::TransposeGeometry &g,
                                int64_t threads) {
    constexpr int64_t kMinInputBytes = 1024 * 1024;
    constexpr int64_t kBlockBytes = 256 * 1024;
    int64_t n = g.numSpatialDims;
    if (g.layout != Layout::ChannelsLast || n < 2 || !preferRelayout(g) ||
        !oneTapPerOutput(g))
      return 0;
    int64_t phases = numPhases(g);
    int64_t rowBytes = itemInputBytes(g) / g.inputSpatial[0];
    if (phases <= 1 || g.batch * g.inputSpatial[0] * rowBytes < kMinInputBytes)
      return 0;
    int64_t rows = 1;
    for (int64_t r = 2; r <= g.inputSpatial[0]; ++r)
      if (g.inputSpatial[0] % r == 0 && r * rowBytes <= kBlockBytes)
        rows = r;
    int64_t blocks = g.batch * (g.inputSpatial[0] / rows);
    if (!blocksSplitOverThreads(blocks, threads))
      return 0;
    // Every block reads the whole relaid-out kernel (from the L3 at best),
    // the phases read the whole input once per tap: blocks only when that
    // is at most as many bytes.
    double inputBytes =
               static_cast<double>(g.batch) * g.inputSpatial[0] * rowBytes,
           kernelBytes =
               static_cast<double>(phases) * g.inChannels * g.outChannels * 4;
    if (blocks * kernelBytes > phases * inputBytes)
      return 0;
    return rows;
  }

  /// Input-block lowering (inputBlockRows; docs/Lowering.md §3.8): every
  /// tap's [Cin, Cout] slice relaid out once (relayoutReversedTaps), then
  /// an scf.forall over (batch item, block of `rows` rows j_0 of the first
  /// spatial dimension) in which each tap m writes
  ///   out[b, j*s + m, co] = sum_ci x[b, j, ci] * K[m, co, ci]
  /// for the block's input positions j: a correlation of one tap over the
  /// whole block, into the tap's strided slice of the block's output rows
  /// [j_0 s_0, (j_0 + rows) s_0), zero filled first (the fill fuses into
  /// its register tiles). The blocks write disjoint rows, and each output
  /// value is the sum of one tap: the result does not depend on the
  /// thread count.
  Value lowerByInputBlocks(PatternRewriter &b, Location loc, TransposeOp op,
                           const convgen::TransposeGeometry &g,
                           int64_t rows) const {
    int64_t n = g.numSpatialDims, rank = n + 2;
    Value input = op.getInputs(), kernel = op.getKernel();
    auto inType = cast<RankedTensorType>(input.getType());
    Type accType = getAccumulatorType(inType.getElementType());
    SmallVector<int64_t> zeros(n, 0), ones(n, 1);
    SmallVector<int64_t> taps(g.kernelSpatial.begin(), g.kernelSpatial.end());
    SmallVector<OpFoldResult> first(n, b.getIndexAttr(0));
    // f[t..., ci, co] = K[k - 1 - t..., co, ci]: K[m] is f[k - 1 - m]
    // (laidOutTaps of one tap).
    Value filters = relayoutReversedTaps(b, loc, kernel, first, ones, taps);

    SmallVector<int64_t> outShape = {g.batch};
    outShape.append(g.outSpatial.begin(), g.outSpatial.end());
    outShape.push_back(g.outChannels);
    // Every output value is written by its tap (no fill of the whole).
    Value out = tensor::EmptyOp::create(b, loc, outShape, accType);
    int64_t perItem = g.inputSpatial[0] / rows;
    auto forall =
        scf::ForallOp::create(b, loc,
                              ArrayRef<OpFoldResult>{b.getIndexAttr(g.batch),
                                                     b.getIndexAttr(perItem)},
                              ValueRange{out}, std::nullopt);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(forall.getBody());
    Value item = forall.getInductionVars()[0];
    Value block = forall.getInductionVars()[1];
    AffineExpr j = b.getAffineDimExpr(0);
    OpFoldResult inRow = affine::makeComposedFoldedAffineApply(
        b, loc, j * rows, {OpFoldResult(block)});
    OpFoldResult outRow = affine::makeComposedFoldedAffineApply(
        b, loc, j * (rows * g.strides[0]), {OpFoldResult(block)});
    // [1, rows, I_1.., Cin] of the input and [1, rows s_0, O_1.., Cout]
    // of the output.
    auto blockSlice = [&](ArrayRef<int64_t> spatial, int64_t channels,
                          OpFoldResult row, SmallVector<int64_t> &shape,
                          SmallVector<OpFoldResult> &offsets,
                          SmallVector<OpFoldResult> &sizes) {
      shape = {1};
      shape.append(spatial.begin(), spatial.end());
      shape.push_back(channels);
      offsets.assign(rank, b.getIndexAttr(0));
      offsets[0] = item;
      offsets[1] = row;
      for (int64_t s : shape)
        sizes.push_back(b.getIndexAttr(s));
    };
    SmallVector<int64_t> inSpatial(g.inputSpatial.begin(),
                                   g.inputSpatial.end()),
        outSpatial(g.outSpatial.begin(), g.outSpatial.end());
    inSpatial[0] = rows;
    outSpatial[0] = rows * g.strides[0];
    SmallVector<OpFoldResult> unit(rank, b.getIndexAttr(1)), xOffsets, xSizes,
        oOffsets, oSizes;
    SmallVector<int64_t> xShape, oShape;
    blockSlice(inSpatial, g.inChannels, inRow, xShape, xOffsets, xSizes);
    blockSlice(outSpatial, g.outChannels, outRow, oShape, oOffsets, oSizes);
    Value xBlock = tensor::ExtractSliceOp::create(
        b, loc, inType.clone(xShape), input, xOffsets, xSizes, unit);
    Value shared = forall.getRegionIterArgs()[0];
    auto oType = RankedTensorType::get(oShape, accType);
    Value oBlock = tensor::ExtractSliceOp::create(b, loc, oType, shared,
                                                  oOffsets, oSizes, unit);
    auto body = [&](OpBuilder &nb, Location nl, ArrayRef<OpFoldResult> m,
                    Value acc) -> Value {
      Value filter = laidOutTaps(nb, nl, filters, g, m, ones, ones);
      SpatialSlice o =
          spatialSlice(nb, oType, g.layout, m, inSpatial, g.strides);
      Value init = tensor::ExtractSliceOp::create(
          nb, nl, oType.clone(o.shape), acc, o.offsets, o.sizes, o.strides);
      Value zero = arith::ConstantOp::create(nb, nl, nb.getZeroAttr(accType));
      init = linalg::FillOp::create(nb, nl, zero, init).getResult(0);
      Value sum =
          createTapCorrelation(nb, nl, g.layout, xBlock, filter, init, ones);
      return tensor::InsertSliceOp::create(nb, nl, sum, acc, o.offsets, o.sizes,
                                           o.strides);
    };
    Value result = forEachInBox(b, loc, zeros, taps, oBlock, body);
    b.setInsertionPointToStart(forall.getTerminator().getBody());
    tensor::ParallelInsertSliceOp::create(b, loc, result, shared, oOffsets,
                                          oSizes, unit);
    return forall.getResult(0);
  }

  /// Batch blocks for the phase lowering: the phases sweep the whole input
  /// once each (Π s times), which for a large batch comes from memory every
  /// time. An scf.forall over blocks of `items` batch items (the thread
  /// loop) runs every phase on one block before the next, the kernel relaid
  /// out once for all of them (docs/Lowering.md §3.9). Returns the block's
  /// items (2, when their input takes at most 256 KiB and they divide the
  /// batch), or 0: channels last with a kernel that the phases
  /// relay out tap by tap (preferRelayout: at least 256K elements, more
  /// than 4 output channels), at least 1 MiB of input, and blocks that split
  /// evenly over the threads or are at least 4 a thread.
  /// With `batchRows` (AVX-512 hosts; f32 ops), not for phases with at
  /// least 64 output channels (its 4-vector register tiles) that multiply
  /// padding along the last dimension when the batch makes 4 rows a
  /// thread: the code generator runs their register-tile rows along the
  /// batch, which skips those products, where a block's 2 items would be
  /// too few rows (conv-run --compare against the phases, 30 call pairs, 1
  /// / 2 threads, Zen 4: DCGAN 8x8 -> 16x16 4x4 s2, batch 64, in blocks of
  /// 2 items -6 / -4 %, of 4 items (batch rows) -2 / +1 %, of 8 items 0 /
  /// 0 %).
  static int64_t batchBlockItems(const convgen::TransposeGeometry &g,
                                 int64_t threads, bool batchRows) {
    constexpr int64_t kMinInputBytes = 1024 * 1024;
    constexpr int64_t kBlockBytes = 256 * 1024;
    if (g.layout != Layout::ChannelsLast || !preferRelayout(g))
      return 0;
    constexpr int64_t kBatchRowsMinOutChannels = 64; // 4 x 16 f32 lanes
    if (batchRows && g.outChannels >= kBatchRowsMinOutChannels &&
        g.batch % (4 * std::max<int64_t>(1, threads)) == 0) {
      auto [computed, useful] = phaseProducts(g, g.numSpatialDims - 1);
      if (computed > useful)
        return 0;
    }
    int64_t itemBytes = itemInputBytes(g);
    if (numPhases(g) <= 1 || g.batch * itemBytes < kMinInputBytes)
      return 0;
    constexpr int64_t items = 2;
    if (g.batch <= items || g.batch % items != 0 ||
        items * itemBytes > kBlockBytes)
      return 0;
    if (!blocksSplitOverThreads(g.batch / items, threads))
      return 0;
    return items;
  }

  /// Batch-block lowering (batchBlockItems): the kernel relaid out once
  /// (relayoutReversedTaps, all taps), then an scf.forall over blocks of
  /// `items` batch items, each the phase lowering of its block (a clone of
  /// `op` on the block's input, lowered here and erased) into the block's
  /// slice of the output, its phases reading their taps from the relaid-out
  /// kernel (laidOutTaps). The blocks write disjoint batch items: the result
  /// does not depend on the thread count.
  Value lowerByBatchBlocks(PatternRewriter &b, Location loc, TransposeOp op,
                           const convgen::TransposeGeometry &g, int64_t items,
                           Type accType) const {
    int64_t n = g.numSpatialDims, rank = n + 2;
    Value input = op.getInputs(), kernel = op.getKernel();
    auto inType = cast<RankedTensorType>(input.getType());
    auto resultType = op.getOutput().getType();
    SmallVector<int64_t> ones(n, 1),
        taps(g.kernelSpatial.begin(), g.kernelSpatial.end());
    SmallVector<OpFoldResult> first(n, b.getIndexAttr(0));
    Value laidOut = relayoutReversedTaps(b, loc, kernel, first, ones, taps);
    Value out = tensor::EmptyOp::create(b, loc, resultType.getShape(), accType);
    auto forall = scf::ForallOp::create(
        b, loc, ArrayRef<OpFoldResult>{b.getIndexAttr(g.batch / items)},
        ValueRange{out}, std::nullopt);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(forall.getBody());
    OpFoldResult first0 = affine::makeComposedFoldedAffineApply(
        b, loc, b.getAffineDimExpr(0) * items,
        {OpFoldResult(forall.getInductionVars()[0])});
    auto blockOf = [&](RankedTensorType type, SmallVector<int64_t> &shape,
                       SmallVector<OpFoldResult> &offsets,
                       SmallVector<OpFoldResult> &sizes) {
      shape.assign(type.getShape().begin(), type.getShape().end());
      shape[0] = items;
      offsets.assign(rank, b.getIndexAttr(0));
      offsets[0] = first0;
      for (int64_t s : shape)
        sizes.push_back(b.getIndexAttr(s));
    };
    SmallVector<OpFoldResult> unit(rank, b.getIndexAttr(1)), xOffsets, xSizes,
        oOffsets, oSizes;
    SmallVector<int64_t> xShape, oShape;
    blockOf(inType, xShape, xOffsets, xSizes);
    auto outType = cast<RankedTensorType>(out.getType());
    blockOf(outType, oShape, oOffsets, oSizes);
    Value xBlock = tensor::ExtractSliceOp::create(
        b, loc, inType.clone(xShape), input, xOffsets, xSizes, unit);
    Value shared = forall.getRegionIterArgs()[0];
    Value oBlock = tensor::ExtractSliceOp::create(
        b, loc, outType.clone(oShape), shared, oOffsets, oSizes, unit);
    Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(accType));
    Value zeros = linalg::FillOp::create(b, loc, zero, oBlock).getResult(0);
    // The block's op: `op` on the block's input (its geometry, with
    // `items` batch items, drives the phase lowering).
    IRMapping mapping;
    mapping.map(input, xBlock);
    auto block = cast<TransposeOp>(b.clone(*op, mapping));
    block.getOutput().setType(resultType.clone(oShape));
    auto blockGeometry = block.getGeometry();
    Value result = blockGeometry ? lowerByPhases(b, loc, block, *blockGeometry,
                                                 zeros, laidOut, forall)
                                 : Value();
    b.eraseOp(block);
    if (!result)
      return {};
    b.setInsertionPointToStart(forall.getTerminator().getBody());
    tensor::ParallelInsertSliceOp::create(b, loc, result, shared, oOffsets,
                                          oSizes, unit);
    return forall.getResult(0);
  }

  /// The columns lowering's GEMM for one batch item: its rows (the input
  /// pixels) and its columns (every (tap, output channel) pair).
  static std::pair<int64_t, int64_t>
  columnsGemmShape(const convgen::TransposeGeometry &g) {
    int64_t pixels = 1, columns = g.outChannels;
    for (int64_t d = 0; d < g.numSpatialDims; ++d) {
      pixels *= g.inputSpatial[d];
      columns *= g.kernelSpatial[d];
    }
    return {pixels, columns};
  }

  /// Few output channels: a phase or tap contraction would have only Cout
  /// (<= 4) vector columns. Its columns are all (tap, co) pairs instead
  /// when they make at least two vectors' worth.
  /// Only the contracted dimension (ci) is contiguous in both X [j, ci]
  /// and K [(m..., co), ci], so the columns lowering transposes one operand
  /// for the GEMM's vectors. By default that is K, once for all batch items
  /// (KT[ci, (m..., co)], vectors along the columns). When the items'
  /// pixels are fewer than the columns (the ISTFT: 224 frames, 1024
  /// columns), it is cheaper to transpose each item's X and its product
  /// back (Y^T = K X^T, vectors along the pixels): (Cin + columns) * pixels
  /// values per item against Cin * columns once. Whether it does the latter.
  static bool columnsTransposeX(const convgen::TransposeGeometry &g) {
    auto [pixels, columns] = columnsGemmShape(g);
    return g.batch * pixels * (g.inChannels + columns) <
           g.inChannels * columns;
  }

  static bool preferColumns(const convgen::TransposeGeometry &g) {
    constexpr int64_t kMaxCout = 4, kMinColumns = 16, kMinCin = 4;
    int64_t taps = 1;
    for (int64_t d = 0; d < g.numSpatialDims; ++d)
      taps *= g.kernelSpatial[d];
    return g.outChannels <= kMaxCout && g.inChannels >= kMinCin &&
           taps * g.outChannels >= kMinColumns;
  }

  /// The input rows (along the first spatial dimension) of the columns
  /// lowering's bands, or 0 for none: with several batch items (which the
  /// threads split), at least 2 spatial dimensions and K transposed, when an
  /// item's Y is larger than `bandBytes` and every tap along the first
  /// dimension reads all its input rows (no crop there: the adds of every
  /// band are the same), the most rows whose Y fits in `bandBytes` that
  /// divide the rows (at least 1). AlexNet's deconvolution (16 items of
  /// 55 x 55 x 96 -> 227 x 227 x 3, k 11 s 4: a 4.4 MB Y an item, written
  /// by the GEMM and read back by the adds through the L3) in bands of 5
  /// rows (400 KB): 21.9 -> 17.1-17.5 ms with 1 thread, 10.7 -> 8.7 ms
  /// with 2; bands of 1 and 11 rows ran as fast.
  static int64_t columnsBandRows(const convgen::TransposeGeometry &g,
                                 int64_t bandBytes, int64_t elementBytes,
                                 bool swapped) {
    if (bandBytes <= 0 || g.batch <= 1 || g.numSpatialDims < 2 || swapped)
      return 0;
    auto [pixels, columns] = columnsGemmShape(g);
    int64_t rows = g.inputSpatial[0];
    if (pixels * columns * elementBytes <= bandBytes)
      return 0;
    for (int64_t m = 0; m < g.kernelSpatial[0]; ++m) {
      TapRange1D r = computeTapRange(m, rows, g.strides[0], g.dilations[0],
                                     g.cropBefore[0], g.outSpatial[0]);
      if (r.lo != 0 || r.count != rows)
        return 0;
    }
    int64_t rowBytes = pixels / rows * columns * elementBytes;
    int64_t maxRows = std::max<int64_t>(1, bandBytes / rowBytes);
    int64_t band = 1;
    for (int64_t b = 1; b <= std::min(maxRows, rows); ++b)
      if (rows % b == 0)
        band = b;
    return band;
  }

  /// Columns lowering (channels last; docs/Lowering.md §3.6): per batch
  /// item, one GEMM of the input pixels with the kernel as [Cin, T*Cout]
  ///   Y[j..., (m..., co)] = sum_ci x[j..., ci] * K[m..., co, ci]
  /// (a 1x1 correlation with T*Cout output channels, so its register tiles
  /// have full vectors), then, tap by tap, the adds
  ///   out[j*s + m*d - crop, co] += Y[j, m, co]
  /// over the input rows j of tap m that land in the output (as in the
  /// per-tap lowering). Products of input rows whose tap misses the output
  /// are computed and dropped; for "valid" layers there are none.
  Value lowerByColumns(PatternRewriter &b, Location loc, TransposeOp op,
                       const convgen::TransposeGeometry &g, Value out) const {
    int64_t n = g.numSpatialDims, rank = n + 2;
    Value input = op.getInputs(), kernel = op.getKernel();
    auto kType = cast<RankedTensorType>(kernel.getType());
    auto outType = cast<RankedTensorType>(out.getType());
    Type accType = outType.getElementType();
    int64_t cin = g.inChannels, cout = g.outChannels;
    auto [pixels, columns] = columnsGemmShape(g);
    Type kElemType = kType.getElementType();
    Type xElemType = cast<RankedTensorType>(input.getType()).getElementType();

    // M^T of a 2-D tensor M, as a linalg.transpose tagged as a relayout
    // (the tiling vectorizes it in lanes x lanes squares). Rows a multiple
    // of 128 bytes long (ISTFT: 1024 columns) would put a register tile's
    // panel on one L1 cache set: M^T is then written into the first
    // entries of rows one cache line (64 bytes) longer, a
    // `bufferization.alloc_tensor` whose extra entries are never written
    // nor read.
    auto transposeMatrix = [](OpBuilder &tb, Location tl, Value m) -> Value {
      auto mType = cast<RankedTensorType>(m.getType());
      int64_t rows = mType.getDimSize(1), cols = mType.getDimSize(0);
      Type et = mType.getElementType();
      auto tType = RankedTensorType::get({rows, cols}, et);
      int64_t pitchPad = conflictFreeRowPad(cols, et);
      Value init;
      if (pitchPad > 0) {
        Value buffer = bufferization::AllocTensorOp::create(
            tb, tl, RankedTensorType::get({rows, cols + pitchPad}, et),
            ValueRange{});
        init = tensor::ExtractSliceOp::create(
            tb, tl, tType, buffer,
            ArrayRef<OpFoldResult>{tb.getIndexAttr(0), tb.getIndexAttr(0)},
            ArrayRef<OpFoldResult>{tb.getIndexAttr(rows),
                                   tb.getIndexAttr(cols)},
            ArrayRef<OpFoldResult>{tb.getIndexAttr(1), tb.getIndexAttr(1)});
      } else {
        init = tensor::EmptyOp::create(tb, tl, tType.getShape(), et);
      }
      auto op = linalg::TransposeOp::create(tb, tl, m, init,
                                            ArrayRef<int64_t>{1, 0});
      op->setAttr(kRoleAttrName, tb.getStringAttr(kRoleRelayout));
      return op->getResult(0);
    };

    // K[m..., co, ci] is the row-major matrix [(m..., co), ci].
    SmallVector<ReassociationIndices> kCollapse{{}, {n + 1}};
    for (int64_t i = 0; i <= n; ++i)
      kCollapse[0].push_back(i);
    Value kMatrix = tensor::CollapseShapeOp::create(b, loc, kernel, kCollapse);
    // (Columns that leave lanes of their vectors empty, such as masknet's
    // 21, are padded to whole vectors instead: padColumnsToVectors. The swapped
    // form for them, X transposed and the GEMM along the pixels, measured
    // slower after the padding: masknet +14 % with K, other layers of 18,
    // 20 and 21 columns +5-87 %; docs/Lowering.md §3.6.)
    bool swapped = columnsTransposeX(g);
    // The GEMM runs over the item's pixels flattened (one register-tile
    // row remainder per item, not one per input row): a 1-D 1x1
    // correlation with the kernel as [1, ci, columns].
    // (Its columns padded to whole vectors: padColumnsToVectors.)
    auto buildKt = [&](OpBuilder &kb, Location kl) -> Value {
      return padColumnsToVectors(
          kb, kl,
          tensor::ExpandShapeOp::create(
              kb, kl, RankedTensorType::get({1, cin, columns}, kElemType),
              transposeMatrix(kb, kl, kMatrix),
              ArrayRef<ReassociationIndices>{{0, 1}, {2}}));
    };
    Value kt;
    if (!swapped && rowParts(g, threads) <= 1)
      kt = buildKt(b, loc);

    SmallVector<SmallVector<TapSegment>> segments = tapSegments(g);
    // Row adds (along the last spatial dimension, dilation 1): the input
    // columns [jLo, jHi) whose k taps all land in the output add their
    // k*Cout values as one contiguous row; the taps of the other columns
    // (the borders) go tap by tap. [jLo, jHi) is the intersection of the
    // last dimension's tap ranges.
    int64_t last = n - 1;
    int64_t kL = g.kernelSpatial[last];
    int64_t jLo = 0, jHi = g.inputSpatial[last];
    for (const TapSegment &seg : segments[last]) {
      jLo = std::max(jLo, seg.range.lo);
      jHi = std::min(jHi, seg.range.lo + seg.range.count);
    }
    bool rowAdds = g.dilations[last] == 1 && kL > 1 && jHi > jLo;
    int64_t rowLength = kL * cout;
    SmallVector<SmallVector<TapSegment>> leftSegments, rightSegments,
        rowSegments;
    if (rowAdds) {
      // Per tap of the last dimension, its rows left of jLo (right of
      // jHi); consecutive taps with the same rows form one segment.
      auto border = [&](bool left) {
        SmallVector<TapSegment> segs;
        for (const TapSegment &seg : segments[last]) {
          int64_t lo = seg.range.lo, hi = seg.range.lo + seg.range.count;
          if (left)
            hi = std::min(hi, jLo);
          else
            lo = std::max(lo, jHi);
          TapRange1D part;
          if (hi > lo)
            part = {lo, hi - lo};
          for (int64_t m = seg.mBegin; m < seg.mEnd; ++m)
            appendTap(segs, m, part);
        }
        SmallVector<SmallVector<TapSegment>> all(segments);
        all[last] = segs;
        return all;
      };
      leftSegments = border(/*left=*/true);
      rightSegments = border(/*left=*/false);
      rowSegments = segments;
      rowSegments[last] = {TapSegment{0, 1, TapRange1D{jLo, jHi - jLo}}};
    }
    // [1, in..., Cin] <-> [1, pixels, Cin] (and Y's columns).
    SmallVector<ReassociationIndices> pixelMerge{{0}, {}, {n + 1}};
    for (int64_t i = 1; i <= n; ++i)
      pixelMerge[1].push_back(i);
    // [1, in..., k..., Cout]: Y with its columns split into taps.
    SmallVector<int64_t> ySplitShapeAll{1};
    ySplitShapeAll.append(g.inputSpatial.begin(), g.inputSpatial.end());
    ySplitShapeAll.append(g.kernelSpatial.begin(), g.kernelSpatial.end());
    ySplitShapeAll.push_back(cout);
    SmallVector<ReassociationIndices> ySplit{{0}, {}, {}};
    for (int64_t i = 1; i <= n; ++i)
      ySplit[1].push_back(i);
    for (int64_t i = n + 1; i < 2 * n + 2; ++i)
      ySplit[2].push_back(i);

    // Bands of the first spatial dimension's input rows (columnsBandRows):
    // each band's GEMM and adds, the taps' rows along that dimension
    // relative to the band.
    int64_t bandRows = columnsBandRows(
        g, columnsBandBytes,
        std::max<int64_t>(1, accType.getIntOrFloatBitWidth() / 8), swapped);
    SmallVector<SmallVector<TapSegment>> bandSegments = segments,
                                         bandLeftSegments = leftSegments,
                                         bandRightSegments = rightSegments,
                                         bandRowSegments = rowSegments;
    const auto &segmentsAll = segments;
    const auto &leftSegmentsAll = leftSegments;
    const auto &rightSegmentsAll = rightSegments;
    const auto &rowSegmentsAll = rowSegments;
    if (bandRows > 0) {
      SmallVector<TapSegment> band{
          TapSegment{0, g.kernelSpatial[0], TapRange1D{0, bandRows}}};
      bandSegments[0] = band;
      if (rowAdds) {
        bandLeftSegments[0] = band;
        bandRightSegments[0] = band;
        bandRowSegments[0] = band;
      }
    }

    // The GEMM and the tap adds of the input rows [rowBase, rowBase +
    // rows0) along the first spatial dimension (all of them, or a band) of
    // batch item `item`, accumulated into `acc` at batch index `outItem`.
    auto perBand = [&](OpBuilder &nb, Location nl, OpFoldResult item,
                       OpFoldResult outItem, OpFoldResult rowBase,
                       int64_t rows0, Value acc) -> Value {
      bool banded = rows0 != g.inputSpatial[0];
      int64_t pixels = columnsGemmShape(g).first / g.inputSpatial[0] * rows0;
      SmallVector<int64_t> yShape{1, pixels, columns};
      SmallVector<int64_t> ySplitShape = ::llvm::to_vector(ySplitShapeAll);
      ySplitShape[1] = rows0;
      const auto &segments = banded ? bandSegments : segmentsAll;
      const auto &leftSegments = banded ? bandLeftSegments : leftSegmentsAll;
      const auto &rightSegments = banded ? bandRightSegments : rightSegmentsAll;
      const auto &rowSegments = banded ? bandRowSegments : rowSegmentsAll;
      // The output slice of tap `m` from the band's input rows [inOffset,
      // + count): the first dimension's rows shifted by rowBase.
      auto outputSlice = [&](OpBuilder &ob, Location ol, OpFoldResult batch,
                             ArrayRef<int64_t> inOffset,
                             ArrayRef<int64_t> count,
                             ArrayRef<OpFoldResult> m) -> SpatialSlice {
        SmallVector<OpFoldResult> offsets =
            getAsIndexOpFoldResult(ob.getContext(), inOffset);
        offsets[0] = affine::makeComposedFoldedAffineApply(
            ob, ol, ob.getAffineDimExpr(0) + inOffset[0], {rowBase});
        return tapOutputSlice(ob, ol, g, outType, batch, 1, offsets, count, m);
      };
      Value x = extractDimSlice(nb, nl, input, 0, item, 1).value;
      if (banded)
        x = extractDimSlice(nb, nl, x, 1, rowBase, rows0).value;
      x = tensor::CollapseShapeOp::create(nb, nl, x, pixelMerge);
      Value y;
      if (swapped) {
        // Y^T[(m..., co), j] = sum_ci K[(m..., co), ci] * X^T[ci, j]: the
        // kernel is the GEMM's row operand as it is, X^T its vector
        // operand; Y^T is transposed back to Y.
        Value xMatrix = tensor::CollapseShapeOp::create(
            nb, nl, x, ArrayRef<ReassociationIndices>{{0, 1}, {2}});
        Value xt = transposeMatrix(nb, nl, xMatrix);
        xt = tensor::ExpandShapeOp::create(
            nb, nl, RankedTensorType::get({1, cin, pixels}, xElemType),
            xt, ArrayRef<ReassociationIndices>{{0, 1}, {2}});
        Value kRows = tensor::ExpandShapeOp::create(
            nb, nl, RankedTensorType::get({1, columns, cin}, kElemType),
            kMatrix, ArrayRef<ReassociationIndices>{{0, 1}, {2}});
        Value yt = createZeros(nb, nl, {1, columns, pixels}, accType);
        yt = createTapCorrelation(nb, nl, Layout::ChannelsLast, kRows, xt, yt,
                                  ArrayRef<int64_t>{1});
        yt = tensor::CollapseShapeOp::create(
            nb, nl, yt, ArrayRef<ReassociationIndices>{{0, 1}, {2}});
        y = transposeMatrix(nb, nl, yt);
        y = tensor::ExpandShapeOp::create(
            nb, nl, RankedTensorType::get(yShape, accType), y,
            ArrayRef<ReassociationIndices>{{0, 1}, {2}});
      } else {
        y = columnsGemm(nb, nl, x, kt, columns);
      }
      Value ys = tensor::ExpandShapeOp::create(
          nb, nl, RankedTensorType::get(ySplitShape, accType), y, ySplit);
      // Y as [1, in..., k_0..k_{n-2}, k_{n-1}*Cout] for the row adds.
      Value yRows;
      if (rowAdds) {
        SmallVector<int64_t> rowShape{1};
        rowShape.append(g.inputSpatial.begin(), g.inputSpatial.end());
        rowShape[1] = rows0;
        rowShape.append(g.kernelSpatial.begin(), g.kernelSpatial.end() - 1);
        rowShape.push_back(rowLength);
        SmallVector<ReassociationIndices> rowSplit{{0}, {}, {}};
        for (int64_t i = 1; i <= n; ++i)
          rowSplit[1].push_back(i);
        for (int64_t i = n + 1; i <= 2 * n; ++i)
          rowSplit[2].push_back(i);
        yRows = tensor::ExpandShapeOp::create(
            nb, nl, RankedTensorType::get(rowShape, accType), y, rowSplit);
      }

      // Tap by tap: out[j*s + m*d - crop, co] += Y[j, m, co] over the rows
      // of tap m in the box.
      auto box = [&](OpBuilder &bx, Location lx, ArrayRef<int64_t> inOffset,
                     ArrayRef<int64_t> count, ArrayRef<int64_t> mBegin,
                     ArrayRef<int64_t> mEnd, Value boxAcc) -> Value {
        auto body = [&](OpBuilder &bb, Location bl, ArrayRef<OpFoldResult> m,
                        Value a) -> Value {
          // Y[0, lo.., m.., :] as [1, count..., Cout].
          SmallVector<OpFoldResult> yOffsets{bb.getIndexAttr(0)},
              ySizes{bb.getIndexAttr(1)};
          SmallVector<OpFoldResult> yStrides(2 * n + 2, bb.getIndexAttr(1));
          for (int64_t d = 0; d < n; ++d) {
            yOffsets.push_back(bb.getIndexAttr(inOffset[d]));
            ySizes.push_back(bb.getIndexAttr(count[d]));
          }
          for (int64_t d = 0; d < n; ++d) {
            yOffsets.push_back(m[d]);
            ySizes.push_back(bb.getIndexAttr(1));
          }
          yOffsets.push_back(bb.getIndexAttr(0));
          ySizes.push_back(bb.getIndexAttr(cout));
          SmallVector<int64_t> tileShape{1};
          tileShape.append(count.begin(), count.end());
          tileShape.push_back(cout);
          Value yTap = tensor::ExtractSliceOp::create(
              bb, bl, RankedTensorType::get(tileShape, accType), ys, yOffsets,
              ySizes, yStrides);
          SpatialSlice o = outputSlice(bb, bl, outItem, inOffset, count, m);
          Value oTile = tensor::ExtractSliceOp::create(
              bb, bl, outType.clone(o.shape), a, o.offsets, o.sizes,
              o.strides);
          Value sum = createAccumulate(bb, bl, yTap, oTile).getResult(0);
          return tensor::InsertSliceOp::create(bb, bl, sum, a, o.offsets,
                                               o.sizes, o.strides);
        };
        return forEachInBox(bx, lx, mBegin, mEnd, boxAcc, body);
      };
      if (!rowAdds)
        return forEachTapBox(nb, nl, segments, acc, box);
      // Row adds along the last dimension: for an input column j whose k
      // taps all land in the output, Y[.., j, m'..., 0:k, :] (k*Cout
      // contiguous values) is added to the k*Cout contiguous output values
      // from position j*s - crop; the leading taps m' go tap by tap. The
      // columns j run in order (their output rows overlap when k > s).
      auto rowBox = [&](OpBuilder &bx, Location lx, ArrayRef<int64_t> inOffset,
                        ArrayRef<int64_t> count, ArrayRef<int64_t> mBegin,
                        ArrayRef<int64_t> mEnd, Value boxAcc) -> Value {
        auto body = [&](OpBuilder &bb, Location bl, ArrayRef<OpFoldResult> m,
                        Value a) -> Value {
          // The output item with its (W, Cout) dimensions merged.
          SmallVector<ReassociationIndices> outMerge;
          for (int64_t i = 0; i < n; ++i)
            outMerge.push_back({i});
          outMerge.push_back({n, n + 1});
          Value merged = tensor::CollapseShapeOp::create(bb, bl, a, outMerge);
          SmallVector<int64_t> tileShape{1};
          tileShape.append(count.begin(), count.end() - 1);
          tileShape.push_back(rowLength);
          auto tileType = RankedTensorType::get(tileShape, accType);
          // The add of input column j's row into `rows` (the output item
          // with (W, Cout) merged): the sum and where it goes.
          struct RowAdd {
            Value sum;
            SmallVector<OpFoldResult> offsets, sizes, strides;
          };
          auto addRow = [&](OpBuilder &lb2, Location ll, Value j,
                            Value rows) -> RowAdd {
            // Y[0, lo'..., j, m'..., 0:k*Cout] as [1, count'..., k*Cout].
            SmallVector<OpFoldResult> yOffsets{lb2.getIndexAttr(0)},
                ySizes{lb2.getIndexAttr(1)};
            for (int64_t d = 0; d + 1 < n; ++d) {
              yOffsets.push_back(lb2.getIndexAttr(inOffset[d]));
              ySizes.push_back(lb2.getIndexAttr(count[d]));
            }
            yOffsets.push_back(j);
            ySizes.push_back(lb2.getIndexAttr(1));
            for (int64_t d = 0; d + 1 < n; ++d) {
              yOffsets.push_back(m[d]);
              ySizes.push_back(lb2.getIndexAttr(1));
            }
            yOffsets.push_back(lb2.getIndexAttr(0));
            ySizes.push_back(lb2.getIndexAttr(rowLength));
            SmallVector<OpFoldResult> yStrides(yOffsets.size(),
                                               lb2.getIndexAttr(1));
            // A full-rank slice, then the unit dims (j, m') dropped by
            // a collapse: MLIR 22's canonicalizer rebuilds a
            // rank-reducing extract_slice whose offsets fold to
            // constants with the first unit dims dropped instead of the
            // original ones (llvm-project PR 178118).
            SmallVector<int64_t> fullShape{1};
            fullShape.append(count.begin(), count.end() - 1);
            fullShape.append(n, 1);
            fullShape.push_back(rowLength);
            Value yFull = tensor::ExtractSliceOp::create(
                lb2, ll, RankedTensorType::get(fullShape, accType), yRows,
                yOffsets, ySizes, yStrides);
            // [1, count'..., | 1 (j), 1 (m')..., k*Cout].
            SmallVector<ReassociationIndices> dropUnits;
            for (int64_t i = 0; i < n; ++i)
              dropUnits.push_back({i});
            ReassociationIndices tail;
            for (int64_t i = n; i <= 2 * n; ++i)
              tail.push_back(i);
            dropUnits.push_back(tail);
            Value yRow = tensor::CollapseShapeOp::create(lb2, ll, tileType,
                                                         yFull, dropUnits);
            // out[0, q'..., (j*s - crop)*Cout + 0:k*Cout].
            SpatialSlice o =
                outputSlice(lb2, ll, lb2.getIndexAttr(0), inOffset, count, m);
            RowAdd r;
            r.offsets.assign(o.offsets.begin(), o.offsets.begin() + n);
            r.sizes.assign(o.sizes.begin(), o.sizes.begin() + n);
            r.strides.assign(o.strides.begin(), o.strides.begin() + n);
            AffineExpr e = (lb2.getAffineDimExpr(0) * g.strides[n - 1] -
                            g.cropBefore[n - 1]) *
                           cout;
            r.offsets.push_back(
                affine::makeComposedFoldedAffineApply(lb2, ll, e, {j}));
            r.sizes.push_back(lb2.getIndexAttr(rowLength));
            r.strides.push_back(lb2.getIndexAttr(1));
            Value oRow = tensor::ExtractSliceOp::create(
                lb2, ll, tileType, rows, r.offsets, r.sizes, r.strides);
            auto add = createAccumulate(lb2, ll, yRow, oRow);
            add->setAttr(kRoleAttrName, lb2.getStringAttr(kRoleRowAdd));
            r.sum = add.getResult(0);
            return r;
          };
          int64_t lo = inOffset[n - 1], numRows = count[n - 1];
          // Rows j and j + G do not overlap: G*s*Cout >= k*Cout.
          int64_t G = llvm::divideCeil(kL, g.strides[n - 1]);
          if (numRows >= 2 * G) {
            // G rounds, round r adding the rows j = lo + r + G*i, which do
            // not overlap: one row's adds never wait for the previous row's
            // stores to the same output values (a loop over j in order
            // overlaps every row with the next when k > s: the 1-D masknet
            // layer, k 7 s 2, 84 -> 71 GFLOP/s with 1 thread that way).
            // With one batch item, whose rows nothing else splits over the
            // threads, a round of at least kMinThreadedRowAddValues values
            // is one scf.forall (its rows are disjoint); smaller rounds
            // stay loops: each scf.forall is a fork and a join of the
            // threads, which cost more than such a round's adds (masknet's
            // 4 rounds of 128 rows of 21 values). An output value receives
            // its rows in the order of the rounds, the same for any thread
            // count.
            Value rows = merged;
            for (int64_t r = 0; r < G; ++r) {
              int64_t n_r = llvm::divideCeil(numRows - r, G);
              AffineExpr je = bb.getAffineDimExpr(0) * G + (lo + r);
              if (g.batch == 1 && n_r * rowLength >= kMinThreadedRowAddValues) {
                auto forall = scf::ForallOp::create(
                    bb, bl, ArrayRef<OpFoldResult>{bb.getIndexAttr(n_r)},
                    ValueRange{rows}, std::nullopt);
                OpBuilder::InsertionGuard guard(bb);
                bb.setInsertionPointToStart(forall.getBody());
                Value i = forall.getInductionVars()[0];
                Value j = affine::AffineApplyOp::create(
                    bb, bl, AffineMap::get(1, 0, je), ValueRange{i});
                RowAdd add = addRow(bb, bl, j, forall.getRegionIterArgs()[0]);
                bb.setInsertionPointToStart(forall.getTerminator().getBody());
                tensor::ParallelInsertSliceOp::create(
                    bb, bl, add.sum, forall.getRegionIterArgs()[0],
                    add.offsets, add.sizes, add.strides);
                rows = forall.getResult(0);
                continue;
              }
              Value zero = arith::ConstantIndexOp::create(bb, bl, 0);
              Value ub = arith::ConstantIndexOp::create(bb, bl, n_r);
              Value one = arith::ConstantIndexOp::create(bb, bl, 1);
              auto loop = scf::ForOp::create(
                  bb, bl, zero, ub, one, ValueRange{rows},
                  [&](OpBuilder &lb2, Location ll, Value i, ValueRange iters) {
                    Value j = affine::AffineApplyOp::create(
                        lb2, ll, AffineMap::get(1, 0, je), ValueRange{i});
                    RowAdd add = addRow(lb2, ll, j, iters[0]);
                    Value inserted = tensor::InsertSliceOp::create(
                        lb2, ll, add.sum, iters[0], add.offsets, add.sizes,
                        add.strides);
                    scf::YieldOp::create(lb2, ll, inserted);
                  });
              rows = loop.getResult(0);
            }
            return tensor::ExpandShapeOp::create(bb, bl, a.getType(), rows,
                                                 outMerge);
          }
          Value lb = arith::ConstantIndexOp::create(bb, bl, lo);
          Value ub = arith::ConstantIndexOp::create(bb, bl, lo + numRows);
          Value one = arith::ConstantIndexOp::create(bb, bl, 1);
          auto loop = scf::ForOp::create(
              bb, bl, lb, ub, one, ValueRange{merged},
              [&](OpBuilder &lb2, Location ll, Value j, ValueRange iters) {
                RowAdd add = addRow(lb2, ll, j, iters[0]);
                Value inserted = tensor::InsertSliceOp::create(
                    lb2, ll, add.sum, iters[0], add.offsets, add.sizes,
                    add.strides);
                scf::YieldOp::create(lb2, ll, inserted);
              });
          return tensor::ExpandShapeOp::create(bb, bl, a.getType(),
                                               loop.getResult(0), outMerge);
        };
        // The leading taps only: the last dimension's taps are the row.
        SmallVector<int64_t> lead(mBegin.begin(), mBegin.end()),
            leadEnd(mEnd.begin(), mEnd.end());
        lead.back() = 0;
        leadEnd.back() = 1;
        return forEachInBox(bx, lx, lead, leadEnd, boxAcc, body);
      };
      acc = forEachTapBox(nb, nl, leftSegments, acc, box);
      acc = forEachTapBox(nb, nl, rightSegments, acc, box);
      return forEachTapBox(nb, nl, rowSegments, acc, rowBox);
    };
    // Zeros written to `row` ([1, X]), as a generic tagged so that the
    // tiling vectorizes it: with 3 channels innermost, a plain fill of the
    // output would become scalar stores. (A generic, not a linalg.fill: the
    // canonicalizer folds a fill through the reshapes and drops the role.)
    auto zeroFillRow = [&](OpBuilder &fb, Location fl, Value row) -> Value {
      Value zero = arith::ConstantOp::create(fb, fl, fb.getZeroAttr(accType));
      MLIRContext *fillCtx = fb.getContext();
      SmallVector<AffineMap> fillMaps{
          AffineMap::get(2, 0, {}, fillCtx),
          AffineMap::getMultiDimIdentityMap(2, fillCtx)};
      auto fill = linalg::GenericOp::create(
          fb, fl, TypeRange{row.getType()}, ValueRange{zero}, ValueRange{row},
          fillMaps,
          SmallVector<utils::IteratorType>(2, utils::IteratorType::parallel),
          [](OpBuilder &eb, Location el, ValueRange args) {
            linalg::YieldOp::create(eb, el, args[0]);
          });
      fill->setAttr(kRoleAttrName, fb.getStringAttr(kRoleRowFill));
      return fill.getResult(0);
    };
    if (g.batch == 1) {
      if (Value parts =
              lowerByRowParts(b, loc, g, input, buildKt, zeroFillRow))
        return parts;
      return perBand(b, loc, b.getIndexAttr(0), b.getIndexAttr(0),
                     b.getIndexAttr(0), g.inputSpatial[0], out);
    }
    // Batch items are independent (each writes its own output item): an
    // scf.forall, so that threads split the items (GEMM and adds alike).
    // Each item zero-fills its own output slice just before its adds (in
    // parallel, and the slice is in the cache when the adds come) instead
    // of the whole output being zero-filled up front.
    out = tensor::EmptyOp::create(b, loc, outType.getShape(), accType);
    auto forall = scf::ForallOp::create(
        b, loc, ArrayRef<OpFoldResult>{b.getIndexAttr(g.batch)},
        ValueRange{out}, std::nullopt);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(forall.getBody());
    Value iv = forall.getInductionVars()[0];
    Value shared = forall.getRegionIterArgs()[0];
    DimSlice item = extractDimSlice(b, loc, shared, 0, iv, 1);
    // (The fill runs on the item viewed as one contiguous row.)
    SmallVector<ReassociationIndices> itemRow{{0}, {}};
    for (int64_t i = 1; i < rank; ++i)
      itemRow[1].push_back(i);
    Value row = tensor::CollapseShapeOp::create(b, loc, item.value, itemRow);
    Value itemOut = tensor::ExpandShapeOp::create(
        b, loc, item.value.getType(), zeroFillRow(b, loc, row), itemRow);
    Value result;
    if (bandRows > 0) {
      // The bands in order along the first dimension: an output value
      // receives its rows in the same order for any thread count.
      Value zero = arith::ConstantIndexOp::create(b, loc, 0);
      Value ub = arith::ConstantIndexOp::create(b, loc, g.inputSpatial[0]);
      Value step = arith::ConstantIndexOp::create(b, loc, bandRows);
      auto bands = scf::ForOp::create(
          b, loc, zero, ub, step, ValueRange{itemOut},
          [&](OpBuilder &lb, Location ll, Value row, ValueRange iters) {
            scf::YieldOp::create(lb, ll,
                                 perBand(lb, ll, iv, lb.getIndexAttr(0), row,
                                         bandRows, iters[0]));
          });
      result = bands.getResult(0);
    } else {
      result = perBand(b, loc, iv, b.getIndexAttr(0), b.getIndexAttr(0),
                       g.inputSpatial[0], itemOut);
    }
    b.setInsertionPointToStart(forall.getTerminator().getBody());
    tensor::ParallelInsertSliceOp::create(b, loc, result, shared, item.offsets,
                                          item.sizes, item.strides);
    return forall.getResult(0);
  }

  /// Kt [1, Cin, columns] (K transposed) with its columns padded with zeros
  /// to whole vectors (columnsLanes; half as many for f64 accumulators), or
  /// Kt itself when they are whole vectors or the lanes are unknown. The
  /// GEMM then runs over the padded columns and columnsGemm cuts Y back:
  /// the register tiles span all the columns, with as many FMAs as the
  /// whole-vector tiles and the remainder tile had together, but every
  /// row's input value broadcast once for all of them and one tile loop
  /// instead of two. Masknet (512 x 64 -> 1030 x 3, k 7 s 2) in row parts
  /// on 2 threads: 21 columns as 2 vectors of 16 (7 x 32 tiles, 14
  /// accumulators) instead of tiles of 16 and of 5 columns (7 accumulators
  /// each, one embedded-broadcast FMA per accumulator): +16-20 % (conv-run
  /// --compare, 3000 call pairs, Emerald Rapids); AlexNet's deconvolution
  /// (363 columns as 368) +1 / +3 % with 1 / 2 threads; a 5x5 stride-2
  /// layer with 3 output channels (75 as 80) +3 / +10 %; 1-D k5 x 4
  /// channels (20 as 32) within +-2 %. Built where Kt is (once a call, or
  /// once a row part), not per batch item or band.
  Value padColumnsToVectors(OpBuilder &b, Location loc, Value kt) const {
    auto ktType = cast<RankedTensorType>(kt.getType());
    int64_t columns = ktType.getDimSize(2);
    Type accType = getAccumulatorType(ktType.getElementType());
    int64_t lanes = columnsLanes * 32 /
                    std::max<int64_t>(1, accType.getIntOrFloatBitWidth());
    if (lanes <= 1 || columns % lanes == 0)
      return kt;
    int64_t padded = llvm::divideCeil(columns, lanes) * lanes;
    Value zero = arith::ConstantOp::create(
        b, loc, b.getZeroAttr(ktType.getElementType()));
    SmallVector<OpFoldResult> low(3, b.getIndexAttr(0));
    SmallVector<OpFoldResult> high{b.getIndexAttr(0), b.getIndexAttr(0),
                                   b.getIndexAttr(padded - columns)};
    return tensor::PadOp::create(
        b, loc,
        RankedTensorType::get({1, ktType.getDimSize(1), padded},
                              ktType.getElementType()),
        kt, low, high, zero);
  }

  /// The columns lowering's GEMM Y [1, rows, columns] of X [1, rows, Cin]
  /// and Kt [1, Cin, >= columns] (padColumnsToVectors): computed over all of
  /// Kt's columns, then cut back to the first `columns`.
  Value columnsGemm(OpBuilder &b, Location loc, Value x, Value kt,
                    int64_t columns) const {
    int64_t rows = cast<RankedTensorType>(x.getType()).getDimSize(1);
    int64_t ktColumns = cast<RankedTensorType>(kt.getType()).getDimSize(2);
    Type accType = getAccumulatorType(
        cast<RankedTensorType>(x.getType()).getElementType());
    Value y = createZeros(b, loc, {1, rows, ktColumns}, accType);
    y = createTapCorrelation(b, loc, Layout::ChannelsLast, x, kt, y,
                             ArrayRef<int64_t>{1});
    if (ktColumns == columns)
      return y;
    SmallVector<OpFoldResult> zeros(3, b.getIndexAttr(0)),
        ones(3, b.getIndexAttr(1));
    return tensor::ExtractSliceOp::create(
        b, loc, RankedTensorType::get({1, rows, columns}, accType), y, zeros,
        ArrayRef<OpFoldResult>{b.getIndexAttr(1), b.getIndexAttr(rows),
                               b.getIndexAttr(columns)},
        ones);
  }

  /// The row parts of lowerByRowParts for `g` on `threads` threads (the
  /// columns lowering already chosen), or 0: a single 1-D channels-last
  /// batch item, no crop, dilation 1, every tap of every input row in the
  /// output, kernel longer than 1, K transposed rather than X
  /// (!columnsTransposeX), T = threads dividing the R input rows into parts of P rows
  /// with G = ceil(k/s) dividing P, P >= 2G, and R*s <= OW.
  static int64_t rowParts(const convgen::TransposeGeometry &g,
                          int64_t threads) {
    if (threads <= 1 || g.batch != 1 || g.numSpatialDims != 1 ||
        g.layout != Layout::ChannelsLast || g.dilations[0] != 1 ||
        g.cropBefore[0] != 0)
      return 0;
    int64_t R = g.inputSpatial[0], s = g.strides[0], k = g.kernelSpatial[0];
    int64_t OW = g.outSpatial[0];
    if (k <= 1 || columnsTransposeX(g) || R % threads != 0 || R * s > OW)
      return 0;
    for (int64_t m = 0; m < k; ++m) {
      TapRange1D taps = computeTapRange(m, R, s, 1, 0, OW);
      if (taps.lo != 0 || taps.count != R)
        return 0;
    }
    int64_t G = llvm::divideCeil(k, s), P = R / threads;
    if (P % G != 0 || P < 2 * G)
      return 0;
    return threads;
  }

  /// Row parts of the columns lowering (docs/Lowering.md §3.6): a single
  /// 1-D batch item on `threads` > 1 threads, whose every input row j adds
  /// its whole row Y[j] (k*Cout values) to the output from position j*s
  /// (no crop, dilation 1, every tap in the output). Its R input rows are
  /// split into T = threads parts of P rows (T divides R, G = ceil(k/s)
  /// divides P and P >= 2G), one scf.forall iteration each. Part p owns
  /// the output positions [pPs, (p+1)Ps): it computes the GEMM rows
  /// [max(pP - h, 0), +P + h) (h = G - 1 rows before its own reach into
  /// its positions; part 0 computes h rows after its own instead, unused),
  /// zero-fills its positions and adds, round by round (rows j = r mod G,
  /// which do not overlap), the rows that reach them, cut to them: the
  /// halo row pP - G + r (r >= 1, parts p >= 1) from its position pPs on,
  /// the rows pP + r + G*i whole, and the row (p+1)P - G + r (r >= 1) up
  /// to position (p+1)Ps. Every output position thus receives its rows in
  /// the order of their rounds, as with one thread (the serial rounds of
  /// lowerByColumns): the result is the same for any thread count. The
  /// last h rows' values past position Rs (and output_padding's zeros)
  /// are added after the scf.forall from the last part's copy of those
  /// rows (a second shared output, [T, h, k*Cout]).
  ///
  /// One fork and one join per call, and each thread adds the GEMM rows it
  /// computed: the plain lowering split the GEMM's rows over the threads
  /// and then added all rows on one thread (masknet, 512 x 64 -> 1030 x 3
  /// k 7 s 2: slower with 2 threads than with 1, so it ran sequentially).
  /// Returns null when the op does not qualify.
  Value lowerByRowParts(
      OpBuilder &b, Location loc, const convgen::TransposeGeometry &g,
      Value input, llvm::function_ref<Value(OpBuilder &, Location)> buildKt,
      llvm::function_ref<Value(OpBuilder &, Location, Value)> zeroFillRow)
      const {
    int64_t T = rowParts(g, threads);
    if (T <= 1)
      return {};
    int64_t R = g.inputSpatial[0], s = g.strides[0], k = g.kernelSpatial[0];
    int64_t cout = g.outChannels, L = k * cout, OW = g.outSpatial[0];
    int64_t G = llvm::divideCeil(k, s), h = G - 1, P = R / T;
    Type accType = getAccumulatorType(
        cast<RankedTensorType>(input.getType()).getElementType());
    MLIRContext *ctx = b.getContext();
    int64_t rowsPerPart = P + h, tileValues = P * s * cout;

    // Y[local, yLo : yLo + len] added to acc[0, oLo : oLo + len] (acc a
    // [1, X] row of the output), a row add (kRoleRowAdd).
    auto addRow = [&](OpBuilder &ab, Location al, Value y,
                      OpFoldResult local, int64_t yLo, OpFoldResult oLo,
                      int64_t len, Value acc) -> Value {
      // A full-rank slice, then the unit row dimension dropped by a
      // collapse (see lowerByColumns: llvm-project PR 178118).
      Value yFull = tensor::ExtractSliceOp::create(
          ab, al, RankedTensorType::get({1, 1, len}, accType), y,
          ArrayRef<OpFoldResult>{ab.getIndexAttr(0), local,
                                 ab.getIndexAttr(yLo)},
          ArrayRef<OpFoldResult>{ab.getIndexAttr(1), ab.getIndexAttr(1),
                                 ab.getIndexAttr(len)},
          SmallVector<OpFoldResult>(3, ab.getIndexAttr(1)));
      Value yRow = tensor::CollapseShapeOp::create(
          ab, al, RankedTensorType::get({1, len}, accType), yFull,
          ArrayRef<ReassociationIndices>{{0}, {1, 2}});
      SmallVector<OpFoldResult> offsets{ab.getIndexAttr(0), oLo},
          sizes{ab.getIndexAttr(1), ab.getIndexAttr(len)},
          strides(2, ab.getIndexAttr(1));
      Value oRow = tensor::ExtractSliceOp::create(
          ab, al, RankedTensorType::get({1, len}, accType), acc, offsets,
          sizes, strides);
      auto add = createAccumulate(ab, al, yRow, oRow);
      add->setAttr(kRoleAttrName, ab.getStringAttr(kRoleRowAdd));
      return tensor::InsertSliceOp::create(ab, al, add.getResult(0), acc,
                                           offsets, sizes, strides);
    };

    // The output as one row [1, OW*Cout]; the last rows' copies [T, h, L].
    Value merged =
        tensor::EmptyOp::create(b, loc, {1, OW * cout}, accType);
    SmallVector<Value> sharedInits{merged};
    if (h > 0)
      sharedInits.push_back(
          tensor::EmptyOp::create(b, loc, {T, h, L}, accType));
    auto forall = scf::ForallOp::create(
        b, loc, ArrayRef<OpFoldResult>{b.getIndexAttr(T)}, sharedInits,
        std::nullopt);
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(forall.getBody());
      Value p = forall.getInductionVars()[0];
      AffineExpr d0 = b.getAffineDimExpr(0);
      AffineExpr zeroE = getAffineConstantExpr(0, ctx);
      // First GEMM row max(pP - h, 0), and pP minus it: min(pP, h).
      Value base = affine::AffineMaxOp::create(
          b, loc, AffineMap::get(1, 0, {d0 * P - h, zeroE}, ctx),
          ValueRange{p});
      Value shift = affine::AffineMinOp::create(
          b, loc,
          AffineMap::get(1, 0, {d0 * P, getAffineConstantExpr(h, ctx)}, ctx),
          ValueRange{p});
      // The part's GEMM row of input row pP + rel (+ `extra`).
      auto local = [&](OpBuilder &lb, Location ll, int64_t rel,
                       Value extra = {}) -> OpFoldResult {
        AffineExpr e = lb.getAffineDimExpr(0) + rel;
        SmallVector<Value> operands{shift};
        if (extra) {
          e = e + lb.getAffineDimExpr(1);
          operands.push_back(extra);
        }
        return affine::makeComposedFoldedAffineApply(
            lb, ll, AffineMap::get(operands.size(), 0, e, ctx),
            getAsOpFoldResult(operands));
      };
      Value x = extractDimSlice(b, loc, input, 1, base, rowsPerPart).value;
      // Each part transposes the kernel itself: the threads do it at the
      // same time instead of one thread before the fork.
      Value kt = buildKt(b, loc);
      Value y = columnsGemm(b, loc, x, kt, L);

      Value sharedOut = forall.getRegionIterArgs()[0];
      OpFoldResult tileOffset =
          affine::makeComposedFoldedAffineApply(b, loc, d0 * tileValues, {p});
      DimSlice tile =
          extractDimSlice(b, loc, sharedOut, 1, tileOffset, tileValues);
      Value acc = zeroFillRow(b, loc, tile.value);
      Value c0 = arith::ConstantIndexOp::create(b, loc, 0);
      Value notFirst = arith::CmpIOp::create(
          b, loc, arith::CmpIPredicate::ugt, p, c0);
      for (int64_t r = 0; r < G; ++r) {
        if (r >= 1) {
          // The halo row pP - G + r, from position pPs on (parts p >= 1,
          // whose GEMM row r - 1 it is).
          int64_t cut = (G - r) * s * cout;
          auto ifOp = scf::IfOp::create(
              b, loc, notFirst,
              [&](OpBuilder &tb, Location tl) {
                Value sum = addRow(tb, tl, y, tb.getIndexAttr(r - 1), cut,
                                   tb.getIndexAttr(0), L - cut, acc);
                scf::YieldOp::create(tb, tl, sum);
              },
              [&](OpBuilder &eb, Location el) {
                scf::YieldOp::create(eb, el, acc);
              });
          acc = ifOp.getResult(0);
        }
        // The whole rows pP + r + G*i.
        int64_t count = r == 0 ? P / G : P / G - 1;
        Value lb = arith::ConstantIndexOp::create(b, loc, 0);
        Value ub = arith::ConstantIndexOp::create(b, loc, count);
        Value one = arith::ConstantIndexOp::create(b, loc, 1);
        auto loop = scf::ForOp::create(
            b, loc, lb, ub, one, ValueRange{acc},
            [&](OpBuilder &lb2, Location ll, Value i, ValueRange iters) {
              Value rel = affine::AffineApplyOp::create(
                  lb2, ll, AffineMap::get(1, 0, lb2.getAffineDimExpr(0) * G + r,
                                          ctx),
                  ValueRange{i});
              OpFoldResult oLo = affine::makeComposedFoldedAffineApply(
                  lb2, ll, lb2.getAffineDimExpr(0) * (s * cout), {rel});
              OpFoldResult row = local(lb2, ll, 0, rel);
              Value sum = addRow(lb2, ll, y, row, 0, oLo, L, iters[0]);
              scf::YieldOp::create(lb2, ll, sum);
            });
        acc = loop.getResult(0);
        if (r >= 1) {
          // The row (p+1)P - G + r, up to position (p+1)Ps.
          int64_t rel = P - G + r, len = (G - r) * s * cout;
          acc = addRow(b, loc, y, local(b, loc, rel), 0,
                       b.getIndexAttr(rel * s * cout), len, acc);
        }
      }
      b.setInsertionPointToStart(forall.getTerminator().getBody());
      tensor::ParallelInsertSliceOp::create(b, loc, acc, sharedOut,
                                            tile.offsets, tile.sizes,
                                            tile.strides);
      if (h > 0) {
        // The part's last h rows (pP + P - h...) for the adds past Rs.
        OpBuilder::InsertionGuard g3(b);
        b.setInsertionPoint(forall.getTerminator());
        OpFoldResult first = local(b, loc, P - h);
        Value last = tensor::ExtractSliceOp::create(
            b, loc, RankedTensorType::get({1, h, L}, accType), y,
            ArrayRef<OpFoldResult>{b.getIndexAttr(0), first,
                                   b.getIndexAttr(0)},
            ArrayRef<OpFoldResult>{b.getIndexAttr(1), b.getIndexAttr(h),
                                   b.getIndexAttr(L)},
            SmallVector<OpFoldResult>(3, b.getIndexAttr(1)));
        b.setInsertionPointToEnd(forall.getTerminator().getBody());
        tensor::ParallelInsertSliceOp::create(
            b, loc, last, forall.getRegionIterArgs()[1],
            ArrayRef<OpFoldResult>{p, b.getIndexAttr(0), b.getIndexAttr(0)},
            ArrayRef<OpFoldResult>{b.getIndexAttr(1), b.getIndexAttr(h),
                                   b.getIndexAttr(L)},
            SmallVector<OpFoldResult>(3, b.getIndexAttr(1)));
      }
    }
    Value result = forall.getResult(0);
    int64_t tailStart = R * s * cout, tailValues = OW * cout - tailStart;
    if (tailValues > 0) {
      // Positions [Rs, OW): zeros, then the last h rows' values past Rs,
      // row R - G + u in round u (the only rows that reach them).
      DimSlice region = extractDimSlice(b, loc, result, 1,
                                        b.getIndexAttr(tailStart), tailValues);
      Value acc = zeroFillRow(b, loc, region.value);
      Value lastRows;
      if (h > 0) // (else no second shared output: no rows reach past Rs)
        lastRows = tensor::ExtractSliceOp::create(
            b, loc, RankedTensorType::get({1, h, L}, accType),
            forall.getResult(1),
            ArrayRef<OpFoldResult>{b.getIndexAttr(T - 1), b.getIndexAttr(0),
                                   b.getIndexAttr(0)},
            ArrayRef<OpFoldResult>{b.getIndexAttr(1), b.getIndexAttr(h),
                                   b.getIndexAttr(L)},
            SmallVector<OpFoldResult>(3, b.getIndexAttr(1)));
      for (int64_t u = 1; u <= h; ++u) {
        int64_t cut = (G - u) * s * cout;
        acc = addRow(b, loc, lastRows, b.getIndexAttr(u - 1), cut,
                     b.getIndexAttr(0), L - cut, acc);
      }
      result = tensor::InsertSliceOp::create(b, loc, acc, result,
                                             region.offsets, region.sizes,
                                             region.strides);
    }
    return tensor::ExpandShapeOp::create(
        b, loc, RankedTensorType::get({1, OW, cout}, accType), result,
        ArrayRef<ReassociationIndices>{{0}, {1, 2}});
  }

  /// Whether a phase with `taps` taps, dilation `dilation` and `outputs`
  /// outputs along its last spatial dimension can compute that dimension
  /// with Winograd's F(2, T) (createWinogradCorrelation; option
  /// transpose-winograd): 2 or 3 taps without dilation, at least 4 outputs
  /// (2 pairs), channels last with f32 operands and at least 16 input and
  /// output channels. It does when its op does too (winogradOp).
  bool winogradPhase(const convgen::TransposeGeometry &g, Type inputType,
                     Type accType, int64_t taps, int64_t dilation,
                     int64_t outputs) const {
    constexpr int64_t kMinChannels = 16, kMinOutputs = 4;
    return winograd != TransposeWinograd::Off &&
           g.layout == Layout::ChannelsLast && inputType.isF32() &&
           accType.isF32() && winogradSupportsTaps(taps) && dilation == 1 &&
           outputs >= kMinOutputs && g.inChannels >= kMinChannels &&
           g.outChannels >= kMinChannels;
  }
  /// The products of the op that Winograd phases leave out must be at
  /// least this fraction of all its phases' products: Keras' 3x3 stride-2
  /// layers, whose phases of 2 taps along the last dimension hold 2/3 of
  /// the products, would save 1/6 and ran 4-8 % slower with 2 threads.
  static constexpr double kMinWinogradSavings = 0.2;
  /// TransposeWinograd::Auto takes ops with at most this many Winograd
  /// phases, and more only up to kMaxAutoWinogradPhases, with at least
  /// winogradManyPhaseOutChannels output channels (TransposeLoweringOptions;
  /// 128 by default, below). Each phase adds 25-90 ms
  /// to a first-call compile (Zen 4, 1 and 2 threads, 3 fresh processes,
  /// against the direct phases): Keras' 3x3 stride-2 dilated layer and
  /// AlexNet's stride-1 3x3 one (1 phase) 65-91 -> 125-216 ms; DCGAN's 4x4
  /// stride-2 layers (4 phases) 101-198 -> 192-294 ms and Keras' 5x5
  /// stride-2 one (4) 157-216 -> 224-285 ms, now that phases reading the
  /// same columns share their input transform, a phase's tap transform is
  /// one parallel region, and the phases' loop nests compile on two threads
  /// (ObjectCode.h; 262-523 ms before).
  static constexpr int64_t kMaxAutoFewWinogradPhases = 2;
  static constexpr int64_t kMaxAutoWinogradPhases = 4;
  /// Four phases of products of 64 output channels each (DCGAN's 4x4
  /// stride-2 128 -> 64 layer) ran 2 % slower to 18 % faster than the
  /// direct phases with 2 threads in repeated pairings (conv-run --compare,
  /// 12-16 pairs), 15-18 % faster with 1: each transformed input element
  /// they load feeds 2 * C_out FLOPs, and the transforms' extra memory
  /// traffic (the block's stacks of inputs and products, per phase) then
  /// competes for the memory two cores share. (Taking them on one thread
  /// only would give different roundings with 1 and 2 threads, which the
  /// phases of every transposed convolution avoid: Differential's 1- and
  /// 2-thread results are bit-identical.) With 128 output channels (256 ->
  /// 128 and Keras' 5x5 layer) they ran 9-21 % faster with both thread
  /// counts. (Cores with two 512-bit FMA units take 64: the CPU pipeline.)
  /// Whether the op's Winograd phases (winogradPhase along the last
  /// dimension) run as such: they save at least kMinWinogradSavings of the
  /// phases' products (sum over phases of prod_d outputs_d * taps_d; each
  /// saves 1 - (T + 1) / (2 T) of its own), and with
  /// TransposeWinograd::Auto their number (combinations of one phase per
  /// dimension) is within kMaxAutoFewWinogradPhases or, with enough output
  /// channels, kMaxAutoWinogradPhases.
  bool winogradOp(const convgen::TransposeGeometry &g, Type inputType,
                  Type accType) const {
    int64_t n = g.numSpatialDims, combos = 1, phases = 0;
    // The products factor over the dimensions: the other dimensions'
    // sums times the last one's, of which the Winograd phases save `saved`.
    double others = 1, last = 0, saved = 0;
    for (int64_t d = 0; d < n; ++d) {
      double sum = 0;
      int64_t count = 0;
      for (int64_t r = 0; r < g.strides[d]; ++r) {
        Phase1D p =
            computePhase(r, g.inputSpatial[d], g.kernelSpatial[d], g.strides[d],
                         g.dilations[d], g.cropBefore[d], g.outSpatial[d]);
        if (p.numTaps == 0 || p.outCount == 0)
          continue;
        double products = double(p.outCount) * double(p.numTaps);
        sum += products;
        ++count;
        if (d == n - 1 && winogradPhase(g, inputType, accType, p.numTaps,
                                        p.dilation, p.outCount)) {
          saved +=
              products * (1.0 - double(p.numTaps + 1) / double(2 * p.numTaps));
          ++phases;
        }
      }
      if (d + 1 < n) {
        others *= sum;
        combos *= count;
      } else {
        last = sum;
      }
    }
    if (others == 0 || last == 0 || saved < kMinWinogradSavings * last)
      return false;
    if (winograd == TransposeWinograd::On)
      return true;
    int64_t count = combos * phases;
    return count <= kMaxAutoFewWinogradPhases ||
           (count <= kMaxAutoWinogradPhases &&
            g.outChannels >= winogradManyPhaseOutChannels);
  }

  /// Batch items per block (lowerByBatchBlocks) for a transposed
  /// convolution with Winograd phases (winogradOp), or 0: blocks of 4
  /// items (the register tiles of the Winograd products run along them)
  /// that split over the threads, so that each block's transformed input
  /// and products stay cached between the transforms and the
  /// correlations.
  int64_t winogradBlockItems(const convgen::TransposeGeometry &g,
                             Type inputType, Type accType) const {
    constexpr int64_t kItems = 4;
    if (!winogradOp(g, inputType, accType) || g.batch % kItems != 0 ||
        !blocksSplitOverThreads(g.batch / kItems, threads))
      return 0;
    return kItems;
  }

  /// The kernel's elements: Cin x Cout x the taps.
  static int64_t kernelElements(const convgen::TransposeGeometry &g) {
    int64_t elements = g.inChannels * g.outChannels;
    for (int64_t d = 0; d < g.numSpatialDims; ++d)
      elements *= g.kernelSpatial[d];
    return elements;
  }

  /// Whether the phase lowering relays its taps out with vectorized
  /// linalg.transpose relayouts (relayoutReversedTaps) instead of
  /// gatherKernelTaps' generic copy: channels last with more than 4 output
  /// channels (createCorrelation's tap-correlation path) and a kernel of at
  /// least 64K elements (256 KiB of f32), several phases of several taps
  /// included. Their copy ran on one thread before the phases while the
  /// other threads waited; with first compiles now near 100 ms the
  /// transposes' larger LLVM IR costs 10-15 ms for Keras' 3x3 stride-2
  /// layers (73K elements: kv1, kv2), and conv-run --compare (100 call
  /// pairs, Emerald Rapids) measured them +1 / +2 % with 1 / 2 threads.
  static bool relayoutPhaseTaps(const convgen::TransposeGeometry &g) {
    constexpr int64_t kMinKernelElements = 64 * 1024;
    return g.layout == Layout::ChannelsLast && g.outChannels > kMaxLanesCout &&
           kernelElements(g) >= kMinKernelElements;
  }

  /// Whether the per-tap lowering relays its taps out the same way, and
  /// the batch- and input-block lowerings count the kernel as relaid out:
  /// relayoutPhaseTaps' kernels of at least 256K elements (1 MiB of f32),
  /// or of fewer whose taps are relaid out by few transposes: all in one
  /// phase (a dilation that is a multiple of the stride), or one tap a
  /// phase (a kernel no larger than the stride). The scalar copy of a
  /// smaller kernel runs on one thread before the phases: Keras' 3x3
  /// stride-2 dilation-2 layer (147K elements, one phase; batch blocks then
  /// apply) +7-19 / +1-4 % with 2 / 1 threads with the relayout, U-Net's
  /// 2x2 stride-2 100x100x256 -> 128 (131K, one tap a phase; input blocks
  /// then apply) +10-13 / +10 %, compiles +13-15 ms. But with several
  /// phases of several taps each phase's 8x8 transposes and their peeled
  /// remainders grow the LLVM IR by a third (Keras 3x3 stride-2 layer,
  /// 73K-element kernel: compile 325 -> 365 ms; again 102 -> 125-146 ms on
  /// the Zen 4 host, for +1-3 %), so those keep the copy here (the phase
  /// lowering relays them out all the same since stop 64).
  static bool preferRelayout(const convgen::TransposeGeometry &g) {
    constexpr int64_t kMinKernelElements = 256 * 1024;
    if (!relayoutPhaseTaps(g))
      return false;
    if (kernelElements(g) >= kMinKernelElements)
      return true;
    // The phases (stride residues) the taps of each dimension land on.
    bool onePhase = true, oneTapAPhase = true;
    for (int64_t d = 0; d < g.numSpatialDims; ++d) {
      llvm::SmallDenseSet<int64_t> residues;
      for (int64_t k = 0; k < g.kernelSpatial[d]; ++k)
        residues.insert(k * g.dilations[d] % g.strides[d]);
      int64_t phases = static_cast<int64_t>(residues.size());
      onePhase &= phases == 1;
      oneTapAPhase &= phases == g.kernelSpatial[d];
    }
    return onePhase || oneTapAPhase;
  }

  /// A single input position per spatial dimension (a GAN generator's
  /// first layer: 1x1 input): every tap that lands writes its own output
  /// position, so the taps are independent. They become one scf.forall
  /// (threads take whole taps: one fork instead of one per tap, and each
  /// tap's relayout and correlation run on one thread), each tap writing
  /// its [N, 1..., Cout] output slice with a parallel_insert_slice. The
  /// result does not depend on the thread count (each output position sums
  /// one tap). Returns a null value when the taps do not form one box of
  /// single-position segments.
  Value lowerDisjointTaps(PatternRewriter &b, Location loc,
                          const convgen::TransposeGeometry &g,
                          ArrayRef<SmallVector<TapSegment>> segments,
                          Value input, Value kernel, Value out) const {
    int64_t n = g.numSpatialDims;
    SmallVector<int64_t> ones(n, 1), zeros(n, 0), mBegin, counts;
    for (int64_t d = 0; d < n; ++d) {
      if (g.inputSpatial[d] != 1 || segments[d].size() != 1 ||
          segments[d][0].range.lo != 0 || segments[d][0].range.count != 1)
        return {};
      mBegin.push_back(segments[d][0].mBegin);
      counts.push_back(segments[d][0].mEnd - segments[d][0].mBegin);
    }
    auto outType = cast<RankedTensorType>(out.getType());
    // When the taps cover every output position (valid), the output needs
    // no zero fill of its own: each tap zero-fills its slice, inside its
    // forall iteration (in parallel, and just before its correlation).
    int64_t taps = 1, positions = 1;
    for (int64_t d = 0; d < n; ++d) {
      taps *= counts[d];
      positions *= g.outSpatial[d];
    }
    bool covered = taps == positions;
    if (covered)
      out = tensor::EmptyOp::create(b, loc, outType.getShape(),
                                    outType.getElementType());
    OpBuilder::InsertionGuard guard(b);
    auto forall = createBoxForall(b, loc, counts, out);
    SmallVector<OpFoldResult> m;
    for (int64_t d = 0; d < n; ++d)
      m.push_back(affine::makeComposedFoldedAffineApply(
          b, loc, b.getAffineDimExpr(0) + mBegin[d],
          {OpFoldResult(forall.getInductionVars()[d])}));
    Value shared = forall.getRegionIterArgs()[0];
    SpatialSlice o = tapOutputSlice(b, loc, g, outType, b.getIndexAttr(0),
                                    g.batch, zeros, ones, m);
    Value init = tensor::ExtractSliceOp::create(
        b, loc, outType.clone(o.shape), shared, o.offsets, o.sizes, o.strides);
    if (covered) {
      Value zero = arith::ConstantOp::create(
          b, loc, b.getZeroAttr(outType.getElementType()));
      init = linalg::FillOp::create(b, loc, zero, init).getResult(0);
    }
    Value filter = relayoutReversedTaps(b, loc, kernel, m, ones, ones);
    Value sum =
        createTapCorrelation(b, loc, g.layout, input, filter, init, ones);
    b.setInsertionPointToStart(forall.getTerminator().getBody());
    tensor::ParallelInsertSliceOp::create(b, loc, sum, shared, o.offsets,
                                          o.sizes, o.strides);
    return forall.getResult(0);
  }

  /// One dense contraction per kernel tap m: the input rows that land in
  /// the output, times K[m], accumulated into the output's strided slice
  /// q = j*s + m*d - crop. No padding, no product with a zero; taps run one
  /// after the other (their slices overlap). Consecutive taps of a dimension
  /// with the same input rows form a segment; each box of segments is one
  /// contraction inside an scf.for nest over its taps (static shapes, the
  /// tap only moves the output and kernel offsets), so the IR grows with the
  /// number of boxes (at most 3 per dimension), not with the taps.
  Value lowerByTaps(PatternRewriter &b, Location loc, TransposeOp op,
                    const convgen::TransposeGeometry &g, Value out) const {
    int64_t n = g.numSpatialDims;
    SmallVector<SmallVector<TapSegment>> segments = tapSegments(g);

    Value input = op.getInputs(), kernel = op.getKernel();
    auto inType = cast<RankedTensorType>(input.getType());
    auto kType = cast<RankedTensorType>(kernel.getType());
    auto outType = cast<RankedTensorType>(out.getType());
    int64_t rank = n + 2;
    SmallVector<int64_t> ones(n, 1), zeros(n, 0);
    // createCorrelation's tap correlation on a vectorized relayout of the
    // tap (preferRelayout).
    bool relayout = preferRelayout(g);
    if (relayout)
      if (Value disjoint =
              lowerDisjointTaps(b, loc, g, segments, input, kernel, out))
        return disjoint;
    SmallVector<SmallVector<TapRun>> runs = tapRuns(g);
    // When every spatial dimension has a run of taps whose output rows
    // partition the output (each output row gets exactly one of its taps:
    // DCGAN's 4x4 stride-2 SAME taps 1 and 2), the box of those runs writes
    // every output position exactly once. It goes first, each of its taps
    // starting from a zero fill of its output slice (fused into the
    // register tiles, which then start from zero instead of loading their
    // accumulators), and the output needs no zero fill of its own. (`out`
    // is a zero fill, of the whole output or of a slice: its destination
    // then takes the fill's place.)
    auto zeroFill = out.getDefiningOp<linalg::FillOp>();
    bool covering =
        zeroFill && matchPattern(zeroFill.getDpsInputs()[0], m_AnyZeroFloat());
    for (int64_t d = 0; d < n && covering; ++d) {
      auto partitions = [&](const TapRun &run) {
        SmallVector<bool> hit(g.outSpatial[d], false);
        for (int64_t t = 0; t < run.length; ++t) {
          int64_t m = run.mBegin + t * run.mStep;
          int64_t lo = run.lo + t * run.loStep;
          for (int64_t j = lo; j < lo + run.count; ++j) {
            int64_t q = j * g.strides[d] + m * g.dilations[d] - g.cropBefore[d];
            if (q < 0 || q >= g.outSpatial[d] || hit[q])
              return false;
            hit[q] = true;
          }
        }
        return llvm::all_of(hit, [](bool h) { return h; });
      };
      auto *it = llvm::find_if(runs[d], partitions);
      if (it == runs[d].end()) {
        covering = false;
        break;
      }
      std::rotate(runs[d].begin(), it, it + 1);
    }
    if (covering)
      out = zeroFill.getDpsInits()[0];
    // The first box's taps (every loop variable at its run's start): the
    // covering box is the first box of forEachTapRunBox.
    bool firstBox = covering;
    // One contraction per box of tap runs, in a loop nest over its taps:
    // the input rows' offsets, the tap and the output slice's offsets
    // move with the loop variables, the shapes are the box's.
    auto body = [&](OpBuilder &nb, Location nl, ArrayRef<OpFoldResult> inOffset,
                    ArrayRef<int64_t> count, ArrayRef<OpFoldResult> m,
                    Value acc) -> Value {
      SpatialSlice view =
          spatialSlice(nb, inType, g.layout, inOffset, count, ones);
      Value window = tensor::ExtractSliceOp::create(
          nb, nl, inType.clone(view.shape), input, view.offsets, view.sizes,
          view.strides);
      SpatialSlice o = tapOutputSlice(nb, nl, g, outType, nb.getIndexAttr(0),
                                      g.batch, inOffset, count, m);
      Value init = tensor::ExtractSliceOp::create(
          nb, nl, outType.clone(o.shape), acc, o.offsets, o.sizes, o.strides);
      if (firstBox) {
        Value zero = arith::ConstantOp::create(
            nb, nl, nb.getZeroAttr(outType.getElementType()));
        init = linalg::FillOp::create(nb, nl, zero, init).getResult(0);
        firstBox = false;
      }
      if (relayout) {
        Value filter = relayoutReversedTaps(nb, nl, kernel, m, ones, ones);
        Value sum =
            createTapCorrelation(nb, nl, g.layout, window, filter, init, ones);
        return tensor::InsertSliceOp::create(nb, nl, sum, acc, o.offsets,
                                             o.sizes, o.strides);
      }
      // K[m] as [1.., Cout, Cin], then in the contraction's layout.
      SmallVector<OpFoldResult> kOffsets(m), kSizes(n, nb.getIndexAttr(1)),
          kStrides(rank, nb.getIndexAttr(1));
      kOffsets.append({nb.getIndexAttr(0), nb.getIndexAttr(0)});
      kSizes.append(
          {nb.getIndexAttr(g.outChannels), nb.getIndexAttr(g.inChannels)});
      SmallVector<int64_t> kShape(n, 1);
      kShape.append({g.outChannels, g.inChannels});
      Value kTap = tensor::ExtractSliceOp::create(
          nb, nl, kType.clone(kShape), kernel, kOffsets, kSizes, kStrides);
      // (The taps are gathered reversed with count 1: that keeps the tap
      // index out of a plain dimension expression, so linalg sizes the
      // loop from the result.)
      Value sum = createCorrelation(nb, nl, g.layout, window, kTap, zeros, ones,
                                    ones, init, ones);
      return tensor::InsertSliceOp::create(nb, nl, sum, acc, o.offsets, o.sizes,
                                           o.strides);
    };
    return forEachTapRunBox(b, loc, runs, out, body);
  }

  /// `laidOut`: when set, the whole kernel relaid out by
  /// relayoutReversedTaps (all taps, reversed), of which each phase reads
  /// its taps as a strided slice instead of relaying them out itself (the
  /// batch blocks: once for all blocks). `out` is zeros (a linalg.fill),
  /// whose destination the phases write into when they partition it.
  /// `hoistBefore` (a batch block's scf.forall): where the Winograd
  /// filter transforms go, which depend on the kernel only.
  Value lowerByPhases(PatternRewriter &b, Location loc, TransposeOp op,
                      const convgen::TransposeGeometry &g, Value out,
                      Value laidOut = {},
                      Operation *hoistBefore = nullptr) const {
    int64_t n = g.numSpatialDims;
    Type accType = cast<RankedTensorType>(out.getType()).getElementType();
    SmallVector<SmallVector<Phase1D>> phases(n);
    for (int64_t d = 0; d < n; ++d)
      for (int64_t r = 0; r < g.strides[d]; ++r)
        phases[d].push_back(computePhase(r, g.inputSpatial[d],
                                         g.kernelSpatial[d], g.strides[d],
                                         g.dilations[d], g.cropBefore[d],
                                         g.outSpatial[d]));
    // One zero-padded copy of the input covers every phase's window; each
    // phase then reads a slice of it (a view, no copy). A Winograd phase
    // with an odd output count along the last dimension reads one more
    // column (a zero).
    Type inputType = op.getInputs().getType().getElementType();
    bool winogradOk = winogradOp(g, inputType, accType);
    auto winogradLast = [&](int64_t taps, int64_t dilation, int64_t outputs) {
      return winogradOk &&
             winogradPhase(g, inputType, accType, taps, dilation, outputs);
    };
    SmallVector<int64_t> unionStart(n), unionSize(n);
    for (int64_t d = 0; d < n; ++d) {
      int64_t lo = std::numeric_limits<int64_t>::max();
      int64_t hi = std::numeric_limits<int64_t>::min();
      for (const Phase1D &p : phases[d]) {
        if (p.numTaps == 0 || p.outCount == 0)
          continue;
        lo = std::min(lo, p.windowStart);
        hi = std::max(
            hi, p.windowStart + p.windowSize +
                    (d == n - 1 && p.outCount % 2 == 1 &&
                             winogradLast(p.numTaps, p.dilation, p.outCount)
                         ? 1
                         : 0));
      }
      unionStart[d] = lo <= hi ? lo : 0;
      unionSize[d] = lo <= hi ? hi - lo : 0;
    }
    Value padded = extractZeroPaddedWindow(b, loc, op.getInputs(), g.layout,
                                           unionStart, unionSize);
    auto paddedType = cast<RankedTensorType>(padded.getType());
    SmallVector<int64_t> ones(n, 1);

    // Consecutive phases of a dimension that differ only by where their
    // taps start and where their outputs land (both moving by one per
    // phase; e.g. every phase of a kernel that is a multiple of the stride,
    // with no crop wrap-around) form a segment: one contraction in an
    // scf.for over them, so the IR grows with the segments, not with
    // prod(strides) (a 1-D kernel of 1024 taps with stride 256 is one loop
    // of 256 phases).
    struct Segment {
      int64_t rBegin, rEnd;
    };
    SmallVector<SmallVector<Segment>> segments(n);
    for (int64_t d = 0; d < n; ++d)
      for (int64_t r = 0; r < g.strides[d]; ++r) {
        auto &segs = segments[d];
        if (!segs.empty()) {
          const Phase1D &first = phases[d][segs.back().rBegin];
          const Phase1D &p = phases[d][r];
          int64_t delta = r - segs.back().rBegin;
          bool nonEmpty = p.numTaps > 0 && p.outCount > 0 &&
                          first.numTaps > 0 && first.outCount > 0;
          if (segs.back().rEnd == r && nonEmpty &&
              p.numTaps == first.numTaps && p.tapStep == first.tapStep &&
              p.dilation == first.dilation &&
              p.windowStart == first.windowStart &&
              p.windowSize == first.windowSize &&
              p.outCount == first.outCount &&
              p.outOffset == first.outOffset + delta &&
              p.tapOffset == first.tapOffset + delta) {
            segs.back().rEnd = r + 1;
            continue;
          }
        }
        segs.push_back({r, r + 1});
      }

    // When the phases partition the output (every output position belongs
    // to a phase with taps: a kernel at least as long as the stride), every
    // output is written by exactly one phase correlation. The output then
    // needs no zero fill of its own: each phase starts from a zero fill of
    // its slice, which the tiling fuses into its tiles, so the correlation
    // does not read its accumulators back from memory.
    bool partitioned = true;
    for (int64_t d = 0; d < n; ++d) {
      int64_t covered = 0;
      for (const Phase1D &p : phases[d])
        if (p.numTaps > 0)
          covered += p.outCount;
      partitioned &= covered == g.outSpatial[d];
    }
    // (A fill of a batch block's slice of the output: that slice.)
    if (partitioned) {
      auto fill = out.getDefiningOp<linalg::FillOp>();
      if (fill && !fill.getDpsInits()[0].getDefiningOp<tensor::EmptyOp>())
        out = fill.getDpsInits()[0];
      else
        out = tensor::EmptyOp::create(
            b, loc, cast<RankedTensorType>(out.getType()).getShape(), accType);
    }

    Value kernel = op.getKernel();
    auto kType = cast<RankedTensorType>(kernel.getType());
    auto outType = cast<RankedTensorType>(out.getType());
    int64_t rank = n + 2;
    // createCorrelation's tap correlation on a vectorized relayout of the
    // phase's taps (relayoutPhaseTaps).
    bool relayout = laidOut || relayoutPhaseTaps(g);
    // The Winograd input stacks (createWinogradInput) built so far, by the
    // columns they transform (first column, column count, taps): phases
    // that read the same columns of `padded` share one stack over all its
    // rows (e.g. the two phases along the first dimension of a 2-D stride-2
    // layer, whose windows differ by their rows only).
    std::map<std::array<int64_t, 3>, Value> winogradInputs;
    // Iterate over the cartesian product of per-dimension segments.
    SmallVector<int64_t> idx(n, 0);
    while (true) {
      bool empty = false;
      SmallVector<int64_t> start, size, tapOffset, tapStep, numTaps, dil,
          outOffset, outCount, loopDims;
      for (int64_t d = 0; d < n; ++d) {
        const Segment &seg = segments[d][idx[d]];
        const Phase1D &p = phases[d][seg.rBegin];
        empty |= p.numTaps == 0 || p.outCount == 0;
        start.push_back(p.windowStart);
        size.push_back(p.windowSize);
        tapOffset.push_back(p.tapOffset);
        tapStep.push_back(p.tapStep);
        numTaps.push_back(p.numTaps);
        dil.push_back(p.dilation);
        outOffset.push_back(p.outOffset);
        outCount.push_back(p.outCount);
        if (seg.rEnd - seg.rBegin > 1)
          loopDims.push_back(d);
      }
      if (!empty) {
        SmallVector<int64_t> offset(n);
        for (int64_t d = 0; d < n; ++d)
          offset[d] = start[d] - unionStart[d];
        // [lo, hi, dilation] per dimension: the window rows that are input
        // rows (start + row in [0, in)); empty when no tap reads padding.
        SmallVector<int64_t> validRows;
        bool readsPadding = false;
        for (int64_t d = 0; d < n; ++d) {
          int64_t lo = std::clamp<int64_t>(-start[d], 0, size[d]);
          int64_t hi =
              std::clamp<int64_t>(g.inputSpatial[d] - start[d], lo, size[d]);
          readsPadding |= lo > 0 || hi < size[d];
          validRows.append({lo, hi, dil[d]});
        }
        if (!readsPadding)
          validRows.clear();
        SpatialSlice view =
            spatialSlice(b, paddedType, g.layout, offset, size, ones);
        Value window = tensor::ExtractSliceOp::create(
            b, loc, paddedType.clone(view.shape), padded, view.offsets,
            view.sizes, view.strides);
        // One phase; `delta[d]` (a loop variable or 0) is its distance from
        // the segment's first phase.
        SmallVector<int64_t> zeroBegin(n, 0), deltaEnd;
        for (int64_t d = 0; d < n; ++d)
          deltaEnd.push_back(segments[d][idx[d]].rEnd -
                             segments[d][idx[d]].rBegin);
        auto body = [&](OpBuilder &nb, Location nl,
                        ArrayRef<OpFoldResult> delta, Value acc) -> Value {
          // The first tap of the phase: tapOffset (+ delta along the
          // segment's moving dimensions).
          SmallVector<OpFoldResult> firstTap;
          for (int64_t d = 0; d < n; ++d)
            firstTap.push_back(nb.getIndexAttr(tapOffset[d]));
          for (int64_t d : loopDims)
            firstTap[d] = affine::makeComposedFoldedAffineApply(
                nb, nl, nb.getAffineDimExpr(0) + tapOffset[d], {delta[d]});
          Value src = kernel;
          SmallVector<int64_t> gatherOffset(tapOffset), gatherStep(tapStep);
          if (!loopDims.empty() && !relayout) {
            // The taps of the moving dimensions start at tapOffset + delta:
            // a strided slice of the kernel holds exactly them.
            SmallVector<OpFoldResult> kOffsets(rank, nb.getIndexAttr(0)),
                kSizes, kStrides(rank, nb.getIndexAttr(1));
            SmallVector<int64_t> kShape(kType.getShape());
            for (int64_t i = 0; i < rank; ++i)
              kSizes.push_back(nb.getIndexAttr(kShape[i]));
            for (int64_t d : loopDims) {
              AffineExpr e = nb.getAffineDimExpr(0) + tapOffset[d];
              kOffsets[d] = affine::makeComposedFoldedAffineApply(
                  nb, nl, e, {delta[d]});
              kShape[d] = numTaps[d];
              kSizes[d] = nb.getIndexAttr(numTaps[d]);
              kStrides[d] = nb.getIndexAttr(tapStep[d]);
              gatherOffset[d] = 0;
              gatherStep[d] = 1;
            }
            src = tensor::ExtractSliceOp::create(nb, nl, kType.clone(kShape),
                                                 kernel, kOffsets, kSizes,
                                                 kStrides);
          }
          // The phase accumulates straight into its strided output slice.
          SpatialSlice slice = spatialSlice(nb, outType, g.layout, outOffset,
                                            outCount, g.strides);
          for (int64_t d : loopDims) {
            AffineExpr e = nb.getAffineDimExpr(0) + outOffset[d];
            slice.offsets[spatialDim(g.layout, d)] =
                affine::makeComposedFoldedAffineApply(
                    nb, nl, e, {delta[d]});
          }
          if (loopDims.empty() &&
              winogradLast(numTaps[n - 1], dil[n - 1], outCount[n - 1])) {
            // The input stack of the window's columns (with the column of
            // an odd output count's last pair) over all rows of `padded`,
            // shared with the phases that read the same columns; this
            // phase's rows of it.
            int64_t columns = size[n - 1] + outCount[n - 1] % 2;
            int64_t pairs = (outCount[n - 1] + 1) / 2;
            std::array<int64_t, 3> key{offset[n - 1], columns, numTaps[n - 1]};
            auto cached = winogradInputs.find(key);
            Value dAll =
                cached != winogradInputs.end() ? cached->second : Value();
            if (!dAll || dAll.getParentBlock() != nb.getInsertionBlock()) {
              SmallVector<int64_t> allOffset(n, 0), allSize;
              for (int64_t d = 0; d < n; ++d)
                allSize.push_back(
                    paddedType.getDimSize(spatialDim(g.layout, d)));
              allOffset[n - 1] = offset[n - 1];
              allSize[n - 1] = columns;
              SpatialSlice allView = spatialSlice(nb, paddedType, g.layout,
                                                  allOffset, allSize, ones);
              Value columnsWindow = tensor::ExtractSliceOp::create(
                  nb, nl, paddedType.clone(allView.shape), padded,
                  allView.offsets, allView.sizes, allView.strides);
              dAll = createWinogradInput(nb, nl, columnsWindow, numTaps[n - 1],
                                         pairs);
              winogradInputs[key] = dAll;
            }
            auto dAllType = cast<RankedTensorType>(dAll.getType());
            SmallVector<int64_t> dShape(dAllType.getShape());
            SmallVector<OpFoldResult> dOffsets(dShape.size(),
                                               nb.getIndexAttr(0)),
                dSizes, dStrides(dShape.size(), nb.getIndexAttr(1));
            for (int64_t d = 0; d + 1 < n; ++d) {
              // [T + 1, B, spatial..., C]: channels last.
              dOffsets[2 + d] = nb.getIndexAttr(offset[d]);
              dShape[2 + d] = size[d];
            }
            for (int64_t s : dShape)
              dSizes.push_back(nb.getIndexAttr(s));
            Value dStack = tensor::ExtractSliceOp::create(
                nb, nl, dAllType.clone(dShape), dAll, dOffsets, dSizes,
                dStrides);
            Value uStack;
            {
              OpBuilder::InsertionGuard guard(nb);
              if (hoistBefore)
                nb.setInsertionPoint(hoistBefore);
              Value filter =
                  relayout ? (laidOut ? laidOutTaps(nb, nl, laidOut, g,
                                                    firstTap, tapStep, numTaps)
                                      : relayoutReversedTaps(nb, nl, kernel,
                                                             firstTap, tapStep,
                                                             numTaps))
                           : gatherKernelTaps(nb, nl, src, g.layout,
                                              gatherOffset, gatherStep, numTaps,
                                              /*reverse=*/true);
              Operation *parent = nb.getInsertionBlock()->getParentOp();
              bool nested = isa<scf::ForallOp>(parent) ||
                            parent->getParentOfType<scf::ForallOp>();
              uStack =
                  createWinogradFilter(nb, nl, filter, nested ? 1 : threads);
            }
            // The phase writes its outputs straight into `acc` (no slice
            // of a slice: composed, those read the whole output again).
            SmallVector<int64_t> outStrides(rank, 1);
            for (int64_t d = 0; d < n; ++d)
              outStrides[spatialDim(g.layout, d)] = g.strides[d];
            return createWinogradCorrelation(nb, nl, dStack, uStack, acc,
                                             slice.offsets, slice.shape,
                                             outStrides, dil, validRows);
          }
          Value init = tensor::ExtractSliceOp::create(
              nb, nl, outType.clone(slice.shape), acc, slice.offsets,
              slice.sizes, slice.strides);
          if (partitioned) {
            Value zero =
                arith::ConstantOp::create(nb, nl, nb.getZeroAttr(accType));
            init = linalg::FillOp::create(nb, nl, zero, init).getResult(0);
          }
          Value phase =
              relayout
                  ? createTapCorrelation(
                        nb, nl, g.layout, window,
                        laidOut ? laidOutTaps(nb, nl, laidOut, g, firstTap,
                                              tapStep, numTaps)
                                : relayoutReversedTaps(nb, nl, kernel, firstTap,
                                                       tapStep, numTaps),
                        init, dil)
                  : createCorrelation(nb, nl, g.layout, window, src,
                                      gatherOffset, gatherStep, numTaps, init,
                                      dil);
          // The window rows that hold input: the code generator skips the
          // taps that read its zero padding (kPhaseWindowAttrName).
          if (!validRows.empty())
            if (auto generic = phase.getDefiningOp<linalg::GenericOp>()) {
              auto role = generic->getAttrOfType<StringAttr>(kRoleAttrName);
              if (role && role.getValue() == kRoleTransposePhase)
                generic->setAttr(kPhaseWindowAttrName,
                                 nb.getDenseI64ArrayAttr(validRows));
            }
          return tensor::InsertSliceOp::create(nb, nl, phase, acc,
                                               slice.offsets, slice.sizes,
                                               slice.strides);
        };
        out = forEachInBox(b, loc, zeroBegin, deltaEnd, out, body);
      }
      int64_t d = n - 1;
      while (d >= 0 &&
             ++idx[d] == static_cast<int64_t>(segments[d].size()))
        idx[d--] = 0;
      if (d < 0)
        break;
    }
    return out;
  }

  Value lowerByZeroInsertion(PatternRewriter &b, Location loc, TransposeOp op,
                             const convgen::TransposeGeometry &g,
                             Type accType) const {
    int64_t n = g.numSpatialDims;
    Type elementType = op.getInputs().getType().getElementType();
    SmallVector<int64_t> dilatedSpatial, start, size, zeros(n, 0),
        kernelOffset, kernelStep(n, 1);
    for (int64_t d = 0; d < n; ++d) {
      int64_t dilated = (g.inputSpatial[d] - 1) * g.strides[d] + 1;
      auto [left, right] = convgen::transposeJaxPadding(
          g.kernelSpatial[d], g.strides[d], g.dilations[d],
          op.getPadding() == KerasPadding::valid
              ? convgen::TransposePadding::Valid
              : convgen::TransposePadding::Same,
          op.getOutputPadding()
              ? std::optional<int64_t>((*op.getOutputPadding())[d])
              : std::nullopt);
      dilatedSpatial.push_back(dilated);
      start.push_back(-left);
      size.push_back(dilated + left + right);
      kernelOffset.push_back(0);
    }
    Value z = createZeros(
        b, loc,
        activationShape(g.layout, g.batch, dilatedSpatial, g.inChannels),
        elementType);
    SpatialSlice scatter =
        spatialSlice(b, cast<RankedTensorType>(z.getType()), g.layout, zeros,
                     g.inputSpatial, g.strides);
    z = tensor::InsertSliceOp::create(b, loc, op.getInputs(), z,
                                      scatter.offsets, scatter.sizes,
                                      scatter.strides);
    Value padded = extractZeroPaddedWindow(b, loc, z, g.layout, start, size);
    Value flipped =
        gatherKernelTaps(b, loc, op.getKernel(), g.layout, kernelOffset,
                         kernelStep, g.kernelSpatial, /*reverse=*/true);
    Value init = createZeros(
        b, loc, activationShape(g.layout, g.batch, g.outSpatial, g.outChannels),
        accType);
    return createTapCorrelation(b, loc, g.layout, padded, flipped, init,
                                g.dilations);
  }

  TransposeLowering lowering;
  TransposeTaps taps;
  double tapsOverhead;
  /// The kernel's threads (option transpose-threads): row parts of the
  /// columns lowering (lowerByColumns), the block lowerings' thread split.
  int64_t threads;
  /// The code generator's register-tile rows along the batch (option
  /// transpose-batch-rows): see batchBlockItems.
  bool batchRows;
  /// The f32 lanes of the code generator's vectors (option
  /// transpose-columns-lanes; 0: unknown): see padColumnsToVectors.
  int64_t columnsLanes;
  /// Y bytes of a batch item above which the columns lowering runs in bands
  /// of input rows (option transpose-columns-band-bytes; 0: never): see
  /// columnsBandRows.
  int64_t columnsBandBytes;
  /// Winograd F(2, T) along the phases' last dimension (option
  /// transpose-winograd): see winogradPhase and winogradOp.
  TransposeWinograd winograd;
  int64_t winogradManyPhaseOutChannels;
  int64_t dotLanes;
};

} // namespace

std::optional<TransposeWinograd>
mlir::conv::parseTransposeWinograd(llvm::StringRef value) {
  if (value == "off")
    return TransposeWinograd::Off;
  if (value == "auto")
    return TransposeWinograd::Auto;
  if (value == "on")
    return TransposeWinograd::On;
  return std::nullopt;
}

std::optional<TransposeTaps>
mlir::conv::parseTransposeTaps(llvm::StringRef value) {
  if (value == "auto")
    return TransposeTaps::Auto;
  if (value == "always")
    return TransposeTaps::Always;
  if (value == "never")
    return TransposeTaps::Never;
  if (value == "columns")
    return TransposeTaps::Columns;
  return std::nullopt;
}

int64_t mlir::conv::transposeRowParts(const convgen::TransposeGeometry &g,
                                      int64_t threads,
                                      TransposeLowering lowering,
                                      TransposeTaps taps) {
  if (lowering == TransposeLowering::ZeroInsertion ||
      g.layout != Layout::ChannelsLast ||
      !(taps == TransposeTaps::Columns ||
        (taps == TransposeTaps::Auto && TransposeToLinalg::preferColumns(g))))
    return 0;
  return TransposeToLinalg::rowParts(g, threads);
}

void mlir::conv::populateTransposeToLinalgPatterns(
    RewritePatternSet &patterns, const TransposeLoweringOptions &options) {
  patterns.add<TransposeToLinalg>(patterns.getContext(), options);
}
