"""Alembic: the initial migration builds exactly the models' schema on both backends and is reversible."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import create_engine as create_sync_engine
from sqlalchemy import inspect, text
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.db import Base, migrate
from bot.db.migrate import alembic_config, downgrade_to, migrations_dir, upgrade_to_head

TABLES = {"guild_settings", "games", "seats", "game_actions", "timers", "series", "scores", "farewell_letters",
          "anonymous_posts", "achievements", "outbox", "live_tables", "game_threads", "former_holders"}


def _diff(connection: Connection) -> list[object]:
    context = MigrationContext.configure(connection, opts={"compare_type": True})
    return compare_metadata(context, Base.metadata)


def _tables(connection: Connection) -> set[str]:
    return set(inspect(connection).get_table_names())


async def test_upgrade_to_head_builds_exactly_the_models(engine: AsyncEngine) -> None:
    """After upgrading an empty database, autogenerate finds no difference between models and schema."""
    await upgrade_to_head(engine)
    async with engine.connect() as conn:
        assert await conn.run_sync(_tables) == TABLES | {"alembic_version"}
        assert await conn.run_sync(_diff) == []


async def test_upgrade_twice_is_a_no_op(engine: AsyncEngine) -> None:
    """Upgrading an up-to-date database changes nothing (the bot upgrades on every start)."""
    await upgrade_to_head(engine)
    await upgrade_to_head(engine)
    async with engine.connect() as conn:
        assert await conn.run_sync(_diff) == []


async def test_downgrade_to_base_drops_every_table(engine: AsyncEngine) -> None:
    """The initial migration is reversible: downgrading to base leaves only Alembic's version table."""
    await upgrade_to_head(engine)
    await downgrade_to(engine, "base")
    async with engine.connect() as conn:
        assert await conn.run_sync(_tables) <= {"alembic_version"}
        missing = {diff[1].name for diff in await conn.run_sync(_diff) if diff[0] == "add_table"}
        assert missing == TABLES  # the comparison really sees the schema
    await upgrade_to_head(engine)  # and up again from there
    async with engine.connect() as conn:
        assert await conn.run_sync(_diff) == []


async def test_an_upgrade_keeps_the_rows_of_rebuilt_tables(engine: AsyncEngine) -> None:
    """A running game stored at revision 0018 keeps its seats through every later upgrade. On SQLite, 0019 rebuilds
    ``games`` (batch mode), and with the foreign keys on, the rebuild's DROP cascaded to every seat of every
    game: ``upgrade_to_head`` turns them off around the migration and checks them after."""
    await upgrade_to_head(engine)
    await downgrade_to(engine, "0018")
    async with engine.begin() as conn:
        await conn.execute(text(
            "INSERT INTO games (id, game, mode, guild_id, channel_id, host_id, status, seed, options, state, version,"
            " language, created_at, updated_at, seat_steps) VALUES (1, 'potato', 'classic', 1, 2, 3, 'active', 5,"
            " '{}', '{}', 1, 'en', '2026-01-01 00:00:00', '2026-01-01 00:00:00', 0)"))
        await conn.execute(text(
            "INSERT INTO seats (game_id, seat, user_id, names, dm_ok, joined_at, dm_notice_due, away)"
            " VALUES (1, 0, 3, '[]', TRUE, '2026-01-01 00:00:00', FALSE, FALSE),"
            " (1, 1, 4, '[]', TRUE, '2026-01-01 00:00:00', FALSE, FALSE)"))
    await upgrade_to_head(engine)
    async with engine.connect() as conn:
        assert (await conn.execute(text("SELECT count(*) FROM seats WHERE game_id = 1"))).scalar() == 2
        if conn.dialect.name == "sqlite":  # the pooled connection enforces its foreign keys again
            assert (await conn.execute(text("PRAGMA foreign_keys"))).scalar() == 1


async def test_a_failed_upgrade_leaves_the_database_as_it_was(engine: AsyncEngine,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """A database at 0018 whose upgrade fails at its end (the foreign key check refusing) is left as it was, and
    the next start upgrades it. On SQLite 0019's ALTER and its batch rebuild's CREATE used to run before the
    transaction's first write and stay (found by a tester): the next upgrade then failed at once ("duplicate
    column name") and the bot could not start on that file again."""
    await upgrade_to_head(engine)
    await downgrade_to(engine, "0018")
    async with engine.connect() as conn:
        before = await conn.run_sync(_tables)

    async def refuse(conn: object) -> None:
        raise RuntimeError("refused")

    monkeypatch.setattr(migrate, "check_foreign_keys", refuse)
    with pytest.raises(RuntimeError, match="refused"):
        await upgrade_to_head(engine)
    monkeypatch.undo()
    async with engine.connect() as conn:
        assert (await conn.execute(text("SELECT version_num FROM alembic_version"))).scalar_one() == "0018"
        assert await conn.run_sync(_tables) == before
    await upgrade_to_head(engine)
    async with engine.connect() as conn:
        assert await conn.run_sync(_diff) == []


def test_revisions_form_one_chain_with_date_slug_names() -> None:
    """One head, one base, and every script is named YYYYMMDD_NNNN_slug.py."""
    scripts = ScriptDirectory.from_config(alembic_config())
    assert len(scripts.get_heads()) == 1
    assert len(scripts.get_bases()) == 1
    names = [Path(s.path).name for s in scripts.walk_revisions()]
    assert "20261129_0001_initial.py" in names
    assert all(re.fullmatch(r"\d{8}_\d{4}_[a-z0-9_]+\.py", name) for name in names), names


def test_migrations_dir_is_the_repository_folder() -> None:
    """The config needs no alembic.ini: the scripts are found next to the bot package."""
    assert migrations_dir() == Path(__file__).resolve().parents[2] / "migrations"
    assert alembic_config().get_main_option("script_location") == str(migrations_dir())


def test_migrate_command_creates_a_sqlite_database(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`coroner migrate` builds the schema in a new SQLite file."""
    from bot.cli import main

    path = tmp_path / "cli.db"
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DATABASE_URL", f"sqlite+aiosqlite:///{path}")
    assert main(["migrate"]) == 0
    engine = create_sync_engine(f"sqlite:///{path}")
    with engine.connect() as conn:
        assert _tables(conn) == TABLES | {"alembic_version"}
    engine.dispose()


def test_env_py_reads_database_url_when_given_no_connection(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Plain `alembic upgrade` (no shared connection) opens its own async engine from DATABASE_URL."""
    path = tmp_path / "env.db"
    monkeypatch.setenv("DATABASE_URL", f"sqlite+aiosqlite:///{path}")
    command.upgrade(alembic_config(), "head")
    engine = create_sync_engine(f"sqlite:///{path}")
    with engine.connect() as conn:
        assert _tables(conn) == TABLES | {"alembic_version"}
        assert _diff(conn) == []
    engine.dispose()


def test_an_explicit_url_wins_over_database_url(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """alembic_config(url) migrates that database even when DATABASE_URL points elsewhere."""
    chosen, other = tmp_path / "chosen.db", tmp_path / "other.db"
    monkeypatch.setenv("DATABASE_URL", f"sqlite+aiosqlite:///{other}")
    command.upgrade(alembic_config(f"sqlite+aiosqlite:///{chosen}"), "head")
    assert chosen.exists() and not other.exists()


async def test_the_outbox_migration_is_reversible(engine: AsyncEngine) -> None:
    """Downgrading one step drops exactly the outbox table; upgrading again restores the models' schema."""
    await upgrade_to_head(engine)
    await downgrade_to(engine, "0003")
    async with engine.connect() as conn:
        later = {"outbox", "delivery_leases", "live_tables", "game_threads", "former_holders"}
        assert await conn.run_sync(_tables) == (TABLES - later) | {"alembic_version"}
    await upgrade_to_head(engine)
    async with engine.connect() as conn:
        assert await conn.run_sync(_diff) == []


async def test_the_live_tables_migration_is_reversible(engine: AsyncEngine) -> None:
    """Downgrading below revision 0006 drops exactly the living tables' state; upgrading again restores it."""
    before = ScriptDirectory.from_config(alembic_config()).get_revision("0006").down_revision
    await upgrade_to_head(engine)
    await downgrade_to(engine, str(before))
    async with engine.connect() as conn:
        assert "live_tables" not in await conn.run_sync(_tables)
        assert "games" in await conn.run_sync(_tables)
    await upgrade_to_head(engine)
    async with engine.connect() as conn:
        assert await conn.run_sync(_diff) == []


def _timer_columns(connection: Connection) -> set[str]:
    return {column["name"] for column in inspect(connection).get_columns("timers")}


async def test_the_leases_migration_is_reversible(engine: AsyncEngine) -> None:
    """Downgrading 0005 drops the delivery leases and the timers' claim columns; upgrading restores the models."""
    await upgrade_to_head(engine)
    await downgrade_to(engine, "0007")
    async with engine.connect() as conn:
        later = {"delivery_leases", "live_tables", "game_threads", "former_holders"}
        assert await conn.run_sync(_tables) == (TABLES - later) | {"alembic_version"}
        assert not {"claimed_by", "lease_until"} & await conn.run_sync(_timer_columns)
    await upgrade_to_head(engine)
    async with engine.connect() as conn:
        assert {"claimed_by", "lease_until"} <= await conn.run_sync(_timer_columns)
        assert await conn.run_sync(_diff) == []


def _game_columns(connection: Connection) -> set[str]:
    return {column["name"] for column in inspect(connection).get_columns("games")}


async def test_the_lease_on_games_migration_is_reversible(engine: AsyncEngine) -> None:
    """Downgrading 0020 brings ``delivery_leases`` back (with the leases held) and takes the lease off ``games``;
    upgrading moves a held lease back onto its game's row."""
    lease = {"lease_owner", "lease_until", "lease_given_back", "lease_taken_from", "shown"}
    await upgrade_to_head(engine)
    async with engine.begin() as conn:
        await conn.exec_driver_sql(
            "INSERT INTO games (id, game, mode, guild_id, channel_id, host_id, status, options, version, seat_steps, "
            "decision_opened, language, created_at, updated_at, lease_owner, lease_until, lease_given_back, shown) "
            "VALUES (1, 'asesino', 'small', 1, 2, 3, 'active', '{}', 4, 0, 4, 'en', '2026-12-03 10:00:00', "
            "'2026-12-03 10:00:00', 'p1', '2026-12-03 10:00:04', false, 'abc')")
    await downgrade_to(engine, "0019")
    async with engine.connect() as conn:
        assert "delivery_leases" in await conn.run_sync(_tables)
        assert not lease & await conn.run_sync(_game_columns)
        held = (await conn.exec_driver_sql("SELECT owner, shown, given_back FROM delivery_leases")).all()
        assert [tuple(row) for row in held] == [("p1", "abc", False)]
    await upgrade_to_head(engine)
    async with engine.connect() as conn:
        assert "delivery_leases" not in await conn.run_sync(_tables)
        row = (await conn.exec_driver_sql("SELECT lease_owner, shown, lease_given_back FROM games")).one()
        assert tuple(row) == ("p1", "abc", False)
        assert await conn.run_sync(_diff) == []


async def test_the_game_threads_migration_is_reversible(engine: AsyncEngine) -> None:
    """Downgrading below revision 0012 drops exactly the games' threads; upgrading again restores them."""
    await upgrade_to_head(engine)
    await downgrade_to(engine, "0011")
    async with engine.connect() as conn:
        # (the delivery leases had their own table until 0020)
        assert await conn.run_sync(_tables) == ((TABLES - {"game_threads", "former_holders"})
                                                | {"delivery_leases", "alembic_version"})
    await upgrade_to_head(engine)
    async with engine.connect() as conn:
        assert await conn.run_sync(_diff) == []


async def test_the_former_holders_migration_is_reversible(engine: AsyncEngine) -> None:
    """Downgrading below revision 0023 drops exactly the seats' former holders; upgrading again restores them."""
    before = ScriptDirectory.from_config(alembic_config()).get_revision("0023").down_revision
    await upgrade_to_head(engine)
    await downgrade_to(engine, str(before))
    async with engine.connect() as conn:
        assert await conn.run_sync(_tables) == (TABLES - {"former_holders"}) | {"alembic_version"}
    await upgrade_to_head(engine)
    async with engine.connect() as conn:
        assert await conn.run_sync(_diff) == []
