from __future__ import annotations

from tests.discord_double.fixtures import double  # noqa: F401
