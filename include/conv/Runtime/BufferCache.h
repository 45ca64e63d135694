//===- BufferCache.h - Cached temporary buffers of JIT kernels --*- C++ -*-===//
//
// The allocation functions of the generated kernels (the memref-to-llvm
// "generic" functions, see ConvCPUPipelineOptions::genericAllocFunctions).
//
//===----------------------------------------------------------------------===//

#ifndef CONV_RUNTIME_BUFFERCACHE_H
#define CONV_RUNTIME_BUFFERCACHE_H

#include <cstddef>
#include <cstdint>

namespace convgen {

/// `_mlir_memref_to_llvm_alloc`: a buffer of `size` bytes, 64-byte aligned.
/// Buffers of at least kMinCachedBytes come from a process-wide cache of
/// freed buffers of the same size when there is one: a kernel called again
/// reuses the pages its temporaries already faulted in, instead of mapping
/// fresh (zeroed) pages for every call, which glibc does for large blocks
/// once the heap is trimmed. Smaller 64-byte-aligned buffers come from a
/// cache of the calling thread's freed buffers of the same 64-byte size
/// class (no lock: the threads of a kernel allocate and free their small
/// temporaries on every call), which holds at most kMaxThreadCachedBytes and
/// is freed when the thread exits.
void *bufferCacheAlloc(int64_t size);
/// `_mlir_memref_to_llvm_aligned_alloc`.
void *bufferCacheAlignedAlloc(int64_t alignment, int64_t size);
/// `_mlir_memref_to_llvm_free`: keeps the buffer for reuse while the cache
/// holds at most kMaxCachedBytes, else frees it.
void bufferCacheFree(void *ptr);

/// Frees every buffer of the process-wide cache and the calling thread's
/// small buffers (buffers in use are not affected; other threads keep
/// theirs until they exit).
void bufferCacheRelease();
/// Bytes held by the process-wide cache's (free) buffers.
size_t bufferCacheBytes();
/// Bytes held by the calling thread's cache of small (free) buffers.
size_t bufferCacheThreadBytes();

constexpr size_t kMinCachedBytes = 64 * 1024;
constexpr size_t kMaxCachedBytes = size_t(1) << 30;
constexpr size_t kMaxThreadCachedBytes = size_t(4) << 20;

} // namespace convgen

#endif // CONV_RUNTIME_BUFFERCACHE_H
