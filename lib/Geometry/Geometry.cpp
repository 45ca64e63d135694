//===- Geometry.cpp - Shape, padding and crop arithmetic ------------------===//
//
// Formulas of ../shared/spec/semantics.md §1.3 (TF) and §2.2-2.4 (Keras).
// All divisions are C++ int64 divisions, which truncate toward zero exactly
// like TensorFlow's.
//
//===----------------------------------------------------------------------===//

#include "conv/Geometry/Geometry.h"

#include <algorithm>
#include <sstream>

namespace convgen {

namespace {

std::string join(const Shape &v) {
  std::ostringstream os;
  os << "[";
  for (size_t i = 0; i < v.size(); ++i)
    os << (i ? ", " : "") << v[i];
  os << "]";
  return os.str();
}

/// "spatial dimension 1 (W)".
std::string spatialName(int64_t dim, int64_t n) {
  std::ostringstream os;
  os << "spatial dimension " << dim << " (" << spatialDimLetter(dim, n) << ")";
  return os.str();
}

double product(const Shape &v) {
  double p = 1;
  for (int64_t x : v)
    p *= static_cast<double>(x);
  return p;
}

/// "1 entry" / "3 entries".
std::string entries(int64_t n) {
  return std::to_string(n) + (n == 1 ? " entry" : " entries");
}

/// Checks the common structure: N in 1..3, operand ranks N + 2, no negative
/// dimension, attribute lengths N and values >= 1.
std::optional<std::string>
checkCommon(int64_t n, const std::vector<std::pair<const char *, const Shape *>>
                           &operands,
            const std::vector<std::pair<const char *, const Shape *>> &attrs) {
  std::ostringstream os;
  if (n < 1 || n > 3) {
    os << operands[0].first << " must have rank 3, 4 or 5 "
       << "(1 to 3 spatial dimensions), got rank "
       << operands[0].second->size();
    return os.str();
  }
  for (auto &[name, shape] : operands) {
    if (static_cast<int64_t>(shape->size()) != n + 2) {
      os << name << " must have rank " << n + 2 << " like "
         << operands[0].first << " (" << n
         << " spatial dimensions), got rank "
         << shape->size() << " (shape " << join(*shape) << ")";
      return os.str();
    }
    for (size_t i = 0; i < shape->size(); ++i)
      if ((*shape)[i] < 0) {
        os << name << " dimension " << i
           << " must be a static size >= 0, got " << (*shape)[i];
        return os.str();
      }
  }
  for (auto &[name, values] : attrs) {
    if (static_cast<int64_t>(values->size()) != n) {
      os << "attribute '" << name << "' must have " << entries(n)
         << " (one per spatial dimension), got " << values->size()
         << ": " << join(*values);
      return os.str();
    }
    for (int64_t d = 0; d < n; ++d)
      if ((*values)[d] < 1) {
        os << "attribute '" << name << "' " << spatialName(d, n)
           << " must be >= 1, got " << (*values)[d];
        return os.str();
      }
  }
  return std::nullopt;
}

} // namespace

int64_t channelDimension(DataLayout layout, int64_t numSpatialDims) {
  return layout == DataLayout::ChannelsLast ? numSpatialDims + 1 : 1;
}

int64_t spatialDimension(DataLayout layout, int64_t dim) {
  return layout == DataLayout::ChannelsLast ? 1 + dim : 2 + dim;
}

Shape activationShape(DataLayout layout, int64_t batch, const Shape &spatial,
                      int64_t channels) {
  Shape s{batch};
  if (layout == DataLayout::ChannelsFirst)
    s.push_back(channels);
  s.insert(s.end(), spatial.begin(), spatial.end());
  if (layout == DataLayout::ChannelsLast)
    s.push_back(channels);
  return s;
}

const char *stringify(FilterPadding p) {
  switch (p) {
  case FilterPadding::Valid:
    return "VALID";
  case FilterPadding::Same:
    return "SAME";
  case FilterPadding::Explicit:
    return "EXPLICIT";
  }
  return "?";
}

const char *stringify(TransposePadding p) {
  return p == TransposePadding::Valid ? "valid" : "same";
}

std::string tfDataFormatName(DataLayout layout, int64_t n) {
  static const char *spatial[] = {"W", "HW", "DHW"};
  if (n < 1 || n > 3)
    return "?";
  std::string s = spatial[n - 1];
  return layout == DataLayout::ChannelsLast ? "N" + s + "C" : "NC" + s;
}

char spatialDimLetter(int64_t dim, int64_t n) {
  static const char *letters = "DHW";
  if (n < 1 || n > 3 || dim < 0 || dim >= n)
    return '?';
  return letters[3 - n + dim];
}

int64_t effectiveKernelSize(int64_t kernel, int64_t dilation) {
  return (kernel - 1) * dilation + 1;
}

int64_t windowSpan(int64_t outputs, int64_t stride, int64_t kernel,
                   int64_t dilation) {
  return (outputs - 1) * stride + effectiveKernelSize(kernel, dilation);
}

Result<WindowedSize> windowedOutputSize(int64_t in, int64_t k, int64_t d,
                                        int64_t s, FilterPadding padding,
                                        int64_t explicitBefore,
                                        int64_t explicitAfter) {
  std::ostringstream os;
  if (s <= 0) {
    os << "Stride must be > 0, but got " << s;
    return Result<WindowedSize>::failure(os.str());
  }
  if (d < 1) {
    os << "Dilation rate must be >= 1, but got " << d;
    return Result<WindowedSize>::failure(os.str());
  }
  int64_t kEff = effectiveKernelSize(k, d);
  WindowedSize w;
  switch (padding) {
  case FilterPadding::Valid:
    w.outSize = (in - kEff + s) / s;
    break;
  case FilterPadding::Explicit:
    w.outSize = (in + explicitBefore + explicitAfter - kEff + s) / s;
    w.padBefore = explicitBefore;
    w.padAfter = explicitAfter;
    break;
  case FilterPadding::Same: {
    w.outSize = (in + s - 1) / s;
    int64_t total = std::max<int64_t>(0, (w.outSize - 1) * s + kEff - in);
    w.padBefore = total / 2;
    w.padAfter = total - w.padBefore;
    break;
  }
  }
  if (w.outSize < 0) {
    os << "Computed output size would be negative: " << w.outSize
       << " [input_size: " << in << ", effective_filter_size: " << kEff
       << ", stride: " << s << "]";
    return Result<WindowedSize>::failure(os.str());
  }
  return w;
}

//===----------------------------------------------------------------------===//
// conv.backprop_filter
//===----------------------------------------------------------------------===//

Shape BackpropFilterGeometry::inputShape() const {
  return activationShape(layout, batch, inputSpatial, inChannels);
}

Shape BackpropFilterGeometry::outBackpropShape() const {
  return activationShape(layout, batch, outSpatial, outChannels);
}

Shape BackpropFilterGeometry::filterShape() const {
  Shape s = filterSpatial;
  s.push_back(filterInChannels);
  s.push_back(outChannels);
  return s;
}

double BackpropFilterGeometry::flops() const {
  return 2.0 * static_cast<double>(outChannels) *
         static_cast<double>(filterInChannels) * product(filterSpatial) *
         static_cast<double>(batch) * product(outSpatial);
}

std::pair<int64_t, int64_t>
BackpropFilterGeometry::tapInputRange(int64_t d, int64_t k) const {
  int64_t s = strides[d], first = padBefore[d] - k * dilations[d];
  int64_t lo = std::clamp<int64_t>(first > 0 ? (first + s - 1) / s : 0, 0,
                                   outSpatial[d]);
  int64_t last = inputSpatial[d] - 1 + first; // o * s <= last
  int64_t hi = last < 0 ? 0 : std::min(outSpatial[d], last / s + 1);
  return {lo, std::max(lo, hi)};
}

namespace {

/// Everything but the out_backprop checks; fills the geometry's outSpatial
/// with the computed sizes.
Result<BackpropFilterGeometry>
backpropFilterCore(const BackpropFilterAttrs &attrs, const Shape &input,
                   const Shape &filter, const Shape *outBackprop) {
  using R = Result<BackpropFilterGeometry>;
  int64_t n = static_cast<int64_t>(input.size()) - 2;
  std::vector<std::pair<const char *, const Shape *>> operands = {
      {"operand 'input'", &input}, {"result 'filter'", &filter}};
  if (outBackprop)
    operands.push_back({"operand 'out_backprop'", outBackprop});
  if (auto err = checkCommon(n, operands, {{"strides", &attrs.strides},
                                           {"dilations", &attrs.dilations}}))
    return R::failure(*err);

  std::ostringstream os;
  // explicit_paddings (TF CheckValidPadding).
  if (attrs.padding == FilterPadding::Explicit) {
    if (static_cast<int64_t>(attrs.explicitPaddings.size()) != 2 * n) {
      os << "attribute 'explicit_paddings' must have " << 2 * n
         << " entries (before, after per spatial dimension) with padding "
            "EXPLICIT, got "
         << attrs.explicitPaddings.size() << ": "
         << join(attrs.explicitPaddings);
      return R::failure(os.str());
    }
    for (int64_t i = 0; i < 2 * n; ++i)
      if (attrs.explicitPaddings[i] < 0) {
        os << "attribute 'explicit_paddings' entry " << i << " ("
           << spatialName(i / 2, n) << (i % 2 ? ", after" : ", before")
           << ") must be >= 0, got " << attrs.explicitPaddings[i]
           << " (All elements of explicit_paddings must be nonnegative)";
        return R::failure(os.str());
      }
  } else if (!attrs.explicitPaddings.empty()) {
    os << "attribute 'explicit_paddings' must be empty if padding is not "
          "EXPLICIT (padding is "
       << stringify(attrs.padding) << ", got "
       << join(attrs.explicitPaddings) << ")";
    return R::failure(os.str());
  }

  BackpropFilterGeometry g;
  g.numSpatialDims = n;
  g.layout = attrs.layout;
  g.strides = attrs.strides;
  g.dilations = attrs.dilations;
  int64_t cIdx = channelDimension(attrs.layout, n);
  g.batch = input[0];
  g.inChannels = input[cIdx];
  g.filterInChannels = filter[n];
  g.outChannels = filter[n + 1];
  for (int64_t d = 0; d < n; ++d) {
    g.inputSpatial.push_back(input[spatialDimension(attrs.layout, d)]);
    g.filterSpatial.push_back(filter[d]);
  }

  if (outBackprop && (*outBackprop)[0] != g.batch) {
    os << "operands 'input' and 'out_backprop' must have the same batch size, "
          "got input batch "
       << g.batch << " and out_backprop batch " << (*outBackprop)[0];
    return R::failure(os.str());
  }
  if (g.filterInChannels <= 0) {
    os << "result 'filter' in-channels (dimension " << n
       << ") must be > 0, got " << g.filterInChannels
       << " (filter depth must be strictly greater than zero)";
    return R::failure(os.str());
  }
  if (g.inChannels % g.filterInChannels != 0) {
    os << "operand 'input' channels (dimension " << cIdx << ") = "
       << g.inChannels
       << " must be evenly divisible by result 'filter' in-channels "
          "(dimension "
       << n << ") = " << g.filterInChannels;
    return R::failure(os.str());
  }
  if (g.inChannels == 0) {
    os << "operand 'input' has 0 channels (dimension " << cIdx
       << ") but result 'filter' in-channels (dimension " << n << ") is "
       << g.filterInChannels
       << ": the group count (input channels / filter in-channels) must be "
          ">= 1";
    return R::failure(os.str());
  }
  g.groups = g.inChannels / g.filterInChannels;
  if (outBackprop && (*outBackprop)[cIdx] != g.outChannels) {
    os << "result 'filter' out-channels (dimension " << n + 1 << ") = "
       << g.outChannels << " and operand 'out_backprop' channels (dimension "
       << cIdx << ") = " << (*outBackprop)[cIdx] << " must be equal";
    return R::failure(os.str());
  }
  if (g.groups > 1 && g.outChannels % g.groups != 0) {
    os << "result 'filter' out-channels (dimension " << n + 1 << ") = "
       << g.outChannels << " must be divisible by the group count "
       << g.groups
       << " (input channels " << g.inChannels << " / filter in-channels "
       << g.filterInChannels << ")";
    return R::failure(os.str());
  }

  for (int64_t d = 0; d < n; ++d) {
    int64_t pb = 0, pa = 0;
    if (attrs.padding == FilterPadding::Explicit) {
      pb = attrs.explicitPaddings[2 * d];
      pa = attrs.explicitPaddings[2 * d + 1];
    }
    auto w = windowedOutputSize(g.inputSpatial[d], g.filterSpatial[d],
                                g.dilations[d], g.strides[d], attrs.padding,
                                pb, pa);
    if (!w) {
      os << "operand 'out_backprop' " << spatialName(d, n)
         << " (dimension " << spatialDimension(attrs.layout, d)
         << "): " << w.error() << " (filter: " << g.filterSpatial[d]
         << ", dilation: " << g.dilations[d]
         << ", padding: " << stringify(attrs.padding) << ")";
      return R::failure(os.str());
    }
    g.outSpatial.push_back(w->outSize);
    g.padBefore.push_back(w->padBefore);
    g.padAfter.push_back(w->padAfter);
    g.padAfterUsed.push_back(windowSpan(w->outSize, g.strides[d],
                                        g.filterSpatial[d], g.dilations[d]) -
                             g.inputSpatial[d] - w->padBefore);
  }
  return g;
}

} // namespace

Result<BackpropFilterGeometry>
computeBackpropFilterGeometry(const BackpropFilterAttrs &attrs,
                              const Shape &input, const Shape &filter,
                              const Shape &outBackprop) {
  using R = Result<BackpropFilterGeometry>;
  auto g = backpropFilterCore(attrs, input, filter, &outBackprop);
  if (!g)
    return g;
  int64_t n = g->numSpatialDims;
  for (int64_t d = 0; d < n; ++d) {
    int64_t idx = spatialDimension(attrs.layout, d);
    if (outBackprop[idx] != g->outSpatial[d]) {
      std::ostringstream os;
      os << "operand 'out_backprop' " << spatialName(d, n) << " (dimension "
         << idx << ") has size " << outBackprop[idx]
         << " but the computed size is " << g->outSpatial[d]
         << " (input: " << g->inputSpatial[d]
         << ", filter: " << g->filterSpatial[d]
         << ", stride: " << g->strides[d]
         << ", dilation: " << g->dilations[d]
         << ", padding: " << stringify(attrs.padding) << ")";
      return R::failure(os.str());
    }
  }
  return g;
}

Result<Shape> inferOutBackpropShape(const BackpropFilterAttrs &attrs,
                                    const Shape &input, const Shape &filter) {
  auto g = backpropFilterCore(attrs, input, filter, nullptr);
  if (!g)
    return Result<Shape>::failure(g.error());
  return g->outBackpropShape();
}

//===----------------------------------------------------------------------===//
// conv.transpose
//===----------------------------------------------------------------------===//

int64_t transposeOutputSize(int64_t in, int64_t k, int64_t s, int64_t d,
                            TransposePadding padding,
                            std::optional<int64_t> op) {
  int64_t kEff = effectiveKernelSize(k, d);
  if (padding == TransposePadding::Valid)
    return op ? (in - 1) * s + kEff + *op : (in - 1) * s + std::max(kEff, s);
  return op ? (in - 1) * s + kEff % 2 + *op : in * s;
}

int64_t transposeCropBefore(int64_t k, int64_t s, int64_t d,
                            TransposePadding padding,
                            std::optional<int64_t> op) {
  if (padding == TransposePadding::Valid)
    return 0;
  int64_t kEff = effectiveKernelSize(k, d);
  if (!op)
    return std::max<int64_t>(0, kEff - s) / 2;
  return std::max<int64_t>(0, kEff - kEff % 2 - *op) / 2;
}

std::pair<int64_t, int64_t> transposeJaxPadding(int64_t k, int64_t s,
                                                int64_t d,
                                                TransposePadding padding,
                                                std::optional<int64_t> op) {
  int64_t kEff = effectiveKernelSize(k, d);
  if (padding == TransposePadding::Valid) {
    int64_t o = op ? *op : std::max(kEff, s) - kEff;
    return {kEff - 1, kEff - 1 + o};
  }
  int64_t padLen = op ? kEff + kEff % 2 - 2 + *op : s + kEff - 2;
  int64_t left = std::min(padLen / 2 + padLen % 2, kEff - 1);
  return {left, padLen - left};
}

Shape TransposeGeometry::inputShape() const {
  return activationShape(layout, batch, inputSpatial, inChannels);
}

Shape TransposeGeometry::kernelShape() const {
  Shape s = kernelSpatial;
  s.push_back(outChannels);
  s.push_back(inChannels);
  return s;
}

Shape TransposeGeometry::outputShape() const {
  return activationShape(layout, batch, outSpatial, outChannels);
}

double TransposeGeometry::flops() const {
  return 2.0 * static_cast<double>(inChannels) *
         static_cast<double>(outChannels) * product(kernelSpatial) *
         static_cast<double>(batch) * product(inputSpatial);
}

Result<TransposeGeometry> computeTransposeGeometry(const TransposeAttrs &attrs,
                                                   const Shape &input,
                                                   const Shape &kernel) {
  using R = Result<TransposeGeometry>;
  int64_t n = static_cast<int64_t>(input.size()) - 2;
  if (auto err = checkCommon(n,
                             {{"operand 'inputs'", &input},
                              {"operand 'kernel'", &kernel}},
                             {{"strides", &attrs.strides},
                              {"dilation_rate", &attrs.dilations}}))
    return R::failure(*err);
  std::ostringstream os;
  if (attrs.outputPadding) {
    const Shape &op = *attrs.outputPadding;
    if (static_cast<int64_t>(op.size()) != n) {
      os << "attribute 'output_padding' must have " << entries(n)
         << " (one per spatial dimension), got " << op.size() << ": "
         << join(op);
      return R::failure(os.str());
    }
    for (int64_t d = 0; d < n; ++d) {
      if (op[d] < 0) {
        os << "attribute 'output_padding' " << spatialName(d, n)
           << " must be >= 0, got " << op[d];
        return R::failure(os.str());
      }
      if (op[d] >= attrs.strides[d]) {
        os << "attribute 'output_padding' must be strictly less than "
              "'strides': at "
           << spatialName(d, n) << " output_padding is " << op[d]
           << " but strides is " << attrs.strides[d]
           << " (output_padding=" << join(op)
           << ", strides=" << join(attrs.strides) << ")";
        return R::failure(os.str());
      }
    }
  }

  TransposeGeometry g;
  g.numSpatialDims = n;
  g.layout = attrs.layout;
  g.strides = attrs.strides;
  g.dilations = attrs.dilations;
  int64_t cIdx = channelDimension(attrs.layout, n);
  g.batch = input[0];
  g.inChannels = input[cIdx];
  g.outChannels = kernel[n];
  if (kernel[n + 1] != g.inChannels) {
    os << "the number of input channels must match the kernel's input "
          "channels: operand 'inputs' channels (dimension "
       << cIdx << ") = " << g.inChannels
       << ", operand 'kernel' input channels (dimension " << n + 1
       << ") = " << kernel[n + 1];
    return R::failure(os.str());
  }
  for (int64_t d = 0; d < n; ++d)
    if (kernel[d] < 1) {
      // Keras rejects kernel_size <= 0 (standardize_tuple, value > 0).
      os << "operand 'kernel' " << spatialName(d, n) << " (dimension " << d
         << ") must be >= 1, got " << kernel[d];
      return R::failure(os.str());
    }
  for (int64_t d = 0; d < n; ++d) {
    int64_t in = input[spatialDimension(attrs.layout, d)];
    int64_t k = kernel[d], s = g.strides[d], dil = g.dilations[d];
    std::optional<int64_t> op;
    if (attrs.outputPadding)
      op = (*attrs.outputPadding)[d];
    int64_t out = transposeOutputSize(in, k, s, dil, attrs.padding, op);
    if (out < 0) {
      os << spatialName(d, n) << ": computed output size would be negative: "
         << out << " (input: " << in << ", kernel: " << k
         << ", stride: " << s << ", dilation: " << dil
         << ", padding: " << stringify(attrs.padding) << ")";
      return R::failure(os.str());
    }
    g.inputSpatial.push_back(in);
    g.kernelSpatial.push_back(k);
    g.outSpatial.push_back(out);
    g.cropBefore.push_back(transposeCropBefore(k, s, dil, attrs.padding, op));
    g.fullSpatial.push_back(std::max<int64_t>(0, windowSpan(in, s, k, dil)));
  }
  return g;
}

} // namespace convgen
