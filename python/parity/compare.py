"""Error bounds, comparisons and the result log of the parity suite.

Every comparison is element-wise against a bound derived from the dtype
and the magnitude of the sum (the same product sum on |x| and |y| in
float64, "scale"):

    bound(dtype, acc) = 2 * (u_dtype * |exact| + (K + 2) * u_acc * scale) + tiny

with K the number of products per output element, u_dtype the unit
roundoff of the element type and u_acc that of the accumulator. ConvGen
accumulates f16/bf16 in f32 (docs/Semantics.md §1.5). TF's CPU kernels
and XLA are allowed to accumulate f16/bf16 in the element type (spec
§1.5: TF's half/bf16 CPU contraction has no explicit cast to float), so
their bound uses u_acc = u_dtype for 16-bit types. Two results agree when
|a - b| <= bound_a + bound_b.

The reported error is the normalized max |a - b| / (scale + tiny).
"""

from __future__ import annotations

import json
import os
import threading
from typing import Dict, List

import numpy as np

UNIT_ROUNDOFF = {"float16": 2.0**-11, "bfloat16": 2.0**-8,
                 "float32": 2.0**-24, "float64": 2.0**-53}
CONVGEN_ACC = {"float16": 2.0**-24, "bfloat16": 2.0**-24,
               "float32": 2.0**-24, "float64": 2.0**-53}
ORACLE_ACC = {"float16": 2.0**-11, "bfloat16": 2.0**-8,
              "float32": 2.0**-24, "float64": 2.0**-53}
TINY = {"float16": 2.0**-24, "bfloat16": 2.0**-133,
        "float32": 2.0**-149, "float64": 5e-324}


def bound(dtype: str, exact: np.ndarray, scale: np.ndarray, terms: int,
          acc: Dict[str, float]) -> np.ndarray:
    return 2 * (UNIT_ROUNDOFF[dtype] * np.abs(exact)
                + (terms + 2) * acc[dtype] * scale) + TINY[dtype]


def normalized_error(a, b, scale) -> float:
    a = np.asarray(a, np.float64)
    b = np.asarray(b, np.float64)
    if a.size == 0:
        return 0.0
    return float(np.max(np.abs(a - b) / (scale + 1e-300)))


def check_close(what: str, got, ref, exact, scale, terms: int, dtype: str,
                got_acc, ref_acc) -> float:
    """Asserts |got - ref| <= bound(got) + bound(ref); returns the
    normalized error. `exact` is the float64 result on the same operands;
    ref_acc None means `ref` is that float64 result."""
    got64 = np.asarray(got).astype(np.float64)
    ref64 = np.asarray(ref).astype(np.float64)
    assert got64.shape == ref64.shape, f"{what}: shape {got64.shape} != {ref64.shape}"
    if got64.size == 0:
        return 0.0
    assert np.isfinite(got64).all(), f"{what}: non-finite values"
    tol = bound(dtype, exact, scale, terms, got_acc)
    if ref_acc is not None:  # None: `ref` is the float64 result itself
        tol = tol + bound(dtype, exact, scale, terms, ref_acc)
    diff = np.abs(got64 - ref64)
    bad = diff > tol
    if bad.any():
        i = tuple(np.argwhere(bad)[0])
        raise AssertionError(
            f"{what} ({dtype}): {int(bad.sum())} of {bad.size} elements differ; first at "
            f"{i}: {got64[i]!r} vs {ref64[i]!r} (|diff| {diff[i]:.3g} > bound {tol[i]:.3g}, "
            f"exact {exact[i]!r}, scale {scale[i]:.3g})")
    return normalized_error(got64, ref64, scale)


# --------------------------------------------------------------------------
# Result log (one JSON file per pytest process, merged by summarize.py)
# --------------------------------------------------------------------------

_lock = threading.Lock()
RESULTS: List[Dict] = []


def record(**entry) -> None:
    with _lock:
        RESULTS.append(entry)


def dump(path: str, meta: Dict) -> None:
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    with open(path, "w") as f:
        json.dump({"meta": meta, "results": RESULTS}, f, indent=0)


#: Open ConvGen bugs found by this suite (docs/Parity.md §4.1), as
#: {text of the error: description}: a case whose ConvGen call raises such
#: an error is an expected failure (xfail), counted in the summary, until the
#: bug is fixed. Empty: the one compile failure found ("could not convert to
#: LLVM IR", 0-d vector transfers of 3-D 1-channel filter gradients) was
#: fixed in de221dd.
KNOWN_CONVGEN_BUGS = {}


def convgen_or_xfail(fn, case, *args):
    import pytest
    try:
        return fn(case, *args)
    except Exception as e:  # noqa: BLE001
        for text, why in KNOWN_CONVGEN_BUGS.items():
            if text in str(e):
                record(op=case["op"], kind="convgen-bug", case=case["name"],
                       dtype=case["dtype"], message=str(e), known=why)
                pytest.xfail(why)
        raise
