"""Repositories: games, seats, action log, timers, scores and series, on both backends."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bot.db.models import Achievement, Game, Series
from bot.db.repos import games, outbox, scores, timers
from games.core import Outcome

NOW = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)
Sessions = async_sessionmaker[AsyncSession]


async def _new_game(session: AsyncSession, *, channel_id: int = 20, guild_id: int = 10, status: str = "lobby",
                    series_id: int | None = None, users: tuple[int, ...] = ()) -> Game:
    game = Game(game="potato", mode="classic", guild_id=guild_id, channel_id=channel_id, host_id=1, status=status,
                options={}, language="en", series_id=series_id, created_at=NOW, updated_at=NOW)
    session.add(game)
    await session.flush()
    for user in users:
        await games.add_seat(session, game.id, user, [f"u{user}"], NOW)
    return game


async def test_active_lookups_skip_finished_and_cancelled_games(sessions: Sessions) -> None:
    """By channel, guild and user, only lobbies and running games are returned."""
    async with sessions() as session, session.begin():
        await _new_game(session, channel_id=20, status="finished", users=(7,))
        await _new_game(session, channel_id=21, status="cancelled", users=(7,))
        live = await _new_game(session, channel_id=20, status="active", users=(7, 8))
        lobby = await _new_game(session, channel_id=22, guild_id=11, users=(8,))
    async with sessions() as session:
        assert (await games.active_game_in_channel(session, 20)).id == live.id  # type: ignore[union-attr]
        assert await games.active_game_in_channel(session, 21) is None
        assert [g.id for g in await games.active_games_of_guild(session, 10)] == [live.id]
        assert [g.id for g in await games.active_games_of_user(session, 7)] == [live.id]
        assert [g.id for g in await games.active_games_of_user(session, 8)] == [live.id, lobby.id]


async def test_removing_a_seat_closes_the_gap(sessions: Sessions) -> None:
    """Seats after the leaver move down one; the others keep their numbers."""
    async with sessions() as session, session.begin():
        game = await _new_game(session, users=(1, 2, 3, 4))
        assert await games.remove_seat(session, game.id, 2)
        assert not await games.remove_seat(session, game.id, 99)
    async with sessions() as session:
        assert [(s.seat, s.user_id) for s in await games.seats_of(session, game.id)] == [(0, 1), (1, 3), (2, 4)]


async def test_bump_version_only_matches_the_expected_version(sessions: Sessions) -> None:
    """The optimistic guard: a second writer expecting the old version updates nothing."""
    async with sessions() as session, session.begin():
        game = await _new_game(session)
    async with sessions() as session, session.begin():
        assert await games.bump_version(session, game.id, 0, state={"n": 1})
        assert not await games.bump_version(session, game.id, 0, state={"n": 2})
    async with sessions() as session:
        loaded = await session.get(Game, game.id)
        assert loaded is not None and (loaded.version, loaded.state) == (1, {"n": 1})


async def test_a_move_reads_and_writes_rows_not_orm_objects(sessions: Sessions) -> None:
    """The table's read is one statement of rows (the game's columns, its seats in seat order; None for no game),
    and a move's version bump, guarded on the message ids, and its log entry put nothing in the session's identity
    map (Core statements built once: no ORM objects to track or flush)."""
    async with sessions() as session, session.begin():
        game = await _new_game(session, status="active", users=(5, 6, 7))
        await games.remove_seat(session, game.id, 6)
    async with sessions() as session, session.begin():
        row, seats = await games.game_with_seats(session, game.id) or (None, [])
        assert row is not None and (row.id, row.status, row.version, row.options) == (game.id, "active", 0, {})
        assert [(s.seat, s.user_id, s.names, s.dm_ok, s.away, s.dm_notice_due) for s in seats] == [
            (0, 5, ["u5"], True, False, False), (1, 7, ["u7"], True, False, False)]
        assert not await games.bump_version(session, game.id, 0, messages=(None, 99), state={"n": 1})  # moved
        assert await games.bump_version(session, game.id, 0, messages=(None, None), state={"n": 1}, seat_steps=2)
        await games.append_action(session, game.id, 0, 5, {"type": "pass"}, NOW)
        await games.append_action(session, game.id, 1, 7, {"type": "pass"}, NOW, timed_out=True)
        assert len(session.identity_map) == 0
        assert await games.game_with_seats(session, 999) is None
    async with sessions() as session:
        loaded = await session.get(Game, game.id)
        assert loaded is not None and (loaded.version, loaded.state, loaded.seat_steps) == (1, {"n": 1}, 2)
        assert [(a.seq, a.seat, a.timed_out) for a in await games.actions_of(session, game.id)] == [
            (1, 0, False), (2, 1, True)]


async def test_action_log_numbers_actions_from_one(sessions: Sessions) -> None:
    """Appended actions get seq 1, 2, 3 and come back in order."""
    async with sessions() as session, session.begin():
        game = await _new_game(session)
        for n in range(3):
            await games.append_action(session, game.id, n % 2, None if n == 2 else 5, {"type": "x", "n": n}, NOW)
    async with sessions() as session:
        log = await games.actions_of(session, game.id)
        assert [(a.seq, a.seat, a.user_id, a.action["n"]) for a in log] == [(1, 0, 5, 0), (2, 1, 5, 1), (3, 0, None, 2)]


async def test_timers_come_due_and_fire_once(sessions: Sessions) -> None:
    """claim_due() takes the unfired timers due by `now`; mark_fired succeeds once; disarm_game fires the rest."""
    async with sessions() as session, session.begin():
        game = await _new_game(session)
        early = await timers.schedule(session, game.id, "turn", NOW, {"seat": 1}, 3)
        late = await timers.schedule(session, game.id, "day", NOW + timedelta(hours=1), {}, 3)
    async with sessions() as session, session.begin():
        assert [t.id for t, _ in await timers.claim_due(session, NOW, "p", timedelta(minutes=1))] == [early.id]
        assert await timers.mark_fired(session, early.id, NOW)
        assert not await timers.mark_fired(session, early.id, NOW)
        day = NOW + timedelta(days=1)
        assert [t.id for t, _ in await timers.claim_due(session, day, "p", timedelta(minutes=1))] == [late.id]
        await timers.disarm_game(session, game.id, NOW)
        assert await timers.pending_of(session, game.id) == []


async def test_a_claim_that_ran_out_is_taken_over_and_a_stopping_owner_hands_back(sessions: Sessions) -> None:
    """A timer claimed by a process whose lease ran out is claimed by another, which is told from whom; a
    stopping process's claims and delivery leases go back at once (``release_owner``)."""
    async with sessions() as session, session.begin():
        game = await _new_game(session)
        timer = await timers.schedule(session, game.id, "turn", NOW, {}, 3)
        spare = await timers.schedule(session, game.id, "day", NOW, {}, 3)
    async with sessions() as session, session.begin():
        claimed = await timers.claim_due(session, NOW, "dead", timedelta(seconds=30))
        assert [(t.id, by) for t, by in claimed] == [(timer.id, None), (spare.id, None)]
    async with sessions() as session, session.begin():  # within the lease: nothing for another process
        assert await timers.claim_due(session, NOW + timedelta(seconds=29), "live", timedelta(seconds=30)) == []
    later = NOW + timedelta(seconds=31)
    async with sessions() as session, session.begin():
        claimed = await timers.claim_due(session, later, "live", timedelta(seconds=30), limit=1)
        assert [(t.id, by) for t, by in claimed] == [(timer.id, "dead")]
        await outbox.add(session, game.id, 4, "act", [], [], later)
        assert (await outbox.claim_game(session, game.id, "live", later, later + timedelta(seconds=30)))[0]
    async with sessions() as session, session.begin():
        await timers.release_owner(session, "live")
        await outbox.release_owner(session, "live", later)
    async with sessions() as session, session.begin():  # both at once for a third process, well within the lease
        claimed = await timers.claim_due(session, later, "next", timedelta(seconds=30))
        assert sorted((t.id, by) for t, by in claimed) == [(timer.id, None), (spare.id, "dead")]
        assert (await outbox.claim_game(session, game.id, "next", later, later + timedelta(seconds=30)))[0]


async def test_outcome_writes_scores_and_achievements(sessions: Sessions) -> None:
    """One score row per seat (0 points for a seat the outcome leaves out) and one row per achievement."""
    outcome = Outcome(winners=[1], reason="r", scores={0: 2.0, 1: 5.0}, achievements={1: ["ace", "ace", "fast"]})
    async with sessions() as session, session.begin():
        game = await _new_game(session, users=(100, 101, 102))
        seats = await games.seats_of(session, game.id)
        await scores.record_outcome(session, game, seats, outcome, NOW)
    async with sessions() as session:
        board = await scores.leaderboard(session, 10, "potato")
        assert board == [scores.Standing(101, 5.0, 1, 1), scores.Standing(100, 2.0, 0, 1),
                         scores.Standing(102, 0.0, 0, 1)]
        earned = await scores.achievements_of(session, 10, 101)
        assert sorted(a.achievement for a in earned) == ["ace", "fast"]
        assert (await session.scalars(select(Achievement.game_id))).all() == [game.id, game.id]


async def test_series_rounds_count_up_and_finish(sessions: Sessions) -> None:
    """Each finished game of a series is its next round; the series ends after rounds_total."""
    async with sessions() as session, session.begin():
        series = await scores.create_series(session, 10, 20, "potato", "classic", 2, NOW)
        for round_no, winner in ((1, 0), (2, 1)):
            game = await _new_game(session, channel_id=20 + round_no, series_id=series.id, users=(100, 101))
            seats = await games.seats_of(session, game.id)
            rows = await scores.record_outcome(session, game, seats, Outcome(
                winners=[winner], reason="r", scores={winner: 3.0}), NOW)
            assert {r.round for r in rows} == {round_no}
            last = game
        outside = await _new_game(session, channel_id=30, users=(100,))
        await scores.record_outcome(session, outside, await games.seats_of(session, outside.id),
                                    Outcome(winners=[0], reason="r", scores={0: 10.0}), NOW)
    async with sessions() as session:
        loaded = await session.get(Series, series.id)
        assert loaded is not None and (loaded.rounds_played, loaded.status) == (2, "finished")
        assert await scores.leaderboard(session, 10, "potato", series_id=series.id) == [
            scores.Standing(100, 3.0, 1, 2), scores.Standing(101, 3.0, 1, 2)]
        assert await scores.series_rounds(session, series.id) == scores.SeriesRounds(
            series.id, 2, 2, {1: {100: 3.0, 101: 0.0}, 2: {100: 0.0, 101: 3.0}},
            {100: (last.id, 0), 101: (last.id, 1)})  # both sat the last round: named from it
        all_time = await scores.leaderboard(session, 10, "potato")
        assert [(s.user_id, s.points, s.games) for s in all_time] == [(100, 13.0, 3), (101, 3.0, 2)]
        assert await scores.leaderboard(session, 10, "other") == []
        assert await scores.series_rounds(session, 999) is None


async def test_a_series_needs_a_round() -> None:
    """rounds_total below 1 is refused before touching the database."""
    with pytest.raises(ValueError, match="at least one round"):
        await scores.create_series(None, 1, 2, "potato", "classic", 0, NOW)  # type: ignore[arg-type]
