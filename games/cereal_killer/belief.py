"""Where the Killer may be: the spaces consistent with everything a seat has seen, read from that seat's view only.

A forward filter over the days of :data:`view["history"]`: the Killer starts on a House (day 1), then each day walks
exactly three steps (Underground and Train hops allowed) never onto a hunter's space when it moved, passes the
day's victim (if any) and does not end on the day's Witness. The day's public answers, missed arrests and Bites,
and (Lola's view only) her Sniffs and Barks then prune where it ended. Every observation of a day is about that
day's route or final space (the Killer does not move while the hunters act), so the filter is exact: a space is
kept if and only if some route history explains everything seen.

Rulebook "The Killer", "The Questions", "Lola, the Police Dog"; edition rulings in ``games/cereal_killer/README.md``.
The Killer's policy runs the same filter on the public part of its own view, to keep the hunters guessing.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import cache, lru_cache
from typing import Any

from games.cereal_killer.board import INDOORS, Geometry, geometry
from games.cereal_killer.killer import walks

#: end space -> the routes (start + 3 steps, as sets of spaces) that reach it consistently with the day's clues
Routes = dict[int, list[frozenset[int]]]


def geo_of_view(view: Mapping[str, Any]) -> Geometry:
    """The board pair of the game ``view`` describes."""
    return geometry(view["boards"]["city"], view["boards"]["suburbs"])


@cache
def walks_from(geo: Geometry, start: int) -> tuple[tuple[int, ...], ...]:
    """Every 3-step walk from ``start`` with nobody in the way (the Killer's rules: :func:`killer.walks`)."""
    return tuple(tuple(path) for path in walks(geo, start, set()))


@cache
def distances(geo: Geometry, *, transit: bool) -> dict[int, dict[int, int]]:
    """All-pairs step counts on ``geo`` (BFS; Underground and Train hops count when ``transit``)."""
    out: dict[int, dict[int, int]] = {}
    for source in geo.spaces:
        dist, frontier = {source: 0}, [source]
        while frontier:
            nxt = []
            for here in frontier:
                for step in geo.steps_from(here, transit=transit):
                    if step not in dist:
                        dist[step] = dist[here] + 1
                        nxt.append(step)
            frontier = nxt
        out[source] = dist
    return out


def answer_fits(geo: Geometry, question: str, witness: int, answer: str, space: int) -> bool:
    """Whether the Killer on ``space`` may give ``answer`` to ``question`` about ``witness`` (the engine's
    :func:`hunters.question_options`, read backwards)."""
    if question == "direction":
        return answer in geo.directions(witness, space)
    if question == "same_row":
        return (geo.row(space) == geo.row(witness)) == (answer == "yes")
    if question == "same_column":
        return (geo.column(space) == geo.column(witness)) == (answer == "yes")
    if question == "indoors":
        return (geo.kind(space) in INDOORS) == (answer == "yes")
    if question == "parity":
        return ("even" if space % 2 == 0 else "odd") == answer
    return geo.zone(space) == answer


def sniff_fits(geo: Geometry, sniffed: int, answer: str, route: frozenset[int], end: int) -> bool:
    """Whether a Sniff of ``sniffed`` could answer ``answer`` for the day's ``route`` ending on ``end``."""
    if answer == "no":
        return sniffed not in route
    return sniffed in route and answer in geo.directions(sniffed, end)


def bark_fits(geo: Geometry, at: int, answer: str, space: int) -> bool:
    """Whether a Bark by Lola on ``at`` answers ``answer`` with the Killer on ``space``."""
    return (space == at or space in geo.around(at)) == (answer == "yes")


@lru_cache(maxsize=4096)
def _day_routes(geo: Geometry, starts: tuple[int, ...], blocked: frozenset[int], victim: int | None,
                witness: int | None, sniffs: tuple[tuple[int, str], ...]) -> Routes:
    out: Routes = {}
    for start in starts:
        for path in walks_from(geo, start):
            if blocked.intersection(path) or path[-1] == witness:
                continue
            route = frozenset((start, *path))
            if victim is not None and victim not in route:
                continue
            if all(sniff_fits(geo, space, answer, route, path[-1]) for space, answer in sniffs):
                out.setdefault(path[-1], []).append(route)
    return out


def _by_day(items: Iterable[Mapping[str, Any]]) -> dict[int, list[Mapping[str, Any]]]:
    out: dict[int, list[Mapping[str, Any]]] = {}
    for item in items:
        out.setdefault(item["day"], []).append(item)
    return out


def killer_routes(view: Mapping[str, Any], *, extra: Mapping[str, Any] | None = None) -> Routes:
    """The Killer's possible spaces now (after its latest walk), each with the routes of that day that reach it,
    given everything in ``view`` (``lola_answers`` when present: Lola's view). ``extra`` adds one hypothetical
    clue of the latest day: ``{"answer": {...}}`` (a public answer) or ``{"lola": {...}}`` (a Sniff or Bark), as
    the view would list it. Empty before the Killer's first walk, or when no history fits (never, for a real
    game)."""
    geo = geo_of_view(view)
    victims = {v["day"]: v["space"] for v in view["victims"]}
    answers = _by_day([*view["answers"], *([extra["answer"]] if extra and "answer" in extra else [])])
    lola = _by_day([*view.get("lola_answers", []), *([extra["lola"]] if extra and "lola" in extra else [])])
    possible: tuple[int, ...] = geo.of_kind("H")
    routes: Routes = {}
    for entry in view["history"]:
        day = entry["day"]
        blocked = frozenset(s for s in (entry["detective"], entry["lola"]) if s is not None)
        sniffs = tuple((a["space"], a["answer"]) for a in lola.get(day, []) if a["ability"] == "sniff")
        routes = dict(_day_routes(geo, possible, blocked, victims.get(day), entry["witness"], sniffs))
        for end in list(routes):
            if end in entry["misses"] or not all(
                    answer_fits(geo, a["question"], a["witness"], a["answer"], end) for a in answers.get(day, [])) \
                    or not all(bark_fits(geo, a["at"], a["answer"], end)
                               for a in lola.get(day, []) if a["ability"] == "bark"):
                del routes[end]
        possible = tuple(sorted(routes))
    return routes


def possible_spaces(view: Mapping[str, Any], *, extra: Mapping[str, Any] | None = None) -> frozenset[int]:
    """The spaces the Killer may stand on now, from ``view`` alone (see :func:`killer_routes`)."""
    return frozenset(killer_routes(view, extra=extra))


def public_part(view: Mapping[str, Any]) -> dict[str, Any]:
    """``view`` without Lola's private answers: what the Detective and the channel know."""
    return {key: value for key, value in view.items() if key != "lola_answers"}
