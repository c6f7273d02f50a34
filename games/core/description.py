"""What a game declares about itself, read by the lobby and the adapter without probing for optional hooks: its
modes (:class:`GameInfo`, :class:`ModeInfo`), which options the server fills in (:data:`SERVER_SETTING`) and what it
has beyond the contract (:class:`Features`). Import them from :mod:`games.core`."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class ServerSetting:
    """Marks a field of an engine's ``Options`` that the adapter fills in at start from the server's settings (the
    social mode's day length, say), so the lobby does not offer it as a choice:
    ``day_length_minutes: Annotated[int, SERVER_SETTING] = Field(default=1440, ge=10)``. Every other field is a
    lobby option (``/newgame <game>`` gets a typed parameter for it, see ``games/README.md``)."""

    def __repr__(self) -> str:
        return "SERVER_SETTING"


#: the one :class:`ServerSetting` marker
SERVER_SETTING = ServerSetting()


class ModeInfo(BaseModel):
    """A playable mode of a game: its id (named in the catalogues as ``mode.<game>.<id>``) and its player-count
    limits (inclusive)."""

    id: str
    min_players: int
    max_players: int


class GameInfo(BaseModel):
    """A game as the lobby lists it: its id (named in the catalogues as ``game.<id>``) and its modes."""

    id: str
    modes: list[ModeInfo]

    def mode(self, mode_id: str) -> ModeInfo:
        """The mode ``mode_id``. Raises ``KeyError`` when the game has no such mode."""
        for mode in self.modes:
            if mode.id == mode_id:
                return mode
        raise KeyError(mode_id)


class Features(BaseModel):
    """What a game has beyond the contract every engine implements, declared once on the engine class
    (``features: ClassVar[Features] = Features(...)``) so the adapter never probes for optional hooks.

    * ``clock``: the game keeps its own time: :meth:`Engine.due` gives the actions it makes at a moment (the social
      mode's day end), which the bot's timers and ``coroner simulate`` apply as ``SYSTEM_SEAT``.
    * ``timeouts``: :meth:`Engine.timeout_action` gives the default move when a player's time runs out.
    * ``clock_actions``: the action ``type`` s only the game itself sends (as ``SYSTEM_SEAT``: its clock, a time
      limit's default); anyone else gets ``system_only``.
    * ``host_actions``: the action ``type`` s only the table's host sends (as ``HOST_SEAT``; the game's own seat
      may too); a player gets ``host_only``.
    * ``ai``: the game has its own computer players (a policy registered in ``games/<game>/ai.py``), else they play
      random legal moves.
    * ``series``: the mode plays points series (the lobby offers ``rounds``; each round's :attr:`Outcome.scores`
      add up, and the UI's ``series_embed`` shows the standings).
    """

    model_config = ConfigDict(frozen=True)

    clock: bool = False
    timeouts: bool = False
    clock_actions: frozenset[str] = frozenset()
    host_actions: frozenset[str] = frozenset()
    system_only: str = "core.system_only"
    host_only: str = "core.host_only"
    ai: bool = False
    series: bool = False
