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

#include "Utils.h"

#include "conv/Conversion/ConvToLinalg/ConvToLinalg.h"
#include "conv/Dialect/Conv/IR/ConvOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"

#include <limits>
#include <numeric>

using namespace mlir;
using namespace mlir::conv;
using namespace mlir::conv::detail;
using Layout = convgen::DataLayout;

namespace {

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

/// The spatial slice of `dest` at `offsets` with `sizes` and `strides`
/// (batch and channels whole), as tensor.extract_slice offsets/sizes/strides.
struct SpatialSlice {
  SmallVector<OpFoldResult> offsets, sizes, strides;
  SmallVector<int64_t> shape;
};

SpatialSlice spatialSlice(OpBuilder &b, RankedTensorType type, Layout layout,
                          ArrayRef<int64_t> offsets, ArrayRef<int64_t> sizes,
                          ArrayRef<int64_t> strides) {
  int64_t rank = type.getRank(), n = rank - 2;
  SpatialSlice s;
  s.shape.assign(type.getShape().begin(), type.getShape().end());
  s.offsets.assign(rank, b.getIndexAttr(0));
  s.strides.assign(rank, b.getIndexAttr(1));
  for (int64_t d = 0; d < n; ++d) {
    int64_t dim = spatialDim(layout, d);
    s.offsets[dim] = b.getIndexAttr(offsets[d]);
    s.strides[dim] = b.getIndexAttr(strides[d]);
    s.shape[dim] = sizes[d];
  }
  for (int64_t i = 0; i < rank; ++i)
    s.sizes.push_back(b.getIndexAttr(s.shape[i]));
  return s;
}

SmallVector<int64_t> activationShape(Layout layout, int64_t batch,
                                     ArrayRef<int64_t> spatial,
                                     int64_t channels) {
  auto s = convgen::activationShape(layout, batch, {spatial.begin(), spatial.end()},
                                    channels);
  return {s.begin(), s.end()};
}

struct TransposeToLinalg : public OpRewritePattern<TransposeOp> {
  TransposeToLinalg(MLIRContext *ctx, TransposeLowering lowering)
      : OpRewritePattern(ctx), lowering(lowering) {}

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
    if (work != 0)
      out = lowering == TransposeLowering::Phase
                ? lowerByPhases(rewriter, loc, op, g, out)
                : lowerByZeroInsertion(rewriter, loc, op, g, accType);
    rewriter.replaceOp(op, castElements(rewriter, loc, out, elementType));
    return success();
  }

  Value lowerByPhases(PatternRewriter &b, Location loc, TransposeOp op,
                      const convgen::TransposeGeometry &g, Value out) const {
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
    // phase then reads a slice of it (a view, no copy).
    SmallVector<int64_t> unionStart(n), unionSize(n);
    for (int64_t d = 0; d < n; ++d) {
      int64_t lo = std::numeric_limits<int64_t>::max();
      int64_t hi = std::numeric_limits<int64_t>::min();
      for (const Phase1D &p : phases[d]) {
        if (p.numTaps == 0 || p.outCount == 0)
          continue;
        lo = std::min(lo, p.windowStart);
        hi = std::max(hi, p.windowStart + p.windowSize);
      }
      unionStart[d] = lo <= hi ? lo : 0;
      unionSize[d] = lo <= hi ? hi - lo : 0;
    }
    Value padded = extractZeroPaddedWindow(b, loc, op.getInputs(), g.layout,
                                           unionStart, unionSize);
    auto paddedType = cast<RankedTensorType>(padded.getType());
    SmallVector<int64_t> ones(n, 1);

    // Iterate over the cartesian product of per-dimension phases.
    SmallVector<int64_t> idx(n, 0);
    while (true) {
      bool empty = false;
      SmallVector<int64_t> start, size, tapOffset, tapStep, numTaps, dil,
          outOffset, outCount;
      for (int64_t d = 0; d < n; ++d) {
        const Phase1D &p = phases[d][idx[d]];
        empty |= p.numTaps == 0 || p.outCount == 0;
        start.push_back(p.windowStart);
        size.push_back(p.windowSize);
        tapOffset.push_back(p.tapOffset);
        tapStep.push_back(p.tapStep);
        numTaps.push_back(p.numTaps);
        dil.push_back(p.dilation);
        outOffset.push_back(p.outOffset);
        outCount.push_back(p.outCount);
      }
      if (!empty) {
        SmallVector<int64_t> offset(n);
        for (int64_t d = 0; d < n; ++d)
          offset[d] = start[d] - unionStart[d];
        SpatialSlice view =
            spatialSlice(b, paddedType, g.layout, offset, size, ones);
        Value window = tensor::ExtractSliceOp::create(
            b, loc, paddedType.clone(view.shape), padded, view.offsets,
            view.sizes, view.strides);
        Value subKernel = gatherKernelTaps(b, loc, op.getKernel(), g.layout,
                                           tapOffset, tapStep, numTaps,
                                           /*reverse=*/true);
        // The phase accumulates straight into its strided output slice.
        auto outType = cast<RankedTensorType>(out.getType());
        SpatialSlice slice = spatialSlice(b, outType, g.layout, outOffset,
                                          outCount, g.strides);
        Value init = tensor::ExtractSliceOp::create(
            b, loc, outType.clone(slice.shape), out, slice.offsets,
            slice.sizes, slice.strides);
        Value phase =
            createTapCorrelation(b, loc, g.layout, window, subKernel, init, dil);
        out = tensor::InsertSliceOp::create(b, loc, phase, out, slice.offsets,
                                            slice.sizes, slice.strides);
      }
      int64_t d = n - 1;
      while (d >= 0 && ++idx[d] == g.strides[d])
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
};

} // namespace

void mlir::conv::populateTransposeToLinalgPatterns(RewritePatternSet &patterns,
                                                   TransposeLowering lowering) {
  patterns.add<TransposeToLinalg>(patterns.getContext(), lowering);
}
