"""Parse the Killer's secret turn from the text of a direct message.

Grammar (case- and accent-insensitive; one message, on one line or several)::

    message  := item+
    item     := SPACE                      a space of the walk, in order
              | START SPACE                start | from | s | inicio | desde | empiezo
              | VICTIM (SPACE | NONE)      victim | kill | v | victima | mato
              | NONE VICTIM                "no victim", "ninguna victima"
              | WITNESS SPACE              witness | w | testigo | t
              | PATH                       path | route | ruta | camino  (an optional label)
    NONE     := none | no | nobody | ninguna | nadie | "-"
    SPACE    := digits

Anything other than letters, digits and a lone ``-`` separates items (spaces, new lines, ``,`` ``;`` ``:``
``=`` ``->`` ``>`` ``→``), so ``8 3 2 1``, ``8-3-2-1``, ``8 -> 3 -> 2 -> 1`` and ``v3`` all read.
The walk holds 3 spaces (the steps) or 4 (the starting space, then the steps; not together with ``start N``).
Examples: ``8 3 2 1 victim 3 witness 4``; ``start 8\\n3 2 1\\nvictim 3\\nwitness 4``; later days ``3 2 1``.

:func:`parse_route` returns a :class:`~games.cereal_killer.models.KillerTurn` or a :class:`ParseError`;
whether the turn is legal is the engine's business (:func:`games.cereal_killer.killer.check_killer_turn`).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from typing import Any

from games.cereal_killer.models import KILLER_STEPS, KillerTurn

KEYWORDS: dict[str, str] = {
    **dict.fromkeys(("start", "from", "s", "inicio", "desde", "empiezo", "salida"), "start"),
    **dict.fromkeys(("victim", "kill", "v", "victima", "mato"), "victim"),
    **dict.fromkeys(("witness", "w", "testigo", "t"), "witness"),
    **dict.fromkeys(("path", "route", "ruta", "camino", "steps", "pasos"), "path"),
}
NONE_WORDS: frozenset[str] = frozenset({"none", "no", "nobody", "ninguna", "nadie", "-"})
_TOKEN = re.compile(r"\d+|[a-z]+|(?<![\w-])-(?![\w-])")


@dataclass(frozen=True)
class ParseError:
    """Why a message is not a turn: ``code`` is a catalogue key ``cereal_killer.parse.*``, ``params`` its values.

    Codes: ``empty``; ``unknown_word`` (word); ``missing_value`` (keyword); ``repeated`` (keyword);
    ``step_count`` (count, expected) when the walk is not 3 steps (4 spaces with the start);
    ``start_twice`` (start) when ``start N`` comes with a 4-space walk.
    """

    code: str
    params: dict[str, Any] = field(default_factory=dict)


def _tokens(text: str) -> list[str]:
    plain = unicodedata.normalize("NFKD", text.lower())
    plain = "".join(ch for ch in plain if not unicodedata.combining(ch))
    return _TOKEN.findall(plain)


def parse_route(text: str) -> KillerTurn | ParseError:
    """Read a Killer's turn (see the module grammar). Never raises."""
    tokens = _tokens(text)
    if not tokens:
        return ParseError("cereal_killer.parse.empty")
    walk: list[int] = []
    values: dict[str, int | None] = {}
    i = 0
    while i < len(tokens):
        token = tokens[i]
        i += 1
        if token.isdigit():
            walk.append(int(token))
            continue
        if token in NONE_WORDS and i < len(tokens) and KEYWORDS.get(tokens[i]) == "victim":
            token, tokens[i] = tokens[i], "none"  # "no victim" reads as "victim none"
        keyword = KEYWORDS.get(token)
        if keyword is None:
            if token == "-":
                continue
            return ParseError("cereal_killer.parse.unknown_word", {"word": token})
        if keyword == "path":
            continue
        if keyword in values:
            return ParseError("cereal_killer.parse.repeated", {"keyword": keyword})
        value = tokens[i] if i < len(tokens) else None
        if value is not None and value.isdigit():
            values[keyword] = int(value)
        elif keyword == "victim" and value in NONE_WORDS:
            values[keyword] = None
        else:
            return ParseError("cereal_killer.parse.missing_value", {"keyword": keyword})
        i += 1
    return _assemble(walk, values)


def _assemble(walk: list[int], values: dict[str, int | None]) -> KillerTurn | ParseError:
    start = values.get("start")
    if len(walk) == KILLER_STEPS + 1:
        if start is not None:
            return ParseError("cereal_killer.parse.start_twice", {"start": start})
        start, walk = walk[0], walk[1:]
    if len(walk) != KILLER_STEPS:
        return ParseError("cereal_killer.parse.step_count", {"count": len(walk), "expected": KILLER_STEPS})
    return KillerTurn(start=start, path=walk, victim=values.get("victim"), witness=values.get("witness"))
