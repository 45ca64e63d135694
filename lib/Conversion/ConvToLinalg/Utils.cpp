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

DimSlice extractDimSlice(OpBuilder &b, Location loc, Value v, int64_t dim,
                         OpFoldResult offset, OpFoldResult size) {
  int64_t rank = cast<RankedTensorType>(v.getType()).getRank();
  DimSlice slice;
  slice.offsets.assign(rank, b.getIndexAttr(0));
  slice.strides.assign(rank, b.getIndexAttr(1));
  slice.offsets[dim] = offset;
  slice.sizes = tensor::getMixedSizes(b, loc, v);
  slice.sizes[dim] = size;
  slice.value = tensor::ExtractSliceOp::create(b, loc, v, slice.offsets,
                                               slice.sizes, slice.strides);
  return slice;
}

DimSlice extractDimSlice(OpBuilder &b, Location loc, Value v, int64_t dim,
                         OpFoldResult offset, int64_t size) {
  return extractDimSlice(b, loc, v, dim, offset, b.getIndexAttr(size));
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
  generic->setAttr(kRoleAttrName, b.getStringAttr(kRoleCast));
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

int64_t conflictFreeRowPad(int64_t rowElements, Type elementType) {
  int64_t elemBytes =
      std::max<int64_t>(1, elementType.getIntOrFloatBitWidth() / 8);
  if ((rowElements * elemBytes) % 128 != 0)
    return 0;
  return (64 + elemBytes - 1) / elemBytes;
}

Value gatherKernelTaps(OpBuilder &b, Location loc, Value kernel,
                       Layout layout, ArrayRef<int64_t> offset,
                       ArrayRef<int64_t> step, ArrayRef<int64_t> count,
                       bool reverse, bool cinInnermost) {
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
    if (cinInnermost) {
      dst.append({o, c});
      shape.append({cout, cin});
    } else {
      dst.append({c, o});
      shape.append({cin, cout});
    }
  } else {
    dst.append({o, c});
    shape.append({cout, cin});
    for (int64_t d = 0; d < n; ++d) {
      dst.push_back(getAffineDimExpr(d, ctx));
      shape.push_back(count[d]);
    }
  }
  // Rows of [T..., Cin, Cout] a multiple of 128 bytes apart would map a
  // column tile's panel (one row per tap and input channel) onto a few
  // cache sets (Cout = 256 f32: 4 of the 64 L1 sets): the copy gets 64
  // bytes of padding per row, and the contraction reads the [..., 0, Cout)
  // view of it.
  int64_t pad = layout == Layout::ChannelsLast && !cinInnermost
                    ? conflictFreeRowPad(cout, type.getElementType())
                    : 0;
  if (pad > 0) {
    SmallVector<OpFoldResult> low(n + 2, b.getIndexAttr(0)),
        high(n + 2, b.getIndexAttr(0));
    high[n] = b.getIndexAttr(pad);
    SmallVector<int64_t> padded(type.getShape());
    padded[n] += pad;
    Value zero =
        arith::ConstantOp::create(b, loc, b.getZeroAttr(type.getElementType()));
    kernel = tensor::PadOp::create(b, loc, type.clone(padded), kernel, low,
                                   high, zero);
    shape.back() += pad;
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
  if (pad == 0)
    return generic.getResult(0);
  SmallVector<OpFoldResult> offsets(n + 2, b.getIndexAttr(0)), sizes,
      strides(n + 2, b.getIndexAttr(1));
  for (int64_t d : shape)
    sizes.push_back(b.getIndexAttr(d));
  sizes.back() = b.getIndexAttr(cout);
  return tensor::ExtractSliceOp::create(b, loc, generic.getResult(0), offsets,
                                        sizes, strides);
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

linalg::GenericOp createMulAdd(OpBuilder &b, Location loc, Value lhs,
                               Value rhs, Value init,
                               ArrayRef<AffineExpr> lhsE,
                               ArrayRef<AffineExpr> rhsE,
                               ArrayRef<AffineExpr> initE, int64_t numLoops,
                               int64_t numParallel, StringRef role) {
  MLIRContext *ctx = b.getContext();
  SmallVector<AffineMap> maps = {AffineMap::get(numLoops, 0, lhsE, ctx),
                                 AffineMap::get(numLoops, 0, rhsE, ctx),
                                 AffineMap::get(numLoops, 0, initE, ctx)};
  SmallVector<utils::IteratorType> iterators(numLoops,
                                             utils::IteratorType::reduction);
  for (int64_t i = 0; i < numParallel; ++i)
    iterators[i] = utils::IteratorType::parallel;
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{init.getType()}, ValueRange{lhs, rhs},
      ValueRange{init}, maps, iterators, buildMulAddBody);
  generic->setAttr(kRoleAttrName, b.getStringAttr(role));
  return generic;
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
  return createMulAdd(b, loc, input, filter, init, xE, fE, outE, numLoops,
                      /*numParallel=*/n + 2, kRoleTransposePhase)
      .getResult(0);
}

Value createCorrelation(OpBuilder &b, Location loc, Layout layout, Value input,
                        Value kernel, ArrayRef<int64_t> offset,
                        ArrayRef<int64_t> step, ArrayRef<int64_t> count,
                        Value init, ArrayRef<int64_t> dilations) {
  // The partial sums cost a zero fill and a lane sum of 8 values per output
  // element: worth it when each output sums enough products.
  constexpr int64_t kLanes = 8, kMinCin = 16, kMinTerms = 512;
  auto kType = cast<RankedTensorType>(kernel.getType());
  int64_t n = static_cast<int64_t>(dilations.size());
  int64_t cout = kType.getDimSize(n), cin = kType.getDimSize(n + 1);
  int64_t terms = cin;
  for (int64_t c : count)
    terms *= c;
  if (layout != Layout::ChannelsLast || cout > kMaxLanesCout || cin < kMinCin ||
      terms < kMinTerms)
    return createTapCorrelation(
        b, loc, layout, input,
        gatherKernelTaps(b, loc, kernel, layout, offset, step, count, true),
        init, dilations);

  MLIRContext *ctx = b.getContext();
  auto initType = cast<RankedTensorType>(init.getType());
  Type accType = initType.getElementType();
  int64_t main = cin / kLanes * kLanes, rank = n + 2;
  auto channelSlice = [&](Value v, int64_t dim, int64_t begin, int64_t size) {
    auto type = cast<RankedTensorType>(v.getType());
    if (begin == 0 && size == type.getDimSize(dim))
      return v;
    SmallVector<OpFoldResult> offsets(type.getRank(), b.getIndexAttr(0)),
        sizes, strides(type.getRank(), b.getIndexAttr(1));
    SmallVector<int64_t> shape(type.getShape());
    for (int64_t i = 0; i < type.getRank(); ++i)
      sizes.push_back(b.getIndexAttr(shape[i]));
    offsets[dim] = b.getIndexAttr(begin);
    sizes[dim] = b.getIndexAttr(size);
    shape[dim] = size;
    return Value(tensor::ExtractSliceOp::create(b, loc, type.clone(shape), v,
                                                offsets, sizes, strides));
  };
  auto splitLast = [&](Value v) { // [..., C] -> [..., C / L, L]
    auto type = cast<RankedTensorType>(v.getType());
    SmallVector<int64_t> shape(type.getShape());
    int64_t c = shape.back();
    shape.back() = c / kLanes;
    shape.push_back(kLanes);
    SmallVector<ReassociationIndices> reassoc;
    for (int64_t i = 0; i + 1 < type.getRank(); ++i)
      reassoc.push_back({i});
    reassoc.push_back({type.getRank() - 1, type.getRank()});
    return Value(tensor::ExpandShapeOp::create(b, loc, type.clone(shape), v,
                                               reassoc));
  };
  // x[b, sp..., cio, lane] and K[t..., co, cio, lane] (ci innermost).
  Value x = splitLast(channelSlice(input, rank - 1, 0, main));
  Value taps = gatherKernelTaps(b, loc, kernel, layout, offset, step, count,
                                /*reverse=*/true, /*cinInnermost=*/true);
  Value k = splitLast(channelSlice(taps, n + 1, 0, main));

  // partial[b, co, o..., lane] = sum_{t, cio} x[b, o + t*d, cio, lane] *
  //                                           K[t, co, cio, lane]
  // (co before the output positions: a register tile of rows x lanes is
  // then the two innermost dimensions, so its transfers are minor-identity
  // and hoistable).
  SmallVector<int64_t> partialShape{initType.getDimSize(0), cout};
  for (int64_t d = 0; d < n; ++d)
    partialShape.push_back(initType.getDimSize(1 + d));
  partialShape.push_back(kLanes);
  Value partial = createZeros(b, loc, partialShape, accType);
  int64_t numLoops = 2 * n + 4;
  AffineExpr bE = getAffineDimExpr(0, ctx), coE = getAffineDimExpr(n + 1, ctx),
             laneE = getAffineDimExpr(n + 2, ctx),
             cioE = getAffineDimExpr(2 * n + 3, ctx);
  SmallVector<AffineExpr> xE{bE}, kE, pE{bE, coE};
  for (int64_t d = 0; d < n; ++d) {
    AffineExpr o = getAffineDimExpr(1 + d, ctx), t = getAffineDimExpr(n + 3 + d, ctx);
    xE.push_back(o + t * dilations[d]);
    kE.push_back(t);
    pE.push_back(o);
  }
  xE.append({cioE, laneE});
  kE.append({coE, cioE, laneE});
  pE.push_back(laneE);
  auto lanes = createMulAdd(b, loc, x, k, partial, xE, kE, pE, numLoops,
                            /*numParallel=*/n + 3, kRoleTransposeLanes);

  // init[b, o..., co] += sum_lane partial[b, co, o..., lane]
  int64_t sumLoops = rank + 1;
  SmallVector<AffineExpr> sumIn{getAffineDimExpr(0, ctx),
                                getAffineDimExpr(n + 1, ctx)};
  for (int64_t d = 0; d < n; ++d)
    sumIn.push_back(getAffineDimExpr(1 + d, ctx));
  sumIn.push_back(getAffineDimExpr(n + 2, ctx));
  SmallVector<utils::IteratorType> sumIterators(sumLoops,
                                                utils::IteratorType::parallel);
  sumIterators.back() = utils::IteratorType::reduction;
  Value out =
      linalg::GenericOp::create(
          b, loc, TypeRange{initType}, ValueRange{lanes.getResult(0)},
          ValueRange{init},
          SmallVector<AffineMap>{
              AffineMap::get(sumLoops, 0, sumIn, ctx),
              AffineMap::getMultiDimIdentityMap(sumLoops, ctx)
                  .getMajorSubMap(rank)},
          sumIterators,
          [](OpBuilder &nb, Location nl, ValueRange args) {
            Value sum = arith::AddFOp::create(nb, nl, args[1], args[0]);
            linalg::YieldOp::create(nb, nl, sum);
          })
          .getResult(0);
  if (main == cin)
    return out;
  // The input channels past the last multiple of 8.
  Value tailTaps = gatherKernelTaps(b, loc, kernel, layout, offset, step,
                                    count, /*reverse=*/true);
  return createTapCorrelation(b, loc, layout,
                              channelSlice(input, rank - 1, main, cin - main),
                              channelSlice(tailTaps, n, main, cin - main), out,
                              dilations);
}

Value createPairPack(OpBuilder &b, Location loc, Value first,
                     Value second) {
  auto type = cast<RankedTensorType>(first.getType());
  int64_t rank = type.getRank();
  SmallVector<int64_t> shape(type.getShape());
  shape.push_back(2);
  MLIRContext *ctx = b.getContext();
  AffineMap in = AffineMap::getMultiDimIdentityMap(rank + 1, ctx)
                     .getMajorSubMap(rank);
  AffineMap out = AffineMap::getMultiDimIdentityMap(rank + 1, ctx);
  Value init = tensor::EmptyOp::create(b, loc, shape, type.getElementType());
  SmallVector<utils::IteratorType> iterators(rank + 1,
                                             utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{init.getType()}, ValueRange{first, second},
      ValueRange{init}, ArrayRef<AffineMap>{in, in, out}, iterators,
      [&](OpBuilder &nb, Location nl, ValueRange args) {
        Value e = linalg::IndexOp::create(nb, nl, rank);
        Value zero = arith::ConstantIndexOp::create(nb, nl, 0);
        Value isFirst = arith::CmpIOp::create(nb, nl, arith::CmpIPredicate::eq,
                                              e, zero);
        Value v = arith::SelectOp::create(nb, nl, isFirst, args[0], args[1]);
        linalg::YieldOp::create(nb, nl, v);
      });
  generic->setAttr(kRoleAttrName, b.getStringAttr(kRolePairPack));
  return generic.getResult(0);
}

} // namespace mlir::conv::detail
