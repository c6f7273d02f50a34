"""Board data files: schema validation and the geometry built from them."""

from __future__ import annotations

import pytest
import yaml
from pydantic import ValidationError

from games.cereal_killer.board import BOARDS_DIR, BoardFile, geometry, load_board

BOARD_IDS = ["city_a", "city_b", "suburbs_a", "suburbs_b"]


@pytest.mark.parametrize("board_id", BOARD_IDS)
def test_board_files_validate(board_id: str) -> None:
    """Every YAML board is a 5x4 grid of known kinds with its transit on U/T spaces."""
    board = load_board(board_id)
    assert board.id == board_id and len(board.kinds()) == 20


def test_only_the_four_boards_ship() -> None:
    """The boards directory holds exactly the four printed sides."""
    assert sorted(p.stem for p in BOARDS_DIR.glob("*.yaml")) == BOARD_IDS


@pytest.mark.parametrize(
    ("patch", "message"),
    [
        ({"rows": [["H"] * 5] * 3}, "at least 4"),
        ({"rows": [["X"] * 5] * 4}, "Input should be"),
        ({"underground": [10, 11]}, "Underground"),
        ({"underground": []}, "every U/T space"),
        ({"first": 21}, "City holds"),
        ({"colour": "red"}, "Extra inputs"),
    ],
)
def test_malformed_boards_are_rejected(patch: dict[str, object], message: str) -> None:
    """The schema refuses short grids, unknown kinds, bad transit and stray keys."""
    data = yaml.safe_load((BOARDS_DIR / "city_a.yaml").read_text()) | patch
    with pytest.raises(ValidationError, match=message):
        BoardFile.model_validate(data)


@pytest.mark.parametrize(
    ("city", "suburbs", "space", "neighbours"),
    [
        ("A", None, 1, (2, 6)),
        ("A", None, 8, (3, 7, 9, 13)),
        ("A", None, 16, (11, 17)),
        ("A", "A", 16, (11, 17, 21)),
        ("A", "B", 20, (15, 19, 25)),
        ("B", "A", 40, (35, 39)),
    ],
)
def test_orthogonal_neighbours_on_the_combined_grid(city: str, suburbs: str | None, space: int,
                                                    neighbours: tuple[int, ...]) -> None:
    """Suburbs lie south of the City: 16 touches 21 and 20 touches 25; no wrap between rows."""
    assert tuple(sorted(geometry(city, suburbs).neighbours(space))) == neighbours


def test_transit_hops_and_bark_neighbourhood() -> None:
    """Underground both ways, Train one way round 30 -> 34 -> 25 -> 30, Bark's 8 neighbours."""
    geo = geometry("A", "A")
    assert geo.hops == {10: (16,), 16: (10,), 30: (34,), 34: (25,), 25: (30,)}
    assert geo.around(8) == (2, 3, 4, 7, 9, 12, 13, 14)
    assert geo.around(1) == (2, 6, 7)
    assert geo.around(20) == (14, 15, 19, 24, 25)


@pytest.mark.parametrize(
    ("city", "suburbs", "kinds"),
    [
        ("A", None, "HPHPSSCHSUHPSHPUSHCH"),
        ("B", None, "SPHPCHSHPUPCHSHUHPSH"),
        ("A", "A", "HPHPSSCHSUHPSHPUSHCH" + "HPSHTSHPSTPSHTHHSFPH"),
        ("B", "B", "SPHPCHSHPUPCHSHUHPSH" + "SHPSTHPHSTSHSTPPHFHS"),
    ],
)
def test_boards_match_the_edition_file(city: str, suburbs: str | None, kinds: str) -> None:
    """The data files spell the grids of cereal-killer-boards.md, space by space."""
    geo = geometry(city, suburbs)
    assert "".join(geo.kind(s) for s in geo.spaces) == kinds
