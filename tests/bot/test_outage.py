"""Discord outages as the bot sees them (:mod:`bot.outage`): which errors are waited out, and the first answer after
failures redrawing the failed games once."""

from __future__ import annotations

import asyncio

import aiohttp
import discord
import pytest

from bot.outage import Outage, unavailable


class Response:
    """What discord.py's errors read of an aiohttp response."""

    def __init__(self, status: int) -> None:
        self.status, self.reason = status, "test"


@pytest.mark.parametrize(("exc", "down"), [
    (discord.DiscordServerError(Response(503), {"message": "503", "code": 0}), True),  # type: ignore[arg-type]
    (discord.HTTPException(Response(429), {"message": "slow down", "code": 0}), True),  # type: ignore[arg-type]
    (aiohttp.ServerDisconnectedError(), True),
    (TimeoutError(), True),
    (ConnectionResetError(), True),
    (discord.Forbidden(Response(403), {"message": "Missing Access", "code": 50001}), False),  # type: ignore[arg-type]
    (discord.HTTPException(Response(400), {"message": "Invalid Form Body", "code": 50035}), False),  # type: ignore[arg-type]
    (KeyError("a bug"), False),
])
def test_what_is_waited_out(exc: BaseException, down: bool) -> None:
    assert unavailable(exc) is down


async def test_the_first_answer_after_failures_redraws_once() -> None:
    """Answers while Discord works redraw nothing; after a 503 and a request with no answer, a 429 is no answer
    either, the first 200 starts one redraw and the answers while it runs start none; a failure meanwhile makes the
    next answer after it start another."""
    gate = asyncio.Event()
    runs: list[int] = []

    async def redraw() -> int:
        runs.append(len(runs))
        await gate.wait()
        return 1

    outage = Outage(redraw)
    for status in (200, 204, 404):
        outage.answered(status)
    assert outage.redraws == 0
    for status in (503, None, 429):
        outage.answered(status)
    assert outage.redraws == 0 and outage.down
    outage.answered(200)
    outage.answered(200)
    await asyncio.sleep(0)
    assert outage.redraws == 1 and runs == [0]
    outage.answered(502)  # Discord fails again while the redraw runs
    outage.answered(200)  # still running: none started
    gate.set()
    await asyncio.sleep(0)
    outage.answered(200)
    await asyncio.sleep(0)
    assert outage.redraws == 2 and runs == [0, 1]
    await outage.stop()
