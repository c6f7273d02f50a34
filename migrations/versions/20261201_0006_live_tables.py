"""The living table's state per running game (message, scroll count, "last moves" log, turn ping), shared by every
bot process instead of held in one process's memory.

Hand-written; ``tests/db/test_migrations.py`` checks it matches the models exactly and downgrades cleanly.

Revision ID: 0006
Revises: 0008
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | None = "0008"  # main's head when this branch merged it
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "live_tables",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("channel_id", sa.BigInteger(), nullable=False),
        sa.Column("message_id", sa.BigInteger(), nullable=False),
        sa.Column("messages_after", sa.Integer(), nullable=False),
        sa.Column("log", sa.JSON(), nullable=False),
        sa.Column("ping_message_id", sa.BigInteger(), nullable=True),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name=op.f("fk_live_tables_game_id_games"),
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("game_id", name=op.f("pk_live_tables")),
    )
    op.create_index(op.f("ix_live_tables_channel_id"), "live_tables", ["channel_id"])


def downgrade() -> None:
    op.drop_table("live_tables")  # drops its index with it
