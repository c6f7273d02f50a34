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

from bot.cogs.cereal_killer import board_art as art
from bot.cogs.cereal_killer.render import _centre, _legend, board_geometry, draw_board, render_board
from bot.i18n.catalog import t
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
    """Twice Discord's display size (192 px cells under a header, a legend below), fixed per player count (one
    56 px legend row more where a route is drawn: the final board, the Killer's copy), and under 300 KB even with
    every route of a finished game drawn."""
    png, _ = render_board(ENGINE.view(_day_one(players), None))
    assert Image.open(io.BytesIO(png)).size == size
    final, _ = render_board(ENGINE.view(_final(players), None))
    state = _day_one(players)
    killer, _ = render_board(ENGINE.view(state, 0), route=state.routes[-1])
    assert Image.open(io.BytesIO(final)).size == Image.open(io.BytesIO(killer)).size == (size[0], size[1] + 56)
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


def test_the_final_legend_explains_the_route_and_the_day_ends() -> None:
    """Where routes are drawn the legend names the route, its start and (on the final board) the day-end numbers,
    in the board's language; a running board's legend has none of them."""
    geo = board_geometry(ENGINE.view(_final(), None))
    keys = lambda routes: [key for _, key, _, _ in _legend(geo, 3, routes)]  # noqa: E731
    marks = ["cereal_killer.legend.route_line", "cereal_killer.legend.route_start"]
    assert keys("numbered")[-3:] == [*marks, "cereal_killer.legend.route_day_end"]
    assert keys("route")[-2:] == marks and not [k for k in keys("") if "route" in k]
    assert t("cereal_killer.legend.route_day_end", "en") == "End of day N"
    assert t("cereal_killer.legend.route_day_end", "es") == "Fin del día N"


def test_legs_over_the_same_street_run_side_by_side() -> None:
    """A street walked twice (1 -> 2 on day 1, 2 -> 1 on day 2) is two red lines 16 px apart with the board
    between them, not one line drawn twice."""
    state = _final(2).model_copy(update={"routes": [[1, 2], [2, 1]], "killer": 1})
    image, _, _ = draw_board(ENGINE.view(state, None))
    geo = board_geometry(ENGINE.view(state, None))
    (x1, y), (x2, _) = _centre(geo, 1), _centre(geo, 2)
    x = x1 + (x2 - x1) // 4  # away from the arrow in the leg's middle
    column = [image.getpixel((x, y + dy)) for dy in range(-20, 21)]
    red = "".join("r" if pixel == art.ROUTE else "." for pixel in column)
    assert [len(run) for run in red.split(".") if run] == [9, 9], red
    assert image.getpixel((x, y)) != art.ROUTE


@pytest.mark.parametrize("players", [2, 3])
def test_banded_png_is_the_whole_picture(players: int) -> None:
    """Re-encoding only the bands a move drew on (as the renderer says it drew) decodes, checksums verified, to the
    drawn picture in the board's palette, as comparing every band with the background does, over a whole random
    game (public boards, the Killer's copies, the final board)."""
    _, _, history = play_out(players, 7, CerealOptions())
    for state, _ in history:
        for view, route in ((ENGINE.view(state, None), None), (ENGINE.view(state, 0), state.routes[-1] or None)):
            image, changed, layers = draw_board(view, route=route if state.routes else None)
            expected = image.quantize(palette=layers.png.palette, dither=Image.Dither.NONE).convert("RGB")
            for png in (layers.png.encode(image, changed), layers.png.encode(image)):
                decoded = Image.open(io.BytesIO(png))
                decoded.load()
                assert ImageChops.difference(decoded.convert("RGB"), expected).getbbox() is None


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
