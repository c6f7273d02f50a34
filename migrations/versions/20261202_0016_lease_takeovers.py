"""Delivery lease takeovers: ``delivery_leases.given_back`` tells a lease its owner ended (its delivery was over,
or it stopped) from one that ran out (its process died or hung), and ``delivery_leases.taken_from`` names the
owner a lease that ran out was taken from, so ``coroner_lease_takeovers`` counts delivery leases too (issue 23).

Hand-written; ``tests/db/test_migrations.py`` checks it matches the models exactly and downgrades cleanly.

Revision ID: 0016
Revises: 0014
Create Date: 2026-12-02
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0016"
down_revision: str | None = "0014"  # main's head when this branch merged it (the per-send records)
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("delivery_leases") as batch:
        batch.add_column(sa.Column("given_back", sa.Boolean(), nullable=False, server_default=sa.true()))
        batch.add_column(sa.Column("taken_from", sa.String(length=64), nullable=True))
    with op.batch_alter_table("delivery_leases") as batch:
        batch.alter_column("given_back", server_default=None)


def downgrade() -> None:
    with op.batch_alter_table("delivery_leases") as batch:
        batch.drop_column("taken_from")
        batch.drop_column("given_back")
