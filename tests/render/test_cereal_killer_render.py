"""The Cereal Killer board renderer: golden images (within a small tolerance), fixed size, deterministic bytes, under
300 KB, no leak of the Killer's space or route until the game is over.

After a deliberate change to the drawing, rewrite the golden PNGs with ``UPDATE_GOLDEN=1`` and look at them."""

from __future__ import annotations

import hashlib
import io
import os
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageChops

from bot.cogs.cereal_killer.render import render_board
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


GOLDEN = Path(__file__).with_name("golden")
MAX_BYTES = 300_000
#: a pixel counts as changed when a channel moves by more than this; at most this share of pixels may change
PIXEL_TOLERANCE, SHARE_TOLERANCE = 40, 0.001


def _final(players: int = 3):
    """The end of a seeded random game (3 players: four days of routes, revealed)."""
    state, _, _ = play_out(players, 5, CerealOptions())
    assert state.result is not None
    return state


def _golden_cases() -> dict[str, tuple[dict[str, Any], dict[str, Any]]]:
    """name -> (view, render keyword arguments)."""
    state = _day_one()
    return {
        "two_players_day_one": (ENGINE.view(state, None), {}),
        "two_players_killer_route": (ENGINE.view(state, 0), {"route": state.routes[-1]}),
        "three_players_day_one_es": (ENGINE.view(_day_one(3), None), {"language": "es"}),
        "three_players_final": (ENGINE.view(_final(), None), {}),
    }


def _changed_share(png: bytes, expected: Image.Image) -> float:
    """The share of pixels of ``png`` farther than the tolerance from ``expected`` (same size required)."""
    actual = Image.open(io.BytesIO(png)).convert("RGB")
    assert actual.size == expected.size
    changed = ImageChops.difference(actual, expected).convert("L").point(lambda v: 255 if v > PIXEL_TOLERANCE else 0)
    return changed.histogram()[255] / (actual.width * actual.height)


@pytest.mark.parametrize("name", list(_golden_cases()))
def test_board_matches_its_golden_image(name: str) -> None:
    """The board looks as checked in: same size, and all but a tiny share of pixels (font rasterising may vary
    between Pillow builds) within a small colour distance."""
    view, kwargs = _golden_cases()[name]
    png, _ = render_board(view, **kwargs)
    path = GOLDEN / f"cereal_killer_{name}.png"
    if os.environ.get("UPDATE_GOLDEN"):
        path.write_bytes(png)
    share = _changed_share(png, Image.open(path).convert("RGB"))
    assert share <= SHARE_TOLERANCE, f"{share:.2%} of the pixels differ from {path.name}"


def test_the_tolerance_still_sees_a_piece_move() -> None:
    """The Detective one step away (19 -> 20) is well outside the golden tolerance."""
    moved = play(_day_one(), (1, Move(path=[20])))
    png, _ = render_board(ENGINE.view(moved, None))
    golden = Image.open(GOLDEN / "cereal_killer_two_players_day_one.png").convert("RGB")
    assert _changed_share(png, golden) > 3 * SHARE_TOLERANCE


@pytest.mark.parametrize(("players", "size"), [(2, (960, 1120)), (3, (960, 1944))])
def test_png_has_a_fixed_size_and_stays_small(players: int, size: tuple[int, int]) -> None:
    """Twice Discord's display size (192 px cells under a header, a legend below), fixed per player count, and
    under 300 KB even with every route of a finished game drawn."""
    png, _ = render_board(ENGINE.view(_day_one(players), None))
    assert Image.open(io.BytesIO(png)).size == size
    final, _ = render_board(ENGINE.view(_final(players), None))
    assert Image.open(io.BytesIO(final)).size == size
    assert len(png) < MAX_BYTES and len(final) < MAX_BYTES


def test_the_routes_are_drawn_only_once_the_game_is_over() -> None:
    """The finished game's public board draws the Killer's routes; the same position still running does not."""
    final = _final()
    running = final.model_copy(update={"result": None, "phase": "detective"}, deep=True)
    public_final, text = render_board(ENGINE.view(final, None))
    public_running, _ = render_board(ENGINE.view(running, None))
    hidden = running.model_copy(update={"killer": 1, "routes": [[1, 2, 1, 2]]}, deep=True)
    assert public_running == render_board(ENGINE.view(hidden, None))[0]
    assert public_final != public_running
    assert text.splitlines()[-1] == f"The Killer was on {final.killer} (House)."


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
