//===- TransposeDot.cpp - Tiny-Cout 1-D transposed convolutions as dots ---===//
//
// docs/Lowering.md §3.11. With stride s, kernel k, dilation 1 and crop c,
// output position o = q - c of the uncropped result, q = m s + p (phase p),
// takes the taps t = j s + p < k of the input rows i = m - j:
//
//   out[b, m s + p - c, co] = sum_{r < R} sum_ci x[b, m - R + 1 + r, ci]
//                                             * K[(R - 1 - r) s + p, co, ci]
//
// R = ceil(k / s) rows per phase row m (taps past k are zero). Both
// operands are contiguous along ci: a register tile of Rm phase rows keeps
// Rm x S vectors of lane partial sums (S = s * Cout: every phase and output
// channel of a row), each step one FMA per accumulator from an input vector
// (shared by the S sums of its row) and a kernel vector (shared by the Rm
// rows), with no broadcasts. The tile's Tm x S sums, in output order, are
// then reduced L at a time by a tree of lane shuffles: log2(L) levels, each
// halving the partial sums per output (L - 1 shuffle pairs and adds per L
// outputs). The columns lowering (§3.6) ran such layers (masknet: 64 input
// channels, 3 output channels, k7 s2) as a GEMM whose 21 (tap, channel)
// columns filled 21 of 32 lanes.
//
// Tiles of Tm phase rows run in `parts` ranges per batch item (an
// scf.forall, one per thread); tiles whose window leaves the input read
// zeros there (guarded loads, a second copy of the tile body). The sums
// are written in place into the output, each range cut at its end (masked
// writes), unless the output starts inside a phase row (a crop that is not
// a multiple of s): then into a temporary of whole tiles that the output
// is sliced and copied from.
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
} // namespace

std::optional<TransposeDotPlan>
mlir::conv::planTransposeDot(const convgen::TransposeGeometry &g,
                             Type elementType, int64_t lanes, int64_t threads) {
  if (lanes < 4 || !llvm::isPowerOf2_64(lanes) || !elementType.isF32() ||
      g.layout != convgen::DataLayout::ChannelsLast || g.numSpatialDims != 1 ||
      g.dilations[0] != 1 || g.inChannels % lanes != 0 || g.outSpatial[0] < 1)
    return std::nullopt;
  int64_t s = g.strides[0], k = g.kernelSpatial[0];
  TransposeDotPlan plan;
  plan.lanes = lanes;
  plan.windowRows = (k + s - 1) / s;
  plan.sums = s * g.outChannels;
  if (plan.sums > 8 || plan.windowRows > kMaxWindowRows)
    return std::nullopt;
  int64_t crop = g.cropBefore[0];
  plan.firstRow = crop / s;
  int64_t lastRow = (crop + g.outSpatial[0] - 1) / s;
  plan.rows = lastRow - plan.firstRow + 1;
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
  // kMaxUnrolledFMAs unrolled FMAs; the most register rows that allow one.
  int64_t base = lanes / std::gcd(plan.sums, lanes);
  for (; rm > 0; --rm) {
    int64_t tm = std::lcm(base, rm);
    if (tm * plan.sums <= kMaxTileVectors * lanes &&
        plan.windowRows * tm * plan.sums <= kMaxUnrolledFMAs)
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
/// Reduces each of `accs` (L vectors of L lanes, in output order) to one
/// lane: a vector of their L sums in order. Level by level, pairs of
/// vectors whose outputs hold w partial sums each (contiguous) become one
/// vector whose outputs hold w / 2: the first halves of every output of
/// both and the second halves, added.
Value reduceLanes(OpBuilder &b, Location loc, SmallVector<Value> accs,
                  int64_t lanes) {
  for (int64_t w = lanes; w > 1; w /= 2) {
    // Each vector holds lanes / w outputs of w partials.
    int64_t outs = lanes / w, half = w / 2;
    SmallVector<int64_t> lo, hi;
    for (int64_t v = 0; v < 2; ++v)
      for (int64_t o = 0; o < outs; ++o)
        for (int64_t e = 0; e < half; ++e) {
          lo.push_back(v * lanes + o * w + e);
          hi.push_back(v * lanes + o * w + half + e);
        }
    SmallVector<Value> next;
    for (size_t i = 0; i + 1 < accs.size(); i += 2) {
      Value l = vector::ShuffleOp::create(b, loc, accs[i], accs[i + 1],
                                          b.getDenseI64ArrayAttr(lo));
      Value h = vector::ShuffleOp::create(b, loc, accs[i], accs[i + 1],
                                          b.getDenseI64ArrayAttr(hi));
      next.push_back(arith::AddFOp::create(b, loc, l, h));
    }
    accs = std::move(next);
  }
  return accs.front();
}
} // namespace

Value mlir::conv::lowerTransposeByDot(OpBuilder &b, Location loc, Value x,
                                      Value kernel,
                                      const convgen::TransposeGeometry &g,
                                      const TransposeDotPlan &plan) {
  const int64_t L = plan.lanes, R = plan.windowRows, S = plan.sums;
  const int64_t Tm = plan.tileRows, Rm = plan.registerRows;
  const int64_t s = g.strides[0], k = g.kernelSpatial[0];
  const int64_t cout = g.outChannels, cin = g.inChannels;
  const int64_t width = g.inputSpatial[0], n = g.batch;
  const int64_t tileSums = Tm * S, partSums = plan.tilesPerPart * tileSums;
  Type f32 = b.getF32Type();
  auto vecType = VectorType::get({L}, f32);
  auto idx = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  Value zero = arith::ConstantOp::create(b, loc, f32, b.getF32FloatAttr(0));
  Value zeroVec = arith::ConstantOp::create(
      b, loc, vecType, DenseElementsAttr::get(vecType, b.getF32FloatAttr(0)));

  // The sums of every batch item: phase row firstRow + j's at j * S. When
  // the output starts at a phase row (no crop inside one), they are the
  // output's [N, out * Cout] themselves, each part's range cut at its end
  // (masked writes); else a temporary [N, P * partSums] the output is
  // sliced from.
  int64_t outSums = g.outSpatial[0] * cout;
  int64_t first = (g.cropBefore[0] - plan.firstRow * s) * cout;
  bool direct = first == 0;
  auto tempType =
      RankedTensorType::get({n, direct ? outSums : plan.parts * partSums}, f32);
  Value temp = tensor::EmptyOp::create(b, loc, tempType.getShape(), f32);
  auto forall = scf::ForallOp::create(
      b, loc,
      ArrayRef<OpFoldResult>{b.getIndexAttr(n), b.getIndexAttr(plan.parts)},
      ValueRange{temp}, std::nullopt);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(forall.getBody());
    Value item = forall.getInductionVars()[0];
    Value part = forall.getInductionVars()[1];
    Value shared = forall.getRegionIterArgs()[0];
    // The part's slice of the shared sums, written in place: partSums of
    // them, or (direct) those before the output's end, and its tiles
    // those that write there.
    Value partAt = arith::MulIOp::create(b, loc, part, idx(partSums));
    OpFoldResult size = b.getIndexAttr(partSums);
    Value tileCount = idx(plan.tilesPerPart);
    if (direct) {
      Value left = arith::MaxSIOp::create(
          b, loc, arith::SubIOp::create(b, loc, idx(outSums), partAt), idx(0));
      Value cut = arith::MinSIOp::create(b, loc, left, idx(partSums));
      size = cut;
      tileCount = arith::CeilDivSIOp::create(b, loc, cut, idx(tileSums));
    }
    auto chunkType =
        RankedTensorType::get({direct ? ShapedType::kDynamic : partSums}, f32);
    SmallVector<OpFoldResult> offsets{item, partAt},
        sizes{b.getIndexAttr(1), size},
        strides{b.getIndexAttr(1), b.getIndexAttr(1)};
    Value chunk = tensor::ExtractSliceOp::create(b, loc, chunkType, shared,
                                                 offsets, sizes, strides);
    // The part's first phase row (relative to firstRow).
    Value partRow =
        arith::MulIOp::create(b, loc, part, idx(plan.tilesPerPart * Tm));
    auto tileLoop = scf::ForOp::create(b, loc, idx(0), tileCount, idx(1),
                                       ValueRange{chunk});
    {
      OpBuilder::InsertionGuard tileGuard(b);
      b.setInsertionPointToStart(tileLoop.getBody());
      Value tile = tileLoop.getInductionVar();
      Value acc = tileLoop.getRegionIterArgs()[0];
      Value tileRow = arith::AddIOp::create(
          b, loc, partRow, arith::MulIOp::create(b, loc, tile, idx(Tm)));
      // The input row of window row 0 for the tile's first phase row:
      // firstRow + tileRow - R + 1 (may be negative: an index as i64).
      Value row0 =
          arith::AddIOp::create(b, loc, tileRow, idx(plan.firstRow - R + 1));
      // Whether every window row of the tile lies in the input.
      Value inside = arith::AndIOp::create(
          b, loc,
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, row0,
                                idx(0)),
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sle, row0,
                                idx(width - (Tm + R - 1))));
      // The tile's sums, L at a time (in output order), as one body per
      // kind of tile: `guarded` loads read zeros outside the input.
      auto tileSumsOf = [&](bool guarded) {
        SmallVector<Value> outs; // the tile's accumulators, in output order
        for (int64_t r0 = 0; r0 < Tm; r0 += Rm) {
          SmallVector<Value> init(Rm * S, zeroVec);
          auto chunks =
              scf::ForOp::create(b, loc, idx(0), idx(cin / L), idx(1), init);
          OpBuilder::InsertionGuard chunkGuard(b);
          b.setInsertionPointToStart(chunks.getBody());
          Value ci =
              arith::MulIOp::create(b, loc, chunks.getInductionVar(), idx(L));
          SmallVector<Value> accs(chunks.getRegionIterArgs());
          for (int64_t r = 0; r < R; ++r) {
            SmallVector<Value> xs;
            for (int64_t i = 0; i < Rm; ++i) {
              Value xRow = arith::AddIOp::create(b, loc, row0, idx(r0 + i + r));
              if (!guarded) {
                xs.push_back(vector::TransferReadOp::create(
                    b, loc, vecType, x, ValueRange{item, xRow, ci}, zero,
                    ArrayRef<bool>{true}));
                continue;
              }
              // Outside the input: zeros (a clamped row, then a select).
              Value valid = arith::AndIOp::create(
                  b, loc,
                  arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, xRow,
                                        idx(0)),
                  arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, xRow,
                                        idx(width)));
              Value clamped = arith::MinSIOp::create(
                  b, loc, arith::MaxSIOp::create(b, loc, xRow, idx(0)),
                  idx(width - 1));
              Value v = vector::TransferReadOp::create(
                  b, loc, vecType, x, ValueRange{item, clamped, ci}, zero,
                  ArrayRef<bool>{true});
              xs.push_back(arith::SelectOp::create(b, loc, valid, v, zeroVec));
            }
            for (int64_t p = 0; p < s; ++p) {
              int64_t tap = (R - 1 - r) * s + p;
              if (tap >= k)
                continue; // a zero tap: no products
              for (int64_t co = 0; co < cout; ++co) {
                Value kv = vector::TransferReadOp::create(
                    b, loc, vecType, kernel, ValueRange{idx(tap), idx(co), ci},
                    zero, ArrayRef<bool>{true});
                int64_t sum = p * cout + co;
                for (int64_t i = 0; i < Rm; ++i)
                  accs[i * S + sum] = vector::FMAOp::create(b, loc, xs[i], kv,
                                                            accs[i * S + sum]);
              }
            }
          }
          scf::YieldOp::create(b, loc, accs);
          llvm::append_range(outs, chunks.getResults());
        }
        SmallVector<Value> reduced;
        for (int64_t v = 0; v < tileSums / L; ++v)
          reduced.push_back(
              reduceLanes(b, loc,
                          SmallVector<Value>(outs.begin() + v * L,
                                             outs.begin() + (v + 1) * L),
                          L));
        return reduced;
      };
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
      Value offset = arith::MulIOp::create(b, loc, tile, idx(tileSums));
      for (int64_t v = 0; v < tileSums / L; ++v) {
        Value at = arith::AddIOp::create(b, loc, offset, idx(v * L));
        acc = vector::TransferWriteOp::create(b, loc, ifOp.getResult(v), acc,
                                              ValueRange{at},
                                              ArrayRef<bool>{!direct})
                  .getResult();
      }
      scf::YieldOp::create(b, loc, acc);
    }
    b.setInsertionPointToStart(forall.getTerminator().getBody());
    tensor::ParallelInsertSliceOp::create(b, loc, tileLoop.getResult(0), shared,
                                          offsets, sizes, strides);
  }
  // The output: out[b, o, co] = temp[b, first + o Cout + co].
  Value rows = forall.getResult(0);
  if (!direct) {
    Value sliced = tensor::ExtractSliceOp::create(
        b, loc, RankedTensorType::get({n, outSums}, f32), rows,
        ArrayRef<OpFoldResult>{b.getIndexAttr(0), b.getIndexAttr(first)},
        ArrayRef<OpFoldResult>{b.getIndexAttr(n), b.getIndexAttr(outSums)},
        ArrayRef<OpFoldResult>{b.getIndexAttr(1), b.getIndexAttr(1)});
    // A contiguous copy, one row copy an item (a linalg.copy became scalar
    // loops; the expanded strided view would be copied position by
    // position).
    Value empty =
        tensor::EmptyOp::create(b, loc, ArrayRef<int64_t>{n, outSums}, f32);
    rows =
        bufferization::MaterializeInDestinationOp::create(b, loc, sliced, empty)
            .getResult();
  }
  return tensor::ExpandShapeOp::create(
      b, loc, RankedTensorType::get({n, g.outSpatial[0], cout}, f32), rows,
      SmallVector<ReassociationIndices>{{0}, {1, 2}});
}
