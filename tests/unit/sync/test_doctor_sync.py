"""`memtab doctor`'s sync section: the home's file system, targets, conflict copies."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from memtab.diagnostics.sync import check_sync
from memtab.fs.locking.filesystems import LockProbe
from memtab.store.home import Home
from memtab.sync.service import SyncError
from support.sync_machines import Machine


def test_a_plain_home_has_nothing_to_say(tmp_path: Path) -> None:
    home = Home(tmp_path / "home")
    home.root.mkdir()
    facts, found = check_sync(home)
    section = facts.to_json()
    assert found.items == []
    assert section["targets"] == [] and section["conflictCopies"] == []
    assert section["fileSystem"] is None or section["fileSystem"]["locksWork"]


def test_conflict_copies_in_every_scope_and_of_sidecars_are_warned(tmp_path: Path) -> None:
    home = Home(tmp_path / "home")
    (home.global_root).mkdir(parents=True)
    (home.global_root / "x.md").write_text("x\n")
    (home.global_root / "x (conflicted copy 2026-11-22).md").write_text("y\n")
    project = home.projects_root / "app-0123456789ab"
    project.mkdir(parents=True)
    (project / "y.md").write_text("y\n")
    (project / "y_conflict-20261122-143000.md").write_text("z\n")
    (home.root / "memory-meta.json").write_text("{}")
    (home.root / "memory-meta.sync-conflict-20261122-143000-ABCDEF7.json").write_text("{}")
    facts, found = check_sync(home)
    section = facts.to_json()
    assert {row["in"] for row in section["conflictCopies"]} == {
        "global",
        "app-0123456789ab",
        "home",
    }
    keys = {row["in"]: list(row) for row in section["conflictCopies"]}
    assert keys["global"] == ["path", "conflictOf", "tool", "when", "by", "in"]
    assert keys["home"] == ["path", "conflictOf", "tool", "when", "by", "mergeable", "in"]
    [warning] = found.items
    assert warning.level.value == "warning" and "3 conflict copies" in warning.message


def test_conflicts_waiting_are_warned(tmp_path: Path, alpha: Machine, beta: Machine) -> None:
    notes = "/memories/global/notes.md"
    alpha.publish(notes, "a\n", beta)
    alpha.write(notes, "b\n")
    beta.write(notes, "c\n")
    alpha.sync()
    beta.sync()
    facts, found = check_sync(beta.home)
    section = facts.to_json()
    assert section["targets"][0]["conflicts"] == ["global/notes.md"]
    assert any("sync conflict" in item.message for item in found.items)


def test_a_home_where_locks_do_not_hold_is_broken(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = Home(tmp_path / "home")
    home.root.mkdir()
    not_enforced = LockProbe(True, False, "locks are not enforced")
    monkeypatch.setattr("memtab.diagnostics.sync.probe_locks", lambda _directory: not_enforced)
    monkeypatch.setattr(
        "memtab.fs.locking.filesystems.probe_locks", lambda _directory: not_enforced
    )
    _, found = check_sync(home)
    [broken] = found.items
    assert broken.level.value == "broken"
    assert "Memtab's locks do not work" in broken.message


def test_an_unreadable_set_up_is_said_so_not_taken_for_none(alpha: Machine) -> None:
    config = alpha.home.root / "memtab" / "sync" / "config.json"
    config.write_text('{"targets": [')

    _, found = check_sync(alpha.home)
    with pytest.raises(SyncError, match="cannot be read"):
        alpha.service.sync()

    assert any(i.level.value == "broken" and "cannot be read" in i.message for i in found.items)
    assert alpha.service.status().problem is not None


def test_a_missing_repository_fails_doctor(alpha: Machine) -> None:
    shutil.rmtree(alpha.home.root / "memtab" / "sync" / "memory" / "repo.git")
    _, found = check_sync(alpha.home)
    assert any(i.level.value == "broken" and "is missing" in i.message for i in found.items)


@pytest.mark.parametrize("branch", ["a b", "a..b", "x~1", "-rf"])
def test_a_branch_git_refuses_is_said_in_a_sentence(
    tmp_path: Path, alpha: Machine, remote: Path, branch: str
) -> None:
    with pytest.raises(SyncError, match="not a branch name git accepts"):
        alpha.service.init(str(remote), [], name="other", branch=branch)
    config = alpha.home.root / "memtab" / "sync" / "config.json"
    document = json.loads(config.read_text())
    document["targets"][0]["branch"] = branch
    config.write_text(json.dumps(document))

    [target] = alpha.service.sync().targets

    assert target.status == "failed" and "not a branch name" in (target.error or "")
    _, found = check_sync(alpha.home)
    assert any(i.level.value == "broken" and "branch name" in i.message for i in found.items)
