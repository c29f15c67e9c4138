"""Files moved more than once, or moved then deleted, between two syncs."""

from __future__ import annotations

from pathlib import Path

import pytest

from memtab.diagnostics.sync import check_sync
from memtab.sync import engine, export
from support.memory_paths import vpath
from support.sync_machines import Machine

X, Y, Z = (f"/memories/global/{name}.md" for name in "xyz")


@pytest.mark.parametrize("apart", [False, True])
def test_a_file_moved_twice_between_syncs_arrives_at_its_last_name(
    alpha: Machine, beta: Machine, monkeypatch: pytest.MonkeyPatch, apart: bool
) -> None:
    if apart:  # minutes apart: each half of each move is a change of its own
        monkeypatch.setattr(export, "_MOVE_WINDOW_MS", -1)
    alpha.publish(X, "x\n", beta)
    alpha.store.move(vpath(X), vpath(Y))
    alpha.store.move(vpath(Y), vpath(Z))

    alpha.sync()
    beta.sync()

    assert beta.files() == alpha.files() == {Z: "x\n"}


def test_a_file_moved_then_deleted_between_syncs_is_gone_everywhere(
    alpha: Machine, beta: Machine
) -> None:
    alpha.publish(X, "x\n", beta)
    alpha.write("/memories/global/other.md", "other\n")
    alpha.store.move(vpath(X), vpath(Y))
    alpha.store.delete(vpath(Y))

    alpha.sync()
    beta.sync()

    assert beta.files() == alpha.files() == {"/memories/global/other.md": "other\n"}


@pytest.mark.expect_log("memtab.sync.service", "ERROR", r"internal error")
def test_a_sync_that_stops_on_a_bug_says_so_and_doctor_reports_it(
    tmp_path: Path, alpha: Machine, monkeypatch: pytest.MonkeyPatch
) -> None:
    alpha.write(X, "x\n")

    def broken(*_args: object) -> None:
        raise IndexError("list index out of range")

    monkeypatch.setattr(engine, "export_changes", broken)
    report = alpha.service.sync()

    [target] = report.targets
    assert target.status == "failed"
    assert target.error is not None and "IndexError" in target.error
    _, found = check_sync(alpha.home)
    assert any("IndexError" in item.message for item in found.items)
