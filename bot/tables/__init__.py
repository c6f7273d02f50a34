"""The table service: load a game -> lock -> engine -> persist -> deliver (see :mod:`bot.tables.service`)."""

from bot.tables.model import ActResult, Table, TableError, TableSeat, TimerInfo, TimerPlan, to_table
from bot.tables.outbox import current_step
from bot.tables.service import Deliver, Plan, TableService

__all__ = ["ActResult", "Deliver", "Plan", "Table", "TableError", "TableSeat", "TableService", "TimerInfo", "TimerPlan",
           "current_step", "to_table"]
