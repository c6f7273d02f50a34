"""Look-alike characters, after Unicode's confusable detection (Unicode Technical Standard #39, section 4: two
strings are confusable when their *skeletons* are equal; a skeleton is the string in NFD with every character
replaced by its prototype, in NFD again).

The data is Unicode's ``confusables.txt`` as the ``confusable-homoglyphs`` package ships it (``confusables_data``:
each character, and each prototype, with the characters it is confusable with). That table keeps the pairs but
not which side of each is the prototype, so :func:`prototype` stands in for it with one member of the character's
confusable class: each source character of ``confusables.txt`` has exactly one prototype and a prototype is never
a source, so a class is one prototype and its sources, and whichever member stands for the class, two strings
get the same skeleton exactly when TR39's would be the same. The member chosen is the prototype where the table
shows it (the one confusable with several others, or the one of several characters), else the ASCII one, else
the lowest code point.

Source: https://www.unicode.org/reports/tr39/#Confusable_Detection; data: ``confusable_homoglyphs.confusables``.
"""

from __future__ import annotations

import unicodedata
from functools import cache

from confusable_homoglyphs.confusables import confusables_data


def _rank(member: str, degree: int) -> tuple[int, int, int, list[int]]:
    """Sort key of a class member to stand for its class (smallest first, see the module)."""
    return (-degree, -len(member), 0 if member.isascii() else 1, [ord(c) for c in member])


@cache
def _prototypes() -> dict[str, str]:
    """``character -> the member standing for its confusable class`` (characters standing for themselves left
    out), built once from the table."""
    neighbours: dict[str, set[str]] = {}
    for char, similar in confusables_data.items():
        for entry in similar:
            neighbours.setdefault(char, set()).add(entry["c"])
            neighbours.setdefault(entry["c"], set()).add(char)
    stands_for: dict[str, str] = {}
    for start in neighbours:
        if start in stands_for:
            continue
        members, todo = {start}, [start]
        while todo:
            for other in neighbours[todo.pop()] - members:
                members.add(other)
                todo.append(other)
        head = min(members, key=lambda m: _rank(m, len(neighbours[m])))
        stands_for.update({m: head for m in members if len(m) == 1 and m != head})
    return stands_for


def prototype(char: str) -> str:
    """What ``char`` (one code point) reads as: the member standing for its confusable class (see the module),
    ``char`` itself when it is confusable with nothing. ``prototype("А")`` (Cyrillic) is the Latin ``"A"``."""
    return _prototypes().get(char, char)


def skeleton(text: str) -> str:
    """TR39's skeleton of ``text``, with :func:`prototype`: equal for strings a reader cannot tell apart
    (``skeleton("Аlice") == skeleton("Alice")``, a Cyrillic "А"); only to compare, never to show."""
    return unicodedata.normalize("NFD", "".join(prototype(c) for c in unicodedata.normalize("NFD", text)))
