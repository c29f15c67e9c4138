"""Saunas, slots and bookings."""
revision = "0001"
down_revision = None


def upgrade() -> None:
    pass


def downgrade() -> None:
    pass
