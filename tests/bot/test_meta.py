"""Meta tests: every extension loads, commands are unique, and games/ stays free of I/O libraries."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import discord
import pytest
from discord import app_commands

from bot.bot import EXTENSIONS, CoronerBot
from bot.settings import Settings
from bot.timers import TimerRunner

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("extension", EXTENSIONS)
def test_every_extension_imports_and_has_setup(extension: str) -> None:
    """Each cog package imports and exposes the discord.py `setup` entry point."""
    module = importlib.import_module(extension)
    assert callable(module.setup)


async def test_extensions_load_and_command_names_are_unique() -> None:
    """Loading every cog registers each top-level command once, and Spanish names are unique too."""
    bot = CoronerBot(Settings(_env_file=None, discord_token="x"))
    bot.timers = TimerRunner(bot)  # the cogs only register their timer handlers (never started here)
    await bot.load_plugins()
    names = [command.name for command in bot.tree.get_commands()]
    assert len(names) == len(set(names))
    from bot.i18n.translator import CatalogTranslator

    translator = CatalogTranslator()
    spanish = []
    for command in bot.tree.get_commands():
        context = app_commands.TranslationContext(
            location=app_commands.TranslationContextLocation.command_name
            if isinstance(command, app_commands.Command) else app_commands.TranslationContextLocation.group_name,
            data=command)
        spanish.append(await translator.translate(app_commands.locale_str(command.name), discord.Locale.spain_spanish,
                                                  context) or command.name)
    assert len(spanish) == len(set(spanish))


def test_engines_import_no_io_library() -> None:
    """games/ never imports discord, sqlalchemy, asyncio or aiohttp (engines are pure)."""
    banned = {"discord", "sqlalchemy", "asyncio", "aiohttp"}
    offenders = []
    for path in (ROOT / "games").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else (
                [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            offenders += [f"{path.relative_to(ROOT)}: {n}" for n in names if n.split(".")[0] in banned]
    assert offenders == []
