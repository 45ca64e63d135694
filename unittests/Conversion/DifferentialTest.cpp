//===- DifferentialTest.cpp - JIT vs reference on random configurations ---===//
//
// Randomized, seeded differential test of the whole CPU path: for hundreds of
// random valid configurations per op (N = 1..3, both layouts, every padding,
// strides x dilations, groups, output_padding None / 0 / k, all four element
// types) the JIT-compiled kernel must match the f64 reference, through the
// optimized (tiled, vectorized) pipeline and the plain-loop one; conv.transpose
// is also compiled through the zero-insertion lowering as a second oracle.
// A failure prints the configuration. CONVGEN_DIFF_SEED / CONVGEN_DIFF_COUNT
// override the seed and the count.
//
//===----------------------------------------------------------------------===//

#include "conv/Conversion/ConvToLinalg/ConvToLinalg.h"
#include "conv/Reference/Reference.h"
#include "conv/Runtime/Jit.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/MLIRContext.h"

#include "gtest/gtest.h"

#include <array>
#include <atomic>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <initializer_list>
#include <mutex>
#include <random>
#include <sstream>
#include <thread>

using namespace convgen;

namespace {

unsigned envOr(const char *name, unsigned fallback) {
  const char *v = std::getenv(name);
  return v ? static_cast<unsigned>(std::strtoul(v, nullptr, 10)) : fallback;
}

std::string str(const Shape &s) {
  std::ostringstream os;
  os << "[";
  for (size_t i = 0; i < s.size(); ++i)
    os << (i ? "," : "") << s[i];
  return os.str() + "]";
}

size_t numElements(const Shape &s) {
  size_t n = 1;
  for (int64_t d : s)
    n *= static_cast<size_t>(d);
  return n;
}

/// Random values in [-1, 1), already representable in `t`.
std::vector<uint8_t> randomBuffer(ElementType t, size_t n, std::mt19937 &rng) {
  std::uniform_real_distribution<double> dist(-1.0, 1.0);
  std::vector<uint8_t> buf(n * byteWidth(t));
  for (size_t i = 0; i < n; ++i)
    storeFromDouble(t, buf.data(), i, dist(rng));
  return buf;
}

/// Relative tolerance of one element type (f16/bf16: a couple of ulps of the
/// single final rounding; f32: accumulation order).
double tolerance(ElementType t) {
  switch (t) {
  case ElementType::F64:
    return 1e-11;
  case ElementType::F32:
    return 1e-4;
  case ElementType::F16:
    return 2e-3;
  case ElementType::BF16:
    return 1.6e-2;
  }
  return 0;
}

/// Compares two buffers of type `t`; returns a message on mismatch.
std::string compare(ElementType t, const void *got, const void *want,
                    size_t n) {
  double maxAbs = 1.0;
  for (size_t i = 0; i < n; ++i)
    maxAbs = std::max(maxAbs, std::fabs(loadAsDouble(t, want, i)));
  double tol = tolerance(t);
  for (size_t i = 0; i < n; ++i) {
    double a = loadAsDouble(t, got, i), b = loadAsDouble(t, want, i);
    if (!(std::fabs(a - b) <= tol * (std::fabs(b) + maxAbs))) {
      std::ostringstream os;
      os << "element " << i << ": got " << a << ", want " << b
         << " (tolerance " << tol << " x (|want| + " << maxAbs << "))";
      return os.str();
    }
  }
  return "";
}

std::string describe(const BackpropFilterSpec &s);
std::string describe(const TransposeSpec &s);

/// Reports `failures`, then checks that every case's first two results of
/// each group of three (the 1- and 2-thread variants) are bit-identical.
template <typename Case>
void expectOneAndTwoThreadsAgree(const std::vector<std::string> &failures,
                                 const std::vector<std::vector<uint8_t>> &results,
                                 const std::vector<Case> &cases) {
  for (const std::string &f : failures)
    ADD_FAILURE() << f;
  for (size_t i = 0; i < cases.size(); ++i)
    EXPECT_EQ(results[3 * i], results[3 * i + 1])
        << "config #" << i << " differs between 1 and 2 threads: "
        << describe(cases[i].spec);
}

/// Runs check(i) for i < count on all hardware threads (the JIT is
/// thread-safe); returns the failure messages (at most 10).
std::vector<std::string>
runParallel(unsigned count, const std::function<std::string(unsigned)> &check) {
  std::vector<std::string> failures;
  std::mutex mutex;
  std::atomic<unsigned> next{0};
  auto worker = [&] {
    for (unsigned i = next++; i < count; i = next++) {
      std::string msg = check(i);
      if (msg.empty())
        continue;
      std::lock_guard<std::mutex> lock(mutex);
      if (failures.size() < 10)
        failures.push_back(std::move(msg));
    }
  };
  std::vector<std::thread> threads;
  unsigned n = std::max(1u, std::thread::hardware_concurrency());
  for (unsigned t = 0; t < n; ++t)
    threads.emplace_back(worker);
  for (auto &t : threads)
    t.join();
  return failures;
}

ElementType randomType(std::mt19937 &rng) {
  static const ElementType types[] = {ElementType::F32, ElementType::F32,
                                      ElementType::F64, ElementType::F16,
                                      ElementType::BF16};
  return types[rng() % 5];
}

int64_t uniform(std::mt19937 &rng, int64_t lo, int64_t hi) {
  return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
}

//===----------------------------------------------------------------------===//
// conv.backprop_filter
//===----------------------------------------------------------------------===//

std::string describe(const BackpropFilterSpec &s) {
  std::ostringstream os;
  os << "backprop_filter dtype=" << stringify(s.elementType)
     << " format=" << tfDataFormatName(s.attrs.layout, s.inputShape.size() - 2)
     << " input=" << str(s.inputShape) << " filter=" << str(s.filterShape)
     << " out_backprop=" << str(s.outBackpropShape)
     << " strides=" << str(s.attrs.strides)
     << " dilations=" << str(s.attrs.dilations)
     << " padding=" << stringify(s.attrs.padding);
  if (!s.attrs.explicitPaddings.empty())
    os << " explicit=" << str(s.attrs.explicitPaddings);
  return os.str();
}

/// Sets the input shape of `s` (batch, `cin` channels, spatial sizes
/// `spatialIn`, in its layout) and the out_backprop shape its attributes and
/// filter give; false when there is none (e.g. a negative output size).
bool setActivationShapes(BackpropFilterSpec &s, int64_t batch, int64_t cin,
                         const Shape &spatialIn) {
  s.inputShape = activationShape(s.attrs.layout, batch, spatialIn, cin);
  auto dy = inferOutBackpropShape(s.attrs, s.inputShape, s.filterShape);
  if (!dy)
    return false;
  s.outBackpropShape = *dy;
  return true;
}

/// Appends a spatial dimension to `s` and `spatialIn`: kernel size `k`,
/// `stride`, `dil`ation, an input size from the effective kernel size to
/// `slack` more and, with explicit padding, pads of 0-2 on either side
/// (drawn from `rng` in that order).
void addSpatialDim(BackpropFilterSpec &s, Shape &spatialIn, std::mt19937 &rng,
                   int64_t k, int64_t stride, int64_t dil, int64_t slack) {
  int64_t keff = effectiveKernelSize(k, dil);
  spatialIn.push_back(uniform(rng, keff, keff + slack));
  s.filterShape.push_back(k);
  s.attrs.strides.push_back(stride);
  s.attrs.dilations.push_back(dil);
  if (s.attrs.padding == FilterPadding::Explicit) {
    s.attrs.explicitPaddings.push_back(uniform(rng, 0, 2));
    s.attrs.explicitPaddings.push_back(uniform(rng, 0, 2));
  }
}

BackpropFilterSpec randomBackpropFilter(std::mt19937 &rng) {
  while (true) {
    BackpropFilterSpec s;
    int64_t n = uniform(rng, 1, 3);
    s.elementType = randomType(rng);
    s.attrs.layout = rng() % 2 ? DataLayout::ChannelsLast
                               : DataLayout::ChannelsFirst;
    s.attrs.padding = static_cast<FilterPadding>(rng() % 3);
    int64_t groups = rng() % 3 == 0 ? uniform(rng, 2, 3) : 1;
    int64_t cf = uniform(rng, 1, 3), cout = groups * uniform(rng, 1, 3);
    int64_t batch = uniform(rng, 1, 2);
    if (rng() % 40 == 0)
      batch = 0; // empty input: zeros
    Shape spatialIn;
    for (int64_t d = 0; d < n; ++d) {
      int64_t k = uniform(rng, 1, n == 3 ? 2 : 3);
      int64_t dil = rng() % 3 == 0 ? uniform(rng, 2, 3) : 1;
      int64_t st = rng() % 2 ? uniform(rng, 2, 3) : 1;
      int64_t keff = effectiveKernelSize(k, dil);
      int64_t in = uniform(rng, std::max<int64_t>(1, keff - 2),
                           keff + (n == 3 ? 3 : 7));
      s.filterShape.push_back(k);
      s.attrs.strides.push_back(st);
      s.attrs.dilations.push_back(dil);
      spatialIn.push_back(in);
      if (s.attrs.padding == FilterPadding::Explicit) {
        s.attrs.explicitPaddings.push_back(uniform(rng, 0, 3));
        s.attrs.explicitPaddings.push_back(uniform(rng, 0, 3));
      }
    }
    s.filterShape.push_back(cf);
    s.filterShape.push_back(cout);
    if (!setActivationShapes(s, batch, groups * cf, spatialIn))
      continue; // e.g. a negative output size: draw again
    return s;
  }
}

/// A filter-gradient configuration with its (seeded) data.
struct BackpropFilterCase {
  BackpropFilterSpec spec;
  std::vector<uint8_t> x, dy;
};

BackpropFilterCase makeCase(BackpropFilterSpec spec, std::mt19937 &rng) {
  BackpropFilterCase c{std::move(spec), {}, {}};
  c.x = randomBuffer(c.spec.elementType, numElements(c.spec.inputShape), rng);
  c.dy = randomBuffer(c.spec.elementType,
                      numElements(c.spec.outBackpropShape), rng);
  return c;
}

/// Compiles case `i` with `options`, runs it and compares with the
/// reference; an empty string when it matches. The kernel's result goes
/// to `result` when given (for bit-identity checks across options).
std::string checkBackpropFilter(Jit &jit, unsigned i,
                                const BackpropFilterCase &c,
                                const CompileOptions &options,
                                const std::string &label,
                                std::vector<uint8_t> *result = nullptr) {
  const BackpropFilterSpec &s = c.spec;
  std::string where =
      "config #" + std::to_string(i) + " (" + label + "): " + describe(s);
  auto g = computeBackpropFilterGeometry(s.attrs, s.inputShape, s.filterShape,
                                         s.outBackpropShape);
  if (!g)
    return where + ": invalid geometry: " + g.error();
  auto kernel = jit.compile(s, options);
  if (!kernel)
    return where + ": compile failed: " + llvm::toString(kernel.takeError());
  size_t outN = numElements(s.filterShape);
  std::vector<uint8_t> got(outN * byteWidth(s.elementType), 0xff),
      want(got.size());
  std::vector<void *> buffers{const_cast<uint8_t *>(c.x.data()),
                              const_cast<uint8_t *>(c.dy.data()), got.data()};
  if (auto err = (*kernel)->run(buffers))
    return where + ": run failed: " + llvm::toString(std::move(err));
  referenceBackpropFilter(*g, s.elementType, c.x.data(), c.dy.data(),
                          want.data());
  std::string mismatch = compare(s.elementType, got.data(), want.data(), outN);
  if (result)
    *result = std::move(got);
  return mismatch.empty() ? "" : where + ": " + mismatch;
}

/// checkBackpropFilter with `base` on each of `threadCounts` threads (the
/// first 1; small shapes threaded too), and the results bit-identical to
/// the first's; an empty string when all hold.
std::string checkBackpropFilterAcrossThreads(
    Jit &jit, unsigned i, const BackpropFilterCase &c,
    const CompileOptions &base, std::initializer_list<unsigned> threadCounts,
    const std::string &labelPrefix) {
  std::vector<uint8_t> first;
  for (unsigned threads : threadCounts) {
    CompileOptions options = base;
    options.numThreads = threads;
    options.minParallelFlops = 0; // small shapes: still threaded
    std::vector<uint8_t> got;
    std::string label =
        labelPrefix + ", " + std::to_string(threads) + " thread(s)";
    std::string failure = checkBackpropFilter(jit, i, c, options, label, &got);
    if (!failure.empty())
      return failure;
    if (first.empty())
      first = std::move(got);
    else if (got != first)
      return "config #" + std::to_string(i) + " (" + label +
             "): not bit-identical to " + std::to_string(*threadCounts.begin()) +
             " thread(s): " + describe(c.spec);
  }
  return "";
}

/// checkBackpropFilterAcrossThreads on every case (in parallel); each
/// failure is a test failure.
void expectBackpropFilterAcrossThreads(
    const std::vector<BackpropFilterCase> &cases, const CompileOptions &base,
    std::initializer_list<unsigned> threadCounts, const std::string &label) {
  Jit jit;
  auto failures = runParallel(cases.size(), [&](unsigned i) -> std::string {
    return checkBackpropFilterAcrossThreads(jit, i, cases[i], base,
                                            threadCounts, label);
  });
  for (const std::string &f : failures)
    ADD_FAILURE() << f;
}

TEST(Differential, BackpropFilter) {
  std::mt19937 rng(envOr("CONVGEN_DIFF_SEED", 20261129));
  unsigned count = envOr("CONVGEN_DIFF_COUNT", 500);
  // Draw every configuration and its data up front (seeded, reproducible),
  // then compile and check them in parallel.
  std::vector<BackpropFilterCase> cases;
  for (unsigned i = 0; i < count; ++i)
    cases.push_back(makeCase(randomBackpropFilter(rng), rng));
  Jit jit;
  CompileOptions plain;
  plain.optimize = false;
  // Every case runs through the optimized (tiled, vectorized) pipeline and
  // the plain-loop one.
  auto failures = runParallel(2 * count, [&](unsigned job) -> std::string {
    bool optimized = job % 2 == 0;
    return checkBackpropFilter(jit, job / 2, cases[job / 2],
                               optimized ? CompileOptions{} : plain,
                               optimized ? "optimized" : "plain loops");
  });
  for (const std::string &f : failures)
    ADD_FAILURE() << f;
}

/// Fixed filter-gradient shapes that the optimized pipeline splits (split-K,
/// docs/Lowering.md §2.3): at least 8192 output positions; the batch
/// halved, or for an odd batch the first spatial dimension's output rows.
struct SplitKShape {
  DataLayout layout;
  int64_t batch, size, cin, cout, stride, k;
  ElementType type;
  int64_t groups = 1; // cin counts the input channels of all groups
};
const SplitKShape kSplitKShapes[] = {
    {DataLayout::ChannelsLast, 4, 48, 8, 16, 1, 1, ElementType::F32},
    {DataLayout::ChannelsLast, 2, 130, 3, 24, 2, 1, ElementType::F32},
    {DataLayout::ChannelsLast, 6, 40, 16, 8, 1, 1, ElementType::BF16},
    {DataLayout::ChannelsFirst, 4, 48, 8, 16, 1, 1, ElementType::F32},
    {DataLayout::ChannelsLast, 8, 33, 5, 7, 1, 1, ElementType::F64},
    // Wide rows (264 channels): L2-sized reduction blocks in each part.
    {DataLayout::ChannelsLast, 4, 46, 64, 200, 1, 1, ElementType::F32},
    // Tiny Cin, every tap fused: 9 and 27 rows.
    {DataLayout::ChannelsLast, 4, 50, 1, 16, 1, 3, ElementType::F32},
    {DataLayout::ChannelsFirst, 2, 71, 3, 10, 1, 3, ElementType::BF16},
    // Stride 2: the register tiles read their rows from the input
    // (direct-rows), runs of 9 values (3 channels) whole, runs of 3 (one
    // channel) three to a 9-row tile.
    {DataLayout::ChannelsLast, 8, 65, 3, 64, 2, 3, ElementType::F32},
    {DataLayout::ChannelsLast, 8, 65, 1, 16, 2, 3, ElementType::F32},
    {DataLayout::ChannelsLast, 8, 65, 3, 64, 2, 3, ElementType::BF16},
    // Multi-tap (dw-split-taps-max-bytes: a dW within the L2): 3x3 and
    // 5x5 kernels, the parts the first dimension of the taps' scf.forall,
    // and a 7x7 stride-2 stem-like filter (7 leading taps left by the
    // fusion).
    {DataLayout::ChannelsLast, 4, 48, 8, 16, 1, 3, ElementType::F32},
    {DataLayout::ChannelsFirst, 4, 50, 16, 32, 1, 5, ElementType::F32},
    {DataLayout::ChannelsLast, 4, 50, 16, 32, 1, 3, ElementType::BF16},
    {DataLayout::ChannelsLast, 4, 100, 3, 32, 2, 7, ElementType::F32},
    // The stem with 64 output channels: 21 fused rows as 3-row x 4-vector
    // register tiles.
    {DataLayout::ChannelsLast, 4, 100, 3, 64, 2, 7, ElementType::F32},
    // Grouped multi-tap: 2 groups of 8 -> 8 channels, and 16 groups of
    // 4 -> 4 (ResNeXt's grouped register tiles).
    {DataLayout::ChannelsLast, 4, 48, 16, 16, 1, 3, ElementType::F32, 2},
    {DataLayout::ChannelsFirst, 4, 48, 64, 64, 1, 3, ElementType::F32, 16},
    // Odd batches: row parts (the output rows of the first spatial
    // dimension halved; an odd last row summed onto the parts' sum). 3x3
    // with 93 rows (46 + 46 + 1), channels first with 58, stride 2 with
    // leading fused taps, every tap fused (99 rows), 1x1 with 97 rows in
    // f32 and 100 in bf16, grouped.
    {DataLayout::ChannelsLast, 1, 95, 8, 16, 1, 3, ElementType::F32},
    {DataLayout::ChannelsFirst, 3, 60, 4, 8, 1, 3, ElementType::F32},
    {DataLayout::ChannelsLast, 1, 185, 3, 16, 2, 3, ElementType::F32},
    {DataLayout::ChannelsLast, 1, 101, 1, 16, 1, 3, ElementType::F32},
    {DataLayout::ChannelsLast, 1, 97, 8, 16, 1, 1, ElementType::F32},
    {DataLayout::ChannelsLast, 1, 100, 16, 8, 1, 1, ElementType::BF16},
    {DataLayout::ChannelsLast, 3, 60, 16, 16, 1, 3, ElementType::F32, 2},
};

BackpropFilterSpec splitKSpec(const SplitKShape &sh) {
  BackpropFilterSpec s;
  s.elementType = sh.type;
  s.attrs.layout = sh.layout;
  s.attrs.padding = FilterPadding::Valid;
  s.attrs.strides = {sh.stride, sh.stride};
  s.attrs.dilations = {1, 1};
  s.filterShape = {sh.k, sh.k, sh.cin / sh.groups, sh.cout};
  s.inputShape = sh.layout == DataLayout::ChannelsLast
                     ? Shape{sh.batch, sh.size, sh.size, sh.cin}
                     : Shape{sh.batch, sh.cin, sh.size, sh.size};
  auto dy = inferOutBackpropShape(s.attrs, s.inputShape, s.filterShape);
  if (dy)
    s.outBackpropShape = *dy;
  return s;
}

/// Checks filter-gradient case `i` against the reference with 1, 2 and 3
/// threads (small shapes threaded too).
void expectWithThreads123(Jit &jit, unsigned i, const BackpropFilterCase &c,
                          const std::string &label) {
  for (unsigned threads : {1u, 2u, 3u}) {
    CompileOptions options;
    options.numThreads = threads;
    options.minParallelFlops = 0; // small shapes: still threaded
    EXPECT_EQ(
        checkBackpropFilter(jit, i, c, options,
                            label + ", threads=" + std::to_string(threads)),
        "");
  }
}

/// Split-K (docs/Lowering.md §2.3): single-contraction filter gradients
/// (one tap, or tiny-Cin taps all fused into the rows) with a long
/// reduction and a small dW, and multi-tap ones (grouped too) whose two dWs
/// fit the L2, sum each half of the batch separately. The fixed shapes of
/// kSplitKShapes, in several layouts, strides, kernel sizes and types, each
/// compared with the reference with 1, 2 and 3 threads: a multi-tap
/// filter's parts lead with 1 and 2 threads, and are the first dimension of
/// the taps' forall with 3 (bit-identity across thread counts, and so
/// across the two placements, is checked by
/// BackpropFilterDeterministicAcrossThreadCounts below).
TEST(Differential, BackpropFilterSplitK) {
  std::mt19937 rng(envOr("CONVGEN_DIFF_SEED", 20261129) + 4);
  Jit jit;
  unsigned i = 0;
  for (const SplitKShape &sh : kSplitKShapes) {
    BackpropFilterSpec s = splitKSpec(sh);
    ASSERT_FALSE(s.outBackpropShape.empty());
    expectWithThreads123(jit, i, makeCase(s, rng), "split-K");
    ++i;
  }
}

/// Zero-padded tiny-Cin filter gradients whose padded input conv-cpu-
/// decompose-pads copies one image at a time, inside the batch loop that
/// reads it (docs/Codegen.md, padded inputs): the suite's streaming layers
/// scaled down (one input channel with row blocks, 3 channels with stride
/// 2 read as direct rows, 3 channels with 3 row tiles, the 7x7 stride-2
/// stem with 7 leading taps), explicit and `SAME` padding, each compared
/// with the reference with 1, 2 and 3 threads.
TEST(Differential, BackpropFilterPaddedPerBlock) {
  struct PaddedShape {
    int64_t batch, h, w, cin, cout, stride, k;
    Shape pads; // before, after per spatial dimension; empty: SAME
  };
  // All but the fifth (which keeps its whole padded copy) pad per image
  // with 1, 2 and 3 threads.
  const PaddedShape shapes[] = {
      {6, 20, 130, 1, 16, 1, 3, {1, 1, 1, 1}},
      {4, 60, 60, 3, 64, 2, 3, {1, 1, 1, 1}},
      {4, 36, 36, 3, 64, 1, 3, {1, 1, 1, 1}},
      {4, 80, 80, 3, 64, 2, 7, {3, 3, 3, 3}},
      {4, 66, 70, 3, 32, 2, 3, {}},
      {4, 24, 150, 1, 16, 1, 5, {}},
  };
  std::mt19937 rng(envOr("CONVGEN_DIFF_SEED", 20261129) + 21);
  Jit jit;
  unsigned i = 0;
  for (const PaddedShape &sh : shapes) {
    BackpropFilterSpec s;
    s.elementType = ElementType::F32;
    s.attrs.layout = DataLayout::ChannelsLast;
    s.attrs.strides = {sh.stride, sh.stride};
    s.attrs.dilations = {1, 1};
    s.attrs.padding =
        sh.pads.empty() ? FilterPadding::Same : FilterPadding::Explicit;
    s.attrs.explicitPaddings = sh.pads;
    s.filterShape = {sh.k, sh.k, sh.cin, sh.cout};
    s.inputShape = {sh.batch, sh.h, sh.w, sh.cin};
    auto dy = inferOutBackpropShape(s.attrs, s.inputShape, s.filterShape);
    ASSERT_TRUE(dy.ok()) << dy.error();
    s.outBackpropShape = *dy;
    expectWithThreads123(jit, i, makeCase(s, rng), "padded per block");
    ++i;
  }
}

/// The reduction blocks of the optimized lowering (docs/Lowering.md §2.2):
/// a last-level cache sized so that the input window and out_backprop split
/// into blocks of 1/8 to 6/8 of their bytes — blocks of batch items (up to
/// 7), of rows of one item, whole blocks with and without a remainder.
TEST(Differential, BackpropFilterReductionBlocks) {
  std::mt19937 rng(envOr("CONVGEN_DIFF_SEED", 20261129) + 3);
  unsigned count = envOr("CONVGEN_DIFF_COUNT", 500) / 4;
  std::vector<BackpropFilterCase> cases;
  std::vector<CompileOptions> options;
  for (unsigned i = 0; i < count; ++i) {
    BackpropFilterSpec s = randomBackpropFilter(rng);
    if (s.inputShape[0] != 0)
      s.inputShape[0] = s.outBackpropShape[0] = uniform(rng, 1, 7);
    int64_t bytes =
        int64_t(numElements(s.inputShape) + numElements(s.outBackpropShape)) *
        int64_t(byteWidth(s.elementType));
    CompileOptions o;
    // The pipeline's block budget is a quarter of the cache.
    o.l3CacheBytes = 4 * std::max<int64_t>(1, bytes * uniform(rng, 1, 6) / 8);
    options.push_back(o);
    cases.push_back(makeCase(std::move(s), rng));
  }
  Jit jit;
  auto failures = runParallel(count, [&](unsigned i) -> std::string {
    return checkBackpropFilter(
        jit, i, cases[i], options[i],
        "l3-cache-bytes=" + std::to_string(options[i].l3CacheBytes));
  });
  for (const std::string &f : failures)
    ADD_FAILURE() << f;
}

/// The layout, padding and `n` spatial dimensions of a random f32 filter
/// gradient (its channels and activations are the caller's): kernel sizes
/// 2..kMax, strides and dilations of 1-2, input sizes inLo..inHi (appended
/// to `spatialIn`), explicit padding of 0..padMax or `SAME`.
BackpropFilterSpec randomSpatialLayer(std::mt19937 &rng, int64_t n,
                                      int64_t kMax, int64_t inLo, int64_t inHi,
                                      int64_t padMax, Shape &spatialIn) {
  BackpropFilterSpec s;
  s.elementType = ElementType::F32;
  s.attrs.layout =
      rng() % 4 == 0 ? DataLayout::ChannelsFirst : DataLayout::ChannelsLast;
  s.attrs.padding =
      rng() % 3 == 0 ? FilterPadding::Same : FilterPadding::Explicit;
  for (int64_t d = 0; d < n; ++d) {
    s.filterShape.push_back(uniform(rng, 2, kMax));
    s.attrs.strides.push_back(rng() % 3 == 0 ? 2 : 1);
    s.attrs.dilations.push_back(rng() % 4 == 0 ? 2 : 1);
    spatialIn.push_back(uniform(rng, inLo, inHi));
    if (s.attrs.padding == FilterPadding::Explicit) {
      s.attrs.explicitPaddings.push_back(uniform(rng, 0, padMax));
      s.attrs.explicitPaddings.push_back(uniform(rng, 0, padMax));
    }
  }
  return s;
}

/// Reduction blocks of rows of one batch item with padded taps
/// (docs/Lowering.md §2.2, §2.5): in each block of output rows, every
/// tap's rows that read only padding along the first spatial dimension are
/// cut, to a dynamic 0 rows where the tap has none in a block of the block
/// loop (unless a remainder block would get a static empty range: then the
/// blocks stay whole); 3-D layers whose depth row exceeds the budget get
/// blocks of rows of the second dimension inside each depth row, both cut.
/// Random 2-D and 3-D layers with the channel counts of one
/// contraction per tap (8-40 input, 16-80 output channels: with 64 or
/// more, 12-40 rows that a count of 3 to 6 divides run as tiles of that
/// many rows x 4 vectors), explicit
/// padding of 0-3 or `SAME`, strides and dilations of 1-2, a last-level
/// cache sized for blocks of 1/8 to 5/8 of one item; with 1 and 2 threads
/// (bit-identical).
TEST(Differential, BackpropFilterRowBlockPadding) {
  std::mt19937 rng(envOr("CONVGEN_DIFF_SEED", 20261129) + 12);
  unsigned count = std::max(16u, envOr("CONVGEN_DIFF_COUNT", 500) / 16);
  std::vector<BackpropFilterCase> cases;
  std::vector<CompileOptions> options;
  while (cases.size() < count) {
    int64_t n = rng() % 4 == 0 ? 3 : 2;
    Shape spatialIn;
    BackpropFilterSpec s =
        randomSpatialLayer(rng, n, n == 3 ? 3 : 5, n == 3 ? 6 : 10,
                           n == 3 ? 10 : 24, /*padMax=*/3, spatialIn);
    int64_t cin = uniform(rng, 8, 40), cout = 16 * uniform(rng, 1, 5);
    s.filterShape.push_back(cin);
    s.filterShape.push_back(cout);
    if (!setActivationShapes(s, uniform(rng, 1, 2), cin, spatialIn))
      continue;
    int64_t itemBytes =
        int64_t(numElements(s.inputShape) + numElements(s.outBackpropShape)) *
        4 / s.inputShape[0];
    CompileOptions o;
    // The pipeline's block budget is a quarter of the cache.
    o.l3CacheBytes =
        4 * std::max<int64_t>(1, itemBytes * uniform(rng, 1, 5) / 8);
    options.push_back(o);
    cases.push_back(makeCase(std::move(s), rng));
  }
  Jit jit;
  auto failures = runParallel(count, [&](unsigned i) -> std::string {
    CompileOptions one = options[i], two = options[i];
    one.numThreads = 1;
    two.numThreads = 2;
    two.minParallelFlops = 0; // small shapes: still threaded
    std::string label = "l3-cache-bytes=" + std::to_string(one.l3CacheBytes);
    std::vector<uint8_t> a, b;
    std::string f =
        checkBackpropFilter(jit, i, cases[i], one, label + ", 1 thread", &a);
    if (f.empty())
      f = checkBackpropFilter(jit, i, cases[i], two, label + ", 2 threads", &b);
    if (f.empty() && a != b)
      f = "config #" + std::to_string(i) + " (" + label +
          "): 1 and 2 threads differ: " + describe(cases[i].spec);
    return f;
  });
  for (const std::string &f : failures)
    ADD_FAILURE() << f;
}

/// Thread channel parts (docs/Lowering.md §2.4): on several threads, a
/// multi-tap filter gradient whose dW exceeds the L2 runs an scf.forall over
/// parts of its input (or output) channels, each thread running all the
/// reduction blocks and taps of its part. Random 2-D and 3-D layers with
/// 32-96 input and 32-128 output channels, explicit padding of 0-2 or
/// `SAME`, strides and dilations of 1-2, an L2 of a quarter to a half of
/// the dW (and now and then a last-level cache that makes reduction
/// blocks); with 1, 2 and 3 threads, bit-identical.
TEST(Differential, BackpropFilterThreadChannelParts) {
  std::mt19937 rng(envOr("CONVGEN_DIFF_SEED", 20261129) + 13);
  unsigned count = std::max(12u, envOr("CONVGEN_DIFF_COUNT", 500) / 24);
  std::vector<BackpropFilterCase> cases;
  std::vector<CompileOptions> options;
  while (cases.size() < count) {
    int64_t n = rng() % 4 == 0 ? 3 : 2;
    Shape spatialIn;
    BackpropFilterSpec s = randomSpatialLayer(
        rng, n, /*kMax=*/3, n == 3 ? 5 : 8, n == 3 ? 8 : 16, /*padMax=*/2,
        spatialIn);
    int64_t cin = 16 * uniform(rng, 2, 6), cout = 32 * uniform(rng, 1, 4);
    s.filterShape.push_back(cin);
    s.filterShape.push_back(cout);
    if (!setActivationShapes(s, uniform(rng, 1, 3), cin, spatialIn))
      continue;
    int64_t dwBytes = int64_t(numElements(s.filterShape)) * 4;
    CompileOptions o;
    o.l2CacheBytes = dwBytes / uniform(rng, 2, 4);
    if (rng() % 2 == 0)
      o.l3CacheBytes = 4 * std::max<int64_t>(
                               1, int64_t(numElements(s.inputShape) +
                                          numElements(s.outBackpropShape)) *
                                      4 / 3);
    options.push_back(o);
    cases.push_back(makeCase(std::move(s), rng));
  }
  Jit jit;
  auto failures = runParallel(count, [&](unsigned i) -> std::string {
    std::string label = "l2-cache-bytes=" +
                        std::to_string(options[i].l2CacheBytes) +
                        " l3-cache-bytes=" +
                        std::to_string(options[i].l3CacheBytes);
    std::vector<uint8_t> first;
    for (unsigned threads : {1u, 2u, 3u}) {
      CompileOptions o = options[i];
      o.numThreads = threads;
      o.minParallelFlops = 0; // small shapes: still threaded
      std::vector<uint8_t> bytes;
      std::string f = checkBackpropFilter(
          jit, i, cases[i], o,
          label + ", " + std::to_string(threads) + " thread(s)", &bytes);
      if (!f.empty())
        return f;
      if (threads == 1)
        first = std::move(bytes);
      else if (bytes != first)
        return "config #" + std::to_string(i) + " (" + label + "): 1 and " +
               std::to_string(threads) +
               " threads differ: " + describe(cases[i].spec);
    }
    return std::string();
  });
  for (const std::string &f : failures)
    ADD_FAILURE() << f;
}

//===----------------------------------------------------------------------===//
// conv.transpose
//===----------------------------------------------------------------------===//

std::string describe(const TransposeSpec &s) {
  std::ostringstream os;
  os << "transpose dtype=" << stringify(s.elementType) << " data_format="
     << (s.attrs.layout == DataLayout::ChannelsLast ? "channels_last"
                                                   : "channels_first")
     << " inputs=" << str(s.inputShape) << " kernel=" << str(s.kernelShape)
     << " strides=" << str(s.attrs.strides)
     << " dilation_rate=" << str(s.attrs.dilations)
     << " padding=" << stringify(s.attrs.padding) << " output_padding="
     << (s.attrs.outputPadding ? str(*s.attrs.outputPadding) : "None");
  return os.str();
}

/// Draws how a random transposed convolution's output padding is given:
/// 0 None, 1 zeros, 2 random values in [0, stride) (addTransposeDim).
int drawOutputPaddingMode(TransposeSpec &s, std::mt19937 &rng) {
  int mode = rng() % 3;
  if (mode)
    s.attrs.outputPadding = Shape{};
  return mode;
}

/// Appends a spatial dimension to `s` and `spatialIn`: kernel size `k`,
/// `stride`, `dil`ation, input size `in` and, by `opMode`
/// (drawOutputPaddingMode), its output padding (a random one drawn from
/// `rng`).
void addTransposeDim(TransposeSpec &s, Shape &spatialIn, std::mt19937 &rng,
                     int opMode, int64_t k, int64_t stride, int64_t dil,
                     int64_t in) {
  spatialIn.push_back(in);
  s.kernelShape.push_back(k);
  s.attrs.strides.push_back(stride);
  s.attrs.dilations.push_back(dil);
  if (opMode == 1)
    s.attrs.outputPadding->push_back(0);
  else if (opMode == 2)
    s.attrs.outputPadding->push_back(uniform(rng, 0, stride - 1));
}

/// Completes `s` (its spatial dimensions added) with the kernel's channel
/// dimensions and the input shape; whether the op is valid.
bool setTransposeShapes(TransposeSpec &s, int64_t batch, int64_t cin,
                        int64_t cout, const Shape &spatialIn) {
  s.kernelShape.push_back(cout);
  s.kernelShape.push_back(cin);
  s.inputShape = activationShape(s.attrs.layout, batch, spatialIn, cin);
  return static_cast<bool>(
      computeTransposeGeometry(s.attrs, s.inputShape, s.kernelShape));
}

TransposeSpec randomTranspose(std::mt19937 &rng) {
  while (true) {
    TransposeSpec s;
    int64_t n = uniform(rng, 1, 3);
    s.elementType = randomType(rng);
    s.attrs.layout = rng() % 2 ? DataLayout::ChannelsLast
                               : DataLayout::ChannelsFirst;
    s.attrs.padding =
        rng() % 2 ? TransposePadding::Valid : TransposePadding::Same;
    int opMode = drawOutputPaddingMode(s, rng);
    int64_t cin = uniform(rng, 1, 4), cout = uniform(rng, 1, 4);
    int64_t batch = uniform(rng, 1, 2);
    Shape spatialIn;
    for (int64_t d = 0; d < n; ++d) {
      int64_t k = uniform(rng, 1, n == 3 ? 3 : 5);
      int64_t st = uniform(rng, 1, n == 3 ? 3 : 4);
      int64_t dil = rng() % 3 == 0 ? uniform(rng, 2, 3) : 1;
      int64_t in = uniform(rng, 1, n == 3 ? 3 : 6);
      addTransposeDim(s, spatialIn, rng, opMode, k, st, dil, in);
    }
    if (setTransposeShapes(s, batch, cin, cout, spatialIn))
      return s;
  }
}

/// A transposed-convolution configuration with its (seeded) data.
struct TransposeCase {
  TransposeSpec spec;
  std::vector<uint8_t> x, k;
};

TransposeCase makeTransposeCase(TransposeSpec spec, std::mt19937 &rng) {
  TransposeCase c{std::move(spec), {}, {}};
  c.x = randomBuffer(c.spec.elementType, numElements(c.spec.inputShape), rng);
  c.k = randomBuffer(c.spec.elementType, numElements(c.spec.kernelShape), rng);
  return c;
}

/// Compiles `s` with `options`, runs it on `x` and `k` and compares the
/// result with the reference; returns "" or the failure prefixed by
/// `where`. The kernel's result is left in `*result` when given.
std::string checkTranspose(Jit &jit, const TransposeSpec &s,
                           const std::vector<uint8_t> &x,
                           const std::vector<uint8_t> &k,
                           const CompileOptions &options,
                           const std::string &where,
                           std::vector<uint8_t> *result = nullptr) {
  auto g = computeTransposeGeometry(s.attrs, s.inputShape, s.kernelShape);
  if (!g)
    return where + ": invalid geometry: " + g.error();
  size_t outN = numElements(g->outputShape());
  std::vector<uint8_t> want(outN * byteWidth(s.elementType));
  referenceTranspose(*g, s.elementType, x.data(), k.data(), want.data());
  auto kernel = jit.compile(s, options);
  if (!kernel)
    return where + ": compile failed: " + llvm::toString(kernel.takeError());
  std::vector<uint8_t> got(want.size(), 0xff);
  std::vector<void *> buffers{const_cast<uint8_t *>(x.data()),
                              const_cast<uint8_t *>(k.data()), got.data()};
  if (auto err = (*kernel)->run(buffers))
    return where + ": run failed: " + llvm::toString(std::move(err));
  std::string mismatch = compare(s.elementType, got.data(), want.data(), outN);
  if (result)
    *result = std::move(got);
  return mismatch.empty() ? "" : where + ": " + mismatch;
}

/// Runs every case (a `spec`, input `x` and kernel `k`) through the three
/// compile-option `variants`, each against the reference, and expects the
/// results of the first two (1 and 2 threads) to be bit-identical.
template <typename Case>
void checkTransposeVariants(const std::vector<Case> &cases,
                            const CompileOptions (&variants)[3],
                            const char *const (&names)[3]) {
  Jit jit;
  unsigned count = cases.size();
  std::vector<std::vector<uint8_t>> results(3 * count);
  auto failures = runParallel(3 * count, [&](unsigned job) -> std::string {
    const Case &c = cases[job / 3];
    std::string where = "config #" + std::to_string(job / 3) + " (" +
                        names[job % 3] + "): " + describe(c.spec);
    return checkTranspose(jit, c.spec, c.x, c.k, variants[job % 3], where,
                          &results[job]);
  });
  expectOneAndTwoThreadsAgree(failures, results, cases);
}

/// Runs every case with each of `threads` (small shapes threaded too)
/// against the reference, and expects the same bits for all of them.
void checkTransposeOnThreads(const std::vector<TransposeCase> &cases,
                             const unsigned (&threads)[3]) {
  unsigned count = cases.size();
  Jit jit;
  std::vector<std::vector<uint8_t>> results(3 * count);
  auto failures = runParallel(3 * count, [&](unsigned job) -> std::string {
    const TransposeCase &c = cases[job / 3];
    CompileOptions options;
    options.numThreads = threads[job % 3];
    options.minParallelFlops = 0; // small shapes: still threaded
    std::string where = "config #" + std::to_string(job / 3) + " (" +
                        std::to_string(threads[job % 3]) +
                        " threads): " + describe(c.spec);
    return checkTranspose(jit, c.spec, c.x, c.k, options, where, &results[job]);
  });
  for (const std::string &f : failures)
    ADD_FAILURE() << f;
  for (unsigned i = 0; i < count; ++i)
    for (unsigned t = 1; t < 3; ++t)
      EXPECT_EQ(results[3 * i], results[3 * i + t])
          << "config #" << i << " differs between 1 and " << threads[t]
          << " threads: " << describe(cases[i].spec);
}

TEST(Differential, Transpose) {
  std::mt19937 rng(envOr("CONVGEN_DIFF_SEED", 20261129) + 1);
  unsigned count = envOr("CONVGEN_DIFF_COUNT", 500);
  std::vector<TransposeCase> cases;
  for (unsigned i = 0; i < count; ++i) {
    cases.push_back(makeTransposeCase(randomTranspose(rng), rng));
  }
  Jit jit;
  CompileOptions zeroInsertion;
  zeroInsertion.zeroInsertionTranspose = true;
  zeroInsertion.optimize = false;
  CompileOptions phases;
  phases.transposePerTap = "never";
  CompileOptions plainTaps;
  plainTaps.optimize = false;
  plainTaps.transposePerTap = "always";
  CompileOptions columns;
  columns.transposePerTap = "columns";
  // Every case runs through the optimized default (phases, taps for small
  // inputs, columns for few output channels), the optimized phase
  // decomposition, the plain-loop per-tap lowering and the zero-insertion
  // oracle; every other case also through the optimized columns lowering
  // (channels-last cases; the others fall back to phases).
  const CompileOptions variants[] = {CompileOptions{}, phases, plainTaps,
                                     zeroInsertion, columns};
  const char *names[] = {"optimized default", "optimized phase",
                         "plain per-tap", "zero-insertion",
                         "optimized columns"};
  constexpr unsigned kVariants = 5;
  auto failures = runParallel(kVariants * count, [&](unsigned job) -> std::string {
    if (job % kVariants == 4 && job / kVariants % 2)
      return "";
    const TransposeCase &c = cases[job / kVariants];
    const TransposeSpec &s = c.spec;
    std::string where = "config #" + std::to_string(job / kVariants) + " (" +
                        names[job % kVariants] + " lowering): " + describe(s);
    return checkTranspose(jit, s, c.x, c.k, variants[job % kVariants], where);
  });
  for (const std::string &f : failures)
    ADD_FAILURE() << f;
}

/// Transposed convolutions through the phase lowering with the channel
/// counts of real layers, where the register tiles have several column
/// vectors and rows, several phases read a zero-padded window, and the
/// code generator skips the taps that read the padding along every
/// dimension a register tile has one output row of (conv.phase_window,
/// docs/Lowering.md §3.2): random 2-D and 3-D f32 layers, strides 1-3,
/// some dilated, `same` and `valid` with and without output padding, 16-80
/// output and 3-40 input channels, batches of 1-3 and of 4, 8 or 12 (whose
/// register tiles run along the batch when the taps along the last
/// dimension read padding: every tap loop clipped); each compared with the
/// reference with 1 and 2 threads (bit-identical) and with a 64 KiB L2
/// (input-channel and row blocks around the clipped tap loops).
TEST(Differential, TransposePhaseTapClipping) {
  std::mt19937 rng(envOr("CONVGEN_DIFF_SEED", 20261129) + 11);
  unsigned count = std::max(20u, envOr("CONVGEN_DIFF_COUNT", 500) / 12);
  std::vector<TransposeCase> cases;
  static const int64_t couts[] = {16, 48, 64, 80};
  while (cases.size() < count) {
    TransposeSpec s;
    int64_t n = uniform(rng, 2, 3);
    s.elementType = ElementType::F32;
    s.attrs.layout = DataLayout::ChannelsLast;
    s.attrs.padding =
        rng() % 2 ? TransposePadding::Valid : TransposePadding::Same;
    int opMode = drawOutputPaddingMode(s, rng);
    int64_t cin = uniform(rng, 3, 40), cout = couts[rng() % 4];
    Shape spatialIn;
    for (int64_t d = 0; d < n; ++d) {
      int64_t st = uniform(rng, 1, 3);
      int64_t k = uniform(rng, 2, n == 3 ? 3 : 5);
      int64_t dil = rng() % 4 == 0 ? 2 : 1;
      int64_t in = uniform(rng, 2, n == 3 ? 6 : 14);
      addTransposeDim(s, spatialIn, rng, opMode, k, st, dil, in);
    }
    int64_t batch = rng() % 2 ? uniform(rng, 1, 3) : 4 * uniform(rng, 1, 3);
    if (!setTransposeShapes(s, batch, cin, cout, spatialIn))
      continue;
    cases.push_back(makeTransposeCase(std::move(s), rng));
  }
  CompileOptions one, two, blocks;
  one.transposePerTap = two.transposePerTap = blocks.transposePerTap = "never";
  one.numThreads = blocks.numThreads = 1;
  two.numThreads = 2;
  two.minParallelFlops = 0; // small shapes: still threaded
  blocks.l2CacheBytes = 64 * 1024;
  checkTransposeVariants(
      cases, {one, two, blocks},
      {"phases, 1 thread", "phases, 2 threads", "phases, 64 KiB L2"});
}

/// The columns lowering in bands of input rows (docs/Lowering.md §3.6,
/// transpose-columns-band-bytes: a quarter of the L2): random 2-D and 3-D
/// f32 channels-last layers with 1-4 output channels and 4-24 input
/// channels, 2-4 batch items, kernels of 1-5 taps (strides 1-4, dilation 2
/// in some), mostly `valid` (every tap along the first dimension reads all
/// its input rows: bands) with and without output padding, some `same`
/// (cropped: no bands). Each is compared with the reference with a 4 KiB L2
/// (bands of 1 KiB of the GEMM's result: 1 to a few input rows) on 1 and 2
/// threads (bit-identical), and with the host's L2 (one band).
TEST(Differential, TransposeColumnsBands) {
  std::mt19937 rng(envOr("CONVGEN_DIFF_SEED", 20261129) + 13);
  unsigned count = std::max(20u, envOr("CONVGEN_DIFF_COUNT", 500) / 12);
  std::vector<TransposeCase> cases;
  while (cases.size() < count) {
    TransposeSpec s;
    int64_t n = uniform(rng, 2, 3);
    s.elementType = ElementType::F32;
    s.attrs.layout = DataLayout::ChannelsLast;
    s.attrs.padding =
        rng() % 4 ? TransposePadding::Valid : TransposePadding::Same;
    int opMode = drawOutputPaddingMode(s, rng);
    int64_t cin = uniform(rng, 4, 24), cout = uniform(rng, 1, 4);
    Shape spatialIn;
    for (int64_t d = 0; d < n; ++d) {
      int64_t st = uniform(rng, 1, 4);
      int64_t k = uniform(rng, 1, n == 3 ? 3 : 5);
      int64_t dil = rng() % 4 == 0 ? 2 : 1;
      int64_t in = uniform(rng, 2, n == 3 ? 5 : 9);
      addTransposeDim(s, spatialIn, rng, opMode, k, st, dil, in);
    }
    if (!setTransposeShapes(s, uniform(rng, 2, 4), cin, cout, spatialIn))
      continue;
    cases.push_back(makeTransposeCase(std::move(s), rng));
  }
  CompileOptions one, two, host;
  one.transposePerTap = two.transposePerTap = host.transposePerTap = "columns";
  one.numThreads = host.numThreads = 1;
  two.numThreads = 2;
  two.minParallelFlops = 0; // small shapes: still threaded
  one.l2CacheBytes = two.l2CacheBytes = 4096;
  checkTransposeVariants(cases, {one, two, host},
                         {"columns, 4 KiB L2, 1 thread",
                          "columns, 4 KiB L2, 2 threads", "columns"});
}

/// Winograd F(2, T) phases (the pipeline option winograd, docs/Lowering.md
/// §3.10): random 1-D to 3-D f32 channels-last layers whose phases have 2
/// or 3 taps along the last dimension (kernel 2-3 with stride 1, 4-6 with
/// stride 2), other dimensions with 1-4 taps, strides 1-2 and sometimes
/// dilation 2, 4-12 input positions along the last dimension (odd and even
/// output counts), `same` and `valid` with and without output padding,
/// 16-40 input and 16-80 output channels, batches of 1-3 and of 4, 8 or 12
/// (batch blocks of 4); each compared with the reference with 1 and 2
/// threads (bit-identical) through the phases, and with the default
/// lowering choice.
TEST(Differential, TransposeWinograd) {
  std::mt19937 rng(envOr("CONVGEN_DIFF_SEED", 20261129) + 13);
  unsigned count = std::max(24u, envOr("CONVGEN_DIFF_COUNT", 500) / 12);
  std::vector<TransposeCase> cases;
  static const int64_t couts[] = {16, 32, 48, 80};
  while (cases.size() < count) {
    TransposeSpec s;
    int64_t n = uniform(rng, 1, 3);
    s.elementType = ElementType::F32;
    s.attrs.layout = DataLayout::ChannelsLast;
    s.attrs.padding =
        rng() % 2 ? TransposePadding::Valid : TransposePadding::Same;
    int opMode = drawOutputPaddingMode(s, rng);
    int64_t cin = uniform(rng, 16, 40), cout = couts[rng() % 4];
    Shape spatialIn;
    for (int64_t d = 0; d < n; ++d) {
      bool last = d == n - 1;
      int64_t st = uniform(rng, 1, 2);
      int64_t k = last ? (st == 1 ? uniform(rng, 2, 3) : uniform(rng, 4, 6))
                       : uniform(rng, 1, 4);
      int64_t dil = !last && rng() % 4 == 0 ? 2 : 1;
      int64_t in = last ? uniform(rng, 4, 12) : uniform(rng, 2, n == 3 ? 4 : 8);
      addTransposeDim(s, spatialIn, rng, opMode, k, st, dil, in);
    }
    int64_t batch = rng() % 2 ? uniform(rng, 1, 3) : 4 * uniform(rng, 1, 3);
    if (!setTransposeShapes(s, batch, cin, cout, spatialIn))
      continue;
    cases.push_back(makeTransposeCase(std::move(s), rng));
  }
  CompileOptions one, two, chosen;
  one.winograd = two.winograd = chosen.winograd = "on";
  one.transposePerTap = two.transposePerTap = "never";
  one.numThreads = chosen.numThreads = 1;
  two.numThreads = 2;
  two.minParallelFlops = 0; // small shapes: still threaded
  checkTransposeVariants(cases, {one, two, chosen},
                         {"Winograd phases, 1 thread",
                          "Winograd phases, 2 threads",
                          "Winograd, default lowering choice"});
}

/// Row parts of the columns lowering (docs/Lowering.md §3.6): random
/// single 1-D channels-last items with 1-4 output channels, kernels of 2-9
/// taps, strides 1-4, valid padding with random output_padding, every
/// element type, whose rows split into parts on 2 and on 4 threads. Each
/// is compared with the reference with 1, 2 and 4 threads, bit-identical
/// across the thread counts.
TEST(Differential, TransposeColumnsRowParts) {
  std::mt19937 rng(envOr("CONVGEN_DIFF_SEED", 20261129) + 11);
  unsigned count = envOr("CONVGEN_DIFF_COUNT", 500) / 12;
  std::vector<TransposeCase> cases;
  while (cases.size() < count) {
    TransposeSpec s;
    s.elementType = randomType(rng);
    s.attrs.layout = DataLayout::ChannelsLast;
    s.attrs.padding = TransposePadding::Valid;
    int64_t k = uniform(rng, 2, 9), st = uniform(rng, 1, 4);
    int64_t cout = uniform(rng, 1, 4), cin = uniform(rng, 4, 40);
    int64_t G = (k + st - 1) / st;
    // 4 parts of at least 2G rows, a multiple of G each.
    int64_t rows = 4 * G * uniform(rng, 2, 5);
    s.kernelShape = {k, cout, cin};
    s.attrs.strides = {st};
    s.attrs.dilations = {1};
    if (rng() % 2)
      s.attrs.outputPadding = Shape{uniform(rng, 0, st - 1)};
    s.inputShape = {1, rows, cin};
    auto g = computeTransposeGeometry(s.attrs, s.inputShape, s.kernelShape);
    if (!g || mlir::conv::transposeRowParts(*g, 2) != 2 ||
        mlir::conv::transposeRowParts(*g, 4) != 4)
      continue;
    cases.push_back(makeTransposeCase(std::move(s), rng));
  }
  const unsigned threads[] = {1, 2, 4};
  checkTransposeOnThreads(cases, threads);
}

/// Draws `count` random channels-last f32 layers that the dot lowering
/// (docs/Lowering.md §3.11) takes, valid or same padding, `draw` filling in
/// the kernel, strides, dilations, output_padding and input shape, and
/// compares each with the reference with 1, 2 and 3 threads (1-3 tile
/// ranges an item), bit-identical across the thread counts.
template <typename Draw>
void checkDotLayers(std::mt19937 &rng, unsigned count, Draw draw) {
  std::vector<TransposeCase> cases;
  mlir::MLIRContext ctx;
  for (unsigned attempt = 0; cases.size() < count; ++attempt) {
    // Most draws qualify; a planner that took none would loop here.
    ASSERT_LT(attempt, 4 * count) << "planTransposeDot takes too few layers";
    TransposeSpec s;
    s.elementType = ElementType::F32;
    s.attrs.layout = DataLayout::ChannelsLast;
    s.attrs.padding =
        rng() % 2 ? TransposePadding::Valid : TransposePadding::Same;
    draw(s);
    auto g = computeTransposeGeometry(s.attrs, s.inputShape, s.kernelShape);
    if (!g || llvm::any_of(g->outSpatial, [](int64_t o) { return o < 1; }))
      continue;
    // Layers the lowering takes (16 lanes; with 8 it does too): not those
    // whose tiles would unroll too many FMAs (odd S with many taps).
    if (!mlir::conv::planTransposeDot(*g, mlir::Float32Type::get(&ctx), 16, 1))
      continue;
    cases.push_back(makeTransposeCase(std::move(s), rng));
  }
  const unsigned threads[] = {1, 2, 3};
  checkTransposeOnThreads(cases, threads);
}

/// The dot lowering (docs/Lowering.md §3.11): random 1-D layers with at
/// most 8 outputs per phase row (stride 1-4 x 1-8 output channels), 16-64
/// input channels, kernels of 1-9 taps, 1-3 items of 1-70 positions (edge
/// tiles whose window leaves the input, output rows past it), with or
/// without output_padding (crops inside a phase row: output-aligned
/// phases).
TEST(Differential, TransposeDotProducts) {
  std::mt19937 rng(envOr("CONVGEN_DIFF_SEED", 20261129) + 31);
  checkDotLayers(
      rng, envOr("CONVGEN_DIFF_COUNT", 500) / 10, [&](TransposeSpec &s) {
        int64_t st = uniform(rng, 1, 4), k = uniform(rng, 1, 9);
        int64_t cout = uniform(rng, 1, 8 / st), cin = 16 * uniform(rng, 1, 4);
        s.kernelShape = {k, cout, cin};
        s.attrs.strides = {st};
        s.attrs.dilations = {1};
        if (rng() % 2)
          s.attrs.outputPadding = Shape{uniform(rng, 0, st - 1)};
        s.inputShape = {uniform(rng, 1, 3), uniform(rng, 1, 70), cin};
      });
}

/// The dot lowering in 2-D: random layers with at most 8 sums a phase row
/// of the last dimension (its stride 1-4 x 1-8 output channels), strides
/// 1-3 and kernels of 1-5 taps along the first (kernels shorter than the
/// stride: output rows without taps, zeros), 16-48 input channels, 1-2
/// items of 1-12 x 1-40 positions, with or without output_padding (crops
/// inside a phase row along either dimension).
TEST(Differential, TransposeDotProducts2D) {
  std::mt19937 rng(envOr("CONVGEN_DIFF_SEED", 20261129) + 37);
  checkDotLayers(
      rng, envOr("CONVGEN_DIFF_COUNT", 500) / 10, [&](TransposeSpec &s) {
        int64_t sh = uniform(rng, 1, 3), kh = uniform(rng, 1, 5);
        int64_t sw = uniform(rng, 1, 4), kw = uniform(rng, 1, 7);
        int64_t cout = uniform(rng, 1, 8 / sw), cin = 16 * uniform(rng, 1, 3);
        s.kernelShape = {kh, kw, cout, cin};
        s.attrs.strides = {sh, sw};
        s.attrs.dilations = {1, 1};
        if (rng() % 2)
          s.attrs.outputPadding =
              Shape{uniform(rng, 0, sh - 1), uniform(rng, 0, sw - 1)};
        s.inputShape = {uniform(rng, 1, 2), uniform(rng, 1, 12),
                        uniform(rng, 1, 40), cin};
      });
}

/// bf16 transposed convolutions whose register tiles reduce input-channel
/// pairs with vdpbf16ps (bf16-dot=on; emulated with FMAs by the JIT on a
/// host without AVX512-BF16): random layers with 16 to 64 output channels
/// (whole 16-lane columns and remainders) and 1 to 20 input channels (odd
/// counts leave one channel to an FMA step), 1-D to 3-D, both layouts,
/// through the default lowering choice with 1 and 2 threads (bit-identical)
/// and the phase lowering, each against the reference.
TEST(Differential, TransposeBF16DotProducts) {
  std::mt19937 rng(envOr("CONVGEN_DIFF_SEED", 20261129) + 3);
  unsigned count = envOr("CONVGEN_DIFF_COUNT", 500) / 12;
  std::vector<TransposeCase> cases;
  static const int64_t couts[] = {16, 32, 48, 20, 33, 64};
  for (unsigned i = 0; i < count; ++i) {
    TransposeSpec s = randomTranspose(rng);
    s.elementType = ElementType::BF16;
    int64_t cin = uniform(rng, 1, 20), cout = couts[rng() % 6];
    size_t rank = s.inputShape.size();
    s.kernelShape[rank - 2] = cout;
    s.kernelShape[rank - 1] = cin;
    s.inputShape[s.attrs.layout == DataLayout::ChannelsLast ? rank - 1 : 1] =
        cin;
    cases.push_back(makeTransposeCase(std::move(s), rng));
  }
  CompileOptions one, two, phases;
  one.bf16Dot = two.bf16Dot = phases.bf16Dot = "on";
  one.numThreads = phases.numThreads = 1;
  two.numThreads = 2;
  two.minParallelFlops = 0; // small shapes: still threaded
  phases.transposePerTap = "never";
  checkTransposeVariants(cases, {one, two, phases},
                         {"default, 1 thread", "default, 2 threads", "phases"});
}

} // namespace

namespace {

/// bf16 filter gradients of pairs of output positions with vdpbf16ps
/// (bf16-dot=on; docs/Lowering.md §2.6): random compute-bound 2-D and 3-D
/// configurations (at least 200 FLOPs per operand element) with 5-72
/// channels, an even last output dimension for most (an odd one is widened
/// to f32 instead), both layouts, every padding, strides and dilations.
/// Each is compared with the reference with 1 and 2 threads and with
/// reduction blocks (a 256 KiB last-level cache), bit-identical across the
/// thread counts.
TEST(Differential, BackpropFilterBF16Pairs) {
  std::mt19937 rng(envOr("CONVGEN_DIFF_SEED", 20261129) + 7);
  unsigned count = envOr("CONVGEN_DIFF_COUNT", 500) / 12;
  std::vector<BackpropFilterCase> cases;
  while (cases.size() < count) {
    BackpropFilterSpec s;
    int64_t n = uniform(rng, 2, 3);
    s.elementType = ElementType::BF16;
    s.attrs.layout = rng() % 3 ? DataLayout::ChannelsLast
                               : DataLayout::ChannelsFirst;
    s.attrs.padding = static_cast<FilterPadding>(rng() % 3);
    int64_t cin = uniform(rng, 5, 72), cout = uniform(rng, 5, 72);
    if (rng() % 2)
      cout = 16 * uniform(rng, 1, 4); // whole vectors of columns
    Shape spatialIn;
    for (int64_t d = 0; d < n; ++d) {
      int64_t k = uniform(rng, 1, 3);
      int64_t dil = rng() % 4 == 0 ? 2 : 1;
      int64_t st = rng() % 3 == 0 ? 2 : 1;
      addSpatialDim(s, spatialIn, rng, k, st, dil, n == 3 ? 5 : 12);
    }
    s.filterShape.push_back(cin);
    s.filterShape.push_back(cout);
    if (!setActivationShapes(s, uniform(rng, 1, 3), cin, spatialIn))
      continue;
    auto g = computeBackpropFilterGeometry(s.attrs, s.inputShape,
                                           s.filterShape, s.outBackpropShape);
    if (!g)
      continue;
    double elements =
        double(numElements(s.inputShape) + numElements(s.outBackpropShape));
    int64_t last = g->outSpatial.back();
    // Compute-bound, and mostly an even last output dimension.
    if (elements == 0 || g->flops() < 200 * elements || last < 1 ||
        (last % 2 != 0 && rng() % 4 != 0))
      continue;
    cases.push_back(makeCase(s, rng));
  }
  Jit jit;
  CompileOptions one, two, blocks;
  one.bf16Dot = two.bf16Dot = blocks.bf16Dot = "on";
  one.numThreads = blocks.numThreads = 1;
  two.numThreads = 2;
  two.minParallelFlops = 0; // small shapes: still threaded
  blocks.l3CacheBytes = 256 * 1024;
  const CompileOptions variants[] = {one, two, blocks};
  const char *names[] = {"bf16-dot, 1 thread", "bf16-dot, 2 threads",
                         "bf16-dot, reduction blocks"};
  std::vector<std::vector<uint8_t>> results(3 * count);
  auto failures = runParallel(3 * count, [&](unsigned job) -> std::string {
    return checkBackpropFilter(jit, job / 3, cases[job / 3],
                               variants[job % 3], names[job % 3],
                               &results[job]);
  });
  expectOneAndTwoThreadsAgree(failures, results, cases);
}

/// Filter gradients are deterministic: the same inputs give bit-identical
/// results run to run and for any fixed thread count (every dW element is
/// summed by one thread in one order).
/// Column parts (docs/Lowering.md §2.4: a tap count that is not a multiple
/// of the threads splits each tap's output channels; a 1x1 filter with more
/// input than output channels splits its input channels) together with the
/// padding cuts (§2.5: per-tap row and column ranges): fixed shapes with 32
/// to 128 output channels, odd tap counts, padding larger than the
/// kernel's reach in places (taps that read nothing), strides, dilations,
/// 1-D / 2-D / 3-D, both layouts and bf16; each compared with the reference
/// for 1 to 4 threads and bit-identical across them.
TEST(Differential, BackpropFilterColumnPartsAndPaddingCuts) {
  std::mt19937 rng(envOr("CONVGEN_DIFF_SEED", 20261129) + 5);
  struct Case1 {
    DataLayout layout;
    FilterPadding padding;
    Shape explicitPads; // before/after per spatial dim (Explicit only)
    Shape in;           // spatial input sizes
    Shape k, stride, dilation;
    int64_t batch, cin, cout;
    ElementType type;
  };
  const Case1 cases[] = {
      {DataLayout::ChannelsLast, FilterPadding::Same, {}, {7, 7}, {3, 3},
       {1, 1}, {1, 1}, 2, 24, 96, ElementType::F32},
      {DataLayout::ChannelsLast, FilterPadding::Same, {}, {14, 13}, {5, 5},
       {1, 1}, {1, 1}, 1, 8, 64, ElementType::F32},
      {DataLayout::ChannelsLast, FilterPadding::Same, {}, {9, 9}, {3, 3},
       {2, 2}, {1, 1}, 2, 16, 128, ElementType::F32},
      {DataLayout::ChannelsLast, FilterPadding::Explicit, {3, 1, 0, 4},
       {6, 5}, {3, 3}, {1, 1}, {2, 1}, 2, 8, 32, ElementType::F32},
      {DataLayout::ChannelsLast, FilterPadding::Explicit, {5, 5, 2, 6},
       {4, 7}, {3, 3}, {2, 1}, {1, 2}, 1, 8, 64, ElementType::F32},
      {DataLayout::ChannelsLast, FilterPadding::Same, {}, {5, 6, 7},
       {3, 3, 3}, {1, 1, 1}, {1, 1, 1}, 1, 8, 64, ElementType::F32},
      {DataLayout::ChannelsLast, FilterPadding::Same, {}, {20}, {3}, {1},
       {3}, 2, 16, 96, ElementType::F32},
      {DataLayout::ChannelsFirst, FilterPadding::Same, {}, {7, 7}, {3, 3},
       {1, 1}, {1, 1}, 2, 16, 64, ElementType::F32},
      {DataLayout::ChannelsLast, FilterPadding::Same, {}, {7, 7}, {3, 3},
       {1, 1}, {1, 1}, 2, 16, 64, ElementType::BF16},
      // Tiny-Cin fused taps with 7 and 5 leading taps: output-channel
      // parts of each (2 and 4 threads).
      {DataLayout::ChannelsLast, FilterPadding::Same, {}, {14, 13}, {7, 7},
       {2, 2}, {1, 1}, 2, 3, 64, ElementType::F32},
      {DataLayout::ChannelsLast, FilterPadding::Valid, {}, {12, 30}, {5, 20},
       {2, 2}, {1, 1}, 2, 1, 32, ElementType::F32},
      // 1x1 with more input than output channels: row parts (2 and 4
      // threads), one of them strided.
      {DataLayout::ChannelsLast, FilterPadding::Valid, {}, {6, 7}, {1, 1},
       {1, 1}, {1, 1}, 3, 128, 32, ElementType::F32},
      {DataLayout::ChannelsLast, FilterPadding::Valid, {}, {9, 8}, {1, 1},
       {2, 2}, {1, 1}, 1, 256, 48, ElementType::F32},
  };
  Jit jit;
  unsigned i = 0;
  for (const Case1 &c1 : cases) {
    BackpropFilterSpec s;
    s.elementType = c1.type;
    s.attrs.layout = c1.layout;
    s.attrs.padding = c1.padding;
    s.attrs.explicitPaddings = c1.explicitPads;
    s.attrs.strides = c1.stride;
    s.attrs.dilations = c1.dilation;
    s.filterShape = c1.k;
    s.filterShape.push_back(c1.cin);
    s.filterShape.push_back(c1.cout);
    s.inputShape = {c1.batch};
    if (c1.layout == DataLayout::ChannelsFirst)
      s.inputShape.push_back(c1.cin);
    s.inputShape.insert(s.inputShape.end(), c1.in.begin(), c1.in.end());
    if (c1.layout == DataLayout::ChannelsLast)
      s.inputShape.push_back(c1.cin);
    auto dy = inferOutBackpropShape(s.attrs, s.inputShape, s.filterShape);
    ASSERT_TRUE(static_cast<bool>(dy)) << dy.error();
    s.outBackpropShape = *dy;
    BackpropFilterCase c = makeCase(s, rng);
    std::vector<uint8_t> first;
    for (unsigned threads : {1u, 2u, 3u, 4u}) {
      CompileOptions options;
      options.numThreads = threads;
      options.minParallelFlops = 0; // small shapes: still threaded
      std::vector<uint8_t> got;
      EXPECT_EQ(checkBackpropFilter(jit, i, c, options,
                                    "column parts / padding cuts, threads=" +
                                        std::to_string(threads),
                                    &got),
                "");
      ASSERT_FALSE(got.empty()) << "config #" << i << ": no result";
      if (first.empty())
        first = got;
      else
        EXPECT_EQ(got, first) << "config #" << i << ", threads=" << threads;
    }
    ++i;
  }
}

/// Grouped filter gradients with 2-8 input and 2 or 4 output channels per
/// group and 16-64 (group, output channel) columns: with 16-lane vectors
/// their register tiles run over several groups, each input value broadcast
/// over its group's lanes by a lane shuffle (docs/Codegen.md, groups).
/// Random 1-D to 3-D configurations (both layouts, every padding, strides,
/// dilations; f32, bf16, f16), each compared with the reference with 1 and
/// 2 threads and bit-identical across them.
TEST(Differential, BackpropFilterLaneGroups) {
  std::mt19937 rng(envOr("CONVGEN_DIFF_SEED", 20261129) + 6);
  unsigned count = envOr("CONVGEN_DIFF_COUNT", 500) / 20;
  static const ElementType types[] = {ElementType::F32, ElementType::F32,
                                      ElementType::BF16, ElementType::F16};
  std::vector<BackpropFilterCase> cases;
  while (cases.size() < count) {
    BackpropFilterSpec s;
    int64_t n = uniform(rng, 1, 3);
    s.elementType = types[rng() % 4];
    s.attrs.layout = rng() % 4 ? DataLayout::ChannelsLast
                               : DataLayout::ChannelsFirst;
    s.attrs.padding = static_cast<FilterPadding>(rng() % 3);
    int64_t cf = std::array<int64_t, 4>{2, 3, 4, 8}[rng() % 4];
    int64_t co = rng() % 2 ? 4 : 2;
    int64_t groups = 16 / co * uniform(rng, 1, 4) / (rng() % 2 ? 1 : 2);
    if (groups * co % 16 != 0)
      continue;
    Shape spatialIn;
    for (int64_t d = 0; d < n; ++d) {
      int64_t k = uniform(rng, 1, 3);
      int64_t dil = rng() % 4 == 0 ? 2 : 1;
      int64_t st = rng() % 3 == 0 ? 2 : 1;
      addSpatialDim(s, spatialIn, rng, k, st, dil, n == 3 ? 5 : 20);
    }
    s.filterShape.push_back(cf);
    s.filterShape.push_back(groups * co);
    if (!setActivationShapes(s, uniform(rng, 1, 2), groups * cf, spatialIn))
      continue;
    cases.push_back(makeCase(s, rng));
  }
  expectBackpropFilterAcrossThreads(cases, CompileOptions(), {1u, 2u},
                                    "lane groups");
}

/// Tap rows (dw-tap-rows=on, docs/Lowering.md §2.8): grouped channels-last
/// f32 filter gradients with 2-8 input and 2 or 4 output channels per
/// group whose last kernel dimension (2 or 3 taps, dilation 1 or 2) has
/// stride 1 contract those taps together over the positions they all read,
/// the few at the ends tap by tap. Random 2-D and 3-D configurations (every
/// padding, leading strides 1-2, last dimensions from a few positions, where
/// no interior is left, to 40), each compared with the reference with 1,
/// 2 and 3 threads (3: the split-K parts inside the taps' scf.forall) and
/// bit-identical across them. (With 8-lane vectors only
/// the 2-output-channel groups take tap rows; the rest check the per-tap
/// form again.)
TEST(Differential, BackpropFilterTapRows) {
  std::mt19937 rng(envOr("CONVGEN_DIFF_SEED", 20261205) + 7);
  unsigned count = envOr("CONVGEN_DIFF_COUNT", 500) / 20;
  std::vector<BackpropFilterCase> cases;
  while (cases.size() < count) {
    BackpropFilterSpec s;
    int64_t n = uniform(rng, 2, 3);
    s.elementType = ElementType::F32;
    s.attrs.layout = DataLayout::ChannelsLast;
    s.attrs.padding = static_cast<FilterPadding>(rng() % 3);
    int64_t co = rng() % 2 ? 4 : 2;
    int64_t groups = 16 / co * uniform(rng, 1, 2);
    int64_t last = uniform(rng, 2, 3);
    int64_t cf = uniform(rng, 2, 24 / last < 8 ? 24 / last : 8);
    Shape spatialIn;
    for (int64_t d = 0; d < n; ++d) {
      bool isLast = d == n - 1;
      int64_t k = isLast ? last : uniform(rng, 1, 3);
      int64_t dil = rng() % 3 == 0 ? 2 : 1;
      int64_t st = !isLast && rng() % 3 == 0 ? 2 : 1;
      addSpatialDim(s, spatialIn, rng, k, st, dil,
                    isLast   ? 36
                    : n == 3 ? 4
                             : 8);
    }
    s.filterShape.push_back(cf);
    s.filterShape.push_back(groups * co);
    if (!setActivationShapes(s, uniform(rng, 1, 2), groups * cf, spatialIn))
      continue;
    cases.push_back(makeCase(s, rng));
  }
  // And one long enough for split-K parts (§2.3: 8256 positions, an even
  // batch), which 3 threads put inside the taps' forall: SAME 3x3, 16
  // groups of 4 -> 4.
  {
    BackpropFilterSpec s;
    s.elementType = ElementType::F32;
    s.attrs.layout = DataLayout::ChannelsLast;
    s.attrs.padding = FilterPadding::Same;
    s.attrs.strides = {1, 1};
    s.attrs.dilations = {1, 1};
    s.inputShape = {2, 12, 344, 64};
    s.filterShape = {3, 3, 4, 64};
    s.outBackpropShape = {2, 12, 344, 64};
    cases.push_back(makeCase(s, rng));
  }
  CompileOptions options;
  options.dwTapRows = "on";
  expectBackpropFilterAcrossThreads(cases, options, {1u, 2u, 3u}, "tap rows");
}

/// Dense tap rows (dw-tap-rows=on, docs/Lowering.md §2.8): ungrouped
/// channels-last f32 filter gradients with 5 or 6 taps along a stride-1
/// last dimension, whose reduction is long enough for split-K parts (an
/// even batch, over 8192 positions), contract those taps together in
/// register tiles of 4 input channels. VALID, SAME (with 6 taps: an odd
/// total padding) and explicit asymmetric padding, input channels 8 and
/// 12, output channels 16 and 48, each compared with the reference with 1,
/// 2 and 3 threads and bit-identical across them (these shapes take dense
/// tap rows with every thread count; the lit test
/// backprop-filter-dense-tap-rows.mlir pins the rule).
TEST(Differential, BackpropFilterDenseTapRows) {
  std::mt19937 rng(envOr("CONVGEN_DIFF_SEED", 20261205) + 21);
  struct Shape2D {
    int64_t batch, h, w, kh, kw, ci, co;
    FilterPadding padding;
    std::vector<int64_t> explicitPads;
  };
  const Shape2D shapes[] = {
      {2, 20, 350, 5, 5, 8, 16, FilterPadding::Valid, {}},
      {2, 10, 420, 3, 6, 8, 48, FilterPadding::Same, {}},
      {4, 6, 360, 1, 5, 12, 16, FilterPadding::Explicit, {0, 0, 1, 3}},
  };
  std::vector<BackpropFilterCase> cases;
  for (const Shape2D &d : shapes) {
    BackpropFilterSpec s;
    s.elementType = ElementType::F32;
    s.attrs.layout = DataLayout::ChannelsLast;
    s.attrs.padding = d.padding;
    s.attrs.explicitPaddings = d.explicitPads;
    s.attrs.strides = {1, 1};
    s.attrs.dilations = {1, 1};
    s.filterShape = {d.kh, d.kw, d.ci, d.co};
    ASSERT_TRUE(setActivationShapes(s, d.batch, d.ci, {d.h, d.w}))
        << "shape " << cases.size();
    cases.push_back(makeCase(s, rng));
  }
  CompileOptions options;
  options.dwTapRows = "on";
  expectBackpropFilterAcrossThreads(cases, options, {1u, 2u, 3u},
                                    "dense tap rows");
}

/// Depthwise filter gradients (one input and one output channel a group:
/// groups = channels; docs/Lowering.md §2, step 7), whose taps are
/// elementwise over the channels: random 1-D to 3-D layers, both layouts,
/// every padding, strides and dilations 1-2, 1-80 channels (whole vectors
/// and remainders), f32, bf16 and f16, each compared with the reference
/// with 1, 2 and 3 threads and bit-identical across them.
TEST(Differential, BackpropFilterDepthwise) {
  std::mt19937 rng(envOr("CONVGEN_DIFF_SEED", 20261205) + 8);
  unsigned count = envOr("CONVGEN_DIFF_COUNT", 500) / 20;
  static const ElementType types[] = {ElementType::F32, ElementType::F32,
                                      ElementType::BF16, ElementType::F16};
  std::vector<BackpropFilterCase> cases;
  while (cases.size() < count) {
    BackpropFilterSpec s;
    int64_t n = uniform(rng, 1, 3);
    s.elementType = types[rng() % 4];
    s.attrs.layout =
        rng() % 4 ? DataLayout::ChannelsLast : DataLayout::ChannelsFirst;
    s.attrs.padding = static_cast<FilterPadding>(rng() % 3);
    int64_t channels =
        rng() % 2 ? 16 * uniform(rng, 1, 5) : uniform(rng, 1, 80);
    Shape spatialIn;
    for (int64_t d = 0; d < n; ++d) {
      int64_t k = uniform(rng, 1, n == 1 ? 5 : 3);
      int64_t dil = rng() % 4 == 0 ? 2 : 1;
      int64_t st = rng() % 3 == 0 ? 2 : 1;
      addSpatialDim(s, spatialIn, rng, k, st, dil, n == 3 ? 5 : 16);
    }
    s.filterShape.push_back(1);
    s.filterShape.push_back(channels);
    if (!setActivationShapes(s, uniform(rng, 1, 3), channels, spatialIn))
      continue;
    cases.push_back(makeCase(s, rng));
  }
  expectBackpropFilterAcrossThreads(cases, CompileOptions(), {1u, 2u, 3u},
                                    "depthwise");
}

/// Depthwise tap planes (dw-tap-planes, docs/Lowering.md §2.9): channels-last
/// f32 depthwise filter gradients of 1-3 vectors of channels contract all
/// the taps of the last two kernel dimensions together, over the interior
/// of output positions at which every tap reads the input and four edge
/// strips with zero-bordered input rows. Random 2-D and 3-D layers (every
/// padding kind, explicit pads 0-2, 2-4 taps, strides and dilations 1-2 along
/// the plane, leading strides 1-2, planes of up to 38 positions a side,
/// mostly with an interior of three quarters of the output; the others
/// check the per-tap form again), each compared with the reference with 1,
/// 2 (channel parts) and 3 threads and bit-identical across them, and with
/// dw-tap-planes off.
TEST(Differential, BackpropFilterTapPlanes) {
  std::mt19937 rng(envOr("CONVGEN_DIFF_SEED", 20261205) + 21);
  unsigned count = std::max(16u, envOr("CONVGEN_DIFF_COUNT", 500) / 20);
  std::vector<BackpropFilterCase> cases;
  while (cases.size() < count) {
    BackpropFilterSpec s;
    int64_t n = uniform(rng, 2, 3);
    s.elementType = ElementType::F32;
    s.attrs.layout = DataLayout::ChannelsLast;
    s.attrs.padding = static_cast<FilterPadding>(rng() % 3);
    int64_t channels = 16 * uniform(rng, 1, 3);
    Shape spatialIn;
    for (int64_t d = 0; d < n; ++d) {
      bool plane = d >= n - 2;
      int64_t k = plane ? uniform(rng, 2, 4) : uniform(rng, 1, 3);
      int64_t dil = rng() % 3 == 0 ? 2 : 1;
      int64_t st = rng() % 3 == 0 ? 2 : 1;
      addSpatialDim(s, spatialIn, rng, k, st, dil, plane ? 20 : 4);
      // Mostly planes whose interior is three quarters of them.
      if (plane && rng() % 4)
        spatialIn.back() = std::max<int64_t>(
            spatialIn.back(), 8 * st * (k - 1) * dil + uniform(rng, 0, 6));
    }
    s.filterShape.push_back(1);
    s.filterShape.push_back(channels);
    if (!setActivationShapes(s, uniform(rng, 1, 3), channels, spatialIn))
      continue;
    cases.push_back(makeCase(s, rng));
  }
  expectBackpropFilterAcrossThreads(cases, CompileOptions(), {1u, 2u, 3u},
                                    "tap planes");
  CompileOptions perTap;
  perTap.dwTapPlanes = false;
  expectBackpropFilterAcrossThreads(cases, perTap, {1u}, "tap planes off");
}

/// Winograd F(3, 2) and F(5, 2) filter gradients (the pipeline option
/// winograd, docs/Lowering.md §2.7): random 1-D to 3-D f32 layers with 3
/// taps (a third of the 1-D and 2-D ones 5) and stride 1 along every
/// dimension, dilations 1-3, every padding kind
/// (explicit pads 0-3), 1-12 output positions a dimension (odd and even),
/// 1-40 input and output channels, batches of 1-4, both layouts (channels
/// first through the channels-last relayout). Each is compared with the
/// reference through the Winograd form with 1, 2 and 3 threads, the
/// results bit-identical across the thread counts (the points' forall
/// runs each 1x1 filter gradient on one thread).
TEST(Differential, BackpropFilterWinograd) {
  std::mt19937 rng(envOr("CONVGEN_DIFF_SEED", 20261129) + 17);
  unsigned count = std::max(24u, envOr("CONVGEN_DIFF_COUNT", 500) / 12);
  std::vector<BackpropFilterCase> cases;
  while (cases.size() < count) {
    BackpropFilterSpec s;
    int64_t n = uniform(rng, 1, 3);
    s.elementType = ElementType::F32;
    s.attrs.layout =
        rng() % 3 ? DataLayout::ChannelsLast : DataLayout::ChannelsFirst;
    s.attrs.padding = static_cast<FilterPadding>(rng() % 3);
    Shape spatialIn;
    // A third of the 1-D and 2-D layers with 5 taps (F(5, 2)).
    int64_t taps = n <= 2 && rng() % 3 == 0 ? 5 : 3;
    for (int64_t d = 0; d < n; ++d) {
      int64_t dil = rng() % 3 == 0 ? uniform(rng, 2, 3) : 1;
      s.filterShape.push_back(taps);
      s.attrs.strides.push_back(1);
      s.attrs.dilations.push_back(dil);
      spatialIn.push_back(uniform(rng, (taps - 1) * dil + 1,
                                  (taps - 1) * dil + (n == 3 ? 5 : 12)));
      if (s.attrs.padding == FilterPadding::Explicit) {
        s.attrs.explicitPaddings.push_back(uniform(rng, 0, 3));
        s.attrs.explicitPaddings.push_back(uniform(rng, 0, 3));
      }
    }
    s.filterShape.push_back(rng() % 4 ? uniform(rng, 16, 40)
                                      : uniform(rng, 1, 8));
    s.filterShape.push_back(rng() % 4 ? uniform(rng, 16, 40)
                                      : uniform(rng, 1, 8));
    if (!setActivationShapes(s, uniform(rng, 1, 4), s.filterShape[n],
                             spatialIn))
      continue;
    auto g = computeBackpropFilterGeometry(s.attrs, s.inputShape, s.filterShape,
                                           s.outBackpropShape);
    if (!g)
      continue;
    cases.push_back(makeCase(std::move(s), rng));
  }
  CompileOptions options;
  options.winograd = "on";
  expectBackpropFilterAcrossThreads(cases, options, {1u, 2u, 3u}, "Winograd");
  // A 32 KiB L2: the 2-D and 3-D layers' points in reduction blocks of at
  // most 2 KiB of transformed operands (docs/Lowering.md §2.7), 4, 2 and 1
  // points an iteration of the forall (2, 5 and 9 threads): the same bits.
  CompileOptions blocks = options;
  blocks.l2CacheBytes = 32768;
  expectBackpropFilterAcrossThreads(cases, blocks, {1u, 2u, 5u, 9u},
                                    "Winograd blocks");
}

TEST(Differential, BackpropFilterDeterministicAcrossThreadCounts) {
  std::mt19937 rng(envOr("CONVGEN_DIFF_SEED", 20261129) + 2);
  Jit jit;
  constexpr unsigned kRandom = 20;
  unsigned total = kRandom + std::size(kSplitKShapes);
  for (unsigned i = 0; i < total; ++i) {
    // 20 random configurations, then the split-K shapes (f32).
    BackpropFilterSpec s = i < kRandom ? randomBackpropFilter(rng)
                                       : splitKSpec(kSplitKShapes[i - kRandom]);
    s.elementType = ElementType::F32;
    SCOPED_TRACE("config #" + std::to_string(i) + ": " + describe(s));
    auto x = randomBuffer(s.elementType, numElements(s.inputShape), rng);
    auto dy = randomBuffer(s.elementType, numElements(s.outBackpropShape), rng);
    std::vector<uint8_t> first;
    for (unsigned threads : {1u, 2u, 3u, 2u}) {
      CompileOptions options;
      options.numThreads = threads;
      options.minParallelFlops = 0; // small shapes: still threaded
      auto kernel = jit.compile(s, options);
      ASSERT_TRUE(static_cast<bool>(kernel))
          << llvm::toString(kernel.takeError());
      std::vector<uint8_t> got(numElements(s.filterShape) * 4, 0xff);
      ASSERT_FALSE(static_cast<bool>(
          (*kernel)->run({x.data(), dy.data(), got.data()})));
      if (first.empty())
        first = got;
      else
        EXPECT_EQ(got, first) << "threads=" << threads;
    }
  }
}

} // namespace
