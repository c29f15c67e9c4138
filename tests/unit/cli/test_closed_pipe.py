"""`memtab list | head`: a reader that stops early is no error — the command exits 0 and
says nothing, as `cat` would."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from memtab.store.home import Home


# slow: starts other processes (memtab writing into a pipe closed early; ~0.5 s of CPU or more)
@pytest.mark.slow
@pytest.mark.parametrize("json_flag", [[], ["--json"]], ids=["table", "json"])
def test_a_reader_that_closes_early_is_no_error(tmp_path: Path, json_flag: list[str]) -> None:
    home = Home(tmp_path / "home")
    home.global_root.mkdir(parents=True)
    for number in range(1000):  # far more than a pipe holds
        (home.global_root / f"note-{number:04}.md").write_text(
            f"---\ndescription: the note number {number}, with a few words\n---\nbody\n",
            encoding="utf-8",
        )
    read_end, write_end = os.pipe()
    os.close(read_end)  # the reader is gone before the first line
    with os.fdopen(write_end, "wb") as closed_reader:
        done = subprocess.run(
            [sys.executable, "-m", "memtab", "--home", str(home.root), "list", *json_flag],
            stdout=closed_reader,
            stderr=subprocess.PIPE,
            text=True,
            timeout=120,
            check=False,
        )
    assert (done.returncode, done.stderr) == (0, "")
