"""The step a delivery shows (:class:`StepInfo`, :func:`current_step`): its nonces, its per-send records (issue 22)
and what the delivery writes with its "delivered" mark. The deliverer (:mod:`bot.tables.outbox`) makes one per
delivery of a step and sets it for the ``deliver`` call.

Per-send records: a delivery resumed after a crash, however late (Discord forgets a nonce after a few minutes), must
know which messages may already exist, so it looks for them before creating them again. The step's own transaction
records the intent of its whole delivery plan with the step (:func:`plan_intent`, under the key :data:`PLANNED`:
"every message a delivery of this step creates, from a moment just before the commit"), so a step shown by the
process that committed it costs no statement or commit per message it creates, however many it creates. A step
committed without it (another step of the game was still pending, or another process holds the game's lease)
records, before creating each message, that it is creating it (the nonce and a snowflake from just before).
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Awaitable, Callable
from contextvars import ContextVar
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from bot.db.models import OutboxEntry
from bot.db.repos import live

log = logging.getLogger(__name__)

#: what a delivery writes with the step's "delivered" mark (:meth:`StepInfo.write_with`), and does after its commit
Write = Callable[[AsyncSession], Awaitable[None]]
After = Callable[[], Awaitable[None]]
#: the key of ``outbox.sent`` under which the step's transaction recorded the intent to create every message a
#: delivery of it creates (never a nonce: those start with ``o``)
PLANNED = "*"
#: how far before the step's commit a resumed delivery looks for the step's messages (as the delivery's own anchors)
SKEW = timedelta(seconds=5)
_DISCORD_EPOCH_MS = 1_420_070_400_000
#: the seat whose interaction is being answered while its move is applied (None: none; :func:`bot.replies.replying`
#: sets it): a step committed under it records it (:attr:`bot.tables.outbox.Handoff.answers`) and its delivery
#: judges that seat's confirmations by it (:attr:`StepInfo.answers`), whichever task delivers the step
ANSWERED_SEAT: ContextVar[int | None] = ContextVar("coroner_replying", default=None)


def plan_intent(at: datetime) -> dict[str, int]:
    """The ``outbox.sent`` a step committed at ``at`` starts with: the intent to create every message of its
    delivery, anchored :data:`SKEW` before ``at`` (minus a snowflake, as ``discord.utils.time_snowflake`` makes
    it): ``{"*": -snowflake}``."""
    return {PLANNED: -((int((at - SKEW).timestamp() * 1000) - _DISCORD_EPOCH_MS) << 22)}


@dataclass(frozen=True)
class StepInfo:
    """The step being delivered: its outbox id, the version it produced, its kind (``start`` or ``act``), its
    timers' deadlines by timer kind and the digest of the public view the game's table showed before it
    (``shown``: None when unknown)."""

    entry_id: int
    version: int
    kind: str = "act"
    deadlines: dict[str, datetime] = field(default_factory=dict)
    shown: str | None = None
    #: what earlier deliveries of the step recorded of the messages they created (see :meth:`created`)
    sent: dict[str, int] = field(default_factory=dict)
    #: writes the ``{nonce: message id}`` this step created so far (its ``outbox.sent``); None: nothing recorded
    record: Callable[[dict[str, int]], Awaitable[None]] | None = field(default=None, compare=False)
    #: the game's living table row as the lease's claim read it, when that is how it stands now (the step is shown
    #: as handed over, :class:`bot.tables.outbox.Handoff`); None: read it
    table_row: live.Snapshot | None = None
    #: the intent the step's own transaction recorded for every message a delivery of it creates (``sent``'s
    #: :data:`PLANNED`: minus its anchor), None: none (each message's intent is recorded before it is created)
    planned: int | None = None
    #: this is the step's first delivery (handed over by its own transaction): nothing was created yet, whatever
    #: :attr:`planned` says
    fresh: bool = False
    #: the seat whose interaction the move of this step answers (its own confirmations are that answer, not DMs:
    #: :func:`bot.replies.in_reply`), None: none, or unknown (a step read back from the outbox: then DMed)
    answers: int | None = None
    _counts: dict[str, int] = field(default_factory=dict, compare=False)
    _shows: list[str] = field(default_factory=list, compare=False)
    _unrecorded: dict[str, int] = field(default_factory=dict, compare=False)
    _writes: list[tuple[Write, After]] = field(default_factory=list, compare=False)
    _at_once: list[bool] = field(default_factory=list, compare=False)

    def write_at_once(self) -> None:
        """What this delivery writes with the mark must be committed as soon as it is shown, never held for the
        game's next move (:mod:`bot.tables.marks`): e.g. it moves the table to another message."""
        self._at_once[:] = [True]

    @property
    def at_once(self) -> bool:
        """Whether :meth:`write_at_once` was called during this delivery."""
        return bool(self._at_once)

    def write_with(self, write: Write, after: After) -> None:
        """Write ``write(session)`` in the transaction that marks this step delivered (after ``deliver`` returned,
        so a crash before it shows the step again and writes it then), and call ``after()`` once that committed."""
        self._writes.append((write, after))

    def forget_writes(self) -> None:
        """Forget every :meth:`write_with` (their transaction did not commit: the step is shown again)."""
        self._writes.clear()

    def discard(self) -> None:
        """Forget the last :meth:`write_with` (what it would have written no longer holds)."""
        if self._writes:
            self._writes.pop()

    def public_changed(self, public: dict[str, Any]) -> bool:
        """Whether ``public`` (``engine.view(state, None)``) differs from what the table showed before this step,
        whichever process showed it; ``public`` is what it shows from now on (recorded once the step is
        delivered)."""
        digest = hashlib.sha256(json.dumps(public, sort_keys=True, default=str).encode()).hexdigest()
        self._shows[:] = [digest]
        return digest != self.shown

    @property
    def shows(self) -> str | None:
        """The digest :meth:`public_changed` was last given during this delivery (None: not called)."""
        return self._shows[0] if self._shows else None

    def nonce(self, purpose: str) -> str:
        """A message nonce unique to this step, ``purpose`` (e.g. ``s`` status, ``d3`` a DM to seat 3) and
        how many messages of that purpose it sent before: the same on every delivery of the step, so Discord
        (``enforce_nonce``) returns the message it already created instead of a duplicate. At most 25 chars."""
        n = self._counts.get(purpose, 0)
        self._counts[purpose] = n + 1
        return f"o{self.entry_id}.{purpose}.{n}"[:25]

    # --- per-send records: a resumed delivery creates only what was not created (issue 22) --------------------
    def created(self, nonce: str) -> int | None:
        """What an earlier delivery of this step recorded of the message with ``nonce``: its id (> 0: created),
        minus the snowflake of a moment before it was about to be created (< 0: it may have been, see
        :meth:`creating`; every message of a step whose transaction recorded its plan's intent, :attr:`planned`,
        unless this delivery is the step's first), or None (not tried yet)."""
        known = self.sent.get(nonce)
        if known is None and self.planned is not None and not self.fresh:
            return self.planned
        return known

    def taken(self) -> set[int]:
        """The ids of the messages this delivery created or found so far (a look-back for another message of the
        step must not take one of them for it)."""
        return {m for m in (*self.sent.values(), *self._unrecorded.values()) if m > 0}

    async def creating(self, nonce: str, anchor: int) -> None:
        """About to create the message ``nonce``: record, in one statement, the messages this delivery created
        since the last record and that this one is being created (``anchor``: a snowflake from just before, so a
        delivery resumed after a crash, however late, looks for it among the messages after ``anchor`` before
        creating it again). Call :meth:`made` once it exists. Nothing is written when the step's transaction
        recorded its plan's intent (:attr:`planned`: it covers every message of the step)."""
        if self.planned is not None:
            return
        self._unrecorded[nonce] = -anchor
        if self.record is not None:
            await self.record({**self.sent, **self._unrecorded})
        self.sent.update(self._unrecorded)
        self._unrecorded.clear()

    def made(self, nonce: str, message_id: int) -> None:
        """This delivery created (or found) message ``message_id`` with ``nonce`` (recorded with the next
        :meth:`creating`, or when the delivery fails: :attr:`unrecorded`; a step marked delivered never needs
        it)."""
        self._unrecorded[nonce] = message_id

    @property
    def unrecorded(self) -> dict[str, int] | None:
        """Every message record of this step (its plan's intent, :data:`PLANNED`, included), when some are not
        written yet (None: all written)."""
        if not self._unrecorded:
            return None
        return {**({PLANNED: self.planned} if self.planned is not None else {}), **self.sent, **self._unrecorded}

    async def write(self, session: AsyncSession) -> None:
        """Write what :meth:`write_with` was given, in the caller's transaction (the one marking the step)."""
        for write, _ in self._writes:
            await write(session)

    async def done(self) -> None:
        """Call what :meth:`write_with` was given to do once the step's mark committed (best effort: logged)."""
        for _, after in self._writes:
            try:
                await after()
            except Exception:  # best effort (deleting a ping): the step is delivered
                log.exception("after delivering step %s", self.entry_id)


_STEP: ContextVar[StepInfo | None] = ContextVar("coroner_delivering_step", default=None)


def current_step() -> StepInfo | None:
    """The step the running ``deliver`` call shows (None outside a delivery)."""
    return _STEP.get()


def step_info(entry: OutboxEntry, shown: str | None,
              record: Callable[[dict[str, int]], Awaitable[None]] | None = None,
              table_row: live.Snapshot | None = None, *, fresh: bool = False,
              answers: int | None = None) -> StepInfo:
    """The :class:`StepInfo` of delivering ``entry`` (``fresh``: its first delivery, handed over by the
    transaction that committed it; ``answers``: :attr:`StepInfo.answers`)."""
    deadlines: dict[str, datetime] = {}
    for timer in entry.timers:
        deadlines.setdefault(timer["kind"], datetime.fromisoformat(timer["due_at"]))
    sent = {str(nonce): int(message_id) for nonce, message_id in (entry.sent or {}).items()}
    planned = sent.pop(PLANNED, None)
    return StepInfo(entry.id, entry.version, entry.kind, deadlines, shown, sent, record, table_row, planned, fresh,
                    answers)


def set_step(step: StepInfo | None) -> Any:
    """Make ``step`` the one :func:`current_step` returns; returns the token :func:`reset_step` takes."""
    return _STEP.set(step)


def reset_step(token: Any) -> None:
    _STEP.reset(token)
