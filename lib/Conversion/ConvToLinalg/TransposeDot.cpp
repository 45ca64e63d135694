//===- TransposeDot.cpp - Tiny-Cout transposed convolutions as dots -------===//
//
// docs/Lowering.md §3.11. Along each spatial dimension (stride s, kernel
// k, dilation 1, crop c) the output is split into output-aligned phases:
// output o = m s + p' (phase row m, phase p' < s) takes the taps t = j s +
// p of the input rows i = m + a - j (j >= 0, t < k), where p' + c = a s +
// p. Along the last dimension a phase row's S = s * Cout sums are outputs
// m s .. m s + s - 1, contiguous:
//
//   out[b, (oh,) m s + p', co] = sum_{i, t} sum_ci x[b, (ih,) i, ci]
//                                               * K[(th,) t, co, ci]
//
// and every phase row reads the same window of input rows m + aMax -
// window + 1 .. m + aMax (window = ceil(k / s) + aMax - aMin). Both
// operands are contiguous along ci: a register tile of Rm phase rows keeps
// Rm x S vectors of lane partial sums, each step one FMA per accumulator
// from an input vector (shared by the S sums of its row) and a kernel
// vector (shared by the Rm rows), with no broadcasts. The tile's Tm x S
// sums, in output order, are then reduced L at a time by a tree of lane
// shuffles: log2(L) levels, each halving the partial sums per output (L -
// 1 shuffle pairs and adds per L outputs), each pair as soon as both
// halves exist. The columns lowering (§3.6) ran such layers (masknet: 64
// input channels, 3 output channels, k7 s2) as a GEMM whose 21 (tap,
// channel) columns filled 21 of 32 lanes.
//
// 2-D: a loop over the first dimension's phase rows mh around the tiles;
// each computes the output rows mh s_h + p'_h of its phases in turn, with
// the first dimension's taps of that phase unrolled in the tile body.
//
// Tiles of Tm phase rows run in `parts` ranges per batch item (an
// scf.forall, one per thread); tiles whose window leaves the input read
// through masks of all lanes or none (masked loads at clamped indices, a
// second copy of the tile body; 2-D layers whose two copies would unroll
// too many FMAs take only that one). The sums are written in place into
// the output, each range cut at its row's end (masked writes).
//
//===----------------------------------------------------------------------===//

#include "TransposeDot.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "llvm/ADT/STLExtras.h"
#include <numeric>

using namespace mlir;
using namespace mlir::conv;

namespace {
/// The most outputs (sums) a tile reduces: 8 vectors of them.
constexpr int64_t kMaxTileVectors = 8;
/// At most this many window rows, and FMAs in a tile body's unrolled
/// window rows (R x Tm x S; each tile has two bodies): compile time. (A
/// 16-tap stride-1 layer with 4 output channels took 254-281 ms to compile
/// as 768 FMAs a body, 12-row tiles; masknet's 192 take about 100 ms.)
constexpr int64_t kMaxWindowRows = 16;
constexpr int64_t kMaxUnrolledFMAs = 512;
/// 2-D layers: the loop over phase rows prefetches the input rows its tiles
/// read this many phase rows ahead (conv.prefetch_ahead_nested; a row of
/// DCGAN's 32x32x64 input is 8 KiB, a phase row's work about 1 us).
/// conv-run --compare, 30 call pairs, 1 / 2 threads, Ice Lake server,
/// DCGAN's 64 -> 3 channel k4 s2 layer (N64): +4-6 / +3-6 % (2 rows ahead
/// +5 / +3-4 %; prefetching the output rows for writing as well: no
/// change).
constexpr int64_t kRowPrefetchDistance = 1;
} // namespace

namespace {
/// One spatial dimension in output-aligned phases: output o = m s + p'
/// (phase row m, phase p' < s) of the cropped output sums the taps t = j s
/// + p, j >= 0, t < k, of the input rows i = m + a - j, where p' + crop = a
/// s + p. Every phase row reads the `window` input rows m + aMax - window +
/// 1 + r, r < window (window = ceil(k / s) + aMax - aMin); window row r
/// holds tap j = a - aMax + window - 1 - r of phase p'.
struct PhaseAxis {
  int64_t s, k, in, out, crop;
  int64_t aMin, aMax, window;
  PhaseAxis(int64_t s, int64_t k, int64_t in, int64_t out, int64_t crop)
      : s(s), k(k), in(in), out(out), crop(crop) {
    aMin = crop / s;
    aMax = (s - 1 + crop) / s;
    window = (k + s - 1) / s + aMax - aMin;
  }
  int64_t a(int64_t phase) const { return (phase + crop) / s; }
  int64_t p(int64_t phase) const { return (phase + crop) % s; }
  /// The tap of window row r for `phase`, or -1 (none: a zero product).
  int64_t tap(int64_t phase, int64_t r) const {
    int64_t j = a(phase) - aMax + window - 1 - r;
    int64_t t = j * s + p(phase);
    return j >= 0 && t < k ? t : -1;
  }
  /// The input row of window row r for phase row m: m + offset(r).
  int64_t offset(int64_t r) const { return aMax - window + 1 + r; }
  /// Phase rows covering the output.
  int64_t rows() const { return (out + s - 1) / s; }
};

PhaseAxis axis(const convgen::TransposeGeometry &g, int64_t d) {
  return PhaseAxis(g.strides[d], g.kernelSpatial[d], g.inputSpatial[d],
                   g.outSpatial[d], g.cropBefore[d]);
}
} // namespace

std::optional<TransposeDotPlan>
mlir::conv::planTransposeDot(const convgen::TransposeGeometry &g,
                             Type elementType, int64_t lanes, int64_t threads) {
  if (lanes < 4 || !llvm::isPowerOf2_64(lanes) || !elementType.isF32() ||
      g.layout != convgen::DataLayout::ChannelsLast ||
      (g.numSpatialDims != 1 && g.numSpatialDims != 2) ||
      g.inChannels % lanes != 0)
    return std::nullopt;
  for (int64_t d = 0; d < g.numSpatialDims; ++d)
    if (g.dilations[d] != 1 || g.outSpatial[d] < 1)
      return std::nullopt;
  int64_t last = g.numSpatialDims - 1;
  int64_t s = g.strides[last], k = g.kernelSpatial[last];
  TransposeDotPlan plan;
  plan.lanes = lanes;
  plan.windowRows = (k + s - 1) / s;
  plan.sums = s * g.outChannels;
  // The leading dimension's taps a tile body unrolls (2-D: all its phases'
  // output rows, each with its taps), and the FMAs a body may unroll: in
  // 2-D up to twice as many as in 1-D, in one body then (the lowering's
  // `twoBodies`).
  int64_t outerTaps = last == 0 ? 1 : g.kernelSpatial[0];
  int64_t maxBodyFMAs = last == 0 ? kMaxUnrolledFMAs : 2 * kMaxUnrolledFMAs;
  if (plan.sums > 8 || plan.windowRows > kMaxWindowRows ||
      outerTaps > kMaxWindowRows)
    return std::nullopt;
  plan.rows = axis(g, last).rows();
  // Registers: Rm x S accumulators, Rm input vectors and a kernel vector
  // (32 registers with 16 lanes: AVX-512; else 16), the accumulators at
  // most three quarters of them.
  int64_t regs = lanes >= 16 ? 32 : 16;
  int64_t rm = 1;
  while ((rm + 1) * plan.sums <= regs * 3 / 4 &&
         (rm + 1) * (plan.sums + 1) + 1 <= regs)
    ++rm;
  // Tiles of Tm rows whose Tm x S sums are whole vectors: Tm a multiple of
  // L / gcd(S, L) and of Rm, at most kMaxTileVectors vectors of sums and
  // maxBodyFMAs unrolled FMAs (at most R x Tm x S a leading tap); the most
  // register rows that allow one.
  int64_t base = lanes / std::gcd(plan.sums, lanes);
  for (; rm > 0; --rm) {
    int64_t tm = std::lcm(base, rm);
    if (tm * plan.sums <= kMaxTileVectors * lanes &&
        outerTaps * plan.windowRows * tm * plan.sums <= maxBodyFMAs)
      break;
  }
  if (rm == 0)
    return std::nullopt;
  plan.registerRows = rm;
  plan.tileRows = std::lcm(base, rm);
  int64_t tiles = llvm::divideCeil(plan.rows, plan.tileRows);
  plan.parts = std::clamp<int64_t>(threads, 1, tiles);
  plan.tilesPerPart = llvm::divideCeil(tiles, plan.parts);
  return plan;
}

namespace {
/// Reduces the lanes of a tile's accumulators (L vectors of L lanes per
/// output vector, in output order) to vectors of their sums, as they come:
/// a shuffle tree per output vector, each level halving the partial sums
/// per output. Two vectors whose outputs hold w partials each (contiguous)
/// become one whose outputs hold w / 2: the first halves of every output
/// of both and the second halves, added. A pair is combined as soon as
/// both halves exist, so that a register tile's accumulators are mostly
/// reduced before the next register tile's start (a tile of 8 phase rows
/// x 6 sums kept the first 4 rows' 24 accumulators live, and spilled them,
/// through the second 4 rows' products).
class LaneReducer {
public:
  LaneReducer(OpBuilder &b, Location loc, int64_t lanes)
      : b(b), loc(loc), lanes(lanes) {}
  /// Adds the next accumulator (in output order).
  void push(Value acc) {
    int64_t level = 0;
    // Binary-counter merging within the current output vector: the stack
    // holds (level, value) with strictly decreasing levels.
    while (!stack.empty() && stack.back().first == level) {
      Value left = stack.pop_back_val().second;
      acc = combine(left, acc, level);
      ++level;
    }
    stack.push_back({level, acc});
    if (level == llvm::Log2_64(lanes)) {
      reduced.push_back(acc);
      stack.clear();
    }
  }
  /// The reduced vectors (every L accumulators pushed: one).
  ArrayRef<Value> results() const { return reduced; }

private:
  /// Combines two vectors at `level` (outputs of w = L >> level partials).
  Value combine(Value left, Value right, int64_t level) {
    int64_t w = lanes >> level;
    int64_t outs = lanes / w, half = w / 2;
    SmallVector<int64_t> lo, hi;
    for (int64_t v = 0; v < 2; ++v)
      for (int64_t o = 0; o < outs; ++o)
        for (int64_t e = 0; e < half; ++e) {
          lo.push_back(v * lanes + o * w + e);
          hi.push_back(v * lanes + o * w + half + e);
        }
    Value l = vector::ShuffleOp::create(b, loc, left, right,
                                        b.getDenseI64ArrayAttr(lo));
    Value h = vector::ShuffleOp::create(b, loc, left, right,
                                        b.getDenseI64ArrayAttr(hi));
    return arith::AddFOp::create(b, loc, l, h);
  }

  OpBuilder &b;
  Location loc;
  int64_t lanes;
  SmallVector<std::pair<int64_t, Value>> stack;
  SmallVector<Value> reduced;
};
} // namespace

Value mlir::conv::lowerTransposeByDot(OpBuilder &b, Location loc, Value x,
                                      Value kernel,
                                      const convgen::TransposeGeometry &g,
                                      const TransposeDotPlan &plan) {
  const int64_t L = plan.lanes, S = plan.sums;
  const int64_t Tm = plan.tileRows, Rm = plan.registerRows;
  const bool twoD = g.numSpatialDims == 2;
  const int64_t last = g.numSpatialDims - 1;
  // The last dimension's phases (the sums of a phase row) and the leading
  // one's (2-D: one output row per phase row and phase); 1-D: one row.
  const PhaseAxis w = axis(g, last);
  const PhaseAxis h = twoD ? axis(g, 0) : PhaseAxis(1, 1, 1, 1, 0);
  const int64_t cout = g.outChannels, cin = g.inChannels, n = g.batch;
  const int64_t tileSums = Tm * S, partSums = plan.tilesPerPart * tileSums;
  Type f32 = b.getF32Type();
  auto vecType = VectorType::get({L}, f32);
  auto idx = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  Value zero = arith::ConstantOp::create(b, loc, f32, b.getF32FloatAttr(0));
  Value zeroVec = arith::ConstantOp::create(
      b, loc, vecType, DenseElementsAttr::get(vecType, b.getF32FloatAttr(0)));

  // The FMAs a tile body unrolls (all leading phases' window rows). Tiles
  // whose window lies inside the input take a body of plain loads, the
  // others one of masked loads, unless (2-D) the two would unroll more
  // than 2 x kMaxUnrolledFMAs: then every tile takes the masked one. (With
  // one body: DCGAN's RGB layer, 2 x 384 FMAs, compiled in 148 instead of
  // 250 ms in a slow period of the host, 2 % slower; a 5x5 stride-2 layer,
  // 2 x 600 FMAs, in 194 instead of 320 ms, 0-5 % slower.)
  int64_t bodyFMAs = 0;
  for (int64_t ph = 0; ph < h.s; ++ph)
    for (int64_t rh = 0; rh < h.window; ++rh)
      for (int64_t r = 0; r < w.window; ++r)
        for (int64_t p = 0; p < w.s; ++p)
          if (h.tap(ph, rh) >= 0 && w.tap(p, r) >= 0)
            bodyFMAs += Tm * cout;
  const bool twoBodies = !twoD || bodyFMAs <= kMaxUnrolledFMAs;

  // The sums of every batch item and output row: [N, (OH,) out * Cout],
  // the output itself (phase row m's S sums are outputs m s .. m s + s - 1,
  // contiguous), each part's range of every row cut at the row's end
  // (masked writes).
  int64_t outSums = w.out * cout;
  SmallVector<int64_t> sumsShape{n};
  if (twoD)
    sumsShape.push_back(h.out);
  sumsShape.push_back(outSums);
  Value sums = tensor::EmptyOp::create(b, loc, sumsShape, f32);
  auto forall = scf::ForallOp::create(
      b, loc,
      ArrayRef<OpFoldResult>{b.getIndexAttr(n), b.getIndexAttr(plan.parts)},
      ValueRange{sums}, std::nullopt);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(forall.getBody());
    Value item = forall.getInductionVars()[0];
    Value part = forall.getInductionVars()[1];
    Value shared = forall.getRegionIterArgs()[0];
    // The part's slice of every row's sums, written in place: those before
    // the row's end, and its tiles those that write there.
    Value partAt = arith::MulIOp::create(b, loc, part, idx(partSums));
    Value left = arith::MaxSIOp::create(
        b, loc, arith::SubIOp::create(b, loc, idx(outSums), partAt), idx(0));
    Value cut = arith::MinSIOp::create(b, loc, left, idx(partSums));
    Value tileCount = arith::CeilDivSIOp::create(b, loc, cut, idx(tileSums));
    SmallVector<int64_t> chunkShape;
    SmallVector<OpFoldResult> offsets{item}, sizes{b.getIndexAttr(1)},
        strides{b.getIndexAttr(1)};
    if (twoD) {
      chunkShape.push_back(h.out);
      offsets.push_back(b.getIndexAttr(0));
      sizes.push_back(b.getIndexAttr(h.out));
      strides.push_back(b.getIndexAttr(1));
    }
    chunkShape.push_back(ShapedType::kDynamic);
    offsets.push_back(partAt);
    sizes.push_back(cut);
    strides.push_back(b.getIndexAttr(1));
    Value chunk = tensor::ExtractSliceOp::create(
        b, loc, RankedTensorType::get(chunkShape, f32), shared, offsets, sizes,
        strides);
    // The part's first phase row along the last dimension.
    Value partRow =
        arith::MulIOp::create(b, loc, part, idx(plan.tilesPerPart * Tm));
    // 2-D: a loop over the leading dimension's phase rows around the
    // tiles, each computing the output rows of its phases in turn.
    scf::ForOp rowLoop;
    Value acc0 = chunk, hRow = idx(0);
    if (twoD) {
      rowLoop = scf::ForOp::create(b, loc, idx(0), idx(h.rows()), idx(1),
                                   ValueRange{chunk});
      // Each phase row's tiles read the next input row from memory when
      // they first reach it: prefetched a phase row ahead.
      rowLoop->setAttr(kPrefetchAheadNestedAttrName,
                       b.getI64IntegerAttr(kRowPrefetchDistance));
      b.setInsertionPointToStart(rowLoop.getBody());
      hRow = rowLoop.getInductionVar();
      acc0 = rowLoop.getRegionIterArgs()[0];
    }
    auto tileLoop =
        scf::ForOp::create(b, loc, idx(0), tileCount, idx(1), ValueRange{acc0});
    {
      OpBuilder::InsertionGuard tileGuard(b);
      b.setInsertionPointToStart(tileLoop.getBody());
      Value tile = tileLoop.getInductionVar();
      Value acc = tileLoop.getRegionIterArgs()[0];
      Value tileRow = arith::AddIOp::create(
          b, loc, partRow, arith::MulIOp::create(b, loc, tile, idx(Tm)));
      // The input column of window row 0 for the tile's first phase row
      // (may be negative: an index as i64).
      Value col0 = arith::AddIOp::create(b, loc, tileRow, idx(w.offset(0)));
      auto inRange = [&](Value first, int64_t count, int64_t extent) {
        return arith::AndIOp::create(
            b, loc,
            arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, first,
                                  idx(0)),
            arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sle, first,
                                  idx(extent - count)));
      };
      // Whether every window column of the tile lies in the input.
      Value insideW = inRange(col0, Tm + w.window - 1, w.in);
      Value offset = arith::MulIOp::create(b, loc, tile, idx(tileSums));
      for (int64_t ph = 0; ph < h.s; ++ph) {
        // The output row of this phase: oh = hRow * s + ph (2-D), and the
        // leading window rows with a tap of it: input rows hRow + a - j.
        SmallVector<std::pair<int64_t, int64_t>> hTaps; // (row offset, tap)
        for (int64_t r = 0; r < h.window; ++r)
          if (int64_t t = h.tap(ph, r); t >= 0)
            hTaps.push_back({h.offset(r), t});
        Value outRow = arith::AddIOp::create(
            b, loc, arith::MulIOp::create(b, loc, hRow, idx(h.s)), idx(ph));
        Value inside = insideW;
        if (twoD && !hTaps.empty())
          inside = arith::AndIOp::create(
              b, loc, inside,
              inRange(
                  arith::AddIOp::create(b, loc, hRow, idx(hTaps.front().first)),
                  hTaps.back().first - hTaps.front().first + 1, h.in));
        // The tile's sums, L at a time (in output order), as one body per
        // kind of tile: `guarded` loads read zeros outside the input.
        auto tileSumsOf = [&](bool guarded) {
          LaneReducer reducer(b, loc, L);
          for (int64_t r0 = 0; r0 < Tm; r0 += Rm) {
            SmallVector<Value> init(Rm * S, zeroVec);
            auto chunks =
                scf::ForOp::create(b, loc, idx(0), idx(cin / L), idx(1), init);
            OpBuilder::InsertionGuard chunkGuard(b);
            b.setInsertionPointToStart(chunks.getBody());
            Value ci =
                arith::MulIOp::create(b, loc, chunks.getInductionVar(), idx(L));
            SmallVector<Value> accs(chunks.getRegionIterArgs());
            // The products of one leading window row: input row xRow,
            // kernel row kRow (2-D).
            auto rowProducts = [&](Value xRow, Value kRow) {
              Value rowValid;
              if (twoD && guarded) {
                rowValid = arith::AndIOp::create(
                    b, loc,
                    arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge,
                                          xRow, idx(0)),
                    arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt,
                                          xRow, idx(h.in)));
                xRow = arith::MinSIOp::create(
                    b, loc, arith::MaxSIOp::create(b, loc, xRow, idx(0)),
                    idx(h.in - 1));
              }
              for (int64_t r = 0; r < w.window; ++r) {
                SmallVector<Value> xs;
                for (int64_t i = 0; i < Rm; ++i) {
                  Value xCol =
                      arith::AddIOp::create(b, loc, col0, idx(r0 + i + r));
                  Value valid = rowValid;
                  if (guarded) {
                    Value colValid = arith::AndIOp::create(
                        b, loc,
                        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge,
                                              xCol, idx(0)),
                        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt,
                                              xCol, idx(w.in)));
                    valid = valid
                                ? arith::AndIOp::create(b, loc, valid, colValid)
                                      .getResult()
                                : colValid;
                    // Outside the input: zeros (a clamped column, then a
                    // select).
                    xCol = arith::MinSIOp::create(
                        b, loc, arith::MaxSIOp::create(b, loc, xCol, idx(0)),
                        idx(w.in - 1));
                  }
                  SmallVector<Value> at{item};
                  if (twoD)
                    at.push_back(xRow);
                  at.append({xCol, ci});
                  if (!valid) {
                    xs.push_back(vector::TransferReadOp::create(
                        b, loc, vecType, x, at, zero, ArrayRef<bool>{true}));
                    continue;
                  }
                  // A masked read (all lanes or none): a masked load, no
                  // branch (a select of the read became one).
                  Value mask = vector::BroadcastOp::create(
                      b, loc, VectorType::get({L}, b.getI1Type()), valid);
                  auto map = AffineMap::getMinorIdentityMap(
                      cast<ShapedType>(x.getType()).getRank(), 1,
                      b.getContext());
                  xs.push_back(vector::TransferReadOp::create(
                      b, loc, vecType, x, at, AffineMapAttr::get(map), zero,
                      mask, b.getBoolArrayAttr({true})));
                }
                for (int64_t p = 0; p < w.s; ++p) {
                  int64_t tap = w.tap(p, r);
                  if (tap < 0)
                    continue; // a zero tap: no products
                  for (int64_t co = 0; co < cout; ++co) {
                    SmallVector<Value> at;
                    if (twoD)
                      at.push_back(kRow);
                    at.append({idx(tap), idx(co), ci});
                    Value kv = vector::TransferReadOp::create(
                        b, loc, vecType, kernel, at, zero,
                        ArrayRef<bool>{true});
                    int64_t sum = p * cout + co;
                    for (int64_t i = 0; i < Rm; ++i)
                      accs[i * S + sum] = vector::FMAOp::create(
                          b, loc, xs[i], kv, accs[i * S + sum]);
                  }
                }
              }
            };
            for (auto [hOffset, hTap] : hTaps)
              rowProducts(arith::AddIOp::create(b, loc, hRow, idx(hOffset)),
                          idx(hTap));
            scf::YieldOp::create(b, loc, accs);
            b.setInsertionPointAfter(chunks);
            for (Value sum : chunks.getResults())
              reducer.push(sum);
          }
          return SmallVector<Value>(reducer.results());
        };
        // The row's writes; a phase row's last phases past the output's
        // rows (2-D, OH not a multiple of s) write nothing.
        auto writeRow = [&](Value into) -> Value {
          // A phase without taps (a kernel shorter than the stride): zeros.
          if (hTaps.empty()) {
            for (int64_t v = 0; v < tileSums / L; ++v) {
              Value at = arith::AddIOp::create(b, loc, offset, idx(v * L));
              into = vector::TransferWriteOp::create(b, loc, zeroVec, into,
                                                     ValueRange{outRow, at},
                                                     ArrayRef<bool>{false})
                         .getResult();
            }
            return into;
          }
          // A tile's sums: plain loads when its window lies inside the
          // input, else masked ones; or (!twoBodies) masked ones always.
          SmallVector<Value> results;
          if (!twoBodies) {
            results = tileSumsOf(/*guarded=*/true);
          } else {
            SmallVector<Type> types(tileSums / L, vecType);
            auto ifOp = scf::IfOp::create(b, loc, types, inside,
                                          /*withElseRegion=*/true);
            {
              OpBuilder::InsertionGuard ifGuard(b);
              b.setInsertionPointToStart(&ifOp.getThenRegion().front());
              scf::YieldOp::create(b, loc, tileSumsOf(/*guarded=*/false));
              b.setInsertionPointToStart(&ifOp.getElseRegion().front());
              scf::YieldOp::create(b, loc, tileSumsOf(/*guarded=*/true));
            }
            results.assign(ifOp.getResults().begin(), ifOp.getResults().end());
          }
          for (int64_t v = 0; v < tileSums / L; ++v) {
            Value at = arith::AddIOp::create(b, loc, offset, idx(v * L));
            SmallVector<Value> indices;
            if (twoD)
              indices.push_back(outRow);
            indices.push_back(at);
            into = vector::TransferWriteOp::create(
                       b, loc, results[v], into, indices, ArrayRef<bool>{false})
                       .getResult();
          }
          return into;
        };
        if (twoD && h.out % h.s != 0 && ph >= h.out % h.s) {
          Value exists = arith::CmpIOp::create(
              b, loc, arith::CmpIPredicate::slt, outRow, idx(h.out));
          auto ifOp = scf::IfOp::create(b, loc, TypeRange{acc.getType()},
                                        exists, /*withElseRegion=*/true);
          OpBuilder::InsertionGuard ifGuard(b);
          b.setInsertionPointToStart(&ifOp.getThenRegion().front());
          scf::YieldOp::create(b, loc, writeRow(acc));
          b.setInsertionPointToStart(&ifOp.getElseRegion().front());
          scf::YieldOp::create(b, loc, acc);
          acc = ifOp.getResult(0);
        } else {
          acc = writeRow(acc);
        }
      }
      scf::YieldOp::create(b, loc, acc);
    }
    Value partSumsValue = tileLoop.getResult(0);
    if (twoD) {
      scf::YieldOp::create(b, loc, partSumsValue);
      b.setInsertionPointAfter(rowLoop);
      partSumsValue = rowLoop.getResult(0);
    }
    b.setInsertionPointToStart(forall.getTerminator().getBody());
    tensor::ParallelInsertSliceOp::create(b, loc, partSumsValue, shared,
                                          offsets, sizes, strides);
  }
  // The output: [N, (OH,) out, Cout].
  SmallVector<int64_t> outShape{n};
  if (twoD)
    outShape.push_back(h.out);
  outShape.append({w.out, cout});
  SmallVector<ReassociationIndices> groups{{0}};
  if (twoD)
    groups.push_back({1});
  groups.push_back({last + 1, last + 2});
  return tensor::ExpandShapeOp::create(b, loc,
                                       RankedTensorType::get(outShape, f32),
                                       forall.getResult(0), groups);
}
