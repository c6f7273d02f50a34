"""A Cereal Killer board in words: the alt text of the board image (:func:`describe`), the status embed's board
lines (:func:`describe_board`) and a space's name (:func:`place_name`), from an engine view only (the Killer's space
and route only when the Killer's own ``route`` is given or the view reveals them at the end)."""

from __future__ import annotations

from typing import Any

from bot.i18n.catalog import t
from games.cereal_killer.board import KIND_NAMES, Geometry, geometry


def board_geometry(view: dict[str, Any]) -> Geometry:
    """The board of an engine view (its ``boards`` City and Suburbs)."""
    boards = view["boards"]
    return geometry(boards["city"], boards["suburbs"])


def killer_space(view: dict[str, Any], route: list[int] | None) -> int | None:
    if route:
        return route[-1]
    revealed = view.get("revealed")
    return None if not revealed else revealed.get("killer_space")


def place_name(geo: Geometry, space: int, language: str) -> str:
    """A space in words, e.g. "12 (Park)"."""
    return t("cereal_killer.render.place", language, space=space,
             kind=t(f"cereal_killer.kind.{KIND_NAMES[geo.kind(space)]}", language))


def describe(view: dict[str, Any], *, route: list[int] | None = None, language: str = "en") -> str:
    """The whole board in words, for the image's alt text: day, what the board shows, arrests and objective, then
    the route if given (or the revealed Killer)."""
    geo = board_geometry(view)
    lines = [t("cereal_killer.render.title", language, day=view["day"], days=view["days"]),
             *_board_lines(view, geo, language), t("cereal_killer.render.arrests", language, left=view["arrests_left"])]
    objective = view["next_objective"]
    if objective is not None:
        lines.append(t("cereal_killer.render.objective", language, day=objective["day"],
                       victims=objective["victims"]))
    return "\n".join([*lines, *_killer_line(view, geo, route, language)])


def describe_board(view: dict[str, Any], *, language: str = "en") -> str:
    """What only the board shows, for the status embed, whose title and fields already give the day, arrests and
    objective: boards, pieces, victims ("No victims yet." when none), Lola's answers, the revealed Killer."""
    geo = board_geometry(view)
    return "\n".join([*_board_lines(view, geo, language), *_killer_line(view, geo, None, language)])


def _board_lines(view: dict[str, Any], geo: Geometry, language: str) -> list[str]:
    boards = view["boards"]
    if boards["suburbs"] is None:
        lines = [t("cereal_killer.render.board", language, city=boards["city"])]
    else:
        lines = [t("cereal_killer.render.boards", language, city=boards["city"], suburbs=boards["suburbs"])]
    for piece in ("detective", "lola", "witness"):
        if view[piece] is not None:
            lines.append(t(f"cereal_killer.render.{piece}", language, place=place_name(geo, view[piece], language)))
    victims = ", ".join(str(v["space"]) for v in view["victims"])
    lines.append(t("cereal_killer.render.victims", language, count=len(view["victims"]), spaces=victims) if victims
                 else t("cereal_killer.render.no_victims", language))
    for answer in view["answers"]:
        lines.append(t("cereal_killer.render.answer", language, day=answer["day"], witness=answer["witness"],
                       question=t(f"cereal_killer.question.{answer['question']}", language),
                       answer=t(f"cereal_killer.answer.{answer['answer']}", language)))
    return lines


def _killer_line(view: dict[str, Any], geo: Geometry, route: list[int] | None, language: str) -> list[str]:
    killer = killer_space(view, route)
    if route:
        return [t("cereal_killer.render.route", language, route=" → ".join(map(str, route)),
                  place=place_name(geo, route[-1], language))]
    if killer is not None:
        return [t("cereal_killer.render.revealed", language, place=place_name(geo, killer, language))]
    return []
