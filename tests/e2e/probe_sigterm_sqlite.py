"""Probe: ``docker stop`` (SIGTERM) of an idle bot on its default SQLite database. The stop is graceful and exits
0, but logs an ERROR with a traceback (``Exception closing connection ... CancelledError`` from SQLAlchemy's pool
closing an aiosqlite connection): an operator sees an error at every deploy. The graceful-stop tests run on
PostgreSQL only."""

from __future__ import annotations

from pathlib import Path

from tests.discord_double import DiscordDouble
from tests.discord_double.server import TOKEN
from tests.support.processes import BotProcess


async def test_a_sigterm_stop_on_sqlite_logs_no_error(tmp_path: Path) -> None:
    double = await DiscordDouble().start()
    try:
        double.add_guild("Server").add_text_channel("games")
        bot = BotProcess("bot", {"DISCORD_TOKEN": TOKEN, "DISCORD_API_BASE": double.api_base,
                                 "DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path}/coroner.db"}, tmp_path / "bot.log")
        await bot.start()
        code = await bot.terminate()
        log = bot.log.read_text(errors="replace")
    finally:
        await double.stop()
    assert code == 0, log
    assert " ERROR " not in log and "Traceback" not in log, log
