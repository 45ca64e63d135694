// RUN: %conv_capi_test 2>&1 | FileCheck %s
//
// The C API of libConvGenC.so, from C (C99: the header must be plain C).

#include "conv-c/ConvGen.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void printShape(const char *what, size_t i, convgen_dtype t,
                       const int64_t *shape, size_t rank) {
  printf("%s %zu: %s [", what, i, convgen_dtype_name(t));
  for (size_t d = 0; d < rank; ++d)
    printf(d ? ", %lld" : "%lld", (long long)shape[d]);
  printf("]\n");
}

static void describe(const convgen_kernel *k) {
  for (size_t i = 0; i < convgen_kernel_num_inputs(k); ++i)
    printShape("input", i, convgen_kernel_input_dtype(k, i),
               convgen_kernel_input_shape(k, i),
               convgen_kernel_input_rank(k, i));
  for (size_t i = 0; i < convgen_kernel_num_outputs(k); ++i)
    printShape("output", i, convgen_kernel_output_dtype(k, i),
               convgen_kernel_output_shape(k, i),
               convgen_kernel_output_rank(k, i));
}

static void printValues(const char *what, const double *v, size_t n) {
  printf("%s:", what);
  for (size_t i = 0; i < n; ++i)
    printf(" %g", v[i]);
  printf("\n");
}

static void printError(const char *what, char *error) {
  printf("%s: %s\n", what, error ? error : "(no message)");
  convgen_free_string(error);
}

static void testBackpropFilter(void) {
  /* Spec 3.3: input 1..6 as [1,2,3,1], out_backprop [1,2] as [1,1,2,1], 2x2
     filter, stride 2, SAME -> 7, 2, 16, 5. out_backprop shape inferred. */
  int64_t input[] = {1, 2, 3, 1}, filter[] = {2, 2, 1, 1}, strides[] = {2, 2};
  char *error = (char *)1;
  convgen_kernel *k = convgen_compile_backprop_filter(
      "float32", "NHWC", input, 4, filter, 4, NULL, 0, strides, 2, NULL, 0,
      "SAME", NULL, 0, 0, &error);
  if (!k) {
    printError("backprop_filter", error);
    return;
  }
  printf("error after success: %s\n", error ? "set" : "NULL");
  describe(k);
  // CHECK: error after success: NULL
  // CHECK-NEXT: input 0: f32 [1, 2, 3, 1]
  // CHECK-NEXT: input 1: f32 [1, 1, 2, 1]
  // CHECK-NEXT: output 0: f32 [2, 2, 1, 1]
  printf("flops: %g, byte size: %zu, compile seconds > 0: %d\n",
         convgen_kernel_flops(k), convgen_kernel_output_byte_size(k, 0),
         convgen_kernel_compile_seconds(k) > 0);
  // CHECK-NEXT: flops: 16, byte size: 16, compile seconds > 0: 1

  float x[] = {1, 2, 3, 4, 5, 6}, dy[] = {1, 2}, dw[4], ref[4];
  void *buffers[] = {x, dy, dw};
  if (convgen_kernel_run(k, buffers, 3, &error)) {
    printError("run", error);
    return;
  }
  double v[4];
  for (int i = 0; i < 4; ++i)
    v[i] = dw[i];
  printValues("dw", v, 4);
  // CHECK-NEXT: dw: 7 2 16 5
  void *refBuffers[] = {x, dy, ref};
  if (convgen_kernel_run_reference(k, refBuffers, 3, &error))
    printError("reference", error);
  for (int i = 0; i < 4; ++i)
    v[i] = ref[i];
  printValues("reference", v, 4);
  // CHECK-NEXT: reference: 7 2 16 5

  /* Same arguments: a cache hit. */
  size_t compiles = convgen_num_compiles();
  convgen_kernel *again = convgen_compile_backprop_filter(
      "f32", "NHWC", input, 4, filter, 4, NULL, 0, strides, 2, NULL, 0,
      "SAME", NULL, 0, 0, NULL);
  printf("cache hit: %d, compiles: %zu, cache size: %zu\n", again != NULL,
         convgen_num_compiles() - compiles, convgen_cache_size());
  // CHECK-NEXT: cache hit: 1, compiles: 0, cache size: 1

  if (convgen_kernel_run(again, buffers, 2, &error))
    printError("run with 2 buffers", error);
  // CHECK-NEXT: run with 2 buffers: kernel expects 3 buffers (2 inputs, 1 outputs), got 2
  convgen_kernel_release(again);
  convgen_kernel_release(k);
}

static void testTranspose(void) {
  /* Keras: x = [1, 2, 3], k = [1, 10, 100], stride 2, same. */
  int64_t input[] = {1, 3, 1}, kernel[] = {3, 1, 1}, strides[] = {2},
          zero[] = {0};
  double x[] = {1, 2, 3}, w[] = {1, 10, 100}, y[6];
  void *buffers[] = {x, w, y};
  char *error = NULL;
  for (int withOp = 0; withOp < 2; ++withOp) {
    convgen_kernel *k = convgen_compile_transpose(
        "f64", "channels_last", input, 3, kernel, 3, strides, 1, NULL, 0,
        "SAME", withOp ? zero : NULL, withOp ? 1 : 0, 0, &error);
    if (!k) {
      printError("transpose", error);
      continue;
    }
    describe(k);
    if (convgen_kernel_run(k, buffers, 3, &error))
      printError("run", error);
    printValues(withOp ? "op=0" : "op=None", y,
                (size_t)convgen_kernel_output_shape(k, 0)[1]);
    convgen_kernel_release(k);
  }
  // CHECK-NEXT: input 0: f64 [1, 3, 1]
  // CHECK-NEXT: input 1: f64 [3, 1, 1]
  // CHECK-NEXT: output 0: f64 [1, 6, 1]
  // CHECK-NEXT: op=None: 1 10 102 20 203 30
  // CHECK-NEXT: input 0: f64 [1, 3, 1]
  // CHECK-NEXT: input 1: f64 [3, 1, 1]
  // CHECK-NEXT: output 0: f64 [1, 5, 1]
  // CHECK-NEXT: op=0: 10 102 20 203 30

  /* The zero-insertion oracle, in bf16 (exact for these integers). */
  uint16_t xb[3], wb[3], yb[7];
  for (int i = 0; i < 3; ++i) {
    float fx = (float)x[i], fw = (float)w[i];
    uint32_t ux, uw;
    memcpy(&ux, &fx, 4);
    memcpy(&uw, &fw, 4);
    xb[i] = (uint16_t)(ux >> 16);
    wb[i] = (uint16_t)(uw >> 16);
  }
  convgen_kernel *k = convgen_compile_transpose(
      "bfloat16", "channels_last", input, 3, kernel, 3, strides, 1, NULL, 0,
      "valid", NULL, 0, CONVGEN_FLAG_ZERO_INSERTION_TRANSPOSE, &error);
  if (!k) {
    printError("bf16 transpose", error);
    return;
  }
  void *bbuffers[] = {xb, wb, yb};
  size_t n = (size_t)convgen_kernel_output_shape(k, 0)[1];
  if (convgen_kernel_run(k, bbuffers, 3, &error))
    printError("run", error);
  double v[8];
  for (size_t i = 0; i < n && i < 8; ++i) {
    uint32_t u = (uint32_t)yb[i] << 16;
    float f;
    memcpy(&f, &u, 4);
    v[i] = f;
  }
  printf("bf16 %s ", convgen_dtype_name(convgen_kernel_output_dtype(k, 0)));
  printValues("valid", v, n);
  // CHECK-NEXT: bf16 bf16 valid: 1 10 102 20 203 30 300
  convgen_kernel_release(k);
}

static void testShapes(void) {
  char *error = NULL;
  int64_t out[5];
  int64_t input[] = {2, 4, 3}, kernel[] = {2, 5, 3}, s5[] = {5}, op4[] = {4};
  if (convgen_transpose_output_shape("channels_last", input, 3, kernel, 3, s5,
                                     1, NULL, 0, "valid", op4, 1, out,
                                     &error) == 0)
    printShape("transpose shape", 0, CONVGEN_DTYPE_F32, out, 3);
  else
    printError("transpose shape", error);
  // CHECK-NEXT: transpose shape 0: f32 [2, 21, 5]

  int64_t x[] = {2, 9, 9, 8}, f[] = {3, 3, 8, 16}, s2[] = {2, 2};
  if (convgen_backprop_filter_out_backprop_shape("NHWC", x, 4, f, 4, s2, 2,
                                                 NULL, 0, "SAME", NULL, 0,
                                                 out, &error) == 0)
    printShape("out_backprop shape", 0, CONVGEN_DTYPE_F32, out, 4);
  else
    printError("out_backprop shape", error);
  // CHECK-NEXT: out_backprop shape 0: f32 [2, 5, 5, 16]

  int64_t op2[] = {2};
  int64_t s2b[] = {2};
  if (convgen_transpose_output_shape("channels_last", input, 3, kernel, 3,
                                     s2b, 1, NULL, 0, "valid", op2, 1, out,
                                     &error))
    printError("bad output_padding", error);
  // CHECK-NEXT: bad output_padding: {{.*}}output_padding
}

static void testErrors(void) {
  char *error = NULL;
  int64_t input[] = {1, 4, 4, 3}, kernel[] = {3, 3, 5, 3}, s[] = {2, 2},
          op[] = {2, 0};
  convgen_kernel *k = convgen_compile_transpose(
      "f32", "channels_last", input, 4, kernel, 4, s, 2, NULL, 0, "valid", op,
      2, 0, &error);
  printf("invalid transpose: %s\n", k ? "compiled" : "NULL");
  printError("message", error);
  // CHECK-NEXT: invalid transpose: NULL
  // CHECK-NEXT: message: 'conv.transpose' op {{.*}}output_padding

  int64_t x5[] = {1, 4, 4, 4, 3}, f5[] = {1, 1, 1, 3, 2}, s3[] = {1, 1, 1};
  k = convgen_compile_backprop_filter("f32", "NHWC", x5, 5, f5, 5, NULL, 0,
                                      s3, 3, NULL, 0, "VALID", NULL, 0, 0,
                                      &error);
  printError("rank", error);
  // CHECK-NEXT: rank: 'conv.backprop_filter' op attribute 'data_format' NHWC requires rank-4 operands, but operand 'input' has rank 5

  k = convgen_compile_backprop_filter("int8", "NHWC", x5, 4, f5, 4, NULL, 0,
                                      s3, 2, NULL, 0, "VALID", NULL, 0, 0,
                                      &error);
  printError("dtype", error);
  // CHECK-NEXT: dtype: unsupported dtype 'int8' (expected f16, bf16, f32 or f64)
  k = convgen_compile_backprop_filter("f32", "NHWC", x5, 4, f5, 4, NULL, 0,
                                      s3, 2, NULL, 0, "same", NULL, 0, 0,
                                      &error);
  printError("padding", error);
  // CHECK-NEXT: padding: padding 'same' is not one of SAME, VALID, EXPLICIT
  k = convgen_compile_backprop_filter("f32", "NHWC", x5, 4, f5, 4, NULL, 0,
                                      NULL, 2, NULL, 0, "SAME", NULL, 0, 0,
                                      NULL);
  printf("NULL error pointer: %s\n", k ? "compiled" : "NULL");
  // CHECK-NEXT: NULL error pointer: NULL

  k = convgen_compile_module("func.func @f(", "f", 0, &error);
  printError("parse", error);
  // CHECK-NEXT: parse: module:1:{{[0-9]+}}: error:
}

static void testModule(void) {
  const char *text =
      "func.func @twice(%x: tensor<2x3xf32>) -> (tensor<2x3xf32>, "
      "tensor<3xf32>) {\n"
      "  %e = tensor.empty() : tensor<2x3xf32>\n"
      "  %y = linalg.add ins(%x, %x : tensor<2x3xf32>, tensor<2x3xf32>)\n"
      "                  outs(%e : tensor<2x3xf32>) -> tensor<2x3xf32>\n"
      "  %c = arith.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>\n"
      "  return %y, %c : tensor<2x3xf32>, tensor<3xf32>\n"
      "}\n";
  char *error = NULL;
  convgen_kernel *k = convgen_compile_module(text, "twice", 0, &error);
  if (!k) {
    printError("module", error);
    return;
  }
  describe(k);
  // CHECK-NEXT: input 0: f32 [2, 3]
  // CHECK-NEXT: output 0: f32 [2, 3]
  // CHECK-NEXT: output 1: f32 [3]
  float x[] = {1, 2, 3, 4, 5, 6}, y[6], c[3];
  void *buffers[] = {x, y, c};
  if (convgen_kernel_run(k, buffers, 3, &error))
    printError("run", error);
  double v[9];
  for (int i = 0; i < 6; ++i)
    v[i] = y[i];
  for (int i = 0; i < 3; ++i)
    v[6 + i] = c[i];
  printValues("module", v, 9);
  // CHECK-NEXT: module: 2 4 6 8 10 12 1 2 3
  printf("flops: %g\n", convgen_kernel_flops(k));
  // CHECK-NEXT: flops: 0
  if (convgen_kernel_run_reference(k, buffers, 3, &error))
    printError("reference", error);
  // CHECK-NEXT: reference: the kernel is not a single conv op: no reference
  printf("out of range: %zu %p %d\n", convgen_kernel_input_rank(k, 7),
         (const void *)convgen_kernel_output_shape(k, 2),
         (int)convgen_kernel_input_dtype(k, 1));
  // CHECK-NEXT: out of range: 0 (nil) -1
  convgen_kernel_release(k);
  convgen_kernel_release(NULL);
  convgen_clear_cache();
  printf("cache size after clear: %zu\n", convgen_cache_size());
  // CHECK-NEXT: cache size after clear: 0
}

int main(void) {
  testBackpropFilter();
  testTranspose();
  testShapes();
  testErrors();
  testModule();
  printf("done\n");
  // CHECK-NEXT: done
  return 0;
}
