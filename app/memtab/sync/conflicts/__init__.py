"""Conflicts: a sync conflict decided by the user, and file-sync tools' conflict copies resolved."""
