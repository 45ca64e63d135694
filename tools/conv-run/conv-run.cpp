//===- conv-run.cpp - Run a function of a conv module through the JIT -----===//
//
//   conv-run FILE.mlir --entry NAME [--input a.npy]... [--seed N]
//            [--output out.npy]... [--check] [--repeat N] [--print]
//            [--compare KEY=VALUE,...]
//
// Compiles function NAME with conv-lower-to-llvm-cpu and the ExecutionEngine
// (convgen::Jit), runs it on .npy inputs (converted to the argument element
// types) or on uniform [-1, 1) random inputs, and prints, checks against the
// reference, times or saves the results. NumPy has no bfloat16: bf16
// arguments read any float .npy (typically f32) and bf16 results are written
// as f32 .npy files. --compare compiles the function a second time with
// some options changed and times both kernels call by call in alternation
// (A/B), so that the host's changes of speed affect both alike.
//
//===----------------------------------------------------------------------===//

#include "conv/Runtime/Jit.h"
#include "conv/Support/ElementType.h"
#include "conv/Support/Npy.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <new>
#include <random>

using namespace convgen;
namespace cl = llvm::cl;

namespace {

cl::OptionCategory category("conv-run options");

cl::opt<std::string> inputFile(cl::Positional, cl::desc("<input .mlir file>"),
                               cl::init("-"), cl::cat(category));
cl::opt<std::string> entry("entry", cl::desc("Function to run"), cl::Required,
                           cl::value_desc("name"), cl::cat(category));
cl::list<std::string>
    inputs("input",
           cl::desc("Argument from an .npy file (repeat, in argument order; "
                    "converted to the argument's element type)"),
           cl::value_desc("file.npy"), cl::cat(category));
cl::opt<uint64_t> seed("seed",
                       cl::desc("Seed of the uniform [-1, 1) random "
                                "arguments used without --input"),
                       cl::init(0), cl::cat(category));
cl::list<std::string>
    outputs("output",
            cl::desc("Write result i to the i-th --output .npy file (bf16 "
                     "results as f32)"),
            cl::value_desc("file.npy"), cl::cat(category));
cl::opt<bool> check("check",
                    cl::desc("Compare the result with the reference (the "
                             "function must be a single conv op)"),
                    cl::cat(category));
cl::opt<double> rtol("rtol",
                     cl::desc("--check tolerance relative to the largest "
                              "reference magnitude (default: 1e-10 f64, 1e-4 "
                              "f32, 1e-2 f16/bf16)"),
                     cl::init(-1), cl::cat(category));
cl::opt<unsigned> repeat("repeat",
                         cl::desc("Time N calls (after one warm-up call) "
                                  "and print time per call and GFLOP/s"),
                         cl::init(0), cl::cat(category));
cl::opt<bool> print("print", cl::desc("Print the results"), cl::cat(category));
cl::opt<bool> noOptimize(
    "no-optimize",
    cl::desc("Compile plain loops instead of tiled, vectorized kernels"),
    cl::cat(category));
cl::opt<unsigned> tileRows("register-tile-rows",
                           cl::desc("Accumulator rows (0: heuristic)"),
                           cl::init(0), cl::cat(category));
cl::opt<unsigned> tileVectors("register-tile-vectors",
                              cl::desc("Accumulator vectors per row (0: heuristic)"),
                              cl::init(0), cl::cat(category));
cl::opt<unsigned> numThreads(
    "num-threads",
    cl::desc("Kernel threads (0: all hardware threads, 1: sequential)"),
    cl::init(0), cl::cat(category));
cl::opt<unsigned> compileThreads(
    "compile-threads",
    cl::desc("Threads that optimize and compile the kernel's LLVM IR, one "
             "part of its functions each (0: up to the host's hardware "
             "threads, at most 2; 1: one; the results are the same)"),
    cl::init(0), cl::cat(category));
cl::opt<double> minParallelFlops(
    "min-parallel-flops",
    cl::desc("A single conv op of fewer useful FLOPs per call runs "
             "sequential code whatever --num-threads says (0: never; "
             "default: the JIT's, 4e6)"),
    cl::init(convgen::CompileOptions{}.minParallelFlops), cl::cat(category));
cl::opt<unsigned> reductionChunk("reduction-chunk",
                                 cl::desc("Inner reduction chunk (0: heuristic)"),
                                 cl::init(0), cl::cat(category));
cl::opt<int64_t> l1CacheBytes(
    "l1-cache-bytes",
    cl::desc("L1 data cache size for the cache blocking (0: the host's)"),
    cl::init(0), cl::cat(category));
cl::opt<int64_t> l2CacheBytes(
    "l2-cache-bytes",
    cl::desc("L2 cache size for the cache blocking (0: the host's)"),
    cl::init(0), cl::cat(category));
cl::opt<int64_t> l3CacheBytes(
    "l3-cache-bytes",
    cl::desc("Last-level cache size for the filter gradient's reduction "
             "blocks (0: the host's, at most 32 MiB)"),
    cl::init(0), cl::cat(category));
cl::opt<std::string> transposePerTap(
    "transpose-per-tap",
    cl::desc("Lower conv.transpose one kernel tap at a time: auto (small "
             "inputs), always, never, or columns (one GEMM over all (tap, "
             "output channel) columns; auto picks it for <= 4 output "
             "channels)"),
    cl::init("auto"), cl::cat(category));
cl::opt<std::string> dwTapRows(
    "dw-tap-rows",
    cl::desc("Grouped filter gradients with lane-group register tiles "
             "contract the taps of a stride-1 last kernel dimension "
             "together: auto (hosts with two 512-bit FMA units), on, off"),
    cl::init("auto"), cl::cat(category));
cl::opt<std::string> bf16Dot(
    "bf16-dot",
    cl::desc("bf16 transposed convolutions reduce input-channel pairs, and "
             "bf16 filter gradients pairs of output positions, with "
             "vdpbf16ps: auto (when the host runs AVX512-BF16 at its FMA "
             "rate: AMD Zen 4/5, not the Intel Xeons), on, off"),
    cl::init("auto"), cl::cat(category));
cl::opt<bool>
    noPrefetch("no-prefetch",
               cl::desc("No software prefetch in filter gradients (those "
                        "that stream out_backprop once, 1x1 and 1-D ones; "
                        "pipeline option prefetch=false)"),
               cl::cat(category));
cl::opt<int64_t> streamingStoresMinBytes(
    "streaming-stores-min-bytes",
    cl::desc("The smallest result (bytes) whose register tiles are stored "
             "with non-temporal stores on AVX-512 hosts (-1: four times the "
             "L2; 0: every size; pipeline option streaming-stores-min-bytes)"),
    cl::init(-1), cl::cat(category));
cl::opt<std::string> winograd(
    "winograd",
    cl::desc("Winograd F(2, T) phases in transposed convolutions and "
             "F(3, 2) / F(5, 2) in stride-1 3-tap / 5-tap filter gradients "
             "(pipeline option winograd): auto (transposes with at most 2 "
             "such phases, or up to 4 with at least 128 output channels; 2-D "
             "filter gradients with at least 32 channels each side), on, "
             "off"),
    cl::init("auto"), cl::cat(category));
cl::opt<std::string> tuneCpu(
    "tune-cpu",
    cl::desc("The CPU whose scheduling model LLVM's code generator uses "
             "(an LLVM CPU name, like clang's -mtune; auto: the host's, "
             "Ice Lake-model cores as sapphirerapids)"),
    cl::init("auto"), cl::cat(category));
cl::opt<std::string> compare(
    "compare",
    cl::desc("With --repeat: also compile the function with these options "
             "changed (comma-separated KEY=VALUE, KEY one of "
             "register-tile-rows, register-tile-vectors, reduction-chunk, "
             "l1-cache-bytes, l2-cache-bytes, l3-cache-bytes, "
             "transpose-per-tap, bf16-dot, dw-tap-rows, prefetch (0 or 1), "
             "streaming-stores (0 or 1), streaming-stores-min-bytes, "
             "direct-rows (0 or 1), dw-tap-planes (0 or 1), winograd (auto, "
             "on, off), num-threads, "
             "compile-threads, tune-cpu), "
             "time both in alternating calls and print the speed ratio"),
    cl::init(""), cl::cat(category));
cl::opt<bool> zeroInsertion(
    "zero-insertion-transpose",
    cl::desc("Lower conv.transpose by zero insertion (test oracle)"),
    cl::cat(category));

int fail(const llvm::Twine &message) {
  llvm::WithColor::error(llvm::errs(), "conv-run") << message << "\n";
  return 1;
}

std::string typeString(const TensorInfo &info) {
  std::string s = "tensor<";
  for (int64_t d : info.shape)
    s += std::to_string(d) + "x";
  return s + stringify(info.elementType) + ">";
}

/// Allocates on 64-byte (cache-line) boundaries, as the JIT's own
/// temporaries and conv-bench's buffers are: with malloc's 16-byte
/// alignment every vector load of a register tile straddles two cache lines
/// (a 1x1 filter gradient timed 42 instead of 51 GFLOP/s).
template <typename T>
struct CacheLineAllocator {
  using value_type = T;
  static constexpr std::align_val_t kAlignment{64};
  CacheLineAllocator() = default;
  template <typename U>
  CacheLineAllocator(const CacheLineAllocator<U> &) {}
  T *allocate(size_t n) {
    return static_cast<T *>(::operator new(n * sizeof(T), kAlignment));
  }
  void deallocate(T *p, size_t) { ::operator delete(p, kAlignment); }
  template <typename U>
  bool operator==(const CacheLineAllocator<U> &) const {
    return true;
  }
  template <typename U>
  bool operator!=(const CacheLineAllocator<U> &) const {
    return false;
  }
};

/// A buffer of one argument or result.
struct Tensor {
  TensorInfo info;
  std::vector<char, CacheLineAllocator<char>> bytes;
  explicit Tensor(const TensorInfo &i) : info(i), bytes(i.byteSize()) {}
  double get(size_t k) const {
    return loadAsDouble(info.elementType, bytes.data(), k);
  }
  void set(size_t k, double v) {
    storeFromDouble(info.elementType, bytes.data(), k, v);
  }
  std::vector<double> toDouble() const {
    std::vector<double> v(info.numElements());
    for (size_t k = 0; k < v.size(); ++k)
      v[k] = get(k);
    return v;
  }
};

void printTensor(size_t index, const Tensor &t) {
  llvm::outs() << "result " << index << ": " << typeString(t.info) << "\n";
  size_t n = t.info.numElements();
  size_t row = t.info.shape.empty() ? 1 : t.info.shape.back();
  if (row == 0)
    return;
  for (size_t start = 0; start < n; start += row) {
    llvm::outs() << "[";
    for (size_t k = start; k < start + row; ++k)
      llvm::outs() << (k == start ? "" : ", ") << llvm::format("%g", t.get(k));
    llvm::outs() << "]\n";
  }
}

double defaultTolerance(ElementType t) {
  switch (t) {
  case ElementType::F64:
    return 1e-10;
  case ElementType::F32:
    return 1e-4;
  case ElementType::F16:
  case ElementType::BF16:
    return 1e-2;
  }
  return 0;
}

/// `options` with the KEY=VALUE changes of --compare applied.
llvm::Expected<CompileOptions> withChanges(CompileOptions options,
                                           llvm::StringRef changes) {
  llvm::SmallVector<llvm::StringRef> items;
  changes.split(items, ',', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef item : items) {
    auto [key, value] = item.trim().split('=');
    key = key.trim();
    value = value.trim();
    auto error = [&](const llvm::Twine &why) {
      return llvm::createStringError("--compare: '" + item.str() + "': " + why);
    };
    if (value.empty())
      return error("expected KEY=VALUE");
    if (key == "transpose-per-tap") {
      options.transposePerTap = value.str();
      continue;
    }
    if (key == "bf16-dot") {
      options.bf16Dot = value.str();
      continue;
    }
    if (key == "dw-tap-rows") {
      options.dwTapRows = value.str();
      continue;
    }
    if (key == "winograd") {
      options.winograd = value.str();
      continue;
    }
    if (key == "tune-cpu") {
      options.tuneCpu = value.str();
      continue;
    }
    int64_t number;
    if (value.getAsInteger(10, number) || number < 0)
      return error("expected a non-negative integer value");
    if (key == "register-tile-rows")
      options.registerTileRows = unsigned(number);
    else if (key == "register-tile-vectors")
      options.registerTileVectors = unsigned(number);
    else if (key == "reduction-chunk")
      options.reductionChunk = unsigned(number);
    else if (key == "l1-cache-bytes")
      options.l1CacheBytes = number;
    else if (key == "l2-cache-bytes")
      options.l2CacheBytes = number;
    else if (key == "l3-cache-bytes")
      options.l3CacheBytes = number;
    else if (key == "streaming-stores-min-bytes")
      options.streamingStoresMinBytes = number;
    else if (key == "num-threads")
      options.numThreads = unsigned(number);
    else if (key == "compile-threads")
      options.compileThreads = unsigned(number);
    else if (key == "prefetch" || key == "direct-rows" ||
             key == "dw-tap-planes" || key == "streaming-stores") {
      if (number > 1)
        return error("expected 0 or 1");
      (key == "prefetch"        ? options.prefetch
       : key == "direct-rows"   ? options.directRows
       : key == "dw-tap-planes" ? options.dwTapPlanes
                                : options.streamingStores) = number == 1;
    } else
      return error("unknown option '" + key.str() + "'");
  }
  return options;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(
      argc, argv,
      "conv-run: run a function of a conv module through the JIT\n\n"
      "NumPy has no bfloat16: bf16 arguments read float .npy files (e.g. "
      "f32)\nand bf16 results are written as f32 .npy files.\n");

  auto file = llvm::MemoryBuffer::getFileOrSTDIN(inputFile);
  if (!file)
    return fail("cannot read '" + inputFile +
                "': " + file.getError().message());

  CompileOptions options;
  options.zeroInsertionTranspose = zeroInsertion;
  options.transposePerTap = transposePerTap;
  options.optimize = !noOptimize;
  options.registerTileRows = tileRows;
  options.registerTileVectors = tileVectors;
  options.reductionChunk = reductionChunk;
  options.bf16Dot = bf16Dot;
  options.dwTapRows = dwTapRows;
  options.l1CacheBytes = l1CacheBytes;
  options.l2CacheBytes = l2CacheBytes;
  options.l3CacheBytes = l3CacheBytes;
  options.prefetch = !noPrefetch;
  options.streamingStoresMinBytes = streamingStoresMinBytes;
  options.winograd = winograd;
  options.numThreads = numThreads;
  options.minParallelFlops = minParallelFlops;
  options.compileThreads = compileThreads;
  options.tuneCpu = tuneCpu;
  auto compiled =
      Jit::global().compileModule((*file)->getBuffer(), entry, options);
  if (!compiled)
    return fail(llvm::toString(compiled.takeError()));
  const Kernel &kernel = **compiled;

  // Arguments.
  std::vector<Tensor> args;
  for (const TensorInfo &info : kernel.inputs())
    args.emplace_back(info);
  if (!inputs.empty()) {
    if (inputs.size() != args.size())
      return fail("@" + entry + " has " + llvm::Twine(args.size()) +
                  " arguments but " + llvm::Twine(inputs.size()) +
                  " --input files were given");
    for (size_t i = 0; i < args.size(); ++i) {
      NpyArray array;
      std::string error;
      if (!readNpy(inputs[i], array, error))
        return fail(error);
      if (array.shape != args[i].info.shape) {
        TensorInfo got{array.elementType, array.shape};
        return fail("--input " + inputs[i] + " has type " + typeString(got) +
                    " but argument " + llvm::Twine(i) + " of @" + entry +
                    " is " + typeString(args[i].info));
      }
      for (size_t k = 0; k < array.numElements(); ++k)
        args[i].set(k, loadAsDouble(array.elementType, array.data.data(), k));
    }
  } else {
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> uniform(-1.0, 1.0);
    for (Tensor &t : args)
      for (size_t k = 0; k < t.info.numElements(); ++k)
        t.set(k, uniform(rng));
  }
  if (outputs.size() > kernel.outputs().size())
    return fail("@" + entry + " has " + llvm::Twine(kernel.outputs().size()) +
                " results but " + llvm::Twine(outputs.size()) +
                " --output files were given");

  // A kernel's result tensors, and its buffer list: the arguments', then
  // those results'.
  auto makeResults = [&](const Kernel &k, std::vector<Tensor> &out,
                         std::vector<void *> &bufs) {
    for (const TensorInfo &info : k.outputs())
      out.emplace_back(info);
    for (Tensor &t : args)
      bufs.push_back(t.bytes.data());
    for (Tensor &t : out)
      bufs.push_back(t.bytes.data());
  };
  std::vector<Tensor> results;
  std::vector<void *> buffers;
  makeResults(kernel, results, buffers);

  if (llvm::Error err = kernel.run(buffers))
    return fail(llvm::toString(std::move(err)));

  if (!compare.empty()) {
    if (repeat == 0)
      return fail("--compare needs --repeat N (the number of call pairs)");
    auto changed = withChanges(options, compare);
    if (!changed)
      return fail(llvm::toString(changed.takeError()));
    if (changed->str() == options.str())
      return fail("--compare=" + compare +
                  " changes none of the compile options");
    auto other =
        Jit::global().compileModule((*file)->getBuffer(), entry, *changed);
    if (!other)
      return fail(llvm::toString(other.takeError()));
    const Kernel &kernelB = **other;
    std::vector<Tensor> resultsB;
    std::vector<void *> buffersB;
    makeResults(kernelB, resultsB, buffersB);
    if (llvm::Error err = kernelB.run(buffersB))
      return fail(llvm::toString(std::move(err)));
    // Calls in alternation, A B B A A B ..., each timed on its own: the
    // order within a pair alternates too.
    std::vector<double> timesA, timesB, ratios;
    auto timeCall = [](const Kernel &k, llvm::ArrayRef<void *> b,
                       double &seconds) -> llvm::Error {
      auto start = std::chrono::steady_clock::now();
      if (llvm::Error err = k.run(b))
        return err;
      seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                              start)
                    .count();
      return llvm::Error::success();
    };
    for (unsigned r = 0; r < repeat; ++r) {
      double a = 0, b = 0;
      bool aFirst = r % 2 == 0;
      for (int side = 0; side < 2; ++side) {
        bool runA = (side == 0) == aFirst;
        if (llvm::Error err = runA ? timeCall(kernel, buffers, a)
                                   : timeCall(kernelB, buffersB, b))
          return fail(llvm::toString(std::move(err)));
      }
      timesA.push_back(a);
      timesB.push_back(b);
      ratios.push_back(a / b);
    }
    double flops = kernel.singleConvOp() ? kernel.singleConvOp()->flops() : 0;
    auto report = [&](const char *name, const Kernel &k,
                      const std::vector<double> &times) {
      double med = median(times);
      double best = *std::min_element(times.begin(), times.end());
      double mean = 0;
      for (double t : times)
        mean += t / times.size();
      llvm::outs() << llvm::format(
          "%s: compile %.3f ms, median %.6f ms, mean %.6f ms, best %.6f ms "
          "per call",
          name, k.compileSeconds() * 1e3, med * 1e3, mean * 1e3, best * 1e3);
      if (flops > 0)
        llvm::outs() << llvm::format(" (%.3f / %.3f GFLOP/s)",
                                     flops / med * 1e-9, flops / best * 1e-9);
      llvm::outs() << "\n";
    };
    report("A", kernel, timesA);
    report(("B (" + compare + ")").c_str(), kernelB, timesB);
    std::vector<double> sorted = ratios;
    std::sort(sorted.begin(), sorted.end());
    llvm::outs() << llvm::format(
        "B speed / A speed: median %.3f of %u pairs (quartiles %.3f, %.3f)\n",
        median(ratios), unsigned(repeat), sorted[sorted.size() / 4],
        sorted[(3 * sorted.size()) / 4]);
    // Both compute the same function: a difference beyond rounding is a bug.
    double maxDiff = 0, maxA = 0;
    for (size_t i = 0; i < results.size(); ++i)
      for (size_t k = 0; k < results[i].info.numElements(); ++k) {
        double d = std::fabs(results[i].get(k) - resultsB[i].get(k));
        maxDiff = std::max(maxDiff, std::isnan(d) ? INFINITY : d);
        maxA = std::max(maxA, std::fabs(results[i].get(k)));
      }
    llvm::outs() << llvm::format(
        "B - A: max abs difference %.3e (max |A| %.3e)\n", maxDiff, maxA);
  } else if (repeat > 0) {
    auto start = std::chrono::steady_clock::now();
    for (unsigned r = 0; r < repeat; ++r)
      if (llvm::Error err = kernel.run(buffers))
        return fail(llvm::toString(std::move(err)));
    double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
            .count() /
        repeat;
    llvm::outs() << llvm::format("compile: %.3f ms\n",
                                 kernel.compileSeconds() * 1e3);
    llvm::outs() << llvm::format("time: %.6f ms per call (%u calls)\n",
                                 seconds * 1e3, unsigned(repeat));
    if (const SingleConvOp *op = kernel.singleConvOp())
      llvm::outs() << llvm::format("GFLOP/s: %.3f (%.0f FLOP per call)\n",
                                   op->flops() / seconds * 1e-9, op->flops());
  }

  if (print)
    for (size_t i = 0; i < results.size(); ++i)
      printTensor(i, results[i]);

  for (size_t i = 0; i < outputs.size(); ++i) {
    const Tensor &t = results[i];
    std::string error;
    bool ok;
    if (t.info.elementType == ElementType::BF16) {
      std::vector<float> f32(t.info.numElements());
      for (size_t k = 0; k < f32.size(); ++k)
        f32[k] = static_cast<float>(t.get(k));
      ok = writeNpy(outputs[i], ElementType::F32, t.info.shape, f32.data(),
                    error);
    } else {
      ok = writeNpy(outputs[i], t.info.elementType, t.info.shape,
                    t.bytes.data(), error);
    }
    if (!ok)
      return fail(error);
  }

  if (check) {
    const SingleConvOp *op = kernel.singleConvOp();
    if (!op)
      return fail("--check needs @" + entry +
                  " to be a single conv op returning conv(arg0, arg1)");
    std::vector<double> lhs = args[0].toDouble(), rhs = args[1].toDouble();
    std::vector<double> ref(results[0].info.numElements());
    op->runReferenceF64(lhs.data(), rhs.data(), ref.data());
    double maxErr = 0, maxRef = 0;
    for (size_t k = 0; k < ref.size(); ++k) {
      double e = std::fabs(results[0].get(k) - ref[k]);
      if (std::isnan(e))
        e = INFINITY;
      maxErr = std::max(maxErr, e);
      maxRef = std::max(maxRef, std::fabs(ref[k]));
    }
    double tol =
        (rtol >= 0 ? double(rtol) : defaultTolerance(op->elementType)) * maxRef;
    bool pass = maxErr <= tol;
    llvm::outs() << llvm::format(
        "check: max abs error %.3e, max |reference| %.3e, tolerance %.3e "
        "(%s): %s\n",
        maxErr, maxRef, tol, stringify(op->elementType),
        pass ? "PASS" : "FAIL");
    if (!pass)
      return 1;
  }
  return 0;
}
