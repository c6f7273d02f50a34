#!/usr/bin/env bash
# Regenerate requirements.lock: the exact versions (with hashes) the Docker image installs, resolved by uv from
# pyproject.toml for CPython 3.11 on x86-64 Linux (the image's python:3.11-slim). Run after changing dependencies.
source "$(dirname "$0")/_venv.sh"
"$VENV/bin/python" -m pip install --quiet uv
exec "$VENV/bin/uv" pip compile pyproject.toml --python-version 3.11 --python-platform x86_64-unknown-linux-gnu \
  --generate-hashes --custom-compile-command "scripts/lock.sh" --quiet -o requirements.lock
