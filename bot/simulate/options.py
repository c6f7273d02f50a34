"""``coroner simulate --option KEY=VALUE``: a game's options given on the command line, read and checked as
``/newgame`` reads and checks them (the same limits and the same refusals, in the chosen language)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.cogs.lobby.options import ROUNDS, chosen_options, game_options
from bot.cogs.lobby.options_form import read_value
from bot.errors import UserError
from games.core import GameInfo


def simulated_options(game: GameInfo, mode: str, given: Sequence[str], language: str) -> dict[str, Any]:
    """``given`` (``["match=open", "primer_verdugo=2"]``: each option by its name or by the name Discord shows in
    ``language``) -> the options as JSON for :func:`bot.simulate.driver.play`. Raises
    :class:`~bot.errors.UserError` ``simulate.bad_option`` (not ``KEY=VALUE``) and ``lobby.option_not_in_mode``
    (an option the mode lacks, or ``rounds``: a simulation is one game), and ``TableError`` ``table.option.*``
    (a value past the option's limits), exactly as ``/newgame`` does."""
    offered = {o.name: o for o in game_options(game) if o.name != ROUNDS}
    by_label = {o.label(language).casefold(): o for o in offered.values()}
    values: dict[str, Any] = {}
    for item in given:
        key, equals, text = item.partition("=")
        if not equals or not key.strip():
            raise UserError("simulate.bad_option", option=item)
        option = offered.get(key.strip()) or by_label.get(key.strip().casefold())
        values[option.name if option else key.strip()] = read_value(option, text, language) if option else text
    options, _ = chosen_options(game, mode, values, language)
    return options
