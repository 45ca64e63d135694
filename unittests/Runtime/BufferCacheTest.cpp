//===- BufferCacheTest.cpp - the JIT kernels' temporary-buffer cache ------===//

#include "conv/Runtime/BufferCache.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <thread>
#include <vector>

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

TEST(BufferCache, SmallBuffersAreCachedPerThread) {
  bufferCacheRelease();
  EXPECT_EQ(bufferCacheThreadBytes(), 0u);
  void *a = bufferCacheAlloc(100);
  ASSERT_NE(a, nullptr);
  EXPECT_TRUE(aligned(a, 64));
  std::memset(a, 1, 100);
  bufferCacheFree(a);
  // Kept by this thread (128 bytes: 100 rounded to 64), not by the
  // process-wide cache.
  EXPECT_EQ(bufferCacheThreadBytes(), 128u);
  EXPECT_EQ(bufferCacheBytes(), 0u);
  // The same size class gets it back; another size class does not.
  void *b = bufferCacheAlloc(120);
  EXPECT_EQ(a, b);
  EXPECT_EQ(bufferCacheThreadBytes(), 0u);
  void *c = bufferCacheAlloc(200);
  EXPECT_NE(c, b);
  bufferCacheFree(c);
  // Another thread has its own cache: it neither sees this thread's
  // buffer nor leaves its own here.
  void *other = nullptr;
  size_t otherBytes = 0;
  std::thread([&] {
    other = bufferCacheAlloc(200);
    bufferCacheFree(other);
    otherBytes = bufferCacheThreadBytes();
  }).join();
  EXPECT_NE(other, nullptr);
  EXPECT_EQ(otherBytes, 256u);
  EXPECT_EQ(bufferCacheThreadBytes(), 256u); // c only
  EXPECT_EQ(bufferCacheAlloc(200), c);
  bufferCacheFree(b);
  bufferCacheFree(c);
  bufferCacheRelease();
  EXPECT_EQ(bufferCacheThreadBytes(), 0u);
  // Stricter alignments are not cached per thread.
  void *d = bufferCacheAlignedAlloc(4096, 100);
  ASSERT_NE(d, nullptr);
  EXPECT_TRUE(aligned(d, 4096));
  bufferCacheFree(d);
  EXPECT_EQ(bufferCacheThreadBytes(), 0u);
  void *zero = bufferCacheAlloc(0); // a valid, freeable pointer
  EXPECT_NE(zero, nullptr);
  bufferCacheFree(zero);
  bufferCacheFree(nullptr);
  bufferCacheRelease();
}

TEST(BufferCache, ThreadCacheIsBounded) {
  bufferCacheRelease();
  // More small buffers than the thread keeps: the rest are freed.
  const int64_t size = kMinCachedBytes / 2;
  const size_t count = 2 * kMaxThreadCachedBytes / size;
  std::vector<void *> buffers;
  for (size_t i = 0; i < count; ++i)
    buffers.push_back(bufferCacheAlloc(size));
  for (void *p : buffers)
    bufferCacheFree(p);
  EXPECT_LE(bufferCacheThreadBytes(), kMaxThreadCachedBytes);
  EXPECT_GE(bufferCacheThreadBytes(), kMaxThreadCachedBytes - size);
  bufferCacheRelease();
  EXPECT_EQ(bufferCacheThreadBytes(), 0u);
}

} // namespace
