"""ctypes bindings of libConvGenC.so (include/conv-c/ConvGen.h).

Only this module talks to the C library. It loads it once (from
$CONVGEN_LIBRARY, else the copy installed inside the package, else
<repository>/build/lib; see `default_library_path`), declares the
prototypes, and turns the C API's `char **error` convention into Python
exceptions (`CApiError`, a ValueError carrying the library's message).
"""

from __future__ import annotations

import ctypes
import os
from typing import Any, Optional, Sequence, Tuple

__all__ = [
    "CApiError",
    "LIBRARY_ENV_VAR",
    "LIBRARY_NAME",
    "default_library_path",
    "lib",
    "library_path",
    "packaged_library_path",
]

#: Environment variable with the full path of libConvGenC.so; it overrides
#: the default location.
LIBRARY_ENV_VAR = "CONVGEN_LIBRARY"


class CApiError(ValueError):
    """An error reported by the C API (its message, verbatim)."""


#: File name of the C library.
LIBRARY_NAME = "libConvGenC.so"


def packaged_library_path() -> str:
    """The library an installed package carries: libConvGenC.so in the
    package directory (`pip install ./python` puts it there)."""
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), LIBRARY_NAME)


def default_library_path() -> str:
    """The library loaded when $CONVGEN_LIBRARY is not set.

    Returns:
      `packaged_library_path()` when that file exists (an installed
      package), else `<repository>/build/lib/libConvGenC.so` relative to
      this source tree (`./scripts/build.sh`).
    """
    packaged = packaged_library_path()
    if os.path.isfile(packaged):
        return packaged
    here = os.path.dirname(os.path.abspath(__file__))
    return os.path.normpath(
        os.path.join(here, os.pardir, os.pardir, "build", "lib", LIBRARY_NAME))


# RTLD_DEEPBIND: libConvGenC.so and the libMLIR.so it links resolve their
# symbols in their own scope first. Without it, a process that loaded
# TensorFlow first (whose libtensorflow_framework.so exports thousands of
# unversioned `mlir::` symbols of its own MLIR copy) binds ConvGen's MLIR
# references to TF's copy and aborts in the first compile (docs/Parity.md
# §4.1). RTLD_LOCAL keeps ConvGen's symbols out of the global scope in turn.
_LOAD_MODE = (getattr(os, "RTLD_DEEPBIND", 0) | getattr(os, "RTLD_LOCAL", 0)
              | getattr(os, "RTLD_NOW", 0))


def _load() -> Tuple[ctypes.CDLL, str]:
    path = os.environ.get(LIBRARY_ENV_VAR) or default_library_path()
    try:
        return ctypes.CDLL(path, mode=_LOAD_MODE), path
    except OSError as e:
        how = (f"${LIBRARY_ENV_VAR}" if os.environ.get(LIBRARY_ENV_VAR)
               else f"the default location (set ${LIBRARY_ENV_VAR} to the "
               "full path of libConvGenC.so to use another build)")
        raise ImportError(
            f"convgen: cannot load the ConvGen C library {path!r} from {how}: "
            f"{e}. Build it with ./scripts/build.sh (target ConvGenC), or "
            "install the package with its library: pip install ./python.") from e


lib, library_path = _load()

_i64p = ctypes.POINTER(ctypes.c_int64)
_size = ctypes.c_size_t
_kernel = ctypes.c_void_p
_errp = ctypes.POINTER(ctypes.c_void_p)  # char ** (freed with convgen_free_string)


def _proto(name: str, restype: Any, *argtypes: Any) -> Any:
    fn = getattr(lib, name)
    fn.restype = restype
    fn.argtypes = list(argtypes)
    return fn


free_string = _proto("convgen_free_string", None, ctypes.c_void_p)
dtype_name = _proto("convgen_dtype_name", ctypes.c_char_p, ctypes.c_int)
compile_backprop_filter = _proto(
    "convgen_compile_backprop_filter", _kernel,
    ctypes.c_char_p, ctypes.c_char_p,     # dtype, data_format
    _i64p, _size,                         # input_shape
    _i64p, _size,                         # filter_sizes
    _i64p, _size,                         # out_backprop_shape
    _i64p, _size,                         # strides
    _i64p, _size,                         # dilations
    ctypes.c_char_p,                      # padding
    _i64p, _size,                         # explicit_paddings
    ctypes.c_uint32, _errp)
compile_transpose = _proto(
    "convgen_compile_transpose", _kernel,
    ctypes.c_char_p, ctypes.c_char_p,     # dtype, data_format
    _i64p, _size,                         # input_shape
    _i64p, _size,                         # kernel_shape
    _i64p, _size,                         # strides
    _i64p, _size,                         # dilation_rate
    ctypes.c_char_p,                      # padding
    _i64p, _size,                         # output_padding (NULL: None)
    ctypes.c_uint32, _errp)
kernel_release = _proto("convgen_kernel_release", None, _kernel)
kernel_num_inputs = _proto("convgen_kernel_num_inputs", _size, _kernel)
kernel_num_outputs = _proto("convgen_kernel_num_outputs", _size, _kernel)
kernel_input_rank = _proto("convgen_kernel_input_rank", _size, _kernel, _size)
kernel_input_shape = _proto("convgen_kernel_input_shape", _i64p, _kernel, _size)
kernel_input_dtype = _proto("convgen_kernel_input_dtype", ctypes.c_int, _kernel, _size)
kernel_output_rank = _proto("convgen_kernel_output_rank", _size, _kernel, _size)
kernel_output_shape = _proto("convgen_kernel_output_shape", _i64p, _kernel, _size)
kernel_output_dtype = _proto("convgen_kernel_output_dtype", ctypes.c_int, _kernel, _size)
kernel_run = _proto("convgen_kernel_run", ctypes.c_int,
                    _kernel, ctypes.POINTER(ctypes.c_void_p), _size, _errp)
kernel_run_reference = _proto("convgen_kernel_run_reference", ctypes.c_int,
                              _kernel, ctypes.POINTER(ctypes.c_void_p), _size, _errp)
kernel_flops = _proto("convgen_kernel_flops", ctypes.c_double, _kernel)
backprop_filter_out_backprop_shape = _proto(
    "convgen_backprop_filter_out_backprop_shape", ctypes.c_int,
    ctypes.c_char_p, _i64p, _size, _i64p, _size, _i64p, _size, _i64p, _size,
    ctypes.c_char_p, _i64p, _size, _i64p, _errp)
transpose_output_shape = _proto(
    "convgen_transpose_output_shape", ctypes.c_int,
    ctypes.c_char_p, _i64p, _size, _i64p, _size, _i64p, _size, _i64p, _size,
    ctypes.c_char_p, _i64p, _size, _i64p, _errp)
cache_size = _proto("convgen_cache_size", _size)
num_compiles = _proto("convgen_num_compiles", _size)
clear_cache = _proto("convgen_clear_cache", None)


# --------------------------------------------------------------------------
# Helpers
# --------------------------------------------------------------------------

def int64_array(
    values: Optional[Sequence[int]],
) -> Tuple[Optional["ctypes.Array[ctypes.c_int64]"], int]:
    """(pointer, count) for an int64 list; (None, 0) for None."""
    if values is None:
        return None, 0
    values = list(values)
    return (ctypes.c_int64 * len(values))(*values), len(values)


class ErrorSlot:
    """A `char *` the C API may fill with a message (freed on read)."""

    def __init__(self) -> None:
        self.ptr = ctypes.c_void_p()

    @property
    def ref(self) -> Any:
        """The `char **` to pass as the C function's `error` argument."""
        return ctypes.byref(self.ptr)

    def take(self, fallback: str) -> str:
        """The message (and frees it), or `fallback` when none was set."""
        if not self.ptr.value:
            return fallback
        try:
            return ctypes.string_at(self.ptr.value).decode("utf-8", "replace")
        finally:
            free_string(self.ptr)
            self.ptr = ctypes.c_void_p()


def encode(s: str) -> bytes:
    """A str argument as the C API's UTF-8 `const char *`."""
    return s.encode("utf-8")


def shape_of(ptr: Any, rank: int) -> Tuple[int, ...]:
    """The first `rank` entries of an `int64_t *` as a tuple."""
    return tuple(int(ptr[i]) for i in range(rank))
