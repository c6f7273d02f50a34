"""The strict double's gateway: close codes, RECONNECT, INVALID_SESSION and the heartbeat timeout, from a raw
websocket and from the real discord.py client."""

from __future__ import annotations

from typing import Any

import aiohttp
import discord
import pytest

from tests.discord_double import DiscordDouble
from tests.discord_double.clock import ManualClock
from tests.discord_double.fixtures import running_bot
from tests.discord_double.server import TOKEN
from tests.discord_double_tests._bot import DoubleBot
from tests.discord_double_tests.strict_support import Strict, strict

__all__ = ["strict"]
IDENTIFY = {"op": 2, "d": {"token": TOKEN, "intents": 1, "shard": [0, 1], "properties": {}}}


async def close_code(strict: Strict, *frames: Any, query: str = "") -> int | None:
    """Connect, read HELLO, send ``frames`` (dicts as JSON, str as raw text) and return the close code."""
    async with strict.http.ws_connect(strict.double.gateway_url + query) as ws:
        first = await ws.receive(timeout=5)
        if first.type is aiohttp.WSMsgType.CLOSE:
            return ws.close_code
        for frame in frames:
            await (ws.send_str(frame) if isinstance(frame, str) else ws.send_json(frame))
        while True:
            msg = await ws.receive(timeout=5)
            if msg.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED, aiohttp.WSMsgType.CLOSING):
                return ws.close_code


@pytest.mark.parametrize(("frames", "query", "code"), [
    ([{"op": 2, "d": {**IDENTIFY["d"], "token": "wrong"}}], "", 4004),
    ([{"op": 42, "d": None}], "", 4001),
    (["{not json"], "", 4002),
    ([{"op": 3, "d": {"status": "online"}}], "", 4003),
    ([IDENTIFY, IDENTIFY], "", 4005),
    ([{"op": 2, "d": {**IDENTIFY["d"], "shard": [2, 2]}}], "", 4010),
    ([], "?v=9&encoding=json", 4012),
    ([{"op": 2, "d": {**IDENTIFY["d"], "intents": 1 << 40}}], "", 4013),
])
async def test_refused_frames_close_with_discords_code(strict: Strict, frames: list[Any], query: str,
                                                       code: int) -> None:
    """A bad token 4004, an unknown opcode 4001, bad JSON 4002, a payload before IDENTIFY 4003, a second
    IDENTIFY 4005, a shard outside the count 4010, API v9 4012, unknown intent bits 4013."""
    assert await close_code(strict, *frames, query=query) == code
    assert strict.double.gateway.close_codes[-1] == code


async def test_a_silent_connection_times_out_with_4009(strict: Strict) -> None:
    """No heartbeat for 1.5 intervals on the double's clock: the connection is closed with 4009 and the session
    cannot be resumed; a connection that heartbeats is kept."""
    await strict.connect()
    assert strict.ws is not None
    interval = strict.double.gateway.heartbeat_interval_ms / 1000
    strict.clock.advance(interval)
    await strict.ws.send_json({"op": 1, "d": 2})
    assert (await strict.ws.receive_json(timeout=5))["op"] == 11
    strict.clock.advance(interval)
    assert strict.double.gateway.check_heartbeats() == 0
    strict.clock.advance(interval * 0.6)
    assert strict.double.gateway.check_heartbeats() == 1
    msg = await strict.ws.receive(timeout=5)
    assert msg.type is aiohttp.WSMsgType.CLOSE and strict.ws.close_code == 4009
    assert strict.double.gateway.live_sessions() == []


async def test_a_bad_token_stops_the_real_client(double: DiscordDouble) -> None:
    """discord.py started with a wrong token is refused at login (401) and never connects."""
    with pytest.raises(discord.LoginFailure):
        async with running_bot(DoubleBot(), token="not-the-token"):
            pass
    assert double.gateway.identifies == 0


async def test_reconnect_makes_the_client_resume(double: DiscordDouble) -> None:
    """RECONNECT (op 7): discord.py closes and RESUMEs the same session, missing nothing."""
    guild = double.add_guild("g")
    bot = DoubleBot()
    async with running_bot(bot):
        (session,) = double.gateway.live_sessions()
        assert double.gateway.request_reconnect() == 1
        await double.wait_for(lambda: session.resumes == 1 and session.ws is not None, what="a RESUME")
        channel = guild.add_text_channel("after")
        await double.wait_for(lambda: bot.get_channel(channel.id) is not None, what="CHANNEL_CREATE after resume")
    assert double.gateway.identifies == 1


@pytest.mark.parametrize(("resumable", "identifies", "resumes"), [(True, 1, 1), (False, 2, 0)])
async def test_invalid_session_resumes_or_identifies_again(double: DiscordDouble, resumable: bool, identifies: int,
                                                           resumes: int) -> None:
    """INVALID_SESSION with ``d: true`` is resumed; with ``d: false`` the client starts a new session."""
    guild = double.add_guild("g")
    bot = DoubleBot()
    async with running_bot(bot):
        (session,) = double.gateway.live_sessions()
        assert double.gateway.invalidate(resumable=resumable) == 1
        # discord.py waits about 5 s between two IDENTIFYs (Discord's session start limit)
        await double.wait_for(lambda: double.gateway.identifies == identifies and session.resumes == resumes
                              and double.gateway.connected(), timeout=20, what="the client back")
        channel = guild.add_text_channel("after")
        await double.wait_for(lambda: bot.get_channel(channel.id) is not None, what="events on the new connection")


async def test_a_late_initial_response_reaches_the_bot_as_unknown_interaction(double: DiscordDouble) -> None:
    """With the double on a manual clock, a bot that answers 3.5 s after dispatch gets discord.py's NotFound with
    Discord's code 10062, and the user sees no answer."""
    clock = ManualClock()
    double.use_clock(clock)
    guild = double.add_guild("g")
    channel, alice = guild.add_text_channel("c"), double.add_user("alice")
    guild.add_member(alice)
    bot = DoubleBot()
    async with running_bot(bot):
        handle = await alice.slash(channel, "slow")
        clock.advance(3.5)
        bot.game_cog.release.set()
        await double.wait_for(lambda: bot.game_cog.refused, what="the bot's refused answer")
        assert bot.game_cog.refused == [10062] and handle.answer is None
