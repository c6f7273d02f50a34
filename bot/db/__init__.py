"""The store: SQLAlchemy 2 async models, sessions, repositories and Alembic migrations (``migrations/``)."""

from bot.db import models
from bot.db.base import Base, utcnow
from bot.db.session import DEFAULT_URL, create_engine, make_sessionmaker

__all__ = ["DEFAULT_URL", "Base", "create_engine", "make_sessionmaker", "models", "utcnow"]
