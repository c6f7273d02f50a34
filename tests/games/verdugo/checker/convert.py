"""The checker's action tuples (see ``model``) to and from the engine's action models."""

from __future__ import annotations

from typing import Any

from games.verdugo.models import (
    Call,
    ChooseDirection,
    ChoosePair,
    ChoosePrisoner,
    Chop,
    Draw,
    EndMatch,
    Forfeit,
    Peek,
    SetAside,
    Stop,
    Successor,
    Swap,
)


def to_engine(action: tuple[Any, ...]) -> Any:
    kind = action[0]
    return {
        "successor": lambda: Successor(seat=action[1]), "set_aside": lambda: SetAside(index=action[1]),
        "draw": Draw, "call": lambda: Call(seat=action[1]), "peek": lambda: Peek(position=action[1]),
        "swap": lambda: Swap(a=action[1], b=action[2]), "forfeit": Forfeit,
        "prisoner": lambda: ChoosePrisoner(seat=action[1]), "pair": lambda: ChoosePair(a=action[1], b=action[2]),
        "direction": lambda: ChooseDirection(direction=action[1]), "chop": lambda: Chop(seat=action[1]),
        "stop": Stop, "end_match": EndMatch,
    }[kind]()


def from_engine(a: Any) -> tuple[Any, ...]:
    d = a.model_dump(mode="json")
    kind = d.pop("type")
    names = {"successor": "successor", "set_aside": "set_aside", "draw": "draw", "call": "call", "peek": "peek",
             "swap": "swap", "forfeit": "forfeit", "choose_prisoner": "prisoner", "choose_pair": "pair",
             "choose_direction": "direction", "chop": "chop", "stop": "stop", "end_match": "end_match"}
    out = (names[kind], *d.values())
    if out[0] in ("swap", "pair"):  # unordered
        a_, b_ = out[1], out[2]
        key = sorted([a_, b_], key=lambda x: (isinstance(x, str), x))
        out = (out[0], *key)
    return out


def norm(actions: set[tuple[Any, ...]]) -> set[tuple[Any, ...]]:
    out = set()
    for a in actions:
        if a[0] in ("swap", "pair"):
            key = sorted([a[1], a[2]], key=lambda x: (isinstance(x, str), x))
            a = (a[0], *key)
        out.add(a)
    return out
