//===- CPUPipeline.cpp - conv-lower-to-llvm-cpu ----------------------------===//

#include "conv/Conversion/Passes.h"
#include "conv/Pipelines/Pipelines.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

void mlir::conv::buildConvToLinalgPipeline(
    OpPassManager &pm, const ConvCPUPipelineOptions &options) {
  ConvertConvToLinalgPassOptions convOptions;
  convOptions.zeroInsertionTranspose = options.zeroInsertionTranspose;
  pm.addNestedPass<func::FuncOp>(createConvertConvToLinalgPass(convOptions));
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
}

void mlir::conv::buildConvBufferizationPipeline(
    OpPassManager &pm, const ConvCPUPipelineOptions &) {
  bufferization::OneShotBufferizePassOptions bufferizeOptions;
  bufferizeOptions.bufferizeFunctionBoundaries = true;
  bufferizeOptions.functionBoundaryTypeConversion =
      bufferization::LayoutMapOption::IdentityLayoutMap;
  pm.addPass(bufferization::createOneShotBufferizePass(bufferizeOptions));
  bufferization::BufferResultsToOutParamsPassOptions outParams;
  outParams.hoistStaticAllocs = true;
  outParams.modifyPublicFunctions = true;
  pm.addPass(bufferization::createBufferResultsToOutParamsPass(outParams));
  bufferization::buildBufferDeallocationPipeline(pm);
  pm.addPass(createCanonicalizerPass());
}

void mlir::conv::buildConvLowerToLLVMPipeline(
    OpPassManager &pm, const ConvCPUPipelineOptions &) {
  pm.addNestedPass<func::FuncOp>(createConvertLinalgToLoopsPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(createConvertControlFlowToLLVMPass());
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createConvertIndexToLLVMPass());
  pm.addPass(createFinalizeMemRefToLLVMConversionPass());
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  pm.addPass(createCanonicalizerPass());
}

void mlir::conv::buildConvCPUPipeline(OpPassManager &pm,
                                      const ConvCPUPipelineOptions &options) {
  buildConvToLinalgPipeline(pm, options);
  buildConvBufferizationPipeline(pm, options);
  buildConvLowerToLLVMPipeline(pm, options);
}

void mlir::conv::registerConvPipelines() {
  PassPipelineRegistration<ConvCPUPipelineOptions>(
      "conv-lower-to-llvm-cpu",
      "Lower conv ops through linalg, bufferization and loops to the LLVM "
      "dialect for the host CPU",
      buildConvCPUPipeline);
}
