"""Scheduled lobbies in the table service: booked with the host seated and one ``lobby_open`` timer, holding no
channel; opened once (a repeated timer changes nothing), with their expiry and series; cancelled instead when the
channel is busy at that time, or by their host before it."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest
from sqlalchemy import select

from bot.db.models import Series
from bot.tables import TableError, TableService
from bot.tables.schedule import LOBBY_OPEN
from tests.tables.conftest import NOW
from tests.tables.helpers import CHANNEL, GUILD, HOST

OPENS = NOW + timedelta(minutes=30)
EXPIRES = OPENS + timedelta(minutes=30)


async def _book(service: TableService, rounds: int | None = None):  # noqa: ANN202 - a Table
    return await service.schedule_lobby(GUILD, CHANNEL, HOST, "potato", "classic", {"passes": 2}, "es",
                                        opens_at=OPENS, host_names=["Host"], rounds=rounds)


async def test_a_booking_holds_its_host_and_one_timer_and_no_channel(service: TableService) -> None:
    """Status ``scheduled``, the host seated, the options validated; one ``lobby_open`` timer at the time asked;
    the channel is free for another lobby meanwhile; it is listed as booked in its channel."""
    table = await _book(service)
    assert (table.status, table.options, table.language, table.user_ids()) == ("scheduled", {"passes": 2}, "es",
                                                                               [HOST])
    assert [(t.kind, t.due_at) for t in await service.pending_timers(table.id)] == [(LOBBY_OPEN, OPENS)]
    assert await service.table_in_channel(CHANNEL) is None
    assert [(t.id, due) for t, due in await service.booked_in_channel(CHANNEL)] == [(table.id, OPENS)]


async def test_a_bad_option_books_nothing(service: TableService) -> None:
    with pytest.raises(TableError) as caught:
        await service.schedule_lobby(GUILD, CHANNEL, HOST, "potato", "classic", {"passes": 99}, "en",
                                     opens_at=OPENS, host_names=["Host"])
    assert caught.value.code.startswith("table.option.")
    assert await service.booked_in_channel(CHANNEL) == []


async def test_it_opens_once_with_its_expiry_and_series(service: TableService, sessions) -> None:
    """Opening makes it an ordinary lobby (expiry timer, a 2-round series); opening again does nothing."""
    table = await _book(service, rounds=2)
    opened, how = await service.open_scheduled(table.id, EXPIRES, 2)
    assert how == "opened" and opened.status == "lobby" and opened.series_id is not None
    assert await service.table_in_channel(CHANNEL) == opened
    assert [(t.kind, t.due_at) for t in await service.pending_timers(table.id)] == [(LOBBY_OPEN, OPENS),
                                                                                   ("lobby_expire", EXPIRES)]
    again, how = await service.open_scheduled(table.id, EXPIRES, 2)
    assert how == "done" and again.version == opened.version
    async with sessions() as session:
        assert len((await session.scalars(select(Series))).all()) == 1
    assert await service.booked_in_channel(CHANNEL) == []


async def test_a_busy_channel_cancels_it(service: TableService) -> None:
    """Another lobby in the channel at its time: cancelled, its timers disarmed; the other lobby stays."""
    table = await _book(service)
    other = await service.open_lobby(GUILD, CHANNEL, 777, "potato", "classic", {}, host_names=["Other"])
    closed, how = await service.open_scheduled(table.id, EXPIRES)
    assert how == "busy" and closed.status == "cancelled"
    assert await service.pending_timers(table.id) == []
    assert (await service.table_in_channel(CHANNEL)).id == other.id


async def test_only_its_host_or_a_manager_cancels_a_booking(service: TableService) -> None:
    """Another player is refused; the host cancels it; cancelling again, or opening it, does nothing more."""
    table = await _book(service)
    with pytest.raises(TableError) as caught:
        await service.cancel_booked(table.id, 999, is_manager=False)
    assert caught.value.code == "table.host_or_manager"
    assert (await service.cancel_booked(table.id, 999, is_manager=True)).status == "cancelled"
    with pytest.raises(TableError) as caught:
        await service.cancel_booked(table.id, HOST, is_manager=False)
    assert caught.value.code == "table.not_active"
    assert (await service.open_scheduled(table.id, EXPIRES))[1] == "done"
    assert await service.pending_timers(table.id) == []


async def test_a_second_booking_opening_within_the_lobby_time_of_another_is_refused(service: TableService) -> None:
    """Booked for OPENS, a second booking of the channel 29 minutes later (30 apart asked) is refused naming the
    first (its id, game, host and time) and books nothing; 30 minutes later, or in another channel, is fine."""
    apart = timedelta(minutes=30)
    first = await service.schedule_lobby(GUILD, CHANNEL, HOST, "potato", "classic", {}, "en", opens_at=OPENS,
                                         host_names=["Host"], apart=apart)
    for at in (OPENS, OPENS + timedelta(minutes=29), OPENS - timedelta(minutes=29)):
        with pytest.raises(TableError) as caught:
            await service.schedule_lobby(GUILD, CHANNEL, 555, "potato", "classic", {}, "en", opens_at=at,
                                         host_names=["Other"], apart=apart)
        assert caught.value.code == "table.booking_clash"
        assert caught.value.params == {"game_id": first.id, "game": "potato", "host_id": HOST, "opens_at": OPENS}
    assert [t.id for t, _ in await service.booked_in_channel(CHANNEL)] == [first.id]
    later = await service.schedule_lobby(GUILD, CHANNEL, 555, "potato", "classic", {}, "en", opens_at=OPENS + apart,
                                         host_names=["Other"], apart=apart)
    elsewhere = await service.schedule_lobby(GUILD, CHANNEL + 1, 555, "potato", "classic", {}, "en",
                                             opens_at=OPENS, host_names=["Other"], apart=apart)
    assert [t.id for t, _ in await service.booked_in_channel(CHANNEL)] == [first.id, later.id]
    assert [t.id for t, _ in await service.booked_in_channel(CHANNEL + 1)] == [elsewhere.id]


async def test_two_bookings_made_at_once_in_two_processes_keep_one(service: TableService, other) -> None:
    """Two processes book the channel for the same time at the same moment: one booking stands, the other is
    refused (the channel's lock: an advisory lock on PostgreSQL; SQLite writes one at a time)."""
    second = TableService(other, clock=lambda: NOW)
    results = await asyncio.gather(*(s.schedule_lobby(GUILD, CHANNEL, host, "potato", "classic", {}, "en",
                                                      opens_at=OPENS, host_names=["H"], apart=timedelta(minutes=30))
                                     for s, host in ((service, HOST), (second, 555))), return_exceptions=True)
    refused = [r for r in results if isinstance(r, Exception)]
    assert len(refused) == 1, results
    assert isinstance(refused[0], TableError) and refused[0].code == "table.booking_clash"
    assert len(await service.booked_in_channel(CHANNEL)) == 1
