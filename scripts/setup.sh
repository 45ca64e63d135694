#!/usr/bin/env bash
# Installs everything ConvGen needs on a fresh Debian 12 machine. Idempotent:
# it only calls apt-get / pip when something is missing. Called by build.sh.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

APT_PACKAGES=(
  llvm-22-dev libmlir-22-dev mlir-22-tools llvm-22-tools
  libomp-22-dev
  cmake ninja-build g++ pkg-config
  libgtest-dev libgmock-dev
  python3 python3-venv python3-dev
  libdnnl-dev
)

missing=()
for p in "${APT_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" \
    || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends \
    "${missing[@]}"
fi

# Python environment for the tests (numpy, pytest): a venv in the repo.
# scikit-build-core: the build backend of python/pyproject.toml, for ctest
# packaging.pip-install (pip install --no-build-isolation, no network).
VENV="$ROOT/.venv"
PY_PACKAGES=(numpy pytest ml_dtypes matplotlib scikit-build-core)
if [ ! -x "$VENV/bin/python" ]; then
  echo "setup: creating $VENV"
  python3 -m venv "$VENV"
fi
if ! "$VENV/bin/python" -c "import numpy, pytest, ml_dtypes, matplotlib, scikit_build_core" 2>/dev/null; then
  "$VENV/bin/python" -m pip install -q --disable-pip-version-check "${PY_PACKAGES[@]}"
fi
