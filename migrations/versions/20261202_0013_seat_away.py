"""Computer seats for the absent: ``seats.away`` marks a person's seat the computer plays (after the server's
number of timeouts in a row, ``guild_settings.timeouts_to_computer``) until they take it back; ``games.seat_steps``
counts such changes since the decision the game waits on was offered, which they leave open (issue 24).

Hand-written; ``tests/db/test_migrations.py`` checks it matches the models exactly and downgrades cleanly.

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-02
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0013"
down_revision: str | None = "0012"  # after the games' threads
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("seat_steps", sa.Integer(), nullable=False, server_default="0"))
    with op.batch_alter_table("games") as batch:
        batch.alter_column("seat_steps", server_default=None)
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("away", sa.Boolean(), nullable=False, server_default=sa.false()))
    with op.batch_alter_table("seats") as batch:
        batch.alter_column("away", server_default=None)
    with op.batch_alter_table("guild_settings") as batch:
        batch.add_column(sa.Column("timeouts_to_computer", sa.Integer(), nullable=False, server_default="2"))
    with op.batch_alter_table("guild_settings") as batch:
        batch.alter_column("timeouts_to_computer", server_default=None)


def downgrade() -> None:
    with op.batch_alter_table("guild_settings") as batch:
        batch.drop_column("timeouts_to_computer")
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("away")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("seat_steps")
