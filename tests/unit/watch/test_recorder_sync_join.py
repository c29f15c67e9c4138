"""`memtab watch` beside a machine joining a sync: the scope it brings in whole (its files
staged in Memtab's own folder, renamed into place in one step: docs/formats.md §18.3) is
sync's in history — the recorder sees the folder arrive, and records nothing of it again,
nor as another program's change."""

from __future__ import annotations

import pytest

from memtab.fs.atomic import FILESYSTEM_FLUSH_WORKS, Directory
from memtab.store.history.versions import ScopeHistory
from memtab.store.paths import Scope
from memtab.sync.repository.layout import STAGING_NAME
from support.spies import calls_through
from support.sync_machines import Machine

from .helpers import running_recorder, wait_for

G = "/memories/global"


@pytest.mark.skipif(not FILESYSTEM_FLUSH_WORKS, reason="file by file: no scope staged whole")
@pytest.mark.parametrize("polling", [False, True], ids=["native", "polling"])
def test_a_scope_a_join_brings_in_whole_is_recorded_as_syncs_once(
    alpha: Machine, beta: Machine, monkeypatch: pytest.MonkeyPatch, polling: bool
) -> None:
    shared = alpha.share_notes(12)
    (beta.home.root / "memory").mkdir()  # watched already: the scope's folder arrives in it
    moved = calls_through(monkeypatch, Directory, "move_whole")
    with running_recorder(beta.home, use_polling=polling, poll_interval_s=0.05) as recorder:
        before = recorder.passes
        beta.sync()
        wait_for(lambda: recorder.passes > before, "the recorder looks at what arrived")
        assert recorder.record_everything().recorded == 0
    monkeypatch.undo()

    assert [target.display(new) for _, name, target, new in moved if name == STAGING_NAME] == [
        str(beta.home.global_root)
    ]
    key = beta.store.history_key(Scope.GLOBAL)
    versions = ScopeHistory(beta.home, key).versions()
    assert sorted((v.path, v.actor) for v in versions) == sorted((path, "sync") for path in shared)
