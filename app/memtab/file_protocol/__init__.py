"""One file identity and one file protocol: MemoryFileRef names any memory file, MemoryFile reads
and saves it, mux's or another agent's."""
