"""The Killer's movement rules: validate a secret turn, enumerate legal turns, detect a cornered Killer.

Rulebook "The Killer" (always 3 steps, retracing allowed, never onto a hunter's space, Underground/Train hops as
steps, one victim per turn and per House, at most 6, the Witness on an adjacent Park it may not end on) and the
edition rulings (a House holds one victim per game; the cornered check at the start of each Killer turn).
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache, lru_cache
from typing import NamedTuple

from games.cereal_killer.board import Geometry
from games.cereal_killer.models import KILLER_STEPS, MAX_VICTIMS, CerealState, KillerTurn
from games.core import IllegalAction
from games.core.copying import replace


class CheckedTurn(NamedTuple):
    route: list[int]  # start + the 3 steps
    victim: int | None
    witness: int | None


def blockers(state: CerealState) -> dict[int, str]:
    """Spaces the Killer may not step onto -> who stands there (``detective`` / ``lola``)."""
    out: dict[int, str] = {}
    if state.lola is not None:
        out[state.lola] = "lola"
    if state.detective is not None:
        out[state.detective] = "detective"
    return out


def _check_space(geo: Geometry, space: int) -> None:
    if not geo.is_space(space):
        raise IllegalAction("cereal_killer.not_a_space", space=space, last=geo.spaces[-1])


@cache
def adjacent_parks(geo: Geometry, house: int) -> tuple[int, ...]:
    """The Parks orthogonally next to ``house`` (where its Witness may go)."""
    return tuple(s for s in geo.neighbours(house) if geo.kind(s) == "P")


def check_killer_turn(state: CerealState, geo: Geometry, action: KillerTurn) -> CheckedTurn:
    """Validate ``action`` against ``state``; returns the route, the victim and the resolved Witness Park.

    Raises :class:`IllegalAction` with codes ``cereal_killer.``: ``need_start``, ``wrong_start`` (space, current),
    ``not_a_space`` (space, last), ``not_a_house`` (space), ``three_steps`` (count), ``not_adjacent`` (a, b),
    ``hunter_blocks`` (space, who), ``victim_not_on_route`` (space), ``house_used`` (space, day),
    ``no_victims_left`` (max), ``witness_without_victim``, ``no_park`` (victim), ``witness_needed`` (victim,
    options), ``witness_not_adjacent`` (space, victim), ``ends_on_witness`` (space), ``step_in_place`` (space: the
    first step names the space the Killer already stands on, e.g. a start written without ``start``).
    """
    if state.killer is None:
        if action.start is None:
            raise IllegalAction("cereal_killer.need_start")
        _check_space(geo, action.start)
        if geo.kind(action.start) != "H":
            raise IllegalAction("cereal_killer.not_a_house", space=action.start)
        start = action.start
    else:
        if action.start is not None and action.start != state.killer:
            raise IllegalAction("cereal_killer.wrong_start", space=action.start, current=state.killer)
        start = state.killer
    if len(action.path) != KILLER_STEPS:
        raise IllegalAction("cereal_killer.three_steps", count=len(action.path))
    blocked = blockers(state)
    route = [start]
    for step in action.path:
        _check_space(geo, step)
        if step == route[-1] and len(route) == 1 and action.start is None:
            raise IllegalAction("cereal_killer.step_in_place", space=step)  # "9 8 13" while standing on 9
        if step not in geo.steps_from(route[-1], transit=True):
            raise IllegalAction("cereal_killer.not_adjacent", a=route[-1], b=step)
        if step in blocked:
            raise IllegalAction("cereal_killer.hunter_blocks", space=step, who=blocked[step])
        route.append(step)
    witness = _check_victim(state, geo, route, action)
    return CheckedTurn(route, action.victim, witness)


def _check_victim(state: CerealState, geo: Geometry, route: list[int], action: KillerTurn) -> int | None:
    victim = action.victim
    if victim is None:
        if action.witness is not None:
            raise IllegalAction("cereal_killer.witness_without_victim")
        return None
    _check_space(geo, victim)
    if geo.kind(victim) != "H":
        raise IllegalAction("cereal_killer.not_a_house", space=victim)
    if victim not in route:
        raise IllegalAction("cereal_killer.victim_not_on_route", space=victim)
    for earlier in state.victims:
        if earlier.space == victim:
            raise IllegalAction("cereal_killer.house_used", space=victim, day=earlier.day)
    if len(state.victims) >= MAX_VICTIMS:
        raise IllegalAction("cereal_killer.no_victims_left", max=MAX_VICTIMS)
    parks = adjacent_parks(geo, victim)
    witness = action.witness
    if not parks:
        if witness is not None:
            raise IllegalAction("cereal_killer.no_park", victim=victim)
        return None
    if witness is None:
        if len(parks) > 1:
            raise IllegalAction("cereal_killer.witness_needed", victim=victim, options=", ".join(map(str, parks)))
        witness = parks[0]
    if witness not in parks:
        raise IllegalAction("cereal_killer.witness_not_adjacent", space=witness, victim=victim)
    if route[-1] == witness:
        raise IllegalAction("cereal_killer.ends_on_witness", space=witness)
    return witness


def walks(geo: Geometry, start: int, blocked: set[int] | frozenset[int],
          steps: int = KILLER_STEPS) -> Iterator[list[int]]:
    """Every walk of exactly ``steps`` steps from ``start`` (excluded from the result) avoiding ``blocked``."""
    for walk in _walks(geo, start, steps):
        if not any(space in blocked for space in walk):
            yield list(walk)


@cache
def _walks(geo: Geometry, start: int, steps: int) -> tuple[tuple[int, ...], ...]:
    """Every walk of exactly ``steps`` steps from ``start`` on the board, in the order of
    :meth:`Geometry.steps_from`."""
    if steps == 0:
        return ((),)
    return tuple((nxt, *rest) for nxt in geo.steps_from(start, transit=True) for rest in _walks(geo, nxt, steps - 1))


def is_cornered(state: CerealState, geo: Geometry) -> bool:
    """True when the Killer has no legal 3-step walk (the hunters win at once: edition ruling)."""
    assert state.killer is not None
    return next(walks(geo, state.killer, set(blockers(state))), None) is None


def killer_turns(state: CerealState, geo: Geometry) -> list[KillerTurn]:
    """Every legal :class:`KillerTurn` (witness always spelled out when there is one). The list depends only on
    the board, the Killer's space, the hunters' spaces and the victims' houses, so it is kept for positions seen
    again (the first day's, with no hunter on the board, is the same in every game on that board)."""
    return list(_turns(geo, state.killer, frozenset(blockers(state)), frozenset(v.space for v in state.victims),
                       len(state.victims) >= MAX_VICTIMS))


_TEMPLATE = KillerTurn(path=[])


@lru_cache(maxsize=256)
def _turns(geo: Geometry, killer: int | None, blocked: frozenset[int], used: frozenset[int],
           full: bool) -> tuple[KillerTurn, ...]:
    starts = [killer] if killer is not None else list(geo.of_kind("H"))
    out: list[KillerTurn] = []
    kinds = geo.kinds
    for start in starts:
        for path in walks(geo, start, blocked):
            first = start if killer is None else None
            walk = replace(_TEMPLATE, start=first, path=path)  # a legal walk: no validation needed
            out.append(walk)
            if full:
                continue
            for victim in sorted({s for s in [start, *path] if kinds[s] == "H" and s not in used}):
                for witness in adjacent_parks(geo, victim) or (None,):
                    if witness is None or witness != path[-1]:  # already checked: no validation needed
                        out.append(replace(walk, victim=victim, witness=witness))
    return tuple(out)


def rode_transit(geo: Geometry, route: list[int]) -> bool:
    """Whether a route used an Underground or Train hop (a step between non-neighbours)."""
    return any(b not in geo.neighbours(a) for a, b in zip(route, route[1:], strict=False))
