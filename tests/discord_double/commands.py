"""Application command definitions checked the way Discord checks them when a bot registers them (400 / 50035).

Names (of commands, subcommands, options) are 1-32 characters, letters (lower case where the script has case),
digits, ``-`` and ``_``; slash-command descriptions 1-100; every ``name_localizations`` /
``description_localizations`` key a Discord locale and every value held to the same rule; at most 25 options and
25 choices (names 1-100); required options before optional ones; no two options of one level share a name.

The values a user sends are held to the registered options as Discord's client and API hold them
(:func:`option_value_problem`: ``min_value``/``max_value``, ``min_length``/``max_length``; choices are checked by
the caller): a scripted user cannot send what no Discord user could.

Source: Discord API reference, "Application Commands" (naming, localization, option limits; "Application Command
Option Structure": min_value, max_value, min_length, max_length) and ``openapi.json`` (Int53Type).
"""

from __future__ import annotations

from typing import Any

from tests.discord_double.limits import Path, Problem, invalid_form_body

LOCALES = frozenset({
    "id", "da", "de", "en-GB", "en-US", "es-ES", "es-419", "fr", "hr", "it", "lt", "hu", "nl", "no", "pl", "pt-BR",
    "ro", "fi", "sv-SE", "vi", "tr", "cs", "el", "bg", "ru", "uk", "hi", "th", "zh-CN", "ja", "zh-TW", "ko",
})
CHAT_INPUT, SUB_COMMAND, SUB_COMMAND_GROUP = 1, 1, 2


def valid_name(name: Any, *, chat_input: bool = True) -> bool:
    """Discord's ``^[-_\\p{L}\\p{N}\\p{sc=Deva}\\p{sc=Thai}]{1,32}$``, lower case where the letter has one."""
    if not isinstance(name, str) or not 1 <= len(name) <= 32:
        return False
    if not chat_input:
        return True
    return all((c.isalnum() or c in "-_" or _indic(c)) and c.lower() == c for c in name)


def _indic(char: str) -> bool:
    return "\u0900" <= char <= "\u097f" or "\u0e00" <= char <= "\u0e7f"


def _name(path: Path, node: dict[str, Any], out: list[Problem], *, chat_input: bool, what: str) -> None:
    if not valid_name(node.get("name"), chat_input=chat_input):
        out.append(((*path, "name"), "APPLICATION_COMMAND_INVALID_NAME", f"{what} name is invalid"))
    for locale, value in (node.get("name_localizations") or {}).items():
        if locale not in LOCALES:
            out.append(((*path, "name_localizations", locale), "ENUM_TYPE_COERCE",
                        f"Value \"{locale}\" is not a valid enum value."))
        elif not valid_name(value, chat_input=chat_input):
            out.append(((*path, "name_localizations", locale), "APPLICATION_COMMAND_INVALID_NAME",
                        f"{what} name is invalid"))


def _description(path: Path, node: dict[str, Any], out: list[Problem], *, required: bool) -> None:
    texts = [((*path, "description"), node.get("description"))]
    texts += [((*path, "description_localizations", k), v)
              for k, v in (node.get("description_localizations") or {}).items()]
    for where, text in texts:
        if not isinstance(text, str) or len(text) > 100 or (required and not text):
            out.append((where, "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length."))
    for locale in node.get("description_localizations") or {}:
        if locale not in LOCALES:
            out.append(((*path, "description_localizations", locale), "ENUM_TYPE_COERCE",
                        f"Value \"{locale}\" is not a valid enum value."))


def _options(path: Path, options: list[dict[str, Any]], out: list[Problem]) -> None:
    if len(options) > 25:
        out.append(((*path, "options"), "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length."))
    names = [o.get("name") for o in options]
    if len(names) != len(set(names)):
        out.append(((*path, "options"), "APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS",
                    "Option names must be unique"))
    optional_seen = False
    for i, option in enumerate(options):
        where = (*path, "options", i)
        _name(where, option, out, chat_input=True, what="Option")
        _description(where, option, out, required=True)
        if option.get("type") in (SUB_COMMAND, SUB_COMMAND_GROUP):
            _options(where, option.get("options") or [], out)
            continue
        if option.get("required"):
            if optional_seen:
                out.append((where, "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
                            "Required options must be placed before non-required options"))
        else:
            optional_seen = True
        choices = option.get("choices") or []
        if len(choices) > 25:
            out.append(((*where, "choices"), "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length."))
        for j, choice in enumerate(choices):
            texts = [choice.get("name"), *(choice.get("name_localizations") or {}).values()]
            if any(not isinstance(t, str) or not 1 <= len(t) <= 100 for t in texts):
                out.append(((*where, "choices", j, "name"), "BASE_TYPE_BAD_LENGTH",
                            "Must be between 1 and 100 in length."))


def command_problems(command: dict[str, Any], path: Path = ()) -> list[Problem]:
    """Every rule ``command`` (an application command create body) breaks."""
    out: list[Problem] = []
    chat_input = command.get("type", CHAT_INPUT) == CHAT_INPUT
    _name(path, command, out, chat_input=chat_input, what="Command")
    if chat_input:
        _description(path, command, out, required=True)
        _options(path, command.get("options") or [], out)
    return out


def check_commands(commands: list[dict[str, Any]], *, bulk: bool) -> None:
    """Raise Discord's 50035 for the first command list (``bulk``: a PUT of all of them) that breaks a rule."""
    problems: list[Problem] = []
    for i, command in enumerate(commands):
        problems += command_problems(command, (i,) if bulk else ())
    if problems:
        raise invalid_form_body(problems)


#: the widest whole number an integer option carries (Discord's Int53)
INT53 = 2**53


def integer_value(value: Any) -> int:
    """An integer option's value as the client sends it: a whole number (``3``, ``"3"``); ``True``, ``2.5`` or
    ``"2.5"`` are not one. Raises ``ValueError``."""
    if isinstance(value, bool) or (isinstance(value, float) and not value.is_integer()):
        raise ValueError(f"{value!r} is not a whole number")
    return int(value)


def option_value_problem(spec: dict[str, Any], value: Any) -> str | None:
    """Why Discord would not send ``value`` for the registered option ``spec`` (its client refuses it and its
    API checks it again: an integer or number outside ``min_value``/``max_value``, an integer beyond Int53, a
    string shorter than ``min_length`` or longer than ``max_length``, at most 6000), or ``None``. Choices are
    checked by the caller."""
    kind = spec["type"]
    if kind in (4, 10):
        low, high = spec.get("min_value"), spec.get("max_value")
        if kind == 4 and not -INT53 < value < INT53:
            return f"{value} is beyond Discord's integers (±2^53)"
        if low is not None and value < low:
            return f"{value} is below its min_value {low}"
        if high is not None and value > high:
            return f"{value} is above its max_value {high}"
    if kind == 3:
        low, high = spec.get("min_length") or 0, spec.get("max_length") or 6000
        if not low <= len(value) <= high:
            return f"{len(value)} characters, not {low}-{high}"
    return None
