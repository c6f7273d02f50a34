"""Lobbies that find players: the server's lobby role (``guild_settings.lobby_role_id``, pinged once when a lobby
opens) and scheduled lobbies (``games.status = 'scheduled'``: a lobby ``/newgame ... starts_in:`` opens later, from
its ``lobby_open`` timer).

Hand-written; ``tests/db/test_migrations.py`` checks it matches the models exactly and downgrades cleanly.

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-02
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0011"
down_revision: str | None = "0010"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_OLD = "status IN ('lobby', 'active', 'finished', 'cancelled')"
_NEW = "status IN ('scheduled', 'lobby', 'active', 'finished', 'cancelled')"


def _status_check(condition: str) -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_constraint(op.f("ck_games_status"), type_="check")
        batch.create_check_constraint("status", condition)


def upgrade() -> None:
    with op.batch_alter_table("guild_settings") as batch:
        batch.add_column(sa.Column("lobby_role_id", sa.BigInteger(), nullable=True))
    _status_check(_NEW)


def downgrade() -> None:
    # a lobby still waiting for its time cannot exist without the status: it is cancelled
    op.execute("UPDATE games SET status = 'cancelled' WHERE status = 'scheduled'")
    _status_check(_OLD)
    with op.batch_alter_table("guild_settings") as batch:
        batch.drop_column("lobby_role_id")
