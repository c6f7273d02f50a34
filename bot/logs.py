"""Logging for the ``coroner`` process: our own lines at ``LOG_LEVEL``, the libraries' chatter only at ``DEBUG``.

discord.py warns at every start that voice support (PyNaCl, davey) is missing, and logs every gateway connect;
Alembic logs every migration step. None of it concerns a text-only bot's operator, so below ``DEBUG`` those loggers
show warnings and errors only, and the voice warnings not at all.
"""

from __future__ import annotations

import logging

QUIET_LIBRARIES = ("discord", "alembic", "sqlalchemy", "aiosqlite", "asyncpg")
log = logging.getLogger("coroner")


def _not_voice(record: logging.LogRecord) -> bool:
    return "voice will NOT be supported" not in record.getMessage()


def configure_logging(level: str) -> None:
    """Log to stderr at ``level`` (a name such as ``INFO``); below ``DEBUG`` quiet the libraries (see module)."""
    logging.basicConfig(format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    logging.getLogger().setLevel(level)
    debug = logging.getLevelName(level) <= logging.DEBUG
    for name in QUIET_LIBRARIES:
        logging.getLogger(name).setLevel(logging.NOTSET if debug else logging.WARNING)
    client = logging.getLogger("discord.client")
    client.removeFilter(_not_voice)
    if not debug:
        client.addFilter(_not_voice)
