//===- Utils.cpp - Helpers shared by the conv-to-linalg patterns ----------===//

#include "Utils.h"

#include "conv/Conversion/ConvToLinalg/ConvToLinalg.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;
using Layout = convgen::DataLayout;

namespace mlir::conv::detail {

Type getAccumulatorType(Type elementType) {
  if (elementType.isF16() || elementType.isBF16())
    return Float32Type::get(elementType.getContext());
  return elementType;
}

Value createZeros(OpBuilder &b, Location loc, ArrayRef<int64_t> shape,
                  Type elementType) {
  Value empty = tensor::EmptyOp::create(b, loc, shape, elementType);
  Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(elementType));
  return linalg::FillOp::create(b, loc, zero, empty).getResult(0);
}

Value castElements(OpBuilder &b, Location loc, Value tensor,
                   Type elementType) {
  auto type = cast<RankedTensorType>(tensor.getType());
  Type from = type.getElementType();
  if (from == elementType)
    return tensor;
  auto resultType = type.clone(elementType);
  Value init = tensor::EmptyOp::create(b, loc, type.getShape(), elementType);
  unsigned rank = type.getRank();
  SmallVector<AffineMap> maps(2, b.getMultiDimIdentityMap(rank));
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  bool widen = elementType.getIntOrFloatBitWidth() > from.getIntOrFloatBitWidth();
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{resultType}, ValueRange{tensor}, ValueRange{init}, maps,
      iterators, [&](OpBuilder &nb, Location nl, ValueRange args) {
        Value v = widen ? arith::ExtFOp::create(nb, nl, elementType, args[0])
                              .getResult()
                        : arith::TruncFOp::create(nb, nl, elementType, args[0])
                              .getResult();
        linalg::YieldOp::create(nb, nl, v);
      });
  return generic.getResult(0);
}

int64_t channelDim(Layout layout, int64_t n) {
  return convgen::channelDimension(layout, n);
}

int64_t spatialDim(Layout layout, int64_t d) {
  return convgen::spatialDimension(layout, d);
}

Value extractZeroPaddedWindow(OpBuilder &b, Location loc, Value x,
                              Layout layout, ArrayRef<int64_t> start,
                              ArrayRef<int64_t> size) {
  auto type = cast<RankedTensorType>(x.getType());
  int64_t rank = type.getRank(), n = rank - 2;
  SmallVector<int64_t> windowShape(type.getShape());
  SmallVector<int64_t> sliceOffsets(rank, 0), sliceSizes(type.getShape());
  SmallVector<int64_t> low(rank, 0), high(rank, 0);
  bool needSlice = false, needPad = false, empty = false;
  for (int64_t d = 0; d < n; ++d) {
    int64_t dim = spatialDim(layout, d);
    int64_t in = type.getDimSize(dim);
    int64_t begin = std::max<int64_t>(0, start[d]);
    int64_t end = std::min<int64_t>(in, start[d] + size[d]);
    int64_t len = std::max<int64_t>(0, end - begin);
    windowShape[dim] = size[d];
    if (len == 0) {
      empty = true;
      continue;
    }
    sliceOffsets[dim] = begin;
    sliceSizes[dim] = len;
    low[dim] = begin - start[d];
    high[dim] = size[d] - low[dim] - len;
    needSlice |= begin != 0 || len != in;
    needPad |= low[dim] != 0 || high[dim] != 0;
  }
  if (empty)
    return createZeros(b, loc, windowShape, type.getElementType());
  Value v = x;
  if (needSlice) {
    SmallVector<OpFoldResult> offsets, sizes, strides;
    for (int64_t i = 0; i < rank; ++i) {
      offsets.push_back(b.getIndexAttr(sliceOffsets[i]));
      sizes.push_back(b.getIndexAttr(sliceSizes[i]));
      strides.push_back(b.getIndexAttr(1));
    }
    v = tensor::ExtractSliceOp::create(b, loc, v, offsets, sizes, strides);
  }
  if (needPad) {
    SmallVector<OpFoldResult> lowOfr, highOfr;
    for (int64_t i = 0; i < rank; ++i) {
      lowOfr.push_back(b.getIndexAttr(low[i]));
      highOfr.push_back(b.getIndexAttr(high[i]));
    }
    Value zero = arith::ConstantOp::create(
        b, loc, b.getZeroAttr(type.getElementType()));
    auto resultType = RankedTensorType::get(windowShape, type.getElementType());
    v = tensor::PadOp::create(b, loc, resultType, v, lowOfr, highOfr, zero);
  }
  return v;
}

Value gatherKernelTaps(OpBuilder &b, Location loc, Value kernel,
                       Layout layout, ArrayRef<int64_t> offset,
                       ArrayRef<int64_t> step, ArrayRef<int64_t> count,
                       bool reverse) {
  auto type = cast<RankedTensorType>(kernel.getType());
  int64_t n = type.getRank() - 2;
  int64_t cout = type.getDimSize(n), cin = type.getDimSize(n + 1);
  MLIRContext *ctx = b.getContext();
  // Loop dims: t_0..t_{n-1}, o (Cout), c (Cin).
  SmallVector<AffineExpr> src;
  for (int64_t d = 0; d < n; ++d) {
    AffineExpr t = getAffineDimExpr(d, ctx);
    if (reverse)
      t = (count[d] - 1) - t;
    src.push_back(offset[d] + t * step[d]);
  }
  AffineExpr o = getAffineDimExpr(n, ctx), c = getAffineDimExpr(n + 1, ctx);
  src.push_back(o);
  src.push_back(c);
  SmallVector<AffineExpr> dst;
  SmallVector<int64_t> shape;
  if (layout == Layout::ChannelsLast) {
    for (int64_t d = 0; d < n; ++d) {
      dst.push_back(getAffineDimExpr(d, ctx));
      shape.push_back(count[d]);
    }
    dst.append({c, o});
    shape.append({cin, cout});
  } else {
    dst.append({o, c});
    shape.append({cout, cin});
    for (int64_t d = 0; d < n; ++d) {
      dst.push_back(getAffineDimExpr(d, ctx));
      shape.push_back(count[d]);
    }
  }
  SmallVector<AffineMap> maps = {AffineMap::get(n + 2, 0, src, ctx),
                                 AffineMap::get(n + 2, 0, dst, ctx)};
  Value init = tensor::EmptyOp::create(b, loc, shape, type.getElementType());
  SmallVector<utils::IteratorType> iterators(n + 2,
                                             utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{init.getType()}, ValueRange{kernel}, ValueRange{init},
      maps, iterators, [](OpBuilder &nb, Location nl, ValueRange args) {
        linalg::YieldOp::create(nb, nl, args[0]);
      });
  return generic.getResult(0);
}

void buildMulAddBody(OpBuilder &b, Location loc, ValueRange args) {
  Type accType = args[2].getType();
  Value lhs = args[0], rhs = args[1];
  if (lhs.getType() != accType)
    lhs = arith::ExtFOp::create(b, loc, accType, lhs);
  if (rhs.getType() != accType)
    rhs = arith::ExtFOp::create(b, loc, accType, rhs);
  // `contract` lets the multiply-add fuse into an FMA (one rounding).
  auto fmf = arith::FastMathFlags::contract;
  Value mul = arith::MulFOp::create(b, loc, lhs, rhs, fmf);
  Value add = arith::AddFOp::create(b, loc, args[2], mul, fmf);
  linalg::YieldOp::create(b, loc, add);
}

Value createTapCorrelation(OpBuilder &b, Location loc, Layout layout,
                           Value input, Value filter, Value init,
                           ArrayRef<int64_t> dilations) {
  int64_t n = static_cast<int64_t>(dilations.size());
  MLIRContext *ctx = b.getContext();
  // Loops: b, o_0..o_{n-1}, co, t_0..t_{n-1}, ci.
  int64_t numLoops = 2 * n + 3;
  AffineExpr bE = getAffineDimExpr(0, ctx);
  AffineExpr coE = getAffineDimExpr(n + 1, ctx);
  AffineExpr ciE = getAffineDimExpr(2 * n + 2, ctx);
  SmallVector<AffineExpr> oE, tE, xSpatial;
  for (int64_t d = 0; d < n; ++d) {
    oE.push_back(getAffineDimExpr(1 + d, ctx));
    tE.push_back(getAffineDimExpr(n + 2 + d, ctx));
    xSpatial.push_back(oE[d] + tE[d] * dilations[d]);
  }
  SmallVector<AffineExpr> xE{bE}, fE, outE{bE};
  bool last = layout == Layout::ChannelsLast;
  if (!last) {
    xE.push_back(ciE);
    outE.push_back(coE);
    fE = {coE, ciE};
  }
  xE.append(xSpatial);
  outE.append(oE);
  fE.append(tE);
  if (last) {
    xE.push_back(ciE);
    outE.push_back(coE);
    fE.append({ciE, coE});
  }
  SmallVector<AffineMap> maps = {AffineMap::get(numLoops, 0, xE, ctx),
                                 AffineMap::get(numLoops, 0, fE, ctx),
                                 AffineMap::get(numLoops, 0, outE, ctx)};
  SmallVector<utils::IteratorType> iterators(numLoops,
                                             utils::IteratorType::parallel);
  for (int64_t i = n + 2; i < numLoops; ++i)
    iterators[i] = utils::IteratorType::reduction;
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{init.getType()}, ValueRange{input, filter},
      ValueRange{init}, maps, iterators, buildMulAddBody);
  generic->setAttr(kRoleAttrName, b.getStringAttr(kRoleTransposePhase));
  return generic.getResult(0);
}

} // namespace mlir::conv::detail
