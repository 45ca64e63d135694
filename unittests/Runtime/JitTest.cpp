//===- JitTest.cpp - JIT runtime against the reference --------------------===//

#include "conv/Runtime/Jit.h"
#include "conv/Conversion/ConvToLinalg/ConvToLinalg.h"
#include "conv/Reference/Reference.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <thread>

using namespace convgen;

namespace {

/// A typed buffer filled with values uniform in [-1, 1) rounded to `t`.
struct Buffer {
  ElementType type;
  size_t size;
  std::vector<char> bytes;
  Buffer(ElementType t, size_t n) : type(t), size(n), bytes(n * byteWidth(t)) {}
  void *data() { return bytes.data(); }
  std::vector<double> toDouble() const {
    std::vector<double> v(size);
    for (size_t i = 0; i < size; ++i)
      v[i] = loadAsDouble(type, bytes.data(), i);
    return v;
  }
};

Buffer randomBuffer(ElementType t, size_t n, unsigned seed) {
  Buffer b(t, n);
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> dist(-1.0, 1.0);
  for (size_t i = 0; i < n; ++i)
    storeFromDouble(t, b.data(), i, dist(rng));
  return b;
}

double tolerance(ElementType t) {
  switch (t) {
  case ElementType::F64:
    return 1e-10;
  case ElementType::F32:
    return 1e-4;
  default:
    return 2e-2;
  }
}

/// Runs a single-op kernel on random inputs and compares its result with
/// the f64 reference (max abs error relative to the largest magnitude).
void expectMatchesReference(const Kernel &kernel, unsigned seed = 1) {
  const SingleConvOp *op = kernel.singleConvOp();
  ASSERT_NE(op, nullptr);
  ASSERT_EQ(kernel.inputs().size(), 2u);
  ASSERT_EQ(kernel.outputs().size(), 1u);
  ElementType t = op->elementType;
  Buffer lhs = randomBuffer(t, kernel.inputs()[0].numElements(), seed);
  Buffer rhs = randomBuffer(t, kernel.inputs()[1].numElements(), seed + 7);
  Buffer out(t, kernel.outputs()[0].numElements());
  // Poison the output: the kernel must overwrite every element.
  std::fill(out.bytes.begin(), out.bytes.end(), char(0x7f));
  llvm::Error err = kernel.run({lhs.data(), rhs.data(), out.data()});
  ASSERT_FALSE(err) << llvm::toString(std::move(err));

  std::vector<double> a = lhs.toDouble(), b = rhs.toDouble();
  std::vector<double> ref(out.size);
  op->runReferenceF64(a.data(), b.data(), ref.data());
  std::vector<double> got = out.toDouble();
  double maxRef = 0, maxErr = 0;
  for (size_t i = 0; i < ref.size(); ++i) {
    maxRef = std::max(maxRef, std::fabs(ref[i]));
    double e = std::fabs(got[i] - ref[i]);
    if (!(e <= maxErr)) // also catches NaN
      maxErr = std::isnan(e) ? INFINITY : e;
  }
  EXPECT_LE(maxErr, tolerance(t) * std::max(maxRef, 1e-30))
      << "max |ref| = " << maxRef << "\n"
      << kernel.sourceModule();
}

BackpropFilterSpec backpropFilterSpec(ElementType t, DataLayout layout,
                                      Shape input, Shape filter, Shape strides,
                                      Shape dilations, FilterPadding padding,
                                      Shape explicitPaddings = {}) {
  BackpropFilterSpec spec;
  spec.elementType = t;
  spec.attrs.layout = layout;
  spec.attrs.strides = std::move(strides);
  spec.attrs.dilations = std::move(dilations);
  spec.attrs.padding = padding;
  spec.attrs.explicitPaddings = std::move(explicitPaddings);
  spec.inputShape = std::move(input);
  spec.filterShape = std::move(filter);
  auto dy =
      inferOutBackpropShape(spec.attrs, spec.inputShape, spec.filterShape);
  EXPECT_TRUE(dy.ok()) << dy.error();
  if (dy.ok())
    spec.outBackpropShape = *dy;
  return spec;
}

TransposeSpec transposeSpec(ElementType t, DataLayout layout, Shape input,
                            Shape kernel, Shape strides, Shape dilations,
                            TransposePadding padding,
                            std::optional<Shape> outputPadding = {}) {
  TransposeSpec spec;
  spec.elementType = t;
  spec.attrs.layout = layout;
  spec.attrs.strides = std::move(strides);
  spec.attrs.dilations = std::move(dilations);
  spec.attrs.padding = padding;
  spec.attrs.outputPadding = std::move(outputPadding);
  spec.inputShape = std::move(input);
  spec.kernelShape = std::move(kernel);
  return spec;
}

constexpr DataLayout Last = DataLayout::ChannelsLast;
constexpr DataLayout First = DataLayout::ChannelsFirst;

std::vector<BackpropFilterSpec> backpropFilterConfigs(ElementType t) {
  return {
      // The example: 3x3, stride 2, SAME, NHWC.
      backpropFilterSpec(t, Last, {2, 9, 9, 8}, {3, 3, 8, 16}, {2, 2}, {1, 1},
                         FilterPadding::Same),
      // NCHW, VALID, dilation 2, non-square.
      backpropFilterSpec(t, First, {2, 3, 10, 7}, {3, 2, 3, 4}, {1, 2}, {2, 1},
                         FilterPadding::Valid),
      // 1-D, EXPLICIT pads, grouped (Cin 6, groups 3).
      backpropFilterSpec(t, Last, {3, 11, 6}, {4, 2, 9}, {3}, {1},
                         FilterPadding::Explicit, {2, 1}),
      // 3-D NCDHW, SAME with stride and groups 2.
      backpropFilterSpec(t, First, {1, 4, 5, 6, 5}, {2, 3, 2, 2, 6}, {2, 1, 2},
                         {1, 1, 1}, FilterPadding::Same),
  };
}

std::vector<TransposeSpec> transposeConfigs(ElementType t) {
  return {
      // DCGAN-like example: 4x4 kernel, stride 2, same.
      transposeSpec(t, Last, {1, 4, 4, 16}, {4, 4, 8, 16}, {2, 2}, {1, 1},
                    TransposePadding::Same),
      // channels_first, valid, output_padding, odd kernel.
      transposeSpec(t, First, {2, 3, 5, 4}, {3, 3, 5, 3}, {2, 3}, {1, 1},
                    TransposePadding::Valid, Shape{1, 2}),
      // 1-D, stride 1, dilation 2.
      transposeSpec(t, Last, {2, 7, 3}, {3, 4, 3}, {1}, {2},
                    TransposePadding::Valid),
      // 3-D, same, stride 2 with dilation 2 (JAX semantics), op = 0.
      transposeSpec(t, Last, {1, 3, 4, 3, 2}, {2, 3, 2, 3, 2}, {2, 2, 1},
                    {2, 1, 2}, TransposePadding::Same, Shape{0, 1, 0}),
      // Few output channels, many terms per output: the input-channel
      // reduction split into 8 lanes (transpose_lanes), with a ci tail.
      // 1-D, Cout 1, Cin 150 (tail 6), 4 phases of 4 taps.
      transposeSpec(t, Last, {1, 5, 150}, {16, 1, 150}, {4}, {1},
                    TransposePadding::Valid),
      // 2-D, Cout 3, Cin 64, stride 1: one phase of 16 taps.
      transposeSpec(t, Last, {2, 12, 12, 64}, {4, 4, 3, 64}, {1, 1}, {1, 1},
                    TransposePadding::Same),
  };
}

class JitDTypeTest : public ::testing::TestWithParam<ElementType> {};

TEST_P(JitDTypeTest, BackpropFilterMatchesReference) {
  Jit jit;
  for (const BackpropFilterSpec &spec : backpropFilterConfigs(GetParam())) {
    auto kernel = jit.compile(spec);
    ASSERT_TRUE(bool(kernel)) << llvm::toString(kernel.takeError());
    EXPECT_EQ((*kernel)->outputs()[0].shape, spec.filterShape);
    EXPECT_EQ((*kernel)->outputs()[0].elementType, GetParam());
    expectMatchesReference(**kernel);
  }
}

TEST_P(JitDTypeTest, TransposeMatchesReference) {
  Jit jit;
  for (const TransposeSpec &spec : transposeConfigs(GetParam())) {
    auto kernel = jit.compile(spec);
    ASSERT_TRUE(bool(kernel)) << llvm::toString(kernel.takeError());
    auto g =
        computeTransposeGeometry(spec.attrs, spec.inputShape, spec.kernelShape);
    ASSERT_TRUE(g.ok());
    EXPECT_EQ((*kernel)->outputs()[0].shape, g->outputShape());
    expectMatchesReference(**kernel);
  }
}

INSTANTIATE_TEST_SUITE_P(AllTypes, JitDTypeTest,
                         ::testing::Values(ElementType::F16, ElementType::BF16,
                                           ElementType::F32, ElementType::F64),
                         [](const auto &info) {
                           return std::string(stringify(info.param));
                         });

TEST(JitTest, ZeroInsertionTransposeMatchesReference) {
  Jit jit;
  CompileOptions options;
  options.zeroInsertionTranspose = true;
  for (const TransposeSpec &spec : transposeConfigs(ElementType::F32)) {
    auto kernel = jit.compile(spec, options);
    ASSERT_TRUE(bool(kernel)) << llvm::toString(kernel.takeError());
    expectMatchesReference(**kernel);
  }
}

TEST(JitTest, SpecGoldenValues) {
  // Spec §3.3: input 1..6 as [1,2,3,1], out_backprop [1,2] as [1,1,2,1],
  // 2x2 filter, stride 2, SAME -> 7, 2, 16, 5.
  Jit jit;
  BackpropFilterSpec spec =
      backpropFilterSpec(ElementType::F32, Last, {1, 2, 3, 1}, {2, 2, 1, 1},
                         {2, 2}, {1, 1}, FilterPadding::Same);
  ASSERT_EQ(spec.outBackpropShape, (Shape{1, 1, 2, 1}));
  auto kernel = jit.compile(spec);
  ASSERT_TRUE(bool(kernel)) << llvm::toString(kernel.takeError());
  float x[] = {1, 2, 3, 4, 5, 6}, dy[] = {1, 2}, dw[4] = {};
  ASSERT_FALSE(bool((*kernel)->run({x, dy, dw})));
  EXPECT_EQ(std::vector<float>(dw, dw + 4), (std::vector<float>{7, 2, 16, 5}));

  // Keras: x = [1, 2, 3], k = [1, 10, 100], stride 2, same, op = 0.
  TransposeSpec t = transposeSpec(ElementType::F64, Last, {1, 3, 1}, {3, 1, 1},
                                  {2}, {1}, TransposePadding::Same, Shape{0});
  auto tk = jit.compile(t);
  ASSERT_TRUE(bool(tk)) << llvm::toString(tk.takeError());
  ASSERT_EQ((*tk)->outputs()[0].shape, (Shape{1, 5, 1}));
  double tx[] = {1, 2, 3}, kk[] = {1, 10, 100}, y[5] = {};
  ASSERT_FALSE(bool((*tk)->run({tx, kk, y})));
  EXPECT_EQ(std::vector<double>(y, y + 5),
            (std::vector<double>{10, 102, 20, 203, 30}));
}

TEST(JitTest, InvalidSpecReportsVerifierMessage) {
  Jit jit;
  // out_backprop of the wrong spatial size.
  BackpropFilterSpec spec =
      backpropFilterSpec(ElementType::F32, Last, {1, 8, 8, 3}, {3, 3, 3, 4},
                         {2, 2}, {1, 1}, FilterPadding::Valid);
  spec.outBackpropShape = {1, 4, 3, 4};
  auto expected = computeBackpropFilterGeometry(
      spec.attrs, spec.inputShape, spec.filterShape, spec.outBackpropShape);
  ASSERT_FALSE(expected.ok());
  auto kernel = jit.compile(spec);
  ASSERT_FALSE(bool(kernel));
  std::string message = llvm::toString(kernel.takeError());
  EXPECT_NE(message.find("'conv.backprop_filter' op"), std::string::npos)
      << message;
  EXPECT_NE(message.find(expected.error()), std::string::npos) << message;
  // Failures are not cached.
  EXPECT_EQ(jit.cacheSize(), 0u);

  auto text = Jit::buildModule(spec);
  ASSERT_FALSE(bool(text));
  EXPECT_NE(llvm::toString(text.takeError()).find(expected.error()),
            std::string::npos);

  // output_padding must be smaller than the stride.
  TransposeSpec t =
      transposeSpec(ElementType::F32, Last, {1, 4, 4, 3}, {3, 3, 5, 3}, {2, 2},
                    {1, 1}, TransposePadding::Valid, Shape{2, 0});
  auto tExpected =
      computeTransposeGeometry(t.attrs, t.inputShape, t.kernelShape);
  ASSERT_FALSE(tExpected.ok());
  auto tk = jit.compile(t);
  ASSERT_FALSE(bool(tk));
  message = llvm::toString(tk.takeError());
  EXPECT_NE(message.find("'conv.transpose' op " + tExpected.error()),
            std::string::npos)
      << message;

  // A data_format naming another rank is the verifier's rank error.
  BackpropFilterSpec rank = backpropFilterSpec(
      ElementType::F32, Last, {1, 4, 4, 4, 3}, {1, 1, 1, 3, 2}, {1, 1, 1},
      {1, 1, 1}, FilterPadding::Valid);
  rank.dataFormatSpatialDims = 2;
  auto rk = jit.compile(rank);
  ASSERT_FALSE(bool(rk));
  message = llvm::toString(rk.takeError());
  EXPECT_NE(message.find("NHWC requires rank-4 operands"), std::string::npos)
      << message;

  // Negative sizes cannot be expressed as tensor types.
  BackpropFilterSpec negative = spec;
  negative.inputShape[1] = -8;
  auto nk = jit.compile(negative);
  ASSERT_FALSE(bool(nk));
  EXPECT_NE(llvm::toString(nk.takeError()).find("negative size"),
            std::string::npos);
  EXPECT_EQ(jit.cacheSize(), 0u);
}

TEST(JitTest, CacheHit) {
  Jit jit;
  BackpropFilterSpec spec = backpropFilterConfigs(ElementType::F32)[0];
  auto first = jit.compile(spec);
  ASSERT_TRUE(bool(first)) << llvm::toString(first.takeError());
  EXPECT_GT((*first)->compileSeconds(), 0.0);
  EXPECT_EQ(jit.numCompiles(), 1u);
  EXPECT_EQ(jit.cacheSize(), 1u);
  auto second = jit.compile(spec);
  ASSERT_TRUE(bool(second));
  EXPECT_EQ(first->get(), second->get());
  EXPECT_EQ(jit.numCompiles(), 1u);
  EXPECT_EQ(jit.cacheSize(), 1u);

  // Other options or another element type are other kernels.
  CompileOptions options;
  options.zeroInsertionTranspose = true;
  auto third = jit.compile(spec, options);
  ASSERT_TRUE(bool(third));
  EXPECT_NE(first->get(), third->get());
  spec.elementType = ElementType::F64;
  auto fourth = jit.compile(spec);
  ASSERT_TRUE(bool(fourth));
  EXPECT_EQ(jit.numCompiles(), 3u);
  EXPECT_EQ(jit.cacheSize(), 3u);

  // Cleared cache: kernels stay usable, the next compile is a new one.
  std::shared_ptr<const Kernel> kept = *first;
  jit.clearCache();
  EXPECT_EQ(jit.cacheSize(), 0u);
  expectMatchesReference(*kept);
  spec.elementType = ElementType::F32;
  auto again = jit.compile(spec);
  ASSERT_TRUE(bool(again));
  EXPECT_EQ(jit.numCompiles(), 4u);
}

// Kernels of fewer useful FLOPs per call than
// CompileOptions::minParallelFlops (default 4e6) run sequential code
// whatever numThreads says; 0 restores the threads, as does a kernel above
// the threshold. Results match the reference either way.
TEST(JitTest, TinyKernelsRunSequentially) {
  Jit jit;
  // 2 x 4 x 4 x 16 -> 8 channels, 4x4 stride 2: 131072 useful FLOPs.
  TransposeSpec tiny = transposeConfigs(ElementType::F32)[0];
  tiny.inputShape = {2, 4, 4, 16};
  // 8 x 32 x 32 x 64 -> 64 channels, 3x3 stride 2: 302 MFLOP.
  TransposeSpec large =
      transposeSpec(ElementType::F32, Last, {8, 32, 32, 64}, {3, 3, 64, 64},
                    {2, 2}, {1, 1}, TransposePadding::Same);
  CompileOptions two;
  two.numThreads = 2;
  auto big = jit.compile(large, two);
  ASSERT_TRUE(bool(big)) << llvm::toString(big.takeError());
  if ((*big)->threads() == 1)
    GTEST_SKIP() << "built without an OpenMP runtime: every kernel is "
                    "sequential";
  EXPECT_EQ((*big)->threads(), 2u);
  EXPECT_GT((*big)->singleConvOp()->flops(), two.minParallelFlops);

  auto sequential = jit.compile(tiny, two);
  ASSERT_TRUE(bool(sequential)) << llvm::toString(sequential.takeError());
  EXPECT_LT((*sequential)->singleConvOp()->flops(), two.minParallelFlops);
  EXPECT_EQ((*sequential)->threads(), 1u);
  expectMatchesReference(**sequential);

  CompileOptions always = two;
  always.minParallelFlops = 0;
  auto threaded = jit.compile(tiny, always);
  ASSERT_TRUE(bool(threaded)) << llvm::toString(threaded.takeError());
  EXPECT_NE(sequential->get(), threaded->get());
  EXPECT_EQ((*threaded)->threads(), 2u);
  expectMatchesReference(**threaded);

  CompileOptions one;
  one.numThreads = 1;
  one.minParallelFlops = 0;
  auto single = jit.compile(large, one);
  ASSERT_TRUE(bool(single));
  EXPECT_EQ((*single)->threads(), 1u);
}

// A single 1-D item of the columns lowering runs in row parts on several
// threads (docs/Lowering.md §3.6): each part computes its GEMM rows and the
// overlapping rows before them and adds them, round by round, into its own
// outputs only. Every output gets its rows in the order one thread adds
// them: the same bits for 1, 2 and 4 threads.
TEST(JitTest, TransposeRowPartsGiveTheSameBitsForAnyThreadCount) {
  Jit jit;
  std::vector<TransposeSpec> specs = {
      // (12 input channels: not a multiple of the lanes, so not the dot
      // lowering of docs/Lowering.md §3.11.)
      // masknet-like: k 7, s 2, 3 channels, output_padding 1 (G = 4).
      transposeSpec(ElementType::F32, Last, {1, 32, 12}, {7, 3, 12}, {2}, {1},
                    TransposePadding::Valid, Shape{1}),
      // k = s: rows do not overlap (G = 1, no halo rows).
      transposeSpec(ElementType::F32, Last, {1, 32, 12}, {4, 4, 12}, {4}, {1},
                    TransposePadding::Valid),
      // Stride 1: G = 5 rounds.
      transposeSpec(ElementType::F32, Last, {1, 40, 12}, {5, 4, 12}, {1}, {1},
                    TransposePadding::Valid),
      // k 5, s 2 (G = 3), output_padding 1, parts of 2 x G rows on 4
      // threads.
      transposeSpec(ElementType::F32, Last, {1, 24, 12}, {5, 4, 12}, {2}, {1},
                    TransposePadding::Valid, Shape{1}),
  };
  for (const TransposeSpec &spec : specs) {
    auto g =
        computeTransposeGeometry(spec.attrs, spec.inputShape, spec.kernelShape);
    ASSERT_TRUE(g.ok()) << g.error();
    std::vector<uint8_t> first;
    for (unsigned threads : {1u, 2u, 4u}) {
      // The lowering takes row parts for these shapes (the test would not
      // test them otherwise).
      EXPECT_EQ(mlir::conv::transposeRowParts(*g, threads),
                threads == 1 ? 0 : int64_t(threads));
      CompileOptions options;
      options.numThreads = threads;
      options.minParallelFlops = 0;
      auto kernel = jit.compile(spec, options);
      ASSERT_TRUE(bool(kernel)) << llvm::toString(kernel.takeError());
      if (threads > 1 && (*kernel)->threads() == 1)
        GTEST_SKIP() << "built without an OpenMP runtime";
      expectMatchesReference(**kernel);
      Buffer x = randomBuffer(ElementType::F32,
                              (*kernel)->inputs()[0].numElements(), 11);
      Buffer k = randomBuffer(ElementType::F32,
                              (*kernel)->inputs()[1].numElements(), 12);
      Buffer y(ElementType::F32, (*kernel)->outputs()[0].numElements());
      llvm::Error error = (*kernel)->run({x.data(), k.data(), y.data()});
      ASSERT_FALSE(error) << llvm::toString(std::move(error));
      std::vector<uint8_t> bits(y.bytes.begin(), y.bytes.end());
      if (threads == 1)
        first = bits;
      else
        EXPECT_EQ(bits, first) << threads << " threads, input "
                               << spec.inputShape[1] << " x "
                               << spec.inputShape[2];
    }
  }
}

// Non-temporal stores (conv-cpu-streaming-stores, on AVX-512 hosts; here
// for every result size) write a result only where its tile's first row is
// 64-byte aligned, and ordinary stores elsewhere: the caller's result
// buffer at any alignment gets the bits of the kernel without them, on 1
// and 2 threads. (On other hosts the pass changes nothing and the test
// compares two identical kernels.)
TEST(JitTest, StreamingStoresGiveTheSameBitsAtAnyResultAlignment) {
  Jit jit;
  // Runs `spec` with and without streaming stores, the streaming kernel's
  // result at offsets 0, 4, ..., 60 of a 64-byte line.
  auto check = [&](const auto &spec, llvm::StringRef name,
                   CompileOptions base = {}) {
    for (unsigned threads : {1u, 2u}) {
      CompileOptions streaming = base, plain = base;
      streaming.numThreads = plain.numThreads = threads;
      streaming.minParallelFlops = plain.minParallelFlops = 0;
      streaming.streamingStoresMinBytes = 0;
      plain.streamingStores = false;
      auto a = jit.compile(spec, streaming);
      ASSERT_TRUE(bool(a)) << llvm::toString(a.takeError());
      auto b = jit.compile(spec, plain);
      ASSERT_TRUE(bool(b)) << llvm::toString(b.takeError());
      expectMatchesReference(**a);
      Buffer x =
          randomBuffer(ElementType::F32, (*a)->inputs()[0].numElements(), 21);
      Buffer k =
          randomBuffer(ElementType::F32, (*a)->inputs()[1].numElements(), 22);
      size_t bytes = (*a)->outputs()[0].numElements() * sizeof(float);
      Buffer expected(ElementType::F32, (*b)->outputs()[0].numElements());
      llvm::Error error = (*b)->run({x.data(), k.data(), expected.data()});
      ASSERT_FALSE(error) << llvm::toString(std::move(error));
      std::vector<char> storage(bytes + 128);
      char *aligned = reinterpret_cast<char *>(
          (reinterpret_cast<uintptr_t>(storage.data()) + 63) & ~uintptr_t(63));
      for (size_t offset = 0; offset < 64; offset += 4) {
        char *y = aligned + offset;
        std::fill(y, y + bytes, char(0x7f));
        error = (*a)->run({x.data(), k.data(), y});
        ASSERT_FALSE(error) << llvm::toString(std::move(error));
        EXPECT_EQ(std::memcmp(y, expected.data(), bytes), 0)
            << name.str() << ", " << threads << " threads, result at 64k + "
            << offset;
      }
    }
  };
  // U-Net's 2x2 stride-2 up-convolution (one tap per phase).
  check(transposeSpec(ElementType::F32, Last, {1, 12, 12, 32}, {2, 2, 64, 32},
                      {2, 2}, {1, 1}, TransposePadding::Valid),
        "2x2 s2 transpose");
  // 3x3 stride 2, SAME.
  check(transposeSpec(ElementType::F32, Last, {2, 6, 6, 16}, {3, 3, 32, 16},
                      {2, 2}, {1, 1}, TransposePadding::Same),
        "3x3 s2 SAME transpose");
  // DCGAN's 4x4 s2 SAME with Winograd phases (half of the outputs stored
  // from the output transform, half copied in from a scratch).
  CompileOptions winograd;
  winograd.winograd = "on";
  check(transposeSpec(ElementType::F32, Last, {2, 8, 8, 64}, {4, 4, 64, 64},
                      {2, 2}, {1, 1}, TransposePadding::Same),
        "Winograd 4x4 s2 transpose", winograd);
  // A filter gradient whose dW its tiles write once (vector.store rows of
  // the 2-thread partial dWs' sum).
  check(backpropFilterSpec(ElementType::F32, Last, {1, 12, 16, 64},
                           {3, 3, 64, 64}, {1, 1}, {2, 2},
                           FilterPadding::Explicit, {2, 2, 2, 2}),
        "dilated 3x3 filter gradient");
}

// Such kernels go parallel from a quarter of CompileOptions::minParallelFlops
// (one fork per call, no rows shared between the threads), and so do those
// of the dot lowering (docs/Lowering.md §3.11: one fork per call, items x
// tile ranges); other tiny kernels stay sequential.
TEST(JitTest, TransposeRowPartsGoParallelFromAQuarterOfMinParallelFlops) {
  Jit jit;
  // masknet (the suite's mk1) with 60 input channels (not a multiple of
  // the lanes: the columns lowering in row parts): 1.29 MFLOP.
  TransposeSpec masknet =
      transposeSpec(ElementType::F32, Last, {1, 512, 60}, {7, 3, 60}, {2}, {1},
                    TransposePadding::Valid, Shape{1});
  // The same FLOPs in 2 items of half the rows: the items' scf.forall.
  TransposeSpec items = masknet;
  items.inputShape = {2, 256, 60};
  CompileOptions two;
  two.numThreads = 2;
  auto parts = jit.compile(masknet, two);
  ASSERT_TRUE(bool(parts)) << llvm::toString(parts.takeError());
  if ((*parts)->threads() == 1)
    GTEST_SKIP() << "built without an OpenMP runtime";
  double flops = (*parts)->singleConvOp()->flops();
  EXPECT_LT(flops, two.minParallelFlops);
  EXPECT_GE(flops, two.minParallelFlops / 4);
  EXPECT_EQ((*parts)->threads(), 2u);
  expectMatchesReference(**parts);
  auto sequential = jit.compile(items, two);
  ASSERT_TRUE(bool(sequential)) << llvm::toString(sequential.takeError());
  EXPECT_EQ((*sequential)->singleConvOp()->flops(), flops);
  EXPECT_EQ((*sequential)->threads(), 1u);
  expectMatchesReference(**sequential);
  // Channels first: the optimized pipeline lowers it channels last, in row
  // parts too.
  TransposeSpec first =
      transposeSpec(ElementType::F32, First, {1, 60, 512}, {7, 3, 60}, {2}, {1},
                    TransposePadding::Valid, Shape{1});
  auto firstParts = jit.compile(first, two);
  ASSERT_TRUE(bool(firstParts)) << llvm::toString(firstParts.takeError());
  EXPECT_EQ((*firstParts)->threads(), 2u);
  expectMatchesReference(**firstParts);
  // The dot lowering: the real masknet (64 channels), in 1 item or 2 of
  // half the rows, goes parallel too; in bf16 (no dot lowering, items) it
  // stays sequential.
  for (Shape input : {Shape{1, 512, 64}, Shape{2, 256, 64}}) {
    TransposeSpec dot = masknet;
    dot.inputShape = input;
    dot.kernelShape = {7, 3, 64};
    auto kernel = jit.compile(dot, two);
    ASSERT_TRUE(bool(kernel)) << llvm::toString(kernel.takeError());
    EXPECT_LT((*kernel)->singleConvOp()->flops(), two.minParallelFlops);
    EXPECT_EQ((*kernel)->threads(), 2u) << input[0] << " items";
    expectMatchesReference(**kernel);
  }
  TransposeSpec bf16 = masknet;
  bf16.elementType = ElementType::BF16;
  bf16.inputShape = {2, 256, 64};
  bf16.kernelShape = {7, 3, 64};
  auto sequentialBF16 = jit.compile(bf16, two);
  ASSERT_TRUE(bool(sequentialBF16))
      << llvm::toString(sequentialBF16.takeError());
  EXPECT_EQ((*sequentialBF16)->threads(), 1u);
}

// The LLVM module of a large kernel is optimized and compiled in parts on
// CompileOptions::compileThreads threads (ObjectCode.h): a sequential
// kernel's loop nests become functions of their own, a multi-threaded
// kernel's OpenMP bodies go to different parts. The parts link into the
// same kernel: the results are the same bits as from one part.
TEST(JitTest, CompileThreadsSplitTheCodeNotTheResults) {
  Jit jit;
  // Keras' 5x5 stride-2 "same" up-sampling layer (kv3) with one image.
  TransposeSpec spec =
      transposeSpec(ElementType::F32, Last, {1, 14, 14, 256},
                    {5, 5, 128, 256}, {2, 2}, {1, 1}, TransposePadding::Same,
                    Shape{0, 0});
  for (unsigned threads : {1u, 2u}) {
    CompileOptions whole, parts;
    whole.numThreads = parts.numThreads = threads;
    whole.compileThreads = 1;
    parts.compileThreads = 2;
    auto one = jit.compile(spec, whole);
    ASSERT_TRUE(bool(one)) << llvm::toString(one.takeError());
    auto two = jit.compile(spec, parts);
    ASSERT_TRUE(bool(two)) << llvm::toString(two.takeError());
    EXPECT_EQ((*one)->codeParts(), 1u);
    EXPECT_EQ((*two)->codeParts(), 2u) << threads << " thread(s)";
    Buffer x = randomBuffer(ElementType::F32,
                            (*one)->inputs()[0].numElements(), 3);
    Buffer k = randomBuffer(ElementType::F32,
                            (*one)->inputs()[1].numElements(), 4);
    Buffer a(ElementType::F32, (*one)->outputs()[0].numElements());
    Buffer b(ElementType::F32, a.size);
    llvm::Error error = (*one)->run({x.data(), k.data(), a.data()});
    ASSERT_FALSE(error) << llvm::toString(std::move(error));
    error = (*two)->run({x.data(), k.data(), b.data()});
    ASSERT_FALSE(error) << llvm::toString(std::move(error));
    EXPECT_EQ(a.bytes, b.bytes) << threads << " thread(s)";
    expectMatchesReference(**two);
  }
}

TEST(JitTest, ConcurrentCompilesOfOneSpecCompileOnce) {
  Jit jit;
  TransposeSpec spec = transposeConfigs(ElementType::F32)[0];
  std::vector<std::shared_ptr<const Kernel>> kernels(4);
  std::vector<std::string> errors(4);
  std::vector<std::thread> threads;
  for (int i = 0; i < 4; ++i)
    threads.emplace_back([&, i] {
      auto kernel = jit.compile(spec);
      if (kernel)
        kernels[i] = *kernel;
      else
        errors[i] = llvm::toString(kernel.takeError());
    });
  for (std::thread &t : threads)
    t.join();
  for (int i = 0; i < 4; ++i) {
    ASSERT_TRUE(kernels[i]) << errors[i];
    EXPECT_EQ(kernels[i], kernels[0]);
  }
  EXPECT_EQ(jit.numCompiles(), 1u);
  EXPECT_EQ(jit.cacheSize(), 1u);
  expectMatchesReference(*kernels[0]);
}

TEST(JitTest, ConcurrentCompilesOfDifferentSpecs) {
  Jit jit;
  std::vector<BackpropFilterSpec> specs =
      backpropFilterConfigs(ElementType::F32);
  std::vector<std::shared_ptr<const Kernel>> kernels(specs.size());
  std::vector<std::thread> threads;
  for (size_t i = 0; i < specs.size(); ++i)
    threads.emplace_back([&, i] {
      auto kernel = jit.compile(specs[i]);
      if (kernel)
        kernels[i] = *kernel;
      else
        llvm::consumeError(kernel.takeError());
    });
  for (std::thread &t : threads)
    t.join();
  EXPECT_EQ(jit.numCompiles(), specs.size());
  for (auto &kernel : kernels) {
    ASSERT_TRUE(kernel);
    expectMatchesReference(*kernel);
  }
}

constexpr const char *kTwoOpModule = R"mlir(
func.func @two(%x: tensor<2x9x9x8xf32>, %dy: tensor<2x5x5x16xf32>,
               %t: tensor<1x4x4x16xf32>, %k: tensor<4x4x8x16xf32>)
    -> (tensor<3x3x8x16xf32>, tensor<1x8x8x8xf32>) {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = SAME
          strides = [2, 2] dilations = [1, 1]
          : tensor<2x9x9x8xf32>, tensor<2x5x5x16xf32> -> tensor<3x3x8x16xf32>
  %y = conv.transpose %t, %k data_format = channels_last padding = same
         strides = [2, 2] dilation_rate = [1, 1]
         : tensor<1x4x4x16xf32>, tensor<4x4x8x16xf32> -> tensor<1x8x8x8xf32>
  return %dw, %y : tensor<3x3x8x16xf32>, tensor<1x8x8x8xf32>
}

func.func @single(%x: tensor<2x9x9x8xf32>, %dy: tensor<2x5x5x16xf32>)
    -> tensor<3x3x8x16xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = SAME
          strides = [2, 2] dilations = [1, 1]
          : tensor<2x9x9x8xf32>, tensor<2x5x5x16xf32> -> tensor<3x3x8x16xf32>
  return %dw : tensor<3x3x8x16xf32>
}
)mlir";

TEST(JitTest, CompileModuleWithTwoOps) {
  Jit jit;
  auto kernel = jit.compileModule(kTwoOpModule, "two");
  ASSERT_TRUE(bool(kernel)) << llvm::toString(kernel.takeError());
  const Kernel &k = **kernel;
  ASSERT_EQ(k.inputs().size(), 4u);
  ASSERT_EQ(k.outputs().size(), 2u);
  EXPECT_EQ(k.inputs()[2].shape, (Shape{1, 4, 4, 16}));
  EXPECT_EQ(k.outputs()[0].shape, (Shape{3, 3, 8, 16}));
  EXPECT_EQ(k.outputs()[1].shape, (Shape{1, 8, 8, 8}));
  EXPECT_EQ(k.outputs()[1].elementType, ElementType::F32);
  EXPECT_EQ(k.singleConvOp(), nullptr);
  EXPECT_EQ(k.sourceModule(), kTwoOpModule);

  std::vector<Buffer> ins;
  for (size_t i = 0; i < 4; ++i)
    ins.push_back(randomBuffer(ElementType::F64, k.inputs()[i].numElements(),
                               unsigned(i + 3)));
  std::vector<std::vector<float>> f32(4), outs(2);
  for (size_t i = 0; i < 4; ++i)
    for (double v : ins[i].toDouble())
      f32[i].push_back(static_cast<float>(v));
  outs[0].resize(k.outputs()[0].numElements());
  outs[1].resize(k.outputs()[1].numElements());
  ASSERT_FALSE(bool(k.run({f32[0].data(), f32[1].data(), f32[2].data(),
                           f32[3].data(), outs[0].data(), outs[1].data()})));

  // Compare each result with the reference of the same op alone.
  auto single = jit.compileModule(kTwoOpModule, "single");
  ASSERT_TRUE(bool(single)) << llvm::toString(single.takeError());
  const SingleConvOp *op = (*single)->singleConvOp();
  ASSERT_NE(op, nullptr);
  EXPECT_EQ(op->kind, SingleConvOp::Kind::BackpropFilter);
  EXPECT_DOUBLE_EQ(op->flops(), 2.0 * 16 * 8 * 9 * 2 * 25);
  std::vector<float> dw(outs[0].size());
  op->runReference({f32[0].data(), f32[1].data(), dw.data()});
  for (size_t i = 0; i < dw.size(); ++i)
    ASSERT_NEAR(outs[0][i], dw[i], 1e-4) << i;

  TransposeSpec t = transposeConfigs(ElementType::F32)[0];
  auto g = computeTransposeGeometry(t.attrs, t.inputShape, t.kernelShape);
  ASSERT_TRUE(g.ok());
  std::vector<float> y(outs[1].size());
  referenceTranspose(*g, ElementType::F32, f32[2].data(), f32[3].data(),
                     y.data());
  for (size_t i = 0; i < y.size(); ++i)
    ASSERT_NEAR(outs[1][i], y[i], 1e-4) << i;

  // Cached by text and entry.
  auto again = jit.compileModule(kTwoOpModule, "two");
  ASSERT_TRUE(bool(again));
  EXPECT_EQ(again->get(), kernel->get());
  EXPECT_EQ(jit.numCompiles(), 2u);
}

TEST(JitTest, CompileModuleErrors) {
  Jit jit;
  auto missing = jit.compileModule(kTwoOpModule, "nope");
  ASSERT_FALSE(bool(missing));
  EXPECT_NE(llvm::toString(missing.takeError()).find("@nope"),
            std::string::npos);

  auto parse = jit.compileModule("func.func @f(%x: tensor<2xf32>) {", "f");
  ASSERT_FALSE(bool(parse));
  EXPECT_NE(llvm::toString(parse.takeError()).find("error:"),
            std::string::npos);

  const char *invalid = R"mlir(
func.func @f(%x: tensor<1x8x8x3xf32>, %dy: tensor<1x4x3x4xf32>)
    -> tensor<3x3x3x4xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = VALID
          strides = [2, 2] dilations = [1, 1]
          : tensor<1x8x8x3xf32>, tensor<1x4x3x4xf32> -> tensor<3x3x3x4xf32>
  return %dw : tensor<3x3x3x4xf32>
})mlir";
  auto bad = jit.compileModule(invalid, "f");
  ASSERT_FALSE(bool(bad));
  std::string message = llvm::toString(bad.takeError());
  EXPECT_NE(message.find("module:4:"), std::string::npos) << message;
  EXPECT_NE(message.find("error: 'conv.backprop_filter' op"), std::string::npos)
      << message;

  const char *dynamic = R"mlir(
func.func @f(%x: tensor<?xf32>) -> tensor<?xf32> {
  return %x : tensor<?xf32>
})mlir";
  auto dyn = jit.compileModule(dynamic, "f");
  ASSERT_FALSE(bool(dyn));
  EXPECT_NE(llvm::toString(dyn.takeError()).find("static shapes"),
            std::string::npos);

  // An unknown tune CPU fails the compile with its name (LLVM would
  // otherwise only warn on stderr and fall back to the generic model).
  CompileOptions tuned;
  tuned.tuneCpu = "no-such-core";
  auto untuned = jit.compileModule(kTwoOpModule, "two", tuned);
  ASSERT_FALSE(bool(untuned));
  EXPECT_NE(llvm::toString(untuned.takeError())
                .find("tune-cpu: 'no-such-core' is not a CPU LLVM knows"),
            std::string::npos);
  EXPECT_EQ(jit.cacheSize(), 0u);
}

TEST(JitTest, InputsAreNotWritten) {
  // Returning an argument copies it into the out-param; the argument
  // buffers are read-only for the kernel.
  const char *text = R"mlir(
func.func @f(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %c = arith.constant dense<1.0> : tensor<4xf32>
  %y = linalg.add ins(%x, %c : tensor<4xf32>, tensor<4xf32>)
                  outs(%x : tensor<4xf32>) -> tensor<4xf32>
  return %x, %y : tensor<4xf32>, tensor<4xf32>
})mlir";
  Jit jit;
  auto kernel = jit.compileModule(text, "f");
  ASSERT_TRUE(bool(kernel)) << llvm::toString(kernel.takeError());
  float x[] = {1, 2, 3, 4}, a[4] = {}, b[4] = {};
  ASSERT_FALSE(bool((*kernel)->run({x, a, b})));
  EXPECT_EQ(std::vector<float>(x, x + 4), (std::vector<float>{1, 2, 3, 4}));
  EXPECT_EQ(std::vector<float>(a, a + 4), (std::vector<float>{1, 2, 3, 4}));
  EXPECT_EQ(std::vector<float>(b, b + 4), (std::vector<float>{2, 3, 4, 5}));
}

TEST(JitTest, RunChecksBuffers) {
  Jit jit;
  auto kernel = jit.compile(backpropFilterConfigs(ElementType::F32)[0]);
  ASSERT_TRUE(bool(kernel)) << llvm::toString(kernel.takeError());
  float dummy = 0;
  llvm::Error err = (*kernel)->run({&dummy, &dummy});
  ASSERT_TRUE(bool(err));
  EXPECT_NE(llvm::toString(std::move(err)).find("expects 3 buffers"),
            std::string::npos);
  err = (*kernel)->run({&dummy, nullptr, &dummy});
  ASSERT_TRUE(bool(err));
  EXPECT_NE(llvm::toString(std::move(err)).find("buffer 1 is null"),
            std::string::npos);
}

TEST(JitTest, BuildModuleText) {
  auto text = Jit::buildModule(backpropFilterSpec(
      ElementType::BF16, First, {1, 3, 4, 4}, {1, 1, 3, 2}, {1, 1}, {1, 1},
      FilterPadding::Explicit, {0, 0, 1, 1}));
  ASSERT_TRUE(bool(text)) << llvm::toString(text.takeError());
  EXPECT_NE(text->find("func.func @kernel(%arg0: tensor<1x3x4x4xbf16>, "
                       "%arg1: tensor<1x2x4x6xbf16>) -> tensor<1x1x3x2xbf16>"),
            std::string::npos)
      << *text;
  EXPECT_NE(text->find("data_format = NCHW padding = EXPLICIT "
                       "explicit_paddings = [0, 0, 1, 1]"),
            std::string::npos)
      << *text;
  EXPECT_EQ(CompileOptions().str(),
            "zero-insertion-transpose=0 transpose-per-tap=auto optimize=1 "
            "register-tile-rows=0 register-tile-vectors=0 reduction-chunk=0 "
            "l1-cache-bytes=0 l2-cache-bytes=0 l3-cache-bytes=0 bf16-dot=auto "
            "dw-tap-rows=auto prefetch=1 streaming-stores=1 "
            "streaming-stores-min-bytes=-1 direct-rows=1 dw-tap-planes=1 "
            "winograd=auto "
            "num-threads=0 "
            "min-parallel-flops=4e+06 compile-threads=0 tune-cpu=auto");
  // Every option is part of the cache key.
  CompileOptions plain;
  plain.optimize = false;
  EXPECT_NE(plain.str(), CompileOptions().str());
  CompileOptions noDot;
  noDot.bf16Dot = "off";
  EXPECT_NE(noDot.str(), CompileOptions().str());
  CompileOptions noTapRows;
  noTapRows.dwTapRows = "off";
  EXPECT_NE(noTapRows.str(), CompileOptions().str());
  CompileOptions noPrefetch;
  noPrefetch.prefetch = false;
  EXPECT_NE(noPrefetch.str(), CompileOptions().str());
  CompileOptions packedRows;
  packedRows.directRows = false;
  EXPECT_NE(packedRows.str(), CompileOptions().str());
  CompileOptions noTapPlanes;
  noTapPlanes.dwTapPlanes = false;
  EXPECT_NE(noTapPlanes.str(), CompileOptions().str());
  CompileOptions noStreaming;
  noStreaming.streamingStores = false;
  EXPECT_NE(noStreaming.str(), CompileOptions().str());
  CompileOptions allStreaming;
  allStreaming.streamingStoresMinBytes = 0;
  EXPECT_NE(allStreaming.str(), CompileOptions().str());
}

TEST(JitTest, RejectsAnUnknownBF16DotValue) {
  CompileOptions options;
  options.bf16Dot = "maybe";
  TransposeSpec spec;
  spec.elementType = ElementType::BF16;
  spec.attrs.strides = {1};
  spec.attrs.dilations = {1};
  spec.inputShape = {1, 4, 2};
  spec.kernelShape = {2, 16, 2};
  auto kernel = Jit().compile(spec, options);
  ASSERT_FALSE(static_cast<bool>(kernel));
  EXPECT_NE(llvm::toString(kernel.takeError())
                .find("bf16-dot must be auto, on or off, not 'maybe'"),
            std::string::npos);
}

TEST(JitTest, RejectsAnUnknownDwTapRowsValue) {
  CompileOptions options;
  options.dwTapRows = "always";
  BackpropFilterSpec spec;
  spec.attrs.strides = {1};
  spec.attrs.dilations = {1};
  spec.inputShape = {1, 4, 2};
  spec.filterShape = {2, 2, 2};
  spec.outBackpropShape = {1, 3, 2};
  auto kernel = Jit().compile(spec, options);
  ASSERT_FALSE(static_cast<bool>(kernel));
  EXPECT_NE(llvm::toString(kernel.takeError())
                .find("dw-tap-rows must be auto, on or off, not 'always'"),
            std::string::npos);
}

TEST(JitTest, GlobalIsOneInstance) {
  EXPECT_EQ(&Jit::global(), &Jit::global());
}

} // namespace
