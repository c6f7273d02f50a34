"""Declarative base, naming convention and the column types every model shares.

* :class:`Base` carries a :class:`~sqlalchemy.MetaData` naming convention, so constraint and index names are
  stable across SQLite and PostgreSQL and Alembic can drop them by name.
* :class:`UTCDateTime` stores aware datetimes as UTC and always returns aware UTC datetimes (SQLite keeps no
  time zone, so without it values would come back naive).
* JSON columns use :class:`sqlalchemy.JSON`, which maps to ``JSON`` on both backends.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import JSON, DateTime, Dialect, MetaData
from sqlalchemy.orm import DeclarativeBase
from sqlalchemy.types import TypeDecorator

#: the largest id an ``Integer`` primary key holds (32 bits on PostgreSQL): a number a player types past it names no
#: row, and must be refused before a query (PostgreSQL rejects it as out of range)
MAX_ROW_ID = 2**31 - 1

NAMING_CONVENTION: dict[str, str] = {
    "ix": "ix_%(table_name)s_%(column_0_N_name)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


def utcnow() -> datetime:
    """The current time as an aware UTC datetime (the default clock of the store and the table service)."""
    return datetime.now(UTC)


class UTCDateTime(TypeDecorator[datetime]):
    """``DateTime(timezone=True)`` that only accepts aware datetimes and returns aware UTC ones.

    Raises ``ValueError`` when bound a naive datetime: a naive value is a bug (whose clock was it?)."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None or value.utcoffset() is None:
            raise ValueError(f"naive datetime {value!r}: the store only accepts aware datetimes")
        value = value.astimezone(UTC)
        # SQLite stores the text as given; keep it offset-free and in UTC so that ordering compares correctly.
        return value.replace(tzinfo=None) if dialect.name == "sqlite" else value

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            return value.replace(tzinfo=UTC)
        return value.astimezone(UTC)


class Base(DeclarativeBase):
    """The declarative base of every model: naming convention, BigInteger Discord ids, JSON dicts/lists."""

    metadata = MetaData(naming_convention=NAMING_CONVENTION)
    type_annotation_map = {
        datetime: UTCDateTime(),
        dict[str, Any]: JSON(),
        list[Any]: JSON(),
        list[str]: JSON(),
        list[int]: JSON(),
    }
