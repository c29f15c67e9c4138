"""Keep every member of a refresh-token family: revoke them together on reuse."""

revision = "0007"
down_revision = "0006"
