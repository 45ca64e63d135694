//===- Passes.h - ConvGen CPU code generation passes ------------*- C++ -*-===//

#ifndef CONV_CODEGEN_PASSES_H
#define CONV_CODEGEN_PASSES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/X86Vector/X86VectorDialect.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::conv {

#define GEN_PASS_DECL
#include "conv/Codegen/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "conv/Codegen/Passes.h.inc"

/// SIMD and cache facts of the host CPU (vector width, register count,
/// per-core L1 data and L2 cache sizes and the last-level cache size from
/// sysfs).
struct HostVectorInfo {
  unsigned vectorBits = 128;
  unsigned numRegisters = 16;
  int64_t l1Bytes = 32 * 1024;
  int64_t l2Bytes = 512 * 1024;
  int64_t l3Bytes = 8 * 1024 * 1024;
  /// AVX-512 with AVX512-BF16 (`vdpbf16ps`).
  bool bf16Dot = false;
  /// bf16Dot, on a core that runs vdpbf16ps at the rate of its f32 FMAs
  /// (two bf16 products per f32 lane: twice the FLOPs). AMD Zen 4 and Zen
  /// 5 (LLVM host CPU `znver*`) do; the Intel Xeons with AVX512-BF16 run it
  /// at a quarter of the FMA instruction rate, half the FLOPs (measured on
  /// an Emerald Rapids VM: 76-85 GFLOP/s against 143-186 for FMAs), so that
  /// f32 FMAs are faster there. `bf16-dot=auto` follows this.
  bool bf16DotFast = false;
  /// AVX-512 on a core with two 512-bit FMA units: the Intel Xeons (LLVM
  /// host CPU not `znver*`; Zen 4 runs each 512-bit FMA on its two 256-bit
  /// units, at half the FLOPs a cycle). Their direct kernels reach twice
  /// the FLOPs a cycle against similar cache bandwidth, and some of the
  /// defaults measured on Zen 4 do not hold there: the CPU pipeline then
  /// sets conv-cpu-tile-and-vectorize's two-zmm-fma-units and the Winograd
  /// thresholds of convert-conv-to-linalg (docs/Pipelines.md). Zen 5, which
  /// has such units too, is not measured and keeps the Zen 4 defaults;
  /// Intel client cores with a single 512-bit FMA unit are not told apart.
  bool twoZmmFMAUnits = false;
  /// The host's facts (read on the first call, then cached).
  static HostVectorInfo detect();
};

/// Marks an scf.for that LLVM's loop unroller may unroll (the others get
/// `unroll disable` from conv-cpu-annotate-loop-unrolling).
constexpr llvm::StringLiteral kLLVMUnrollAttr = "conv.llvm_unroll";
/// An integer: the times LLVM's unroller unrolls the marked scf.for (its
/// trip count may be dynamic: a remainder loop runs the rest).
constexpr llvm::StringLiteral kLLVMUnrollCountAttr = "conv.llvm_unroll_count";
/// Set by conv-cpu-tile-and-vectorize on the loops of tiles that LLVM's
/// unroller must leave alone even when they are small innermost loops (the
/// Winograd transforms' channel chunks: unrolled, they doubled those
/// kernels' LLVM IR for no speed).
constexpr llvm::StringLiteral kLLVMNoUnrollAttr = "conv.llvm_no_unroll";

/// Marks the innermost reduction loop (an scf.for) of register tiles that
/// stream their right-hand operand once: the rows the loop reads are
/// followed by the rows its next range reads (conv-cpu-tile-and-vectorize
/// sets it for conv.dw_stream contractions; conv-cpu-lower-vectors'
/// `prefetch` prefetches those rows for the contractions in its body).
constexpr llvm::StringLiteral kPrefetchRhsAttr = "conv.prefetch_rhs";
/// With conv.prefetch_rhs: prefetch into the L2 only (locality 2,
/// `prefetcht1`) instead of every level. Set where several register tiles
/// sweep each streamed row (their re-reads keep the current rows in the L1)
/// on cores with two 512-bit FMA units, where it was measured. With
/// conv.prefetch_rows (1x1 layers few tiles sweep, on those cores): the
/// lines are spread over the tiles of the conv.prefetch_tiles loop.
constexpr llvm::StringLiteral kPrefetchL2Attr = "conv.prefetch_l2";
/// On an scf.for around a loop marked conv.prefetch_rhs (or
/// conv.prefetch_rows with conv.prefetch_l2: then the left-hand operand's
/// whole rows as well) whose iterations'
/// register tiles all read the same streamed rows (the tiles of rows that
/// conv.prefetch_l2 is set for): iteration t of its T issues only the
/// lines t, t + T, t + 2T, ... of each step's N = rows x lines prefetches
/// (modulo N), so that every line is prefetched once, not T times.
constexpr llvm::StringLiteral kPrefetchTilesAttr = "conv.prefetch_tiles";
/// On an scf.for inside a conv.prefetch_tiles loop (the loop over a
/// register tile's column blocks): its iterations count as tiles too (the
/// tile index runs over both loops, this one inner), and the right-hand
/// operand's whole rows are spread over them like the left-hand one's.
constexpr llvm::StringLiteral kPrefetchTilesInnerAttr =
    "conv.prefetch_tiles_inner";
/// On a loop marked conv.prefetch_rows: the prefetch distance, in the
/// positions of the rows' dimension (an integer), instead of the loop's
/// range: the positions of a whole reduction block of several rows, so
/// that the tiles fetch the next block, not the rest of this one.
constexpr llvm::StringLiteral kPrefetchDistanceAttr = "conv.prefetch_distance";

/// Marks the innermost reduction loop (an scf.for) of register tiles that
/// read every block of both operands from memory once and re-read it from
/// the caches for their other tiles: each register tile prefetches the rows
/// of the loop's next range, of its left-hand operand at its own columns
/// and of its right-hand operand one cache line per row, the line chosen by
/// the tile's left-hand column block, so that consecutive tiles fetch
/// different lines (conv-cpu-tile-and-vectorize sets it for whole-dW tiles
/// of 1x1 and 1-D filter gradients; conv-cpu-lower-vectors' `prefetch`).
constexpr llvm::StringLiteral kPrefetchRowsAttr = "conv.prefetch_rows";
/// On an scf.for that steps one position at a time (a tap-row register
/// tile's reduction loop): the distance, in iterations, at which
/// conv-cpu-lower-vectors prefetches the rows its body reads at the
/// induction variable (see insertAheadPrefetches).
constexpr llvm::StringLiteral kPrefetchAheadAttr = "conv.prefetch_ahead";

/// The discardable attribute that carries an scf.for's LLVM loop annotation
/// (convert-scf-to-cf moves it to the back edge; conv-llvm-loop-annotations
/// into the llvm.br property).
constexpr llvm::StringLiteral kLoopAnnotationAttr = "llvm.loop_annotation";

/// The thread count a `num-threads` pass option stands for: the value
/// itself, or for 0 all hardware threads (at least 1).
int64_t resolveNumThreads(unsigned numThreads);

/// Patterns of conv-cpu-channels-last: channels-first conv.backprop_filter
/// and conv.transpose become the channels-last op between linalg.transpose
/// ops (tagged conv.role = relayout).
void populateConvChannelsLastPatterns(RewritePatternSet &patterns);

/// The greedy-rewrite configuration of ConvGen's code generator passes and
/// of the CPU pipeline's canonicalizations: no region simplification (dead
/// block arguments, block merging). It found nothing to simplify in the
/// kernels (the LLVM IR of all 86 benchmark kernels, and of bf16,
/// channels-first, grouped and plain-loop variants, is byte-identical
/// without it) but took up to nine tenths of a canonicalization: DeepBench's
/// 7x7x512 3x3 filter gradient with 2 threads 119 -> 14 ms over the
/// pipeline's six canonicalizations, the dilated 38x57x512 one 39-45 ->
/// 20-23 ms, the DCGAN / Keras stride-2 transposes 27-32 -> 18-22 ms; and
/// about a third of conv-cpu-lower-vectors' 13 pattern applications (dl1,
/// dc3: 9-16 -> 4-11 ms). docs/Pipelines.md.
inline GreedyRewriteConfig structuredRewriteConfig() {
  GreedyRewriteConfig config;
  config.setRegionSimplificationLevel(GreedySimplifyRegionLevel::Disabled);
  return config;
}

/// Whether a bf16 vector of `length` elements is one LLVM 22's x86 code
/// generator cannot handle with AVX512-BF16 on (8k + 1 > 1: splitting it
/// leaves a single element it cannot promote; docs/Codegen.md, JIT).
inline bool isOddBF16VectorLength(int64_t length) {
  return length > 1 && length % 8 == 1;
}

/// Patterns of conv-cpu-lower-vectors' `bf16-dot`: a contraction of bf16
/// operands (widened to f32) into f32 over a reduction of 2 with columns a
/// multiple of 16 becomes `x86vector.avx512.dot` (vdpbf16ps).
void populateBF16DotProductPatterns(RewritePatternSet &patterns);

/// Rewrites the register-tile contractions of grouped filter gradients with
/// few channels per group, acc[ci, g, co] += lhs[k, g, ci] * rhs[k, g, co],
/// to lane shuffles (each input value broadcast over its group's lanes) and
/// FMAs over the (g, co) vectors (conv-cpu-lower-vectors).
void populateGroupedContractionPatterns(RewritePatternSet &patterns);

/// The pattern of conv-cpu-decompose-pads: a static tensor.pad with a
/// constant value becomes border-slab fills and one interior insert_slice
/// into a tensor.empty.
void populateDecomposePadsPatterns(RewritePatternSet &patterns);

/// The pattern of conv-return-reshaped-allocs: a returned reshape of a
/// static memref.alloc becomes an allocation of the returned shape, viewed
/// through the inverse reshape, and returned itself.
void populateReturnReshapedAllocPatterns(RewritePatternSet &patterns);

/// Folds the tensor.extract_slice / tensor.insert_slice around the vector
/// transfers of hoisted accumulator tiles into the transfers
/// (conv-cpu-fold-accumulator-slices).
void populateFoldAccumulatorSlicesPatterns(RewritePatternSet &patterns);

} // namespace mlir::conv

#endif // CONV_CODEGEN_PASSES_H
