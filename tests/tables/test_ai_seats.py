"""AI seats in the table service: adding and removing computer players (host only, up to the mode's maximum),
a game needs a person, computer players move through the same gate as people and are never scored; the
``ai_move`` timer a step arms and what its handler does with a refused or outdated move."""

from __future__ import annotations

import random
from collections.abc import Sequence
from datetime import timedelta
from types import SimpleNamespace
from typing import Any

import pytest
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bot.ai_seats import AI_TIMER, MAX_TRIES, ai_delay, ai_movers, ai_timers, on_ai_move, resume_ai_moves
from bot.clock import FakeClock
from bot.db.models import Score
from bot.db.repos import games
from bot.history.store import load_record
from bot.metrics import Metrics
from bot.tables import TableError, TableService
from games.core import ai
from tests.support.tiny_game import Pass
from tests.tables.conftest import NOW, Outbox
from tests.tables.helpers import GUILD, HOST, lobby


async def test_the_host_adds_numbered_computer_players_and_removes_the_last(service: TableService) -> None:
    """AI seats have no user, are named "🤖 AI n" in the lobby's language ("🤖 IA n" in Spanish) and are counted
    like players; Remove AI takes the last one even when a person joined after it (later seats move up)."""
    table = await lobby(service, 1)
    table = await service.add_ai(table.id, HOST)
    table = await service.add_ai(table.id, HOST)
    table = await service.join(table.id, HOST + 1, ["p1"])
    assert [(s.seat, s.user_id, s.names, s.is_ai) for s in table.seats] == [
        (0, HOST, ("p0",), False), (1, None, ("🤖 AI 1",), True), (2, None, ("🤖 AI 2",), True),
        (3, HOST + 1, ("p1",), False)]
    assert table.user_ids() == [HOST, HOST + 1] and table.ai_seats() == [1, 2] and table.user_of(1) is None
    table = await service.remove_ai(table.id, HOST)
    assert [(s.seat, s.user_id) for s in table.seats] == [(0, HOST), (1, None), (2, HOST + 1)]
    assert table.seat_of(HOST + 1) == 2 and table.has_seat(2) and not table.has_seat(3)
    spanish = await service.open_lobby(GUILD, 21, HOST, "potato", "classic", {}, language="es", host_names=["p0"])
    assert (await service.add_ai(spanish.id, HOST)).seat_names(1) == ("🤖 IA 1",)


async def test_ai_seat_refusals_change_nothing(service: TableService,
                                               sessions: async_sessionmaker[AsyncSession]) -> None:
    """Host only, up to the mode's maximum, something to remove, and only in a lobby; a refusal leaves the lobby
    as it was. A lobby of computer players alone does not start."""
    cases = [("add_not_host", 2, "table.host_only"), ("remove_not_host", 2, "table.host_only"),
             ("remove_none", 2, "table.no_ai_seat"), ("add_full", 10, "table.full"),
             ("add_started", 2, "table.already_started")]
    for channel, (step, players, code) in enumerate(cases, start=30):
        table = await lobby(service, players, channel=channel)
        if step == "add_started":
            table = await service.start(table.id, HOST)
        by = HOST + 1 if step.endswith("not_host") else HOST
        with pytest.raises(TableError) as err:
            await (service.remove_ai if step.startswith("remove") else service.add_ai)(table.id, by)
        assert err.value.code == code, step
        after = await service.load(table.id)
        assert (after.version, after.seats) == (table.version, table.seats)
    # a game needs a person: two computer players seated alone (stored directly, as no command leaves a lobby so:
    # only a seated host adds them, and the last person leaving takes them along) do not start
    table = await service.open_lobby(GUILD, 22, HOST, "potato", "classic", {})
    async with sessions() as session, session.begin():
        for _ in range(2):
            await games.add_seat(session, table.id, None, ["🤖 AI"], NOW)
    with pytest.raises(TableError, match="table.needs_person"):
        await service.start(table.id, HOST)
    assert (await service.load(table.id)).status == "lobby"


async def test_the_last_person_leaving_takes_the_computer_players_along(service: TableService) -> None:
    """The host hands over to a person, never to an AI seat; with nobody left the AI seats go too."""
    table = await lobby(service, 2)
    await service.add_ai(table.id, HOST)
    table = await service.leave(table.id, HOST)
    assert table.host_id == HOST + 1 and [s.user_id for s in table.seats] == [HOST + 1, None]
    table = await service.leave(table.id, HOST + 1)
    assert table.seats == () and table.host_id == HOST + 1


async def test_a_person_joining_a_lobby_its_host_left_hosts_it(service: TableService) -> None:
    """The host alone with computer players leaves (they go too); the next person to join hosts the lobby, so it
    can be filled and started rather than waiting for its expiry; a later joiner does not take it over."""
    table = await lobby(service, 1)
    await service.add_ai(table.id, HOST)
    table = await service.leave(table.id, HOST)
    assert table.seats == () and table.host_id == HOST
    for add_or_remove in (service.add_ai, service.remove_ai):  # nobody seated: no host until someone joins
        with pytest.raises(TableError, match="table.host_only"):
            await add_or_remove(table.id, HOST)
    assert (await service.load(table.id)).version == table.version
    table = await service.join(table.id, HOST + 1, ["p1"])
    assert table.host_id == HOST + 1
    with pytest.raises(TableError, match="table.host_only"):
        await service.add_ai(table.id, HOST)
    table = await service.add_ai(table.id, HOST + 1)
    table = await service.join(table.id, HOST + 2, ["p2"])
    assert table.host_id == HOST + 1 and [s.user_id for s in table.seats] == [HOST + 1, None, HOST + 2]
    assert (await service.start(table.id, HOST + 1, seed=7)).status == "active"


async def test_computer_players_move_through_the_gate_and_are_never_scored(service: TableService,
                                                                          sessions: async_sessionmaker[AsyncSession]
                                                                          ) -> None:
    """An AI seat's move is ``act`` for its seat (logged without a user; the turn is the engine's); only people get
    score rows, so the leaderboard never lists a computer player; the history's export has no user for it."""
    table = await lobby(service, 1, passes=2)
    await service.add_ai(table.id, HOST)
    table = await service.start(table.id, HOST, seed=7)
    for _ in range(2):
        holder = table.state.holder
        table = (await service.act(table.id, None, {"type": "pass", "to": 1 - holder}, seat=holder,
                                   expected_version=table.version)).table
    assert table.status == "finished"
    async with sessions() as session:
        scored = (await session.scalars(select(Score.user_id).where(Score.game_id == table.id))).all()
    assert scored == [HOST]
    assert [row.user_id for row in await service.leaderboard(GUILD, "potato")] == [HOST]
    assert await service.replay_check(table.id)
    exported = (await load_record(sessions, table.id)).to_json()  # the history names no user for it
    assert [(s["user_id"], s["names"]) for s in exported["seats"]] == [(str(HOST), ["p0"]), (None, ["🤖 AI 1"])]
    assert [a["user_id"] for a in exported["actions"]] == [None, None]


# --- the ai_move timer ------------------------------------------------------------------------------------------

def test_the_delay_is_human_like_and_follows_the_seed() -> None:
    delays = [ai_delay(seed, version) for seed in range(20) for version in range(5)]
    assert all(timedelta(seconds=2) <= d <= timedelta(seconds=6) for d in delays) and len(set(delays)) > 50
    assert ai_delay(3, 4) == ai_delay(3, 4) != ai_delay(3, 5)


@pytest.fixture
def planned(sessions: async_sessionmaker[AsyncSession], outbox: Outbox) -> TableService:
    """A service whose steps arm the ai_move timer (as the bot's delivery plans it)."""
    async def plan(table: Any) -> list[Any]:
        return ai_timers(table, NOW)

    return TableService(sessions, deliver=outbox, plan=plan, clock=lambda: NOW)


async def ai_holding(service: TableService) -> Any:
    """A started 2-seat potato (the host, then AI 1) at a step where the AI seat holds the potato."""
    table = await lobby(service, 1, passes=3)
    await service.add_ai(table.id, HOST)
    table = await service.start(table.id, HOST, seed=7)
    if table.state.holder == 0:
        table = (await service.act(table.id, HOST, {"type": "pass", "to": 1})).table
    assert table.state.holder == 1
    return table


async def test_a_step_waiting_on_a_computer_player_arms_its_move(planned: TableService) -> None:
    table = await ai_holding(planned)
    (timer,) = [t for t in await planned.pending_timers(table.id) if t.version_at_schedule == table.version]
    assert (timer.kind, timer.payload) == (AI_TIMER, {"version": table.version, "attempt": 0})
    assert timer.due_at == NOW + ai_delay(7, table.version)
    table = (await planned.act(table.id, None, {"type": "pass", "to": 0}, seat=1)).table  # now the person holds it
    assert not [t for t in await planned.pending_timers(table.id) if t.version_at_schedule == table.version]


def fake_bot(service: TableService) -> Any:
    scheduled: list[tuple[str, dict[str, Any]]] = []

    async def schedule(game_id: int, kind: str, due_at: Any, payload: dict[str, Any]) -> None:
        scheduled.append((kind, payload))

    return SimpleNamespace(tables=service, clock=FakeClock(NOW), timers=SimpleNamespace(schedule=schedule),
                           scheduled=scheduled, metrics=Metrics())


async def test_the_handler_plays_the_policy_and_drops_an_outdated_timer(planned: TableService) -> None:
    table = await ai_holding(planned)
    bot = fake_bot(planned)
    outdated = SimpleNamespace(game_id=table.id, payload={"version": table.version - 1, "attempt": 0})
    await on_ai_move(bot, outdated)
    assert (await planned.load(table.id)).version == table.version
    await on_ai_move(bot, SimpleNamespace(game_id=table.id, payload={"version": table.version, "attempt": 0}))
    after = await planned.load(table.id)
    assert after.version == table.version + 1 and after.state.holder == 0 and bot.scheduled == []


async def test_a_move_that_loses_the_race_is_dropped(planned: TableService, monkeypatch: pytest.MonkeyPatch) -> None:
    """Another move lands between the handler's read and its own move: the version check refuses it, nothing is
    re-planned (the step that won armed the next ai_move) and nothing is raised."""
    table = await ai_holding(planned)
    bot = fake_bot(planned)
    act = TableService.act

    async def raced(self: TableService, game_id: int, user_id: int | None, *args: Any, **kwargs: Any) -> Any:
        if user_id is None:  # the AI seat's move
            await act(self, game_id, HOST, {"type": "shout", "text": "first!"})  # any time: it bumps the version
        return await act(self, game_id, user_id, *args, **kwargs)

    monkeypatch.setattr(TableService, "act", raced)
    await on_ai_move(bot, SimpleNamespace(game_id=table.id, payload={"version": table.version, "attempt": 0}))
    after = await planned.load(table.id)
    assert after.version == table.version + 1 and after.state.holder == 1 and bot.scheduled == []


async def test_a_move_into_a_game_cancelled_meanwhile_is_dropped(planned: TableService,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """The host cancels the game between the handler's read and its move: nothing is played and no further
    ai_move is planned for the closed game."""
    table = await ai_holding(planned)
    bot = fake_bot(planned)
    act = TableService.act

    async def cancelled(self: TableService, game_id: int, user_id: int | None, *args: Any, **kwargs: Any) -> Any:
        if user_id is None:  # the AI seat's move
            await self.cancel(game_id, HOST, is_manager=False)
        return await act(self, game_id, user_id, *args, **kwargs)

    monkeypatch.setattr(TableService, "act", cancelled)
    await on_ai_move(bot, SimpleNamespace(game_id=table.id, payload={"version": table.version, "attempt": 0}))
    after = await planned.load(table.id)
    assert after.status == "cancelled" and after.state.holder == 1 and bot.scheduled == []


async def test_a_spent_move_is_planned_again_at_start(planned: TableService) -> None:
    """At start, a game waiting on a computer player whose ai_move was spent without a move (its handler failed)
    gets a new one; a game whose ai_move is still pending gets none."""
    table = await ai_holding(planned)
    bot = fake_bot(planned)
    (timer,) = [t for t in await planned.pending_timers(table.id) if t.kind == AI_TIMER]
    await resume_ai_moves(bot)
    assert bot.scheduled == []
    assert await planned.fire_timer(timer.id)
    await resume_ai_moves(bot)
    assert bot.scheduled == [(AI_TIMER, {"version": table.version, "attempt": 0})]


class PassesToItself(ai.Policy):
    """A broken policy: a move the rules refuse."""

    def choose(self, view: dict[str, Any], legal: Sequence[Any], rng: random.Random) -> Any:
        return Pass(to=1)


async def test_a_refused_move_is_planned_again_a_few_times(planned: TableService,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """The refusal changes nothing and the move is re-planned (a fresh draw) until MAX_TRIES; then the turn's
    time limit moves for the seat."""
    table = await ai_holding(planned)
    monkeypatch.setitem(ai._POLICIES, ("potato", None), PassesToItself())
    bot = fake_bot(planned)
    for attempt in range(MAX_TRIES):
        await on_ai_move(bot, SimpleNamespace(game_id=table.id, payload={"version": table.version,
                                                                         "attempt": attempt}))
    assert (await planned.load(table.id)).version == table.version
    assert bot.scheduled == [(AI_TIMER, {"version": table.version, "attempt": n}) for n in range(1, MAX_TRIES)]


async def test_a_response_window_waits_on_computer_players_too(planned: TableService) -> None:
    """Let's Kill! (the person, AI 1, AI 2; seed 13: AI 1 starts and places a Victim): the window that follows waits
    on the person and AI 2; AI 2 answers on its timer (sealed, the window stays open) and then only the person is
    awaited, with no AI move left to arm."""
    import games.lets_kill  # noqa: F401  (registers the engine)

    table = await planned.open_lobby(GUILD, 23, HOST, "lets_kill", "classic", {}, host_names=["p0"])
    await planned.add_ai(table.id, HOST)
    await planned.add_ai(table.id, HOST)
    table = await planned.start(table.id, HOST, seed=13)
    waiting = table.engine.waiting(table.state)
    assert (waiting.kind, waiting.seats, ai_movers(table)) == ("window", (2, 0), [2])
    await on_ai_move(fake_bot(planned), SimpleNamespace(game_id=table.id, payload={"version": table.version}))
    after = await planned.load(table.id)
    assert after.version == table.version + 1 and list(after.state.window.answers) == [2]
    assert after.engine.waiting(after.state).seats == (0,) and ai_movers(after) == []
    assert ai_timers(after, NOW) == []


async def test_a_computer_players_private_events_are_never_sent(service: TableService,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """The start deals a secret to every seat: only the person's is DMed (and the start's DM check skips the
    computer player)."""
    from bot.delivery import Delivery
    from bot.tables.outbox import current_step

    table = await lobby(service, 1)
    await service.add_ai(table.id, HOST)
    table = await service.start(table.id, HOST, seed=7)
    dmed: list[int] = []

    async def dm(self: Delivery, table: Any, seat: int, out: Any) -> bool:
        dmed.append(seat)
        return True

    async def nothing(*args: Any, **kwargs: Any) -> None:
        return None

    monkeypatch.setattr(Delivery, "dm", dm)
    delivery = Delivery(SimpleNamespace(add_listener=lambda *args: None, tables=service))
    monkeypatch.setattr(delivery.live, "show", nothing)
    monkeypatch.setattr(delivery.live, "after_step", nothing)
    monkeypatch.setattr(delivery.threads, "after_step", nothing)
    assert current_step() is None
    events = table.engine.intro(table.state)
    assert sorted(s for e in events for s in e.audience.seats) == [0, 1]
    await delivery(table, events)
    assert dmed == [0]
    await delivery._probe_dms(table, {})
    assert dmed == [0, 0]
