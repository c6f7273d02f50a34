"""Draw a Cereal Killer board as a PNG, with a plain-text description for people who cannot see it (the words come
from :mod:`.describe`).

``render_board(view, route=..., language=...)`` takes an engine view (``ENGINE.view(state, seat)``) and returns
``(png_bytes, description)``. The board is drawn like a board, at twice Discord's display size for sharp display:
a header strip, 5 x 4 cells of 192 px (5 x 8 for 3 players) each with its number and the symbol of its kind, the
Underground and the one-way Train loop as lines between station centres with direction arrows, the pieces (each
a shape of its own), and a legend (see :mod:`.board_art`). The image has a fixed size per player count (one legend
row more when a route is drawn) and is byte-identical for the same input.

What no move changes (cells, transit, numbers, legend) is drawn once per board pair, player count, language and
legend, and kept with its PNG encoder (:mod:`.png_bands`): a move draws only the header, the pieces and the route
over a copy, and re-encodes only the bands of rows it drew on.

The Killer's space and route are drawn and described only when ``route`` is given (the Killer's private copy: its
route of the day) or when the view reveals them at the end of the game (the public result: every day's route,
each day's end numbered). Each leg has an arrow; legs over the same two spaces run side by side; the legend then
explains the route, its start and the day-end numbers.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from bot.cogs.cereal_killer import board_art as art
from bot.cogs.cereal_killer.describe import board_geometry, describe, killer_space
from bot.cogs.cereal_killer.png_bands import BandedPng
from bot.i18n.catalog import t
from games.cereal_killer.board import COLUMNS, KIND_NAMES, Geometry, geometry

CELL = 192
HEADER = 88
LEGEND_COLUMNS = 3
LEGEND_ROW = 56
LEGEND_PAD = 20
PALETTE = 128
#: px between two legs of the Killer's route that cover the same two spaces
LANE = 16
#: px around a line or a piece's centre that its drawing may cover (the widest piece, arrow or lane offset)
MARGIN = 64
BACKGROUND = (250, 248, 240)
GRID = (110, 110, 116)
#: space kinds in legend order, and the pieces
KIND_ORDER = "HPCUTFS"
PIECE_LETTERS: dict[str, str] = {"detective": "D", "lola": "L", "witness": "W", "killer": "K"}
#: where each piece sits in its cell, from the cell centre
OFFSETS: dict[str, tuple[int, int]] = {"witness": (0, 56), "detective": (-58, 56), "lola": (58, 56),
                                       "killer": (0, -14)}


def _cell_box(geo: Geometry, space: int) -> tuple[int, int, int, int]:
    x = (geo.column(space) - 1) * CELL
    y = HEADER + (geo.row(space) - 1) * CELL
    return x, y, x + CELL, y + CELL


def _centre(geo: Geometry, space: int) -> tuple[int, int]:
    x0, y0, x1, y1 = _cell_box(geo, space)
    return (x0 + x1) // 2, (y0 + y1) // 2


def _revealed_routes(view: dict[str, Any], route: list[int] | None) -> list[list[int]]:
    """The routes to draw: the Killer's ``route`` of the day, or every day's route once the game is over."""
    if route:
        return [route]
    revealed = view.get("revealed")
    return [list(r) for r in revealed.get("routes", [])] if revealed else []


def _legend(geo: Geometry, players: int, routes: str = "") -> list[tuple[str, str, int, int]]:
    """Legend entries ``(what, catalogue key, x, y)``: the kinds on this board and the pieces in columns of
    :data:`LEGEND_COLUMNS`, then the transit lines (longer names) two to a row, then, when a route is drawn
    (``routes``: ``route`` for the Killer's own copy, ``numbered`` for the revealed routes), the route, its start
    and each day's end; ``y`` is the row's middle."""
    entries = [(f"kind:{k}", f"cereal_killer.kind.{KIND_NAMES[k]}") for k in KIND_ORDER if geo.of_kind(k)]
    pieces = ["detective", *(["lola"] if players == 3 else []), "witness", "victim", "killer"]
    entries += [(f"piece:{p}", f"cereal_killer.legend.{p}") for p in pieces]
    lines = [(f"line:{k}", f"cereal_killer.legend.{name}") for k, name in (("U", "underground"), ("T", "train"))
             if geo.of_kind(k)]
    top = HEADER + geo.rows * CELL + LEGEND_PAD + LEGEND_ROW // 2
    width = COLUMNS * CELL // LEGEND_COLUMNS
    placed = [(what, key, (i % LEGEND_COLUMNS) * width + 20, top + (i // LEGEND_COLUMNS) * LEGEND_ROW)
              for i, (what, key) in enumerate(entries)]
    row = top + math.ceil(len(entries) / LEGEND_COLUMNS) * LEGEND_ROW
    placed += [(what, key, i * (COLUMNS * CELL // 2) + 20, row) for i, (what, key) in enumerate(lines)]
    if routes:
        marks = ["line", "start", *(["day_end"] if routes == "numbered" else [])]
        placed += [(f"route:{mark}", f"cereal_killer.legend.route_{mark}", i * width + 20, row + LEGEND_ROW)
                   for i, mark in enumerate(marks)]
    return placed


def image_size(geo: Geometry, players: int, routes: str = "") -> tuple[int, int]:
    """(width, height) of the picture: fixed per board pair, player count and whether a route is drawn (one more
    legend row)."""
    bottom = max(y for *_, y in _legend(geo, players, routes)) + LEGEND_ROW // 2
    return COLUMNS * CELL, bottom + LEGEND_PAD


@dataclass(frozen=True)
class _Layers:
    """What no move changes, drawn once per board pair, player count, language and route legend: the background
    with the cells, transit lines, space numbers and legend; each space number's badge (drawn again over the
    pieces, as the numbers are always on top) and where it goes; the PNG encoder against that background."""

    base: Image.Image
    numbers: tuple[tuple[Image.Image, tuple[int, int]], ...]
    png: BandedPng


@lru_cache(maxsize=32)
def _layers(city: str, suburbs: str | None, players: int, language: str, routes: str) -> _Layers:
    geo = geometry(city, suburbs)
    base = Image.new("RGB", image_size(geo, players, routes), BACKGROUND)
    draw = ImageDraw.Draw(base)
    _draw_cells(draw, geo)
    _draw_transit(draw, geo)
    numbers = tuple(_number_badge(geo, space) for space in geo.spaces)
    for badge, spot in numbers:
        base.paste(badge, spot, badge)
    _draw_legend(draw, geo, players, routes, language)
    return _Layers(base=base, numbers=numbers, png=BandedPng(base, _sample(base, geo, language), PALETTE))


def _sample(base: Image.Image, geo: Geometry, language: str) -> Image.Image:
    """``base`` with something of everything a move draws (header text, pieces, victims, routes and their marks)
    over every kind of space: the picture the palette is made from."""
    sample = base.copy()
    draw = ImageDraw.Draw(sample)
    _draw_header(draw, {"day": 8, "days": 8, "arrests_left": 4, "victims": [0] * 9}, language)
    spaces = list(geo.spaces)
    _draw_routes(draw, geo, [spaces[i::3] for i in range(3)] * 2, numbered=True)
    for index, space in enumerate(spaces):
        x, y = _centre(geo, space)
        name = list(PIECE_LETTERS)[index % len(PIECE_LETTERS)]
        art.piece(draw, name, (x + OFFSETS[name][0], y + OFFSETS[name][1]), 28, PIECE_LETTERS[name])
        art.cereal(draw, (_cell_box(geo, space)[2] - 32, _cell_box(geo, space)[1] + 32), 20)
    return sample


def _number_badge(geo: Geometry, space: int) -> tuple[Image.Image, tuple[int, int]]:
    """The number of ``space`` on its white badge (transparent around it) and the badge's top left corner."""
    x0, y0, _, _ = _cell_box(geo, space)
    number = art.font(34, bold=True)
    probe = ImageDraw.Draw(Image.new("RGB", (1, 1)))
    box = probe.textbbox((x0 + 14, y0 + 10), str(space), font=number)
    left, top, right, bottom = box[0] - 6, box[1] - 4, box[2] + 6, box[3] + 4
    badge = Image.new("RGBA", (right - left + 1, bottom - top + 1), (0, 0, 0, 0))
    draw = ImageDraw.Draw(badge)
    draw.rounded_rectangle((0, 0, right - left, bottom - top), radius=8, fill=art.WHITE, outline=GRID, width=2)
    draw.text((x0 + 14 - left, y0 + 10 - top), str(space), fill=art.INK, font=number)
    return badge, (left, top)


def render_board(view: dict[str, Any], *, route: list[int] | None = None,
                 language: str = "en") -> tuple[bytes, str]:
    """PNG bytes and a text description of ``view``; ``route`` (the Killer's spaces in order) is drawn as a
    line ending on the Killer's star, for the Killer's private copy only. The static layers come from a cache
    (:func:`_layers`); a move costs its header, pieces and route, and the PNG bands they touch."""
    image, changed, layers = draw_board(view, route=route, language=language)
    return layers.png.encode(image, changed), describe(view, route=route, language=language)


def draw_board(view: dict[str, Any], *, route: list[int] | None = None,
               language: str = "en") -> tuple[Image.Image, list[tuple[float, float]], _Layers]:
    """The picture of :func:`render_board` before encoding: the RGB image, the row ranges ``(top, bottom)``
    drawn over the cached background, and the cached layers (whose ``png`` encodes it)."""
    geo = board_geometry(view)
    routes = _revealed_routes(view, route)
    legend = ("route" if route else "numbered") if routes else ""
    boards = view["boards"]
    layers = _layers(boards["city"], boards["suburbs"], view["players"], language, legend)
    image = layers.base.copy()
    draw = ImageDraw.Draw(image)
    image.paste(_header(_header_text(view, language)), (0, 0))
    changed: list[tuple[float, float]] = [(0, HEADER)]
    if routes:
        changed += _draw_routes(draw, geo, routes, numbered=route is None)
    changed += _draw_pieces(draw, geo, view, killer_space(view, route))
    for badge, spot in layers.numbers:
        image.paste(badge, spot, badge)
    return image, changed, layers


def _header_text(view: dict[str, Any], language: str) -> str:
    return t("cereal_killer.render.header", language, day=view["day"], days=view["days"],
             left=view["arrests_left"], victims=len(view["victims"]))


def _draw_header(draw: ImageDraw.ImageDraw, view: dict[str, Any], language: str) -> None:
    draw.text((24, HEADER // 2), _header_text(view, language), fill=art.INK, font=art.font(40, bold=True),
              anchor="lm")


@lru_cache(maxsize=256)
def _header(text: str) -> Image.Image:
    """The header strip with ``text`` (a few hundred different ones in a whole game's days, victims and arrests)."""
    strip = Image.new("RGB", (COLUMNS * CELL, HEADER), BACKGROUND)
    ImageDraw.Draw(strip).text((24, HEADER // 2), text, fill=art.INK, font=art.font(40, bold=True), anchor="lm")
    return strip


def _draw_cells(draw: ImageDraw.ImageDraw, geo: Geometry) -> None:
    for space in geo.spaces:
        x0, y0, x1, y1 = _cell_box(geo, space)
        kind = geo.kind(space)
        draw.rectangle((x0, y0, x1 - 1, y1 - 1), fill=art.KIND_COLOURS[kind], outline=GRID, width=3)
        cx, cy = _centre(geo, space)
        art.symbol(draw, kind, (cx, cy - 14), 96)
    if geo.rows > 4:  # the seam between City and Suburbs
        y = HEADER + 4 * CELL
        draw.line((0, y, COLUMNS * CELL, y), fill=art.INK, width=8)


def _draw_transit(draw: ImageDraw.ImageDraw, geo: Geometry) -> None:
    """The Underground (both ways: an arrow at each end) and the Train (one way round its loop: each hop bowed
    outwards with an arrow in the middle and at its end)."""
    for board in geo.boards:
        if board.underground:
            a, b = (_centre(geo, s) for s in board.underground)
            art.polyline(draw, [a, b], art.UNDERGROUND, 12)
            for tip, tail in ((a, b), (b, a)):
                art.arrowhead(draw, _towards(tip, tail, 46), tail, 34, art.UNDERGROUND)
        if board.train:
            loop = [_centre(geo, s) for s in board.train]
            middle = (sum(p[0] for p in loop) / len(loop), sum(p[1] for p in loop) / len(loop))
            for i, a in enumerate(loop):
                b = loop[(i + 1) % len(loop)]
                points = art.curve(a, b, _outward(a, b, middle) * 0.22 * math.dist(a, b))
                art.polyline(draw, points, art.TRAIN, 12)
                half = len(points) // 2
                art.arrowhead(draw, points[half + 1], points[half - 2], 34, art.TRAIN)
                end = next(p for p in reversed(points) if math.dist(p, b) >= 46)
                art.arrowhead(draw, end, points[points.index(end) - 2], 30, art.TRAIN)


def _towards(point: art.Point, other: art.Point, distance: float) -> art.Point:
    """The point ``distance`` px from ``point`` on the way to ``other``."""
    length = math.dist(point, other) or 1.0
    return (point[0] + (other[0] - point[0]) * distance / length, point[1] + (other[1] - point[1]) * distance / length)


def _outward(a: art.Point, b: art.Point, middle: art.Point) -> int:
    """+1 when the left of the travel a -> b points away from ``middle`` (the loop's centre), else -1."""
    left = (a[1] - b[1], b[0] - a[0])
    mid = ((a[0] + b[0]) / 2 - middle[0], (a[1] + b[1]) / 2 - middle[1])
    return 1 if left[0] * mid[0] + left[1] * mid[1] >= 0 else -1


def _draw_routes(draw: ImageDraw.ImageDraw, geo: Geometry, routes: list[list[int]], *,
                 numbered: bool) -> list[tuple[float, float]]:
    """The Killer's route(s) as red lines from its first space (an open ring), an arrow in the middle of each
    leg; legs that cover the same two spaces (a step retraced, the same street another day) run side by side,
    :data:`LANE` px apart, in the order walked; ``numbered``: each day's last space gets the day's number.
    Returns the row ranges drawn on (each leg's, the start's ring, each day's end mark)."""
    changed: list[tuple[float, float]] = []
    legs = [[(a, b) for a, b in zip(route, route[1:], strict=False) if a != b and geo.is_space(a) and geo.is_space(b)]
            for route in routes]
    shared = Counter(frozenset(leg) for day in legs for leg in day)
    taken: Counter[frozenset[int]] = Counter()
    for day in legs:
        points: list[art.Point] = []
        arrows = []
        for a, b in day:
            key = frozenset((a, b))
            offset = (taken[key] - (shared[key] - 1) / 2) * LANE
            taken[key] += 1
            start, end = _side_by_side(_centre(geo, a), _centre(geo, b), offset, a < b)
            points += [start, end]
            arrows.append((start, end))
            changed.append((min(start[1], end[1]) - MARGIN, max(start[1], end[1]) + MARGIN))
        if points:
            art.polyline(draw, points, art.ROUTE, 9)
        for start, end in arrows:
            middle = ((start[0] + end[0]) / 2, (start[1] + end[1]) / 2)
            art.arrowhead(draw, _towards(middle, end, 10), start, 20, art.ROUTE)
    if not routes[0] or not geo.is_space(routes[0][0]):
        return changed
    x, y = _centre(geo, routes[0][0])
    draw.ellipse((x - 20, y - 20, x + 20, y + 20), outline=art.ROUTE, width=6)
    changed.append((y - 24, y + 24))
    if not numbered:
        return changed
    ended: dict[int, int] = {}
    for day, route in enumerate(routes, start=1):
        if route and geo.is_space(route[-1]):
            x0, y0, _, _ = _cell_box(geo, route[-1])
            k = ended[route[-1]] = ended.get(route[-1], -1) + 1
            spot = (x0 + 26 + 36 * (k // 3), y0 + 74 + 36 * (k % 3))  # one space's days side by side
            _day_end(draw, spot, day)
            changed.append((spot[1] - 20, spot[1] + 20))
    return changed


def _side_by_side(a: art.Point, b: art.Point, offset: float, forward: bool) -> tuple[art.Point, art.Point]:
    """The leg a -> b moved ``offset`` px sideways, to the left of the travel from the lower-numbered space
    (``forward``: a is that space), so that both directions of a street share one set of lanes."""
    (fx, fy), (tx, ty) = (a, b) if forward else (b, a)
    length = math.dist(a, b) or 1.0
    nx, ny = (fy - ty) / length * offset, (tx - fx) / length * offset
    return (a[0] + nx, a[1] + ny), (b[0] + nx, b[1] + ny)


def _day_end(draw: ImageDraw.ImageDraw, spot: art.Point, day: int | str) -> None:
    """The mark of where a day's route ended: the day's number on a red disc."""
    draw.ellipse((spot[0] - 16, spot[1] - 16, spot[0] + 16, spot[1] + 16), fill=art.ROUTE, outline=art.WHITE,
                 width=2)
    draw.text(spot, str(day), fill=art.WHITE, font=art.font(22, bold=True), anchor="mm")


def _draw_pieces(draw: ImageDraw.ImageDraw, geo: Geometry, view: dict[str, Any],
                 killer: int | None) -> list[tuple[float, float]]:
    """The victims and the pieces; returns the rows drawn on (each centre, give or take the size and outline)."""
    changed = []
    for victim in view["victims"]:
        _, y0, x1, _ = _cell_box(geo, victim["space"])
        art.cereal(draw, (x1 - 32, y0 + 32), 20)
        changed.append((y0 + 32 - 24, y0 + 32 + 24))
    for name, space in (("witness", view["witness"]), ("detective", view["detective"]), ("lola", view["lola"]),
                        ("killer", killer)):
        if space is not None and geo.is_space(space):
            cx, cy = _centre(geo, space)
            dx, dy = OFFSETS[name]
            art.piece(draw, name, (cx + dx, cy + dy), 28, PIECE_LETTERS[name])
            changed.append((cy + dy - 44, cy + dy + 44))
    return changed


def _draw_legend(draw: ImageDraw.ImageDraw, geo: Geometry, players: int, routes: str, language: str) -> None:
    text = art.font(26)
    for what, key, x, y in _legend(geo, players, routes):
        kind, _, name = what.partition(":")
        icon = (x + 24, y)
        if kind == "kind":
            draw.rectangle((x, y - 24, x + 48, y + 24), fill=art.KIND_COLOURS[name], outline=GRID, width=2)
            art.symbol(draw, name, icon, 42)
        elif name == "victim":
            art.cereal(draw, icon, 18)
        elif kind == "piece":
            art.piece(draw, name, icon, 18, PIECE_LETTERS[name])
        elif kind == "route":
            _route_icon(draw, name, x, y)
        else:
            colour = art.UNDERGROUND if name == "U" else art.TRAIN
            draw.line((x + 4, y, x + 44, y), fill=colour, width=10)
            art.arrowhead(draw, (x + 52, y), (x, y), 22, colour)
            if name == "U":
                art.arrowhead(draw, (x - 4, y), (x + 48, y), 22, colour)
        draw.text((x + 62, y), t(key, language), fill=art.INK, font=text, anchor="lm")


def _route_icon(draw: ImageDraw.ImageDraw, mark: str, x: int, y: int) -> None:
    """The legend's picture of a route mark: a leg with its arrow, the start's ring, a day's end."""
    if mark == "line":
        art.polyline(draw, [(x + 2, y), (x + 46, y)], art.ROUTE, 9)
        art.arrowhead(draw, (x + 36, y), (x, y), 24, art.ROUTE)
    elif mark == "start":
        draw.ellipse((x + 4, y - 20, x + 44, y + 20), outline=art.ROUTE, width=6)
    else:
        _day_end(draw, (x + 24, y), "N")
