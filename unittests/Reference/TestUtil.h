//===- TestUtil.h - Helpers shared by the reference unit tests --*- C++ -*-===//

#ifndef CONV_UNITTESTS_REFERENCE_TESTUTIL_H
#define CONV_UNITTESTS_REFERENCE_TESTUTIL_H

#include "conv/Geometry/Geometry.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

namespace convgen {
namespace testutil {

inline size_t numel(const Shape &s) {
  size_t n = 1;
  for (int64_t d : s)
    n *= static_cast<size_t>(d);
  return n;
}

inline std::string str(const Shape &s) {
  std::ostringstream os;
  os << "[";
  for (size_t i = 0; i < s.size(); ++i)
    os << (i ? "," : "") << s[i];
  os << "]";
  return os.str();
}

inline std::string str(const std::optional<Shape> &s) {
  return s ? str(*s) : std::string("None");
}

/// start, start+1, ... (TF's _CreateNumpyTensor uses start = 1).
inline std::vector<double> arange(size_t n, double start = 1) {
  std::vector<double> v(n);
  for (size_t i = 0; i < n; ++i)
    v[i] = start + static_cast<double>(i);
  return v;
}

/// [N, spatial..., C] -> [N, C, spatial...].
inline Shape toChannelsFirst(const Shape &s) {
  Shape r{s[0], s.back()};
  r.insert(r.end(), s.begin() + 1, s.end() - 1);
  return r;
}

inline Shape inLayout(const Shape &channelsLast, DataLayout layout) {
  return layout == DataLayout::ChannelsLast ? channelsLast
                                            : toChannelsFirst(channelsLast);
}

/// Permutes channels-last data of shape `cl` to channels-first.
inline std::vector<double> dataToChannelsFirst(const Shape &cl,
                                               const std::vector<double> &x) {
  int64_t n = cl[0], c = cl.back();
  int64_t p = static_cast<int64_t>(numel(Shape(cl.begin() + 1, cl.end() - 1)));
  std::vector<double> r(x.size());
  for (int64_t b = 0; b < n; ++b)
    for (int64_t q = 0; q < p; ++q)
      for (int64_t ch = 0; ch < c; ++ch)
        r[(b * c + ch) * p + q] = x[(b * p + q) * c + ch];
  return r;
}

/// Inverse of dataToChannelsFirst (`cl` is still the channels-last shape).
inline std::vector<double> dataToChannelsLast(const Shape &cl,
                                              const std::vector<double> &x) {
  int64_t n = cl[0], c = cl.back();
  int64_t p = static_cast<int64_t>(numel(Shape(cl.begin() + 1, cl.end() - 1)));
  std::vector<double> r(x.size());
  for (int64_t b = 0; b < n; ++b)
    for (int64_t q = 0; q < p; ++q)
      for (int64_t ch = 0; ch < c; ++ch)
        r[(b * p + q) * c + ch] = x[(b * c + ch) * p + q];
  return r;
}

inline std::vector<double> inLayoutData(const Shape &cl,
                                        const std::vector<double> &x,
                                        DataLayout layout) {
  return layout == DataLayout::ChannelsLast ? x : dataToChannelsFirst(cl, x);
}

/// A buffer pre-filled with NaN so that unwritten outputs are caught.
inline std::vector<double> nanBuffer(size_t n) {
  return std::vector<double>(n, std::numeric_limits<double>::quiet_NaN());
}

inline const char *layoutName(DataLayout l) {
  return l == DataLayout::ChannelsLast ? "channels_last" : "channels_first";
}

} // namespace testutil
} // namespace convgen

#endif // CONV_UNITTESTS_REFERENCE_TESTUTIL_H
