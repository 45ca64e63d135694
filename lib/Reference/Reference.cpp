//===- Reference.cpp - Plain loop reference of both ops -------------------===//
//
// Every N-D problem is promoted to 3-D by prepending unit spatial dimensions
// (size 1, stride 1, dilation 1, no padding), which leaves the sums unchanged.
//
//===----------------------------------------------------------------------===//

#include "conv/Reference/Reference.h"

#include <array>
#include <vector>

namespace convgen {

namespace {

using A3 = std::array<int64_t, 3>;

A3 promote(const Shape &v, int64_t fill) {
  A3 r{fill, fill, fill};
  size_t off = 3 - v.size();
  for (size_t i = 0; i < v.size(); ++i)
    r[off + i] = v[i];
  return r;
}

/// Linear offset of activation element (b, sp[0..2], c).
struct ActivationIndexer {
  DataLayout layout;
  int64_t channels;
  A3 sizes;
  int64_t operator()(int64_t b, const A3 &sp, int64_t c) const {
    int64_t spatial = (sp[0] * sizes[1] + sp[1]) * sizes[2] + sp[2];
    int64_t plane = sizes[0] * sizes[1] * sizes[2];
    if (layout == DataLayout::ChannelsLast)
      return (b * plane + spatial) * channels + c;
    return (b * channels + c) * plane + spatial;
  }
};

size_t numElements(const Shape &s) {
  size_t n = 1;
  for (int64_t d : s)
    n *= static_cast<size_t>(d);
  return n;
}

} // namespace

void referenceBackpropFilter(const BackpropFilterGeometry &g,
                             const double *input, const double *dy,
                             double *dw) {
  A3 in = promote(g.inputSpatial, 1), k = promote(g.filterSpatial, 1),
     out = promote(g.outSpatial, 1), s = promote(g.strides, 1),
     d = promote(g.dilations, 1), pb = promote(g.padBefore, 0);
  ActivationIndexer xi{g.layout, g.inChannels, in};
  ActivationIndexer yi{g.layout, g.outChannels, out};
  int64_t cf = g.filterInChannels, cout = g.outChannels;
  int64_t coutPerGroup = cout / g.groups; // geometry: groups >= 1
  for (int64_t k0 = 0; k0 < k[0]; ++k0)
    for (int64_t k1 = 0; k1 < k[1]; ++k1)
      for (int64_t k2 = 0; k2 < k[2]; ++k2)
        for (int64_t ci = 0; ci < cf; ++ci)
          for (int64_t co = 0; co < cout; ++co) {
            int64_t group = co / coutPerGroup;
            int64_t c = group * cf + ci;
            double acc = 0;
            for (int64_t b = 0; b < g.batch; ++b)
              for (int64_t o0 = 0; o0 < out[0]; ++o0)
                for (int64_t o1 = 0; o1 < out[1]; ++o1)
                  for (int64_t o2 = 0; o2 < out[2]; ++o2) {
                    A3 x{o0 * s[0] + k0 * d[0] - pb[0],
                         o1 * s[1] + k1 * d[1] - pb[1],
                         o2 * s[2] + k2 * d[2] - pb[2]};
                    bool inside = true;
                    for (int j = 0; j < 3; ++j)
                      inside &= x[j] >= 0 && x[j] < in[j];
                    if (!inside)
                      continue;
                    acc += input[xi(b, x, c)] * dy[yi(b, {o0, o1, o2}, co)];
                  }
            int64_t idx = (((k0 * k[1] + k1) * k[2] + k2) * cf + ci) * cout + co;
            dw[idx] = acc;
          }
}

void referenceTranspose(const TransposeGeometry &g, const double *input,
                        const double *kernel, double *output) {
  A3 in = promote(g.inputSpatial, 1), k = promote(g.kernelSpatial, 1),
     out = promote(g.outSpatial, 1), s = promote(g.strides, 1),
     d = promote(g.dilations, 1), crop = promote(g.cropBefore, 0);
  ActivationIndexer xi{g.layout, g.inChannels, in};
  ActivationIndexer yi{g.layout, g.outChannels, out};
  int64_t cin = g.inChannels, cout = g.outChannels;
  std::vector<double> acc(numElements(g.outputShape()), 0.0);
  // Scatter form: input position i with tap m lands on full position
  // i*s + m*d, i.e. output position i*s + m*d - crop.
  for (int64_t b = 0; b < g.batch; ++b)
    for (int64_t i0 = 0; i0 < in[0]; ++i0)
      for (int64_t i1 = 0; i1 < in[1]; ++i1)
        for (int64_t i2 = 0; i2 < in[2]; ++i2)
          for (int64_t m0 = 0; m0 < k[0]; ++m0)
            for (int64_t m1 = 0; m1 < k[1]; ++m1)
              for (int64_t m2 = 0; m2 < k[2]; ++m2) {
                A3 q{i0 * s[0] + m0 * d[0] - crop[0],
                     i1 * s[1] + m1 * d[1] - crop[1],
                     i2 * s[2] + m2 * d[2] - crop[2]};
                bool inside = true;
                for (int j = 0; j < 3; ++j)
                  inside &= q[j] >= 0 && q[j] < out[j];
                if (!inside)
                  continue;
                int64_t kbase = ((m0 * k[1] + m1) * k[2] + m2) * cout;
                for (int64_t o = 0; o < cout; ++o) {
                  double sum = 0;
                  for (int64_t c = 0; c < cin; ++c)
                    sum += input[xi(b, {i0, i1, i2}, c)] *
                           kernel[(kbase + o) * cin + c];
                  acc[yi(b, q, o)] += sum;
                }
              }
  for (size_t i = 0; i < acc.size(); ++i)
    output[i] = acc[i];
}

namespace {

std::vector<double> toDouble(ElementType t, const void *data, size_t n) {
  std::vector<double> r(n);
  for (size_t i = 0; i < n; ++i)
    r[i] = loadAsDouble(t, data, i);
  return r;
}

void fromDouble(ElementType t, const std::vector<double> &v, void *data) {
  for (size_t i = 0; i < v.size(); ++i)
    storeFromDouble(t, data, i, v[i]);
}

} // namespace

void referenceBackpropFilter(const BackpropFilterGeometry &g, ElementType t,
                             const void *input, const void *outBackprop,
                             void *filter) {
  auto x = toDouble(t, input, numElements(g.inputShape()));
  auto dy = toDouble(t, outBackprop, numElements(g.outBackpropShape()));
  std::vector<double> dw(numElements(g.filterShape()));
  referenceBackpropFilter(g, x.data(), dy.data(), dw.data());
  fromDouble(t, dw, filter);
}

void referenceTranspose(const TransposeGeometry &g, ElementType t,
                        const void *input, const void *kernel, void *output) {
  auto x = toDouble(t, input, numElements(g.inputShape()));
  auto w = toDouble(t, kernel, numElements(g.kernelShape()));
  std::vector<double> y(numElements(g.outputShape()));
  referenceTranspose(g, x.data(), w.data(), y.data());
  fromDouble(t, y, output);
}

} // namespace convgen
