/* Consumer of the installed C API (libConvGenC.so): a 1-D transposed
   convolution, checked against out[i*s + m][o] += sum_c x[i][c] * k[m][o][c]. */
#include "conv-c/ConvGen.h"

#include <stdio.h>

int main(void) {
  int64_t input_shape[] = {1, 4, 2}, kernel_shape[] = {3, 2, 2}, strides[] = {2};
  char *error = NULL;
  convgen_kernel *k = convgen_compile_transpose(
      "f64", "channels_last", input_shape, 3, kernel_shape, 3, strides, 1, NULL,
      0, "valid", NULL, 0, 0, &error);
  if (!k) {
    fprintf(stderr, "compile failed: %s\n", error);
    convgen_free_string(error);
    return 1;
  }
  enum { N = 4, C = 2, K = 3, O = 2, S = 2, OUT = (N - 1) * S + K };
  double x[N * C], w[K * O * C], y[OUT * O], want[OUT * O] = {0};
  for (int i = 0; i < N * C; ++i)
    x[i] = i + 1;
  for (int i = 0; i < K * O * C; ++i)
    w[i] = (i % 5) - 2;
  for (int i = 0; i < N; ++i)
    for (int m = 0; m < K; ++m)
      for (int o = 0; o < O; ++o)
        for (int c = 0; c < C; ++c)
          want[(i * S + m) * O + o] += x[i * C + c] * w[(m * O + o) * C + c];
  if (convgen_kernel_output_byte_size(k, 0) != sizeof(y)) {
    fprintf(stderr, "unexpected output size\n");
    return 1;
  }
  void *buffers[] = {x, w, y};
  if (convgen_kernel_run(k, buffers, 3, &error)) {
    fprintf(stderr, "run failed: %s\n", error);
    convgen_free_string(error);
    return 1;
  }
  for (int i = 0; i < OUT * O; ++i)
    if (y[i] != want[i]) {
      fprintf(stderr, "y[%d] = %g, expected %g\n", i, y[i], want[i]);
      return 1;
    }
  convgen_kernel_release(k);
  printf("consumer-c: %d transposed-convolution values match the naive loop\n",
         OUT * O);
  return 0;
}
