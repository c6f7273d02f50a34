"""Per-server maximum length of a social game (``/config days max_days``, default 14 days).

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-30
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # existing rows get the default; the column then carries no server default (defaults live in GuildConfig)
    with op.batch_alter_table("guild_settings") as batch:
        batch.add_column(sa.Column("social_max_days", sa.Integer(), nullable=False, server_default="14"))
    with op.batch_alter_table("guild_settings") as batch:
        batch.alter_column("social_max_days", server_default=None)


def downgrade() -> None:
    with op.batch_alter_table("guild_settings") as batch:
        batch.drop_column("social_max_days")
