"""The table service: load a game -> lock -> engine -> persist -> deliver (see :mod:`bot.tables.service`)."""

from bot.tables.model import ActResult, Table, TableError, TableSeat, TimerInfo
from bot.tables.service import Deliver, TableService, to_table

__all__ = ["ActResult", "Deliver", "Table", "TableError", "TableSeat", "TableService", "TimerInfo", "to_table"]
