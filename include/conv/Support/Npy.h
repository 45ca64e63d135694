//===- Npy.h - Minimal NumPy .npy reader and writer -------------*- C++ -*-===//
//
// Enough of the .npy format (NEP 1) for conv-run and tests: versions 1-3,
// C order, little-endian IEEE '<f2', '<f4' and '<f8'. NumPy has no bfloat16,
// so bf16 data is exchanged as f32 by the callers. No dependencies.
//
//===----------------------------------------------------------------------===//

#ifndef CONV_SUPPORT_NPY_H
#define CONV_SUPPORT_NPY_H

#include "conv/Support/ElementType.h"

#include <cstdint>
#include <string>
#include <vector>

namespace convgen {

/// A dense C-order array as stored in an .npy file.
struct NpyArray {
  /// F16, F32 or F64 (never BF16).
  ElementType elementType = ElementType::F32;
  std::vector<int64_t> shape;
  /// numElements() * byteWidth(elementType) bytes, little-endian.
  std::vector<char> data;

  size_t numElements() const;
};

/// Parses the bytes of an .npy file; on failure returns false and sets
/// `error`.
bool parseNpy(const std::string &bytes, NpyArray &array, std::string &error);
/// Reads and parses `path`.
bool readNpy(const std::string &path, NpyArray &array, std::string &error);

/// The bytes of a version 1.0 .npy file (header padded to 64 bytes).
/// `elementType` must not be BF16.
std::string serializeNpy(ElementType elementType,
                         const std::vector<int64_t> &shape, const void *data);
/// Writes serializeNpy(...) to `path`.
bool writeNpy(const std::string &path, ElementType elementType,
              const std::vector<int64_t> &shape, const void *data,
              std::string &error);

} // namespace convgen

#endif // CONV_SUPPORT_NPY_H
