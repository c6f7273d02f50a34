"""The action path: lock -> version check -> engine -> one transaction -> deliver."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest
from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bot.db.models import Game, GameAction, Score, Timer
from bot.tables import ActResult, Table, TableError, TableService
from games.core import IllegalAction
from tests.tables.conftest import NOW, Outbox
from tests.tables.helpers import GUILD, HOST, pass_on, started

Sessions = async_sessionmaker[AsyncSession]


async def _written(sessions: Sessions, game_id: int) -> tuple[int, int, dict[str, Any] | None]:
    """(log length, version, snapshot) as stored."""
    async with sessions() as session:
        count = await session.scalar(select(func.count()).select_from(GameAction).where(GameAction.game_id == game_id))
        game = await session.get(Game, game_id)
        assert game is not None
        return count or 0, game.version, game.state


async def _play_out(service: TableService, table: Table) -> ActResult:
    while True:
        user, action = pass_on(table)
        result = await service.act(table.id, user, action, expected_version=table.version)
        if result.outcome is not None:
            return result
        table = result.table


async def test_a_game_plays_from_lobby_to_finish(service: TableService, sessions: Sessions, outbox: Outbox) -> None:
    """Each pass is logged with its seq; the last one finishes the game, stores the outcome and the scores."""
    table = await started(service, 3, passes=3)
    result = await _play_out(service, table)
    final = result.table
    assert final.status == "finished" and final.finished_at == NOW and final.outcome == result.outcome
    assert final.version == table.version + 3
    loaded = await service.load(table.id)
    assert loaded.outcome == result.outcome and loaded.state == final.state and loaded.status == "finished"
    async with sessions() as session:
        log = (await session.scalars(select(GameAction).order_by(GameAction.seq))).all()
        assert [(a.seq, a.action["type"], a.at) for a in log] == [(1, "pass", NOW), (2, "pass", NOW), (3, "pass", NOW)]
        rows = (await session.scalars(select(Score).order_by(Score.seat))).all()
    loser = final.user_of(final.state.holder)
    assert [(r.user_id, r.points, r.won, r.round) for r in rows] == [
        (u, 0.0 if u == loser else 1.0, u != loser, None) for u in final.user_ids()]
    assert outbox.keys.count("potato.passed") == 3 and outbox.keys[-1] == "potato.burnt"
    assert [version for _, version, _ in outbox.sent] == [table.version + n for n in range(4)]  # intro, 3 passes
    with pytest.raises(TableError, match="table.not_active"):
        await service.act(table.id, HOST, {"type": "shout", "text": "late"})


@pytest.mark.parametrize(("who", "action", "code"), [
    ("stranger", {"type": "shout", "text": "hi"}, "table.not_a_player"),
    ("holder", {"type": "teleport"}, "table.bad_action"),
    ("holder", {"type": "shout", "text": "x" * 500}, "table.bad_action"),
])
async def test_refused_actions_write_nothing(service: TableService, sessions: Sessions, outbox: Outbox, who: str,
                                             action: dict[str, Any], code: str) -> None:
    """Strangers and malformed actions are refused with a table.* code; log and snapshot stay as they were."""
    table = await started(service, 3)
    before = await _written(sessions, table.id)
    user = 999 if who == "stranger" else pass_on(table)[0]
    with pytest.raises(TableError) as err:
        await service.act(table.id, user, action)
    assert err.value.code == code
    assert await _written(sessions, table.id) == before and outbox.keys[-1] == "potato.start"  # the intro only


async def test_an_action_in_a_lobby_is_refused(service: TableService) -> None:
    """Nothing can be played before the start."""
    table = await service.open_lobby(GUILD, 1, HOST, "potato", "classic", {})
    table = await service.join(table.id, HOST, ["host"])
    with pytest.raises(TableError, match="table.not_active"):
        await service.act(table.id, HOST, {"type": "shout", "text": "hi"})


async def test_stale_version_is_refused_and_nothing_written(service: TableService, sessions: Sessions) -> None:
    """A click carrying an outdated version (an old message) is table.stale."""
    table = await started(service, 3)
    user, action = pass_on(table)
    before = await _written(sessions, table.id)
    with pytest.raises(TableError) as err:
        await service.act(table.id, user, action, expected_version=table.version - 1)
    assert err.value.code == "table.stale"
    assert await _written(sessions, table.id) == before


async def test_illegal_action_propagates_and_writes_nothing(service: TableService, sessions: Sessions,
                                                            outbox: Outbox) -> None:
    """The engine's IllegalAction reaches the caller unchanged; log length and snapshot are unchanged."""
    table = await started(service, 3)
    holder = table.state.holder
    not_holder = table.user_of((holder + 1) % 3)
    before = await _written(sessions, table.id)
    with pytest.raises(IllegalAction) as err:
        await service.act(table.id, not_holder, {"type": "pass", "to": holder})  # type: ignore[arg-type]
    assert err.value.code == "core.not_your_turn"
    with pytest.raises(IllegalAction, match="potato.bad_target"):
        await service.act(table.id, table.user_of(holder), {"type": "pass", "to": holder})  # type: ignore[arg-type]
    assert await _written(sessions, table.id) == before and outbox.keys[-1] == "potato.start"  # the intro only


async def test_concurrent_double_click_applies_once(service: TableService, sessions: Sessions) -> None:
    """Two identical clicks with the same expected version: one applies, the other is table.stale."""
    table = await started(service, 3)
    user, action = pass_on(table)
    results = await asyncio.gather(*(service.act(table.id, user, action, expected_version=table.version)
                                     for _ in range(2)), return_exceptions=True)
    assert sum(isinstance(r, ActResult) for r in results) == 1
    (error,) = [r for r in results if isinstance(r, BaseException)]
    assert isinstance(error, TableError) and error.code == "table.stale"
    assert (await _written(sessions, table.id))[:2] == (1, table.version + 1)


async def test_two_services_on_one_database_race_on_gather(sessions: Sessions) -> None:
    """Two TableService instances (two processes) clicking the same version concurrently apply it once."""
    first, second = TableService(sessions), TableService(sessions)
    table = await started(first, 3)
    user, action = pass_on(table)
    results = await asyncio.gather(first.act(table.id, user, action, expected_version=table.version),
                                   second.act(table.id, user, action, expected_version=table.version),
                                   return_exceptions=True)
    assert sum(isinstance(r, ActResult) for r in results) == 1
    assert [r.code for r in results if isinstance(r, TableError)] == ["table.stale"]
    assert (await _written(sessions, table.id))[:2] == (1, table.version + 1)


class _PausingService(TableService):
    """A service that pauses after reading the game, so another process can commit in between."""

    def __init__(self, sessions: Sessions) -> None:
        super().__init__(sessions)
        self.read_done = asyncio.Event()
        self.resume = asyncio.Event()

    async def _read(self, session: AsyncSession, game_id: int) -> Any:
        loaded = await super()._read(session, game_id)
        self.read_done.set()
        await self.resume.wait()
        return loaded


@pytest.mark.parametrize("expected", [True, False])
async def test_the_database_guard_stops_a_second_process(sessions: Sessions, expected: bool) -> None:
    """When both services read version v before either writes, only the first UPDATE ... WHERE version = v
    matches: the second rolls back with table.stale (with or without an expected_version)."""
    table = await started(TableService(sessions), 3)
    slow, fast = _PausingService(sessions), TableService(sessions)
    user, action = pass_on(table)
    version = table.version if expected else None
    slow_task = asyncio.create_task(slow.act(table.id, user, action, expected_version=version))
    await slow.read_done.wait()
    await fast.act(table.id, user, action, expected_version=version)
    slow.resume.set()
    with pytest.raises(TableError) as err:
        await slow_task
    assert err.value.code == "table.stale"
    assert (await _written(sessions, table.id))[:2] == (1, table.version + 1)


async def test_failing_deliver_does_not_undo_the_action(sessions: Sessions, caplog: pytest.LogCaptureFixture) -> None:
    """A deliver that raises is logged; the action stays committed (and its step stays in the outbox)."""
    async def broken(table: Table, events: list[Any]) -> None:
        raise RuntimeError("Discord is down")

    service = TableService(sessions, deliver=broken)
    table = await started(service, 3)
    user, action = pass_on(table)
    result = await service.act(table.id, user, action)
    assert result.table.version == table.version + 1
    assert (await _written(sessions, table.id))[:2] == (1, table.version + 1)
    assert "delivering 4 events of game" in caplog.text  # the intro, still first in line


async def test_a_bot_move_for_a_seat_is_logged_without_a_user(service: TableService, sessions: Sessions) -> None:
    """The bot's move for a seat is applied like a player's and logged without a user."""
    table = await started(service, 3)
    holder = table.state.holder
    result = await service.act(table.id, None, {"type": "pass", "to": (holder + 1) % 3}, seat=holder,
                                       expected_version=table.version)
    assert result.table.state.holder == (holder + 1) % 3
    async with sessions() as session:
        assert (await session.scalars(select(GameAction.user_id))).all() == [None]
    with pytest.raises(TableError, match="table.bad_seat"):
        await service.act(table.id, None, {"type": "shout", "text": "?"}, seat=7)


async def test_series_games_score_rounds(service: TableService, sessions: Sessions) -> None:
    """Games of a series write their round into the scores; standings are per series and all time."""
    first = await service.open_lobby(GUILD, 1, HOST, "potato", "classic", {"passes": 1}, rounds=2)
    series_id = first.series_id
    assert series_id is not None
    for n in range(2):
        await service.join(first.id, HOST + n, [f"p{n}"])
    await _play_out(service, await service.start(first.id, HOST, seed=1))
    await _play_out(service, await started(service, 2, passes=1, seed=2, series_id=series_id))
    await _play_out(service, await started(service, 2, passes=1, seed=3))
    async with sessions() as session:
        rounds = (await session.scalars(select(Score.round).where(Score.series_id == series_id))).all()
    assert sorted(rounds) == [1, 1, 2, 2]
    in_series = await service.leaderboard(GUILD, "potato", series_id=series_id)
    all_time = await service.leaderboard(GUILD, "potato")
    assert sum(s.games for s in in_series) == 4 and sum(s.games for s in all_time) == 6
    assert sum(s.points for s in in_series) == 2.0


@pytest.mark.parametrize("seed", [1, 2, 3])
async def test_replay_check_passes_after_a_random_game(service: TableService, seed: int) -> None:
    """Re-applying the logged actions of a random game (passes and shouts) to its seed gives the snapshot."""
    rng = random.Random(seed)
    table = await started(service, rng.randint(2, 6), passes=rng.randint(1, 6), seed=seed)
    while table.status == "active":
        if rng.random() < 0.3:
            seat = rng.randrange(len(table.seats))
            action: dict[str, Any] = {"type": "shout", "text": f"hey {seat}"}
        else:
            seat = table.state.holder
            action = table.engine.dump_action(rng.choice(table.engine.legal_actions(table.state, seat)))
        table = (await service.act(table.id, table.user_of(seat), action)).table  # type: ignore[arg-type]
    assert await service.replay_check(table.id)


async def test_replay_check_detects_a_tampered_snapshot(service: TableService, sessions: Sessions) -> None:
    """A snapshot that the log does not reproduce fails the check."""
    table = await started(service, 3)
    user, action = pass_on(table)
    await service.act(table.id, user, action)
    async with sessions() as session, session.begin():
        game = await session.get(Game, table.id)
        assert game is not None and game.state is not None
        game.state = {**game.state, "passes_left": 99}
    assert not await service.replay_check(table.id)


async def test_timers_come_due_and_fire_once(service: TableService, sessions: Sessions) -> None:
    """Timers carry the version they were set at, come due by time and fire once, even across services."""
    from datetime import timedelta

    table = await started(service, 3)
    soon = await service.schedule_timer(table.id, "turn", NOW + timedelta(minutes=5), {"seat": 1})
    later = await service.schedule_timer(table.id, "day", NOW + timedelta(hours=1), {})
    assert soon.version_at_schedule == table.version and soon.payload == {"seat": 1}
    assert await service.next_timer_due() == soon.due_at
    lease = timedelta(minutes=1)
    assert await service.claim_timers(NOW, lease) == []
    assert [t.id for t in await service.claim_timers(NOW + timedelta(minutes=5), lease)] == [soon.id]
    other = TableService(sessions, clock=lambda: NOW)
    fired = await asyncio.gather(service.fire_timer(soon.id), other.fire_timer(soon.id))
    assert sorted(fired) == [False, True]
    assert not await service.fire_timer(soon.id)
    assert [t.id for t in await other.claim_timers(NOW + timedelta(days=1), lease)] == [later.id]
    with pytest.raises(TableError, match="table.not_found"):
        await service.schedule_timer(999, "turn", NOW, {})


async def test_finishing_or_cancelling_disarms_pending_timers(service: TableService, sessions: Sessions) -> None:
    """A game that ends leaves no timer to fire."""
    from datetime import timedelta

    finished = await started(service, 2, passes=1, channel=1)
    cancelled = await started(service, 2, channel=2)
    for table in (finished, cancelled):
        await service.schedule_timer(table.id, "turn", NOW + timedelta(minutes=1), {})
    await _play_out(service, finished)
    await service.cancel(cancelled.id, HOST, is_manager=False)
    assert await service.next_timer_due() is None
    async with sessions() as session:
        assert (await session.scalars(select(Timer.fired_at))).all() == [NOW, NOW]
