"""Boards as data, and the combined grid the rules walk on.

Each ``boards/*.yaml`` file is one printed side (edition file ``cereal-killer-boards.md``, "Geometry"): a 5 x 4
grid of space kinds numbered row by row from the north-west corner, with the Underground pair (City) or the Train
circuit (Suburbs). In 3-player games the Suburbs lie south of the City, so the combined grid has 8 rows and
space 16 touches 21.

:func:`geometry` builds a :class:`Geometry` for a (City side, Suburbs side or ``None``) pair; it answers every
spatial question the rules ask: rows/columns, orthogonal and diagonal neighbours, kinds, indoors, transit hops.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, model_validator

BOARDS_DIR = Path(__file__).with_name("boards")
COLUMNS = 5
ROWS_PER_BOARD = 4

Kind = Literal["H", "P", "C", "U", "T", "F", "S"]
Side = Literal["A", "B"]

#: kind letter -> catalogue-friendly name
KIND_NAMES: dict[str, str] = {
    "H": "house", "P": "park", "C": "cafe", "U": "underground", "T": "train", "F": "food", "S": "street",
}
#: "Are you indoors?" is yes on these kinds (rulebook, "The Questions")
INDOORS: frozenset[str] = frozenset("HCUT")


class BoardFile(BaseModel):
    """One board side as stored in YAML. Raises ``pydantic.ValidationError`` when malformed."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str
    zone: Literal["city", "suburbs"]
    side: Side
    first: Literal[1, 21]
    rows: list[list[Kind]] = Field(min_length=ROWS_PER_BOARD, max_length=ROWS_PER_BOARD)
    underground: list[int] = Field(default_factory=list)
    train: list[int] = Field(default_factory=list)

    @model_validator(mode="after")
    def _check(self) -> BoardFile:
        if any(len(row) != COLUMNS for row in self.rows):
            raise ValueError(f"every row needs {COLUMNS} spaces")
        if (self.zone == "city") != (self.first == 1):
            raise ValueError("the City holds 1-20 and the Suburbs 21-40")
        kinds = self.kinds()
        if self.underground and (len(self.underground) != 2 or any(kinds.get(s) != "U" for s in self.underground)):
            raise ValueError("the Underground links exactly two U spaces")
        if self.train and (len(self.train) < 2 or any(kinds.get(s) != "T" for s in self.train)):
            raise ValueError("the Train circuit runs through T spaces only")
        listed = set(self.underground) | set(self.train)
        if {s for s, k in kinds.items() if k in "UT"} != listed:
            raise ValueError("every U/T space must be on the Underground or the Train")
        return self

    def kinds(self) -> dict[int, str]:
        """Space number -> kind letter."""
        return {self.first + r * COLUMNS + c: k for r, row in enumerate(self.rows) for c, k in enumerate(row)}


@cache
def load_board(board_id: str) -> BoardFile:
    """The board ``city_a``, ``city_b``, ``suburbs_a`` or ``suburbs_b``. Raises ``FileNotFoundError``."""
    with (BOARDS_DIR / f"{board_id}.yaml").open(encoding="utf-8") as handle:
        return BoardFile.model_validate(yaml.safe_load(handle))


class Geometry:
    """The combined grid of one game (immutable; cached per board pair by :func:`geometry`)."""

    def __init__(self, city: BoardFile, suburbs: BoardFile | None) -> None:
        self.boards = (city,) if suburbs is None else (city, suburbs)
        self.kinds: dict[int, str] = {}
        for board in self.boards:
            self.kinds |= board.kinds()
        self.spaces: tuple[int, ...] = tuple(sorted(self.kinds))
        self.rows = len(self.spaces) // COLUMNS
        # transit hops: one step each, Underground both ways, Train one way round its circuit
        self.hops: dict[int, tuple[int, ...]] = {}
        for board in self.boards:
            if board.underground:
                a, b = board.underground
                self.hops[a] = (*self.hops.get(a, ()), b)
                self.hops[b] = (*self.hops.get(b, ()), a)
            for i, station in enumerate(board.train):
                self.hops[station] = (*self.hops.get(station, ()), board.train[(i + 1) % len(board.train)])
        # the moves the rules ask about thousands of times a turn, worked out once
        self._neighbours = {space: self._grid_neighbours(space) for space in self.spaces}
        self._steps = {space: self._neighbours[space]
                       + tuple(h for h in self.hops.get(space, ()) if h not in self._neighbours[space])
                       for space in self.spaces}

    def row(self, space: int) -> int:
        """1-based row on the combined grid (north = 1)."""
        return (space - 1) // COLUMNS + 1

    def column(self, space: int) -> int:
        """1-based column (west = 1)."""
        return (space - 1) % COLUMNS + 1

    def kind(self, space: int) -> str:
        return self.kinds[space]

    def is_space(self, space: int) -> bool:
        return space in self.kinds

    def neighbours(self, space: int) -> tuple[int, ...]:
        """Orthogonal neighbours: north, west, east, south (those on the grid)."""
        found = self._neighbours.get(space)
        return self._grid_neighbours(space) if found is None else found

    def _grid_neighbours(self, space: int) -> tuple[int, ...]:
        r, c = self.row(space), self.column(space)
        cells = ((r - 1, c), (r, c - 1), (r, c + 1), (r + 1, c))
        return tuple((rr - 1) * COLUMNS + cc for rr, cc in cells if 1 <= rr <= self.rows and 1 <= cc <= COLUMNS)

    def around(self, space: int) -> tuple[int, ...]:
        """The 8-neighbourhood (orthogonal and diagonal), for Lola's Bark."""
        r, c = self.row(space), self.column(space)
        return tuple(s for s in self.spaces
                     if s != space and abs(self.row(s) - r) <= 1 and abs(self.column(s) - c) <= 1)

    def steps_from(self, space: int, *, transit: bool) -> tuple[int, ...]:
        """Spaces one step away: the orthogonal neighbours, plus transit hops when ``transit``."""
        found = self._steps.get(space) if transit else None
        if found is not None:
            return found
        hops = self.hops.get(space, ()) if transit else ()
        return self.neighbours(space) + tuple(h for h in hops if h not in self.neighbours(space))

    def of_kind(self, kind: str) -> tuple[int, ...]:
        return tuple(s for s in self.spaces if self.kinds[s] == kind)

    def zone(self, space: int) -> str:
        return "city" if space <= 20 else "suburbs"

    def directions(self, reference: int, target: int) -> list[str]:
        """True compass directions of ``target`` seen from ``reference`` (one or two; ``["here"]`` if equal)."""
        out = []
        dr, dc = self.row(target) - self.row(reference), self.column(target) - self.column(reference)
        if dr:
            out.append("north" if dr < 0 else "south")
        if dc:
            out.append("west" if dc < 0 else "east")
        return out or ["here"]


DIFFICULTIES: dict[str, tuple[Side, Side]] = {
    "beginner": ("B", "B"),
    "recurring": ("A", "A"),
    "compulsive": ("B", "A"),
    "cereal": ("A", "B"),
}


@cache
def geometry(city: Side, suburbs: Side | None = None) -> Geometry:
    """The combined grid of City side ``city`` (+ Suburbs side ``suburbs`` south of it, 3 players)."""
    return Geometry(load_board(f"city_{city.lower()}"),
                    None if suburbs is None else load_board(f"suburbs_{suburbs.lower()}"))
