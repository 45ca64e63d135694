//===- FinishLLVMLowering.cpp - conv-finish-llvm-lowering
//------------------===//
//
// The memref, OpenMP, ub, index and func operations left after the vector
// conversion go to the LLVM dialect in one dialect conversion, with the
// patterns of the five upstream passes that did it one after the other.
//
//===----------------------------------------------------------------------===//

#include "conv/Codegen/Passes.h"

#include "mlir/Analysis/DataLayoutAnalysis.h"
#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVM.h"
#include "mlir/Conversion/IndexToLLVM/IndexToLLVM.h"
#include "mlir/Conversion/LLVMCommon/ConversionTarget.h"
#include "mlir/Conversion/LLVMCommon/LoweringOptions.h"
#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/MemRefToLLVM/MemRefToLLVM.h"
#include "mlir/Conversion/OpenMPToLLVM/ConvertOpenMPToLLVM.h"
#include "mlir/Conversion/UBToLLVM/UBToLLVM.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::conv {
#define GEN_PASS_DEF_CONVFINISHLLVMLOWERINGPASS
#include "conv/Codegen/Passes.h.inc"
} // namespace mlir::conv

using namespace mlir;

namespace {

struct FinishLLVMLowering
    : public conv::impl::ConvFinishLLVMLoweringPassBase<FinishLLVMLowering> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    const auto &dataLayoutAnalysis = getAnalysis<DataLayoutAnalysis>();
    LowerToLLVMOptions options(ctx, dataLayoutAnalysis.getAtOrAbove(module));
    options.useGenericFunctions = useGenericFunctions;
    LLVMTypeConverter converter(ctx, options, &dataLayoutAnalysis);

    RewritePatternSet patterns(ctx);
    SymbolTableCollection symbolTables;
    arith::populateArithToLLVMConversionPatterns(converter, patterns);
    populateMathToLLVMConversionPatterns(converter, patterns);
    cf::populateControlFlowToLLVMConversionPatterns(converter, patterns);
    populateFinalizeMemRefToLLVMConversionPatterns(converter, patterns,
                                                   &symbolTables);
    populateOpenMPToLLVMConversionPatterns(converter, patterns);
    ub::populateUBToLLVMConversionPatterns(converter, patterns);
    index::populateIndexToLLVMConversionPatterns(converter, patterns);
    populateFuncToLLVMConversionPatterns(converter, patterns, &symbolTables);

    // As convert-openmp-to-llvm: the OpenMP operations without operands or
    // results to convert stay as they are; the others are legal once their
    // operands, results and regions are LLVM types.
    LLVMConversionTarget target(*ctx);
    target.addLegalOp<omp::BarrierOp, omp::FlushOp, omp::TaskwaitOp,
                      omp::TaskyieldOp, omp::TerminatorOp>();
    configureOpenMPToLLVMConversionLegality(target, converter);
    if (failed(applyPartialConversion(module, target, std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
