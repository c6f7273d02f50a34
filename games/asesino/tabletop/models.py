"""Tabletop mode (5-10 players): options, state and actions.

Seats sit in a circle in seat order; clockwise play goes ``seat + 1``. A card on the table is a
:class:`Played` (its kind is secret until its owner's destiny is revealed; who played it and the declared
words are public).
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from games.asesino.common import SPEECH_MAX, WORDS_MAX, Card, Side
from games.core.controls import Controlled

PromptKind = Literal["direction", "order", "statement", "accuse", "last_words"]


class TabletopOptions(BaseModel):
    """``first_player``: the seat that takes the turn marker (e.g. the host); ``None`` draws it from the seed."""

    first_player: int | None = Field(default=None, ge=0, le=9)  # a seat of the mode's largest table


class Played(BaseModel):
    """A card declared face down in front of a player: its kind, who played it and the declared words."""

    model_config = ConfigDict(frozen=True)  # never changed once stored: copies of the state share it

    card: Card
    by: int
    words: str = ""


class Player(BaseModel):
    """One seat: its role, its hand (the role card is in it until played), the cards in front of it, and its
    destiny (``sealed`` after the third card, ``revealed`` shuffled cards once resolved, ``murdered``)."""

    role: Card
    hand: list[Card]
    front: list[Played] = Field(default_factory=list)
    sealed: bool = False
    resolved: bool = False
    revealed: list[Card] = Field(default_factory=list)
    murdered: bool = False


class Prompt(BaseModel):
    """A question only ``seat`` may answer; it blocks every other action."""

    kind: PromptKind
    seat: int


class Resolution(BaseModel):
    """A destiny being resolved: the effects still to run (in order) and the Accomplice shock."""

    subject: int
    effects: list[Card]
    ordered: bool
    shocked: bool


class Said(BaseModel):
    """A public free statement: a Journalist interview answer or last words."""

    model_config = ConfigDict(frozen=True)  # never changed once stored: copies of the state share it

    seat: int
    kind: Literal["statement", "last_words"]
    text: str


class Result(BaseModel):
    """How the game ended: winning ``side``, ``reason`` (catalogue key) and whether the Killer was caught
    (by the Detective or the Prosecutor)."""

    side: Side
    reason: str
    caught: bool = False


class TabletopState(Controlled):
    """The whole game. ``clockwise`` is ``None`` until the first player chooses it; ``obligations`` is a stack
    of murdered seats still playing out their hand; ``counter`` counts accepted actions (randomness salt)."""

    seed: int
    seats: list[Player]
    discard: list[Card]
    first: int
    turn: int
    clockwise: bool | None = None
    turn_announced: bool = False
    counter: int = 0
    prompt: Prompt | None = None
    resolution: Resolution | None = None
    obligations: list[int] = Field(default_factory=list)
    sealed_order: list[int] = Field(default_factory=list)
    deaths: list[int] = Field(default_factory=list)
    said: list[Said] = Field(default_factory=list)
    final_round: bool = False
    result: Result | None = None


class ChooseDirection(BaseModel):
    """The first player sets the direction of play."""

    type: Literal["choose_direction"] = "choose_direction"
    clockwise: bool


class Declare(BaseModel):
    """Play ``card`` from hand face down in front of ``target`` with declared ``words``."""

    type: Literal["declare"] = "declare"
    card: Card
    target: int
    words: str = Field(default="", max_length=WORDS_MAX)


class Pass(BaseModel):
    """Pass the turn: only when holding cards but no unsealed player is a legal target."""

    type: Literal["pass"] = "pass"


class OrderEffects(BaseModel):
    """The revealed player orders the effects of the role cards found in their destiny."""

    type: Literal["order_effects"] = "order_effects"
    order: list[Card]


class Statement(BaseModel):
    """The answer to the Journalist's interview (free text; it may be a lie)."""

    type: Literal["statement"] = "statement"
    text: str = Field(default="", max_length=SPEECH_MAX)


class Accuse(BaseModel):
    """The living Prosecutor names the suspect; declining is not an option (edition ruling, Prosecutor effect:
    "A living Prosecutor must accuse"). ``at_random``: the bot named ``target`` for an absent Prosecutor."""

    type: Literal["accuse"] = "accuse"
    target: int
    at_random: bool = False


class LastWords(BaseModel):
    """A murdered player's last words (free text)."""

    type: Literal["last_words"] = "last_words"
    text: str = Field(default="", max_length=SPEECH_MAX)


TabletopAction = Annotated[
    ChooseDirection | Declare | Pass | OrderEffects | Statement | Accuse | LastWords,
    Field(discriminator="type"),
]
