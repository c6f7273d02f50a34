"""Every refusal an engine can raise reaches the player in both languages, in words: each ``IllegalAction`` code
written in ``games/`` has a catalogue message in English and Spanish, and its seat parameters are shown as the
players' names (never as a raw seat number)."""

from __future__ import annotations

import ast
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from bot.cogs.asesino.small_ui import SmallUI
from bot.cogs.asesino.ui import TabletopUI
from bot.cogs.asesino_social.ui import SOCIAL
from bot.cogs.cereal_killer.ui import CerealUI
from bot.cogs.lets_kill.ui import LetsKillUI
from bot.cogs.verdugo.ui import VerdugoUI
from bot.errors import error_text
from bot.i18n import catalog
from bot.i18n.catalog import LANGUAGES
from bot.tables import Table, TableSeat
from bot.ui import GameUI, register_ui
from games.core import IllegalAction, get_engine, seat_keys

GAMES = Path(__file__).resolve().parents[2] / "games"
NOW = datetime(2026, 1, 1, tzinfo=UTC)
NAMES = ("Ana", "Bea", "Carla", "Dani", "Eva", "Fede")
SEAT = 4  # every seat parameter gets seat 4 ("Eva"), so a raw number would show as "4"
#: a plausible value for each non-seat parameter the engines use (anything else gets 7)
SAMPLES: dict[str, Any] = {
    "card": "good", "effects": ["doctor", "journalist"], "effect": "doctor", "prompt": "statement",
    "options": "north, east", "answer": "north", "question": "parity", "ability": "sniff", "who": "detective",
    "action": "move", "role": "killer", "name": "Zoe", "path": [3, 8], "route": [3, 8],
    "ends_at": "2026-01-01T09:00:00+00:00", "at": "2026-01-01T09:00:00+00:00", "last": "2026-01-01T08:00:00+00:00",
    "words": "Pepe, Merche", "time": "at seven", "place": "kitchen",
}
#: the engine modules of each (game, mode); refusals raised in a module shared by several modes use the first UI
UIS: dict[str, tuple[str, str, GameUI]] = {
    "asesino/tabletop": ("asesino", "tabletop", TabletopUI()),
    "asesino/small": ("asesino", "small", SmallUI()),
    "asesino/social": ("asesino", "social", SOCIAL),
    "asesino": ("asesino", "tabletop", TabletopUI()),
    "cereal_killer": ("cereal_killer", "classic", CerealUI()),
    "lets_kill": ("lets_kill", "classic", LetsKillUI()),
    "core": ("cereal_killer", "classic", CerealUI()),
    "verdugo": ("verdugo", "classic", VerdugoUI()),
}


@dataclass(frozen=True)
class Refusal:
    where: str  # path under games/
    code: str
    params: tuple[str, ...]
    seat_params: tuple[str, ...]


def refusals() -> list[Refusal]:
    """Every ``IllegalAction("code", ...)`` with a literal code in the engines."""
    found: dict[tuple[str, str], Refusal] = {}
    for path in sorted(GAMES.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Call) and getattr(node.func, "id", None) == "IllegalAction" and node.args
                    and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
                continue
            declared: tuple[str, ...] = ()
            params = []
            for keyword in node.keywords:
                if keyword.arg == "seat_params":
                    declared = tuple(ast.literal_eval(keyword.value))
                elif keyword.arg is not None:
                    params.append(keyword.arg)
            where = str(path.parent.relative_to(GAMES))
            code = node.args[0].value
            found.setdefault((where, code), Refusal(where, code, tuple(params), declared))
    return sorted(found.values(), key=lambda r: (r.where, r.code))


def table_for(where: str, language: str) -> Table:
    game, mode, ui = UIS[where]
    register_ui(ui)
    seats = tuple(TableSeat(seat=i, user_id=100 + i, names=(name,)) for i, name in enumerate(NAMES))
    return Table(id=1, game=game, mode=mode, guild_id=1, channel_id=2, host_id=100, status="active", seed=1,
                 options={}, version=3, language=language, series_id=None, lobby_message_id=None,
                 table_message_id=None, created_at=NOW, updated_at=NOW, finished_at=None, outcome=None, seats=seats,
                 state=None, engine=get_engine(game, mode))


REFUSALS = refusals()


def test_the_engines_refusals_are_found() -> None:
    """The scan sees the refusals of every engine (a scan that found nothing would prove nothing)."""
    assert {r.where for r in REFUSALS} >= {"asesino/tabletop", "asesino/small", "asesino/social", "cereal_killer"}
    assert len(REFUSALS) > 50


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("refusal", REFUSALS, ids=lambda r: f"{r.where}:{r.code}")
def test_every_refusal_is_rendered_in_words_with_seats_as_names(refusal: Refusal, language: str) -> None:
    """The code has a message in the language, every placeholder is filled, and each seat parameter the message
    shows is the player's name."""
    assert refusal.code in catalog(language).messages, f"{refusal.code} has no {language} message"
    keys = seat_keys(dict.fromkeys(refusal.params), refusal.seat_params)
    params = {name: SEAT if name in keys else SAMPLES.get(name, 7) for name in refusal.params}
    text = error_text(language, IllegalAction(refusal.code, seat_params=refusal.seat_params, **params),
                      table_for(refusal.where, language))
    assert "{" not in text, text
    template = catalog(language).template(refusal.code)
    for name in keys:
        if "{" + name + "}" in template:
            assert NAMES[SEAT] in text and str(SEAT) not in text.replace(NAMES[SEAT], ""), text


def test_bad_target_names_the_player_not_the_zero_based_seat() -> None:
    """``asesino.error.bad_target`` for seat 0 reads "No puedes elegir a Ana", not "a 0"."""
    table = table_for("asesino/tabletop", "es")
    text = error_text("es", IllegalAction("asesino.error.bad_target", seat_params=("target",), target=0), table)
    assert text == "⛔ No puedes elegir a Ana."


def test_the_social_ending_names_the_killer_and_the_accusers() -> None:
    """An outcome declares its seat parameters, so the ending reads with names, not ``3`` and ``[5, 2, 4]``."""
    from bot.ui import RenderContext
    from games.asesino.social.engine import OUTCOME_SEATS

    table = table_for("asesino/social", "en")
    words = SOCIAL.words(RenderContext(table, "en"), {"killer": 3, "accusers": [5, 2, 4]}, OUTCOME_SEATS)
    text = catalog("en").render("asesino_social.end.killer_judged", **words)
    assert text == "Dani was the Killer and has been judged by Fede, Carla, Eva. The accusers win!"
