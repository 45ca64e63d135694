# Sourced by scripts/parity.sh and scripts/peer-bench.sh (not run directly).
#
# ensure_venv TAG VENV PACKAGE==VERSION...
#   Creates the virtual environment VENV if it does not exist and installs
#   the pinned packages unless every one is already there at its version.
#   TAG prefixes the progress messages.
ensure_venv() {
  local tag="$1" venv="$2"
  shift 2
  if [ ! -x "$venv/bin/python" ]; then
    echo "$tag: creating $venv"
    python3 -m venv "$venv"
  fi
  if ! "$venv/bin/python" - "$@" <<'PYEOF' 2>/dev/null
import sys
from importlib.metadata import version
for spec in sys.argv[1:]:
    name, want = spec.split("==")
    name = name.split("[")[0]
    if version(name) != want:
        sys.exit(1)
PYEOF
  then
    echo "$tag: installing $* into $venv (TensorFlow is large)"
    "$venv/bin/python" -m pip install -q --disable-pip-version-check "$@"
  fi
}
