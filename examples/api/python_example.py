"""The Python API of ConvGen: the `convgen` package (python/), NumPy arrays
in and out. Run with PYTHONPATH=python (and CONVGEN_LIBRARY=<path of
libConvGenC.so> when the build is not in build/)."""

import numpy as np

import convgen

# tf.compat.v1.nn.conv2d_backprop_filter, same signature: NHWC input
# 1..6, out_backprop [1, 2], a 2x2 filter, stride 2, SAME.
x = np.arange(1, 7, dtype=np.float32).reshape(1, 2, 3, 1)
dy = np.array([1, 2], dtype=np.float32).reshape(1, 1, 2, 1)
dw = convgen.conv2d_backprop_filter(x, [2, 2, 1, 1], dy, [1, 2, 2, 1], "SAME")
print("dw:", dw.ravel(), dw.dtype)

# The N-D version: 1-D, channels first, 2 groups, explicit padding.
x1 = np.ones((1, 4, 5), dtype=np.float64)  # NCW, 4 input channels
dy1 = np.ones((1, 2, 3), dtype=np.float64)  # 2 output channels, width 3
dw1 = convgen.backprop_filter(x1, [3, 2, 2], dy1, strides=[2], padding=[(1, 1)],
                              data_format="NCW", dilations=[1])
print("grouped 1-D dw:", dw1.shape, dw1[:, 0, 0])

# keras.ops.conv_transpose: output_padding=None and 0 differ.
xt = np.array([1, 2, 3], dtype=np.float32).reshape(1, 3, 1)
k = np.array([1, 10, 100], dtype=np.float32).reshape(3, 1, 1)
for output_padding in (None, 0):
    y = convgen.conv_transpose(xt, k, strides=2, padding="same",
                               output_padding=output_padding)
    print(f"output_padding={output_padding}:", y.ravel())

# Invalid arguments raise ValueError with TF's, Keras' or the verifier's
# message.
try:
    convgen.conv_transpose(xt, k, strides=2, output_padding=2)
except ValueError as e:
    print("ValueError:", e)
