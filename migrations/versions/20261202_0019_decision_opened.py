"""Superseded timers are filtered, not disarmed: ``games.decision_opened`` holds the version the decision a game
waits on was first offered at, written by each move's version bump, and the timer claim skips the timers of the
superseded kinds (turn warnings, timeouts, pings) armed before it (:func:`bot.db.repos.timers.standing`), so a move
no longer spends a statement marking them fired.

Rows already stored get 0: every timer armed before this migration was disarmed by the move that superseded it, so
none is filtered that should fire.

Hand-written; ``tests/db/test_migrations.py`` checks it matches the models exactly and downgrades cleanly.

Revision ID: 0019
Revises: 0018
Create Date: 2026-12-02
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0019"
down_revision: str | None = "0018"  # after the once-per-player achievements
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("decision_opened", sa.Integer(), nullable=False, server_default="0"))
    with op.batch_alter_table("games") as batch:
        batch.alter_column("decision_opened", server_default=None)


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("decision_opened")
