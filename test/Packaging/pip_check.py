"""Run by pip-install.sh with the temporary venv's Python, from outside the
source tree (no PYTHONPATH, no CONVGEN_LIBRARY): the installed `convgen`
loads the libConvGenC.so inside its own package directory and computes real
values, multi-threaded (libomp), equal to a NumPy reference."""

import os
import sys

import numpy as np

import convgen

pkg_dir = os.path.dirname(os.path.abspath(convgen.__file__))
assert pkg_dir.startswith(sys.prefix + os.sep), (pkg_dir, sys.prefix)
assert convgen.library_path == os.path.join(pkg_dir, "libConvGenC.so"), \
    convgen.library_path

rng = np.random.default_rng(0)

# tf.compat.v1.nn.conv2d_backprop_filter, NHWC, stride 2, SAME, 2 groups.
x = rng.standard_normal((2, 7, 6, 4)).astype(np.float32)
strides, (kh, kw, cf, cout) = 2, (3, 2, 2, 6)
oh, ow = -(-7 // strides), -(-6 // strides)  # SAME: ceil(in / stride)
dy = rng.standard_normal((2, oh, ow, cout)).astype(np.float32)
dw = convgen.conv2d_backprop_filter(x, [kh, kw, cf, cout], dy,
                                    [1, strides, strides, 1], "SAME")
# SAME pads (TF): total = max((out - 1) * s + k - in, 0), before = total // 2.
pad_h = max((oh - 1) * strides + kh - 7, 0) // 2
pad_w = max((ow - 1) * strides + kw - 6, 0) // 2
xp = np.zeros((2, 7 + 2 * kh, 6 + 2 * kw, 4), np.float64)
xp[:, pad_h:pad_h + 7, pad_w:pad_w + 6, :] = x
ref = np.zeros((kh, kw, cf, cout))
groups, per_group = 4 // cf, cout // (4 // cf)
for i in range(kh):
    for j in range(kw):
        window = xp[:, i:i + strides * oh:strides, j:j + strides * ow:strides, :]
        for co in range(cout):
            g = co // per_group
            ref[i, j, :, co] = np.einsum(
                "bhwc,bhw->c", window[..., g * cf:(g + 1) * cf], dy[..., co])
assert dw.shape == (kh, kw, cf, cout) and dw.dtype == np.float32
np.testing.assert_allclose(dw, ref, rtol=1e-4, atol=1e-4)

# keras.ops.conv_transpose, 1-D, stride 2, "valid", f64: out[i*s + m] += x[i] k[m].
xi = rng.standard_normal((1, 5, 3))
k = rng.standard_normal((3, 2, 3))  # (width, out_channels, in_channels)
y = convgen.conv_transpose(xi, k, strides=2, padding="valid")
ref_t = np.zeros((1, (5 - 1) * 2 + 3, 2))
for i in range(5):
    for m in range(3):
        ref_t[0, i * 2 + m] += k[m] @ xi[0, i]
np.testing.assert_allclose(y, ref_t, rtol=1e-12, atol=1e-12)

# Those two kernels are tiny (under the JIT's minParallelFlops: sequential
# code). A 67 MFLOP 1x1 filter gradient, dW[c, k] = sum x[..., c] dy[..., k],
# is multi-threaded by default: the JIT loads libomp from CONV_LIBOMP_PATH.
xb = rng.standard_normal((8, 32, 32, 64)).astype(np.float32)
dyb = rng.standard_normal((8, 32, 32, 64)).astype(np.float32)
dwb = convgen.conv2d_backprop_filter(xb, [1, 1, 64, 64], dyb, [1, 1, 1, 1],
                                     "VALID")
ref_b = np.einsum("bhwc,bhwk->ck", xb.astype(np.float64),
                  dyb.astype(np.float64))
assert dwb.shape == (1, 1, 64, 64) and dwb.dtype == np.float32
np.testing.assert_allclose(dwb[0, 0], ref_b, rtol=1e-4, atol=1e-2)
with open("/proc/self/maps", encoding="utf-8") as f:
    maps = f.read()
assert "libomp" in maps, "libomp was not loaded by the JIT"

print(f"convgen {convgen.__version__} from {pkg_dir}: OK")
