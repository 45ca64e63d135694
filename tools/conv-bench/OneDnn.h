//===- OneDnn.h - oneDNN baseline for conv-bench ----------------*- C++ -*-===//
//
// A thin wrapper over oneDNN's C++ API (Debian libdnnl-dev 2.6.3) that runs
// the same problem as a ConvGen kernel on the same caller-owned buffers:
//   - conv.backprop_filter -> convolution_backward_weights (hinted by a
//     forward_training convolution), src and diff_dst in the channels-last
//     layout ConvGen reads, diff_weights in format_tag::any;
//   - conv.transpose -> deconvolution_forward (forward_inference), src and
//     dst channels-last, weights reordered once from the Keras layout
//     [spatial..., Cout, Cin] into the format the primitive picked.
// Reorders are done outside run() (not timed). This header has no oneDNN or
// LLVM dependency: OneDnn.cpp is compiled with exceptions and RTTI (the
// oneDNN C++ API throws), the rest of conv-bench without.
//
//===----------------------------------------------------------------------===//

#ifndef CONV_BENCH_ONEDNN_H
#define CONV_BENCH_ONEDNN_H

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace convbench {

/// One problem in oneDNN's terms (channels-last activations, f32).
struct DnnlProblem {
  enum class Kind { BackwardWeights, Deconvolution };
  Kind kind = Kind::BackwardWeights;
  int64_t batch = 0;
  /// BackwardWeights: the forward conv's input channels (src) and output
  /// channels (diff_dst). Deconvolution: src (Cin) and dst (Cout) channels.
  int64_t srcChannels = 0;
  int64_t dstChannels = 0;
  int64_t groups = 1;
  /// Spatial sizes of src and dst (forward conv input / output for
  /// BackwardWeights; deconvolution input / output for Deconvolution).
  std::vector<int64_t> srcSpatial, dstSpatial, kernel, strides;
  /// 1-based (ConvGen / TF / Keras); converted to oneDNN's 0-based dilates.
  std::vector<int64_t> dilations;
  /// oneDNN padding_l / padding_r (padding_r may be negative for a
  /// deconvolution whose output extends past the full result).
  std::vector<int64_t> padL, padR;
  /// bf16 operands and result (accumulated in f32 by both sides) instead
  /// of f32.
  bool bf16 = false;
};

/// A created oneDNN primitive bound to the caller's buffers.
class DnnlRunner {
public:
  virtual ~DnnlRunner();
  /// One execution + stream wait (what is timed).
  virtual void run() = 0;
  /// Copies (reorders) the result into `out` in ConvGen's layout: the dW
  /// filter [spatial..., Cin/groups, Cout] or the channels-last transpose
  /// output. Not timed.
  virtual void readResult(void *out) = 0;
  /// oneDNN's implementation name (e.g. "jit:avx2").
  virtual std::string implementation() const = 0;
};

/// False when conv-bench was built without oneDNN.
bool onednnAvailable();
/// "oneDNN 2.6.3 (cpu runtime: OpenMP)" or "oneDNN: not available".
std::string onednnDescription();
/// Sets the thread count of oneDNN's OpenMP runtime (omp_set_num_threads of
/// the OpenMP library libdnnl is linked against); returns false if that
/// runtime could not be found.
bool setOnednnThreads(int threads);
/// omp_get_max_threads() of that runtime, or -1.
int onednnMaxThreads();

/// Creates the primitive for `problem` on the caller's buffers: `src` is the
/// input of both ops (channels-last); `second` is out_backprop (dW,
/// channels-last) or the Keras kernel (transpose). Must be called after
/// setOnednnThreads (oneDNN fixes its thread decomposition at creation).
/// Null with `error` set on failure (e.g. an unsupported configuration).
std::unique_ptr<DnnlRunner> createDnnlRunner(const DnnlProblem &problem,
                                             void *src, void *second,
                                             std::string &error);

} // namespace convbench

#endif // CONV_BENCH_ONEDNN_H
