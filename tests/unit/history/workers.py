"""A process that saves memory files many times (for the two-process history test)."""

from __future__ import annotations

import sys
from pathlib import Path

from memtab.store.home import Home
from memtab.store.paths import parse_file_path
from memtab.store.scopes.memory import MemoryStore
from memtab.store.sidecars.registry import load_registry


def save_many(home_root: str, tag: str, count: int) -> None:
    home = Home(Path(home_root))
    workspace = load_registry(home).require_workspace("a1a1a1a1a1")
    store = MemoryStore(home, workspace)
    for index in range(count):
        # Each its own file, and every one also edits the file both processes share.
        store.create_file(parse_file_path(f"/memories/global/{tag}-{index}.md"), f"{tag} {index}\n")
        line = f"{tag}{index}\n"
        store.edit_text(
            parse_file_path("/memories/global/shared.md"), lambda text, line=line: text + line
        )


if __name__ == "__main__":
    save_many(sys.argv[1], sys.argv[2], int(sys.argv[3]))
