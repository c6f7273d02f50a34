"""Message catalogues: gettext ``.po`` files read with Babel, one domain per area.

Layout: ``bot/i18n/locales/<lang>/LC_MESSAGES/<domain>.po``, plus the same layout inside any game's own package
(``games/<game>/locales/`` or ``bot/cogs/<game>/locales/``), so a game ships its messages with it.
Every ``msgid`` is a dotted message key (the
``key`` of a game :class:`~games.core.Event`, an :class:`~games.core.IllegalAction` code, or a UI string such as
``lobby.join``); every ``msgstr`` is the text, with ``{name}`` placeholders filled by :meth:`Catalog.render`.
A slash command named in a text is the placeholder ``{/path}`` (``{/newgame}``, ``{/config days}``): it renders
as the command's name in the reader's language (:meth:`Catalog.command`, e.g. ``/ajustes dias`` in Spanish), the
same name Discord shows them, so a text never names a command the reader cannot find.
Spanish falls back to English for a missing key; a key missing everywhere renders as the key itself, so a
gap is visible but never crashes a game.

Plurals are gettext plural entries (``msgid_plural`` and ``msgstr[0..n]``): the form is chosen by the ``count``
parameter with the language's CLDR rule from the catalogue's ``Plural-Forms`` header (Babel), e.g.
``render("leaderboard.points", count=1)`` -> "1 point". Never "point(s)".
"""

from __future__ import annotations

import gettext
import string
from collections.abc import Callable, Iterator
from functools import cache
from pathlib import Path
from typing import Any

from babel.messages.catalog import Message
from babel.messages.plurals import get_plural
from babel.messages.pofile import read_po

import games
from bot import cogs

LOCALES = Path(__file__).with_name("locales")
LANGUAGES: tuple[str, ...] = ("en", "es")
DEFAULT_LANGUAGE = "en"


class _Lenient(dict[str, Any]):
    """Parameters of one message: an unknown ``{name}`` stays as it is; ``{/path}`` is the command ``path`` named
    in ``catalog``'s language."""

    def __init__(self, params: dict[str, Any], catalog: Catalog) -> None:
        super().__init__(params)
        self.catalog = catalog

    def __missing__(self, key: str) -> str:
        if key.startswith("/"):
            return self.catalog.command(key[1:])
        return "{" + key + "}"


class Catalog:
    """All messages of one language, merged over every domain."""

    def __init__(self, language: str, messages: dict[str, str], fallback: Catalog | None = None, *,
                 plurals: dict[str, tuple[str, ...]] | None = None) -> None:
        self.language = language
        self.messages = messages
        self.plurals = plurals or {}
        self.fallback = fallback
        self._form: Callable[[int], int] = gettext.c2py(get_plural(language).plural_expr)

    def has(self, key: str) -> bool:
        return key in self.messages or key in self.plurals or (self.fallback is not None and self.fallback.has(key))

    def template(self, key: str, count: Any = None) -> str:
        """The text of ``key``; for a plural entry, the form for ``count`` (the "other" form, the last, when it is
        not a whole number)."""
        if key in self.plurals:
            forms = self.plurals[key]
            whole = isinstance(count, int) or (isinstance(count, float) and count.is_integer())
            index = self._form(int(count)) if whole and not isinstance(count, bool) else len(forms) - 1
            return forms[min(index, len(forms) - 1)]
        if key in self.messages:
            return self.messages[key]
        if self.fallback is not None:
            return self.fallback.template(key, count)
        return key

    def render(self, key: str, /, **params: Any) -> str:
        """The message ``key`` with ``params`` filled in; unknown placeholders are left as ``{name}``. A plural
        entry takes its form from the explicit ``params["count"]`` only (gettext's ``n``); without it, the "other"
        form. Every caller of a plural message passes ``count`` (``tests/i18n/test_plurals.py`` checks the
        catalogues)."""
        return string.Formatter().vformat(self.template(key, params.get("count")), (), _Lenient(params, self))

    def command(self, path: str) -> str:
        """The slash command ``path`` (its English words, space-separated: ``"config days"``, ``"newgame"``) as
        this language names it, with its slash: each word is its localisation ``cmd.<path so far>.name`` (the same
        the app-command translator gives Discord, :mod:`bot.i18n.translator`), or the English word where there is
        none. ``catalog("es").command("config days")`` -> ``"/ajustes dias"``."""
        words = path.split()
        shown = [self.messages.get(f"cmd.{'.'.join(words[:i + 1])}.name", word) for i, word in enumerate(words)]
        return "/" + " ".join(shown)


def locale_dirs() -> list[Path]:
    """Where catalogues live: ``bot/i18n/locales``, then the ``locales/`` of every package on ``games.__path__``
    and ``bot.cogs.__path__`` (a game's own messages)."""
    dirs = [LOCALES]
    for parent in (*games.__path__, *cogs.__path__):
        dirs += sorted(path for path in Path(parent).glob("*/locales") if path.is_dir())
    return dirs


def _entries(language: str) -> Iterator[Message]:
    """Every translated entry of ``language`` in the catalogues of :func:`locale_dirs`."""
    for base in locale_dirs():
        for path in sorted((base / language / "LC_MESSAGES").glob("*.po")):
            with path.open("rb") as handle:
                for message in read_po(handle, locale=language):
                    if message.id and message.string and all(message.string if message.pluralizable else [1]):
                        yield message


def load_language(language: str) -> dict[str, str]:
    """Every ``msgid -> msgstr`` of ``language`` from :func:`locale_dirs` (untranslated entries are skipped); a
    plural entry maps to its last ("other") form."""
    return {str(m.id[0] if m.pluralizable else m.id): str(m.string[-1] if m.pluralizable else m.string)
            for m in _entries(language)}


def load_plurals(language: str) -> dict[str, tuple[str, ...]]:
    """Every plural entry of ``language``: ``msgid -> (msgstr[0], msgstr[1], ...)``."""
    return {str(m.id[0]): tuple(str(form) for form in m.string) for m in _entries(language) if m.pluralizable}


@cache
def catalog(language: str = DEFAULT_LANGUAGE) -> Catalog:
    """The catalogue of ``language`` (``en`` or ``es``; anything else gets English)."""
    if language not in LANGUAGES:
        language = DEFAULT_LANGUAGE
    fallback = None if language == DEFAULT_LANGUAGE else catalog(DEFAULT_LANGUAGE)
    return Catalog(language, load_language(language), fallback, plurals=load_plurals(language))


def plain_number(value: float) -> int | float:
    """A count as people write it: ``1.0`` -> ``1`` (so the catalogue says "1 point"), ``1.5`` stays."""
    return int(value) if float(value).is_integer() else value


def t(key: str, language: str = DEFAULT_LANGUAGE, /, **params: Any) -> str:
    """Shortcut: ``catalog(language).render(key, **params)``."""
    return catalog(language).render(key, **params)
