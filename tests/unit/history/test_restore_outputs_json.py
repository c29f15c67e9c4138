"""`memtab restore --json`, `memtab trash --json` and `memtab revert --json`: the outputs'
JSON, key by key and in order (a stable contract: fields are added, never renamed)."""

from __future__ import annotations

import json

from memtab.store.history.records import RunEntry
from memtab.store.history.versions import Version
from memtab.store.restore.from_history import Refusal, RestoreResult, RevertResult, TrashItem

VERSION = Version(
    id="v1",
    at=11,
    path="/memories/global/a.md",
    actor="memtab",
    op="delete",
    sha256="ab",
    size_bytes=12,
    deleted=True,
    run_id="run-1",
    meta={"pinned": True},
)


def test_a_restore_result_keeps_its_keys_in_order() -> None:
    result = RestoreResult(version=VERSION, path="/memories/global/b.md", unchanged=True)
    assert json.dumps(result.to_json()) == (
        '{"path": "/memories/global/b.md", "version": "v1", "unchanged": true}'
    )


def test_a_trash_item_keeps_its_keys_in_order() -> None:
    item = TrashItem(path="/memories/global/a.md", version=VERSION)
    assert item.deleted_at == 11 and item.pinned
    assert json.dumps(item.to_json()) == (
        '{"path": "/memories/global/a.md", "deletedAt": 11, "version": "v1", "sizeBytes": 12, '
        '"actor": "memtab", "runId": "run-1", "pinned": true, "agent": "mux", "event": null}'
    )


def test_a_revert_result_keeps_its_keys_in_order() -> None:
    result = RevertResult(
        run=RunEntry(id="run-1", at=5, kind="consolidation"),
        restored=["/memories/global/a.md"],
        refused=[Refusal(path="/memories/global/b.md", reason="changed since")],
        already=["/memories/global/c.md"],
        revert_run_id="run-2",
    )
    assert json.dumps(result.to_json()) == (
        '{"runId": "run-1", "restored": ["/memories/global/a.md"], "refused": '
        '[{"path": "/memories/global/b.md", "reason": "changed since", "diff": "", '
        '"unkept": false}], "alreadyReverted": ["/memories/global/c.md"], "revertRunId": "run-2"}'
    )
