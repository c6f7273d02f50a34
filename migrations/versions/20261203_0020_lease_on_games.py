"""The delivery lease moves onto the game's row (``games.lease_owner``, ``lease_until``, ``lease_given_back``,
``lease_taken_from`` and ``shown``, from ``delivery_leases``, which goes): every step's transaction updates that row
anyway (its version bump), so the lease is taken in the same statement, and the delivery gives it back in one
``UPDATE`` that returns the game's version as it stands (a step another process committed meanwhile is seen there,
race-free on PostgreSQL: that UPDATE waits for the step's row lock). One statement less per move (issue 20).

Leases held when this runs are copied over (a running process keeps its games).

Hand-written; ``tests/db/test_migrations.py`` checks it matches the models exactly and downgrades cleanly.

Revision ID: 0020
Revises: 0019
Create Date: 2026-12-03
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0020"
down_revision: str | None = "0019"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_COPIED = {"lease_owner": "owner", "lease_until": "lease_until", "lease_given_back": "given_back",
           "lease_taken_from": "taken_from", "shown": "shown"}


def upgrade() -> None:
    # plain ALTER TABLE on both backends: a SQLite batch would rebuild ``games``, whose DROP cascades through the
    # game's rows (``foreign_keys`` is on); so ``lease_given_back`` keeps its server default
    op.add_column("games", sa.Column("lease_owner", sa.String(length=64), nullable=True))
    op.add_column("games", sa.Column("lease_until", sa.DateTime(timezone=True), nullable=True))
    op.add_column("games", sa.Column("lease_given_back", sa.Boolean(), nullable=False, server_default=sa.false()))
    op.add_column("games", sa.Column("lease_taken_from", sa.String(length=64), nullable=True))
    op.add_column("games", sa.Column("shown", sa.String(length=64), nullable=True))
    sets = ", ".join(f"{column} = (SELECT l.{old} FROM delivery_leases l WHERE l.game_id = games.id)"
                     for column, old in _COPIED.items())
    op.execute(f"UPDATE games SET {sets} WHERE id IN (SELECT game_id FROM delivery_leases)")
    op.drop_table("delivery_leases")


def downgrade() -> None:
    op.create_table(
        "delivery_leases",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("owner", sa.String(length=64), nullable=False),
        sa.Column("lease_until", sa.DateTime(timezone=True), nullable=False),
        sa.Column("shown", sa.String(length=64), nullable=True),
        sa.Column("given_back", sa.Boolean(), nullable=False),
        sa.Column("taken_from", sa.String(length=64), nullable=True),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name=op.f("fk_delivery_leases_game_id_games"),
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("game_id", name=op.f("pk_delivery_leases")),
    )
    op.execute("INSERT INTO delivery_leases (game_id, owner, lease_until, shown, given_back, taken_from) "
               "SELECT id, lease_owner, lease_until, shown, lease_given_back, lease_taken_from FROM games "
               "WHERE lease_owner IS NOT NULL AND lease_until IS NOT NULL")
    for column in ("shown", "lease_taken_from", "lease_given_back", "lease_until", "lease_owner"):
        op.drop_column("games", column)
