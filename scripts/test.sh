#!/usr/bin/env bash
# Install (first time) and run the whole test suite with pytest (benchmarks in tests/bench are not included).
source "$(dirname "$0")/_venv.sh"
# bytecode is cached (__pycache__, ignored by git) even where the environment says not to: every test process
# imports the whole bot, and every bot an end-to-end test starts loads its cogs again (compiled anew without it)
unset PYTHONDONTWRITEBYTECODE
exec "$VENV/bin/python" -m pytest "$@"
