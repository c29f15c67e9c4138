"""What changed on disk and who did it: watcher events → paths (`changes`), Memtab's own
writes (`own_writes`), the "agent edited" badges (`badges`), whether mux runs (`mux_activity`).
"""
