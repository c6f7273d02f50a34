"""The closed-DM notice waiting for the next public step is kept per seat in the database, so whichever bot process
shows that step says it (it was in the memory of the process whose DM failed).

Hand-written; ``tests/db/test_migrations.py`` checks it matches the models exactly and downgrades cleanly.

Revision ID: 0010
Revises: 0006
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0010"
down_revision: str | None = "0006"  # main's head when this branch merged it
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # a notice waiting in a process's memory at the upgrade is not said (the process stopped)
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("dm_notice_due", sa.Boolean(), nullable=False, server_default=sa.false()))
    with op.batch_alter_table("seats") as batch:
        batch.alter_column("dm_notice_due", server_default=None)


def downgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("dm_notice_due")
