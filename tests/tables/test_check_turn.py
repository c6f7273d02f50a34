"""``TableService.check_turn``: the one gate a view passes before showing a player the controls of their move, with
the refusals (and words) of ``TableService.act``."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime

import pytest

from bot.tables import Table, TableError, TableSeat, TableService
from games.core import IllegalAction, SeatInfo, Waiting
from tests.support.tiny_game import ENGINE, Pass, PotatoOptions

NOW = datetime(2026, 1, 1, tzinfo=UTC)


def table() -> Table:
    state = ENGINE.setup(PotatoOptions(), [SeatInfo(names=(f"p{i}",)) for i in range(3)], 5)
    seats = tuple(TableSeat(seat=i, user_id=100 + i, names=(f"p{i}",)) for i in range(3))
    return Table(id=1, game="potato", mode="classic", guild_id=1, channel_id=2, host_id=100, status="active", seed=5,
                 options={}, version=4, language="en", series_id=None, lobby_message_id=None, table_message_id=None,
                 created_at=NOW, updated_at=NOW, finished_at=None, outcome=None, seats=seats, state=state,
                 engine=ENGINE)


def test_the_seat_waited_on_passes_with_what_it_is_asked() -> None:
    """The holder's click at the current version gets their seat and the engine's Waiting."""
    at = table()
    holder = at.state.holder
    assert TableService.check_turn(at, 100 + holder, 4) == (holder, Waiting.turn(holder))


@pytest.mark.parametrize(("who", "version", "code"), [
    ("stranger", 4, "table.not_a_player"),
    ("holder", 3, "table.stale"),
    ("other", 4, "core.not_your_turn"),
])
def test_everyone_else_is_refused_as_act_would(who: str, version: int, code: str) -> None:
    """A stranger, an outdated control and a seat the game is not waiting on get act's refusals."""
    at = table()
    holder = at.state.holder
    user = {"stranger": 999, "holder": 100 + holder, "other": 100 + (holder + 1) % 3}[who]
    with pytest.raises((TableError, IllegalAction)) as err:
        TableService.check_turn(at, user, version)
    assert err.value.code == code


def test_a_finished_table_is_not_running() -> None:
    """After the game ended the gate refuses as act does (``table.not_active``), and a finished state that is
    still marked active is refused as over."""
    at = table()
    with pytest.raises(TableError) as err:
        TableService.check_turn(replace(at, status="finished"), 100, 4)
    assert err.value.code == "table.not_active"
    state = at.state
    for _ in range(state.passes_left):
        state = ENGINE.apply(state, state.holder, Pass(to=(state.holder + 1) % 3)).state
    with pytest.raises(IllegalAction) as over:
        TableService.check_turn(replace(at, state=state), 100, 4)
    assert over.value.code == "core.game_over"
