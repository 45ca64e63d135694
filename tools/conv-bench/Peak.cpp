//===- Peak.cpp - Measured fp32 FMA peak of the host ----------------------===//
//
// The kernels are compiled for their ISA with target attributes and selected
// with __builtin_cpu_supports, so the binary runs on any x86-64 host. Each
// iteration issues NACC independent FMAs (enough chains to cover the FMA
// latency times the number of FMA pipes: 24 zmm / 12 ymm registers).
//
//===----------------------------------------------------------------------===//

#include "Peak.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <thread>
#include <vector>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define CONV_BENCH_X86 1
#endif

namespace convbench {

namespace {

volatile float sink;

using Clock = std::chrono::steady_clock;

enum class Isa { Avx512, Avx2Fma, Sse2, Scalar };

Isa hostIsa() {
#if CONV_BENCH_X86
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f"))
    return Isa::Avx512;
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
    return Isa::Avx2Fma;
  return Isa::Sse2;
#else
  return Isa::Scalar;
#endif
}

/// Each kernel runs `iters` iterations of NACC independent multiply-adds on
/// accumulators held in named registers (an array plus a memory clobber
/// would make the compiler keep them in memory) and returns the flops.
#define CB_ACC12(X) X(0) X(1) X(2) X(3) X(4) X(5) X(6) X(7) X(8) X(9) X(10) X(11)
#define CB_ACC24(X)                                                            \
  CB_ACC12(X) X(12) X(13) X(14) X(15) X(16) X(17) X(18) X(19) X(20) X(21)      \
      X(22) X(23)

#if CONV_BENCH_X86
__attribute__((target("avx512f"))) double fmaAvx512(int64_t iters) {
#define CB_INIT(i) __m512 acc##i = _mm512_set1_ps(i * 0.001f);
#define CB_STEP(i) acc##i = _mm512_fmadd_ps(acc##i, a, b);
#define CB_SUM(i) s = _mm512_add_ps(s, acc##i);
  CB_ACC24(CB_INIT)
  __m512 a = _mm512_set1_ps(0.9999f), b = _mm512_set1_ps(0.0001f);
  for (int64_t it = 0; it < iters; ++it) {
    CB_ACC24(CB_STEP)
  }
  __m512 s = _mm512_setzero_ps();
  CB_ACC24(CB_SUM)
#undef CB_INIT
#undef CB_STEP
#undef CB_SUM
  float t[16];
  _mm512_storeu_ps(t, s);
  float sum = 0;
  for (float v : t)
    sum += v;
  sink = sum;
  return 2.0 * 16 * 24 * double(iters);
}

__attribute__((target("avx2,fma"))) double fmaAvx2(int64_t iters) {
#define CB_INIT(i) __m256 acc##i = _mm256_set1_ps(i * 0.001f);
#define CB_STEP(i) acc##i = _mm256_fmadd_ps(acc##i, a, b);
#define CB_SUM(i) s = _mm256_add_ps(s, acc##i);
  CB_ACC12(CB_INIT)
  __m256 a = _mm256_set1_ps(0.9999f), b = _mm256_set1_ps(0.0001f);
  for (int64_t it = 0; it < iters; ++it) {
    CB_ACC12(CB_STEP)
  }
  __m256 s = _mm256_setzero_ps();
  CB_ACC12(CB_SUM)
#undef CB_INIT
#undef CB_STEP
#undef CB_SUM
  float t[8];
  _mm256_storeu_ps(t, s);
  float sum = 0;
  for (float v : t)
    sum += v;
  sink = sum;
  return 2.0 * 8 * 12 * double(iters);
}

double fmaSse2(int64_t iters) {
#define CB_INIT(i) __m128 acc##i = _mm_set1_ps(i * 0.001f);
#define CB_STEP(i) acc##i = _mm_add_ps(_mm_mul_ps(acc##i, a), b);
#define CB_SUM(i) s = _mm_add_ps(s, acc##i);
  CB_ACC12(CB_INIT)
  __m128 a = _mm_set1_ps(0.9999f), b = _mm_set1_ps(0.0001f);
  for (int64_t it = 0; it < iters; ++it) {
    CB_ACC12(CB_STEP)
  }
  __m128 s = _mm_setzero_ps();
  CB_ACC12(CB_SUM)
#undef CB_INIT
#undef CB_STEP
#undef CB_SUM
  float t[4];
  _mm_storeu_ps(t, s);
  sink = t[0] + t[1] + t[2] + t[3];
  return 2.0 * 4 * 12 * double(iters);
}
#endif

double fmaScalar(int64_t iters) {
  constexpr int NACC = 8;
  float acc[NACC];
  for (int i = 0; i < NACC; ++i)
    acc[i] = i * 0.001f;
  for (int64_t it = 0; it < iters; ++it) {
    for (int i = 0; i < NACC; ++i)
      acc[i] = acc[i] * 0.9999f + 0.0001f;
  }
  sink = acc[0];
  return 2.0 * NACC * double(iters);
}

double runKernel(Isa isa, int64_t iters) {
  switch (isa) {
#if CONV_BENCH_X86
  case Isa::Avx512:
    return fmaAvx512(iters);
  case Isa::Avx2Fma:
    return fmaAvx2(iters);
  case Isa::Sse2:
    return fmaSse2(iters);
#endif
  default:
    return fmaScalar(iters);
  }
}

} // namespace

std::string peakIsaDescription() {
  switch (hostIsa()) {
  case Isa::Avx512:
    return "avx512f (zmm, 16 fp32 lanes, 24 FMA chains)";
  case Isa::Avx2Fma:
    return "avx2+fma (ymm, 8 fp32 lanes, 12 FMA chains)";
  case Isa::Sse2:
    return "sse2 mul+add (xmm, 4 fp32 lanes)";
  case Isa::Scalar:
    return "scalar";
  }
  return "?";
}

double measurePeakFlops(unsigned threads, double seconds, unsigned trials) {
  Isa isa = hostIsa();
  threads = std::max(1u, threads);
  // Calibrate the iteration count on one thread.
  int64_t iters = 1 << 16;
  for (;;) {
    auto t0 = Clock::now();
    runKernel(isa, iters);
    double t = std::chrono::duration<double>(Clock::now() - t0).count();
    if (t > 0.02 || iters > (int64_t(1) << 40)) {
      iters = std::max<int64_t>(1, int64_t(double(iters) * seconds / t));
      break;
    }
    iters *= 4;
  }
  double best = 0;
  for (unsigned trial = 0; trial < std::max(1u, trials); ++trial) {
    std::vector<double> flops(threads);
    std::vector<std::thread> pool;
    auto t0 = Clock::now();
    for (unsigned t = 0; t < threads; ++t)
      pool.emplace_back([&, t] { flops[t] = runKernel(isa, iters); });
    for (std::thread &t : pool)
      t.join();
    double elapsed = std::chrono::duration<double>(Clock::now() - t0).count();
    double total = 0;
    for (double f : flops)
      total += f;
    best = std::max(best, total / elapsed);
  }
  return best;
}

} // namespace convbench
