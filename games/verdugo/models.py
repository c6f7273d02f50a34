"""Verdugo's options, state and actions (pydantic, JSON round-trip).

Seats are numbered ``0..N-1`` clockwise (edition §3). A *position* is where an object card lies: a prisoner's
seat or ``"centre"``. Cards are named by their ids in ``data/cards.yaml``.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from games.core.controls import Controlled

CENTRE = "centre"
Position = int | Literal["centre"]
Direction = Literal["left", "right"]
MatchMode = Literal["tour", "treasury", "open"]
Rule = Literal["double_wages", "bloodlust", "open_trial", "blunt_axe"]


class VerdugoOptions(BaseModel):
    """Table options (edition §9.4, §6 Cheese): the match mode, the Cheese variant, the first Executioner's seat
    (``None``: random, ruling V-35)."""

    match: MatchMode = "tour"
    cheese_variant: bool = False
    first_executioner: int | None = Field(default=None, ge=0, le=7)


class Seen(BaseModel):
    """A private observation: what one seat was shown (a Peek, a card's look, the deal)."""

    model_config = ConfigDict(frozen=True)  # never changed once stored: copies of the state share it

    kind: Literal["dealt", "peek", "secret_deal", "examination", "royal_inspection", "spy"]
    card: str
    position: Position | None = None
    seat: int | None = None


class Pending(BaseModel):
    """A Scaffold card's choice still to be made: ``chooser`` must pick a ``kind`` (``prisoner``,
    ``other_prisoner`` — a prisoner other than ``picks[0]`` —, ``pair`` or ``direction``)."""

    card: str
    chooser: int
    kind: Literal["prisoner", "other_prisoner", "pair", "direction"]
    picks: list[int] = Field(default_factory=list)


class RoundState(BaseModel):
    """One round (RB "partida"), from Setup to REVEAL ALL. Lists indexed by seat hold ``None`` for the
    Executioner."""

    number: int
    executioner: int
    phase: Literal["set_aside", "draw", "choose", "call", "act", "execute", "shield", "over"]
    object_deck: list[str]
    set_aside: list[str] = Field(default_factory=list)
    active_roles: list[str]
    active_objects: list[str]
    roles: list[str | None] = Field(default_factory=list)
    objects: list[str | None] = Field(default_factory=list)
    centre: str | None = None
    discarded_role: str | None = None
    scaffold_deck: list[str]
    drawn: list[str] = Field(default_factory=list)
    rules: list[Rule] = Field(default_factory=list)
    pending: Pending | None = None
    acted: list[int] = Field(default_factory=list)
    actor: int | None = None
    extra: bool = False
    executed: list[int] = Field(default_factory=list)
    dead: list[int] = Field(default_factory=list)
    escaped: list[int] = Field(default_factory=list)
    own_executions: int = 0
    deaths: int = 0  # D: counted deaths (edition §9.1)
    chalice_bonus: int = 0  # C
    shield_holder: int | None = None
    shield_candidates: list[int] = Field(default_factory=list)
    shown_objects: list[str | None] = Field(default_factory=list)  # face up in front of an executed prisoner
    shown_roles: list[str | None] = Field(default_factory=list)
    centre_shown: str | None = None  # the centre card as a Mimic's resolution showed it
    crier: str | None = None  # the centre card as the Town Crier showed it
    ending: Literal["safe", "saboteurs"] | None = None
    start_crowns: list[int] = Field(default_factory=list)
    seen: list[list[Seen]] = Field(default_factory=list)  # per seat, private

    def prisoners(self) -> list[int]:
        """Prisoners in seating order from the Executioner's left (edition §3)."""
        n = len(self.roles)
        return [(self.executioner + i) % n for i in range(1, n)]

    def eligible(self) -> list[int]:
        """Prisoners neither dead nor escaped, in seating order from the Executioner's left."""
        return [p for p in self.prisoners() if p not in self.dead and p not in self.escaped]


class VerdugoState(Controlled):
    """A match: fixed seats, Crowns per seat (the Treasury is the rest of 80), the rounds played and the current
    round. ``phase``: ``round`` (a round is being played), ``successor`` (the outgoing Executioner picks the
    next), ``over``."""

    seed: int
    seats: list[str]
    options: VerdugoOptions
    crowns: list[int]
    served: list[int] = Field(default_factory=list)
    rounds_played: int = 0
    phase: Literal["round", "successor", "over"] = "round"
    round: RoundState
    actions: int = 0
    end_reason: Literal["tour_complete", "treasury_empty", "host_ended"] | None = None


class SetAside(BaseModel):
    """Safe-object rule (§4 step 6): the Executioner sets aside ``active_objects[index]``."""

    type: Literal["set_aside"] = "set_aside"
    index: int = Field(ge=0)


class Draw(BaseModel):
    """The Executioner draws and reveals the next Scaffold card (§7.2)."""

    type: Literal["draw"] = "draw"


class Call(BaseModel):
    """The Executioner picks the next prisoner to act (§7.2, V-08)."""

    type: Literal["call"] = "call"
    seat: int


class Swap(BaseModel):
    """A prisoner exchanges the object cards at two different positions; nobody looks (§7.2)."""

    type: Literal["swap"] = "swap"
    a: Position
    b: Position


class Peek(BaseModel):
    """A prisoner looks privately at the object card at one position (§7.2)."""

    type: Literal["peek"] = "peek"
    position: Position


class Forfeit(BaseModel):
    """The awaited prisoner lets the action go ("no action"): what a timeout does (§7.2)."""

    type: Literal["forfeit"] = "forfeit"


class ChoosePrisoner(BaseModel):
    """A Scaffold card's choice of one prisoner (§8)."""

    type: Literal["choose_prisoner"] = "choose_prisoner"
    seat: int


class ChoosePair(BaseModel):
    """A Scaffold card's choice of two different prisoners (Forced Trade)."""

    type: Literal["choose_pair"] = "choose_pair"
    a: int
    b: int


class ChooseDirection(BaseModel):
    """A Scaffold card's choice of a direction (Chain Gang)."""

    type: Literal["choose_direction"] = "choose_direction"
    direction: Direction


class Chop(BaseModel):
    """The execution gesture (§7.3): by the Executioner, or by a Shield holder on a candidate."""

    type: Literal["chop"] = "chop"
    seat: int


class Stop(BaseModel):
    """The Executioner stops executing (§7.3); allowed once the minimum is met."""

    type: Literal["stop"] = "stop"


class Successor(BaseModel):
    """The outgoing Executioner names the next one (§9.5)."""

    type: Literal["successor"] = "successor"
    seat: int


class EndMatch(BaseModel):
    """``open`` matches only, between rounds: the host ends the match (§9.4); sent as the system seat."""

    type: Literal["end_match"] = "end_match"


VerdugoAction = Annotated[
    SetAside | Draw | Call | Swap | Peek | Forfeit | ChoosePrisoner | ChoosePair | ChooseDirection | Chop | Stop
    | Successor | EndMatch,
    Field(discriminator="type"),
]
