//===- Pipelines.h - ConvGen pass pipelines ---------------------*- C++ -*-===//
//
// Pipelines live here, as typed option structs plus builders, so that
// conv-opt, conv-run, the JIT runtime and the Python package share them.
//
//===----------------------------------------------------------------------===//

#ifndef CONV_PIPELINES_PIPELINES_H
#define CONV_PIPELINES_PIPELINES_H

#include "mlir/Pass/PassOptions.h"

namespace mlir {
class OpPassManager;
} // namespace mlir

namespace mlir::conv {

/// When bf16 transposed convolutions use `vdpbf16ps` (option bf16-dot).
enum class BF16Dot { Auto, On, Off };

/// When grouped filter gradients contract the taps of their last kernel
/// dimension together (option dw-tap-rows; docs/Lowering.md §2.8).
enum class TapRows { Auto, On, Off };

/// Options of `conv-lower-to-llvm-cpu`.
struct ConvCPUPipelineOptions
    : public PassPipelineOptions<ConvCPUPipelineOptions> {
  PassOptions::Option<bool> zeroInsertionTranspose{
      *this, "zero-insertion-transpose",
      llvm::cl::desc("Lower conv.transpose by zero insertion (test oracle)"),
      llvm::cl::init(false)};
  PassOptions::Option<std::string> transposePerTap{
      *this, "transpose-per-tap",
      llvm::cl::desc("Lower conv.transpose one kernel tap at a time: auto "
                     "(small inputs), always, never; columns: one GEMM over all (tap, "
                     "output channel) columns, then per-tap adds (channels "
                     "last; auto picks it for <= 4 output channels)"),
      llvm::cl::init("auto")};
  PassOptions::Option<bool> optimize{
      *this, "optimize",
      llvm::cl::desc("Tile and vectorize the conv contractions "
                     "(conv-cpu-tile-and-vectorize); off: plain loops"),
      llvm::cl::init(true)};
  PassOptions::Option<unsigned> numThreads{
      *this, "num-threads",
      llvm::cl::desc("1: sequential code; N > 1: scf.forall loops become "
                     "OpenMP parallel loops with N threads; 0: OpenMP with "
                     "the runtime's default thread count (the JIT then "
                     "loads libomp)"),
      llvm::cl::init(1)};
  PassOptions::Option<unsigned> registerTileRows{
      *this, "register-tile-rows",
      llvm::cl::desc("Accumulator rows of the register tile (0: heuristic)"),
      llvm::cl::init(0)};
  PassOptions::Option<unsigned> registerTileVectors{
      *this, "register-tile-vectors",
      llvm::cl::desc("Vector columns of the register tile (0: heuristic)"),
      llvm::cl::init(0)};
  PassOptions::Option<unsigned> reductionChunk{
      *this, "reduction-chunk",
      llvm::cl::desc("Inner reduction chunk (0: heuristic)"),
      llvm::cl::init(0)};
  PassOptions::Option<int64_t> l1CacheBytes{
      *this, "l1-cache-bytes",
      llvm::cl::desc("L1 data cache size the cache blocking assumes (0: "
                     "the host's)"),
      llvm::cl::init(0)};
  PassOptions::Option<int64_t> l2CacheBytes{
      *this, "l2-cache-bytes",
      llvm::cl::desc("L2 cache size the cache blocking assumes (0: the "
                     "host's)"),
      llvm::cl::init(0)};
  PassOptions::Option<int64_t> l3CacheBytes{
      *this, "l3-cache-bytes",
      llvm::cl::desc("Last-level cache size: with optimize, a filter "
                     "gradient whose input window and out_backprop exceed a "
                     "quarter of it runs its taps over reduction blocks of "
                     "that size (0: the host's, at most 32 MiB)"),
      llvm::cl::init(0)};
  PassOptions::Option<BF16Dot> bf16Dot{
      *this, "bf16-dot",
      llvm::cl::desc("bf16 transposed convolutions reduce input-channel "
                     "pairs, and bf16 filter gradients pairs of output "
                     "positions, with vdpbf16ps (x86vector.avx512.dot)"),
      llvm::cl::init(BF16Dot::Auto),
      llvm::cl::values(
          clEnumValN(BF16Dot::Auto, "auto",
                     "when the host runs AVX512-BF16 at its FMA rate (AMD "
                     "Zen 4/5; not the Intel Xeons, where it has half the "
                     "FLOP rate of f32 FMAs)"),
          clEnumValN(BF16Dot::On, "on", "always (the JIT emulates it on "
                                        "hosts without AVX512-BF16)"),
          clEnumValN(BF16Dot::Off, "off", "never: bf16 widened to f32 FMAs"))};
  PassOptions::Option<TapRows> dwTapRows{
      *this, "dw-tap-rows",
      llvm::cl::desc("Grouped channels-last f32 filter gradients with 2-4 "
                     "output channels per group (lane-group register "
                     "tiles) contract the taps of a stride-1 last kernel "
                     "dimension together, one lane shuffle of an input row "
                     "serving all of them (docs/Lowering.md §2.8)"),
      llvm::cl::init(TapRows::Auto),
      llvm::cl::values(
          clEnumValN(TapRows::Auto, "auto",
                     "on hosts with two 512-bit FMA units (the Intel "
                     "Xeons), where it was measured"),
          clEnumValN(TapRows::On, "on", "with the host's vector width"),
          clEnumValN(TapRows::Off, "off", "never: one contraction per tap"))};
  PassOptions::Option<bool> prefetch{
      *this, "prefetch",
      llvm::cl::desc("With optimize: software prefetch of the next "
                     "out_backprop rows in filter gradients that stream it "
                     "once (tiny-Cin layers with every tap fused), and of "
                     "the next input and out_backprop rows in 1x1 and 1-D "
                     "filter gradients with whole-dW tiles"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> streamingStores{
      *this, "streaming-stores",
      llvm::cl::desc("With optimize, on AVX-512 hosts: the register tiles "
                     "of a result the kernel only writes, and that is larger "
                     "than four L2s (a transposed convolution's output), are "
                     "stored with non-temporal stores "
                     "(conv-cpu-streaming-stores)"),
      llvm::cl::init(true)};
  PassOptions::Option<int64_t> streamingStoresMinBytes{
      *this, "streaming-stores-min-bytes",
      llvm::cl::desc("With streaming-stores: the smallest result (bytes) "
                     "stored that way (-1: four times the L2, the default; "
                     "0: every size)"),
      llvm::cl::init(-1)};
  PassOptions::Option<bool> dwTapPlanes{
      *this, "dw-tap-planes",
      llvm::cl::desc("Depthwise channels-last f32 filter gradients contract "
                     "all the taps of their last two kernel dimensions "
                     "together, each out_backprop vector loaded once for "
                     "all of them (docs/Lowering.md §2.9)"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> directRows{
      *this, "direct-rows",
      llvm::cl::desc("With optimize: the register tiles of tiny-Cin filter "
                     "gradients with every tap fused read their runs of "
                     "k * Cin input values from the input itself (false: "
                     "each cache block first copies them into a scratch "
                     "pack)"),
      llvm::cl::init(true)};
  PassOptions::Option<std::string> winograd{
      *this, "winograd",
      llvm::cl::desc("With optimize: transposed-convolution phases with 2 "
                     "or 3 taps along their last spatial dimension compute "
                     "its output pairs with Winograd's F(2, 2) / F(2, 3) "
                     "(convert-conv-to-linalg's transpose-winograd), and "
                     "stride-1 filter gradients with 3 or 5 taps a dimension "
                     "use Winograd's F(3, 2) or F(5, 2) (dw-winograd): 'auto' "
                     "(transposes "
                     "with at most 2 such phases, or up to 4 with at least "
                     "128 output channels; 2-D filter gradients with at "
                     "least 32 input and output channels and enough pairs "
                     "to reduce over), 'on', 'off'"),
      llvm::cl::init("auto")};
  PassOptions::Option<bool> genericAllocFunctions{
      *this, "generic-alloc-functions",
      llvm::cl::desc("Allocate temporary buffers through "
                     "_mlir_memref_to_llvm_{alloc,aligned_alloc,free} "
                     "instead of malloc/free (the JIT runtime provides them: "
                     "a cache of freed buffers, so that repeated calls do "
                     "not fault fresh pages in)"),
      llvm::cl::init(false)};
};

/// Whether `bf16-dot` is on: "on", or "auto" on a host with AVX512-BF16.
bool resolveBF16Dot(const ConvCPUPipelineOptions &options);

/// Tiling and vectorization of the linalg form (on tensors), when
/// `optimize` is set.
void buildConvCPUCodegenPipeline(OpPassManager &pm,
                                 const ConvCPUPipelineOptions &options);

/// conv -> linalg on tensors (+ canonicalization).
void buildConvToLinalgPipeline(OpPassManager &pm,
                               const ConvCPUPipelineOptions &options);

/// One-shot bufferization of the whole module (function boundaries included,
/// identity layouts), memref results turned into out-params (public
/// functions too), and ownership-based deallocation.
void buildConvBufferizationPipeline(OpPassManager &pm,
                                    const ConvCPUPipelineOptions &options);

/// Loops and everything else down to the LLVM dialect.
void buildConvLowerToLLVMPipeline(OpPassManager &pm,
                                  const ConvCPUPipelineOptions &options);

/// conv -> linalg -> bufferization -> loops -> LLVM dialect. After it every
/// function `@f(tensor args...) -> (tensor results...)` has become
/// `@f(memref args..., memref out-params...)` returning nothing, in the LLVM
/// dialect; functions carrying `llvm.emit_c_interface` get a `_mlir_ciface_f`
/// wrapper taking pointers to memref descriptors.
void buildConvCPUPipeline(OpPassManager &pm,
                          const ConvCPUPipelineOptions &options);

/// Registers `conv-lower-to-llvm-cpu`.
void registerConvPipelines();

} // namespace mlir::conv

#endif // CONV_PIPELINES_PIPELINES_H
