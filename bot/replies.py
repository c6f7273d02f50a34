"""An actor's own confirmation is the answer to the interaction that made the move, never a DM (issue 20: every mode
gets the card modes' REST budget; an interaction's answer and its follow-ups cost nothing of the bot's 50 requests
a second, a DM costs one or two).

A game UI declares which of its seat events only confirm a move to the player who made it (e.g. a Peek's card, a
Detective's inspection); while :func:`replying` to that player's interaction, such an event addressed to their seat
alone (or to a group with it: then for that seat only, the others get their DM) is an echo
(:meth:`bot.ui.GameUI.echoes`: the delivery sends no DM for it) and the UI puts it in the interaction's answer
(:func:`own_events`) instead. The step committed under :func:`replying` records the seat it answers
(:attr:`bot.tables.step.StepInfo.answers`), so whichever task delivers it (the select's own, or a drain already
showing an earlier step of the game) treats that seat's confirmations as echoes, and an earlier step the select's task
delivers is judged by its own record. A move made otherwise (by DM, by a time limit, by the computer for an away
seat), or a step read back after a restart, gets its DM as before: it is never lost, at worst said twice. The same
text stays in the player's "My secrets".
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager

from bot.tables.step import ANSWERED_SEAT, current_step
from games.core import Event

#: the seat whose interaction is being answered while its move is applied (None: no such answer)
REPLYING = ANSWERED_SEAT


@contextmanager
def replying(seat: int | None) -> Iterator[None]:
    """While inside, ``seat``'s own confirmations (see :func:`in_reply`) are answered, not DMed."""
    token = REPLYING.set(seat)
    try:
        yield
    finally:
        REPLYING.reset(token)


def in_reply(event: Event, keys: frozenset[str]) -> bool:
    """Whether ``event`` is a confirmation (its key one of ``keys``) for the seat being answered alone, so it goes in
    that interaction's answer rather than by DM (an event to a group is asked about for each of its seats alone:
    :func:`bot.delivery.split_events`). During a step's delivery the seat is the one that step answers
    (:attr:`~bot.tables.step.StepInfo.answers`), whichever task delivers it; outside one, the one being
    :func:`replying` to."""
    step = current_step()
    seat = step.answers if step is not None else REPLYING.get()
    return seat is not None and event.key in keys and event.audience.seats == (seat,)


def own_events(events: Iterable[Event], seat: int, keys: frozenset[str]) -> list[Event]:
    """The confirmations (keys in ``keys``) among a step's ``events`` addressed to ``seat`` (alone, or in a group
    whose other seats get their DM): what its interaction's answer shows, in order."""
    return [e for e in events if e.key in keys and e.audience.kind == "seats" and seat in e.audience.seats]
