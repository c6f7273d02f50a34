"""The name a seat is shown by: the one the players see in the server (nickname, else display name), not the
account's user name; the other names stay on the seat for the letter checks."""

from __future__ import annotations

from types import SimpleNamespace

from bot.cogs.lobby.cog import user_names


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
    from bot.ui import RenderContext

    table = SimpleNamespace(seat_names=lambda seat: ["**Bo**||b||_x_"], user_of=lambda seat: 42, engine=None)
    ctx = RenderContext(table, "en")  # type: ignore[arg-type]
    assert ctx.seat_params({"seat": 0, "seats": [0, 0], "n": 3}) == {
        "seat": r"\*\*Bo\*\*\|\|b\|\|\_x\_", "seats": r"\*\*Bo\*\*\|\|b\|\|\_x\_, \*\*Bo\*\*\|\|b\|\|\_x\_", "n": 3}
    assert ctx.seat_params({"seat": 0}, mention=True) == {"seat": "<@42>"}
