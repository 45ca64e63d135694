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
/// once the heap is trimmed.
void *bufferCacheAlloc(int64_t size);
/// `_mlir_memref_to_llvm_aligned_alloc`.
void *bufferCacheAlignedAlloc(int64_t alignment, int64_t size);
/// `_mlir_memref_to_llvm_free`: keeps the buffer for reuse while the cache
/// holds at most kMaxCachedBytes, else frees it.
void bufferCacheFree(void *ptr);

/// Frees every cached buffer (buffers in use are not affected).
void bufferCacheRelease();
/// Bytes held by cached (free) buffers.
size_t bufferCacheBytes();

constexpr size_t kMinCachedBytes = 64 * 1024;
constexpr size_t kMaxCachedBytes = size_t(1) << 30;

} // namespace convgen

#endif // CONV_RUNTIME_BUFFERCACHE_H
