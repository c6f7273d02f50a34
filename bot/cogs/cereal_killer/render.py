"""Draw a Cereal Killer board as a PNG, with a plain-text description for people who cannot see it.

``render_board(view, route=..., language=...)`` takes an engine view (``ENGINE.view(state, seat)``) and returns
``(png_bytes, description)``. The image has a fixed size per player count (a header strip over 5 x 4 cells for
2 players, 5 x 8 for 3) and is byte-identical for the same input. The Killer's space is drawn and described
only when ``route`` is given (the Killer's private copy) or when the view reveals it at the end of the game.
"""

from __future__ import annotations

import io
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from bot.i18n.catalog import t
from games.cereal_killer.board import COLUMNS, KIND_NAMES, Geometry, geometry

CELL = 96
HEADER = 44
KIND_COLOURS: dict[str, tuple[int, int, int]] = {
    "H": (238, 196, 150),  # House
    "P": (152, 204, 124),  # Park
    "C": (206, 162, 214),  # Cafe
    "U": (140, 170, 222),  # Underground
    "T": (112, 196, 204),  # Train
    "F": (250, 222, 104),  # Food
    "S": (214, 214, 214),  # Street
}
INK = (30, 30, 30)
ROUTE = (200, 30, 40)
TRANSIT = (40, 70, 160)
PIECES: dict[str, tuple[str, tuple[int, int, int], tuple[int, int, int]]] = {
    # piece -> (letter, fill, text colour)
    "detective": ("D", (30, 60, 150), (255, 255, 255)),
    "lola": ("L", (140, 80, 30), (255, 255, 255)),
    "witness": ("W", (255, 255, 255), INK),
    "killer": ("K", ROUTE, (255, 255, 255)),
}
CEREAL = (240, 140, 20)


def _font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    return ImageFont.load_default(size=size)


def _cell_box(geo: Geometry, space: int) -> tuple[int, int, int, int]:
    x = (geo.column(space) - 1) * CELL
    y = HEADER + (geo.row(space) - 1) * CELL
    return x, y, x + CELL, y + CELL


def _centre(geo: Geometry, space: int) -> tuple[int, int]:
    x0, y0, x1, y1 = _cell_box(geo, space)
    return (x0 + x1) // 2, (y0 + y1) // 2


def board_geometry(view: dict[str, Any]) -> Geometry:
    """The board of an engine view (its ``boards`` City and Suburbs)."""
    boards = view["boards"]
    return geometry(boards["city"], boards["suburbs"])


def _killer_space(view: dict[str, Any], route: list[int] | None) -> int | None:
    if route:
        return route[-1]
    revealed = view.get("revealed")
    return None if not revealed else revealed.get("killer_space")


def render_board(view: dict[str, Any], *, route: list[int] | None = None,
                 language: str = "en") -> tuple[bytes, str]:
    """PNG bytes and a text description of ``view``; ``route`` (the Killer's spaces in order) is drawn as a
    line and its last space marked K, for the Killer's private copy only."""
    geo = board_geometry(view)
    image = Image.new("RGB", (COLUMNS * CELL, HEADER + geo.rows * CELL), (250, 248, 240))
    draw = ImageDraw.Draw(image)
    _draw_header(draw, view, language)
    _draw_cells(draw, geo)
    _draw_transit(draw, geo)
    if route:
        _draw_route(draw, geo, route)
    _draw_pieces(draw, geo, view, _killer_space(view, route))
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", optimize=False)
    return buffer.getvalue(), describe(view, route=route, language=language)


def _draw_header(draw: ImageDraw.ImageDraw, view: dict[str, Any], language: str) -> None:
    text = t("cereal_killer.render.header", language, day=view["day"], days=view["days"],
             left=view["arrests_left"], victims=len(view["victims"]))
    draw.text((10, HEADER // 2), text, fill=INK, font=_font(20), anchor="lm")


def _draw_cells(draw: ImageDraw.ImageDraw, geo: Geometry) -> None:
    number_font, kind_font = _font(18), _font(13)
    for space in geo.spaces:
        x0, y0, x1, y1 = _cell_box(geo, space)
        kind = geo.kind(space)
        draw.rectangle((x0, y0, x1 - 1, y1 - 1), fill=KIND_COLOURS[kind], outline=(90, 90, 90), width=2)
        draw.text((x0 + 6, y0 + 4), str(space), fill=INK, font=number_font)
        draw.text((x1 - 8, y0 + 6), kind, fill=(70, 70, 70), font=kind_font, anchor="ra")
    if geo.rows > 4:  # the seam between City and Suburbs
        y = HEADER + 4 * CELL
        draw.line((0, y, COLUMNS * CELL, y), fill=INK, width=4)


def _draw_transit(draw: ImageDraw.ImageDraw, geo: Geometry) -> None:
    for a, targets in sorted(geo.hops.items()):
        for b in targets:
            if b in geo.neighbours(a):
                continue
            (xa, ya), (xb, yb) = _centre(geo, a), _centre(geo, b)
            draw.line((xa, ya + 30, xb, yb + 30), fill=TRANSIT, width=2)
            draw.ellipse((xb - 4, yb + 26, xb + 4, yb + 34), fill=TRANSIT)  # arrival end of a hop


def _draw_route(draw: ImageDraw.ImageDraw, geo: Geometry, route: list[int]) -> None:
    points = [_centre(geo, s) for s in route if geo.is_space(s)]
    if len(points) > 1:
        draw.line(points, fill=ROUTE, width=5, joint="curve")
    for i, (x, y) in enumerate(points):
        radius = 9 if i == 0 else 5
        draw.ellipse((x - radius, y - radius, x + radius, y + radius), outline=ROUTE, width=3)


def _token(draw: ImageDraw.ImageDraw, centre: tuple[int, int], piece: str) -> None:
    letter, fill, text = PIECES[piece]
    x, y = centre
    draw.ellipse((x - 15, y - 15, x + 15, y + 15), fill=fill, outline=INK, width=2)
    draw.text((x, y), letter, fill=text, font=_font(18), anchor="mm")


def _draw_pieces(draw: ImageDraw.ImageDraw, geo: Geometry, view: dict[str, Any], killer: int | None) -> None:
    for victim in view["victims"]:
        x0, _, _, y1 = _cell_box(geo, victim["space"])
        draw.ellipse((x0 + 8, y1 - 26, x0 + 26, y1 - 8), fill=CEREAL, outline=INK, width=2)
    offsets = {"detective": (-18, 8), "lola": (18, 8), "witness": (0, -14), "killer": (0, 30)}
    for piece, space in (("witness", view["witness"]), ("detective", view["detective"]), ("lola", view["lola"]),
                         ("killer", killer)):
        if space is not None and geo.is_space(space):
            cx, cy = _centre(geo, space)
            dx, dy = offsets[piece]
            _token(draw, (cx + dx, cy + dy), piece)


def place_name(geo: Geometry, space: int, language: str) -> str:
    """A space in words, e.g. "12 (Park)"."""
    return t("cereal_killer.render.place", language, space=space,
             kind=t(f"cereal_killer.kind.{KIND_NAMES[geo.kind(space)]}", language))


def describe(view: dict[str, Any], *, route: list[int] | None = None, language: str = "en") -> str:
    """The board in words: day, boards, pieces, victims, answers, arrests, objective (and the route if given)."""
    geo = board_geometry(view)
    boards = view["boards"]
    lines = [t("cereal_killer.render.title", language, day=view["day"], days=view["days"])]
    if boards["suburbs"] is None:
        lines.append(t("cereal_killer.render.board", language, city=boards["city"]))
    else:
        lines.append(t("cereal_killer.render.boards", language, city=boards["city"], suburbs=boards["suburbs"]))
    for piece in ("detective", "lola", "witness"):
        if view[piece] is not None:
            lines.append(t(f"cereal_killer.render.{piece}", language, place=place_name(geo, view[piece], language)))
    victims = ", ".join(str(v["space"]) for v in view["victims"])
    lines.append(t("cereal_killer.render.victims", language, count=len(view["victims"]), spaces=victims or "-"))
    for answer in view["answers"]:
        lines.append(t("cereal_killer.render.answer", language, day=answer["day"], witness=answer["witness"],
                       question=t(f"cereal_killer.question.{answer['question']}", language),
                       answer=t(f"cereal_killer.answer.{answer['answer']}", language)))
    lines.append(t("cereal_killer.render.arrests", language, left=view["arrests_left"]))
    objective = view["next_objective"]
    if objective is not None:
        lines.append(t("cereal_killer.render.objective", language, day=objective["day"],
                       victims=objective["victims"]))
    killer = _killer_space(view, route)
    if route:
        lines.append(t("cereal_killer.render.route", language, route=" → ".join(map(str, route)),
                       place=place_name(geo, route[-1], language)))
    elif killer is not None:
        lines.append(t("cereal_killer.render.revealed", language, place=place_name(geo, killer, language)))
    return "\n".join(lines)
