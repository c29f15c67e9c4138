"""What changed on disk and who did it: a watcher batch classified once (`change_batch`),
Memtab's own writes (`own_writes`), the "agent edited" badges (`badges`), whether mux runs
(`mux_activity`)."""
