/* The C API of ConvGen (include/conv-c/ConvGen.h, libConvGenC.so): compile
   kernels from the TF / Keras arguments, query their shapes, run them, and
   read errors as strings. Link against libConvGenC.so. */

#include "conv-c/ConvGen.h"

#include <stdio.h>
#include <stdlib.h>

int main(void) {
  /* tf.nn.conv2d_backprop_filter(x, [2, 2, 1, 1], dy, [1, 2, 2, 1], "SAME");
     strides have one entry per spatial dimension; NULL out_backprop shape
     and dilations mean "implied" and "all 1". */
  int64_t input_shape[] = {1, 2, 3, 1}, filter_sizes[] = {2, 2, 1, 1};
  int64_t strides[] = {2, 2};
  char *error = NULL;
  convgen_kernel *k = convgen_compile_backprop_filter(
      "f32", "NHWC", input_shape, 4, filter_sizes, 4, NULL, 0, strides, 2,
      NULL, 0, "SAME", NULL, 0, 0, &error);
  if (!k) {
    fprintf(stderr, "compile failed: %s\n", error);
    convgen_free_string(error);
    return 1;
  }
  const int64_t *dy_shape = convgen_kernel_input_shape(k, 1);
  printf("out_backprop shape: [%lld, %lld, %lld, %lld]\n",
         (long long)dy_shape[0], (long long)dy_shape[1], (long long)dy_shape[2],
         (long long)dy_shape[3]);

  float x[] = {1, 2, 3, 4, 5, 6}, dy[] = {1, 2}, dw[4];
  void *buffers[] = {x, dy, dw}; /* inputs, then outputs */
  if (convgen_kernel_run(k, buffers, 3, &error)) {
    fprintf(stderr, "run failed: %s\n", error);
    convgen_free_string(error);
    return 1;
  }
  printf("dw: %g %g %g %g\n", dw[0], dw[1], dw[2], dw[3]);
  convgen_kernel_release(k);

  /* keras.ops.conv_transpose(x, k, strides=2, padding="valid",
     output_padding=1) on [1, 2, 3] and the kernel [1, 10, 100], in f64.
     output_padding NULL would mean None. */
  int64_t t_input[] = {1, 3, 1}, t_kernel[] = {3, 1, 1}, t_strides[] = {2};
  int64_t output_padding[] = {1};
  convgen_kernel *t = convgen_compile_transpose(
      "f64", "channels_last", t_input, 3, t_kernel, 3, t_strides, 1, NULL, 0,
      "valid", output_padding, 1, 0, &error);
  if (!t) {
    fprintf(stderr, "compile failed: %s\n", error);
    convgen_free_string(error);
    return 1;
  }
  size_t n = convgen_kernel_output_byte_size(t, 0) / sizeof(double);
  double tx[] = {1, 2, 3}, tk[] = {1, 10, 100};
  double *y = malloc(n * sizeof(double));
  void *t_buffers[] = {tx, tk, y};
  if (convgen_kernel_run(t, t_buffers, 3, &error)) {
    fprintf(stderr, "run failed: %s\n", error);
    convgen_free_string(error);
    return 1;
  }
  printf("y:");
  for (size_t i = 0; i < n; ++i)
    printf(" %g", y[i]);
  printf("\n");
  free(y);
  convgen_kernel_release(t);

  /* Errors come back as strings (the verifier's message), never aborts. */
  int64_t bad_padding[] = {2};
  t = convgen_compile_transpose("f64", "channels_last", t_input, 3, t_kernel,
                                3, t_strides, 1, NULL, 0, "valid", bad_padding,
                                1, 0, &error);
  if (!t) {
    printf("error: %s\n", error);
    convgen_free_string(error);
  }
  return 0;
}
