"""Random legal games at every head count (2-4: small mode, 5-10: tabletop) played to the end: a valid winner,
cards conserved, nothing secret in any public view or event, JSON round trip, replay reproduces the state."""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.asesino.common import INTENTION_CARDS, ROLE_CARDS, side_of
from games.asesino.small.models import SmallOptions, SmallState
from games.asesino.tabletop.models import TabletopOptions, TabletopState
from games.core import Engine, Event, SeatInfo
from games.core.replay import replay
from tests.games.asesino.support import SMALL, TABLE

CARD_WORDS = {*ROLE_CARDS, *INTENTION_CARDS}
#: public-view paths (``*`` any index) that may hold card words; their content is checked separately
VIEW_ALLOWED = {
    "tabletop": [("seats", "*", "revealed"), ("resolving", "effects"), ("roles",), ("result", "side"),
                 ("said",), ("seats", "*", "front", "*", "words")],
    "small": [("columns", "*", "slots", "*", "card"), ("columns", "*", "slots", "*", "declared"), ("roles",),
              ("result", "side"), ("waiting", "kind")],
}
#: public event params that may hold card words (the reveal events)
EVENT_ALLOWED = {
    "asesino.destiny.revealed": {"cards"}, "asesino.prompt.order": {"effects"}, "asesino.effects_ordered": {"order"},
    "asesino.over": {"roles", "side"}, "asesino.small.revealed": {"cards"},
    "asesino.small.detective_check.killer": {"hand"}, "asesino.small.detective_check.innocent": {"hand"},
    "asesino.small.journalist_revealed": {"cards"}, "asesino.small.effect_void": {"effect"},
    "asesino.small.effect_skipped": {"effect"},
}
PRIVATE_KEYS = {"tabletop": {"seat", "role", "hand", "partner", "my_plays"},
                "small": {"seat", "identity", "hand", "my_cards"}}


def strings(obj: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], str]]:
    if isinstance(obj, str):
        yield path, obj
    elif isinstance(obj, dict):
        for key, value in obj.items():
            yield from strings(value, (*path, key))
    elif isinstance(obj, list | tuple):
        for index, value in enumerate(obj):
            yield from strings(value, (*path, index))


def allowed(path: tuple[Any, ...], prefixes: list[tuple[str, ...]]) -> bool:
    return any(len(path) >= len(p) and all(a == "*" or a == b for a, b in zip(p, path, strict=False))
               for p in prefixes)


def card_count(engine: Engine, state: Any) -> Counter[str]:
    if isinstance(state, TabletopState):
        return Counter([c for p in state.seats for c in p.hand] + [x.card for p in state.seats for x in p.front]
                       + state.discard)
    return Counter([c for p in state.seats for c in p.hand] + [s.card for c in state.columns for s in c.slots])


def expected_cards(state: Any) -> Counter[str]:
    if isinstance(state, TabletopState):
        n = len(state.seats)
        return Counter([p.role for p in state.seats]) + Counter({"good": n, "bad": 2 * n})
    return Counter({"bad": 7, "good": 5, "killer": 1, "accomplice": 1, "detective": 1, "prosecutor": 1,
                    "doctor": 1, "journalist": 1})


def check_views(engine: Engine, mode: str, state: Any) -> None:
    public = engine.view(state, None)
    json.dumps(public)
    leaks = [(p, s) for p, s in strings(public) if s in CARD_WORDS and not allowed(p, VIEW_ALLOWED[mode])]
    assert not leaks
    assert (public["roles"] is None) == (engine.outcome(state) is None)
    if isinstance(state, TabletopState):
        for seat, view in zip(state.seats, public["seats"], strict=True):
            assert view["revealed"] == (seat.revealed if seat.resolved else [])
            assert view["cards_in_front"] == len(seat.front)
    else:
        for column, view in zip(state.columns, public["columns"], strict=True):
            assert [s["card"] for s in view["slots"]] == [
                slot.card if slot.face_up or column.revealed else None for slot in column.slots]
    for seat in range(len(state.seats)):
        private = engine.view(state, seat)
        assert {k: v for k, v in private.items() if k not in PRIVATE_KEYS[mode]} == public
        assert private["hand"] == state.seats[seat].hand


def check_events(state: Any, events: list[Event]) -> None:
    for event in events:
        assert event.key.startswith("asesino.")
        if not event.audience.is_public:
            assert event.audience.kind == "seats" and event.audience.seats
            continue
        free = EVENT_ALLOWED.get(event.key, set()) | {"words", "text"}
        assert not [s for p, s in strings(event.params) if s in CARD_WORDS and p[0] not in free]
        if event.key == "asesino.destiny.revealed":
            assert event.params["cards"] == state.seats[event.params["seat"]].revealed


def play(players: int, seed: int, choices: int, timeout_share: float) -> None:
    mode = "small" if players <= 4 else "tabletop"
    engine: Engine = SMALL if mode == "small" else TABLE
    options = SmallOptions() if mode == "small" else TabletopOptions()
    seats = [SeatInfo(names=(f"p{i}",)) for i in range(players)]
    state = engine.setup(options, seats, seed)
    total = card_count(engine, state)
    assert total == expected_cards(state)
    check_events(state, [e for e in engine.intro(state) if e.audience.is_public])
    rng = random.Random(choices)
    log: list[tuple[int, dict[str, Any]]] = []
    while engine.outcome(state) is None:
        assert len(log) < 400, "the game must end"
        if rng.random() < timeout_share:
            seat, action = engine.timeout_action(state)  # type: ignore[attr-defined]
        else:
            (seat,) = engine.to_act(state)
            action = rng.choice(engine.legal_actions(state, seat))
        step = engine.apply(state, seat, action)
        state = step.state
        log.append((seat, engine.dump_action(action)))
        check_events(state, step.events)
        check_views(engine, mode, state)
        assert card_count(engine, state) == total
    outcome = engine.outcome(state)
    assert outcome is not None and outcome.winners
    roles = [p.role if isinstance(state, TabletopState) else p.identity for p in state.seats]
    assert state.result is not None
    assert outcome.winners == [seat for seat, role in enumerate(roles) if side_of(role) == state.result.side]
    assert engine.to_act(state) == [] and engine.timeout_action(state) is None  # type: ignore[attr-defined]
    assert engine.parse_state(json.loads(json.dumps(engine.dump_state(state)))) == state
    assert engine.dump_state(replay(engine, options, seats, seed, log)) == engine.dump_state(state)
    if isinstance(state, TabletopState):
        assert len(state.deaths) <= 3
    else:
        assert isinstance(state, SmallState) and len(state.murders) <= 3


@pytest.mark.parametrize("players", range(2, 11))
@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**32), choices=st.integers(0, 2**32), timeout_share=st.sampled_from([0.0, 0.3, 1.0]))
def test_random_games_end_well_and_never_leak(players: int, seed: int, choices: int, timeout_share: float) -> None:
    """Any legal play (and the timeout defaults) ends with the right winners and conserves every card."""
    play(players, seed, choices, timeout_share)
