"""Social-mode roles, the role table per player count and the character names for anonymous posts.

Data lives in ``data/roles.yaml`` and ``data/characters.yaml`` (validated here with pydantic). The role table
follows the rulebook's "Awakening the Instinct" table; the 12-player row is our ruling
(``editions/asesino-rulings.md``, "Social mode").
"""

from __future__ import annotations

from enum import StrEnum
from functools import cache
from pathlib import Path
from random import Random

import yaml
from pydantic import BaseModel, Field

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
    specials: list[SocialRole]
    table: dict[int, RoleRow]


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


def deal_roles(players: int, rng: Random) -> list[SocialRole]:
    """One role per seat: 1 Killer, the Victims and the drawn specials, shuffled. Raises ``KeyError`` for a
    count outside the table."""
    row = role_table().table[players]
    specials = rng.sample(role_table().specials, row.specials)
    cards = [SocialRole.KILLER] * row.killer + [SocialRole.VICTIM] * row.victims + specials
    rng.shuffle(cards)
    return cards


def deal_characters(players: int, rng: Random) -> list[str]:
    """A distinct character id per seat."""
    return rng.sample(characters(), players)
