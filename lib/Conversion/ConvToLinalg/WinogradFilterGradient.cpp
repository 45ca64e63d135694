//===- WinogradFilterGradient.cpp - Winograd F(3, 2) filter gradients -----===//
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
// gradients are conv.backprop_filter ops in an scf.forall over the points,
// each lowered by BackpropFilter.cpp on one thread (the forall spreads the
// points over the threads, so the result does not depend on their number).
// docs/Lowering.md §2.7.
//
// Dilation d pairs the positions (o0, o0 + d): o0 = 2*d*q + r, r < d. The
// input window, padded to 2*d*(Q + 1) rows, is viewed as [Q + 1, 2*d]: the
// value x[o0 - pad + i*d] is row q + i/2, column r + d*(i%2).
//
//===----------------------------------------------------------------------===//

#include "Utils.h"

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

constexpr int64_t kPoints = 4; // F(3, 2): 4 points per dimension
constexpr int64_t kTaps = 3;
constexpr int64_t kPairValues = 2;
// V[a] = sum_i kBT[a][i] x[i] (F(2, 3)'s BT).
constexpr double kBT[kPoints][kPoints] = {
    {1, 0, -1, 0}, {0, 1, 1, 0}, {0, -1, 1, 0}, {0, 1, 0, -1}};
// U[a] = sum_j kA[a][j] e[j]: F(2, 3)'s A = AT^T, its rows scaled by G's
// column factors (1, 1/2, 1/2, 1) so that the output transform is +-1.
constexpr double kA[kPoints][kPairValues] = {
    {1, 0}, {0.5, 0.5}, {0.5, -0.5}, {0, -1}};
// dW[k] = sum_a kGT[k][a] M[a] (F(2, 3)'s G^T without its halves).
constexpr double kGT[kTaps][kPoints] = {
    {1, 1, 1, 0}, {0, 1, -1, 0}, {0, 1, 1, 1}};

int64_t power(int64_t base, int64_t n) {
  int64_t p = 1;
  for (int64_t i = 0; i < n; ++i)
    p *= base;
  return p;
}

/// `v` without its unit dimension `dim` (merged into a neighbour by a
/// tensor.collapse_shape: a rank-reducing slice of a tensor with other unit
/// dimensions is ambiguous, and memref.subview's dropped-dimension
/// inference crashed on one).
Value dropUnitDim(OpBuilder &b, Location loc, Value v, int64_t dim) {
  auto type = cast<RankedTensorType>(v.getType());
  int64_t rank = type.getRank();
  assert(type.getDimSize(dim) == 1 && rank >= 2 && "a unit dimension");
  int64_t with = dim + 1 < rank ? dim + 1 : dim - 1;
  SmallVector<ReassociationIndices> reassoc;
  SmallVector<int64_t> shape;
  for (int64_t i = 0; i < rank; ++i) {
    if (i == dim)
      continue;
    if (i == with)
      reassoc.push_back(with > dim ? ReassociationIndices{dim, with}
                                   : ReassociationIndices{with, dim});
    else
      reassoc.push_back({i});
    shape.push_back(type.getDimSize(i));
  }
  return tensor::CollapseShapeOp::create(b, loc, type.clone(shape), v, reassoc);
}

/// `v` with a unit dimension inserted at `dim` (tensor.expand_shape).
Value addUnitDim(OpBuilder &b, Location loc, Value v, int64_t dim) {
  auto type = cast<RankedTensorType>(v.getType());
  int64_t rank = type.getRank();
  SmallVector<int64_t> shape(type.getShape());
  shape.insert(shape.begin() + dim, 1);
  SmallVector<ReassociationIndices> reassoc;
  for (int64_t i = 0; i < rank; ++i) {
    int64_t at = i < dim ? i : i + 1;
    if (i == dim)
      reassoc.push_back({dim, dim + 1});
    else if (i == rank - 1 && dim == rank)
      reassoc.push_back({at, at + 1});
    else
      reassoc.push_back({at});
  }
  return tensor::ExpandShapeOp::create(b, loc, type.clone(shape), v, reassoc);
}

/// Offsets / sizes / strides of the slice [index] along `dim` of a tensor
/// of `shape` (whole along the others).
struct Entry {
  SmallVector<OpFoldResult> offsets, sizes, strides;
};
Entry indexEntry(OpBuilder &b, ArrayRef<int64_t> shape, int64_t dim,
                 OpFoldResult index) {
  Entry e;
  e.offsets.assign(shape.size(), b.getIndexAttr(0));
  e.offsets[dim] = index;
  for (auto [i, s] : llvm::enumerate(shape))
    e.sizes.push_back(b.getIndexAttr(static_cast<int64_t>(i) == dim ? 1 : s));
  e.strides.assign(shape.size(), b.getIndexAttr(1));
  return e;
}

/// `v[..., index, ...]` along dimension `dim`, that dimension dropped
/// (`index` may be dynamic).
Value indexSlice(OpBuilder &b, Location loc, Value v, int64_t dim,
                 OpFoldResult index) {
  auto type = cast<RankedTensorType>(v.getType());
  Entry e = indexEntry(b, type.getShape(), dim, index);
  SmallVector<int64_t> shape(type.getShape());
  shape[dim] = 1;
  Value slice = tensor::ExtractSliceOp::create(b, loc, type.clone(shape), v,
                                               e.offsets, e.sizes, e.strides);
  return dropUnitDim(b, loc, slice, dim);
}

Value indexSlice(OpBuilder &b, Location loc, Value v, int64_t dim,
                 int64_t index) {
  return indexSlice(b, loc, v, dim, b.getIndexAttr(index));
}

/// `stack[index]` (`index` may be a loop variable).
Value extractEntry(OpBuilder &b, Location loc, Value stack,
                   OpFoldResult index) {
  return indexSlice(b, loc, stack, 0, index);
}

/// `value` inserted into `dest` as `dest[..., index, ...]` along `dim`.
Value insertAtIndex(OpBuilder &b, Location loc, Value value, Value dest,
                    int64_t dim, int64_t index) {
  auto type = cast<RankedTensorType>(dest.getType());
  Entry e = indexEntry(b, type.getShape(), dim, b.getIndexAttr(index));
  return tensor::InsertSliceOp::create(b, loc, addUnitDim(b, loc, value, dim),
                                       dest, e.offsets, e.sizes, e.strides);
}

/// An operand of the transforms: [points..., N, spatial..., C], `lead`
/// point dimensions first; spatial dimension d is one tensor dimension
/// (dilation 1: positions 2q + r) or two (dilation d: [blocks, 2 d], the
/// position of block q, column c being 2 d q + c), the first at `lead +
/// pos[d]`.
struct Operand {
  Value value;
  int64_t lead = 0;
  SmallVector<int64_t> pos;
  SmallVector<int64_t> dilations;
};

/// A channels-last window [N, S..., C] as an Operand: the dilated
/// dimensions expanded into [S / (2 d), 2 d].
Operand makeOperand(OpBuilder &b, Location loc, Value window,
                    ArrayRef<int64_t> dilations) {
  auto type = cast<RankedTensorType>(window.getType());
  int64_t n = static_cast<int64_t>(dilations.size());
  Operand o;
  o.dilations.assign(dilations.begin(), dilations.end());
  SmallVector<int64_t> shape{type.getDimSize(0)};
  SmallVector<ReassociationIndices> reassoc{{0}};
  bool expand = false;
  for (int64_t d = 0; d < n; ++d) {
    int64_t size = type.getDimSize(1 + d), dil = dilations[d];
    o.pos.push_back(static_cast<int64_t>(shape.size()));
    if (dil == 1) {
      reassoc.push_back({static_cast<int64_t>(shape.size())});
      shape.push_back(size);
      continue;
    }
    assert(size % (2 * dil) == 0 && "whole blocks");
    expand = true;
    int64_t first = static_cast<int64_t>(shape.size());
    reassoc.push_back({first, first + 1});
    shape.append({size / (2 * dil), 2 * dil});
  }
  reassoc.push_back({static_cast<int64_t>(shape.size())});
  shape.push_back(type.getDimSize(n + 1));
  o.value = expand ? Value(tensor::ExpandShapeOp::create(
                         b, loc, type.clone(shape), window, reassoc))
                   : window;
  return o;
}

/// The pairs' values at (block, column) along spatial dimension `d`: the
/// slice of `o` at block offset `block` and column `column` of `pairs`
/// pairs (dilation 1: positions column + 2 (block + q), stride 2). The
/// offsets may be dynamic.
Value pairValues(OpBuilder &b, Location loc, const Operand &o, int64_t d,
                 OpFoldResult block, OpFoldResult column, int64_t pairs) {
  auto type = cast<RankedTensorType>(o.value.getType());
  int64_t dim = o.lead + o.pos[d];
  SmallVector<OpFoldResult> offsets(type.getRank(), b.getIndexAttr(0)), sizes,
      strides(type.getRank(), b.getIndexAttr(1));
  SmallVector<int64_t> shape(type.getShape());
  for (int64_t s : shape)
    sizes.push_back(b.getIndexAttr(s));
  if (o.dilations[d] == 1) {
    AffineExpr b0, c0;
    bindSymbols(b.getContext(), b0, c0);
    offsets[dim] = affine::makeComposedFoldedAffineApply(b, loc, b0 * 2 + c0,
                                                         {block, column});
    sizes[dim] = b.getIndexAttr(pairs);
    strides[dim] = b.getIndexAttr(2);
    shape[dim] = pairs;
  } else {
    offsets[dim] = block;
    sizes[dim] = b.getIndexAttr(pairs);
    shape[dim] = pairs;
    offsets[dim + 1] = column;
    sizes[dim + 1] = b.getIndexAttr(o.dilations[d]);
    shape[dim + 1] = o.dilations[d];
  }
  return tensor::ExtractSliceOp::create(b, loc, type.clone(shape), o.value,
                                        offsets, sizes, strides);
}

/// `choices[index]` for a dynamic index in [0, choices.size()) (a chain
/// of selects).
Value selectByIndex(OpBuilder &b, Location loc, Value index,
                    ArrayRef<Value> choices) {
  Value result = choices.back();
  for (int64_t k = static_cast<int64_t>(choices.size()) - 2; k >= 0; --k) {
    Value isK =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, index,
                              arith::ConstantIndexOp::create(b, loc, k));
    result = arith::SelectOp::create(b, loc, isK, choices[k], result);
  }
  return result;
}

/// c0 * t0 + c1 * t1 elementwise into `init` (c0, c1 f32 scalars): a
/// linalg.generic tagged conv.role = winograd_transform.
Value applyScaledPair(OpBuilder &b, Location loc, Value t0, Value c0, Value t1,
                      Value c1, Value init) {
  auto type = cast<RankedTensorType>(init.getType());
  int64_t rank = type.getRank();
  AffineMap id = b.getMultiDimIdentityMap(rank);
  AffineMap scalar = AffineMap::get(rank, 0, b.getContext());
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{type}, ValueRange{t0, t1, c0, c1}, ValueRange{init},
      ArrayRef<AffineMap>{id, id, scalar, scalar, id}, iterators,
      [&](OpBuilder &nb, Location nl, ValueRange args) {
        Value first = arith::MulFOp::create(nb, nl, args[0], args[2]);
        Value second = arith::MulFOp::create(nb, nl, args[1], args[3]);
        linalg::YieldOp::create(
            nb, nl, Value(arith::AddFOp::create(nb, nl, first, second)));
      });
  generic->setAttr(kRoleAttrName, b.getStringAttr(kRoleWinogradTransform));
  return generic.getResult(0);
}

/// Entry `a` (dynamic) of the transform along the last spatial dimension
/// `d` of `o` (no point dimensions): sum_i coef[a][i] * value i, where
/// every row of coef has at most two nonzeros, as c0 * value p0 + c1 *
/// value p1 with (p0, c0, p1, c1) selected by `a`.
template <size_t Values>
Value transformEntry(OpBuilder &b, Location loc, const Operand &o, int64_t d,
                     const double (&coef)[kPoints][Values], Value a,
                     int64_t pairs) {
  SmallVector<Value> p0, c0, p1, c1;
  for (int64_t row = 0; row < kPoints; ++row) {
    SmallVector<std::pair<int64_t, double>> terms;
    for (int64_t i = 0; i < static_cast<int64_t>(Values); ++i)
      if (coef[row][i] != 0)
        terms.push_back({i, coef[row][i]});
    assert(!terms.empty() && terms.size() <= 2 && "one or two terms a row");
    if (terms.size() == 1) // the same value twice, the second times 0
      terms.push_back({terms.front().first, 0.0});
    p0.push_back(arith::ConstantIndexOp::create(b, loc, terms[0].first));
    c0.push_back(arith::ConstantOp::create(
        b, loc, b.getF32FloatAttr(static_cast<float>(terms[0].second))));
    p1.push_back(arith::ConstantIndexOp::create(b, loc, terms[1].first));
    c1.push_back(arith::ConstantOp::create(
        b, loc, b.getF32FloatAttr(static_cast<float>(terms[1].second))));
  }
  int64_t dil = o.dilations[d];
  auto value = [&](Value i) {
    // Block i / 2, column dil * (i % 2).
    AffineExpr e;
    bindSymbols(b.getContext(), e);
    OpFoldResult block =
        affine::makeComposedFoldedAffineApply(b, loc, e.floorDiv(2), {i});
    OpFoldResult column =
        affine::makeComposedFoldedAffineApply(b, loc, (e % 2) * dil, {i});
    return pairValues(b, loc, o, d, block, column, pairs);
  };
  Value t0 = value(selectByIndex(b, loc, a, p0));
  Value t1 = value(selectByIndex(b, loc, a, p1));
  auto type = cast<RankedTensorType>(t0.getType());
  Value init =
      tensor::EmptyOp::create(b, loc, type.getShape(), type.getElementType());
  return applyScaledPair(b, loc, t0, selectByIndex(b, loc, a, c0), t1,
                         selectByIndex(b, loc, a, c1), init);
}

/// One transform pass along spatial dimension `d`: a new point dimension
/// (after the existing ones) of kPoints entries, entry a = sum_i
/// coef[a][i] * (the pairs' value i: `place(i)` gives its block and
/// column), one elementwise op per entry.
template <size_t Values>
Operand transformAlong(OpBuilder &b, Location loc, const Operand &in, int64_t d,
                       const double (&coef)[kPoints][Values],
                       function_ref<std::pair<int64_t, int64_t>(int64_t)> place,
                       int64_t pairs) {
  SmallVector<Value> values;
  for (int64_t i = 0; i < static_cast<int64_t>(Values); ++i) {
    auto [block, column] = place(i);
    values.push_back(pairValues(b, loc, in, d, b.getIndexAttr(block),
                                b.getIndexAttr(column), pairs));
  }
  auto entryType = cast<RankedTensorType>(values.front().getType());
  SmallVector<int64_t> shape(entryType.getShape());
  shape.insert(shape.begin() + in.lead, kPoints);
  Operand out = in;
  out.value = bufferization::AllocTensorOp::create(
      b, loc, entryType.clone(shape), ValueRange{});
  out.lead = in.lead + 1;
  for (int64_t a = 0; a < kPoints; ++a) {
    SmallVector<std::pair<Value, double>> terms;
    for (int64_t i = 0; i < static_cast<int64_t>(Values); ++i)
      if (coef[a][i] != 0)
        terms.push_back({values[i], coef[a][i]});
    Value entry = applyWinogradTerms(b, loc, terms,
                                     indexSlice(b, loc, out.value, in.lead, a));
    out.value = insertAtIndex(b, loc, entry, out.value, in.lead, a);
  }
  return out;
}

/// An operand [points..., N, pairs..., C] as [points (one dimension, when
/// `lead` > 0), N, pairs_0 * d_0, ..., C].
Value collapseOperand(OpBuilder &b, Location loc, const Operand &o) {
  auto type = cast<RankedTensorType>(o.value.getType());
  int64_t n = static_cast<int64_t>(o.pos.size());
  SmallVector<ReassociationIndices> reassoc;
  SmallVector<int64_t> shape;
  if (o.lead > 0) {
    reassoc.emplace_back();
    shape.push_back(1);
    for (int64_t i = 0; i < o.lead; ++i) {
      reassoc[0].push_back(i);
      shape[0] *= type.getDimSize(i);
    }
  }
  reassoc.push_back({o.lead});
  shape.push_back(type.getDimSize(o.lead));
  for (int64_t d = 0; d < n; ++d) {
    int64_t dim = o.lead + o.pos[d];
    int64_t width = o.dilations[d] == 1 ? 1 : 2;
    ReassociationIndices group;
    int64_t size = 1;
    for (int64_t k = 0; k < width; ++k) {
      group.push_back(dim + k);
      size *= type.getDimSize(dim + k);
    }
    reassoc.push_back(group);
    shape.push_back(size);
  }
  reassoc.push_back({type.getRank() - 1});
  shape.push_back(type.getDimSize(type.getRank() - 1));
  if (static_cast<int64_t>(shape.size()) == type.getRank())
    return o.value;
  return tensor::CollapseShapeOp::create(b, loc, type.clone(shape), o.value,
                                         reassoc);
}

/// The lead point dimensions of `o` as one (none: a unit one), for the
/// entries' dynamic index.
Operand collapseLead(OpBuilder &b, Location loc, const Operand &o) {
  auto type = cast<RankedTensorType>(o.value.getType());
  Operand out = o;
  out.lead = 1;
  if (o.lead == 1)
    return out;
  SmallVector<int64_t> shape{1};
  SmallVector<ReassociationIndices> reassoc;
  if (o.lead == 0) {
    shape.append(type.getShape().begin(), type.getShape().end());
    reassoc.push_back({0, 1});
    for (int64_t i = 1; i < type.getRank(); ++i)
      reassoc.push_back({i + 1});
    out.value = tensor::ExpandShapeOp::create(b, loc, type.clone(shape),
                                              o.value, reassoc);
    return out;
  }
  reassoc.emplace_back();
  for (int64_t i = 0; i < o.lead; ++i) {
    reassoc[0].push_back(i);
    shape[0] *= type.getDimSize(i);
  }
  for (int64_t i = o.lead; i < type.getRank(); ++i) {
    reassoc.push_back({i});
    shape.push_back(type.getDimSize(i));
  }
  out.value = tensor::CollapseShapeOp::create(b, loc, type.clone(shape),
                                              o.value, reassoc);
  return out;
}

struct BackpropFilterToWinograd : public OpRewritePattern<BackpropFilterOp> {
  BackpropFilterToWinograd(MLIRContext *ctx, WinogradMode mode)
      : OpRewritePattern(ctx, /*benefit=*/2), mode(mode) {}

  WinogradMode mode;

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
            mode == WinogradMode::Auto))
      return rewriter.notifyMatchFailure(op, "not a Winograd F(3, 2) layer");
    Location loc = op.getLoc();
    int64_t n = g.numSpatialDims;
    int64_t cin = g.inChannels, cout = g.outChannels;
    Type f32 = rewriter.getF32Type();
    SmallVector<int64_t> pairs, xStart, xSize, yStart(n, 0), ySize;
    for (int64_t d = 0; d < n; ++d) {
      int64_t dil = g.dilations[d];
      pairs.push_back(llvm::divideCeil(g.outSpatial[d], 2 * dil));
      xStart.push_back(-g.padBefore[d]);
      xSize.push_back(2 * dil * (pairs[d] + 1));
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
    // V and U one dimension at a time (separable: 4 ops a dimension each),
    // all but the last before the points' forall. Input value i of a pair
    // is block q + i / 2, column r + d (i % 2); out_backprop value j block
    // q, column r + d j.
    for (int64_t d = 0; d + 1 < n; ++d) {
      int64_t dil = g.dilations[d];
      x = transformAlong<kPoints>(
          rewriter, loc, x, d, kBT,
          [&](int64_t i) { return std::make_pair(i / 2, dil * (i % 2)); },
          pairs[d]);
      dy = transformAlong<kPairValues>(
          rewriter, loc, dy, d, kA,
          [&](int64_t j) {
            return std::make_pair<int64_t, int64_t>(0, dil * j);
          },
          pairs[d]);
    }
    x = collapseLead(rewriter, loc, x);
    dy = collapseLead(rewriter, loc, dy);

    // M[a] = the 1x1 filter gradient of V[a] and U[a], one point per
    // iteration of an scf.forall; the iteration transforms its entries
    // along the last dimension (a = 4 a' + a_last: entry a' of the stacks,
    // a_last selecting the transform row), so they are still in the cache
    // when its filter gradient reads them.
    int64_t points = power(kPoints, n);
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
          rewriter, loc, e.floorDiv(kPoints), {OpFoldResult(a)});
      Value aLast = affine::makeComposedAffineApply(rewriter, loc, e % kPoints,
                                                    {OpFoldResult(a)});
      auto entryOf = [&](const Operand &o) {
        Operand entry = o;
        entry.value = extractEntry(rewriter, loc, o.value, aLead);
        entry.lead = 0;
        return entry;
      };
      Operand xa = entryOf(x), dya = entryOf(dy);
      xa.value = transformEntry<kPoints>(rewriter, loc, xa, n - 1, kBT, aLast,
                                         pairs[n - 1]);
      dya.value = transformEntry<kPairValues>(rewriter, loc, dya, n - 1, kA,
                                              aLast, pairs[n - 1]);
      Value va = collapseOperand(rewriter, loc, xa);
      Value ua = collapseOperand(rewriter, loc, dya);
      SmallVector<int64_t> filterShape(n, 1);
      filterShape.append({cin, cout});
      SmallVector<int64_t> ones(n, 1);
      Value ma = BackpropFilterOp::create(
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
      rewriter.setInsertionPointToStart(forall.getTerminator().getBody());
      Entry entry = indexEntry(rewriter, {points, cin, cout}, 0, a);
      tensor::ParallelInsertSliceOp::create(
          rewriter, loc, ma, forall.getRegionIterArgs()[0], entry.offsets,
          entry.sizes, entry.strides);
    }
    m = forall.getResult(0);

    // dW = GT applied along every point dimension of M [4, ..., Cin, Cout]
    // (one dimension at a time: 3 ops a dimension).
    SmallVector<int64_t> rShape(n, kPoints);
    rShape.append({cin, cout});
    SmallVector<ReassociationIndices> split(1);
    for (int64_t d = 0; d < n; ++d)
      split[0].push_back(d);
    split.push_back({n});
    split.push_back({n + 1});
    Value dw = tensor::ExpandShapeOp::create(
        rewriter, loc, RankedTensorType::get(rShape, f32), m, split);
    for (int64_t d = 0; d < n; ++d) {
      rShape[d] = kTaps;
      Value next = bufferization::AllocTensorOp::create(
          rewriter, loc, RankedTensorType::get(rShape, f32), ValueRange{});
      for (int64_t k = 0; k < kTaps; ++k) {
        SmallVector<std::pair<Value, double>> terms;
        for (int64_t a = 0; a < kPoints; ++a)
          if (kGT[k][a] != 0)
            terms.push_back({indexSlice(rewriter, loc, dw, d, a), kGT[k][a]});
        Value tap = applyWinogradTerms(rewriter, loc, terms,
                                       indexSlice(rewriter, loc, next, d, k));
        next = insertAtIndex(rewriter, loc, tap, next, d, k);
      }
      dw = next;
    }
    rewriter.replaceOp(op, dw);
    return success();
  }
};

} // namespace

bool mlir::conv::backpropFilterWinogradApplies(
    const convgen::BackpropFilterGeometry &g, Type elementType, bool autoRule) {
  int64_t n = g.numSpatialDims;
  if (!elementType.isF32() || g.layout != Layout::ChannelsLast ||
      g.groups != 1 || n < 1 || n > 3 || g.batch < 1 || g.inChannels < 1 ||
      g.outChannels < 1)
    return false;
  for (int64_t d = 0; d < n; ++d)
    if (g.filterSpatial[d] != kTaps || g.strides[d] != 1 || g.outSpatial[d] < 1)
      return false;
  if (!autoRule)
    return true;
  // The products of the Winograd form against the direct form's, and the
  // reduction of each 1x1 filter gradient (batch x pair positions).
  double direct = 1, winograd = 1, reduction = g.batch;
  for (int64_t d = 0; d < n; ++d) {
    int64_t positions =
        g.dilations[d] * llvm::divideCeil(g.outSpatial[d], 2 * g.dilations[d]);
    direct *= kTaps * g.outSpatial[d];
    winograd *= kPoints * positions;
    reduction *= positions;
  }
  // conv-run --compare=winograd=off (10-20 alternating call pairs, Zen 4,
  // 1 / 2 threads): ResNet-50's 3x3 layers 56x56x64 1.21 / 1.08x,
  // 28x28x128 1.51 / 1.57x, 14x14x256 1.6 / 1.6x, the dilated 28x28x128
  // (d 2) 1.37 / 1.41x and 38x57x512 (d 3) 1.47 / 1.40x, 7x7x512 with a
  // batch of 16 1.10 / 1.09x; with a batch of 8 (a reduction of 128, and
  // 16 / 9 x 49 products: the pairs pad 7 to 8) 0.97 / 0.94x, below which
  // the output transform of the 16 [Cin, Cout] products costs more than
  // it saves. 1-D and 3-D layers are not measured yet.
  return n == 2 && g.inChannels >= 32 && g.outChannels >= 32 &&
         winograd <= 0.6 * direct && reduction >= 192;
}

void mlir::conv::populateBackpropFilterWinogradPatterns(
    RewritePatternSet &patterns, WinogradMode mode) {
  patterns.add<BackpropFilterToWinograd>(patterns.getContext(), mode);
}
