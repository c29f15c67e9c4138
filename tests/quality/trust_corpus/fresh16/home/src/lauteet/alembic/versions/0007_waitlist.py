"""The waitlist table."""
revision = "0007"
down_revision = "0006"


def upgrade() -> None:
    pass


def downgrade() -> None:
    pass
