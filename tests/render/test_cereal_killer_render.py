"""The Cereal Killer board renderer: fixed size, deterministic bytes, no leak of the Killer's space."""

from __future__ import annotations

import hashlib
import io

import pytest
from PIL import Image

from bot.cogs.cereal_killer.render import CELL, HEADER, render_board
from games.cereal_killer import ENGINE
from games.cereal_killer.models import CerealOptions, KillerTurn, Move, PlaceDetective
from tests.games.cereal_killer.helpers import new_game, play
from tests.games.cereal_killer.test_properties import play_out


def _day_one(players: int = 2):
    """After the golden first turn (8 -> 3 -> 2 -> 1, victim 3, Witness 4) and the Detective placed on 19."""
    state = play(new_game(players), (0, KillerTurn(start=8, path=[3, 2, 1], victim=3, witness=4)))
    if players == 3:
        state = play(state, (2, Move(path=[37])))
        state = state.model_copy(update={"phase": "detective", "turn": None})
    return play(state, (1, PlaceDetective(space=19)))


@pytest.mark.parametrize(("players", "rows"), [(2, 4), (3, 8)])
def test_png_has_a_fixed_size(players: int, rows: int) -> None:
    """5 columns of square cells under a header strip: 4 rows for 2 players, 8 for 3."""
    png, _ = render_board(ENGINE.view(_day_one(players), None))
    assert Image.open(io.BytesIO(png)).size == (5 * CELL, HEADER + rows * CELL)


def test_same_view_renders_identical_bytes() -> None:
    """Rendering is deterministic: the same view gives the same PNG bytes."""
    view = ENGINE.view(_day_one(), None)
    first, text = render_board(view)
    second, again = render_board(view)
    assert hashlib.sha256(first).hexdigest() == hashlib.sha256(second).hexdigest() and text == again


def test_moving_a_piece_changes_the_image() -> None:
    """The Detective walking one step changes the picture and the description."""
    state = _day_one()
    moved = play(state, (1, Move(path=[20])))
    before, text_before = render_board(ENGINE.view(state, None))
    after, text_after = render_board(ENGINE.view(moved, None))
    assert before != after
    assert "Detective on 19 (Cafe)." in text_before and "Detective on 20 (House)." in text_after


def test_public_description_lists_pieces_but_not_the_killer() -> None:
    """The text gives day, board, pieces, victims, arrests and objective, and no Killer line."""
    _, text = render_board(ENGINE.view(_day_one(), None))
    assert text.splitlines() == [
        "Cereal Killer, day 1 of 7.",
        "Board: City side A.",
        "Detective on 19 (Cafe).",
        "Witness on 4 (Park).",
        "Victims (1): 3.",
        "Arrest attempts left: 4.",
        "Victims needed by the end of day 2: 1.",
    ]


def test_killer_view_without_route_draws_no_killer() -> None:
    """Passing the Killer's own view without a route renders exactly like the public view."""
    state = _day_one()
    assert render_board(ENGINE.view(state, 0)) == render_board(ENGINE.view(state, None))


def test_route_is_drawn_and_described_for_the_killer() -> None:
    """With a route the Killer's copy shows the line and its current space."""
    state = _day_one()
    public, _ = render_board(ENGINE.view(state, None))
    private, text = render_board(ENGINE.view(state, 0), route=state.routes[-1])
    assert private != public
    assert text.splitlines()[-1] == "Your route: 8 → 3 → 2 → 1; you are on 1 (House)."


def test_spanish_description() -> None:
    """The description follows the server language."""
    _, text = render_board(ENGINE.view(_day_one(), None), language="es")
    assert text.splitlines()[:3] == ["Cereal Killer, día 1 de 7.", "Tablero: Ciudad cara A.", "Detective en 19 (Café)."]


@pytest.mark.parametrize("players", [2, 3])
def test_public_render_ignores_the_killers_position(players: int) -> None:
    """Moving the hidden Killer (space and routes) changes neither the public PNG nor its description."""
    _, _, history = play_out(players, 5, CerealOptions())
    for state, _ in history[::4]:
        if state.result is not None:
            continue
        elsewhere = state.model_copy(deep=True)
        elsewhere.killer = 1 if state.killer != 1 else 2
        elsewhere.routes = [[1, 2, 1, 2] for _ in state.routes]
        assert render_board(ENGINE.view(elsewhere, None)) == render_board(ENGINE.view(state, None))
