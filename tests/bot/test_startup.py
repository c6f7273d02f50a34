"""Starting the bot: a Discord endpoint that is not one, a refused token or no network each end in one line naming
what to fix; the libraries' voice warnings are silent unless LOG_LEVEL=DEBUG; the invite asks for the README's
permissions."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import discord
import pytest
from aiohttp import web

from bot.bot import CoronerBot, run_bot
from bot.logs import configure_logging
from bot.settings import Settings, StartupError
from bot.startup import PERMISSIONS, WITH_MANAGE_ROLES, invite_url


@pytest.fixture(autouse=True)
def restore_discord_urls() -> Iterator[None]:
    """run_bot points discord.py at DISCORD_API_BASE (process-wide); put Discord back afterwards."""
    base, gateway = discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
    yield
    discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = base, gateway


@pytest.fixture
async def answering() -> AsyncIterator[list[str]]:
    """A local HTTP server answering every request with the status put in the list (404 by default); yields the
    list, whose second item is the server's base URL."""
    status = ["404"]

    async def handler(_: web.Request) -> web.Response:
        return web.json_response({"message": "nope", "code": 0}, status=int(status[0]))

    app = web.Application()
    app.router.add_route("*", "/{tail:.*}", handler)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
    status.append(f"http://127.0.0.1:{port}")
    try:
        yield status
    finally:
        await runner.cleanup()


def settings(tmp_path: Path, base: str) -> Settings:
    return Settings(_env_file=None, discord_token="some-token", database_url=f"sqlite+aiosqlite:///{tmp_path}/c.db",
                    discord_api_base=base, sync_commands=False)


async def test_api_base_answering_404_is_one_line(tmp_path: Path, answering: list[str]) -> None:
    """DISCORD_API_BASE pointing at something that is not Discord: the error names the setting and the 404."""
    with pytest.raises(StartupError) as err:
        await run_bot(settings(tmp_path, answering[1]))
    assert str(err.value) == (f"DISCORD_API_BASE {answering[1]} answered 404 Not Found to /api/v10/users/@me; "
                              "check DISCORD_API_BASE (a Discord-compatible endpoint) or leave it unset")


async def test_refused_token_is_one_line(tmp_path: Path, answering: list[str]) -> None:
    """A 401 at login: the error says the token was refused and where to get a new one, never the token."""
    answering[0] = "401"
    with pytest.raises(StartupError) as err:
        await run_bot(settings(tmp_path, answering[1]))
    assert "refused DISCORD_TOKEN; copy the token again from the Developer Portal" in str(err.value)
    assert "some-token" not in str(err.value)


async def test_unreachable_endpoint_is_one_line(tmp_path: Path) -> None:
    """Nothing listening at the API base: "cannot reach", naming the network and the setting."""
    with pytest.raises(StartupError) as err:
        await run_bot(settings(tmp_path, "http://127.0.0.1:1"))
    text = str(err.value)
    assert text.startswith("cannot reach DISCORD_API_BASE http://127.0.0.1:1: ")
    assert text.endswith("; check the network (and DISCORD_API_BASE)") and "\n" not in text


@pytest.mark.parametrize(("level", "shown"), [("INFO", False), ("DEBUG", True)])
def test_voice_warnings_only_at_debug(monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture,
                                      level: str, shown: bool) -> None:
    """discord.py's "PyNaCl/davey is not installed" warnings reach the log only with LOG_LEVEL=DEBUG."""
    monkeypatch.setattr(discord.VoiceClient, "warn_nacl", True)
    monkeypatch.setattr(discord.VoiceClient, "warn_dave", True)
    root = logging.getLogger().level
    try:
        configure_logging(level)
        with caplog.at_level(logging.DEBUG):
            CoronerBot(Settings(_env_file=None, discord_token="x"))
    finally:
        configure_logging("INFO")
        logging.getLogger().setLevel(root)
    voice = [r for r in caplog.records if "voice will NOT be supported" in r.getMessage()]
    assert len(voice) == (2 if shown else 0)


def test_invite_asks_for_the_readme_permissions() -> None:
    """The invite carries both scopes and the README's permission integers (117760; 268553216 with Manage Roles)."""
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    assert f"`{PERMISSIONS.value}`" in readme and f"`{WITH_MANAGE_ROLES.value}`" in readme
    assert (PERMISSIONS.value, WITH_MANAGE_ROLES.value) == (117760, 268553216)
    assert invite_url(42) == ("https://discord.com/oauth2/authorize?client_id=42&scope=bot+applications.commands"
                              "&permissions=117760")


async def test_close_lets_interactions_in_flight_finish_first(monkeypatch: pytest.MonkeyPatch) -> None:
    """close() waits for an interaction handler still running (so its reply does not hit a closed HTTP session,
    the "Session is closed" traceback) before disconnecting."""
    import asyncio

    bot = CoronerBot(Settings(_env_file=None, discord_token="x"))
    release = asyncio.Event()
    finished: list[str] = []

    async def disconnect(_: discord.AutoShardedClient) -> None:
        finished.append("disconnected")

    monkeypatch.setattr(discord.AutoShardedClient, "close", disconnect)

    async def handler() -> None:
        await release.wait()
        finished.append("handler")

    task = asyncio.create_task(handler(), name="CommandTree-invoker")
    closing = asyncio.create_task(bot.close())
    for _ in range(5):
        await asyncio.sleep(0)  # let close() run up to its wait (a yield, not a real sleep)
    assert not closing.done() and finished == []
    release.set()
    await closing
    assert finished == ["handler", "disconnected"] and task.done()


async def test_guild_ready_seconds_is_discord_py_guild_ready_timeout() -> None:
    """GUILD_READY_SECONDS sets how long a shard waits after its last server arrived (discord.py's default, 2 s,
    unless set); a value outside 0..60 is refused."""
    default = CoronerBot(Settings(_env_file=None, discord_token="x"))
    quick = CoronerBot(Settings(_env_file=None, discord_token="x", guild_ready_seconds=0.05))
    assert (default._connection.guild_ready_timeout, quick._connection.guild_ready_timeout) == (2.0, 0.05)
    with pytest.raises(ValueError, match="guild_ready_seconds"):
        Settings(_env_file=None, discord_token="x", guild_ready_seconds=-1)
