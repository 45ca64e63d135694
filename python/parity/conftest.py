"""pytest configuration of the parity suite (python/parity).

Run it through scripts/parity.sh, which builds ConvGen, prepares
.venv-parity (TensorFlow, JAX, Keras) and sets PYTHONPATH,
CONVGEN_LIBRARY and KERAS_BACKEND. Each pytest process writes its
comparisons to $PARITY_REPORT (JSON) at the end; summarize.py merges
them into the tables of docs/Parity.md.
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
PYTHON_DIR = os.path.dirname(HERE)
for p in (HERE, PYTHON_DIR):
    if p not in sys.path:
        sys.path.insert(0, p)

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
os.environ.setdefault("KERAS_BACKEND", "tensorflow")

import oracles  # noqa: E402,F401
import compare  # noqa: E402


def pytest_report_header(config):
    import oracles
    import convgen
    v = oracles.versions()
    return [f"parity: {' '.join(f'{k}={val}' for k, val in v.items())}",
            f"parity: KERAS_BACKEND={os.environ.get('KERAS_BACKEND')} "
            f"convgen library {convgen.library_path}"]


def pytest_sessionfinish(session, exitstatus):
    path = os.environ.get("PARITY_REPORT")
    if not path:
        return
    import oracles
    meta = {"versions": oracles.versions(), "keras_backend": os.environ.get("KERAS_BACKEND"),
            "exitstatus": int(exitstatus), "args": list(session.config.args)}
    compare.dump(path, meta)
