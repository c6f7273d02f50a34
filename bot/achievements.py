"""Achievements in words: an achievement's name and hint from the catalogues (``<game>.achievement.<id>`` and
``<game>.achievement.<id>.hint``, in the reader's language), one line per achievement a finished game's people
earned (the result message), and a member's earned achievements (``/stats``). What is earned is the game's and the
store's (:mod:`bot.tables.achievements`); this only words it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.i18n import t
from games.core import Outcome

if TYPE_CHECKING:
    from bot.ui import RenderContext


def achievement_name(game: str, achievement: str, language: str) -> str:
    """``achievement`` of ``game`` by its name in ``language`` ("Clean hands")."""
    return t(f"{game}.achievement.{achievement}", language)


def achievement_hint(game: str, achievement: str, language: str) -> str:
    """What earns ``achievement`` of ``game``, in ``language``."""
    return t(f"{game}.achievement.{achievement}.hint", language)


def earned_lines(ctx: RenderContext, outcome: Outcome | None) -> list[str]:
    """``🏅 <player>: <name> (<hint>)`` for every achievement in ``outcome`` (the stored one, as settled), by seat
    then in the game's order; empty when nobody earned one."""
    if outcome is None:
        return []
    game, language = ctx.table.game, ctx.language
    return [ctx.t("achievement.line", seat=ctx.shown_name(seat), name=achievement_name(game, name, language),
                  hint=achievement_hint(game, name, language))
            for seat, names in sorted(outcome.achievements.items()) for name in names]
