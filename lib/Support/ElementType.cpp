//===- ElementType.cpp - Element types and 16-bit float helpers -----------===//

#include "conv/Support/ElementType.h"

#include <cmath>

namespace convgen {

const char *stringify(ElementType t) {
  switch (t) {
  case ElementType::F16:
    return "f16";
  case ElementType::BF16:
    return "bf16";
  case ElementType::F32:
    return "f32";
  case ElementType::F64:
    return "f64";
  }
  return "?";
}

std::optional<ElementType> parseElementType(const std::string &n) {
  if (n == "f16" || n == "float16" || n == "half")
    return ElementType::F16;
  if (n == "bf16" || n == "bfloat16")
    return ElementType::BF16;
  if (n == "f32" || n == "float32" || n == "float")
    return ElementType::F32;
  if (n == "f64" || n == "float64" || n == "double")
    return ElementType::F64;
  return std::nullopt;
}

size_t byteWidth(ElementType t) {
  switch (t) {
  case ElementType::F16:
  case ElementType::BF16:
    return 2;
  case ElementType::F32:
    return 4;
  case ElementType::F64:
    return 8;
  }
  return 0;
}

static uint32_t floatBits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

static float bitsFloat(uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

float halfToFloat(uint16_t h) {
  uint32_t sign = static_cast<uint32_t>(h & 0x8000) << 16;
  uint32_t exp = (h >> 10) & 0x1f;
  uint32_t mant = h & 0x3ff;
  if (exp == 0x1f) // inf / nan
    return bitsFloat(sign | 0x7f800000 | (mant << 13));
  if (exp == 0) {
    // zero or subnormal: mant * 2^-24
    float v = std::ldexp(static_cast<float>(mant), -24);
    return sign ? -v : v;
  }
  return bitsFloat(sign | ((exp + 112) << 23) | (mant << 13));
}

uint16_t floatToHalf(float f) {
  uint32_t u = floatBits(f);
  uint16_t sign = static_cast<uint16_t>((u >> 16) & 0x8000);
  uint32_t absu = u & 0x7fffffff;
  if (absu >= 0x7f800000) // inf or nan
    return sign | 0x7c00 | (absu > 0x7f800000 ? 0x200 : 0);
  float a = bitsFloat(absu);
  if (a >= 65520.0f) // rounds to inf
    return sign | 0x7c00;
  if (a < 6.103515625e-05f) {
    // subnormal half: quantum 2^-24; nearbyint rounds half to even.
    float q = std::nearbyint(a * 16777216.0f);
    return sign | static_cast<uint16_t>(q);
  }
  // normal: round mantissa from 23 to 10 bits, nearest even.
  uint32_t mant = absu & 0x7fffff;
  uint32_t exp = (absu >> 23) - 112;
  uint32_t half = (exp << 10) | (mant >> 13);
  uint32_t rest = mant & 0x1fff;
  if (rest > 0x1000 || (rest == 0x1000 && (half & 1)))
    ++half; // may carry into the exponent, which is correct
  return sign | static_cast<uint16_t>(half);
}

float bf16ToFloat(uint16_t b) {
  return bitsFloat(static_cast<uint32_t>(b) << 16);
}

uint16_t floatToBf16(float f) {
  uint32_t u = floatBits(f);
  if ((u & 0x7fffffff) > 0x7f800000) // nan: keep quiet
    return static_cast<uint16_t>((u >> 16) | 0x40);
  uint32_t lsb = (u >> 16) & 1;
  u += 0x7fff + lsb;
  return static_cast<uint16_t>(u >> 16);
}

double loadAsDouble(ElementType t, const void *data, size_t i) {
  switch (t) {
  case ElementType::F16:
    return halfToFloat(static_cast<const uint16_t *>(data)[i]);
  case ElementType::BF16:
    return bf16ToFloat(static_cast<const uint16_t *>(data)[i]);
  case ElementType::F32:
    return static_cast<const float *>(data)[i];
  case ElementType::F64:
    return static_cast<const double *>(data)[i];
  }
  return 0;
}

/// double -> float rounded to odd: truncate toward zero and set the last
/// bit when the conversion is inexact. Rounding that float (24 significand
/// bits) to nearest even in a format with at least two fewer (f16: 11,
/// bf16: 8) gives the correctly rounded result of the double, whereas
/// double -> float -> 16-bit with two round-to-nearest steps can round a
/// value just above (below) a 16-bit tie onto the tie and then the wrong way.
static float doubleToFloatRoundToOdd(double v) {
  float f = static_cast<float>(v);
  if (std::isnan(v) || static_cast<double>(f) == v)
    return f; // exact (including infinities)
  if (std::fabs(static_cast<double>(f)) > std::fabs(v))
    f = std::nextafter(f, 0.0f); // truncate (an overflow to inf -> max)
  return bitsFloat(floatBits(f) | 1u);
}

void storeFromDouble(ElementType t, void *data, size_t i, double v) {
  switch (t) {
  case ElementType::F16:
    static_cast<uint16_t *>(data)[i] = floatToHalf(doubleToFloatRoundToOdd(v));
    return;
  case ElementType::BF16:
    static_cast<uint16_t *>(data)[i] = floatToBf16(doubleToFloatRoundToOdd(v));
    return;
  case ElementType::F32:
    static_cast<float *>(data)[i] = static_cast<float>(v);
    return;
  case ElementType::F64:
    static_cast<double *>(data)[i] = v;
    return;
  }
}

} // namespace convgen
