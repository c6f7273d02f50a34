"""The one way tests open a lobby through the Discord double: ``/newgame <game> mode:<mode> <option>:<value> ...``
(typed options, one subcommand per game; see ``bot/cogs/lobby/newgame.py``). Change the command's shape here and
every test follows.

The shape from before typed options, ``player.slash(channel, "newgame", {"game": g, "mode": m, ...})``, still
works where :func:`older_shape` is installed on the double (the e2e ``world`` fixture does it); a free-text
``options`` is refused with a message naming :func:`newgame`.
"""

from __future__ import annotations

from typing import Any

from tests.discord_double import Channel, InteractionHandle, User


def newgame_call(game: str, mode: str | None, options: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """The double's ``slash`` arguments for opening ``game`` in ``mode`` (``None``: left out, as a player may for a
    game with one mode) with typed ``options`` (by name)."""
    return f"newgame {game}", ({"mode": mode} if mode is not None else {}) | options


async def newgame(player: User, channel: Channel, game: str, mode: str | None, /,
                  **options: Any) -> InteractionHandle:
    """``player`` runs ``/newgame <game>`` in ``channel`` with ``mode`` (``None``: left out) and typed ``options``
    (``rounds=3``, ``side="B"``, ``cheese_variant=True``...)."""
    command, given = newgame_call(game, mode, options)
    return await player.slash(channel, command, given)


def older_shape(command: str, given: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """``("newgame", {"game": g, "mode": m, **typed})`` -> the typed call; anything else unchanged. Raises
    ``ValueError`` for a free-text ``options`` (write the options typed, through :func:`newgame`)."""
    if command != "newgame" or "game" not in given:
        return command, given
    rest = dict(given)
    if "options" in rest:
        raise ValueError(f"/newgame has no free-text options any more ({rest['options']!r}): call "
                         "tests.support.newgame.newgame(player, channel, game, mode, name=value, ...)")
    game, mode = rest.pop("game"), rest.pop("mode")
    return newgame_call(game, mode, rest)
