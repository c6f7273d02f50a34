"""Who held a seat before it changed hands: ``former_holders`` keeps the person who held a seat until the host
handed it to someone else or to the computer, so that they are never offered (nor take) another seat of the same
game, whose secrets they would then hold besides their old seat's.

Games running before this migration have no such rows: their seat changes so far are not known.

Hand-written; ``tests/db/test_migrations.py`` checks it matches the models exactly and downgrades cleanly.

Revision ID: 0023
Revises: 0020
Create Date: 2026-12-03
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0023"
down_revision: str | None = "0020"  # after the lease moved onto the game row
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "former_holders",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.BigInteger(), nullable=False),
        sa.Column("until", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name=op.f("fk_former_holders_game_id_games"),
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_former_holders")),
    )
    op.create_index(op.f("ix_former_holders_game_id"), "former_holders", ["game_id"])


def downgrade() -> None:
    op.drop_table("former_holders")  # drops its index with it
