"""Slash-command localisation through discord.py's :class:`~discord.app_commands.Translator`.

Keys are derived from where the string sits: ``cmd.<command path>.name`` / ``.description`` for commands and
groups (``cmd.config.medium.description``), ``cmd.<path>.<param>.name`` / ``.description`` for parameters and
``choice.<value>`` for choices. The English strings in the code are the defaults; Spanish comes from ``es``.
A string made at load time from the catalogues (``/newgame``'s per-game parameters) is a :func:`rendered` string:
it renders itself in each language.
"""

from __future__ import annotations

from collections.abc import Callable

from discord import Locale, app_commands
from discord.app_commands import TranslationContextLocation as Where

from bot.i18n.catalog import catalog

LOCALES: dict[Locale, str] = {Locale.spain_spanish: "es", Locale.latin_american_spanish: "es"}


def rendered(render: Callable[[str], str | None]) -> app_commands.locale_str:
    """A command string that ``render(language)`` (``"en"``, ``"es"``) gives in each language: its English text is
    the default Discord shows; ``None`` for a language leaves that language without a translation."""
    return app_commands.locale_str(render("en") or "", render=render)


def translation_key(string: app_commands.locale_str, context: app_commands.TranslationContextTypes) -> str | None:
    """The catalogue key for ``string`` in ``context`` (an explicit ``key=`` extra wins)."""
    if "key" in string.extras:
        return str(string.extras["key"])
    data = context.data
    where = context.location
    if where in (Where.command_name, Where.group_name):
        return f"cmd.{data.qualified_name.replace(' ', '.')}.name"
    if where in (Where.command_description, Where.group_description):
        return f"cmd.{data.qualified_name.replace(' ', '.')}.description"
    if where in (Where.parameter_name, Where.parameter_description):
        suffix = "name" if where is Where.parameter_name else "description"
        return f"cmd.{data.command.qualified_name.replace(' ', '.')}.{data.name}.{suffix}"
    if where is Where.choice_name:
        return f"choice.{data.value}"
    return None


class CatalogTranslator(app_commands.Translator):
    """Answers Discord's localisation requests from the message catalogues."""

    async def translate(self, string: app_commands.locale_str, locale: Locale,
                        context: app_commands.TranslationContextTypes) -> str | None:
        language = LOCALES.get(locale)
        if language is not None and "render" in string.extras:
            return string.extras["render"](language)
        key = translation_key(string, context)
        if language is None or key is None:
            return None
        return catalog(language).messages.get(key)
