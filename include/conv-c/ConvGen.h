/*===-- conv-c/ConvGen.h - C API of the ConvGen JIT ---------------*- C -*-===*\
|*                                                                            *|
|* Compiles conv.backprop_filter (tf.nn.conv2d_backprop_filter generalized to *|
|* N-D and groups), conv.transpose (keras.ops.conv_transpose) or any function *|
|* of an MLIR module for the host CPU, and runs the kernels on caller-owned   *|
|* dense row-major buffers. Library: libConvGenC.so.                          *|
|*                                                                            *|
|* Conventions:                                                               *|
|*  - Nothing here aborts or prints on bad input. Functions that can fail     *|
|*    take `char **error`: on failure they return NULL (or a non-zero int)    *|
|*    and, when `error` is not NULL, store a message there that the caller    *|
|*    frees with convgen_free_string; on success *error is set to NULL.       *|
|*  - Shapes and attribute lists are (pointer, count) pairs; attribute lists  *|
|*    have one entry per spatial dimension (explicit paddings: two).          *|
|*  - Compiled kernels are cached process-wide (same arguments, same kernel). *|
|*    Handles are independent: release each one; a kernel may be run from    *|
|*    several threads at once.                                                *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef CONVGEN_C_CONVGEN_H
#define CONVGEN_C_CONVGEN_H

#include <stddef.h>
#include <stdint.h>

#if defined(_WIN32)
#define CONVGEN_C_EXPORT __declspec(dllexport)
#else
#define CONVGEN_C_EXPORT __attribute__((visibility("default")))
#endif

#ifdef __cplusplus
extern "C" {
#endif

/** A compiled kernel (opaque). */
typedef struct convgen_kernel convgen_kernel;

/** Element types; -1 (CONVGEN_DTYPE_INVALID) answers bad queries. */
typedef enum convgen_dtype {
  CONVGEN_DTYPE_INVALID = -1,
  CONVGEN_DTYPE_F16 = 0,
  CONVGEN_DTYPE_BF16 = 1,
  CONVGEN_DTYPE_F32 = 2,
  CONVGEN_DTYPE_F64 = 3
} convgen_dtype;

/** Compile flags (bitwise or). */
enum {
  /** Lower conv.transpose by zero insertion (the test oracle) instead of
      the stride-phase decomposition. */
  CONVGEN_FLAG_ZERO_INSERTION_TRANSPOSE = 1u
};

/** Frees a string returned through `char **error`. NULL is ignored. */
CONVGEN_C_EXPORT void convgen_free_string(char *str);

/** "f16", "bf16", "f32", "f64" (NULL for an invalid value). */
CONVGEN_C_EXPORT const char *convgen_dtype_name(convgen_dtype dtype);

/*===----------------------------------------------------------------------===
 * Compiling
 *===----------------------------------------------------------------------===*/

/** conv.backprop_filter: dW = f(input, out_backprop), tf semantics.
 *  dtype: "f16" | "bf16" | "f32" | "f64" (also "float32", "bfloat16", ...).
 *  data_format: "NWC" | "NHWC" | "NDHWC" | "NCW" | "NCHW" | "NCDHW"; it must
 *    name the rank of input_shape.
 *  filter_sizes: [spatial..., in_channels / groups, out_channels].
 *  out_backprop_shape: NULL to use the shape implied by the other arguments.
 *  strides: one per spatial dimension; dilations: one per spatial dimension,
 *    or NULL for all 1.
 *  padding: "SAME" | "VALID" | "EXPLICIT"; explicit_paddings: [before, after]
 *    per spatial dimension (EXPLICIT only; else NULL / 0).
 *  flags: CONVGEN_FLAG_*.
 *  Inputs of the kernel: input, out_backprop; output: the filter gradient. */
CONVGEN_C_EXPORT convgen_kernel *convgen_compile_backprop_filter(
    const char *dtype, const char *data_format, const int64_t *input_shape,
    size_t input_rank, const int64_t *filter_sizes, size_t filter_rank,
    const int64_t *out_backprop_shape, size_t out_backprop_rank,
    const int64_t *strides, size_t num_strides, const int64_t *dilations,
    size_t num_dilations, const char *padding, const int64_t *explicit_paddings,
    size_t num_explicit_paddings, uint32_t flags, char **error);

/** conv.transpose: keras.ops.conv_transpose(inputs, kernel, ...).
 *  data_format: "channels_last" | "channels_first".
 *  kernel_shape: [spatial..., out_channels, in_channels].
 *  dilation_rate: NULL for all 1.
 *  padding: "valid" | "same" (case-insensitive, as Keras lowercases it).
 *  output_padding: NULL for Keras' None (which differs from all zeros).
 *  Inputs of the kernel: inputs, kernel; output: the result. */
CONVGEN_C_EXPORT convgen_kernel *convgen_compile_transpose(
    const char *dtype, const char *data_format, const int64_t *input_shape,
    size_t input_rank, const int64_t *kernel_shape, size_t kernel_rank,
    const int64_t *strides, size_t num_strides, const int64_t *dilation_rate,
    size_t num_dilation_rate, const char *padding,
    const int64_t *output_padding, size_t num_output_padding, uint32_t flags,
    char **error);

/** Function `entry` of an MLIR module (tensor arguments and results with
 *  static shapes). Inputs: the arguments; outputs: the results. */
CONVGEN_C_EXPORT convgen_kernel *convgen_compile_module(const char *module_text,
                                                        const char *entry,
                                                        uint32_t flags,
                                                        char **error);

/** Releases a handle (NULL is ignored). The cache may keep the kernel. */
CONVGEN_C_EXPORT void convgen_kernel_release(convgen_kernel *kernel);

/*===----------------------------------------------------------------------===
 * Querying and running
 *===----------------------------------------------------------------------===*/

CONVGEN_C_EXPORT size_t convgen_kernel_num_inputs(const convgen_kernel *kernel);
CONVGEN_C_EXPORT size_t
convgen_kernel_num_outputs(const convgen_kernel *kernel);

/** Rank, shape (valid while the handle lives), element type and byte size of
 *  input / output `index`; 0, NULL, CONVGEN_DTYPE_INVALID and 0 when the
 *  index is out of range. */
CONVGEN_C_EXPORT size_t convgen_kernel_input_rank(const convgen_kernel *kernel,
                                                  size_t index);
CONVGEN_C_EXPORT const int64_t *
convgen_kernel_input_shape(const convgen_kernel *kernel, size_t index);
CONVGEN_C_EXPORT convgen_dtype
convgen_kernel_input_dtype(const convgen_kernel *kernel, size_t index);
CONVGEN_C_EXPORT size_t
convgen_kernel_input_byte_size(const convgen_kernel *kernel, size_t index);
CONVGEN_C_EXPORT size_t convgen_kernel_output_rank(const convgen_kernel *kernel,
                                                   size_t index);
CONVGEN_C_EXPORT const int64_t *
convgen_kernel_output_shape(const convgen_kernel *kernel, size_t index);
CONVGEN_C_EXPORT convgen_dtype
convgen_kernel_output_dtype(const convgen_kernel *kernel, size_t index);
CONVGEN_C_EXPORT size_t
convgen_kernel_output_byte_size(const convgen_kernel *kernel, size_t index);

/** Runs the kernel. `buffers`: num_inputs input pointers, then num_outputs
 *  output pointers, dense row-major in the shapes above. Returns 0 on
 *  success. */
CONVGEN_C_EXPORT int convgen_kernel_run(const convgen_kernel *kernel,
                                        void *const *buffers,
                                        size_t num_buffers, char **error);

/** Runs the plain reference implementation (f64 accumulation, one rounding)
 *  on the same buffers; only for kernels that are a single conv op (all
 *  kernels compiled from op arguments, and module functions that only
 *  return one conv op of their two arguments). Returns 0 on success. */
CONVGEN_C_EXPORT int convgen_kernel_run_reference(const convgen_kernel *kernel,
                                                  void *const *buffers,
                                                  size_t num_buffers,
                                                  char **error);

/** FLOPs of one call of a single-conv-op kernel (0 otherwise). */
CONVGEN_C_EXPORT double convgen_kernel_flops(const convgen_kernel *kernel);
/** Seconds the original (uncached) compile of this kernel took. */
CONVGEN_C_EXPORT double
convgen_kernel_compile_seconds(const convgen_kernel *kernel);
/** The MLIR the kernel was compiled from (valid while the handle lives). */
CONVGEN_C_EXPORT const char *
convgen_kernel_source(const convgen_kernel *kernel);

/*===----------------------------------------------------------------------===
 * Shapes without compiling
 *===----------------------------------------------------------------------===*/

/** The out_backprop shape (input_rank entries) implied by the arguments of
 *  convgen_compile_backprop_filter. Returns 0 on success. */
CONVGEN_C_EXPORT int convgen_backprop_filter_out_backprop_shape(
    const char *data_format, const int64_t *input_shape, size_t input_rank,
    const int64_t *filter_sizes, size_t filter_rank, const int64_t *strides,
    size_t num_strides, const int64_t *dilations, size_t num_dilations,
    const char *padding, const int64_t *explicit_paddings,
    size_t num_explicit_paddings, int64_t *out_backprop_shape, char **error);

/** The Keras output shape (input_rank entries) of conv_transpose. Returns 0
 *  on success. */
CONVGEN_C_EXPORT int convgen_transpose_output_shape(
    const char *data_format, const int64_t *input_shape, size_t input_rank,
    const int64_t *kernel_shape, size_t kernel_rank, const int64_t *strides,
    size_t num_strides, const int64_t *dilation_rate, size_t num_dilation_rate,
    const char *padding, const int64_t *output_padding,
    size_t num_output_padding, int64_t *output_shape, char **error);

/*===----------------------------------------------------------------------===
 * The process-wide kernel cache
 *===----------------------------------------------------------------------===*/

CONVGEN_C_EXPORT size_t convgen_cache_size(void);
CONVGEN_C_EXPORT size_t convgen_num_compiles(void);
/** Empties the cache; live handles stay valid. */
CONVGEN_C_EXPORT void convgen_clear_cache(void);

#ifdef __cplusplus
}
#endif

#endif /* CONVGEN_C_CONVGEN_H */
