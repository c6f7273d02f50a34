"""The Farewell Letter name rule: a letter may not name a player (our ruling, ``editions/asesino-rulings.md``).

Names (user name, display name, server nickname of every seat) and the letter are compared after folding case
and stripping accents (Unicode NFKD, combining marks dropped, ``casefold``), as whole words: "Pablo" matches
"¡PÁBLO!" but not "Pablote".
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable


def fold(text: str) -> str:
    """``text`` without accents and case, with runs of whitespace collapsed to one space."""
    decomposed = unicodedata.normalize("NFKD", text)
    bare = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return " ".join(bare.casefold().split())


def named_player(text: str, names: Iterable[str]) -> str | None:
    """The first of ``names`` that ``text`` contains as a whole word (accent and case blind), else ``None``."""
    folded = fold(text)
    for name in names:
        key = fold(name)
        if key and re.search(rf"(?<!\w){re.escape(key)}(?!\w)", folded):
            return name
    return None
