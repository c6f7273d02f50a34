"""The private threads the bot makes for a game (the dead and watchers, the social mode's Killer and Accomplice,
a Journalist's interview), kept so that a restarted bot adds to and archives the same threads.

Hand-written; ``tests/db/test_migrations.py`` checks it matches the models exactly and downgrades cleanly.

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-02
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0012"
down_revision: str | None = "0011"  # main's head when this branch merged it
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "game_threads",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=24), nullable=False),
        sa.Column("thread_id", sa.BigInteger(), nullable=False),
        sa.Column("members", sa.JSON(), nullable=False),
        sa.Column("watchers", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("archived_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name=op.f("fk_game_threads_game_id_games"),
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_game_threads")),
        sa.UniqueConstraint("game_id", "kind", name=op.f("uq_game_threads_game_id_kind")),
    )
    op.create_index(op.f("ix_game_threads_game_id"), "game_threads", ["game_id"])


def downgrade() -> None:
    op.drop_table("game_threads")  # drops its index with it
