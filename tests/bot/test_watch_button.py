"""The living table's Watch button (:mod:`bot.threads`): shown on a running game where the bot may make threads,
after the game's own controls, and only while the message has a free component slot (5 rows of 5)."""

from __future__ import annotations

from typing import Any

import pytest

from bot.components import game_button
from bot.ui import GameUI, ui_for
from games.core import SeatInfo, get_engine
from tests.render.test_every_message_fits import make_table, offline_delivery, options_for


def status_ids(monkeypatch: pytest.MonkeyPatch, controls: int, *, allowed: bool = True) -> list[str]:
    """The custom ids on the table of a running Verdugo game whose UI draws ``controls`` buttons."""
    engine = get_engine("verdugo", "classic")
    state = engine.setup(options_for(engine, "verdugo", "classic"), [SeatInfo(names=(f"p{i}",)) for i in range(5)],
                         1)
    table = make_table("verdugo", "classic", [f"p{i}" for i in range(5)], "en", state, "active")
    delivery = offline_delivery()
    monkeypatch.setattr(delivery.threads, "allowed", lambda channel_id: allowed)

    def turn_items(self: GameUI, ctx: Any, view: Any) -> list[Any]:
        return [game_button(table.id, 1, "x", str(i), label=str(i)) for i in range(controls)]

    monkeypatch.setattr(type(ui_for("verdugo", "classic")), "turn_items", turn_items)
    out = delivery.status_message(table, [])
    assert out.view is not None
    return [item.custom_id for item in out.view.children]  # type: ignore[attr-defined]


@pytest.mark.parametrize(("controls", "watch"), [(0, True), (22, True), (23, False)])
def test_watch_comes_last_while_there_is_room(monkeypatch: pytest.MonkeyPatch, controls: int, watch: bool) -> None:
    """With the game's controls, My secrets and Host taking ``controls + 2`` slots, Watch is added only below 25."""
    ids = status_ids(monkeypatch, controls)
    assert ids[-1].endswith(":0:watch:") is watch
    assert len(ids) == controls + 2 + watch


def test_no_watch_without_the_thread_permissions(monkeypatch: pytest.MonkeyPatch) -> None:
    """Where the bot may not make threads, the table has no Watch button."""
    assert not [i for i in status_ids(monkeypatch, 2, allowed=False) if i.endswith(":watch:")]
