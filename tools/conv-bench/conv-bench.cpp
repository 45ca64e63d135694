//===- conv-bench.cpp - ConvGen vs oneDNN on the benchmark shape suite ----===//
//
//   conv-bench [--quick | --smoke | --filter=ID,FAMILY,OP,PREFIX*,...]
//              [--threads=1,2] [--reps=N] [--batch=N] [--csv=PATH]
//              [--plot=PATH] [--list] [--list-json]
//
// Runs the shape suite of shared/spec/benchmarks.md §3 (f32, or bf16 with
// --dtype=bf16; channels-last)
// through ConvGen's JIT (convgen::Jit) and through oneDNN (Debian libdnnl-dev
// 2.6.3: convolution_backward_weights for conv.backprop_filter,
// deconvolution_forward for conv.transpose) in the same process, on the same
// buffers, with the same thread count, alternating the two sides. For every
// (shape, thread count) it reports the best-of-N time, GFLOP/s (the
// geometry's flops(): spec §2 conventions), % of the fp32 FMA peak measured
// at startup for that thread count (twice it for bf16), ConvGen's
// first-call compile latency,
// the speed ratio ConvGen / oneDNN and the max relative difference of the
// two results. See docs/Benchmarks.md.
//
//===----------------------------------------------------------------------===//

#include "OneDnn.h"
#include "Peak.h"

#include "conv/Geometry/Geometry.h"
#include "conv/Runtime/HostCpu.h"
#include "conv/Runtime/Jit.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TargetParser/Host.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <thread>

#include <csignal>
#include <sys/wait.h>
#include <unistd.h>

#ifndef CONV_BENCH_PLOT_SCRIPT
#define CONV_BENCH_PLOT_SCRIPT "plot.py"
#endif
#ifndef CONV_BENCH_PYTHON
#define CONV_BENCH_PYTHON "python3"
#endif

using namespace convgen;
using namespace convbench;
namespace cl = llvm::cl;

namespace {

//===----------------------------------------------------------------------===//
// Options
//===----------------------------------------------------------------------===//

cl::OptionCategory category("conv-bench options");

cl::opt<bool> smoke("smoke",
                    cl::desc("Two small shapes, 1 thread, few repetitions; "
                             "checks results (the ctest conv-bench-smoke)"),
                    cl::cat(category));
cl::opt<bool> quick("quick",
                    cl::desc("A representative subset (a few shapes per "
                             "family, no big shapes)"),
                    cl::cat(category));
cl::opt<std::string>
    filter("filter",
           cl::desc("Comma-separated shape ids, families, ops (dw, "
                    "transpose), 'big', or prefixes ending in '*' "
                    "(e.g. rn*,dcgan,u3t1)"),
           cl::value_desc("list"), cl::cat(category));
cl::opt<bool> skipBig("skip-big",
                      cl::desc("Leave out the shapes marked big (> ~15 "
                               "GFLOP per call)"),
                      cl::cat(category));
cl::opt<bool> list("list",
                   cl::desc("Print the shape table (with the Keras/PyTorch "
                            "transpose argument mapping) and exit"),
                   cl::cat(category));
cl::opt<bool> listJson(
    "list-json",
    cl::desc("Print the selected shapes as JSON (geometry, TF/Keras "
             "arguments, FLOP count; for python/benchmarks/peer_bench.py) "
             "and exit"),
    cl::cat(category));
// "--threads" is parsed by hand (see main): libLLVM already registers a
// "threads" option.
std::vector<unsigned> threadCounts;
cl::opt<unsigned> reps("reps",
                       cl::desc("Timed repetitions per side (best of N)"),
                       cl::init(5), cl::cat(category));
cl::opt<unsigned> warmups("warmup",
                          cl::desc("Untimed warm-up calls per side"),
                          cl::init(1), cl::cat(category));
cl::opt<double>
    minBatchMs("min-batch-ms",
               cl::desc("Each repetition loops a kernel for at least this "
                        "long and reports the mean call time"),
               cl::init(20), cl::cat(category));
cl::opt<double> maxShapeSeconds(
    "max-shape-seconds",
    cl::desc("Time budget per (shape, threads): fewer repetitions (at "
             "least 2) for slow shapes"),
    cl::init(30), cl::cat(category));
cl::opt<double>
    gapMs("gap-ms",
          cl::desc("Pause after each multi-threaded batch, so that the "
                   "spinning OpenMP workers of one side are asleep before "
                   "the other side runs"),
          cl::init(10), cl::cat(category));
cl::opt<unsigned> batchOverride("batch",
                                cl::desc("Override every shape's batch size "
                                         "(0: the table's)"),
                                cl::init(0), cl::cat(category));
cl::opt<std::string> csvPath("csv", cl::desc("CSV output (one row per "
                                             "shape and thread count)"),
                             cl::init("conv-bench.csv"),
                             cl::value_desc("path"), cl::cat(category));
cl::opt<std::string> plotPath(
    "plot",
    cl::desc("Also write a PNG plot (% of peak per shape, one panel per "
             "thread count) with plot.py"),
    cl::value_desc("path.png"), cl::cat(category));
cl::opt<std::string> python("python",
                            cl::desc("Python with matplotlib for --plot"),
                            cl::init(CONV_BENCH_PYTHON), cl::cat(category));
cl::opt<bool> noOnednn("no-onednn",
                       cl::desc("Do not run oneDNN (check against the "
                                "reference instead)"),
                       cl::cat(category));
cl::opt<double> rtol("rtol",
                     cl::desc("Fail when max |ConvGen - oneDNN| / max "
                              "|oneDNN| exceeds this (default 1e-3; 2e-2 "
                              "with --dtype=bf16)"),
                     cl::init(1e-3), cl::cat(category));
cl::opt<std::string> dtype(
    "dtype",
    cl::desc("Element type of every shape's operands and result: f32, or "
             "bf16 (both sides accumulate in f32; % of peak against twice "
             "the measured fp32 FMA peak, the rate of vdpbf16ps, which "
             "multiplies twice as many pairs per instruction)"),
    cl::init("f32"), cl::cat(category));

bool isBF16() { return dtype == "bf16"; }
cl::opt<double> refMaxGflop(
    "ref-max-gflop",
    cl::desc("Without oneDNN, check against the f64 reference only up to "
             "this many GFLOP per call"),
    cl::init(2.0), cl::cat(category));
cl::opt<bool> verifyReference(
    "verify-reference",
    cl::desc("Also compare ConvGen and oneDNN with the f64 reference "
             "(shapes up to --ref-max-gflop; on by default with --smoke)"),
    cl::cat(category));
cl::opt<double> peakSeconds("peak-seconds",
                            cl::desc("Duration of one FMA peak trial (best "
                                     "of 5)"),
                            cl::init(0.25), cl::cat(category));
cl::opt<double> compileTimeout(
    "compile-timeout",
    cl::desc("Give up on a ConvGen compile after this many seconds (the "
             "compile is first tried in a forked child, so every kernel is "
             "compiled twice; 0: no limit, compile once; default 0 with "
             "--smoke)"),
    cl::init(120), cl::cat(category));
cl::opt<unsigned> compileReps(
    "compile-reps",
    cl::desc("Compile each kernel this many times, each in a fresh JIT, and "
             "report the fastest compile (default 1: the first call's "
             "latency, as a user meets it)"),
    cl::init(1), cl::cat(category));
cl::opt<bool> noOptimize("no-optimize",
                         cl::desc("Benchmark ConvGen's plain-loop pipeline"),
                         cl::cat(category));
cl::opt<int64_t> l1CacheBytes(
    "l1-cache-bytes",
    cl::desc("L1 data cache size ConvGen's cache blocking assumes (0: the "
             "host's)"),
    cl::init(0), cl::cat(category));
cl::opt<int64_t> l2CacheBytes(
    "l2-cache-bytes",
    cl::desc("L2 cache size ConvGen's cache blocking assumes (0: the host's)"),
    cl::init(0), cl::cat(category));
cl::opt<int64_t> l3CacheBytes(
    "l3-cache-bytes",
    cl::desc("Last-level cache size ConvGen's filter-gradient reduction "
             "blocks assume (0: the host's, at most 32 MiB)"),
    cl::init(0), cl::cat(category));
cl::opt<unsigned> registerTileRows(
    "register-tile-rows",
    cl::desc("Rows of ConvGen's register tiles (0: the heuristic's)"),
    cl::init(0), cl::cat(category));
cl::opt<unsigned> registerTileVectors(
    "register-tile-vectors",
    cl::desc("Vectors per row of ConvGen's register tiles (0: the "
             "heuristic's)"),
    cl::init(0), cl::cat(category));
cl::opt<unsigned> reductionChunk(
    "reduction-chunk",
    cl::desc("Filter-gradient reduction positions per register-tile step "
             "(0: the heuristic's)"),
    cl::init(0), cl::cat(category));
cl::opt<unsigned> compileThreads(
    "compile-threads",
    cl::desc("Threads that optimize and compile each ConvGen kernel's LLVM "
             "IR, one part of its functions each (0: up to the host's "
             "hardware threads, at most 2; 1: one)"),
    cl::init(0), cl::cat(category));
cl::opt<std::string> bf16Dot(
    "bf16-dot",
    cl::desc("With --dtype=bf16: ConvGen's vdpbf16ps dot products: auto "
             "(where the host runs them at its FMA rate), on, off"),
    cl::init("auto"), cl::cat(category));
cl::opt<std::string> winograd(
    "winograd",
    cl::desc("ConvGen's Winograd F(2, T) transposed-convolution phases and "
             "F(3, 2) / F(5, 2) filter gradients (pipeline option winograd): "
             "auto (transposes with at most 2 such phases, or up to 4 with "
             "at least 128 output channels; 2-D 3x3 and 5x5 stride-1 filter "
             "gradients with at least 32 channels each side), on, off"),
    cl::init("auto"), cl::cat(category));
cl::opt<bool> zeroInsertion(
    "zero-insertion-transpose",
    cl::desc("Benchmark ConvGen's zero-insertion transpose lowering"),
    cl::cat(category));

int fail(const llvm::Twine &message) {
  llvm::WithColor::error(llvm::errs(), "conv-bench") << message << "\n";
  return 1;
}

void warn(const llvm::Twine &message) {
  llvm::WithColor::warning(llvm::errs(), "conv-bench") << message << "\n";
}

using Clock = std::chrono::steady_clock;
double seconds(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double>(b - a).count();
}

//===----------------------------------------------------------------------===//
// CompileOptions::numThreads, when the runtime grows one
//===----------------------------------------------------------------------===//

template <typename T>
auto trySetThreads(T &options, unsigned n, int)
    -> decltype(options.numThreads = n, bool()) {
  options.numThreads = n;
  return true;
}
template <typename T> bool trySetThreads(T &, unsigned, long) {
  return false;
}
bool convgenHasThreadsOption() {
  CompileOptions o;
  return trySetThreads(o, 1, 0);
}

//===----------------------------------------------------------------------===//
// Compile-time limit
//===----------------------------------------------------------------------===//

enum class Probe { Ok, Failed, TimedOut };

/// Compiles `spec` in a forked child (which uses nothing but the compiler)
/// and waits at most `timeout` seconds for it. A compile cannot be
/// cancelled in-process, and a runaway one would keep a core busy under all
/// later timings.
template <typename Spec>
Probe probeCompile(const Spec &spec, const CompileOptions &options,
                   double timeout) {
  llvm::outs().flush();
  llvm::errs().flush();
  pid_t pid = fork();
  if (pid < 0)
    return Probe::Ok; // cannot probe: just compile
  if (pid == 0) {
    Jit jit;
    auto kernel = jit.compile(spec, options);
    if (!kernel) {
      llvm::consumeError(kernel.takeError());
      _exit(1);
    }
    _exit(0);
  }
  auto start = Clock::now();
  for (;;) {
    int status = 0;
    pid_t r = waitpid(pid, &status, WNOHANG);
    if (r == pid)
      return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? Probe::Ok
                                                           : Probe::Failed;
    if (r < 0)
      return Probe::Ok;
    if (seconds(start, Clock::now()) > timeout) {
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      return Probe::TimedOut;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

//===----------------------------------------------------------------------===//
// The shape suite (spec/benchmarks.md §3)
//===----------------------------------------------------------------------===//

enum class Op { BackpropFilter, Transpose };

struct ShapeDef {
  std::string id, family;
  Op op = Op::BackpropFilter;
  int64_t batch = 1;
  /// dW: the forward conv's input; transpose: the transpose's input.
  Shape inSpatial;
  int64_t inChannels = 0, outChannels = 0;
  Shape kernel;
  int64_t stride = 1, dilation = 1;
  /// dW: explicit symmetric pad per spatial dim.
  Shape pad;
  int64_t groups = 1;
  /// transpose: Keras arguments...
  TransposePadding kerasPadding = TransposePadding::Valid;
  std::optional<int64_t> outputPadding;
  /// ...and the PyTorch ConvTranspose arguments they reproduce (padding,
  /// output_padding), checked at startup; nullopt: none does.
  std::optional<std::pair<int64_t, int64_t>> torch;
  bool inQuick = false, big = false;
  std::string source;
};

ShapeDef dw(std::string id, std::string family, int64_t n, Shape in,
            int64_t c, int64_t k, Shape kernel, int64_t stride, Shape pad,
            std::string source, int64_t dilation = 1, int64_t groups = 1) {
  ShapeDef s;
  s.id = std::move(id);
  s.family = std::move(family);
  s.op = Op::BackpropFilter;
  s.batch = n;
  s.inSpatial = std::move(in);
  s.inChannels = c;
  s.outChannels = k;
  s.kernel = std::move(kernel);
  s.stride = stride;
  s.pad = std::move(pad);
  s.dilation = dilation;
  s.groups = groups;
  s.source = std::move(source);
  return s;
}

ShapeDef tr(std::string id, std::string family, int64_t n, Shape in,
            int64_t cin, int64_t cout, Shape kernel, int64_t stride,
            TransposePadding padding, std::optional<int64_t> outputPadding,
            std::optional<std::pair<int64_t, int64_t>> torch,
            std::string source, int64_t dilation = 1) {
  ShapeDef s;
  s.id = std::move(id);
  s.family = std::move(family);
  s.op = Op::Transpose;
  s.batch = n;
  s.inSpatial = std::move(in);
  s.inChannels = cin;
  s.outChannels = cout;
  s.kernel = std::move(kernel);
  s.stride = stride;
  s.kerasPadding = padding;
  s.outputPadding = outputPadding;
  s.torch = torch;
  s.dilation = dilation;
  s.source = std::move(source);
  return s;
}

ShapeDef quickAlso(ShapeDef s) {
  s.inQuick = true;
  return s;
}

constexpr auto Valid = TransposePadding::Valid;
constexpr auto Same = TransposePadding::Same;
using TorchArgs = std::pair<int64_t, int64_t>;
constexpr std::nullopt_t NoTorch = std::nullopt;

std::vector<ShapeDef> suite() {
  std::vector<ShapeDef> s;
  const std::string rn = "ResNet-50 v1.5 (oneDNN shapes_resnet_50_v1_5)";
  // ResNet-50 filter gradients, N = 8 (CPU budget), §3.1.
  s.push_back(dw("rn1", "resnet50", 8, {224, 224}, 3, 64, {7, 7}, 2, {3, 3},
                 rn + " conv1, tiny C"));
  s.push_back(dw("rn2", "resnet50", 8, {56, 56}, 64, 64, {1, 1}, 1, {0, 0},
                 rn + " res2a_branch2a"));
  s.push_back(quickAlso(dw("rn3", "resnet50", 8, {56, 56}, 64, 64, {3, 3}, 1,
                           {1, 1}, rn + " res2 3x3")));
  s.push_back(quickAlso(dw("rn4", "resnet50", 8, {56, 56}, 64, 256, {1, 1},
                           1, {0, 0}, rn + " res2 expand")));
  s.push_back(dw("rn5", "resnet50", 8, {56, 56}, 256, 64, {1, 1}, 1, {0, 0},
                 rn + " res2 reduce"));
  s.push_back(quickAlso(dw("rn6", "resnet50", 8, {56, 56}, 128, 128, {3, 3},
                           2, {1, 1}, rn + " res3a_branch2b (stride-2 3x3)")));
  s.push_back(dw("rn7", "resnet50", 8, {56, 56}, 256, 512, {1, 1}, 2, {0, 0},
                 rn + " res3a_branch1 (strided 1x1)"));
  s.push_back(dw("rn8", "resnet50", 8, {28, 28}, 128, 128, {3, 3}, 1, {1, 1},
                 rn + " res3 3x3"));
  s.push_back(quickAlso(dw("rn9", "resnet50", 8, {14, 14}, 256, 256, {3, 3},
                           1, {1, 1}, rn + " res4 3x3")));
  s.push_back(dw("rn10", "resnet50", 8, {14, 14}, 1024, 256, {1, 1}, 1,
                 {0, 0}, rn + " res4 reduce"));
  s.push_back(quickAlso(dw("rn11", "resnet50", 8, {7, 7}, 512, 512, {3, 3}, 1,
                           {1, 1}, rn + " res5 3x3 (split-K case)")));
  s.push_back(dw("rn12", "resnet50", 8, {7, 7}, 2048, 512, {1, 1}, 1, {0, 0},
                 rn + " res5 reduce"));

  // DeepBench training set (code/kernels/conv_problems.h): tuple
  // (w,h,c,n,k,s,r,pad_w,pad_h,wstride,hstride), s = filter width.
  const std::string db = "DeepBench conv_problems.h ";
  s.push_back(quickAlso(dw("db1", "deepbench", 8, {161, 700}, 1, 32, {5, 20},
                           2, {0, 0}, db + "speech (700,161,1,8,32,20,5)")));
  s.push_back(dw("db2", "deepbench", 8, {79, 341}, 32, 32, {5, 10}, 2, {0, 0},
                 db + "speech (341,79,32,8,32,10,5)"));
  s.push_back(dw("db3", "deepbench", 16, {48, 480}, 1, 16, {3, 3}, 1, {1, 1},
                 db + "(480,48,1,16,16,3,3)"));
  s.push_back(dw("db4", "deepbench", 8, {108, 108}, 3, 64, {3, 3}, 2, {1, 1},
                 db + "(108,108,3,8,64,3,3) s2"));
  s.push_back(dw("db5", "deepbench", 16, {224, 224}, 3, 64, {3, 3}, 1, {1, 1},
                 db + "VGG first (224,224,3,16,64,3,3)"));
  s.push_back(dw("db6", "deepbench", 16, {7, 7}, 512, 512, {3, 3}, 1, {1, 1},
                 db + "VGG last (7,7,512,16,512,3,3)"));
  s.push_back(quickAlso(dw("db7", "deepbench", 16, {28, 28}, 192, 32, {5, 5},
                           1, {2, 2}, db + "GoogLeNet (28,28,192,16,32,5,5)")));
  s.push_back(dw("db8", "deepbench", 16, {80, 350}, 64, 128, {5, 5}, 2,
                 {1, 1}, db + "speech-2D (350,80,64,16,128,5,5) s2"));
  s.push_back(dw("db9", "deepbench", 16, {10, 42}, 512, 512, {3, 3}, 1,
                 {1, 1}, db + "speech-2D (42,10,512,16,512,3,3)"));

  // Dilation.
  s.push_back(dw("dl1", "dilated", 1, {38, 57}, 512, 512, {3, 3}, 1, {3, 3},
                 "RFCN (oneDNN shapes_dilated_rfcn; oneDNN dh2 = dilation 3)",
                 3));
  s.push_back(quickAlso(dw("dl2", "dilated", 8, {28, 28}, 128, 128, {3, 3}, 1,
                           {2, 2},
                           "DeepLab-style dilated res3 3x3 (not in the spec)",
                           2)));

  // 1-D: WaveNet (oneDNN shapes_1d_wavenet).
  s.push_back(quickAlso(dw("wn1", "wavenet1d", 1, {84350}, 32, 32, {2}, 1,
                           {0}, "WaveNet mb1 ic32 oc32 iw84350 kw2")));
  s.push_back(dw("wn2", "wavenet1d", 1, {84350}, 32, 32, {2}, 1, {0},
                 "WaveNet layer with dilation 512 (the stack's largest)", 512));

  // 3-D.
  s.push_back(quickAlso(dw(
      "rx1", "resnext3d", 6, {8, 56, 56}, 64, 64, {3, 3, 3}, 1, {1, 1, 1},
      "ResNeXt-101 3-D conv_3d:1 (oneDNN shapes_3d_resnext101), groups 16", 1,
      16)));
  s.push_back(dw("u3d1", "unet3d-dw", 1, {116, 132, 132}, 32, 32, {3, 3, 3},
                 1, {0, 0, 0},
                 "3-D U-Net mb1 ic32 132x132x116 -> oc32 (oneDNN "
                 "shapes_3d_unet)"));
  s.push_back(dw("u3d2", "unet3d-dw", 1, {116, 132, 132}, 32, 64, {3, 3, 3},
                 1, {0, 0, 0},
                 "3-D U-Net mb1 ic32 132x132x116 -> oc64 (oneDNN "
                 "shapes_3d_unet)"));

  // Transposed convolutions, §3.2. DCGAN generator (pytorch/examples
  // dcgan/main.py), N = 64. PyTorch ConvTranspose2d(k=4, s=2, p=1) is
  // Keras padding="same", output_padding=None (crop 1, out = 2 * in).
  const std::string dc = "DCGAN generator (pytorch/examples dcgan) ";
  s.push_back(quickAlso(tr("dc1", "dcgan", 64, {1, 1}, 100, 512, {4, 4}, 1,
                           Valid, std::nullopt, TorchArgs{0, 0},
                           dc + "ConvTranspose2d(100, 512, 4, 1, 0): GEMM")));
  s.push_back(tr("dc2", "dcgan", 64, {4, 4}, 512, 256, {4, 4}, 2, Same,
                 std::nullopt, TorchArgs{1, 0},
                 dc + "ConvTranspose2d(512, 256, 4, 2, 1)"));
  s.push_back(quickAlso(tr("dc3", "dcgan", 64, {8, 8}, 256, 128, {4, 4}, 2,
                           Same, std::nullopt, TorchArgs{1, 0},
                           dc + "ConvTranspose2d(256, 128, 4, 2, 1)")));
  s.push_back(tr("dc4", "dcgan", 64, {16, 16}, 128, 64, {4, 4}, 2, Same,
                 std::nullopt, TorchArgs{1, 0},
                 dc + "ConvTranspose2d(128, 64, 4, 2, 1)"));
  s.push_back(quickAlso(tr("dc5", "dcgan", 64, {32, 32}, 64, 3, {4, 4}, 2,
                           Same, std::nullopt, TorchArgs{1, 0},
                           dc + "ConvTranspose2d(64, 3, 4, 2, 1): tiny Cout")));

  // 2-D U-Net up-convs (Ronneberger): 2x2, stride 2, N = 1.
  const std::string un = "2-D U-Net 2x2 up-conv stride 2 (Ronneberger)";
  s.push_back(quickAlso(tr("un1", "unet2d", 1, {28, 28}, 1024, 512, {2, 2}, 2,
                           Valid, std::nullopt, TorchArgs{0, 0}, un)));
  s.push_back(tr("un2", "unet2d", 1, {52, 52}, 512, 256, {2, 2}, 2, Valid,
                 std::nullopt, TorchArgs{0, 0}, un));
  s.push_back(quickAlso(tr("un3", "unet2d", 1, {100, 100}, 256, 128, {2, 2},
                           2, Valid, std::nullopt, TorchArgs{0, 0}, un)));
  s.push_back(tr("un4", "unet2d", 1, {196, 196}, 128, 64, {2, 2}, 2, Valid,
                 std::nullopt, TorchArgs{0, 0}, un));

  // 3-D U-Net / nnU-Net decoder up-convs, N = 2.
  s.push_back(quickAlso(tr("u3t1", "unet3d", 2, {8, 8, 8}, 320, 256,
                           {2, 2, 2}, 2, Valid, std::nullopt,
                           TorchArgs{0, 0}, "nnU-Net decoder up-conv")));
  s.push_back(tr("u3t2", "unet3d", 2, {16, 16, 16}, 256, 128, {2, 2, 2}, 2,
                 Valid, std::nullopt, TorchArgs{0, 0},
                 "nnU-Net decoder up-conv"));
  s.push_back(tr("d3d1", "deconv3d", 1, {8, 9, 9}, 512, 256, {3, 3, 3}, 1,
                 Valid, std::nullopt, TorchArgs{0, 0},
                 "oneDNN deconv/shapes_3d ic512 9x9x8 -> oc256 k3"));

  // AlexNet deconvs (oneDNN deconv/shapes_2d, shapes_1d).
  s.push_back(tr("ax1", "alexnet", 256, {13, 13}, 384, 256, {3, 3}, 1, Same,
                 std::nullopt, TorchArgs{1, 0},
                 "AlexNet deconv3 mb256 ic384 -> oc256 13x13 k3 p1 (stride-1 "
                 "conv-bwd-data stand-in)"));
  s.push_back(quickAlso(tr("ax2", "alexnet", 16, {55, 55}, 96, 3, {11, 11},
                           4, Valid, std::nullopt, TorchArgs{0, 0},
                           "AlexNet deconv1 ic96 55x55 -> oc3 227x227 k11 s4 "
                           "(mb16 here; oneDNN uses mb256)")));

  // 1-D odd cases.
  s.push_back(quickAlso(tr("is1", "istft1d", 1, {224}, 1026, 1, {1024}, 256,
                           Valid, std::nullopt, TorchArgs{0, 0},
                           "ISTFT conv_transpose1d(1x1026x224, w 1026x1x1024, "
                           "stride 256) (pytorch #120982)")));
  s.push_back(quickAlso(tr("mk1", "masknet1d", 1, {512}, 64, 3, {7}, 2, Valid,
                           int64_t(1), TorchArgs{0, 1},
                           "masknet_p1 deconv1 ic64 iw512 -> oc3 ow1030 kw7 "
                           "sw2 (oneDNN deconv/shapes_1d)")));

  // Keras padding / output_padding variants (keras.ops.conv_transpose).
  s.push_back(quickAlso(tr("kv1", "keras", 8, {28, 28}, 128, 64, {3, 3}, 2,
                           Same, std::nullopt, NoTorch,
                           "Keras same, output_padding=None, k3 s2 (crop 0 "
                           "before / 1 after)")));
  s.push_back(quickAlso(tr("kv2", "keras", 8, {28, 28}, 128, 64, {3, 3}, 2,
                           Valid, int64_t(1), TorchArgs{0, 1},
                           "Keras valid, output_padding=1, k3 s2")));
  s.push_back(tr("kv3", "keras", 8, {14, 14}, 256, 128, {5, 5}, 2, Same,
                 int64_t(0), TorchArgs{2, 0},
                 "Keras same, output_padding=0, k5 s2"));
  s.push_back(quickAlso(tr("kv4", "keras", 8, {16, 16}, 128, 128, {3, 3}, 2,
                           Same, std::nullopt, NoTorch,
                           "Keras same, dilation 2, k3 s2", 2)));
  return s;
}

/// --smoke: two small shapes, one per op.
std::vector<ShapeDef> smokeSuite() {
  return {dw("sm1", "smoke", 2, {14, 14}, 32, 32, {3, 3}, 2, {1, 1},
             "small strided dW"),
          tr("sm2", "smoke", 2, {8, 8}, 32, 16, {4, 4}, 2, Same, std::nullopt,
             TorchArgs{1, 0}, "small DCGAN-like transpose")};
}

//===----------------------------------------------------------------------===//
// Problems: spec, geometry, oneDNN mapping
//===----------------------------------------------------------------------===//

std::string joinDims(const Shape &v, const char *sep = "x") {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i)
    s += (i ? sep : "") + std::to_string(v[i]);
  return s;
}

std::string kerasArgs(const ShapeDef &d) {
  std::string s = std::string("padding=") + stringify(d.kerasPadding) +
                  ", output_padding=" +
                  (d.outputPadding ? std::to_string(*d.outputPadding)
                                   : std::string("None"));
  if (d.dilation != 1)
    s += ", dilation_rate=" + std::to_string(d.dilation);
  return s;
}

std::string torchArgs(const ShapeDef &d) {
  if (!d.torch)
    return "no PyTorch equivalent";
  return "torch padding=" + std::to_string(d.torch->first) +
         ", output_padding=" + std::to_string(d.torch->second);
}

struct Problem {
  ShapeDef def;
  Op op;
  BackpropFilterSpec dwSpec;
  TransposeSpec trSpec;
  BackpropFilterGeometry dwGeom;
  TransposeGeometry trGeom;
  DnnlProblem dnnl;
  std::string description;
  double flops = 0;
  /// Elements of the two operands and the result.
  size_t lhsElems = 0, rhsElems = 0, outElems = 0;
};

size_t elements(const Shape &s) {
  size_t n = 1;
  for (int64_t d : s)
    n *= size_t(d);
  return n;
}

/// Builds the spec and geometry of `d` (batch override applied) and checks
/// the documented PyTorch equivalence of transposes.
bool makeProblem(const ShapeDef &d, Problem &p, std::string &error) {
  p.def = d;
  p.op = d.op;
  int64_t n = batchOverride ? int64_t(batchOverride) : d.batch;
  p.def.batch = n;
  size_t rank = d.inSpatial.size();
  Shape strides(rank, d.stride), dilations(rank, d.dilation);
  Shape input{n};
  input.insert(input.end(), d.inSpatial.begin(), d.inSpatial.end());
  input.push_back(d.inChannels);

  if (d.op == Op::BackpropFilter) {
    BackpropFilterAttrs attrs;
    attrs.layout = DataLayout::ChannelsLast;
    attrs.strides = strides;
    attrs.dilations = dilations;
    attrs.padding = FilterPadding::Explicit;
    for (int64_t pad : d.pad) {
      attrs.explicitPaddings.push_back(pad);
      attrs.explicitPaddings.push_back(pad);
    }
    Shape filter = d.kernel;
    filter.push_back(d.inChannels / d.groups);
    filter.push_back(d.outChannels);
    Result<Shape> dy = inferOutBackpropShape(attrs, input, filter);
    if (!dy) {
      error = dy.error();
      return false;
    }
    Result<BackpropFilterGeometry> g =
        computeBackpropFilterGeometry(attrs, input, filter, *dy);
    if (!g) {
      error = g.error();
      return false;
    }
    p.dwGeom = *g;
    p.dwSpec.elementType = isBF16() ? ElementType::BF16 : ElementType::F32;
    p.dnnl.bf16 = isBF16();
    p.dwSpec.attrs = attrs;
    p.dwSpec.inputShape = input;
    p.dwSpec.filterShape = filter;
    p.dwSpec.outBackpropShape = *dy;
    p.flops = g->flops();
    p.lhsElems = elements(input);
    p.rhsElems = elements(*dy);
    p.outElems = elements(filter);
    DnnlProblem &q = p.dnnl;
    q.kind = DnnlProblem::Kind::BackwardWeights;
    q.batch = n;
    q.srcChannels = d.inChannels;
    q.dstChannels = d.outChannels;
    q.groups = g->groups;
    q.srcSpatial = g->inputSpatial;
    q.dstSpatial = g->outSpatial;
    q.kernel = g->filterSpatial;
    q.strides = g->strides;
    q.dilations = g->dilations;
    q.padL = g->padBefore;
    q.padR = g->padAfter;
    p.description = "N" + std::to_string(n) + " " + joinDims(d.inSpatial) +
                    "x" + std::to_string(d.inChannels) + "->" +
                    joinDims(g->outSpatial) + "x" +
                    std::to_string(d.outChannels) + " k" +
                    joinDims(d.kernel) + " s" + std::to_string(d.stride) +
                    " p" + joinDims(d.pad, "/");
    if (d.dilation != 1)
      p.description += " d" + std::to_string(d.dilation);
    if (g->groups != 1)
      p.description += " g" + std::to_string(g->groups);
    return true;
  }

  TransposeAttrs attrs;
  attrs.layout = DataLayout::ChannelsLast;
  attrs.strides = strides;
  attrs.dilations = dilations;
  attrs.padding = d.kerasPadding;
  if (d.outputPadding)
    attrs.outputPadding = Shape(rank, *d.outputPadding);
  Shape kernel = d.kernel;
  kernel.push_back(d.outChannels);
  kernel.push_back(d.inChannels);
  Result<TransposeGeometry> g = computeTransposeGeometry(attrs, input, kernel);
  if (!g) {
    error = g.error();
    return false;
  }
  // The PyTorch equivalence this entry documents must hold exactly: same
  // output size and same crop in every dimension.
  if (d.torch) {
    for (size_t i = 0; i < rank; ++i) {
      int64_t k = d.kernel[i];
      int64_t out = transposeOutputSize(d.inSpatial[i], k, d.stride,
                                        d.dilation, d.kerasPadding,
                                        d.outputPadding);
      int64_t crop = transposeCropBefore(k, d.stride, d.dilation,
                                         d.kerasPadding, d.outputPadding);
      int64_t torchOut = (d.inSpatial[i] - 1) * d.stride -
                         2 * d.torch->first + d.dilation * (k - 1) + 1 +
                         d.torch->second;
      if (out != torchOut || crop != d.torch->first) {
        error = "shape table: Keras (" + kerasArgs(d) + ") gives size " +
                std::to_string(out) + ", crop " + std::to_string(crop) +
                " but " + torchArgs(d) + " gives size " +
                std::to_string(torchOut) + ", crop " +
                std::to_string(d.torch->first);
        return false;
      }
    }
  }
  p.trGeom = *g;
  p.trSpec.elementType = isBF16() ? ElementType::BF16 : ElementType::F32;
  p.dnnl.bf16 = isBF16();
  p.trSpec.attrs = attrs;
  p.trSpec.inputShape = input;
  p.trSpec.kernelShape = kernel;
  p.flops = g->flops();
  p.lhsElems = elements(input);
  p.rhsElems = elements(kernel);
  p.outElems = elements(g->outputShape());
  DnnlProblem &q = p.dnnl;
  q.kind = DnnlProblem::Kind::Deconvolution;
  q.batch = n;
  q.srcChannels = d.inChannels;
  q.dstChannels = d.outChannels;
  q.srcSpatial = g->inputSpatial;
  q.dstSpatial = g->outSpatial;
  q.kernel = g->kernelSpatial;
  q.strides = g->strides;
  q.dilations = g->dilations;
  q.padL = g->cropBefore;
  q.padR.clear();
  for (size_t i = 0; i < rank; ++i)
    q.padR.push_back(g->fullSpatial[i] - g->outSpatial[i] - g->cropBefore[i]);
  p.description = "N" + std::to_string(n) + " " + joinDims(d.inSpatial) +
                  "x" + std::to_string(d.inChannels) + "->" +
                  joinDims(g->outSpatial) + "x" +
                  std::to_string(d.outChannels) + " k" + joinDims(d.kernel) +
                  " s" + std::to_string(d.stride) + " " +
                  stringify(d.kerasPadding) +
                  (d.outputPadding ? "/op" + std::to_string(*d.outputPadding)
                                   : std::string());
  if (d.dilation != 1)
    p.description += " d" + std::to_string(d.dilation);
  return true;
}

//===----------------------------------------------------------------------===//
// Buffers and timing
//===----------------------------------------------------------------------===//

/// 64-byte aligned f32 buffer.
struct Buffer {
  float *data = nullptr;
  size_t size = 0;
  explicit Buffer(size_t n) : size(n) {
    size_t bytes = std::max<size_t>(64, (n * sizeof(float) + 63) / 64 * 64);
    data = static_cast<float *>(std::aligned_alloc(64, bytes));
    if (!data) {
      llvm::errs() << "conv-bench: out of memory (" << bytes << " bytes)\n";
      std::exit(1);
    }
  }
  ~Buffer() { std::free(data); }
  Buffer(const Buffer &) = delete;
  Buffer &operator=(const Buffer &) = delete;
};

/// Uniform [-1, 1) from a counter hash (fast for 100M-element operands).
void fillUniform(Buffer &b, uint64_t seed) {
  for (size_t i = 0; i < b.size; ++i) {
    uint64_t z = (uint64_t(i) + 1) * 0x9E3779B97F4A7C15ull ^ seed;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    b.data[i] = float(double(z >> 40) * (2.0 / double(1ull << 24)) - 1.0);
  }
}

/// bf16 bits of `f` (round to nearest even; NaN stays NaN).
uint16_t toBF16(float f) {
  uint32_t bits;
  std::memcpy(&bits, &f, 4);
  if (std::isnan(f))
    return uint16_t((bits >> 16) | 0x40);
  bits += 0x7FFF + ((bits >> 16) & 1);
  return uint16_t(bits >> 16);
}

float fromBF16(uint16_t h) {
  uint32_t bits = uint32_t(h) << 16;
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

/// With --dtype=bf16: the operand or result storage the kernels use. An
/// operand's f32 values are rounded to bf16 in place (the values both sides
/// and the reference read) and copied as bf16; an f32 buffer otherwise is
/// used as is.
struct Storage {
  Buffer *f32;
  std::unique_ptr<Buffer> bf16;
  explicit Storage(Buffer &b) : f32(&b) {
    if (isBF16())
      bf16 = std::make_unique<Buffer>((b.size + 1) / 2);
  }
  void *data() { return bf16 ? static_cast<void *>(bf16->data) : f32->data; }
  uint16_t *bits() { return reinterpret_cast<uint16_t *>(bf16->data); }
  /// Operand: round the f32 values and store them as bf16.
  void fromF32() {
    if (!bf16)
      return;
    for (size_t i = 0; i < f32->size; ++i) {
      bits()[i] = toBF16(f32->data[i]);
      f32->data[i] = fromBF16(bits()[i]);
    }
  }
  /// Result: the bf16 values as f32, for the comparisons.
  void toF32() {
    if (!bf16)
      return;
    for (size_t i = 0; i < f32->size; ++i)
      f32->data[i] = fromBF16(bits()[i]);
  }
  void fillNaN() {
    if (bf16)
      std::fill(bits(), bits() + f32->size, uint16_t(0xFFFF));
    else
      std::fill(f32->data, f32->data + f32->size, NAN);
  }
};

/// max |a - b| / max |b| (NaN counts as infinite error).
double maxRelativeError(const float *a, const float *b, size_t n) {
  double maxErr = 0, maxRef = 0;
  for (size_t i = 0; i < n; ++i) {
    double e = std::fabs(double(a[i]) - double(b[i]));
    if (std::isnan(e))
      e = INFINITY;
    maxErr = std::max(maxErr, e);
    maxRef = std::max(maxRef, std::fabs(double(b[i])));
  }
  // The operands are random: an all-zero result means a side did not run.
  if (maxRef == 0)
    return INFINITY;
  return maxErr / maxRef;
}

struct Timer {
  /// Calls per timed repetition and the best mean call time so far.
  unsigned iters = 1;
  double best = INFINITY;
};

//===----------------------------------------------------------------------===//
// Results
//===----------------------------------------------------------------------===//

struct Row {
  std::string id, family, op, description, impl, check;
  unsigned threads = 1, convgenThreads = 1;
  double peak = 0, flops = 0, bytes = 0;
  double convgenMs = NAN, onednnMs = NAN, compileMs = NAN, err = NAN;
  bool failed = false;
  double gflops(double ms) const { return flops / (ms * 1e-3) * 1e-9; }
  double pct(double ms) const { return 100.0 * flops / (ms * 1e-3) / peak; }
  double ratio() const { return onednnMs / convgenMs; }
};

std::string fmtNum(double v, const char *f) {
  if (std::isnan(v) || std::isinf(v))
    return "n/a";
  char buf[64];
  snprintf(buf, sizeof(buf), f, v);
  return buf;
}

std::string fmtMs(double ms) {
  return std::isnan(ms) || std::isinf(ms) ? "n/a" : fmtNum(ms, "%.3f") + "ms";
}

std::string csvQuote(const std::string &s) {
  if (s.find_first_of(",\"\n") == std::string::npos)
    return s;
  std::string q = "\"";
  for (char c : s)
    q += (c == '"') ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

bool writeCsv(const std::string &path, const std::vector<Row> &rows) {
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec);
  if (ec) {
    warn("cannot write '" + path + "': " + ec.message());
    return false;
  }
  os << "id,op,shape,threads,convgen_ms,convgen_gflops,convgen_pct_peak,"
        "onednn_ms,onednn_gflops,onednn_pct_peak,ratio,compile_ms,"
        "max_rel_err,family,convgen_threads,peak_gflops,flops,bytes,"
        "onednn_impl,checked_against,dtype\n";
  for (const Row &r : rows) {
    auto num = [](double v, const char *f) {
      return std::isnan(v) ? std::string() : fmtNum(v, f);
    };
    os << r.id << "," << r.op << "," << csvQuote(r.description) << ","
       << r.threads << "," << num(r.convgenMs, "%.6f") << ","
       << num(r.gflops(r.convgenMs), "%.3f") << ","
       << num(r.pct(r.convgenMs), "%.2f") << "," << num(r.onednnMs, "%.6f")
       << "," << num(r.gflops(r.onednnMs), "%.3f") << ","
       << num(r.pct(r.onednnMs), "%.2f") << "," << num(r.ratio(), "%.4f")
       << "," << num(r.compileMs, "%.1f") << "," << num(r.err, "%.3e") << ","
       << r.family << "," << r.convgenThreads << ","
       << fmtNum(r.peak * 1e-9, "%.2f") << "," << fmtNum(r.flops, "%.0f")
       << "," << fmtNum(r.bytes, "%.0f") << "," << csvQuote(r.impl) << ","
       << r.check << "," << (isBF16() ? "bf16" : "f32") << "\n";
  }
  return true;
}

void printRowHeader() {
  llvm::outs() << llvm::format(
      "%-5s %-2s %-44s | %9s %7s %5s | %9s %7s %5s | %5s | %7s | %8s\n", "id",
      "th", "shape", "ConvGen", "GFLOP/s", "%pk", "oneDNN", "GFLOP/s", "%pk",
      "ratio", "jit ms", "rel.err");
  llvm::outs() << std::string(134, '-') << "\n";
}

void printRow(const Row &r) {
  std::string desc = r.description;
  if (desc.size() > 44)
    desc = desc.substr(0, 43) + "~";
  llvm::outs() << llvm::format(
      "%-5s %-2u %-44s | %9s %7s %5s | %9s %7s %5s | %5s | %7s | %8s%s\n",
      r.id.c_str(), r.threads, desc.c_str(),
      fmtMs(r.convgenMs).c_str(),
      fmtNum(r.gflops(r.convgenMs), "%.1f").c_str(),
      fmtNum(r.pct(r.convgenMs), "%.0f").c_str(),
      fmtMs(r.onednnMs).c_str(),
      fmtNum(r.gflops(r.onednnMs), "%.1f").c_str(),
      fmtNum(r.pct(r.onednnMs), "%.0f").c_str(),
      fmtNum(r.ratio(), "%.2f").c_str(), fmtNum(r.compileMs, "%.0f").c_str(),
      fmtNum(r.err, "%.1e").c_str(), r.failed ? "  FAIL" : "");
  llvm::outs().flush();
}

double geomean(const std::vector<double> &v) {
  if (v.empty())
    return NAN;
  double s = 0;
  for (double x : v)
    s += std::log(x);
  return std::exp(s / double(v.size()));
}

void printGeomeans(const std::vector<Row> &rows,
                   const std::vector<unsigned> &threads) {
  llvm::outs() << "\nGeomeans (ratio = oneDNN time / ConvGen time = ConvGen "
                  "GFLOP/s / oneDNN GFLOP/s; > 1: ConvGen faster)\n";
  llvm::outs() << llvm::format("%-22s %-2s %6s %9s %9s %7s\n", "group", "th",
                               "shapes", "ConvGen%", "oneDNN%", "ratio");
  auto line = [&](const std::string &name, unsigned t,
                  std::function<bool(const Row &)> pred) {
    std::vector<double> cg, dn, ratio;
    unsigned count = 0;
    for (const Row &r : rows) {
      if (r.threads != t || !pred(r))
        continue;
      ++count;
      if (!std::isnan(r.convgenMs))
        cg.push_back(r.pct(r.convgenMs));
      if (!std::isnan(r.onednnMs))
        dn.push_back(r.pct(r.onednnMs));
      if (!std::isnan(r.ratio()))
        ratio.push_back(r.ratio());
    }
    if (!count)
      return;
    llvm::outs() << llvm::format("%-22s %-2u %6u %9s %9s %7s\n", name.c_str(),
                                 t, count,
                                 fmtNum(geomean(cg), "%.1f").c_str(),
                                 fmtNum(geomean(dn), "%.1f").c_str(),
                                 fmtNum(geomean(ratio), "%.3f").c_str());
  };
  std::vector<std::string> families;
  for (const Row &r : rows)
    if (std::find(families.begin(), families.end(), r.family) ==
        families.end())
      families.push_back(r.family);
  for (unsigned t : threads) {
    for (const std::string &f : families)
      line("  family " + f, t, [&](const Row &r) { return r.family == f; });
    line("op dw (backprop_filter)", t,
         [](const Row &r) { return r.op == "dw"; });
    line("op transpose", t, [](const Row &r) { return r.op == "transpose"; });
    line("overall", t, [](const Row &) { return true; });
  }
}

std::string cpuModel() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("model name", 0) == 0) {
      size_t colon = line.find(':');
      return colon == std::string::npos ? line : line.substr(colon + 2);
    }
  return "unknown CPU";
}

bool matches(const ShapeDef &d, const std::string &token) {
  if (token.empty())
    return false;
  if (token == d.id || token == d.family)
    return true;
  if (token == "dw" && d.op == Op::BackpropFilter)
    return true;
  if (token == "transpose" && d.op == Op::Transpose)
    return true;
  if (token == "big" && d.big)
    return true;
  if (token == "quick" && d.inQuick)
    return true;
  if (token.back() == '*')
    return d.id.rfind(token.substr(0, token.size() - 1), 0) == 0 ||
           d.family.rfind(token.substr(0, token.size() - 1), 0) == 0;
  return false;
}

/// --list-json: the selected shapes, one object each, with everything a
/// peer framework needs to run the same op (channels-last layouts; dW's
/// filter is [spatial..., Cin/groups, Cout], the transpose's kernel
/// [spatial..., Cout, Cin]) and the FLOP count of the geometry's flops().
void printShapesJson(const std::vector<Problem> &problems) {
  auto ints = [](llvm::json::OStream &j, llvm::StringRef key,
                 const Shape &v) {
    j.attributeArray(key, [&] {
      for (int64_t x : v)
        j.value(x);
    });
  };
  llvm::json::OStream j(llvm::outs());
  j.object([&] {
    j.attribute("tool", "conv-bench");
    j.attribute("flop_convention",
                "dW: 2*N*prod(OUT)*(C/groups)*K*prod(kernel); transpose: "
                "2*N*prod(IN)*Cin*Cout*prod(kernel)");
    j.attributeArray("shapes", [&] {
      for (const Problem &p : problems) {
        const ShapeDef &d = p.def;
        bool isDw = p.op == Op::BackpropFilter;
        j.object([&] {
          j.attribute("id", d.id);
          j.attribute("family", d.family);
          j.attribute("op", isDw ? "dw" : "transpose");
          j.attribute("description", p.description);
          j.attribute("source", d.source);
          j.attribute("quick", d.inQuick);
          j.attribute("big", d.big);
          j.attribute("layout", "channels_last");
          j.attribute("dtype", isBF16() ? "bf16" : "f32");
          j.attribute("N", d.batch);
          j.attribute("spatial_rank", int64_t(d.inSpatial.size()));
          j.attribute("flops", p.flops);
          if (isDw) {
            const BackpropFilterGeometry &g = p.dwGeom;
            j.attribute("data_format",
                        g.numSpatialDims == 1   ? "NWC"
                        : g.numSpatialDims == 2 ? "NHWC"
                                                : "NDHWC");
            ints(j, "in_spatial", g.inputSpatial);
            ints(j, "out_spatial", g.outSpatial);
            j.attribute("in_channels", g.inChannels);
            j.attribute("out_channels", g.outChannels);
            ints(j, "kernel", g.filterSpatial);
            ints(j, "strides", g.strides);
            ints(j, "dilations", g.dilations);
            j.attribute("groups", g.groups);
            j.attribute("padding", "EXPLICIT");
            j.attributeArray("explicit_paddings", [&] {
              for (size_t i = 0; i < g.padBefore.size(); ++i)
                j.array([&] {
                  j.value(g.padBefore[i]);
                  j.value(g.padAfter[i]);
                });
            });
            ints(j, "input_shape", p.dwSpec.inputShape);
            ints(j, "filter_shape", p.dwSpec.filterShape);
            ints(j, "out_backprop_shape", p.dwSpec.outBackpropShape);
            return;
          }
          const TransposeGeometry &g = p.trGeom;
          j.attribute("data_format", "channels_last");
          ints(j, "in_spatial", g.inputSpatial);
          ints(j, "out_spatial", g.outSpatial);
          j.attribute("in_channels", g.inChannels);
          j.attribute("out_channels", g.outChannels);
          ints(j, "kernel", g.kernelSpatial);
          ints(j, "strides", g.strides);
          ints(j, "dilations", g.dilations);
          j.attribute("groups", int64_t(1));
          j.attribute("padding", stringify(d.kerasPadding));
          if (d.outputPadding)
            ints(j, "output_padding",
                 Shape(d.inSpatial.size(), *d.outputPadding));
          else
            j.attribute("output_padding", nullptr);
          ints(j, "crop_before", g.cropBefore);
          ints(j, "full_spatial", g.fullSpatial);
          if (d.torch)
            j.attributeObject("torch", [&] {
              j.attribute("padding", d.torch->first);
              j.attribute("output_padding", d.torch->second);
            });
          ints(j, "input_shape", p.trSpec.inputShape);
          ints(j, "kernel_shape", p.trSpec.kernelShape);
          ints(j, "output_shape", g.outputShape());
        });
      }
    });
  });
  llvm::outs() << "\n";
}

std::vector<std::string> splitCommas(const std::string &s) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= s.size()) {
    size_t comma = s.find(',', start);
    if (comma == std::string::npos)
      comma = s.size();
    std::string tok = s.substr(start, comma - start);
    if (!tok.empty())
      out.push_back(tok);
    start = comma + 1;
  }
  return out;
}

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  // ConvGen's multi-threaded kernels run on LLVM's libomp, which the JIT
  // loads on first use; by default its idle workers spin for 200 ms after
  // each parallel region and would steal the (SMT-sibling) cores from the
  // oneDNN runs that follow. Make them yield after 5 ms, comparable to GNU
  // libgomp's default spin (oneDNN's runtime; already initialized here).
  setenv("KMP_BLOCKTIME", "5", /*overwrite=*/0);
  // Take --threads=1,2 (or --threads 1,2) out before LLVM parses the rest.
  std::vector<char *> args;
  for (int i = 0; i < argc; ++i) {
    llvm::StringRef arg(argv[i]);
    std::string value;
    if (i > 0 && (arg == "--threads" || arg == "-threads") && i + 1 < argc) {
      value = argv[++i];
    } else if (i > 0 && (arg.consume_front("--threads=") ||
                         arg.consume_front("-threads="))) {
      value = arg.str();
    } else {
      args.push_back(argv[i]);
      continue;
    }
    for (llvm::StringRef tok : llvm::split(value, ',')) {
      unsigned n = 0;
      if (tok.trim().getAsInteger(10, n) || n == 0)
        return fail("--threads: expected a comma-separated list of thread "
                    "counts >= 1, got '" + value + "'");
      threadCounts.push_back(n);
    }
  }
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(
      int(args.size()), args.data(),
      "conv-bench: ConvGen vs oneDNN on the benchmark shape suite "
      "(spec/benchmarks.md section 3)\n\n"
      "  --threads=<n,...>  Thread counts to run (default: 1 and all "
      "cores; --smoke: 1)\n");

  // Shape selection.
  std::vector<ShapeDef> defs = smoke ? smokeSuite() : suite();
  for (ShapeDef &d : defs) {
    Problem p;
    std::string error;
    if (!makeProblem(d, p, error))
      return fail("shape " + d.id + ": " + error);
    d.big = p.flops > 15e9;
  }
  std::vector<std::string> tokens = splitCommas(filter);
  for (const std::string &t : tokens) {
    bool any = false;
    for (const ShapeDef &d : defs)
      any |= matches(d, t);
    if (!any)
      return fail("--filter: '" + t + "' matches no shape (see --list)");
  }
  std::vector<Problem> problems;
  for (const ShapeDef &d : defs) {
    if (!tokens.empty() &&
        std::none_of(tokens.begin(), tokens.end(),
                     [&](const std::string &t) { return matches(d, t); }))
      continue;
    if (quick && !d.inQuick)
      continue;
    if ((skipBig || quick) && d.big)
      continue;
    Problem p;
    std::string error;
    if (!makeProblem(d, p, error))
      return fail("shape " + d.id + ": " + error);
    problems.push_back(std::move(p));
  }

  if (listJson) {
    printShapesJson(problems);
    return 0;
  }
  if (list) {
    for (const Problem &p : problems) {
      llvm::outs() << llvm::format("%-5s %-10s %-9s %-48s %8.3f GFLOP%s\n",
                                   p.def.id.c_str(), p.def.family.c_str(),
                                   p.op == Op::BackpropFilter ? "dw"
                                                              : "transpose",
                                   p.description.c_str(), p.flops * 1e-9,
                                   p.def.big       ? "  [big]"
                                   : p.def.inQuick ? "  [quick]"
                                                   : "");
      llvm::outs() << "      source: " << p.def.source << "\n";
      if (p.op == Op::Transpose) {
        llvm::outs() << "      keras: " << kerasArgs(p.def)
                     << "  ==  " << torchArgs(p.def) << "  (crop "
                     << joinDims(p.trGeom.cropBefore, ",") << ", oneDNN pad_l "
                     << joinDims(p.dnnl.padL, ",") << " pad_r "
                     << joinDims(p.dnnl.padR, ",") << ")\n";
      }
    }
    double total = 0;
    for (const Problem &p : problems)
      total += p.flops;
    llvm::outs() << problems.size() << " shapes, "
                 << llvm::format("%.1f", total * 1e-9)
                 << " GFLOP per pass over all of them\n";
    return 0;
  }
  if (problems.empty())
    return fail("no shape selected");

  std::vector<unsigned> threads(threadCounts.begin(), threadCounts.end());
  unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  if (threads.empty()) {
    threads = {1};
    if (!smoke && cores > 1)
      threads.push_back(cores);
  }
  unsigned numReps = smoke && reps.getNumOccurrences() == 0 ? 2 : reps;
  numReps = std::max(1u, numReps);
  double batchMs = smoke && minBatchMs.getNumOccurrences() == 0 ? 2.0
                                                                 : minBatchMs;
  bool useOnednn = !noOnednn && onednnAvailable();
  bool convgenThreads = convgenHasThreadsOption();
  if (dtype != "f32" && dtype != "bf16")
    return fail("--dtype must be f32 or bf16, not '" + dtype + "'");
  // bf16 results are rounded once from f32 sums by both sides, which may
  // add in different orders: a bf16 ulp of the larger values.
  double tolerance =
      isBF16() && rtol.getNumOccurrences() == 0 ? 2e-2 : double(rtol);

  // Machine and peak.
  llvm::outs() << "conv-bench: " << problems.size() << " shape(s), threads "
               << joinDims(std::vector<int64_t>(threads.begin(), threads.end()),
                           ",")
               << ", best of " << numReps << " (min batch "
               << llvm::format("%.0f", batchMs) << " ms)\n";
  llvm::outs() << "host: " << cpuModel() << ", " << cores
               << " hardware threads, LLVM CPU " << hostTuningCpuName();
  if (llvm::sys::getHostCPUName() != hostTuningCpuName())
    llvm::outs() << " (LLVM names the CPUID model "
                 << llvm::sys::getHostCPUName() << ")";
  if (hostTuneCpuName() != hostTuningCpuName())
    llvm::outs() << ", scheduled as " << hostTuneCpuName();
  llvm::outs() << "\n";
  llvm::outs() << (useOnednn ? onednnDescription()
                             : std::string(noOnednn ? "oneDNN: disabled "
                                                      "(--no-onednn)"
                                                    : onednnDescription()))
               << "\n";
  if (!convgenThreads)
    llvm::outs() << "ConvGen: CompileOptions has no thread-count option: "
                    "ConvGen runs single-threaded in every row (its % of "
                    "peak uses the row's thread count)\n";
  double peakSecs = smoke && peakSeconds.getNumOccurrences() == 0
                        ? 0.05
                        : double(peakSeconds);
  std::map<unsigned, double> peak;
  for (unsigned t : threads) {
    peak[t] = measurePeakFlops(t, peakSecs, smoke ? 2 : 5);
    llvm::outs() << llvm::format("measured fp32 peak, %u thread(s): %.1f "
                                 "GFLOP/s",
                                 t, peak[t] * 1e-9)
                 << " [" << peakIsaDescription() << "]\n";
  }
  if (isBF16())
    llvm::outs() << "dtype bf16: % of peak against twice the fp32 peak (the "
                    "rate of vdpbf16ps)\n";
  llvm::outs() << "\n";
  printRowHeader();

  Jit jit;
  std::vector<Row> rows;
  bool anyFailure = false;
  uint64_t seed = 1;

  for (const Problem &p : problems) {
    Buffer lhs(p.lhsElems), rhs(p.rhsElems), outC(p.outElems),
        outD(p.outElems);
    fillUniform(lhs, seed++);
    fillUniform(rhs, seed++);
    Storage lhsS(lhs), rhsS(rhs), outCS(outC), outDS(outD);
    lhsS.fromF32();
    rhsS.fromF32();
    std::vector<void *> buffers{lhsS.data(), rhsS.data(), outCS.data()};

    std::shared_ptr<const Kernel> kernel;
    unsigned compiledFor = 0;
    bool gaveUp = false; // a compile timed out: no retry for this shape
    bool warnedCompile = false;
    double compileMs = NAN;
    std::string compileError;

    for (unsigned t : threads) {
      Row row;
      row.id = p.def.id;
      row.family = p.def.family;
      row.op = p.op == Op::BackpropFilter ? "dw" : "transpose";
      row.description = p.description;
      row.threads = t;
      row.convgenThreads = convgenThreads ? t : 1;
      row.peak = isBF16() ? 2 * peak[t] : peak[t];
      row.flops = p.flops;
      row.bytes = (isBF16() ? 2.0 : 4.0) *
                  double(p.lhsElems + p.rhsElems + p.outElems);

      // ConvGen: compile once (or per thread count once the runtime takes
      // one); the first compile's latency is reported.
      if (!gaveUp && (!kernel || (convgenThreads && compiledFor != t))) {
        CompileOptions options;
        options.optimize = !noOptimize;
        options.zeroInsertionTranspose = zeroInsertion;
        options.l1CacheBytes = l1CacheBytes;
        options.l2CacheBytes = l2CacheBytes;
        options.l3CacheBytes = l3CacheBytes;
        options.registerTileRows = registerTileRows;
        options.registerTileVectors = registerTileVectors;
        options.reductionChunk = reductionChunk;
        options.bf16Dot = bf16Dot;
        options.winograd = winograd;
        options.compileThreads = compileThreads;
        trySetThreads(options, t, 0);
        double limit = smoke && compileTimeout.getNumOccurrences() == 0
                           ? 0.0
                           : double(compileTimeout);
        Probe probe = Probe::Ok;
        if (limit > 0)
          probe = p.op == Op::BackpropFilter
                      ? probeCompile(p.dwSpec, options, limit)
                      : probeCompile(p.trSpec, options, limit);
        if (probe == Probe::TimedOut) {
          compileError = "compile did not finish within " +
                         fmtNum(limit, "%.0f") + " s (--compile-timeout)";
          kernel.reset();
          compileMs = NAN;
          gaveUp = true;
        } else if (auto compiled = p.op == Op::BackpropFilter
                                       ? jit.compile(p.dwSpec, options)
                                       : jit.compile(p.trSpec, options);
                   !compiled) {
          compileError = llvm::toString(compiled.takeError());
          kernel.reset();
        } else {
          kernel = *compiled;
          compiledFor = t;
          compileMs = kernel->compileSeconds() * 1e3;
          for (unsigned rep = 1; rep < compileReps; ++rep) {
            Jit fresh; // an empty kernel cache: a full compile again
            auto again = p.op == Op::BackpropFilter
                             ? fresh.compile(p.dwSpec, options)
                             : fresh.compile(p.trSpec, options);
            if (again)
              compileMs =
                  std::min(compileMs, (*again)->compileSeconds() * 1e3);
            else
              llvm::consumeError(again.takeError());
          }
          if (kernel->inputs().size() != 2 || kernel->outputs().size() != 1 ||
              kernel->inputs()[0].numElements() != p.lhsElems ||
              kernel->inputs()[1].numElements() != p.rhsElems ||
              kernel->outputs()[0].numElements() != p.outElems) {
            compileError = "kernel signature does not match the spec";
            kernel.reset();
          }
        }
      }
      row.compileMs = compileMs;
      if (!kernel) {
        if (!warnedCompile)
          warn(p.def.id + ": ConvGen: " + compileError);
        warnedCompile = true;
        row.failed = true;
      }

      // oneDNN, created after setting its thread count.
      std::unique_ptr<DnnlRunner> dnnl;
      if (useOnednn) {
        if (!setOnednnThreads(int(t)))
          warn("cannot set oneDNN's OpenMP thread count");
        std::string error;
        dnnl = createDnnlRunner(p.dnnl, lhsS.data(), rhsS.data(), error);
        if (!dnnl)
          warn(p.def.id + ": " + error);
        else
          row.impl = dnnl->implementation();
      }

      bool convgenOk = true;
      auto runConvgen = [&] {
        if (llvm::Error err = kernel->run(buffers)) {
          warn(p.def.id + ": ConvGen run: " + llvm::toString(std::move(err)));
          convgenOk = false;
        }
      };
      auto pause = [&] {
        if (t > 1 && gapMs > 0)
          std::this_thread::sleep_for(
              std::chrono::microseconds(int64_t(gapMs * 1e3)));
      };
      // After a pause, one untimed call before each timed batch: the first
      // call after the gap wakes the side's sleeping workers (and the idle
      // core), which a loop of calls without gaps does not pay. Measured
      // with 2 threads and 200 ms gaps: dc1 78-103 GFLOP/s without it,
      // 109-139 with it (141 without gaps).
      auto settle = [&](auto &&call) {
        if (t > 1 && gapMs > 0)
          call();
      };

      // A result ConvGen leaves partly unwritten must not pass the check
      // with values from an earlier thread count.
      outCS.fillNaN();

      // Warm-up, and one timed call per side to size the batches.
      Timer cg, dn;
      double callC = 0, callD = 0;
      if (kernel) {
        for (unsigned w = 0; w < warmups; ++w)
          runConvgen();
        auto t0 = Clock::now();
        runConvgen();
        callC = seconds(t0, Clock::now());
        cg.best = callC;
        pause();
      }
      if (dnnl) {
        for (unsigned w = 0; w < warmups; ++w)
          dnnl->run();
        auto t0 = Clock::now();
        dnnl->run();
        callD = seconds(t0, Clock::now());
        dn.best = callD;
        pause();
      }
      cg.iters = callC > 0 ? unsigned(std::clamp(
                                 std::ceil(batchMs * 1e-3 / callC), 1.0, 1e4))
                           : 1;
      dn.iters = callD > 0 ? unsigned(std::clamp(
                                 std::ceil(batchMs * 1e-3 / callD), 1.0, 1e4))
                           : 1;
      // The sizing calls count as the first sample; then numReps - 1 more
      // (fewer for slow shapes: at least 2 samples in all).
      double perRep = callC * cg.iters + callD * dn.iters;
      unsigned n = numReps - 1;
      if (perRep > 0 && perRep * n > maxShapeSeconds)
        n = std::max(1u, unsigned(maxShapeSeconds / perRep));

      // Alternate the sides (and which goes first) every repetition.
      for (unsigned r = 0; r < n && convgenOk; ++r) {
        for (int side = 0; side < 2; ++side) {
          bool convgenTurn = (side == 0) == (r % 2 == 0);
          if (convgenTurn && kernel) {
            settle(runConvgen);
            auto t0 = Clock::now();
            for (unsigned i = 0; i < cg.iters && convgenOk; ++i)
              runConvgen();
            cg.best = std::min(cg.best, seconds(t0, Clock::now()) / cg.iters);
            pause();
          } else if (!convgenTurn && dnnl) {
            settle([&] { dnnl->run(); });
            auto t0 = Clock::now();
            for (unsigned i = 0; i < dn.iters; ++i)
              dnnl->run();
            dn.best = std::min(dn.best, seconds(t0, Clock::now()) / dn.iters);
            pause();
          }
        }
      }
      if (kernel && convgenOk)
        row.convgenMs = cg.best * 1e3;
      else
        row.failed = true;
      if (dnnl)
        row.onednnMs = dn.best * 1e3;

      // Results: ConvGen against oneDNN (same inputs), or the f64 reference.
      std::string referenceLine;
      outCS.toF32();
      if (kernel && convgenOk) {
        if (dnnl) {
          dnnl->readResult(outDS.data());
          outDS.toF32();
          row.err = maxRelativeError(outC.data, outD.data, p.outElems);
          row.check = "onednn";
        } else if (p.flops <= refMaxGflop * 1e9 && kernel->singleConvOp()) {
          std::vector<double> a(lhs.data, lhs.data + lhs.size),
              b(rhs.data, rhs.data + rhs.size), ref(p.outElems);
          kernel->singleConvOp()->runReferenceF64(a.data(), b.data(),
                                                  ref.data());
          for (size_t i = 0; i < p.outElems; ++i)
            outD.data[i] = float(ref[i]);
          row.err = maxRelativeError(outC.data, outD.data, p.outElems);
          row.check = "reference";
        } else {
          row.check = "none";
        }
        bool verify = verifyReference || (smoke && verifyReference
                                                        .getNumOccurrences() ==
                                                    0);
        if (verify && row.check == "onednn" && kernel->singleConvOp() &&
            p.flops <= refMaxGflop * 1e9) {
          std::vector<double> a(lhs.data, lhs.data + lhs.size),
              b(rhs.data, rhs.data + rhs.size), ref(p.outElems);
          kernel->singleConvOp()->runReferenceF64(a.data(), b.data(),
                                                  ref.data());
          Buffer refF32(p.outElems);
          for (size_t i = 0; i < p.outElems; ++i)
            refF32.data[i] = float(ref[i]);
          double errC = maxRelativeError(outC.data, refF32.data, p.outElems);
          double errD = maxRelativeError(outD.data, refF32.data, p.outElems);
          referenceLine = "      " + p.def.id +
                          ": vs the f64 reference: ConvGen " +
                          fmtNum(errC, "%.2e") + ", oneDNN " +
                          fmtNum(errD, "%.2e") + "\n";
          if (!(errC <= tolerance)) {
            warn(p.def.id + ": ConvGen differs from the f64 reference by " +
                 fmtNum(errC, "%.3e"));
            row.failed = true;
          }
        }
        if (!std::isnan(row.err) && !(row.err <= tolerance)) {
          warn(p.def.id + ": max relative difference " +
               fmtNum(row.err, "%.3e") + " exceeds --rtol " +
               fmtNum(tolerance, "%.1e") + " (against " + row.check + ")");
          row.failed = true;
        }
      }
      anyFailure |= row.failed;
      printRow(row);
      llvm::outs() << referenceLine;
      rows.push_back(std::move(row));
    }
  }

  // The peak again: on a shared machine it moves, and % of peak with it.
  // A trial can only be slowed by other work, never sped up, so the higher
  // of the two measurements is the better estimate of the machine's peak:
  // the geomeans and the CSV use it (the rows above were printed with the
  // start's).
  if (!smoke) {
    llvm::outs() << "\nfp32 peak re-measured at the end:";
    bool raised = false;
    for (unsigned t : threads) {
      double end = measurePeakFlops(t, peakSecs, 5);
      llvm::outs() << llvm::format(" %u thread(s) %.1f GFLOP/s (start %.1f)",
                                   t, end * 1e-9, peak[t] * 1e-9);
      if (end > peak[t]) {
        raised = true;
        for (Row &row : rows)
          if (row.threads == t)
            row.peak = isBF16() ? 2 * end : end;
      }
    }
    llvm::outs() << "\n";
    if (raised)
      llvm::outs() << "(the geomeans and the CSV's % of peak use the higher "
                      "of the two; the rows above use the start's)\n";
  }
  printGeomeans(rows, threads);

  bool writeIt = !smoke || csvPath.getNumOccurrences() > 0 ||
                 !plotPath.empty();
  if (writeIt && writeCsv(csvPath, rows))
    llvm::outs() << "\nCSV: " << csvPath << "\n";
  if (!plotPath.empty()) {
    std::string py = python;
    if (!llvm::sys::fs::exists(py)) {
      auto found = llvm::sys::findProgramByName("python3");
      py = found ? *found : std::string();
    }
    if (py.empty()) {
      warn("--plot: no Python found; run tools/conv-bench/plot.py yourself");
    } else {
      llvm::SmallVector<llvm::StringRef, 8> args{
          py, CONV_BENCH_PLOT_SCRIPT, "--csv", csvPath, "--out", plotPath};
      std::string errMsg;
      int rc = llvm::sys::ExecuteAndWait(py, args, std::nullopt, {}, 0, 0,
                                         &errMsg);
      if (rc != 0)
        warn("--plot: plot.py failed (" + std::to_string(rc) + ") " + errMsg);
      else
        llvm::outs() << "plot: " << plotPath << "\n";
    }
  }
  if (anyFailure)
    llvm::errs() << "conv-bench: some shapes FAILED (see above)\n";
  return anyFailure ? 1 : 0;
}
