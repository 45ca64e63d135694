#!/usr/bin/env bash
# ctest packaging.pip-install: `pip install ./python` into a fresh temporary
# venv (scikit-build-core builds libConvGenC.so with CMake and puts it inside
# the package), then pip_check.py computes real values from outside the
# source tree, with no PYTHONPATH and no CONVGEN_LIBRARY.
#   pip-install.sh <repository root> <python> [<CMake build dir>]
#
# No network: <python> is the project's .venv (scripts/setup.sh), whose
# numpy and scikit-build-core the temporary venv sees through a .pth file;
# pip runs with --no-build-isolation --no-index. The optional build dir is
# kept between runs (incremental rebuilds); without it scikit-build-core
# builds in a temporary directory. The cold build of ConvGenC and what it
# links is the bulk of the time (-j2 by default, CMAKE_BUILD_PARALLEL_LEVEL).
set -euo pipefail
ROOT="$1"
PY="$2"
BUILD_DIR="${3:-}"
TMP="$(mktemp -d "${TMPDIR:-/tmp}/convgen-pip.XXXXXX")"
trap 'rm -rf "$TMP"' EXIT
export CMAKE_BUILD_PARALLEL_LEVEL="${CMAKE_BUILD_PARALLEL_LEVEL:-2}"

"$PY" -m venv "$TMP/venv"
VPY="$TMP/venv/bin/python"
SITE="$("$VPY" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')"
"$PY" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])' \
  > "$SITE/_convgen_test_deps.pth"
cd "$TMP"
if env -u PYTHONPATH "$VPY" -c 'import importlib.util as u, sys; sys.exit(u.find_spec("convgen") is None)'; then
  echo "pip-install: $PY already has a convgen package installed; this test" \
       "needs an environment without one (pip uninstall convgen)" >&2
  exit 1
fi

args=(--no-build-isolation --no-index --no-cache-dir --disable-pip-version-check -q)
[ -n "$BUILD_DIR" ] && args+=(-C "build-dir=$BUILD_DIR")
env -u PYTHONPATH -u CONVGEN_LIBRARY "$VPY" -m pip install "${args[@]}" "$ROOT/python" \
  > "$TMP/pip.log" 2>&1 || { cat "$TMP/pip.log"; echo "pip-install: pip install failed" >&2; exit 1; }

env -u PYTHONPATH -u CONVGEN_LIBRARY "$VPY" "$ROOT/test/Packaging/pip_check.py"
