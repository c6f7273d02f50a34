"""The working surface the pipeline and the effects share: a state being changed, the events produced, and the
card moves (draw, discard, leave play) every rule uses. The engine copies the state first, so an action that is
refused half-way leaves the caller's state untouched."""

from __future__ import annotations

from functools import cache
from typing import Any

from games.core import Audience, Event, rng_for
from games.core.copying import deep_copy, unchecked
from games.lets_kill.cards import CARDS
from games.lets_kill.models import Incident, LetsKillState, LocationInPlay, Task

PUBLIC = Audience.public()
HAND_SIZE = 5
_SAID, _TOLD, _TASK = frozenset({"key", "params"}), frozenset({"key", "params", "audience"}), frozenset({"op", "args"})


@cache  # a queued task is never changed (popped whole, its arguments only read): one per operation, shared
def bare_task(op: str) -> Task:
    """The agenda task ``op`` with no arguments."""
    return unchecked(Task, {"op": op, "args": {}}, _TASK)


class Flow:
    """``state`` is mutated in place; ``events`` collects what happened, in order."""

    def __init__(self, state: LetsKillState) -> None:
        self.state = state
        self.events: list[Event] = []
        self._owned: dict[int, Any] = {}  # id -> the Locations and Incidents copied by this step (kept alive)

    # -------------------------------------------------------------- events
    # an event, a task: built unchecked from what the rules hold (validating them was a tenth of a move)
    def say(self, key: str, **params: Any) -> None:
        self.events.append(unchecked(Event, {"key": f"lets_kill.{key}", "params": params, "audience": PUBLIC,
                                             "seat_params": ()}, _SAID))

    def tell(self, seat: int, key: str, **params: Any) -> None:
        self.events.append(unchecked(Event, {"key": f"lets_kill.{key}", "params": params,
                                             "audience": Audience.to(seat), "seat_params": ()}, _TOLD))

    # -------------------------------------------------------------- agenda
    def push(self, *tasks: Task) -> None:
        """Put ``tasks`` at the front of the agenda, in the given order."""
        self.state.agenda[0:0] = list(tasks)

    def task(self, op: str, **args: Any) -> Task:
        return unchecked(Task, {"op": op, "args": args}, _TASK) if args else bare_task(op)

    # -------------------------------------------------------------- cards
    @property
    def players(self) -> int:
        return len(self.state.seats)

    def left_of(self, seat: int) -> int:
        return (seat + 1) % self.players

    def order_from_left(self, seat: int) -> list[int]:
        """Every other seat in seating order from ``seat``'s left."""
        return [(seat + k) % self.players for k in range(1, self.players)]

    def draw(self, seat: int, n: int) -> list[str]:
        """``seat`` draws up to ``n`` Let's Kill cards (fewer when the deck runs out, LK-06)."""
        drawn = self.state.lk_deck[:n]
        del self.state.lk_deck[:n]
        self.state.hands[seat].extend(drawn)
        if drawn:
            self.say("drew", seat=seat, count=len(drawn))
        return drawn

    def discard_from_hand(self, seat: int, cards: list[str]) -> None:
        for card_id in cards:
            self.state.hands[seat].remove(card_id)
            self.state.lk_discard.append(card_id)

    def discard(self, card_id: str) -> None:
        """Put a card that is out of every hand and play zone on its deck's discard pile."""
        pile = self.state.victims_discard if CARDS[card_id].deck == "victims" else self.state.lk_discard
        pile.append(card_id)

    def random_pick(self, cards: list[str], n: int) -> list[str]:
        """``n`` cards chosen uniformly by the bot, from the game's seeded generator (``rng_counter`` advances)."""
        self.state.rng_counter += 1
        rng = rng_for(self.state.seed, "pick", self.state.rng_counter)
        return rng.sample(cards, min(n, len(cards)))

    def remove_victim(self, victim: str) -> None:
        """Take ``victim`` out of the play area (its Surprise stays attached in ``state.surprises``)."""
        if victim in self.state.town:
            self.state.town.remove(victim)
        for loc in self.state.locations:
            if victim in loc.victims:
                self.own_location(loc.card).victims.remove(victim)

    def to_town(self, victim: str) -> None:
        self.remove_victim(victim)
        self.state.town.append(victim)

    def to_location(self, victim: str, loc_id: str) -> None:
        self.remove_victim(victim)
        self.own_location(loc_id).victims.append(victim)

    def leave_play(self, victim: str) -> None:
        """The Victim goes home: to the Victims discard pile, its face-down Surprise (if any) discarded."""
        self.remove_victim(victim)
        self.state.victims_discard.append(victim)
        self.state.placers.pop(victim, None)
        surprise = self.state.surprises.pop(victim, None)
        if surprise:
            self.forget(surprise)
            self.state.lk_discard.append(surprise)
            self.state.face_down.append(surprise)  # never revealed (README ruling 8)

    # -------------------------------------------------------------- copy on write
    def own_location(self, loc_id: str) -> LocationInPlay:
        """The Location ``loc_id`` in play (it must be), to change in place: see :meth:`_own`."""
        locations = self.state.locations
        return self._own(locations, next(i for i, loc in enumerate(locations) if loc.card == loc_id))

    def own_incident(self, inc_id: int | None) -> Incident:
        """The Incident ``inc_id`` (it must exist), to change in place: see :meth:`_own`."""
        incidents = self.state.incidents
        return self._own(incidents, next(i for i, inc in enumerate(incidents) if inc.id == inc_id))

    def _own(self, items: list[Any], index: int) -> Any:
        """``items[index]``, replaced by a copy the first time this step asks: a step's state shares its Locations
        and Incidents with the state it was copied from (they are declared ``SETTLED``:
        :func:`games.core.copying.step_copy`), so whatever changes one in place changes this step's own copy."""
        item = items[index]
        if id(item) not in self._owned:
            item = items[index] = deep_copy(item)
            self._owned[id(item)] = item
        return item

    def forget(self, surprise: str) -> None:
        every = self.state.known
        for seat, known in enumerate(every):
            if surprise in known:  # a seat's list is shared with the state this step copies: replaced
                every[seat] = known = list(known)
                known.remove(surprise)

    def end(self, reason: str) -> None:
        """End the game now (LK-30..33)."""
        state = self.state
        state.ended = reason
        state.agenda.clear()
        state.pending = None
