"""Asesino en Serie end to end through the Discord double: scripted players drive a whole tabletop game and a
whole 2-player game through the real components (table buttons and the move modals they open), picking legal moves
from the dealt state read back from the database."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from bot.i18n import catalog
from bot.tables import Table, TableService
from games.asesino.common import card_key
from games.core import Waiting, rng_for
from games.core.ai import timeout_move
from tests.discord_double import StoredMessage, User
from tests.e2e.conftest import World, mark, refusal, table_log, until_delivered
from tests.support.newgame import newgame

TITLE = "Asesino en Serie"



def status_messages(world: World) -> list[StoredMessage]:
    """The bot's table-status messages (not the lobbies, whose embed lists the players)."""
    return [m for m in world.bot_messages() if m.embeds and m.embeds[0].get("title", "").startswith(TITLE)
            and not any(f["name"].startswith("Players") for f in m.embeds[0].get("fields", []))]


def custom_id(message: StoredMessage, name: str) -> str:
    """The custom id of the component called ``name`` (``coroner:<g|s>:<game>:<version>:<name>:<arg>``)."""
    return next(c["custom_id"] for c in message.walk_components()
                if c.get("custom_id", "").split(":")[4:5] == [name])


async def open_and_start(world: World, mode: str, players: list[User], **options: Any) -> Table:
    host, *others = players
    handle = await newgame(host, world.games, "asesino", mode, **options)
    await handle.response()
    lobby = await handle.wait_original()
    assert lobby is not None
    for user in others:
        await (await user.click(lobby, label="Join")).response()
    await (await host.click(lobby, label="Start")).response()
    await world.double.wait_for(lambda: status_messages(world), what="the first table status")
    await until_delivered(world)  # the start is shown and its ping armed before a test moves the clock
    table = await world.tables.table_in_channel(world.games.id)
    assert table is not None and table.status == "active"
    return table


def user_of(world: World, table: Table, seat: int) -> User:
    return next(u for u in world.players if u.id == table.user_of(seat))


async def play_one(world: World, table: Table, rng: random.Random) -> None:
    """The seat the game waits on makes one random legal move through the Discord components."""
    waiting = table.engine.waiting(table.state)
    seat, kind = waiting.seats[0], waiting.kind
    user = user_of(world, table, seat)
    status = status_messages(world)[-1]
    before = mark(status_messages(world))
    action = rng.choice(table.engine.legal_actions(table.state, seat))
    if kind == "direction":
        await (await user.click(status, label="Clockwise" if action.clockwise else "Counter-clockwise")).response()
    elif action.type == "pass":
        await (await user.click(status, label="Pass")).response()
    else:
        handle = await user.click(status, custom_id=custom_id(status, "turn"))
        modal = (await handle.response()).modal
        assert modal is not None  # the table's button asks the whole move in one modal
        await (await user.submit_modal(handle, modal_answers(modal, action, user))).response()
    await world.double.wait_for(lambda: mark(status_messages(world)) != before, what=f"the table after {action}")


def modal_answers(modal: Any, action: Any, user: User) -> dict[str, Any]:
    """What a player fills in the move modal to make ``action`` (an empty effect select skips the effect)."""
    kind = action.type
    if kind in ("statement", "last_words"):
        return {"text": f"{user.username} speaks"}
    if kind == "declare":
        return {"card": [action.card], "target": [str(action.target)], "words": "trust me"}
    if kind == "accuse":
        return {"accuse": [str(action.target)]}
    if kind == "order_effects":
        return {"order": [",".join(action.order)]}
    if kind == "play_card":
        return {"scard": [action.card], "splay": [f"{action.column}.{action.declared}"]}
    if kind == "reveal":
        return {"reveal": [str(action.column)]}
    if kind in ("prosecutor_swap", "journalist_reveal"):
        name = "prosecutor" if kind == "prosecutor_swap" else "journalist"
        return {name: [f"{ref.column}.{ref.index}" for ref in action.slots or []]}
    if not action.cards:
        return {}
    options = [o["value"] for o in modal.field("give").raw["options"]]
    picked: list[str] = []
    for card in action.cards:
        picked.append(next(v for v in options if v.endswith("." + card) and v not in picked))
    return {"give": picked, "gtarget": [str(action.target)]}


async def play_to_the_end(world: World, table_id: int, seed: int) -> Table:
    rng = random.Random(seed)
    service = world.tables
    for _ in range(200):
        table = await service.load(table_id)
        if table.status != "active":
            return table
        await play_one(world, table, rng)
    raise AssertionError("the game did not end")


async def test_tabletop_game_to_the_end(world: World) -> None:
    """Five players: everyone gets role and hand by DM, the evil pair learns each other, a wrong click changes
    nothing, and the game is played through buttons, selects and modals to the announced winner and scores."""
    async with world.running():
        table = await open_and_start(world, "tabletop", world.players)
        await world.double.wait_for(lambda: all(u.dms() for u in world.players), what="the intro DMs")
        for seat, player in enumerate(table.state.seats):
            dm = user_of(world, table, seat).dms()[0]
            assert dm.embeds[0]["title"] == f"Your role: {catalog('en').render(card_key(player.role))}"
            assert dm.embeds[0]["fields"][0]["name"] == "Your hand"
        evil = [s for s, p in enumerate(table.state.seats) if p.role in ("killer", "accomplice")]
        for seat in evil if len(evil) == 2 else []:
            await world.double.wait_for(lambda s=seat: any("The Killer is" in m.text
                                                           for m in user_of(world, table, s).dms()))

        first = status_messages(world)[-1]
        waiting_seat = table.engine.waiting(table.state).seats[0]
        bystander = next(u for u in world.players if u.id != table.user_of(waiting_seat))
        assert "not your turn" in await refusal(await bystander.click(first, label="Clockwise"))
        assert (await world.tables.load(table.id)).version == table.version

        final = await play_to_the_end(world, table.id, seed=7)
        outcome = final.outcome
        assert outcome is not None
        last = status_messages(world)[-1]
        assert last.embeds[-1]["title"] == "Game over"
        winners = ", ".join(final.seat_names(s)[0] for s in outcome.winners)
        assert last.embeds[-1]["fields"][0]["value"] == winners
        board = await world.tables.leaderboard(world.guild.id, "asesino")
        assert sorted(row.points for row in board) == sorted(outcome.scores.values())
        assert not [m.text for u in world.players for m in u.dms() if "You played" in m.text]  # no echo of a move
        assert [m.id for m in world.bot_messages()] == [last.id]  # the lobby became the table and the result


def eight_players_seed_one(world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    """Three more players (eight in all) and game seed 1 for the next game."""
    monkeypatch.setattr(TableService, "new_seed", staticmethod(lambda: 1))
    extra = [world.double.add_user(n, display_name=n.title()) for n in ("frank", "grace", "heidi")]
    for user in extra:
        world.guild.add_member(user)
    world.players.extend(extra)


async def test_eight_players_answer_every_prompt_kind(world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    """With a fixed deal (game seed 1) eight players meet the effect order, the press statement, the
    Prosecutor's accusation, last words and a murdered player's forced plays, each through its component."""
    eight_players_seed_one(world, monkeypatch)
    async with world.running():
        table = await open_and_start(world, "tabletop", world.players)
        assert table.seed == 1
        final = await play_to_the_end(world, table.id, seed=1)
        assert final.outcome is not None
        log = table_log(status_messages(world))
        for expected in ("resolves the effects in this order", "tells the press: “", "speaks”",
                         "last words: “", "Prosecutor"):
            assert expected in log, expected


async def test_small_game_for_two_to_the_end(world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two players play the 2-4 player mode to its end through the turn panel (cards, columns, reveals) and
    the effect panels (with a fixed deal, game seed 12: Accomplice, Prosecutor and Journalist all used)."""
    monkeypatch.setattr(TableService, "new_seed", staticmethod(lambda: 12))
    alice, bob = world.players[:2]
    async with world.running():
        table = await open_and_start(world, "small", [alice, bob])
        await world.double.wait_for(lambda: alice.dms() and bob.dms(), what="the intro DMs")
        assert "Your identity" in alice.dms()[0].text
        final = await play_to_the_end(world, table.id, seed=12)
        assert final.outcome is not None
        assert status_messages(world)[-1].embeds[-1]["title"] == "Game over"
        log = table_log(status_messages(world))
        assert re.search(r"swaps \d cards? with", log) and "swaps card" in log and "turns face up" in log
        assert "(s)" not in log
        assert any("took" in m.text for u in (alice, bob) for m in u.dms())


async def test_turn_button_refuses_other_players(world: World) -> None:
    """"Take my turn" from someone the game is not waiting on is refused ephemerally and changes nothing."""
    alice, bob = world.players[:2]
    async with world.running():
        table = await open_and_start(world, "small", [alice, bob])
        seat = table.engine.waiting(table.state).seats[0]
        other = user_of(world, table, 1 - seat)
        status = status_messages(world)[-1]
        assert "not your turn" in await refusal(await other.click(status, custom_id=custom_id(status, "turn")))
        again = await world.tables.load(table.id)
        assert again.version == table.version and again.state == table.state


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)  # the modal router does not depend on the backend
async def test_a_move_modal_opened_before_a_restart_is_played_after_it(world: World) -> None:
    """The waiting player opens the turn modal (selects under labels), the bot restarts, the player submits a
    card: the move is played at the version the modal was opened at and the table shows it."""
    alice, bob = world.players[:2]
    async with world.running():
        table = await open_and_start(world, "small", [alice, bob])
        seat = table.engine.waiting(table.state).seats[0]
        status = status_messages(world)[-1]
        handle = await user_of(world, table, seat).click(status, custom_id=custom_id(status, "turn"))
        modal = (await handle.response()).modal
        assert modal is not None and modal.custom_id.startswith(f"coroner:m:{table.id}:{table.version}:move:")
    action = next(a for a in table.engine.legal_actions(table.state, seat) if a.type == "play_card")
    async with world.running():
        before = mark(status_messages(world))
        await (await user_of(world, table, seat).submit_modal(handle, modal_answers(modal, action, alice))).response()
        await world.double.wait_for(lambda: mark(status_messages(world)) != before, what="the table after the move")
        after = await world.tables.load(table.id)
        assert after.version == table.version + 1
        assert after.state.columns[action.column].slots[-1].by == seat


async def test_three_round_series_reopens_the_lobby_and_names_the_winner(world: World) -> None:
    """``rounds=3`` opens a series: after each round the standings are posted and the next lobby opens with the
    same players seated; after the third the series winner is named and /leaderboard's series scores add up. The
    round's timer run a second time (taken over from a process that died before marking it fired) posts and opens
    nothing twice."""
    alice = world.players[0]
    bot = world.bot()
    async with world.running(bot):
        table = await open_and_start(world, "tabletop", world.players, rounds=3)
        series = table.series_id
        assert series is not None and "rounds" not in table.options
        points: dict[int, float] = {}
        for round_no in (1, 2, 3):
            final = await play_to_the_end(world, table.id, seed=round_no)
            assert final.outcome is not None
            for seat, score in final.outcome.scores.items():
                user = final.user_of(seat)
                assert user is not None
                points[user] = points.get(user, 0.0) + score
            standings = await world.double.wait_for(lambda r=round_no: next(
                (m for m in world.bot_messages() if m.embeds and m.embeds[0].get("title", "").startswith(
                    f"Series #{series}") and (f"round {r} of 3" in m.embeds[0]["title"] or r == 3
                                                        and "is over" in m.embeds[0]["title"])), None))
            over = status_messages(world)[-1]
            assert over.embeds[-1]["title"] == "Game over"
            assert world.bot_messages().index(standings) > world.bot_messages().index(over)
            if round_no == 3:
                break
            lobby = await world.double.wait_for(lambda r=round_no: next(
                (m for m in world.bot_messages() if m.content.startswith(f"Round {r + 1} of 3")), None))
            if round_no == 1:
                await bot.get_cog("Lobby").series_round_finished(table.id)  # type: ignore[union-attr]
                assert [m for m in world.bot_messages() if m.content.startswith("Round 2 of 3")] == [lobby]
                assert [m for m in world.bot_messages() if m.embeds and m.embeds[0].get("title", "").startswith(
                    f"Series #{series}")] == [standings]
            await (await alice.click(lobby, label="Start")).response()
            await world.double.wait_for(lambda lobby=lobby: lobby in status_messages(world), what="the next table")
            table = await world.tables.table_in_channel(world.games.id)
            assert table is not None and table.status == "active" and table.user_ids() == final.user_ids()
        best = max(points.values())
        winners = sorted(final.seat_of(u) for u, p in points.items() if p == best)
        assert standings.embeds[0]["fields"][0]["value"] == ", ".join(final.seat_names(s)[0] for s in winners)
        board = await world.tables.leaderboard(world.guild.id, "asesino", series_id=series)
        assert {row.user_id: row.points for row in board} == points


async def test_an_idle_player_is_warned_then_the_bot_moves_for_them(world: World) -> None:
    """The first player's direction prompt has the prompt time (180 s): a warning at half time, then the bot's
    default move, announced publicly; the next turn then gets the turn time (300 s)."""
    async with world.running():
        table = await open_and_start(world, "tabletop", world.players)
        first = user_of(world, table, table.state.turn)
        assert table.engine.waiting(table.state) == Waiting.prompt(table.state.turn, "direction")
        world.clock.advance(seconds=29)
        world.clock.advance(seconds=2)
        ping = await world.double.wait_for(
            lambda: next((m for m in world.bot_messages() if "Your move" in m.content), None))
        assert first.mention in ping.content  # after the 30 s grace period: the only new message so far
        world.clock.advance(seconds=60)
        warning = await world.double.wait_for(
            lambda: next((m for m in world.bot_messages() if "half of your time" in m.content), None))
        assert first.mention in warning.content
        assert ping.deleted  # the warning took the ping's place: one ping in the channel at most
        assert (await world.tables.load(table.id)).version == table.version
        before = mark(status_messages(world))
        world.clock.advance(seconds=90)
        await world.double.wait_for(lambda: mark(status_messages(world)) != before, what="the bot's move")
        assert f"{table.seat_names(table.state.turn)[0]} ran out of time" in status_messages(world)[-1].text
        await world.double.wait_for(lambda: warning.deleted, what="the warning to go with the move")
        moved = await world.tables.load(table.id)
        _, chosen = timeout_move(table.engine, table.state, rng_for(table.seed, "timeout", table.version))
        assert moved.version == table.version + 1 and moved.state.clockwise is chosen.clockwise  # the policy's
        assert moved.engine.waiting(moved.state).kind == "turn"
        world.clock.advance(seconds=149)
        assert not any("half of your time" in m.content for m in world.bot_messages())
        world.clock.advance(seconds=2)
        await world.double.wait_for(lambda: sum("half of your time" in m.content for m in world.bot_messages()) == 1)
        assert len([m for m in world.bot_messages() if not m.embeds]) == 1  # the channel holds one ping at most


async def test_an_absent_prosecutor_is_never_named_while_asked_and_the_bot_accuses(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    """Ruling (Prosecutor effect): "A living Prosecutor must accuse: ... when the time limit runs out the bot names
    the player its computer player would (from the Prosecutor's own view) and says so. The public table never says
    that a Prosecutor is being asked". Eight players, game seed 1: the 28th random move leaves the game waiting on
    the Prosecutor."""
    eight_players_seed_one(world, monkeypatch)
    async with world.running():
        table = await open_and_start(world, "tabletop", world.players)
        rng = random.Random(1)
        for _ in range(60):
            table = await world.tables.load(table.id)
            if table.engine.waiting(table.state).kind == "accuse":
                break
            await play_one(world, table, rng)
        waiting = table.engine.waiting(table.state)
        assert waiting.kind == "accuse" and waiting.hidden
        (prosecutor,) = waiting.seats
        hidden = user_of(world, table, prosecutor)
        await world.double.wait_for(lambda: any("accuse" in m.text for m in hidden.dms()), what="the private prompt")
        status = status_messages(world)[-1]
        shown = status.text  # the living table is edited in place later: what it says while the question is pending
        assert "Waiting on the effect of a revealed card." in shown and "▶" not in shown
        assert str(hidden.id) not in status.content
        seen = len(world.bot_messages())
        world.clock.advance(seconds=100)  # past the half-time warning of the 180 s prompt time
        world.clock.advance(seconds=100)  # past the time limit
        said = await world.double.wait_for(lambda: next((m for m in status_messages(world)
                                                         if "did not accuse in time" in m.text), None),
                                           what="the bot's accusation")
        assert "so the bot named" in said.text
        # no ping, warning or other message named the Prosecutor while they were asked
        assert not [m for m in world.bot_messages()[seen:] if m.id != said.id and str(hidden.id) in m.text]
