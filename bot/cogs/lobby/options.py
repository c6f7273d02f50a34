"""What each game accepts in the lobby, read from its engines' ``Options`` models: one :class:`LobbyOption` per
field (the union over the game's modes), plus ``rounds`` where a mode plays points series.

A field is offered when its type fits a Discord option: ``bool``, ``int`` or ``float`` (the ``ge``/``gt``/``le``/
``lt`` constraints become Discord's minimum and maximum), a ``Literal`` or ``Enum`` of strings or whole numbers
(its values become the choices) or ``str``; ``None`` in a union only makes it optional. Fields marked
:data:`~games.core.SERVER_SETTING` (filled in from the server's settings at start) and fields of other types
(datetimes, lists...) are not offered. Texts come from the catalogues: ``option.<game>.<name>`` describes an
option, ``option.<game>.<name>.<value>`` names a choice and ``cmd.newgame.<game>.<name>.name`` is its Spanish name;
without them the field's own ``description`` and its name are used.
"""

from __future__ import annotations

import enum
import types
from dataclasses import dataclass
from typing import Any, Literal, Union, get_args, get_origin

from pydantic.fields import FieldInfo

from bot.errors import UserError
from bot.i18n import catalog
from bot.tables import TableError
from bot.tables.options import SeriesOptions, validate_options, validate_rounds
from games.core import SERVER_SETTING, GameInfo, get_engine

#: parameter names /newgame gives itself (an Options field may not use them)
RESERVED = ("mode", "starts_in")
#: the parameter of a points series (for the modes whose engine declares ``features.series``)
ROUNDS = "rounds"
#: Discord's longest option description
DESCRIPTION_MAX = 100
#: what the lobby opens with: (the engine's options, the series length or ``None``)
Chosen = tuple[dict[str, Any], int | None]


@dataclass(frozen=True)
class LobbyOption:
    """One typed ``/newgame <game>`` parameter: the ``Options`` field ``name`` (or ``rounds``), its Python
    ``kind`` (``bool``, ``int``, ``float`` or ``str``), its bounds (``minimum``/``maximum``, inclusive, ``None``:
    open), its allowed ``choices`` (empty: any value), the ``modes`` it applies to and, for a text, its
    ``length`` at most (Discord's ``max_length``)."""

    game: str
    name: str
    kind: type
    minimum: float | None = None
    maximum: float | None = None
    choices: tuple[Any, ...] = ()
    modes: tuple[str, ...] = ()
    hint: str | None = None  # the field's own description: the English text when the catalogue has none
    length: int | None = None  # a text's longest (the field's ``max_length``: Discord's client holds to it)

    def label(self, language: str) -> str:
        """The option's name as Discord shows it in ``language`` (its Spanish name, else the field name)."""
        key = "cmd.newgame.rounds.name" if self.name == ROUNDS else f"cmd.newgame.{self.game}.{self.name}.name"
        return catalog(language).messages.get(key) or self.name

    def limits(self) -> str:
        """The bounds as people write them: ``1-10``, ``≥ 0``, ``≤ 7``, or ``""`` without bounds."""
        low, high = (_number(self.minimum), _number(self.maximum))
        if low is not None and high is not None:
            return f"{low}-{high}"
        return f"≥ {low}" if low is not None else f"≤ {high}" if high is not None else ""

    def description(self, language: str) -> str:
        """What the option is, with its bounds, in ``language`` (at most Discord's 100 characters)."""
        cat = catalog(language)
        key = f"option.{self.game}.{self.name}" if self.name != ROUNDS else "option.rounds"
        text = cat.render(key) if cat.has(key) else (self.hint or self.name)
        limits = self.limits()
        text = f"{text} ({limits})" if limits else text
        return text if len(text) <= DESCRIPTION_MAX else text[:DESCRIPTION_MAX - 1] + "…"

    def choice_label(self, value: Any, language: str) -> str:
        """The name of the choice ``value`` in ``language`` (its catalogue name, else the value itself)."""
        key = f"option.{self.game}.{self.name}.{value}"
        cat = catalog(language)
        return (cat.render(key) if cat.has(key) else str(value))[:DESCRIPTION_MAX]

    def shown(self, language: str) -> str:
        """The option as /rules lists it: its name and what it accepts, each choice by the name /newgame gives it
        (``side`` (A, B); ``rounds`` (1-10); ``match`` (Tour: everyone is the Executioner once, ...); free text:
        ``special_roles`` (text))."""
        accepts = ", ".join(self.choice_label(v, language) for v in self.choices) or self.limits()
        if self.kind is bool:
            accepts = catalog(language).render("option.yes_no")
        elif self.kind is str and not self.choices:
            accepts = catalog(language).render("option.text")
        return f"`{self.label(language)}`" + (f" ({accepts})" if accepts else "")

    def value_label(self, value: Any, language: str) -> str:
        """A chosen value as the lobby shows it: a choice by its name, a yes/no in words, a number as it is."""
        if self.choices:
            return self.choice_label(value, language)
        if self.kind is bool:
            return catalog(language).render("option.yes" if value else "option.no")
        return str(value)


def _number(value: float | None) -> int | float | None:
    return int(value) if isinstance(value, float) and value.is_integer() else value


def _bounds(field: FieldInfo, kind: type) -> tuple[float | None, float | None]:
    """The field's inclusive bounds (``gt``/``lt`` on whole numbers become the next whole number)."""
    step = 1 if kind is int else 0
    low = high = None
    for item in field.metadata:  # pydantic's annotated-types constraints (Ge, Gt, Le, Lt)
        if getattr(item, "ge", None) is not None:
            low = item.ge
        elif getattr(item, "gt", None) is not None:
            low = item.gt + step
        elif getattr(item, "le", None) is not None:
            high = item.le
        elif getattr(item, "lt", None) is not None:
            high = item.lt - step
    return low, high  # type: ignore[return-value]


def _plain(annotation: Any) -> Any:
    """``annotation`` without ``None`` (``int | None`` -> ``int``); a union of several types stays as it is."""
    if get_origin(annotation) in (Union, types.UnionType):
        rest = [arg for arg in get_args(annotation) if arg is not type(None)]
        return rest[0] if len(rest) == 1 else annotation
    return annotation


def field_option(game: str, mode: str, name: str, field: FieldInfo) -> LobbyOption | None:
    """The lobby option of one ``Options`` field, or ``None`` when the lobby does not offer it (see the module)."""
    if SERVER_SETTING in field.metadata:
        return None
    annotation = _plain(field.annotation)
    values: tuple[Any, ...] = ()
    if get_origin(annotation) is Literal:
        values = get_args(annotation)
    elif isinstance(annotation, type) and issubclass(annotation, enum.Enum):
        values = tuple(member.value for member in annotation)
    if values:
        kinds = {type(value) for value in values}
        if len(kinds) != 1 or not kinds <= {str, int}:
            return None
        return LobbyOption(game, name, kinds.pop(), choices=values, modes=(mode,), hint=field.description)
    if annotation is str:
        length = next((item.max_length for item in field.metadata if getattr(item, "max_length", None)), None)
        return LobbyOption(game, name, str, modes=(mode,), hint=field.description, length=length)
    if annotation is bool:
        return LobbyOption(game, name, bool, modes=(mode,), hint=field.description)
    if annotation in (int, float):
        low, high = _bounds(field, annotation)
        return LobbyOption(game, name, annotation, low, high, modes=(mode,), hint=field.description)
    return None


def _merged(first: LobbyOption, other: LobbyOption) -> LobbyOption:
    """One option for a field two modes share: the widest bounds and every choice (each mode's own limits are
    checked when the lobby opens)."""
    if first.kind is not other.kind:
        raise TypeError(f"{first.game}: option {first.name!r} is a {first.kind.__name__} in one mode and a "
                        f"{other.kind.__name__} in another")
    low = None if first.minimum is None or other.minimum is None else min(first.minimum, other.minimum)
    high = None if first.maximum is None or other.maximum is None else max(first.maximum, other.maximum)
    choices = tuple(dict.fromkeys((*first.choices, *other.choices)))
    length = None if first.length is None or other.length is None else max(first.length, other.length)
    return LobbyOption(first.game, first.name, first.kind, low, high, choices, (*first.modes, *other.modes),
                       first.hint or other.hint, length)


def game_options(game: GameInfo) -> list[LobbyOption]:
    """Every lobby option of ``game`` over its modes, in the order of the first mode that has each, ``rounds``
    last. Raises ``TypeError`` when two modes give one name two types or a field uses a reserved name."""
    found: dict[str, LobbyOption] = {}
    series = tuple(mode.id for mode in game.modes if _series(game.id, mode.id))
    for mode in game.modes:
        for name, field in get_engine(game.id, mode.id).Options.model_fields.items():
            option = field_option(game.id, mode.id, name, field)
            if option is None:
                continue
            if name in RESERVED or (name == ROUNDS and series):
                raise TypeError(f"{game.id}: an Options field may not be called {name!r} (/newgame uses it)")
            found[name] = _merged(found[name], option) if name in found else option
    if series:
        rounds = SeriesOptions.model_fields[ROUNDS]
        found[ROUNDS] = LobbyOption(game.id, ROUNDS, int, *_bounds(rounds, int), modes=series)
    return list(found.values())


def mode_options(game: GameInfo, mode: str) -> list[LobbyOption]:
    """The lobby options ``mode`` of ``game`` accepts (see :func:`game_options`), each with this mode's own limits
    and choices (``/newgame``'s parameter has the widest of all modes: Asesino's ``first_player`` is 0-9 there,
    0-3 on the small table)."""
    fields = get_engine(game.id, mode).Options.model_fields
    return [field_option(game.id, mode, option.name, fields[option.name]) or option if option.name in fields
            else option for option in game_options(game) if mode in option.modes]


def _series(game: str, mode: str) -> bool:
    """Whether ``mode`` plays points series (its engine's ``features.series``)."""
    return get_engine(game, mode).features.series


def chosen_options(game: GameInfo, mode: str, given: dict[str, Any], language: str) -> Chosen:
    """The ``/newgame <game>`` parameters ``given`` for ``mode``, checked with the store's own validators ->
    (the engine options, the series length or ``None``). Nothing is stored.

    Raises :class:`~bot.errors.UserError` ``lobby.option_not_in_mode`` (``mode``, ``names``, ``known``) for an
    option ``mode`` does not have, and ``TableError`` ``table.option.*`` for a value its model refuses, each
    naming the option as Discord shows it in ``language``."""
    offered = {option.name: option for option in game_options(game)}
    foreign = [name for name in given if name not in offered or mode not in offered[name].modes]
    if foreign:
        known = [o.label(language) for o in offered.values() if mode in o.modes]
        raise UserError("lobby.option_not_in_mode", mode=catalog(language).render(f"mode.{game.id}.{mode}"),
                        names=", ".join(offered[n].label(language) if n in offered else n for n in foreign),
                        known=", ".join(known) or "-")
    options = {name: value for name, value in given.items() if name != ROUNDS}
    try:
        rounds = validate_rounds(given[ROUNDS]) if ROUNDS in given else None
        validate_options(game.id, mode, options)
    except TableError as exc:
        name = exc.params.get("name")
        if name in offered:
            exc.params["name"] = offered[str(name)].label(language)
        raise
    return options, rounds
