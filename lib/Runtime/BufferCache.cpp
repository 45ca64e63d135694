//===- BufferCache.cpp - Cached temporary buffers of JIT kernels ----------===//

#include "conv/Runtime/BufferCache.h"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <mutex>
#include <utility>
#include <vector>

namespace convgen {
namespace {

/// Stored just below every payload.
struct Header {
  void *raw;       // what std::aligned_alloc returned
  size_t capacity; // payload bytes
  size_t alignment;
  size_t magic;
};
constexpr size_t kMagic = 0xC0117E11C0117E11ull;

struct Cache {
  std::mutex mutex;
  /// (capacity, alignment) -> free payloads.
  std::map<std::pair<size_t, size_t>, std::vector<void *>> free;
  size_t bytes = 0;
};

Cache &cache() {
  static Cache *c = new Cache; // never destroyed: kernels may run at exit
  return *c;
}

Header *headerOf(void *payload) {
  return reinterpret_cast<Header *>(static_cast<char *>(payload) -
                                    sizeof(Header));
}

void *allocate(size_t alignment, size_t size) {
  alignment = std::max<size_t>(alignment, 64);
  // Power of two (aligned_alloc requires it), at least the header.
  size_t a = 64;
  while (a < alignment)
    a *= 2;
  size_t capacity = std::max<size_t>(size, 1);
  if (capacity >= kMinCachedBytes)
    capacity = (capacity + 4095) / 4096 * 4096;
  else
    capacity = (capacity + 63) / 64 * 64;
  if (capacity >= kMinCachedBytes) {
    Cache &c = cache();
    std::lock_guard<std::mutex> lock(c.mutex);
    auto it = c.free.find({capacity, a});
    if (it != c.free.end() && !it->second.empty()) {
      void *payload = it->second.back();
      it->second.pop_back();
      c.bytes -= capacity;
      return payload;
    }
  }
  // The header sits in the `a` bytes before the payload; aligned_alloc
  // wants a multiple of the alignment.
  void *raw = std::aligned_alloc(a, (a + capacity + a - 1) / a * a);
  if (!raw)
    return nullptr;
  void *payload = static_cast<char *>(raw) + a;
  *headerOf(payload) = Header{raw, capacity, a, kMagic};
  return payload;
}

} // namespace

void *bufferCacheAlloc(int64_t size) {
  return allocate(64, size > 0 ? size_t(size) : 0);
}

void *bufferCacheAlignedAlloc(int64_t alignment, int64_t size) {
  return allocate(alignment > 0 ? size_t(alignment) : 64,
                  size > 0 ? size_t(size) : 0);
}

void bufferCacheFree(void *payload) {
  if (!payload)
    return;
  Header *h = headerOf(payload);
  if (h->magic != kMagic) // not ours (cannot happen for generated code):
    return;               // leaking beats freeing what we do not own

  if (h->capacity >= kMinCachedBytes) {
    Cache &c = cache();
    std::lock_guard<std::mutex> lock(c.mutex);
    if (c.bytes + h->capacity <= kMaxCachedBytes) {
      c.free[{h->capacity, h->alignment}].push_back(payload);
      c.bytes += h->capacity;
      return;
    }
  }
  std::free(h->raw);
}

void bufferCacheRelease() {
  Cache &c = cache();
  std::lock_guard<std::mutex> lock(c.mutex);
  for (auto &[key, payloads] : c.free)
    for (void *payload : payloads)
      std::free(headerOf(payload)->raw);
  c.free.clear();
  c.bytes = 0;
}

size_t bufferCacheBytes() {
  Cache &c = cache();
  std::lock_guard<std::mutex> lock(c.mutex);
  return c.bytes;
}

} // namespace convgen
