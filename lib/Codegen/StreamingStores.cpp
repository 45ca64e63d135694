//===- StreamingStores.cpp - conv-cpu-streaming-stores --------------------===//
//
// Non-temporal stores for the tiles of a large result that the kernel only
// writes (a transposed convolution's output, written once per register
// tile): whole cache lines go to memory without being read for ownership
// first (see Passes.td).
//
//===----------------------------------------------------------------------===//

#include "conv/Codegen/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::conv {
#define GEN_PASS_DEF_CONVCPUSTREAMINGSTORESPASS
#include "conv/Codegen/Passes.h.inc"
} // namespace mlir::conv

using namespace mlir;

namespace {

/// A 64-byte cache line (and `vmovntps zmm`'s alignment).
constexpr int64_t kLineBytes = 64;

bool isView(Operation *op) {
  return isa<memref::SubViewOp, memref::ExpandShapeOp, memref::CollapseShapeOp,
             memref::CastOp>(op);
}

/// Whether every use of `root`, through views, writes it; collects the
/// vector.transfer_write and vector.store ops among those writes.
bool isWriteOnly(Value root, SmallVectorImpl<Operation *> &writes) {
  SmallVector<Value> worklist{root};
  while (!worklist.empty()) {
    Value v = worklist.pop_back_val();
    for (OpOperand &use : v.getUses()) {
      Operation *user = use.getOwner();
      if (isView(user)) {
        worklist.push_back(user->getResult(0));
        continue;
      }
      if (auto w = dyn_cast<vector::TransferWriteOp>(user)) {
        if (use.get() != w.getBase())
          return false;
        writes.push_back(w);
        continue;
      }
      if (auto s = dyn_cast<vector::StoreOp>(user)) {
        if (use.get() != s.getBase())
          return false;
        writes.push_back(s);
        continue;
      }
      if (auto s = dyn_cast<memref::StoreOp>(user)) {
        if (use.get() != s.getMemRef())
          return false;
        continue;
      }
      if (auto c = dyn_cast<memref::CopyOp>(user)) {
        if (use.get() != c.getTarget())
          return false;
        continue;
      }
      return false;
    }
  }
  return true;
}

/// Whether rows of `vt` stored into `mt` are whole cache lines at static
/// strides (for a 2-D vector, the memref's row pitch too).
bool wholeLineRows(VectorType vt, MemRefType mt) {
  if (vt.getRank() < 1 || vt.getRank() > 2 || vt.isScalable() ||
      !vt.getElementType().isIntOrFloat() ||
      vt.getElementTypeBitWidth() % 8 != 0)
    return false;
  int64_t elemBytes = vt.getElementTypeBitWidth() / 8;
  if (vt.getShape().back() * elemBytes % kLineBytes != 0)
    return false;
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(mt.getStridesAndOffset(strides, offset)) || strides.empty() ||
      strides.back() != 1)
    return false;
  if (vt.getRank() == 2) {
    int64_t pitch =
        strides.size() < 2 ? ShapedType::kDynamic : strides[strides.size() - 2];
    if (ShapedType::isDynamic(pitch) || pitch * elemBytes % kLineBytes != 0)
      return false;
  }
  return true;
}

/// Whether `write` (a vector.transfer_write or vector.store) can stream:
/// whole-line rows at static strides, unmasked, in bounds, of a computed
/// (non-constant) value.
bool canStream(Operation *write) {
  if (auto w = dyn_cast<vector::TransferWriteOp>(write)) {
    auto mt = dyn_cast<MemRefType>(w.getBase().getType());
    return mt && !w.getMask() && w.getPermutationMap().isMinorIdentity() &&
           llvm::all_of(w.getInBoundsValues(), [](bool b) { return b; }) &&
           !matchPattern(w.getVector(), m_Constant()) &&
           wholeLineRows(w.getVectorType(), mt);
  }
  auto st = cast<vector::StoreOp>(write);
  return !st.getNontemporal() && st.getVectorType().getRank() == 1 &&
         !matchPattern(st.getValueToStore(), m_Constant()) &&
         wholeLineRows(st.getVectorType(), st.getMemRefType());
}

/// The ancestor of `op` directly in the body of the nearest enclosing
/// scf.forall or function.
Operation *topLevelAncestor(Operation *op) {
  Operation *top = op;
  while (Operation *parent = top->getParentOp()) {
    if (isa<scf::ForallOp, FunctionOpInterface>(parent))
      return top;
    top = parent;
  }
  return top;
}

/// Replaces `write` by: if its first row is 64-byte aligned, one
/// non-temporal vector.store per row; else the write itself.
scf::IfOp streamWrite(Operation *write) {
  OpBuilder b(write);
  Location loc = write->getLoc();
  Value base, value;
  SmallVector<Value> indices;
  if (auto w = dyn_cast<vector::TransferWriteOp>(write)) {
    base = w.getBase();
    value = w.getVector();
    indices.assign(w.getIndices().begin(), w.getIndices().end());
  } else {
    auto st = cast<vector::StoreOp>(write);
    base = st.getBase();
    value = st.getValueToStore();
    indices.assign(st.getIndices().begin(), st.getIndices().end());
  }
  auto vt = cast<VectorType>(value.getType());
  int64_t elemBytes = vt.getElementTypeBitWidth() / 8;
  int64_t rank = cast<MemRefType>(base.getType()).getRank();
  // The first element's address: aligned pointer + (offset + sum of
  // index * stride) elements.
  auto meta = memref::ExtractStridedMetadataOp::create(b, loc, base);
  Value elem = meta.getOffset();
  for (int64_t d = 0; d < rank; ++d) {
    Value term =
        arith::MulIOp::create(b, loc, indices[d], meta.getStrides()[d]);
    elem = arith::AddIOp::create(b, loc, elem, term);
  }
  Value pointer = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, base);
  Value bytes = arith::MulIOp::create(
      b, loc, elem, arith::ConstantIndexOp::create(b, loc, elemBytes));
  Value address = arith::AddIOp::create(b, loc, pointer, bytes);
  Value misaligned = arith::AndIOp::create(
      b, loc, address, arith::ConstantIndexOp::create(b, loc, kLineBytes - 1));
  Value aligned =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, misaligned,
                            arith::ConstantIndexOp::create(b, loc, 0));
  auto ifOp = scf::IfOp::create(b, loc, aligned, /*withElseRegion=*/true);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifOp.thenBlock());
    if (vt.getRank() == 1) {
      vector::StoreOp::create(b, loc, value, base, indices,
                              /*nontemporal=*/true,
                              llvm::MaybeAlign(kLineBytes));
    } else {
      for (int64_t r = 0; r < vt.getDimSize(0); ++r) {
        Value row = vector::ExtractOp::create(b, loc, value, r);
        SmallVector<Value> rowIndices(indices);
        rowIndices[rank - 2] =
            arith::AddIOp::create(b, loc, indices[rank - 2],
                                  arith::ConstantIndexOp::create(b, loc, r));
        vector::StoreOp::create(b, loc, row, base, rowIndices,
                                /*nontemporal=*/true,
                                llvm::MaybeAlign(kLineBytes));
      }
    }
    b.setInsertionPointToStart(ifOp.elseBlock());
    b.clone(*write);
  }
  write->erase();
  return ifOp;
}

struct StreamingStores
    : public conv::impl::ConvCPUStreamingStoresPassBase<StreamingStores> {
  using Base::Base;
  void runOnOperation() override {
    unsigned bits = vectorBits ? unsigned(vectorBits)
                               : conv::HostVectorInfo::detect().vectorBits;
    if (bits < 512)
      return;
    func::FuncOp func = getOperation();
    if (func.isExternal())
      return;
    SmallVector<Operation *> streamed;
    for (BlockArgument arg : func.getArguments()) {
      auto type = dyn_cast<MemRefType>(arg.getType());
      if (!type || !type.hasStaticShape() ||
          !type.getElementType().isIntOrFloat())
        continue;
      int64_t bytes = type.getNumElements() *
                      llvm::divideCeil(type.getElementTypeBitWidth(), 8);
      if (bytes < minBytes)
        continue;
      SmallVector<Operation *> writes;
      if (!isWriteOnly(arg, writes))
        continue;
      for (Operation *w : writes)
        if (canStream(w))
          streamed.push_back(w);
    }
    if (streamed.empty())
      return;
    // One sfence after each outermost loop nest (or op) that streams.
    llvm::SetVector<Operation *> fenced;
    for (Operation *w : streamed)
      fenced.insert(topLevelAncestor(streamWrite(w)));
    MLIRContext *ctx = &getContext();
    for (Operation *op : fenced) {
      OpBuilder b(ctx);
      b.setInsertionPointAfter(op);
      LLVM::CallIntrinsicOp::create(b, op->getLoc(),
                                    b.getStringAttr("llvm.x86.sse.sfence"),
                                    ValueRange{});
    }
  }
};

} // namespace
