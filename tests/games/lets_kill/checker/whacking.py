"""The whacking pipeline's result (§7.4, W1-W9, LK-09, LK-12, §9.6), checked once a declared whacking is over."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .rules import card, in_play, where


@dataclass
class Declared:
    whacker: int
    weapon: str
    targets: list[str]
    location: str | None
    surprises: dict[str, str | None]
    at_location: list[str]
    events: list[tuple[str, dict]] = field(default_factory=list)

    @classmethod
    def at(cls, state: Any, seat: int, weapon: str, targets: list[str]) -> Declared:
        loc = where(state, targets[0])
        at_loc = next((list(x.victims) for x in state.locations if x.card == loc), [])
        return cls(seat, weapon, list(targets), loc, {t: state.surprises.get(t) for t in targets}, at_loc)

    def escapes(self) -> set[str]:
        """S12 always, S08 against a Gun or Sharp & Pointy Weapon (the DSL of each Surprise's ``cancel``)."""
        attrs = card(self.weapon).attrs
        out = set()
        for t, s in self.surprises.items():
            for e in card(s).fx("on_reveal", "cancel") if s else []:
                cond = e.condition
                if cond is None or any(a in attrs for a in cond.split("{")[1].rstrip("}").replace(" ", "").split(",")):
                    out.add(t)
        return out


def check(d: Declared, state: Any) -> str | None:
    keys = [k.removeprefix("lets_kill.") for k, _ in d.events]
    responded = [p.get("card") for k, p in d.events if k.endswith(".response")]
    found = [i for i in state.incidents if i.weapon == d.weapon]
    positions = {t: where(state, t) if t in in_play(state) else "gone" for t in d.targets}
    if "whack_cancelled" in keys:
        if "E14" not in responded:
            return "whacking cancelled without Banana Peel"
        if found or d.weapon not in state.lk_discard:
            return "a cancelled whacking formed an Incident or kept its Weapon (W2)"
        if positions != {t: d.location for t in d.targets} or any(state.surprises.get(t) != s
                                                                    for t, s in d.surprises.items()):
            return f"a cancelled whacking moved or revealed something (W2): {positions}"
        return None
    survivors = [t for t in d.targets if t not in d.escapes()]
    if "whack_failed" in keys:
        if not any(k == "shootout" for k in keys):
            return "a failed whacking without a shootout"
        if found or d.weapon not in state.lk_discard:
            return "a failed whacking formed an Incident or kept its Weapon (§7.4)"
        if positions != {t: d.location for t in d.targets}:
            return f"after a failed whacking the targets are at {positions}, not where they stood {d.location}"
        if any(t in state.surprises for t, s in d.surprises.items() if s):
            return "a failed whacking kept a revealed Surprise under its Victim (RB Shootouts)"
        return None
    if not survivors:
        if found or d.weapon not in state.lk_discard:
            return "every target escaped but an Incident formed (W7)"
        if positions != {t: d.location for t in d.targets}:
            return f"escaped targets moved: {positions} (W7)"
        if any(s and (s in state.surprises.values() or s not in state.lk_discard) for s in d.surprises.values()):
            return "a revealed Surprise of an escaped Victim was not discarded (W3, §9.6)"
        return None
    revived = [p.get("card") for k, p in d.events if k.endswith(".revived")]
    if not found:
        if revived == survivors and "E15" in responded:
            return None
        return f"no Incident formed for {d.weapon} although {survivors} did not escape (W7)"
    inc = found[0]
    expected = [t for t in survivors if t not in revived]
    if inc.owner != d.whacker or inc.victims != expected:
        return f"Incident {inc.victims} of seat {inc.owner}, expected {expected} of seat {d.whacker} (W7, §9.12)"
    if inc.location != d.location:
        return f"Incident location {inc.location}, expected {d.location} (W7)"
    if inc.surprises != {t: d.surprises[t] for t in inc.victims if d.surprises[t]}:
        return f"Incident Surprises {inc.surprises} vs {d.surprises} (W7)"
    nearby = [v for v in d.at_location if v not in d.targets]
    penalties = sorted(int(e.args["amount"]) for v in nearby for e in card(v).fx("on_whack_nearby", "points"))
    if sorted(inc.modifiers) != penalties:
        return f"Incident modifier entries {inc.modifiers}, expected {penalties} (W4 on_whack_nearby, U5)"
    if d.location and any(v not in state.town for v in d.at_location if v not in inc.victims and v not in
                          state.victims_discard):
        return f"Victims left on {d.location} did not move out on the town (LK-09): {d.at_location}"
    if d.location and any(x.card == d.location for x in state.locations):
        return "the Location of an Incident is still in play (LK-09)"
    return None
