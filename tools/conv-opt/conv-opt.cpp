//===- conv-opt.cpp - mlir-opt for ConvGen --------------------------------===//
//
// Registers the conv dialect, ConvGen's passes and pipelines, and the upstream
// dialects and passes they use; every standard mlir-opt flag works.
//
//===----------------------------------------------------------------------===//

#include "conv/InitAll.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  mlir::conv::registerAllDialects(registry);
  mlir::conv::registerAllPasses();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "ConvGen optimizer driver\n", registry));
}
