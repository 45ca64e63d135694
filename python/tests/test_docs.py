"""docs/API.md shows each API example verbatim (so they cannot drift); the
Python example runs and prints what its check file expects."""

import os
import re
import subprocess
import sys

import pytest

from conftest import PYTHON_DIR, REPO_ROOT

EXAMPLES = os.path.join(REPO_ROOT, "examples", "api")
FENCES = {"cpp_example.cpp": "cpp", "c_example.c": "c", "python_example.py": "python"}


def read(*parts):
    with open(os.path.join(REPO_ROOT, *parts), encoding="utf-8") as f:
        return f.read()


@pytest.mark.parametrize("name", sorted(FENCES))
def test_api_doc_shows_example_verbatim(name):
    doc = read("docs", "API.md")
    code = read("examples", "api", name)
    block = f"```{FENCES[name]}\n{code}```\n"
    assert block in doc, (f"docs/API.md must contain examples/api/{name} verbatim in a "
                          f"```{FENCES[name]} block; update the page after editing the file")


def test_python_example_output():
    # ctest runs it through FileCheck too (example.api-python); this keeps a
    # plain pytest run self-contained.
    env = dict(os.environ, PYTHONPATH=PYTHON_DIR)
    result = subprocess.run([sys.executable, os.path.join(EXAMPLES, "python_example.py")],
                            env=env, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    checks = [line.split(":", 1)[1].strip()
              for line in read("examples", "api", "checks", "python_example.check").splitlines()
              if re.match(r"CHECK(-NEXT)?:", line)]
    lines = [" ".join(line.split()) for line in result.stdout.splitlines()]
    assert lines == [" ".join(c.split()) for c in checks]
