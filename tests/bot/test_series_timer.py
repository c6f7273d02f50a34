"""The timer a series round's last step arms is the one the lobby's series handler is registered for: one named
kind (:data:`bot.tables.model.ROUND_FINISHED`), not a string written in two places."""

from __future__ import annotations

from datetime import UTC, datetime
from types import SimpleNamespace
from typing import Any

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
