//===- WinogradUtils.cpp - Shared Winograd transform helpers
//---------------===//
//
// The separable Winograd transforms of WinogradFilterGradient.cpp: stacks
// of transformed pair values built one spatial dimension at a time, the
// dynamic entries of the last dimension's transform, and the unit-dimension
// slices they are stored with. docs/Lowering.md §2.7.
//
//===----------------------------------------------------------------------===//

#include "WinogradUtils.h"

#include "conv/Conversion/ConvToLinalg/ConvToLinalg.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;
using namespace mlir::conv;
using namespace mlir::conv::detail;

namespace mlir::conv::detail {

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

/// sum_k cs[k] * ts[k] elementwise into `init` (the cs f32 scalars): a
/// linalg.generic tagged conv.role = winograd_transform.
Value applyScaledTerms(OpBuilder &b, Location loc, ArrayRef<Value> ts,
                       ArrayRef<Value> cs, Value init) {
  assert(!ts.empty() && ts.size() == cs.size() && "one scalar a term");
  auto type = cast<RankedTensorType>(init.getType());
  int64_t rank = type.getRank();
  int64_t count = static_cast<int64_t>(ts.size());
  AffineMap id = b.getMultiDimIdentityMap(rank);
  AffineMap scalar = AffineMap::get(rank, 0, b.getContext());
  SmallVector<AffineMap> maps(count, id);
  maps.append(count, scalar);
  maps.push_back(id);
  SmallVector<Value> inputs(ts);
  inputs.append(cs.begin(), cs.end());
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{type}, inputs, ValueRange{init}, maps, iterators,
      [&](OpBuilder &nb, Location nl, ValueRange args) {
        // `contract`: each further term one FMA.
        auto fmf = arith::FastMathFlags::contract;
        Value sum = arith::MulFOp::create(nb, nl, args[0], args[count], fmf);
        for (int64_t k = 1; k < count; ++k)
          sum = arith::AddFOp::create(
              nb, nl, sum,
              arith::MulFOp::create(nb, nl, args[k], args[count + k], fmf),
              fmf);
        linalg::YieldOp::create(nb, nl, sum);
      });
  generic->setAttr(kRoleAttrName, b.getStringAttr(kRoleWinogradTransform));
  return generic.getResult(0);
}

Value transformEntry(OpBuilder &b, Location loc, const Operand &o, int64_t d,
                     const WinogradMatrix &coef, Value a, int64_t pairs) {
  // Every row as `width` terms (the most nonzeros of a row): a shorter row
  // repeats its first value times 0.
  SmallVector<SmallVector<std::pair<int64_t, double>>> rows;
  size_t width = 0;
  for (int64_t row = 0; row < coef.rows; ++row) {
    SmallVector<std::pair<int64_t, double>> terms;
    for (int64_t i = 0; i < coef.cols; ++i)
      if (coef(row, i) != 0)
        terms.push_back({i, coef(row, i)});
    assert(!terms.empty() && "a nonzero a row");
    width = std::max(width, terms.size());
    rows.push_back(std::move(terms));
  }
  SmallVector<SmallVector<Value>> positions(width), coefficients(width);
  for (auto &terms : rows) {
    while (terms.size() < width)
      terms.push_back({terms.front().first, 0.0});
    for (size_t k = 0; k < width; ++k) {
      positions[k].push_back(
          arith::ConstantIndexOp::create(b, loc, terms[k].first));
      coefficients[k].push_back(arith::ConstantOp::create(
          b, loc, b.getF32FloatAttr(static_cast<float>(terms[k].second))));
    }
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
  SmallVector<Value> ts, cs;
  for (size_t k = 0; k < width; ++k)
    ts.push_back(value(selectByIndex(b, loc, a, positions[k])));
  for (size_t k = 0; k < width; ++k)
    cs.push_back(selectByIndex(b, loc, a, coefficients[k]));
  auto type = cast<RankedTensorType>(ts.front().getType());
  Value init =
      tensor::EmptyOp::create(b, loc, type.getShape(), type.getElementType());
  return applyScaledTerms(b, loc, ts, cs, init);
}

Operand transformAlong(OpBuilder &b, Location loc, const Operand &in, int64_t d,
                       const WinogradMatrix &coef,
                       function_ref<std::pair<int64_t, int64_t>(int64_t)> place,
                       int64_t pairs) {
  SmallVector<Value> values;
  for (int64_t i = 0; i < coef.cols; ++i) {
    auto [block, column] = place(i);
    values.push_back(pairValues(b, loc, in, d, b.getIndexAttr(block),
                                b.getIndexAttr(column), pairs));
  }
  auto entryType = cast<RankedTensorType>(values.front().getType());
  SmallVector<int64_t> shape(entryType.getShape());
  shape.insert(shape.begin() + in.lead, coef.rows);
  Operand out = in;
  out.value = bufferization::AllocTensorOp::create(
      b, loc, entryType.clone(shape), ValueRange{});
  out.lead = in.lead + 1;
  for (int64_t a = 0; a < coef.rows; ++a) {
    SmallVector<std::pair<Value, double>> terms;
    for (int64_t i = 0; i < coef.cols; ++i)
      if (coef(a, i) != 0)
        terms.push_back({values[i], coef(a, i)});
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

} // namespace mlir::conv::detail
