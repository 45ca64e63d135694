//===- WinogradUtils.h - Shared Winograd transform helpers ------*- C++ -*-===//
//
// Helpers of the separable Winograd transforms (WinogradUtils.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef LIB_CONVERSION_CONVTOLINALG_WINOGRADUTILS_H
#define LIB_CONVERSION_CONVTOLINALG_WINOGRADUTILS_H

#include "Utils.h"

#include "mlir/IR/Builders.h"

namespace mlir::conv::detail {

/// A row-major transform matrix (rows x cols).
struct WinogradMatrix {
  ArrayRef<double> values;
  int64_t rows, cols;
  double operator()(int64_t r, int64_t c) const { return values[r * cols + c]; }
};

int64_t power(int64_t base, int64_t n);

/// `v` without its unit dimension `dim` (merged into a neighbour by a
/// tensor.collapse_shape: a rank-reducing slice of a tensor with other unit
/// dimensions is ambiguous, and memref.subview's dropped-dimension
/// inference crashed on one).
Value dropUnitDim(OpBuilder &b, Location loc, Value v, int64_t dim);

/// `v` with a unit dimension inserted at `dim` (tensor.expand_shape).
Value addUnitDim(OpBuilder &b, Location loc, Value v, int64_t dim);

/// Offsets / sizes / strides of the slice [index] along `dim` of a tensor
/// of `shape` (whole along the others).
struct Entry {
  SmallVector<OpFoldResult> offsets, sizes, strides;
};
Entry indexEntry(OpBuilder &b, ArrayRef<int64_t> shape, int64_t dim,
                 OpFoldResult index);

/// `v[..., index, ...]` along dimension `dim`, that dimension dropped
/// (`index` may be dynamic).
Value indexSlice(OpBuilder &b, Location loc, Value v, int64_t dim,
                 OpFoldResult index);
Value indexSlice(OpBuilder &b, Location loc, Value v, int64_t dim,
                 int64_t index);

/// `stack[index]` (`index` may be a loop variable).
Value extractEntry(OpBuilder &b, Location loc, Value stack, OpFoldResult index);

/// `value` inserted into `dest` as `dest[..., index, ...]` along `dim`.
Value insertAtIndex(OpBuilder &b, Location loc, Value value, Value dest,
                    int64_t dim, int64_t index);

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
                    ArrayRef<int64_t> dilations);

/// The pairs' values at (block, column) along spatial dimension `d`: the
/// slice of `o` at block offset `block` and column `column` of `pairs`
/// pairs (dilation 1: positions column + 2 (block + q), stride 2). The
/// offsets may be dynamic.
Value pairValues(OpBuilder &b, Location loc, const Operand &o, int64_t d,
                 OpFoldResult block, OpFoldResult column, int64_t pairs);

/// `choices[index]` for a dynamic index in [0, choices.size()) (a chain
/// of selects).
Value selectByIndex(OpBuilder &b, Location loc, Value index,
                    ArrayRef<Value> choices);

/// sum_k cs[k] * ts[k] elementwise into `init` (the cs f32 scalars): a
/// linalg.generic tagged conv.role = winograd_transform.
Value applyScaledTerms(OpBuilder &b, Location loc, ArrayRef<Value> ts,
                       ArrayRef<Value> cs, Value init);

/// Row `a` (dynamic) of the transform `coef` along the last spatial
/// dimension `d` of `o` (no point dimensions): sum_i coef[a][i] * value i
/// (block i / 2, column d (i % 2)), as c0 * value p0 + c1 * value p1 +
/// ... (as many terms as the most nonzeros of a row; the
/// positions p_k and coefficients c_k selected by `a`, a shorter row's
/// last terms its first value times 0).
Value transformEntry(OpBuilder &b, Location loc, const Operand &o, int64_t d,
                     const WinogradMatrix &coef, Value a, int64_t pairs);

/// One transform pass along spatial dimension `d`: a new point dimension
/// (after the existing ones) of coef.rows entries, entry a = sum_i
/// coef[a][i] * (the pairs' value i: `place(i)` gives its block and
/// column), one elementwise op per entry.
Operand transformAlong(OpBuilder &b, Location loc, const Operand &in, int64_t d,
                       const WinogradMatrix &coef,
                       function_ref<std::pair<int64_t, int64_t>(int64_t)> place,
                       int64_t pairs);

/// An operand [points..., N, pairs..., C] as [points (one dimension, when
/// `lead` > 0), N, pairs_0 * d_0, ..., C].
Value collapseOperand(OpBuilder &b, Location loc, const Operand &o);

/// The lead point dimensions of `o` as one (none: a unit one), for the
/// entries' dynamic index.
Operand collapseLead(OpBuilder &b, Location loc, const Operand &o);

} // namespace mlir::conv::detail

#endif // LIB_CONVERSION_CONVTOLINALG_WINOGRADUTILS_H
