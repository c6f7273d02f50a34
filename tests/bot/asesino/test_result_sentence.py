"""The result under a finished Asesino table starts like a sentence: the ending's words are a clause ("the game
is over: three murders: …") in the table log, but the result's description stands alone."""

from __future__ import annotations

import pytest

from bot.cogs.asesino.ui import TabletopUI
from bot.ui import RenderContext
from games.core import Outcome
from tests.bot.asesino.test_render import make_table


@pytest.mark.parametrize(("language", "expected"), [
    ("en", "Three murders: the Killer and the Accomplice win."),
    ("es", "Tres asesinatos"),
])
def test_the_result_description_starts_with_a_capital(language: str, expected: str) -> None:
    ctx = RenderContext(make_table("tabletop", 5, 1), language)
    outcome = Outcome(winners=[0], reason="asesino.end.three_deaths")
    assert TabletopUI().outcome_text(ctx, outcome).startswith(expected)
