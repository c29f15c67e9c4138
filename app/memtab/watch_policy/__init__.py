"""One watcher policy for the window and `memtab watch`: what counts (`paths`) and how it coalesces
(`coalesce`); no Qt, no watchdog, on the caller's clock."""
