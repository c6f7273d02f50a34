"""Social-mode roles, the role table per player count and the character names for anonymous posts.

Data lives in ``data/roles.yaml`` and ``data/characters.yaml`` (validated here with pydantic). The role table
follows the rulebook's "Awakening the Instinct" table; the 12-player row is our ruling
(``editions/asesino-rulings.md``, "Social mode").
"""

from __future__ import annotations

import re
import unicodedata
from enum import StrEnum
from functools import cache
from pathlib import Path
from random import Random

import yaml
from pydantic import BaseModel, Field, model_validator

DATA = Path(__file__).with_name("data")


class SocialRole(StrEnum):
    """A social-mode role card. ``accomplice`` is never dealt: the Killer recruits it during the game."""

    KILLER = "killer"
    VICTIM = "victim"
    DETECTIVE = "detective"
    MANIAC = "maniac"
    DOCTOR = "doctor"
    JOURNALIST = "journalist"
    PROSECUTOR = "prosecutor"
    ACCOMPLICE = "accomplice"


#: Special characters a recruited player keeps the power of (our reading of the rulebook: only the Detective and
#: the Maniac lose theirs; a recruited Journalist may slant its notes, a Prosecutor still judges twice a day).
KEPT_WHEN_RECRUITED: frozenset[SocialRole] = frozenset(
    {SocialRole.DOCTOR, SocialRole.JOURNALIST, SocialRole.PROSECUTOR}
)


class RoleRow(BaseModel):
    killer: int = Field(ge=1, le=1)
    victims: int = Field(ge=0)
    specials: int = Field(ge=0)


class RoleTable(BaseModel):
    """The specials a game may deal (``specials``), the other words a host may name each by (``aliases``: the
    ``special_roles`` option, any case, accents ignored), the words that name all of them (``everyone``: a host
    clears an earlier choice with ``all``) and the row per player count."""

    specials: list[SocialRole]
    aliases: dict[SocialRole, list[str]] = Field(default_factory=dict)
    everyone: list[str] = Field(default_factory=list)
    table: dict[int, RoleRow]

    @model_validator(mode="after")
    def _aliases_name_specials(self) -> RoleTable:
        if stray := set(self.aliases) - set(self.specials):
            raise ValueError(f"aliases for roles that are not specials: {sorted(stray)}")
        return self


class Characters(BaseModel):
    characters: list[str] = Field(min_length=12)


@cache
def role_table() -> RoleTable:
    """The validated role table (``players -> RoleRow``)."""
    return RoleTable.model_validate(yaml.safe_load((DATA / "roles.yaml").read_text(encoding="utf-8")))


@cache
def characters() -> tuple[str, ...]:
    """Character ids; each renders through the catalogue key ``asesino_social.character.<id>``."""
    data = Characters.model_validate(yaml.safe_load((DATA / "characters.yaml").read_text(encoding="utf-8")))
    return tuple(data.characters)


class UnknownRole(ValueError):
    """A word of the ``special_roles`` option that names no special role (``word``; empty: none was named)."""

    def __init__(self, word: str) -> None:
        super().__init__(word)
        self.word = word


def folded(word: str) -> str:
    """``word`` as the ``special_roles`` option compares it: case and accents ignored."""
    return "".join(c for c in unicodedata.normalize("NFKD", word.casefold()) if not unicodedata.combining(c))


def names_every_special(text: str) -> bool:
    """Whether ``text`` is one of the role table's ``everyone`` words (``all``, ``todos``...: every special in
    play), any case, accents ignored."""
    return folded(text.strip()) in {folded(word) for word in role_table().everyone}


def special_names(role: SocialRole) -> list[str]:
    """The words that name ``role`` in the ``special_roles`` option, folded (its id, then its aliases)."""
    return [folded(role.value), *(folded(alias) for alias in role_table().aliases.get(role, []))]


def parse_specials(text: str) -> tuple[SocialRole, ...]:
    """The special roles a host named in ``text`` (``"doctor, fiscal"``: commas, semicolons, slashes or spaces
    between them; role ids or their ``aliases``, any case, accents ignored), in the role table's order, each once.
    Raises :class:`UnknownRole` for a word that names none, or when ``text`` names none."""
    table = role_table()
    names = {folded(role.value): role for role in table.specials}
    names |= {folded(alias): role for role, aliases in table.aliases.items() for alias in aliases}
    chosen: set[SocialRole] = set()
    for word in filter(None, re.split(r"[\s,;/]+", text)):
        if (role := names.get(folded(word))) is None:
            raise UnknownRole(word)
        chosen.add(role)
    if not chosen:
        raise UnknownRole("")
    return tuple(role for role in table.specials if role in chosen)


def deal_roles(players: int, rng: Random, specials: tuple[SocialRole, ...] | None = None) -> list[SocialRole]:
    """One role per seat: 1 Killer, the Victims and the drawn specials, shuffled. ``specials``: the host's choice
    of specials in play (the ``special_roles`` option, in the table's order; ``None``: all of them); a row that
    needs more specials than were chosen deals Victims in their place (our ruling, ``games/asesino/README.md``,
    "Special roles in play"). Raises ``KeyError`` for a count outside the table."""
    row = role_table().table[players]
    pool = list(role_table().specials if specials is None else specials)
    drawn = rng.sample(pool, min(row.specials, len(pool)))
    victims = row.victims + row.specials - len(drawn)
    cards = [SocialRole.KILLER] * row.killer + [SocialRole.VICTIM] * victims + drawn
    rng.shuffle(cards)
    return cards


def deal_characters(players: int, rng: Random) -> list[str]:
    """A distinct character id per seat."""
    return rng.sample(characters(), players)
