//===- BufferCacheTest.cpp - the JIT kernels' temporary-buffer cache ------===//

#include "conv/Runtime/BufferCache.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>

using namespace convgen;

namespace {

bool aligned(void *p, uintptr_t alignment) {
  return reinterpret_cast<uintptr_t>(p) % alignment == 0;
}

TEST(BufferCache, LargeBuffersAreReused) {
  bufferCacheRelease();
  const int64_t size = 3 * 1024 * 1024 + 100;
  void *a = bufferCacheAlloc(size);
  ASSERT_NE(a, nullptr);
  EXPECT_TRUE(aligned(a, 64));
  std::memset(a, 1, size); // the whole requested size is usable
  bufferCacheFree(a);
  EXPECT_GE(bufferCacheBytes(), size_t(size));
  // The same size (rounded to the same pages) gets the cached buffer back.
  void *b = bufferCacheAlloc(size - 50);
  EXPECT_EQ(a, b);
  EXPECT_EQ(bufferCacheBytes(), 0u);
  // A second buffer of that size while the first is in use: a new one.
  void *c = bufferCacheAlloc(size);
  EXPECT_NE(c, b);
  bufferCacheFree(b);
  bufferCacheFree(c);
  EXPECT_GE(bufferCacheBytes(), 2 * size_t(size));
  bufferCacheRelease();
  EXPECT_EQ(bufferCacheBytes(), 0u);
}

TEST(BufferCache, DifferentSizesAndAlignments) {
  bufferCacheRelease();
  void *a = bufferCacheAlloc(1 << 20);
  bufferCacheFree(a);
  // Another size class does not take it.
  void *b = bufferCacheAlloc(2 << 20);
  EXPECT_NE(a, b);
  // A stricter alignment is honoured, and has its own free list.
  void *c = bufferCacheAlignedAlloc(4096, 1 << 20);
  ASSERT_NE(c, nullptr);
  EXPECT_TRUE(aligned(c, 4096));
  EXPECT_NE(a, c);
  bufferCacheFree(b);
  bufferCacheFree(c);
  EXPECT_EQ(bufferCacheAlignedAlloc(4096, 1 << 20), c);
  bufferCacheFree(c);
  bufferCacheRelease();
}

TEST(BufferCache, SmallBuffersAreNotCached) {
  bufferCacheRelease();
  void *a = bufferCacheAlloc(100);
  ASSERT_NE(a, nullptr);
  EXPECT_TRUE(aligned(a, 64));
  bufferCacheFree(a);
  EXPECT_EQ(bufferCacheBytes(), 0u);
  void *zero = bufferCacheAlloc(0); // a valid, freeable pointer
  EXPECT_NE(zero, nullptr);
  bufferCacheFree(zero);
  bufferCacheFree(nullptr);
}

} // namespace
