"""Games are discovered plugins: a game copied from the template (``tests/support/tiny_game.py``, ``tiny_ui.py``
and ``locales/``) into a temporary ``games/<game>`` package and ``bot/cogs/<game>`` package as ``games/README.md``
says, only renamed, appears in /newgame (with its options), /rules, /leaderboard, the extension list and the
catalogues without an edit to any other file."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import discord
import pytest

import games
from bot import cogs
from bot.cogs.core.cog import Core
from bot.cogs.lobby.cog import Lobby
from bot.cogs.lobby.newgame import newgame_group
from bot.i18n import catalog
from bot.plugins import extensions
from bot.ui import _UIS, ui_for
from games.core import all_games, get_engine
from games.core.registry import _ENGINES

SUPPORT = Path(__file__).resolve().parents[1] / "support"
GAME = "spud"
#: the template's files and where games/README.md says each goes (relative to the game's two package directories)
TEMPLATE = {"tiny_game.py": ("games", "__init__.py"), "tiny_ui.py": ("cogs", "__init__.py"),
            **{f"locales/{language}/LC_MESSAGES/potato.po": ("cogs", f"locales/{language}/LC_MESSAGES/{GAME}.po")
               for language in ("en", "es")}}


@pytest.fixture
def spud(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The template game copied as ``games.spud`` and ``bot.cogs.spud`` in a temporary directory that joins the
    ``games`` and ``bot.cogs`` package paths (as a new directory in the tree would), renaming "potato" to "spud"
    and changing nothing else."""
    for source, (package, target) in TEMPLATE.items():
        path = tmp_path / package / GAME / target
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text((SUPPORT / source).read_text(encoding="utf-8").replace("potato", GAME), encoding="utf-8")
    monkeypatch.setattr(games, "__path__", [*games.__path__, str(tmp_path / "games")])
    monkeypatch.setattr(cogs, "__path__", [*cogs.__path__, str(tmp_path / "cogs")])
    catalog.cache_clear()
    yield
    for name in (f"games.{GAME}", f"bot.cogs.{GAME}"):
        sys.modules.pop(name, None)
    _ENGINES.pop((GAME, "classic"), None)
    _UIS.pop((GAME, None), None)
    catalog.cache_clear()


class FakeResponse:
    def __init__(self) -> None:
        self.sent: dict[str, Any] = {}

    async def send_message(self, content: str | None = None, **kwargs: Any) -> None:
        self.sent = {"content": content, **kwargs}

    def is_done(self) -> bool:
        return bool(self.sent)


def fake_bot() -> Any:
    async def language(guild_id: int | None) -> str:
        return "es"

    async def leaderboard(*args: Any, **kwargs: Any) -> list[Any]:
        return []

    return SimpleNamespace(language=language, timers=SimpleNamespace(on=lambda *args: None),
                           tables=SimpleNamespace(leaderboard=leaderboard))


def interaction() -> Any:
    return SimpleNamespace(guild_id=1, namespace=SimpleNamespace(game=GAME), response=FakeResponse())


@pytest.mark.usefixtures("spud")
def test_the_new_game_is_registered_with_its_names_in_both_languages() -> None:
    """The engine registry and the catalogues find the new packages by themselves."""
    assert GAME in [info.id for info in all_games()]
    assert get_engine(GAME, "classic").game == GAME
    assert catalog("en").render("game.spud") == "Hot Potato"
    assert catalog("es").render("mode.spud.classic") == "Clásico"
    assert catalog("es").render("spud.passed", from_seat="A", to_seat="B") == "A pasa la patata a B."


@pytest.mark.usefixtures("spud")
async def test_the_new_game_is_an_extension_that_registers_its_ui() -> None:
    """``bot/cogs/spud`` is in the extension list and its ``setup`` registers the game's UI."""
    assert f"bot.cogs.{GAME}" in extensions()
    assert extensions()[:4] == ("bot.cogs.lobby", "bot.cogs.core", "bot.cogs.admin", "bot.cogs.dm")
    import importlib

    await importlib.import_module(f"bot.cogs.{GAME}").setup(fake_bot())
    assert type(ui_for(GAME)).__name__ == "PotatoUI" and ui_for(GAME).game == GAME


@pytest.mark.usefixtures("spud")
async def test_newgame_gets_a_subcommand_with_the_new_games_options() -> None:
    """/newgame has a ``spud`` subcommand whose ``mode`` offers its mode and whose ``passes`` parameter is the
    engine's option with its limits, described from the game's own catalogue; ``starts_in`` (every game's) last."""
    group = newgame_group(Lobby(fake_bot()).open_game)
    spud = group.get_command(GAME)
    assert isinstance(spud, discord.app_commands.Command)
    mode, passes, starts_in = spud.parameters
    assert starts_in.name == "starts_in"
    assert [c.value for c in mode.choices] == ["classic"]
    assert (passes.name, passes.min_value, passes.max_value) == ("passes", 1, 20)
    assert passes.description == "Passes before the spud burns (1-20)"


@pytest.mark.usefixtures("spud")
async def test_rules_and_leaderboard_offer_and_show_the_new_game() -> None:
    """/rules and /leaderboard autocomplete the new game and answer for it."""
    core = Core(fake_bot())
    assert GAME in [c.value for c in await Core.game_autocomplete(core, interaction(), "pat")]
    rules = interaction()
    await Core.rules.callback(core, rules, GAME)  # type: ignore[arg-type]
    embed = rules.response.sent["embed"]
    assert (embed.title, embed.fields[0].name) == ("Patata caliente", "Clásico")
    assert embed.fields[0].value.endswith("Opciones de /nuevapartida: `pases` (1-20)")
    assert embed.description == "Pasa la patata; quien la tenga cuando se queme pierde."
    board = interaction()
    await Core.leaderboard.callback(core, board, GAME)  # type: ignore[arg-type]
    assert "Patata caliente" in board.response.sent["embed"].title
