//===- GeometryTest.cpp - Shape / padding / crop arithmetic tests ---------===//
//
// Expected values come from ../shared/spec/semantics.md (§1.3, §1.4, §2.2,
// §2.3, §3.1-§3.7) and the pure-Python scripts in
// ../shared/research/scripts/ (verify_backprop_filter.py,
// verify_conv_transpose.py, verify_keras_test_shapes.py). The formulas used
// for sweeps are re-implemented here from the spec, not taken from the
// library.
//
//===----------------------------------------------------------------------===//

#include "conv/Geometry/Geometry.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

using namespace convgen;
using ::testing::AllOf;
using ::testing::HasSubstr;

namespace {

constexpr auto NHWC = DataLayout::ChannelsLast;
constexpr auto NCHW = DataLayout::ChannelsFirst;
constexpr auto VALID = FilterPadding::Valid;
constexpr auto SAME = FilterPadding::Same;
constexpr auto EXPLICIT = FilterPadding::Explicit;
constexpr auto Valid = TransposePadding::Valid;
constexpr auto Same = TransposePadding::Same;
constexpr std::nullopt_t None = std::nullopt;

std::string str(const Shape &s) {
  std::ostringstream os;
  os << "[";
  for (size_t i = 0; i < s.size(); ++i)
    os << (i ? "," : "") << s[i];
  os << "]";
  return os.str();
}

/// [N, spatial..., C] -> [N, C, spatial...].
Shape toChannelsFirst(const Shape &s) {
  Shape r{s[0], s.back()};
  r.insert(r.end(), s.begin() + 1, s.end() - 1);
  return r;
}

Shape inLayout(const Shape &channelsLast, DataLayout layout) {
  return layout == NHWC ? channelsLast : toChannelsFirst(channelsLast);
}

BackpropFilterAttrs bfAttrs(DataLayout layout, Shape strides, Shape dilations,
                            FilterPadding padding, Shape explicitPaddings = {}) {
  BackpropFilterAttrs a;
  a.layout = layout;
  a.strides = std::move(strides);
  a.dilations = std::move(dilations);
  a.padding = padding;
  a.explicitPaddings = std::move(explicitPaddings);
  return a;
}

TransposeAttrs trAttrs(DataLayout layout, Shape strides, Shape dilations,
                       TransposePadding padding,
                       std::optional<Shape> outputPadding = std::nullopt) {
  TransposeAttrs a;
  a.layout = layout;
  a.strides = std::move(strides);
  a.dilations = std::move(dilations);
  a.padding = padding;
  a.outputPadding = std::move(outputPadding);
  return a;
}

//===----------------------------------------------------------------------===//
// Small helpers
//===----------------------------------------------------------------------===//

TEST(GeometryBasics, Stringify) {
  EXPECT_STREQ(stringify(VALID), "VALID");
  EXPECT_STREQ(stringify(SAME), "SAME");
  EXPECT_STREQ(stringify(EXPLICIT), "EXPLICIT");
  EXPECT_STREQ(stringify(Valid), "valid");
  EXPECT_STREQ(stringify(Same), "same");
}

TEST(GeometryBasics, DataFormatNames) {
  EXPECT_EQ(tfDataFormatName(NHWC, 1), "NWC");
  EXPECT_EQ(tfDataFormatName(NHWC, 2), "NHWC");
  EXPECT_EQ(tfDataFormatName(NHWC, 3), "NDHWC");
  EXPECT_EQ(tfDataFormatName(NCHW, 1), "NCW");
  EXPECT_EQ(tfDataFormatName(NCHW, 2), "NCHW");
  EXPECT_EQ(tfDataFormatName(NCHW, 3), "NCDHW");
  EXPECT_EQ(tfDataFormatName(NHWC, 0), "?");
  EXPECT_EQ(tfDataFormatName(NHWC, 4), "?");
}

TEST(GeometryBasics, SpatialDimLetters) {
  EXPECT_EQ(spatialDimLetter(0, 1), 'W');
  EXPECT_EQ(spatialDimLetter(0, 2), 'H');
  EXPECT_EQ(spatialDimLetter(1, 2), 'W');
  EXPECT_EQ(spatialDimLetter(0, 3), 'D');
  EXPECT_EQ(spatialDimLetter(1, 3), 'H');
  EXPECT_EQ(spatialDimLetter(2, 3), 'W');
  EXPECT_EQ(spatialDimLetter(2, 2), '?');
  EXPECT_EQ(spatialDimLetter(-1, 1), '?');
}

TEST(GeometryBasics, EffectiveKernelSize) {
  EXPECT_EQ(effectiveKernelSize(1, 1), 1);
  EXPECT_EQ(effectiveKernelSize(1, 7), 1);
  EXPECT_EQ(effectiveKernelSize(3, 1), 3);
  EXPECT_EQ(effectiveKernelSize(3, 2), 5);
  EXPECT_EQ(effectiveKernelSize(2, 3), 4);
  EXPECT_EQ(effectiveKernelSize(4, 3), 10);
}

TEST(GeometryBasics, ResultFailureCarriesMessage) {
  auto r = Result<int>::failure("boom");
  EXPECT_FALSE(r.ok());
  EXPECT_FALSE(static_cast<bool>(r));
  EXPECT_EQ(r.error(), "boom");
  Result<int> v(7);
  EXPECT_TRUE(v.ok());
  EXPECT_EQ(*v, 7);
  EXPECT_TRUE(v.error().empty());
}

//===----------------------------------------------------------------------===//
// windowedOutputSize (spec §1.3)
//===----------------------------------------------------------------------===//

struct WindowCase {
  int64_t in, k, d, s;
  FilterPadding padding;
  int64_t eb, ea;
  int64_t out, pb, pa;
};

TEST(WindowedOutputSize, Table) {
  const WindowCase cases[] = {
      // VALID: out = (in - k_eff + s) / s, pads 0.
      {5, 3, 1, 1, VALID, 0, 0, 3, 0, 0},
      {5, 3, 1, 2, VALID, 0, 0, 2, 0, 0},
      {7, 2, 1, 3, VALID, 0, 0, 2, 0, 0},
      {6, 2, 1, 3, VALID, 0, 0, 2, 0, 0},
      {5, 2, 1, 3, VALID, 0, 0, 2, 0, 0},
      {4, 3, 1, 1, VALID, 0, 0, 2, 0, 0},
      {6, 2, 2, 1, VALID, 0, 0, 4, 0, 0}, // k_eff 3
      {3, 2, 2, 1, VALID, 0, 0, 1, 0, 0}, // k_eff 3 == in
      {4, 4, 1, 1, VALID, 0, 0, 1, 0, 0},
      {0, 1, 1, 1, VALID, 0, 0, 0, 0, 0},
      // Truncating division traps (floor division would give -1).
      {1, 3, 1, 2, VALID, 0, 0, 0, 0, 0},  // (1-3+2)/2 = 0
      {1, 2, 2, 2, VALID, 0, 0, 0, 0, 0},  // k_eff 3
      {1, 4, 1, 2, VALID, 0, 0, 0, 0, 0},  // -1/2 -> 0, floor -> -1
      {0, 3, 1, 2, VALID, 0, 0, 0, 0, 0},  // -1/2 -> 0
      {1, 6, 1, 4, VALID, 0, 0, 0, 0, 0},  // -1/4 -> 0
      {2, 8, 1, 4, VALID, 0, 0, 0, 0, 0},  // -2/4 -> 0
      {0, 2, 1, 2, VALID, 0, 0, 0, 0, 0},
      // VALID ignores explicit pads.
      {5, 3, 1, 1, VALID, 4, 9, 3, 0, 0},
      // SAME: out = ceil(in/s); P = max(0,(out-1)s+k_eff-in); odd after.
      {4, 3, 1, 1, SAME, 0, 0, 4, 1, 1},
      {4, 4, 1, 1, SAME, 0, 0, 4, 1, 2},  // P = 3: extra after
      {4, 2, 1, 1, SAME, 0, 0, 4, 0, 1},  // P = 1: all after
      {4, 3, 1, 2, SAME, 0, 0, 2, 0, 1},  // P = 1
      {5, 3, 1, 2, SAME, 0, 0, 3, 1, 1},
      {4, 1, 1, 2, SAME, 0, 0, 2, 0, 0},  // P = max(0,-1)
      {8, 4, 1, 3, SAME, 0, 0, 3, 1, 1},
      {7, 4, 1, 3, SAME, 0, 0, 3, 1, 2},
      {7, 3, 2, 1, SAME, 0, 0, 7, 2, 2},  // k_eff 5
      {8, 3, 2, 2, SAME, 0, 0, 4, 1, 2},  // k_eff 5, P = 3
      {1, 3, 1, 1, SAME, 0, 0, 1, 1, 1},
      {1, 3, 1, 2, SAME, 0, 0, 1, 1, 1},
      {3, 7, 1, 16, SAME, 0, 0, 1, 2, 2},
      {3, 3, 1, 1, SAME, 9, 9, 3, 1, 1}, // SAME ignores explicit pads
      // EXPLICIT: out = (in + pb + pa - k_eff + s) / s.
      {2, 2, 1, 1, EXPLICIT, 1, 8, 10, 1, 8},
      {3, 2, 1, 1, EXPLICIT, 4, 2, 8, 4, 2},
      {5, 3, 1, 3, EXPLICIT, 1, 8, 4, 1, 8},
      {3, 1, 1, 1, EXPLICIT, 2, 2, 7, 2, 2},
      {3, 2, 1, 3, EXPLICIT, 2, 2, 2, 2, 2},
      {4, 3, 2, 1, EXPLICIT, 5, 0, 5, 5, 0},
      {2, 3, 1, 2, EXPLICIT, 2, 2, 2, 2, 2},
      {1, 3, 1, 1, EXPLICIT, 0, 1, 0, 0, 1},  // exactly 0
      {1, 4, 1, 2, EXPLICIT, 0, 0, 0, 0, 0},  // -1/2 truncates to 0
      {0, 1, 1, 1, EXPLICIT, 0, 0, 0, 0, 0},
      {0, 3, 1, 1, EXPLICIT, 1, 1, 0, 1, 1},
  };
  for (const auto &c : cases) {
    SCOPED_TRACE(::testing::Message()
                 << "in=" << c.in << " k=" << c.k << " d=" << c.d
                 << " s=" << c.s << " " << stringify(c.padding) << " pads=("
                 << c.eb << "," << c.ea << ")");
    auto w = windowedOutputSize(c.in, c.k, c.d, c.s, c.padding, c.eb, c.ea);
    ASSERT_TRUE(w.ok()) << w.error();
    EXPECT_EQ(w->outSize, c.out);
    EXPECT_EQ(w->padBefore, c.pb);
    EXPECT_EQ(w->padAfter, c.pa);
  }
}

TEST(WindowedOutputSize, NegativeOutputIsAnError) {
  // Spec §1.3: in=1, k_eff=3, s=1 -> -1 -> error.
  auto w = windowedOutputSize(1, 3, 1, 1, VALID);
  ASSERT_FALSE(w.ok());
  EXPECT_EQ(w.error(), "Computed output size would be negative: -1 "
                       "[input_size: 1, effective_filter_size: 3, stride: 1]");

  // Dilated: in=2, k=3, d=2 (k_eff 5), s=1 -> -2.
  w = windowedOutputSize(2, 3, 2, 1, VALID);
  ASSERT_FALSE(w.ok());
  EXPECT_THAT(w.error(),
              AllOf(HasSubstr("Computed output size would be negative: -2"),
                    HasSubstr("input_size: 2"),
                    HasSubstr("effective_filter_size: 5"),
                    HasSubstr("stride: 1")));

  // in=1, k=5, s=2: (1-5+2)/2 = -1.
  w = windowedOutputSize(1, 5, 1, 2, VALID);
  ASSERT_FALSE(w.ok());
  EXPECT_THAT(w.error(), HasSubstr("would be negative: -1"));

  // EXPLICIT too short even with the pads: (1+0+1-4+1)/1 = -1.
  w = windowedOutputSize(1, 4, 1, 1, EXPLICIT, 0, 1);
  ASSERT_FALSE(w.ok());
  EXPECT_THAT(w.error(),
              AllOf(HasSubstr("would be negative: -1"),
                    HasSubstr("effective_filter_size: 4")));
}

TEST(WindowedOutputSize, StrideAndDilationErrors) {
  auto w = windowedOutputSize(5, 3, 1, 0, VALID);
  ASSERT_FALSE(w.ok());
  EXPECT_EQ(w.error(), "Stride must be > 0, but got 0");
  w = windowedOutputSize(5, 3, 1, -2, SAME);
  ASSERT_FALSE(w.ok());
  EXPECT_EQ(w.error(), "Stride must be > 0, but got -2");
  w = windowedOutputSize(5, 3, 0, 1, VALID);
  ASSERT_FALSE(w.ok());
  EXPECT_EQ(w.error(), "Dilation rate must be >= 1, but got 0");
  w = windowedOutputSize(5, 3, -1, 1, EXPLICIT, 1, 1);
  ASSERT_FALSE(w.ok());
  EXPECT_EQ(w.error(), "Dilation rate must be >= 1, but got -1");
  // Stride is checked first (as in TF).
  w = windowedOutputSize(5, 3, 0, 0, VALID);
  ASSERT_FALSE(w.ok());
  EXPECT_THAT(w.error(), HasSubstr("Stride must be > 0"));
}

TEST(WindowedOutputSize, SweepAgainstSpecFormula) {
  for (int64_t in = 0; in <= 9; ++in)
    for (int64_t k = 1; k <= 4; ++k)
      for (int64_t d = 1; d <= 3; ++d)
        for (int64_t s = 1; s <= 4; ++s)
          for (int64_t eb = 0; eb <= 2; ++eb)
            for (int64_t ea = 0; ea <= 2; ++ea)
              for (auto p : {VALID, SAME, EXPLICIT}) {
                int64_t ke = (k - 1) * d + 1;
                int64_t num = p == VALID    ? in - ke + s
                              : p == SAME   ? in + s - 1
                                            : in + eb + ea - ke + s;
                // C++ truncation, spelled out.
                int64_t q = num >= 0 ? num / s : -((-num) / s);
                auto w = windowedOutputSize(in, k, d, s, p, eb, ea);
                if (q < 0) {
                  EXPECT_FALSE(w.ok());
                  continue;
                }
                ASSERT_TRUE(w.ok()) << w.error();
                EXPECT_EQ(w->outSize, q);
                if (p == SAME) {
                  int64_t P = std::max<int64_t>(0, (q - 1) * s + ke - in);
                  EXPECT_EQ(w->padBefore, P / 2);
                  EXPECT_EQ(w->padAfter, P - P / 2);
                  EXPECT_GE(w->padAfter, w->padBefore);
                } else if (p == EXPLICIT) {
                  EXPECT_EQ(w->padBefore, eb);
                  EXPECT_EQ(w->padAfter, ea);
                } else {
                  EXPECT_EQ(w->padBefore, 0);
                  EXPECT_EQ(w->padAfter, 0);
                }
              }
}

//===----------------------------------------------------------------------===//
// computeBackpropFilterGeometry: shape tables of spec §3
//===----------------------------------------------------------------------===//

struct BFCase {
  const char *name;
  Shape input, filter, outBackprop; // channels-last activations
  Shape strides, dilations;
  FilterPadding padding;
  Shape explicitPaddings;
  int64_t groups;
  Shape padBefore, padAfter; // empty: not checked
};

std::ostream &operator<<(std::ostream &os, const BFCase &c) {
  return os << c.name << " input=" << str(c.input)
            << " filter=" << str(c.filter) << " out=" << str(c.outBackprop)
            << " strides=" << str(c.strides)
            << " dilations=" << str(c.dilations) << " "
            << stringify(c.padding) << " explicit=" << str(c.explicitPaddings);
}

/// Checks one shape example in both layouts.
void checkBFCase(const BFCase &c) {
  for (DataLayout layout : {NHWC, NCHW}) {
    SCOPED_TRACE(::testing::Message()
                 << c << (layout == NHWC ? " channels_last" : " channels_first"));
    auto attrs = bfAttrs(layout, c.strides, c.dilations, c.padding,
                         c.explicitPaddings);
    Shape in = inLayout(c.input, layout), ob = inLayout(c.outBackprop, layout);
    auto g = computeBackpropFilterGeometry(attrs, in, c.filter, ob);
    ASSERT_TRUE(g.ok()) << g.error();
    int64_t n = static_cast<int64_t>(c.input.size()) - 2;
    EXPECT_EQ(g->numSpatialDims, n);
    EXPECT_EQ(g->layout, layout);
    EXPECT_EQ(g->batch, c.input[0]);
    EXPECT_EQ(g->inChannels, c.input.back());
    EXPECT_EQ(g->filterInChannels, c.filter[n]);
    EXPECT_EQ(g->outChannels, c.filter[n + 1]);
    EXPECT_EQ(g->groups, c.groups);
    EXPECT_EQ(g->inputShape(), in);
    EXPECT_EQ(g->outBackpropShape(), ob);
    EXPECT_EQ(g->filterShape(), c.filter);
    EXPECT_EQ(g->strides, c.strides);
    EXPECT_EQ(g->dilations, c.dilations);
    EXPECT_EQ(g->inputSpatial, Shape(c.input.begin() + 1, c.input.end() - 1));
    EXPECT_EQ(g->filterSpatial, Shape(c.filter.begin(), c.filter.begin() + n));
    EXPECT_EQ(g->outSpatial,
              Shape(c.outBackprop.begin() + 1, c.outBackprop.end() - 1));
    if (!c.padBefore.empty()) {
      EXPECT_EQ(g->padBefore, c.padBefore);
    }
    if (!c.padAfter.empty()) {
      EXPECT_EQ(g->padAfter, c.padAfter);
    }
    ASSERT_EQ(g->padAfterUsed.size(), static_cast<size_t>(n));
    for (int64_t d = 0; d < n; ++d) {
      int64_t ke = (c.filter[d] - 1) * c.dilations[d] + 1;
      int64_t out = c.outBackprop[1 + d];
      EXPECT_EQ(g->padAfterUsed[d], (out - 1) * c.strides[d] + ke -
                                        c.input[1 + d] - g->padBefore[d])
          << "dim " << d;
      EXPECT_LE(g->padAfterUsed[d], g->padAfter[d]) << "dim " << d;
      if (c.padding == EXPLICIT) {
        EXPECT_EQ(g->padBefore[d], c.explicitPaddings[2 * d]);
        EXPECT_EQ(g->padAfter[d], c.explicitPaddings[2 * d + 1]);
      } else if (c.padding == VALID) {
        EXPECT_EQ(g->padBefore[d], 0);
        EXPECT_EQ(g->padAfter[d], 0);
      }
    }
    // flops: 2 * Cout * Cf * prod(k) * batch * prod(out).
    double flops = 2.0 * c.filter[n] * c.filter[n + 1] * c.input[0];
    for (int64_t d = 0; d < n; ++d)
      flops *= static_cast<double>(c.filter[d] * c.outBackprop[1 + d]);
    EXPECT_DOUBLE_EQ(g->flops(), flops);

    auto inferred = inferOutBackpropShape(attrs, in, c.filter);
    ASSERT_TRUE(inferred.ok()) << inferred.error();
    EXPECT_EQ(*inferred, ob);
  }
}

const Shape S11{1, 1};

// Spec §3.1, `_RunAndVerifyBackpropFilter` hard-coded table.
const BFCase kConvOpsHardCoded[] = {
    {"2x2Depth1Valid", {1, 2, 3, 1}, {2, 2, 1, 1}, {1, 1, 2, 1}, S11, S11,
     VALID, {}, 1, {0, 0}, {0, 0}},
    {"EmptyBackpropFilter", {1, 2, 3, 1}, {2, 2, 1, 0}, {1, 1, 2, 0}, S11, S11,
     VALID, {}, 1, {}, {}},
    {"BackpropFilterWithEmptyInput", {0, 2, 3, 1}, {2, 2, 1, 1}, {0, 1, 2, 1},
     S11, S11, VALID, {}, 1, {}, {}},
    {"2x2Depth3Valid", {1, 2, 3, 3}, {2, 2, 3, 3}, {1, 1, 2, 3}, S11, S11,
     VALID, {}, 1, {}, {}},
    {"2x2Depth3ValidStride1x2", {1, 3, 6, 1}, {2, 2, 1, 1}, {1, 2, 3, 1},
     {1, 2}, S11, VALID, {}, 1, {}, {}},
    {"StrideTwoFilterOneSame", {1, 4, 4, 1}, {1, 1, 1, 1}, {1, 2, 2, 1},
     {2, 2}, S11, SAME, {}, 1, {0, 0}, {0, 0}},
    {"KernelSizeMatchesInputSize", {1, 2, 2, 1}, {2, 2, 1, 2}, {1, 1, 1, 2},
     S11, S11, VALID, {}, 1, {}, {}},
};

// Spec §3.1 dilation comparisons. The listed out sizes are informational;
// two rows list [1,1,2,*] where the computed size is [1,1,1,*] (see
// DilationTableInformationalSizesAreWrong below).
const BFCase kConvOpsDilation[] = {
    {"ValidBackpropFilterStride1x1Dilation2x1", {1, 3, 6, 1}, {2, 2, 1, 1},
     {1, 1, 5, 1}, S11, {2, 1}, VALID, {}, 1, {}, {}},
    {"Depth1ValidBackpropFilterDilation1x2", {1, 2, 3, 1}, {2, 2, 1, 1},
     {1, 1, 1, 1}, S11, {1, 2}, VALID, {}, 1, {}, {}},
    {"EmptyBackpropFilterDilation1x2", {1, 2, 3, 1}, {2, 2, 1, 0},
     {1, 1, 1, 0}, S11, {1, 2}, VALID, {}, 1, {}, {}},
    {"Depth3ValidBackpropFilterDilation2x2", {1, 3, 4, 3}, {2, 2, 3, 3},
     {1, 1, 2, 3}, S11, {2, 2}, VALID, {}, 1, {}, {}},
    {"KernelSizeMatchesInputSizeDilation2x2", {1, 3, 3, 1}, {2, 2, 1, 2},
     {1, 1, 1, 2}, S11, {2, 2}, VALID, {}, 1, {}, {}},
};

// Spec §3.1 explicit padding table (padding [[t,b],[l,r]] flattened).
const BFCase kConvOpsExplicit[] = {
    {"Padding0x0(a)", {1, 2, 3, 1}, {2, 2, 1, 1}, {1, 1, 2, 1}, S11, S11,
     EXPLICIT, {0, 0, 0, 0}, 1, {0, 0}, {0, 0}},
    {"Padding0x0(b)", {1, 3, 4, 2}, {2, 2, 2, 3}, {1, 1, 2, 3}, {2, 2}, S11,
     EXPLICIT, {0, 0, 0, 0}, 1, {0, 0}, {0, 0}},
    {"Padding1x1(a)", {1, 2, 3, 1}, {2, 2, 1, 2}, {1, 3, 4, 2}, S11, S11,
     EXPLICIT, {1, 1, 1, 1}, 1, {1, 1}, {1, 1}},
    {"Padding1x1(b)", {1, 2, 3, 2}, {1, 1, 2, 1}, {1, 4, 3, 1}, {1, 2}, S11,
     EXPLICIT, {1, 1, 1, 1}, 1, {}, {}},
    {"Padding1x1(c)", {1, 4, 3, 1}, {2, 2, 1, 1}, {1, 4, 2, 1}, {1, 2}, {2, 2},
     EXPLICIT, {1, 1, 1, 1}, 1, {}, {}},
    {"Padding2x2(a)", {2, 3, 1, 1}, {2, 1, 1, 1}, {2, 2, 5, 1}, {3, 1}, S11,
     EXPLICIT, {2, 2, 2, 2}, 1, {}, {}},
    {"Padding2x2(b)", {1, 3, 6, 1}, {3, 2, 1, 1}, {1, 3, 4, 1}, {1, 2}, {2, 3},
     EXPLICIT, {2, 2, 2, 2}, 1, {}, {}},
    {"Padding_1_8_4_1(a)", {1, 2, 3, 1}, {2, 2, 1, 1}, {1, 10, 8, 1}, S11, S11,
     EXPLICIT, {1, 8, 4, 2}, 1, {1, 4}, {8, 2}},
    {"Padding_1_8_4_1(b)", {1, 5, 3, 1}, {3, 2, 1, 1}, {1, 4, 8, 1}, {3, 1},
     S11, EXPLICIT, {1, 8, 4, 2}, 1, {1, 4}, {8, 2}},
    {"Padding_5_0_2_2(a)", {1, 3, 3, 1}, {2, 1, 1, 1}, {1, 7, 7, 1}, S11, S11,
     EXPLICIT, {5, 0, 2, 2}, 1, {5, 2}, {0, 2}},
    {"Padding_5_0_2_2(b)", {1, 4, 2, 1}, {3, 3, 1, 1}, {1, 5, 2, 1}, {1, 2},
     {2, 1}, EXPLICIT, {5, 0, 2, 2}, 1, {5, 2}, {0, 2}},
};

// Spec §3.1 gradient-checker configs (ConstructAndTestGradient, filter).
const BFCase kGradientChecker[] = {
    {"FilterGradientValidPaddingStrideOne", {4, 6, 5, 2}, {2, 2, 2, 3},
     {4, 5, 4, 3}, S11, S11, VALID, {}, 1, {0, 0}, {0, 0}},
    {"FilterGradientValidPaddingStrideTwo", {4, 6, 5, 2}, {2, 2, 2, 3},
     {4, 3, 2, 3}, {2, 2}, S11, VALID, {}, 1, {0, 0}, {0, 0}},
    {"FilterGradientValidPaddingStrideThree", {2, 8, 7, 2}, {4, 4, 2, 3},
     {2, 2, 2, 3}, {3, 3}, S11, VALID, {}, 1, {0, 0}, {0, 0}},
    {"FilterGradientSamePaddingStrideOne", {4, 6, 5, 2}, {2, 2, 2, 3},
     {4, 6, 5, 3}, S11, S11, SAME, {}, 1, {0, 0}, {1, 1}},
    {"FilterGradientSamePaddingStrideTwo", {4, 6, 5, 2}, {2, 2, 2, 3},
     {4, 3, 3, 3}, {2, 2}, S11, SAME, {}, 1, {0, 0}, {0, 1}},
    {"FilterGradientSamePaddingStrideThree", {2, 8, 7, 2}, {4, 4, 2, 3},
     {2, 3, 3, 3}, {3, 3}, S11, SAME, {}, 1, {1, 1}, {1, 2}},
    {"FilterGradientSamePaddingStride2x1", {2, 8, 7, 2}, {4, 4, 2, 3},
     {2, 4, 7, 3}, {2, 1}, S11, SAME, {}, 1, {1, 1}, {1, 2}},
    {"FilterGradientKernelSizeMatchesInputSize", {2, 4, 3, 2}, {4, 3, 2, 3},
     {2, 1, 1, 3}, S11, S11, VALID, {}, 1, {0, 0}, {0, 0}},
    {"FilterGradient1x1PaddingStrideOne", {2, 5, 4, 2}, {3, 3, 2, 3},
     {2, 5, 4, 3}, S11, S11, EXPLICIT, {1, 1, 1, 1}, 1, {1, 1}, {1, 1}},
    {"FilterGradient1x1PaddingStrideTwo", {2, 4, 5, 2}, {3, 3, 2, 3},
     {2, 2, 3, 3}, {2, 2}, S11, EXPLICIT, {1, 1, 1, 1}, 1, {1, 1}, {1, 1}},
    {"FilterGradient2x2PaddingStrideOne", {2, 5, 4, 2}, {3, 3, 2, 3},
     {2, 7, 6, 3}, S11, S11, EXPLICIT, {2, 2, 2, 2}, 1, {2, 2}, {2, 2}},
    {"FilterGradient1_2_3_4PaddingStride3x2", {2, 8, 5, 3}, {4, 2, 3, 2},
     {2, 3, 6, 2}, {3, 2}, S11, EXPLICIT, {1, 2, 3, 4}, 1, {1, 3}, {2, 4}},
    {"FilterGradient4_3_2_1PaddingStride2x1", {3, 5, 7, 1}, {3, 2, 1, 2},
     {3, 5, 9, 2}, {2, 1}, S11, EXPLICIT, {4, 3, 2, 1}, 1, {4, 2}, {3, 1}},
    {"FilterGradient0_0_0_5PaddingStride1x2", {2, 6, 7, 3}, {3, 4, 3, 2},
     {2, 4, 5, 2}, {1, 2}, S11, EXPLICIT, {0, 0, 0, 5}, 1, {0, 0}, {0, 5}},
    {"FilterGradientGroupConv", {2, 5, 4, 4}, {3, 3, 2, 6}, {2, 3, 2, 6}, S11,
     S11, VALID, {}, 2, {0, 0}, {0, 0}},
};

// Spec §3.3, tensorflow/compiler/tests/conv2d_test.py Conv2DBackpropFilterTest.
const BFCase kXlaTable[] = {
    {"1x1Filter", {1, 4, 4, 3}, {1, 1, 3, 2}, {1, 4, 4, 2}, S11, S11, VALID,
     {}, 1, {0, 0}, {0, 0}},
    {"1x2Filter", {1, 3, 3, 1}, {1, 2, 1, 1}, {1, 3, 2, 1}, S11, S11, VALID,
     {}, 1, {}, {}},
    {"2x2FilterDepth1", {1, 2, 3, 1}, {2, 2, 1, 1}, {1, 1, 2, 1}, S11, S11,
     VALID, {}, 1, {}, {}},
    {"2x2Filter", {1, 2, 3, 3}, {2, 2, 3, 3}, {1, 1, 2, 3}, S11, S11, VALID,
     {}, 1, {}, {}},
    {"1x2FilterStride3Width5", {1, 1, 5, 1}, {1, 2, 1, 1}, {1, 1, 2, 1},
     {3, 3}, S11, VALID, {}, 1, {}, {}},
    {"1x2FilterStride3Width6", {1, 1, 6, 1}, {1, 2, 1, 1}, {1, 1, 2, 1},
     {3, 3}, S11, VALID, {}, 1, {}, {}},
    {"1x2FilterStride3Width7", {1, 1, 7, 1}, {1, 2, 1, 1}, {1, 1, 2, 1},
     {3, 3}, S11, VALID, {}, 1, {}, {}},
    {"1x3Filter", {1, 1, 4, 1}, {1, 3, 1, 1}, {1, 1, 2, 1}, S11, S11, VALID,
     {}, 1, {}, {}},
    {"1x3FilterSame", {1, 1, 4, 1}, {1, 3, 1, 1}, {1, 1, 4, 1}, S11, S11,
     SAME, {}, 1, {0, 1}, {0, 1}},
    {"1x3FilterSameOutbackprop2", {1, 1, 4, 1}, {1, 3, 1, 1}, {1, 1, 2, 1},
     {2, 2}, S11, SAME, {}, 1, {0, 0}, {0, 1}},
    {"2x2FilterC1Same", {1, 2, 3, 1}, {2, 2, 1, 1}, {1, 2, 3, 1}, S11, S11,
     SAME, {}, 1, {0, 0}, {1, 1}},
    {"2x2FilterStride2", {1, 3, 5, 1}, {1, 3, 1, 1}, {1, 2, 2, 1}, {2, 2},
     S11, VALID, {}, 1, {}, {}},
    {"2x2FilterStride2Same", {1, 2, 3, 1}, {2, 2, 1, 1}, {1, 1, 2, 1},
     {2, 2}, S11, SAME, {}, 1, {0, 0}, {0, 1}},
    {"Stride1x1Dilation2x1", {1, 3, 6, 1}, {2, 2, 1, 1}, {1, 1, 5, 1}, S11,
     {2, 1}, VALID, {}, 1, {}, {}},
    {"Depth1ValidBackpropFilterDilation1x2", {1, 2, 3, 1}, {2, 2, 1, 1},
     {1, 1, 1, 1}, S11, {1, 2}, VALID, {}, 1, {}, {}},
    {"EmptyBackpropFilterDilation1x2", {1, 2, 3, 1}, {2, 2, 1, 0},
     {1, 1, 1, 0}, S11, {1, 2}, VALID, {}, 1, {}, {}},
    {"Depth3ValidBackpropFilterDilation2x2", {1, 3, 4, 3}, {2, 2, 3, 3},
     {1, 1, 2, 3}, S11, {2, 2}, VALID, {}, 1, {}, {}},
    {"KernelSizeMatchesInputSizeDilation2x2", {1, 3, 3, 1}, {2, 2, 1, 2},
     {1, 1, 1, 2}, S11, {2, 2}, VALID, {}, 1, {}, {}},
    {"GroupedFilter", {1, 2, 2, 2}, {2, 2, 1, 2}, {1, 1, 1, 2}, S11, S11,
     VALID, {}, 2, {}, {}},
};

// Spec §3.2 conv2d_backprop_filter_grad_test: in [5,8,6,4], filter [3,3,4,6].
const BFCase kGradGradTable[] = {
    {"s1 SAME", {5, 8, 6, 4}, {3, 3, 4, 6}, {5, 8, 6, 6}, S11, S11, SAME, {},
     1, {1, 1}, {1, 1}},
    {"s1 VALID", {5, 8, 6, 4}, {3, 3, 4, 6}, {5, 6, 4, 6}, S11, S11, VALID,
     {}, 1, {0, 0}, {0, 0}},
    {"s1 (1,2),(3,4)", {5, 8, 6, 4}, {3, 3, 4, 6}, {5, 9, 11, 6}, S11, S11,
     EXPLICIT, {1, 2, 3, 4}, 1, {1, 3}, {2, 4}},
    {"s1 (0,3),(4,2)", {5, 8, 6, 4}, {3, 3, 4, 6}, {5, 9, 10, 6}, S11, S11,
     EXPLICIT, {0, 3, 4, 2}, 1, {0, 4}, {3, 2}},
    {"s2 SAME", {5, 8, 6, 4}, {3, 3, 4, 6}, {5, 4, 3, 6}, {2, 2}, S11, SAME,
     {}, 1, {0, 0}, {1, 1}},
    {"s2 VALID", {5, 8, 6, 4}, {3, 3, 4, 6}, {5, 3, 2, 6}, {2, 2}, S11, VALID,
     {}, 1, {0, 0}, {0, 0}},
    {"s2 (1,2),(3,4)", {5, 8, 6, 4}, {3, 3, 4, 6}, {5, 5, 6, 6}, {2, 2}, S11,
     EXPLICIT, {1, 2, 3, 4}, 1, {1, 3}, {2, 4}},
    {"s2 (0,3),(4,2)", {5, 8, 6, 4}, {3, 3, 4, 6}, {5, 5, 5, 6}, {2, 2}, S11,
     EXPLICIT, {0, 3, 4, 2}, 1, {0, 4}, {3, 2}},
    // testGradientDilatedConv: dilations [2,2].
    {"d2 s1 SAME", {5, 8, 6, 4}, {3, 3, 4, 6}, {5, 8, 6, 6}, S11, {2, 2},
     SAME, {}, 1, {2, 2}, {2, 2}},
    {"d2 s1 VALID", {5, 8, 6, 4}, {3, 3, 4, 6}, {5, 4, 2, 6}, S11, {2, 2},
     VALID, {}, 1, {0, 0}, {0, 0}},
    {"d2 s1 (3,5),(2,1)", {5, 8, 6, 4}, {3, 3, 4, 6}, {5, 12, 5, 6}, S11,
     {2, 2}, EXPLICIT, {3, 5, 2, 1}, 1, {3, 2}, {5, 1}},
    {"d2 s1 (5,2),(5,1)", {5, 8, 6, 4}, {3, 3, 4, 6}, {5, 11, 8, 6}, S11,
     {2, 2}, EXPLICIT, {5, 2, 5, 1}, 1, {5, 5}, {2, 1}},
    {"d2 s2 SAME", {5, 8, 6, 4}, {3, 3, 4, 6}, {5, 4, 3, 6}, {2, 2}, {2, 2},
     SAME, {}, 1, {1, 1}, {2, 2}},
    {"d2 s2 VALID", {5, 8, 6, 4}, {3, 3, 4, 6}, {5, 2, 1, 6}, {2, 2}, {2, 2},
     VALID, {}, 1, {0, 0}, {0, 0}},
    {"d2 s2 (3,5),(2,1)", {5, 8, 6, 4}, {3, 3, 4, 6}, {5, 6, 3, 6}, {2, 2},
     {2, 2}, EXPLICIT, {3, 5, 2, 1}, 1, {3, 2}, {5, 1}},
    {"d2 s2 (5,2),(5,1)", {5, 8, 6, 4}, {3, 3, 4, 6}, {5, 6, 4, 6}, {2, 2},
     {2, 2}, EXPLICIT, {5, 2, 5, 1}, 1, {5, 5}, {2, 1}},
};

// Spec §3.4 conv3d_backprop_filter_v2_grad_test, plus 1-D and 3-D extras.
const BFCase kOtherRanks[] = {
    {"3D s1 SAME", {2, 4, 3, 3, 2}, {3, 3, 3, 2, 3}, {2, 4, 3, 3, 3},
     {1, 1, 1}, {1, 1, 1}, SAME, {}, 1, {1, 1, 1}, {1, 1, 1}},
    {"3D s1 VALID", {2, 4, 3, 3, 2}, {3, 3, 3, 2, 3}, {2, 2, 1, 1, 3},
     {1, 1, 1}, {1, 1, 1}, VALID, {}, 1, {0, 0, 0}, {0, 0, 0}},
    {"3D s2 SAME", {2, 4, 3, 3, 2}, {3, 3, 3, 2, 3}, {2, 2, 2, 2, 3},
     {2, 2, 2}, {1, 1, 1}, SAME, {}, 1, {0, 1, 1}, {1, 1, 1}},
    {"3D s2 VALID", {2, 4, 3, 3, 2}, {3, 3, 3, 2, 3}, {2, 1, 1, 1, 3},
     {2, 2, 2}, {1, 1, 1}, VALID, {}, 1, {0, 0, 0}, {0, 0, 0}},
    {"testInceptionBackFilter_No_Winograd_Nonfused", {1, 400, 400, 1},
     {1, 1, 1, 256}, {1, 400, 400, 256}, S11, S11, SAME, {}, 1, {0, 0},
     {0, 0}},
    {"3D testBadFilterShape shapes", {2, 2, 2, 2, 1}, {1, 1, 1, 1, 1},
     {2, 2, 2, 2, 1}, {1, 1, 1}, {1, 1, 1}, VALID, {}, 1, {}, {}},
    {"3D explicit dilated grouped", {1, 5, 6, 7, 6}, {2, 3, 2, 2, 9},
     {1, 3, 3, 4, 9}, {2, 1, 2}, {3, 2, 1}, EXPLICIT, {1, 2, 0, 1, 2, 0}, 3,
     {1, 0, 2}, {2, 1, 0}},
    {"1D VALID", {3, 7, 2}, {3, 2, 4}, {3, 5, 4}, {1}, {1}, VALID, {}, 1, {0},
     {0}},
    {"1D SAME stride 2", {1, 7, 1}, {4, 1, 1}, {1, 4, 1}, {2}, {1}, SAME, {},
     1, {1}, {2}},
    {"1D SAME dilated", {2, 5, 3}, {3, 3, 2}, {2, 5, 2}, {1}, {2}, SAME, {}, 1,
     {2}, {2}},
    {"1D EXPLICIT", {1, 4, 1}, {2, 1, 1}, {1, 3, 1}, {2}, {1}, EXPLICIT,
     {1, 2}, 1, {1}, {2}},
    {"1D depthwise-like groups 4", {2, 6, 4}, {3, 1, 8}, {2, 4, 8}, {1}, {1},
     VALID, {}, 4, {}, {}},
};

// Groups, zero sizes and crop (padAfterUsed < 0) cases.
const BFCase kGroupsAndZeros[] = {
    {"groups 3 Cf 2 Cout 6", {1, 4, 4, 6}, {2, 2, 2, 6}, {1, 3, 3, 6}, S11,
     S11, VALID, {}, 3, {}, {}},
    {"groups 2 Cout 2 (one per group)", {2, 3, 3, 4}, {1, 1, 2, 2},
     {2, 3, 3, 2}, S11, S11, SAME, {}, 2, {0, 0}, {0, 0}},
    {"groups 4 depthwise Cout 4", {1, 3, 3, 4}, {3, 3, 1, 4}, {1, 3, 3, 4},
     S11, S11, SAME, {}, 4, {1, 1}, {1, 1}},
    {"groups Cout 0", {1, 3, 3, 4}, {3, 3, 2, 0}, {1, 1, 1, 0}, S11, S11,
     VALID, {}, 2, {}, {}},
    {"batch 0", {0, 5, 5, 2}, {3, 3, 2, 3}, {0, 3, 3, 3}, S11, S11, VALID, {},
     1, {}, {}},
    {"batch 0 SAME", {0, 5, 5, 2}, {3, 3, 2, 3}, {0, 3, 3, 3}, {2, 2}, S11,
     SAME, {}, 1, {1, 1}, {1, 1}},
    {"Cout 0", {2, 5, 5, 2}, {3, 3, 2, 0}, {2, 3, 3, 0}, S11, S11, VALID, {},
     1, {}, {}},
    {"spatial 0 VALID k1", {1, 0, 4, 1}, {1, 2, 1, 1}, {1, 0, 3, 1}, S11, S11,
     VALID, {}, 1, {}, {}},
    {"truncation out 0", {1, 1, 4, 1}, {3, 1, 1, 1}, {1, 0, 4, 1}, {2, 1}, S11,
     VALID, {}, 1, {}, {}},
};

TEST(BackpropFilterGeometry, ConvOpsHardCodedTable) {
  for (const auto &c : kConvOpsHardCoded)
    checkBFCase(c);
}
TEST(BackpropFilterGeometry, ConvOpsDilationTable) {
  for (const auto &c : kConvOpsDilation)
    checkBFCase(c);
}
TEST(BackpropFilterGeometry, ConvOpsExplicitPaddingTable) {
  for (const auto &c : kConvOpsExplicit)
    checkBFCase(c);
}
TEST(BackpropFilterGeometry, GradientCheckerConfigs) {
  for (const auto &c : kGradientChecker)
    checkBFCase(c);
}
TEST(BackpropFilterGeometry, XlaConv2DBackpropFilterTable) {
  for (const auto &c : kXlaTable)
    checkBFCase(c);
}
TEST(BackpropFilterGeometry, GradGradTestConfigs) {
  for (const auto &c : kGradGradTable)
    checkBFCase(c);
}
TEST(BackpropFilterGeometry, OneAndThreeSpatialDims) {
  for (const auto &c : kOtherRanks)
    checkBFCase(c);
}
TEST(BackpropFilterGeometry, GroupsAndZeroSizes) {
  for (const auto &c : kGroupsAndZeros)
    checkBFCase(c);
}

TEST(BackpropFilterGeometry, DilationTableInformationalSizesAreWrong) {
  // §3.1 lists out [1,1,2,1] for ...Depth1ValidBackpropFilterDilation1x2;
  // the computed width is (3 - 3 + 1) / 1 = 1 (and §3.3 lists [1,1,1,1]).
  auto attrs = bfAttrs(NHWC, S11, {1, 2}, VALID);
  auto g = computeBackpropFilterGeometry(attrs, {1, 2, 3, 1}, {2, 2, 1, 1},
                                         {1, 1, 2, 1});
  ASSERT_FALSE(g.ok());
  EXPECT_THAT(g.error(), AllOf(HasSubstr("'out_backprop'"),
                               HasSubstr("spatial dimension 1 (W)"),
                               HasSubstr("has size 2"),
                               HasSubstr("computed size is 1")));
  g = computeBackpropFilterGeometry(attrs, {1, 2, 3, 1}, {2, 2, 1, 0},
                                    {1, 1, 2, 0});
  ASSERT_FALSE(g.ok());
  EXPECT_THAT(g.error(), HasSubstr("computed size is 1"));
}

TEST(BackpropFilterGeometry, PadAfterUsedNegativeCrops) {
  struct Case {
    Shape input, filter, out, strides, dilations;
    FilterPadding padding;
    Shape explicitPaddings;
    Shape padAfterUsed;
  };
  const Case cases[] = {
      // W: 7, k 2, s 3 -> out 2 reads [0,5): two trailing columns unused.
      {{1, 1, 7, 1}, {1, 2, 1, 1}, {1, 1, 2, 1}, {3, 3}, S11, VALID, {},
       {0, -2}},
      {{1, 1, 6, 1}, {1, 2, 1, 1}, {1, 1, 2, 1}, {3, 3}, S11, VALID, {},
       {0, -1}},
      {{1, 1, 5, 1}, {1, 2, 1, 1}, {1, 1, 2, 1}, {3, 3}, S11, VALID, {},
       {0, 0}},
      // §3.1 Stride1x2: W 6, k 2, s 2 -> out 3 reads [0,6).
      {{1, 3, 6, 1}, {2, 2, 1, 1}, {1, 2, 3, 1}, {1, 2}, S11, VALID, {},
       {0, 0}},
      // Gradient checker ValidStrideTwo: H 6 -> out 3 reads 6; W 5 -> 2
      // reads 4: one column cropped.
      {{4, 6, 5, 2}, {2, 2, 2, 3}, {4, 3, 2, 3}, {2, 2}, S11, VALID, {},
       {0, -1}},
      // ValidStrideThree: 8x7, k 4, s 3 -> 2x2 reads 7x7.
      {{2, 8, 7, 2}, {4, 4, 2, 3}, {2, 2, 2, 3}, {3, 3}, S11, VALID, {},
       {-1, 0}},
      // SAME: pad after used fully.
      {{1, 1, 4, 1}, {1, 3, 1, 1}, {1, 1, 2, 1}, {2, 2}, S11, SAME, {},
       {0, 1}},
      // SAME with s > k: in 4, k 1, s 2 -> out 2, P = 0, reads [0,3).
      {{1, 4, 4, 1}, {1, 1, 1, 1}, {1, 2, 2, 1}, {2, 2}, S11, SAME, {},
       {-1, -1}},
      // EXPLICIT pads partially unused: 1_2_3_4 Stride3x2: H pads (1,2)
      // -> out 3 -> (3-1)*3+4-8-1 = 1 < 2; W pads (3,4) -> 6 -> 10+2-5-3 = 4.
      {{2, 8, 5, 3}, {4, 2, 3, 2}, {2, 3, 6, 2}, {3, 2}, S11, EXPLICIT,
       {1, 2, 3, 4}, {1, 4}},
      // EXPLICIT pad after entirely unused and input cropped: H 8, pads
      // (1,0), k 2, s 3 -> out 3 -> 6+2-8-1 = -1.
      {{1, 8, 3, 1}, {2, 1, 1, 1}, {1, 3, 3, 1}, {3, 1}, S11, EXPLICIT,
       {1, 0, 0, 0}, {-1, 0}},
      // Padding_1_8_4_1(b): H 5, pads (1,8), k 3, s 3 -> 4 -> 9+3-5-1 = 6;
      // W 3, pads (4,2), k 2 -> 8 -> 7+2-3-4 = 2.
      {{1, 5, 3, 1}, {3, 2, 1, 1}, {1, 4, 8, 1}, {3, 1}, S11, EXPLICIT,
       {1, 8, 4, 2}, {6, 2}},
      // Dilated: W 9, k 2, d 3 (k_eff 4), s 2 -> out 3 -> 4+4-9 = -1.
      {{1, 1, 9, 1}, {1, 2, 1, 1}, {1, 1, 3, 1}, {1, 2}, {1, 3}, VALID, {},
       {0, -1}},
  };
  for (const auto &c : cases) {
    for (DataLayout layout : {NHWC, NCHW}) {
      SCOPED_TRACE(::testing::Message()
                   << "input=" << str(c.input) << " filter=" << str(c.filter)
                   << " layout=" << (layout == NHWC ? "last" : "first"));
      auto g = computeBackpropFilterGeometry(
          bfAttrs(layout, c.strides, c.dilations, c.padding,
                  c.explicitPaddings),
          inLayout(c.input, layout), c.filter, inLayout(c.out, layout));
      ASSERT_TRUE(g.ok()) << g.error();
      EXPECT_EQ(g->padAfterUsed, c.padAfterUsed);
    }
  }
}

TEST(BackpropFilterGeometry, ChannelsFirstReadsChannelFromDimensionOne) {
  // The same numbers, once read as NHWC and once as NCHW, give different
  // geometries.
  auto attrsL = bfAttrs(NHWC, S11, S11, VALID);
  auto attrsF = bfAttrs(NCHW, S11, S11, VALID);
  // As NCHW: C = 2, H = 3, W = 4.
  auto g = computeBackpropFilterGeometry(attrsF, {1, 2, 3, 4}, {2, 2, 2, 5},
                                         {1, 5, 2, 3});
  ASSERT_TRUE(g.ok()) << g.error();
  EXPECT_EQ(g->inChannels, 2);
  EXPECT_EQ(g->inputSpatial, (Shape{3, 4}));
  EXPECT_EQ(g->outSpatial, (Shape{2, 3}));
  EXPECT_EQ(g->outBackpropShape(), (Shape{1, 5, 2, 3}));
  // As NHWC the same operands are inconsistent: out_backprop channel
  // (dimension 3) is 3, not Cout = 5.
  auto h = computeBackpropFilterGeometry(attrsL, {1, 2, 3, 4}, {2, 2, 2, 5},
                                         {1, 5, 2, 3});
  EXPECT_FALSE(h.ok());
}

//===----------------------------------------------------------------------===//
// computeBackpropFilterGeometry: every error path
//===----------------------------------------------------------------------===//

Result<BackpropFilterGeometry> bf(const BackpropFilterAttrs &a,
                                  const Shape &in, const Shape &f,
                                  const Shape &ob) {
  return computeBackpropFilterGeometry(a, in, f, ob);
}

TEST(BackpropFilterErrors, InputRankOutOfRange) {
  auto a = bfAttrs(NHWC, S11, S11, VALID);
  auto g = bf(a, {1, 2}, {2, 2, 1, 1}, {1, 1, 2, 1});
  ASSERT_FALSE(g.ok());
  EXPECT_THAT(g.error(), AllOf(HasSubstr("operand 'input'"),
                               HasSubstr("rank 3, 4 or 5"),
                               HasSubstr("got rank 2")));
  g = bf(bfAttrs(NHWC, {1, 1, 1, 1}, {1, 1, 1, 1}, VALID),
         {1, 2, 2, 2, 2, 1}, {1, 1, 1, 1, 1, 1}, {1, 2, 2, 2, 2, 1});
  ASSERT_FALSE(g.ok());
  EXPECT_THAT(g.error(),
              AllOf(HasSubstr("operand 'input'"), HasSubstr("got rank 6")));
  g = bf(bfAttrs(NHWC, {}, {}, VALID), {}, {}, {});
  ASSERT_FALSE(g.ok());
  EXPECT_THAT(g.error(), HasSubstr("got rank 0"));
}

TEST(BackpropFilterErrors, FilterRankMismatch) {
  auto g = bf(bfAttrs(NHWC, S11, S11, VALID), {1, 2, 3, 1}, {2, 2, 1},
              {1, 1, 2, 1});
  ASSERT_FALSE(g.ok());
  EXPECT_THAT(g.error(), AllOf(HasSubstr("result 'filter'"),
                               HasSubstr("must have rank 4"),
                               HasSubstr("got rank 3"),
                               HasSubstr("[2, 2, 1]")));
}

TEST(BackpropFilterErrors, ScalarFilterSizes) {
  // §3.4 testBadFilterShape: a scalar filter_sizes (rank-0 filter result).
  auto g = bf(bfAttrs(NHWC, {1, 1, 1}, {1, 1, 1}, VALID), {2, 2, 2, 2, 1}, {},
              {2, 2, 2, 2, 1});
  ASSERT_FALSE(g.ok());
  EXPECT_THAT(g.error(), AllOf(HasSubstr("result 'filter'"),
                               HasSubstr("must have rank 5"),
                               HasSubstr("got rank 0")));
}

TEST(BackpropFilterErrors, OutBackpropRankMismatch) {
  auto g = bf(bfAttrs(NHWC, S11, S11, VALID), {1, 2, 3, 1}, {2, 2, 1, 1},
              {1, 1, 1, 2, 1});
  ASSERT_FALSE(g.ok());
  EXPECT_THAT(g.error(), AllOf(HasSubstr("operand 'out_backprop'"),
                               HasSubstr("must have rank 4"),
                               HasSubstr("got rank 5"),
                               HasSubstr("[1, 1, 1, 2, 1]")));
}

TEST(BackpropFilterErrors, NegativeOrDynamicDimension) {
  auto a = bfAttrs(NHWC, S11, S11, VALID);
  auto g = bf(a, {1, -1, 3, 1}, {2, 2, 1, 1}, {1, 1, 2, 1});
  ASSERT_FALSE(g.ok());
  EXPECT_THAT(g.error(), AllOf(HasSubstr("operand 'input' dimension 1"),
                               HasSubstr(">= 0"), HasSubstr("got -1")));
  g = bf(a, {1, 2, 3, 1}, {2, 2, 1, INT64_MIN}, {1, 1, 2, 1});
  ASSERT_FALSE(g.ok());
  EXPECT_THAT(g.error(),
              AllOf(HasSubstr("result 'filter' dimension 3"),
                    HasSubstr(std::to_string(INT64_MIN))));
  g = bf(a, {1, 2, 3, 1}, {2, 2, 1, 1}, {1, 1, -5, 1});
  ASSERT_FALSE(g.ok());
  EXPECT_THAT(g.error(), AllOf(HasSubstr("operand 'out_backprop' dimension 2"),
                               HasSubstr("got -5")));
}

TEST(BackpropFilterErrors, StridesLengthAndValues) {
  auto g = bf(bfAttrs(NHWC, {1, 1, 1, 1}, S11, VALID), {1, 2, 3, 1},
              {2, 2, 1, 1}, {1, 1, 2, 1});
  ASSERT_FALSE(g.ok());
  EXPECT_THAT(g.error(), AllOf(HasSubstr("attribute 'strides'"),
                               HasSubstr("must have 2 entries"),
                               HasSubstr("got 4"),
                               HasSubstr("[1, 1, 1, 1]")));
  g = bf(bfAttrs(NHWC, {1, 0}, S11, VALID), {1, 2, 3, 1}, {2, 2, 1, 1},
         {1, 1, 2, 1});
  ASSERT_FALSE(g.ok());
  EXPECT_THAT(g.error(), AllOf(HasSubstr("attribute 'strides'"),
                               HasSubstr("spatial dimension 1 (W)"),
                               HasSubstr("must be >= 1"), HasSubstr("got 0")));
  g = bf(bfAttrs(NHWC, {-3, 1}, S11, VALID), {1, 2, 3, 1}, {2, 2, 1, 1},
         {1, 1, 2, 1});
  ASSERT_FALSE(g.ok());
  EXPECT_THAT(g.error(), AllOf(HasSubstr("attribute 'strides'"),
                               HasSubstr("spatial dimension 0 (H)"),
                               HasSubstr("got -3")));
  g = bf(bfAttrs(NHWC, {}, {1}, VALID), {1, 2, 1}, {2, 1, 1}, {1, 1, 1});
  ASSERT_FALSE(g.ok());
  EXPECT_THAT(g.error(), AllOf(HasSubstr("attribute 'strides'"),
                               HasSubstr("must have 1 entry"),
                               HasSubstr("got 0")));
}

TEST(BackpropFilterErrors, DilationsLengthAndValues) {
  auto g = bf(bfAttrs(NHWC, S11, {1}, VALID), {1, 2, 3, 1}, {2, 2, 1, 1},
              {1, 1, 2, 1});
  ASSERT_FALSE(g.ok());
  EXPECT_THAT(g.error(), AllOf(HasSubstr("attribute 'dilations'"),
                               HasSubstr("must have 2 entries"),
                               HasSubstr("got 1"), HasSubstr("[1]")));
  g = bf(bfAttrs(NHWC, {1, 1, 1}, {1, 1, 0}, VALID), {1, 2, 3, 3, 1},
         {1, 1, 1, 1, 1}, {1, 2, 3, 3, 1});
  ASSERT_FALSE(g.ok());
  EXPECT_THAT(g.error(), AllOf(HasSubstr("attribute 'dilations'"),
                               HasSubstr("spatial dimension 2 (W)"),
                               HasSubstr("must be >= 1"), HasSubstr("got 0")));
  g = bf(bfAttrs(NHWC, {1, 1, 1}, {-1, 1, 1}, VALID), {1, 2, 3, 3, 1},
         {1, 1, 1, 1, 1}, {1, 2, 3, 3, 1});
  ASSERT_FALSE(g.ok());
  EXPECT_THAT(g.error(),
              AllOf(HasSubstr("spatial dimension 0 (D)"), HasSubstr("got -1")));
}

TEST(BackpropFilterErrors, ExplicitPaddingsLength) {
  auto g = bf(bfAttrs(NHWC, S11, S11, EXPLICIT, {1, 1, 1}), {1, 2, 3, 1},
              {2, 2, 1, 1}, {1, 3, 4, 1});
  ASSERT_FALSE(g.ok());
  EXPECT_THAT(g.error(), AllOf(HasSubstr("attribute 'explicit_paddings'"),
                               HasSubstr("must have 4 entries"),
                               HasSubstr("got 3"), HasSubstr("[1, 1, 1]")));
  // TF's 8-entry form (with batch/channel pads) is not accepted.
  g = bf(bfAttrs(NHWC, S11, S11, EXPLICIT, {0, 0, 1, 1, 1, 1, 0, 0}),
         {1, 2, 3, 1}, {2, 2, 1, 1}, {1, 3, 4, 1});
  ASSERT_FALSE(g.ok());
  EXPECT_THAT(g.error(),
              AllOf(HasSubstr("must have 4 entries"), HasSubstr("got 8")));
  // EXPLICIT with no pads at all.
  g = bf(bfAttrs(NHWC, {1}, {1}, EXPLICIT), {1, 3, 1}, {2, 1, 1}, {1, 2, 1});
  ASSERT_FALSE(g.ok());
  EXPECT_THAT(g.error(),
              AllOf(HasSubstr("must have 2 entries"), HasSubstr("got 0")));
}

TEST(BackpropFilterErrors, ExplicitPaddingsNegative) {
  // Spec §3.1 testOpEdgeCases: [[0,0],[-1,0],[0,0],[0,0]].
  auto g = bf(bfAttrs(NHWC, S11, S11, EXPLICIT, {-1, 0, 0, 0}),
              {32, 20, 20, 3}, {18, 18, 3, 2}, {32, 3, 2, 2});
  ASSERT_FALSE(g.ok());
  EXPECT_THAT(g.error(),
              AllOf(HasSubstr("attribute 'explicit_paddings'"),
                    HasSubstr("entry 0 (spatial dimension 0 (H), before)"),
                    HasSubstr("got -1"),
                    HasSubstr("All elements of explicit_paddings must be "
                              "nonnegative")));
  g = bf(bfAttrs(NHWC, S11, S11, EXPLICIT, {0, 0, 0, -2}), {1, 2, 3, 1},
         {2, 2, 1, 1}, {1, 1, 2, 1});
  ASSERT_FALSE(g.ok());
  EXPECT_THAT(g.error(), AllOf(HasSubstr("entry 3 (spatial dimension 1 (W), after)"),
                               HasSubstr("got -2")));
}

TEST(BackpropFilterErrors, ExplicitPaddingsNonEmptyWithoutExplicit) {
  auto g = bf(bfAttrs(NHWC, S11, S11, VALID, {0, 0, 0, 0}), {1, 2, 3, 1},
              {2, 2, 1, 1}, {1, 1, 2, 1});
  ASSERT_FALSE(g.ok());
  EXPECT_THAT(g.error(),
              AllOf(HasSubstr("attribute 'explicit_paddings'"),
                    HasSubstr("must be empty if padding is not EXPLICIT"),
                    HasSubstr("padding is VALID"),
                    HasSubstr("[0, 0, 0, 0]")));
  g = bf(bfAttrs(NHWC, S11, S11, SAME, {1, 2}), {1, 2, 3, 1}, {2, 2, 1, 1},
         {1, 2, 3, 1});
  ASSERT_FALSE(g.ok());
  EXPECT_THAT(g.error(),
              AllOf(HasSubstr("padding is SAME"), HasSubstr("[1, 2]")));
}

TEST(BackpropFilterErrors, BatchMismatch) {
  auto g = bf(bfAttrs(NHWC, S11, S11, VALID), {2, 2, 3, 1}, {2, 2, 1, 1},
              {3, 1, 2, 1});
  ASSERT_FALSE(g.ok());
  EXPECT_THAT(g.error(), AllOf(HasSubstr("'input'"), HasSubstr("'out_backprop'"),
                               HasSubstr("same batch size"),
                               HasSubstr("input batch 2"),
                               HasSubstr("out_backprop batch 3")));
  g = bf(bfAttrs(NCHW, S11, S11, VALID), {0, 1, 2, 3}, {2, 2, 1, 1},
         {1, 1, 1, 2});
  ASSERT_FALSE(g.ok());
  EXPECT_THAT(g.error(), AllOf(HasSubstr("input batch 0"),
                               HasSubstr("out_backprop batch 1")));
}

TEST(BackpropFilterErrors, FilterDepthZero) {
  auto g = bf(bfAttrs(NHWC, S11, S11, VALID), {1, 2, 3, 1}, {2, 2, 0, 1},
              {1, 1, 2, 1});
  ASSERT_FALSE(g.ok());
  EXPECT_THAT(g.error(), AllOf(HasSubstr("result 'filter' in-channels"),
                               HasSubstr("dimension 2"),
                               HasSubstr("must be > 0"), HasSubstr("got 0")));
}

TEST(BackpropFilterErrors, ChannelsNotDivisible) {
  auto g = bf(bfAttrs(NHWC, S11, S11, VALID), {1, 2, 3, 5}, {2, 2, 2, 4},
              {1, 1, 2, 4});
  ASSERT_FALSE(g.ok());
  EXPECT_THAT(g.error(),
              AllOf(HasSubstr("operand 'input' channels (dimension 3) = 5"),
                    HasSubstr("evenly divisible"),
                    HasSubstr("result 'filter' in-channels (dimension 2) = 2")));
  // Cf > Cin.
  g = bf(bfAttrs(NCHW, {1}, {1}, VALID), {1, 3, 4}, {1, 4, 2}, {1, 2, 4});
  ASSERT_FALSE(g.ok());
  EXPECT_THAT(g.error(),
              AllOf(HasSubstr("operand 'input' channels (dimension 1) = 3"),
                    HasSubstr("result 'filter' in-channels (dimension 1) = 4")));
  // Cin = 0 with Cf > 0 would make the group count 0.
  g = bf(bfAttrs(NHWC, S11, S11, VALID), {1, 2, 2, 0}, {1, 1, 1, 3},
         {1, 2, 2, 3});
  ASSERT_FALSE(g.ok());
  EXPECT_THAT(g.error(),
              AllOf(HasSubstr("operand 'input' has 0 channels (dimension 3)"),
                    HasSubstr("in-channels (dimension 2) is 1"),
                    HasSubstr("group count")));
}

TEST(BackpropFilterErrors, OutChannelMismatch) {
  auto g = bf(bfAttrs(NHWC, S11, S11, VALID), {1, 2, 3, 1}, {2, 2, 1, 3},
              {1, 1, 2, 2});
  ASSERT_FALSE(g.ok());
  EXPECT_THAT(g.error(),
              AllOf(HasSubstr("result 'filter' out-channels (dimension 3) = 3"),
                    HasSubstr("operand 'out_backprop' channels (dimension 3) = 2"),
                    HasSubstr("must be equal")));
  // Channels-first: out_backprop channel is dimension 1.
  g = bf(bfAttrs(NCHW, S11, S11, VALID), {1, 1, 2, 3}, {2, 2, 1, 3},
         {1, 4, 1, 2});
  ASSERT_FALSE(g.ok());
  EXPECT_THAT(g.error(),
              AllOf(HasSubstr("out-channels (dimension 3) = 3"),
                    HasSubstr("operand 'out_backprop' channels (dimension 1) = 4")));
}

TEST(BackpropFilterErrors, OutChannelsNotDivisibleByGroups) {
  auto g = bf(bfAttrs(NHWC, S11, S11, VALID), {2, 5, 4, 4}, {3, 3, 2, 3},
              {2, 3, 2, 3});
  ASSERT_FALSE(g.ok());
  EXPECT_THAT(g.error(), AllOf(HasSubstr("result 'filter' out-channels (dimension 3) = 3"),
                               HasSubstr("divisible by the group count 2"),
                               HasSubstr("input channels 4"),
                               HasSubstr("filter in-channels 2")));
}

TEST(BackpropFilterErrors, NegativeComputedOutputSize) {
  // in=1, k_eff=3, s=1 in W.
  auto g = bf(bfAttrs(NHWC, S11, S11, VALID), {1, 3, 1, 1}, {1, 3, 1, 1},
              {1, 3, 0, 1});
  ASSERT_FALSE(g.ok());
  EXPECT_THAT(g.error(),
              AllOf(HasSubstr("operand 'out_backprop' spatial dimension 1 (W) "
                              "(dimension 2)"),
                    HasSubstr("Computed output size would be negative: -1"),
                    HasSubstr("input_size: 1"), HasSubstr("filter: 3"),
                    HasSubstr("stride: 1"), HasSubstr("dilation: 1"),
                    HasSubstr("padding: VALID")));
  // Through dilation, 3-D, D dimension.
  g = bf(bfAttrs(NCHW, {1, 1, 1}, {4, 1, 1}, VALID), {1, 1, 2, 2, 2},
         {2, 1, 1, 1, 1}, {1, 1, 0, 2, 2});
  ASSERT_FALSE(g.ok());
  EXPECT_THAT(g.error(), AllOf(HasSubstr("spatial dimension 0 (D)"),
                               HasSubstr("would be negative: -2"),
                               HasSubstr("dilation: 4")));
  // inferOutBackpropShape reports it too.
  auto s = inferOutBackpropShape(bfAttrs(NHWC, {1}, {1}, EXPLICIT, {0, 1}),
                                 {1, 1, 1}, {4, 1, 1});
  ASSERT_FALSE(s.ok());
  EXPECT_THAT(s.error(), AllOf(HasSubstr("spatial dimension 0 (W)"),
                               HasSubstr("would be negative: -1"),
                               HasSubstr("padding: EXPLICIT")));
}

TEST(BackpropFilterErrors, OutBackpropSpatialMismatch) {
  auto g = bf(bfAttrs(NHWC, {2, 2}, S11, SAME), {1, 2, 3, 1}, {2, 2, 1, 1},
              {1, 1, 3, 1});
  ASSERT_FALSE(g.ok());
  EXPECT_THAT(g.error(), AllOf(HasSubstr("operand 'out_backprop'"),
                               HasSubstr("spatial dimension 1 (W)"),
                               HasSubstr("(dimension 2)"),
                               HasSubstr("has size 3"),
                               HasSubstr("computed size is 2"),
                               HasSubstr("input: 3"), HasSubstr("filter: 2"),
                               HasSubstr("stride: 2"),
                               HasSubstr("padding: SAME")));
  // Channels-first: H is dimension 2.
  g = bf(bfAttrs(NCHW, S11, {2, 1}, VALID), {1, 1, 3, 6}, {2, 2, 1, 1},
         {1, 1, 2, 5});
  ASSERT_FALSE(g.ok());
  EXPECT_THAT(g.error(), AllOf(HasSubstr("spatial dimension 0 (H)"),
                               HasSubstr("(dimension 2)"),
                               HasSubstr("has size 2"),
                               HasSubstr("computed size is 1"),
                               HasSubstr("dilation: 2")));
  // 3-D, channels-last, last spatial dimension W is tensor dimension 3.
  g = bf(bfAttrs(NHWC, {1, 1, 1}, {1, 1, 1}, VALID), {1, 2, 2, 2, 1},
         {1, 1, 1, 1, 1}, {1, 2, 2, 3, 1});
  ASSERT_FALSE(g.ok());
  EXPECT_THAT(g.error(), AllOf(HasSubstr("spatial dimension 2 (W)"),
                               HasSubstr("(dimension 3)"),
                               HasSubstr("has size 3"),
                               HasSubstr("computed size is 2")));
}

TEST(BackpropFilterErrors, CheckOrder) {
  // Rank is checked before attributes, attributes before explicit pads,
  // batch before channels (as in TF ConvBackpropComputeDimensionsV2).
  auto g = bf(bfAttrs(NHWC, {0}, {0}, EXPLICIT, {-1}), {1, 2, 3, 1},
              {2, 2, 1}, {1, 1, 2, 1});
  ASSERT_FALSE(g.ok());
  EXPECT_THAT(g.error(), HasSubstr("result 'filter'"));
  g = bf(bfAttrs(NHWC, {0}, {0}, EXPLICIT, {-1}), {1, 2, 3, 1},
         {2, 2, 1, 1}, {1, 1, 2, 1});
  ASSERT_FALSE(g.ok());
  EXPECT_THAT(g.error(), HasSubstr("attribute 'strides'"));
  g = bf(bfAttrs(NHWC, S11, {0}, EXPLICIT, {-1}), {1, 2, 3, 1},
         {2, 2, 1, 1}, {1, 1, 2, 1});
  ASSERT_FALSE(g.ok());
  EXPECT_THAT(g.error(), HasSubstr("attribute 'dilations'"));
  g = bf(bfAttrs(NHWC, S11, S11, EXPLICIT, {-1}), {2, 2, 3, 5},
         {2, 2, 2, 1}, {1, 1, 2, 1});
  ASSERT_FALSE(g.ok());
  EXPECT_THAT(g.error(), HasSubstr("attribute 'explicit_paddings'"));
  g = bf(bfAttrs(NHWC, S11, S11, VALID), {2, 2, 3, 5}, {2, 2, 2, 1},
         {1, 1, 2, 1});
  ASSERT_FALSE(g.ok());
  EXPECT_THAT(g.error(), HasSubstr("same batch size"));
}

TEST(InferOutBackpropShape, Values) {
  auto s = inferOutBackpropShape(bfAttrs(NHWC, {2, 2}, S11, SAME),
                                 {1, 2, 3, 1}, {2, 2, 1, 1});
  ASSERT_TRUE(s.ok()) << s.error();
  EXPECT_EQ(*s, (Shape{1, 1, 2, 1}));
  s = inferOutBackpropShape(bfAttrs(NCHW, {2, 2}, S11, SAME), {1, 1, 2, 3},
                            {2, 2, 1, 1});
  ASSERT_TRUE(s.ok()) << s.error();
  EXPECT_EQ(*s, (Shape{1, 1, 1, 2}));
  s = inferOutBackpropShape(bfAttrs(NHWC, S11, S11, EXPLICIT, {1, 8, 4, 1}),
                            {1, 2, 3, 1}, {2, 2, 1, 7});
  ASSERT_TRUE(s.ok()) << s.error();
  EXPECT_EQ(*s, (Shape{1, 10, 7, 7}));
  s = inferOutBackpropShape(bfAttrs(NCHW, {2, 1, 2}, {3, 2, 1}, EXPLICIT,
                                    {1, 2, 0, 1, 2, 0}),
                            {1, 6, 5, 6, 7}, {2, 3, 2, 2, 9});
  ASSERT_TRUE(s.ok()) << s.error();
  EXPECT_EQ(*s, (Shape{1, 9, 3, 3, 4}));
  s = inferOutBackpropShape(bfAttrs(NHWC, {3}, {1}, VALID), {0, 7, 2},
                            {2, 1, 4});
  ASSERT_TRUE(s.ok()) << s.error();
  EXPECT_EQ(*s, (Shape{0, 2, 4}));
  // Truncation: VALID in=1, k=3, s=2 -> 0.
  s = inferOutBackpropShape(bfAttrs(NHWC, {2}, {1}, VALID), {1, 1, 1},
                            {3, 1, 1});
  ASSERT_TRUE(s.ok()) << s.error();
  EXPECT_EQ(*s, (Shape{1, 0, 1}));
}

TEST(InferOutBackpropShape, ValidatesEverythingButOutBackprop) {
  auto s = inferOutBackpropShape(bfAttrs(NHWC, S11, S11, VALID), {1, 2, 3, 5},
                                 {2, 2, 2, 1});
  ASSERT_FALSE(s.ok());
  EXPECT_THAT(s.error(), HasSubstr("evenly divisible"));
  s = inferOutBackpropShape(bfAttrs(NHWC, S11, S11, VALID), {1, 2, 3, 4},
                            {2, 2, 2, 3});
  ASSERT_FALSE(s.ok());
  EXPECT_THAT(s.error(), HasSubstr("group count 2"));
  s = inferOutBackpropShape(bfAttrs(NHWC, S11, {1, 1, 1}, VALID),
                            {1, 2, 3, 1}, {2, 2, 1, 1});
  ASSERT_FALSE(s.ok());
  EXPECT_THAT(s.error(), HasSubstr("attribute 'dilations'"));
  s = inferOutBackpropShape(bfAttrs(NHWC, S11, S11, VALID), {1, 2, 3, 1},
                            {2, 2, 1});
  ASSERT_FALSE(s.ok());
  EXPECT_THAT(s.error(), HasSubstr("result 'filter'"));
  s = inferOutBackpropShape(bfAttrs(NHWC, S11, S11, SAME, {0, 0, 0, 0}),
                            {1, 2, 3, 1}, {2, 2, 1, 1});
  ASSERT_FALSE(s.ok());
  EXPECT_THAT(s.error(), HasSubstr("must be empty"));
}

//===----------------------------------------------------------------------===//
// conv.transpose: per-dimension formulas (spec §2.2, §2.3, §2.4, §3.5-§3.7)
//===----------------------------------------------------------------------===//

struct TrDimCase {
  int64_t in, k, s, d;
  TransposePadding padding;
  std::optional<int64_t> op;
  int64_t out, crop, jaxLeft, jaxRight;
};

TEST(TransposeFormulas, SpecTable22) {
  const TrDimCase cases[] = {
      // valid / None: (in-1)s + max(k_eff, s); crop 0; pads (ke-1, ke-1+o).
      {4, 2, 2, 1, Valid, None, 8, 0, 1, 1},
      {3, 3, 2, 1, Valid, None, 7, 0, 2, 2},
      {3, 1, 3, 1, Valid, None, 9, 0, 0, 2}, // s > k_eff
      {5, 2, 4, 1, Valid, None, 20, 0, 1, 3},
      {3, 2, 1, 3, Valid, None, 6, 0, 3, 3}, // k_eff 4
      {1, 1, 1, 1, Valid, None, 1, 0, 0, 0},
      // valid / op: (in-1)s + k_eff + op; crop 0; pads (ke-1, ke-1+op).
      {3, 3, 2, 1, Valid, 1, 8, 0, 2, 3},
      {3, 3, 2, 1, Valid, 0, 7, 0, 2, 2},
      {4, 2, 5, 1, Valid, 4, 21, 0, 1, 5},
      {3, 1, 3, 1, Valid, 0, 7, 0, 0, 0}, // op 0 != None here (9)
      {2, 2, 3, 2, Valid, 2, 8, 0, 2, 4},
      // same / None: in*s; crop floor(max(0,ke-s)/2).
      {3, 3, 2, 1, Same, None, 6, 0, 2, 1},
      {5, 3, 2, 1, Same, None, 10, 0, 2, 1},
      {4, 2, 2, 1, Same, None, 8, 0, 1, 1},
      {4, 2, 1, 1, Same, None, 4, 0, 1, 0},
      {4, 3, 1, 1, Same, None, 4, 1, 1, 1},
      {4, 4, 1, 1, Same, None, 4, 1, 2, 1},
      {4, 5, 1, 1, Same, None, 4, 2, 2, 2},
      {4, 5, 2, 1, Same, None, 8, 1, 3, 2},
      {3, 3, 1, 2, Same, None, 3, 2, 2, 2},  // k_eff 5
      {3, 1, 4, 1, Same, None, 12, 0, 0, 3}, // s > k_eff
      {2, 7, 16, 1, Same, None, 32, 0, 6, 15},
      // same / op: (in-1)s + ke%2 + op; crop floor(max(0,ke-ke%2-op)/2).
      {3, 3, 2, 1, Same, 0, 5, 1, 1, 1},
      {3, 3, 2, 1, Same, 1, 6, 0, 2, 1},
      {8, 2, 3, 1, Same, 2, 23, 0, 1, 1},
      {8, 2, 3, 1, Same, 0, 21, 1, 0, 0},
      {4, 4, 2, 1, Same, 0, 6, 2, 1, 1},
      {4, 4, 2, 1, Same, 1, 7, 1, 2, 1},
      {4, 1, 3, 1, Same, 2, 12, 0, 0, 2},
      {14, 7, 16, 1, Same, 2, 211, 2, 4, 4},
      {3, 2, 1, 2, Same, 0, 3, 1, 1, 1}, // k_eff 3
  };
  for (const auto &c : cases) {
    SCOPED_TRACE(::testing::Message()
                 << "in=" << c.in << " k=" << c.k << " s=" << c.s
                 << " d=" << c.d << " " << stringify(c.padding) << " op="
                 << (c.op ? std::to_string(*c.op) : "None"));
    EXPECT_EQ(transposeOutputSize(c.in, c.k, c.s, c.d, c.padding, c.op),
              c.out);
    EXPECT_EQ(transposeCropBefore(c.k, c.s, c.d, c.padding, c.op), c.crop);
    auto [l, r] = transposeJaxPadding(c.k, c.s, c.d, c.padding, c.op);
    EXPECT_EQ(l, c.jaxLeft);
    EXPECT_EQ(r, c.jaxRight);
  }
}

TEST(TransposeFormulas, WorkedExampleOfSection23) {
  // x=[1,2,3], k=[1,10,100], s=2 (full length 7).
  EXPECT_EQ(transposeOutputSize(3, 3, 2, 1, Same, None), 6);
  EXPECT_EQ(transposeCropBefore(3, 2, 1, Same, None), 0);
  EXPECT_EQ(transposeOutputSize(3, 3, 2, 1, Same, 0), 5);
  EXPECT_EQ(transposeCropBefore(3, 2, 1, Same, 0), 1); // starts at full[1]
  EXPECT_EQ(transposeOutputSize(3, 3, 2, 1, Valid, None), 7);
  EXPECT_EQ(transposeOutputSize(3, 3, 2, 1, Valid, 1), 8);
  EXPECT_EQ(transposeCropBefore(3, 2, 1, Valid, 1), 0);
}

TEST(TransposeFormulas, BackendUtilsTestSection37) {
  // JAX pads, k=3, s=2.
  EXPECT_EQ(transposeJaxPadding(3, 2, 1, Valid, None),
            (std::pair<int64_t, int64_t>{2, 2}));
  EXPECT_EQ(transposeJaxPadding(3, 2, 1, Same, None),
            (std::pair<int64_t, int64_t>{2, 1}));
  // _get_output_shape_given_tf_padding(5, 3, 2, ...).
  EXPECT_EQ(transposeOutputSize(5, 3, 2, 1, Valid, None), 11);
  EXPECT_EQ(transposeOutputSize(5, 3, 2, 1, Same, None), 10);
  EXPECT_EQ(transposeOutputSize(5, 3, 2, 1, Valid, 1), 12);
  // Input (1,5,5,3), kernel (3,3,3,3), s=2: [(2,2),(2,2)] / [(2,1),(2,1)].
  for (auto [pad, l, r] : {std::tuple{Valid, 2, 2}, std::tuple{Same, 2, 1}}) {
    auto g = computeTransposeGeometry(trAttrs(NHWC, {2, 2}, S11, pad),
                                      {1, 5, 5, 3}, {3, 3, 3, 3});
    ASSERT_TRUE(g.ok()) << g.error();
    for (int d = 0; d < 2; ++d) {
      auto p = transposeJaxPadding(3, 2, 1, pad, None);
      EXPECT_EQ(p.first, l);
      EXPECT_EQ(p.second, r);
      EXPECT_EQ(g->cropBefore[d], 3 - 1 - l);
      EXPECT_EQ(g->outSpatial[d], (5 - 1) * 2 + 1 + l + r - 3 + 1);
    }
  }
}

/// The JAX converter and Keras output length, transcribed from spec §2.2 /
/// §2.4 with Python floor semantics (all operands are >= 0 here).
std::pair<int64_t, int64_t> specJaxPads(int64_t k, int64_t s, int64_t d,
                                        TransposePadding p,
                                        std::optional<int64_t> op) {
  int64_t ke = (k - 1) * d + 1;
  if (p == Valid) {
    int64_t o = op ? *op : std::max(ke, s) - ke;
    return {ke - 1, ke - 1 + o};
  }
  int64_t padLen = op ? ke + ke % 2 - 2 + *op : s + ke - 2;
  int64_t left = std::min(padLen / 2 + padLen % 2, ke - 1);
  return {left, padLen - left};
}

int64_t specKerasOutLen(int64_t n, int64_t k, int64_t s, int64_t d,
                        TransposePadding p, std::optional<int64_t> op) {
  int64_t ke = (k - 1) * d + 1;
  if (p == Valid)
    return (n - 1) * s + ke + (op ? *op : std::max(ke, s) - ke);
  return op ? (n - 1) * s + ke % 2 + *op : n * s;
}

TEST(TransposeFormulas, CropAndJaxPadConsistencySweep) {
  // Port of verify_conv_transpose.py: crop_left == k_eff - 1 - jax_left and
  // out_len == (in-1)*s + 1 + left + right - k_eff + 1.
  int checked = 0;
  for (int64_t in = 1; in <= 4; ++in)
    for (int64_t k = 1; k <= 4; ++k)
      for (int64_t s = 1; s <= 4; ++s)
        for (int64_t d = 1; d <= 3; ++d)
          for (auto p : {Valid, Same})
            for (int64_t opv = -1; opv < s; ++opv) {
              std::optional<int64_t> op;
              if (opv >= 0)
                op = opv;
              SCOPED_TRACE(::testing::Message()
                           << "in=" << in << " k=" << k << " s=" << s
                           << " d=" << d << " " << stringify(p) << " op="
                           << (op ? std::to_string(*op) : "None"));
              int64_t ke = (k - 1) * d + 1;
              auto [left, right] = transposeJaxPadding(k, s, d, p, op);
              EXPECT_EQ(std::make_pair(left, right), specJaxPads(k, s, d, p, op));
              int64_t crop = transposeCropBefore(k, s, d, p, op);
              EXPECT_EQ(crop, ke - 1 - left);
              EXPECT_GE(crop, 0);
              int64_t len = transposeOutputSize(in, k, s, d, p, op);
              EXPECT_EQ(len, (in - 1) * s + 1 + left + right - ke + 1);
              EXPECT_EQ(len, specKerasOutLen(in, k, s, d, p, op));
              // Closed-form crop of the §2.3 table.
              int64_t closed =
                  p == Valid ? 0
                  : op       ? std::max<int64_t>(0, ke - ke % 2 - *op) / 2
                             : std::max<int64_t>(0, ke - s) / 2;
              EXPECT_EQ(crop, closed);
              // The geometry agrees for 1-D and in both layouts.
              for (auto layout : {NHWC, NCHW}) {
                std::optional<Shape> ops;
                if (op)
                  ops = Shape{*op};
                auto g = computeTransposeGeometry(
                    trAttrs(layout, {s}, {d}, p, ops),
                    inLayout({1, in, 1}, layout), {k, 1, 1});
                ASSERT_TRUE(g.ok()) << g.error();
                EXPECT_EQ(g->outSpatial, Shape{len});
                EXPECT_EQ(g->cropBefore, Shape{crop});
                EXPECT_EQ(g->fullSpatial, Shape{(in - 1) * s + ke});
              }
              ++checked;
            }
  EXPECT_EQ(checked, 4 * 4 * 3 * 2 * (2 + 3 + 4 + 5));
}

TEST(TransposeFormulas, TfPadBeforeEqualsCropWhenTfAccepts) {
  // Spec §2.3: crop_left equals TF's forward-conv pad_before of the output
  // size whenever the TF shape check passes (forward size of out == in).
  for (int64_t in = 1; in <= 5; ++in)
    for (int64_t k = 1; k <= 5; ++k)
      for (int64_t s = 1; s <= 4; ++s)
        for (int64_t d = 1; d <= 3; ++d)
          for (auto p : {Valid, Same})
            for (int64_t opv = -1; opv < s; ++opv) {
              std::optional<int64_t> op;
              if (opv >= 0)
                op = opv;
              int64_t len = transposeOutputSize(in, k, s, d, p, op);
              auto w = windowedOutputSize(len, k, d, s,
                                          p == Valid ? VALID : SAME);
              ASSERT_TRUE(w.ok());
              if (w->outSize != in)
                continue;
              EXPECT_EQ(transposeCropBefore(k, s, d, p, op), w->padBefore)
                  << "in=" << in << " k=" << k << " s=" << s << " d=" << d
                  << " " << stringify(p) << " op="
                  << (op ? std::to_string(*op) : "None");
            }
}

//===----------------------------------------------------------------------===//
// computeTransposeGeometry: Keras shape tables (§3.5, §3.6)
//===----------------------------------------------------------------------===//

struct TrCase {
  const char *name;
  Shape input, kernel; // channels-last input; kernel [k..., Cout, Cin]
  Shape strides, dilations;
  TransposePadding padding;
  std::optional<Shape> outputPadding;
  Shape output; // channels-last
};

void checkTrCase(const TrCase &c, DataLayout layout) {
  SCOPED_TRACE(::testing::Message()
               << c.name << " input=" << str(c.input)
               << " kernel=" << str(c.kernel)
               << (layout == NHWC ? " channels_last" : " channels_first"));
  Shape in = inLayout(c.input, layout), out = inLayout(c.output, layout);
  auto g = computeTransposeGeometry(
      trAttrs(layout, c.strides, c.dilations, c.padding, c.outputPadding), in,
      c.kernel);
  ASSERT_TRUE(g.ok()) << g.error();
  int64_t n = static_cast<int64_t>(c.input.size()) - 2;
  EXPECT_EQ(g->numSpatialDims, n);
  EXPECT_EQ(g->layout, layout);
  EXPECT_EQ(g->batch, c.input[0]);
  EXPECT_EQ(g->inChannels, c.input.back());
  EXPECT_EQ(g->outChannels, c.kernel[n]);
  EXPECT_EQ(g->outputShape(), out);
  EXPECT_EQ(g->inputShape(), in);
  EXPECT_EQ(g->kernelShape(), c.kernel);
  EXPECT_EQ(g->inputSpatial, Shape(c.input.begin() + 1, c.input.end() - 1));
  EXPECT_EQ(g->kernelSpatial, Shape(c.kernel.begin(), c.kernel.begin() + n));
  EXPECT_EQ(g->strides, c.strides);
  EXPECT_EQ(g->dilations, c.dilations);
  for (int64_t d = 0; d < n; ++d) {
    std::optional<int64_t> op;
    if (c.outputPadding)
      op = (*c.outputPadding)[d];
    int64_t ke = (c.kernel[d] - 1) * c.dilations[d] + 1;
    auto [left, right] =
        specJaxPads(c.kernel[d], c.strides[d], c.dilations[d], c.padding, op);
    EXPECT_EQ(g->cropBefore[d], ke - 1 - left) << "dim " << d;
    EXPECT_EQ(g->fullSpatial[d], (c.input[1 + d] - 1) * c.strides[d] + ke);
  }
  double flops = 2.0 * c.input.back() * c.kernel[n] * c.input[0];
  for (int64_t d = 0; d < n; ++d)
    flops *= static_cast<double>(c.kernel[d] * c.input[1 + d]);
  EXPECT_DOUBLE_EQ(g->flops(), flops);
}

const TrCase kKerasTransposeShapes[] = {
    // §3.5 keras/src/ops/nn_test.py (batch 2 and 0), kernel (k, 5, 3).
    {"nn_test 1D valid", {2, 4, 3}, {2, 5, 3}, {2}, {1}, Valid, None,
     {2, 8, 5}},
    {"nn_test 1D same", {2, 4, 3}, {2, 5, 3}, {2}, {1}, Same, None, {2, 8, 5}},
    {"nn_test 1D valid op4", {2, 4, 3}, {2, 5, 3}, {5}, {1}, Valid,
     Shape{4}, {2, 21, 5}},
    {"nn_test 2D valid", {2, 4, 4, 3}, {2, 2, 5, 3}, {2, 2}, S11, Valid, None,
     {2, 8, 8, 5}},
    {"nn_test 2D same", {2, 4, 4, 3}, {2, 2, 5, 3}, {2, 2}, S11, Same, None,
     {2, 8, 8, 5}},
    {"nn_test 2D valid op4", {2, 4, 4, 3}, {2, 2, 5, 3}, {5, 5}, S11, Valid,
     Shape{4, 4}, {2, 21, 21, 5}},
    {"nn_test 1D valid batch 0", {0, 4, 3}, {2, 5, 3}, {2}, {1}, Valid, None,
     {0, 8, 5}},
    {"nn_test 2D same batch 0", {0, 4, 4, 3}, {2, 2, 5, 3}, {2, 2}, S11, Same,
     None, {0, 8, 8, 5}},
    // §3.6 conv_transpose_test.py basic shapes (Cin 4).
    {"1D 5,2,2,valid", {2, 8, 4}, {2, 5, 4}, {2}, {1}, Valid, None,
     {2, 16, 5}},
    {"1D 6,2,3,same,2", {2, 8, 4}, {2, 6, 4}, {3}, {1}, Same, Shape{2},
     {2, 23, 6}},
    {"1D 6,(2,),(2,),valid", {2, 8, 4}, {2, 6, 4}, {2}, {1}, Valid, None,
     {2, 16, 6}},
    {"2D 5,2,2,valid", {2, 8, 8, 4}, {2, 2, 5, 4}, {2, 2}, S11, Valid, None,
     {2, 16, 16, 5}},
    {"2D 6,2,3,same,2", {2, 8, 8, 4}, {2, 2, 6, 4}, {3, 3}, S11, Same,
     Shape{2, 2}, {2, 23, 23, 6}},
    {"2D 6,(2,3),(2,1),valid", {2, 8, 8, 4}, {2, 3, 6, 4}, {2, 1}, S11, Valid,
     None, {2, 16, 10, 6}},
    {"2D 2,(7,7),(16,16),valid", {1, 14, 14, 2}, {7, 7, 2, 2}, {16, 16}, S11,
     Valid, None, {1, 224, 224, 2}},
    {"3D 5,2,2,valid", {2, 8, 8, 8, 4}, {2, 2, 2, 5, 4}, {2, 2, 2}, {1, 1, 1},
     Valid, None, {2, 16, 16, 16, 5}},
    {"3D 6,2,3,same,2", {2, 8, 8, 8, 4}, {2, 2, 2, 6, 4}, {3, 3, 3},
     {1, 1, 1}, Same, Shape{2, 2, 2}, {2, 23, 23, 23, 6}},
    {"3D 6,(2,2,3),(2,1,2),valid", {2, 8, 8, 8, 4}, {2, 2, 3, 6, 4},
     {2, 1, 2}, {1, 1, 1}, Valid, None, {2, 16, 9, 17, 6}},
    // §3.6 correctness configs on [2,14,14,4] (2-D).
    {"2D corr 5,2,2,valid", {2, 14, 14, 4}, {2, 2, 5, 4}, {2, 2}, S11, Valid,
     None, {2, 28, 28, 5}},
    {"2D corr 6,7,16,same,2", {2, 14, 14, 4}, {7, 7, 6, 4}, {16, 16}, S11,
     Same, Shape{2, 2}, {2, 211, 211, 6}},
    {"2D corr 6,(2,3),(2,1),valid", {2, 14, 14, 4}, {2, 3, 6, 4}, {2, 1}, S11,
     Valid, None, {2, 28, 16, 6}},
    {"2D corr 2,(7,7),(16,16),valid", {2, 14, 14, 4}, {7, 7, 2, 4}, {16, 16},
     S11, Valid, None, {2, 224, 224, 2}},
    // test_output_padding_serialization: (2, 3, strides=2, op=1).
    {"serialization 1D", {1, 8, 3}, {3, 2, 3}, {2}, {1}, Valid, Shape{1},
     {1, 18, 2}},
    {"serialization 2D", {1, 5, 5, 3}, {3, 3, 2, 3}, {2, 2}, S11, Valid,
     Shape{1, 1}, {1, 12, 12, 2}},
    {"serialization 3D", {1, 5, 5, 5, 3}, {3, 3, 3, 2, 3}, {2, 2, 2},
     {1, 1, 1}, Valid, Shape{1, 1, 1}, {1, 12, 12, 12, 2}},
    // Dilation, mixed per-dimension values, zero channels.
    {"2D dilated same", {1, 5, 4, 2}, {3, 2, 3, 2}, {1, 1}, {2, 3}, Same,
     None, {1, 5, 4, 3}},
    {"2D dilated valid op", {1, 3, 3, 1}, {2, 2, 1, 1}, {2, 3}, {3, 2}, Valid,
     Shape{1, 0}, {1, 9, 9, 1}},
    {"1D Cout 0", {2, 3, 2}, {2, 0, 2}, {2}, {1}, Valid, None, {2, 6, 0}},
    {"1D Cin 0", {2, 3, 0}, {2, 4, 0}, {1}, {1}, Same, None, {2, 3, 4}},
    {"1D in 0", {1, 0, 1}, {3, 1, 1}, {1}, {1}, Valid, None, {1, 2, 1}},
};

TEST(TransposeGeometry, KerasShapeTables) {
  for (const auto &c : kKerasTransposeShapes)
    for (auto layout : {NHWC, NCHW})
      checkTrCase(c, layout);
}

TEST(TransposeGeometry, ChannelsFirstLayerRow) {
  // §3.6: 2D, filters 6, kernel (2,3), strides (2,1), valid, channels_first,
  // input (2,4,8,8) -> (2,6,16,10).
  auto g = computeTransposeGeometry(trAttrs(NCHW, {2, 1}, S11, Valid),
                                    {2, 4, 8, 8}, {2, 3, 6, 4});
  ASSERT_TRUE(g.ok()) << g.error();
  EXPECT_EQ(g->outputShape(), (Shape{2, 6, 16, 10}));
  EXPECT_EQ(g->inChannels, 4);
  EXPECT_EQ(g->outChannels, 6);
}

TEST(TransposeGeometry, Conv1dTransposeConsistencySweepShapes) {
  // §3.6 test_conv1d_transpose_consistency: input (1,3,1), kernel (k,1,1),
  // k 1..4, s 1..4, op in {None,1..4} skipped if op >= s.
  for (int64_t k = 1; k <= 4; ++k)
    for (int64_t s = 1; s <= 4; ++s)
      for (auto p : {Valid, Same})
        for (int64_t opv : {-1, 1, 2, 3, 4}) {
          if (opv >= s)
            continue;
          std::optional<Shape> op;
          if (opv >= 0)
            op = Shape{opv};
          auto g = computeTransposeGeometry(trAttrs(NHWC, {s}, {1}, p, op),
                                            {1, 3, 1}, {k, 1, 1});
          ASSERT_TRUE(g.ok()) << g.error();
          std::optional<int64_t> o;
          if (op)
            o = (*op)[0];
          EXPECT_EQ(g->outputShape(),
                    (Shape{1, specKerasOutLen(3, k, s, 1, p, o), 1}));
        }
}

//===----------------------------------------------------------------------===//
// computeTransposeGeometry: errors
//===----------------------------------------------------------------------===//

TEST(TransposeErrors, OutputPaddingNotLessThanStride) {
  auto g = computeTransposeGeometry(
      trAttrs(NHWC, {2, 2}, S11, Valid, Shape{0, 2}), {1, 5, 5, 3},
      {3, 3, 2, 3});
  ASSERT_FALSE(g.ok());
  EXPECT_THAT(g.error(),
              AllOf(HasSubstr("attribute 'output_padding'"),
                    HasSubstr("strictly less than 'strides'"),
                    HasSubstr("spatial dimension 1 (W)"),
                    HasSubstr("output_padding is 2"),
                    HasSubstr("strides is 2"),
                    HasSubstr("output_padding=[0, 2]"),
                    HasSubstr("strides=[2, 2]")));
  // §3.6 test_bad_init_args: (k3, s2, op3), (k3, s(2,3), op(1,3)),
  // (k2, s2, op2), (k3, s[1,1], op1), 3D (k3, s1, op1).
  g = computeTransposeGeometry(trAttrs(NHWC, {2}, {1}, Same, Shape{3}),
                               {1, 8, 3}, {3, 2, 3});
  ASSERT_FALSE(g.ok());
  EXPECT_THAT(g.error(), AllOf(HasSubstr("spatial dimension 0 (W)"),
                               HasSubstr("output_padding is 3"),
                               HasSubstr("strides is 2")));
  g = computeTransposeGeometry(
      trAttrs(NHWC, {2, 3}, S11, Valid, Shape{1, 3}), {1, 5, 5, 3},
      {3, 3, 2, 3});
  ASSERT_FALSE(g.ok());
  EXPECT_THAT(g.error(), AllOf(HasSubstr("spatial dimension 1 (W)"),
                               HasSubstr("output_padding is 3"),
                               HasSubstr("strides is 3")));
  g = computeTransposeGeometry(trAttrs(NHWC, {2}, {1}, Same, Shape{2}),
                               {1, 8, 3}, {2, 2, 3});
  ASSERT_FALSE(g.ok());
  EXPECT_THAT(g.error(), HasSubstr("output_padding is 2"));
  g = computeTransposeGeometry(trAttrs(NCHW, S11, S11, Valid, Shape{1, 1}),
                               {1, 3, 5, 5}, {3, 3, 2, 3});
  ASSERT_FALSE(g.ok());
  EXPECT_THAT(g.error(), AllOf(HasSubstr("spatial dimension 0 (H)"),
                               HasSubstr("output_padding is 1"),
                               HasSubstr("strides is 1")));
  g = computeTransposeGeometry(
      trAttrs(NHWC, {1, 1, 1}, {1, 1, 1}, Same, Shape{1, 1, 1}),
      {1, 5, 5, 5, 3}, {3, 3, 3, 2, 3});
  ASSERT_FALSE(g.ok());
  EXPECT_THAT(g.error(), AllOf(HasSubstr("spatial dimension 0 (D)"),
                               HasSubstr("strides=[1, 1, 1]")));
}

TEST(TransposeErrors, OutputPaddingNegativeOrWrongLength) {
  auto g = computeTransposeGeometry(
      trAttrs(NHWC, {2, 2}, S11, Valid, Shape{-1, 0}), {1, 5, 5, 3},
      {3, 3, 2, 3});
  ASSERT_FALSE(g.ok());
  EXPECT_THAT(g.error(), AllOf(HasSubstr("attribute 'output_padding'"),
                               HasSubstr("spatial dimension 0 (H)"),
                               HasSubstr("must be >= 0"),
                               HasSubstr("got -1")));
  g = computeTransposeGeometry(trAttrs(NHWC, {2, 2}, S11, Valid, Shape{1}),
                               {1, 5, 5, 3}, {3, 3, 2, 3});
  ASSERT_FALSE(g.ok());
  EXPECT_THAT(g.error(), AllOf(HasSubstr("attribute 'output_padding'"),
                               HasSubstr("must have 2 entries"),
                               HasSubstr("got 1"), HasSubstr("[1]")));
  g = computeTransposeGeometry(trAttrs(NHWC, {2}, {1}, Valid, Shape{}),
                               {1, 5, 3}, {3, 2, 3});
  ASSERT_FALSE(g.ok());
  EXPECT_THAT(g.error(),
              AllOf(HasSubstr("must have 1 entry"), HasSubstr("got 0")));
}

TEST(TransposeErrors, ChannelMismatch) {
  // §3.5 channel validation: input (2,4,3), kernel [2,4,5].
  auto g = computeTransposeGeometry(trAttrs(NHWC, {2}, {1}, Valid),
                                    {2, 4, 3}, {2, 4, 5});
  ASSERT_FALSE(g.ok());
  EXPECT_THAT(g.error(),
              AllOf(HasSubstr("input channels must match the kernel"),
                    HasSubstr("operand 'inputs' channels (dimension 2) = 3"),
                    HasSubstr("operand 'kernel' input channels (dimension 2) "
                              "= 5")));
  g = computeTransposeGeometry(trAttrs(NCHW, S11, S11, Same), {2, 3, 4, 4},
                               {2, 2, 5, 4});
  ASSERT_FALSE(g.ok());
  EXPECT_THAT(g.error(),
              AllOf(HasSubstr("operand 'inputs' channels (dimension 1) = 3"),
                    HasSubstr("(dimension 3) = 4")));
}

TEST(TransposeErrors, RanksAndAttributes) {
  auto g = computeTransposeGeometry(trAttrs(NHWC, {}, {}, Valid), {4, 3},
                                    {2, 3});
  ASSERT_FALSE(g.ok());
  EXPECT_THAT(g.error(), AllOf(HasSubstr("operand 'inputs'"),
                               HasSubstr("rank 3, 4 or 5"),
                               HasSubstr("got rank 2")));
  g = computeTransposeGeometry(trAttrs(NHWC, {1, 1, 1, 1}, {1, 1, 1, 1}, Valid),
                               {1, 2, 2, 2, 2, 1}, {1, 1, 1, 1, 1, 1});
  ASSERT_FALSE(g.ok());
  EXPECT_THAT(g.error(), HasSubstr("got rank 6"));
  g = computeTransposeGeometry(trAttrs(NHWC, S11, S11, Valid), {2, 4, 4, 3},
                               {2, 5, 3});
  ASSERT_FALSE(g.ok());
  EXPECT_THAT(g.error(), AllOf(HasSubstr("operand 'kernel'"),
                               HasSubstr("must have rank 4"),
                               HasSubstr("got rank 3"),
                               HasSubstr("[2, 5, 3]")));
  g = computeTransposeGeometry(trAttrs(NHWC, {2}, {1}, Valid), {2, 4, 3},
                               {2, 5, -3});
  ASSERT_FALSE(g.ok());
  EXPECT_THAT(g.error(), AllOf(HasSubstr("operand 'kernel' dimension 2"),
                               HasSubstr("got -3")));
  g = computeTransposeGeometry(trAttrs(NHWC, {2}, {1}, Valid), {2, -1, 3},
                               {2, 5, 3});
  ASSERT_FALSE(g.ok());
  EXPECT_THAT(g.error(), AllOf(HasSubstr("operand 'inputs' dimension 1"),
                               HasSubstr("got -1")));
  g = computeTransposeGeometry(trAttrs(NHWC, {2, 2}, {1}, Valid), {2, 4, 3},
                               {2, 5, 3});
  ASSERT_FALSE(g.ok());
  EXPECT_THAT(g.error(), AllOf(HasSubstr("attribute 'strides'"),
                               HasSubstr("must have 1 entry"),
                               HasSubstr("got 2")));
  g = computeTransposeGeometry(trAttrs(NHWC, {0}, {1}, Valid), {2, 4, 3},
                               {2, 5, 3});
  ASSERT_FALSE(g.ok());
  EXPECT_THAT(g.error(), AllOf(HasSubstr("attribute 'strides'"),
                               HasSubstr("spatial dimension 0 (W)"),
                               HasSubstr("got 0")));
  g = computeTransposeGeometry(trAttrs(NHWC, {1}, {}, Valid), {2, 4, 3},
                               {2, 5, 3});
  ASSERT_FALSE(g.ok());
  EXPECT_THAT(g.error(), AllOf(HasSubstr("attribute 'dilation_rate'"),
                               HasSubstr("got 0")));
  g = computeTransposeGeometry(trAttrs(NHWC, S11, {1, 0}, Valid),
                               {2, 4, 4, 3}, {2, 2, 5, 3});
  ASSERT_FALSE(g.ok());
  EXPECT_THAT(g.error(), AllOf(HasSubstr("attribute 'dilation_rate'"),
                               HasSubstr("spatial dimension 1 (W)"),
                               HasSubstr("must be >= 1"),
                               HasSubstr("got 0")));
}

TEST(TransposeErrors, NegativeOutputSize) {
  // in 0, k 1, s 2, same, op 0: (0-1)*2 + 1 + 0 = -1.
  auto g = computeTransposeGeometry(trAttrs(NHWC, {2}, {1}, Same, Shape{0}),
                                    {1, 0, 1}, {1, 1, 1});
  ASSERT_FALSE(g.ok());
  EXPECT_THAT(g.error(),
              AllOf(HasSubstr("spatial dimension 0 (W)"),
                    HasSubstr("computed output size would be negative: -1"),
                    HasSubstr("input: 0"), HasSubstr("kernel: 1"),
                    HasSubstr("stride: 2"), HasSubstr("padding: same")));
  // valid, op 0: in 0, k 1, s 3 -> -3 + 1 + 0 = -2.
  g = computeTransposeGeometry(
      trAttrs(NCHW, {1, 3}, S11, Valid, Shape{0, 0}), {1, 1, 2, 0},
      {1, 1, 1, 1});
  ASSERT_FALSE(g.ok());
  EXPECT_THAT(g.error(), AllOf(HasSubstr("spatial dimension 1 (W)"),
                               HasSubstr("negative: -2"),
                               HasSubstr("padding: valid")));
  // in 0 but a non-negative Keras length is accepted (zeros).
  auto ok = computeTransposeGeometry(trAttrs(NHWC, {1}, {1}, Valid),
                                     {1, 0, 1}, {3, 1, 1});
  ASSERT_TRUE(ok.ok()) << ok.error();
  EXPECT_EQ(ok->outSpatial, Shape{2});
  EXPECT_EQ(ok->fullSpatial, Shape{2});
  ok = computeTransposeGeometry(trAttrs(NHWC, {3}, {1}, Valid), {1, 0, 1},
                                {1, 1, 1});
  ASSERT_TRUE(ok.ok()) << ok.error();
  EXPECT_EQ(ok->outSpatial, Shape{0});
  EXPECT_EQ(ok->fullSpatial, Shape{0});
}

} // namespace

TEST(TransposeErrors, KernelSpatialZero) {
  TransposeAttrs a;
  a.strides = {2};
  a.dilations = {2};
  a.padding = TransposePadding::Same;
  auto g = computeTransposeGeometry(a, {1, 3, 1}, {0, 1, 1});
  ASSERT_FALSE(g.ok());
  EXPECT_THAT(g.error(),
              testing::AllOf(testing::HasSubstr("operand 'kernel' spatial "
                                                "dimension 0 (W) (dimension 0)"),
                             testing::HasSubstr("must be >= 1, got 0")));
}

// tapInputRange (the padding cuts of docs/Lowering.md §2.5) against its
// definition: the output positions o with o*s + k*dil - padBefore inside
// the input, found by trying every o; the range must be exactly those.
TEST(BackpropFilterGeometry, TapInputRangeMatchesDefinition) {
  int64_t checked = 0, partial = 0, empty = 0;
  for (int64_t in = 1; in <= 9; ++in)
    for (int64_t s = 1; s <= 3; ++s)
      for (int64_t dil = 1; dil <= 3; ++dil)
        for (int64_t pb = 0; pb <= 4; ++pb)
          for (int64_t out = 1; out <= 8; ++out)
            for (int64_t k = 0; k < 4; ++k) {
              BackpropFilterGeometry g;
              g.numSpatialDims = 1;
              g.inputSpatial = {in};
              g.outSpatial = {out};
              g.strides = {s};
              g.dilations = {dil};
              g.padBefore = {pb};
              auto [lo, hi] = g.tapInputRange(0, k);
              int64_t first = out, last = -1;
              for (int64_t o = 0; o < out; ++o) {
                int64_t i = o * s + k * dil - pb;
                if (i >= 0 && i < in) {
                  first = std::min(first, o);
                  last = std::max(last, o);
                }
              }
              SCOPED_TRACE(::testing::Message()
                           << "in " << in << " s " << s << " dil " << dil
                           << " pb " << pb << " out " << out << " k " << k);
              if (last < 0) {
                EXPECT_EQ(lo, hi);
                ++empty;
              } else {
                EXPECT_EQ(lo, first);
                EXPECT_EQ(hi, last + 1);
                partial += lo > 0 || hi < out;
              }
              ++checked;
            }
  // The sweep covers full, partial and empty ranges.
  EXPECT_GT(partial, 0);
  EXPECT_GT(empty, 0);
  EXPECT_GT(checked - partial - empty, 0);
}
