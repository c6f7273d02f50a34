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
from tests.discord_double.server import TOKEN


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


@pytest.fixture
async def web_page() -> AsyncIterator[str]:
    """An ordinary web server answering 200 with a page to every request; yields its base URL."""

    async def handler(_: web.Request) -> web.Response:
        return web.Response(text="<html><body>It works!</body></html>", content_type="text/html")

    app = web.Application()
    app.router.add_route("*", "/{tail:.*}", handler)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    try:
        yield f"http://127.0.0.1:{site._server.sockets[0].getsockname()[1]}"  # type: ignore[union-attr]
    finally:
        await runner.cleanup()


async def test_api_base_answering_200_with_a_web_page_is_one_line(tmp_path: Path, web_page: str) -> None:
    """DISCORD_API_BASE pointing at a web server that answers 200 to everything: one line naming the setting (it
    was a Python traceback)."""
    with pytest.raises(StartupError) as err:
        await run_bot(settings(tmp_path, web_page))
    assert str(err.value) == (f"DISCORD_API_BASE {web_page} answered the login (GET /users/@me) with something that "
                              "is not Discord's API (TypeError); check DISCORD_API_BASE (a Discord-compatible "
                              "endpoint) or leave it unset")


def test_coroner_run_against_a_web_page_exits_2_with_one_line(tmp_path: Path) -> None:
    """The real process: ``coroner run`` with DISCORD_API_BASE at a web server answering 200 exits 2 with one line
    on stderr (and nothing else there)."""
    import subprocess
    import sys
    import threading
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    class Page(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 - http.server's name
            body = b"<html>It works!</html>"
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *_: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Page)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}"
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(Path(__file__).resolve().parents[2]), "DISCORD_TOKEN": TOKEN,
           "DISCORD_API_BASE": base, "DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path}/c.db", "SYNC_COMMANDS": "false"}
    try:
        done = subprocess.run([sys.executable, "-m", "bot", "run"], cwd=tmp_path, env=env, capture_output=True,
                              text=True, timeout=120)
    finally:
        server.shutdown()
    assert done.returncode == 2, done.stderr
    assert done.stderr.strip().splitlines() == [
        f"coroner: DISCORD_API_BASE {base} answered the login (GET /users/@me) with something that is not "
        "Discord's API (TypeError); check DISCORD_API_BASE (a Discord-compatible endpoint) or leave it unset"]


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


async def test_a_second_sigterm_exits_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """The first SIGTERM starts the graceful stop (:meth:`CoronerBot.close`); a second one while it runs exits at
    once with status 143."""
    import asyncio
    import os
    import signal

    import bot.bot as bot_module

    bot = CoronerBot(Settings(_env_file=None, discord_token=TOKEN))
    stopping, exited = asyncio.Event(), asyncio.Event()
    codes: list[int] = []

    async def slow_close() -> None:  # a stop still waiting for what is in flight
        stopping.set()
        await asyncio.Event().wait()

    def exit_now(code: int) -> None:
        codes.append(code)
        exited.set()

    monkeypatch.setattr(bot, "close", slow_close)
    monkeypatch.setattr(bot_module.os, "_exit", exit_now)
    loop = asyncio.get_running_loop()
    bot_module.stop_on_sigterm(bot)
    try:
        os.kill(os.getpid(), signal.SIGTERM)
        await asyncio.wait_for(stopping.wait(), 5)
        assert codes == []
        os.kill(os.getpid(), signal.SIGTERM)
        await asyncio.wait_for(exited.wait(), 5)
        assert codes == [143]
    finally:
        loop.remove_signal_handler(signal.SIGTERM)
        for task in [t for t in asyncio.all_tasks() if t.get_name() == "coroner-sigterm"]:
            task.cancel()
