//===- Winograd.cpp - Winograd F(2, T) phase correlations -----------------===//
//
// A transposed convolution's phase is a stride-1 correlation (Transpose.cpp).
// Along its last spatial dimension, with T = 2 or 3 taps and no dilation,
// every pair of outputs y[2j], y[2j + 1] is Winograd's minimal filter
// F(2, T) (Lavin & Gray, "Fast Algorithms for Convolutional Neural
// Networks", 2016):
//
//   y[2j + e] = sum_xi AT[e][xi] * m_xi[j],
//   m_xi[j]   = sum_{ci} D_xi[j, ci] * U_xi[ci, co],
//   D_xi[j]   = sum_a BT[xi][a] * w[2j + a],     U_xi = sum_t G[xi][t] * f[t]
//
// T + 1 products per pair instead of 2T: 3 for 4 (F(2, 2)), 4 for 6
// (F(2, 3)). Each m_xi is itself a phase correlation (one tap along the last
// dimension, the phase's taps along the others), so the CPU code generator
// tiles it like any other; the transforms are elementwise sums of strided
// slices (conv.role = winograd_transform). docs/Lowering.md §3.10.
//
//===----------------------------------------------------------------------===//

#include "Utils.h"

#include "conv/Conversion/ConvToLinalg/ConvToLinalg.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

#include <cmath>

using namespace mlir;
using namespace mlir::conv;
using namespace mlir::conv::detail;

namespace {

/// The transforms of F(2, T): alpha = T + 1 products; BT is alpha x alpha,
/// G alpha x T, AT 2 x alpha (row-major).
struct WinogradTransforms {
  int64_t alpha;
  ArrayRef<double> bt, g, at;
};

// F(2, 2): m0 = (w0 - w1) f0, m1 = w1 (f0 + f1), m2 = (w2 - w1) f1;
// y0 = m0 + m1, y1 = m1 + m2.
constexpr double kBT2[] = {1, -1, 0, 0, 1, 0, 0, -1, 1};
constexpr double kG2[] = {1, 0, 1, 1, 0, 1};
constexpr double kAT2[] = {1, 1, 0, 0, 1, 1};
// F(2, 3) (Lavin & Gray's; BT is kWinogradF23BT).
constexpr double kG3[] = {1, 0, 0, 0.5, 0.5, 0.5, 0.5, -0.5, 0.5, 0, 0, 1};
constexpr double kAT3[] = {1, 1, 1, 0, 0, 1, -1, -1};

std::optional<WinogradTransforms> transformsFor(int64_t taps) {
  if (taps == 2)
    return WinogradTransforms{3, kBT2, kG2, kAT2};
  if (taps == 3)
    return WinogradTransforms{4, kWinogradF23BT, kG3, kAT3};
  return std::nullopt;
}

/// `v` with its dimension `dim` sliced to [offset, offset + size * stride)
/// with `stride` (the other dimensions whole).
Value sliceDim(OpBuilder &b, Location loc, Value v, int64_t dim, int64_t offset,
               int64_t size, int64_t stride) {
  auto type = cast<RankedTensorType>(v.getType());
  if (offset == 0 && stride == 1 && size == type.getDimSize(dim))
    return v;
  SmallVector<OpFoldResult> offsets(type.getRank(), b.getIndexAttr(0)), sizes,
      strides(type.getRank(), b.getIndexAttr(1));
  SmallVector<int64_t> shape(type.getShape());
  for (int64_t s : shape)
    sizes.push_back(b.getIndexAttr(s));
  offsets[dim] = b.getIndexAttr(offset);
  sizes[dim] = b.getIndexAttr(size);
  strides[dim] = b.getIndexAttr(stride);
  shape[dim] = size;
  return tensor::ExtractSliceOp::create(b, loc, type.clone(shape), v, offsets,
                                        sizes, strides);
}

/// The nonzero terms of one transform row: the operand indices and their
/// coefficients.
SmallVector<std::pair<int64_t, double>> rowTerms(ArrayRef<double> matrix,
                                                 int64_t row, int64_t cols) {
  SmallVector<std::pair<int64_t, double>> terms;
  for (int64_t c = 0; c < cols; ++c)
    if (double v = matrix[row * cols + c]; v != 0)
      terms.push_back({c, v});
  return terms;
}

/// Row `row` of the transform `matrix` (rows x cols) applied to `operands`
/// (cols tensors of one shape), elementwise, into `init`
/// (applyWinogradTerms over the row's nonzero coefficients).
Value applyTransformRow(OpBuilder &b, Location loc, ArrayRef<Value> operands,
                        ArrayRef<double> matrix, int64_t cols, int64_t row,
                        Value init) {
  SmallVector<std::pair<Value, double>> terms;
  for (auto [c, v] : rowTerms(matrix, row, cols))
    terms.push_back({operands[c], v});
  return applyWinogradTerms(b, loc, terms, init);
}

} // namespace

Value mlir::conv::detail::applyWinogradTerms(
    OpBuilder &b, Location loc, ArrayRef<std::pair<Value, double>> terms,
    Value init) {
  assert(!terms.empty() && "a nonzero coefficient");
  // One magnitude |c| for all terms: their signed sum times |c| once;
  // otherwise each term times its own magnitude (where not 1).
  double scale = std::fabs(terms.front().second);
  SmallVector<Value> inputs;
  for (auto [operand, v] : terms) {
    if (std::fabs(v) != scale)
      scale = 0;
    inputs.push_back(operand);
  }
  auto type = cast<RankedTensorType>(init.getType());
  int64_t rank = type.getRank();
  SmallVector<AffineMap> maps(inputs.size() + 1,
                              b.getMultiDimIdentityMap(rank));
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{type}, inputs, ValueRange{init}, maps, iterators,
      [&](OpBuilder &nb, Location nl, ValueRange args) {
        // Mixed magnitudes: each product with `contract` (an FMA).
        auto fmf = scale == 0 ? arith::FastMathFlags::contract
                              : arith::FastMathFlags::none;
        Value acc;
        for (auto [i, term] : llvm::enumerate(terms)) {
          Value arg = args[i];
          double magnitude = std::fabs(term.second);
          if (scale == 0 && magnitude != 1.0)
            arg = arith::MulFOp::create(
                nb, nl, arg,
                arith::ConstantOp::create(
                    nb, nl, nb.getFloatAttr(type.getElementType(), magnitude)),
                fmf);
          if (!acc)
            acc = term.second < 0 ? Value(arith::NegFOp::create(nb, nl, arg))
                                  : arg;
          else
            acc = term.second < 0
                      ? Value(arith::SubFOp::create(nb, nl, acc, arg, fmf))
                      : Value(arith::AddFOp::create(nb, nl, acc, arg, fmf));
        }
        if (scale != 0 && scale != 1.0)
          acc = arith::MulFOp::create(
              nb, nl, acc,
              arith::ConstantOp::create(
                  nb, nl, nb.getFloatAttr(type.getElementType(), scale)));
        linalg::YieldOp::create(nb, nl, acc);
      });
  generic->setAttr(kRoleAttrName, b.getStringAttr(kRoleWinogradTransform));
  return generic.getResult(0);
}

bool mlir::conv::detail::winogradSupportsTaps(int64_t taps) {
  return transformsFor(taps).has_value();
}

/// The slice `stack[index]` of a stack [alpha, ...] whose trailing sizes
/// are `shape` (all of a stack entry, or its first columns).
struct StackSlice {
  SmallVector<OpFoldResult> offsets, sizes, strides;
};
static StackSlice stackEntry(OpBuilder &b, int64_t rank, OpFoldResult index,
                             ArrayRef<int64_t> shape) {
  StackSlice s;
  s.offsets.assign(rank, b.getIndexAttr(0));
  s.offsets[0] = index;
  s.sizes.push_back(b.getIndexAttr(1));
  for (int64_t d : shape)
    s.sizes.push_back(b.getIndexAttr(d));
  s.strides.assign(rank, b.getIndexAttr(1));
  return s;
}

/// `stack[index]` as a tensor of its trailing dimensions (rank-reduced
/// slice; `index` may be a loop variable).
static Value stackSlice(OpBuilder &b, Location loc, Value stack,
                        OpFoldResult index) {
  auto type = cast<RankedTensorType>(stack.getType());
  ArrayRef<int64_t> shape = type.getShape().drop_front();
  StackSlice s = stackEntry(b, type.getRank(), index, shape);
  return tensor::ExtractSliceOp::create(
      b, loc, RankedTensorType::get(shape, type.getElementType()), stack,
      s.offsets, s.sizes, s.strides);
}

/// `value` inserted as (the first columns of) `stack[index]`.
static Value insertIntoStack(OpBuilder &b, Location loc, Value value,
                             Value stack, OpFoldResult index) {
  auto type = cast<RankedTensorType>(stack.getType());
  StackSlice s = stackEntry(b, type.getRank(), index,
                            cast<RankedTensorType>(value.getType()).getShape());
  return tensor::InsertSliceOp::create(b, loc, value, stack, s.offsets, s.sizes,
                                       s.strides);
}

Value mlir::conv::detail::createWinogradFilter(OpBuilder &b, Location loc,
                                               Value filter, int64_t parts) {
  auto filterType = cast<RankedTensorType>(filter.getType());
  int64_t n = filterType.getRank() - 2;
  int64_t taps = filterType.getDimSize(n - 1);
  std::optional<WinogradTransforms> tf = transformsFor(taps);
  assert(tf && "F(2, 2) or F(2, 3)");
  int64_t alpha = tf->alpha;
  Type filterElement = filterType.getElementType();
  int64_t cin = filterType.getDimSize(n), cout = filterType.getDimSize(n + 1);
  // U[xi] = sum_t G[xi][t] * f[t] along the last tap dimension: [alpha,
  // T..., 1, Cin, Cout], in rows one cache line longer when a row is a
  // multiple of 128 bytes (as the relayouts write the taps).
  SmallVector<int64_t> uShape{alpha};
  uShape.append(filterType.getShape().begin(), filterType.getShape().end());
  uShape[n] = 1;
  int64_t pad = conflictFreeRowPad(cout, filterElement);
  SmallVector<int64_t> wide(uShape);
  wide.back() += pad;
  Value uStack = bufferization::AllocTensorOp::create(
      b, loc, RankedTensorType::get(wide, filterElement), ValueRange{});
  if (parts < 2 || cin % parts != 0)
    parts = 1;
  int64_t chunk = cin / parts;
  // The rows of the input channels [ci0, ci0 + chunk): one op per row of
  // G, each writing its slot of `stack` as the previous one left it (the
  // results, with their offsets, in `rows`).
  struct Row {
    Value value;
    StackSlice slice;
  };
  auto buildRows = [&](OpBuilder &nb, Location nl, Value stack,
                       OpFoldResult ci0) {
    SmallVector<Value> filterTaps;
    for (int64_t t = 0; t < taps; ++t) {
      Value tap = sliceDim(nb, nl, filter, n - 1, t, 1, 1);
      if (parts > 1)
        tap = extractDimSlice(nb, nl, tap, n, ci0, chunk).value;
      filterTaps.push_back(tap);
    }
    SmallVector<Row> rows;
    SmallVector<int64_t> slotShape(uShape.begin() + 1, uShape.end());
    slotShape[n] = chunk;
    for (int64_t xi = 0; xi < alpha; ++xi) {
      Row row;
      row.slice = stackEntry(nb, wide.size(), nb.getIndexAttr(xi), slotShape);
      row.slice.offsets[n + 1] = ci0;
      const StackSlice &at = row.slice;
      Value slot = tensor::ExtractSliceOp::create(
          nb, nl, RankedTensorType::get(slotShape, filterElement), stack,
          at.offsets, at.sizes, at.strides);
      row.value = applyTransformRow(nb, nl, filterTaps, tf->g, taps, xi, slot);
      if (parts == 1)
        stack = tensor::InsertSliceOp::create(nb, nl, row.value, stack,
                                              at.offsets, at.sizes, at.strides);
      rows.push_back(std::move(row));
    }
    return std::make_pair(stack, rows);
  };
  if (parts == 1) {
    uStack = buildRows(b, loc, uStack, b.getIndexAttr(0)).first;
  } else {
    // One scf.forall over parts of the input channels for all the rows (the
    // code generator would otherwise split each row's op over the threads
    // on its own: one parallel region per row).
    auto forall = scf::ForallOp::create(
        b, loc, ArrayRef<OpFoldResult>{b.getIndexAttr(parts)},
        ValueRange{uStack}, std::nullopt);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(forall.getBody());
    Value ci0 = affine::makeComposedAffineApply(
        b, loc, b.getAffineDimExpr(0) * chunk,
        {OpFoldResult(forall.getInductionVars()[0])});
    Value shared = forall.getRegionIterArgs()[0];
    auto rows = buildRows(b, loc, shared, ci0).second;
    b.setInsertionPointToStart(forall.getTerminator().getBody());
    for (const Row &row : rows)
      tensor::ParallelInsertSliceOp::create(b, loc, row.value, shared,
                                            row.slice.offsets, row.slice.sizes,
                                            row.slice.strides);
    uStack = forall.getResult(0);
  }
  if (pad)
    uStack = sliceDim(b, loc, uStack, n + 2, 0, cout, 1);
  return uStack;
}

Value mlir::conv::detail::createWinogradInput(OpBuilder &b, Location loc,
                                              Value window, int64_t taps,
                                              int64_t pairs) {
  auto windowType = cast<RankedTensorType>(window.getType());
  int64_t last = windowType.getRank() - 2; // [B, spatial..., C]
  std::optional<WinogradTransforms> tf = transformsFor(taps);
  assert(tf && "F(2, 2) or F(2, 3)");
  int64_t alpha = tf->alpha;
  assert(windowType.getDimSize(last) >= 2 * pairs + taps - 1 &&
         "a window column per output pair and tap");
  // D[xi] = sum_a BT[xi][a] * w[2j + a] (w[2j + a]: the window's slice at
  // a with stride 2), all alpha of them in one tensor [alpha, B, W...,
  // pairs, Cin] that the correlation loop indexes, one op per row, each
  // writing the stack as the previous one left it.
  SmallVector<Value> columns;
  for (int64_t a = 0; a < alpha; ++a)
    columns.push_back(sliceDim(b, loc, window, last, a, pairs, 2));
  SmallVector<int64_t> dShape{alpha};
  dShape.append(windowType.getShape().begin(), windowType.getShape().end());
  dShape[1 + last] = pairs;
  Value dStack = bufferization::AllocTensorOp::create(
      b, loc, RankedTensorType::get(dShape, windowType.getElementType()),
      ValueRange{});
  for (int64_t xi = 0; xi < alpha; ++xi) {
    Value d = applyTransformRow(b, loc, columns, tf->bt, alpha, xi,
                                stackSlice(b, loc, dStack, b.getIndexAttr(xi)));
    dStack = insertIntoStack(b, loc, d, dStack, b.getIndexAttr(xi));
  }
  return dStack;
}

Value mlir::conv::detail::createWinogradCorrelation(
    OpBuilder &b, Location loc, Value dStack, Value uStack, Value out,
    ArrayRef<OpFoldResult> outOffsets, ArrayRef<int64_t> outShape,
    ArrayRef<int64_t> outStrides, ArrayRef<int64_t> dilations,
    ArrayRef<int64_t> validRows) {
  auto dType = cast<RankedTensorType>(dStack.getType());
  auto uType = cast<RankedTensorType>(uStack.getType());
  auto outType = cast<RankedTensorType>(out.getType());
  int64_t n = static_cast<int64_t>(dilations.size());
  int64_t last = n; // the last spatial dimension of [B, spatial..., C]
  int64_t alpha = uType.getDimSize(0);
  int64_t taps = alpha - 1;
  std::optional<WinogradTransforms> tf = transformsFor(taps);
  assert(tf && dilations.back() == 1 && "F(2, 2) or F(2, 3), no dilation");
  int64_t outputs = outShape[last];
  int64_t pairs = (outputs + 1) / 2;
  assert(dType.getDimSize(0) == alpha && dType.getDimSize(1 + last) == pairs &&
         "an input stack of the taps' transform, a column per output pair");
  Type elementType = outType.getElementType();

  // M[xi] = D[xi] (*) U[xi]: one correlation with one tap along the last
  // dimension, in an scf.for over xi (one copy of its code). Its window
  // rows along the other dimensions are the phase window's: the taps that
  // read padding there are skipped.
  SmallVector<int64_t> mShape{alpha};
  mShape.append(outShape.begin(), outShape.end());
  mShape[1 + last] = pairs;
  SmallVector<int64_t> mDilations(dilations);
  mDilations.back() = 1;
  SmallVector<int64_t> mValidRows;
  bool readsPadding = false;
  if (!validRows.empty()) {
    mValidRows.assign(validRows.begin(), validRows.end());
    mValidRows[3 * (n - 1)] = 0;
    mValidRows[3 * (n - 1) + 1] = pairs;
    mValidRows[3 * (n - 1) + 2] = 1;
    for (int64_t d = 0; d + 1 < n; ++d)
      readsPadding |= mValidRows[3 * d] > 0 ||
                      mValidRows[3 * d + 1] < dType.getDimSize(2 + d);
  }
  Value mStack = bufferization::AllocTensorOp::create(
      b, loc, RankedTensorType::get(mShape, elementType), ValueRange{});
  Value lb = arith::ConstantIndexOp::create(b, loc, 0);
  Value ub = arith::ConstantIndexOp::create(b, loc, alpha);
  Value step = arith::ConstantIndexOp::create(b, loc, 1);
  auto loop = scf::ForOp::create(
      b, loc, lb, ub, step, ValueRange{mStack},
      [&](OpBuilder &nb, Location nl, Value xi, ValueRange args) {
        Value zero =
            arith::ConstantOp::create(nb, nl, nb.getZeroAttr(elementType));
        Value mInit =
            linalg::FillOp::create(nb, nl, zero,
                                   ValueRange{stackSlice(nb, nl, args[0], xi)})
                .getResult(0);
        Value m = createTapCorrelation(
            nb, nl, convgen::DataLayout::ChannelsLast,
            stackSlice(nb, nl, dStack, xi), stackSlice(nb, nl, uStack, xi),
            mInit, mDilations);
        if (readsPadding)
          m.getDefiningOp()->setAttr(kPhaseWindowAttrName,
                                     nb.getDenseI64ArrayAttr(mValidRows));
        m.getDefiningOp()->setAttr(kPhaseBatchRowsAttrName, nb.getUnitAttr());
        scf::YieldOp::create(nb, nl, insertIntoStack(nb, nl, m, args[0], xi));
      });
  mStack = loop.getResult(0);

  // y[2j + e] = sum_xi AT[e][xi] * M[xi][j], written into `out`'s slices
  // at offset + e * stride with twice the stride along the last dimension
  // (every output of the phase is written: `out` needs no zeros there).
  SmallVector<Value> products;
  for (int64_t xi = 0; xi < alpha; ++xi)
    products.push_back(stackSlice(b, loc, mStack, b.getIndexAttr(xi)));
  for (int64_t e = 0; e < 2; ++e) {
    int64_t count = (outputs - e + 1) / 2;
    if (count == 0)
      continue;
    SmallVector<Value> terms;
    for (Value m : products)
      terms.push_back(sliceDim(b, loc, m, last, 0, count, 1));
    SmallVector<OpFoldResult> offsets(outOffsets), sizes,
        strides(outType.getRank(), b.getIndexAttr(1));
    SmallVector<int64_t> shape(outShape);
    shape[last] = count;
    for (int64_t i = 0; i < outType.getRank(); ++i) {
      sizes.push_back(b.getIndexAttr(shape[i]));
      strides[i] = b.getIndexAttr(outStrides[i]);
    }
    std::optional<int64_t> offset = getConstantIntValue(outOffsets[last]);
    assert(offset && "a static offset along the last dimension");
    offsets[last] = b.getIndexAttr(*offset + e * outStrides[last]);
    strides[last] = b.getIndexAttr(2 * outStrides[last]);
    // A slice of a slice folds into one slice of the outer tensor (a batch
    // block's output: the forall's shared output), which one-shot
    // bufferization then sees written before the block's own slice is
    // read: it copied the whole block. Written into a fresh tensor then
    // (one copy of this slice instead).
    Value dest =
        out.getDefiningOp<tensor::ExtractSliceOp>()
            ? Value(bufferization::AllocTensorOp::create(
                  b, loc, outType.clone(shape), ValueRange{}))
            : Value(tensor::ExtractSliceOp::create(
                  b, loc, outType.clone(shape), out, offsets, sizes, strides));
    Value y = applyTransformRow(b, loc, terms, tf->at, alpha, e, dest);
    out =
        tensor::InsertSliceOp::create(b, loc, y, out, offsets, sizes, strides);
  }
  return out;
}
