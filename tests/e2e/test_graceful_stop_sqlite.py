"""``docker stop`` (SIGTERM) of an idle bot on its default SQLite database: graceful, exit 0, and no ERROR logged
(the multi-process graceful stops on PostgreSQL: ``test_graceful_stop``)."""

from __future__ import annotations

from pathlib import Path

from tests.discord_double import DiscordDouble
from tests.discord_double.server import TOKEN
from tests.support.processes import BotProcess


async def test_a_sigterm_stop_on_sqlite_logs_no_error(tmp_path: Path) -> None:
    """The database is disposed of before the process leaves: ``asyncio.run`` used to cancel the disposal midway
    (SQLAlchemy's pool logged "Exception closing connection ... CancelledError" at every deploy)."""
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
    assert "SIGTERM: finishing what is in flight" in log, log
    assert " ERROR " not in log and "Traceback" not in log, log
