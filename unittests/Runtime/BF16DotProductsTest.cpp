//===- BF16DotProductsTest.cpp - vdpbf16ps in JIT-compiled kernels --------===//
//
// prepareBF16DotProducts gives AVX512-BF16 to the functions that call
// vdpbf16ps, or replaces the calls with two FMAs per lane; the replacement
// computes what the instruction computes (checked bit for bit against the
// instruction itself where the host has it).
//
//===----------------------------------------------------------------------===//

#include "conv/Runtime/BF16DotProducts.h"

#include "llvm/AsmParser/Parser.h"
#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/ExecutionEngine/Orc/ThreadSafeModule.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/TargetParser/Host.h"

#include "gtest/gtest.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>
#include <random>

using namespace convgen;

namespace {

/// dot(acc, a, b, out): out = vdpbf16ps(acc, a, b) on 512-bit vectors.
constexpr const char *kDot = R"(
define void @dot(ptr %acc, ptr %a, ptr %b, ptr %out) {
  %c = load <16 x float>, ptr %acc, align 4
  %x = load <32 x bfloat>, ptr %a, align 2
  %y = load <32 x bfloat>, ptr %b, align 2
  %r = call <16 x float> @llvm.x86.avx512bf16.dpbf16ps.512(<16 x float> %c, <32 x bfloat> %x, <32 x bfloat> %y)
  store <16 x float> %r, ptr %out, align 4
  ret void
}
declare <16 x float> @llvm.x86.avx512bf16.dpbf16ps.512(<16 x float>, <32 x bfloat>, <32 x bfloat>)
)";

/// The same with a 9-element bf16 vector in the function.
constexpr const char *kDotWithOddVector = R"(
define void @dot(ptr %acc, ptr %a, ptr %b, ptr %out) {
  %c = load <16 x float>, ptr %acc, align 4
  %x = load <32 x bfloat>, ptr %a, align 2
  %y = load <32 x bfloat>, ptr %b, align 2
  %r = call <16 x float> @llvm.x86.avx512bf16.dpbf16ps.512(<16 x float> %c, <32 x bfloat> %x, <32 x bfloat> %y)
  store <16 x float> %r, ptr %out, align 4
  %row = load <9 x bfloat>, ptr %a, align 2
  store <9 x bfloat> %row, ptr %b, align 2
  ret void
}
define void @other(ptr %p) {
  ret void
}
declare <16 x float> @llvm.x86.avx512bf16.dpbf16ps.512(<16 x float>, <32 x bfloat>, <32 x bfloat>)
)";

std::unique_ptr<llvm::Module> parse(const char *text, llvm::LLVMContext &ctx) {
  llvm::SMDiagnostic error;
  auto module = llvm::parseAssemblyString(text, error, ctx);
  EXPECT_TRUE(module) << error.getMessage().str();
  return module;
}

/// Calls in `module` of functions whose name starts with `prefix`.
unsigned countCalls(const llvm::Module &module, llvm::StringRef prefix) {
  unsigned n = 0;
  for (const llvm::Function &f : module)
    for (const llvm::BasicBlock &block : f)
      for (const llvm::Instruction &inst : block)
        if (auto *call = llvm::dyn_cast<llvm::CallInst>(&inst))
          if (call->getCalledFunction() &&
              call->getCalledFunction()->getName().starts_with(prefix))
            ++n;
  return n;
}

unsigned countDotCalls(const llvm::Module &module) {
  return countCalls(module, "llvm.x86.avx512bf16.dpbf16ps");
}

unsigned countFMAs(const llvm::Module &module) {
  return countCalls(module, "llvm.fma.");
}

bool hostHas(llvm::StringRef feature) {
  llvm::StringMap<bool> features = llvm::sys::getHostCPUFeatures();
  auto it = features.find(feature);
  return it != features.end() && it->second;
}

TEST(BF16DotProducts, NativeWhereTheHostHasTheFeature) {
  llvm::LLVMContext ctx;
  auto module = parse(kDot, ctx);
  ASSERT_TRUE(module);
  BF16DotProductsPrepared prepared =
      prepareBF16DotProducts(*module, "+avx2,-avx512bf16", true);
  EXPECT_EQ(prepared.nativeFunctions, 1u);
  EXPECT_EQ(prepared.emulatedCalls, 0u);
  EXPECT_EQ(countDotCalls(*module), 1u);
  llvm::Function *dot = module->getFunction("dot");
  ASSERT_TRUE(dot);
  EXPECT_EQ(dot->getFnAttribute("target-features").getValueAsString(),
            "+avx2,-avx512bf16,+avx512bf16");
}

TEST(BF16DotProducts, EmulatedWithoutTheFeature) {
  llvm::LLVMContext ctx;
  auto module = parse(kDot, ctx);
  ASSERT_TRUE(module);
  BF16DotProductsPrepared prepared =
      prepareBF16DotProducts(*module, "+avx2", false);
  EXPECT_EQ(prepared.nativeFunctions, 0u);
  EXPECT_EQ(prepared.emulatedCalls, 1u);
  EXPECT_EQ(countDotCalls(*module), 0u);
  EXPECT_EQ(countFMAs(*module), 2u);
  EXPECT_FALSE(module->getFunction("dot")->hasFnAttribute("target-features"));
  EXPECT_FALSE(llvm::verifyModule(*module, &llvm::errs()));
}

TEST(BF16DotProducts, EmulatedNextToAnOddBF16Vector) {
  llvm::LLVMContext ctx;
  auto module = parse(kDotWithOddVector, ctx);
  ASSERT_TRUE(module);
  BF16DotProductsPrepared prepared =
      prepareBF16DotProducts(*module, "+avx2", true);
  EXPECT_EQ(prepared.nativeFunctions, 0u);
  EXPECT_EQ(prepared.emulatedCalls, 1u);
  EXPECT_EQ(countDotCalls(*module), 0u);
  EXPECT_FALSE(module->getFunction("dot")->hasFnAttribute("target-features"));
  EXPECT_FALSE(llvm::verifyModule(*module, &llvm::errs()));
}

TEST(BF16DotProducts, CopiesOfBF16VectorsMoveIntegers) {
  constexpr const char *kCopies = R"(
define void @copies(ptr %p, ptr %q, ptr %r, ptr %s) {
  %v = load <64 x bfloat>, ptr %p, align 2
  store <64 x bfloat> %v, ptr %q, align 64
  store <64 x bfloat> %v, ptr %r, align 4
  %w = load <16 x bfloat>, ptr %p, align 2
  %e = fpext <16 x bfloat> %w to <16 x float>
  store <16 x float> %e, ptr %s, align 4
  ret void
}
)";
  llvm::LLVMContext ctx;
  auto module = parse(kCopies, ctx);
  ASSERT_TRUE(module);
  // The copy moves i16 vectors (alignments kept); the load that is widened
  // stays bf16.
  EXPECT_EQ(moveBF16VectorsAsIntegers(*module), 1u);
  EXPECT_FALSE(llvm::verifyModule(*module, &llvm::errs()));
  std::string text;
  llvm::raw_string_ostream os(text);
  module->print(os, nullptr);
  EXPECT_NE(text.find("load <64 x i16>, ptr %p, align 2"), std::string::npos)
      << text;
  EXPECT_NE(text.find("store <64 x i16> %v, ptr %q, align 64"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("store <64 x i16> %v, ptr %r, align 4"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("load <16 x bfloat>, ptr %p, align 2"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find("<64 x bfloat>"), std::string::npos) << text;
}

uint16_t toBF16(float f) {
  uint32_t bits;
  std::memcpy(&bits, &f, 4);
  bits += 0x7FFF + ((bits >> 16) & 1); // round to nearest even (finite f)
  return static_cast<uint16_t>(bits >> 16);
}

float fromBF16(uint16_t h) {
  uint32_t bits = uint32_t(h) << 16;
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

/// Runs @dot of `text` after prepareBF16DotProducts on random bf16 pairs
/// and f32 accumulators (no denormals); returns the 16 results per trial.
std::vector<float> runDot(const char *text, bool native,
                          const std::vector<float> &acc,
                          const std::vector<uint16_t> &a,
                          const std::vector<uint16_t> &b) {
  auto ctx = std::make_unique<llvm::LLVMContext>();
  auto module = parse(text, *ctx);
  if (!module)
    return {};
  auto jit = llvm::orc::LLJITBuilder().create();
  if (!jit) {
    ADD_FAILURE() << llvm::toString(jit.takeError());
    return {};
  }
  llvm::StringMap<bool> hostFeatures = llvm::sys::getHostCPUFeatures();
  std::string features;
  for (const auto &f : hostFeatures)
    if (f.first() != "avx512bf16")
      features += std::string(features.empty() ? "" : ",") +
                  (f.second ? "+" : "-") + f.first().str();
  features += ",-avx512bf16";
  module->getFunction("dot")->addFnAttr("target-cpu",
                                        llvm::sys::getHostCPUName());
  prepareBF16DotProducts(*module, features, native);
  if (llvm::Error err = (*jit)->addIRModule(
          llvm::orc::ThreadSafeModule(std::move(module), std::move(ctx)))) {
    ADD_FAILURE() << llvm::toString(std::move(err));
    return {};
  }
  auto symbol = (*jit)->lookup("dot");
  if (!symbol) {
    ADD_FAILURE() << llvm::toString(symbol.takeError());
    return {};
  }
  auto *fn = symbol->toPtr<void (*)(const float *, const uint16_t *,
                                    const uint16_t *, float *)>();
  size_t trials = acc.size() / 16;
  std::vector<float> out(acc.size());
  for (size_t t = 0; t < trials; ++t)
    fn(&acc[16 * t], &a[32 * t], &b[32 * t], &out[16 * t]);
  return out;
}

TEST(BF16DotProducts, EmulationComputesWhatTheInstructionComputes) {
  if (!hostHas("avx512f"))
    GTEST_SKIP() << "512-bit vectors need AVX-512 to run here";
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  constexpr size_t kTrials = 256;
  std::mt19937 rng(20261201);
  // Accumulators and products of mixed magnitudes, so that the order of
  // the two roundings shows.
  std::uniform_real_distribution<float> value(-4.0f, 4.0f);
  std::uniform_int_distribution<int> scale(-12, 12);
  std::vector<float> acc(16 * kTrials);
  std::vector<uint16_t> a(32 * kTrials), b(32 * kTrials);
  for (float &v : acc)
    v = std::ldexp(value(rng), scale(rng));
  for (uint16_t &v : a)
    v = toBF16(std::ldexp(value(rng), scale(rng)));
  for (uint16_t &v : b)
    v = toBF16(value(rng));
  // Per lane: acc + a[2i+1] * b[2i+1], rounded, then + a[2i] * b[2i],
  // rounded (a bf16 product is exact in f32).
  std::vector<float> want(acc.size());
  for (size_t t = 0; t < kTrials; ++t)
    for (size_t i = 0; i < 16; ++i) {
      const uint16_t *pa = &a[32 * t + 2 * i], *pb = &b[32 * t + 2 * i];
      float s = std::fma(fromBF16(pa[1]), fromBF16(pb[1]), acc[16 * t + i]);
      want[16 * t + i] = std::fma(fromBF16(pa[0]), fromBF16(pb[0]), s);
    }
  std::vector<float> emulated = runDot(kDot, /*native=*/false, acc, a, b);
  ASSERT_EQ(emulated.size(), want.size());
  EXPECT_EQ(std::memcmp(emulated.data(), want.data(), 4 * want.size()), 0)
      << "the emulation differs from two FMAs per lane";
  if (!hostHas("avx512bf16"))
    GTEST_SKIP() << "no AVX512-BF16 here: the instruction itself not run";
  std::vector<float> native = runDot(kDot, /*native=*/true, acc, a, b);
  ASSERT_EQ(native.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i)
    ASSERT_EQ(std::memcmp(&native[i], &want[i], 4), 0)
        << "lane " << i % 16 << " of trial " << i / 16 << ": vdpbf16ps gave "
        << native[i] << ", two FMAs " << want[i];
}

} // namespace
