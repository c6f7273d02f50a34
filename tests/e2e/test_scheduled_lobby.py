"""``/newgame ... starts_in:``: a lobby booked for later opens at its time, once, pinging only the lobby role; it
opens after a restart too (its timer is persisted), and a channel busy at that time cancels it with a notice; one
whose channel refuses the bot's post then ends, its booker told by DM."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from sqlalchemy import select

from bot.db.models import Game, Timer
from bot.i18n import catalog
from bot.tables import TableService
from tests.discord_double import Role
from tests.discord_double.permissions import SEND_MESSAGES
from tests.e2e.conftest import World, refusal, settled, stored
from tests.support.newgame import newgame

BOOKED = {"en": "🗓️ A lobby of Asesino en Serie — Tabletop opens <t:{ts}:R> (<t:{ts}:f>), hosted by <@{host}>.",
          "es": "🗓️ Una sala de Asesino en Serie — De mesa se abrirá <t:{ts}:R> (<t:{ts}:f>), con <@{host}> de"}
PING = {"en": "A lobby of Asesino en Serie is open: come and join!",
        "es": "Hay una sala abierta de Asesino en Serie: ¡venid a jugar!"}


def _lobby_role(world: World) -> Role:
    """A "Players" role held by Bob and Carol, and an "Other" role held by Dave."""
    players, other = world.guild.add_role("Players", mentionable=True), world.guild.add_role("Other", mentionable=True)
    bob, carol, dave = world.players[1:4]
    for user, role in ((bob, players), (carol, players), (dave, other)):
        world.guild.member(user).role_ids.append(role.id)
    return players


def _lobbies(world: World) -> list:
    """The lobby messages the bot posted in the game channel (not the booking's answer)."""
    return [m for m in world.bot_messages() if m.embeds and not m.interaction_id]


@pytest.mark.parametrize("language", ["en", "es"])
async def test_a_booked_lobby_opens_once_at_its_time_pinging_only_the_lobby_role(world: World, language: str) -> None:
    """Booked 30 minutes ahead: the answer says when, pinging nobody, and the channel stays free; at 29 minutes
    nothing is open; at 30 the lobby is posted with Alice seated as host, pinging Bob and Carol only; nothing opens
    again later."""
    alice, bob, carol = world.players[:3]
    role = _lobby_role(world)
    async with world.running():
        await (await world.admin.slash(world.games, "config language", language=language)).response()
        await (await world.admin.slash(world.games, "config lobbyrole", role=role)).response()
        opens = int(world.clock.now().timestamp()) + 30 * 60
        handle = await newgame(alice, world.games, "asesino", "tabletop", starts_in=30)
        await handle.response()
        booked = await handle.wait_original()
        assert booked.content.startswith(BOOKED[language].format(ts=opens, host=alice.id))
        assert booked.pings == frozenset()
        assert await world.tables.table_in_channel(world.games.id) is None
        world.clock.advance(minutes=29)
        assert _lobbies(world) == []
        world.clock.advance(minutes=1)
        await world.double.wait_for(lambda: len(_lobbies(world)) == 1, what="the lobby to open")
        lobby = _lobbies(world)[0]

        async def opened() -> bool:
            table = await world.tables.table_in_channel(world.games.id)
            return table is not None and table.lobby_message_id == lobby.id

        await stored(world, opened, "the lobby's message id")
        world.clock.advance(minutes=5)
        table = await world.tables.table_in_channel(world.games.id)
    assert lobby.content == f"<@&{role.id}> {PING[language]}"
    assert lobby.pings == {bob.id, carol.id}
    assert f"<@{alice.id}>" in lobby.text
    assert table is not None and table.status == "lobby" and table.host_id == alice.id
    assert [s.user_id for s in table.seats] == [alice.id]
    assert len(_lobbies(world)) == 1


async def test_a_booked_lobby_opens_after_a_restart_once(world: World) -> None:
    """The bot stops with a lobby booked; its time passes while it is down; started again, it opens the lobby once,
    pinging the role; a second restart opens nothing more."""
    alice, bob, carol = world.players[:3]
    role = _lobby_role(world)
    async with world.running():
        await (await world.admin.slash(world.games, "config lobbyrole", role=role)).response()
        handle = await newgame(alice, world.games, "asesino", "tabletop", starts_in=60)
        await handle.response()
        await handle.wait_original()
    world.clock.advance(minutes=90)
    async with world.running():
        await world.double.wait_for(lambda: len(_lobbies(world)) == 1, what="the lobby to open after the restart")

        async def opened() -> bool:
            table = await world.tables.table_in_channel(world.games.id)
            return table is not None and table.lobby_message_id is not None

        await stored(world, opened, "the lobby's message id")
    async with world.running():
        world.clock.advance(minutes=1)
        table = await world.tables.table_in_channel(world.games.id)
    assert len(_lobbies(world)) == 1
    assert _lobbies(world)[0].pings == {bob.id, carol.id}
    assert table is not None and table.status == "lobby"


async def test_a_booked_lobby_whose_channel_is_busy_is_cancelled_with_a_notice(world: World) -> None:
    """Bob opens a lobby in the channel before Alice's booked one is due: at its time Alice's is cancelled and the
    channel is told, pinging nobody; Bob's lobby stays."""
    alice, bob = world.players[:2]
    async with world.running():
        handle = await newgame(alice, world.games, "verdugo", "classic", starts_in=10)
        await handle.response()
        await handle.wait_original()
        bobs = await newgame(bob, world.games, "asesino", "tabletop")
        await bobs.response()
        world.clock.advance(minutes=10)
        notice = "The lobby of Verdugo booked by"
        await world.double.wait_for(lambda: any(m.content.startswith(f"🗓️ {notice}") for m in world.bot_messages()),
                                    what="the busy notice")
        table = await world.tables.table_in_channel(world.games.id)
    said = next(m for m in world.bot_messages() if m.content.startswith(f"🗓️ {notice}"))
    assert said.content == (f"🗓️ {notice} <@{alice.id}> could not open: this channel has a game on. Book it again "
                            "with /newgame when the channel is free.")
    assert said.pings == frozenset()
    assert table is not None and table.host_id == bob.id and table.game == "asesino"


HOST_ONLY = {"en": "⛔ Only the host or a server manager can cancel this game.",
             "es": "⛔ Solo el anfitrión o quien gestione el servidor puede cancelar esta partida."}
CANCELLED = {"en": "🗓️ The lobby of Verdugo booked for <t:{ts}:f> will not open: <@{user}> cancelled it.",
             "es": "🗓️ La sala de Verdugo reservada para <t:{ts}:f> no se abrirá: <@{user}> la ha cancelado."}


@pytest.mark.parametrize("language", ["en", "es"])
async def test_cancel_in_a_free_channel_cancels_the_booked_lobby(world: World, language: str) -> None:
    """Bob, neither its host nor a manager, may not cancel Alice's booking; Alice's /cancel does, the channel is
    told, and at its time nothing opens."""
    alice, bob = world.players[:2]
    async with world.running():
        await (await world.admin.slash(world.games, "config language", language=language)).response()
        opens = int(world.clock.now().timestamp()) + 20 * 60
        handle = await newgame(alice, world.games, "verdugo", "classic", starts_in=20)
        await handle.response()
        await handle.wait_original()
        refused = await refusal(await bob.slash(world.games, "cancel"))
        await (await alice.slash(world.games, "cancel")).response()
        notice = CANCELLED[language].format(ts=opens, user=alice.id)
        await world.double.wait_for(lambda: any(m.content == notice for m in world.bot_messages()),
                                    what="the cancellation notice")
        world.clock.advance(minutes=25)
        assert await world.tables.table_in_channel(world.games.id) is None
        booked = await world.tables.booked_in_channel(world.games.id)
    assert refused == HOST_ONLY[language] and booked == []
    assert _lobbies(world) == []


@pytest.mark.parametrize(("minutes", "words"), [(-5, "below its min_value 1"), (0, "below its min_value 1"),
                                                (7 * 24 * 60 + 1, "above its max_value 10080")])
async def test_a_starts_in_outside_a_week_is_never_sent(world: World, minutes: int, words: str) -> None:
    """``starts_in`` is registered as 1-10080, so Discord's client never sends a value outside it (the double
    refuses it likewise) and nothing is booked; the bot's own refusal of one, naming the limit, is
    ``tests/bot/test_newgame.py``'s."""
    alice = world.players[0]
    async with world.running():
        with pytest.raises(ValueError, match=words):
            await newgame(alice, world.games, "verdugo", "classic", starts_in=minutes)
        await settled(world)
        assert await world.tables.table_in_channel(world.games.id) is None
        assert world.bot_messages() == []
        async with world.sessions() as session:
            assert (await session.scalars(select(Game).where(Game.status == "scheduled"))).all() == []


def crash() -> BaseException:
    """The bot stops here, mid-handler: the timer loop is cancelled (nothing in the bot catches it), leaving the
    timer unfired for the next start."""
    return asyncio.CancelledError()


async def _booked_then_due_while_down(world: World, minutes: int = 60) -> None:
    """Alice books a lobby ``minutes`` ahead, pinging the Players role; the bot stops and its time passes."""
    async with world.running():
        await (await world.admin.slash(world.games, "config lobbyrole", role=_lobby_role(world))).response()
        handle = await newgame(world.players[0], world.games, "asesino", "tabletop", starts_in=minutes)
        await handle.response()
        await handle.wait_original()
    world.clock.advance(minutes=minutes + 30)


async def _restarted_and_recorded(world: World) -> Any:
    """Start the bot again and wait until the lobby's message is recorded; returns the table."""
    async with world.running():
        async def recorded() -> bool:
            table = await world.tables.table_in_channel(world.games.id)
            return table is not None and table.lobby_message_id is not None

        await stored(world, recorded, "the lobby's message id")
        world.clock.advance(minutes=1)  # the timer, run again, posts nothing more
        await settled(world)
        return await world.tables.table_in_channel(world.games.id)


async def test_a_booked_lobby_opened_but_not_posted_before_a_crash_is_posted_with_its_ping_at_the_start(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    """Back after the booked time, the bot opens the lobby and dies before posting it; started again, the start's
    catch-up posts it pinging Bob and Carol (the lobby role) and the timer, run again, posts nothing more."""
    bob, carol = world.players[1:3]
    await _booked_then_due_while_down(world)
    opening = TableService.open_scheduled

    async def dies(self: TableService, *args: object) -> None:
        await opening(self, *args)
        raise crash()

    monkeypatch.setattr(TableService, "open_scheduled", dies)
    async with world.running():
        async def opened() -> bool:
            table = await world.tables.table_in_channel(world.games.id)
            return table is not None and table.status == "lobby"

        await stored(world, opened, "the opened lobby")
    assert _lobbies(world) == []
    monkeypatch.setattr(TableService, "open_scheduled", opening)
    table = await _restarted_and_recorded(world)
    assert len(_lobbies(world)) == 1
    assert _lobbies(world)[0].pings == {bob.id, carol.id}
    assert table.lobby_message_id == _lobbies(world)[0].id


async def test_a_booked_lobby_posted_but_not_recorded_before_a_crash_is_not_posted_again(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    """The bot posts the booked lobby (pinging) and dies before recording its message; it stays down for longer
    than Discord remembers a nonce. Started again, it finds its lobby in the channel and records it: one lobby
    message, one ping."""
    bob, carol = world.players[1:3]
    await _booked_then_due_while_down(world)
    recorded = TableService.set_lobby_message

    async def dies(self: TableService, *args: object) -> None:
        raise crash()

    monkeypatch.setattr(TableService, "set_lobby_message", dies)
    async with world.running():
        await world.double.wait_for(lambda: len(_lobbies(world)) == 1, what="the lobby posted")
    monkeypatch.setattr(TableService, "set_lobby_message", recorded)
    world.double.nonce_memory = 0.0  # down long enough that Discord forgot the message's nonce
    table = await _restarted_and_recorded(world)
    assert len(_lobbies(world)) == 1
    assert _lobbies(world)[0].pings == {bob.id, carol.id}
    assert table.lobby_message_id == _lobbies(world)[0].id


CLASH = {"en": "⛔ A lobby of Verdugo is already booked in this channel for <t:{ts}:f>, hosted by <@{host}>: a lobby "
               "stays open 30 minutes, so book yours at least 30 minutes before or after it (or ask <@{host}> to "
               "/cancel theirs). Nothing was booked.",
         "es": "⛔ Ya hay una sala de Verdugo reservada en este canal para el <t:{ts}:f>, con <@{host}> de anfitrión: "
               "una sala sigue abierta 30 minutos, así que reserva la tuya al menos 30 minutos antes o después (o "
               "pide a <@{host}> que la anule con /cancelar). No se ha reservado nada."}


@pytest.mark.parametrize("language", ["en", "es"])
async def test_a_second_booking_for_the_same_time_is_refused_naming_the_first(world: World, language: str) -> None:
    """Alice books Verdugo in 60 minutes; Bob's booking for 50 minutes (within the 30-minute lobby time of
    Alice's) is refused privately, naming Alice's booking, and books nothing; his booking for 90 minutes
    stands."""
    alice, bob = world.players[:2]
    async with world.running():
        await (await world.admin.slash(world.games, "config language", language=language)).response()
        opens = int(world.clock.now().timestamp()) + 60 * 60
        handle = await newgame(alice, world.games, "verdugo", "classic", starts_in=60)
        await handle.response()
        await handle.wait_original()
        refused = await refusal(await newgame(bob, world.games, "asesino", "tabletop", starts_in=50))
        later = await newgame(bob, world.games, "asesino", "tabletop", starts_in=90)
        await later.response()
        await later.wait_original()
        booked = await world.tables.booked_in_channel(world.games.id)
    assert refused == CLASH[language].format(ts=opens, host=alice.id)
    assert [(t.host_id, t.game) for t, _ in booked] == [(alice.id, "verdugo"), (bob.id, "asesino")]


async def test_a_booking_whose_channel_refuses_the_bot_tells_its_booker(world: World) -> None:
    """A manager took Send Messages from the bot before the booking's time: the lobby would open shown nowhere and
    hold its channel, so it ends as cancelled and its booker hears why by DM."""
    alice = world.players[0]

    async def opening_done() -> bool:
        async with world.sessions() as session:
            return bool((await session.scalars(select(Timer).where(Timer.kind == "lobby_open",
                                                                   Timer.fired_at.is_not(None)))).all())

    async with world.running():
        await (await newgame(alice, world.games, "asesino", "tabletop", starts_in=30)).response()
        await settled(world)
        dms = len(alice.dms())
        world.double.set_bot_channel_permissions(world.games, deny=SEND_MESSAGES)
        world.clock.advance(minutes=31)
        await stored(world, opening_done, "the booking's opening handled", timeout=20)
        await settled(world)
        async with world.sessions() as session:
            status = (await session.scalars(select(Game.status))).one()
    assert alice.dms()[dms:], status  # the booker hears what became of it (status: open, shown nowhere)
    told = catalog("en").render("gone.no_post", game="Asesino en Serie", where=f"<#{world.games.id}>")
    assert [m.text for m in alice.dms()[dms:]] == [told]
    assert status == "cancelled"
