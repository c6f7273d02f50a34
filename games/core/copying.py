"""Fast deep copies of engine states (pydantic models of lists, dicts and scalars), for :meth:`Engine.copy_state`.

``copy.deepcopy`` (and ``model_copy(deep=True)``, which calls it) is generic: it keeps a memo of every object, asks
each one for ``__deepcopy__`` or ``__reduce_ex__`` and looks up how to copy every scalar. A game state is a tree of
a few kinds only, so :func:`deep_copy` copies it with a plan made once per model class from its field declarations:

* a field declared immutable (``int``, ``str``, ``bool``, ``float``, ``None``, an enum, a ``Literal``, dates and
  times, a tuple or frozenset of those, a frozen model of those, or a union of them) is shared, not copied;
* a ``list``/``dict``/``set`` of immutable items is copied with one C-level call (``list(v)``, ``dict(v)``);
* a list or dict of models, and a model, is copied field by field (no validation runs, as with ``model_copy``),
  with the same fields-set, extra and private values;
* anything else (``Any``, a union of containers...) is copied by looking at the value's own type.

A field (or an item type) declared ``Annotated[..., SETTLED]`` holds values that are never changed in place once
stored in the state (an append-only log's entries, setup's record, a queued task): :func:`step_copy`, the copy
:meth:`Engine.apply <games.core.engine.Engine.apply>` gives a game's step, shares them with the original instead of
copying them; :func:`deep_copy` still copies everything. A step that broke the promise would change its input,
which ``tests/games/core`` checks for after every move of random games of every mode.

A state is a tree: an object reached twice is copied twice (``deepcopy`` would keep the two references to one
copy). Stored states are JSON, which never shares, so every reloaded state already behaves so. A field must hold
what it declares (a ``tuple[int, ...]`` field holding a list would be shared); ``tests/games/core`` checks over
random games of every mode that a copy shares no mutable object with its original.
"""

from __future__ import annotations

import copy
import datetime as dt
import enum
import types
import typing
from collections.abc import Callable, Iterable
from decimal import Decimal
from typing import Any, TypeVar

import pydantic
from pydantic import BaseModel

#: types whose values never change in place: shared between a state and its copy (pydantic's date and time
#: markers such as ``AwareDatetime`` declare a ``datetime``)
IMMUTABLE: frozenset[type] = frozenset({int, str, bool, float, complex, bytes, type(None), Decimal, dt.datetime,
                                        dt.date, dt.time, dt.timedelta, dt.timezone, frozenset, range,
                                        pydantic.AwareDatetime, pydantic.NaiveDatetime, pydantic.PastDatetime,
                                        pydantic.FutureDatetime, pydantic.PastDate, pydantic.FutureDate})

#: the scalar types a value of unknown type is most often (JSON's): shared at once
_SCALARS: frozenset[type] = frozenset({int, str, bool, float, type(None)})

Copier = Callable[[Any], Any]
ModelT = TypeVar("ModelT", bound=BaseModel)
_BY_TYPE: dict[type, Copier] = {}  # copiers chosen by a value's own type
_PLANS: dict[tuple[type, bool], Copier] = {}  # model copiers made from the declarations, per (class, settled shared)


class Settled:
    """Marks a declared value that is never changed in place once stored in the state:
    ``inbox: list[Annotated[dict[str, Any], SETTLED]]`` (the list grows, its entries never change) or
    ``opening: Annotated[list[dict[str, Any]], SETTLED]`` (set once at setup). :func:`step_copy` shares such values
    between a state and its copy; :func:`deep_copy` copies them like any other."""

    def __repr__(self) -> str:
        return "SETTLED"


#: the one :class:`Settled` marker
SETTLED = Settled()
_SETATTR = object.__setattr__
_NEW = object.__new__


def deep_copy(value: Any) -> Any:
    """A copy of ``value`` that shares no mutable object with it (see the module docstring)."""
    try:
        return _BY_TYPE[value.__class__](value)
    except KeyError:
        return _by_type(value.__class__)(value)


def step_copy(model: BaseModel) -> Any:
    """A copy of the state ``model`` for a step to change in place: :func:`deep_copy`, except that the values
    declared :data:`SETTLED` are shared with ``model`` (they never change in place)."""
    cls = model.__class__
    plan = _PLANS.get((cls, True))
    return (plan or _model(cls, settled=True))(model)


def _identity(value: Any) -> Any:
    return value


def _tuple(value: tuple[Any, ...]) -> tuple[Any, ...]:
    items = [deep_copy(item) for item in value]
    if all(new is old for new, old in zip(items, value, strict=True)):
        return value
    return value.__class__(items) if value.__class__ is tuple else value.__class__(*items)


def _by_type(cls: type) -> Copier:
    """The copier of a value of type ``cls`` whose declaration says nothing useful, cached per type."""
    copier: Copier
    if cls in IMMUTABLE or issubclass(cls, enum.Enum):
        copier = _identity
    elif cls is list:
        copier = _list_of(deep_copy)
    elif cls is dict:
        copier = _dict_of(deep_copy)
    elif cls is set:
        copier = _set_of(deep_copy)
    elif issubclass(cls, tuple):
        copier = _tuple
    elif issubclass(cls, BaseModel):
        copier = _model(cls, settled=False)
    else:
        copier = copy.deepcopy
    _BY_TYPE[cls] = copier
    return copier


def _list_of(item: Copier | None) -> Copier:
    if item is None:
        return list
    if item is deep_copy:  # values of any type: a scalar is shared without a call (most are, in JSON-like data)
        return lambda value: [x if x.__class__ in _SCALARS else deep_copy(x) for x in value]
    return lambda value: [item(x) for x in value]


def _dict_of(item: Copier | None) -> Copier:
    if item is None:
        return dict
    if item is deep_copy:
        return lambda value: {key: x if x.__class__ in _SCALARS else deep_copy(x) for key, x in value.items()}
    return lambda value: {key: item(x) for key, x in value.items()}


def _set_of(item: Copier | None) -> Copier:
    if item is None:
        return set
    return lambda value: {item(x) for x in value}


def _optional(copier: Copier) -> Copier:
    return lambda value: None if value is None else copier(value)


def _declared(annotation: Any, settled: bool) -> Copier | None:
    """The copier for a field declared ``annotation``; ``None`` when its values are immutable, or :data:`SETTLED`
    and ``settled`` (shared)."""
    origin = typing.get_origin(annotation)
    args = typing.get_args(annotation)
    if origin is typing.Annotated:
        if settled and any(isinstance(meta, Settled) for meta in annotation.__metadata__):
            return None
        return _declared(args[0], settled)
    if origin is typing.Literal:
        return None if all(type(a) in IMMUTABLE or isinstance(a, enum.Enum) for a in args) else deep_copy
    if origin in (typing.Union, types.UnionType):
        options = [a for a in args if a is not type(None)]
        copiers = [_declared(a, settled) for a in options]
        if all(c is None for c in copiers):
            return None
        if len(options) == 1:
            return _optional(copiers[0]) if len(args) > 1 else copiers[0]  # type: ignore[arg-type]
        return deep_copy
    if origin in (tuple, frozenset):
        return None if all(a is Ellipsis or _declared(a, settled) is None for a in args) else deep_copy
    if origin is list:
        return _list_of(_declared(args[0], settled)) if args else _list_of(deep_copy)
    if origin is set:
        return _set_of(_declared(args[0], settled)) if args else _set_of(deep_copy)
    if origin is dict:
        return _dict_of(_declared(args[1], settled)) if args else _dict_of(deep_copy)
    if origin is not None or not isinstance(annotation, type):
        return deep_copy
    if annotation in IMMUTABLE or issubclass(annotation, enum.Enum):
        return None
    if issubclass(annotation, BaseModel):
        copier = _model(annotation, settled)
        return None if copier is _identity else copier
    return deep_copy


def _model(cls: type[BaseModel], settled: bool) -> Copier:
    """The copier of instances of ``cls`` (exactly ``cls``: a subclass instance is copied by its own type), made
    from its field declarations on first use: ``_identity`` for a frozen model of immutable fields, else a
    function written for the class (one dict display of its fields: no loop, no call for a shared field).
    ``settled``: values declared :data:`SETTLED` are shared (:func:`step_copy`)."""
    key = (cls, settled)
    plan = _PLANS.get(key)
    if plan is not None:
        return plan
    namespace: dict[str, Any] = {"cls": cls, "deep_copy": deep_copy, "NEW": _NEW, "SET": _SETATTR,
                                 "private_copy": copy.deepcopy}
    # a placeholder first, so that a model declared inside itself finds its copier
    _PLANS[key] = lambda model: namespace["copy_model"](model)
    items = []
    for index, (name, info) in enumerate(cls.model_fields.items()):
        settles = settled and any(isinstance(meta, Settled) for meta in info.metadata)
        copier = None if settles else _declared(info.annotation, settled)
        if copier is None:
            items.append(f"{name!r}: s[{name!r}]")
        elif copier is list or copier is dict or copier is set:
            items.append(f"{name!r}: {copier.__name__}(s[{name!r}])")
        else:
            namespace[f"c{index}"] = copier
            items.append(f"{name!r}: c{index}(s[{name!r}])")
    config = cls.model_config
    if len(items) == sum(": s[" in item for item in items) and config.get("frozen") and (
            config.get("extra") != "allow" and not cls.__private_attributes__):
        _PLANS[key] = _identity
        return _identity
    fields = ", ".join(items)
    source = "\n".join([
        "def copy_model(model):",
        "    if model.__class__ is not cls:",
        "        return deep_copy(model)",
        "    s = model.__dict__",
        "    new = NEW(cls)",
        f"    SET(new, '__dict__', {{{fields}}})",
        "    SET(new, '__pydantic_fields_set__', set(model.__pydantic_fields_set__))",
        # a model that allows no extra fields and has no private attributes holds None in both (pydantic's own)
        *(["    extra = model.__pydantic_extra__",
            "    SET(new, '__pydantic_extra__', None if extra is None else deep_copy(extra))"]
          if config.get("extra") == "allow" else ["    SET(new, '__pydantic_extra__', None)"]),
        *(["    private = getattr(model, '__pydantic_private__', None)",
           "    SET(new, '__pydantic_private__', None if private is None else private_copy(private))"]
          if cls.__private_attributes__ else ["    SET(new, '__pydantic_private__', None)"]),
        "    return new",
    ])
    exec(compile(source, f"<copy of {cls.__qualname__}>", "exec"), namespace)  # noqa: S102 - our own source
    _PLANS[key] = namespace["copy_model"]
    return _PLANS[key]


def replace(model: BaseModel, **changes: Any) -> Any:
    """A shallow copy of ``model`` with ``changes`` to its fields, without validation: ``model_copy(update=...)``
    at a fraction of its cost, for values the caller has already checked (e.g. legal actions built by the rules).
    The new model shares every unchanged field's value with ``model``."""
    new = _NEW(model.__class__)
    _SETATTR(new, "__dict__", {**model.__dict__, **changes})
    _SETATTR(new, "__pydantic_fields_set__", model.__pydantic_fields_set__ | changes.keys())
    extra = model.__pydantic_extra__
    _SETATTR(new, "__pydantic_extra__", None if extra is None else dict(extra))
    _SETATTR(new, "__pydantic_private__", getattr(model, "__pydantic_private__", None))
    return new


def variants(model: BaseModel, name: str, values: Iterable[Any]) -> list[Any]:
    """``[replace(model, **{name: value}) for value in values]`` with the per-model work done once: the many
    copies of one legal action that differ in one field (a card's targets), already checked by the caller."""
    cls = model.__class__
    base = model.__dict__
    fields_set = model.__pydantic_fields_set__ | {name}
    extra = model.__pydantic_extra__
    private = getattr(model, "__pydantic_private__", None)
    found = []
    for value in values:
        new = _NEW(cls)
        state = dict(base)
        state[name] = value
        _SETATTR(new, "__dict__", state)
        _SETATTR(new, "__pydantic_fields_set__", set(fields_set))
        _SETATTR(new, "__pydantic_extra__", None if extra is None else dict(extra))
        _SETATTR(new, "__pydantic_private__", private)
        found.append(new)
    return found


def unchecked(cls: type[ModelT], values: dict[str, Any], fields_set: frozenset[str]) -> ModelT:
    """An instance of ``cls`` (a model with no extra fields and no private attributes) holding ``values``, which
    names every field with a value of its declared type, as ``cls(**{k: values[k] for k in fields_set})`` would
    (the others at their defaults), without validating them: for values a game's own code builds many times a
    move from values it already holds (an event's key and parameters, a queued task), where validating was the
    largest part of the cost. ``values`` becomes the instance's own dict: pass a fresh one."""
    new = _NEW(cls)
    _SETATTR(new, "__dict__", values)
    _SETATTR(new, "__pydantic_fields_set__", set(fields_set))
    _SETATTR(new, "__pydantic_extra__", None)
    _SETATTR(new, "__pydantic_private__", None)
    return new
