"""State and actions of Let's Kill! (pydantic v2, JSON-safe, replayable).

Decks list their top card first. The pipeline is an agenda of :class:`Task` (front first) that the engine works off
until a decision is needed (:class:`Pending`); the answers are the actions below.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field

from games.core.controls import Controlled
from games.core.copying import SETTLED

SeatNo = int


class LetsKillOptions(BaseModel):
    """``first_player``: the seat that starts (``None``: random from the seed, LK-02); ``window_seconds``: how long
    every response window stays open, in seconds (LK-19: a table setting, default 15 s); ``pledge_seconds``: how
    long a shootout pledge waits, in seconds (§7.7: a table setting, default 20 s). The engine never reads the
    clock: the bot's timers close the window or pass the pledge after this long."""

    first_player: int | None = Field(default=None, ge=0, le=4)
    window_seconds: int = Field(default=15, ge=5, le=300)
    pledge_seconds: int = Field(default=20, ge=5, le=300)


class LocationInPlay(BaseModel):
    card: str
    victims: list[str] = Field(default_factory=list)  # placement order


class Incident(BaseModel):
    """A public stack in front of ``owner`` (RB "Incident"). ``surprises``: victim id -> revealed Surprise;
    ``attached``: Events that stay with it (E07); ``modifiers``: flat modifier entries such as Tallulah's -2."""

    id: int
    owner: SeatNo
    weapon: str
    victims: list[str]
    surprises: dict[str, str] = Field(default_factory=dict)
    location: str | None = None
    media: str | None = None
    attached: list[str] = Field(default_factory=list)
    modifiers: list[int] = Field(default_factory=list)


class Whacking(BaseModel):
    """The whacking in progress (§7.4). ``origin``: victim -> location card at W1 (``None`` = out on the town)."""

    whacker: SeatNo
    weapon: str
    targets: list[str]
    location: str | None
    escaped: list[str] = Field(default_factory=list)
    revealed: dict[str, str] = Field(default_factory=dict)
    modifiers: list[int] = Field(default_factory=list)
    shootout_target: SeatNo | None = None
    shootout_done: bool = False
    cancelled: bool = False
    failed: bool = False
    incident: int | None = None


class Shootout(BaseModel):
    """A shootout in progress (§7.7). ``phase`` ``target``: the target pledges; ``posse``: ``posse[turn]`` is
    asked; ``pledges`` holds the posse's uncommitted pledges (still in hand)."""

    target: SeatNo
    posse: list[SeatNo]
    from_whacking: bool
    target_total: int = 0
    posse_total: int = 0
    phase: Literal["target", "posse"] = "target"
    turn: int = 0
    pledges: dict[int, list[str]] = Field(default_factory=dict)
    rounds: int = 0


class Respond(BaseModel):
    """A sealed answer in a response window: ``card`` (a Response Event) or ``None`` to pass. ``victim``:
    Not Dead Yet!'s choice; ``location``: Rubbernecker's destination (``None`` = out on the town)."""

    type: Literal["respond"] = "respond"
    card: str | None = None
    victim: str | None = None
    location: str | None = None


class Window(BaseModel):
    """A response window (§7.6): everyone but ``active`` answers once, sealed; resolved when all have answered
    or the window times out. ``victim``/``card``/``incident``: what opened it."""

    type: Literal["whack_declared", "incident_formed", "media_played", "victim_placed"]
    active: SeatNo
    eligible: list[SeatNo]
    # sealed until the window closes (a state's window is replaced whole when an answer comes, never changed)
    answers: dict[int, Respond] = Field(default_factory=dict)
    victim: str | None = None
    card: str | None = None
    incident: int | None = None
    cancelled: bool = False
    moved: bool = False


class Pending(BaseModel):
    """The decision the game waits for. ``kind``: ``place`` (choose a Location for ``victim``), ``play`` (Step 2;
    ``kinds`` limits the card types, ``bonus`` is an extra body count), ``window``, ``pledge`` (``seat`` pledges
    Guns), ``peek_discard`` (choose which of ``peeked`` to discard), ``discard_choice`` (``seat`` discards ``n``),
    ``declare`` (may declare 20)."""

    kind: Literal["place", "play", "window", "pledge", "peek_discard", "discard_choice", "declare"]
    seat: SeatNo
    victim: str | None = None
    options: list[str] = Field(default_factory=list)
    kinds: list[str] = Field(default_factory=list)
    bonus: int = 0
    extra: bool = False
    peeked: list[str] = Field(default_factory=list)
    n: int = 0


class Task(BaseModel):
    op: str
    args: dict[str, Any] = Field(default_factory=dict)


class LetsKillState(Controlled):
    seed: int
    seats: list[str]
    lk_deck: list[str]
    lk_discard: list[str] = Field(default_factory=list)  # bottom first
    face_down: list[str] = Field(default_factory=list)  # cards of lk_discard discarded unseen (LK-26, ruling 6)
    victims_deck: list[str]
    victims_discard: list[str] = Field(default_factory=list)
    hands: list[list[str]]
    # per seat: the hand of its last hand DM (a seat's list is replaced, never changed in place)
    hand_sent: list[Annotated[list[str], SETTLED]] = Field(default_factory=list)
    # a step changes a Location or an Incident through Flow.own_location / own_incident, which copy it first
    locations: list[Annotated[LocationInPlay, SETTLED]] = Field(default_factory=list)
    town: list[str] = Field(default_factory=list)  # Victims out on the town
    surprises: dict[str, str] = Field(default_factory=dict)  # victim -> face-down Surprise
    # per seat: face-down Surprises they know (LK-11; a seat's list is replaced, never changed in place)
    known: list[Annotated[list[str], SETTLED]] = Field(default_factory=list)
    placers: dict[str, int | None] = Field(default_factory=dict)
    incidents: list[Annotated[Incident, SETTLED]] = Field(default_factory=list)
    next_incident: int = 1
    skips: list[int] = Field(default_factory=list)
    first: SeatNo = 0
    active: SeatNo = 0
    turn: int = 0
    declared_by: SeatNo | None = None
    ended: str | None = None
    agenda: list[Annotated[Task, SETTLED]] = Field(default_factory=list)  # a queued task never changes: popped whole
    pending: Annotated[Pending | None, SETTLED] = None  # replaced whole, never changed in place
    whacking: Whacking | None = None
    shootout: Shootout | None = None
    window: Annotated[Window | None, SETTLED] = None  # replaced whole (copying.replace), never changed in place
    # public events of setup's first steps, for intro: written by setup, never changed after
    opening: Annotated[list[dict[str, Any]], SETTLED] = Field(default_factory=list)
    limbo: list[str] = Field(default_factory=list)  # cards between zones: a declared Weapon, an Event resolving
    rng_counter: int = 0


class PlaceVictim(BaseModel):
    """Step 1 / ``place_victims``: put the drawn Victim on ``location`` (a Location card id)."""

    type: Literal["place"] = "place"
    location: str


class PlayCard(BaseModel):
    """Step 2 (or an ``extra_play``): play ``card`` from hand with its targets. ``victims``: a Weapon's ordered
    declaration, Free Samples' Victims in arrival order, Stakeout's peeks, or a Surprise's Victim; ``location``:
    Free Samples' destination; ``incident``: a Media Event's, Gruesome Souvenir's or Framed!'s Incident;
    ``seat``: Anonymous Tip's target."""

    type: Literal["play"] = "play"
    card: str
    victims: list[str] = Field(default_factory=list, max_length=12)
    location: str | None = None
    incident: int | None = None
    seat: int | None = None


class DiscardHand(BaseModel):
    type: Literal["discard_hand"] = "discard_hand"


class CloseWindow(BaseModel):
    """The window's time is up (the bot's clock, ``SYSTEM_SEAT``): everyone who has not answered passes."""

    type: Literal["close_window"] = "close_window"


class Pledge(BaseModel):
    """Guns pledged in a shootout (empty = pass / give up)."""

    type: Literal["pledge"] = "pledge"
    cards: list[str] = Field(default_factory=list, max_length=10)


class ChooseCards(BaseModel):
    """Which peeked Surprises to discard (by Victim), or which cards to discard from hand."""

    type: Literal["choose"] = "choose"
    cards: list[str] = Field(default_factory=list, max_length=60)


class Declare(BaseModel):
    type: Literal["declare"] = "declare"
    declare: bool


LetsKillAction = Annotated[PlaceVictim | PlayCard | DiscardHand | Respond | CloseWindow | Pledge | ChooseCards
                           | Declare, Field(discriminator="type")]
