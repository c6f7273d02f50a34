"""Drawing primitives for the Cereal Killer board: one symbol per space kind, one shape per piece, arrows.

Everything is drawn with Pillow's vector primitives and one packaged font (no emoji or system font), so the
picture is the same on every machine. Sizes are in pixels of the final (double-size) image; ``(x, y)`` is the
centre of what is drawn.
Symbols: House (a house with a roof and door), Park (a tree), Cafe (a steaming cup), Underground (a roundel),
Train station (a train seen from the front), Food (a dog bowl with a bone), Street (a road with lane marks).
Pieces differ by shape as well as colour: Detective a circle, Lola a triangle, Witness a diamond, the Killer a
star, a victim a cereal ring.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from functools import cache

import font_roboto  # type: ignore[import-untyped]
from PIL import ImageDraw, ImageFont

Colour = tuple[int, int, int]
Point = tuple[float, float]

INK = (34, 34, 40)
WHITE = (255, 255, 255)
KIND_COLOURS: dict[str, tuple[int, int, int]] = {
    "H": (247, 226, 196),  # House: sand
    "P": (200, 232, 178),  # Park: grass
    "C": (232, 212, 236),  # Cafe: lilac
    "U": (206, 222, 246),  # Underground: pale blue
    "T": (196, 236, 232),  # Train station: pale teal
    "F": (252, 238, 170),  # Food: yellow
    "S": (226, 226, 226),  # Street: grey
}
UNDERGROUND = (36, 86, 190)
TRAIN = (0, 132, 120)
ROUTE = (206, 30, 44)
CEREAL = (240, 150, 30)
PIECE_COLOURS: dict[str, tuple[int, int, int]] = {
    "detective": (32, 66, 160), "lola": (150, 90, 40), "witness": WHITE, "killer": ROUTE,
}


@cache
def font(size: int, *, bold: bool = False) -> ImageFont.FreeTypeFont:
    """Roboto (the ``font-roboto`` package: Latin letters with accents, identical everywhere) at ``size`` px."""
    return ImageFont.truetype(font_roboto.RobotoMedium if bold else font_roboto.Roboto, size)


# ------------------------------------------------------------------ space kinds

def _house(d: ImageDraw.ImageDraw, x: float, y: float, s: float) -> None:
    body = (x - s * 0.32, y - s * 0.05, x + s * 0.32, y + s * 0.4)
    d.rectangle(body, fill=(236, 176, 120), outline=INK, width=3)
    d.polygon([(x - s * 0.44, y - s * 0.02), (x, y - s * 0.42), (x + s * 0.44, y - s * 0.02)],
              fill=(190, 64, 52), outline=INK, width=3)
    d.rectangle((x - s * 0.08, y + s * 0.14, x + s * 0.08, y + s * 0.4), fill=(120, 74, 40), outline=INK, width=2)


def _park(d: ImageDraw.ImageDraw, x: float, y: float, s: float) -> None:
    d.rectangle((x - s * 0.06, y + s * 0.08, x + s * 0.06, y + s * 0.42), fill=(120, 80, 44), outline=INK, width=2)
    d.ellipse((x - s * 0.34, y - s * 0.42, x + s * 0.34, y + s * 0.2), fill=(64, 150, 70), outline=INK, width=3)


def _cafe(d: ImageDraw.ImageDraw, x: float, y: float, s: float) -> None:
    d.ellipse((x + s * 0.12, y - s * 0.05, x + s * 0.42, y + s * 0.25), outline=INK, width=4)
    d.rounded_rectangle((x - s * 0.34, y - s * 0.12, x + s * 0.22, y + s * 0.38), radius=s * 0.1,
                        fill=(150, 96, 60), outline=INK, width=3)
    d.line((x - s * 0.44, y + s * 0.42, x + s * 0.34, y + s * 0.42), fill=INK, width=4)
    for dx in (-0.18, 0.04):
        d.arc((x + s * (dx - 0.06), y - s * 0.44, x + s * (dx + 0.06), y - s * 0.2), 90, 270, fill=INK, width=3)


def _underground(d: ImageDraw.ImageDraw, x: float, y: float, s: float) -> None:
    r = s * 0.36
    d.ellipse((x - r, y - r, x + r, y + r), outline=UNDERGROUND, width=max(4, int(s * 0.12)))
    d.rectangle((x - s * 0.46, y - s * 0.08, x + s * 0.46, y + s * 0.08), fill=UNDERGROUND)


def _train(d: ImageDraw.ImageDraw, x: float, y: float, s: float) -> None:
    d.rounded_rectangle((x - s * 0.3, y - s * 0.4, x + s * 0.3, y + s * 0.3), radius=s * 0.12, fill=TRAIN,
                        outline=INK, width=3)
    d.rectangle((x - s * 0.2, y - s * 0.3, x + s * 0.2, y - s * 0.06), fill=(220, 244, 240), outline=INK, width=2)
    for dx in (-0.16, 0.16):
        d.ellipse((x + s * (dx - 0.06), y + s * 0.06, x + s * (dx + 0.06), y + s * 0.18), fill=(255, 230, 120))
    d.line((x - s * 0.22, y + s * 0.3, x - s * 0.34, y + s * 0.44), fill=INK, width=4)
    d.line((x + s * 0.22, y + s * 0.3, x + s * 0.34, y + s * 0.44), fill=INK, width=4)


def _bone(d: ImageDraw.ImageDraw, x: float, y: float, s: float) -> None:
    fill = WHITE
    d.rectangle((x - s * 0.22, y - s * 0.05, x + s * 0.22, y + s * 0.05), fill=fill, outline=INK, width=2)
    for dx in (-0.24, 0.24):
        for dy in (-0.06, 0.06):
            cx, cy = x + s * dx, y + s * dy
            d.ellipse((cx - s * 0.07, cy - s * 0.07, cx + s * 0.07, cy + s * 0.07), fill=fill, outline=INK, width=2)
    d.rectangle((x - s * 0.2, y - s * 0.035, x + s * 0.2, y + s * 0.035), fill=fill)


def _food(d: ImageDraw.ImageDraw, x: float, y: float, s: float) -> None:
    d.chord((x - s * 0.42, y - s * 0.2, x + s * 0.42, y + s * 0.44), 0, 180, fill=(196, 60, 60), outline=INK,
            width=3)
    _bone(d, x, y - s * 0.2, s)


def _street(d: ImageDraw.ImageDraw, x: float, y: float, s: float) -> None:
    d.rectangle((x - s * 0.22, y - s * 0.44, x + s * 0.22, y + s * 0.44), fill=(150, 150, 156))
    for k in range(3):
        top = y - s * 0.38 + k * s * 0.3
        d.rectangle((x - s * 0.03, top, x + s * 0.03, top + s * 0.16), fill=WHITE)


SYMBOLS: dict[str, Callable[[ImageDraw.ImageDraw, float, float, float], None]] = {
    "H": _house, "P": _park, "C": _cafe, "U": _underground, "T": _train, "F": _food, "S": _street,
}


def symbol(d: ImageDraw.ImageDraw, kind: str, centre: Point, size: float) -> None:
    """The symbol of space ``kind`` (``H``, ``P``, ``C``, ``U``, ``T``, ``F``, ``S``) ``size`` px wide."""
    SYMBOLS[kind](d, centre[0], centre[1], size)


# ------------------------------------------------------------------ pieces

def _star(x: float, y: float, r: float) -> list[Point]:
    points = []
    for k in range(10):
        angle = -math.pi / 2 + k * math.pi / 5
        radius = r if k % 2 == 0 else r * 0.48
        points.append((x + radius * math.cos(angle), y + radius * math.sin(angle)))
    return points


def piece(d: ImageDraw.ImageDraw, kind: str, centre: Point, r: float, letter: str) -> None:
    """A piece ``kind`` (``detective``, ``lola``, ``witness``, ``killer``) of radius ``r`` with its letter."""
    x, y = centre
    fill = PIECE_COLOURS[kind]
    if kind == "detective":
        d.ellipse((x - r, y - r, x + r, y + r), fill=fill, outline=INK, width=3)
    elif kind == "lola":
        polygon(d, [(x, y - r * 1.15), (x + r * 1.1, y + r * 0.8), (x - r * 1.1, y + r * 0.8)], fill, INK, 3)
        y += r * 0.22
    elif kind == "witness":
        polygon(d, [(x, y - r * 1.15), (x + r * 1.05, y), (x, y + r * 1.15), (x - r * 1.05, y)], fill, INK, 3)
    else:
        polygon(d, _star(x, y, r * 1.35), fill, INK, 3)
    d.text((x, y), letter, fill=INK if kind == "witness" else WHITE, font=font(int(r * 0.95), bold=True),
           anchor="mm")


def cereal(d: ImageDraw.ImageDraw, centre: Point, r: float) -> None:
    """A victim: a cereal ring."""
    x, y = centre
    d.ellipse((x - r, y - r, x + r, y + r), fill=CEREAL, outline=INK, width=3)
    d.ellipse((x - r * 0.4, y - r * 0.4, x + r * 0.4, y + r * 0.4), fill=WHITE, outline=INK, width=2)


# ------------------------------------------------------------------ lines and arrows

def arrowhead(d: ImageDraw.ImageDraw, tip: Point, towards: Point, size: float, fill: Colour) -> None:
    """A filled arrowhead ``size`` px long with its point at ``tip``, pointing along the travel from ``towards``
    to ``tip``."""
    angle = math.atan2(tip[1] - towards[1], tip[0] - towards[0])
    left = (tip[0] - size * math.cos(angle - 0.45), tip[1] - size * math.sin(angle - 0.45))
    right = (tip[0] - size * math.cos(angle + 0.45), tip[1] - size * math.sin(angle + 0.45))
    polygon(d, [tip, left, right], fill, WHITE, 2)


def polygon(d: ImageDraw.ImageDraw, points: Sequence[Point], fill: Colour, outline: Colour, width: int) -> None:
    """A filled polygon with an outline ``width`` px thick inside its edge. Pillow draws such an outline through a
    mask as large as the whole picture; drawn on a crop of the polygon's own box (moved by whole pixels, so every
    pixel comes out the same) it costs a small fraction of that."""
    image = d._image  # noqa: SLF001 - the picture this ImageDraw draws on
    left = max(0, math.floor(min(x for x, _ in points)) - 2)
    top = max(0, math.floor(min(y for _, y in points)) - 2)
    right = min(image.width, math.ceil(max(x for x, _ in points)) + 3)
    bottom = min(image.height, math.ceil(max(y for _, y in points)) + 3)
    if right <= left or bottom <= top:
        return
    crop = image.crop((left, top, right, bottom))
    ImageDraw.Draw(crop).polygon([(x - left, y - top) for x, y in points], fill=fill, outline=outline, width=width)
    image.paste(crop, (left, top))


def curve(a: Point, b: Point, bow: float, steps: int = 24) -> list[Point]:
    """Points of a quadratic curve from ``a`` to ``b`` bowed sideways by ``bow`` px (0: straight; the sign picks
    the side: positive towards ``(a.y - b.y, b.x - a.x)``)."""
    mx, my = (a[0] + b[0]) / 2, (a[1] + b[1]) / 2
    length = math.hypot(b[0] - a[0], b[1] - a[1]) or 1.0
    cx, cy = mx + bow * (a[1] - b[1]) / length, my + bow * (b[0] - a[0]) / length
    out = []
    for k in range(steps + 1):
        t = k / steps
        out.append(((1 - t) ** 2 * a[0] + 2 * (1 - t) * t * cx + t * t * b[0],
                    (1 - t) ** 2 * a[1] + 2 * (1 - t) * t * cy + t * t * b[1]))
    return out


def polyline(d: ImageDraw.ImageDraw, points: Sequence[Point], fill: Colour, width: int) -> None:
    """A thick line through ``points`` with round joints."""
    rounded = [(round(x), round(y)) for x, y in points]
    d.line(rounded, fill=fill, width=width, joint="curve")
    for x, y in (rounded[0], rounded[-1]):
        d.ellipse((x - width / 2, y - width / 2, x + width / 2, y + width / 2), fill=fill)
