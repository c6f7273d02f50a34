"""Every refusal the table service can raise has a message in English and Spanish."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import bot.tables
from bot.i18n.catalog import load_language

CODES = sorted({code for path in Path(bot.tables.__file__).parent.glob("*.py")
                for code in re.findall(r'TableError\("(table\.[a-z_]+)"', path.read_text())})


def test_the_service_raises_table_codes() -> None:
    """The scan finds the codes (guards against a silently empty parametrisation)."""
    assert {"table.stale", "table.not_a_player", "table.not_active", "table.full"} <= set(CODES)


@pytest.mark.parametrize("language", ["en", "es"])
def test_every_code_has_a_message(language: str) -> None:
    """table.po of each language holds every code, with the placeholders the code is raised with."""
    messages = load_language(language)
    assert [code for code in CODES if code not in messages] == []
    assert "{max}" in messages["table.full"] and "{count}" in messages["table.bad_count"]
