//===- Peak.h - Measured fp32 FMA peak of the host --------------*- C++ -*-===//
//
// conv-bench reports % of a *measured* peak, never a hard-coded one: an FMA
// throughput microbenchmark (independent accumulator chains, like
// shared/research/exp/fmapeak.c) on the widest vector ISA the host has,
// chosen at run time: AVX-512F (zmm) if present, else AVX2+FMA (ymm), else
// SSE2 mul+add (xmm, counted as 2 flops per lane like an FMA would be).
//
//===----------------------------------------------------------------------===//

#ifndef CONV_BENCH_PEAK_H
#define CONV_BENCH_PEAK_H

#include <string>

namespace convbench {

/// "avx512f (zmm, 16 fp32 lanes)", "avx2+fma (ymm, 8 fp32 lanes)", ...
std::string peakIsaDescription();

/// fp32 FLOP/s of `threads` threads each running the FMA loop for about
/// `seconds`; the best of `trials` runs.
double measurePeakFlops(unsigned threads, double seconds, unsigned trials);

} // namespace convbench

#endif // CONV_BENCH_PEAK_H
