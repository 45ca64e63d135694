//===- ElementTypeTest.cpp - Element types and 16-bit conversions ---------===//
//
// Bit-exact checks of the IEEE binary16 / bfloat16 conversions (round to
// nearest even, subnormals, overflow, inf, nan) and of the single rounding
// of storeFromDouble against an independent oracle: the sorted table of
// every finite value of the type.
//
//===----------------------------------------------------------------------===//

#include "conv/Support/ElementType.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

using namespace convgen;

namespace {

uint32_t bitsOf(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

float floatOf(uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

bool isHalfNan(uint16_t h) { return (h & 0x7c00) == 0x7c00 && (h & 0x3ff); }
bool isBf16Nan(uint16_t b) { return (b & 0x7f80) == 0x7f80 && (b & 0x7f); }

TEST(ElementType, Names) {
  EXPECT_STREQ(stringify(ElementType::F16), "f16");
  EXPECT_STREQ(stringify(ElementType::BF16), "bf16");
  EXPECT_STREQ(stringify(ElementType::F32), "f32");
  EXPECT_STREQ(stringify(ElementType::F64), "f64");
  for (const char *n : {"f16", "float16", "half"})
    EXPECT_EQ(parseElementType(n), ElementType::F16) << n;
  for (const char *n : {"bf16", "bfloat16"})
    EXPECT_EQ(parseElementType(n), ElementType::BF16) << n;
  for (const char *n : {"f32", "float32", "float"})
    EXPECT_EQ(parseElementType(n), ElementType::F32) << n;
  for (const char *n : {"f64", "float64", "double"})
    EXPECT_EQ(parseElementType(n), ElementType::F64) << n;
  for (const char *n : {"", "f8", "int32", "i32", "float128", "bf32"})
    EXPECT_EQ(parseElementType(n), std::nullopt) << n;
  for (ElementType t : {ElementType::F16, ElementType::BF16, ElementType::F32,
                        ElementType::F64})
    EXPECT_EQ(parseElementType(stringify(t)), t);
  EXPECT_EQ(byteWidth(ElementType::F16), 2u);
  EXPECT_EQ(byteWidth(ElementType::BF16), 2u);
  EXPECT_EQ(byteWidth(ElementType::F32), 4u);
  EXPECT_EQ(byteWidth(ElementType::F64), 8u);
}

TEST(Half, ToFloatKnownValues) {
  EXPECT_EQ(halfToFloat(0x0000), 0.0f);
  EXPECT_FALSE(std::signbit(halfToFloat(0x0000)));
  EXPECT_EQ(halfToFloat(0x8000), 0.0f);
  EXPECT_TRUE(std::signbit(halfToFloat(0x8000)));
  EXPECT_EQ(halfToFloat(0x3c00), 1.0f);
  EXPECT_EQ(halfToFloat(0xc000), -2.0f);
  EXPECT_EQ(halfToFloat(0x3c01), 1.0f + 0x1p-10f);
  EXPECT_EQ(halfToFloat(0x3555), 0.333251953125f);
  EXPECT_EQ(halfToFloat(0x7bff), 65504.0f);
  EXPECT_EQ(halfToFloat(0xfbff), -65504.0f);
  EXPECT_EQ(halfToFloat(0x0400), 0x1p-14f);  // smallest normal
  EXPECT_EQ(halfToFloat(0x03ff), 1023 * 0x1p-24f); // largest subnormal
  EXPECT_EQ(halfToFloat(0x0001), 0x1p-24f);  // smallest subnormal
  EXPECT_EQ(halfToFloat(0x8001), -0x1p-24f);
  EXPECT_EQ(halfToFloat(0x0200), 0x1p-15f);
  EXPECT_EQ(halfToFloat(0x7c00), std::numeric_limits<float>::infinity());
  EXPECT_EQ(halfToFloat(0xfc00), -std::numeric_limits<float>::infinity());
  EXPECT_TRUE(std::isnan(halfToFloat(0x7e00)));
  EXPECT_TRUE(std::isnan(halfToFloat(0x7c01))); // signaling, payload 1
  EXPECT_TRUE(std::isnan(halfToFloat(0xfe00)));
  EXPECT_TRUE(std::signbit(halfToFloat(0xfe00)));
}

TEST(Half, FromFloatKnownValuesAndTies) {
  EXPECT_EQ(floatToHalf(0.0f), 0x0000);
  EXPECT_EQ(floatToHalf(-0.0f), 0x8000);
  EXPECT_EQ(floatToHalf(1.0f), 0x3c00);
  EXPECT_EQ(floatToHalf(-2.0f), 0xc000);
  EXPECT_EQ(floatToHalf(65504.0f), 0x7bff);
  EXPECT_EQ(floatToHalf(1.0f / 3.0f), 0x3555);
  // Normal ties go to even.
  EXPECT_EQ(floatToHalf(1.0f + 0x1p-11f), 0x3c00);          // tie, even down
  EXPECT_EQ(floatToHalf(1.0f + 3 * 0x1p-11f), 0x3c02);      // tie, even up
  EXPECT_EQ(floatToHalf(1.0f + 0x1p-11f + 0x1p-20f), 0x3c01); // above tie
  EXPECT_EQ(floatToHalf(1.0f + 0x1p-11f - 0x1p-20f), 0x3c00); // below tie
  EXPECT_EQ(floatToHalf(2049.0f), 0x6800); // 2048 (even)
  EXPECT_EQ(floatToHalf(2051.0f), 0x6802); // 2052 (even)
  EXPECT_EQ(floatToHalf(-2051.0f), 0xe802);
  // Mantissa carry into the exponent.
  EXPECT_EQ(floatToHalf(1.0f - 0x1p-12f), 0x3c00);  // tie 0x3bff|0x3c00
  EXPECT_EQ(floatToHalf(2047.5f), 0x6800);          // tie 2047|2048
  EXPECT_EQ(floatToHalf(1.0f - 0x1p-11f), 0x3bff);  // exact
  // Overflow: 65520 is the tie between 65504 (odd) and 2^16: inf.
  EXPECT_EQ(floatToHalf(65519.0f), 0x7bff);
  EXPECT_EQ(floatToHalf(std::nextafter(65520.0f, 0.0f)), 0x7bff);
  EXPECT_EQ(floatToHalf(65520.0f), 0x7c00);
  EXPECT_EQ(floatToHalf(-65520.0f), 0xfc00);
  EXPECT_EQ(floatToHalf(1e6f), 0x7c00);
  EXPECT_EQ(floatToHalf(std::numeric_limits<float>::max()), 0x7c00);
  EXPECT_EQ(floatToHalf(std::numeric_limits<float>::infinity()), 0x7c00);
  EXPECT_EQ(floatToHalf(-std::numeric_limits<float>::infinity()), 0xfc00);
  // Subnormals: quantum 2^-24, ties to even.
  EXPECT_EQ(floatToHalf(0x1p-24f), 0x0001);
  EXPECT_EQ(floatToHalf(0x1p-25f), 0x0000);         // tie 0|1 -> 0
  EXPECT_EQ(floatToHalf(-0x1p-25f), 0x8000);
  EXPECT_EQ(floatToHalf(1.5f * 0x1p-25f), 0x0001);  // above tie
  EXPECT_EQ(floatToHalf(3 * 0x1p-25f), 0x0002);     // tie 1|2 -> 2
  EXPECT_EQ(floatToHalf(5 * 0x1p-25f), 0x0002);     // tie 2|3 -> 2
  EXPECT_EQ(floatToHalf(0x1p-26f), 0x0000);
  EXPECT_EQ(floatToHalf(1e-30f), 0x0000);
  EXPECT_EQ(floatToHalf(std::numeric_limits<float>::denorm_min()), 0x0000);
  EXPECT_EQ(floatToHalf(1023 * 0x1p-24f), 0x03ff);
  EXPECT_EQ(floatToHalf(1023.5f * 0x1p-24f), 0x0400); // tie -> smallest normal
  EXPECT_EQ(floatToHalf(0x1p-14f), 0x0400);
  EXPECT_EQ(floatToHalf(std::nextafter(0x1p-14f, 0.0f)), 0x0400);
  // NaN stays NaN (also a signaling NaN whose payload is in the low bits)
  // and keeps its sign.
  EXPECT_TRUE(isHalfNan(floatToHalf(std::numeric_limits<float>::quiet_NaN())));
  EXPECT_TRUE(isHalfNan(floatToHalf(floatOf(0x7f800001))));
  EXPECT_TRUE(isHalfNan(floatToHalf(floatOf(0xff800001))));
  EXPECT_EQ(floatToHalf(floatOf(0xff800001)) & 0x8000, 0x8000);
}

TEST(Half, ExhaustiveRoundTrip) {
  for (uint32_t h = 0; h <= 0xffff; ++h) {
    float f = halfToFloat(static_cast<uint16_t>(h));
    uint16_t back = floatToHalf(f);
    if (isHalfNan(static_cast<uint16_t>(h))) {
      EXPECT_TRUE(std::isnan(f)) << std::hex << h;
      EXPECT_TRUE(isHalfNan(back)) << std::hex << h;
      EXPECT_EQ(back & 0x8000, h & 0x8000) << std::hex << h;
    } else {
      EXPECT_EQ(back, h) << std::hex << h;
    }
  }
}

TEST(Half, ExhaustiveMidpoints) {
  // For every pair of adjacent finite halves a < b: the midpoint rounds to
  // the even one, the floats just below/above it to a / b.
  for (uint32_t sign : {0u, 0x8000u})
    for (uint32_t h = 0; h < 0x7bff; ++h) {
      uint16_t lo = static_cast<uint16_t>(sign | h),
               hi = static_cast<uint16_t>(sign | (h + 1));
      float a = halfToFloat(lo), b = halfToFloat(hi);
      float mid = (a + b) / 2; // exact: 12 significant bits
      ASSERT_EQ(static_cast<double>(mid),
                (static_cast<double>(a) + static_cast<double>(b)) / 2);
      uint16_t even = (lo & 1) ? hi : lo;
      EXPECT_EQ(floatToHalf(mid), even) << std::hex << h;
      float towardA = std::nextafter(mid, a), towardB = std::nextafter(mid, b);
      EXPECT_EQ(floatToHalf(towardA), lo) << std::hex << h;
      EXPECT_EQ(floatToHalf(towardB), hi) << std::hex << h;
    }
}

TEST(BFloat16, KnownValues) {
  EXPECT_EQ(bf16ToFloat(0x3f80), 1.0f);
  EXPECT_EQ(bf16ToFloat(0xc000), -2.0f);
  EXPECT_EQ(bf16ToFloat(0x3f81), 1.0f + 0x1p-7f);
  EXPECT_EQ(bf16ToFloat(0x7f7f), 0x1.fep127f);
  EXPECT_EQ(bf16ToFloat(0x0080), 0x1p-126f); // smallest normal
  EXPECT_EQ(bf16ToFloat(0x0001), 0x1p-133f); // smallest subnormal
  EXPECT_EQ(bf16ToFloat(0x7f80), std::numeric_limits<float>::infinity());
  EXPECT_TRUE(std::isnan(bf16ToFloat(0x7fc0)));
  EXPECT_TRUE(std::isnan(bf16ToFloat(0x7f81)));
  EXPECT_TRUE(std::signbit(bf16ToFloat(0x8000)));

  EXPECT_EQ(floatToBf16(1.0f), 0x3f80);
  EXPECT_EQ(floatToBf16(-0.0f), 0x8000);
  EXPECT_EQ(floatToBf16(1.0f + 0x1p-8f), 0x3f80);              // tie down
  EXPECT_EQ(floatToBf16(1.0f + 3 * 0x1p-8f), 0x3f82);          // tie up
  EXPECT_EQ(floatToBf16(1.0f + 0x1p-8f + 0x1p-20f), 0x3f81);   // above
  EXPECT_EQ(floatToBf16(1.0f - 0x1p-9f), 0x3f80);              // carry, tie
  EXPECT_EQ(floatToBf16(257.0f), 0x4380);                      // 256
  EXPECT_EQ(floatToBf16(259.0f), 0x4382);                      // 260
  EXPECT_EQ(floatToBf16(std::numeric_limits<float>::max()), 0x7f80);
  EXPECT_EQ(floatToBf16(0x1.fep127f), 0x7f7f);
  EXPECT_EQ(floatToBf16(0x1.ffp127f), 0x7f80); // tie, 0x7f7f odd -> inf
  EXPECT_EQ(floatToBf16(std::nextafter(0x1.ffp127f, 0.0f)), 0x7f7f);
  EXPECT_EQ(floatToBf16(-std::numeric_limits<float>::infinity()), 0xff80);
  // Subnormals (same exponent range as f32).
  EXPECT_EQ(floatToBf16(0x1p-133f), 0x0001);
  EXPECT_EQ(floatToBf16(0x1p-134f), 0x0000); // tie 0|1 -> 0
  EXPECT_EQ(floatToBf16(3 * 0x1p-134f), 0x0002);
  EXPECT_EQ(floatToBf16(std::numeric_limits<float>::denorm_min()), 0x0000);
  // NaN stays NaN, including signaling NaNs whose payload is only in the
  // low 16 bits (truncation alone would give inf).
  EXPECT_TRUE(isBf16Nan(floatToBf16(std::numeric_limits<float>::quiet_NaN())));
  EXPECT_TRUE(isBf16Nan(floatToBf16(floatOf(0x7f800001))));
  EXPECT_TRUE(isBf16Nan(floatToBf16(floatOf(0x7fffffff))));
  EXPECT_EQ(floatToBf16(floatOf(0xff800001)) & 0x8000, 0x8000);
  EXPECT_TRUE(isBf16Nan(floatToBf16(floatOf(0xff800001))));
}

TEST(BFloat16, ExhaustiveRoundTripAndMidpoints) {
  for (uint32_t b = 0; b <= 0xffff; ++b) {
    float f = bf16ToFloat(static_cast<uint16_t>(b));
    EXPECT_EQ(bitsOf(f), b << 16);
    uint16_t back = floatToBf16(f);
    if (isBf16Nan(static_cast<uint16_t>(b)))
      EXPECT_TRUE(isBf16Nan(back)) << std::hex << b;
    else
      EXPECT_EQ(back, b) << std::hex << b;
  }
  for (uint32_t sign : {0u, 0x8000u})
    for (uint32_t b = 0; b < 0x7f7f; ++b) {
      uint16_t lo = static_cast<uint16_t>(sign | b),
               hi = static_cast<uint16_t>(sign | (b + 1));
      float a = bf16ToFloat(lo), c = bf16ToFloat(hi);
      float mid = floatOf(((static_cast<uint32_t>(lo) << 16) | 0x8000));
      uint16_t even = (lo & 1) ? hi : lo;
      EXPECT_EQ(floatToBf16(mid), even) << std::hex << b;
      EXPECT_EQ(floatToBf16(std::nextafter(mid, a)), lo) << std::hex << b;
      EXPECT_EQ(floatToBf16(std::nextafter(mid, c)), hi) << std::hex << b;
    }
}

//===----------------------------------------------------------------------===//
// loadAsDouble / storeFromDouble
//===----------------------------------------------------------------------===//

TEST(StoreLoad, AllTypes) {
  uint16_t h[3] = {0x3c00, 0xc000, 0x0001};
  EXPECT_EQ(loadAsDouble(ElementType::F16, h, 0), 1.0);
  EXPECT_EQ(loadAsDouble(ElementType::F16, h, 1), -2.0);
  EXPECT_EQ(loadAsDouble(ElementType::F16, h, 2), 0x1p-24);
  uint16_t b[2] = {0x3f81, 0x0001};
  EXPECT_EQ(loadAsDouble(ElementType::BF16, b, 0), 1.0 + 0x1p-7);
  EXPECT_EQ(loadAsDouble(ElementType::BF16, b, 1), 0x1p-133);
  float f[2] = {0.1f, -3.5f};
  EXPECT_EQ(loadAsDouble(ElementType::F32, f, 0), static_cast<double>(0.1f));
  EXPECT_EQ(loadAsDouble(ElementType::F32, f, 1), -3.5);
  double d[2] = {0.1, 1e300};
  EXPECT_EQ(loadAsDouble(ElementType::F64, d, 0), 0.1);
  EXPECT_EQ(loadAsDouble(ElementType::F64, d, 1), 1e300);

  uint16_t hs[4] = {0, 0, 0, 0};
  storeFromDouble(ElementType::F16, hs, 2, -2.0);
  EXPECT_EQ(hs[2], 0xc000);
  EXPECT_EQ(hs[1], 0);
  EXPECT_EQ(hs[3], 0);
  storeFromDouble(ElementType::BF16, hs, 1, 1.0);
  EXPECT_EQ(hs[1], 0x3f80);
  float fs[2] = {0, 0};
  storeFromDouble(ElementType::F32, fs, 1, 0.1);
  EXPECT_EQ(fs[1], 0.1f);
  double ds[2] = {0, 0};
  storeFromDouble(ElementType::F64, ds, 1, 0.1);
  EXPECT_EQ(ds[1], 0.1);
  // Out of range and special values.
  storeFromDouble(ElementType::F16, hs, 0, 1e300);
  EXPECT_EQ(hs[0], 0x7c00);
  storeFromDouble(ElementType::F16, hs, 0, -1e300);
  EXPECT_EQ(hs[0], 0xfc00);
  storeFromDouble(ElementType::BF16, hs, 0, 1e300);
  EXPECT_EQ(hs[0], 0x7f80);
  storeFromDouble(ElementType::F32, fs, 0, 1e300);
  EXPECT_EQ(fs[0], std::numeric_limits<float>::infinity());
  storeFromDouble(ElementType::F16, hs, 0, 1e-300);
  EXPECT_EQ(hs[0], 0x0000);
  storeFromDouble(ElementType::F16, hs, 0, -1e-300);
  EXPECT_EQ(hs[0], 0x8000);
  storeFromDouble(ElementType::BF16, hs, 0, 1e-300);
  EXPECT_EQ(hs[0], 0x0000);
  storeFromDouble(ElementType::F16, hs, 0,
                  std::numeric_limits<double>::quiet_NaN());
  EXPECT_TRUE(isHalfNan(hs[0]));
  storeFromDouble(ElementType::BF16, hs, 0,
                  -std::numeric_limits<double>::quiet_NaN());
  EXPECT_TRUE(isBf16Nan(hs[0]));
  storeFromDouble(ElementType::F16, hs, 0,
                  std::numeric_limits<double>::infinity());
  EXPECT_EQ(hs[0], 0x7c00);
}

TEST(StoreLoad, SingleRoundingFromDouble) {
  // Each value lies just off a 16-bit tie, by less than half an f32 ulp,
  // so rounding through f32 first would land exactly on the tie and then
  // round to even the wrong way.
  uint16_t h = 0;
  storeFromDouble(ElementType::F16, &h, 0, 1.0 + 0x1p-11 + 0x1p-40);
  EXPECT_EQ(h, 0x3c01);
  storeFromDouble(ElementType::F16, &h, 0, 1.0 + 3 * 0x1p-11 - 0x1p-40);
  EXPECT_EQ(h, 0x3c01);
  storeFromDouble(ElementType::F16, &h, 0, -(1.0 + 0x1p-11 + 0x1p-40));
  EXPECT_EQ(h, 0xbc01);
  // Just below the overflow tie 65520: 65504, not inf.
  storeFromDouble(ElementType::F16, &h, 0, 65520.0 - 0x1p-20);
  EXPECT_EQ(h, 0x7bff);
  storeFromDouble(ElementType::F16, &h, 0, 65520.0);
  EXPECT_EQ(h, 0x7c00);
  // Subnormal: just above the 0|2^-24 tie.
  storeFromDouble(ElementType::F16, &h, 0, 0x1p-25 + 0x1p-60);
  EXPECT_EQ(h, 0x0001);
  storeFromDouble(ElementType::F16, &h, 0, 0x1p-25);
  EXPECT_EQ(h, 0x0000);
  // bf16.
  storeFromDouble(ElementType::BF16, &h, 0, 1.0 + 0x1p-8 + 0x1p-40);
  EXPECT_EQ(h, 0x3f81);
  storeFromDouble(ElementType::BF16, &h, 0, 1.0 + 3 * 0x1p-8 - 0x1p-40);
  EXPECT_EQ(h, 0x3f81);
  storeFromDouble(ElementType::BF16, &h, 0, 1.0 + 0x1p-8);
  EXPECT_EQ(h, 0x3f80);
  storeFromDouble(ElementType::BF16, &h, 0, 0x1.ffp127 - 0x1p90);
  EXPECT_EQ(h, 0x7f7f);
  storeFromDouble(ElementType::BF16, &h, 0, 0x1.ffp127);
  EXPECT_EQ(h, 0x7f80);
}

/// Correct rounding of a double to the nearest element of `table` (sorted
/// finite values with their bit patterns), ties to the even pattern;
/// `overflow` is the positive tie with infinity.
template <typename Entry>
uint16_t oracleRound(double v, const std::vector<Entry> &table,
                     double overflow, uint16_t inf) {
  if (v >= overflow)
    return inf;
  if (v <= -overflow)
    return static_cast<uint16_t>(inf | 0x8000);
  auto it = std::lower_bound(
      table.begin(), table.end(), v,
      [](const Entry &e, double x) { return e.first < x; });
  uint16_t r;
  if (it == table.end())
    r = table.back().second; // between the largest finite and the tie
  else if (it == table.begin() || it->first == v)
    r = it->second;
  else {
    const Entry &hi = *it, &lo = *(it - 1);
    double dl = v - lo.first, dh = hi.first - v;
    r = dl < dh   ? lo.second
        : dh < dl ? hi.second
                  : ((lo.second & 1) ? hi.second : lo.second);
  }
  // A zero result keeps the sign of v.
  if ((r & 0x7fff) == 0 && std::signbit(v))
    r = 0x8000;
  return r;
}

template <typename ToFloat>
std::vector<std::pair<double, uint16_t>> finiteTable(ToFloat toFloat) {
  std::vector<std::pair<double, uint16_t>> t;
  for (uint32_t b = 0; b <= 0xffff; ++b) {
    if (b == 0x8000)
      continue; // -0 == +0
    float f = toFloat(static_cast<uint16_t>(b));
    if (std::isfinite(f))
      t.push_back({static_cast<double>(f), static_cast<uint16_t>(b)});
  }
  std::sort(t.begin(), t.end());
  return t;
}

TEST(StoreLoad, RandomDoublesMatchCorrectRoundingOracle) {
  auto halfTable = finiteTable(halfToFloat);
  auto bf16Table = finiteTable(bf16ToFloat);
  const double halfOverflow = 65520.0;
  const double bf16Overflow = 0x1.ffp127;
  std::mt19937_64 rng(20240611);
  std::uniform_real_distribution<double> mant(1.0, 2.0);
  std::uniform_int_distribution<int> coin(0, 1);
  auto check = [&](double v) {
    uint16_t h = 0, b = 0;
    storeFromDouble(ElementType::F16, &h, 0, v);
    storeFromDouble(ElementType::BF16, &b, 0, v);
    EXPECT_EQ(h, oracleRound(v, halfTable, halfOverflow, 0x7c00))
        << std::hexfloat << v;
    EXPECT_EQ(b, oracleRound(v, bf16Table, bf16Overflow, 0x7f80))
        << std::hexfloat << v;
  };
  // Random magnitudes over the f16 range and beyond.
  std::uniform_int_distribution<int> exp16(-27, 17), exp32(-136, 128);
  for (int i = 0; i < 20000; ++i) {
    double s = coin(rng) ? -1.0 : 1.0;
    check(s * std::ldexp(mant(rng), exp16(rng)));
    check(s * std::ldexp(mant(rng), exp32(rng)));
  }
  // Near every kind of tie: midpoints of random adjacent pairs, nudged by
  // amounts below the f32 resolution.
  std::uniform_int_distribution<size_t> pickH(1, halfTable.size() - 1),
      pickB(1, bf16Table.size() - 1);
  std::uniform_int_distribution<int> nudgeExp(-30, -14);
  for (int i = 0; i < 20000; ++i) {
    for (int which = 0; which < 2; ++which) {
      const auto &table = which ? bf16Table : halfTable;
      size_t j = which ? pickB(rng) : pickH(rng);
      double a = table[j - 1].first, c = table[j].first;
      double mid = (a + c) / 2;
      double nudge = std::ldexp(std::fabs(c - a), nudgeExp(rng));
      check(mid);
      check(mid + nudge);
      check(mid - nudge);
    }
  }
}

} // namespace
