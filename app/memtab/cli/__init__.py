"""The `memtab` command: the GUI by default, sub-commands for headless use."""

from memtab.cli.main import main

__all__ = ["main"]
