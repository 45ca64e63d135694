//===- HostCpu.cpp - The CPU the JIT tunes its code for -------------------===//

#include "conv/Runtime/HostCpu.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/TargetParser/Host.h"

namespace convgen {

std::string tuningCpuName(llvm::StringRef reported,
                          const llvm::StringMap<bool> &features) {
  auto has = [&](llvm::StringRef feature) {
    auto it = features.find(feature);
    return it != features.end() && it->second;
  };
  if (!has("amx-tile"))
    return reported.str();
  bool amxServer =
      llvm::StringSwitch<bool>(reported)
          .Cases({"sapphirerapids", "emeraldrapids", "graniterapids",
                  "graniterapids-d", "diamondrapids"},
                 true)
          .Default(false);
  if (amxServer)
    return reported.str();
  return has("amx-fp16") ? "graniterapids" : "sapphirerapids";
}

const std::string &hostTuningCpuName() {
  static const std::string name = tuningCpuName(
      llvm::sys::getHostCPUName(), llvm::sys::getHostCPUFeatures());
  return name;
}

std::string tuneCpuName(llvm::StringRef cpu) {
  bool iceLakeModel = llvm::StringSwitch<bool>(cpu)
                          .Cases({"icelake-client", "icelake-server",
                                  "rocketlake", "tigerlake"},
                                 true)
                          .Default(false);
  return iceLakeModel ? "sapphirerapids" : cpu.str();
}

const std::string &hostTuneCpuName() {
  static const std::string name = tuneCpuName(hostTuningCpuName());
  return name;
}

} // namespace convgen
