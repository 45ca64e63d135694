//===- ReferenceTest.cpp - Hard-coded values for the plain-loop reference -===//
//
// Every expected value here is upstream test data quoted in
// ../shared/spec/semantics.md (§2.3, §3.1, §3.3), the derived goldens of
// ../shared/research/scripts/golden_conv_transpose.json, or the
// Conv2DBackpropInput expectations of verify_backprop_input.py mapped onto
// conv.transpose. Each case runs in both data layouts (channels-first gets
// the transposed data) and must give identical results.
//
//===----------------------------------------------------------------------===//

#include "TestUtil.h"

#include "conv/Reference/Reference.h"

#include <gtest/gtest.h>

#include <cstring>

using namespace convgen;
using namespace convgen::testutil;

namespace {

constexpr auto NHWC = DataLayout::ChannelsLast;
constexpr auto NCHW = DataLayout::ChannelsFirst;
constexpr auto VALID = FilterPadding::Valid;
constexpr auto SAME = FilterPadding::Same;
constexpr auto EXPLICIT = FilterPadding::Explicit;
constexpr auto Valid = TransposePadding::Valid;
constexpr auto Same = TransposePadding::Same;
constexpr std::nullopt_t None = std::nullopt;

//===----------------------------------------------------------------------===//
// conv.backprop_filter
//===----------------------------------------------------------------------===//

struct BFValueCase {
  const char *name;
  Shape input, filter, outBackprop; // channels-last; filter HWIO
  Shape strides, dilations;
  FilterPadding padding;
  Shape explicitPaddings;
  std::vector<double> expected; // flattened HWIO
};

/// Runs referenceBackpropFilter on channels-last data `x`, `dy` in `layout`.
std::vector<double> runBackpropFilter(const BFValueCase &c, DataLayout layout,
                                      const std::vector<double> &x,
                                      const std::vector<double> &dy) {
  BackpropFilterAttrs a;
  a.layout = layout;
  a.strides = c.strides;
  a.dilations = c.dilations;
  a.padding = c.padding;
  a.explicitPaddings = c.explicitPaddings;
  auto g = computeBackpropFilterGeometry(a, inLayout(c.input, layout),
                                         c.filter,
                                         inLayout(c.outBackprop, layout));
  EXPECT_TRUE(g.ok()) << g.error();
  if (!g.ok())
    return {};
  auto xl = inLayoutData(c.input, x, layout);
  auto dyl = inLayoutData(c.outBackprop, dy, layout);
  auto dw = nanBuffer(numel(c.filter));
  referenceBackpropFilter(*g, xl.data(), dyl.data(), dw.data());
  return dw;
}

void checkBFValues(const BFValueCase &c) {
  auto x = arange(numel(c.input)), dy = arange(numel(c.outBackprop));
  ASSERT_EQ(c.expected.size(), numel(c.filter)) << c.name;
  for (DataLayout layout : {NHWC, NCHW}) {
    SCOPED_TRACE(::testing::Message() << c.name << " " << layoutName(layout));
    auto dw = runBackpropFilter(c, layout, x, dy);
    ASSERT_EQ(dw.size(), c.expected.size());
    for (size_t i = 0; i < dw.size(); ++i)
      EXPECT_EQ(dw[i], c.expected[i]) << "element " << i;
  }
}

const Shape S11{1, 1};

// Spec §3.1: conv_ops_test.py _RunAndVerifyBackpropFilter (hard-coded).
const BFValueCase kConvOpsCases[] = {
    {"testConv2D2x2Depth1ValidBackpropFilter", {1, 2, 3, 1}, {2, 2, 1, 1},
     {1, 1, 2, 1}, S11, S11, VALID, {}, {5, 8, 14, 17}},
    {"testConv2DEmptyBackpropFilter", {1, 2, 3, 1}, {2, 2, 1, 0},
     {1, 1, 2, 0}, S11, S11, VALID, {}, {}},
    {"testConv2DBackpropFilterWithEmptyInput", {0, 2, 3, 1}, {2, 2, 1, 1},
     {0, 1, 2, 1}, S11, S11, VALID, {}, {0, 0, 0, 0}},
    {"testConv2D2x2Depth3ValidBackpropFilter", {1, 2, 3, 3}, {2, 2, 3, 3},
     {1, 1, 2, 3}, S11, S11, VALID, {},
     {17,  22,  27,  22,  29,  36,  27,  36,  45,  32,  43,  54,
      37,  50,  63,  42,  57,  72,  62,  85,  108, 67,  92,  117,
      72,  99,  126, 77,  106, 135, 82,  113, 144, 87,  120, 153}},
    {"testConv2D2x2Depth3ValidBackpropFilterStride1x2", {1, 3, 6, 1},
     {2, 2, 1, 1}, {1, 2, 3, 1}, {1, 2}, S11, VALID, {},
     {161, 182, 287, 308}},
    {"testConv2DStrideTwoFilterOneSameBackpropFilter", {1, 4, 4, 1},
     {1, 1, 1, 1}, {1, 2, 2, 1}, {2, 2}, S11, SAME, {}, {78}},
    {"testConv2DKernelSizeMatchesInputSizeBackpropFilter", {1, 2, 2, 1},
     {2, 2, 1, 2}, {1, 1, 1, 2}, S11, S11, VALID, {},
     {1, 2, 2, 4, 3, 6, 4, 8}},
};

// Spec §3.3: tensorflow/compiler/tests/conv2d_test.py Conv2DBackpropFilterTest.
const BFValueCase kXlaCases[] = {
    {"1x1Filter", {1, 4, 4, 3}, {1, 1, 3, 2}, {1, 4, 4, 2}, S11, S11, VALID,
     {}, {8056, 8432, 8312, 8704, 8568, 8976}},
    {"1x2Filter", {1, 3, 3, 1}, {1, 2, 1, 1}, {1, 3, 2, 1}, S11, S11, VALID,
     {}, {120, 141}},
    {"2x2FilterDepth1", {1, 2, 3, 1}, {2, 2, 1, 1}, {1, 1, 2, 1}, S11, S11,
     VALID, {}, {5, 8, 14, 17}},
    {"2x2Filter", {1, 2, 3, 3}, {2, 2, 3, 3}, {1, 1, 2, 3}, S11, S11, VALID,
     {},
     {17,  22,  27,  22,  29,  36,  27,  36,  45,  32,  43,  54,
      37,  50,  63,  42,  57,  72,  62,  85,  108, 67,  92,  117,
      72,  99,  126, 77,  106, 135, 82,  113, 144, 87,  120, 153}},
    {"1x2FilterStride3Width5", {1, 1, 5, 1}, {1, 2, 1, 1}, {1, 1, 2, 1},
     {3, 3}, S11, VALID, {}, {9, 12}},
    {"1x2FilterStride3Width6", {1, 1, 6, 1}, {1, 2, 1, 1}, {1, 1, 2, 1},
     {3, 3}, S11, VALID, {}, {9, 12}},
    {"1x2FilterStride3Width7", {1, 1, 7, 1}, {1, 2, 1, 1}, {1, 1, 2, 1},
     {3, 3}, S11, VALID, {}, {9, 12}},
    {"1x3Filter", {1, 1, 4, 1}, {1, 3, 1, 1}, {1, 1, 2, 1}, S11, S11, VALID,
     {}, {5, 8, 11}},
    {"1x3FilterSame", {1, 1, 4, 1}, {1, 3, 1, 1}, {1, 1, 4, 1}, S11, S11,
     SAME, {}, {20, 30, 20}},
    {"1x3FilterSameOutbackprop2", {1, 1, 4, 1}, {1, 3, 1, 1}, {1, 1, 2, 1},
     {2, 2}, S11, SAME, {}, {7, 10, 3}},
    {"2x2FilterC1Same", {1, 2, 3, 1}, {2, 2, 1, 1}, {1, 2, 3, 1}, S11, S11,
     SAME, {}, {91, 58, 32, 17}},
    {"2x2FilterStride2", {1, 3, 5, 1}, {1, 3, 1, 1}, {1, 2, 2, 1}, {2, 2},
     S11, VALID, {}, {92, 102, 112}},
    {"2x2FilterStride2Same", {1, 2, 3, 1}, {2, 2, 1, 1}, {1, 1, 2, 1},
     {2, 2}, S11, SAME, {}, {7, 2, 16, 5}},
    {"Conv2D2x2Depth1ValidBackpropFilterStride1x1Dilation2x1", {1, 3, 6, 1},
     {2, 2, 1, 1}, {1, 1, 5, 1}, S11, {2, 1}, VALID, {},
     {55, 70, 235, 250}},
    {"Conv2D2x2Depth1ValidBackpropFilterDilation1x2", {1, 2, 3, 1},
     {2, 2, 1, 1}, {1, 1, 1, 1}, S11, {1, 2}, VALID, {}, {1, 3, 4, 6}},
    {"Conv2DEmptyBackpropFilterDilation1x2", {1, 2, 3, 1}, {2, 2, 1, 0},
     {1, 1, 1, 0}, S11, {1, 2}, VALID, {}, {}},
    {"Conv2D2x2Depth3ValidBackpropFilterDilation2x2", {1, 3, 4, 3},
     {2, 2, 3, 3}, {1, 1, 2, 3}, S11, {2, 2}, VALID, {},
     {17,  22,  27,  22,  29,  36,  27,  36,  45,  47,  64,  81,
      52,  71,  90,  57,  78,  99,  137, 190, 243, 142, 197, 252,
      147, 204, 261, 167, 232, 297, 172, 239, 306, 177, 246, 315}},
    {"Conv2DKernelSizeMatchesInputSizeBackpropFilterDilation2x2",
     {1, 3, 3, 1}, {2, 2, 1, 2}, {1, 1, 1, 2}, S11, {2, 2}, VALID, {},
     {1, 2, 3, 6, 7, 14, 9, 18}},
    {"GroupedFilter", {1, 2, 2, 2}, {2, 2, 1, 2}, {1, 1, 1, 2}, S11, S11,
     VALID, {}, {1, 4, 3, 8, 5, 12, 7, 16}},
};

// Spec §3.1 explicit-padding table. TF's expectation is backprop_filter on
// np.pad(input) with VALID; the values were computed with
// research/scripts/verify_backprop_filter.py (padding [[t,b],[l,r]]).
const BFValueCase kExplicitCases[] = {
    {"Padding0x0(a)", {1, 2, 3, 1}, {2, 2, 1, 1}, {1, 1, 2, 1}, {1, 1}, {1, 1}, EXPLICIT,
     {0, 0, 0, 0}, {5, 8, 14, 17}},
    {"Padding0x0(b)", {1, 3, 4, 2}, {2, 2, 2, 3}, {1, 1, 2, 3}, {2, 2}, {1, 1}, EXPLICIT,
     {0, 0, 0, 0}, {21, 27, 33, 26, 34, 42, 31, 41, 51, 36, 48, 60, 61, 83, 105, 66, 90, 114, 71, 97, 123, 76, 104, 132}},
    {"Padding1x1(a)", {1, 2, 3, 1}, {2, 2, 1, 2}, {1, 3, 4, 2}, {1, 1}, {1, 1}, EXPLICIT,
     {1, 1, 1, 1}, {401, 422, 359, 380, 233, 254, 191, 212}},
    {"Padding1x1(b)", {1, 2, 3, 2}, {1, 1, 2, 1}, {1, 4, 3, 1}, {1, 2}, {1, 1}, EXPLICIT,
     {1, 1, 1, 1}, {87, 100}},
    {"Padding1x1(c)", {1, 4, 3, 1}, {2, 2, 1, 1}, {1, 4, 2, 1}, {1, 2}, {2, 2}, EXPLICIT,
     {1, 1, 1, 1}, {102, 87, 108, 84}},
    {"Padding2x2(a)", {2, 3, 1, 1}, {2, 1, 1, 1}, {2, 2, 5, 1}, {3, 1}, {1, 1}, EXPLICIT,
     {2, 2, 2, 2}, {106, 132}},
    {"Padding2x2(b)", {1, 3, 6, 1}, {3, 2, 1, 1}, {1, 3, 4, 1}, {1, 2}, {2, 3}, EXPLICIT,
     {2, 2, 2, 2}, {103, 124, 723, 696, 139, 100}},
    {"Padding_1_8_4_1(a)", {1, 2, 3, 1}, {2, 2, 1, 1}, {1, 10, 8, 1}, {1, 1}, {1, 1}, EXPLICIT,
     {1, 8, 4, 2}, {418, 397, 250, 229}},
    {"Padding_1_8_4_1(b)", {1, 5, 3, 1}, {3, 2, 1, 1}, {1, 4, 8, 1}, {3, 1}, {1, 1}, EXPLICIT,
     {1, 8, 4, 2}, {338, 314, 502, 463, 682, 625}},
    {"Padding_5_0_2_2(a)", {1, 3, 3, 1}, {2, 1, 1, 1}, {1, 7, 7, 1}, {1, 1}, {1, 1}, EXPLICIT,
     {5, 0, 2, 2}, {928, 1887}},
    {"Padding_5_0_2_2(b)", {1, 4, 2, 1}, {3, 3, 1, 1}, {1, 5, 2, 1}, {1, 2}, {2, 1}, EXPLICIT,
     {5, 0, 2, 2}, {0, 0, 0, 38, 56, 34, 132, 160, 116}},
};

TEST(ReferenceBackpropFilter, ConvOpsHardCodedValues) {
  for (const auto &c : kConvOpsCases)
    checkBFValues(c);
}

TEST(ReferenceBackpropFilter, XlaConv2DBackpropFilterValues) {
  for (const auto &c : kXlaCases)
    checkBFValues(c);
}

TEST(ReferenceBackpropFilter, ExplicitPaddingValues) {
  for (const auto &c : kExplicitCases)
    checkBFValues(c);
}

TEST(ReferenceBackpropFilter, ExplicitEqualsValidOnZeroPaddedInput) {
  // TF's own definition of the explicit-padding expectation.
  for (const auto &c : kExplicitCases) {
    SCOPED_TRACE(c.name);
    Shape padded = c.input;
    for (int d = 0; d < 2; ++d)
      padded[1 + d] += c.explicitPaddings[2 * d] + c.explicitPaddings[2 * d + 1];
    auto x = arange(numel(c.input));
    std::vector<double> xp(numel(padded), 0.0);
    int64_t H = c.input[1], W = c.input[2], C = c.input[3];
    int64_t PH = padded[1], PW = padded[2];
    for (int64_t b = 0; b < c.input[0]; ++b)
      for (int64_t h = 0; h < H; ++h)
        for (int64_t w = 0; w < W; ++w)
          for (int64_t ch = 0; ch < C; ++ch)
            xp[((b * PH + h + c.explicitPaddings[0]) * PW + w +
                c.explicitPaddings[2]) *
                   C +
               ch] = x[((b * H + h) * W + w) * C + ch];
    BFValueCase v = c;
    v.input = padded;
    v.padding = VALID;
    v.explicitPaddings = {};
    auto dy = arange(numel(c.outBackprop));
    for (DataLayout layout : {NHWC, NCHW}) {
      auto a = runBackpropFilter(c, layout, x, dy);
      auto b = runBackpropFilter(v, layout, xp, dy);
      EXPECT_EQ(a, b) << layoutName(layout);
    }
  }
}

TEST(ReferenceBackpropFilter, GroupedMapping) {
  // Cin 4, Cf 2 (G = 2), Cout 4: out channels 0,1 read input channels 0,1
  // and out channels 2,3 read 2,3. 1x1 filter, one pixel, so
  // dW[0,0,ci,co] = x[g(co)*2 + ci] * dy[co].
  BFValueCase c{"grouped 1x1", {1, 1, 1, 4}, {1, 1, 2, 4}, {1, 1, 1, 4},
                S11, S11, VALID, {}, {}};
  std::vector<double> x{1, 2, 3, 4}, dy{10, 100, 1000, 10000};
  std::vector<double> expected{
      // ci = 0: co 0..3
      1 * 10, 1 * 100, 3 * 1000, 3 * 10000,
      // ci = 1
      2 * 10, 2 * 100, 4 * 1000, 4 * 10000};
  for (DataLayout layout : {NHWC, NCHW})
    EXPECT_EQ(runBackpropFilter(c, layout, x, dy), expected)
        << layoutName(layout);
  // G = 4 (depthwise-like, Cf 1, two outputs per group).
  BFValueCase d{"grouped G4", {1, 1, 1, 4}, {1, 1, 1, 8}, {1, 1, 1, 8},
                S11, S11, VALID, {}, {}};
  std::vector<double> dy8{1, 2, 3, 4, 5, 6, 7, 8};
  std::vector<double> expected8{1 * 1, 1 * 2, 2 * 3, 2 * 4,
                                3 * 5, 3 * 6, 4 * 7, 4 * 8};
  for (DataLayout layout : {NHWC, NCHW})
    EXPECT_EQ(runBackpropFilter(d, layout, x, dy8), expected8)
        << layoutName(layout);
}

TEST(ReferenceBackpropFilter, OneAndThreeSpatialDims) {
  // 1-D: input arange(1..8) as [1,4,2], filter [2,2,1], out [1,3,1]:
  // dW[k,ci] = sum_o x[o+k, ci] * dy[o].
  BFValueCase c1{"1D", {1, 4, 2}, {2, 2, 1}, {1, 3, 1}, {1}, {1}, VALID, {},
                 {1 * 1 + 3 * 2 + 5 * 3, 2 * 1 + 4 * 2 + 6 * 3,
                  3 * 1 + 5 * 2 + 7 * 3, 4 * 1 + 6 * 2 + 8 * 3}};
  checkBFValues(c1);
  // 3-D: the same problem embedded as [1,1,1,4,2] must give the same values.
  BFValueCase c3{"3D", {1, 1, 1, 4, 2}, {1, 1, 2, 2, 1}, {1, 1, 1, 3, 1},
                 {1, 1, 1}, {1, 1, 1}, VALID, {}, c1.expected};
  checkBFValues(c3);
  // 3-D SAME, stride 2 in D: input [1,3,1,1,1] = 1,2,3, k 3 in D, out 2,
  // P = 2 -> pad 1 before: o=0 reads x[-1..1], o=1 reads x[1..3].
  BFValueCase d3{"3D SAME D", {1, 3, 1, 1, 1}, {3, 1, 1, 1, 1},
                 {1, 2, 1, 1, 1}, {2, 1, 1}, {1, 1, 1}, SAME, {},
                 {0 * 1 + 2 * 2, 1 * 1 + 3 * 2, 2 * 1 + 0 * 2}};
  checkBFValues(d3);
}

//===----------------------------------------------------------------------===//
// conv.transpose
//===----------------------------------------------------------------------===//

struct TrValueCase {
  const char *name;
  Shape input, kernel; // channels-last input; kernel [k..., Cout, Cin]
  Shape strides, dilations;
  TransposePadding padding;
  std::optional<Shape> outputPadding;
  Shape output; // channels-last
  std::vector<double> x, k, expected;
};

std::vector<double> runTranspose(const Shape &input, const Shape &kernel,
                                 const TransposeAttrs &attrs0,
                                 const std::vector<double> &x,
                                 const std::vector<double> &k,
                                 const Shape &expectedOutput) {
  TransposeAttrs attrs = attrs0;
  auto g = computeTransposeGeometry(attrs, inLayout(input, attrs.layout),
                                    kernel);
  EXPECT_TRUE(g.ok()) << g.error();
  if (!g.ok())
    return {};
  EXPECT_EQ(g->outputShape(), inLayout(expectedOutput, attrs.layout));
  auto xl = inLayoutData(input, x, attrs.layout);
  auto y = nanBuffer(numel(expectedOutput));
  referenceTranspose(*g, xl.data(), k.data(), y.data());
  return attrs.layout == NHWC ? y : dataToChannelsLast(expectedOutput, y);
}

void checkTrValues(const TrValueCase &c) {
  ASSERT_EQ(c.expected.size(), numel(c.output)) << c.name;
  ASSERT_EQ(c.x.size(), numel(c.input)) << c.name;
  ASSERT_EQ(c.k.size(), numel(c.kernel)) << c.name;
  for (DataLayout layout : {NHWC, NCHW}) {
    SCOPED_TRACE(::testing::Message() << c.name << " " << layoutName(layout));
    TransposeAttrs a;
    a.layout = layout;
    a.strides = c.strides;
    a.dilations = c.dilations;
    a.padding = c.padding;
    a.outputPadding = c.outputPadding;
    auto y = runTranspose(c.input, c.kernel, a, c.x, c.k, c.output);
    ASSERT_EQ(y.size(), c.expected.size());
    for (size_t i = 0; i < y.size(); ++i)
      EXPECT_EQ(y[i], c.expected[i]) << "element " << i;
  }
}

// Spec §2.3 worked examples and every entry of golden_conv_transpose.json
// (kernel layout (spatial..., out, in); nn_test inputs are arange from 0).
const TrValueCase kGoldenTranspose[] = {
    {"nn_test_1d_valid_s2", {2, 4, 3}, {2, 5, 3}, {2}, {1}, Valid, None, {2, 8, 5},
     arange(24, 0), arange(30, 0),
     {5, 14, 23, 32, 41, 50, 59, 68, 77, 86, 14, 50, 86, 122, 158, 194, 230, 266, 302, 338, 23, 86, 149, 212, 275, 338, 401, 464, 527, 590, 32, 122, 212, 302, 392, 482, 572, 662, 752, 842, 41, 158, 275, 392, 509, 626, 743, 860, 977, 1094, 50, 194, 338, 482, 626, 770, 914, 1058, 1202, 1346, 59, 230, 401, 572, 743, 914, 1085, 1256, 1427, 1598, 68, 266, 464, 662, 860, 1058, 1256, 1454, 1652, 1850}},
    {"nn_test_1d_same_s2", {2, 4, 3}, {2, 5, 3}, {2}, {1}, Same, None, {2, 8, 5},
     arange(24, 0), arange(30, 0),
     {5, 14, 23, 32, 41, 50, 59, 68, 77, 86, 14, 50, 86, 122, 158, 194, 230, 266, 302, 338, 23, 86, 149, 212, 275, 338, 401, 464, 527, 590, 32, 122, 212, 302, 392, 482, 572, 662, 752, 842, 41, 158, 275, 392, 509, 626, 743, 860, 977, 1094, 50, 194, 338, 482, 626, 770, 914, 1058, 1202, 1346, 59, 230, 401, 572, 743, 914, 1085, 1256, 1427, 1598, 68, 266, 464, 662, 860, 1058, 1256, 1454, 1652, 1850}},
    {"x=[1,2,3]_k=[1,10,100]_s2_same_opNone", {1, 3, 1}, {3, 1, 1}, {2}, {1}, Same, None, {1, 6, 1},
     {1, 2, 3}, {1, 10, 100},
     {1, 10, 102, 20, 203, 30}},
    {"x=[1,2,3]_k=[1,10,100]_s2_same_op0", {1, 3, 1}, {3, 1, 1}, {2}, {1}, Same, Shape{0}, {1, 5, 1},
     {1, 2, 3}, {1, 10, 100},
     {10, 102, 20, 203, 30}},
    {"x=[1,2,3]_k=[1,10,100]_s2_same_op1", {1, 3, 1}, {3, 1, 1}, {2}, {1}, Same, Shape{1}, {1, 6, 1},
     {1, 2, 3}, {1, 10, 100},
     {1, 10, 102, 20, 203, 30}},
    {"x=[1,2,3]_k=[1,10,100]_s2_valid_opNone", {1, 3, 1}, {3, 1, 1}, {2}, {1}, Valid, None, {1, 7, 1},
     {1, 2, 3}, {1, 10, 100},
     {1, 10, 102, 20, 203, 30, 300}},
    {"x=[1,2,3]_k=[1,10,100]_s2_valid_op1", {1, 3, 1}, {3, 1, 1}, {2}, {1}, Valid, Shape{1}, {1, 8, 1},
     {1, 2, 3}, {1, 10, 100},
     {1, 10, 102, 20, 203, 30, 300, 0}},
    {"x=[1,2,3]_k=[1,10]_s2_same_opNone", {1, 3, 1}, {2, 1, 1}, {2}, {1}, Same, None, {1, 6, 1},
     {1, 2, 3}, {1, 10},
     {1, 10, 2, 20, 3, 30}},
    {"x=[1,2,3]_k=[1,10]_s2_same_op1", {1, 3, 1}, {2, 1, 1}, {2}, {1}, Same, Shape{1}, {1, 5, 1},
     {1, 2, 3}, {1, 10},
     {1, 10, 2, 20, 3}},
    {"x=[1,2,3]_k=[1,10]_s2_valid_opNone", {1, 3, 1}, {2, 1, 1}, {2}, {1}, Valid, None, {1, 6, 1},
     {1, 2, 3}, {1, 10},
     {1, 10, 2, 20, 3, 30}},
    {"x=[1,2,3]_k=[1,10]_s1_dil2_valid", {1, 3, 1}, {2, 1, 1}, {1}, {2}, Valid, None, {1, 5, 1},
     {1, 2, 3}, {1, 10},
     {1, 2, 13, 20, 30}},
};

TEST(ReferenceTranspose, WorkedExamplesOfSection23) {
  std::vector<double> x{1, 2, 3}, k{1, 10, 100};
  struct {
    TransposePadding p;
    std::optional<Shape> op;
    std::vector<double> expected;
  } cases[] = {
      {Same, None, {1, 10, 102, 20, 203, 30}},
      {Same, Shape{0}, {10, 102, 20, 203, 30}},
      {Valid, None, {1, 10, 102, 20, 203, 30, 300}},
      {Valid, Shape{1}, {1, 10, 102, 20, 203, 30, 300, 0}},
  };
  for (const auto &c : cases) {
    TrValueCase v{"worked example", {1, 3, 1}, {3, 1, 1}, {2}, {1}, c.p,
                  c.op, {1, static_cast<int64_t>(c.expected.size()), 1},
                  x, k, c.expected};
    SCOPED_TRACE(::testing::Message()
                 << stringify(c.p) << " op=" << str(c.op));
    checkTrValues(v);
  }
}

TEST(ReferenceTranspose, GoldenConvTransposeJson) {
  EXPECT_EQ(sizeof(kGoldenTranspose) / sizeof(kGoldenTranspose[0]), 11u);
  for (const auto &c : kGoldenTranspose)
    checkTrValues(c);
}

TEST(ReferenceTranspose, MultiChannelAndThreeD) {
  // 2-D, Cin 2, Cout 2, k 1x1, stride 2, valid: each input pixel lands at
  // (2i, 2j); out[o] = sum_c x[c] * K[o, c]; the rest is zero.
  std::vector<double> x{1, 2, 3, 4}; // [1,1,2,2]: pixels (0,0)=(1,2), (0,1)=(3,4)
  std::vector<double> k{1, 10, 100, 1000}; // K[o=0]=(1,10), K[o=1]=(100,1000)
  TrValueCase c{"2D 1x1 s2", {1, 1, 2, 2}, {1, 1, 2, 2}, {2, 2}, {1, 1},
                Valid, None, {1, 2, 4, 2},
                x, k,
                {21, 2100, 0, 0, 43, 4300, 0, 0,
                 0, 0, 0, 0, 0, 0, 0, 0}};
  checkTrValues(c);
  // 3-D with the worked example along W.
  TrValueCase d{"3D worked example", {1, 1, 1, 3, 1}, {1, 1, 3, 1, 1},
                {1, 1, 2}, {1, 1, 1}, Same, Shape{0, 0, 0}, {1, 1, 1, 5, 1},
                {1, 2, 3}, {1, 10, 100}, {10, 102, 20, 203, 30}};
  // Same with op 0 and k 1 in D/H: length (1-1)*1 + 1 + 0 = 1, crop 0.
  checkTrValues(d);
  // Along D in channels-first matters: [1,3,1,1,1].
  TrValueCase e{"3D worked example along D", {1, 3, 1, 1, 1},
                {3, 1, 1, 1, 1}, {2, 1, 1}, {1, 1, 1}, Valid, Shape{1, 0, 0},
                {1, 8, 1, 1, 1}, {1, 2, 3}, {1, 10, 100},
                {1, 10, 102, 20, 203, 30, 300, 0}};
  checkTrValues(e);
}

//===----------------------------------------------------------------------===//
// Conv2DBackpropInput expectations mapped onto conv.transpose
//===----------------------------------------------------------------------===//

// TF Conv2DBackpropInput(input_sizes, filter [k,k,Cin_f,Cout_f],
// out_backprop) equals conv_transpose(out_backprop, kernel = filter read as
// [k..., Cout = Cin, Cin = Cout_f]) whenever the Keras output length equals
// the TF input size and the Keras crop equals TF's pad_before. Filter and
// out_backprop are arange(1..N) (verify_backprop_input.py).
struct BackpropInputCase {
  const char *name;
  Shape inputSizes, filter, outBackprop;
  Shape strides;
  FilterPadding padding;
  Shape dilations;
  std::vector<double> expected;
};

const BackpropInputCase kBackpropInputCases[] = {
    {"xla:1x1Filter", {1, 4, 4, 3}, {1, 1, 3, 2}, {1, 4, 4, 2}, {1, 1}, VALID, {1, 1},
     {5, 11, 17, 11, 25, 39, 17, 39, 61, 23, 53, 83, 29, 67, 105, 35, 81, 127, 41, 95, 149, 47, 109, 171, 53, 123, 193, 59, 137, 215, 65, 151, 237, 71, 165, 259, 77, 179, 281, 83, 193, 303, 89, 207, 325, 95, 221, 347}},
    {"xla:1x2FilterStride3Width5", {1, 1, 5, 1}, {1, 2, 1, 1}, {1, 1, 2, 1}, {3, 3}, VALID, {1, 1},
     {1, 2, 0, 2, 4}},
    {"xla:1x2FilterStride3Width6", {1, 1, 6, 1}, {1, 2, 1, 1}, {1, 1, 2, 1}, {3, 3}, VALID, {1, 1},
     {1, 2, 0, 2, 4, 0}},
    {"xla:1x2FilterStride3Width7", {1, 1, 7, 1}, {1, 2, 1, 1}, {1, 1, 2, 1}, {3, 3}, VALID, {1, 1},
     {1, 2, 0, 2, 4, 0, 0}},
    {"xla:2x2FilterC1Same", {1, 2, 3, 1}, {2, 2, 1, 1}, {1, 2, 3, 1}, {1, 1}, SAME, {1, 1},
     {1, 4, 7, 7, 23, 33}},
    {"xla:2x2Filter", {1, 2, 3, 3}, {2, 2, 3, 3}, {1, 1, 2, 3}, {1, 1}, VALID, {1, 1},
     {14, 32, 50, 100, 163, 226, 167, 212, 257, 122, 140, 158, 478, 541, 604, 437, 482, 527}},
    {"xla:2x2FilterSame", {1, 2, 3, 3}, {2, 2, 3, 3}, {1, 2, 3, 3}, {1, 1}, SAME, {1, 1},
     {14, 32, 50, 100, 163, 226, 217, 334, 451, 190, 307, 424, 929, 1217, 1505, 1487, 1883, 2279}},
    {"xla:1x2Filter", {1, 3, 3, 1}, {1, 2, 1, 1}, {1, 3, 2, 1}, {1, 1}, VALID, {1, 1},
     {1, 4, 4, 3, 10, 8, 5, 16, 12}},
    {"xla:1x2FilterSame", {1, 3, 3, 1}, {1, 2, 1, 1}, {1, 3, 3, 1}, {1, 1}, SAME, {1, 1},
     {1, 4, 7, 4, 13, 16, 7, 22, 25}},
    {"xla:2x2FilterStride2", {1, 3, 5, 1}, {1, 3, 1, 1}, {1, 2, 2, 1}, {2, 2}, VALID, {1, 1},
     {1, 2, 5, 4, 6, 0, 0, 0, 0, 0, 3, 6, 13, 8, 12}},
    {"xla:2x2FilterStride2Same", {1, 2, 3, 1}, {2, 2, 1, 1}, {1, 1, 2, 1}, {2, 2}, SAME, {1, 1},
     {1, 2, 2, 3, 4, 6}},
    {"xla:Stride1x1Dilation2x1", {1, 3, 6, 1}, {2, 2, 1, 1}, {1, 1, 5, 1}, {1, 1}, VALID, {2, 1},
     {1, 4, 7, 10, 13, 10, 0, 0, 0, 0, 0, 0, 3, 10, 17, 24, 31, 20}},
    {"xla:Dilation1x2", {1, 2, 3, 1}, {2, 2, 1, 1}, {1, 1, 1, 1}, {1, 1}, VALID, {1, 2},
     {1, 0, 2, 3, 0, 4}},
    {"xla:Depth3Dilation2x1", {1, 3, 2, 3}, {2, 2, 3, 3}, {1, 1, 1, 3}, {1, 1}, VALID, {2, 1},
     {14, 32, 50, 68, 86, 104, 0, 0, 0, 0, 0, 0, 122, 140, 158, 176, 194, 212}},
    {"xla:KernelMatchesInputDilation2x2", {1, 3, 3, 1}, {2, 2, 1, 2}, {1, 1, 1, 2}, {1, 1}, VALID, {2, 2},
     {5, 0, 11, 0, 0, 0, 17, 0, 23}},
    {"xla:GroupedFilter", {1, 2, 2, 6}, {2, 2, 3, 4}, {1, 1, 1, 4}, {1, 1}, VALID, {1, 1},
     {5, 17, 29, 25, 53, 81, 41, 53, 65, 109, 137, 165, 77, 89, 101, 193, 221, 249, 113, 125, 137, 277, 305, 333}},
    {"conv_ops_test:2x2Depth1Valid", {1, 2, 3, 1}, {2, 2, 1, 1}, {1, 1, 2, 1}, {1, 1}, VALID, {1, 1},
     {1, 4, 4, 3, 10, 8}},
    {"conv_ops_test:Stride1x2", {1, 3, 6, 1}, {2, 2, 1, 1}, {1, 2, 3, 1}, {1, 2}, VALID, {1, 1},
     {1, 2, 2, 4, 3, 6, 7, 12, 11, 18, 15, 24, 12, 16, 15, 20, 18, 24}},
    {"conv_ops_test:StrideTwoFilterOneSame", {1, 4, 4, 1}, {1, 1, 1, 1}, {1, 2, 2, 1}, {2, 2}, SAME, {1, 1},
     {1, 0, 2, 0, 0, 0, 0, 0, 3, 0, 4, 0, 0, 0, 0, 0}},
    {"conv_ops_test:KernelSizeMatchesInputSize", {1, 2, 2, 1}, {2, 2, 1, 2}, {1, 1, 1, 2}, {1, 1}, VALID, {1, 1},
     {5, 11, 17, 23}},
};

/// Dense conv.transpose kernel [k..., C, Cout_f] of a (possibly grouped) TF
/// filter [k..., Cf, Cout_f]: block diagonal over the groups.
std::vector<double> denseKernel(const BackpropInputCase &c,
                                const std::vector<double> &w) {
  int64_t kh = c.filter[0], kw = c.filter[1], cf = c.filter[2],
          co = c.filter[3], cin = c.inputSizes[3];
  int64_t groups = cin / cf, perGroup = co / groups;
  std::vector<double> k(kh * kw * cin * co, 0.0);
  for (int64_t s = 0; s < kh * kw; ++s)
    for (int64_t ch = 0; ch < cin; ++ch)
      for (int64_t o = 0; o < co; ++o)
        if (ch / cf == o / perGroup)
          k[(s * cin + ch) * co + o] = w[(s * cf + ch % cf) * co + o];
  return k;
}

TEST(ReferenceTranspose, BackpropInputExpectations) {
  int mappedCases = 0;
  for (const auto &c : kBackpropInputCases) {
    SCOPED_TRACE(c.name);
    ASSERT_EQ(c.expected.size(), numel(c.inputSizes));
    auto w = arange(numel(c.filter)), dy = arange(numel(c.outBackprop));
    auto k = denseKernel(c, w);
    Shape kernel{c.filter[0], c.filter[1], c.inputSizes[3], c.filter[3]};
    // TF pad_before per spatial dimension.
    Shape tfPadBefore;
    for (int d = 0; d < 2; ++d) {
      auto ws = windowedOutputSize(c.inputSizes[1 + d], c.filter[d],
                                   c.dilations[d], c.strides[d], c.padding);
      ASSERT_TRUE(ws.ok());
      ASSERT_EQ(ws->outSize, c.outBackprop[1 + d]);
      tfPadBefore.push_back(ws->padBefore);
    }
    // Search every conv.transpose attribute set that maps exactly. Where
    // out_backprop has a single row/column the stride of that dimension
    // does not affect the values, so larger strides are tried too (this
    // is what makes 2x2FilterStride2Same expressible).
    int mappings = 0;
    std::vector<Shape> strideChoices;
    for (int64_t s0 = c.strides[0];
         s0 <= c.strides[0] + (c.outBackprop[1] == 1 ? 2 : 0); ++s0)
      for (int64_t s1 = c.strides[1];
           s1 <= c.strides[1] + (c.outBackprop[2] == 1 ? 2 : 0); ++s1)
        strideChoices.push_back({s0, s1});
    for (const Shape &strides : strideChoices)
      for (auto pad : {Valid, Same}) {
        std::vector<std::optional<Shape>> ops{None};
        for (int64_t a = 0; a < strides[0]; ++a)
          for (int64_t b = 0; b < strides[1]; ++b)
            ops.push_back(Shape{a, b});
        for (const auto &op : ops) {
          TransposeAttrs attrs;
          attrs.strides = strides;
          attrs.dilations = c.dilations;
          attrs.padding = pad;
          attrs.outputPadding = op;
          auto g = computeTransposeGeometry(attrs, c.outBackprop, kernel);
          ASSERT_TRUE(g.ok()) << g.error();
          if (g->outputShape() != c.inputSizes || g->cropBefore != tfPadBefore)
            continue;
          ++mappings;
          for (DataLayout layout : {NHWC, NCHW}) {
            SCOPED_TRACE(::testing::Message()
                         << "strides=" << str(strides) << " "
                         << stringify(pad) << " op=" << str(op) << " "
                         << layoutName(layout));
            attrs.layout = layout;
            auto y = runTranspose(c.outBackprop, kernel, attrs, dy, k,
                                  c.inputSizes);
            EXPECT_EQ(y, c.expected);
          }
        }
      }
    EXPECT_GE(mappings, 1) << "no exact conv.transpose mapping";
    mappedCases += mappings > 0;
  }
  EXPECT_EQ(mappedCases, 20);
}

//===----------------------------------------------------------------------===//
// Element types through the typed entry points
//===----------------------------------------------------------------------===//

std::vector<unsigned char> encode(ElementType t, const std::vector<double> &v) {
  std::vector<unsigned char> r(v.size() * byteWidth(t) + 1);
  for (size_t i = 0; i < v.size(); ++i)
    storeFromDouble(t, r.data(), i, v[i]);
  return r;
}

std::vector<double> decode(ElementType t, const std::vector<unsigned char> &b,
                           size_t n) {
  std::vector<double> r(n);
  for (size_t i = 0; i < n; ++i)
    r[i] = loadAsDouble(t, b.data(), i);
  return r;
}

const ElementType kAllTypes[] = {ElementType::F16, ElementType::BF16,
                                 ElementType::F32, ElementType::F64};

TEST(ReferenceTyped, BackpropFilterAllTypesExact) {
  // Values <= 153 and inputs <= 18: exact in every type, also bf16.
  const BFValueCase &c = kConvOpsCases[3];
  ASSERT_STREQ(c.name, "testConv2D2x2Depth3ValidBackpropFilter");
  for (ElementType t : kAllTypes)
    for (DataLayout layout : {NHWC, NCHW}) {
      SCOPED_TRACE(::testing::Message()
                   << stringify(t) << " " << layoutName(layout));
      BackpropFilterAttrs a;
      a.layout = layout;
      a.strides = c.strides;
      a.dilations = c.dilations;
      auto g = computeBackpropFilterGeometry(
          a, inLayout(c.input, layout), c.filter,
          inLayout(c.outBackprop, layout));
      ASSERT_TRUE(g.ok()) << g.error();
      auto x = encode(t, inLayoutData(c.input, arange(numel(c.input)),
                                      layout));
      auto dy = encode(t, inLayoutData(c.outBackprop,
                                       arange(numel(c.outBackprop)), layout));
      std::vector<unsigned char> dw(numel(c.filter) * byteWidth(t), 0xff);
      referenceBackpropFilter(*g, t, x.data(), dy.data(), dw.data());
      EXPECT_EQ(decode(t, dw, numel(c.filter)), c.expected);
    }
}

TEST(ReferenceTyped, TransposeAllTypesExact) {
  // x=[1,2,3], k=[1,10,100], valid: max 300, exact in bf16 too.
  for (ElementType t : kAllTypes)
    for (DataLayout layout : {NHWC, NCHW}) {
      SCOPED_TRACE(::testing::Message()
                   << stringify(t) << " " << layoutName(layout));
      TransposeAttrs a;
      a.layout = layout;
      a.strides = {2};
      a.dilations = {1};
      auto g = computeTransposeGeometry(a, inLayout({1, 3, 1}, layout),
                                        {3, 1, 1});
      ASSERT_TRUE(g.ok()) << g.error();
      auto x = encode(t, {1, 2, 3}), k = encode(t, {1, 10, 100});
      std::vector<unsigned char> y(7 * byteWidth(t), 0xff);
      referenceTranspose(*g, t, x.data(), k.data(), y.data());
      EXPECT_EQ(decode(t, y, 7),
                (std::vector<double>{1, 10, 102, 20, 203, 30, 300}));
    }
  // f16: the nn_test 1-D golden (values up to 1850 < 2048, exact).
  for (const auto &c : kGoldenTranspose) {
    if (std::string(c.name).rfind("nn_test", 0) != 0)
      continue;
    for (ElementType t : {ElementType::F16, ElementType::F32}) {
      SCOPED_TRACE(::testing::Message() << c.name << " " << stringify(t));
      TransposeAttrs a;
      a.strides = c.strides;
      a.dilations = c.dilations;
      a.padding = c.padding;
      auto g = computeTransposeGeometry(a, c.input, c.kernel);
      ASSERT_TRUE(g.ok()) << g.error();
      auto x = encode(t, c.x), k = encode(t, c.k);
      std::vector<unsigned char> y(c.expected.size() * byteWidth(t));
      referenceTranspose(*g, t, x.data(), k.data(), y.data());
      EXPECT_EQ(decode(t, y, c.expected.size()), c.expected);
    }
  }
}

TEST(ReferenceTyped, RoundedOnceFromTheF64Result) {
  // xla 1x1Filter: results 8056..8976 are not all representable in bf16
  // (and f16 spacing is 8 there): the typed result must be exactly the f64
  // result rounded once to the type.
  const BFValueCase &c = kXlaCases[0];
  ASSERT_STREQ(c.name, "1x1Filter");
  BackpropFilterAttrs a;
  a.strides = c.strides;
  a.dilations = c.dilations;
  auto g = computeBackpropFilterGeometry(a, c.input, c.filter, c.outBackprop);
  ASSERT_TRUE(g.ok());
  for (ElementType t : kAllTypes) {
    SCOPED_TRACE(stringify(t));
    auto x = encode(t, arange(numel(c.input)));
    auto dy = encode(t, arange(numel(c.outBackprop)));
    std::vector<unsigned char> dw(numel(c.filter) * byteWidth(t));
    referenceBackpropFilter(*g, t, x.data(), dy.data(), dw.data());
    auto expected = encode(t, c.expected);
    expected.resize(dw.size());
    EXPECT_EQ(dw, expected);
    auto got = decode(t, dw, c.expected.size());
    for (size_t i = 0; i < got.size(); ++i) {
      // Half an ulp: 2^-8 relative for bf16, 2^-11 for f16.
      double tol = t == ElementType::BF16  ? c.expected[i] * 0x1p-8
                   : t == ElementType::F16 ? c.expected[i] * 0x1p-11
                                           : 0.0;
      EXPECT_NEAR(got[i], c.expected[i], tol) << "element " << i;
    }
  }
  // bf16 spot values: 8056 -> 8064 (spacing 32, 8056 = 251.75 * 32),
  // 8432 -> 8448, 8976 -> 8960.
  auto x = encode(ElementType::BF16, arange(numel(c.input)));
  auto dy = encode(ElementType::BF16, arange(numel(c.outBackprop)));
  std::vector<unsigned char> dw(numel(c.filter) * 2);
  referenceBackpropFilter(*g, ElementType::BF16, x.data(), dy.data(),
                          dw.data());
  EXPECT_EQ(decode(ElementType::BF16, dw, 6),
            (std::vector<double>{8064, 8448, 8320, 8704, 8576, 8960}));
}

TEST(ReferenceTyped, SingleRoundingOfTheSum) {
  // dW = 1 + 2^-11 + 2^-24 (three exactly representable f16 products). The
  // exact sum rounds up to 1 + 2^-10 in f16; rounding it to f32 first would
  // give the tie 1 + 2^-11 and then 1.0 (double rounding).
  BackpropFilterAttrs a;
  a.strides = {1};
  a.dilations = {1};
  auto g = computeBackpropFilterGeometry(a, {1, 3, 1}, {1, 1, 1}, {1, 3, 1});
  ASSERT_TRUE(g.ok());
  {
    auto x = encode(ElementType::F16, {1, 1, 1});
    auto dy = encode(ElementType::F16, {1, 0x1p-11, 0x1p-24});
    uint16_t dw = 0;
    referenceBackpropFilter(*g, ElementType::F16, x.data(), dy.data(), &dw);
    EXPECT_EQ(dw, 0x3c01) << "got " << halfToFloat(dw);
  }
  {
    // bf16: 1 + 2^-8 + 2^-24 -> 1 + 2^-7 (0x3f81), not 1.0.
    auto x = encode(ElementType::BF16, {1, 1, 1});
    auto dy = encode(ElementType::BF16, {1, 0x1p-8, 0x1p-24});
    uint16_t dw = 0;
    referenceBackpropFilter(*g, ElementType::BF16, x.data(), dy.data(), &dw);
    EXPECT_EQ(dw, 0x3f81) << "got " << bf16ToFloat(dw);
  }
  {
    // f32: the f64 sum 1 + 2^-24 + 2^-50 is exact and rounds up to
    // 1 + 2^-23 (it is not the tie 1 + 2^-24).
    auto x = encode(ElementType::F32, {1, 1, 1});
    auto dy = encode(ElementType::F32, {1, 0x1p-24, 0x1p-50});
    float dw = 0;
    referenceBackpropFilter(*g, ElementType::F32, x.data(), dy.data(), &dw);
    EXPECT_EQ(dw, 1.0f + 0x1p-23f);
  }
  {
    // Transpose, f16: same sum through three taps landing on one output.
    TransposeAttrs ta;
    ta.strides = {1};
    ta.dilations = {1};
    auto tg = computeTransposeGeometry(ta, {1, 1, 3}, {1, 1, 3});
    ASSERT_TRUE(tg.ok());
    auto x = encode(ElementType::F16, {1, 0x1p-11, 0x1p-24});
    auto k = encode(ElementType::F16, {1, 1, 1});
    uint16_t y = 0;
    referenceTranspose(*tg, ElementType::F16, x.data(), k.data(), &y);
    EXPECT_EQ(y, 0x3c01) << "got " << halfToFloat(y);
  }
}

} // namespace
