"""The heap once the bot serves (:mod:`bot.heap`): start-up's objects are frozen out of the collector's way."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import discord
import pytest
from discord.ext import commands

from bot import heap


@pytest.fixture
def unsettled(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """A process that has not settled its heap yet; the test process's heap is unfrozen again afterwards."""
    monkeypatch.setattr(heap, "_settled", False)
    assert gc.get_freeze_count() == 0
    try:
        yield
    finally:
        gc.unfreeze()


@pytest.mark.usefixtures("unsettled")
def test_settle_freezes_what_is_alive_so_full_collections_skip_it() -> None:
    """Everything alive at ready leaves the collected generations; what is made later is still collected."""
    alive = [object() for _ in range(10)], {"kept": [1, 2]}
    frozen, seconds = heap.settle()
    later = {"made": ["after"]}
    tracked = {id(o) for o in gc.get_objects()}
    assert frozen == gc.get_freeze_count() > 1000  # a test process holds far more than this
    assert seconds > 0
    assert id(alive) not in tracked and id(alive[1]) not in tracked
    assert id(later) in tracked


@pytest.mark.usefixtures("unsettled")
def test_settle_runs_once_a_process() -> None:
    """A second ready (a reconnect, a second bot in the process) freezes nothing more."""
    first, _ = heap.settle()
    more = [{"n": n} for n in range(50)]
    assert heap.settle() == (0, 0.0)
    assert gc.get_freeze_count() == first
    assert id(more) in {id(o) for o in gc.get_objects()}


@pytest.mark.usefixtures("unsettled")
async def test_settle_at_ready_makes_the_bot_s_ready_settle_the_heap() -> None:
    """The one registration every serving process makes: the bot's ``on_ready`` listeners then include the one
    that freezes the heap, and calling it does."""
    bot = commands.Bot(command_prefix="!", intents=discord.Intents.none())
    heap.settle_at_ready(bot)
    assert bot.extra_events["on_ready"] == [heap.on_ready]
    await bot.extra_events["on_ready"][0]()
    assert gc.get_freeze_count() > 1000 and heap.settle() == (0, 0.0)
