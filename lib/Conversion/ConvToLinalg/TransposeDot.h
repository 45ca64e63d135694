//===- TransposeDot.h - Tiny-Cout transposed convolutions as dots ---------===//
//
// The dot lowering of conv.transpose (docs/Lowering.md §3.11): a 1-D or 2-D
// channels-last f32 transposed convolution with few output channels
// computes each output as a dot product of a window of input rows with the
// kernel taps of its stride phase, both contiguous along the input
// channels, in vectors of lane partial sums that a shuffle tree reduces.
//
//===----------------------------------------------------------------------===//

#ifndef CONV_LIB_CONVERSION_CONVTOLINALG_TRANSPOSEDOT_H
#define CONV_LIB_CONVERSION_CONVTOLINALG_TRANSPOSEDOT_H

#include "conv/Conversion/ConvToLinalg/ConvToLinalg.h"
#include "conv/Geometry/Geometry.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Value.h"
#include <optional>

namespace mlir::conv {

// (TransposeDotPlan and planTransposeDot: ConvToLinalg.h.)

/// out[b, (oh,) o, co] = sum_{i, t: i s + t - crop = o (and along h)}
/// sum_ci x[b, (ih,) i, ci] K[(th,) t, co, ci] as vector code (scf loops,
/// vector.transfer_read, vector.fma, a vector.shuffle tree), `x` [N, (H,)
/// W, Cin] and `kernel` [(kh,) k, Cout, Cin] f32 tensors; returns the [N,
/// (OH,) OW, Cout] result.
Value lowerTransposeByDot(OpBuilder &b, Location loc, Value x, Value kernel,
                          const convgen::TransposeGeometry &g,
                          const TransposeDotPlan &plan);

} // namespace mlir::conv

#endif // CONV_LIB_CONVERSION_CONVTOLINALG_TRANSPOSEDOT_H
