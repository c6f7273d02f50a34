"""The achievements a finishing game leaves, settled in the transaction of its last move.

The game judges what each seat earned (:func:`games.core.achievements.earned`: its facts, replayed from the seed and
the action log, against ``games/<game>/data/achievements.yaml``); the store then keeps what only it can know: a
computer seat earns nothing (it has no player), nor does a seat the computer has taken over from an absent
player (``away``: the computer played it to the end), and an achievement marked ``once`` (the first win as the
Killer...) is earned only by a player who has not earned it in this server before, nor in a game that ended at the
same moment (claimed under a unique index, :func:`bot.db.repos.scores.award_once`: of two games ending together,
one awards it). What is left goes into the game's stored :class:`~games.core.Outcome` (``achievements``), which the
result message shows, and into the ``achievements`` table (:func:`bot.db.repos.scores.record_outcome`). A
cancelled game never gets here.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from bot.db.repos import scores
from bot.tables.model import Table
from games.core import Outcome, SeatInfo
from games.core.achievements import book_of, earned
from games.core.seats import names_at_start

log = logging.getLogger(__name__)


async def settle(session: AsyncSession, table: Table, outcome: Outcome,
                 moves: Sequence[tuple[int, dict[str, Any]]], at: datetime) -> Outcome:
    """``outcome`` with the achievements the people of ``table`` earned in it (``moves``: the whole action log,
    the last move included, as ``(seat, action JSON)``; ``at``: when it ends); seats that earned nothing are left
    out. Its ``once`` achievements are claimed in ``session`` (:func:`bot.db.repos.scores.award_once`). A game whose
    log no longer replays (it never should) earns nothing rather than failing its last move."""
    engine = table.engine
    assert table.seed is not None
    dealt = names_at_start([s.names for s in table.seats], (action for _, action in moves))  # (the deal's names)
    try:
        # a replay of the whole game (0.1 s for a long Let's Kill! game): off the event loop, the engines are pure
        judged = await asyncio.to_thread(earned, engine, engine.Options.model_validate(table.options),
                                         [SeatInfo(names=names) for names in dealt], table.seed, list(moves))
    except Exception:  # noqa: BLE001 - the last move must stand whatever the judging does
        log.exception("could not judge the achievements of game %s", table.id)
        judged = {}
    people = {seat.seat: seat.user_id for seat in table.seats if seat.user_id is not None and not seat.away}
    book = book_of(table.game)
    once = sorted({(people[seat], a) for seat, names in judged.items() if seat in people for a in names
                   if (spec := book.spec(a)) is not None and spec.once})
    # claimed now, in the transaction of the last move: a game ending at the same moment cannot claim them too
    lost = set(once) - await scores.award_once(session, table.guild_id, table.game, table.id, at, once)
    kept = {seat: [a for a in names if (people[seat], a) not in lost]
            for seat, names in judged.items() if seat in people}
    return outcome.model_copy(update={"achievements": {seat: names for seat, names in kept.items() if names}})
