//===- ConvToLinalg.h - conv to linalg patterns -----------------*- C++ -*-===//

#ifndef CONV_CONVERSION_CONVTOLINALG_CONVTOLINALG_H
#define CONV_CONVERSION_CONVTOLINALG_CONVTOLINALG_H

namespace mlir {
class RewritePatternSet;
} // namespace mlir

namespace mlir::conv {

/// conv.backprop_filter -> per-tap linalg contractions.
void populateBackpropFilterToLinalgPatterns(RewritePatternSet &patterns);

/// How conv.transpose is lowered.
enum class TransposeLowering {
  /// prod(strides) dense stride-1 phase correlations (the default).
  Phase,
  /// One correlation over the zero-inserted input (test oracle only).
  ZeroInsertion,
};

/// conv.transpose -> linalg.
void populateTransposeToLinalgPatterns(RewritePatternSet &patterns,
                                       TransposeLowering lowering);

} // namespace mlir::conv

#endif // CONV_CONVERSION_CONVTOLINALG_CONVTOLINALG_H
