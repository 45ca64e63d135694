//===- ZeroFills.cpp - Zero fills of filter-gradient outputs --------------===//
//
// See ZeroFills.h. A filter gradient's lowering fills its whole dW with
// zeros and lets each contraction accumulate into its slice of it: a
// memset of the whole dW (9 MiB for a 3x3 512 -> 512 layer) that the first
// reduction block of every register tile then reads back. Once each
// contraction fills its own slice, the whole fill is dead, and the tiling
// fuses the slice's fill into the register tiles of the first reduction
// block (TileAndVectorize.cpp, zeroStartFirstBlocks).
//
//===----------------------------------------------------------------------===//

#include "ZeroFills.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;

namespace {

/// How many steps isZeroTensor and readsNothing follow at most.
constexpr int kMaxDepth = 16;

bool isZeroScalar(Value value) {
  return matchPattern(value, m_PosZeroFloat()) || matchPattern(value, m_Zero());
}

/// The number of elements of a static shape (nullopt: dynamic).
std::optional<int64_t> volume(ArrayRef<int64_t> shape) {
  int64_t n = 1;
  for (int64_t d : shape) {
    if (ShapedType::isDynamic(d))
      return std::nullopt;
    n *= d;
  }
  return n;
}

std::optional<int64_t> volume(ArrayRef<OpFoldResult> sizes) {
  int64_t n = 1;
  for (OpFoldResult s : sizes) {
    std::optional<int64_t> c = getConstantIntValue(s);
    if (!c)
      return std::nullopt;
    n *= *c;
  }
  return n;
}

bool unitStrides(ArrayRef<OpFoldResult> strides) {
  return llvm::all_of(strides, [](OpFoldResult s) {
    std::optional<int64_t> c = getConstantIntValue(s);
    return c && *c == 1;
  });
}

/// Whether `insert` overwrites its whole destination.
bool coversDest(tensor::InsertSliceOp insert) {
  std::optional<int64_t> whole = volume(insert.getDestType().getShape());
  std::optional<int64_t> part = volume(insert.getMixedSizes());
  return whole && part && *whole == *part &&
         unitStrides(insert.getMixedStrides());
}

/// Whether `forall`'s iterations overwrite all of the shared output
/// `bbArg`: one parallel_insert_slice of static sizes and unit strides per
/// iteration, a static iteration count, and as many elements in all as the
/// output (the iterations' slices are disjoint, or they would race).
bool coversSharedOut(scf::ForallOp forall, BlockArgument bbArg) {
  SmallVector<Operation *> combining = forall.getCombiningOps(bbArg);
  if (combining.size() != 1)
    return false;
  auto insert = dyn_cast<tensor::ParallelInsertSliceOp>(combining.front());
  if (!insert || !unitStrides(insert.getMixedStrides()))
    return false;
  std::optional<int64_t> part = volume(insert.getMixedSizes());
  std::optional<int64_t> whole =
      volume(cast<RankedTensorType>(bbArg.getType()).getShape());
  if (!part || !whole)
    return false;
  int64_t iterations = 1;
  for (auto [lb, ub, step] :
       llvm::zip(forall.getMixedLowerBound(), forall.getMixedUpperBound(),
                 forall.getMixedStep())) {
    std::optional<int64_t> l = getConstantIntValue(lb);
    std::optional<int64_t> u = getConstantIntValue(ub);
    std::optional<int64_t> s = getConstantIntValue(step);
    if (!l || !u || !s || *s <= 0)
      return false;
    iterations *= std::max<int64_t>(0, llvm::divideCeil(*u - *l, *s));
  }
  return iterations * *part == *whole;
}

/// Whether no element of `value` is ever observed: every use overwrites
/// what it takes of it (a fill's destination, a slice insert or forall that
/// writes all of it) or takes a slice whose values are not observed either.
bool readsNothing(Value value, int depth = 0) {
  if (depth > kMaxDepth)
    return false;
  for (OpOperand &use : value.getUses()) {
    Operation *user = use.getOwner();
    if (auto fill = dyn_cast<linalg::FillOp>(user)) {
      if (fill.isDpsInit(&use))
        continue;
      return false;
    }
    // A slice or reshape of it (a view of its elements).
    if (isa<tensor::ExtractSliceOp, tensor::ExpandShapeOp,
            tensor::CollapseShapeOp>(user)) {
      if (readsNothing(user->getResult(0), depth + 1))
        continue;
      return false;
    }
    if (auto insert = dyn_cast<tensor::InsertSliceOp>(user)) {
      if (&use == &insert.getDestMutable() && coversDest(insert))
        continue;
      return false;
    }
    // The destination of a forall's own slice write: its coverage is the
    // forall's (coversSharedOut, checked where the shared output starts).
    if (auto insert = dyn_cast<tensor::ParallelInsertSliceOp>(user)) {
      if (&use == &insert.getDestMutable())
        continue;
      return false;
    }
    if (auto forall = dyn_cast<scf::ForallOp>(user)) {
      if (!forall.isDpsInit(&use))
        return false;
      BlockArgument bbArg = forall.getTiedBlockArgument(&use);
      if (coversSharedOut(forall, bbArg) && readsNothing(bbArg, depth + 1))
        continue;
      return false;
    }
    return false;
  }
  return true;
}

} // namespace

bool mlir::conv::detail::isZeroTensor(Value value) {
  for (int depth = 0; depth < kMaxDepth; ++depth) {
    if (auto fill = value.getDefiningOp<linalg::FillOp>())
      return isZeroScalar(fill.getInputs()[0]);
    // A slice, reshape or cast of it (its source is operand 0).
    if (Operation *def = value.getDefiningOp();
        isa_and_present<tensor::ExtractSliceOp, tensor::CollapseShapeOp,
                        tensor::ExpandShapeOp, tensor::CastOp>(def)) {
      value = def->getOperand(0);
      continue;
    }
    if (auto bbArg = dyn_cast<BlockArgument>(value))
      if (auto forall =
              dyn_cast<scf::ForallOp>(bbArg.getOwner()->getParentOp()))
        if (OpOperand *init = forall.getTiedOpOperand(bbArg)) {
          value = init->get();
          continue;
        }
    return false;
  }
  return false;
}

SmallVector<linalg::GenericOp>
mlir::conv::detail::sinkZeroFills(RewriterBase &rewriter, func::FuncOp func,
                                  ArrayRef<linalg::GenericOp> ops) {
  SmallVector<linalg::GenericOp> filled;
  for (linalg::GenericOp op : ops) {
    if (op.getNumDpsInits() != 1)
      continue;
    Value init = op.getDpsInits()[0];
    if (init.getDefiningOp<linalg::FillOp>() || !isZeroTensor(init))
      continue;
    auto type = cast<RankedTensorType>(init.getType());
    rewriter.setInsertionPoint(op);
    Value zero = arith::ConstantOp::create(
        rewriter, op.getLoc(), rewriter.getZeroAttr(type.getElementType()));
    Value fill =
        linalg::FillOp::create(rewriter, op.getLoc(), zero, init).getResult(0);
    rewriter.modifyOpInPlace(op, [&] {
      op.getDpsInitsMutable()[0].set(fill);
      op->setAttr(kZeroStartAttr, rewriter.getUnitAttr());
    });
    filled.push_back(op);
  }
  if (filled.empty())
    return filled;
  SmallVector<linalg::FillOp> whole;
  func.walk([&](linalg::FillOp fill) {
    if (fill.getOutputs()[0].getDefiningOp<tensor::EmptyOp>() &&
        isZeroScalar(fill.getInputs()[0]))
      whole.push_back(fill);
  });
  for (linalg::FillOp fill : whole)
    if (readsNothing(fill.getResult(0)))
      rewriter.replaceOp(fill, fill.getOutputs()[0]);
  return filled;
}
