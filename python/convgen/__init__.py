"""convgen: ConvGen's backward convolutions for NumPy arrays.

* `conv2d_backprop_filter`: `tf.compat.v1.nn.conv2d_backprop_filter`.
* `backprop_filter`: its N-D (1-D/2-D/3-D, grouped) generalization.
* `conv_transpose`: `keras.ops.conv_transpose`.

Each call compiles (once per configuration, cached) a kernel for the host
CPU through ConvGen's C API, libConvGenC.so: the one at the path in
`$CONVGEN_LIBRARY`, else the one installed inside this package
(`pip install ./python`), else `<repository>/build/lib/` (the source tree
on `PYTHONPATH`); `library_path` says which was loaded. Arrays of
float16, bfloat16 (`ml_dtypes.bfloat16`), float32 and float64 go in and come
out. Invalid arguments raise ValueError with TF's / Keras' / the ConvGen
verifier's message; the process never aborts.
"""

from ._capi import CApiError, library_path
from ._ops import (
    ConvGenTypeError,
    backprop_filter,
    backprop_filter_out_backprop_shape,
    cache_info,
    clear_cache,
    conv2d_backprop_filter,
    conv_transpose,
    conv_transpose_output_shape,
    convert_padding,
    reference_backprop_filter,
    reference_conv_transpose,
)

__version__ = "0.1.0"

__all__ = [
    "CApiError",
    "ConvGenTypeError",
    "__version__",
    "backprop_filter",
    "backprop_filter_out_backprop_shape",
    "cache_info",
    "clear_cache",
    "conv2d_backprop_filter",
    "conv_transpose",
    "conv_transpose_output_shape",
    "convert_padding",
    "library_path",
    "reference_backprop_filter",
    "reference_conv_transpose",
]
