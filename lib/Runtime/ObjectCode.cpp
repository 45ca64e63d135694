//===- ObjectCode.cpp - A kernel's LLVM IR to object code, in parts -------===//
//
// See ObjectCode.h and docs/Codegen.md ("Compiling the parts of a kernel
// concurrently"). LLVM optimizes and compiles one module on one thread, and
// an LLVMContext may be used by one thread at a time, so each part is its
// own module in its own context: the module is written to bitcode once and
// read back by every other part's thread, and each part keeps the bodies of
// its own functions only (the others become declarations, resolved when the
// JIT links the parts' objects).
//
//===----------------------------------------------------------------------===//

#include "conv/Runtime/ObjectCode.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/ExecutionEngine/Orc/CompileUtils.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Transforms/Utils/CodeExtractor.h"

#include <chrono>
#include <numeric>
#include <string>
#include <thread>

namespace convgen {

namespace {

/// Whether the parts can share `module`'s globals: every global variable is
/// a constant of local linkage, of which each part keeps its own copy
/// (lowered kernels have only such constants: OpenMP's source-location
/// records). No aliases or ifuncs.
bool splittable(const llvm::Module &module) {
  if (!module.alias_empty() || !module.ifunc_empty())
    return false;
  for (const llvm::GlobalVariable &g : module.globals())
    if (!g.isConstant() || !g.hasLocalLinkage() || !g.hasInitializer())
      return false; // also llvm.global_ctors / llvm.used (appending)
  return true;
}

uint64_t instructions(const llvm::Loop &loop) {
  uint64_t n = 0;
  for (const llvm::BasicBlock *block : loop.blocks())
    n += block->size();
  return n;
}

/// Whether `loop` is a nest that runs on its own: no value it computes is
/// used after it, and it uses only integers and pointers from before it.
/// (A register tile's reduction loop carries its accumulators, vectors, in
/// and out: extracted, they went through memory on every iteration.)
bool extractable(llvm::Loop &loop, llvm::DominatorTree &dominators) {
  llvm::CodeExtractor extractor(loop.getBlocks(), &dominators);
  if (!extractor.isEligible())
    return false;
  llvm::SetVector<llvm::Value *> inputs, outputs, allocas;
  extractor.findInputsOutputs(inputs, outputs, allocas);
  return outputs.empty() && llvm::all_of(inputs, [](llvm::Value *v) {
           return v->getType()->isIntegerTy() || v->getType()->isPointerTy();
         });
}

/// Moves loop nests of the module's largest function into functions of
/// their own (noinline) until it has at most `target` instructions left:
/// a sequential kernel is one function, and so is the parallel body of
/// some multi-threaded ones. The nests are disjoint, each of at most
/// `target` instructions and at least an eighth of it (so that the calls
/// stay few: a nest that small usually runs in an inner loop), the largest
/// first; then, if the function is still over `target`, nests down to a
/// 32nd of it that run inside one loop at most (a transposed convolution's
/// phases in a batch block: a few calls a block; its Winograd phases' nests
/// are a 10th to a 20th of the module each). Nothing moves unless the nests
/// found take the function down to `target` or hold at least `minMoved`
/// instructions: fewer would not make a split worth it (partitionFunctions
/// would keep the module whole, its nests moved for nothing).
void extractLoopNests(llvm::Module &module, uint64_t target,
                      uint64_t minMoved) {
  llvm::Function *largest = nullptr;
  uint64_t largestSize = 0;
  for (llvm::Function &f : module) {
    uint64_t size = f.isDeclaration() ? 0 : f.getInstructionCount();
    if (size > largestSize) {
      largest = &f;
      largestSize = size;
    }
  }
  if (!largest || largestSize <= target)
    return;
  llvm::SmallVector<llvm::BasicBlock *> headers;
  {
    llvm::DominatorTree dominators(*largest);
    llvm::LoopInfo loops(dominators);
    llvm::SmallVector<llvm::Loop *> candidates = loops.getLoopsInPreorder();
    llvm::stable_sort(candidates, [](llvm::Loop *a, llvm::Loop *b) {
      return instructions(*a) > instructions(*b);
    });
    llvm::SmallVector<llvm::Loop *> chosen;
    uint64_t remaining = largestSize;
    // Nests of at least an eighth of the target first; then, while the
    // function is still too large, nests down to a 32nd of it that run
    // inside one loop at most (each phase of a transposed convolution's
    // batch block: its calls stay a few per block).
    for (auto [minShare, maxDepth] :
         {std::pair<uint64_t, unsigned>{8, ~0u}, {32, 2}}) {
      for (llvm::Loop *loop : candidates) {
        if (remaining <= target)
          break;
        uint64_t size = instructions(*loop);
        if (size > target || minShare * size < target ||
            loop->getLoopDepth() > maxDepth)
          continue;
        if (llvm::any_of(chosen, [&](llvm::Loop *other) {
              return other->contains(loop) || loop->contains(other);
            }))
          continue;
        if (!extractable(*loop, dominators))
          continue;
        chosen.push_back(loop);
        headers.push_back(loop->getHeader());
        remaining -= size;
      }
    }
    // Worth it when the function gets down to its share, or when the moved
    // nests at least make a split of the module worthwhile.
    if (remaining > target && largestSize - remaining < minMoved)
      return;
  }
  // One extraction at a time: each changes the function, so its dominator
  // tree and loops are recomputed (a loop is found again by its header).
  for (llvm::BasicBlock *header : headers) {
    llvm::DominatorTree dominators(*largest);
    llvm::LoopInfo loops(dominators);
    llvm::Loop *loop = loops.getLoopFor(header);
    if (!loop || loop->getHeader() != header)
      continue;
    llvm::CodeExtractorAnalysisCache cache(*largest);
    llvm::CodeExtractor extractor(loop->getBlocks(), &dominators);
    if (!extractor.isEligible())
      continue;
    if (llvm::Function *nest = extractor.extractCodeRegion(cache))
      nest->addFnAttr(llvm::Attribute::NoInline);
  }
}

/// Makes every function definition an external symbol (the other parts
/// call or take the address of it by name).
void externalizeFunctions(llvm::Module &module) {
  for (llvm::Function &f : module) {
    if (f.isDeclaration() || !f.hasLocalLinkage())
      continue;
    if (!f.hasName())
      f.setName("convgen.part.function");
    f.setLinkage(llvm::GlobalValue::ExternalLinkage);
    f.setVisibility(llvm::GlobalValue::DefaultVisibility);
  }
}

/// Reduces `module` (externalized, a copy of the split module) to part
/// `part`: the bodies of the other parts' functions are deleted. Calls and
/// address references to them become relocations against their symbols,
/// which the JIT resolves to the other parts' code when it links the
/// objects; the JIT's target machines use the large code model (LLVM's
/// default for JIT code on x86-64), so these are 64-bit absolute references
/// or calls through a linker stub, whatever the distance between the parts'
/// code.
void keepPart(llvm::Module &module, llvm::ArrayRef<unsigned> partOf,
              unsigned part) {
  unsigned index = 0;
  for (llvm::Function &f : module) {
    if (f.isDeclaration())
      continue;
    if (partOf[index++] == part)
      continue;
    f.deleteBody();
    f.setDSOLocal(false);
  }
}

double secondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                       start)
      .count();
}

/// Optimizes and compiles one part's module.
llvm::Error compilePart(llvm::Module &module, const ObjectCodeOptions &options,
                        ObjectPart &part) {
  for (const llvm::Function &f : module) {
    if (f.isDeclaration())
      continue;
    ++part.functions;
    part.instructions += f.getInstructionCount();
  }
  auto tm = options.createTargetMachine();
  if (!tm)
    return tm.takeError();
  auto start = std::chrono::steady_clock::now();
  if (options.optimize)
    if (llvm::Error error = options.optimize(module, **tm))
      return error;
  part.optimizeSeconds = secondsSince(start);
  start = std::chrono::steady_clock::now();
  llvm::orc::SimpleCompiler compiler(**tm);
  auto object = compiler(module);
  if (!object)
    return object.takeError();
  part.object = std::move(*object);
  part.codegenSeconds = secondsSince(start);
  return llvm::Error::success();
}

} // namespace

llvm::SmallVector<unsigned>
partitionFunctions(const llvm::Module &module,
                   const ObjectCodeOptions &options) {
  llvm::SmallVector<uint64_t> sizes;
  for (const llvm::Function &f : module)
    if (!f.isDeclaration())
      sizes.push_back(f.getInstructionCount());
  llvm::SmallVector<unsigned> partOf(sizes.size(), 0);
  uint64_t total = std::accumulate(sizes.begin(), sizes.end(), uint64_t(0));
  unsigned parts = std::min<size_t>(options.maxParts, sizes.size());
  if (parts < 2 || total < options.minSplitInstructions ||
      !splittable(module))
    return partOf;
  llvm::SmallVector<unsigned> order(sizes.size());
  std::iota(order.begin(), order.end(), 0u);
  llvm::stable_sort(order,
                    [&](unsigned a, unsigned b) { return sizes[a] > sizes[b]; });
  llvm::SmallVector<uint64_t> load(parts, 0);
  for (unsigned i : order) {
    unsigned lightest = std::min_element(load.begin(), load.end()) -
                        load.begin();
    partOf[i] = lightest;
    load[lightest] += sizes[i];
  }
  uint64_t largest = *std::max_element(load.begin(), load.end());
  if (double(total - largest) < options.minSplitGain * double(total))
    return llvm::SmallVector<unsigned>(sizes.size(), 0);
  return partOf;
}

llvm::Expected<std::vector<ObjectPart>>
compileToObjectCode(llvm::Module &module, const ObjectCodeOptions &options) {
  if (options.maxParts > 1 && splittable(module)) {
    uint64_t total = 0;
    for (const llvm::Function &f : module)
      if (!f.isDeclaration())
        total += f.getInstructionCount();
    if (total >= options.minSplitInstructions)
      extractLoopNests(module, total / options.maxParts,
                       uint64_t(options.minSplitGain * double(total)));
  }
  llvm::SmallVector<unsigned> partOf = partitionFunctions(module, options);
  unsigned parts = 1;
  for (unsigned p : partOf)
    parts = std::max(parts, p + 1);
  std::vector<ObjectPart> result(parts);
  if (parts == 1) {
    if (llvm::Error error = compilePart(module, options, result[0]))
      return std::move(error);
    return result;
  }

  externalizeFunctions(module);
  llvm::SmallVector<char, 0> bitcode;
  {
    llvm::raw_svector_ostream os(bitcode);
    llvm::WriteBitcodeToFile(module, os);
  }
  std::vector<std::string> errors(parts);
  std::vector<std::thread> threads;
  for (unsigned part = 1; part < parts; ++part) {
    threads.emplace_back([&, part] {
      llvm::LLVMContext context;
      auto copy = llvm::parseBitcodeFile(
          llvm::MemoryBufferRef(llvm::StringRef(bitcode.data(), bitcode.size()),
                                module.getModuleIdentifier()),
          context);
      if (!copy) {
        errors[part] = llvm::toString(copy.takeError());
        return;
      }
      keepPart(**copy, partOf, part);
      if (llvm::Error error = compilePart(**copy, options, result[part]))
        errors[part] = llvm::toString(std::move(error));
    });
  }
  keepPart(module, partOf, 0);
  if (llvm::Error error = compilePart(module, options, result[0]))
    errors[0] = llvm::toString(std::move(error));
  for (std::thread &thread : threads)
    thread.join();
  for (unsigned part = 0; part < parts; ++part)
    if (!errors[part].empty())
      return llvm::createStringError("code generation of part " +
                                     llvm::Twine(part) + " of " +
                                     llvm::Twine(parts) + ": " + errors[part]);
  return result;
}

} // namespace convgen
