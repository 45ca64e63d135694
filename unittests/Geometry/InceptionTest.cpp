//===- InceptionTest.cpp - Shrunk Inception backprop-filter shapes -------===//
//
// All 55 rows of ../shared/research/scripts/inception_table.md (TF
// conv_ops_test.py testInceptionBackFilter_{0..54}, depth / 10, NHWC):
// computeBackpropFilterGeometry must accept each and compute exactly the
// listed out_backprop shape, in both layouts.
//
//===----------------------------------------------------------------------===//

#include "conv/Geometry/Geometry.h"

#include <gtest/gtest.h>

#include <algorithm>

using namespace convgen;

namespace {

struct InceptionRow {
  int index;
  Shape input, filter, outBackprop; // NHWC, HWIO, NHWC
  int64_t stride;
  FilterPadding padding;
};

constexpr auto SAME = FilterPadding::Same;
constexpr auto VALID = FilterPadding::Valid;

const InceptionRow kRows[] = {
    {0, {4, 5, 5, 124}, {1, 1, 124, 12}, {4, 5, 5, 12}, 1, SAME},
    {1, {4, 8, 8, 38}, {1, 3, 38, 38}, {4, 8, 8, 38}, 1, SAME},
    {2, {4, 8, 8, 38}, {3, 1, 38, 38}, {4, 8, 8, 38}, 1, SAME},
    {3, {4, 8, 8, 204}, {1, 1, 204, 19}, {4, 8, 8, 19}, 1, SAME},
    {4, {4, 8, 8, 44}, {3, 3, 44, 38}, {4, 8, 8, 38}, 1, SAME},
    {5, {4, 8, 8, 204}, {1, 1, 204, 32}, {4, 8, 8, 32}, 1, SAME},
    {6, {4, 8, 8, 204}, {1, 1, 204, 44}, {4, 8, 8, 44}, 1, SAME},
    {7, {4, 8, 8, 204}, {1, 1, 204, 38}, {4, 8, 8, 38}, 1, SAME},
    {8, {4, 8, 8, 176}, {1, 1, 176, 38}, {4, 8, 8, 38}, 1, SAME},
    {9, {4, 8, 8, 176}, {1, 1, 176, 19}, {4, 8, 8, 19}, 1, SAME},
    {10, {4, 8, 8, 176}, {1, 1, 176, 44}, {4, 8, 8, 44}, 1, SAME},
    {11, {4, 8, 8, 176}, {1, 1, 176, 32}, {4, 8, 8, 32}, 1, SAME},
    {12, {4, 17, 17, 19}, {3, 3, 19, 19}, {4, 8, 8, 19}, 2, VALID},
    {13, {4, 17, 17, 19}, {3, 3, 19, 19}, {4, 17, 17, 19}, 1, SAME},
    {14, {4, 17, 17, 124}, {1, 1, 124, 19}, {4, 17, 17, 19}, 1, SAME},
    {15, {4, 17, 17, 12}, {3, 3, 12, 32}, {4, 8, 8, 32}, 2, VALID},
    {16, {4, 17, 17, 124}, {1, 1, 124, 12}, {4, 17, 17, 12}, 1, SAME},
    {17, {4, 17, 17, 22}, {1, 3, 22, 22}, {4, 17, 17, 22}, 1, SAME},
    {18, {4, 17, 17, 19}, {3, 1, 19, 25}, {4, 17, 17, 25}, 1, SAME},
    {19, {4, 17, 17, 19}, {1, 3, 19, 25}, {4, 17, 17, 25}, 1, SAME},
    {20, {4, 17, 17, 121}, {1, 1, 121, 19}, {4, 17, 17, 19}, 1, SAME},
    {21, {4, 17, 17, 121}, {1, 1, 121, 9}, {4, 17, 17, 9}, 1, SAME},
    {22, {4, 17, 17, 22}, {3, 1, 22, 22}, {4, 17, 17, 22}, 1, SAME},
    {23, {4, 17, 17, 19}, {3, 3, 19, 22}, {4, 17, 17, 22}, 1, SAME},
    {24, {4, 17, 17, 19}, {1, 3, 19, 19}, {4, 17, 17, 19}, 1, SAME},
    {25, {4, 17, 17, 115}, {1, 1, 115, 19}, {4, 17, 17, 19}, 1, SAME},
    {26, {4, 17, 17, 115}, {1, 1, 115, 12}, {4, 17, 17, 12}, 1, SAME},
    {27, {4, 17, 17, 19}, {3, 1, 19, 19}, {4, 17, 17, 19}, 1, SAME},
    {28, {4, 17, 17, 16}, {3, 3, 16, 19}, {4, 17, 17, 19}, 1, SAME},
    {29, {4, 17, 17, 115}, {1, 1, 115, 16}, {4, 17, 17, 16}, 1, SAME},
    {30, {4, 17, 17, 102}, {1, 1, 102, 12}, {4, 17, 17, 12}, 1, SAME},
    {31, {4, 17, 17, 12}, {1, 3, 12, 19}, {4, 17, 17, 19}, 1, SAME},
    {32, {4, 17, 17, 102}, {1, 1, 102, 16}, {4, 17, 17, 16}, 1, SAME},
    {33, {4, 17, 17, 12}, {3, 1, 12, 19}, {4, 17, 17, 19}, 1, SAME},
    {34, {4, 17, 17, 102}, {1, 1, 102, 25}, {4, 17, 17, 25}, 1, SAME},
    {35, {4, 17, 17, 12}, {3, 1, 12, 12}, {4, 17, 17, 12}, 1, SAME},
    {36, {4, 17, 17, 76}, {1, 1, 76, 19}, {4, 17, 17, 19}, 1, SAME},
    {37, {4, 17, 17, 12}, {1, 3, 12, 12}, {4, 17, 17, 12}, 1, SAME},
    {38, {4, 17, 17, 12}, {3, 3, 12, 12}, {4, 17, 17, 12}, 1, SAME},
    {39, {4, 17, 17, 76}, {1, 1, 76, 12}, {4, 17, 17, 12}, 1, SAME},
    {40, {4, 17, 17, 76}, {1, 1, 76, 32}, {4, 17, 17, 32}, 1, SAME},
    {41, {4, 35, 35, 9}, {3, 3, 9, 9}, {4, 17, 17, 9}, 2, VALID},
    {42, {4, 35, 35, 28}, {3, 3, 28, 38}, {4, 17, 17, 38}, 2, VALID},
    {43, {4, 35, 35, 6}, {3, 3, 6, 9}, {4, 35, 35, 9}, 1, SAME},
    {44, {4, 35, 35, 28}, {1, 1, 28, 6}, {4, 35, 35, 6}, 1, SAME},
    {45, {4, 35, 35, 25}, {1, 1, 25, 6}, {4, 35, 35, 6}, 1, SAME},
    {46, {4, 35, 35, 4}, {5, 5, 4, 6}, {4, 35, 35, 6}, 1, SAME},
    {47, {4, 35, 35, 25}, {1, 1, 25, 4}, {4, 35, 35, 4}, 1, SAME},
    {48, {4, 35, 35, 9}, {3, 3, 9, 9}, {4, 35, 35, 9}, 1, SAME},
    {49, {4, 35, 35, 19}, {1, 1, 19, 3}, {4, 35, 35, 3}, 1, SAME},
    {50, {4, 35, 35, 19}, {1, 1, 19, 6}, {4, 35, 35, 6}, 1, SAME},
    {51, {4, 35, 35, 19}, {1, 1, 19, 4}, {4, 35, 35, 4}, 1, SAME},
    {52, {4, 73, 73, 6}, {3, 3, 6, 19}, {4, 71, 71, 19}, 1, VALID},
    {53, {4, 73, 73, 6}, {1, 1, 6, 6}, {4, 73, 73, 6}, 1, VALID},
    {54, {4, 147, 147, 2}, {1, 1, 2, 6}, {4, 147, 147, 6}, 1, VALID},
};

Shape toChannelsFirst(const Shape &s) {
  return {s[0], s[3], s[1], s[2]};
}

class InceptionBackFilter : public ::testing::TestWithParam<InceptionRow> {};

TEST_P(InceptionBackFilter, ShapesAreConsistent) {
  const InceptionRow &r = GetParam();
  for (DataLayout layout :
       {DataLayout::ChannelsLast, DataLayout::ChannelsFirst}) {
    SCOPED_TRACE(layout == DataLayout::ChannelsLast ? "NHWC" : "NCHW");
    bool last = layout == DataLayout::ChannelsLast;
    BackpropFilterAttrs attrs;
    attrs.layout = layout;
    attrs.strides = {r.stride, r.stride};
    attrs.dilations = {1, 1};
    attrs.padding = r.padding;
    Shape in = last ? r.input : toChannelsFirst(r.input);
    Shape ob = last ? r.outBackprop : toChannelsFirst(r.outBackprop);
    auto g = computeBackpropFilterGeometry(attrs, in, r.filter, ob);
    ASSERT_TRUE(g.ok()) << g.error();
    EXPECT_EQ(g->outBackpropShape(), ob);
    EXPECT_EQ(g->inputShape(), in);
    EXPECT_EQ(g->filterShape(), r.filter);
    EXPECT_EQ(g->groups, 1);
    EXPECT_EQ(g->outSpatial, (Shape{r.outBackprop[1], r.outBackprop[2]}));
    auto inferred = inferOutBackpropShape(attrs, in, r.filter);
    ASSERT_TRUE(inferred.ok()) << inferred.error();
    EXPECT_EQ(*inferred, ob);
    // TF SAME pads of these rows: P = (out-1)*s + k - in, P/2 before.
    for (int d = 0; d < 2; ++d) {
      int64_t P = 0;
      if (r.padding == SAME)
        P = std::max<int64_t>(0, (r.outBackprop[1 + d] - 1) * r.stride +
                                     r.filter[d] - r.input[1 + d]);
      EXPECT_EQ(g->padBefore[d], P / 2);
      EXPECT_EQ(g->padAfter[d], P - P / 2);
    }
    // An out_backprop one row too tall is rejected.
    Shape bad = ob;
    bad[last ? 1 : 2] += 1;
    EXPECT_FALSE(computeBackpropFilterGeometry(attrs, in, r.filter, bad).ok());
  }
}

INSTANTIATE_TEST_SUITE_P(
    Table, InceptionBackFilter, ::testing::ValuesIn(kRows),
    [](const ::testing::TestParamInfo<InceptionRow> &info) {
      return "Row" + std::to_string(info.param.index);
    });

TEST(InceptionBackFilterTable, HasAll55Rows) {
  EXPECT_EQ(sizeof(kRows) / sizeof(kRows[0]), 55u);
  for (int i = 0; i < 55; ++i)
    EXPECT_EQ(kRows[i].index, i);
}

} // namespace
