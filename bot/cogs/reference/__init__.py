"""The card reference: ``/card`` and the cards page of ``/rules``, with every entry walked from the games' data
(:mod:`bot.cogs.reference.entries`) and its text in this package's catalogues."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.cogs.reference._render import card_embed, cards_page
from bot.cogs.reference.cog import Reference
from bot.cogs.reference.entries import Entry, entries, lookup

__all__ = ["Entry", "Reference", "card_embed", "cards_page", "entries", "lookup", "setup"]

if TYPE_CHECKING:
    from bot.app import Coroner


async def setup(bot: Coroner) -> None:
    await bot.add_cog(Reference(bot))
