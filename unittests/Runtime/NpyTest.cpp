//===- NpyTest.cpp - .npy reader and writer -------------------------------===//

#include "conv/Support/Npy.h"

#include "gtest/gtest.h"

using namespace convgen;

namespace {

TEST(NpyTest, RoundTrip) {
  float values[] = {1.5f, -2.f, 3.25f, 0.f, 7.f, -0.5f};
  std::string bytes = serializeNpy(ElementType::F32, {2, 3}, values);
  EXPECT_EQ((bytes.size() - sizeof(values)) % 64, 0u);
  EXPECT_EQ(bytes.substr(10, 59),
            "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }");
  NpyArray array;
  std::string error;
  ASSERT_TRUE(parseNpy(bytes, array, error)) << error;
  EXPECT_EQ(array.elementType, ElementType::F32);
  EXPECT_EQ(array.shape, (std::vector<int64_t>{2, 3}));
  ASSERT_EQ(array.data.size(), sizeof(values));
  EXPECT_EQ(std::memcmp(array.data.data(), values, sizeof(values)), 0);

  double one[] = {4.0};
  ASSERT_TRUE(parseNpy(serializeNpy(ElementType::F64, {1}, one), array, error));
  EXPECT_EQ(array.shape, (std::vector<int64_t>{1}));
  EXPECT_EQ(array.elementType, ElementType::F64);
  ASSERT_TRUE(
      parseNpy(serializeNpy(ElementType::F16, {}, "\x00\x3c"), array, error));
  EXPECT_TRUE(array.shape.empty());
  EXPECT_EQ(loadAsDouble(array.elementType, array.data.data(), 0), 1.0);
}

TEST(NpyTest, Version2HeaderAndSpacing) {
  std::string header = "{\"descr\":\"<f8\",\"fortran_order\":False,"
                       "\"shape\":( 2 ,  ),}\n";
  std::string bytes("\x93NUMPY\x02\x00", 8);
  uint32_t n = header.size();
  bytes.append(reinterpret_cast<const char *>(&n), 4);
  bytes += header;
  double values[] = {1, 2};
  bytes.append(reinterpret_cast<const char *>(values), sizeof(values));
  NpyArray array;
  std::string error;
  ASSERT_TRUE(parseNpy(bytes, array, error)) << error;
  EXPECT_EQ(array.shape, (std::vector<int64_t>{2}));
  EXPECT_EQ(loadAsDouble(ElementType::F64, array.data.data(), 1), 2.0);
}

TEST(NpyTest, Errors) {
  NpyArray array;
  std::string error;
  EXPECT_FALSE(parseNpy("hello", array, error));
  EXPECT_NE(error.find("bad magic"), std::string::npos);

  float v[] = {1, 2};
  std::string bytes = serializeNpy(ElementType::F32, {2}, v);
  std::string big = bytes;
  big.replace(big.find("<f4"), 3, ">f4");
  EXPECT_FALSE(parseNpy(big, array, error));
  EXPECT_NE(error.find("unsupported npy dtype '>f4'"), std::string::npos);

  std::string ints = bytes;
  ints.replace(ints.find("<f4"), 3, "<i4");
  EXPECT_FALSE(parseNpy(ints, array, error));

  std::string fortran = bytes;
  fortran.replace(fortran.find("False"), 5, "True ");
  EXPECT_FALSE(parseNpy(fortran, array, error));
  EXPECT_NE(error.find("Fortran"), std::string::npos);

  EXPECT_FALSE(parseNpy(bytes.substr(0, bytes.size() - 1), array, error));
  EXPECT_NE(error.find("truncated npy data"), std::string::npos);

  EXPECT_FALSE(readNpy("/nonexistent/x.npy", array, error));
  EXPECT_FALSE(writeNpy("/tmp/x.npy", ElementType::BF16, {1}, v, error));
}

} // namespace
