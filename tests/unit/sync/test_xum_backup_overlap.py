"""xum's settings backup carries memory too (settingsBackup in config.json; xum's
settingsBackup.ts and backup/payload.ts, PR #4043; docs/formats.md §18.9): where Memtab's
sync is set up — `sync init`, `sync status`, `doctor` — it says so, and the user picks
which one owns it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from memtab.cli.main import main
from memtab.diagnostics.sync import check_sync
from memtab.store.home import Home
from memtab.store.xum_backup import backup_overlap
from support.sync_machines import bare_repository

PROJECT = "/home/alice/app"


def _config(home: Path, backup: dict[str, Any] | None) -> None:
    home.mkdir(exist_ok=True)
    document: dict[str, Any] = {
        "projects": [[PROJECT, {"workspaces": [{"id": "a1b2c3d4e5", "name": "m", "path": "/w"}]}]]
    }
    if backup is not None:
        document["settingsBackup"] = backup
    (home / "config.json").write_text(json.dumps(document))


BACKUP = {"repoUrl": "git@github.com:alice/xum-settings.git", "branch": "main", "path": "xum"}


@pytest.mark.parametrize(
    ("backup", "synced", "carried"),
    [
        (None, [("global", None)], None),
        ({**BACKUP, "repoUrl": ""}, [("global", None)], None),
        # global memory goes by default; project memory only when opted in (PR #4043)
        (BACKUP, [("global", None), ("project", PROJECT)], ("global",)),
        ({**BACKUP, "includeGlobalMemory": False}, [("global", None)], None),
        (
            {**BACKUP, "includeProjects": True},
            [("project", PROJECT), ("workspace", "a1b2c3d4e5")],
            (f"project:{PROJECT}",),
        ),
        ({**BACKUP, "includeProjects": True}, [("project", "/not/registered")], None),
        ({**BACKUP, "includeProjects": "yes"}, [("project", PROJECT)], None),
    ],
)
def test_what_both_carry(
    tmp_path: Path,
    backup: dict[str, Any] | None,
    synced: list[tuple[str, str | None]],
    carried: tuple[str, ...] | None,
) -> None:
    _config(tmp_path / "home", backup)
    overlap = backup_overlap(Home(tmp_path / "home"), synced)
    assert (overlap.scopes if overlap is not None else None) == carried


def test_sync_init_status_and_doctor_say_so_until_an_owner_is_chosen(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    home = tmp_path / "home"
    _config(home, {**BACKUP, "includeProjects": True})
    remote = bare_repository(tmp_path / "remote.git")
    args = ["--home", str(home), "sync", "init", "--remote", str(remote)]
    assert main([*args, "--scope", "global", "--scope", f"project:{PROJECT}"]) == 0
    err = capsys.readouterr().err
    assert f"also carries global, project:{PROJECT}" in err
    assert "memtab sync backup-owner memtab|xum" in err

    assert main(["--home", str(home), "sync", "status", "--json"]) == 0
    status = json.loads(capsys.readouterr().out)
    assert status["xumBackup"]["scopes"] == ["global", f"project:{PROJECT}"]
    assert status["xumBackup"]["owner"] is None
    _, found = check_sync(Home(home))
    assert any("xum's settings backup" in item.message for item in found.items)

    assert main(["--home", str(home), "sync", "backup-owner", "xum"]) == 0
    assert "you chose xum's backup to own it" in capsys.readouterr().out
    assert main(["--home", str(home), "sync", "status"]) == 0
    assert "you chose xum's backup to own it" in capsys.readouterr().out
    assert json.loads((home / "config.json").read_text())["settingsBackup"]["includeProjects"]
