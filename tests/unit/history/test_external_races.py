"""The pass that records other programs' changes (`record_external`) beside Memtab's own
saves: a file it read before a save was recorded is not recorded after that save as an
"external" change back to what it held before (history would say the file holds the old
text, and blame would name another program for the user's lines)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from memtab.store.catch_up import external
from memtab.store.catch_up.external import record_external
from memtab.store.history.blobs import sha256_of
from support.memory_paths import vpath

from .helpers import new_home, store_for, versions

NOTES = "/memories/global/notes.md"


def test_a_save_recorded_after_the_pass_read_the_file_stays_the_newest_version(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = new_home(tmp_path / "home")
    store = store_for(home)
    physical = home.global_root / "notes.md"
    physical.parent.mkdir(parents=True, exist_ok=True)
    physical.write_text("- old line\n")  # written by mux: not in history yet
    real_read = external._read_files

    def read_then_save(*args: Any) -> Iterator[tuple[str, bytes]]:
        read = list(real_read(*args))  # the pass has the old text in hand…
        old = physical.read_bytes()
        store.save(vpath(NOTES), "- old line\n- saved by the user\n", sha256_of(old))  # …then this
        yield from read

    monkeypatch.setattr(external, "_read_files", read_then_save)
    record_external(store_for(home, actor="external"))
    newest = versions(store)[-1]
    assert newest.actor == "user"
    assert newest.sha256 == sha256_of(physical.read_bytes())
    # The next pass has nothing to add: history and the disk agree.
    monkeypatch.setattr(external, "_read_files", real_read)
    report = record_external(store_for(home, actor="external"))
    assert report.recorded == 0 and versions(store)[-1] == newest
