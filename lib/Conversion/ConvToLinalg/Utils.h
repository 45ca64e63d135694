//===- Utils.h - Helpers shared by the conv-to-linalg patterns --*- C++ -*-===//

#ifndef LIB_CONVERSION_CONVTOLINALG_UTILS_H
#define LIB_CONVERSION_CONVTOLINALG_UTILS_H

#include "conv/Geometry/Geometry.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Value.h"

namespace mlir::conv::detail {

/// f32 for f16/bf16 (accumulate in f32, round once), else the type itself.
Type getAccumulatorType(Type elementType);

/// A tensor of `shape` filled with zeros of `elementType`.
Value createZeros(OpBuilder &b, Location loc, ArrayRef<int64_t> shape,
                  Type elementType);

/// Elementwise float cast (extf / truncf) of a tensor; identity if the type
/// already matches.
Value castElements(OpBuilder &b, Location loc, Value tensor, Type elementType);

/// A slice of a tensor along one dimension, whole along the others, with
/// the offsets, sizes and strides that made it (for the matching insert).
struct DimSlice {
  Value value;
  SmallVector<OpFoldResult> offsets, sizes, strides;
};

/// v[..., offset : offset + size, ...] along dimension `dim` (the other
/// dimensions whole; `v` and `size` may be dynamic).
DimSlice extractDimSlice(OpBuilder &b, Location loc, Value v, int64_t dim,
                         OpFoldResult offset, OpFoldResult size);
DimSlice extractDimSlice(OpBuilder &b, Location loc, Value v, int64_t dim,
                         OpFoldResult offset, int64_t size);

/// Positions of batch / channel / spatial dimensions of an activation tensor.
int64_t channelDim(convgen::DataLayout layout, int64_t numSpatialDims);
int64_t spatialDim(convgen::DataLayout layout, int64_t dim);

/// The window x[start_d, start_d + size_d) along every spatial dimension of
/// the activation tensor `x` (batch and channels whole), zero outside the
/// tensor: a static tensor.extract_slice (when the window cuts the input)
/// followed by a static tensor.pad (when it leaves it). `start` may be
/// negative; the result has the window's static shape.
Value extractZeroPaddedWindow(OpBuilder &b, Location loc, Value x,
                              convgen::DataLayout layout,
                              ArrayRef<int64_t> start, ArrayRef<int64_t> size);

/// Extra entries per row that keep a kernel matrix's column-tile panel off
/// a few L1 cache sets: 64 bytes' worth when a row of `rowElements` is a
/// multiple of 128 bytes (its rows would map to 1-4 of the 64 sets), else
/// 0. Shared by the kernel gather, the per-tap relayouts and the columns
/// lowering's KT.
int64_t conflictFreeRowPad(int64_t rowElements, Type elementType);

/// Gathers kernel taps: result[t..., a, b] = kernel[offset_d + step_d * t_d
/// (reversed when `reverse`)..., ...] for t_d < count_d, with the two channel
/// dimensions of `kernel` ([spatial..., Cout, Cin]) laid out as `named-conv`
/// expects: [T..., Cin, Cout] for channels-last (*_hwcf) or [Cout, Cin, T...]
/// for channels-first (*_fchw). A linalg.generic copy of the kernel-sized
/// tensor; for channels last, when a [.., Cin, Cout] row is a multiple of 128
/// bytes, the copy has 64 bytes of padding per row and the result is the
/// [..., 0:Cout] view of it (rows on every cache set).
Value gatherKernelTaps(OpBuilder &b, Location loc, Value kernel,
                       convgen::DataLayout layout, ArrayRef<int64_t> offset,
                       ArrayRef<int64_t> step, ArrayRef<int64_t> count,
                       bool reverse, bool cinInnermost = false);

/// Stride-1 N-D correlation with `dilations`, accumulated into `init`:
///   out[b, o..., co] += sum_{t..., ci} x[b, o + t*d..., ci] * f[t..., ci, co]
/// (channels-first: x[b, ci, o + t*d...], f[co, ci, t...], out[b, co, o...])
/// as a linalg.generic with loops [b, o..., co, t..., ci], tagged
/// conv.role = transpose_phase. `filter` is laid out as gatherKernelTaps
/// returns it; 16-bit operands are extended to the accumulator type of
/// `init`.
Value createTapCorrelation(OpBuilder &b, Location loc,
                           convgen::DataLayout layout, Value input,
                           Value filter, Value init,
                           ArrayRef<int64_t> dilations);

/// The most output channels for which createCorrelation may split the
/// input-channel reduction into lanes; with more, it is always
/// createTapCorrelation on the gathered taps.
inline constexpr int64_t kMaxLanesCout = 4;

/// The correlation of one phase / tap group: gathers the taps of `kernel`
/// (as gatherKernelTaps, reversed) and accumulates into `init`. With
/// channels last, at most 4 output channels and at least 16 input channels
/// the input-channel reduction is split into 8 lanes (role
/// transpose_lanes: vectors run along ci, which is contiguous in the input
/// and in the kernel), then the lanes are summed; a ci tail that is not a
/// multiple of 8 goes through createTapCorrelation. Otherwise this is
/// createTapCorrelation.
Value createCorrelation(OpBuilder &b, Location loc, convgen::DataLayout layout,
                        Value input, Value kernel, ArrayRef<int64_t> offset,
                        ArrayRef<int64_t> step, ArrayRef<int64_t> count,
                        Value init, ArrayRef<int64_t> dilations);

/// A multiply-accumulate body: init + ext(lhs) * ext(rhs) in the type of
/// init.
void buildMulAddBody(OpBuilder &b, Location loc, ValueRange args);

/// init += lhs * rhs (buildMulAddBody) as a linalg.generic over `numLoops`
/// loops, the first `numParallel` parallel and the rest reductions, with
/// the operands indexed by `lhsE`, `rhsE` and `initE`; tagged
/// `conv.role = role`.
linalg::GenericOp createMulAdd(OpBuilder &b, Location loc, Value lhs,
                               Value rhs, Value init,
                               ArrayRef<AffineExpr> lhsE,
                               ArrayRef<AffineExpr> rhsE,
                               ArrayRef<AffineExpr> initE, int64_t numLoops,
                               int64_t numParallel, StringRef role);

/// FLOPs per operand element from which a 16-bit op is compute-bound
/// enough to run as the f32 op between conversions (Widen.cpp) or, for bf16
/// filter gradients with vdpbf16ps, with pair operands (dwUsesBF16Pairs).
inline constexpr double kMin16BitFlopsPerElement = 200;

/// Whether a bf16 filter gradient is lowered with pair contractions
/// (docs/Lowering.md §2.6; with the lowering's bf16Pairs option): channels
/// last, no groups, no tiny-Cin fusion, at least 2 spatial dimensions, an
/// even number of output positions along the last one, and at least
/// kMin16BitFlopsPerElement FLOPs per operand element.
bool dwUsesBF16Pairs(const convgen::BackpropFilterGeometry &g);

/// out[..., c, e] = e == 0 ? a[..., c] : b[..., c] for e < 2 (a and b of
/// one static shape): a linalg.generic tagged conv.role = pair_pack.
Value createPairPack(OpBuilder &b, Location loc, Value first, Value second);

/// sum_i c_i * t_i over `terms` (t_i tensors of `init`'s shape),
/// elementwise, into `init`: a linalg.generic over the operands tagged
/// conv.role = winograd_transform that adds / subtracts them and, where
/// every |c_i| is the same, multiplies the sum once by |c|, else each t_i
/// by its |c_i| (where not 1).
Value applyWinogradTerms(OpBuilder &b, Location loc,
                         ArrayRef<std::pair<Value, double>> terms, Value init);

/// Winograd's F(2, 3) input transform BT (4 x 4, row-major; Lavin &
/// Gray's): the phases' F(2, 3) (Winograd.cpp) and, as the transpose
/// F(3, 2), the filter gradient's input transform (WinogradFilterGradient.cpp).
inline constexpr double kWinogradF23BT[] = {1, 0,  -1, 0, 0, 1, 1, 0,
                                            0, -1, 1,  0, 0, 1, 0, -1};

/// Whether createWinogradCorrelation has a transform for `taps` taps along
/// the last spatial dimension (2 or 3).
bool winogradSupportsTaps(int64_t taps);

/// The Winograd F(2, T) transform of a phase's taps `filter` ([T..., Cin,
/// Cout], T = its last tap count, winogradSupportsTaps): U[xi] = sum_t
/// G[xi][t] f[..., t, ...] as one tensor [T + 1, T..., 1, Cin, Cout] (rows
/// one cache line longer when a multiple of 128 bytes), for
/// createWinogradCorrelation. It depends on the kernel only, so a caller
/// that runs the phase per batch block computes it once, before the blocks.
/// With `parts` > 1 dividing Cin, all its rows run in one scf.forall over
/// `parts` parts of the input channels (for a caller outside any forall:
/// the code generator would split each row's op over the threads on its
/// own, one parallel region a row).
Value createWinogradFilter(OpBuilder &b, Location loc, Value filter,
                           int64_t parts = 1);

/// The Winograd F(2, T) input transform of a channels-last `window` ([B,
/// spatial..., Cin]) along its last spatial dimension, for `pairs` output
/// pairs of a correlation with T = `taps` taps there (winogradSupportsTaps):
/// D[xi] = sum_a BT[xi][a] * window[..., 2j + a, :] as one tensor [T + 1, B,
/// spatial..., pairs, Cin] (elementwise ops, conv.role =
/// winograd_transform). The window needs 2 pairs + T - 1 columns along the
/// last dimension. The other dimensions are the window's: phases that read
/// the same columns can share one stack over all their rows, each passing
/// its own rows' slice to createWinogradCorrelation.
Value createWinogradInput(OpBuilder &b, Location loc, Value window,
                          int64_t taps, int64_t pairs);

/// The channels-last stride-1 correlation `y[b, o..., co] = sum_{t..., ci}
/// window[b, o + t*d..., ci] * f[t..., ci, co]`, with its last spatial
/// dimension computed pairwise by Winograd's F(2, T) from `dStack` =
/// createWinogradInput(window) (restricted to the correlation's window rows
/// along the other dimensions) and `uStack` = createWinogradFilter(f)
/// (dilation 1 along that dimension), written into the slice of `out` at
/// `outOffsets` (static along the last spatial dimension) of shape
/// `outShape` with `outStrides`: T + 1 correlations of one tap along that
/// dimension in an scf.for (conv.role = transpose_phase, carrying
/// `validRows` as conv.phase_window for the other dimensions, and
/// conv.phase_batch_rows) followed by the elementwise output transform
/// (conv.role = winograd_transform). For n outputs along the last dimension
/// `dStack` has ceil(n/2) pairs (the window one more column than the plain
/// correlation's when n is odd). Returns the updated `out`; every element
/// of the slice is written.
Value createWinogradCorrelation(OpBuilder &b, Location loc, Value dStack,
                                Value uStack, Value out,
                                ArrayRef<OpFoldResult> outOffsets,
                                ArrayRef<int64_t> outShape,
                                ArrayRef<int64_t> outStrides,
                                ArrayRef<int64_t> dilations,
                                ArrayRef<int64_t> validRows);

} // namespace mlir::conv::detail

#endif // LIB_CONVERSION_CONVTOLINALG_UTILS_H
