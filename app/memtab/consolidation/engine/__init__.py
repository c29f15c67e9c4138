"""One consolidation run: the tool loop (runner), its prompts, its store, its books, and the lock
that keeps it alone."""
