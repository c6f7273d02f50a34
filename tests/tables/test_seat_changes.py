"""Who plays a seat, through the table service and the bot's timer handlers (issue 24): in every mode with time
limits a seat that times out twice in a row becomes a computer seat and the game goes on to a proper end; "I'm
back" returns it; a table whose every person left ends as abandoned with no scores; the host hands a seat to the
computer or, by an offer the newcomer accepts, to someone else, whose old holder is refused from then on; every
change is logged, replays and is refused to the wrong person with nothing changed."""

from __future__ import annotations

import random
from datetime import timedelta
from types import SimpleNamespace
from typing import Any

import pytest
from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bot.ai_seats import on_ai_move
from bot.clock import FakeClock
from bot.cogs.asesino_social.days import catch_up
from bot.db.models import GameAction, Score
from bot.db.repos import games
from bot.guild_config import GuildConfig
from bot.history.command import replay_file
from bot.history.record import replay_steps
from bot.history.store import load_record
from bot.metrics import Metrics
from bot.tables import Table, TableError, TableService
from bot.tables.model import ABANDONED
from bot.tables.seats import OFFER_TIMER
from bot.turns import on_turn_timeout
from games.core import HOST_SEAT, SYSTEM_SEAT, IllegalAction
from games.core.ai import choose_action
from tests.games.core.test_ai_policies import MODES
from tests.tables.conftest import NOW
from tests.tables.helpers import GUILD, HOST, started

TIMED = [(g, m, n) for g, m, n in MODES if m != "social" and n == min(n2 for g2, m2, n2 in MODES if (g2, m2) == (g, m))]
ABSENT, PRESENT = HOST, HOST + 1


def fake_bot(service: TableService, sessions: async_sessionmaker[AsyncSession], **config: Any) -> Any:
    """What the timer handlers use of the bot: its tables, database, clock, settings, metrics, timers."""
    async def settings(guild_id: int) -> GuildConfig:
        return GuildConfig(**config)

    async def schedule(game_id: int, kind: str, due_at: Any, payload: dict[str, Any]) -> None:
        await service.schedule_timer(game_id, kind, due_at, payload)

    return SimpleNamespace(tables=service, sessions=sessions, clock=FakeClock(NOW), config=settings,
                           metrics=Metrics(), timers=SimpleNamespace(schedule=schedule))


async def table_of(service: TableService, game: str, mode: str, players: int, seed: int = 11) -> Table:
    """A started ``game`` table: ABSENT and PRESENT seated first, computer players in the other seats."""
    table = await service.open_lobby(GUILD, 20 + seed, HOST, game, mode, {})
    table = await service.join(table.id, ABSENT, ["absent"])
    table = await service.join(table.id, PRESENT, ["present"])
    for _ in range(players - 2):
        table = await service.add_ai(table.id, HOST)
    return await service.start(table.id, HOST, seed=seed)


async def step(bot: Any, table: Table, rng: random.Random, *, silent: set[int]) -> Table:
    """One move of the game: a silent person's time runs out (the bot's turn timeout handler), a computer seat
    moves (its ai_move handler), a present person plays their policy's move by hand."""
    waiting = table.engine.waiting(table.state)
    assert waiting is not None
    timer = SimpleNamespace(game_id=table.id, payload={"version": table.decision_opened, "attempt": 0})
    computer = set(table.ai_seats())
    people = [s for s in waiting.seats if s not in computer]
    if people and all(table.user_of(s) in silent for s in people):
        await on_turn_timeout(bot, timer)
    elif not people:
        timer.payload["version"] = table.version
        await on_ai_move(bot, timer)
    else:
        seat = next(s for s in people if table.user_of(s) not in silent)
        action = choose_action(table.engine, table.state, seat, rng)
        await bot.tables.act(table.id, table.user_of(seat), table.engine.dump_action(action),
                             expected_version=table.version)
    after = await bot.tables.load(table.id)
    assert after.version > table.version, "the game did not move"
    return after


async def logged(sessions: async_sessionmaker[AsyncSession], game_id: int) -> list[tuple[int, str, bool]]:
    async with sessions() as session:
        rows = (await session.scalars(select(GameAction).where(GameAction.game_id == game_id)
                                      .order_by(GameAction.seq))).all()
    return [(r.seat, r.action["type"], r.timed_out) for r in rows]


async def scores(sessions: async_sessionmaker[AsyncSession], game_id: int) -> int:
    async with sessions() as session:
        return int(await session.scalar(select(func.count(Score.id)).where(Score.game_id == game_id)) or 0)


@pytest.mark.parametrize(("game", "mode", "players"), TIMED, ids=[f"{g}-{m}-{n}" for g, m, n in TIMED])
async def test_a_seat_timing_out_twice_is_played_by_the_computer_to_a_proper_end(
        service: TableService, sessions: async_sessionmaker[AsyncSession], game: str, mode: str,
        players: int) -> None:
    """ABSENT never moves: after their second timeout in a row the computer plays their seat (a logged
    ``seat_away``), no timeout is made for them any more, and the game, PRESENT playing, ends with a real outcome
    scored for both people (ABSENT earns no achievement the computer won for them); the log replays."""
    bot = fake_bot(service, sessions)
    for seed in range(11, 31):  # (a short game may end before ABSENT's second turn: the next deal is played)
        table = await table_of(service, game, mode, players, seed)
        rng = random.Random(seed)
        for _ in range(3000):
            if table.status != "active":
                break
            table = await step(bot, table, rng, silent={ABSENT})
        moves = await logged(sessions, table.id)
        if (SYSTEM_SEAT, "seat_away", False) in moves:
            break
    assert table.status == "finished" and table.outcome is not None and table.outcome.reason != ABANDONED
    away_at = moves.index((SYSTEM_SEAT, "seat_away", False))
    before = [m for m in moves[:away_at] if m[0] == 0]
    assert [m[2] for m in before][-2:] == [True, True] and len(before) >= 2
    assert not any(m[0] == 0 and m[2] for m in moves[away_at:]), "a timeout for a seat the computer plays"
    assert any(m[0] == 0 for m in moves[away_at:]), "the computer never moved for the absent seat"
    assert [s.away for s in table.seats][:2] == [True, False]
    assert 0 not in table.outcome.achievements, "the computer earned an achievement for the absent player"
    assert await scores(sessions, table.id) == 2
    assert await service.replay_check(table.id)


async def timed_out_twice(service: TableService, sessions: async_sessionmaker[AsyncSession],
                          **config: Any) -> tuple[Any, Table]:
    """A 2-player Asesino game where ABSENT has just been handed to the computer (PRESENT plays)."""
    bot = fake_bot(service, sessions, **config)
    table = await table_of(service, "asesino", "small", 2)
    rng = random.Random(5)
    while not table.seats[0].away:
        table = await step(bot, table, rng, silent={ABSENT})
    return bot, table


async def test_im_back_returns_the_seat_and_only_its_player_may_press_it(
        service: TableService, sessions: async_sessionmaker[AsyncSession]) -> None:
    """While away, ABSENT's own moves are refused (``seat.error.away``); PRESENT pressing "I'm back" for that
    seat is refused and changes nothing; ABSENT pressing it gets the seat back and may move again."""
    bot, table = await timed_out_twice(service, sessions)
    with pytest.raises(TableError, match="seat.error.away"):
        service.check_turn(table, ABSENT, None)
    for user in (PRESENT, HOST + 7):
        with pytest.raises(TableError, match="seat.error.not_yours|table.not_a_player"):
            await service.act(table.id, user, {"type": "seat_back", "seat": 0})
        assert (await service.load(table.id)).version == table.version
    back = await service.act(table.id, ABSENT, {"type": "seat_back", "seat": 0})
    assert [s.away for s in back.table.seats] == [False, False]
    assert [e.key for e in back.events] == ["seat.back"]
    assert table.seat_of(ABSENT) not in back.table.ai_seats()
    with pytest.raises(TableError, match="seat.error.not_away"):
        await service.act(table.id, ABSENT, {"type": "seat_back", "seat": 0})
    moves = await logged(sessions, table.id)
    assert moves[-1] == (0, "seat_back", False)


async def test_a_table_of_computer_seats_only_ends_abandoned_with_no_scores(
        service: TableService, sessions: async_sessionmaker[AsyncSession]) -> None:
    """When the last person's seat goes to the computer the game ends as abandoned: finished, no winners, no score
    rows, no timers left; it still replays."""
    bot = fake_bot(service, sessions)
    table = await table_of(service, "verdugo", "classic", 4)
    rng = random.Random(1)
    while table.status == "active":
        table = await step(bot, table, rng, silent={ABSENT, PRESENT})
    assert table.status == "finished" and table.abandoned
    assert table.outcome is not None and table.outcome.winners == [] and table.outcome.reason == "table.abandoned"
    assert await scores(sessions, table.id) == 0
    assert await service.pending_timers(table.id) == []
    assert await service.replay_check(table.id)
    assert [m[1] for m in (await logged(sessions, table.id)) if m[0] == SYSTEM_SEAT].count("seat_away") == 2


async def test_the_setting_says_how_many_timeouts_in_a_row(service: TableService,
                                                           sessions: async_sessionmaker[AsyncSession]) -> None:
    """``timeouts_to_computer`` 3: the seat goes to the computer after its third timeout in a row, not before."""
    _, table = await timed_out_twice(service, sessions, timeouts_to_computer=3)
    moves = await logged(sessions, table.id)
    away_at = moves.index((SYSTEM_SEAT, "seat_away", False))
    assert [m[2] for m in moves[:away_at] if m[0] == 0][-3:] == [True, True, True]


async def test_the_host_hands_a_seat_to_the_computer(service: TableService,
                                                     sessions: async_sessionmaker[AsyncSession]) -> None:
    """``seat_replaced`` to the computer (as HOST_SEAT): the seat has no person any more, its old holder is not a
    player; a person sending it is refused."""
    table = await started(service, 3)
    with pytest.raises(IllegalAction, match="core.host_only"):
        await service.act(table.id, HOST + 1, {"type": "seat_replaced", "seat": 1, "to": "computer"})
    result = await service.act(table.id, None, {"type": "seat_replaced", "seat": 1, "to": "computer"}, seat=HOST_SEAT)
    assert result.table.user_of(1) is None and 1 in result.table.ai_seats()
    assert [e.key for e in result.events] == ["seat.replaced.computer"]
    with pytest.raises(TableError, match="table.not_a_player"):
        service.check_turn(result.table, HOST + 1, None)
    with pytest.raises(TableError, match="seat.error.computer"):
        await service.act(table.id, None, {"type": "seat_replaced", "seat": 1, "to": "computer"}, seat=HOST_SEAT)


async def test_a_newcomer_takes_a_seat_only_by_the_offer_made_to_them(
        service: TableService, sessions: async_sessionmaker[AsyncSession]) -> None:
    """Without an offer (or by someone else than its newcomer, or by someone seated) taking a seat is refused;
    with it the newcomer holds the seat (logged with their id and the names the seat had) and the seat goes by the
    newcomer's name, the old holder is no player any more, the offer is spent and the game still replays."""
    table = await started(service, 3)
    newcomer = HOST + 50
    take = {"type": "seat_replaced", "seat": 2, "to": "person", "names": ["newbie"]}
    with pytest.raises(TableError, match="seat.error.no_offer"):
        await service.act(table.id, newcomer, take)
    await service.schedule_timer(table.id, OFFER_TIMER, NOW + timedelta(minutes=15),
                                 {"seat": 2, "user_id": newcomer, "by": HOST})
    for user in (HOST + 51, HOST + 1):
        with pytest.raises(TableError, match="seat.error.no_offer"):
            await service.act(table.id, user, take)
    result = await service.act(table.id, newcomer, take)
    assert result.table.user_of(2) == newcomer and result.table.seat_of(HOST + 2) is None
    assert result.table.shown_name(2) == "newbie" == (await service.load(table.id)).shown_name(2)
    with pytest.raises(TableError, match="table.not_a_player"):
        await service.act(table.id, HOST + 2, {"type": "pass", "to": 0})
    assert [t.kind for t in await service.pending_timers(table.id) if t.kind == OFFER_TIMER] == []
    async with sessions() as session:
        row = await session.scalar(select(GameAction).where(GameAction.game_id == table.id)
                                   .order_by(GameAction.seq.desc()))
    assert row is not None and (row.seat, row.user_id, row.action) == (HOST_SEAT, newcomer, {**take, "was": ["p2"]})
    assert await service.replay_check(table.id)


@pytest.mark.parametrize(("game", "mode", "players"),
                         [("verdugo", "classic", 4), ("lets_kill", "classic", 3), ("asesino", "social", 6)])
async def test_a_game_whose_state_keeps_names_still_replays_after_a_seat_changed_hands(
        service: TableService, sessions: async_sessionmaker[AsyncSession], game: str, mode: str,
        players: int) -> None:
    """Verdugo, Let's Kill! and the social mode deal their seats' names into the state: once PRESENT's seat goes to
    a newcomer (and by the newcomer's name, in the state too), the stored game, its history record and its exported
    JSON still replay (the deal was under the seat's first name), and the replayed steps name the seat as it was
    named then."""
    table = await table_of(service, game, mode, players)
    newcomer = HOST + 60
    await service.schedule_timer(table.id, OFFER_TIMER, NOW + timedelta(minutes=15),
                                 {"seat": 1, "user_id": newcomer, "by": HOST})
    await service.act(table.id, newcomer, {"type": "seat_replaced", "seat": 1, "to": "person", "names": ["newbie"]})
    after = await service.load(table.id)
    assert after.shown_name(1) == "newbie"
    if mode == "social":  # its letters are checked against the names in its state
        assert after.state.seats[1].names == ["newbie"]
    assert await service.replay_check(table.id)
    record = await load_record(sessions, table.id)
    steps = replay_steps(record)
    assert [s.table.shown_name(1) for s in steps] == ["present", "newbie"]
    assert replay_file({**record.to_json(), "outcome": None}) is None


async def test_a_social_game_whose_players_stay_silent_two_days_ends_abandoned(
        service: TableService, sessions: async_sessionmaker[AsyncSession]) -> None:
    """The social mode has no turn time limits: a day without acting counts as one (ruling 31 of
    ``games/asesino/README.md``). After day 1 nobody is handed over; the end of day 2 finds both people silent
    for two days: the computer plays both seats, so the game ends as abandoned with no scores."""
    bot = fake_bot(service, sessions)
    table = await service.open_lobby(GUILD, 90, HOST, "asesino", "social", {"started_at": NOW.isoformat()})
    for user in (ABSENT, PRESENT):
        table = await service.join(table.id, user, [f"p{user}"])
    for _ in range(4):
        table = await service.add_ai(table.id, HOST)
    table = await service.start(table.id, HOST, seed=3)
    bot.clock.set(NOW + timedelta(days=1, minutes=1))
    await catch_up(bot, table.id)
    after_one = await service.load(table.id)
    assert after_one.status == "active" and not any(s.away for s in after_one.seats)
    bot.clock.set(NOW + timedelta(days=2, minutes=1))
    await catch_up(bot, table.id)
    final = await service.load(table.id)
    assert final.status == "finished" and final.abandoned
    assert [m[1] for m in await logged(sessions, table.id)][-2:] == ["seat_away", "seat_away"]
    assert await scores(sessions, table.id) == 0
    assert await service.replay_check(table.id)


async def test_a_seat_change_leaves_the_awaited_decision_open(service: TableService) -> None:
    """A change of who plays another seat keeps the decision the game waits on: a control drawn before it still
    stands (the awaited player's move is not refused as stale) and its time limit, armed when it was offered,
    still counts (``decision_opened`` unchanged); the next move of the game opens a new decision."""
    table = await started(service, 3)
    drawn = table.version
    holder = table.state.holder
    other = (holder + 1) % 3
    changed = await service.act(table.id, None, {"type": "seat_replaced", "seat": other, "to": "computer"},
                                seat=HOST_SEAT)
    assert changed.table.version == drawn + 1 and changed.table.decision_opened == drawn
    assert changed.table.stands(drawn) and (await service.load(table.id)).decision_opened == drawn
    moved = await service.act(table.id, table.user_of(holder), {"type": "pass", "to": other}, expected_version=drawn)
    assert moved.table.decision_opened == moved.table.version and moved.table.seat_steps == 0


async def test_a_newcomer_does_not_inherit_the_former_holders_timeouts(
        service: TableService, sessions: async_sessionmaker[AsyncSession]) -> None:
    """The count of timeouts in a row stops at the host's handing the seat to someone else (a tester's finding:
    a newcomer's first timeout put the seat away, counted with the old holder's), not at the host's other actions
    (a pause between two timeouts) or another seat's replacement; and never passes ``limit``."""
    table = await started(service, 3)
    log: list[tuple[int, dict[str, Any], bool]] = [
        (1, {"type": "x"}, True), (1, {"type": "x"}, True),
        (HOST_SEAT, {"type": "seat_replaced", "seat": 1, "to": "person"}, False),
        (1, {"type": "x"}, True), (HOST_SEAT, {"type": "pause"}, False),
        (HOST_SEAT, {"type": "seat_replaced", "seat": 2, "to": "computer"}, False),
    ]
    counts = []
    for seat, action, timed_out in log:
        async with sessions.begin() as session:
            await games.append_action(session, table.id, seat, None, action, NOW, timed_out=timed_out)
        async with sessions() as session:
            counts.append(await games.timeouts_in_a_row(session, table.id, 1, 5))
    assert counts == [1, 2, 0, 1, 1, 1]
    async with sessions.begin() as session:
        await games.append_action(session, table.id, 1, None, {"type": "x"}, NOW, timed_out=True)
        await games.append_action(session, table.id, 1, None, {"type": "x"}, NOW, timed_out=True)
    async with sessions() as session:
        assert await games.timeouts_in_a_row(session, table.id, 1, 5) == 3
        assert await games.timeouts_in_a_row(session, table.id, 1, 2) == 2
