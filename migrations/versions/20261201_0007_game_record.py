"""A finished game's full record: when it started, and which logged moves were the bot's after a time limit.

Hand-written; ``tests/db/test_migrations.py`` checks it matches the models exactly and downgrades cleanly.

Revision ID: 0007
Revises: 0004
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("started_at", sa.DateTime(timezone=True), nullable=True))
    # logged moves so far were all counted as played (their announcement is not in the log)
    with op.batch_alter_table("game_actions") as batch:
        batch.add_column(sa.Column("timed_out", sa.Boolean(), nullable=False, server_default=sa.false()))
    with op.batch_alter_table("game_actions") as batch:
        batch.alter_column("timed_out", server_default=None)


def downgrade() -> None:
    with op.batch_alter_table("game_actions") as batch:
        batch.drop_column("timed_out")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("started_at")
