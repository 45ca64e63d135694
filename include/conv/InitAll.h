//===- InitAll.h - Register ConvGen and the upstream pieces it uses -*- C++ -*-===//

#ifndef CONV_INITALL_H
#define CONV_INITALL_H

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace mlir::conv {
/// The conv dialect plus every upstream dialect and interface model the
/// pipelines produce or transform.
void registerAllDialects(DialectRegistry &registry);
/// ConvGen's passes and pipelines plus the upstream passes the pipelines use.
void registerAllPasses();
} // namespace mlir::conv

#endif // CONV_INITALL_H
