//===- ConvToLinalg.cpp - convert-conv-to-linalg pass ---------------------===//
//
// The pass only assembles the per-op-family patterns of BackpropFilter.cpp and
// Transpose.cpp.
//
//===----------------------------------------------------------------------===//

#include "conv/Conversion/ConvToLinalg/ConvToLinalg.h"
#include "conv/Conversion/Passes.h"
#include "conv/Dialect/Conv/IR/ConvOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::conv {
#define GEN_PASS_DEF_CONVERTCONVTOLINALGPASS
#include "conv/Conversion/Passes.h.inc"
} // namespace mlir::conv

using namespace mlir;
using namespace mlir::conv;

namespace {
struct ConvertConvToLinalgPass
    : public conv::impl::ConvertConvToLinalgPassBase<ConvertConvToLinalgPass> {
  using Base::Base;

  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    std::optional<TransposeTaps> taps = parseTransposeTaps(transposePerTap);
    if (!taps) {
      getOperation()->emitError()
          << "convert-conv-to-linalg: option transpose-per-tap: expected "
             "'auto', 'always', 'never' or 'columns', got '"
          << transposePerTap << "'";
      return signalPassFailure();
    }
    // The Winograd options ('off', 'auto' or 'on').
    auto parseMode = [&](StringRef name,
                         StringRef value) -> std::optional<WinogradMode> {
      std::optional<WinogradMode> mode = parseTransposeWinograd(value);
      if (!mode)
        getOperation()->emitError()
            << "convert-conv-to-linalg: option " << name
            << ": expected 'off', 'auto' or 'on', got '" << value << "'";
      return mode;
    };
    std::optional<WinogradMode> winograd =
        parseMode("transpose-winograd", transposeWinograd);
    if (!winograd)
      return signalPassFailure();
    std::optional<WinogradMode> dwWinogradMode =
        parseMode("dw-winograd", dwWinograd);
    if (!dwWinogradMode)
      return signalPassFailure();
    WinogradFilterGradientRule dwWinogradRule;
    dwWinogradRule.minChannels = dwWinogradMinChannels;
    dwWinogradRule.maxProductRatio = dwWinogradMaxProducts;
    populateBackpropFilterWinogradPatterns(
        patterns, *dwWinogradMode, dwReductionBlockBytes, dwWinogradRule,
        dwWinogradBlockBytes, dwThreads, dwWinogradL1BlockBytes);
    BackpropFilterLoweringOptions dwOptions;
    dwOptions.reductionBlockBytes = dwReductionBlockBytes;
    dwOptions.smallFilterBlockBytes = dwSmallFilterBlockBytes;
    dwOptions.wideRowBlockBytes = dwWideRowBlockBytes;
    dwOptions.splitMaxBytes = dwSplitMaxBytes;
    dwOptions.splitTapsMaxBytes = dwSplitTapsMaxBytes;
    dwOptions.threads = dwThreads;
    dwOptions.bf16Pairs = bf16Dot;
    dwOptions.cutLongRows = dwCutLongRows;
    dwOptions.tapRowLanes = dwTapRowLanes;
    dwOptions.tapPlaneLanes = dwTapPlaneLanes;
    populateBackpropFilterToLinalgPatterns(patterns, dwOptions);
    TransposeLoweringOptions transposeOptions;
    transposeOptions.lowering = zeroInsertionTranspose
                                    ? TransposeLowering::ZeroInsertion
                                    : TransposeLowering::Phase;
    transposeOptions.taps = *taps;
    transposeOptions.tapsOverhead = transposeTapsOverhead;
    transposeOptions.threads = transposeThreads;
    transposeOptions.batchRows = transposeBatchRows;
    transposeOptions.columnsLanes = transposeColumnsLanes;
    transposeOptions.columnsBandBytes = transposeColumnsBandBytes;
    transposeOptions.winograd = *winograd;
    transposeOptions.winogradManyPhaseOutChannels =
        transposeWinogradManyPhaseOutChannels;
    transposeOptions.dotLanes = transposeDotLanes;
    populateTransposeToLinalgPatterns(patterns, transposeOptions);
    if (widen16BitOperands)
      populateWidenSixteenBitConvPatterns(patterns,
                                          /*keepBF16=*/bf16Dot);
    ConversionTarget target(getContext());
    target.addIllegalDialect<ConvDialect>();
    target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
    if (failed(applyPartialConversion(getOperation(), target,
                                      std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
