from tests.db.backends import db_url, engine, pg_database, sessions

__all__ = ["db_url", "engine", "pg_database", "sessions"]
