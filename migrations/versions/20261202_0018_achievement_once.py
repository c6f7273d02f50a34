"""Once-per-player achievements are unique: ``achievements.once`` marks an achievement its game's book awards once
per player and server (the first win as the Killer...), and the partial unique index ``uq_achievements_once`` on
``(guild_id, game, user_id, achievement) WHERE once`` lets only one of two games ending at the same moment award it
(:func:`bot.db.repos.scores.award_once` inserts it or ignores it).

Rows already stored are marked ``once = false``: which of them were once-only is the book's knowledge, not the
database's, and a duplicate among them would fail the index.

Hand-written; ``tests/db/test_migrations.py`` checks it matches the models exactly and downgrades cleanly.

Revision ID: 0018
Revises: 0016
Create Date: 2026-12-02
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0018"
down_revision: str | None = "0016"  # after the delivery lease takeovers
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("achievements") as batch:
        batch.add_column(sa.Column("once", sa.Boolean(), nullable=False, server_default=sa.false()))
    with op.batch_alter_table("achievements") as batch:
        batch.alter_column("once", server_default=None)
    op.create_index("uq_achievements_once", "achievements", ["guild_id", "game", "user_id", "achievement"],
                    unique=True, sqlite_where=sa.text("once"), postgresql_where=sa.text("once"))


def downgrade() -> None:
    op.drop_index("uq_achievements_once", table_name="achievements")
    with op.batch_alter_table("achievements") as batch:
        batch.drop_column("once")
