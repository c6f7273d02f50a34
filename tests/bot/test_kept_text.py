"""A refused modal's text given back (``bot.errors.kept_embeds``): whole when it fits, always within one
message's embed budget, never a code block a ``` inside the text could close early."""

from __future__ import annotations

from bot.budget import EMBED_DESCRIPTION, EMBED_TOTAL, embed_size
from bot.errors import kept_embeds, typed_texts


def test_only_the_free_text_of_a_submit_is_given_back() -> None:
    """Blank text inputs and a select's picked values are not free text."""
    assert typed_texts({"target": ["2"], "words": "  ", "text": "see you", "note": ""}) == ["see you"]


def test_the_longest_text_input_comes_back_whole() -> None:
    """4,000 units (a text input's most) fit one embed's description with the fences around it."""
    text = "a" * 3998 + "🦆"  # 4,000 UTF-16 units
    (embed,) = kept_embeds([text])
    assert embed.description == f"```\n{text}\n```"
    assert len(embed.description.encode("utf-16-le")) // 2 == 4008 <= EMBED_DESCRIPTION


def test_several_long_texts_stay_within_the_message_budget() -> None:
    """Two 4,000-unit texts: the first whole, the second cut with "…" so the two embeds total at most 6,000."""
    first, second = kept_embeds(["x" * 4000, "y" * 4000])
    assert first.description == f"```\n{'x' * 4000}\n```"
    assert second.description.startswith("```\nyyy") and second.description.endswith("…\n```")
    assert embed_size(first.to_dict()) + embed_size(second.to_dict()) == EMBED_TOTAL
    assert kept_embeds([]) == []


def test_a_fence_inside_the_text_does_not_close_the_block() -> None:
    (embed,) = kept_embeds(["before ``` after"])
    assert embed.description == "```\nbefore ``\u200b` after\n```"
