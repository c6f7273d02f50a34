"""The checker's table: the constants of the box (edition §2, §5, §6, §8), one match's facts, and Crowns moving to
and from the Treasury (§9.3, R25, JESTER_STEAL)."""

from __future__ import annotations

import copy
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

TOTAL = 80
ROLES = Counter({"loyalist": 4, "saboteur": 4, "princess": 1, "jester": 1})
OBJECTS = Counter({"pardon": 3, "hat": 3, "chalice": 2, "cheese": 1, "doll": 1, "shield": 1, "parasite": 1,
                   "mimic": 1})
SAFE = frozenset({"hat", "chalice", "cheese", "doll"})
SCAFFOLD = ("last_request", "chain_gang", "riot", "forced_trade", "smuggler", "secret_deal", "royal_inspection",
            "town_crier", "examination", "spy", "double_wages", "bloodlust", "open_trial", "blunt_axe")
ROUND_RULES = ("double_wages", "bloodlust", "open_trial", "blunt_axe")
CENTRE = "centre"


class MatchOver(Exception):
    """The Treasury ran short or hit 0 after a payment out of it (§9.3): the match ends at once."""


@dataclass
class Table:
    n: int
    match: str
    variant: bool
    crowns: list[int]
    executioner: int
    served: list[int] = field(default_factory=list)
    stage: str = "round"  # round | successor | over
    end_reason: str | None = None
    phase: str = "draw"  # set_aside | draw | choose | call | act | execute | shield | over
    active_objects: list[str] = field(default_factory=list)
    object_deck: list[str] = field(default_factory=list)
    scaffold_deck: list[str] = field(default_factory=list)
    roles: dict[int, str] = field(default_factory=dict)
    objects: dict[Any, str] = field(default_factory=dict)  # seat or "centre" -> card
    discarded: str | None = None
    drawn: list[str] = field(default_factory=list)
    rules: set[str] = field(default_factory=set)
    pending: tuple[str, int, str, list[int]] | None = None  # card, chooser, kind, picks
    acted: set[int] = field(default_factory=set)
    actor: int | None = None
    extra: bool = False
    executed: list[int] = field(default_factory=list)
    dead: set[int] = field(default_factory=set)
    escaped: set[int] = field(default_factory=set)
    own: int = 0
    deaths: int = 0
    bonus: int = 0
    shield_holder: int | None = None
    candidates: list[int] = field(default_factory=list)
    ending: str | None = None
    shown_objects: dict[int, str] = field(default_factory=dict)
    shown_roles: dict[int, str] = field(default_factory=dict)
    private: dict[int, list[tuple[str, str]]] = field(default_factory=dict)  # seat -> [(kind, card)] this round

    # ---------------------------------------------------------------- seating

    def prisoners(self) -> list[int]:
        """From the Executioner's left (§3)."""
        return [(self.executioner + i) % self.n for i in range(1, self.n)]

    def eligible(self) -> list[int]:
        return [p for p in self.prisoners() if p not in self.dead and p not in self.escaped]

    def treasury(self) -> int:
        return TOTAL - sum(self.crowns)

    def effective(self, p: int) -> str:
        card = self.objects[p]
        return self.objects[CENTRE] if card == "mimic" else card

    def minimum(self) -> int:
        return 2 if "bloodlust" in self.rules else 1


def clone(t: Table) -> Table:
    return copy.deepcopy(t)


def allowed_successors(t: Table) -> list[int]:
    out = [s for s in range(t.n) if s != t.executioner]
    return [s for s in out if s not in t.served] if t.match == "tour" else out


def pay(t: Table, seat: int, amount: int) -> None:
    """From the Treasury (§9.3): capped; the match ends at once when short or when it hits 0."""
    if amount <= 0:
        return
    paid = min(amount, t.treasury())
    t.crowns[seat] += paid
    if paid < amount or t.treasury() == 0:
        raise MatchOver


def lose(t: Table, seat: int, amount: int) -> None:
    t.crowns[seat] -= min(amount, t.crowns[seat])  # R25


def steal(t: Table, jester: int, times: int) -> None:
    """JESTER_STEAL (§7.3): from every other player from the Jester's left; the Treasury covers a player at 0."""
    for i in range(1, t.n):
        q = (jester + i) % t.n
        for _ in range(times):
            if t.crowns[q] >= 1:
                t.crowns[q] -= 1
                t.crowns[jester] += 1
            else:
                pay(t, jester, 1)
