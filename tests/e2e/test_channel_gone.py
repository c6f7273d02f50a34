"""A game whose place is gone (:mod:`bot.gone`): its channel deleted by a server manager (while the bot runs, or
while it is down), the bot removed from its server (while it runs, or while it is down). The game ends as
cancelled, each of its people is told by DM, its timers end; ``/games`` no longer lists it and its Killer's route
DMs go to the one game she can still play."""

from __future__ import annotations

from sqlalchemy import select

from bot.db.models import Game, Timer
from tests.discord_double import User
from tests.e2e.conftest import World, mark, settled
from tests.e2e.test_cereal_killer import ROUTE, start, statuses
from tests.support.newgame import newgame

GONE = "was cancelled: its channel was deleted"


async def told(world: World, user: User, words: str = GONE) -> list[str]:
    """Wait for ``user``'s DM saying ``words``; every such DM."""
    await world.double.wait_for(lambda: any(words in m.content for m in user.dms()), what=f"the DM to {user}")
    await settled(world)
    return [m.content for m in user.dms() if words in m.content]


async def statuses_and_timers(world: World) -> tuple[dict[int, str], list[tuple[int, str]]]:
    """Every game's status by id, and the timers not fired yet (game id, kind)."""
    async with world.sessions() as session:
        games = {g.id: g.status for g in (await session.scalars(select(Game))).all()}
        pending = [(t.game_id, t.kind) for t in (await session.scalars(
            select(Timer).where(Timer.fired_at.is_(None)))).all()]
    return games, pending


async def timed(world: World) -> list[str]:
    """The kinds of the timers not fired yet of the one game of the test."""
    games, pending = await statuses_and_timers(world)
    assert len(games) == 1, games
    return [kind for _, kind in pending]


async def killer_again_elsewhere(world: World) -> tuple[int, int]:
    """alice's Cereal Killer game with bob in #games, #games deleted (she and bob told), then alice's new game with
    carol in #games-2 (``world.games`` from then on): the deleted game's id and its channel's."""
    alice, bob, carol = world.players[:3]
    await start(world, [alice, bob])
    gone, channel = (await world.tables.table_in_channel(world.games.id)).id, world.games.id  # type: ignore[union-attr]
    assert await timed(world)  # its turn limits run
    world.double.delete_channel(world.games)
    assert await told(world, alice) == ["🗑️ Your Cereal Killer game in #games was cancelled: its channel was deleted."]
    assert len(await told(world, bob)) == 1
    world.games = world.guild.add_text_channel("games-2")
    await start(world, [alice, carol])  # alice hosts again: the Killer of a new game
    await settled(world)
    return gone, channel


async def test_a_game_whose_channel_is_deleted_ends_cancelled_and_its_timers_end(world: World) -> None:
    async with world.running():
        gone, channel = await killer_again_elsewhere(world)
        games, pending = await statuses_and_timers(world)
        assert games[gone] == "cancelled"
        assert [kind for game_id, kind in pending if game_id == gone] == []
        listed = await (await world.players[2].slash(world.games, "games")).response()
        listing = listed.embeds[0].get("description", "")
        assert f"<#{world.games.id}>" in listing and f"<#{channel}>" not in listing, listing


async def test_the_killer_route_dm_goes_to_the_one_game_she_can_still_play(world: World) -> None:
    alice = world.players[0]
    async with world.running():
        await killer_again_elsewhere(world)
        before = mark(statuses(world))
        dms = len(alice.dms())
        await alice.dm_bot(ROUTE)
        await world.double.wait_for(lambda: mark(statuses(world)) != before or len(alice.dms()) > dms,
                                    what="the route taken or answered")
        answers = [m.content for m in alice.dms()[dms:]]
        assert not answers, answers  # not asked which game she means: the route counted in #games-2
        assert "A victim was found in the House on 3" in statuses(world)[-1].text


async def test_a_lobby_in_a_deleted_channel_ends_and_its_people_are_told(world: World) -> None:
    alice, bob = world.players[:2]
    async with world.running():
        lobby = await (await newgame(alice, world.games, "asesino", "tabletop")).wait_original()
        assert lobby is not None
        await (await bob.click(lobby, label="Join")).response()
        await settled(world)
        assert await timed(world) == ["lobby_expire"]
        world.double.delete_channel(world.games)
        await ended_for_everyone(world, GONE)  # its expiry timer too


async def running_game(world: World) -> list[User]:
    """alice's Cereal Killer game with bob in #games, shown, its turn limits running: alice and bob."""
    players = world.players[:2]
    await start(world, players)
    await settled(world)
    assert await timed(world)
    return players


async def ended_for_everyone(world: World, words: str) -> None:
    """Each of alice and bob is told once by DM (``words``), the one game is cancelled and its timers ended."""
    alice, bob = world.players[:2]
    assert len(await told(world, alice, words)) == 1 and len(await told(world, bob, words)) == 1
    games, pending = await statuses_and_timers(world)
    assert list(games.values()) == ["cancelled"] and pending == []


async def test_the_bot_removed_from_a_server_ends_its_games(world: World) -> None:
    async with world.running():
        await running_game(world)
        world.double.remove_bot(world.guild)
        await ended_for_everyone(world, "on the server Coroner Test was cancelled: the bot was removed from that "
                                        "server")


async def test_a_channel_deleted_while_the_bot_was_down_ends_its_game_at_the_start(world: World) -> None:
    async with world.running():
        await running_game(world)
    world.double.delete_channel(world.games, dispatch=False)  # no CHANNEL_DELETE: nobody was listening
    async with world.running():
        await ended_for_everyone(world, "its channel was deleted")


async def test_a_server_that_removed_the_bot_while_it_was_down_ends_its_games_at_the_start(world: World) -> None:
    """Nobody heard GUILD_DELETE; once ready, the bot is not in the server (Discord: Unknown Guild), so its game
    ends as cancelled and its players are told, naming the game's channel."""
    async with world.running():
        await running_game(world)
    channel = world.games.id
    world.double.remove_bot(world.guild)  # (its GUILD_DELETE reaches nobody: no bot is connected)
    async with world.running():
        await ended_for_everyone(world, f"in <#{channel}> was cancelled: the bot was removed from its server")


async def booked_then_deleted(world: World, *, seen: bool) -> User:
    """alice books an Asesino lobby in #games for 30 minutes from now; #games is deleted (``seen``: the bot is told
    at once; otherwise it finds out at the booking's time): alice."""
    alice = world.players[0]
    await (await newgame(alice, world.games, "asesino", "tabletop", starts_in=30)).response()
    await settled(world)
    assert await timed(world) == ["lobby_open"]
    world.double.delete_channel(world.games, dispatch=seen)
    await settled(world)
    return alice


async def test_a_booking_in_a_deleted_channel_ends_at_once(world: World) -> None:
    async with world.running():
        alice = await booked_then_deleted(world, seen=True)
        assert len(await told(world, alice, "Your Asesino en Serie game in #games was cancelled")) == 1
        games, pending = await statuses_and_timers(world)
        assert list(games.values()) == ["cancelled"] and pending == []


async def test_a_booking_whose_channel_went_unseen_ends_at_its_time(world: World) -> None:
    async with world.running():
        alice = await booked_then_deleted(world, seen=False)
        assert (await statuses_and_timers(world))[0].popitem()[1] == "scheduled"  # nothing knew yet
        for _ in range(2):  # (a second time: nothing is tried again)
            world.clock.advance(minutes=31)
            await settled(world)
        assert len(await told(world, alice, "its channel was deleted")) == 1
        games, pending = await statuses_and_timers(world)
        assert list(games.values()) == ["cancelled"] and pending == []
