//===- ObjectCode.h - A kernel's LLVM IR to object code, in parts -*- C++ -*-===//
//
// The JIT's last step: the LLVM module of a lowered kernel is optimized and
// compiled to object code. A multi-threaded kernel's module has several
// functions (the OpenMP-outlined bodies of its parallel loops beside the
// sequential entry function); a sequential kernel's is one function, whose
// loop nests first move into functions of their own. The functions are
// split into parts of about equal size that are optimized and compiled
// concurrently, each in its own LLVM context and with its own target
// machine, and the JIT links the parts' objects together (docs/Codegen.md,
// "Compiling the parts of a kernel concurrently").
//
//===----------------------------------------------------------------------===//

#ifndef CONV_RUNTIME_OBJECTCODE_H
#define CONV_RUNTIME_OBJECTCODE_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"

#include <functional>
#include <memory>
#include <vector>

namespace llvm {
class Module;
class TargetMachine;
} // namespace llvm

namespace convgen {

struct ObjectCodeOptions {
  /// The most parts the module is split into (1: no split, everything on the
  /// calling thread). Part 0 runs on the calling thread, each other part on
  /// a thread of its own.
  unsigned maxParts = 1;
  /// Modules of fewer instructions are not split: a part's bitcode copy and
  /// thread cost more than a small module's code generation.
  unsigned minSplitInstructions = 1500;
  /// A split must move at least this fraction of the instructions off the
  /// largest part; a smaller gain is not worth the copy.
  double minSplitGain = 0.2;
  /// Creates the target machine of one part (target machines are not
  /// thread-safe: every part has its own).
  std::function<llvm::Expected<std::unique_ptr<llvm::TargetMachine>>()>
      createTargetMachine;
  /// Optimizes one part's module in place (for example the `-O2` pipeline).
  std::function<llvm::Error(llvm::Module &, llvm::TargetMachine &)> optimize;
};

/// The part of each function definition of `module` (declarations are not
/// listed), in module order: the largest functions first, each to the part
/// with the fewest instructions so far. All zeros when the module is not
/// worth splitting (see ObjectCodeOptions) or cannot be split: it has
/// aliases, ifuncs, or a global variable other than a constant of local
/// linkage (which each part copies), static constructors included.
llvm::SmallVector<unsigned>
partitionFunctions(const llvm::Module &module,
                   const ObjectCodeOptions &options);

/// One part's object and how long it took.
struct ObjectPart {
  std::unique_ptr<llvm::MemoryBuffer> object;
  /// Function definitions and instructions of the part.
  unsigned functions = 0, instructions = 0;
  double optimizeSeconds = 0, codegenSeconds = 0;
};

/// Optimizes and compiles `module` (its target triple and data layout set)
/// into one object per part. With maxParts > 1, loop nests of its largest
/// function may first move into functions of their own (nests with no
/// results that use only integers and pointers from before them). The
/// parts' objects define each function once (functions of local linkage
/// become external symbols so that the parts can reach each other's);
/// linked together they are the module. `module` is consumed: it becomes
/// part 0.
llvm::Expected<std::vector<ObjectPart>>
compileToObjectCode(llvm::Module &module, const ObjectCodeOptions &options);

} // namespace convgen

#endif // CONV_RUNTIME_OBJECTCODE_H
