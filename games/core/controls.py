"""The host's controls every game has, owned by the contract (:class:`games.core.Engine`), not by each game:
pause, resume and close (a running game cancelled by its host).

They are actions of the game like any other (sent as ``HOST_SEAT``, logged, replayed, shown in the history), but
the contract applies them itself, before the game's own step: a game only declares its state as a
:class:`Controlled` model (it gets the :class:`Controls` field) and, when it keeps time of its own, shifts its
deadlines in :meth:`games.core.Engine.resumed`.

* While paused nothing but ``resume`` is accepted (``core.is_paused``), the game's own clock has nothing due
  (:meth:`games.core.Engine.due`) and the adapter holds every timer of the game; ``resume`` gives each the time it
  had left (the game's own deadlines move by the time spent paused).
* A closed game is over without a result (no winner, no scores): its public view reveals what a finished game
  reveals (each game's view asks :func:`cancelled`).
* The controls do not close the decision the game waits on: a control drawn for it before a pause still stands
  after the resume, and its time limit runs on (:attr:`Controls.steps`).
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal

from pydantic import AwareDatetime, BaseModel, Field

from games.core.copying import SETTLED

#: the longest name a control carries (Discord's display names are at most 32 characters)
NAME_LENGTH = 32


class PauseGame(BaseModel):
    """The host pauses the game at ``at``; ``by`` is the name the table shows ("Paused by <by>")."""

    type: Literal["pause"] = "pause"
    at: AwareDatetime
    by: str = Field(max_length=NAME_LENGTH)


class ResumeGame(BaseModel):
    """The host resumes a paused game at ``at``."""

    type: Literal["resume"] = "resume"
    at: AwareDatetime
    by: str = Field(max_length=NAME_LENGTH)


class CloseGame(BaseModel):
    """The host (or a server manager) cancels the running game at ``at``: it ends with no result, revealed."""

    type: Literal["close"] = "close"
    at: AwareDatetime
    by: str = Field(max_length=NAME_LENGTH)


Control = Annotated[PauseGame | ResumeGame | CloseGame, Field(discriminator="type")]
#: the action ``type`` s of the controls (host actions of every game)
CONTROL_TYPES: frozenset[str] = frozenset({"pause", "resume", "close"})


class Paused(BaseModel):
    """Since when the game is paused (``at``, aware) and by whom (a name)."""

    at: AwareDatetime
    by: str


class Closed(BaseModel):
    """When the game was cancelled (``at``) and by whom (a name)."""

    at: AwareDatetime
    by: str


class Controls(BaseModel):
    """What the host's controls did to a game: ``paused`` (None: running), ``closed`` (None: not cancelled) and
    ``steps``: how many control steps were taken since the decision the game waits on opened (the table's version
    moved by that many while the decision stayed the same: see :meth:`games.core.Engine.decision_age`)."""

    paused: Paused | None = None
    closed: Closed | None = None
    steps: int = Field(default=0, ge=0)


class Controlled(BaseModel):
    """The base of every game's state: its :class:`Controls`."""

    # the contract replaces it with a new one whenever it changes (:meth:`games.core.Engine.apply`), never in place
    controls: Annotated[Controls, SETTLED] = Field(default_factory=Controls)


def paused_for(paused: Paused, at: datetime) -> float:
    """Seconds from ``paused.at`` to ``at`` (never negative)."""
    return max(0.0, (at - paused.at).total_seconds())


def cancelled(state: Controlled) -> bool:
    """Whether the host cancelled the running game (its views then reveal what a finished game reveals)."""
    return state.controls.closed is not None
