"""AI seats: a seat without a Discord user (``seats.user_id`` nullable) is a computer player.

Revision ID: 0008
Revises: 0005
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008"
down_revision: str | None = "0005"  # main's head when this branch merged it
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.alter_column("user_id", existing_type=sa.BigInteger(), nullable=True)


def downgrade() -> None:
    op.execute("DELETE FROM seats WHERE user_id IS NULL")  # AI seats cannot exist without the column allowing them
    with op.batch_alter_table("seats") as batch:
        batch.alter_column("user_id", existing_type=sa.BigInteger(), nullable=False)
