"""Every stored finished game replays from its seed and actions to its stored outcome (``coroner replay``)."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from sqlalchemy import delete, update
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bot.budget import size
from bot.cli import main
from bot.cogs.history._render import timeline_message
from bot.db import Base, create_engine, make_sessionmaker
from bot.db.check import open_database
from bot.db.models import Game, GameAction, Seat
from bot.delivery import split_events
from bot.history.command import replay_all, report
from bot.history.record import GameRecord, check, replay_steps
from bot.history.store import load_record, recent
from bot.history.timeline import PAGE, discord_stamp, pages, stamped, timeline
from bot.simulate.transcript import outgoing_text
from bot.startup_error import StartupError
from bot.ui import RenderContext, ui_for
from tests.history.conftest import GUILD, every_mode, store_game


@pytest.fixture
async def sqlite_sessions(tmp_path: Path) -> AsyncIterator[async_sessionmaker[AsyncSession]]:
    """A SQLite database with every table (the every-mode test stores ~300 actions: run once, not per backend)."""
    engine = create_engine(f"sqlite+aiosqlite:///{tmp_path / 'coroner.db'}")
    async with engine.begin() as conn:
        await conn.run_sync(Base.metadata.create_all)
    yield make_sessionmaker(engine)
    await engine.dispose()


async def test_a_stored_game_of_every_mode_replays_to_its_outcome(
        sqlite_sessions: async_sessionmaker[AsyncSession]) -> None:
    """One finished game per mode, stored, replays to the stored outcome and state; its timeline reveals everything."""
    sessions = sqlite_sessions
    ids = []
    for n, (game, mode, players) in enumerate(every_mode()):
        game_id, played = await store_game(sessions, game, mode, players, seed=8, channel_id=n + 1)
        record = await load_record(sessions, game_id)
        assert record.table.status == "finished", (game, mode)
        assert record.table.outcome == played.engine.outcome(played.state)
        assert [a.action for a in record.actions] == [m.action for m in played.moves]
        assert record.started_at is not None and all(a.at > record.started_at for a in record.actions)
        assert check(record) is None, (game, mode)
        assert_reveals_everything(record, "es" if n % 2 else "en")
        ids.append(game_id)
    report = await replay_all(sessions)
    assert [(r.game_id, r.problem) for r in report] == [(i, None) for i in ids]


def assert_reveals_everything(record: GameRecord, language: str) -> None:
    """The timeline shows every DM the deal sent, every secret move (the echoes the table never sends), each seat's
    secrets at the end and the result, with every placeholder filled; its pages fit a Discord embed uncut."""
    steps = replay_steps(record)
    ui = ui_for(record.table.game, record.table.mode)
    entries = timeline(record, language)
    text = "\n".join(line for entry in entries for line in entry.lines)
    for step in steps:
        ctx = RenderContext(step.table, language)
        _, private, _ = split_events(ctx, ui, step.events)
        _, own, _ = split_events(ctx, ui, [e for e in step.events if ui.echoes(e, step.events)], echoes=True)
        for key, shown in (("simulate.private", private), ("simulate.own_move", own)):  # no DM shown as sent
            for seat, outs in shown.items():
                for out in outs:
                    first = outgoing_text(out, files=False).splitlines()[0]
                    assert f"{ctx.t(key, seat=ctx.name(seat))} {first}" in text
    ctx = RenderContext(steps[-1].table, language)
    for seat in record.table.seats:
        assert ctx.t("history.secrets_of", seat=ctx.name(seat.seat)) in text
    assert ctx.t("outcome.title") in text and "{" not in text
    texts = pages(stamped(entries, discord_stamp))
    assert len(texts) >= 1 and all(size(page) <= PAGE for page in texts)
    for n in (0, len(texts) - 1):
        shown = timeline_message(record.table, texts, n, language).kwargs()["embeds"][0]
        assert shown.description == texts[n]


async def test_a_tampered_log_is_reported(sessions: async_sessionmaker[AsyncSession]) -> None:
    """A stored action changed after the fact no longer replays to the stored outcome, and a game the bot no longer
    has cannot replay: the check says which games, and goes on past them."""
    good, _ = await store_game(sessions, "asesino", "small", 2, seed=5, channel_id=1)
    bad, _ = await store_game(sessions, "asesino", "small", 2, seed=5, channel_id=2)
    gone, _ = await store_game(sessions, "asesino", "small", 2, seed=5, channel_id=3)
    async with sessions() as session, session.begin():
        await session.execute(update(GameAction).where(GameAction.game_id == bad, GameAction.seq == 1)
                              .values(action={"type": "no_such_action"}))
        await session.execute(update(Game).where(Game.id == gone).values(game="retired_game"))
    report = await replay_all(sessions)
    assert [r.game_id for r in report] == [good, bad, gone]
    assert report[0].problem is None
    assert report[1].problem is not None and "no longer applies" in report[1].problem
    assert report[2].problem is not None and "no engine" in report[2].problem
    tables, total = await recent(sessions, GUILD, [1, 2, 3])
    assert ([t.id for t in tables], total) == ([bad, good], 2)  # the list leaves out what it cannot read


async def test_coroner_replay_prints_a_line_per_game_and_fails_on_a_mismatch(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`coroner replay` upgrades the database, prints each finished game's check and exits 1 once one fails."""
    url = f"sqlite+aiosqlite:///{tmp_path / 'coroner.db'}"
    with pytest.raises(StartupError, match=f"no database at {tmp_path / 'coroner.db'}: nothing to replay"):
        await report(url)  # a path with no database: said, and no empty database is made there
    assert not (tmp_path / "coroner.db").exists()
    await (await open_database(url)).dispose()
    assert await report(url) == 0  # an empty database: nothing to replay
    assert capsys.readouterr().out == "coroner: 0 of 0 finished games replay to their stored outcome\n"
    engine = create_engine(url)
    sessions = make_sessionmaker(engine)
    game_id, played = await store_game(sessions, "cereal_killer", "classic", 2, seed=3)
    assert await report(url) == 0
    assert capsys.readouterr().out.splitlines() == [
        f"game {game_id} cereal_killer/classic, {len(played.moves)} actions: ok",
        "coroner: 1 of 1 finished games replay to their stored outcome"]
    async with sessions() as session, session.begin():
        await session.execute(update(Game).where(Game.id == game_id).values(outcome={"winners": [], "reason": "x"}))
    await engine.dispose()
    assert await report(url) == 1
    assert capsys.readouterr().out.splitlines()[0].endswith("the replay ends with another outcome than the stored one")


async def test_coroner_replay_files_replays_exported_records(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], sqlite_sessions: async_sessionmaker[AsyncSession]) -> None:
    """`coroner replay FILE...` replays /history's exports (no settings, no database): ok, then 1 for one whose
    outcome was edited, 2 with one line for a file that is no record."""
    game_id, _ = await store_game(sqlite_sessions, "verdugo", "classic", 4, seed=2)
    data = (await load_record(sqlite_sessions, game_id)).to_json()
    good, edited, junk = tmp_path / "good.json", tmp_path / "edited.json", tmp_path / "junk.json"
    good.write_text(json.dumps(data))
    edited.write_text(json.dumps({**data, "outcome": {**data["outcome"], "winners": []}}))
    junk.write_text("[1, 2]")
    assert main(["replay", str(good)]) == 0
    assert capsys.readouterr().out == f"{good}: ok\n"
    assert main(["replay", str(good), str(edited)]) == 1
    assert capsys.readouterr().out.splitlines()[1] == f"{edited}: the replay ends with another outcome than the " \
                                                        "recorded one"
    assert main(["replay", str(junk)]) == 2
    assert capsys.readouterr().err.startswith(f"coroner: {junk} is not a game record")


async def test_a_tampered_record_is_told_in_english_not_as_a_catalogue_key(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], sqlite_sessions: async_sessionmaker[AsyncSession]) -> None:
    """A record whose first card went to column 99 (the 2-4 player table has six): `coroner replay FILE` and the
    database check both say why in the rules' English words, with no raw catalogue key."""
    game_id, _ = await store_game(sqlite_sessions, "asesino", "small", 2, seed=5)
    record = await load_record(sqlite_sessions, game_id)
    data = record.to_json()
    data["actions"][0]["action"]["column"] = 99
    path = tmp_path / "tampered.json"
    path.write_text(json.dumps(data))
    assert main(["replay", str(path)]) == 1
    assert capsys.readouterr().out == f"{path}: an action no longer applies: There is no column 99.\n"
    async with sqlite_sessions() as session, session.begin():
        await session.execute(update(GameAction).where(GameAction.game_id == game_id, GameAction.seq == 1)
                              .values(action=data["actions"][0]["action"]))
    assert check(await load_record(sqlite_sessions, game_id)) == "an action no longer applies: There is no column 99."


async def test_stored_options_the_mode_refuses_and_a_seatless_game_are_one_line_each(
        sessions: async_sessionmaker[AsyncSession]) -> None:
    """A stored game whose options are a wrong value, one whose options are no object (no table can be made of
    it) and one with no seat left: each is reported in one line saying so, and the check goes on past them."""
    ids = [(await store_game(sessions, "asesino", "small", 3, seed=5, channel_id=n))[0] for n in (1, 2, 3, 4)]
    wrong, text, seatless, good = ids
    async with sessions() as session, session.begin():
        await session.execute(update(Game).where(Game.id == wrong).values(options={"first_player": "x"}))
        await session.execute(update(Game).where(Game.id == text).values(options="bogus"))
        await session.execute(delete(Seat).where(Seat.game_id == seatless))
    report = await replay_all(sessions)
    assert [(r.game_id, r.problem) for r in report] == [
        (wrong, "its options are not valid for asesino/small (first_player: Input should be a valid integer, "
                "unable to parse string as an integer)"),
        (text, "its options are not valid for asesino/small (options: Input should be a valid dictionary or "
               "instance of SmallOptions)"),
        (seatless, "it has 0 seats; asesino/small is played by 2 to 4"),
        (good, None)]
