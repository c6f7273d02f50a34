"""Discord's limits on a message body and a modal, checked the way Discord checks them (400 / 50035).

:func:`message_problems` and :func:`modal_problems` return ``[(path, code, message)]`` with Discord's error codes
(``BASE_TYPE_MAX_LENGTH``, ``MAX_EMBED_SIZE_EXCEEDED``, ``COMPONENT_LAYOUT_WIDTH_EXCEEDED``,
``COMPONENT_CUSTOM_ID_DUPLICATED``, ...); :func:`invalid_form_body` turns them into the nested ``errors`` object of
Discord's "Invalid Form Body" answer. Lengths are counted in UTF-16 code units, never fewer than Discord counts.

Source: Discord API reference, "Message Resource" / "Embed Limits", "Message Components", "Interactions: Modal".
"""

from __future__ import annotations

from typing import Any

from tests.discord_double.faults import ApiError

Path = tuple[str | int, ...]
Problem = tuple[Path, str, str]

ACTION_ROW, BUTTON, TEXT_INPUT, LABEL = 1, 2, 4, 18
SELECTS = (3, 5, 6, 7, 8)
EMBED_PARTS = ((("title",), 256), (("description",), 4096), (("footer", "text"), 2048), (("author", "name"), 256))


def size(text: Any) -> int:
    """Length in UTF-16 code units (0 for anything that is not a string)."""
    return len(text.encode("utf-16-le")) // 2 if isinstance(text, str) else 0


def _too_long(path: Path, value: Any, limit: int, out: list[Problem]) -> None:
    if size(value) > limit:
        out.append((path, "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length."))


def _get(node: Any, keys: tuple[str, ...]) -> Any:
    for key in keys:
        node = node.get(key) if isinstance(node, dict) else None
    return node


def embed_size(embed: dict[str, Any]) -> int:
    """Title, description, field names and values, footer text and author name, as Discord totals them."""
    total = sum(size(_get(embed, keys)) for keys, _ in EMBED_PARTS)
    return total + sum(size(f.get("name")) + size(f.get("value")) for f in embed.get("fields") or [])


def message_problems(body: dict[str, Any]) -> list[Problem]:
    """Every limit ``body`` (a message create/edit or an interaction response's ``data``) breaks."""
    out: list[Problem] = []
    _too_long(("content",), body.get("content"), 2000, out)
    embeds = body.get("embeds") or []
    if len(embeds) > 10:
        out.append((("embeds",), "BASE_TYPE_MAX_LENGTH", "Must be 10 or fewer in length."))
    for i, embed in enumerate(embeds):
        for keys, limit in EMBED_PARTS:
            _too_long(("embeds", i, *keys), _get(embed, keys), limit, out)
        fields = embed.get("fields") or []
        if len(fields) > 25:
            out.append((("embeds", i, "fields"), "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length."))
        for j, f in enumerate(fields):
            for key, limit in (("name", 256), ("value", 1024)):
                if not f.get(key):
                    out.append((("embeds", i, "fields", j, key), "BASE_TYPE_REQUIRED", "This field is required"))
                _too_long(("embeds", i, "fields", j, key), f.get(key), limit, out)
    if sum(embed_size(e) for e in embeds) > 6000:
        out.append((("embeds",), "MAX_EMBED_SIZE_EXCEEDED", "Embed size exceeds maximum size of 6000"))
    out += components_problems(body.get("components") or [])
    return out


def components_problems(rows: list[dict[str, Any]]) -> list[Problem]:
    """Rows (at most 5), their width (5 buttons, or one select alone), labels, options and unique custom_ids."""
    out: list[Problem] = []
    if len(rows) > 5:
        out.append((("components",), "BASE_TYPE_MAX_LENGTH", "Must be 5 or fewer in length."))
    seen: set[str] = set()
    for i, row in enumerate(rows):
        children = row.get("components") or []
        if row.get("type") == ACTION_ROW:
            selects = [c for c in children if c.get("type") in SELECTS]
            if len(children) > 5 or (selects and len(children) > 1) or not children:
                out.append((("components", i, "components"), "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                            "The specified component exceeds the maximum width"))
        elif isinstance(row.get("component"), dict):
            children = [row["component"]]
        for j, c in enumerate(children):
            path: Path = ("components", i, "components", j)
            custom_id = c.get("custom_id")
            if custom_id is not None:
                _too_long((*path, "custom_id"), custom_id, 100, out)
                if custom_id in seen:
                    out.append(((*path, "custom_id"), "COMPONENT_CUSTOM_ID_DUPLICATED",
                                "Component custom id cannot be duplicated"))
                seen.add(custom_id)
            kind = c.get("type")
            if kind == BUTTON:
                _too_long((*path, "label"), c.get("label"), 80, out)
            elif kind in SELECTS:
                _too_long((*path, "placeholder"), c.get("placeholder"), 150, out)
                options = c.get("options") or []
                if kind == 3 and not 1 <= len(options) <= 25:
                    out.append(((*path, "options"), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 25 in length."))
                for k, option in enumerate(options):
                    for key in ("label", "value", "description"):
                        _too_long((*path, "options", k, key), option.get(key), 100, out)
                if int(c.get("max_values", 1)) > 25 or int(c.get("min_values", 1)) > int(c.get("max_values", 1)):
                    out.append(((*path, "max_values"), "NUMBER_TYPE_MAX", "int value should be less than or equal "
                                                                          "to 25."))
            elif kind == TEXT_INPUT:
                _too_long((*path, "label"), c.get("label") or row.get("label"), 45, out)
                _too_long((*path, "placeholder"), c.get("placeholder"), 100, out)
                _too_long((*path, "value"), c.get("value"), 4000, out)
    return out


def modal_problems(data: dict[str, Any]) -> list[Problem]:
    """A modal's title (45), custom_id (100), at most 5 top-level components and 5 text inputs."""
    out: list[Problem] = []
    _too_long(("title",), data.get("title"), 45, out)
    _too_long(("custom_id",), data.get("custom_id"), 100, out)
    rows = data.get("components") or []
    out += components_problems(rows)
    inputs = sum(1 for row in rows for c in (row.get("components") or [row.get("component") or {}])
                 if c.get("type") == TEXT_INPUT)
    if inputs > 5:
        out.append((("components",), "BASE_TYPE_MAX_LENGTH", "Must be 5 or fewer in length."))
    return out


class ModalRefused(ValueError):
    """Discord's client would not send this submit: a required text input left empty, or a text shorter than its
    ``min_length`` or longer than its ``max_length`` (the Submit button stays disabled; the bot never hears)."""


def check_text_input(custom_id: str, raw: dict[str, Any], required: bool, value: Any) -> None:
    """Refuse ``value`` for the text input ``raw`` (as the bot sent it) as Discord's client does: lengths in
    UTF-16 units, as Discord counts them (at most 4,000 without a ``max_length``); an optional input left empty
    is fine whatever its ``min_length``. Raises :class:`ModalRefused`."""
    text = "" if value is None else str(value)
    if not text:
        if required:
            raise ModalRefused(f"modal field {custom_id!r} is required")
        return
    length, most, least = size(text), int(raw.get("max_length", 4000)), int(raw.get("min_length", 0))
    if length > most:
        raise ModalRefused(f"modal field {custom_id!r}: {length} characters, at most {most}")
    if length < least:
        raise ModalRefused(f"modal field {custom_id!r}: {length} characters, at least {least}")


def invalid_form_body(problems: list[Problem], prefix: Path = ()) -> ApiError:
    """Discord's ``400 {"code": 50035, "message": "Invalid Form Body", "errors": {...}}`` for ``problems``."""
    errors: dict[str, Any] = {}
    for path, code, message in problems:
        node = errors
        for key in (*prefix, *path):
            node = node.setdefault(str(key), {})
        node.setdefault("_errors", []).append({"code": code, "message": message})
    return ApiError(400, 50035, "Invalid Form Body", errors)


def check_message(body: dict[str, Any] | None) -> None:
    """Raise Discord's 50035 if ``body`` breaks a limit."""
    problems = message_problems(body or {})
    if problems:
        raise invalid_form_body(problems)
