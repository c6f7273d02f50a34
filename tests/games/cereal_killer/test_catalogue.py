"""Every Cereal Killer message key the engine, parser and renderer use exists in English and Spanish."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.cogs.cereal_killer.messages import FAMILIES as WORD_FAMILIES
from bot.i18n.catalog import load_language
from games.cereal_killer.board import KIND_NAMES
from games.cereal_killer.models import QUESTIONS, ROLES

SOURCES = [*Path("games/cereal_killer").glob("*.py"), *Path("bot/cogs/cereal_killer").glob("*.py")]
LITERAL = re.compile(r'"(cereal_killer\.[a-z_.]+[a-z_])"')

FAMILIES = (
    [f"cereal_killer.end.{r}" for r in ("arrested", "bitten", "cornered", "objective_failed", "survived",
                                         "arrests_exhausted")]
    + [f"cereal_killer.role.{r}" for r in ROLES] + [f"cereal_killer.name.{r}" for r in ROLES]
    + [f"cereal_killer.prompt.{k}" for k in ("question", "sniff")]
    + [f"cereal_killer.kind.{k}" for k in KIND_NAMES.values()]
    + [f"cereal_killer.question.{q}" for q in QUESTIONS[3]]
    + [f"cereal_killer.answer.{a}" for a in ("north", "south", "east", "west", "here", "yes", "no", "even", "odd",
                                             "city", "suburbs")]
    + [f"cereal_killer.ability.{a}" for a in ("sniff", "bark", "bite")]
    + [f"cereal_killer.difficulty.{d}" for d in ("beginner", "recurring", "compulsive", "cereal")]
    + [f"cereal_killer.render.{piece}" for piece in ("detective", "lola", "witness")]
)


def _used_keys() -> set[str]:
    found = {m for path in SOURCES for m in LITERAL.findall(path.read_text(encoding="utf-8"))}
    return (found - set(WORD_FAMILIES.values()) - {"cereal_killer.achievement"}) | set(FAMILIES)


@pytest.mark.parametrize("language", ["en", "es"])
def test_every_key_is_translated(language: str) -> None:
    """No key used by the game is missing from a catalogue."""
    messages = load_language(language)
    assert sorted(k for k in _used_keys() if k not in messages) == []


def test_catalogues_hold_the_same_keys() -> None:
    """English and Spanish cereal_killer.po define exactly the same message ids."""
    en = {k for k in load_language("en") if k.startswith("cereal_killer.")}
    es = {k for k in load_language("es") if k.startswith("cereal_killer.")}
    assert en == es and len(en) > 100
