"""The Killer's controls under My secrets (closed DMs cost nothing): the route button while its route is due,
answer buttons while a question waits, nothing otherwise; the route modal reads the DM grammar and refuses in
words."""

from __future__ import annotations

from typing import Any

import discord
import pytest

from bot import ui as ui_module
from bot.cogs.cereal_killer.killer_panel import RouteModal, killer_items, route_action
from bot.errors import UserError, error_text
from games.cereal_killer import ENGINE
from games.cereal_killer.models import Ask, PlaceDetective
from tests.bot.cereal_killer.test_ui import FIRST, UI, ctx_of, table
from tests.games.cereal_killer.helpers import new_game, play


def ids(items: list[Any]) -> list[str]:
    return [item.item.custom_id for item in items]


def killer_view(state: Any) -> dict[str, Any]:
    return ENGINE.view(state, 0)


def test_the_route_button_shows_while_the_route_is_due() -> None:
    """Day 1 before the route: one button, Send my route, stamped with the table version."""
    state = new_game()
    items = killer_items(ctx_of(state, version=4), killer_view(state))
    assert ids(items) == ["coroner:g:1:4:route:"]
    assert items[0].item.label == "Send my route"
    embed = UI.secrets_embed(ctx_of(state), 0, killer_view(state))
    assert "Day 1: your route is due. Press **Send my route** below" in embed.fields[-1].value


def test_answer_buttons_show_while_a_question_waits() -> None:
    """A direction question waits: one button per true answer (here South), no route button."""
    state = play(new_game(), (0, FIRST), (1, PlaceDetective(space=7)), (1, ENGINE.parse_action(
        {"type": "move", "path": [2]})), (1, Ask(question="direction")))
    items = killer_items(ctx_of(state, version=9), killer_view(state))
    assert ids(items) == ["coroner:g:1:9:answer:south"]
    assert [i.item.label for i in items] == ["South"]


def test_no_killer_controls_while_the_hunters_play_or_for_a_hunter() -> None:
    """The hunters' turn: nothing to press; a hunter's My secrets never carries the Killer's buttons."""
    state = play(new_game(), (0, FIRST))
    assert killer_items(ctx_of(state), killer_view(state)) == []
    assert UI.secrets_items(ctx_of(new_game()), 1, ENGINE.view(new_game(), 1)) == []


def test_the_route_modal_is_a_coroner_modal_with_one_input() -> None:
    """The modal's id names the game, the version and the handler, so it can be routed after a restart."""
    modal = RouteModal(UI, table(new_game(), version=3), 3)
    assert modal.custom_id == "coroner:m:1:3:route:"
    inputs = [child for child in modal.walk_children() if isinstance(child, discord.ui.TextInput)]
    assert [child.custom_id for child in inputs] == ["route"]
    assert "8 3 2 1" in (inputs[0].placeholder or "")
    assert [type(child) for child in modal.children] == [discord.ui.Label]  # labelled as discord.py 2.6 wants


def test_a_route_reads_as_in_a_dm() -> None:
    """``8 3 2 1 victim 3 witness 4`` is the first-day turn from House 8."""
    assert route_action("8 3 2 1 victim 3 witness 4") == {
        "type": "killer_turn", "start": 8, "path": [3, 2, 1], "victim": 3, "witness": 4}


@pytest.mark.parametrize(("text", "reason"), [
    ("", "I found no route in that message."),
    ("3 2", "I read 2 steps; the Killer takes exactly 3"),
])
def test_an_unreadable_route_is_refused_with_its_reason(text: str, reason: str) -> None:
    """The parser's refusal reaches the Killer in words (the modal answers it ephemerally)."""
    ui_module.register_ui(UI)
    with pytest.raises(UserError) as err:
        route_action(text)
    assert reason in error_text("en", err.value, table(new_game()))
