//===- ElementType.h - Element types and 16-bit float helpers ---*- C++ -*-===//
//
// The element types ConvGen supports and exact conversions between IEEE
// half / bfloat16 storage and float (round to nearest even). No dependencies.
//
//===----------------------------------------------------------------------===//

#ifndef CONV_SUPPORT_ELEMENTTYPE_H
#define CONV_SUPPORT_ELEMENTTYPE_H

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>

namespace convgen {

enum class ElementType { F16, BF16, F32, F64 };

/// "f16" | "bf16" | "f32" | "f64".
const char *stringify(ElementType t);
/// Accepts the MLIR spellings and numpy/TF ones ("float32", "half",
/// "bfloat16", "float64", ...).
std::optional<ElementType> parseElementType(const std::string &name);
size_t byteWidth(ElementType t);

/// IEEE binary16 storage.
struct Half {
  uint16_t bits = 0;
};
/// bfloat16 storage.
struct BFloat16 {
  uint16_t bits = 0;
};

float halfToFloat(uint16_t bits);
uint16_t floatToHalf(float value);
float bf16ToFloat(uint16_t bits);
uint16_t floatToBf16(float value);

/// Loads element `i` of a buffer of type `t` as double (exact).
double loadAsDouble(ElementType t, const void *data, size_t i);
/// Stores `value` rounded once to type `t` (round to nearest even). 16-bit
/// types go through a float rounded to odd, so there is no double rounding.
void storeFromDouble(ElementType t, void *data, size_t i, double value);

} // namespace convgen

#endif // CONV_SUPPORT_ELEMENTTYPE_H
