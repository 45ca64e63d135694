"""pytest configuration: makes `import convgen` work without PYTHONPATH
(the package is in python/, next to this folder). The library comes from
$CONVGEN_LIBRARY or <repository>/build/lib/libConvGenC.so."""

import os
import sys

import pytest

PYTHON_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REPO_ROOT = os.path.dirname(PYTHON_DIR)
if PYTHON_DIR not in sys.path:
    sys.path.insert(0, PYTHON_DIR)

# The kernels run on OpenMP threads. The tests run hundreds of tiny kernels,
# and after each one libomp's idle workers would spin (200 ms by default)
# and steal the CPU from the next compile; let them sleep at once.
os.environ.setdefault("KMP_BLOCKTIME", "0")

import npref  # noqa: E402


@pytest.fixture(params=npref.DTYPES, ids=lambda d: d.name)
def dtype(request):
    return request.param
