#!/usr/bin/env bash
# Install (first time) and run the bot. Settings come from the environment or .env (see README).
source "$(dirname "$0")/_venv.sh"
exec "$VENV/bin/coroner" run "$@"
