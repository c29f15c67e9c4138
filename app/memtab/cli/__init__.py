"""The `memtab` command: the GUI by default, sub-commands for headless use."""
