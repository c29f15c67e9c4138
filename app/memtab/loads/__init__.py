"""What each agent reads at the start of a session, file by file in its own order, with sizes
and where each cut falls (docs/formats.md §17.6); Qt-free."""
