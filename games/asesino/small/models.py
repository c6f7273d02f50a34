"""2-4 player mode: options, state and actions.

Identity vs cards (revised edition ruling): each seat's identity role card is its identity (secret; it decides
who wins with the third murder) AND a card in its hand, on top of the deal, played face down like any card.
So the Killer card and the Detective card reach the columns, and "the Killer is caught by the Detective" can end
a dealt game.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from games.asesino.common import Card, Side
from games.core.controls import Controlled

Intention = Literal["good", "bad"]
EffectKind = Literal["accomplice", "prosecutor", "journalist"]


class SmallOptions(BaseModel):
    """``first_player``: the seat that starts (e.g. the host); ``None`` draws it from the seed."""

    first_player: int | None = Field(default=None, ge=0, le=3)  # a seat of the mode's largest table


class Slot(BaseModel):
    """A card in a column: ``by`` is the seat that played it (``None`` for the dealt first row), ``declared`` its
    declared intention, ``face_up`` once a Journalist turned it over."""

    model_config = ConfigDict(frozen=True)  # never changed once stored: copies of the state share it

    card: Card
    by: int | None = None
    declared: Intention | None = None
    face_up: bool = False


class Column(BaseModel):
    """One of the six destinies: sealed at three cards, then revealable once; ``murder`` once revealed so."""

    slots: list[Slot] = Field(default_factory=list)
    revealed: bool = False
    murder: bool = False

    @property
    def sealed(self) -> bool:
        return len(self.slots) >= 3


class SmallPlayer(BaseModel):
    identity: Card
    hand: list[Card]


class SmallPrompt(BaseModel):
    """A reveal effect the revealer (``seat``) may use now; it blocks every other action."""

    kind: EffectKind
    seat: int
    column: int
    announced: bool = False


class SmallResult(BaseModel):
    side: Side
    reason: str


class SmallState(Controlled):
    """The whole game; ``murders`` is the murder register (columns, in order); ``counter`` counts accepted
    actions (randomness salt)."""

    seed: int
    seats: list[SmallPlayer]
    columns: list[Column]
    turn: int
    turn_announced: bool = False
    counter: int = 0
    prompts: list[SmallPrompt] = Field(default_factory=list)
    murders: list[int] = Field(default_factory=list)
    result: SmallResult | None = None


class CardRef(BaseModel):
    """A position on the table: ``column`` (0-5) and ``index`` in it (0 is the first card placed)."""

    column: int
    index: int


class PlayCard(BaseModel):
    """Play ``card`` face down into unsealed ``column``, declaring it good or bad."""

    type: Literal["play_card"] = "play_card"
    card: Card
    column: int
    declared: Intention


class Reveal(BaseModel):
    """Reveal a sealed column's destiny."""

    type: Literal["reveal"] = "reveal"
    column: int


class Pass(BaseModel):
    """Only when the player can neither play a card nor reveal a column."""

    type: Literal["pass"] = "pass"


class AccompliceSwap(BaseModel):
    """Give up to two ``cards`` from hand to ``target`` and take as many at random from their hand
    (``target=None`` and no cards: skip)."""

    type: Literal["accomplice_swap"] = "accomplice_swap"
    target: int | None = None
    cards: list[Card] = Field(default_factory=list, max_length=2)


class ProsecutorSwap(BaseModel):
    """Swap the places of two unrevealed declared cards (empty: skip)."""

    type: Literal["prosecutor_swap"] = "prosecutor_swap"
    slots: list[CardRef] = Field(default_factory=list, max_length=2)


class JournalistReveal(BaseModel):
    """Turn face up up to two face-down cards of different unrevealed columns (empty: skip)."""

    type: Literal["journalist_reveal"] = "journalist_reveal"
    slots: list[CardRef] = Field(default_factory=list, max_length=2)


SmallAction = Annotated[
    PlayCard | Reveal | Pass | AccompliceSwap | ProsecutorSwap | JournalistReveal,
    Field(discriminator="type"),
]
