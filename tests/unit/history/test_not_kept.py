"""Files history keeps no copy of (over 16 MB, other hard links) are named plainly, once."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from memtab.cli.main import main
from memtab.store.catch_up.external import NOTICE_NAMES, record_external
from memtab.store.history import capture
from memtab.store.home import Home
from memtab.store.paths import Scope

from .helpers import HOUR_NS, new_home, passes_at, store_for, versions


@pytest.fixture
def home(tmp_path: Path) -> Home:
    return new_home(tmp_path / "home")


@pytest.fixture
def small_cap(monkeypatch: pytest.MonkeyPatch) -> int:
    """A 1 KB cap stands for 16 MB (the notice says the real one)."""
    monkeypatch.setattr(capture, "MAX_HISTORY_FILE_BYTES", 1024)
    return 1024


def global_root(home: Home) -> Path:
    root = store_for(home).root(Scope.GLOBAL)
    root.mkdir(parents=True, exist_ok=True)
    return root


def big_and_linked(home: Home, tmp_path: Path, cap: int) -> tuple[Path, Path]:
    root = global_root(home)
    (root / "note.md").write_text("kept\n")
    big = root / "big.md"
    big.write_bytes(b"x" * (cap + 1))
    linked = root / "linked.md"
    linked.write_text("shared\n")
    os.link(linked, tmp_path / "elsewhere.md")
    return big, linked


def test_they_are_named_in_one_notice_the_first_time_only(
    home: Home, tmp_path: Path, small_cap: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    big, _ = big_and_linked(home, tmp_path, small_cap)
    passes_at(monkeypatch, later_ns=HOUR_NS)  # note.md settled: trusted by its stat
    store = store_for(home)
    first = record_external(store)
    assert first.problems == [] and first.recorded == 1  # note.md
    (notice,) = first.warnings()
    assert notice == (
        "history keeps no copy of /memories/global/big.md (over 16 MB), "
        "/memories/global/linked.md (it has other hard links): it cannot restore earlier "
        "contents of them; the files themselves are left as they are"
    )
    again = record_external(store)
    assert again.warnings() == [] and again.hashed == 0  # not even read again
    big.write_bytes(b"y" * (small_cap + 2))
    changed = record_external(store)
    assert changed.not_kept == [("/memories/global/big.md", "over 16 MB")]
    assert [v.path for v in versions(store)] == ["/memories/global/note.md"]


def test_one_that_becomes_keepable_is_recorded(home: Home, tmp_path: Path, small_cap: int) -> None:
    big, _ = big_and_linked(home, tmp_path, small_cap)
    store = store_for(home)
    record_external(store)
    big.write_text("small now\n")
    assert record_external(store).recorded == 1
    assert "/memories/global/big.md" in [v.path for v in versions(store)]


def test_many_are_counted_after_the_first_few(home: Home, small_cap: int) -> None:
    root = global_root(home)
    for number in range(NOTICE_NAMES + 2):
        (root / f"big{number}.md").write_bytes(b"x" * (small_cap + 1))
    notice = record_external(store_for(home)).not_kept_notice()
    assert notice is not None and notice.count("(over 16 MB)") == NOTICE_NAMES
    assert "and 2 more:" in notice


def test_the_cli_says_it_in_one_line_once(
    home: Home, tmp_path: Path, small_cap: int, capsys: pytest.CaptureFixture[str]
) -> None:
    big_and_linked(home, tmp_path, small_cap)
    arguments = ["--home", str(home.root), "list", "--json"]
    assert main(arguments) == 0
    warnings = [line for line in capsys.readouterr().err.splitlines() if "warning" in line]
    assert len(warnings) == 1 and "history keeps no copy of" in warnings[0]
    assert main(arguments) == 0
    assert "warning" not in capsys.readouterr().err
