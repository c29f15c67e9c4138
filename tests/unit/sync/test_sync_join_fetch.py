"""A machine joining brings in the commit `sync init` fetched while the remote is fetched
again, not after that fetch (`engine.TargetSync._joining`): the fetch is a git on its own
the import need not wait for. What the remote got meanwhile is merged after, as for any
machine; a fetch that fails says so after the files are in."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest

from memtab.store.history.versions import ScopeHistory
from memtab.store.paths import Scope
from memtab.sync import importer
from memtab.sync.repository.git import Git
from memtab.sync.state import load_state
from support.sync_machines import Machine

G = "/memories/global"


def _joining(root: Path, remote: Path) -> Machine:
    """A machine connected now: its `sync init` fetched what the remote holds."""
    machine = Machine.create(root, "gamma")
    machine.connect(remote)
    return machine


def test_a_join_fetches_while_it_brings_in_what_init_fetched(
    alpha: Machine, remote: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    alpha.share_notes(5)
    beta = _joining(tmp_path, remote)
    importing = threading.Event()
    saw: list[bool] = []
    fetch, write = Git.fetch, importer.Importer.write

    def fetched(self: Git, *args: Any, **kwargs: Any) -> Any:
        saw.append(importing.wait(timeout=10))  # the old code: the import waited for this
        return fetch(self, *args, **kwargs)

    def written(self: importer.Importer, *args: Any, **kwargs: Any) -> None:
        importing.set()
        write(self, *args, **kwargs)

    monkeypatch.setattr(Git, "fetch", fetched)
    monkeypatch.setattr(importer.Importer, "write", written)
    report = beta.sync()
    monkeypatch.undo()

    assert saw == [True]
    assert set(report.targets[0].pulled) == set(alpha.files())
    assert beta.files() == alpha.files()
    assert load_state(beta.sync_dir / "state.json").unpushed == 0
    assert beta.sync().targets[0].commits == 0  # the import's files are not beta's change


def test_what_the_remote_got_after_init_is_merged_after(
    alpha: Machine, remote: Path, tmp_path: Path
) -> None:
    alpha.share_notes(3)
    gamma = _joining(tmp_path, remote)  # its init fetched alpha's three notes
    alpha.write(f"{G}/n01.md", "note 1, changed after gamma's init\n")
    alpha.write(f"{G}/new.md", "new after gamma's init\n")
    alpha.sync()

    report = gamma.sync()

    assert gamma.files() == alpha.files()
    assert f"{G}/new.md" in report.targets[0].pulled
    history = ScopeHistory(gamma.home, gamma.store.history_key(Scope.GLOBAL))
    n01 = [v for v in history.versions() if v.path == f"{G}/n01.md"]
    assert [v.actor for v in n01] == ["sync", "sync"]  # init's version, then alpha's
    assert gamma.sync().targets[0].commits == 0
    alpha.sync()
    assert alpha.files() == gamma.files()


def test_a_fetch_that_fails_is_said_once_the_files_are_in(
    alpha: Machine, remote: Path, tmp_path: Path
) -> None:
    files = alpha.share_notes(3)
    beta = _joining(tmp_path, remote)
    away = tmp_path / "away.git"
    remote.rename(away)  # the remote went since `sync init`

    report = beta.service.sync()

    target = report.targets[0]
    assert target.status in ("failed", "offline") and (target.error or target.offline)
    assert beta.files() == files  # what init fetched is in, whole
    away.rename(remote)
    assert beta.sync().targets[0].status == "synced"
    assert beta.sync().targets[0].commits == 0
