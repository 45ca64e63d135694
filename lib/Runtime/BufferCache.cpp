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
constexpr size_t kSmallAlignment = 64;

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

/// Small buffers (below kMinCachedBytes, 64-byte aligned): a free list per
/// 64-byte size class and thread, without a lock. A kernel's threads
/// allocate and free their temporaries on every call (masknet on 2
/// threads: each part's transposed kernel and GEMM rows), which
/// aligned_alloc and free served with a pass over glibc's fast bins each
/// time; the process-wide cache's lock and map cost more still.
struct LocalCache {
  std::vector<std::vector<void *>> lists =
      std::vector<std::vector<void *>>(kMinCachedBytes / kSmallAlignment);
  size_t bytes = 0;

  void release() {
    for (std::vector<void *> &list : lists) {
      for (void *payload : list)
        std::free(headerOf(payload)->raw);
      list.clear();
    }
    bytes = 0;
  }
};

// The thread's cache, made on its first small buffer and freed when the
// thread exits; a kernel that runs on a thread after that (during its
// exit) allocates without it.
thread_local LocalCache *threadCache = nullptr;
thread_local bool threadCacheGone = false;

struct LocalCacheOwner {
  ~LocalCacheOwner() {
    if (threadCache) {
      threadCache->release();
      delete threadCache;
      threadCache = nullptr;
    }
    threadCacheGone = true;
  }
};

LocalCache *localCache() {
  if (threadCacheGone)
    return nullptr;
  if (!threadCache) {
    static thread_local LocalCacheOwner owner;
    (void)owner;
    threadCache = new LocalCache;
  }
  return threadCache;
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
  if (capacity < kMinCachedBytes && a == kSmallAlignment) {
    if (LocalCache *c = localCache()) {
      std::vector<void *> &list = c->lists[capacity / kSmallAlignment];
      if (!list.empty()) {
        void *payload = list.back();
        list.pop_back();
        c->bytes -= capacity;
        return payload;
      }
    }
  }
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

  if (h->capacity < kMinCachedBytes && h->alignment == kSmallAlignment) {
    LocalCache *c = localCache();
    if (c && c->bytes + h->capacity <= kMaxThreadCachedBytes) {
      c->lists[h->capacity / kSmallAlignment].push_back(payload);
      c->bytes += h->capacity;
      return;
    }
  }
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
  if (LocalCache *local = localCache())
    local->release();
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

size_t bufferCacheThreadBytes() {
  LocalCache *c = localCache();
  return c ? c->bytes : 0;
}

} // namespace convgen
