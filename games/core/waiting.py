"""Who a game waits on (:class:`Waiting`), the one answer every engine gives to "who must act"
(:meth:`games.core.engine.Engine.waiting`). Import it from :mod:`games.core`."""

from __future__ import annotations

import functools
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field


class Waiting(BaseModel):
    """Who the game waits on, and for what decision: the one answer to "who must act" for every engine.

    ``seats``: the seats that must act now (several when they act at once). ``kind``: the decision, a game-specific
    id the adapter draws its controls from (e.g. ``turn``, ``last_words``, ``answer``). ``pace``: ``turn`` (a
    player's turn: the server's turn time limit), ``prompt`` (a short answer asked in the middle of play: the
    prompt time limit) or ``realtime`` (everyone acts freely while the game's own clock runs, e.g. a social-mode
    day: no per-move time limit and nobody is pinged; ``seats`` are those who may act). ``hidden``: who must act
    is a secret (e.g. the Prosecutor asked to accuse): the adapter names nobody in public (no mention, no public
    warning) but still arms the move timers. ``open_for``: since when this decision stands, counted in accepted
    steps: how many steps ago it was first offered (0: the last step opened it). A simultaneous decision (a Let's
    Kill! response window, say) stays open while its answers come in one step each: every answer to it is an answer
    to the same decision, so a control drawn for it at any of those steps still holds, and the time limit armed when
    it opened still runs (LK-19). The table the step made is at version ``v``: the decision opened at
    ``v - open_for``.
    """

    model_config = ConfigDict(frozen=True)

    seats: tuple[int, ...]
    kind: str = "turn"
    pace: Literal["turn", "prompt", "realtime"] = "turn"
    hidden: bool = False
    open_for: int = Field(default=0, ge=0)

    @classmethod
    def turn(cls, seat: int, kind: str = "turn") -> Waiting:
        """``seat``'s turn (decision ``kind``)."""
        return _waiting(cls, (seat,), kind, "turn", False, 0)

    @classmethod
    def prompt(cls, seat: int, kind: str) -> Waiting:
        """A question ``kind`` put to ``seat`` in the middle of play."""
        return _waiting(cls, (seat,), kind, "prompt", False, 0)

    @classmethod
    def of(cls, seats: tuple[int, ...], kind: str = "turn", pace: Literal["turn", "prompt", "realtime"] = "turn",
           hidden: bool = False, open_for: int = 0) -> Waiting:
        """``Waiting(seats=..., kind=..., ...)``, made once per distinct value: a frozen value, shared (engines ask
        who must act several times a move, and validating it each time was a tenth of a move)."""
        return _waiting(cls, seats, kind, pace, hidden, open_for)

    @property
    def pings(self) -> bool:
        """Whether the adapter mentions ``seats`` under the status and arms their move timers (not in real time)."""
        return self.pace != "realtime" and bool(self.seats)


@functools.lru_cache(maxsize=4096)
def _waiting(cls: type[Waiting], seats: tuple[int, ...], kind: str, pace: Literal["turn", "prompt", "realtime"],
             hidden: bool, open_for: int) -> Waiting:
    return cls(seats=seats, kind=kind, pace=pace, hidden=hidden, open_for=open_for)
