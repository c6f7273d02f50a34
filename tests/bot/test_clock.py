"""The injected clocks: sleepers wake when the deadline passes or when poked (so they re-read deadlines)."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

from bot.clock import Clock, FakeClock

START = datetime(2026, 11, 30, 8, 0, tzinfo=UTC)


async def test_fake_clock_sleeper_wakes_when_time_passes_the_deadline() -> None:
    """A sleeper returns once advance() reaches its deadline; a past deadline returns at once."""
    clock = FakeClock(START)
    sleeper = asyncio.create_task(clock.sleep_until(START + timedelta(minutes=5)))
    await asyncio.sleep(0)
    assert not sleeper.done()
    clock.advance(minutes=5)
    await asyncio.wait_for(sleeper, timeout=1)
    await asyncio.wait_for(clock.sleep_until(START), timeout=1)
    assert clock.now() == START + timedelta(minutes=5)


async def test_fake_clock_sleeper_wakes_on_poke_to_reread_its_deadline() -> None:
    """A poke (a nearer timer was scheduled) wakes a sleeper even though its old deadline is far away."""
    clock = FakeClock(START)
    sleeper = asyncio.create_task(clock.sleep_until(START + timedelta(days=1)))
    await asyncio.sleep(0)
    clock.poke()
    await asyncio.wait_for(sleeper, timeout=1)
    assert clock.now() == START


async def test_a_poke_is_pending_until_a_sleeper_takes_it() -> None:
    """``poked`` says a poke no sleeper has taken yet is pending (the next sleep_until returns at once); the sleeper
    that wakes on it takes it."""
    clock = FakeClock(START)
    assert not clock.poked
    clock.poke()
    assert clock.poked
    await asyncio.wait_for(clock.sleep_until(START + timedelta(days=1)), timeout=1)
    assert not clock.poked


async def test_real_clock_sleeper_wakes_on_poke() -> None:
    """The real clock's sleep_until(None) returns as soon as it is poked."""
    clock = Clock()
    sleeper = asyncio.create_task(clock.sleep_until(None))
    await asyncio.sleep(0)
    clock.poke()
    await asyncio.wait_for(sleeper, timeout=1)
    assert clock.now().tzinfo is UTC


async def test_a_poke_before_sleeping_is_not_lost() -> None:
    """A poke that arrives while the timer loop is busy wakes its next sleep at once (real and fake clocks)."""
    for clock in (Clock(), FakeClock(START)):
        clock.poke()
        await asyncio.wait_for(clock.sleep_until(None), timeout=1)
