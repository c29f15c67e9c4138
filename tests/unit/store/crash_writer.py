"""A child process for the crash tests: writes in a loop until it is killed.

Usage: python crash_writer.py atomic <directory> <size> <name>...
       python crash_writer.py store <home> <size> <name>...
`atomic` rewrites every file with the other of two known contents (`A`*size, `B`*size)
through `atomic_write_bytes`. `store` does the same through the store, as the editor and
the memory tool do (sha-checked saves and str_replace edits of global-scope files).
"""

from __future__ import annotations

import sys
from pathlib import Path

from memtab.fs.atomic import atomic_write_bytes
from memtab.store.files import content_sha256
from memtab.store.home import Home
from memtab.store.paths import parse_file_path
from memtab.store.scopes.memory import MemoryStore
from memtab.store.scopes.tool import MemoryTool


def main() -> None:
    mode, where, size, names = sys.argv[1], Path(sys.argv[2]), int(sys.argv[3]), sys.argv[4:]
    contents = ("A" * size, "B" * size)
    store = MemoryStore(Home(where))
    tool = MemoryTool(store)
    round_number = 0
    while True:
        old, new = contents[round_number % 2], contents[(round_number + 1) % 2]
        for index, name in enumerate(names):
            if mode == "atomic":
                atomic_write_bytes(where / name, new.encode())
            elif index % 2 == 0:
                store.save(parse_file_path(f"/memories/global/{name}"), new, content_sha256(old))
            else:
                call = {"path": f"/memories/global/{name}", "old_str": old, "new_str": new}
                result = tool.execute({"command": "str_replace", **call})
                assert result.success, result.error
        if round_number == 0:
            print("writing", flush=True)
        round_number += 1


if __name__ == "__main__":
    main()
