"""The 2-4 player engine: six columns of declared cards, revealed destinies and the murder register.

Who must act (:meth:`SmallEngine.waiting`): the revealer while one of their reveal effects is pending
(kind ``accomplice`` / ``prosecutor`` / ``journalist``), else the player holding the turn (kind ``turn``:
``PlayCard``, ``Reveal``, or ``Pass`` when neither is possible). Seats play in seat order.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from itertools import combinations
from typing import Any, ClassVar

from pydantic import BaseModel

from games.asesino.achievements import small_facts
from games.asesino.common import SEAT_PARAMS, said, waiting_for
from games.asesino.small import effects
from games.asesino.small.models import (
    AccompliceSwap,
    CardRef,
    JournalistReveal,
    Pass,
    PlayCard,
    ProsecutorSwap,
    Reveal,
    Slot,
    SmallAction,
    SmallOptions,
    SmallState,
)
from games.asesino.small.setup import deal
from games.asesino.small.views import private_view, public_view
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
    Waiting,
    rng_for,
)
from games.core.achievements import Moment
from games.core.copying import deep_copy, replace, unchecked, variants

_STEP = frozenset({"state", "events"})
#: the Prosecutor's and the Journalist's skips (an action is never changed: shared)
_SKIP_SWAP, _SKIP_REVEAL = ProsecutorSwap(), JournalistReveal()
_ANSWERS: dict[str, type[BaseModel]] = {"accomplice": AccompliceSwap, "prosecutor": ProsecutorSwap,
                                        "journalist": JournalistReveal}


class SmallEngine(Engine[SmallState]):
    """Asesino en Serie, 2-4 player mode."""

    game: ClassVar[str] = "asesino"
    mode: ClassVar[ModeInfo] = ModeInfo(id="small", min_players=2, max_players=4)
    State = SmallState
    Options = SmallOptions
    Action: ClassVar[Any] = SmallAction
    features: ClassVar[Features] = Features(timeouts=True, ai=True)
    seat_params: ClassVar[tuple[str, ...]] = SEAT_PARAMS

    def setup(self, options: BaseModel, seats: list[SeatInfo], seed: int) -> SmallState:
        assert isinstance(options, SmallOptions)
        return deal(options, len(seats), seed)

    def intro(self, state: SmallState) -> list[Event]:
        """Each seat's identity and hand by DM, then the first turn."""
        events = [Event(key="asesino.small.intro", params={"identity": p.identity, "hand": list(p.hand)},
                        audience=Audience.to(seat)) for seat, p in enumerate(state.seats)]
        return events + [Event(key="asesino.turn", params={"seat": state.turn})]

    def _pending(self, state: SmallState) -> tuple[int, str] | None:
        if state.result is not None:
            return None
        if state.prompts:
            return state.prompts[0].seat, state.prompts[0].kind
        return state.turn, "turn"

    def waiting(self, state: SmallState) -> Waiting | None:
        """The seat the game waits on: a turn (``turn``, ``declare_all``) or a prompt (any other kind)."""
        return waiting_for(self._pending(state))

    def step_state(self, state: SmallState, action: Any = None) -> SmallState:
        """A card played on a turn with no effect pending (most moves) changes only the turn's counters, the
        mover's hand and the column it goes into (:meth:`_play`; the mover is the turn's seat, as the contract
        checked): its step gets a copy of those and shares the other players and columns. Any other move gets the
        contract's copy."""
        if action.__class__ is PlayCard and not state.prompts and state.result is None and \
                0 <= action.column < len(state.columns):
            seats, columns = list(state.seats), list(state.columns)
            seats[state.turn] = deep_copy(seats[state.turn])
            columns[action.column] = deep_copy(columns[action.column])
            return replace(state, seats=seats, columns=columns, prompts=[],  # type: ignore[no-any-return]
                           murders=list(state.murders))
        return super().step_state(state, action)

    def legal_actions(self, state: SmallState, seat: int) -> list[Any]:
        waiting = self._pending(state)
        if waiting is None or waiting[0] != seat:
            return []
        kind = waiting[1]
        if kind == "accomplice":
            return [AccompliceSwap()] + self._swaps(state, seat)
        # the swaps and reveals copied from the skip, unvalidated: their slots are the table's own positions
        if kind == "prosecutor":
            pairs = [[a, b] for a, b in combinations(effects.swappable(state), 2)]
            return [_SKIP_SWAP, *variants(_SKIP_SWAP, "slots", pairs)]
        if kind == "journalist":
            down = effects.face_down(state)
            pairs = [[a, b] for a, b in combinations(down, 2) if a.column != b.column]
            return [_SKIP_REVEAL, *variants(_SKIP_REVEAL, "slots", [[ref] for ref in down] + pairs)]
        columns = state.columns
        plays = _plays(tuple(dict.fromkeys(state.seats[seat].hand)),
                       tuple(column for column, col in enumerate(columns) if not col.sealed))
        reveals = _reveals(tuple(c for c, col in enumerate(columns) if col.sealed and not col.revealed))
        return [*plays, *reveals] or [Pass()]

    @staticmethod
    def _swaps(state: SmallState, seat: int) -> list[AccompliceSwap]:
        hand = state.seats[seat].hand
        gives = {tuple(sorted(combo)) for size in (1, 2) for combo in combinations(hand, size)}
        return [AccompliceSwap(target=target, cards=list(give)) for target, p in enumerate(state.seats)
                if target != seat and p.hand for give in sorted(gives) if len(give) <= len(p.hand)]

    def _apply(self, state: SmallState, seat: int, action: Any) -> Step:
        """Raises ``asesino.error.prompt_pending`` and the action-specific ``asesino.error.*`` codes (game over and
        the turn are the contract's, :meth:`Engine.apply`)."""
        waiting = self._pending(state)
        assert waiting is not None
        expected = _ANSWERS.get(waiting[1])
        if (expected is not None and not isinstance(action, expected)) or (
                expected is None and not isinstance(action, PlayCard | Reveal | Pass)):
            raise IllegalAction("asesino.error.prompt_pending", prompt=waiting[1])
        if isinstance(action, Pass) and self.legal_actions(state, seat) != [Pass()]:
            raise IllegalAction("asesino.error.cannot_pass")
        new = state  # the contract's copy (Engine.apply)
        new.counter += 1
        events: list[Event] = []
        if expected is not None:
            new.prompts.pop(0)
        if isinstance(action, PlayCard):
            self._play(new, seat, action, events)
        elif isinstance(action, Reveal):
            column = self._column(new, action.column)
            if not column.sealed or column.revealed:
                raise IllegalAction("asesino.error.column_not_revealable", column=action.column)
            self._next_turn(new, seat)
            effects.reveal(new, seat, action.column, events)
        elif isinstance(action, Pass):
            events.append(Event(key="asesino.passed", params={"seat": seat}))
            self._next_turn(new, seat)
        elif isinstance(action, AccompliceSwap):
            self._accomplice(new, seat, action, events)
        elif isinstance(action, ProsecutorSwap):
            self._prosecutor(new, seat, action, events)
        elif isinstance(action, JournalistReveal):
            self._journalist(new, seat, action, events)
        effects.advance(new, events)
        return unchecked(Step, {"state": new, "events": events}, _STEP)

    @staticmethod
    def _next_turn(state: SmallState, seat: int) -> None:
        state.turn = (seat + 1) % len(state.seats)
        state.turn_announced = False

    @staticmethod
    def _column(state: SmallState, index: int) -> Any:
        if not 0 <= index < len(state.columns):
            raise IllegalAction("asesino.error.bad_column", column=index)
        return state.columns[index]

    def _play(self, state: SmallState, seat: int, action: PlayCard, events: list[Event]) -> None:
        player = state.seats[seat]
        if action.card not in player.hand:
            raise IllegalAction("asesino.error.card_not_in_hand", card=action.card)
        column = self._column(state, action.column)
        if column.sealed:
            raise IllegalAction("asesino.error.column_sealed", column=action.column)
        player.hand.remove(action.card)
        column.slots.append(Slot(card=action.card, by=seat, declared=action.declared))
        events.append(said(f"asesino.small.played.{action.declared}", {
            "seat": seat, "column": action.column, "count": len(column.slots)}))
        events.append(said("asesino.small.you_played", {"card": action.card, "column": action.column},
                           Audience.to(seat)))
        if column.sealed:
            events.append(said("asesino.small.sealed", {"column": action.column}))
        self._next_turn(state, seat)

    @staticmethod
    def _accomplice(state: SmallState, seat: int, action: AccompliceSwap, events: list[Event]) -> None:
        if action.target is None or not action.cards:
            events.append(Event(key="asesino.small.effect_skipped", params={"seat": seat, "effect": "accomplice"}))
            return
        if not 0 <= action.target < len(state.seats) or action.target == seat:
            raise IllegalAction("asesino.error.bad_target", seat_params=("target",), target=action.target)
        mine, theirs = state.seats[seat].hand, state.seats[action.target].hand
        if len(action.cards) > len(theirs):
            raise IllegalAction("asesino.error.too_many_cards", count=len(theirs))
        for card in action.cards:
            if card not in mine:
                raise IllegalAction("asesino.error.card_not_in_hand", card=card)
            mine.remove(card)
        rng = rng_for(state.seed, "swap", state.counter)
        taken = [theirs.pop(i) for i in sorted(rng.sample(range(len(theirs)), len(action.cards)), reverse=True)]
        mine.extend(taken)
        theirs.extend(action.cards)
        events.append(Event(key="asesino.small.swapped", params={"seat": seat, "target": action.target,
                                                                 "count": len(taken)}))
        events.append(Event(key="asesino.small.swap_mine", params={"target": action.target, "gave": action.cards,
                                                                   "got": taken}, audience=Audience.to(seat)))
        events.append(Event(key="asesino.small.swap_theirs", params={"seat": seat, "lost": taken,
                                                                     "got": action.cards},
                            audience=Audience.to(action.target)))

    @staticmethod
    def _check_refs(refs: list[CardRef], allowed: list[CardRef]) -> None:
        keys = [(ref.column, ref.index) for ref in refs]
        if len(set(keys)) != len(keys) or any(ref not in allowed for ref in refs):
            raise IllegalAction("asesino.error.bad_cards")

    def _prosecutor(self, state: SmallState, seat: int, action: ProsecutorSwap, events: list[Event]) -> None:
        if not action.slots:
            events.append(Event(key="asesino.small.effect_skipped", params={"seat": seat, "effect": "prosecutor"}))
            return
        if len(action.slots) != 2:
            raise IllegalAction("asesino.error.bad_cards")
        self._check_refs(action.slots, effects.swappable(state))
        a, b = action.slots
        col_a, col_b = state.columns[a.column].slots, state.columns[b.column].slots
        col_a[a.index], col_b[b.index] = col_b[b.index], col_a[a.index]
        events.append(Event(key="asesino.small.positions_swapped", params={
            "seat": seat, "first_column": a.column, "first_index": a.index, "second_column": b.column,
            "second_index": b.index}))

    def _journalist(self, state: SmallState, seat: int, action: JournalistReveal, events: list[Event]) -> None:
        if not action.slots:
            events.append(Event(key="asesino.small.effect_skipped", params={"seat": seat, "effect": "journalist"}))
            return
        self._check_refs(action.slots, effects.face_down(state))
        if len({ref.column for ref in action.slots}) != len(action.slots):
            raise IllegalAction("asesino.error.same_column")
        shown = []
        for ref in action.slots:
            slots = state.columns[ref.column].slots
            slot = slots[ref.index] = slots[ref.index].model_copy(update={"face_up": True})  # a Slot is frozen
            shown.append({"column": ref.column, "index": ref.index, "card": slot.card})
        events.append(Event(key="asesino.small.journalist_revealed", params={"seat": seat, "cards": shown}))

    def timeout_action(self, state: SmallState) -> tuple[int, Any] | None:
        """The waiting seat whose time limit runs out, with its first legal move (an effect's skip) as the
        engine's fallback: the bot plays the seat's policy from its view (:func:`games.core.ai.timeout_move`)."""
        waiting = self._pending(state)
        if waiting is None:
            return None
        seat, _ = waiting
        return seat, self.legal_actions(state, seat)[0]

    def view(self, state: SmallState, seat: int | None) -> dict[str, Any]:
        waiting = self._pending(state)
        must_pass = waiting is not None and [a.type for a in self.legal_actions(state, waiting[0])] == ["pass"]
        public = public_view(state, waiting, must_pass)
        return public if seat is None else private_view(state, seat, public)

    def outcome(self, state: SmallState) -> Outcome | None:
        if state.result is None:
            return None
        return Outcome(winners=effects.winners_of(state), reason=state.result.reason,
                       params={"side": state.result.side, "murders": len(state.murders)})

    def facts(self, final: SmallState, moments: Sequence[Moment]) -> dict[int, dict[str, Any]]:
        """See :func:`games.asesino.achievements.small_facts`."""
        return small_facts(final, moments, self.outcome(final))


@lru_cache(maxsize=4096)
def _plays(cards: tuple[str, ...], columns: tuple[int, ...]) -> tuple[PlayCard, ...]:
    """Every ``PlayCard`` of ``cards`` (distinct, in hand order) into ``columns`` (unsealed), each declared good then
    bad: made once per hand and table (the legal moves of a turn, asked after every move), shared (never changed)."""
    return tuple(PlayCard(card=card, column=column, declared=declared)
                 for card in cards for column in columns for declared in ("good", "bad"))


@lru_cache(maxsize=64)
def _reveals(columns: tuple[int, ...]) -> tuple[Reveal, ...]:
    """``Reveal`` of each of ``columns`` (sealed, not revealed yet), shared like :func:`_plays`."""
    return tuple(Reveal(column=column) for column in columns)
