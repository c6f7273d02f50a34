"""State copies (``games.core.copying``, ``Engine.copy_state``): a copy shares nothing mutable with its original,
and ``apply`` never changes its input, over random games of every game and mode."""

from __future__ import annotations

import enum
import random
from datetime import UTC, datetime, timedelta
from typing import Annotated, Any

import pytest
from pydantic import BaseModel, ConfigDict, Field

from games.core import SYSTEM_SEAT, IllegalAction, SeatInfo, all_games, get_engine
from games.core.copying import SETTLED, deep_copy, step_copy

START = datetime(2026, 1, 5, 9, 0, tzinfo=UTC)
MODES = [(g.id, m.id, n) for g in all_games() if g.id != "potato" for m in g.modes
         for n in sorted({m.min_players, m.max_players})]


class Colour(enum.StrEnum):
    RED = "red"


class Leaf(BaseModel):
    model_config = ConfigDict(frozen=True)

    name: str
    colour: Colour
    at: datetime


class Box(BaseModel):
    leaves: list[Leaf] = Field(default_factory=list)
    cards: list[str] = Field(default_factory=list)
    table: dict[str, list[int]] = Field(default_factory=dict)
    maybe: list[int] | None = None
    loose: Any = None
    inner: Box | None = None


def mutable_objects(value: Any) -> list[Any]:
    """Every list, dict, set and non-frozen model inside ``value`` (``value`` included)."""
    found: list[Any] = []
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, BaseModel):
            if not item.model_config.get("frozen"):
                found.append(item)
            stack.extend(item.__dict__.values())
        elif isinstance(item, (list, dict, set)):
            found.append(item)
            stack.extend(item.values() if isinstance(item, dict) else item)
        elif isinstance(item, tuple):
            stack.extend(item)
    return found


def assert_shares_nothing(copy: Any, original: Any) -> None:
    shared = {id(x) for x in mutable_objects(copy)} & {id(x) for x in mutable_objects(original)}
    assert not shared, [x for x in mutable_objects(copy) if id(x) in shared][:3]


def test_deep_copy_shares_only_immutable_values() -> None:
    """Lists, dicts, models and ``Any`` values are new objects; frozen models of scalars and scalars are shared."""
    leaf = Leaf(name="a", colour=Colour.RED, at=START)
    box = Box(leaves=[leaf], cards=["x"], table={"k": [1, 2]}, maybe=[3], loose={"deep": [[1]]},
              inner=Box(cards=["y"]))
    copy = deep_copy(box)
    assert copy == box and copy.model_dump() == box.model_dump()
    assert copy.leaves[0] is leaf
    assert_shares_nothing(copy, box)
    copy.inner.cards.append("z")  # type: ignore[union-attr]
    copy.loose["deep"][0].append(2)
    copy.table["k"].append(3)
    assert box.inner.cards == ["y"] and box.loose == {"deep": [[1]]} and box.table == {"k": [1, 2]}  # type: ignore[union-attr]
    assert copy.model_fields_set == box.model_fields_set and copy.model_fields_set is not box.model_fields_set


def test_deep_copy_keeps_a_subclass_and_its_extra_fields() -> None:
    class Wider(Box):
        model_config = ConfigDict(extra="allow")

    wide = Wider(cards=["a"], note=["b"])  # type: ignore[call-arg]
    copy = deep_copy(Box(inner=wide)).inner
    assert type(copy) is Wider and copy.model_extra == {"note": ["b"]}
    assert copy.model_extra["note"] is not wide.model_extra["note"]  # type: ignore[index]


class Log(BaseModel):
    entries: list[Annotated[dict[str, Any], SETTLED]] = Field(default_factory=list)
    record: Annotated[list[int], SETTLED] = Field(default_factory=list)
    boxes: list[Box] = Field(default_factory=list)


def test_a_step_copy_shares_only_what_is_settled() -> None:
    """``step_copy`` shares the values declared ``SETTLED`` (the list of entries is new, each entry the same
    object) and copies the rest as ``deep_copy`` does; ``deep_copy`` copies the settled values too."""
    log = Log(entries=[{"day": 1, "params": {"seat": 2}}], record=[1, 2], boxes=[Box(cards=["x"])])
    step = step_copy(log)
    assert step == log and step.model_fields_set == log.model_fields_set
    assert step.entries is not log.entries and step.entries[0] is log.entries[0] and step.record is log.record
    assert step.boxes[0] is not log.boxes[0] and step.boxes[0].cards is not log.boxes[0].cards
    step.entries.append({"day": 2})
    assert len(log.entries) == 1
    assert_shares_nothing(deep_copy(log), log)


def _stamped(action: Any, state: Any, rng: random.Random) -> Any:
    """Time-carrying actions (the social mode) get a clock that moves forward, before the day's end."""
    if "at" not in type(action).model_fields or action.type == "end_day":
        return action
    at = (getattr(state, "last_at", None) or action.at) + timedelta(minutes=rng.randint(0, 30))
    ends = getattr(state, "day_ends_at", None)
    return action.model_copy(update={"at": max(action.at, min(at, ends - timedelta(seconds=1)) if ends else at)})


def _random_move(engine: Any, state: Any, rng: random.Random) -> tuple[int, Any] | None:
    waiting = engine.waiting(state)
    if waiting is None:
        return None
    timeout = getattr(engine, "timeout_action", None)
    if waiting.pings and timeout is not None and rng.random() < 0.1:
        return timeout(state)
    seats = [*waiting.seats, *([SYSTEM_SEAT] if waiting.pace == "realtime" and rng.random() < 0.1 else [])]
    rng.shuffle(seats)
    for seat in seats:
        legal = engine.legal_actions(state, seat)
        if legal:
            return seat, _stamped(rng.choice(legal), state, rng)
    return timeout(state) if timeout is not None else None


@pytest.mark.parametrize(("game", "mode", "players"), MODES)
def test_apply_never_changes_its_input_and_copies_share_nothing(game: str, mode: str, players: int) -> None:
    """Over seeded random games: the input state's dump is the same after every ``apply`` (accepted or refused),
    and ``copy_state`` gives an equal state sharing no list, dict or non-frozen model with it."""
    engine = get_engine(game, mode)
    fields = engine.Options.model_fields
    options = engine.Options.model_validate({"started_at": START.isoformat()} if "started_at" in fields else {})
    applied = 0
    for seed in range(3):
        rng = random.Random(seed)
        state = engine.setup(options, [SeatInfo(names=(f"p{i}",)) for i in range(players)], seed)
        for _ in range(250):
            move = _random_move(engine, state, rng)
            if move is None:
                break
            before = engine.dump_state(state)
            copy = engine.copy_state(state)
            assert engine.dump_state(copy) == before
            assert_shares_nothing(copy, state)
            try:
                step = engine.apply(state, *move)
            except IllegalAction:  # a placeholder (free text) the rules refuse
                assert engine.dump_state(state) == before
                continue
            assert engine.dump_state(state) == before, (move, engine.dump_action(move[1]))
            state = step.state
            applied += 1
    assert applied > 30
