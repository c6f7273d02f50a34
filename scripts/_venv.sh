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
  "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check --upgrade pip >&2
  "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check -e ".[test]" >&2
  touch "$stamp"
fi
