//===- HostCpuTest.cpp - the CPU the JIT tunes its code for ---------------===//

#include "conv/Runtime/HostCpu.h"

#include "llvm/TargetParser/Host.h"

#include <gtest/gtest.h>

#include <initializer_list>

using namespace convgen;

namespace {

llvm::StringMap<bool> features(std::initializer_list<const char *> on,
                               std::initializer_list<const char *> off = {}) {
  llvm::StringMap<bool> map;
  for (const char *f : on)
    map[f] = true;
  for (const char *f : off)
    map[f] = false;
  return map;
}

TEST(HostCpu, ServerCoreReportedAsClientIsTunedAsServer) {
  // The Xeon KVM guest of docs/Benchmarks.md: model 167 (rocketlake) with
  // AMX-BF16 / INT8 tiles and no AMX-FP16.
  auto spr =
      features({"avx512f", "avx512bf16", "amx-tile", "amx-bf16"}, {"amx-fp16"});
  EXPECT_EQ(tuningCpuName("rocketlake", spr), "sapphirerapids");
  EXPECT_EQ(tuningCpuName("icelake-client", spr), "sapphirerapids");
  auto gnr = features({"avx512f", "amx-tile", "amx-bf16", "amx-fp16"});
  EXPECT_EQ(tuningCpuName("rocketlake", gnr), "graniterapids");
}

TEST(HostCpu, ServerNamesAndCoresWithoutAmxKeepTheirName) {
  auto amx = features({"avx512f", "amx-tile"});
  for (const char *name : {"sapphirerapids", "emeraldrapids", "graniterapids",
                           "graniterapids-d", "diamondrapids"})
    EXPECT_EQ(tuningCpuName(name, amx), name);
  // A real Rocket Lake, Zen 4 (AVX-512 without AMX) and a feature map that
  // lists AMX as absent keep the reported name.
  EXPECT_EQ(tuningCpuName("rocketlake", features({"avx512f"})), "rocketlake");
  EXPECT_EQ(tuningCpuName("znver4", features({"avx512f", "avx512bf16"})),
            "znver4");
  EXPECT_EQ(tuningCpuName("rocketlake", features({"avx512f"}, {"amx-tile"})),
            "rocketlake");
  EXPECT_EQ(tuningCpuName("znver3", features({})), "znver3");
}

TEST(HostCpu, IceLakeModelCoresAreScheduledAsSapphireRapids) {
  for (const char *name :
       {"icelake-client", "icelake-server", "rocketlake", "tigerlake"})
    EXPECT_EQ(tuneCpuName(name), "sapphirerapids") << name;
  for (const char *name : {"sapphirerapids", "graniterapids", "skylake-avx512",
                           "cascadelake", "znver4", "znver3", "x86-64"})
    EXPECT_EQ(tuneCpuName(name), name);
  EXPECT_EQ(hostTuneCpuName(), tuneCpuName(hostTuningCpuName()));
}

TEST(HostCpu, HostNameIsTheRuleAppliedToThisHost) {
  EXPECT_EQ(hostTuningCpuName(),
            tuningCpuName(llvm::sys::getHostCPUName(),
                          llvm::sys::getHostCPUFeatures()));
  EXPECT_FALSE(hostTuningCpuName().empty());
}

} // namespace
