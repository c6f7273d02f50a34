"""A timeout's move is the seat's computer player's move (issue 24): for every shipped mode with time limits, the
move :func:`games.core.ai.timeout_move` makes for a silent seat is what the mode's policy chooses from that seat's
view and legal moves with the same rng, the engine accepts it, and it never depends on other seats' secrets (the
view-only contract of ``test_ai_policies.py``, extended to timeouts). Verdugo ruling B-1: the Executioner below
his minimum chops the prisoner his policy picks. Also the contract's changes of who plays a seat
(:mod:`games.core.seats`): who may send them, and that they leave the game's state as it is and replay."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot.simulate.driver import play
from games.core import HOST_SEAT, SYSTEM_SEAT, IllegalAction, SeatInfo, get_engine
from games.core.ai import choose_action, policy_for, timeout_move
from games.core.replay import replay
from games.core.seats import SeatAway, SeatBack, SeatReplaced
from games.verdugo.models import Chop, Stop
from tests.games.core.test_ai_policies import MODES, _swap_secrets

TIMED = [(game, mode, n) for game, mode, n in MODES if get_engine(game, mode).features.timeouts]


def _states(game: str, mode: str, players: int, seeds: int = 2) -> list[Any]:
    """The states of seeded games of computer players (some moves timed out), after each move."""
    return [move.state for seed in range(seeds) for move in play(game, mode, players, seed, timeout_rate=0.2).moves]


@pytest.mark.parametrize(("game", "mode", "players"), TIMED, ids=[f"{g}-{m}-{n}" for g, m, n in TIMED])
def test_the_timeout_move_is_the_policy_move_from_the_seat_view(game: str, mode: str, players: int) -> None:
    """Whenever a person's seat is awaited, the timeout's move is the policy's choice from that seat's own view
    and legal moves (same rng seed, same move), up to how the game records a timeout, and the engine accepts it."""
    engine, policy = get_engine(game, mode), policy_for(game, mode)
    checked = 0
    for n, state in enumerate(_states(game, mode, players)):
        awaited = engine.timeout_action(state)
        if awaited is None or awaited[0] < 0:
            continue
        seat = awaited[0]
        expected = policy.choose(engine.view(state, seat), engine.legal_actions(state, seat), random.Random(n))
        assert timeout_move(engine, state, random.Random(n)) == (seat, engine.timeout_marked(state, expected))
        assert timeout_move(engine, state, random.Random(n)) == timeout_move(engine, state, random.Random(n))
        engine.apply(state, seat, timeout_move(engine, state, random.Random(n))[1])
        checked += 1
    assert checked > 10


def test_the_game_clock_keeps_its_own_timeout() -> None:
    """A Let's Kill! response window that runs out is closed by the game's clock, not played by a policy."""
    engine = get_engine("lets_kill", "classic")
    windows = [s for s in _states("lets_kill", "classic", 3, seeds=3) if engine.timeout_action(s)
               and engine.timeout_action(s)[0] == SYSTEM_SEAT]
    assert windows
    for state in windows:
        assert timeout_move(engine, state, random.Random(0)) == engine.timeout_action(state)


@pytest.mark.parametrize(("game", "mode", "players"), [("asesino", "small", 4), ("verdugo", "classic", 6)])
def test_other_seats_secrets_never_change_the_timeout_move(game: str, mode: str, players: int) -> None:
    """Exchanging two other players' secrets leaves the timed-out seat's move as it was: it reads only the view."""
    engine = get_engine(game, mode)
    compared = 0
    for n, state in enumerate(_states(game, mode, players)):
        awaited = engine.timeout_action(state)
        if awaited is None or awaited[0] < 0:
            continue
        changed = _swap_secrets(game, state, awaited[0])
        if changed is None:
            continue
        assert timeout_move(engine, changed, random.Random(n)) == timeout_move(engine, state, random.Random(n))
        compared += 1
    assert compared > 10


def test_an_executioner_below_his_minimum_chops_whom_his_policy_picks() -> None:
    """Verdugo ruling B-1 (README): an absent Executioner who may not stop yet chops the prisoner his computer
    player picks from his view (no random chop), and one who may stop does what his policy says."""
    engine, policy = get_engine("verdugo", "classic"), policy_for("verdugo", "classic")
    below = at_will = 0
    for n, state in enumerate(_states("verdugo", "classic", 5, seeds=3)):
        awaited = engine.timeout_action(state)
        if awaited is None or state.phase != "round" or state.round.phase != "execute":
            continue
        seat = awaited[0]
        legal = engine.legal_actions(state, seat)
        seat_move, action = timeout_move(engine, state, random.Random(n))
        assert (seat_move, action) == (seat, policy.choose(engine.view(state, seat), legal, random.Random(n)))
        if not any(isinstance(a, Stop) for a in legal):
            assert isinstance(action, Chop)
            below += 1
        else:
            at_will += 1
    assert below > 0 and at_will > 0


def test_a_seat_with_nothing_to_do_keeps_the_engine_default() -> None:
    """``choose_action`` has nothing for a seat without a legal move: the engine's own default stands."""
    engine = get_engine("cereal_killer", "classic")
    state = engine.setup(engine.Options(), [SeatInfo(), SeatInfo()], 3)
    assert choose_action(engine, state, 1, random.Random(0)) is None
    seat, _ = engine.timeout_action(state)
    assert timeout_move(engine, state, random.Random(0))[0] == seat == 0


# --- who plays a seat -------------------------------------------------------------------------------------------
CHANGES = [(SYSTEM_SEAT, SeatAway(seat=1), "seat.away", {"seat": 1}), (1, SeatBack(seat=1), "seat.back", {"seat": 1}),
           (HOST_SEAT, SeatReplaced(seat=1, to="person", names=("zed",), was=("b",)), "seat.replaced.person",
            {"seat": 1, "was": "b"}),
           (HOST_SEAT, SeatReplaced(seat=1, to="computer", names=("AI 1",), was=("b",)), "seat.replaced.computer",
            {"seat": 1, "was": "b"})]


@pytest.mark.parametrize(("actor", "action", "key", "params"), CHANGES, ids=[c[2] for c in CHANGES])
def test_a_seat_change_leaves_the_game_as_it_is_and_says_so(actor: int, action: Any, key: str,
                                                            params: dict[str, Any]) -> None:
    """Accepted from its sender, a seat change keeps the state and gives one public event naming the seat (and, for
    a replacement, the name the seat had)."""
    engine = get_engine("asesino", "small")
    state = engine.setup(engine.Options(), [SeatInfo(names=(n,)) for n in "abc"], 9)
    step = engine.apply(state, actor, engine.parse_action(engine.dump_action(action)))
    assert engine.dump_state(step.state) == engine.dump_state(state)
    assert [(e.key, e.params, e.audience.is_public) for e in step.events] == [(key, params, True)]


@pytest.mark.parametrize(("actor", "action", "code"), [
    (0, SeatAway(seat=1), "core.system_only"), (1, SeatAway(seat=1), "core.system_only"),
    (0, SeatBack(seat=1), "core.not_your_seat"), (HOST_SEAT, SeatBack(seat=1), "core.not_your_seat"),
    (1, SeatReplaced(seat=1, to="computer"), "core.host_only"), (SYSTEM_SEAT, SeatAway(seat=3), "core.bad_seat")])
def test_a_seat_change_from_the_wrong_sender_is_refused(actor: int, action: Any, code: str) -> None:
    """Away from the game's clock only, back from the seat itself, replaced by the host; a seat at the table."""
    engine = get_engine("asesino", "small")
    state = engine.setup(engine.Options(), [SeatInfo(names=(n,)) for n in "abc"], 9)
    with pytest.raises(IllegalAction) as refused:
        engine.apply(state, actor, action)
    assert refused.value.code == code


def test_seat_changes_replay_and_are_refused_once_the_game_is_over() -> None:
    """A log with seat changes among the moves replays to the same state; after the end they are refused."""
    game = play("verdugo", "classic", 4, 2)
    engine = game.engine
    log = [(m.seat, m.action) for m in game.moves]
    mixed = [*log[:3], (SYSTEM_SEAT, {"type": "seat_away", "seat": 2}), *log[3:6],
             (2, {"type": "seat_back", "seat": 2}), *log[6:]]
    rebuilt = replay(engine, game.options, game.seats, game.seed, mixed)
    assert engine.dump_state(rebuilt) == engine.dump_state(game.state)
    with pytest.raises(IllegalAction, match="core.game_over"):
        engine.apply(game.state, SYSTEM_SEAT, SeatAway(seat=0))
