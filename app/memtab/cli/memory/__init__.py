"""Commands over the memory itself: list, search, show, copy, sources, history, the Inbox, loads."""
