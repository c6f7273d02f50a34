"""The fake clock's pause (the delivery lease heartbeat's sleep): woken only by the clock reaching its time, and
never taking the timer loop's poke."""

from __future__ import annotations

import asyncio
from datetime import timedelta

from bot.clock import FakeClock


async def test_a_pause_wakes_when_the_clock_gets_there_and_leaves_the_poke_to_the_loop() -> None:
    clock = FakeClock()
    start = clock.now()
    pause = asyncio.create_task(clock.pause_until(start + timedelta(seconds=2)))
    await asyncio.sleep(0)
    clock.poke()  # a timer was committed: the loop's wake-up, not the pause's
    clock.advance(seconds=1)
    await asyncio.sleep(0)
    assert not pause.done()
    clock.advance(seconds=1)
    await asyncio.wait_for(pause, 1)
    await asyncio.wait_for(clock.sleep_until(start + timedelta(hours=1)), 1)  # the poke was kept for the loop
    cancelled = asyncio.create_task(clock.pause_until(start + timedelta(hours=1)))
    await asyncio.sleep(0)
    cancelled.cancel()
    await asyncio.gather(cancelled, return_exceptions=True)
    assert clock._pauses == []
