"""One watcher policy for every process that follows the disk: the window's watcher
(`gui/activity/watch.py`) and `memtab watch`'s recorder (`watch/recorder.py`) — Qt-free,
watchdog-free, on the caller's clock.

- paths.py     what counts: which events and paths are worth reporting (reads, temp files,
               xum's `<target>.<12 hex>` siblings, hidden folders, a sync repository are not);
- coalesce.py  how changes coalesce: a trailing debounce capped by a maximum latency, a settled
               change passed at once while calm — decisions from the time given, no timers.
"""
