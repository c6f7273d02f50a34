"""Counted words agree with their count in both languages (issue 8, "Words and names": plurals through the
catalogues, never "1 steps")."""

from __future__ import annotations

import pytest

from bot.i18n import catalog


@pytest.mark.parametrize(("language", "one", "two"), [
    ("en", "I read 1 step; the Killer", "I read 2 steps; the Killer"),
    ("es", "Leí 1 paso; el Asesino", "Leí 2 pasos; el Asesino"),
])
def test_a_route_with_the_wrong_number_of_steps(language: str, one: str, two: str) -> None:
    """A Killer who DMs one number ("8") is told "I read 1 step", not "1 steps"."""
    render = catalog(language).render
    assert render("cereal_killer.parse.step_count", count=1, expected=3).startswith(one)
    assert render("cereal_killer.parse.step_count", count=2, expected=3).startswith(two)


@pytest.mark.parametrize(("language", "one", "two"), [
    ("en", "Murder register 1/3: column 2", "Murder register 2/3: columns 2, 6"),
    ("es", "Registro de asesinatos 1/3: columna 2", "Registro de asesinatos 2/3: columnas 2, 6"),
])
def test_the_murder_register_names_one_column_or_several(language: str, one: str, two: str) -> None:
    """The 2-4 player table after the first murder: "column 2", not "columns 2"."""
    render = catalog(language).render
    assert render("asesino.ui.register", count=1, total=3, columns="2") == one
    assert render("asesino.ui.register", count=2, total=3, columns="2, 6") == two
