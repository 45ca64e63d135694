//===- InitAll.cpp - Register ConvGen and the upstream pieces it uses -----===//

#include "conv/InitAll.h"
#include "conv/Codegen/Passes.h"
#include "conv/Conversion/Passes.h"
#include "conv/Dialect/Conv/IR/ConvDialect.h"
#include "conv/Pipelines/Pipelines.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"

void mlir::conv::registerAllDialects(DialectRegistry &registry) {
  registry.insert<ConvDialect>();
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
}

void mlir::conv::registerAllPasses() {
  mlir::registerAllPasses();
  registerConvConversionPasses();
  registerConvCodegenPasses();
  registerConvPipelines();
}
