"""What a Farewell Letter (and a clue from beyond) may not say: our rulings in ``editions/asesino-rulings.md``
("Farewell Letters") on the rulebook's "never directly" and "a reference to the place or a reference to the time,
but never both".

* **Names.** A word names a player when, compared without case or accents, it is a word of one of their names
  (user name, display name, server nickname), shares its first four letters with such a word, is within one
  letter of such a word of five letters or more, or is a common pet form of it (``data/pet_forms.yaml``, per
  language). A whole multi-word name counts too. A user mention (``<@id>``, ``<@!id>``) or a raw user id (a
  snowflake: 15-21 digits) is a name as well: Discord would show it as one.
* **Roles.** A role mention (``<@&id>``) is refused too (a role may stand for one player), as naming a role, not
  a player. ``@everyone`` and ``@here`` are plain words here (posted without pinging anyone).
* **Place and time.** The letter may refer to a place or to a time, never both; the expressions recognised are
  listed per language in ``data/letter_clues.yaml`` (clock times such as ``18:00`` or ``6 pm`` by pattern).

Every check returns the offending words as the writer spelled them, so a refusal can say exactly what broke
which rule. All languages' lists apply to every letter (a game's letters may mix languages).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from functools import cache

import yaml
from pydantic import BaseModel, Field

from games.asesino.social.roles import DATA

WORD = re.compile(r"[^\W\d_]+")
MENTION = re.compile(r"<@!?\d+>|(?<!\d)\d{15,21}(?!\d)")
ROLE_MENTION = re.compile(r"<@&\d+>")
PREFIX = 4  # "shares its first four letters"
NEAR_FROM = 5  # "within one letter of a name of five letters or more"


class PetForms(BaseModel):
    """``language -> {full name: [pet forms]}``, all lower case without accents."""

    languages: dict[str, dict[str, list[str]]] = Field(min_length=1)


class ClueWords(BaseModel):
    """Per language: ``time`` and ``place`` expressions (words or phrases), and ``time_patterns`` (regular
    expressions over the folded text, e.g. clock times)."""

    time: list[str] = Field(min_length=1)
    place: list[str] = Field(min_length=1)
    time_patterns: list[str] = Field(default_factory=list)


class LetterClues(BaseModel):
    languages: dict[str, ClueWords] = Field(min_length=1)


def fold(text: str) -> str:
    """``text`` without accents and case, with runs of whitespace collapsed to one space."""
    decomposed = unicodedata.normalize("NFKD", text)
    bare = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return " ".join(bare.casefold().split())


@cache
def pet_forms() -> PetForms:
    return PetForms.model_validate(yaml.safe_load((DATA / "pet_forms.yaml").read_text(encoding="utf-8")))


@cache
def letter_clues() -> LetterClues:
    return LetterClues.model_validate(yaml.safe_load((DATA / "letter_clues.yaml").read_text(encoding="utf-8")))


@cache
def _pets_by_name() -> dict[str, frozenset[str]]:
    merged: dict[str, set[str]] = {}
    for table in pet_forms().languages.values():
        for name, pets in table.items():
            merged.setdefault(fold(name), set()).update(fold(p) for p in pets)
    return {name: frozenset(pets) for name, pets in merged.items()}


def _within_one(a: str, b: str) -> bool:
    """Levenshtein distance of ``a`` and ``b`` is at most 1."""
    if abs(len(a) - len(b)) > 1:
        return False
    if len(a) > len(b):
        a, b = b, a
    i = 0
    while i < len(a) and a[i] == b[i]:
        i += 1
    return a[i:] == b[i + 1:] or (len(a) == len(b) and a[i + 1:] == b[i + 1:])


def _is_name_form(word: str, name: str) -> bool:
    """Whether the folded ``word`` is ``name`` (a folded word of a player's name) or a form of it."""
    if word == name:
        return True
    if len(word) >= PREFIX and len(name) >= PREFIX and word[:PREFIX] == name[:PREFIX]:
        return True
    if len(name) >= NEAR_FROM and _within_one(word, name):
        return True
    return word in _pets_by_name().get(name, frozenset())


def role_mentions(text: str) -> list[str]:
    """The role mentions (``<@&id>``) in ``text``, in order, once each."""
    return list(dict.fromkeys(match.group() for match in ROLE_MENTION.finditer(text)))


def named_words(text: str, names: Iterable[str]) -> list[str]:
    """The words of ``text`` (as written) that name a player (see the module docstring), in order, once each;
    user mentions and raw user ids included (role mentions are :func:`role_mentions`)."""
    folded_names = [fold(name) for name in names if fold(name)]
    name_words = {w for name in folded_names for w in WORD.findall(name)}
    found: dict[str, None] = {}
    for match in MENTION.finditer(text):
        found[match.group()] = None
    folded_text = fold(text)
    for name in folded_names:
        if " " in name and re.search(rf"(?<!\w){re.escape(name)}(?!\w)", folded_text):
            for word in WORD.findall(text):
                if fold(word) in name.split():
                    found[word] = None
    for match in WORD.finditer(text):
        word = fold(match.group())
        if any(_is_name_form(word, name) for name in name_words):
            found[match.group()] = None
    return list(found)


def _fold_map(text: str) -> tuple[str, list[int]]:
    """:func:`fold` of ``text`` and, for each folded character, the index of the character of ``text`` it comes
    from (so a match in the folded text can be shown as the writer spelled it)."""
    out: list[str] = []
    origin: list[int] = []
    for index, char in enumerate(text):
        if char.isspace():
            if out and out[-1] != " ":
                out.append(" ")
                origin.append(index)
            continue
        for piece in fold(char):
            out.append(piece)
            origin.append(index)
    if out and out[-1] == " ":
        out.pop()
        origin.pop()
    return "".join(out), origin


def _first(regexes: Iterable[re.Pattern[str]], folded: str) -> tuple[int, int] | None:
    """The earliest match in ``folded`` of any of ``regexes``: ``(start, end)`` in ``folded``."""
    best: tuple[int, int] | None = None
    for regex in regexes:
        match = regex.search(folded)
        if match and (best is None or match.start() < best[0]):
            best = (match.start(), match.end())
    return best


@cache
def _clue_regexes() -> tuple[tuple[re.Pattern[str], ...], tuple[re.Pattern[str], ...]]:
    """The time and the place expressions of every language, compiled once: each expression as whole words with an
    optional plural ending, then the time patterns."""
    languages = letter_clues().languages.values()

    def words(expressions: Iterable[str]) -> list[re.Pattern[str]]:
        return [re.compile(rf"(?<!\w){re.escape(fold(e))}(?:e?s)?(?!\w)") for e in expressions]

    time = words(w for lang in languages for w in lang.time)
    time += [re.compile(p) for lang in languages for p in lang.time_patterns]
    return tuple(time), tuple(words(w for lang in languages for w in lang.place))


def time_and_place(text: str) -> tuple[str, str] | None:
    """``(time expression, place expression)`` as written in ``text`` when it refers to both, else ``None``."""
    folded, origin = _fold_map(text)
    times, places = _clue_regexes()
    time = _first(times, folded)
    place = _first(places, folded)
    if time is None or place is None:
        return None
    return tuple(text[origin[start]:origin[end - 1] + 1] for start, end in (time, place))  # type: ignore[return-value]
