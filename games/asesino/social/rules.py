"""Shared guards and the event context of the social-mode handlers.

Every guard raises :class:`~games.core.IllegalAction` with an ``asesino_social.*`` code and reads the state
only; handlers mutate the deep copy that :meth:`SocialEngine.apply` hands them in a :class:`Ctx`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from games.asesino.social.roles import SocialRole
from games.asesino.social.state import SocialState
from games.core import Audience, Event, IllegalAction

PROSECUTOR_JUDGEMENTS = 2  # rulebook "Special Characters", Prosecutor
RESPECTED_JUDGEMENTS = 1  # our ruling: each respected player takes part in 1 judgement a day
JUDGEMENT_BACKERS = 3  # rulebook "Judgement": a group of 3 or more, the opener included


@dataclass
class Ctx:
    """One action being applied: the (copied) state, the actor, the time, the events produced so far, and the
    timeline fields (``target``, ``detail``, ``ref``) the handler fills in."""

    state: SocialState
    seat: int
    at: datetime
    events: list[Event] = field(default_factory=list)
    target: int | None = None
    detail: str | None = None
    ref: int | None = None

    def tell(self, seats: list[int], key: str, /, **params: Any) -> None:
        """A private event to ``seats`` (one DM each), also kept in each seat's inbox for the private view."""
        self.events.append(Event(key=key, params=params, audience=Audience.to(*seats)))
        for seat in seats:
            self.state.seats[seat].inbox.append({"day": self.state.day, "key": key, "params": params})

    def announce(self, key: str, /, *, medium: bool = False, **params: Any) -> None:
        """A public event (the game channel), or one for the official medium."""
        audience = Audience.medium() if medium else Audience.public()
        self.events.append(Event(key=key, params=params, audience=audience))


def require_player(state: SocialState, seat: int) -> None:
    if not 0 <= seat < state.players:
        raise IllegalAction("asesino_social.not_a_player", seat=seat)


def require_alive(state: SocialState, seat: int) -> None:
    """The dead may only write their Farewell Letter, and only on their day of death."""
    player = state.seats[seat]
    if not player.alive:
        if player.died_day == state.day:
            raise IllegalAction("asesino_social.dead_may_write_letter")
        raise IllegalAction("asesino_social.dead")


def require_respected(state: SocialState, seat: int) -> None:
    """Alive and never judged (a judged player keeps their character's powers but loses judgements and posts)."""
    require_alive(state, seat)
    if state.seats[seat].judged_day is not None:
        raise IllegalAction("asesino_social.deprived")


def require_power(state: SocialState, seat: int, role: SocialRole) -> None:
    """``seat`` holds ``role``'s power and is alive."""
    require_alive(state, seat)
    if state.seat_with_power(role) != seat:
        raise IllegalAction("asesino_social.not_your_role", role=role.value)


def require_target(state: SocialState, seat: int, target: int) -> None:
    """``target`` is another living player."""
    if not 0 <= target < state.players:
        raise IllegalAction("asesino_social.no_such_player", seat_params=("target",), target=target)
    if target == seat:
        raise IllegalAction("asesino_social.target_self")
    if not state.seats[target].alive:
        raise IllegalAction("asesino_social.target_dead", seat_params=("target",), target=target)


def judgement_limit(state: SocialState, seat: int) -> int:
    """How many judgements ``seat`` may take part in a day (the Prosecutor 2, anyone else 1)."""
    return PROSECUTOR_JUDGEMENTS if state.seat_with_power(SocialRole.PROSECUTOR) == seat else RESPECTED_JUDGEMENTS


def judgements_left(state: SocialState, seat: int) -> int:
    return max(0, judgement_limit(state, seat) - state.today.judgements.get(seat, 0))


def interview_pair(state: SocialState) -> tuple[int, ...]:
    """``(journalist, interviewee)`` while today's interview is open (both alive), else ``()``: the two seats
    whose words the bot relays to each other."""
    journalist = state.seat_with_power(SocialRole.JOURNALIST)
    target = state.today.interview
    if journalist is None or target is None or not state.seats[journalist].alive or not state.seats[target].alive:
        return ()
    return (journalist, target)


def may_write_letter(state: SocialState, seat: int) -> bool:
    """A Farewell Letter is due on the day of one's death or of a judgement that stood against one, and on the day
    the Doctor saved one (ruling: "A player the Doctor saved that day may write one too")."""
    player = state.seats[seat]
    return ((not player.alive and player.died_day == state.day) or player.judged_day == state.day
            or (player.alive and seat in state.today.saved))


def may_send_clue(state: SocialState, seat: int) -> bool:
    """A murdered player, after the day of their death (ruling "A clue from beyond")."""
    player = state.seats[seat]
    return not player.alive and player.died_day is not None and player.died_day < state.day


def dead_reason(state: SocialState, seat: int) -> str:
    """What dead ``seat`` may still do today, as a message code: write its Farewell Letter
    (``asesino_social.dead_may_write_letter``), send a clue from beyond (``asesino_social.dead_may_send_clue``), or
    nothing (``asesino_social.dead``)."""
    if may_write_letter(state, seat):
        return "asesino_social.dead_may_write_letter"
    return "asesino_social.dead_may_send_clue" if may_send_clue(state, seat) else "asesino_social.dead"


def idle_reason(state: SocialState, seat: int) -> str:
    """Why ``seat`` has no action today, as a message code: :func:`dead_reason` for a dead player, else
    ``asesino_social.nothing_today`` (its night action is spent or its role has none)."""
    return dead_reason(state, seat) if not state.seats[seat].alive else "asesino_social.nothing_today"


def drop_backer(state: SocialState, seat: int) -> None:
    """``seat`` died or was judged: it no longer counts toward any open judgement (ruling "Judgement": "a backer
    who dies or is judged before the judgement stands no longer counts toward its 3")."""
    for judgement in state.judgements:
        if judgement.status == "open" and seat in judgement.backers:
            judgement.backers.remove(seat)
