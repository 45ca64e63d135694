//===- HostCpu.h - The CPU the JIT tunes its code for -----------*- C++ -*-===//
//
// LLVM names the host CPU from the family and model numbers of CPUID. Inside
// a virtual machine those numbers may be the hypervisor's choice rather than
// the core's: one Intel Xeon KVM guest reports family 6 model 167, which
// LLVM calls `rocketlake` (a client core), while its features (AMX among
// them) are a Sapphire-Rapids-class server core's. The name only picks the
// scheduling model and tuning of LLVM's code generator (the instruction set
// comes from the host's features either way), but under the Rocket Lake
// model the machine scheduler moved register-tile loads early enough to
// spill accumulators (ResNet's 56x56x64 -> 256 1x1 filter gradient: five
// zmm spills and reloads an inner-loop iteration). See docs/Codegen.md
// (LLVM settings).
//
//===----------------------------------------------------------------------===//

#ifndef CONV_RUNTIME_HOSTCPU_H
#define CONV_RUNTIME_HOSTCPU_H

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace convgen {

/// The CPU whose scheduling model and tuning the JIT's code generator uses,
/// given the CPU name LLVM derives from CPUID (`reported`) and the host's
/// features (llvm::sys::getHostCPUFeatures): `reported`, except that a core
/// with AMX tiles (Intel's server cores from Sapphire Rapids on, no client
/// core has them) reported as any other CPU is tuned as `graniterapids`
/// when it has AMX-FP16 and as `sapphirerapids` otherwise.
std::string tuningCpuName(llvm::StringRef reported,
                          const llvm::StringMap<bool> &features);

/// tuningCpuName for this host (computed once).
const std::string &hostTuningCpuName();

/// The CPU whose scheduling model the code generator uses for code that
/// targets `cpu` (the functions' "tune-cpu" attribute, clang's -mtune): `cpu`,
/// except that the cores LLVM schedules with its Ice Lake model
/// (`icelake-client`, `icelake-server`, `rocketlake`, `tigerlake`) are tuned
/// as `sapphirerapids`. Under the Ice Lake model the machine scheduler
/// moves the operand loads of the 1x1 filter gradients' register tiles so
/// early that an accumulator spills inside the inner loop (docs/Codegen.md,
/// LLVM settings). Only the schedule changes: the instructions are the
/// target CPU's and the host's features.
std::string tuneCpuName(llvm::StringRef cpu);

/// tuneCpuName(hostTuningCpuName()) (computed once).
const std::string &hostTuneCpuName();

} // namespace convgen

#endif // CONV_RUNTIME_HOSTCPU_H
