"""`memtab doctor` names a folder whose contents are deeper than memory paths go, and a
tree deeper than the file watcher follows natively (docs/formats.md §5)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from memtab.cli.health.doctor_commands import run_doctor
from memtab.demo import MAIN_ID
from memtab.diagnostics.setup import QtCheck
from memtab.store.home import HomeLocation
from memtab.store.paths import MAX_PATH_DEPTH
from memtab.watch.observers import WATCH_MAX_DEPTH
from support.demo_homes import copied_demo_home


@pytest.mark.expect_log(
    "memtab.store.files", "WARNING", r"^Not listed, searched or recorded: the contents of "
)
def test_a_folder_too_deep_is_named_as_a_warning(
    tmp_path: Path, deep_tree: Callable[..., None]
) -> None:
    home = copied_demo_home(tmp_path / "demo")
    deep_tree(home.workspace_root(MAIN_ID), "deep", WATCH_MAX_DEPTH)

    report = run_doctor(
        HomeLocation(home.root, "--home"), qt_check=lambda: QtCheck(pyside6="6.0.0", qt="6.0.1")
    )

    findings = [(f.check, f.level.value, f.message) for f in report.findings]
    assert report.status.value == "warning"
    assert (
        "memory",
        "warning",
        "Not listed, searched, recorded or synced: the contents of "
        f"/memories/workspace/deep/d/…(26 more)…/d/d/d/d are more than {MAX_PATH_DEPTH} levels "
        f"deep (in {home.workspace_root(MAIN_ID)}); memory paths go at most {MAX_PATH_DEPTH} "
        "levels below their scope: move or delete them",
    ) in findings
    [(_, level, deep)] = [f for f in findings if f[0] == "watcher"]
    assert level == "warning"
    assert deep.endswith(
        "levels below the home: the native file watcher may not follow a tree this deep "
        "(watchdog walks it by recursion), and then the window and memtab watch poll "
        "instead, noticing changes a second or two later"
    )
