"""The card edition's tables, parsed from the edition file (not from the engine's data)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

EDITION = Path(__file__).resolve().parents[5] / "shared" / "rules" / "editions" / "lets-kill-edition.md"
RULEBOOK = EDITION.parent.parent / "lets-kill.txt"


@dataclass(frozen=True)
class Effect:
    trigger: str
    kind: str
    args: dict[str, str]
    condition: str | None


@dataclass(frozen=True)
class Card:
    id: str
    name: str
    type: str  # weapon surprise event location victim
    subtype: str = ""  # events: standard media response
    attrs: frozenset[str] = frozenset()
    body_count: int = 0
    points: int = 0
    effects: tuple[Effect, ...] = field(default_factory=tuple)

    def fx(self, trigger: str | None = None, kind: str | None = None) -> list[Effect]:
        return [e for e in self.effects
                if (trigger is None or e.trigger == trigger) and (kind is None or e.kind == kind)]

    @property
    def is_gun(self) -> bool:
        return self.type == "weapon" and "Gun" in self.attrs


def attr_id(display: str) -> str:
    return re.sub(r"[^A-Za-z]", "", display)


def _split_args(text: str) -> dict[str, str]:
    args, depth, cur = {}, 0, ""
    for ch in text + ",":
        if ch in "{[":
            depth += 1
        elif ch in "}]":
            depth -= 1
        if ch == "," and depth == 0:
            if cur.strip():
                key, value = cur.strip().split("=", 1)
                args[key] = value
            cur = ""
        else:
            cur += ch
    return args


def parse_effects(dsl: str) -> tuple[Effect, ...]:
    dsl = dsl.strip().strip("`")
    if dsl in ("—", ""):
        return ()
    found = []
    for part in dsl.split(" ; "):
        m = re.fullmatch(r"(\w+(?:\(\w+\))?): (\w+)\((.*?)\)(?: if (.*))?", part.strip())
        assert m, part
        found.append(Effect(m[1], m[2], _split_args(m[3]), m[4]))
    return tuple(found)


@cache
def load() -> dict[str, Card]:
    cards: dict[str, Card] = {}
    section = ""
    for line in EDITION.read_text(encoding="utf-8").splitlines():
        if line.startswith("#"):
            section = line
            continue
        if not re.match(r"\| [WSELV]\d\d", line):
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        dsl = next((c for c in cells if c.startswith("`")), "—")
        effects = parse_effects(dsl)
        ids = cells[0].split()
        for cid in ids:
            if "3.1 Weapons" in section:
                card = Card(cid, cells[1], "weapon", attrs=frozenset(attr_id(a) for a in cells[2].split(",")),
                            body_count=int(cells[3]), effects=effects)
            elif "3.2 Surprises" in section:
                card = Card(cid, cells[1], "surprise", effects=effects)
            elif "Standard Events" in section or "Media Events" in section or "Response Events" in section:
                sub = "standard" if "Standard" in section else "media" if "Media" in section else "response"
                card = Card(cid, cells[1], "event", sub, effects=effects)
            elif "4.1 Locations" in section:
                card = Card(cid, cells[1], "location", effects=effects)
            elif "4.2 Victims" in section:
                card = Card(cid, cells[1], "victim", attrs=frozenset(attr_id(a) for a in cells[3].split(",")),
                            points=int(cells[4]), effects=effects)
            else:
                continue
            cards[cid] = card
    return cards
