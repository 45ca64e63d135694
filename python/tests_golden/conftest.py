"""pytest configuration of the golden-vector test: makes `import convgen`
work without PYTHONPATH (the package is in python/, next to this folder)."""

import os
import sys

PYTHON_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if PYTHON_DIR not in sys.path:
    sys.path.insert(0, PYTHON_DIR)
