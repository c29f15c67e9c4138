"""Nothing is lost: every version of every memory file Memtab sees, and every run, under the home's
`memtab/history/`; modules are imported by their full names."""
