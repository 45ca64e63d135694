//===- Jit.h - ConvGen JIT runtime ------------------------------*- C++ -*-===//
//
// Compiles conv ops (from an op spec mirroring the TF/Keras arguments) or any
// function of an MLIR module through the conv-lower-to-llvm-cpu pipeline and
// LLVM (ORC LLJIT), for the host CPU, and runs the kernels on
// caller-owned dense row-major buffers. Errors are llvm::Error / Expected;
// nothing here exits or aborts on bad input. A kernel cache keyed by (spec,
// target, options) makes repeated compiles free; all of it is thread-safe.
//
//===----------------------------------------------------------------------===//

#ifndef CONV_RUNTIME_JIT_H
#define CONV_RUNTIME_JIT_H

#include "conv/Geometry/Geometry.h"
#include "conv/Support/ElementType.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace convgen {

/// conv.backprop_filter: dW = f(input, out_backprop); `filterShape` is
/// tf's filter_sizes ([spatial..., in_channels / groups, out_channels]).
struct BackpropFilterSpec {
  ElementType elementType = ElementType::F32;
  BackpropFilterAttrs attrs;
  Shape inputShape;
  Shape filterShape;
  Shape outBackpropShape;
  /// Spatial rank named by the data_format (NHWC: 2) when the caller parsed
  /// one; buildModule then uses that name, so a rank mismatch is reported by
  /// the verifier. Unset: inputShape.size() - 2.
  std::optional<int64_t> dataFormatSpatialDims;
};

/// conv.transpose: output = f(inputs, kernel); kernel [spatial..., out, in].
struct TransposeSpec {
  ElementType elementType = ElementType::F32;
  TransposeAttrs attrs;
  Shape inputShape;
  Shape kernelShape;
};

/// Compilation options (part of the cache key).
struct CompileOptions {
  /// Lower conv.transpose by zero insertion (test oracle) instead of phases.
  bool zeroInsertionTranspose = false;
  /// Lower conv.transpose one kernel tap at a time: "auto" (small inputs),
  /// "always" or "never" (docs/Lowering.md §3.3).
  std::string transposePerTap = "auto";
  /// Tile and vectorize the contractions (conv-cpu-tile-and-vectorize);
  /// false compiles plain loops (the unoptimized oracle pipeline).
  bool optimize = true;
  /// Threads of the kernel: 0 = all hardware threads (OpenMP, the JIT loads
  /// libomp), 1 = sequential code, N = N OpenMP threads. For a fixed value
  /// the work split is fixed, so results are bit-identical run to run.
  unsigned numThreads = 0;
  /// A kernel that is a single conv op of fewer useful FLOPs per call than
  /// this runs sequential code whatever numThreads says: forking and
  /// joining the threads would cost more than splitting the work saves
  /// (0: always numThreads). A transposed convolution that runs in row
  /// parts (conv::transposeRowParts: one fork per call, each thread adding
  /// only the rows it computed) goes parallel from a quarter of this. A
  /// filter gradient's result does not depend on its thread count either
  /// way, nor does a transposed convolution's in row parts.
  double minParallelFlops = 4e6;
  /// Register tile overrides (0: the heuristic's choice).
  unsigned registerTileRows = 0;
  unsigned registerTileVectors = 0;
  unsigned reductionChunk = 0;
  /// Cache sizes the cache blocking assumes (bytes; 0: the host's).
  int64_t l1CacheBytes = 0;
  int64_t l2CacheBytes = 0;
  /// Last-level cache the filter gradient's reduction blocks are sized for
  /// (a quarter of it per block; 0: the host's).
  int64_t l3CacheBytes = 0;
  /// bf16 transposed convolutions reduce input-channel pairs, and bf16
  /// filter gradients pairs of output positions, with `vdpbf16ps`: "auto"
  /// (when the host runs AVX512-BF16 at its FMA rate: AMD Zen 4/5, not the
  /// Intel Xeons), "on", "off".
  std::string bf16Dot = "auto";
  /// Grouped filter gradients with lane-group register tiles contract the
  /// taps of a stride-1 last kernel dimension together (docs/Lowering.md
  /// §2.8): "auto" (on hosts with two 512-bit FMA units), "on", "off".
  std::string dwTapRows = "auto";
  /// Software prefetch of the next out_backprop rows in filter gradients
  /// that stream it once (tiny-Cin layers with every kernel tap fused), and
  /// of the next input and out_backprop rows in 1x1 and 1-D filter
  /// gradients with whole-dW tiles.
  bool prefetch = true;
  /// Non-temporal stores for the register tiles of a result the kernel only
  /// writes, of at least streamingStoresMinBytes bytes (AVX-512 hosts;
  /// pipeline options streaming-stores, streaming-stores-min-bytes).
  bool streamingStores = true;
  /// -1: four times the L2; 0: every size.
  int64_t streamingStoresMinBytes = -1;
  /// The register tiles of tiny-Cin filter gradients with every kernel tap
  /// fused read their runs of k * Cin input values from the input itself
  /// (false: each cache block first copies them into a scratch pack).
  bool directRows = true;
  /// Depthwise filter gradients contract all the taps of their last two
  /// kernel dimensions together (docs/Lowering.md §2.9).
  bool dwTapPlanes = true;
  /// Transposed-convolution phases with 2 or 3 taps along their last
  /// spatial dimension compute its output pairs with Winograd's F(2, 2) /
  /// F(2, 3) (docs/Lowering.md §3.10), and stride-1 filter gradients with
  /// 3 or 5 taps a dimension use F(3, 2) or F(5, 2) (§2.7; 5 taps in 1-D
  /// and 2-D only): "auto" (transposes with at
  /// most 2 such phases, or up to 4 with at least 128 output channels; 2-D
  /// filter gradients as backpropFilterWinogradApplies says), "on", "off".
  std::string winograd = "auto";
  /// Threads that optimize and compile the kernel's LLVM IR, one part of
  /// its functions each (ObjectCode.h): 0 = up to the host's hardware
  /// threads (at most 2), 1 = all on the calling thread. Only where the
  /// code sits depends on it, not the kernel's arithmetic.
  unsigned compileThreads = 0;
  /// The CPU whose scheduling model LLVM's code generator uses (the
  /// functions' "tune-cpu" attribute, like clang's -mtune; an LLVM CPU name
  /// such as "sapphirerapids"): "auto" is hostTuneCpuName() (HostCpu.h).
  /// The instructions stay the host's either way.
  std::string tuneCpu = "auto";
  /// Key=value string for debugging / cache keys.
  std::string str() const;
};

/// Type of one kernel argument.
struct TensorInfo {
  ElementType elementType = ElementType::F32;
  Shape shape;
  size_t numElements() const;
  size_t byteSize() const;
};

/// The single conv op a kernel computes, when its entry function is exactly
/// one conv op applied to the function arguments (in order) and returned:
/// every kernel compiled from a spec, and such functions of modules.
struct SingleConvOp {
  enum class Kind { BackpropFilter, Transpose };
  Kind kind = Kind::BackpropFilter;
  ElementType elementType = ElementType::F32;
  /// Valid when kind == BackpropFilter.
  BackpropFilterGeometry backpropFilter;
  /// Valid when kind == Transpose.
  TransposeGeometry transpose;

  /// Useful FLOPs of one call (the geometry's flops()).
  double flops() const;
  /// Runs the plain reference (conv/Reference) on buffers laid out as for
  /// Kernel::run: the two operands, then the result (rounded once to the
  /// element type).
  void runReference(llvm::ArrayRef<void *> buffers) const;
  /// The f64 reference on f64 operands (for error measurements).
  void runReferenceF64(const double *lhs, const double *rhs,
                       double *result) const;
};

/// A compiled, callable kernel. Immutable and safe to call from several
/// threads at once.
class Kernel {
public:
  virtual ~Kernel();
  /// Inputs in function-argument order, then the results (out-params).
  virtual const std::vector<TensorInfo> &inputs() const = 0;
  virtual const std::vector<TensorInfo> &outputs() const = 0;
  /// Runs the kernel: `buffers` holds inputs().size() input pointers then
  /// outputs().size() output pointers, dense row-major.
  virtual llvm::Error run(llvm::ArrayRef<void *> buffers) const = 0;
  /// Seconds the first compile of this kernel took (0 for cache hits is not
  /// reported: this is the original compile time).
  virtual double compileSeconds() const = 0;
  /// The textual MLIR the kernel was compiled from (before lowering).
  virtual const std::string &sourceModule() const = 0;
  /// The conv op this kernel computes (see SingleConvOp), or null.
  virtual const SingleConvOp *singleConvOp() const { return nullptr; }
  /// The threads the kernel's code runs on: 1 for sequential code (also
  /// below CompileOptions::minParallelFlops, or without an OpenMP runtime),
  /// else CompileOptions::numThreads (0: the OpenMP runtime's default).
  virtual unsigned threads() const { return 1; }
  /// The objects the kernel's code was compiled into, concurrently (at most
  /// CompileOptions::compileThreads; 1 when its LLVM module was not split).
  virtual unsigned codeParts() const { return 1; }
};

/// Thread-safe compiler + kernel cache.
class Jit {
public:
  Jit();
  ~Jit();
  Jit(const Jit &) = delete;
  Jit &operator=(const Jit &) = delete;

  /// A process-wide instance (the C API and Python use it).
  static Jit &global();

  /// Builds, verifies and compiles a conv.backprop_filter kernel. Invalid
  /// specs fail with the verifier's message.
  llvm::Expected<std::shared_ptr<const Kernel>>
  compile(const BackpropFilterSpec &spec, const CompileOptions &options = {});
  llvm::Expected<std::shared_ptr<const Kernel>>
  compile(const TransposeSpec &spec, const CompileOptions &options = {});

  /// Compiles function `entry` of an MLIR module given as text (tensor
  /// arguments and results, static shapes). Cached by text.
  llvm::Expected<std::shared_ptr<const Kernel>>
  compileModule(llvm::StringRef moduleText, llvm::StringRef entry,
                const CompileOptions &options = {});

  /// The MLIR text of a single-op kernel function `@kernel` for a spec
  /// (fails with the verifier's message for an invalid spec).
  static llvm::Expected<std::string> buildModule(const BackpropFilterSpec &);
  static llvm::Expected<std::string> buildModule(const TransposeSpec &);

  /// Number of kernels in the cache / compiles performed so far.
  size_t cacheSize() const;
  size_t numCompiles() const;
  void clearCache();

private:
  struct Impl;
  std::unique_ptr<Impl> impl;
};

} // namespace convgen

#endif // CONV_RUNTIME_JIT_H
