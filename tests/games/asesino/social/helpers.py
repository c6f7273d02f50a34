"""A small driver for social-mode tests: rigged role layouts and a clock that advances one minute per action."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from games.asesino.social import ENGINE, SYSTEM_SEAT, EndDay, SocialOptions, SocialRole, SocialState
from games.core import Event, IllegalAction, SeatInfo

START = datetime(2024, 3, 1, 9, 0, tzinfo=UTC)
K, V, DET, MAN, DOC, JOU, PRO = (SocialRole.KILLER, SocialRole.VICTIM, SocialRole.DETECTIVE, SocialRole.MANIAC,
                                 SocialRole.DOCTOR, SocialRole.JOURNALIST, SocialRole.PROSECUTOR)
#: seat 0 Killer, 1-3 Victims, then Detective, Maniac, Doctor, Journalist, Prosecutor (9 players)
NINE = [K, V, V, V, DET, MAN, DOC, JOU, PRO]


def seats(count: int) -> list[SeatInfo]:
    return [SeatInfo(names=(f"user{i}", f"Player {i}", f"nick{i}")) for i in range(count)]


def rig(state: SocialState, roles: list[SocialRole]) -> SocialState:
    """``state`` with the given cards dealt in seat order (tests need known roles)."""
    new = state.model_copy(deep=True)
    for seat, role in zip(new.seats, roles, strict=True):
        seat.card = seat.role = role
    new.killer = roles.index(SocialRole.KILLER)
    return new


class Game:
    """Applies actions to a state, stamping ``at`` one minute after the previous action unless given."""

    def __init__(self, roles: list[SocialRole] | None = None, *, seed: int = 7, names: list[SeatInfo] | None = None,
                 **options: Any) -> None:
        roles = roles or NINE
        self.options = SocialOptions(started_at=START, **options)
        self.seats = names or seats(len(roles))
        self.state = rig(ENGINE.setup(self.options, self.seats, seed), roles)
        self.now = START
        self.log: list[tuple[int, dict[str, Any]]] = []
        self.events: list[Event] = []

    def act(self, seat: int, kind: type, minutes: float = 1, **fields: Any) -> list[Event]:
        """Apply ``kind(at=now + minutes, **fields)`` by ``seat``; returns its events."""
        self.now += timedelta(minutes=minutes)
        action = kind(at=self.now, **fields)
        step = ENGINE.apply(self.state, seat, action)
        self.state = step.state
        self.log.append((seat, ENGINE.dump_action(action)))
        self.events += step.events
        return step.events

    def refused(self, seat: int, kind: type, **fields: Any) -> IllegalAction:
        """The IllegalAction raised by ``kind`` (asserting the state is unchanged)."""
        before = self.state.model_dump()
        try:
            ENGINE.apply(self.state, seat, kind(at=self.now, **fields))
        except IllegalAction as exc:
            assert self.state.model_dump() == before
            return exc
        raise AssertionError(f"{kind.__name__} {fields} was accepted")

    def end_day(self) -> list[Event]:
        assert self.state.day_ends_at is not None
        self.now = self.state.day_ends_at
        return self.act(SYSTEM_SEAT, EndDay, minutes=0, day=self.state.day)


def keys(events: list[Event]) -> list[str]:
    return [event.key for event in events]


def find(events: list[Event], key: str) -> Event:
    (event,) = [event for event in events if event.key == key]
    return event
