"""The one message budget: every part of a message within Discord's limits, long lists cut with "…and N more"."""

from __future__ import annotations

import discord
import pytest

from bot import budget
from bot.budget import fit_embeds, fit_lines, fit_message, fit_modal, fit_view, more, size
from bot.components import view_of


def test_size_counts_utf16_units() -> None:
    """An emoji outside the BMP counts 2, a CJK character 1."""
    assert size("ab") == 2 and size("漢") == 1 and size("😀") == 2


@pytest.mark.parametrize(("count", "language", "expected"), [
    (1, "en", "…and 1 more"), (7, "en", "…and 7 more"), (1, "es", "…y 1 más"), (3, "es", "…y 3 más")])
def test_more_is_a_catalogue_plural(count: int, language: str, expected: str) -> None:
    """The "…and N more" line comes from the budget catalogue in the game's language."""
    assert more(count, language) == expected


def test_fit_lines_keeps_leading_lines_and_counts_the_rest() -> None:
    """A log over its limit keeps the lines that fit and says how many were left out."""
    text = "\n".join(f"line {i:02d}" for i in range(10))  # 10 lines of 7 characters
    fitted = fit_lines(text, 40, "en")
    assert fitted == "line 00\nline 01\nline 02\n…and 7 more"
    assert fit_lines(text, 1000, "en") == text


def test_fit_lines_clips_a_single_long_line() -> None:
    """One line too long for the note is clipped with an ellipsis, never over the limit."""
    assert fit_lines("x" * 50, 10, "en") == "x" * 9 + "…"


def _embed(description: str = "", fields: int = 0, value: str = "v") -> dict:
    return {"title": "T", "description": description,
            "fields": [{"name": f"f{i}", "value": value, "inline": False} for i in range(fields)]}


def test_fit_embeds_turns_extra_fields_into_and_n_more() -> None:
    """30 fields become 24 plus a 25th saying "…and 6 more"."""
    (embed,) = fit_embeds([_embed(fields=30)], "en")
    assert len(embed["fields"]) == 25 and embed["fields"][-1]["value"] == "…and 6 more"


def test_fit_embeds_keeps_the_total_within_6000_across_all_embeds() -> None:
    """Two embeds each within their own limits but 8,000 together are cut to at most 6,000."""
    long_log = "\n".join("z" * 60 for _ in range(60))  # 3,659 characters, under the description's 4096
    fitted = fit_embeds([_embed(long_log), _embed(long_log)], "en")
    assert sum(budget.embed_size(e) for e in fitted) <= budget.EMBED_TOTAL
    assert all(len(e["description"]) <= budget.EMBED_DESCRIPTION for e in fitted)
    assert "…and" in fitted[1]["description"] or "…and" in fitted[0]["description"]


def test_fit_embeds_limits_every_part() -> None:
    """Title 256, field name 256 and value 1024, footer 2048, author 256."""
    embed = {"title": "t" * 300, "footer": {"text": "f" * 3000}, "author": {"name": "a" * 300},
             "fields": [{"name": "n" * 300, "value": "\n".join(["w" * 50] * 40)}]}
    (fitted,) = fit_embeds([embed], "es")
    assert len(fitted["title"]) == 256 and len(fitted["footer"]["text"]) == 2048
    assert len(fitted["author"]["name"]) == 256 and len(fitted["fields"][0]["name"]) == 256
    assert len(fitted["fields"][0]["value"]) <= 1024 and fitted["fields"][0]["value"].endswith("más")


def test_fit_view_clips_labels_and_options() -> None:
    """Button labels to 80, placeholders to 150, option labels to 100, at most 25 options."""
    select = discord.ui.Select(custom_id="s", placeholder="p" * 200, max_values=30,
                               options=[discord.SelectOption(label="l" * 120, value=str(i)) for i in range(30)])
    view = view_of(discord.ui.Button(label="b" * 100, custom_id="b"), select)
    fit_view(view)
    assert len(view.children[0].label or "") == 80 and len(select.placeholder or "") == 150
    assert len(select.options) == 25 and select.max_values == 25
    assert all(len(o.label) == 100 for o in select.options)


def test_fit_view_refuses_a_long_custom_id() -> None:
    """A custom_id cannot be cut without breaking its meaning: over 100 is a programming error."""
    with pytest.raises(ValueError, match="custom_id"):
        fit_view(view_of(discord.ui.Button(label="x", custom_id="c" * 101)))


def test_fit_modal_clips_title_and_labels() -> None:
    """Modal title and a label's text to 45, its description and the input's placeholder to 100."""
    modal = discord.ui.Modal(title="m" * 60, custom_id="modal")
    text_input = discord.ui.TextInput(custom_id="t", placeholder="p" * 150)
    label = discord.ui.Label(text="l" * 60, description="d" * 150, component=text_input)
    modal.add_item(label)
    fit_modal(modal)
    assert (len(modal.title), len(label.text), len(label.description or "")) == (45, 45, 100)
    assert len(text_input.placeholder or "") == 100


def test_fit_message_budgets_content_and_embeds_together() -> None:
    """A whole message: content cut by lines to 2000, embeds to 6000 in all."""
    embeds = [discord.Embed(description="\n".join("q" * 80 for _ in range(50))) for _ in range(3)]
    fitted = fit_message("line\n" * 600, embeds, None, language="en")
    assert fitted.content is not None and size(fitted.content) <= 2000 and fitted.content.endswith("more")
    assert sum(budget.embed_size(e.to_dict()) for e in fitted.embeds) <= 6000


def test_outgoing_kwargs_for_an_edit_replace_the_whole_message() -> None:
    """An edit states every part (so an emptied part is removed) and is budgeted like a send."""
    from bot.ui import Attachment, Outgoing

    out = Outgoing(content="x" * 2500, files=[Attachment("a.png", b"png")], language="es")
    kwargs = out.kwargs(edit=True)
    assert kwargs["embeds"] == [] and kwargs["view"] is None and len(kwargs["attachments"]) == 1
    assert size(kwargs["content"]) == 2000 and "files" not in kwargs
    assert Outgoing(content="no files").kwargs(edit=True)["attachments"] == []  # an edit drops old attachments
    assert set(Outgoing(content="hi").kwargs()) == {"allowed_mentions", "content"}
