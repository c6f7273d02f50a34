"""Leases for many processes on one database: a timer's claim (``timers.claimed_by``, ``timers.lease_until``) and
the process delivering a game's outbox (``delivery_leases``).

Hand-written; ``tests/db/test_migrations.py`` checks it matches the models exactly and downgrades cleanly.

Revision ID: 0005
Revises: 0007
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | None = "0007"  # main's head when this branch merged it
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("timers") as batch:
        batch.add_column(sa.Column("claimed_by", sa.String(length=64), nullable=True))
        batch.add_column(sa.Column("lease_until", sa.DateTime(timezone=True), nullable=True))
    op.create_table(
        "delivery_leases",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("owner", sa.String(length=64), nullable=False),
        sa.Column("lease_until", sa.DateTime(timezone=True), nullable=False),
        sa.Column("shown", sa.String(length=64), nullable=True),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name=op.f("fk_delivery_leases_game_id_games"),
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("game_id", name=op.f("pk_delivery_leases")),
    )


def downgrade() -> None:
    op.drop_table("delivery_leases")
    with op.batch_alter_table("timers") as batch:
        batch.drop_column("lease_until")
        batch.drop_column("claimed_by")
