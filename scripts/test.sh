#!/usr/bin/env bash
# Install (first time) and run the whole test suite with pytest (benchmarks in tests/bench are not included).
source "$(dirname "$0")/_venv.sh"
exec "$VENV/bin/python" -m pytest "$@"
