"""Options, state and actions of Cereal Killer (pydantic v2; actions are a union discriminated on ``type``).

Seats: 0 the Killer, 1 the Detective, 2 Lola (3-player games only).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from games.cereal_killer.board import DIFFICULTIES, Side
from games.core import Waiting
from games.core.controls import Controlled

KILLER, DETECTIVE, LOLA = 0, 1, 2
ROLES: tuple[str, ...] = ("killer", "detective", "lola")

Question = Literal["direction", "same_row", "same_column", "indoors", "parity", "zone"]
#: the question cards per player count (rulebook "The Questions"; "zone" is the 3-player card)
QUESTIONS: dict[int, tuple[str, ...]] = {
    2: ("direction", "same_row", "same_column", "indoors", "parity"),
    3: ("direction", "same_row", "same_column", "indoors", "parity", "zone"),
}
#: victims needed by the end of a day, per player count (edition file, "Calendar")
CALENDAR: dict[int, dict[int, int]] = {2: {2: 1, 4: 3, 7: 6}, 3: {2: 1, 5: 3, 8: 6}}
DAYS: dict[int, int] = {2: 7, 3: 8}
ARRESTS = 4
MAX_VICTIMS = 6
KILLER_STEPS = 3
DETECTIVE_STEPS = 3
LOLA_STEPS = 4
Ability = Literal["sniff", "bark", "bite"]
Phase = Literal["killer", "lola", "detective", "over"]


class CerealOptions(BaseModel):
    """``side``: the City side in 2-player games (A favours the Killer). ``difficulty``: the board pair in
    3-player games (beginner = City B + Suburbs B, recurring = A + A, compulsive = B + A, cereal = A + B)."""

    side: Side = "A"
    difficulty: Literal["beginner", "recurring", "compulsive", "cereal"] = "recurring"

    def boards(self, players: int) -> tuple[Side, Side | None]:
        """(City side, Suburbs side or None) for ``players``."""
        return (self.side, None) if players == 2 else DIFFICULTIES[self.difficulty]


# ---------------------------------------------------------------- actions

class KillerTurn(BaseModel):
    """The Killer's secret turn: ``start`` (day 1: the starting House; later days: omitted or the current
    space), exactly 3 ``path`` steps, an optional ``victim`` House on the route and the ``witness`` Park
    (required only when the victim's House touches two Parks)."""

    type: Literal["killer_turn"] = "killer_turn"
    start: int | None = None
    path: list[int] = Field(max_length=10)
    victim: int | None = None
    witness: int | None = None


class ChooseAnswer(BaseModel):
    """The Killer picks the answer to a pending direction question or Sniff (one of the offered options)."""

    type: Literal["choose_answer"] = "choose_answer"
    answer: str = Field(max_length=20)


class PlaceDetective(BaseModel):
    """Day 1, after the Killer's first turn: the Detective's starting Cafe."""

    type: Literal["place_detective"] = "place_detective"
    space: int


class Move(BaseModel):
    """A hunter walks ``path`` (one to its remaining steps); may be sent several times a turn."""

    type: Literal["move"] = "move"
    path: list[int] = Field(min_length=1, max_length=10)


class Ask(BaseModel):
    """The Detective asks the Killer one question card about the Witness."""

    type: Literal["ask"] = "ask"
    question: Question


class Arrest(BaseModel):
    """The Detective's arrest attempt on its own space or an orthogonal neighbour."""

    type: Literal["arrest"] = "arrest"
    space: int


class Sniff(BaseModel):
    """Lola sniffs her space or an orthogonal neighbour."""

    type: Literal["sniff"] = "sniff"
    space: int


class Bark(BaseModel):
    """Lola barks: is the Killer on her space or one of the 8 around it?"""

    type: Literal["bark"] = "bark"


class Bite(BaseModel):
    """Lola's arrest attempt on her space or an orthogonal neighbour."""

    type: Literal["bite"] = "bite"
    space: int


class EndTurn(BaseModel):
    """The acting hunter ends its turn."""

    type: Literal["end_turn"] = "end_turn"


CerealAction = Annotated[
    KillerTurn | ChooseAnswer | PlaceDetective | Move | Ask | Arrest | Sniff | Bark | Bite | EndTurn,
    Field(discriminator="type"),
]


# ---------------------------------------------------------------- state

class Victim(BaseModel):
    model_config = ConfigDict(frozen=True)  # never changed once stored: copies of the state share it

    day: int
    space: int


class Answer(BaseModel):
    """A public answer to a question card."""

    model_config = ConfigDict(frozen=True)  # never changed once stored: copies of the state share it

    day: int
    question: str
    witness: int
    answer: str


class LolaAnswer(BaseModel):
    """A private answer to Lola (``space``: the sniffed space; ``None`` for Bark; ``at``: where Lola stood, the
    centre a Bark answers about)."""

    model_config = ConfigDict(frozen=True)  # never changed once stored: copies of the state share it

    day: int
    ability: str
    space: int | None
    answer: str
    at: int | None = None


class DayLog(BaseModel):
    """What everyone saw of one day that the other public fields forget: where the hunters stood when the Killer
    moved (they blocked its walk), the day's Witness (the Killer may not end on it) and the spaces of the day's
    missed arrests and Bites (the Killer was not there). Public: each was announced in the channel."""

    day: int
    detective: int | None = None
    lola: int | None = None
    witness: int | None = None
    misses: list[int] = Field(default_factory=list)


class Pending(BaseModel):
    """A question or Sniff waiting for the Killer's choice of answer."""

    kind: Literal["question", "sniff"]
    asker: int
    reference: int
    options: list[str]
    question: str | None = None


class HunterTurn(BaseModel):
    """Book-keeping of the acting hunter's turn."""

    seat: int
    start: int
    steps_left: int
    bonus_used: bool = False
    asked: bool = False
    ability: str | None = None


class Result(BaseModel):
    winner: Literal["killer", "hunters"]
    reason: str
    by: int | None = None
    params: dict[str, Any] = Field(default_factory=dict)


class CerealState(Controlled):
    """The whole game. Secret: ``killer`` (current space) and ``routes`` (one list per day: start + 3 steps)."""

    seed: int
    players: int
    seats: list[str]
    city: Side
    suburbs: Side | None = None
    difficulty: str | None = None
    day: int = 1
    phase: Phase = "killer"
    actions: int = 0
    killer: int | None = None
    routes: list[list[int]] = Field(default_factory=list)
    detective: int | None = None
    lola: int | None = None
    witness: int | None = None
    victims: list[Victim] = Field(default_factory=list)
    arrests_left: int = ARRESTS
    questions_used: list[str] = Field(default_factory=list)
    answers: list[Answer] = Field(default_factory=list)
    lola_answers: list[LolaAnswer] = Field(default_factory=list)
    log: list[DayLog] = Field(default_factory=list)
    bone: str | None = None
    turn: HunterTurn | None = None
    pending: Pending | None = None
    result: Result | None = None
    killer_rode: bool = False
    detective_rode: bool = False
    sniffed_out: bool = False
    invisible: bool = False

    @property
    def days(self) -> int:
        return DAYS[self.players]

    def next_objective(self) -> tuple[int, int] | None:
        """(day, victims needed) of the next calendar check not yet passed, or None."""
        for day, needed in sorted(CALENDAR[self.players].items()):
            if day >= self.day and not (day == self.day and self.phase != "killer"):
                return day, needed
        return None


def waiting_of(state: CerealState) -> Waiting | None:
    """Who the game waits on: the Killer to answer a pending question or Sniff (a prompt, kind ``answer``) or
    for its route (kind ``route``), else the acting hunter (kind ``turn``); ``None`` once the game is over."""
    if state.result is not None:
        return None
    if state.pending is not None:
        return Waiting.prompt(KILLER, "answer")
    if state.phase == "killer":
        return Waiting.turn(KILLER, "route")
    return Waiting.turn(LOLA if state.phase == "lola" else DETECTIVE)
