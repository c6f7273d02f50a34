"""Initial schema: guild settings, games with seats, action log and timers, series, scores, achievements,
Farewell Letters and anonymous posts.

Hand-reviewed from an autogenerate draft; ``tests/db/test_migrations.py`` checks it matches the models exactly.

Revision ID: 0001
Revises:
Create Date: 2026-11-29
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _at(name: str, *, nullable: bool = False) -> sa.Column:
    return sa.Column(name, sa.DateTime(timezone=True), nullable=nullable)


def _id() -> sa.Column:
    return sa.Column("id", sa.Integer(), nullable=False)


def _snowflake(name: str, *, nullable: bool = False) -> sa.Column:
    return sa.Column(name, sa.BigInteger(), nullable=nullable)


def _game_fk(table: str, ondelete: str = "CASCADE") -> sa.ForeignKeyConstraint:
    return sa.ForeignKeyConstraint(["game_id"], ["games.id"], name=op.f(f"fk_{table}_game_id_games"),
                                   ondelete=ondelete)


def upgrade() -> None:
    op.create_table(
        "guild_settings",
        sa.Column("guild_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("language", sa.String(length=8), nullable=False),
        _snowflake("medium_channel_id", nullable=True),
        sa.Column("game_channel_ids", sa.JSON(), nullable=False),
        sa.Column("day_length_minutes", sa.Integer(), nullable=False),
        sa.Column("day_boundary", sa.String(length=5), nullable=False),
        sa.Column("timezone", sa.String(length=64), nullable=False),
        sa.Column("turn_timeout_seconds", sa.Integer(), nullable=False),
        sa.Column("response_window_seconds", sa.Integer(), nullable=False),
        sa.Column("lobby_timeout_minutes", sa.Integer(), nullable=False),
        sa.Column("prompt_timeout_seconds", sa.Integer(), nullable=False),
        _snowflake("dead_role_id", nullable=True),
        _at("updated_at"),
        sa.PrimaryKeyConstraint("guild_id", name=op.f("pk_guild_settings")),
    )
    op.create_table(
        "series",
        _id(),
        _snowflake("guild_id"),
        _snowflake("channel_id"),
        sa.Column("game", sa.String(length=32), nullable=False),
        sa.Column("mode", sa.String(length=32), nullable=False),
        sa.Column("rounds_total", sa.Integer(), nullable=False),
        sa.Column("rounds_played", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        _at("created_at"),
        sa.CheckConstraint("status IN ('active', 'finished', 'cancelled')", name=op.f("ck_series_status")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_series")),
    )
    op.create_index(op.f("ix_series_guild_id"), "series", ["guild_id"])

    op.create_table(
        "games",
        _id(),
        sa.Column("game", sa.String(length=32), nullable=False),
        sa.Column("mode", sa.String(length=32), nullable=False),
        _snowflake("guild_id"),
        _snowflake("channel_id"),
        _snowflake("host_id"),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("seed", sa.BigInteger(), nullable=True),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("state", sa.JSON(), nullable=True),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("language", sa.String(length=8), nullable=False),
        sa.Column("series_id", sa.Integer(), nullable=True),
        _snowflake("lobby_message_id", nullable=True),
        _snowflake("table_message_id", nullable=True),
        _at("created_at"),
        _at("updated_at"),
        _at("finished_at", nullable=True),
        sa.Column("outcome", sa.JSON(), nullable=True),
        sa.CheckConstraint("status IN ('lobby', 'active', 'finished', 'cancelled')", name=op.f("ck_games_status")),
        sa.ForeignKeyConstraint(["series_id"], ["series.id"], name=op.f("fk_games_series_id_series"),
                                ondelete="SET NULL"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_games")),
    )
    op.create_index(op.f("ix_games_channel_id_status"), "games", ["channel_id", "status"])
    op.create_index(op.f("ix_games_guild_id_status"), "games", ["guild_id", "status"])
    op.create_index(op.f("ix_games_series_id"), "games", ["series_id"])

    op.create_table(
        "seats",
        _id(),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        _snowflake("user_id"),
        sa.Column("names", sa.JSON(), nullable=False),
        sa.Column("dm_ok", sa.Boolean(), nullable=False),
        _at("joined_at"),
        _game_fk("seats"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_seats")),
        sa.UniqueConstraint("game_id", "seat", name=op.f("uq_seats_game_id_seat")),
        sa.UniqueConstraint("game_id", "user_id", name=op.f("uq_seats_game_id_user_id")),
    )
    op.create_index(op.f("ix_seats_user_id"), "seats", ["user_id"])

    op.create_table(
        "game_actions",
        _id(),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        _snowflake("user_id", nullable=True),
        sa.Column("action", sa.JSON(), nullable=False),
        _at("at"),
        _game_fk("game_actions"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_game_actions")),
        sa.UniqueConstraint("game_id", "seq", name=op.f("uq_game_actions_game_id_seq")),
    )

    op.create_table(
        "timers",
        _id(),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=32), nullable=False),
        _at("due_at"),
        sa.Column("payload", sa.JSON(), nullable=False),
        sa.Column("version_at_schedule", sa.Integer(), nullable=False),
        _at("fired_at", nullable=True),
        _game_fk("timers"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_timers")),
    )
    op.create_index(op.f("ix_timers_fired_at_due_at"), "timers", ["fired_at", "due_at"])
    op.create_index(op.f("ix_timers_game_id"), "timers", ["game_id"])

    op.create_table(
        "scores",
        _id(),
        _snowflake("guild_id"),
        sa.Column("game", sa.String(length=32), nullable=False),
        sa.Column("mode", sa.String(length=32), nullable=False),
        sa.Column("series_id", sa.Integer(), nullable=True),
        sa.Column("game_id", sa.Integer(), nullable=False),
        _snowflake("user_id"),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("round", sa.Integer(), nullable=True),
        sa.Column("points", sa.Double(), nullable=False),
        sa.Column("won", sa.Boolean(), nullable=False),
        _at("at"),
        _game_fk("scores"),
        sa.ForeignKeyConstraint(["series_id"], ["series.id"], name=op.f("fk_scores_series_id_series"),
                                ondelete="SET NULL"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_scores")),
        sa.UniqueConstraint("game_id", "user_id", name=op.f("uq_scores_game_id_user_id")),
    )
    op.create_index(op.f("ix_scores_guild_id_game_mode"), "scores", ["guild_id", "game", "mode"])
    op.create_index(op.f("ix_scores_series_id"), "scores", ["series_id"])

    op.create_table(
        "achievements",
        _id(),
        _snowflake("guild_id"),
        _snowflake("user_id"),
        sa.Column("game", sa.String(length=32), nullable=False),
        sa.Column("achievement", sa.String(length=64), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=True),
        _at("at"),
        _game_fk("achievements", ondelete="SET NULL"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_achievements")),
        sa.UniqueConstraint("game_id", "user_id", "achievement",
                            name=op.f("uq_achievements_game_id_user_id_achievement")),
    )
    op.create_index(op.f("ix_achievements_guild_id_user_id"), "achievements", ["guild_id", "user_id"])

    op.create_table(
        "farewell_letters",
        _id(),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        _snowflake("user_id"),
        sa.Column("content", sa.Text(), nullable=False),
        _at("written_at"),
        _at("revealed_at", nullable=True),
        _game_fk("farewell_letters"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_farewell_letters")),
        sa.UniqueConstraint("game_id", "seat", name=op.f("uq_farewell_letters_game_id_seat")),
    )

    op.create_table(
        "anonymous_posts",
        _id(),
        sa.Column("game_id", sa.Integer(), nullable=False),
        _snowflake("guild_id"),
        _snowflake("channel_id"),
        _snowflake("user_id"),
        sa.Column("content", sa.Text(), nullable=False),
        _snowflake("message_id", nullable=True),
        _at("posted_at"),
        _game_fk("anonymous_posts"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_anonymous_posts")),
    )
    op.create_index(op.f("ix_anonymous_posts_game_id"), "anonymous_posts", ["game_id"])


def downgrade() -> None:
    # Children before parents; dropping a table drops its indexes and constraints with it.
    for table in ("anonymous_posts", "farewell_letters", "achievements", "scores", "timers", "game_actions",
                  "seats", "games", "series", "guild_settings"):
        op.drop_table(table)
