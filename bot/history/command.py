"""``coroner replay``: every finished game in the database replayed from its seed and logged actions, and checked
against its stored outcome and final snapshot (:func:`bot.history.record.check`). The database is upgraded first,
as ``coroner run`` does; the check itself only reads. ``coroner replay FILE...`` replays exported records instead
(``/history``'s JSON, or ``coroner simulate --json``'s), with no settings or database."""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import ValidationError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bot.db.check import open_database, sqlite_file
from bot.db.session import make_sessionmaker
from bot.history.record import check
from bot.history.store import finished_ids, load_record
from bot.history.verdict import options_problem, outcome_problem, refusal, seats_problem
from bot.startup_error import StartupError
from games.core import IllegalAction, Outcome, SeatInfo, get_engine
from games.core.replay import replay
from games.core.seats import names_at_start


@dataclass(frozen=True, slots=True)
class Replayed:
    """One finished game's replay check: None, or what went wrong in one line."""

    game_id: int
    game: str
    mode: str
    actions: int
    problem: str | None


async def replay_all(sessions: async_sessionmaker[AsyncSession]) -> list[Replayed]:
    """The replay check of every finished game, oldest first."""
    out = []
    for game_id in await finished_ids(sessions):
        try:
            record = await load_record(sessions, game_id)
        except KeyError as exc:  # the game was removed from the bot: nothing can replay it
            out.append(Replayed(game_id, "?", "?", 0, f"no engine for {exc}"))
            continue
        except ValueError as exc:  # a row no table can be made of (options that are no object)
            out.append(Replayed(game_id, "?", "?", 0, str(exc)))
            continue
        out.append(Replayed(game_id, record.table.game, record.table.mode, len(record.actions), check(record)))
    return out


async def report(url: str) -> int:
    """Run :func:`replay_all` on the database at ``url`` (upgraded first), print one line per game and a
    summary; 0 when every game replays, 1 otherwise. Raises :class:`~bot.settings.StartupError` when the database
    cannot be opened, or is a SQLite file that does not exist (a replay creates no database: a wrong path would
    otherwise print "0 of 0" over a new empty file)."""
    path = sqlite_file(url)
    if path is not None and not path.exists():
        raise StartupError(f"no database at {path}: nothing to replay (check DATABASE_URL)")
    engine = await open_database(url)
    try:
        results = await replay_all(make_sessionmaker(engine))
    finally:
        await engine.dispose()
    for r in results:
        print(f"game {r.game_id} {r.game}/{r.mode}, {r.actions} actions: {r.problem or 'ok'}")
    failed = sum(1 for r in results if r.problem)
    print(f"coroner: {len(results) - failed} of {len(results)} finished games replay to their stored outcome")
    return 1 if failed else 0


#: the fields of an exported record (``/history``'s JSON, ``coroner simulate --json``) that a replay reads
RECORD_FIELDS = ("game", "mode", "options", "seats", "seed", "actions", "outcome")


def replay_file(data: dict[str, Any]) -> str | None:
    """None when an exported record (``/history``'s or ``coroner simulate --json``'s) replays from its seed to its
    outcome (the abandonment and the achievements replayed too: :func:`bot.history.verdict.outcome_problem`), else
    what went wrong (worded in English). Raises ``KeyError``/``TypeError``/``ValueError`` for a file that is not one
    (``ValueError`` in words for options the mode refuses and a seat count it is not played by)."""
    engine = get_engine(data["game"], data["mode"])
    if (problem := options_problem(engine, data["options"]) or seats_problem(engine, data["seats"])) is not None:
        raise ValueError(problem)
    now = [tuple(s["names"]) if isinstance(s, dict) else (str(s),) for s in data["seats"]]
    seats = [SeatInfo(names=names) for names in names_at_start(now, (a["action"] for a in data["actions"]))]
    # a seat's person (None: the computer's); simulate --json's seats are bare names, all the computer's
    holders = [s.get("user_id") if isinstance(s, dict) else None for s in data["seats"]]
    moves = [(int(a["seat"]), a["action"]) for a in data["actions"]]
    try:
        options = engine.Options.model_validate(data["options"])
        state = replay(engine, options, seats, int(data["seed"]), moves)
        stored = Outcome.model_validate(data["outcome"]) if data["outcome"] is not None else None
    except (IllegalAction, ValidationError) as exc:
        return refusal(exc)
    return outcome_problem(engine, options, seats, int(data["seed"]), moves, state, holders, stored, "recorded")


def not_a_record(path: str) -> str | None:
    """Why the file at ``path`` cannot be replayed as a record, in one line (None: it reads as one)."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as exc:
        return f"cannot be read ({exc.strerror or type(exc).__name__})"
    except UnicodeDecodeError:
        return "is not text (a game record is JSON)"
    except json.JSONDecodeError as exc:
        return f"is not JSON ({exc.msg} at line {exc.lineno}, column {exc.colno})"
    if not isinstance(data, dict):
        return f"is not a game record (JSON, but not an object with {', '.join(RECORD_FIELDS)})"
    missing = [name for name in RECORD_FIELDS if name not in data]
    if missing:
        return f"is not a game record: it has no {', '.join(missing)}"
    return None


def report_files(paths: list[str]) -> int:
    """Replay each exported record in ``paths`` and print one line each, going on after a bad one: 0 when all
    replay, 1 when one does not, 2 when a file cannot be read as a record (one ``coroner:`` line on stderr
    each)."""
    failed = bad = 0
    for path in paths:
        problem = not_a_record(path)
        if problem is None:
            try:
                outcome = replay_file(json.loads(Path(path).read_text(encoding="utf-8")))
            except KeyError as exc:  # (game, mode) from the registry, or a field an action or seat lacks
                key = exc.args[0] if exc.args else "?"
                problem = (f"is a record of {key[0]}/{key[1]}, which this version of coroner does not play"
                           if isinstance(key, tuple) else f"is not a replayable record: it lacks {key!r}")
            except (ValueError, TypeError) as exc:
                problem = f"is not a replayable record: {str(exc).splitlines()[0] if str(exc) else type(exc).__name__}"
        if problem is not None:
            bad += 1
            print(f"coroner: {path} {problem}", file=sys.stderr)
            continue
        failed += outcome is not None
        print(f"{path}: {outcome or 'ok'}")
    return 2 if bad else 1 if failed else 0
