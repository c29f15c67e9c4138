"""Locks across processes: Memtab's own (`locks`), xum's lock files (`lease_lock`), and where locks
work."""
