//===- Geometry.h - Shape, padding and crop arithmetic ----------*- C++ -*-===//
//
// The one implementation of the output-size / padding / crop formulas of
// conv.backprop_filter (tf.nn.conv2d_backprop_filter generalized to N-D and
// groups) and conv.transpose (keras.ops.conv_transpose). See
// docs/Semantics.md and ../shared/spec/semantics.md (§1.3, §2.2, §2.3).
//
// This library has no MLIR or LLVM dependency: the dialect verifiers, the op
// builders, the lowerings, the JIT API, the reference and the Python package
// all call it.
//
//===----------------------------------------------------------------------===//

#ifndef CONV_GEOMETRY_GEOMETRY_H
#define CONV_GEOMETRY_GEOMETRY_H

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace convgen {

/// A value or an error message (no exceptions, no LLVM dependency).
template <typename T> class Result {
public:
  Result(T value) : value_(std::move(value)) {}
  static Result failure(std::string message) {
    Result r;
    r.error_ = std::move(message);
    return r;
  }
  explicit operator bool() const { return value_.has_value(); }
  bool ok() const { return value_.has_value(); }
  const T &value() const { return *value_; }
  T &value() { return *value_; }
  const T &operator*() const { return *value_; }
  const T *operator->() const { return &*value_; }
  const std::string &error() const { return error_; }

private:
  Result() = default;
  std::optional<T> value_;
  std::string error_;
};

using Shape = std::vector<int64_t>;

/// Where the channel dimension sits in activations.
enum class DataLayout { ChannelsLast, ChannelsFirst };

/// TF padding of conv.backprop_filter.
enum class FilterPadding { Valid, Same, Explicit };

/// Keras padding of conv.transpose.
enum class TransposePadding { Valid, Same };

const char *stringify(FilterPadding p);   // "SAME" | "VALID" | "EXPLICIT"
const char *stringify(TransposePadding p); // "valid" | "same"

/// TF data_format name for a rank: NWC/NHWC/NDHWC or NCW/NCHW/NCDHW.
std::string tfDataFormatName(DataLayout layout, int64_t numSpatialDims);

/// Letter of spatial dimension `dim` of `numSpatialDims` (W / H,W / D,H,W).
char spatialDimLetter(int64_t dim, int64_t numSpatialDims);

/// Dimension index of the channels / of spatial dimension `dim` in an
/// activation tensor ([N, spatial..., C] or [N, C, spatial...]).
int64_t channelDimension(DataLayout layout, int64_t numSpatialDims);
int64_t spatialDimension(DataLayout layout, int64_t dim);
/// [batch, spatial..., channels] or [batch, channels, spatial...].
Shape activationShape(DataLayout layout, int64_t batch, const Shape &spatial,
                      int64_t channels);

/// (k - 1) * d + 1.
int64_t effectiveKernelSize(int64_t kernel, int64_t dilation);

/// The input positions that `outputs` consecutive outputs of a window of
/// `kernel` taps (dilation `dilation`, stride `stride`) span:
/// (outputs - 1) * stride + effectiveKernelSize(kernel, dilation).
int64_t windowSpan(int64_t outputs, int64_t stride, int64_t kernel,
                   int64_t dilation);

/// Result of TF's GetWindowedOutputSizeVerbose for one spatial dimension.
struct WindowedSize {
  int64_t outSize = 0;
  /// Pads as TF reports them (SAME: P/2 before, the odd one after).
  int64_t padBefore = 0;
  int64_t padAfter = 0;
};

/// TF GetWindowedOutputSizeVerbose (kernel_shape_util.cc): int64 truncating
/// division; explicit pads are read only for FilterPadding::Explicit.
Result<WindowedSize> windowedOutputSize(int64_t inSize, int64_t kernel,
                                        int64_t dilation, int64_t stride,
                                        FilterPadding padding,
                                        int64_t explicitBefore = 0,
                                        int64_t explicitAfter = 0);

//===----------------------------------------------------------------------===//
// conv.backprop_filter
//===----------------------------------------------------------------------===//

/// Attributes of conv.backprop_filter; vectors have one entry per spatial
/// dimension (explicitPaddings: before, after per spatial dimension).
struct BackpropFilterAttrs {
  DataLayout layout = DataLayout::ChannelsLast;
  Shape strides;
  Shape dilations;
  FilterPadding padding = FilterPadding::Valid;
  Shape explicitPaddings;
};

/// Everything the lowering and the reference need about one backprop_filter.
///   dW[k..., ci, co] = sum_{b, o...} X[b, o*s + k*d - padBefore, g(co)*Cf + ci]
///                                      * dY[b, o..., co]
/// with g(co) = co / (Cout / groups) and X = 0 outside the input.
struct BackpropFilterGeometry {
  int64_t numSpatialDims = 0;
  DataLayout layout = DataLayout::ChannelsLast;
  int64_t batch = 0;
  int64_t inChannels = 0;       // Cin of the input
  int64_t filterInChannels = 0; // Cin / groups
  int64_t outChannels = 0;      // Cout
  int64_t groups = 1;
  Shape inputSpatial, filterSpatial, outSpatial;
  Shape strides, dilations;
  /// Pads as TF computes them (>= 0).
  Shape padBefore, padAfter;
  /// (out - 1) * s + k_eff - in - padBefore: the pad actually read after the
  /// input; negative when trailing input rows are never read (cropped).
  Shape padAfterUsed;

  Shape inputShape() const;       // in the data layout
  Shape outBackpropShape() const; // in the data layout
  Shape filterShape() const;      // [spatial..., Cin/groups, Cout]
  /// 2 * Cout * Cf * prod(k) * batch * prod(out).
  double flops() const;
  /// The output positions [lo, hi) along spatial dimension `d` at which tap
  /// `k` reads the input (o*s + k*dil - padBefore in [0, in)); the others
  /// read zero padding. Empty (lo == hi) when the tap reads none.
  std::pair<int64_t, int64_t> tapInputRange(int64_t d, int64_t k) const;
};

/// Validates every rule of spec §1.3/§1.4/§1.6 that applies to our op (ranks,
/// attribute lengths and values, channel divisibility, batch equality, the
/// computed out_backprop size) and returns the geometry. Messages name the
/// operand or attribute, the dimension and the values.
Result<BackpropFilterGeometry>
computeBackpropFilterGeometry(const BackpropFilterAttrs &attrs,
                              const Shape &inputShape, const Shape &filterShape,
                              const Shape &outBackpropShape);

/// The out_backprop shape implied by input, filter and attributes (for
/// builders); validates the same rules except the out_backprop ones.
Result<Shape> inferOutBackpropShape(const BackpropFilterAttrs &attrs,
                                    const Shape &inputShape,
                                    const Shape &filterShape);

//===----------------------------------------------------------------------===//
// conv.transpose
//===----------------------------------------------------------------------===//

/// Attributes of conv.transpose; one entry per spatial dimension.
/// outputPadding absent means Keras' None, which differs from 0.
struct TransposeAttrs {
  DataLayout layout = DataLayout::ChannelsLast;
  Shape strides;
  Shape dilations;
  TransposePadding padding = TransposePadding::Valid;
  std::optional<Shape> outputPadding;
};

/// Keras output length of one spatial dimension (spec §2.2).
int64_t transposeOutputSize(int64_t inSize, int64_t kernel, int64_t stride,
                            int64_t dilation, TransposePadding padding,
                            std::optional<int64_t> outputPadding);

/// Elements dropped at the start of the full transposed output (spec §2.3).
int64_t transposeCropBefore(int64_t kernel, int64_t stride, int64_t dilation,
                            TransposePadding padding,
                            std::optional<int64_t> outputPadding);

/// JAX explicit (left, right) padding of the lhs-dilated formulation
/// (Keras _convert_conv_transpose_padding_args_from_keras_to_jax).
std::pair<int64_t, int64_t>
transposeJaxPadding(int64_t kernel, int64_t stride, int64_t dilation,
                    TransposePadding padding,
                    std::optional<int64_t> outputPadding);

/// Everything the lowering and the reference need about one transpose:
///   full[p] = sum_{i, m: i*s + m*d = p} sum_c x[i, c] * K[m, o, c]
///   out[q]  = full[q + cropBefore]   (0 outside [0, fullSize))
struct TransposeGeometry {
  int64_t numSpatialDims = 0;
  DataLayout layout = DataLayout::ChannelsLast;
  int64_t batch = 0;
  int64_t inChannels = 0;
  int64_t outChannels = 0;
  Shape inputSpatial, kernelSpatial, outSpatial;
  Shape strides, dilations;
  Shape cropBefore;
  /// (in - 1) * s + k_eff: extent of the uncropped result.
  Shape fullSpatial;

  Shape inputShape() const;  // in the data layout
  Shape kernelShape() const; // [spatial..., Cout, Cin]
  Shape outputShape() const; // in the data layout
  /// 2 * Cin * Cout * prod(k) * batch * prod(in) (no zero taps counted).
  double flops() const;
};

Result<TransposeGeometry> computeTransposeGeometry(const TransposeAttrs &attrs,
                                                   const Shape &inputShape,
                                                   const Shape &kernelShape);

} // namespace convgen

#endif // CONV_GEOMETRY_GEOMETRY_H
