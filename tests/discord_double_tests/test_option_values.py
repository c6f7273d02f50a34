"""The double holds a scripted user's option values to the registered options as Discord does: integers and
numbers within ``min_value``/``max_value`` (integers whole and within Int53), strings within ``min_length``/
``max_length``; a value no Discord client could send raises ``ValueError`` naming the limit."""

from __future__ import annotations

from typing import Any

import pytest

from tests.discord_double.commands import integer_value, option_value_problem

ROUNDS = {"type": 4, "name": "rounds", "min_value": 1, "max_value": 10}
SHARE = {"type": 10, "name": "share", "min_value": 0.5}
TEXT = {"type": 3, "name": "special_roles", "min_length": 2, "max_length": 5}


@pytest.mark.parametrize(("spec", "value", "problem"), [
    (ROUNDS, 0, "0 is below its min_value 1"),
    (ROUNDS, 11, "11 is above its max_value 10"),
    (SHARE, 0.25, "0.25 is below its min_value 0.5"),
    ({"type": 4, "name": "n"}, 2**53, f"{2**53} is beyond Discord's integers (±2^53)"),
    (TEXT, "a", "1 characters, not 2-5"),
    (TEXT, "abcdef", "6 characters, not 2-5"),
    ({"type": 3, "name": "free"}, "x" * 6001, "6001 characters, not 0-6000"),
])
def test_a_value_outside_the_registered_limits_is_named(spec: dict[str, Any], value: Any, problem: str) -> None:
    assert option_value_problem(spec, value) == problem


@pytest.mark.parametrize(("spec", "value"), [(ROUNDS, 1), (ROUNDS, 10), (SHARE, 0.5), (TEXT, "ab"), (TEXT, "abcde"),
                                             ({"type": 5, "name": "flag"}, True)])
def test_a_value_within_them_passes(spec: dict[str, Any], value: Any) -> None:
    assert option_value_problem(spec, value) is None


@pytest.mark.parametrize("value", [True, 2.5, "2.5"])
def test_an_integer_option_takes_whole_numbers_only(value: Any) -> None:
    with pytest.raises(ValueError):
        integer_value(value)
    assert integer_value("7") == integer_value(7.0) == 7
