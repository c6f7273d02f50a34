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
