# Shared by scripts/run.sh and scripts/test.sh: make .venv and install Coroner into it (again only when
# pyproject.toml changed). Needs python3 >= 3.11 with venv; everything else comes from PyPI.
set -euo pipefail
cd "$(dirname "$0")/.."
VENV="${VENV:-.venv}"
PYTHON="${PYTHON:-python3}"
if [ ! -x "$VENV/bin/python" ]; then
  "$PYTHON" -m venv "$VENV"
fi
stamp="$VENV/.coroner-installed"
if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ]; then
  echo "coroner: installing into $VENV (first run only; log in $VENV/install.log)" >&2
  if ! { "$VENV/bin/python" -m pip install --disable-pip-version-check --upgrade pip &&
         "$VENV/bin/python" -m pip install --disable-pip-version-check -e ".[test]"; } > "$VENV/install.log" 2>&1; then
    tail -n 30 "$VENV/install.log" >&2
    echo "coroner: installing failed; see $VENV/install.log" >&2
    exit 1
  fi
  touch "$stamp"
fi
