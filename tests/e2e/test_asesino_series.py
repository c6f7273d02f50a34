"""A points series whose players change between rounds: someone who played an earlier round and does not sit the
last one (they left the next lobby, or their seat was handed over) keeps their points in the final standings and
can win them, exactly as ``/leaderboard series:`` counts them."""

from __future__ import annotations

import pytest

from bot.tables import Table, TableService
from tests.discord_double import StoredMessage, User
from tests.e2e.conftest import World, settled
from tests.e2e.test_asesino import open_and_start, play_to_the_end, status_messages


@pytest.fixture(autouse=True)
def seed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(TableService, "new_seed", staticmethod(lambda: 5))


def newcomer(world: World) -> User:
    frank = world.double.add_user("frank", display_name="Frank")
    world.guild.add_member(frank)
    return frank


async def round_two_lobby(world: World) -> StoredMessage:
    return await world.double.wait_for(lambda: next(
        (m for m in world.bot_messages() if m.content.startswith("Round 2 of 2")), None), what="round 2's lobby")


async def final_standings(world: World, series: int | None, names: dict[int, str]) -> None:
    """The series' final standings, line for line ``/leaderboard series:`` (each player by name), and its winners
    those with the most points."""
    final = await world.double.wait_for(lambda: next(
        (m for m in world.bot_messages() if m.embeds and m.embeds[0].get("title", "").startswith(
            f"Series #{series}") and "is over" in m.embeds[0]["title"]), None), what="the final standings")
    board = await world.tables.leaderboard(world.guild.id, "asesino", series_id=series)
    shown = {name: float(points) for name, points in
             (line.rsplit(": ", 1) for line in final.embeds[0]["description"].splitlines())}
    assert shown == {names[row.user_id]: row.points for row in board}
    best = max(row.points for row in board)
    (winner,) = final.embeds[0]["fields"]
    assert set(winner["value"].split(", ")) == {names[row.user_id] for row in board if row.points == best}


async def round_one(world: World) -> tuple[Table, StoredMessage, User]:
    """Frank joins the server; alice opens a two-round tabletop series with every player and round one is played:
    the first round's table, round two's lobby and Frank."""
    frank = newcomer(world)
    table = await open_and_start(world, "tabletop", world.players, rounds=2)
    await play_to_the_end(world, table.id, seed=1)
    return table, await round_two_lobby(world), frank


async def last_round(world: World, first: Table, second: Table, frank: User, gone: User) -> Table:
    """Round two (``second``, with Frank in ``gone``'s place) played to the end, then the final standings checked
    (``gone`` by the name they had in round one); the last round's table."""
    world.players.append(frank)
    last = await play_to_the_end(world, second.id, seed=2)
    assert last.seat_of(gone.id) is None
    names = {u.id: last.shown_name(last.seat_of(u.id)) for u in world.players if u is not gone}
    await final_standings(world, first.series_id, {**names, gone.id: first.shown_name(first.seat_of(gone.id))})
    return last


async def test_the_final_standings_keep_the_points_of_a_player_whose_seat_was_handed_over(world: World) -> None:
    alice, bob = world.players[:2]
    async with world.running():
        table, lobby, frank = await round_one(world)
        await (await alice.click(lobby, label="Start")).response()
        await world.double.wait_for(lambda: lobby in status_messages(world), what="round 2's table")
        second = await world.tables.table_in_channel(world.games.id)
        assert second is not None and second.status == "active"
        bob_seat = second.seat_of(bob.id)
        await (await alice.slash(world.games, "replace", seat=bob_seat + 1, member=frank)).response()
        offer = next(m for m in reversed(world.bot_messages()) if frank.mention in m.content)
        await (await frank.click(offer, label="Take the seat")).response()
        await world.double.wait_for(lambda: "Take the seat" not in [b.get("label") for b in offer.buttons()],
                                    what="the seat taken")
        await settled(world)
        await last_round(world, table, second, frank, bob)


async def test_the_final_standings_keep_the_points_of_a_player_who_left_before_the_last_round(world: World) -> None:
    alice, bob = world.players[:2]
    async with world.running():
        table, lobby, frank = await round_one(world)
        await (await bob.click(lobby, label="Leave")).response()
        await (await frank.click(lobby, label="Join")).response()
        await (await alice.click(lobby, label="Start")).response()
        await world.double.wait_for(lambda: lobby in status_messages(world), what="round 2's table")
        second = await world.tables.table_in_channel(world.games.id)
        assert second is not None and second.status == "active" and second.seat_of(bob.id) is None
        await last_round(world, table, second, frank, bob)
