"""Package plumbing: import, library lookup, caches, array handling,
helpers, threads."""

import os
import subprocess
import sys
import threading

import numpy as np
import pytest

import convgen
import npref
from conftest import PYTHON_DIR, REPO_ROOT


def run_python(code, **env):
    environment = dict(os.environ, PYTHONPATH=PYTHON_DIR)
    environment.update(env)
    return subprocess.run([sys.executable, "-c", code], env=environment, capture_output=True,
                          text=True, timeout=120)


def test_version_and_exports():
    assert isinstance(convgen.__version__, str) and convgen.__version__.count(".") == 2
    for name in convgen.__all__:
        assert hasattr(convgen, name), name
    assert convgen.conv2d_backprop_filter.__doc__
    assert convgen.conv_transpose.__doc__


def test_default_library_location():
    from convgen import _capi
    assert _capi.default_library_path() == os.path.join(REPO_ROOT, "build", "lib",
                                                        "libConvGenC.so")
    if os.environ.get("CONVGEN_LIBRARY"):
        assert convgen.library_path == os.environ["CONVGEN_LIBRARY"]


def test_library_override_and_import_error():
    bad = run_python("import convgen", CONVGEN_LIBRARY="/nonexistent/libConvGenC.so")
    assert bad.returncode != 0
    assert "ImportError" in bad.stderr and "/nonexistent/libConvGenC.so" in bad.stderr
    assert "CONVGEN_LIBRARY" in bad.stderr
    good = run_python("import convgen; print(convgen.library_path)",
                      CONVGEN_LIBRARY=convgen.library_path)
    assert good.returncode == 0, good.stderr
    assert good.stdout.strip() == convgen.library_path


def test_errors_and_exit_in_a_fresh_process():
    # Errors raise (no abort); handles are released at exit without a crash.
    code = """
import numpy as np, convgen
x = np.ones((1, 3, 3, 1), np.float32)
try:
    convgen.conv2d_backprop_filter(x, [2, 2, 1, 1], np.ones((1, 9, 9, 1), np.float32),
                                   [1, 1, 1, 1], "VALID")
except ValueError as e:
    print("ValueError:", e)
print(convgen.conv2d_backprop_filter(x, [2, 2, 1, 1], np.ones((1, 2, 2, 1), np.float32),
                                    [1, 1, 1, 1], "VALID").ravel())
"""
    result = run_python(code, CONVGEN_LIBRARY=convgen.library_path)
    assert result.returncode == 0, result.stderr
    assert "ValueError: 'conv.backprop_filter' op operand 'out_backprop'" in result.stdout
    assert "[4. 4. 4. 4.]" in result.stdout


def test_python_and_c_caches():
    x = np.random.default_rng(0).standard_normal((1, 5, 2))
    k = np.ones((3, 4, 2))
    first = convgen.conv_transpose(x, k, 3, "same", 1)
    before = convgen.cache_info()
    again = convgen.conv_transpose(x.copy(), k, (3,), "SAME", [1])
    after = convgen.cache_info()
    np.testing.assert_array_equal(first, again)
    assert after["python_hits"] == before["python_hits"] + 1
    assert after["c_compiles"] == before["c_compiles"]
    assert after["python_entries"] >= 1 and after["c_entries"] >= 1
    # None and 0 are different kernels.
    convgen.conv_transpose(x, k, 3, "same", None)
    assert convgen.cache_info()["c_compiles"] == after["c_compiles"] + 1


def test_results_are_cache_line_aligned():
    # Results start on a 64-byte boundary (NumPy's allocations are 16-byte
    # aligned; the kernels' vector accesses would straddle cache lines), and
    # are ordinary writable C-contiguous arrays of the right shape and dtype.
    rng = np.random.default_rng(2)
    for dtype in (np.float32, np.float64):
        x = rng.standard_normal((2, 5, 5, 3)).astype(dtype)
        k = rng.standard_normal((3, 3, 4, 3)).astype(dtype)
        y = convgen.conv_transpose(x, k, 2, "same")
        assert y.ctypes.data % 64 == 0
        assert y.shape == (2, 10, 10, 4) and y.dtype == dtype
        assert y.flags.c_contiguous and y.flags.writeable
        np.testing.assert_allclose(
            y, npref.conv_transpose(x, k, (2, 2), (1, 1), "same", None),
            rtol=1e-4, atol=1e-4)
        dw = convgen.conv2d_backprop_filter(x, [3, 3, 3, 4],
                                            rng.standard_normal((2, 5, 5, 4)).astype(dtype),
                                            [1, 1, 1, 1], "SAME")
        assert dw.ctypes.data % 64 == 0 and dw.shape == (3, 3, 3, 4)


def test_clear_cache():
    x = np.ones((1, 2, 1), np.float32)
    convgen.conv_transpose(x, np.ones((1, 1, 1), np.float32), 1)
    convgen.clear_cache()
    info = convgen.cache_info()
    assert info["python_entries"] == 0 and info["c_entries"] == 0
    compiles = info["c_compiles"]
    convgen.conv_transpose(x, np.ones((1, 1, 1), np.float32), 1)
    assert convgen.cache_info()["c_compiles"] == compiles + 1


def test_non_contiguous_and_byte_swapped_inputs():
    rng = np.random.default_rng(1)
    x = rng.standard_normal((2, 6, 7, 3))
    k = rng.standard_normal((3, 2, 4, 3))
    want = convgen.conv_transpose(x, k, 2, "same")
    x_strided = np.asfortranarray(x)
    assert not x_strided.flags.c_contiguous
    np.testing.assert_array_equal(convgen.conv_transpose(x_strided, k, 2, "same"), want)
    big = np.zeros((2, 12, 7, 3))
    big[:, ::2] = x
    np.testing.assert_array_equal(convgen.conv_transpose(big[:, ::2], k, 2, "same"), want)
    swapped = x.astype(">f8")
    np.testing.assert_array_equal(convgen.conv_transpose(swapped, k, 2, "same"), want)


def test_python_lists():
    # Lists take the other operand's dtype, or float32.
    got = convgen.conv_transpose([[[1.0], [2.0], [3.0]]], np.array([1, 10, 100.0]).reshape(3, 1, 1),
                                 2, "same")
    assert got.dtype == np.float64
    np.testing.assert_array_equal(got.ravel(), [1, 10, 102, 20, 203, 30])
    got = convgen.conv2d_backprop_filter([[[[1.0], [2.0], [3.0]], [[4.0], [5.0], [6.0]]]],
                                         np.array([2, 2, 1, 1]), [[[[1.0], [2.0]]]],
                                         (1, 2, 2, 1), "SAME")
    assert got.dtype == np.float32
    np.testing.assert_array_equal(got.ravel(), [7, 2, 16, 5])


def test_shape_helpers():
    assert convgen.backprop_filter_out_backprop_shape((2, 9, 9, 8), (3, 3, 8, 16), 2,
                                                      "SAME") == (2, 5, 5, 16)
    assert convgen.backprop_filter_out_backprop_shape(
        (2, 6, 11), (3, 2, 9), 2, "EXPLICIT", "NCW", 2, [(2, 1)]) == (2, 9, 5)
    assert convgen.backprop_filter_out_backprop_shape(
        (1, 7, 5, 1), (2, 2, 1, 1), [1, 2], [[0, 0], [1, 2], [0, 1], [0, 0]]) == (1, 9, 3, 1)
    # Spec §3.7: _get_output_shape_given_tf_padding(5, 3, 2, ...).
    for padding, op, length in (("valid", None, 11), ("same", None, 10), ("valid", 1, 12)):
        assert convgen.conv_transpose_output_shape((1, 5, 2), (3, 4, 2), 2, padding,
                                                   op) == (1, length, 4)
    assert convgen.conv_transpose_output_shape((2, 3, 8, 8), (2, 3, 6, 3), (2, 1),
                                               data_format="channels_first") == (2, 6, 16, 10)


def test_reference_helpers_match_kernels(dtype):
    rng = np.random.default_rng(2)
    x = rng.uniform(-1, 1, (2, 7, 6, 4)).astype(dtype)
    dy = rng.uniform(-1, 1, (2, 4, 3, 6)).astype(dtype)
    args = ([3, 2, 2, 6], dy, [2, 2], "SAME")
    got = convgen.backprop_filter(x, *args)
    ref = convgen.reference_backprop_filter(x, *args)
    assert ref.dtype == dtype
    exact = npref.backprop_filter(x, dy, [3, 2, 2, 6], [2, 2], [1, 1], [1, 0])
    mag = npref.backprop_filter(np.abs(x.astype(np.float64)), np.abs(dy.astype(np.float64)),
                                [3, 2, 2, 6], [2, 2], [1, 1], [1, 0])
    npref.assert_close(got, exact, mag, 24, dtype)
    npref.assert_close(ref, exact, mag, 24, dtype)


def test_bfloat16_values():
    if npref.BF16 is None:
        pytest.skip("ml_dtypes is not installed")
    x = np.array([1, 2, 3], npref.BF16).reshape(1, 3, 1)
    k = np.array([1, 10, 100], npref.BF16).reshape(3, 1, 1)
    got = convgen.conv_transpose(x, k, 2, "valid", 1)
    assert got.dtype == npref.BF16
    # 102, 203 and 300 round to bfloat16 (8 significant bits).
    np.testing.assert_array_equal(
        got.ravel().astype(np.float32),
        np.array([1, 10, 102, 20, 203, 30, 300, 0], np.float32).astype(npref.BF16)
        .astype(np.float32))


def test_threads():
    rng = np.random.default_rng(3)
    x = rng.standard_normal((2, 9, 9, 3)).astype(np.float32)
    k = rng.standard_normal((3, 3, 5, 3)).astype(np.float32)
    want = convgen.conv_transpose(x, k, 2, "same", 1)
    results, errors = [], []

    def work():
        try:
            for _ in range(5):
                results.append(convgen.conv_transpose(x, k, 2, "same", 1))
        except Exception as e:  # pragma: no cover
            errors.append(e)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors and len(results) == 20
    for r in results:
        np.testing.assert_array_equal(r, want)
