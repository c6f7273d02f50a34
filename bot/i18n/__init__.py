"""Message catalogues (English and Spanish) and their rendering."""

from bot.i18n.catalog import LANGUAGES, Catalog, catalog, t

__all__ = ["LANGUAGES", "Catalog", "catalog", "t"]
