"""The 110 cards of the edition (``data/cards.yaml``), schema-checked and counted at import (edition §3-§5).

``CARDS[id]`` is a :class:`Card`; ``LETS_KILL_DECK`` and ``VICTIMS_DECK`` list the ids of each deck in file order.
A data error raises ``ValueError`` (pydantic ``ValidationError`` or :class:`~games.lets_kill.dsl.DslError`) at import.
"""

from __future__ import annotations

from collections import Counter
from functools import cached_property
from pathlib import Path
from typing import Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, model_validator

from games.lets_kill.dsl import VICTIM_ATTRS, WEAPON_ATTRS, Effect, parse_effects

CardType = Literal["weapon", "surprise", "event", "location", "victim"]


class Card(BaseModel):
    """One physical card. ``effects`` is the DSL text; :attr:`parsed` its effect objects."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str = Field(pattern=r"^[WSELV]\d\d(-\d)?$")
    type: CardType
    name: str = Field(min_length=1, max_length=40)
    attributes: tuple[str, ...] = ()
    body_count: int | None = Field(default=None, ge=1, le=9)
    points: int | None = Field(default=None, ge=1, le=10)
    face: Literal["happy", "sad"] | None = None
    subtype: Literal["standard", "media", "response"] | None = None
    occupation: str | None = None
    effects: str

    @model_validator(mode="after")
    def _shape(self) -> Card:
        prefix = {"weapon": "W", "surprise": "S", "event": "E", "location": "L", "victim": "V"}[self.type]
        if not self.id.startswith(prefix):
            raise ValueError(f"{self.id}: id does not match type {self.type}")
        allowed = {"weapon": WEAPON_ATTRS, "victim": VICTIM_ATTRS}.get(self.type, frozenset())
        if not set(self.attributes) <= allowed or (self.type in ("weapon", "victim")) != bool(self.attributes):
            raise ValueError(f"{self.id}: bad attributes {self.attributes}")
        for field, needed in (("body_count", "weapon"), ("points", "victim"), ("face", "surprise"),
                              ("subtype", "event")):
            if (getattr(self, field) is not None) != (self.type == needed):
                raise ValueError(f"{self.id}: {field} is for {needed} cards only")
        self.parsed  # noqa: B018 -- parse now, so that a bad effect string fails at import
        return self

    @cached_property
    def parsed(self) -> tuple[Effect, ...]:
        return parse_effects(self.effects, self.type)

    @property
    def deck(self) -> Literal["lets_kill", "victims"]:
        return "victims" if self.type in ("location", "victim") else "lets_kill"

    def effects_of(self, trigger: str, kind: str | None = None) -> tuple[Effect, ...]:
        """The card's effects with ``trigger`` (and ``kind``, when given), in printed order; made once per card and
        question (cards never change, and the rules ask thousands of times a move)."""
        key = (trigger, kind)
        found = self._effects.get(key)
        if found is None:
            found = self._effects[key] = tuple(
                e for e in self.parsed if e.trigger == trigger and (kind is None or e.kind == kind))
        return found

    @cached_property
    def _effects(self) -> dict[tuple[str, str | None], tuple[Effect, ...]]:
        return {}

    @property
    def is_gun(self) -> bool:
        return self.type == "weapon" and "Gun" in self.attributes


def _load() -> dict[str, Card]:
    raw = yaml.safe_load((Path(__file__).parent / "data" / "cards.yaml").read_text(encoding="utf-8"))
    cards = [Card.model_validate(entry) for entry in raw]
    by_id = {card.id: card for card in cards}
    if len(by_id) != len(cards):
        raise ValueError("duplicate card ids")
    _assert_counts(cards)
    return by_id


def _assert_counts(cards: list[Card]) -> None:
    """The §5 count summary and distributions."""
    kinds = Counter(
        (c.type, "gun" if c.is_gun else c.face or c.subtype
         or ("child" if "Child" in c.attributes else None)) for c in cards)
    expected = {("weapon", "gun"): 10, ("weapon", None): 14, ("surprise", "happy"): 6, ("surprise", "sad"): 6,
                ("event", "standard"): 7, ("event", "media"): 6, ("event", "response"): 6,
                ("location", None): 12, ("victim", "child"): 3, ("victim", None): 40}
    weapons = [c for c in cards if c.type == "weapon"]
    victims = [c for c in cards if c.type == "victim"]
    checks = {
        "types": (dict(kinds), expected),
        "decks": (Counter(c.deck for c in cards), {"lets_kill": 55, "victims": 55}),
        "body counts": (Counter(c.body_count for c in weapons), {1: 8, 2: 9, 3: 4, 4: 2, 5: 1}),
        "gun body counts": (Counter(c.body_count for c in weapons if c.is_gun), {1: 3, 2: 3, 3: 2, 4: 1, 5: 1}),
        "weapon attributes": (Counter(a for c in weapons for a in c.attributes),
                              {"Gun": 10, "Brutal": 6, "Messy": 7, "Explosive": 5, "SharpPointy": 6}),
        "victim points": (Counter(c.points for c in victims),
                          {1: 7, 2: 8, 3: 9, 4: 7, 5: 5, 6: 3, 7: 1, 8: 1, 9: 1, 10: 1}),
        "victim attributes": (Counter(a for c in victims for a in c.attributes),
                              {"ArtsyFartsy": 10, "TreeHugger": 8, "Innocent": 9, "Child": 3, "Pretentious": 12,
                               "RightWing": 6, "Old": 9, "Stupid": 12, "Student": 9, "Hypocrite": 10}),
    }
    for name, (got, want) in checks.items():
        if dict(got) != want:
            raise ValueError(f"card counts ({name}): {dict(got)} != {want}")


CARDS: dict[str, Card] = _load()
LETS_KILL_DECK: tuple[str, ...] = tuple(c.id for c in CARDS.values() if c.deck == "lets_kill")
VICTIMS_DECK: tuple[str, ...] = tuple(c.id for c in CARDS.values() if c.deck == "victims")
