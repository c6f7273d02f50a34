"""Who plays a seat, end to end through the Discord double, in English and in Spanish (issue 24): a player who lets
their time run out twice in a row is played by the computer, the living table says so in one edit and shows
"I'm back", which only they may press; a table whose every person left ends as abandoned with no scores; the host
hands a seat to someone in the channel by an offer only they may accept (the seat's secrets reach them by DM, the
old holder is refused, the history shows it) or to the computer; who held another seat of the game is never
offered one."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import func, select

from bot.db.models import GameAction, Score, Timer
from bot.i18n import catalog
from bot.tables import Table, TableService
from bot.tables.seats import OFFER_TIMER
from tests.discord_double import StoredMessage, User
from tests.e2e.conftest import World, refusal, settled, stored, until_delivered
from tests.support.newgame import newgame

SEED = 12
LANGUAGES = ["en", "es"]


@pytest.fixture(autouse=True)
def seed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(TableService, "new_seed", staticmethod(lambda: SEED))


def t(language: str, key: str, **params: Any) -> str:
    return catalog(language).render(key, **params)


def lobby_id(lobby: StoredMessage, action: str) -> str:
    return next(c["custom_id"] for c in lobby.walk_components() if c.get("custom_id", "").endswith(f":{action}"))


async def open_table(world: World, game: str, mode: str, host: User, others: list[User], ai: int = 0,
                     **options: Any) -> Table:
    """``host`` opens a ``game`` lobby in ``mode`` with ``options``, ``others`` join, the host adds ``ai`` computer
    players and starts; returns the running table once its start is shown."""
    handle = await newgame(host, world.games, game, mode, **options)
    await handle.response()
    lobby = await handle.wait_original()
    for user in others:
        await (await user.click(lobby, lobby_id(lobby, "join"))).response()
    for _ in range(ai):
        await (await host.click(lobby, lobby_id(lobby, "add_ai"))).response()
    await (await host.click(lobby, lobby_id(lobby, "start"))).response()

    async def running() -> Table | None:
        table = await world.tables.table_in_channel(world.games.id)
        return table if table is not None and table.status == "active" else None

    await stored(world, running, "the started game")
    await until_delivered(world)
    table = await running()
    assert table is not None
    return table


async def start(world: World, language: str, players: list[User], ai: int = 0) -> Table:
    """The admin sets the server's ``language``; ``players[0]`` opens an Asesino 2-4 player lobby, the others
    join, the host adds ``ai`` computer players and starts; returns the running table once its start is shown."""
    await (await world.admin.slash(world.games, "config language", language=language)).response()
    host, *others = players
    return await open_table(world, "asesino", "small", host, others, ai)


def tables(world: World) -> list[StoredMessage]:
    """The bot's messages in the game channel that show a table (the turn pings and warnings have no embed)."""
    return [m for m in world.bot_messages() if m.embeds]


def table_message(world: World, table: Table) -> StoredMessage:
    """The living table of ``table`` now: the newest bot message with its My secrets (or, once over, History)
    button."""
    wanted = (f"coroner:g:{table.id}:0:secrets:", f"coroner:h:game:{table.id}:")
    return next(m for m in reversed(world.bot_messages())
                if any(c.get("custom_id", "").startswith(wanted) for c in m.walk_components()))


async def time_out(world: World, table: Table, seconds: int = 301) -> Table:
    """The clock moves on ``seconds`` (by default past the longest time limit: the awaited player's time runs out;
    7 s: a computer player's thinking time); the table after the bot's move (and what it leads to) is shown."""
    world.clock.advance(seconds=seconds)

    async def moved() -> bool:
        return (await world.tables.load(table.id)).version > table.version

    await stored(world, moved, f"the bot's move after {seconds} s")
    await settled(world)
    return await world.tables.load(table.id)


async def timeouts_of(world: World, game_id: int, seat: int) -> int:
    """How many of ``seat``'s moves the bot made after its time ran out."""
    async with world.sessions() as session:
        return int(await session.scalar(select(func.count(GameAction.id)).where(
            GameAction.game_id == game_id, GameAction.seat == seat, GameAction.timed_out)) or 0)


def user_at(world: World, table: Table, seat: int) -> User:
    return next(u for u in world.players if u.id == table.user_of(seat))


@pytest.mark.parametrize("language", LANGUAGES)
async def test_twice_silent_the_computer_plays_the_seat_until_im_back(world: World, language: str) -> None:
    """The player the game waits on first lets their time run out twice: the table (edited, no new message) says
    the computer plays for them and shows "I'm back"; the other player pressing it is refused privately and
    nothing changes; after a restart the absent player pressing it gets the seat back, answered by the table's own
    edit."""
    alice, bob = world.players[:2]
    async with world.running():
        table = await start(world, language, [alice, bob])
        first = table.engine.waiting(table.state).seats[0]
        absent, other = user_at(world, table, first), user_at(world, table, 1 - first)
        while await timeouts_of(world, table.id, first) < 2:
            table = await time_out(world, table)

        async def handed() -> bool:  # (committed just after the second timed-out move)
            return any(s.away for s in (await world.tables.load(table.id)).seats)

        await stored(world, handed, "the seat handed to the computer")
        await settled(world)
        table = await world.tables.load(table.id)
        assert [s.seat for s in table.seats if s.away] == [first]
        message = table_message(world, table)
        name = table.shown_name(first)
        assert t(language, "seat.playing", seats=name) in message.text
        assert t(language, "seat.away", seat=name) in message.text
        button = next(c for c in message.walk_components() if c.get("label") == t(language, "seat.button.back"))
        count = len(tables(world))
        said = await refusal(await other.click(message, button["custom_id"]))
        assert said == "⛔ " + t(language, "seat.error.not_yours")
        assert (await world.tables.load(table.id)).version == table.version
    async with world.running():  # the button works across a restart
        response = await (await absent.click(message, button["custom_id"])).response()
        assert response.type in (6, 7), response  # the table's own edit answers the click (deferred first if slow)
        back = await world.tables.load(table.id)
        assert not any(s.away for s in back.seats) and back.version == table.version + 1
        await settled(world)
        message = table_message(world, back)
        assert t(language, "seat.back", seat=name) in message.text
        assert t(language, "seat.playing", seats=name) not in message.text
        assert not any(c.get("label") == t(language, "seat.button.back") for c in message.walk_components())
        assert len(tables(world)) == count  # no new table message: one edit per change


@pytest.mark.parametrize("language", LANGUAGES)
async def test_a_table_left_to_the_computer_ends_abandoned_without_scores(world: World, language: str) -> None:
    """One person and a computer player: once the person's seat is the computer's the game ends as abandoned; the
    table says so with its History button, and no score is recorded."""
    alice = world.players[0]
    async with world.running():
        table = await start(world, language, [alice], ai=1)
        while table.status == "active":
            table = await time_out(world, table, 301 if table.engine.waiting(table.state).seats[0] == 0 else 7)
        assert table.abandoned and table.outcome is not None and table.outcome.winners == []
        await settled(world)  # (the handover that ends it is committed just after the timed-out move was shown)
        message = await world.double.wait_for(
            lambda: next((m for m in tables(world) if t(language, "table.abandoned") in m.text), None),
            what="the abandoned table")
        assert any(c.get("custom_id", "").startswith(f"coroner:h:game:{table.id}:") for c in message.walk_components())
        async with world.sessions() as session:
            assert await session.scalar(select(func.count(Score.id)).where(Score.game_id == table.id)) == 0
        timeline = await (await alice.slash(world.games, "history", game=table.id)).response()
        assert timeline is not None


@pytest.mark.parametrize("language", LANGUAGES)
async def test_the_host_hands_a_seat_to_a_member_who_accepts_the_offer(world: World, language: str) -> None:
    """/replace by someone else than the host is refused; the host's offer to Carol is public with a button only
    she may use; once she takes it she holds the seat, its secrets reach her by DM, Bob's clicks are refused, and
    the game's history shows the change."""
    alice, bob, carol, dave = world.players[:4]
    async with world.running():
        table = await start(world, language, [alice, bob])
        refused = await refusal(await bob.slash(world.games, "replace", seat=2, member=carol))
        assert refused == "⛔ " + t(language, "seat.error.host_only")
        offer = await (await alice.slash(world.games, "replace", seat=2, member=dave)).response()
        assert not offer.ephemeral and dave.mention in offer.content
        to_dave = next(m for m in reversed(world.bot_messages()) if dave.mention in m.content)
        offer = await (await alice.slash(world.games, "replace", seat=2, member=carol)).response()
        assert not offer.ephemeral and carol.mention in offer.content
        message = next(m for m in reversed(world.bot_messages()) if carol.mention in m.content)
        # the offer to Carol supersedes the one to Dave: its message says so, its button gone (no dead button)
        superseded = t(language, "seat.offer_superseded", user=dave.mention, seat="Bob")
        await world.double.wait_for(lambda: to_dave.content == superseded, what="the superseded offer's end")
        assert not to_dave.components
        take = next(c["custom_id"] for c in message.walk_components() if c.get("label") == t(language,
                                                                                              "seat.button.take"))
        assert await refusal(await world.admin.click(message, take)) == "⛔ " + t(language, "seat.error.no_offer")
        dms = len(carol.dms())
        answer = await (await carol.click(message, take)).response()
        assert answer.type in (6, 7), answer
        await world.double.wait_for(lambda: t(language, "seat.taken") in message.content, what="the offer's answer")
        held = await world.tables.load(table.id)
        assert held.user_of(1) == carol.id and held.seat_of(bob.id) is None
        secrets = await world.double.wait_for(lambda: carol.dms()[dms:], what="the seat's secrets by DM")
        # the seat is named as it went before (Bob's): by now it goes by Carol's own name
        assert t(language, "seat.new_holder", seat="Bob", channel=world.games.id) in secrets[0].text
        await settled(world)
        table_msg = table_message(world, held)
        assert held.shown_name(1) == "Carol"  # the seat goes by its new holder's name from now on
        assert t(language, "seat.replaced.person", was="Bob", seat="Carol") in table_msg.text
        secret_button = next(c["custom_id"] for c in table_msg.walk_components() if c.get("custom_id", "").endswith(
            ":secrets:"))
        assert "⛔" in await refusal(await bob.click(table_msg, secret_button))
        assert not message.components  # the offer taken, its button is gone
        # the host hands Alice's own seat to the computer: nobody plays any more, the game ends and its history
        # (now open) shows both changes
        handed = await (await alice.slash(world.games, "replace", seat=1)).response()
        assert handed.ephemeral and t(language, "seat.handed_to_computer", seat="Alice") in handed.content
        while (current := await world.tables.load(table.id)).status == "active":
            awaited = current.engine.waiting(current.state).seats[0]
            await time_out(world, current, 301 if current.user_of(awaited) else 7)
        assert current.abandoned
        history = await alice.slash(world.games, "history", game=table.id)
        await history.response()
        (timeline, *_) = await history.wait_followups(1)
        assert t(language, "seat.replaced.person", was="Bob", seat="Carol") in timeline.text
        computer = t(language, "lobby.ai_name", number=1)
        assert t(language, "seat.replaced.computer", was="Alice", seat=computer) in timeline.text
        before, after = timeline.text.split(t(language, "seat.replaced.person", was="Bob", seat="Carol"))
        assert "Bob" in before and "Carol" not in before  # who held the seat before, until the replacement
        assert "Bob" not in after


async def test_a_former_holder_of_a_seat_is_not_offered_another_seat_of_the_game(world: World) -> None:
    """Bob played seat 2 (he saw its hand); once the host handed it to the computer, the host's offer of Carol's
    seat 3 to Bob is refused privately and no offer is armed (he would play seat 3 knowing seat 2's secrets)."""
    alice, bob, carol = world.players[:3]
    async with world.running():
        table = await start(world, "en", [alice, bob, carol])
        assert table.user_of(1) == bob.id
        await (await alice.slash(world.games, "replace", seat=2)).response()  # seat 2 (bob's) to the computer
        await settled(world)
        assert (await world.tables.load(table.id)).user_of(1) is None
        answer = await (await alice.slash(world.games, "replace", seat=3, member=bob)).response()
        await settled(world)
        async with world.sessions() as session:
            offers = (await session.scalars(select(Timer).where(Timer.kind == OFFER_TIMER))).all()
    assert answer.ephemeral and offers == [], (answer.content, [o.payload for o in offers])
    assert answer.content == "⛔ " + t("en", "seat.error.member_held", user=bob.mention)
