"""Commands over the memory itself: list, show, copy, sources, history, the Inbox, loads."""
