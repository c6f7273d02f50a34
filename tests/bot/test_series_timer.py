"""The timer a series round's last step arms is the one the lobby's series handler is registered for: one named
kind (:data:`bot.tables.model.ROUND_FINISHED`), not a string written in two places. Its standings are posted within
Discord's limits, and a refused post never keeps the next round's lobby from opening."""

from __future__ import annotations

from datetime import UTC, datetime
from types import SimpleNamespace
from typing import Any

import discord
import pytest

from bot.budget import EMBED_TOTAL, FIELDS
from bot.cogs.lobby.series import SeriesRounds
from bot.delivery import Delivery
from bot.tables.model import ROUND_FINISHED

NOW = datetime(2026, 12, 3, 7, 0, tzinfo=UTC)


async def test_a_finished_rounds_timer_is_armed_under_the_kind_the_lobby_handles() -> None:
    handlers: dict[str, Any] = {}
    bot = SimpleNamespace(add_listener=lambda *args: None, clock=SimpleNamespace(now=lambda: NOW),
                          timers=SimpleNamespace(on=lambda kind, handler: handlers.__setitem__(kind, handler)))
    finished = SimpleNamespace(status="finished", series_id=4, abandoned=False)
    plans = await Delivery(bot).timers_for(finished)  # type: ignore[arg-type]
    rounds = SeriesRounds()
    rounds.bot = bot  # type: ignore[assignment]
    rounds.arm_series()
    assert [(plan.kind, plan.due_at) for plan in plans] == [(ROUND_FINISHED, NOW)]
    assert list(handlers) == [ROUND_FINISHED]
    abandoned = SimpleNamespace(status="finished", series_id=4, abandoned=True)
    assert await Delivery(bot).timers_for(abandoned) == []  # type: ignore[arg-type]


class _Channel:
    """A channel that records what is sent to it, or refuses it (``refuse``)."""

    def __init__(self, refuse: bool) -> None:
        self.refuse = refuse
        self.sent: list[dict[str, Any]] = []

    async def send(self, **kwargs: Any) -> None:
        if self.refuse:
            raise discord.Forbidden(SimpleNamespace(status=403, reason="Forbidden"),
                                    {"code": 50013, "message": "Missing Permissions"})
        self.sent.append(kwargs)


def _round_one(monkeypatch: pytest.MonkeyPatch, refuse: bool) -> tuple[SeriesRounds, _Channel, list[int]]:
    """Round 1 of 2 of series 4 just finished; its UI's standings embed is far past Discord's limits."""
    table = SimpleNamespace(id=10, series_id=4, status="finished", channel_id=7, guild_id=1, game="asesino",
                            mode="tabletop", language="en")
    series = SimpleNamespace(series_id=4, rounds_played=1, rounds_total=2, points={1: {5: 1.0}}, seats={})
    channel = _Channel(refuse)

    async def load(game_id: int) -> Any:
        return table

    async def nothing(*args: Any) -> None:
        return None

    async def rounds_of(series_id: int) -> Any:
        return series

    async def the_channel(channel_id: int) -> Any:
        return channel

    huge = discord.Embed(title="Series #4", description="x" * 4096)
    for n in range(40):
        huge.add_field(name=f"field {n}", value="y" * 1024)
    monkeypatch.setattr("bot.cogs.lobby.series.ui_for", lambda game, mode: SimpleNamespace(
        series_embed=lambda *args: huge))
    opened: list[int] = []
    rounds = SeriesRounds()
    rounds.bot = SimpleNamespace(tables=SimpleNamespace(load=load, table_in_channel=nothing,  # type: ignore[assignment]
                                                        series_rounds=rounds_of),
                                 delivery=SimpleNamespace(channel=the_channel))

    async def names(*args: Any) -> dict[int, str]:
        return {5: "Alice"}

    async def next_round(table: Any, round_no: int, total: int) -> None:
        opened.append(round_no)

    rounds._names = names  # type: ignore[method-assign]
    rounds._next_round = next_round  # type: ignore[method-assign]
    return rounds, channel, opened


async def test_the_standings_are_posted_within_discords_limits(monkeypatch: pytest.MonkeyPatch) -> None:
    rounds, channel, opened = _round_one(monkeypatch, refuse=False)
    await rounds.series_round_finished(10)
    ((sent,),) = [[kwargs["embeds"][0]] for kwargs in channel.sent]
    assert len(sent.fields) <= FIELDS and len(sent) <= EMBED_TOTAL
    assert opened == [2]


async def test_a_refused_standings_post_still_opens_the_next_round(monkeypatch: pytest.MonkeyPatch) -> None:
    """The channel refuses the standings (403): they are lost, but the series goes on to round 2's lobby."""
    rounds, channel, opened = _round_one(monkeypatch, refuse=True)
    await rounds.series_round_finished(10)
    assert channel.sent == [] and opened == [2]
