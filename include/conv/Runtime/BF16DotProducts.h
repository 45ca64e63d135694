//===- BF16DotProducts.h - vdpbf16ps in JIT-compiled kernels ----*- C++ -*-===//
//
// The JIT's target machine leaves AVX512-BF16 out (LLVM 22 aborts on bf16
// vectors of 8k + 1 elements with it; see createHostTargetMachine in
// Jit.cpp and docs/Codegen.md). Kernels lowered with the pipeline's
// bf16-dot call `llvm.x86.avx512bf16.dpbf16ps.*`, which needs it: this
// gives the feature to exactly the functions that call the instruction,
// or replaces the calls with the same arithmetic in FMAs.
//
//===----------------------------------------------------------------------===//

#ifndef CONV_RUNTIME_BF16DOTPRODUCTS_H
#define CONV_RUNTIME_BF16DOTPRODUCTS_H

#include "llvm/ADT/StringRef.h"

namespace llvm {
class Module;
} // namespace llvm

namespace convgen {

/// What prepareBF16DotProducts did to a module.
struct BF16DotProductsPrepared {
  /// Functions given `+avx512bf16` (their calls stay native).
  unsigned nativeFunctions = 0;
  /// Calls replaced by two FMAs per lane.
  unsigned emulatedCalls = 0;
};

/// For each function of `module` that calls `llvm.x86.avx512bf16.dpbf16ps.*`:
/// when `hostHasBF16` and the function has no bf16 vector of 8k + 1 > 1
/// elements, sets its "target-features" to `targetFeatures` (the target
/// machine's) plus `+avx512bf16`; otherwise replaces every call
/// `dpbf16ps(acc, a, b)` by, per f32 lane i,
///   fma(lo(a_i), lo(b_i), fma(hi(a_i), hi(b_i), acc_i))
/// where lo / hi widen the bf16 at 2i / 2i + 1 to f32 (a shift of the
/// bits): the instruction's order and rounding (each step rounds once),
/// except that the instruction flushes denormal inputs and results to zero.
BF16DotProductsPrepared prepareBF16DotProducts(llvm::Module &module,
                                               llvm::StringRef targetFeatures,
                                               bool hostHasBF16);

/// Makes every load of a bf16 vector whose only users are stores (a copy:
/// the tiny-Cin filter gradient's per-block pack, padding and relayout
/// copies) a load and stores of an i16 vector of the same length. Without
/// AVX512-BF16 the x86 code generator legalizes such a load at an
/// unaligned address element by element: DeepBench's 48x480 single-channel
/// filter gradient in bf16 became 7079 scalar 16-bit loads and stores in
/// one block, which took 4.8 s to schedule. The JIT runs it before
/// prepareBF16DotProducts, whose check of bf16 vector lengths then no
/// longer sees the copies. Returns the loads changed.
unsigned moveBF16VectorsAsIntegers(llvm::Module &module);

} // namespace convgen

#endif // CONV_RUNTIME_BF16DOTPRODUCTS_H
