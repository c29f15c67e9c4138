"""Commands that say whether things hold: `memtab check` (the memory), `doctor` and `--self-test`
(Memtab)."""
