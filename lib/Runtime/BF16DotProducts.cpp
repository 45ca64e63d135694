//===- BF16DotProducts.cpp - vdpbf16ps in JIT-compiled kernels ------------===//

#include "conv/Runtime/BF16DotProducts.h"
#include "conv/Codegen/Passes.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/Module.h"

#include <string>
#include <utility>

using namespace convgen;

namespace {

/// A bf16 vector of 8k + 1 > 1 elements: with AVX512-BF16 on, LLVM 22's
/// type legalizer aborts on an extractelement or bitcast of one ("Do not
/// know how to soft promote this operator's operand!").
bool isOddBF16Vector(llvm::Type *type) {
  auto *vector = llvm::dyn_cast<llvm::FixedVectorType>(type);
  return vector && vector->getElementType()->isBFloatTy() &&
         mlir::conv::isOddBF16VectorLength(vector->getNumElements());
}

/// Replaces `call` (dpbf16ps(acc, a, b)) by two FMAs per lane.
void emulate(llvm::CallInst *call) {
  llvm::IRBuilder<> b(call);
  llvm::Value *acc = call->getArgOperand(0);
  auto *accType = llvm::cast<llvm::FixedVectorType>(acc->getType());
  auto *words =
      llvm::FixedVectorType::get(b.getInt32Ty(), accType->getNumElements());
  // The bf16 at 2i is the low half of 32-bit word i (little endian); a bf16
  // is the high half of the f32 of the same value.
  auto halves = [&](llvm::Value *pairs) {
    llvm::Value *bits = b.CreateBitCast(pairs, words);
    llvm::Value *lo = b.CreateBitCast(b.CreateShl(bits, 16), accType);
    llvm::Value *hi = b.CreateBitCast(
        b.CreateAnd(bits, llvm::ConstantInt::get(words, 0xFFFF0000u)),
        accType);
    return std::make_pair(lo, hi);
  };
  auto [aLo, aHi] = halves(call->getArgOperand(1));
  auto [bLo, bHi] = halves(call->getArgOperand(2));
  llvm::Value *sum =
      b.CreateIntrinsic(llvm::Intrinsic::fma, {accType}, {aHi, bHi, acc});
  sum = b.CreateIntrinsic(llvm::Intrinsic::fma, {accType}, {aLo, bLo, sum});
  call->replaceAllUsesWith(sum);
  call->eraseFromParent();
}

} // namespace

unsigned convgen::moveBF16VectorsAsIntegers(llvm::Module &module) {
  // (Collected first: rewriting erases the stores, which may follow.)
  llvm::SmallVector<llvm::LoadInst *> loads;
  for (llvm::Function &function : module)
    for (llvm::BasicBlock &block : function)
      for (llvm::Instruction &inst : block)
        if (auto *load = llvm::dyn_cast<llvm::LoadInst>(&inst))
          loads.push_back(load);
  unsigned changed = 0;
  for (llvm::LoadInst *load : loads) {
    if (load->isVolatile() || load->isAtomic())
      continue;
    auto *type = llvm::dyn_cast<llvm::FixedVectorType>(load->getType());
    if (!type || !type->getElementType()->isBFloatTy() ||
        load->use_empty() ||
        llvm::any_of(load->users(), [&](llvm::User *user) {
          auto *store = llvm::dyn_cast<llvm::StoreInst>(user);
          return !store || store->getValueOperand() != load ||
                 store->isVolatile() || store->isAtomic();
        }))
      continue;
    auto *bits = llvm::FixedVectorType::get(
        llvm::Type::getInt16Ty(module.getContext()),
        type->getNumElements());
    llvm::IRBuilder<> b(load);
    llvm::LoadInst *wide =
        b.CreateAlignedLoad(bits, load->getPointerOperand(), load->getAlign());
    wide->takeName(load);
    wide->copyMetadata(*load);
    for (llvm::User *user : llvm::make_early_inc_range(load->users())) {
      auto *store = llvm::cast<llvm::StoreInst>(user);
      llvm::IRBuilder<> sb(store);
      llvm::StoreInst *moved = sb.CreateAlignedStore(
          wide, store->getPointerOperand(), store->getAlign());
      moved->copyMetadata(*store);
      store->eraseFromParent();
    }
    load->eraseFromParent();
    ++changed;
  }
  return changed;
}

BF16DotProductsPrepared
convgen::prepareBF16DotProducts(llvm::Module &module,
                                llvm::StringRef targetFeatures,
                                bool hostHasBF16) {
  BF16DotProductsPrepared prepared;
  for (llvm::Function &function : module) {
    if (function.isDeclaration())
      continue;
    llvm::SmallVector<llvm::CallInst *> dots;
    bool odd = false;
    for (llvm::BasicBlock &block : function)
      for (llvm::Instruction &inst : block) {
        if (auto *call = llvm::dyn_cast<llvm::CallInst>(&inst))
          if (llvm::Function *callee = call->getCalledFunction())
            if (callee->getName().starts_with(
                    "llvm.x86.avx512bf16.dpbf16ps."))
              dots.push_back(call);
        odd = odd || isOddBF16Vector(inst.getType()) ||
              llvm::any_of(inst.operands(), [](const llvm::Use &use) {
                return isOddBF16Vector(use->getType());
              });
      }
    if (dots.empty())
      continue;
    if (hostHasBF16 && !odd) {
      llvm::Attribute current = function.getFnAttribute("target-features");
      std::string features = current.isValid()
                                 ? current.getValueAsString().str()
                                 : targetFeatures.str();
      function.addFnAttr("target-features", features.empty()
                                                ? "+avx512bf16"
                                                : features + ",+avx512bf16");
      ++prepared.nativeFunctions;
      continue;
    }
    for (llvm::CallInst *call : dots)
      emulate(call);
    prepared.emulatedCalls += dots.size();
  }
  return prepared;
}
