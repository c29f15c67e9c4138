"""`memtab sync --json` and `memtab sync status --json`: the reports' JSON, key by key and
in order (a stable contract: fields are added, never renamed or removed)."""

from __future__ import annotations

import json

from memtab.sync.repository.layout import GLOBAL_SCOPE, SyncedScope, Target
from memtab.sync.service import SyncConflict, SyncReport, SyncStatus, TargetReport, TargetState

PROJECT = SyncedScope.of("project", "app", "/src/app")


def _conflict(scope: SyncedScope | None = PROJECT) -> SyncConflict:
    return SyncConflict(
        target="memory",
        path="/memories/projects/app/a.md",
        repo_path="projects/app/a.md",
        reason="both sides changed line 3",
        since=7,
        scope=scope,
    )


def test_a_sync_report_keeps_its_keys_in_order() -> None:
    report = SyncReport(
        targets=(
            TargetReport(
                target="memory",
                remote="git@x:m.git",
                status="conflicts",
                commits=2,
                pushed=1,
                pulled=("/memories/global/b.md",),
                conflicts=(_conflict(), _conflict(None)),
                deleted=("/memories/global/c.md",),
                pulled_on_disk=("/home/memory/global/b.md",),
                notes=("a note",),
                problems=("a problem",),
                error="it failed",
                offline=None,
            ),
            TargetReport(target="team", remote="r", status="offline", offline="no route"),
        )
    )
    conflict = (
        '{"path": "/memories/projects/app/a.md", "target": "memory", '
        '"repoPath": "projects/app/a.md", "reason": "both sides changed line 3", "since": 7, '
    )
    assert json.dumps(report.to_json()) == (
        '{"pushed": 1, "pulled": 1, "conflicts": ['
        f'{conflict}"scope": "project:/src/app"}}, {conflict}"scope": null}}], '
        '"offline": true, "errors": ["it failed"], "targets": [{"target": "memory", '
        '"remote": "git@x:m.git", "status": "conflicts", "commits": 2, "pushed": 1, '
        '"pulled": ["/memories/global/b.md"], "deleted": ["/memories/global/c.md"], '
        f'"conflicts": [{conflict}"scope": "project:/src/app"}}, {conflict}"scope": null}}], '
        '"notes": ["a note"], "problems": ["a problem"], "error": "it failed", "offline": null}, '
        '{"target": "team", "remote": "r", "status": "offline", "commits": 0, "pushed": 0, '
        '"pulled": [], "deleted": [], "conflicts": [], "notes": [], "problems": [], '
        '"error": null, "offline": "no route"}]}'
    )
    assert SyncReport().to_json() == {
        "pushed": 0, "pulled": 0, "conflicts": [], "offline": False, "errors": [], "targets": []
    }  # fmt: skip


def test_a_sync_status_keeps_its_keys_in_order() -> None:
    target = Target(
        name="memory",
        remote="git@x:m.git",
        branch="main",
        scopes=(GLOBAL_SCOPE, PROJECT),
    )
    state = TargetState(
        target=target,
        ahead=1,
        behind=2,
        local_changes=3,
        conflicts=(_conflict(),),
        unapplied=("/memories/global/u.md",),
        last_sync_at=10,
        offline_since=None,
        last_error="e",
        problems=("p",),
        to_send=("/memories/global/s.md",),
        to_receive=("/memories/global/r.md",),
    )
    status = SyncStatus(machine="alpha", targets=(state,), problem=None)
    assert json.dumps(status.to_json()) == (
        '{"machine": "alpha", "targets": [{"target": "memory", "remote": "git@x:m.git", '
        '"branch": "main", "scopes": ["global", "project:/src/app"], "ahead": 1, "behind": 2, '
        '"localChanges": 3, "conflicts": [{"path": "/memories/projects/app/a.md", '
        '"target": "memory", "repoPath": "projects/app/a.md", '
        '"reason": "both sides changed line 3", "since": 7, "scope": "project:/src/app"}], '
        '"unapplied": ["/memories/global/u.md"], "lastSyncAt": 10, "offlineSince": null, '
        '"lastError": "e", "problems": ["p"], "toSend": ["/memories/global/s.md"], '
        '"toReceive": ["/memories/global/r.md"]}], "problem": null, "xumBackup": null}'
    )
    assert SyncStatus(machine="m", problem="bad").to_json() == {
        "machine": "m", "targets": [], "problem": "bad", "xumBackup": None
    }  # fmt: skip
