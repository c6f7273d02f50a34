"""The one message budget: fits a whole outgoing message into Discord's limits instead of letting Discord refuse it.

Every message whose size depends on the game or on player names (statuses, results, DMs, medium posts, secrets,
server listings; channel posts, interaction responses and edits alike) is built as a :class:`bot.ui.Outgoing`, whose
``kwargs()`` calls :func:`fit_message`; :func:`fit_modal` fits a modal built with its inputs.

Lengths are counted in UTF-16 code units (:func:`size`), never fewer than Discord counts, so a name full of emoji or
wide characters cannot push a message over. A long log or list (a text of lines) is cut after the last line that
fits and ends in a visible "…and N more" line (catalogue key ``budget.more``, with plurals); a single over-long line
is clipped with "…". Identifiers (``custom_id``, option values) are never cut: one over its limit is a programming
error and raises ``ValueError``.

Source: Discord API reference, "Message Resource" (content, embed limits), "Message Components" (rows, buttons,
selects) and "Interactions: Modal" (title, text inputs).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import discord

from bot.i18n.catalog import DEFAULT_LANGUAGE, catalog

CONTENT = 2000
EMBEDS = 10
EMBED_TITLE = 256
EMBED_DESCRIPTION = 4096
FIELDS = 25
FIELD_NAME = 256
FIELD_VALUE = 1024
FOOTER = 2048
AUTHOR = 256
EMBED_TOTAL = 6000  # across all embeds of one message
SELECT_OPTIONS = 25
BUTTON_LABEL = 80
OPTION_TEXT = 100  # an option's label, value and description
PLACEHOLDER = 150
CUSTOM_ID = 100
MODAL_TITLE = 45
MODAL_INPUTS = 5
INPUT_LABEL = 45
INPUT_PLACEHOLDER = 100
ELLIPSIS = "…"


def size(text: str) -> int:
    """Length of ``text`` in UTF-16 code units (an emoji counts 2): never less than Discord's own count."""
    return len(text.encode("utf-16-le")) // 2


def clip(text: str, limit: int) -> str:
    """``text`` cut to at most ``limit`` units, ending in "…" when cut."""
    if size(text) <= limit:
        return text
    kept: list[str] = []
    used = 0
    for char in text:
        used += size(char)
        if used > limit - 1:
            break
        kept.append(char)
    return "".join(kept) + ELLIPSIS if limit >= 1 else ""


def more(count: int, language: str) -> str:
    """The "…and N more" line in ``language`` (a catalogue plural, ``budget.more``)."""
    return catalog(language).render("budget.more", count=count)


def fit_lines(text: str, limit: int, language: str) -> str:
    """``text`` (lines of a log or list) in at most ``limit`` units: the leading lines that fit, then "…and N
    more" counting the lines left out; when even one line does not fit with that note, the text is clipped."""
    if size(text) <= limit:
        return text
    lines = text.split("\n")
    for keep in range(len(lines) - 1, 0, -1):
        candidate = "\n".join([*lines[:keep], more(len(lines) - keep, language)])
        if size(candidate) <= limit:
            return candidate
    return clip(text, limit)


# --- embeds ---------------------------------------------------------------------------------------------------------
_TEXT_PARTS: tuple[tuple[tuple[str, ...], int], ...] = (
    (("title",), EMBED_TITLE), (("description",), EMBED_DESCRIPTION), (("footer", "text"), FOOTER),
    (("author", "name"), AUTHOR),
)


def embed_size(embed: dict[str, Any]) -> int:
    """The characters Discord counts towards the 6000 of a message: title, description, field names and values,
    footer text and author name."""
    total = sum(size(_get(embed, path)) for path, _ in _TEXT_PARTS)
    return total + sum(size(f.get("name") or "") + size(f.get("value") or "") for f in embed.get("fields") or [])


def _get(embed: dict[str, Any], path: tuple[str, ...]) -> str:
    node: Any = embed
    for key in path:
        node = node.get(key) if isinstance(node, dict) else None
    return node if isinstance(node, str) else ""


def _set(embed: dict[str, Any], path: tuple[str, ...], value: str) -> None:
    node = embed
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value


def fit_embeds(embeds: list[dict[str, Any]], language: str) -> list[dict[str, Any]]:
    """Embeds (as Discord dicts) within every per-part limit, 25 fields each, 10 embeds and 6000 units in all.

    Past 25 fields the 25th becomes "…and N more"; over 6000 in all, the longest description or field value is
    cut by lines (then fields are dropped from the end) until the whole fits.
    """
    out = [dict(e) for e in embeds[:EMBEDS]]
    for embed in out:
        for path, limit in _TEXT_PARTS:
            text = _get(embed, path)
            if text and size(text) > limit:
                if len(path) > 1:
                    embed[path[0]] = dict(embed[path[0]])
                _set(embed, path, fit_lines(text, limit, language) if path == ("description",) else clip(text, limit))
        fields = [{**f, "name": clip(f.get("name") or ELLIPSIS, FIELD_NAME),
                   "value": fit_lines(f.get("value") or "-", FIELD_VALUE, language)} for f in embed.get("fields") or []]
        if len(fields) > FIELDS:
            fields = [*fields[: FIELDS - 1], {"name": ELLIPSIS, "value": more(len(fields) - FIELDS + 1, language),
                                              "inline": False}]
        if "fields" in embed:
            embed["fields"] = fields
    _fit_total(out, language)
    return out


def _fit_total(embeds: list[dict[str, Any]], language: str) -> None:
    while (over := sum(embed_size(e) for e in embeds) - EMBED_TOTAL) > 0:
        logs = [(size(e.get("description") or ""), e, -1) for e in embeds]
        logs += [(size(f["value"]), e, i) for e in embeds for i, f in enumerate(e.get("fields") or [])]
        longest, embed, index = max(logs, key=lambda p: p[0])
        if longest - over >= 40:  # room for a useful line and the "…and N more" note
            if index < 0:
                embed["description"] = fit_lines(embed["description"], longest - over, language)
            else:
                field = embed["fields"][index]
                embed["fields"][index] = {**field, "value": fit_lines(field["value"], longest - over, language)}
            continue
        with_fields = [e for e in embeds if e.get("fields")]
        if with_fields:
            with_fields[-1]["fields"] = with_fields[-1]["fields"][:-1]
            continue
        parts = [(size(_get(e, path)), e, path) for e in embeds for path, _ in _TEXT_PARTS if _get(e, path)]
        length, embed, path = max(parts, key=lambda p: p[0])
        _set(embed, path, clip(_get(embed, path), max(1, length - over)))


# --- components -----------------------------------------------------------------------------------------------------
def fit_view(view: discord.ui.View | None) -> None:
    """Clip the labels and placeholders of ``view``'s items in place and keep at most 25 select options.

    discord.py's View already refuses more than 5 rows and arranges a select alone in its row.
    """
    if view is None:
        return
    for item in view.children:
        _check_id(getattr(item, "custom_id", None))
        if isinstance(item, discord.ui.Button) and item.label:
            item.label = clip(item.label, BUTTON_LABEL)
        elif isinstance(item, discord.ui.Select):
            if item.placeholder:
                item.placeholder = clip(item.placeholder, PLACEHOLDER)
            options = item.options[:SELECT_OPTIONS]
            for option in options:
                _check_id(option.value, OPTION_TEXT, "option value")
                option.label = clip(option.label, OPTION_TEXT)
                if option.description:
                    option.description = clip(option.description, OPTION_TEXT)
            item.options = options
            item.max_values = min(item.max_values, len(options) or 1)
            item.min_values = min(item.min_values, item.max_values)


def _check_id(value: str | None, limit: int = CUSTOM_ID, what: str = "custom_id") -> None:
    if value is not None and size(value) > limit:
        raise ValueError(f"{what} longer than {limit}: {value!r}")


def fit_modal(modal: discord.ui.Modal) -> discord.ui.Modal:
    """``modal`` with its title, labels (a :class:`discord.ui.Label`'s text and description, or a bare text input's
    legacy label) and placeholders clipped; more than 5 inputs raises ValueError."""
    modal.title = clip(modal.title, MODAL_TITLE)
    inputs = [c for c in modal.walk_children() if isinstance(c, discord.ui.TextInput)]
    if len(inputs) > MODAL_INPUTS:
        raise ValueError(f"a modal holds at most {MODAL_INPUTS} text inputs, not {len(inputs)}")
    _check_id(modal.custom_id)
    labels = [c for c in modal.walk_children() if isinstance(c, discord.ui.Label)]
    for label in labels:
        label.text = clip(label.text, INPUT_LABEL)
        if label.description:
            label.description = clip(label.description, INPUT_PLACEHOLDER)
    labelled = {id(label.component) for label in labels}
    for text_input in inputs:
        _check_id(text_input.custom_id)
        if id(text_input) not in labelled:  # a bare input carries its own (legacy) label
            text_input.label = clip(text_input.label, INPUT_LABEL)
        if text_input.placeholder:
            text_input.placeholder = clip(text_input.placeholder, INPUT_PLACEHOLDER)
    return modal


# --- a whole message ------------------------------------------------------------------------------------------------
@dataclass
class Fitted:
    """A message within Discord's limits: ``content`` (or None), ``embeds`` and the view fitted in place."""

    content: str | None
    embeds: list[discord.Embed]


def fit_message(content: str | None, embeds: list[discord.Embed], view: discord.ui.View | None, *,
                language: str = DEFAULT_LANGUAGE) -> Fitted:
    """Budget a whole message: its content (cut by lines), every embed and the total of 6000 across them, and the
    components of ``view`` (fitted in place)."""
    fit_view(view)
    fitted = fit_embeds([e.to_dict() for e in embeds], language)
    return Fitted(fit_lines(content, CONTENT, language) if content else None,
                  [discord.Embed.from_dict(e) for e in fitted])
