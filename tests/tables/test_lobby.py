"""Lobby rules of the table service: open, join, leave, start, cancel, expire."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker

from bot.db.models import Series
from bot.tables import TableError, TableService
from tests.support.sql_count import SqlCount
from tests.tables.conftest import NOW, Outbox
from tests.tables.helpers import CHANNEL, GUILD, HOST, lobby, started


async def test_open_join_start_deals_the_game_and_delivers_the_intro(service: TableService, outbox: Outbox) -> None:
    """A started table is active with a seed, a parsed state for every seat and validated options."""
    table = await lobby(service, 3)
    assert (table.status, table.version, table.state, table.seed) == ("lobby", 3, None, None)
    assert [(s.seat, s.user_id, s.names) for s in table.seats] == [(0, 100, ("p0",)), (1, 101, ("p1",)),
                                                                   (2, 102, ("p2",))]
    table = await service.start(table.id, HOST, seed=99)
    assert (table.status, table.seed, table.version, table.options) == ("active", 99, 4, {"passes": 3})
    assert len(table.state.seats) == 3 and table.state.seed == 99
    assert table.seat_of(102) == 2 and table.seat_of(555) is None and table.user_ids() == [100, 101, 102]
    ((game_id, version, events),) = outbox.sent  # the intro: a secret by DM to each seat, then who starts
    assert (game_id, version) == (table.id, 4)
    assert [(e.key, e.audience.seats) for e in events] == [("potato.dealt", (0,)), ("potato.dealt", (1,)),
                                                           ("potato.dealt", (2,)), ("potato.start", ())]


async def test_start_picks_a_seed_when_none_is_given(service: TableService) -> None:
    """Without a seed argument the service draws one that fits a BIGINT."""
    table = await started(service, seed=None)  # type: ignore[arg-type]
    assert table.seed is not None and 0 <= table.seed < 2**63


@pytest.mark.parametrize(("players", "step", "code"), [
    (2, "join_twice", "table.already_joined"),
    (10, "join_full", "table.full"),
    (1, "start_alone", "table.bad_count"),
    (2, "start_not_host", "table.host_only"),
    (2, "join_started", "table.already_started"),
    (2, "leave_started", "table.already_started"),
    (2, "leave_not_seated", "table.not_a_player"),
    (2, "cancel_by_player", "table.host_or_manager"),
    (2, "join_cancelled", "table.not_active"),
    (2, "second_lobby_in_channel", "table.channel_busy"),
])
async def test_lobby_refusals(service: TableService, players: int, step: str, code: str) -> None:
    """Each lobby rule refuses with its catalogue code and leaves the version unchanged."""
    table = await lobby(service, players)
    actions = {
        "join_twice": lambda: service.join(table.id, HOST, ["again"]),
        "join_full": lambda: service.join(table.id, 999, ["late"]),
        "start_alone": lambda: service.start(table.id, HOST),
        "start_not_host": lambda: service.start(table.id, HOST + 1),
        "join_started": lambda: service.join(table.id, 999, ["late"]),
        "leave_started": lambda: service.leave(table.id, HOST + 1),
        "leave_not_seated": lambda: service.leave(table.id, 999),
        "cancel_by_player": lambda: service.cancel(table.id, HOST + 1, is_manager=False),
        "join_cancelled": lambda: service.join(table.id, 999, ["late"]),
        "second_lobby_in_channel": lambda: service.open_lobby(GUILD, CHANNEL, 5, "potato", "classic", {}),
    }
    if step in ("join_started", "leave_started"):
        table = await service.start(table.id, HOST)
    if step == "join_cancelled":
        table = await service.cancel(table.id, HOST, is_manager=False)
    with pytest.raises(TableError) as err:
        await actions[step]()
    assert err.value.code == code
    assert (await service.load(table.id)).version == table.version


async def test_a_series_opens_with_its_lobby_or_not_at_all(service: TableService,
                                                           sessions: async_sessionmaker[AsyncSession]) -> None:
    """``rounds`` opens the series in the lobby's transaction: a busy channel or a bad length leaves no series."""
    table = await service.open_lobby(GUILD, CHANNEL, HOST, "potato", "classic", rounds=3)
    for channel, rounds, code in [(CHANNEL, 2, "table.channel_busy"), (CHANNEL + 1, 11,
                                                                        "table.option.less_than_equal")]:
        with pytest.raises(TableError) as err:
            await service.open_lobby(GUILD, channel, HOST + 1, "potato", "classic", rounds=rounds)
        assert err.value.code == code
    async with sessions() as session:
        series = (await session.scalars(select(Series))).all()
    assert [(s.id, s.channel_id, s.game, s.rounds_total) for s in series] == [(table.series_id, CHANNEL, "potato", 3)]


async def test_bad_count_names_the_limits(service: TableService) -> None:
    """table.bad_count carries count, min and max for the message."""
    table = await lobby(service, 1)
    with pytest.raises(TableError) as err:
        await service.start(table.id, HOST)
    assert err.value.params == {"count": 1, "min": 2, "max": 10}


@pytest.mark.parametrize(("game", "mode", "options", "code"), [
    ("potato", "classic", {"passes": 0}, "table.option.greater_than_equal"),
    ("potato", "classic", {"passes": "many"}, "table.option.whole_number"),
    ("potato", "turbo", {}, "table.unknown_game"),
    ("chess", "classic", {}, "table.unknown_game"),
])
async def test_open_lobby_validates_game_and_options(service: TableService, game: str, mode: str,
                                                     options: dict[str, object], code: str) -> None:
    """Options go through the engine's Options model; unknown games and modes are refused."""
    with pytest.raises(TableError) as err:
        await service.open_lobby(GUILD, CHANNEL, HOST, game, mode, options)
    assert err.value.code == code
    assert await service.table_in_channel(CHANNEL) is None


async def test_leaving_renumbers_seats_and_hands_over_the_host(service: TableService) -> None:
    """When the host leaves, later seats move up and the first remaining player hosts."""
    table = await lobby(service, 3)
    table = await service.leave(table.id, HOST)
    assert [(s.seat, s.user_id) for s in table.seats] == [(0, 101), (1, 102)]
    assert table.host_id == 101
    table = await service.leave(table.id, 102)
    assert table.host_id == 101 and table.user_ids() == [101]


async def test_update_options_validates_and_bumps_the_version(service: TableService) -> None:
    """Lobby options can be replaced before the start, through the engine's Options model."""
    table = await lobby(service, 2)
    updated = await service.update_options(table.id, {"passes": 5})
    assert updated.options == {"passes": 5} and updated.version == table.version + 1
    with pytest.raises(TableError, match="table.option.greater_than_equal") as err:
        await service.update_options(table.id, {"passes": -1})
    assert err.value.params == {"name": "passes", "value": -1, "limit": 1}


@pytest.mark.parametrize(("by", "manager", "start_first"), [(HOST, False, False), (HOST + 1, True, True),
                                                            (HOST, False, True)])
async def test_host_or_manager_cancels_and_the_channel_frees_up(service: TableService, by: int, manager: bool,
                                                                start_first: bool) -> None:
    """Cancelling ends a lobby or a running game; the channel can then host a new lobby."""
    table = await lobby(service, 2)
    if start_first:
        await service.start(table.id, HOST)
    table = await service.cancel(table.id, by, is_manager=manager)
    assert table.status == "cancelled" and table.finished_at is not None
    assert await service.table_in_channel(CHANNEL) is None
    assert (await lobby(service)).id != table.id
    with pytest.raises(TableError, match="table.not_active"):
        await service.cancel(table.id, HOST, is_manager=True)


async def test_expire_cancels_only_a_lobby(service: TableService) -> None:
    """A lobby timeout cancels a waiting lobby and leaves a started game alone."""
    waiting = await lobby(service, 1)
    assert (await service.expire(waiting.id)).status == "cancelled"
    running = await started(service, 2, channel=CHANNEL + 1)
    assert (await service.expire(running.id)).status == "active"


async def test_the_deal_disarms_the_lobby_s_expiry_in_its_own_transaction(service: TableService) -> None:
    """A lobby opened with an expiry that starts before it leaves no ``lobby_expire`` timer to claim: none is
    pending after the deal, and none is claimed when its time comes (it would wake, load and do nothing)."""
    expires = NOW + timedelta(minutes=30)
    table = await service.open_lobby(GUILD, CHANNEL, HOST, "potato", "classic", {"passes": 3}, expires_at=expires)
    assert [t.kind for t in await service.pending_timers(table.id)] == ["lobby_expire"]
    for n in range(3):
        await service.join(table.id, HOST + n, [f"p{n}"])
    await service.start(table.id, HOST, seed=7)
    assert "lobby_expire" not in [t.kind for t in await service.pending_timers(table.id)]
    claimed = await service.claim_timers(expires + timedelta(minutes=1), timedelta(seconds=60))
    assert "lobby_expire" not in [t.kind for t in claimed]


async def test_lookups_by_channel_user_and_guild(service: TableService) -> None:
    """table_in_channel, tables_of_user and tables_in_guild see open tables only."""
    first = await started(service, 2, channel=1)
    second = await lobby(service, 3, channel=2)
    await service.cancel((await lobby(service, 2, channel=3)).id, HOST, is_manager=False)
    assert (await service.table_in_channel(1)).id == first.id  # type: ignore[union-attr]
    assert await service.table_in_channel(3) is None
    assert [t.id for t in await service.tables_of_user(HOST + 1)] == [first.id, second.id]
    assert [t.id for t in await service.tables_of_user(HOST + 2)] == [second.id]
    assert [t.id for t in await service.tables_in_guild(GUILD)] == [first.id, second.id]


async def test_lists_of_tables_read_each_in_one_statement(service: TableService, engine: AsyncEngine) -> None:
    """tables_of_user, table_in_channel, open_tables and tables_in_guild read their games with every seat, in seat
    order, in one statement however many games they list (not one read of seats per game)."""
    tables = [await lobby(service, 3, channel=n) for n in (1, 2, 3, 4)]
    await service.leave(tables[2].id, HOST + 1)  # the third lobby: seats 0 and 2 left, HOST+1 gone
    count = SqlCount(engine)
    mine = await service.tables_of_user(HOST + 2)
    assert count.statements == 1, count.kinds
    assert [t.id for t in mine] == [t.id for t in tables]
    assert [[(s.seat, s.user_id) for s in t.seats] for t in mine] == [[(0, 100), (1, 101), (2, 102)]] * 2 + [
        [(0, 100), (1, 102)]] + [[(0, 100), (1, 101), (2, 102)]]
    assert [t.id for t in await service.tables_of_user(HOST + 1)] == [tables[0].id, tables[1].id, tables[3].id]
    found = await service.table_in_channel(3)
    assert found is not None and (found.id, [s.user_id for s in found.seats]) == (tables[2].id, [100, 102])
    assert [len(t.seats) for t in await service.open_tables(guild_id=GUILD)] == [3, 3, 2, 3]
    assert [len(t.seats) for t in await service.tables_in_guild(GUILD)] == [3, 3, 2, 3]
    assert count.statements == 5, count.kinds


async def test_message_ids_and_dm_flags_are_stored(service: TableService) -> None:
    """Metadata setters write without bumping the version; an unknown game is refused."""
    table = await lobby(service, 2)
    await service.set_lobby_message(table.id, 2**60)
    await service.set_table_message(table.id, 2**61)
    await service.dm_refused(table.id, HOST + 1, closed=True)
    loaded = await service.load(table.id)
    assert (loaded.lobby_message_id, loaded.table_message_id, loaded.version) == (2**60, 2**61, table.version)
    assert [s.dm_ok for s in loaded.seats] == [True, False]
    with pytest.raises(TableError, match="table.not_found"):
        await service.set_lobby_message(999, 1)
    with pytest.raises(TableError, match="table.not_found"):
        await service.load(999)


async def test_unknown_option_keys_are_refused_and_name_the_known_ones(service: TableService) -> None:
    """A typo in /newgame options is refused with the game's real option names; no lobby is opened."""
    with pytest.raises(TableError) as err:
        await service.open_lobby(1, 777, HOST, "potato", "classic", {"pases": 3})
    assert err.value.code == "table.unknown_options"
    assert err.value.params == {"names": "pases", "known": "passes"}
    assert await service.table_in_channel(777) is None
