//===- OneDnn.cpp - oneDNN baseline for conv-bench ------------------------===//
//
// See OneDnn.h. Compiled with exceptions and RTTI (oneDNN's C++ API throws
// dnnl::error); nothing from LLVM is included here. Without oneDNN
// (CONV_BENCH_HAVE_ONEDNN unset) every entry point reports "not available".
//
//===----------------------------------------------------------------------===//

#include "OneDnn.h"

#include <cstring>
#include <dlfcn.h>

#ifdef CONV_BENCH_HAVE_ONEDNN
#include <oneapi/dnnl/dnnl.hpp>
#endif

namespace convbench {

DnnlRunner::~DnnlRunner() = default;

namespace {

/// omp_set_num_threads / omp_get_max_threads of the OpenMP runtime libdnnl
/// uses (Debian's oneDNN links GNU libgomp), looked up at run time so that
/// conv-bench does not have to pick an omp.h or link an OpenMP runtime.
template <typename Fn> Fn ompSymbol(const char *name) {
  for (const char *lib : {"libgomp.so.1", "libomp.so.5", "libomp.so",
                          "libiomp5.so"}) {
    if (void *handle = dlopen(lib, RTLD_NOW | RTLD_NOLOAD)) {
      void *sym = dlsym(handle, name);
      dlclose(handle);
      if (sym)
        return reinterpret_cast<Fn>(sym);
    }
  }
  return reinterpret_cast<Fn>(dlsym(RTLD_DEFAULT, name));
}

} // namespace

bool setOnednnThreads(int threads) {
  auto fn = ompSymbol<void (*)(int)>("omp_set_num_threads");
  if (!fn)
    return false;
  fn(threads);
  return true;
}

int onednnMaxThreads() {
  auto fn = ompSymbol<int (*)()>("omp_get_max_threads");
  return fn ? fn() : -1;
}

#ifndef CONV_BENCH_HAVE_ONEDNN

bool onednnAvailable() { return false; }
std::string onednnDescription() { return "oneDNN: not available"; }
std::unique_ptr<DnnlRunner> createDnnlRunner(const DnnlProblem &, void *,
                                             void *, std::string &error) {
  error = "oneDNN: not available";
  return nullptr;
}

#else

using namespace dnnl;
using dims = memory::dims;

bool onednnAvailable() { return true; }

std::string onednnDescription() {
  const version_t *v = dnnl::version();
  std::string runtime;
  switch (v->cpu_runtime) {
  case DNNL_RUNTIME_OMP:
    runtime = "OpenMP";
    break;
  case DNNL_RUNTIME_TBB:
    runtime = "TBB";
    break;
  case DNNL_RUNTIME_SEQ:
    runtime = "sequential";
    break;
  case DNNL_RUNTIME_THREADPOOL:
    runtime = "threadpool";
    break;
  default:
    runtime = "other";
  }
  return "oneDNN " + std::to_string(v->major) + "." +
         std::to_string(v->minor) + "." + std::to_string(v->patch) +
         " (cpu runtime: " + runtime + ")";
}

namespace {

/// Dims {N, C, spatial...} with channels-last strides.
memory::data_type dataType(const DnnlProblem &p) {
  return p.bf16 ? memory::data_type::bf16 : memory::data_type::f32;
}

memory::desc channelsLast(int64_t n, int64_t c,
                          const std::vector<int64_t> &spatial,
                          memory::data_type type) {
  dims d{n, c}, s(2 + spatial.size());
  d.insert(d.end(), spatial.begin(), spatial.end());
  s[1] = 1;
  int64_t stride = c;
  for (size_t i = spatial.size(); i-- > 0;) {
    s[2 + i] = stride;
    stride *= spatial[i];
  }
  s[0] = stride;
  return memory::desc(d, type, s);
}

/// Strides of the kernel dims for a row-major [spatial..., inner] tensor
/// whose innermost block (after the spatial dims) has `inner` elements.
std::vector<int64_t> kernelStrides(const std::vector<int64_t> &kernel,
                                   int64_t inner) {
  std::vector<int64_t> s(kernel.size());
  int64_t stride = inner;
  for (size_t i = kernel.size(); i-- > 0;) {
    s[i] = stride;
    stride *= kernel[i];
  }
  return s;
}

/// The dW filter as ConvGen stores it, [spatial..., Cin/groups, Cout], seen
/// as oneDNN weights {[G,] Cout/G, Cin/G, spatial...}.
memory::desc convgenFilterDesc(const DnnlProblem &p) {
  int64_t cout = p.dstChannels, cf = p.srcChannels / p.groups;
  std::vector<int64_t> ks = kernelStrides(p.kernel, cf * cout);
  dims d, s;
  if (p.groups > 1) {
    d = {p.groups, cout / p.groups, cf};
    s = {cout / p.groups, 1, cout};
  } else {
    d = {cout, cf};
    s = {1, cout};
  }
  d.insert(d.end(), p.kernel.begin(), p.kernel.end());
  s.insert(s.end(), ks.begin(), ks.end());
  return memory::desc(d, dataType(p), s);
}

/// The Keras transpose kernel [spatial..., Cout, Cin] as oneDNN deconvolution
/// weights {Cout, Cin, spatial...}.
memory::desc kerasKernelDesc(const DnnlProblem &p) {
  int64_t cin = p.srcChannels, cout = p.dstChannels;
  std::vector<int64_t> ks = kernelStrides(p.kernel, cout * cin);
  dims d{cout, cin}, s{cin, 1};
  d.insert(d.end(), p.kernel.begin(), p.kernel.end());
  s.insert(s.end(), ks.begin(), ks.end());
  return memory::desc(d, dataType(p), s);
}

/// An engine and stream shared by all primitives.
struct Context {
  engine eng{engine::kind::cpu, 0};
  stream strm{eng};
  static Context &get() {
    static Context context;
    return context;
  }
};

class Runner : public DnnlRunner {
public:
  primitive prim;
  std::unordered_map<int, memory> args;
  /// The memory holding the result in the primitive's format, and the user
  /// layout to reorder it into.
  memory result;
  memory::desc userResultDesc;
  std::string impl;

  void run() override {
    Context &c = Context::get();
    prim.execute(c.strm, args);
    c.strm.wait();
  }

  void readResult(void *out) override {
    Context &c = Context::get();
    memory user(userResultDesc, c.eng, out);
    reorder(result, user).execute(c.strm, result, user);
    c.strm.wait();
  }

  std::string implementation() const override { return impl; }
};

std::unique_ptr<DnnlRunner> create(const DnnlProblem &p, void *src,
                                   void *second) {
  Context &c = Context::get();
  dims strides(p.strides.begin(), p.strides.end());
  dims dilates;
  for (int64_t d : p.dilations)
    dilates.push_back(d - 1);
  dims padL(p.padL.begin(), p.padL.end()), padR(p.padR.begin(), p.padR.end());
  auto runner = std::make_unique<Runner>();

  if (p.kind == DnnlProblem::Kind::BackwardWeights) {
    memory::desc srcDesc = channelsLast(p.batch, p.srcChannels, p.srcSpatial, dataType(p));
    memory::desc dstDesc = channelsLast(p.batch, p.dstChannels, p.dstSpatial, dataType(p));
    dims wDims;
    if (p.groups > 1)
      wDims = {p.groups, p.dstChannels / p.groups, p.srcChannels / p.groups};
    else
      wDims = {p.dstChannels, p.srcChannels};
    wDims.insert(wDims.end(), p.kernel.begin(), p.kernel.end());
    memory::desc wAny(wDims, dataType(p), memory::format_tag::any);
    auto fwdDesc = convolution_forward::desc(
        prop_kind::forward_training, algorithm::convolution_direct, srcDesc,
        wAny, dstDesc, strides, dilates, padL, padR);
    auto fwdPd = convolution_forward::primitive_desc(fwdDesc, c.eng);
    auto bwdDesc = convolution_backward_weights::desc(
        algorithm::convolution_direct, srcDesc, wAny, dstDesc, strides,
        dilates, padL, padR);
    auto bwdPd =
        convolution_backward_weights::primitive_desc(bwdDesc, c.eng, fwdPd);
    runner->impl = bwdPd.impl_info_str();
    memory srcMem(srcDesc, c.eng, src), dstMem(dstDesc, c.eng, second);
    runner->result = memory(bwdPd.diff_weights_desc(), c.eng);
    runner->userResultDesc = convgenFilterDesc(p);
    runner->prim = convolution_backward_weights(bwdPd);
    runner->args = {{DNNL_ARG_SRC, srcMem},
                    {DNNL_ARG_DIFF_DST, dstMem},
                    {DNNL_ARG_DIFF_WEIGHTS, runner->result}};
    return runner;
  }

  memory::desc srcDesc = channelsLast(p.batch, p.srcChannels, p.srcSpatial, dataType(p));
  memory::desc dstDesc = channelsLast(p.batch, p.dstChannels, p.dstSpatial, dataType(p));
  dims wDims{p.dstChannels, p.srcChannels};
  wDims.insert(wDims.end(), p.kernel.begin(), p.kernel.end());
  memory::desc wAny(wDims, dataType(p), memory::format_tag::any);
  auto desc = deconvolution_forward::desc(
      prop_kind::forward_inference, algorithm::deconvolution_direct, srcDesc,
      wAny, dstDesc, strides, dilates, padL, padR);
  auto pd = deconvolution_forward::primitive_desc(desc, c.eng);
  runner->impl = pd.impl_info_str();
  memory srcMem(srcDesc, c.eng, src);
  memory userWeights(kerasKernelDesc(p), c.eng, second);
  memory weights(pd.weights_desc(), c.eng);
  reorder(userWeights, weights).execute(c.strm, userWeights, weights);
  c.strm.wait();
  runner->result = memory(pd.dst_desc(), c.eng);
  runner->userResultDesc = dstDesc;
  runner->prim = deconvolution_forward(pd);
  runner->args = {{DNNL_ARG_SRC, srcMem},
                  {DNNL_ARG_WEIGHTS, weights},
                  {DNNL_ARG_DST, runner->result}};
  return runner;
}

} // namespace

std::unique_ptr<DnnlRunner> createDnnlRunner(const DnnlProblem &problem,
                                             void *src, void *second,
                                             std::string &error) {
  try {
    return create(problem, src, second);
  } catch (const dnnl::error &e) {
    error = std::string("oneDNN: ") + e.what() + " (status " +
            std::to_string(int(e.status)) + ")";
  } catch (const std::exception &e) {
    error = std::string("oneDNN: ") + e.what();
  }
  return nullptr;
}

#endif // CONV_BENCH_HAVE_ONEDNN

} // namespace convbench
