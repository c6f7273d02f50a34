"""The README documents every command and setting: its tables are compared with the registered command tree, the
process settings model and the per-server settings declaration."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from discord import app_commands

from bot.bot import CoronerBot
from bot.cogs.lobby.options import game_options
from bot.guild_config import GuildConfig, choices, limits
from bot.i18n.catalog import load_language
from bot.settings import Settings, default_text
from bot.timers import TimerRunner
from games.core import all_games, get_engine

README = (Path(__file__).resolve().parents[2] / "README.md").read_text()


def table_after(heading: str, header: str) -> list[list[str]]:
    """The rows (cells stripped) of the first table whose header row starts with ``header`` after ``heading``."""
    text = README[README.index(heading):]
    lines = text[text.index(header):].splitlines()
    rows = []
    for line in lines[2:]:
        if not line.startswith("|"):
            break
        rows.append([cell.strip() for cell in line.strip("|").split("|")])
    return rows


async def registered_commands() -> dict[str, app_commands.Command]:
    """Every leaf slash command the bot registers, by qualified name (``config gamechannel add``)."""
    bot = CoronerBot(Settings(_env_file=None, discord_token="x"))
    bot.timers = TimerRunner(bot)  # the cogs only register their timer handlers (never started here)
    await bot.load_plugins()
    return {c.qualified_name: c for c in bot.tree.walk_commands() if isinstance(c, app_commands.Command)}


def documented_commands(known: set[str]) -> set[str]:
    """The commands named in the README's Commands table: each backticked ``/name sub ...`` is read word by word
    while the words continue a registered command's name (the rest are its options)."""
    groups = {" ".join(name.split()[:i]) for name in known for i in range(1, len(name.split()))}
    found = set()
    for row in table_after("## Commands", "| command |"):
        for code in re.findall(r"`/([^`]+)`", row[0]):
            words, name = code.split(), ""
            for word in words:
                candidate = f"{name} {word}".strip()
                if candidate not in known and candidate not in groups:
                    break
                name = candidate
            found.add(name or words[0])
    return found


async def test_every_command_is_in_the_readme_and_no_other() -> None:
    """The Commands table names exactly the registered slash commands (every /config subcommand included; the
    ``/newgame <game>`` subcommands, one per registered game, are its one ``/newgame`` row)."""
    known = {"newgame" if name.startswith("newgame ") else name for name in await registered_commands()}
    documented = documented_commands(known)
    assert sorted(known - documented) == [], "registered but missing from the README's Commands table"
    assert sorted(documented - known) == [], "in the README's Commands table but not registered"


async def test_every_lobby_option_of_a_shipped_game_is_in_the_readme() -> None:
    """The games table names each /newgame option of every shipped game (with ``rounds`` for points series)."""
    await registered_commands()  # the games' UIs are registered (they say which modes play series)
    games = {info.id: info for info in all_games() if type(get_engine(info.id, info.modes[0].id)).__module__
             .startswith("games.")}
    rows = dict(_game_rows(table_after("# Coroner", "| game |")))
    assert sorted(rows) == sorted(games)
    for info in games.values():
        row = " ".join(rows[info.id])
        missing = [o.name for o in game_options(info) if f"`{o.name}`" not in row]
        assert missing == [], info.id


def _game_rows(rows: list[list[str]]) -> list[tuple[str, list[str]]]:
    """The games table's rows grouped by game (a row with an empty first cell continues the game above), each
    named by the game id its first row's mode list starts with (``/newgame <id>``)."""
    grouped: list[tuple[str, list[str]]] = []
    for cells in rows:
        if cells[0] and (found := re.search(r"`/newgame (\w+)", " ".join(cells))):
            grouped.append((found.group(1), list(cells)))
        elif grouped:
            grouped[-1][1].extend(cells)
    return grouped


def test_every_process_setting_is_in_the_readme_with_its_default() -> None:
    """The Settings table lists exactly the Settings fields, each with the model's default."""
    rows = {re.sub(r"[`\s]", "", row[0]): row[1] for row in table_after("## Settings", "| setting |")}
    assert sorted(rows) == sorted(name.upper() for name in Settings.model_fields)
    for name in Settings.model_fields:
        if Settings.model_fields[name].default is not None:
            assert f"`{default_text(name)}`" == rows[name.upper()], name


def test_every_server_setting_is_in_the_readme_with_its_default_and_limits() -> None:
    """The per-server table has one row per GuildConfig field (by its English label) with the declared default
    and limits."""
    labels = {load_language("en")[f"config.key.{name}"]: name for name in GuildConfig.model_fields}
    rows = {row[0]: row for row in table_after("Per-server settings", "| setting | set with |")}
    assert sorted(rows) == sorted(labels)
    for label, (_, command, default, bounds) in rows.items():
        name = labels[label]
        declared = GuildConfig.model_fields[name].get_default(call_default_factory=True)
        if declared not in (None, []):
            assert default == f"`{declared}`", name
        if (pair := limits(name)) is not None:
            assert bounds == f"{pair[0]}-{pair[1]}", name
        if options := choices(name):
            assert bounds == ", ".join(f"`{o}`" for o in options), name
        assert command.startswith("`/config "), name


@pytest.mark.parametrize("subcommand", ["run", "migrate", "check"])
def test_every_cli_subcommand_is_in_the_readme(subcommand: str) -> None:
    """The README's subcommand table names each `coroner` subcommand."""
    assert f"| `coroner {subcommand}` |" in README
