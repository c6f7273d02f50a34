"""The card edition's effect language (edition §2.4 grammar, §2.3 kinds, §9.5 tokens) parsed into effect objects.

``parse_effects("static: capacity(n=3) ; on_whack_here: draw(n=1, who=whacker)")`` returns a tuple of
:class:`Effect`. Anything the grammar or the kind schema rejects raises :class:`DslError` (unknown kind, trigger,
parameter, attribute id or enum value; a missing required parameter; a trigger on a card type §2.1 does not allow).
"""

from __future__ import annotations

import re
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

WEAPON_ATTRS = frozenset({"Gun", "Brutal", "Messy", "Explosive", "SharpPointy"})
VICTIM_ATTRS = frozenset({"ArtsyFartsy", "TreeHugger", "Innocent", "Child", "Pretentious", "RightWing", "Old",
                          "Stupid", "Student", "Hypocrite"})
WINDOWS = ("whack_declared", "incident_formed", "media_played", "victim_placed")
CARD_TYPES = ("Weapon", "Surprise", "Event")

#: trigger -> card types it may appear on (§2.1); "response" stands for every ``response(T)``
TRIGGERS: dict[str, frozenset[str]] = {
    "static": frozenset({"weapon", "surprise", "event", "location", "victim"}),
    "on_play": frozenset({"event"}), "on_reveal": frozenset({"surprise"}), "on_whacked": frozenset({"victim"}),
    "on_whack_nearby": frozenset({"victim"}), "on_whack_here": frozenset({"location"}),
    "on_incident": frozenset({"weapon"}), "on_place": frozenset({"victim"}),
    "start_of_turn(placer)": frozenset({"victim"}), "response": frozenset({"event"}),
}

_WHO = ("whacker", "self", "placer", "chosen_other")
#: kind -> parameter -> (required, value spec). Specs: "int", "bool", "filter_or_none", "victim_attr", "kinds",
#: "int_or_all", or a tuple of allowed identifiers (§2.3, §9.5).
KINDS: dict[str, dict[str, tuple[bool, Any]]] = {
    "points": {"amount": (True, "int"), "target": (True, ("this_victim", "each_victim", "incident")),
               "filter": (False, "filter_or_none"), "mode": (False, ("add", "set", "multiply"))},
    "body_count": {"amount": (True, "int")},
    "placement_restriction": {"allowed": (True, "filter_or_none")},
    "capacity": {"n": (True, "int")},
    "whack_restriction": {"allowed": (True, "filter_or_none")},
    "whack_scope": {"scope": (True, ("location", "out_on_the_town")), "all": (True, "bool")},
    "draw": {"n": (True, "int"), "who": (True, _WHO)},
    "place_victims": {"n": (True, "int")},
    "discard": {"who": (True, _WHO), "n": (True, "int_or_all"), "choice": (True, ("owner", "random"))},
    "trigger_shootout": {"target": (True, _WHO)},
    "cancel": {"what": (True, ("whacking", "this_victim", "triggering_card"))},
    "steal_incident": {"max_score": (True, "int")},
    "move_victim": {"n": (True, "int"), "from": (True, ("out_on_the_town", "triggering_victim")),
                    "to": (True, ("one_location", "any_legal"))},
    "revive": {"n": (True, "int")},
    "skip_turn": {"who": (True, _WHO)},
    "extra_play": {"n": (True, "int"), "kinds": (True, "kinds")},
    "peek_surprise": {"n": (True, "int"), "may_discard": (True, "bool")},
    "grant_attribute": {"target": (True, ("this_victim",)), "attr": (True, "victim_attr")},
    "leave_play": {},
}


class DslError(ValueError):
    """An effect string the grammar or the schema rejects."""


class Filter(BaseModel):
    """``victim[attr in {..}]`` / ``weapon[attr not in {..}]``: matches when the card has any (``negate``: none)
    of ``attrs``."""

    model_config = ConfigDict(frozen=True)

    subject: Literal["victim", "weapon"]
    negate: bool
    attrs: frozenset[str]

    def matches(self, attrs: frozenset[str] | set[str]) -> bool:
        return bool(self.attrs & set(attrs)) != self.negate


class Pred(BaseModel):
    """One predicate of a condition (§2.2): ``name`` with its set or comparison, optionally negated."""

    model_config = ConfigDict(frozen=True)

    negate: bool = False
    name: Literal["weapon.attr", "incident.location", "incident.has_media", "incident.victim_count",
                  "incident.victim_attr_any"]
    attrs: frozenset[str] = frozenset()
    op: Literal["=", ">="] | None = None
    value: int = 0


class Effect(BaseModel):
    """One parsed effect: ``trigger`` (``response`` with ``window`` for Response Events), ``kind``, typed
    ``args`` and the ``condition`` (predicates joined by *and*; empty = always)."""

    model_config = ConfigDict(frozen=True)

    trigger: str
    window: str | None = None
    kind: str
    args: dict[str, Any]
    condition: tuple[Pred, ...] = ()

    def arg(self, name: str, default: Any = None) -> Any:
        return self.args.get(name, default)


_IDENT = r"[A-Za-z_][A-Za-z0-9_]*"
_SET = rf"\{{{_IDENT}(?:, {_IDENT})*\}}"
_EFFECT = re.compile(
    rf"^(?P<trigger>static|on_play|on_reveal|on_whacked|on_whack_nearby|on_whack_here|on_incident|on_place"
    rf"|start_of_turn\(placer\)|response\((?P<window>{'|'.join(WINDOWS)})\)): (?P<kind>{_IDENT})\((?P<args>.*?)\)"
    rf"(?: if (?P<cond>.+))?$")
_FILTER = re.compile(rf"^(victim|weapon)\[attr (in|not in) ({_SET})\]$")
_PRED = re.compile(rf"^(not )?(?:weapon\.attr in ({_SET})|(incident\.location)|(incident\.has_media)"
                   rf"|incident\.victim_count (=|>=) (\d+)|incident\.victim_attr_any ({_SET}))$")


def _set(text: str) -> frozenset[str]:
    return frozenset(part.strip() for part in text[1:-1].split(","))


def _attrs(names: frozenset[str], allowed: frozenset[str]) -> frozenset[str]:
    unknown = names - allowed
    if unknown:
        raise DslError(f"unknown attribute id {sorted(unknown)}")
    return names


def _value(text: str) -> Any:
    """A raw value, tried in the §9.5 order: filter, set, int, keyword, ident."""
    if m := _FILTER.match(text):
        allowed = VICTIM_ATTRS if m.group(1) == "victim" else WEAPON_ATTRS
        return Filter(subject=m.group(1), negate=m.group(2) == "not in", attrs=_attrs(_set(m.group(3)), allowed))
    if re.fullmatch(_SET, text):
        return _set(text)
    if re.fullmatch(r"[+-]?\d+", text):
        return int(text)
    if text in ("none", "true", "false"):
        return {"none": None, "true": True, "false": False}[text]
    if re.fullmatch(_IDENT, text):
        return text
    raise DslError(f"bad value {text!r}")


def _check(kind: str, name: str, spec: Any, value: Any, raw: str) -> Any:
    ok = {
        "int": lambda v: isinstance(v, int) and not isinstance(v, bool),
        "bool": lambda v: isinstance(v, bool),
        "filter_or_none": lambda v: v is None or isinstance(v, Filter),
        "victim_attr": lambda v: isinstance(v, str) and v in VICTIM_ATTRS,
        "kinds": lambda v: isinstance(v, frozenset) and v <= set(CARD_TYPES),
        "int_or_all": lambda v: (isinstance(v, int) and not isinstance(v, bool)) or v == "all",
    }
    valid = value in spec if isinstance(spec, tuple) else ok[spec](value)
    if not valid:
        raise DslError(f"{kind}: bad value {raw!r} for {name}")
    return value


def _args(kind: str, text: str) -> dict[str, Any]:
    if kind not in KINDS:
        raise DslError(f"unknown kind {kind!r}")
    schema = KINDS[kind]
    args: dict[str, Any] = {}
    # split on ", " outside brackets and braces
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        depth += ch in "[{"
        depth -= ch in "]}"
        if depth == 0 and text.startswith(", ", i):
            parts.append(text[start:i])
            start = i + 2
    if text:
        parts.append(text[start:])
    for part in parts:
        key, sep, raw = part.partition("=")
        if not sep or key not in schema:
            raise DslError(f"{kind}: unknown parameter {key!r}")
        if key in args:
            raise DslError(f"{kind}: repeated parameter {key!r}")
        args[key] = _check(kind, key, schema[key][1], _value(raw), raw)
    missing = [key for key, (required, _) in schema.items() if required and key not in args]
    if missing:
        raise DslError(f"{kind}: missing parameters {missing}")
    if kind == "points" and args.get("mode", "add") != "add" and args["target"] != "this_victim":
        raise DslError("points: set/multiply only with target=this_victim")
    return args


def _condition(text: str | None) -> tuple[Pred, ...]:
    if text is None:
        return ()
    preds = []
    for raw in text.split(" and "):
        m = _PRED.match(raw)
        if not m:
            raise DslError(f"bad predicate {raw!r}")
        negate = m.group(1) is not None
        if m.group(2):
            preds.append(Pred(negate=negate, name="weapon.attr", attrs=_attrs(_set(m.group(2)), WEAPON_ATTRS)))
        elif m.group(3):
            preds.append(Pred(negate=negate, name="incident.location"))
        elif m.group(4):
            preds.append(Pred(negate=negate, name="incident.has_media"))
        elif m.group(5):
            preds.append(Pred(negate=negate, name="incident.victim_count", op=m.group(5), value=int(m.group(6))))
        else:
            preds.append(Pred(negate=negate, name="incident.victim_attr_any",
                              attrs=_attrs(_set(m.group(7)), VICTIM_ATTRS)))
    return tuple(preds)


def parse_effects(text: str, card_type: str) -> tuple[Effect, ...]:
    """Parse a card's effect column (``—`` = none) for a card of ``card_type`` (``weapon``, ``surprise``,
    ``event``, ``location``, ``victim``). Raises :class:`DslError`."""
    if text == "—":
        return ()
    effects = []
    for raw in text.split(" ; "):
        m = _EFFECT.match(raw)
        if not m:
            raise DslError(f"bad effect {raw!r}")
        trigger = "response" if m.group("window") else m.group("trigger")
        if card_type not in TRIGGERS[trigger]:
            raise DslError(f"trigger {trigger!r} not allowed on a {card_type}")
        effects.append(Effect(trigger=trigger, window=m.group("window"), kind=m.group("kind"),
                              args=_args(m.group("kind"), m.group("args")), condition=_condition(m.group("cond"))))
    return tuple(effects)
