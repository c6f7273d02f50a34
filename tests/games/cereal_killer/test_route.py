"""The Killer's DM route parser: the grammar's accepted forms and each precise error."""

from __future__ import annotations

import pytest

from games.cereal_killer.models import KillerTurn
from games.cereal_killer.route import ParseError, parse_route


@pytest.mark.parametrize(
    ("text", "turn"),
    [
        ("8 3 2 1", KillerTurn(start=8, path=[3, 2, 1])),
        ("3 2 1", KillerTurn(path=[3, 2, 1])),
        ("8 3 2 1 victim 3 witness 4", KillerTurn(start=8, path=[3, 2, 1], victim=3, witness=4)),
        ("start 8\n3 2 1\nvictim 3\nwitness 4", KillerTurn(start=8, path=[3, 2, 1], victim=3, witness=4)),
        ("8\n3 2 1\nvictim 3", KillerTurn(start=8, path=[3, 2, 1], victim=3)),
        ("8-3-2-1 v3 w4", KillerTurn(start=8, path=[3, 2, 1], victim=3, witness=4)),
        ("8 -> 3 → 2 > 1, no victim", KillerTurn(start=8, path=[3, 2, 1])),
        ("victim none; 5, 10, 16", KillerTurn(start=None, path=[5, 10, 16])),
        ("Víctima: 3; testigo=4; ruta 8 3 2 1", KillerTurn(start=8, path=[3, 2, 1], victim=3, witness=4)),
        ("VICTIM 1 path 3 2 1", KillerTurn(path=[3, 2, 1], victim=1)),
    ],
)
def test_valid_messages_read_as_turns(text: str, turn: KillerTurn) -> None:
    """Numbers form the walk (4 with the start), keywords name the start, victim and Witness."""
    assert parse_route(text) == turn


@pytest.mark.parametrize(
    ("text", "code", "params"),
    [
        ("", "cereal_killer.parse.empty", {}),
        ("?!", "cereal_killer.parse.empty", {}),
        ("8", "cereal_killer.parse.step_count", {"count": 1, "expected": 3}),
        ("3 2", "cereal_killer.parse.step_count", {"count": 2, "expected": 3}),
        ("8 3 2 1 2", "cereal_killer.parse.step_count", {"count": 5, "expected": 3}),
        ("victim 3", "cereal_killer.parse.step_count", {"count": 0, "expected": 3}),
        ("8 3 2 1 banana", "cereal_killer.parse.unknown_word", {"word": "banana"}),
        ("8 3 2 1 victim", "cereal_killer.parse.missing_value", {"keyword": "victim"}),
        ("8 3 2 1 witness none", "cereal_killer.parse.missing_value", {"keyword": "witness"}),
        ("start 8 8 3 2 1", "cereal_killer.parse.start_twice", {"start": 8}),
        ("victim 3 victim 4 3 2 1", "cereal_killer.parse.repeated", {"keyword": "victim"}),
    ],
)
def test_bad_messages_say_why(text: str, code: str, params: dict[str, object]) -> None:
    """Every refusal carries a catalogue code and the values that explain it."""
    assert parse_route(text) == ParseError(code, params)
