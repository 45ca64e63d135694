"""ConvGen must work in a process that imported TensorFlow first (as any
Keras/TF user's process does). Checked in child processes: convgen._capi loads
libConvGenC.so with RTLD_DEEPBIND (docs/Parity.md §4.1)."""

import os
import subprocess
import sys

import pytest

CHILD = r"""
import numpy as np
import tensorflow as tf
tf.constant(1.0)
import convgen
x = np.ones((1, 4, 4, 2), np.float32)
dy = np.ones((1, 3, 3, 3), np.float32)
dw = convgen.conv2d_backprop_filter(x, [2, 2, 2, 3], dy, [1, 1, 1, 1], "VALID")
want = tf.compat.v1.nn.conv2d_backprop_filter(x, [2, 2, 2, 3], dy, [1, 1, 1, 1], "VALID")
assert np.array_equal(dw, want.numpy())
y = convgen.conv_transpose(np.ones((1, 3, 3, 2), np.float32),
                           np.ones((3, 3, 4, 2), np.float32), 2, "same")
assert y.shape == (1, 6, 6, 4)
print("ok")
"""


def test_tensorflow_imported_before_convgen():
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3")
    proc = subprocess.run([sys.executable, "-c", CHILD], env=env, capture_output=True,
                          text=True, timeout=600)
    assert proc.returncode == 0 and "ok" in proc.stdout, (
        f"rc {proc.returncode}: {proc.stderr.strip().splitlines()[-3:]}")


def test_convgen_imported_before_tensorflow():
    """The other order works too."""
    child = CHILD.replace("import tensorflow as tf\ntf.constant(1.0)\nimport convgen",
                          "import convgen\nimport tensorflow as tf")
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3")
    proc = subprocess.run([sys.executable, "-c", child], env=env, capture_output=True,
                          text=True, timeout=600)
    assert proc.returncode == 0 and "ok" in proc.stdout, (
        f"rc {proc.returncode}: {proc.stderr.strip().splitlines()[-3:]}")
