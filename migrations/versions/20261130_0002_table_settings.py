"""Guild settings of the living table: how many messages may pass under the table before it is posted again, and
how long a player may take before the turn ping.

Existing rows get the declared defaults (8 messages, 30 seconds) through a server default that is dropped again,
so the columns, like the others, carry no default of their own.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-30
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

COLUMNS = (("table_repost_after", "8"), ("turn_ping_seconds", "30"))


def upgrade() -> None:
    with op.batch_alter_table("guild_settings") as batch:
        for name, default in COLUMNS:
            batch.add_column(sa.Column(name, sa.Integer(), nullable=False, server_default=default))
    with op.batch_alter_table("guild_settings") as batch:
        for name, _ in COLUMNS:
            batch.alter_column(name, server_default=None)


def downgrade() -> None:
    with op.batch_alter_table("guild_settings") as batch:
        for name, _ in COLUMNS:
            batch.drop_column(name)
