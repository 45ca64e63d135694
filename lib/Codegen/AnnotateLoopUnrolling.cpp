//===- AnnotateLoopUnrolling.cpp - conv-cpu-annotate-loop-unrolling -------===//
//
// Every scf.for that conv-cpu-tile-and-vectorize did not mark with
// conv.llvm_unroll, and that is not a small innermost loop, gets an
// `unroll disable` loop annotation, so that LLVM's
// loop unroll passes skip it instead of analysing it (see Passes.td); one
// marked with conv.llvm_unroll_count = N gets `unroll count N`.
//
//===----------------------------------------------------------------------===//

#include "conv/Codegen/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMAttrs.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

namespace mlir::conv {
#define GEN_PASS_DEF_CONVCPUANNOTATELOOPUNROLLINGPASS
#include "conv/Codegen/Passes.h.inc"
} // namespace mlir::conv

using namespace mlir;

namespace {

/// Innermost loops of at most this many iterations stay LLVM's to unroll:
/// cheap to analyse, and some must be unrolled (convert-vector-to-scf's
/// gathers of a stride-2 transposed-convolution phase's input rows, one
/// scalar load per tile row: Keras' 3x3 and 5x5 stride-2 layers ran at half
/// speed without).
constexpr int64_t kMaxSmallLoopTrips = 16;

/// ... and of at most max-small-loop-ops operations in their body (64 by
/// default). The reduction loops around a register tile (a 12x32 tile's:
/// 330-550 operations, two to sixteen iterations) are innermost and short
/// too, but LLVM never unrolls them, and its unroll passes spent a fifth
/// to a quarter of the LLVM stage finding that out (see Passes.td). The loops
/// it does unroll (the gathers, the tap loops) have 2-40 operations.
bool isSmallInnermost(scf::ForOp loop, int64_t maxOps) {
  std::optional<APInt> trips = loop.getStaticTripCount();
  if (!trips || trips->getSExtValue() > kMaxSmallLoopTrips)
    return false;
  int64_t ops = 0;
  WalkResult walk = loop.getBody()->walk([&](Operation *op) {
    if (isa<LoopLikeOpInterface>(op) || ++ops > maxOps)
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return !walk.wasInterrupted();
}

/// `llvm.loop_annotation<unroll = <disable = true>>`, or with `count`
/// `<unroll = <count = count>>`.
LLVM::LoopAnnotationAttr unrollAnnotation(MLIRContext *ctx,
                                          std::optional<int64_t> count) {
  auto unroll = LLVM::LoopUnrollAttr::get(
      ctx, /*disable=*/count ? BoolAttr() : BoolAttr::get(ctx, true),
      /*count=*/
      count ? IntegerAttr::get(IntegerType::get(ctx, 32), *count)
            : IntegerAttr(),
      /*runtimeDisable=*/{}, /*full=*/{}, /*followupUnrolled=*/{},
      /*followupRemainder=*/{}, /*followupAll=*/{});
  return LLVM::LoopAnnotationAttr::get(
      ctx, /*disableNonforced=*/{}, /*vectorize=*/{}, /*interleave=*/{},
      unroll, /*unrollAndJam=*/{}, /*licm=*/{}, /*distribute=*/{},
      /*pipeline=*/{}, /*peeled=*/{}, /*unswitch=*/{}, /*mustProgress=*/{},
      /*isVectorized=*/{}, /*startLoc=*/{}, /*endLoc=*/{},
      /*parallelAccesses=*/{});
}

struct AnnotateLoopUnrolling
    : public conv::impl::ConvCPUAnnotateLoopUnrollingPassBase<
          AnnotateLoopUnrolling> {
  using Base::Base;

  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    auto disable = unrollAnnotation(ctx, std::nullopt);
    getOperation().walk([&](scf::ForOp loop) {
      if (auto count =
              loop->getAttrOfType<IntegerAttr>(conv::kLLVMUnrollCountAttr)) {
        loop->removeAttr(conv::kLLVMUnrollCountAttr);
        loop->setAttr(conv::kLoopAnnotationAttr,
                      unrollAnnotation(ctx, count.getInt()));
        return;
      }
      if (loop->removeAttr(conv::kLLVMNoUnrollAttr)) {
        loop->setAttr(conv::kLoopAnnotationAttr, disable);
        return;
      }
      if (loop->removeAttr(conv::kLLVMUnrollAttr) ||
          loop->hasAttr(conv::kLoopAnnotationAttr) ||
          isSmallInnermost(loop, maxSmallLoopOps))
        return;
      loop->setAttr(conv::kLoopAnnotationAttr, disable);
    });
  }
};

} // namespace
