"""A once-per-player achievement ("first win as the Killer") is awarded once however games end: two games of one
server ending at the same moment, in two processes, cannot both give it to the same player (the
``uq_achievements_once`` index, claimed in the transaction of each game's last move)."""

from __future__ import annotations

import asyncio

import pytest
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bot.db.models import Achievement
from bot.tables import TableService
from bot.tables import achievements as settling
from games.core.achievements import Book, Spec
from tests.tables.conftest import NOW
from tests.tables.helpers import CHANNEL, pass_on, started

#: the tiny game's book in these tests: a once-only first win, and one earned every time
BOOK = Book(achievements=[Spec(id="first_win", once=True, when={"won": True}),
                          Spec(id="survivor", when={"won": True})])


@pytest.fixture(autouse=True)
def book(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every seat of a finished potato game earns ``first_win`` and ``survivor`` (the judging itself is the
    games' business, tested with them)."""
    monkeypatch.setattr(settling, "book_of", lambda game: BOOK)
    monkeypatch.setattr(settling, "earned", lambda engine, options, seats, seed, moves:
                        {seat: ["first_win", "survivor"] for seat in range(len(seats))})


async def _one_pass_from_the_end(service: TableService, channel: int):  # noqa: ANN202 - a Table
    table = await started(service, 2, passes=2, channel=channel)
    user, action = pass_on(table)
    return (await service.act(table.id, user, action)).table


async def test_two_games_ending_together_award_a_once_achievement_once(
        service: TableService, other: async_sessionmaker[AsyncSession],
        sessions: async_sessionmaker[AsyncSession]) -> None:
    """The same two players sit at two 2-seat games of one server, each one pass from its end; the last passes
    are made at the same moment by two processes. The winner of both keeps ``first_win`` in one game only (one
    row, and only that game's stored outcome names it), ``survivor`` in both."""
    second = TableService(other, clock=lambda: NOW)
    a = await _one_pass_from_the_end(service, CHANNEL)
    b = await _one_pass_from_the_end(second, CHANNEL + 1)
    ends = await asyncio.gather(service.act(a.id, *pass_on(a)), second.act(b.id, *pass_on(b)))
    winners = {end.table.user_of(seat) for end in ends for seat in end.outcome.winners}
    assert len(winners) == 1  # the same deal: the same player wins both
    (winner,) = winners
    async with sessions() as session:
        rows = (await session.execute(select(Achievement.game_id, Achievement.achievement, Achievement.once)
                                      .where(Achievement.user_id == winner).order_by(Achievement.id))).all()
    firsts = [r for r in rows if r.achievement == "first_win"]
    assert len(firsts) == 1 and firsts[0].once is True and firsts[0].game_id in {a.id, b.id}
    assert sorted(r.game_id for r in rows if r.achievement == "survivor") == sorted([a.id, b.id])
    shown = {end.table.id: end.outcome.achievements[end.table.seat_of(winner)] for end in ends}
    assert shown == {firsts[0].game_id: ["first_win", "survivor"],
                     ({a.id, b.id} - {firsts[0].game_id}).pop(): ["survivor"]}
    for end in ends:  # the stored outcome, which the result shows, says the same
        assert (await service.load(end.table.id)).outcome == end.outcome


async def test_a_once_achievement_held_from_an_earlier_game_is_not_awarded_again(service: TableService) -> None:
    """Played one after the other, the second game keeps only ``survivor`` for a repeat winner."""
    first = await _one_pass_from_the_end(service, CHANNEL)
    one = await service.act(first.id, *pass_on(first))
    second = await _one_pass_from_the_end(service, CHANNEL + 1)
    two = await service.act(second.id, *pass_on(second))
    for seat in one.outcome.winners:
        user = one.table.user_of(seat)
        assert one.outcome.achievements[seat] == ["first_win", "survivor"]
        assert two.table.seat_of(user) in two.outcome.winners  # the same deal
        assert two.outcome.achievements[two.table.seat_of(user)] == ["survivor"]
