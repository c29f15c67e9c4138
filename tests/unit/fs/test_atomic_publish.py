"""A new file published in one step (`fs/atomic.py`, docs/formats.md §16): never over an
entry that is there, and never, even for an instant, a file with a second name."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path
from typing import Any

import pytest

from memtab.fs.atomic import Directory


def test_a_new_file_never_has_a_second_name_while_it_is_published(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Its temp renamed without replacing (Linux), not linked then unlinked: a reader never
    # meets it with two links, and a batch of 1,000 makes 1,000 calls, not 2,000.
    links: list[int] = []
    target, lstat = str(tmp_path / "new.md"), os.lstat
    for name in ("unlink", "stat", "open"):
        real = getattr(os, name)

        def watched(*args: Any, real: Any = real, **kwargs: Any) -> Any:
            with contextlib.suppress(FileNotFoundError):
                links.append(lstat(target).st_nlink)
            return real(*args, **kwargs)

        monkeypatch.setattr(os, name, watched)
    with Directory.open(tmp_path) as folder:
        folder.create_new("new.md", b"mine\n")
        with pytest.raises(FileExistsError):
            folder.create_new("new.md", b"theirs\n")
    monkeypatch.undo()

    assert (tmp_path / "new.md").read_bytes() == b"mine\n"
    assert set(links) == {1}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["new.md"]
