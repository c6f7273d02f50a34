"""Hot Potato: a tiny test-only game that stands in for a real one in contract and end-to-end tests.

Each seat is dealt a secret number (hidden information, sent by DM). The holder passes the potato to another
seat; after ``passes`` passes the holder loses and everyone else wins.

This file is the template of a game's engine (``games/README.md``): copied to ``games/<game>/__init__.py`` with
"potato" renamed, it is a complete game package; its messages are in ``tests/support/locales/`` (copied to the
game's ``bot/cogs/<game>/locales/``); importing it registers the engine.
"""

from __future__ import annotations

from typing import Annotated, Any, ClassVar, Literal

from pydantic import BaseModel, Field

from games.core import (
    Audience,
    Engine,
    Event,
    Features,
    IllegalAction,
    ModeInfo,
    Outcome,
    SeatInfo,
    Step,
    register,
    rng_for,
)
from games.core.controls import Controlled


class PotatoOptions(BaseModel):
    passes: int = Field(default=3, ge=1, le=20)


class PotatoSeat(BaseModel):
    secret: int


class PotatoState(Controlled):
    seed: int
    seats: list[PotatoSeat]
    holder: int
    passes_left: int
    turn: int = 0


class Pass(BaseModel):
    type: Literal["pass"] = "pass"
    to: int


class Shout(BaseModel):
    type: Literal["shout"] = "shout"
    text: str = Field(max_length=200)


class Whisper(BaseModel):
    """A private word to another seat: only they hear it (a secret action, for the no-leak tests)."""

    type: Literal["whisper"] = "whisper"
    to: int
    text: str = Field(max_length=200)


PotatoAction = Annotated[Pass | Shout | Whisper, Field(discriminator="type")]


class HotPotato(Engine[PotatoState]):
    game: ClassVar[str] = "potato"
    mode: ClassVar[ModeInfo] = ModeInfo(id="classic", min_players=2, max_players=10)
    State = PotatoState
    Options = PotatoOptions
    Action: ClassVar[Any] = PotatoAction
    features: ClassVar[Features] = Features(timeouts=True)

    def setup(self, options: BaseModel, seats: list[SeatInfo], seed: int) -> PotatoState:
        assert isinstance(options, PotatoOptions)
        if not self.mode.min_players <= len(seats) <= self.mode.max_players:
            raise IllegalAction("core.bad_player_count", count=len(seats))
        rng = rng_for(seed, "deal")
        return PotatoState(
            seed=seed,
            seats=[PotatoSeat(secret=rng.randint(1, 99)) for _ in seats],
            holder=rng.randrange(len(seats)),
            passes_left=options.passes,
        )

    def intro(self, state: PotatoState) -> list[Event]:
        return [Event(key="potato.dealt", params={"secret": s.secret}, audience=Audience.to(i))
                for i, s in enumerate(state.seats)] + [Event(key="potato.start", params={"seat": state.holder})]

    def legal_actions(self, state: PotatoState, seat: int) -> list[Any]:
        if self.outcome(state) is not None or seat != state.holder:
            return []
        return [Pass(to=other) for other in range(len(state.seats)) if other != seat]

    def check_actor(self, state: PotatoState, seat: int, action: Any = None) -> None:
        """Anyone seated may shout or whisper at any time (table talk); passing is the holder's turn."""
        if isinstance(action, Shout | Whisper) and not self.is_over(state) and 0 <= seat < len(state.seats):
            return
        super().check_actor(state, seat, action)

    def copy_state(self, state: PotatoState) -> PotatoState:
        return state  # every step below builds a new state (model_copy with updates) or keeps this one

    def _apply(self, state: PotatoState, seat: int, action: Any) -> Step:
        if isinstance(action, Shout):
            return Step(state=state, events=[Event(key="potato.shout", params={"seat": seat, "text": action.text})])
        if isinstance(action, Whisper):
            return Step(state=state, events=[Event(key="potato.whisper", params={"seat": seat, "text": action.text},
                                                   audience=Audience.to(action.to))])
        if action.to == seat or not 0 <= action.to < len(state.seats):
            raise IllegalAction("potato.bad_target", to=action.to)
        new = state.model_copy(update={"holder": action.to, "passes_left": state.passes_left - 1,
                                       "turn": state.turn + 1})
        events = [Event(key="potato.passed", params={"from_seat": seat, "to_seat": action.to}),
                  Event(key="potato.you_hold", params={"secret": new.seats[action.to].secret},
                        audience=Audience.to(action.to))]
        if new.passes_left == 0:
            events.append(Event(key="potato.burnt", params={"seat": action.to}))
        return Step(state=new, events=events)

    def timeout_action(self, state: PotatoState) -> tuple[int, Any] | None:
        """The holder ran out of time: the potato goes to the next seat."""
        if self.outcome(state) is not None:
            return None
        return state.holder, Pass(to=(state.holder + 1) % len(state.seats))

    def view(self, state: PotatoState, seat: int | None) -> dict[str, Any]:
        public = {"holder": state.holder, "passes_left": state.passes_left, "players": len(state.seats)}
        if seat is None:
            return public
        return public | {"secret": state.seats[seat].secret}

    def outcome(self, state: PotatoState) -> Outcome | None:
        if state.passes_left > 0:
            return None
        return Outcome(winners=[s for s in range(len(state.seats)) if s != state.holder], reason="potato.burnt",
                       scores={s: (0.0 if s == state.holder else 1.0) for s in range(len(state.seats))})


ENGINE = register(HotPotato())
