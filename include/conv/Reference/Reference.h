//===- Reference.h - Plain loop reference of both ops -----------*- C++ -*-===//
//
// Straight from the index maps of the spec (docs/Semantics.md), f64
// accumulation, every element type, both layouts, N = 1..3, groups. This is
// the oracle of every correctness test; it is deliberately simple, not fast.
//
//===----------------------------------------------------------------------===//

#ifndef CONV_REFERENCE_REFERENCE_H
#define CONV_REFERENCE_REFERENCE_H

#include "conv/Geometry/Geometry.h"
#include "conv/Support/ElementType.h"

namespace convgen {

/// dW in f64. Buffers are dense row-major in the shapes of `g` (input and
/// out_backprop in the data layout, the result [spatial..., Cin/G, Cout]).
void referenceBackpropFilter(const BackpropFilterGeometry &g,
                             const double *input, const double *outBackprop,
                             double *filter);

/// Keras conv_transpose in f64; kernel [spatial..., Cout, Cin].
void referenceTranspose(const TransposeGeometry &g, const double *input,
                        const double *kernel, double *output);

/// Typed entry points: operands of element type `t`, f64 accumulation, one
/// rounding of the result to `t`.
void referenceBackpropFilter(const BackpropFilterGeometry &g, ElementType t,
                             const void *input, const void *outBackprop,
                             void *filter);
void referenceTranspose(const TransposeGeometry &g, ElementType t,
                        const void *input, const void *kernel, void *output);

} // namespace convgen

#endif // CONV_REFERENCE_REFERENCE_H
