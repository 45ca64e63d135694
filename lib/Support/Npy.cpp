//===- Npy.cpp - Minimal NumPy .npy reader and writer ---------------------===//

#include "conv/Support/Npy.h"

#include <cctype>
#include <cstring>
#include <fstream>
#include <sstream>

namespace convgen {

static_assert(sizeof(float) == 4 && sizeof(double) == 8, "IEEE types");

size_t NpyArray::numElements() const {
  size_t n = 1;
  for (int64_t d : shape)
    n *= static_cast<size_t>(d);
  return n;
}

namespace {

bool hostIsLittleEndian() {
  const uint16_t one = 1;
  unsigned char first;
  std::memcpy(&first, &one, 1);
  return first == 1;
}

/// The value text after `'key':` in a header dict, or npos.
size_t findValue(const std::string &header, const char *key) {
  for (char quote : {'\'', '"'}) {
    std::string quoted = std::string(1, quote) + key + quote;
    size_t pos = header.find(quoted);
    if (pos == std::string::npos)
      continue;
    pos = header.find(':', pos + quoted.size());
    if (pos == std::string::npos)
      return pos;
    ++pos;
    while (pos < header.size() &&
           std::isspace(static_cast<unsigned char>(header[pos])))
      ++pos;
    return pos;
  }
  return std::string::npos;
}

bool parseHeader(const std::string &header, NpyArray &array,
                 std::string &error) {
  // 'descr': '<f4'
  size_t pos = findValue(header, "descr");
  if (pos == std::string::npos || pos >= header.size() ||
      (header[pos] != '\'' && header[pos] != '"')) {
    error = "npy header has no 'descr' string: " + header;
    return false;
  }
  size_t end = header.find(header[pos], pos + 1);
  if (end == std::string::npos) {
    error = "npy header has an unterminated 'descr': " + header;
    return false;
  }
  std::string descr = header.substr(pos + 1, end - pos - 1);
  if (descr == "<f2" || descr == "=f2")
    array.elementType = ElementType::F16;
  else if (descr == "<f4" || descr == "=f4")
    array.elementType = ElementType::F32;
  else if (descr == "<f8" || descr == "=f8")
    array.elementType = ElementType::F64;
  else {
    error = "unsupported npy dtype '" + descr +
            "' (expected little-endian float16, float32 or float64: "
            "'<f2', '<f4' or '<f8')";
    return false;
  }

  // 'fortran_order': False
  pos = findValue(header, "fortran_order");
  if (pos == std::string::npos) {
    error = "npy header has no 'fortran_order': " + header;
    return false;
  }
  if (header.compare(pos, 5, "False") != 0) {
    error = "npy arrays in Fortran order are not supported";
    return false;
  }

  // 'shape': (2, 3)
  pos = findValue(header, "shape");
  if (pos == std::string::npos || pos >= header.size() || header[pos] != '(') {
    error = "npy header has no 'shape' tuple: " + header;
    return false;
  }
  end = header.find(')', pos);
  if (end == std::string::npos) {
    error = "npy header has an unterminated 'shape': " + header;
    return false;
  }
  array.shape.clear();
  std::string dims = header.substr(pos + 1, end - pos - 1);
  size_t i = 0;
  while (i < dims.size()) {
    char c = dims[i];
    if (std::isspace(static_cast<unsigned char>(c)) || c == ',') {
      ++i;
      continue;
    }
    if (!std::isdigit(static_cast<unsigned char>(c))) {
      error = "bad npy shape '(" + dims + ")'";
      return false;
    }
    int64_t v = 0;
    while (i < dims.size() &&
           std::isdigit(static_cast<unsigned char>(dims[i]))) {
      v = v * 10 + (dims[i] - '0');
      if (v > (int64_t(1) << 48)) {
        error = "npy dimension too large in '(" + dims + ")'";
        return false;
      }
      ++i;
    }
    if (i < dims.size() && (dims[i] == 'L' || dims[i] == 'l'))
      ++i; // Python 2 long suffix
    array.shape.push_back(v);
  }
  return true;
}

} // namespace

bool parseNpy(const std::string &bytes, NpyArray &array, std::string &error) {
  if (!hostIsLittleEndian()) {
    error = "npy support needs a little-endian host";
    return false;
  }
  static const char magic[] = "\x93NUMPY";
  if (bytes.size() < 10 || bytes.compare(0, 6, magic, 6) != 0) {
    error = "not an npy file (bad magic)";
    return false;
  }
  unsigned major = static_cast<unsigned char>(bytes[6]);
  size_t headerLength = 0, offset = 0;
  if (major == 1) {
    headerLength =
        static_cast<unsigned char>(bytes[8]) |
        (static_cast<size_t>(static_cast<unsigned char>(bytes[9])) << 8);
    offset = 10;
  } else if (major == 2 || major == 3) {
    if (bytes.size() < 12) {
      error = "truncated npy header";
      return false;
    }
    for (int k = 3; k >= 0; --k)
      headerLength =
          (headerLength << 8) | static_cast<unsigned char>(bytes[8 + k]);
    offset = 12;
  } else {
    error = "unsupported npy format version " + std::to_string(major);
    return false;
  }
  if (bytes.size() < offset + headerLength) {
    error = "truncated npy header";
    return false;
  }
  if (!parseHeader(bytes.substr(offset, headerLength), array, error))
    return false;
  size_t dataOffset = offset + headerLength;
  size_t size = array.numElements() * byteWidth(array.elementType);
  if (bytes.size() - dataOffset < size) {
    std::ostringstream os;
    os << "truncated npy data: expected " << size << " bytes, found "
       << bytes.size() - dataOffset;
    error = os.str();
    return false;
  }
  array.data.assign(bytes.begin() + dataOffset,
                    bytes.begin() + dataOffset + size);
  return true;
}

bool readNpy(const std::string &path, NpyArray &array, std::string &error) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    error = "cannot open '" + path + "'";
    return false;
  }
  std::ostringstream contents;
  contents << in.rdbuf();
  if (!parseNpy(contents.str(), array, error)) {
    error = path + ": " + error;
    return false;
  }
  return true;
}

std::string serializeNpy(ElementType elementType,
                         const std::vector<int64_t> &shape, const void *data) {
  const char *descr = elementType == ElementType::F16   ? "<f2"
                      : elementType == ElementType::F64 ? "<f8"
                                                        : "<f4";
  std::string header = std::string("{'descr': '") + descr +
                       "', 'fortran_order': False, 'shape': (";
  for (size_t i = 0; i < shape.size(); ++i)
    header += (i ? ", " : "") + std::to_string(shape[i]);
  if (shape.size() == 1)
    header += ",";
  header += "), }";
  // Pad with spaces so that magic + version + length + header is a multiple
  // of 64, the header ending in '\n'.
  size_t total = 10 + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header += '\n';

  std::string bytes("\x93NUMPY\x01\x00", 8);
  bytes += static_cast<char>(header.size() & 0xff);
  bytes += static_cast<char>(header.size() >> 8);
  bytes += header;
  size_t n = 1;
  for (int64_t d : shape)
    n *= static_cast<size_t>(d);
  bytes.append(static_cast<const char *>(data), n * byteWidth(elementType));
  return bytes;
}

bool writeNpy(const std::string &path, ElementType elementType,
              const std::vector<int64_t> &shape, const void *data,
              std::string &error) {
  if (elementType == ElementType::BF16) {
    error = "npy has no bfloat16: convert to f32 first";
    return false;
  }
  std::ofstream out(path, std::ios::binary);
  if (!out) {
    error = "cannot write '" + path + "'";
    return false;
  }
  std::string bytes = serializeNpy(elementType, shape, data);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (!out) {
    error = "error writing '" + path + "'";
    return false;
  }
  return true;
}

} // namespace convgen
