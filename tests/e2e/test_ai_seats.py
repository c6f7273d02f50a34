"""Computer players end to end through the Discord double: the host fills a Verdugo table with AI seats from the
lobby (only the host may), plays it to the end by clicks while the AI seats move on their ``ai_move`` timers, and
the results name the computer players while the leaderboard leaves them out; a restart in the middle of a
computer player's move continues the game; in the social mode computer players only use their powers."""

from __future__ import annotations

import asyncio
from collections import Counter
from typing import Any

import pytest
from sqlalchemy import func, select

from bot import ai_seats
from bot.ai_seats import AI_TIMER
from bot.db.models import GameAction, Score, Timer
from bot.tables import TableService
from tests.discord_double import StoredMessage, User
from tests.e2e.conftest import World, refusal, stored
from tests.support.newgame import newgame

SEED = 4242
HOST = 0


@pytest.fixture
def seed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(TableService, "new_seed", staticmethod(lambda: SEED))


async def open_with_ai(world: World, host: User, ai: int, **options: Any) -> StoredMessage:
    """``host`` opens a Verdugo lobby with ``options`` and clicks Add AI ``ai`` times; returns the lobby message."""
    handle = await newgame(host, world.games, "verdugo", "classic", **options)
    await handle.response()
    lobby = handle.original
    assert lobby is not None
    for _ in range(ai):
        await (await host.click(lobby, label="Add AI")).response()
    return lobby


async def started(world: World) -> Any:
    """The channel's game once it is running."""
    async def active() -> Any:
        table = await world.tables.table_in_channel(world.games.id)
        return table if table is not None and table.status == "active" else None

    await stored(world, active, "the started game")
    return await active()


def game_control(world: World, version: int) -> tuple[StoredMessage, dict[str, Any]] | None:
    """The first game control drawn at ``version`` (the newest message holding one)."""
    for message in reversed(world.bot_messages()):
        for c in message.walk_components():
            parts = c.get("custom_id", "").split(":")
            if len(parts) > 4 and parts[1] in ("g", "s") and parts[3] == str(version):
                return message, c
    return None


def end_match(world: World, version: int) -> tuple[StoredMessage, str] | None:
    for message in reversed(world.bot_messages()):
        for c in message.walk_components():
            if c.get("custom_id", "").endswith(f":{version}:end_match:"):
                return message, c["custom_id"]
    return None


async def host_moves(world: World, host: User, game_id: int, version: int) -> None:
    """The host makes the move the table's first control offers (a button is pressed, a select takes its first
    options; the prisoner's Act menu peeks at the first position; a named target is chopped)."""
    message, control = await world.double.wait_for(lambda: game_control(world, version),
                                                   what=f"the host's control at v{version}")
    ident, name = control["custom_id"], control["custom_id"].split(":")[4]
    if control["type"] == 2:
        response = await (await host.click(message, ident)).response()
    else:
        values = [o["value"] for o in control["options"][:control.get("min_values", 1)]]
        response = await (await host.select(message, ident, values)).response()
    if name in ("act", "target"):  # an ephemeral menu (positions) or the Chop confirmation
        assert response.ephemeral and response.message is not None
        private = response.message
        if name == "act":
            select = private.selects()[0]
            await (await host.select(private, select["custom_id"], [select["options"][0]["value"]])).response()
        else:
            await (await host.click(private, private.buttons()[0]["custom_id"])).response()
    await stored(world, lambda: moved(world, game_id, version), f"the host's move at v{version}")


async def ai_fired(world: World, game_id: int, count: int) -> bool:
    """Exactly ``count`` ai_move timers of the game have fired."""
    async with world.sessions() as session:
        fired = await session.scalar(select(func.count()).select_from(Timer).where(
            Timer.game_id == game_id, Timer.kind == AI_TIMER, Timer.fired_at.is_not(None)))
    return fired == count


async def no_pending_ai_move(world: World, game_id: int) -> bool:
    return not await pending_ai_moves(world, game_id)


async def moved(world: World, game_id: int, version: int) -> bool:
    return (await world.tables.load(game_id)).version > version


async def pending_ai_moves(world: World, game_id: int) -> list[int]:
    async with world.sessions() as session:
        rows = await session.scalars(select(Timer).where(Timer.game_id == game_id, Timer.kind == AI_TIMER,
                                                         Timer.fired_at.is_(None)))
        return [row.version_at_schedule for row in rows]


async def test_host_and_three_computer_players_play_verdugo_to_the_end(world: World, seed: None,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """Add AI / Remove AI are the host's (bob is refused privately); the computer players are listed as such in
    the lobby. The first Executioner is a computer player: the bot dies in the middle of its move; the restarted
    bot takes the move over and makes it, once. Then the host plays every one of
    their moves by clicks, the computer players move on their own after 2-6 s, and the host ends the open match
    after the first round; the result names the computer players, and only the host is scored."""
    alice, bob = world.players[:2]
    async with world.running():
        lobby = await open_with_ai(world, alice, 4, match="open", first_executioner=1)
        assert "Only the host" in await refusal(await bob.click(lobby, label="Add AI"))
        assert "Only the host" in await refusal(await bob.click(lobby, label="Remove AI"))
        await (await alice.click(lobby, label="Remove AI")).response()
        listed = next(m for m in world.bot_messages() if m.id == lobby.id).text
        assert "🤖 AI 1 (computer player)" in listed and "🤖 AI 3 (computer player)" in listed
        assert "AI 4" not in listed and "Players (4, needs 4-8)" in listed
        await (await alice.click(lobby, label="Start")).response()
        table = await started(world)
        assert [(s.user_id, s.names) for s in table.seats] == [
            (alice.id, table.seats[0].names), (None, ("🤖 AI 1",)), (None, ("🤖 AI 2",)), (None, ("🤖 AI 3",))]
        await stored(world, lambda: pending_ai_moves(world, table.id), "the first Executioner's armed move")
        assert await pending_ai_moves(world, table.id) == [table.version]
        reached, play = [], ai_seats.on_ai_move

        async def dies(bot: Any, timer: Any) -> None:  # the process dies in the middle of the move
            reached.append(timer.payload["version"])
            raise asyncio.CancelledError

        monkeypatch.setattr(ai_seats, "on_ai_move", dies)
        world.clock.advance(seconds=6)
        await world.double.wait_for(lambda: reached == [table.version], what="the AI move under way")
    monkeypatch.setattr(ai_seats, "on_ai_move", play)
    assert await pending_ai_moves(world, table.id) == [table.version]  # not spent: its claim was never fired
    async with world.running():  # the restarted bot takes the move over and makes it, once
        await stored(world, lambda: moved(world, table.id, table.version), "the AI move after the restart")
        await stored(world, lambda: ai_fired(world, table.id, 1), "the AI timer spent")
        after = await world.tables.load(table.id)
        assert after.version == table.version + 1 and after.state.round.drawn  # AI 1 drew, once

        game_id, host_clicks, ai_steps = table.id, 0, 0
        for _ in range(300):
            table = await world.tables.load(game_id)
            if table.status == "finished":
                break
            waiting, version = table.engine.waiting(table.state), table.version
            if table.state.phase == "successor":  # after the first round the host ends the (open) match
                message, ident = await world.double.wait_for(lambda v=version: end_match(world, v))
                await (await alice.click(message, ident)).response()
                await stored(world, lambda v=version: moved(world, game_id, v), "the end of the match")
                continue
            if waiting is not None and HOST in waiting.seats:
                await host_moves(world, alice, game_id, table.version)
                host_clicks += 1
                continue
            assert table.version in await pending_ai_moves(world, game_id)  # armed with the step it waits on
            world.clock.advance(seconds=6)  # the longest "thinking time"
            await stored(world, lambda v=version: moved(world, game_id, v), f"an AI move at v{version}")
            ai_steps += 1
        assert table.status == "finished", "the game did not end"
        assert host_clicks >= 1 and ai_steps >= 5, (host_clicks, ai_steps)
        assert await world.tables.replay_check(game_id)  # the AI moves are logged like any other

        result = await world.double.wait_for(lambda: next((m for m in world.bot_messages() if "Game over" in m.text),
                                                          None), what="the result")
        assert "🤖 AI" in result.text and "<@None>" not in result.text
        async with world.sessions() as session:
            scored = (await session.scalars(select(Score.user_id).where(Score.game_id == game_id))).all()
        assert scored == [alice.id]
        board = await (await alice.slash(world.games, "leaderboard", {"game": "verdugo"})).response()
        text = str(board.embeds) + board.content
        assert alice.mention in text and "AI" not in text and "None" not in text


async def test_computer_players_in_the_social_mode_use_their_powers_quietly(world: World, social_seed: None,
                                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """Ruling 30 of the social mode: alice and five computer players; after the start each computer player uses
    its power and judgements on its own timers, through the social mode's real-time path, never writes, and passes
    after a few moves (no AI move is left armed); the computer players get no DMs and their secrets show nowhere."""
    alice = world.players[0]
    handled: list[int] = []  # the versions of the ai_move timers whose handler has finished
    play = ai_seats.on_ai_move

    async def on_ai_move(bot: Any, timer: Any) -> None:
        await play(bot, timer)
        handled.append(timer.payload["version"])

    monkeypatch.setattr(ai_seats, "on_ai_move", on_ai_move)
    async with world.running():
        await (await world.admin.slash(world.games, "config medium", channel=world.medium)).response()
        handle = await newgame(alice, world.games, "asesino", "social")
        await handle.response()
        assert handle.original is not None
        for _ in range(5):
            await (await alice.click(handle.original, label="Add AI")).response()
        await (await alice.click(handle.original, label="Start")).response()
        table = await started(world)
        powers = {seat: s.card.value for seat, s in enumerate(table.state.seats) if seat}
        for _ in range(12):  # each armed move, until the computer players pass
            # a timer is marked fired just after its handler: one already handled is not waited for again
            if not [v for v in await pending_ai_moves(world, table.id) if v not in handled]:
                break
            done = len(handled)
            world.clock.advance(seconds=6)
            await world.double.wait_for(lambda n=done: len(handled) > n, what="the next AI move")
        await stored(world, lambda: no_pending_ai_move(world, table.id), "every AI move spent")
        async with world.sessions() as session:
            logged = (await session.execute(select(GameAction.seat, GameAction.action).where(
                GameAction.game_id == table.id, GameAction.user_id.is_(None), GameAction.seat >= 0)
                .order_by(GameAction.seq))).all()
        moves = [(powers[seat], action["type"]) for seat, action in logged]
        assert {("doctor", "protect"), ("detective", "inspect"), ("killer", "recruit")} <= set(moves), moves
        assert {kind for _, kind in moves} <= QUIET, moves  # nothing written, nobody interviewed
        assert max(Counter(seat for seat, _ in logged).values()) <= 3, moves  # then each passes
        assert [u for u in world.players[1:] if u.dms()] == []
        public = "\n".join(m.text for channel in (world.games, world.medium) for m in world.bot_messages(channel))
        for secret in ("is now your accomplice", "You are protecting", "holds the card", "the Doctor, is watching"):
            assert secret not in public, secret  # the computer players' private answers are shown nowhere


#: the moves a computer player makes in the social mode (ruling 30)
QUIET = {"recruit", "crime", "protect", "inspect", "maniac_kill", "open_judgement", "back_judgement"}
