"""``/newgame <game>``: one subcommand per registered game, built at load time from its engines' ``Options``.

Design (Discord: at most 25 subcommands, 25 options each, descriptions of at most 100 characters; discord.py: an
:class:`~discord.app_commands.Group` of :class:`~discord.app_commands.Command` objects whose parameters come from the
callback's signature): ``/newgame`` is a group; each game is a subcommand named by its id whose parameters are
``mode`` (the game's modes as choices, named with their player counts; optional when the game has one mode) and
the union of its modes' lobby options (:func:`bot.cogs.lobby.options.game_options`): whole numbers with Discord's
minimum and maximum from the field's constraints, choices for ``Literal``/``Enum`` fields, booleans, ``rounds`` for
points series, and last ``starts_in`` (minutes: book the lobby to open later, :mod:`bot.cogs.lobby.scheduled`).
A free-text option is autocompleted by its mode's UI (:meth:`bot.ui.GameUI.option_suggestions`: the social mode's
``special_roles`` from the role table).
Names and descriptions are localised through the catalogues (:func:`bot.i18n.translator.rendered`).
An option given for a mode that does not have it, and every value, is checked when the lobby opens with the
store's own validators (:mod:`bot.tables.options`), so a dropped-in game gets its parameters with no edit here.
"""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import locale_str as _

from bot.cogs.lobby.options import LobbyOption, game_options
from bot.cogs.lobby.scheduled import STARTS_IN
from bot.i18n import t
from bot.i18n.translator import rendered
from bot.tables.options import MAX_STARTS_IN
from bot.ui import ui_for
from games.core import GameInfo, all_games, get_game

#: Discord's limits on a command's subcommands, a subcommand's options and an autocomplete's choices
MAX_SUBCOMMANDS = MAX_OPTIONS = MAX_CHOICES = 25
#: Discord's longest choice name and value
CHOICE_MAX = 100
#: opens the lobby: (interaction, game, mode, the options given, by name)
OpenGame = Callable[[discord.Interaction, str, str, dict[str, Any]], Awaitable[None]]


def newgame_group(open_game: OpenGame) -> app_commands.Group:
    """The ``/newgame`` group with a subcommand per registered game (as :func:`games.core.all_games` lists them
    now: build it once every game is registered). Raises ``ValueError`` past Discord's 25 games."""
    group = app_commands.Group(name="newgame", description=_("Open a lobby for a new game in this channel"),
                               guild_only=True)
    games = all_games()
    if len(games) > MAX_SUBCOMMANDS:
        raise ValueError(f"/newgame can list {MAX_SUBCOMMANDS} games, not {len(games)}")
    for info in games:
        group.add_command(game_command(info, open_game))
    return group


def mode_label(game: str, mode: str, language: str) -> str:
    """A mode as the ``mode`` choice names it: ``Tabletop (5-10 players)``."""
    info = get_game(game).mode(mode)
    return t("lobby.mode_choice", language, mode=t(f"mode.{game}.{mode}", language), min=info.min_players,
             max=info.max_players)[:100]


def _annotation(option: LobbyOption) -> Any:
    """The parameter's type as discord.py reads it: ``Range[int, 1, 10]`` when bounded, ``Range[str, None, 200]``
    for a text with a longest, else the plain type."""
    if option.kind in (int, float) and not option.choices and (option.minimum, option.maximum) != (None, None):
        return app_commands.Range[option.kind, option.minimum, option.maximum]  # type: ignore[valid-type]
    if option.kind is str and not option.choices and option.length is not None:
        return app_commands.Range[str, None, option.length]
    return option.kind


def game_command(info: GameInfo, open_game: OpenGame) -> app_commands.Command[Any, ..., None]:
    """``/newgame <game>``: ``mode`` then the game's options, each optional (a value not given keeps the
    engine's default). Raises ``ValueError`` past Discord's 25 options."""
    options = game_options(info)
    if len(options) + 2 > MAX_OPTIONS:
        raise ValueError(f"/newgame {info.id} has {len(options) + 2} options; Discord allows {MAX_OPTIONS}")
    single = len(info.modes) == 1

    async def callback(interaction: discord.Interaction, **given: Any) -> None:
        mode = given.pop("mode", None) or info.modes[0].id
        await open_game(interaction, info.id, mode, {k: v for k, v in given.items() if v is not None})

    mode = inspect.Parameter("mode", inspect.Parameter.KEYWORD_ONLY, annotation=str,
                             default=info.modes[0].id if single else inspect.Parameter.empty)
    callback.__signature__ = inspect.Signature([  # type: ignore[attr-defined]
        inspect.Parameter("interaction", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=discord.Interaction),
        mode, *(inspect.Parameter(o.name, inspect.Parameter.KEYWORD_ONLY, annotation=_annotation(o), default=None)
                for o in options),
        inspect.Parameter(STARTS_IN, inspect.Parameter.KEYWORD_ONLY, default=None,
                          annotation=app_commands.Range[int, 1, MAX_STARTS_IN])])
    app_commands.describe(mode=_("The game's mode", key="cmd.newgame.mode.description"),
                          starts_in=_("Open the lobby later: in this many minutes (it pings the lobby role then)",
                                      key="cmd.newgame.starts_in.description"),
                          **{o.name: rendered(o.description) for o in options})(callback)
    app_commands.rename(mode=_("mode", key="cmd.newgame.mode.name"),
                        starts_in=_("starts_in", key="cmd.newgame.starts_in.name"),
                        **{o.name: rendered(o.label) for o in options})(callback)
    choices = {o.name: [app_commands.Choice(name=rendered(lambda lang, o=o, v=v: o.choice_label(v, lang)), value=v)
                        for v in o.choices] for o in options if o.choices}
    modes = [app_commands.Choice(name=rendered(lambda lang, m=m.id: mode_label(info.id, m, lang)), value=m.id)
             for m in info.modes]
    app_commands.choices(mode=modes, **choices)(callback)
    description = rendered(lambda language: t("lobby.newgame_game", language, game=t(f"game.{info.id}", language)))
    command = app_commands.Command(name=info.id, description=description, callback=callback)
    for option in options:
        if option.kind is str and not option.choices:
            command.autocomplete(option.name)(_suggester(info.id, option))
    return command


def _suggester(game: str, option: LobbyOption) -> Callable[[discord.Interaction, str],
                                                            Awaitable[list[app_commands.Choice[str]]]]:
    """The autocomplete of the free-text option ``option``: what the UI of the mode chosen so far (else of each
    mode that has it, the first that suggests anything) offers for the text typed, in the server's language
    (:meth:`bot.ui.GameUI.option_suggestions`), at most Discord's 25 choices of 100 characters."""

    async def suggest(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        chosen = getattr(interaction.namespace, "mode", None)
        modes = [chosen] if chosen in option.modes else list(option.modes)
        language = (await interaction.client.config(interaction.guild_id)).language  # type: ignore[attr-defined]
        for mode in modes:
            if found := ui_for(game, mode).option_suggestions(option.name, current, language):
                return [app_commands.Choice(name=name[:CHOICE_MAX], value=value[:CHOICE_MAX])
                        for name, value in found[:MAX_CHOICES]]
        return []

    return suggest

