"""The table service: the one path from a player's action to the engine and the store.

``act``: load -> per-game asyncio lock -> optimistic version check -> ``engine.apply`` -> persist: the action is
appended to ``game_actions``, the snapshot and version updated, and what the step must show (its events, the new
version and the timers ``plan`` arms for it) written to the outbox, all in ONE transaction. Across processes the
guard is ``UPDATE games ... WHERE id = :id AND version = :expected`` (plus the unique ``(game_id, seq)`` of the
log): when no row matches, the transaction is rolled back and the caller gets ``TableError("table.stale")``, so
two services on one database never both apply on one version. The per-game lock only spares this process's own
writers that race; it lives while it is held or awaited (:class:`bot.locks.KeyedLocks`), so memory does not grow
with the games a process has seen.

After commit, and after the game's lock is released, the :class:`~bot.tables.outbox.Deliverer` shows the step
through ``deliver`` (in order per game; a crash in between is caught up at the next start). ``deliver`` may call
any method of the service (a step it commits on its own game is shown by the drain already running). A failing
``deliver`` is logged and never undoes the committed action.
"""

from __future__ import annotations

import asyncio
import logging
import os
import secrets
import socket
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import replace
from datetime import datetime
from typing import Any

from cachetools import LRUCache
from pydantic import ValidationError
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bot.db.base import utcnow
from bot.db.repos import games, outbox, scores, timers
from bot.db.repos.outbox import Claim
from bot.locks import KeyedLocks
from bot.tables.achievements import settle
from bot.tables.gate import GateMixin, admit, timeout_announcement
from bot.tables.leases import DeliveryHooks
from bot.tables.lobby import LobbyMixin
from bot.tables.model import ABANDONED, ActResult, Table, TableError, TimerPlan, to_table
from bot.tables.notes import NotesMixin
from bot.tables.offers import OffersMixin
from bot.tables.outbox import RETRY_TIMER, Deliver, Deliverer, Handoff
from bot.tables.reads import ReadsMixin
from bot.tables.schedule import ScheduleMixin
from bot.tables.seats import OFFER_TIMER, abandoned_outcome, admit_seat_change, change_seat, steps_since_decision
from bot.tables.step import ANSWERED_SEAT, plan_intent
from bot.tables.timing import TimersMixin
from games.core import Event, IllegalAction, SeatInfo
from games.core.controls import PauseGame, ResumeGame
from games.core.replay import replay
from games.core.seats import is_seat_change, names_at_start

log = logging.getLogger(__name__)

#: the timers a committed step arms, from the table after it (e.g. turn time limits); read inside the step's
#: transaction, so keep it to cached settings and arithmetic
Plan = Callable[[Table], Awaitable[list[TimerPlan]]]
#: the turn ping's timer a shown step arms (None: nobody to ping), from the table after it; read like :data:`Plan`
Ping = Callable[[Table], Awaitable[TimerPlan | None]]
#: games whose last loaded table (and closed-DM notices) a service remembers
LOADED = 1024


def process_owner(shard_ids: Sequence[int] | None = None) -> str:
    """A name for this process in the database's timer claims and delivery leases (at most 64 chars).

    A bot process is named by its host and its shards (``SHARD_IDS``; ``all`` when it runs them all), so that the
    same process started again (after a crash, say) takes its own leases back at once instead of waiting for them
    to run out; processes with disjoint shards never share a name. Without ``shard_ids`` (a tool, a test) the name
    is unique to this call."""
    host = socket.gethostname()[:30]
    if shard_ids is None:
        return f"{host}:{os.getpid()}:{secrets.token_hex(4)}"
    return f"{host}:shards {','.join(map(str, sorted(shard_ids))) or 'all'}"[:64]


class TableService(LobbyMixin, ScheduleMixin, TimersMixin, OffersMixin, ReadsMixin, NotesMixin, GateMixin):
    """Lobbies (scheduled ones too), starts, actions, timers and replay checks for every table, over one
    sessionmaker."""

    def __init__(self, sessionmaker: async_sessionmaker[AsyncSession], *, deliver: Deliver | None = None,
                 plan: Plan | None = None, clock: Callable[[], datetime] = utcnow,
                 on_timers: Callable[[datetime], None] | None = None, owner: str | None = None,
                 superseded: frozenset[str] = frozenset(), ping: Ping | None = None,
                 delivery: DeliveryHooks | None = None, hold_marks: bool = False) -> None:
        """``deliver`` shows committed steps (None: they stay in the outbox for a process that has one);
        ``plan`` gives the timers a step arms; ``on_timers(due_at)`` is called after a committed step that armed
        timers, with the earliest one's due time (to wake the timer loop when it would sleep past it).
        ``owner`` names this process in timer claims and delivery leases (default: host, pid and
        a random part). ``superseded``: timer kinds that do nothing once the decision they were armed for is
        over (turn warnings, timeouts, pings): the game's ones armed before :attr:`Table.decision_opened` (the
        version the decision it waits on was first offered at, stored with each step) are never claimed, waited for
        or listed (:func:`bot.db.repos.timers.standing`), so they never fire only to find the game moved on, and
        the deliverer's prune marks them fired in bulk. ``ping``: the turn ping's timer a step that shows something
        public arms (a public event, or a change of the public view), recorded with the step's other timers.
        ``delivery``: what the deliverer is told of Discord and time (:class:`bot.tables.outbox.DeliveryHooks`).
        ``hold_marks``: a delivered step's "delivered" mark (and what its delivery writes with it, and the lease's
        giving back) waits for the game's next move's transaction, at most :data:`bot.tables.marks.FLUSH_AFTER`
        (:mod:`bot.tables.marks`; False: committed at once, on its own)."""
        self._sessions = sessionmaker
        self.owner = owner or process_owner()
        self.deliverer = Deliverer(sessionmaker, deliver, clock, on_timers, owner=self.owner, hooks=delivery,
                                   superseded=superseded, hold=hold_marks)
        self._plan = plan
        self._superseded = superseded
        self._ping = ping
        self._on_timers = on_timers
        self._clock = clock
        self.locks = KeyedLocks()
        #: per game, the last table :meth:`load` read and the deliverer's mark before it: a move handed that very
        #: table (``act(table=...)``) is applied to it instead of reading it again
        self._loaded: LRUCache[int, tuple[Table, int]] = LRUCache(maxsize=LOADED)
        #: per game, the deliverer's mark before a read that found no closed-DM notice due: while the mark holds
        #: (nothing this process wrote about the game since, a failed DM included) none is due
        self._no_notices: LRUCache[int, int] = LRUCache(maxsize=LOADED)
        self._expiry: LRUCache[int, datetime | None] = LRUCache(maxsize=LOADED)

    # --- plumbing ------------------------------------------------------------------------------------------
    def lock(self, game_id: int) -> asyncio.Lock:
        """The per-game lock serialising this process's writers of ``game_id``."""
        return self.locks(game_id)

    async def _read(self, session: AsyncSession, game_id: int) -> tuple[games.GameRow, Table]:
        """The game's row (:func:`bot.db.repos.games.game_with_seats`) and table (and whether a closed-DM notice is
        due, remembered: :meth:`dm_notices_due`)."""
        mark = self.deliverer.mark(game_id)
        found = await games.game_with_seats(session, game_id)
        if found is None:
            raise TableError("table.not_found", game_id=game_id)
        if not any(seat.dm_notice_due for seat in found[1]):
            self._no_notices[game_id] = mark
        else:
            self._no_notices.pop(game_id, None)
        return found[0], to_table(*found)

    async def _commit_guarded(self, session: AsyncSession, table: Table, *, messages: bool = False,
                              claim: bool = False, **values: Any) -> Claim | None:
        """Bump the version from ``table.version`` or raise ``table.stale`` (the caller's transaction rolls
        back); ``messages``: also while the game's lobby and table messages are still ``table``'s (a table read
        before the transaction); ``claim``: the caller records a step (:meth:`_record`), so the game's delivery
        lease is taken in the same statement when it is free (returned: hand it to :meth:`_record`; None when this
        process shows nothing)."""
        guard = (table.lobby_message_id, table.table_message_id) if messages else None
        lease = self.deliverer.lease_ask() if claim else None
        if lease is not None:
            if "shown" in session.info:  # (a held mark's digest: :meth:`bot.tables.marks.Marks.writing`)
                values["shown"] = session.info.pop("shown")
            found = await games.bump_and_claim(session, table.id, table.version, lease, updated_at=self._clock(),
                                               messages=guard, **values)
            if found is None:
                raise TableError("table.stale", game_id=table.id)
            return found
        if not await games.bump_version(session, table.id, table.version, updated_at=self._clock(), messages=guard,
                                        **values):
            raise TableError("table.stale", game_id=table.id)
        return None

    async def _record(self, session: AsyncSession, table: Table, events: list[Event],
                      kind: str = "act", *, shown: bool = True, claim: Claim | None = None) -> Handoff:
        """Write what the step (``kind``: ``start`` or ``act``) that produced ``table`` must show: its events and
        the timers ``plan`` arms for it (stamped with ``table.version``), with the turn ping's (``ping``) when the
        step is ``shown`` (it has something public to show), in the caller's transaction; with the game's delivery
        lease its version bump took (``claim``, :meth:`_commit_guarded`; when the step is then the game's only
        pending one, with the intent to create every message of its delivery: :func:`bot.tables.step.plan_intent`).
        Returns what the delivery is handed after the commit (:meth:`_send`)."""
        plans = await self._plan(table) if self._plan is not None and table.status in ("active", "finished") else []
        if shown and self._ping is not None and table.status == "active":
            ping = await self._ping(table)
            plans = plans if ping is None else [*plans, ping]
        await timers.schedule_many(session, table.id, [(p.kind, p.due_at, p.payload) for p in plans], table.version)
        lease = self.deliverer.adopt(table.id, claim)
        # shown next, by this process, as handed over: its transaction records the intent to create every message
        # of its delivery (issue 22's per-send records), so they cost its delivery no statement and no commit
        planned = lease is not None and lease.first is None
        now = self._clock()
        entry = await outbox.add(session, table.id, table.version, kind,
                                 [e.model_dump(mode="json") for e in events],
                                 [{"kind": p.kind, "due_at": p.due_at.isoformat()} for p in plans], now,
                                 plan_intent(now) if planned else None)
        if planned:
            assert lease is not None
            lease.first = lease.untried = entry.id
        due = min((p.due_at for p in plans), default=None)
        return Handoff(table, entry, due, lease, answers=ANSWERED_SEAT.get())

    async def _send(self, handoff: Handoff) -> None:
        """Show the committed steps of the game (call after commit, outside the game's lock), starting from what
        :meth:`_record` wrote; wake the timer loop when the step armed a timer due before it would wake."""
        if self._on_timers is not None and handoff.due is not None:
            self._on_timers(handoff.due)
        await self.deliverer.drain(handoff.table.id, handoff)

    # --- reading -------------------------------------------------------------------------------------------
    async def load(self, game_id: int) -> Table:
        """The table of ``game_id``. Raises ``TableError("table.not_found")``. A move made on it may hand it to
        :meth:`act` (``table``) rather than have it read again."""
        mark = self.deliverer.mark(game_id)
        async with self._sessions() as session:
            table = (await self._read(session, game_id))[1]
        self._loaded[game_id] = (table, mark)
        return table

    def recent(self, game_id: int, version: int) -> Table | None:
        """The running game ``game_id``'s table at ``version`` as this process last read (:meth:`load`) or committed it
        (:meth:`act`), with no query, while nothing this process wrote about the game outside its moves changed
        since (its table message, a failed DM: :meth:`bot.tables.outbox.Deliverer.touched`); None: :meth:`load` it.
        For a control drawn at ``version``: a move made on it is handed to :meth:`act` (``table``), whose version
        guard finds out when another process moved the game meanwhile (then it is read again and checked anew).
        ``version`` 0 is a control valid at any version ("My secrets", every control of the social mode, where the
        engine decides what still stands): the table at whatever version this process last read or committed, on
        the same terms (so a panel and the move made from it after a move of this process cost no read)."""
        found = self._loaded.get(game_id)
        if (found is None or found[0].status != "active"  # a lobby changes outside moves (options, seats)
                or version not in (0, found[0].version) or found[1] != self.deliverer.mark(game_id)):
            return None
        return found[0]

    async def at(self, game_id: int, version: int) -> Table:
        """The table of ``game_id`` for a control drawn at ``version``: :meth:`recent`'s, with no query, else
        read (:meth:`load`). Raises ``TableError("table.not_found")``."""
        return self.recent(game_id, version) or await self.load(game_id)

    async def since(self, game_id: int, version: int) -> Table:
        """The table of ``game_id`` for a timer armed by the step that made ``version``: the running table this
        process remembers (:meth:`recent`, any version) when it is no older than that step, with no query (what the
        timer was armed for is in it; a later step that makes something else due arms its own timer; a move made
        on it meets :meth:`act`'s version guard), else read (:meth:`load`)."""
        known = self.recent(game_id, 0)
        return known if known is not None and known.version >= version else await self.load(game_id)

    def handed(self, table: Table) -> Table:
        """``table`` (just read, e.g. by :meth:`table_in_channel`) or, when this process remembers the game at that
        very version (:meth:`recent`), the remembered table: a move made on it is then not read again
        (:meth:`act`'s hand-over; its version guard still catches a race)."""
        return self.recent(table.id, table.version) or table

    def remembered(self, game_id: int) -> Table | None:
        """The table of ``game_id`` (any status: a lobby too) as this process last read, changed or committed it,
        with no query, while nothing this process wrote about the game outside those changed since; None:
        :meth:`load` it. Another process may have changed it meanwhile: for what is shown, not to act on."""
        found = self._loaded.get(game_id)
        return found[0] if found is not None and found[1] == self.deliverer.mark(game_id) else None

    def shown_in(self, game_id: int, message_id: int) -> None:
        """The game's lobby message ``message_id`` is its table message now (``games.table_message_id``, recorded
        by the living table with a step's delivery): the table this process remembers of the game (:meth:`recent`)
        says so, with no read."""
        found = self._loaded.get(game_id)
        if found is not None and found[0].lobby_message_id == message_id:
            self._loaded[game_id] = (replace(found[0], table_message_id=message_id), found[1])

    # --- playing -------------------------------------------------------------------------------------------
    async def act(self, game_id: int, user_id: int | None, action: dict[str, Any], *,
                  expected_version: int | None = None, seat: int | None = None,
                  timed_out: bool = False, manager: bool = False, table: Table | None = None) -> ActResult:
        """The one door every move enters by, with the same checks, persistence and delivery: apply ``action``
        (JSON, parsed by the engine) to game ``game_id``.

        Who moves: the person ``user_id`` (a click, a modal, a DM: their seat, or ``HOST_SEAT`` when they host the
        table or manage the server (``manager``) and the move is one of the game's host actions, e.g. ending a
        Verdugo match, pausing the game); or, with ``user_id``
        None, the bot for ``seat`` (logged with no user): a computer player, the default after a time limit
        (``timed_out``: logged as such and announced by :func:`timeout_announcement`'s events, shown before the
        step's own and committed with it, so "the bot moved for you" is said exactly when that move counted), the
        game's own clock (``SYSTEM_SEAT``). ``expected_version``: the table version the control was drawn at
        (``None`` for moves valid at any version): refused as stale only when the decision it was drawn for has
        closed (:meth:`Table.stands`), checked inside the game's lock. ``table``: the table the caller read last
        (:meth:`load`): the move is applied to it without reading it again while it is still the game's current
        table (the version guard of the write and the table's message ids say so; otherwise, and when the move is
        refused on it, the table is read again inside the lock and the move checked on that). The host's controls
        (:mod:`games.core.controls`): a pause holds every timer of the game and the resume gives each the time it
        had left, in the step's transaction; a cancel ends the game ``cancelled``, with no scores.

        Raises ``TableError``: ``table.not_found``, ``table.not_active``, ``table.not_a_player``,
        ``table.bad_seat`` (a ``seat`` not at the table), ``table.stale`` (a closed decision, or another writer
        won the race), ``table.bad_action`` (malformed JSON); and the engine's ``IllegalAction`` unchanged (game
        over, not this actor's move, the game's rules). Nothing is written when it raises."""
        loaded = self._loaded.get(game_id)
        handed = (table, loaded[1]) if table is not None and loaded is not None and loaded[0] is table else None
        async with self.lock(game_id):
            done = None
            if handed is not None:
                try:
                    done = await self._act(game_id, action, expected_version, user_id=user_id, seat=seat,
                                           timed_out=timed_out, manager=manager, handed=handed)
                except (TableError, IllegalAction, IntegrityError):
                    pass  # moved on since it was read, or refused on it: checked again on the table as it is now
            if done is None:
                try:
                    done = await self._act(game_id, action, expected_version, user_id=user_id, seat=seat,
                                           timed_out=timed_out, manager=manager)
                except IntegrityError as exc:  # another process logged this seq first
                    raise TableError("table.stale", game_id=game_id) from exc
            handoff, result = done
            self._loaded[game_id] = (result.table, handoff.mark)  # (what a read of it now would find: :meth:`recent`)
        await self._send(handoff)
        return result

    async def _act(self, game_id: int, action: dict[str, Any], expected_version: int | None, *,
                   user_id: int | None, seat: int | None, timed_out: bool = False, manager: bool = False,
                   handed: tuple[Table, int] | None = None) -> tuple[Handoff, ActResult]:
        """:meth:`act`'s transaction (in the game's lock), on the table read in it or on the one ``handed`` (with the
        deliverer's mark before it was read: then a table that is no longer the game's current one fails the
        version guard, ``table.stale``)."""
        now = self._clock()
        mark = self.deliverer.mark(game_id) if handed is None else handed[1]
        # (the game's last delivered step's held mark is written first: :mod:`bot.tables.marks`)
        async with self.deliverer.marks.writing(game_id) as session:
            if handed is None:
                table = (await self._read(session, game_id))[1]
            else:
                table = handed[0]
            engine = table.engine
            if is_seat_change(action):
                seat, action = await admit_seat_change(session, table, action, user_id=user_id, seat=seat,
                                                       now=now)
            else:
                seat = admit(table, user_id=user_id, seat=seat, expected_version=expected_version,
                             host_action=engine.is_host_action(action.get("type")), manager=manager)
            try:
                parsed = engine.parse_action(action)
            except ValidationError as exc:
                raise TableError("table.bad_action", game_id=game_id) from exc
            # the announcement names who was late at the state the time limit ran out on
            announce = timeout_announcement(engine, table.state, seat) if timed_out else []
            step = engine.apply(table.state, seat, parsed)
            outcome = engine.outcome(step.state)
            seat_steps = steps_since_decision(table, step.state, parsed)
            before = table
            if is_seat_change(parsed):  # who plays the seat changes: the seats (and maybe the game's end)
                table = await change_seat(session, table, action, user_id, now)
                outcome = abandoned_outcome(table)
            elif outcome is not None:
                moves = [(a.seat, a.action) for a in await games.actions_of(session, game_id)]
                outcome = await settle(session, table, outcome, [*moves, (seat, engine.dump_action(parsed))], now)
            status = "finished" if outcome else "cancelled" if engine.closed(step.state) else table.status
            values: dict[str, Any] = {"state": engine.dump_state(step.state), "seat_steps": seat_steps}
            if status != table.status:
                values |= {"status": status, "finished_at": now}
            if outcome is not None:
                values["outcome"] = outcome.model_dump(mode="json")
            after = replace(table, state=step.state, version=table.version + 1, updated_at=now,
                            seat_steps=seat_steps, status=status, outcome=outcome,
                            finished_at=now if status != table.status else table.finished_at)
            # (the timers the step supersedes are left to the claim's filter: no statement of their own)
            values["decision_opened"] = after.decision_opened
            claim = await self._commit_guarded(session, table, messages=handed is not None, claim=True, **values)
            await games.append_action(session, game_id, seat, user_id, engine.dump_action(parsed), now,
                                      timed_out=timed_out)
            if outcome is not None and outcome.reason != ABANDONED:  # an abandoned game scores nothing
                await scores.record_outcome(session, table, table.seats, outcome, now)  # (as read: no read again)
            lapsed = 0
            if status != table.status:  # (a standing offer's handler strips its button)
                lapsed = await timers.disarm_game(session, game_id, now, lapse=(OFFER_TIMER,))
            elif isinstance(parsed, PauseGame):
                await timers.hold_game(session, game_id, now, keep=(RETRY_TIMER,), superseded=self._superseded)
            elif isinstance(parsed, ResumeGame):
                await timers.release_game(session, game_id, now, self._superseded)
            table = after
            events = [*announce, *step.events]
            # what the turn ping needs to know (only then is the public view compared)
            shown = any(e.audience.kind == "public" for e in events) or (
                self._ping is not None and status == "active"
                and engine.view(before.state, None) != engine.view(step.state, None))
            handoff = replace(await self._record(session, table, events, shown=shown, claim=claim), mark=mark)
            if lapsed or is_seat_change(parsed):  # the offers it ended are due now
                handoff = replace(handoff, due=min(now, handoff.due or now))
        return handoff, ActResult(table=table, events=events, outcome=outcome)

    async def replay_check(self, game_id: int) -> bool:
        """Whether re-applying the logged actions to the seed reproduces the stored snapshot (True for a
        lobby). Raises the engine's ``IllegalAction`` when a logged action no longer applies."""
        async with self._sessions() as session:
            table = (await self._read(session, game_id))[1]
            log_rows = await games.actions_of(session, game_id)
        if table.state is None or table.seed is None:
            return True
        engine = table.engine
        # (a seat handed to someone goes by their names now: the deal was under the first ones)
        dealt = names_at_start([s.names for s in table.seats], (a.action for a in log_rows))
        seats = [SeatInfo(names=names) for names in dealt]
        rebuilt = replay(engine, engine.Options.model_validate(table.options), seats, table.seed,
                         [(a.seat, a.action) for a in log_rows])
        return engine.dump_state(rebuilt) == engine.dump_state(table.state)

    @staticmethod
    def new_seed() -> int:
        """A fresh game seed (63 bits: fits a signed BIGINT)."""
        return secrets.randbits(63)
