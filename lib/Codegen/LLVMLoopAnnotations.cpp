//===- LLVMLoopAnnotations.cpp - conv-llvm-loop-annotations ---------------===//
//
// convert-scf-to-cf leaves an scf.for's llvm.loop_annotation on the back
// edge as a discardable attribute, which convert-cf-to-llvm keeps and the
// LLVM IR translation ignores; this pass moves it into the llvm.br /
// llvm.cond_br `loop_annotation` property that the translation reads.
//
//===----------------------------------------------------------------------===//

#include "conv/Codegen/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

namespace mlir::conv {
#define GEN_PASS_DEF_CONVLLVMLOOPANNOTATIONSPASS
#include "conv/Codegen/Passes.h.inc"
} // namespace mlir::conv

using namespace mlir;

namespace {

struct LLVMLoopAnnotations
    : public conv::impl::ConvLLVMLoopAnnotationsPassBase<LLVMLoopAnnotations> {
  void runOnOperation() override {
    getOperation()->walk([&](Operation *op) {
      auto annotation = dyn_cast_or_null<LLVM::LoopAnnotationAttr>(
          op->getDiscardableAttr(conv::kLoopAnnotationAttr));
      if (!annotation)
        return;
      if (auto br = dyn_cast<LLVM::BrOp>(op)) {
        if (!br.getLoopAnnotationAttr())
          br.setLoopAnnotationAttr(annotation);
      } else if (auto condBr = dyn_cast<LLVM::CondBrOp>(op)) {
        if (!condBr.getLoopAnnotationAttr())
          condBr.setLoopAnnotationAttr(annotation);
      } else {
        return;
      }
      op->removeDiscardableAttr(conv::kLoopAnnotationAttr);
    });
  }
};

} // namespace
