"""Verdugo's cards and reward table, loaded from ``data/*.yaml`` and validated at import (counts asserted).

Source: the card edition (``rules/editions/verdugo-edition.md``) §2 (economy), §5 (10 roles), §6 (13 objects),
§8 (14 Scaffold cards) and §9.1 (rewards). A card's behaviour is an *effect kind* with parameters; the flow
never tests a card's name.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field

DATA = Path(__file__).with_name("data")

ROLE_COUNT = 10
OBJECT_COUNT = 13
SCAFFOLD_COUNT = 14


class _Card(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class RoleCard(_Card):
    """A role (§5): its copies, whether its death is revealed/ends the round/steals, and its pay."""

    id: str
    copies: int = Field(ge=1)
    reveal_on_death: bool
    death_makes_saboteurs_win: bool
    steals_on_death: bool
    safe_reward: Literal["per_death", "none"]
    saboteur_win_reward: int = Field(ge=0)


class ObjectCard(_Card):
    """An object (§6): copies, whether it is *safe* for the setup rule, and what an execution does to its holder."""

    id: str
    copies: int = Field(ge=1)
    safe: bool
    on_execute: Literal["die", "escape", "escape_counted", "escape_and_pass_axe"]
    death_makes_saboteurs_win: bool = False
    chalice_bonus: int = Field(default=0, ge=0)
    makes_jester_ordinary: bool = False
    kills_at_safe_end: bool = False
    mirrors_centre: bool = False


class ScaffoldCard(_Card):
    """A Scaffold card (§8): ``I`` resolves at once, ``R`` sets a round rule until the round's rewards."""

    id: str
    timing: Literal["I", "R"]
    effect: Literal["extra_action", "pass_objects", "shuffle_objects", "trade_pair", "trade_with_centre",
                    "secret_deal", "executioner_sees_centre", "reveal_centre", "prisoners_see_own", "spy_on_role",
                    "round_rule"]
    rule: Literal["double_wages", "bloodlust", "open_trial", "blunt_axe"] | None = None


class Rewards(_Card):
    """The economy and reward table (§2, §9.1), in Crowns."""

    total_crowns: int = Field(gt=0)
    start_crowns: int = Field(ge=0)
    death_loss: int = Field(ge=0)
    jester_steal: int = Field(ge=0)
    cheese_variant_steal: int = Field(ge=0)
    executioner_per_death: int = Field(ge=0)
    double_wages_per_death: int = Field(ge=0)
    executioner_saboteur_win: int = Field(le=0)
    min_executions: int = Field(ge=1)
    bloodlust_min_executions: int = Field(ge=1)


class Deck(_Card):
    roles: list[RoleCard]
    objects: list[ObjectCard]
    scaffold: list[ScaffoldCard]


def _load(name: str) -> object:
    return yaml.safe_load((DATA / name).read_text(encoding="utf-8"))


@cache
def deck() -> Deck:
    """The validated card lists. Raises ``ValueError`` when a count differs from the edition's."""
    loaded = Deck.model_validate(_load("cards.yaml"))
    counts = (sum(r.copies for r in loaded.roles), sum(o.copies for o in loaded.objects), len(loaded.scaffold))
    if counts != (ROLE_COUNT, OBJECT_COUNT, SCAFFOLD_COUNT):
        raise ValueError(f"verdugo cards: expected 10 roles, 13 objects, 14 Scaffold cards, got {counts}")
    if sum(o.copies for o in loaded.objects if o.safe) != 7:
        raise ValueError("verdugo cards: the edition has exactly 7 safe objects")
    if not any(o.death_makes_saboteurs_win for o in loaded.objects):
        raise ValueError("verdugo cards: the Pardon rule needs an object whose death makes the Saboteurs win")
    for card in loaded.scaffold:
        if (card.effect == "round_rule") != (card.rule is not None) or (card.timing == "R") != (card.rule is not None):
            raise ValueError(f"verdugo cards: {card.id}: a round rule has timing R and a rule, nothing else does")
    ids = [c.id for c in (*loaded.roles, *loaded.objects, *loaded.scaffold)]
    if len(set(ids)) != len(ids):
        raise ValueError("verdugo cards: duplicate card ids")
    return loaded


@cache
def rewards() -> Rewards:
    """The validated reward table."""
    return Rewards.model_validate(_load("rewards.yaml"))


@cache
def role(role_id: str) -> RoleCard:
    return next(r for r in deck().roles if r.id == role_id)


@cache
def obj(object_id: str) -> ObjectCard:
    return next(o for o in deck().objects if o.id == object_id)


@cache
def scaffold(card_id: str) -> ScaffoldCard:
    return next(c for c in deck().scaffold if c.id == card_id)


def role_deck() -> list[str]:
    """All 10 role cards (ids, one per copy) in data order."""
    return [r.id for r in deck().roles for _ in range(r.copies)]


def object_deck() -> list[str]:
    """All 13 object cards (ids, one per copy) in data order."""
    return [o.id for o in deck().objects for _ in range(o.copies)]


def scaffold_deck() -> list[str]:
    """All 14 Scaffold card ids in data order."""
    return [c.id for c in deck().scaffold]


def is_pardon(object_id: str) -> bool:
    """Whether ``object_id`` is the deadly object of the Pardon rule (§4 step 4)."""
    return obj(object_id).death_makes_saboteurs_win


deck()
rewards()
