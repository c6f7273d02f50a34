"""The name a seat is shown by: the one the players see in the server (nickname, else display name), not the
account's user name; the other names stay on the seat for the letter checks."""

from __future__ import annotations

from datetime import UTC, datetime
from types import SimpleNamespace

import pytest

from bot.lookalike import prototype, skeleton
from bot.members import user_names
from bot.tables import Table
from bot.tables.model import TableSeat, looks
from bot.ui import RenderContext
from games.core import get_engine

NOW = datetime(2026, 12, 1, tzinfo=UTC)


def test_the_server_nickname_comes_first_then_the_other_names() -> None:
    user = SimpleNamespace(name="alice_92", global_name="Alice", nick="Ali", display_name="Ali")
    assert user_names(user) == ["Ali", "alice_92", "Alice"]  # type: ignore[arg-type]


def test_without_a_nickname_the_display_name_comes_first() -> None:
    user = SimpleNamespace(name="bob_7", global_name="Bob", display_name="Bob")
    assert user_names(user) == ["Bob", "bob_7"]  # type: ignore[arg-type]


def test_a_name_in_a_message_line_is_shown_as_typed_not_as_markdown() -> None:
    """A seat named ``**Bo**||b||`` (Discord allows markdown characters in names) is shown with its stars and bars
    escaped in the lines made from an event's seats, so it cannot bold, hide or strike the rest of the line; a
    mention is left as it is."""
    table = SimpleNamespace(shown_name=lambda seat: "**Bo**||b||_x_", user_of=lambda seat: 42, ai_seats=list,
                            engine=SimpleNamespace(seat_params=()))
    ctx = RenderContext(table, "en")  # type: ignore[arg-type]
    assert ctx.seat_params({"seat": 0, "seats": [0, 0], "n": 3}) == {
        "seat": r"\*\*Bo\*\*\|\|b\|\|\_x\_", "seats": r"\*\*Bo\*\*\|\|b\|\|\_x\_, \*\*Bo\*\*\|\|b\|\|\_x\_", "n": 3}
    assert ctx.seat_params({"seat": 0}, mention=True) == {"seat": "<@42>"}


def _table(*names: tuple[str, ...]) -> Table:
    seats = tuple(TableSeat(seat=i, user_id=100 + i, names=n) for i, n in enumerate(names))
    return Table(id=1, game="verdugo", mode="classic", guild_id=1, channel_id=2, host_id=100, status="active",
                 seed=1, options={}, version=1, language="en", series_id=None, lobby_message_id=None,
                 table_message_id=None, created_at=NOW, updated_at=NOW, finished_at=None, outcome=None, seats=seats,
                 state=None, engine=get_engine("verdugo", "classic"))


def test_twin_display_names_get_a_suffix_that_tells_them_apart_and_others_keep_theirs() -> None:
    """Issue 21: two seats both shown as "Alex" (any case) are told apart by their own user name, or by seat
    number when they have none of their own; a seat whose name nobody shares is shown as it is."""
    table = _table(("Alex", "alex_b"), ("Bea", "bea"), ("alex", "alex_c"), ("Alex",), ("Alex", "alex_b"))
    assert [table.shown_name(s) for s in range(5)] == [
        "Alex (#1)", "Bea", "alex (alex_c)", "Alex (#4)", "Alex (#5)"]
    assert len({table.shown_name(s).casefold() for s in range(5)}) == 5


def test_every_renderer_gets_the_twin_suffix_through_the_render_context() -> None:
    """Names in buttons and menus (``name``), message text (``shown_name``) and event lines (``seat_params``) are
    the same distinguishing names, in both languages."""
    table = _table(("Alex", "alex_b"), ("Alex", "alex_c"))
    for language in ("en", "es"):
        ctx = RenderContext(table, language)
        assert (ctx.name(0), ctx.name(1)) == ("Alex (alex_b)", "Alex (alex_c)")
        assert ctx.seat_params({"seats": [0, 1]})["seats"] == r"Alex (alex\_b), Alex (alex\_c)"


def test_look_alike_display_names_are_told_apart_like_twins() -> None:
    """A name that reads the same as another's on screen is a twin too: one with a zero-width space or a word joiner
    in it (Unicode format characters), or one written in full-width or mathematical letters (folded by NFKC), gets
    the suffix; a name that merely contains another's keeps its own."""
    table = _table(("Alice", "alice_a"), ("Alice\u200b", "bob_b"), ("Al\u2060ice",), ("Ａｌｉｃｅ", "wide"),
                   ("Alicent",))
    assert [table.shown_name(s) for s in range(5)] == [
        "Alice (alice_a)", "Alice\u200b (bob_b)", "Al\u2060ice (#3)", "Ａｌｉｃｅ (wide)", "Alicent"]


def test_names_in_other_scripts_that_look_the_same_are_told_apart_like_twins() -> None:
    """Unicode's confusables (TR39 skeletons): "Аlice" with a Cyrillic А, "Αlice" with a Greek Alpha and "A1ice"
    read as "Alice" and get the suffix; "Alicia" and "Bob" in Cyrillic look-alikes that a reader tells apart
    ("Вов") keep their own."""
    table = _table(("Alice", "alice_a"), ("\u0410lice", "cyril"), ("\u0391lice",), ("Alicia",), ("Bob",),
                   ("\u0412\u043e\u0432",))
    assert [table.shown_name(s) for s in range(6)] == [
        "Alice (alice_a)", "\u0410lice (cyril)", "\u0391lice (#3)", "Alicia", "Bob", "\u0412\u043e\u0432"]


def test_skeletons_follow_unicodes_confusables() -> None:
    """The skeleton reads every look-alike as one (TR39's examples: "𝔭𝒶ỿ𝕡𝕒ℓ" is "paypal"; "m" and "rn"), keeps
    apart what a reader tells apart (an accent, another letter) and always gives the same string for a class."""
    assert skeleton("𝔭𝒶ỿ𝕡𝕒ℓ") == skeleton("paypal")
    assert skeleton("modern") == skeleton("rnodern")
    assert skeleton("\u0441\u043e\u0440\u0435") == skeleton("cope")  # all four Cyrillic
    assert skeleton("José") != skeleton("Jose") and skeleton("Alice") != skeleton("Alicia")
    assert prototype("\u0410") == prototype("A") == "A" and prototype("I") == prototype("l") == prototype("1")
    assert looks("A1ice") == looks("alice") == looks("ALICE") == looks("\u0391LICE") == looks("\u0430lice")


@pytest.mark.parametrize("invisible", ["\u034f", "\ufe0f", "\u3164", "\u115f"])
def test_a_name_with_a_character_that_shows_nothing_is_a_twin(invisible: str) -> None:
    """A combining grapheme joiner, a variation selector (category Mn) or a Hangul filler (Lo, the classic blank
    Discord name) shows nothing, as a zero-width space does: "Alice" and "Alice" + one of them are twins."""
    assert looks(f"Alice{invisible}") == looks("Alice")
    table = _table(("Alice",), (f"Alice{invisible}",), ("Bob",))
    assert [table.shown_name(s) for s in range(3)] == ["Alice (#1)", f"Alice{invisible} (#2)", "Bob"]


def test_a_suffixed_name_never_reads_as_another_seats_own_name() -> None:
    """Beside a player who named themselves "Alex (#2)", the second Alex takes the next free suffix."""
    table = _table(("Alex",), ("Alex",), ("Alex (#2)",))
    assert [table.shown_name(s) for s in range(3)] == ["Alex (#1)", "Alex (#2-2)", "Alex (#2)"]
    table = _table(("Alex", "alex_b"), ("Alex", "alex_c"), ("Alex (alex_b)",))
    assert [table.shown_name(s) for s in range(3)] == ["Alex (#1)", "Alex (alex_c)", "Alex (alex_b)"]
