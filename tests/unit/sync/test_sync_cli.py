"""`memtab sync …`: the set-up, the JSON contract and the exit status a cron job sees."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memtab.cli.main import main
from support.sync_machines import bare_repository

NOTES = "/memories/global/notes.md"
REPORT_FIELDS = {"pushed", "pulled", "conflicts", "offline", "errors", "targets"}


def memtab(home: Path, *args: str) -> int:
    return main(["--home", str(home), *args])


def write(home: Path, path: str, text: str) -> None:
    call = {"command": "create", "path": path, "file_text": text}
    existing = home / "memory" / "global" / Path(path).name
    if existing.exists():
        existing.write_text(text)
    else:
        assert memtab(home, "tool", json.dumps(call)) == 0


@pytest.fixture
def homes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[Path, Path, Path]:
    remote = bare_repository(tmp_path / "remote.git")
    alpha, beta = tmp_path / "alpha", tmp_path / "beta"
    for home, name in ((alpha, "alpha"), (beta, "beta")):
        home.mkdir()
        assert memtab(home, "sync", "init", "--remote", str(remote), "--machine", name) == 0
    capsys.readouterr()
    return alpha, beta, remote


def sync_json(home: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, dict]:  # type: ignore[type-arg]
    capsys.readouterr()
    status = memtab(home, "sync", "--json")
    return status, json.loads(capsys.readouterr().out)


def test_sync_json_contract_and_exit_statuses(
    homes: tuple[Path, Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    alpha, beta, remote = homes
    write(alpha, NOTES, "- answer: ?\n")
    status, report = sync_json(alpha, capsys)
    assert status == 0 and set(report) == REPORT_FIELDS
    assert report["pushed"] >= 1 and report["conflicts"] == [] and report["offline"] is False
    status, report = sync_json(beta, capsys)
    assert status == 0 and report["pulled"] == 1

    write(alpha, NOTES, "- answer: alpha\n")
    write(beta, NOTES, "- answer: beta\n")
    sync_json(alpha, capsys)
    status, report = sync_json(beta, capsys)
    assert status == 1  # something needs the user
    assert report["conflicts"][0]["path"] == NOTES
    assert {"path", "target", "repoPath", "reason", "since"} <= set(report["conflicts"][0])

    capsys.readouterr()
    assert memtab(beta, "sync", "status", "--json") == 0
    state = json.loads(capsys.readouterr().out)["targets"][0]
    assert state["conflicts"][0]["path"] == NOTES and state["scopes"] == ["global"]

    capsys.readouterr()
    assert memtab(beta, "sync", "resolve", NOTES, "--keep", "remote", "--json") == 0
    resolved = json.loads(capsys.readouterr().out)
    assert list(resolved) == ["resolved", "kept"] and resolved["kept"] == "remote"
    assert list(resolved["resolved"]) == ["path", "target", "repoPath", "reason", "since", "scope"]
    assert (beta / "memory" / "global" / "notes.md").read_text() == "- answer: alpha\n"
    status, report = sync_json(beta, capsys)
    assert status == 0 and report["conflicts"] == []

    remote.rename(remote.with_name("gone.git"))
    write(alpha, NOTES, "- answer: alpha, later\n")
    status, report = sync_json(alpha, capsys)
    assert status == 0, "offline is not a failure for a cron job"
    assert report["offline"] is True and report["targets"][0]["status"] == "offline"


def test_resolving_with_a_merged_file(
    homes: tuple[Path, Path, Path], capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    alpha, beta, _ = homes
    write(alpha, NOTES, "x\n")
    sync_json(alpha, capsys)
    sync_json(beta, capsys)
    write(alpha, NOTES, "x = a\n")
    write(beta, NOTES, "x = b\n")
    sync_json(alpha, capsys)
    sync_json(beta, capsys)
    merged = tmp_path / "merged.md"
    merged.write_text("x = a and b\n")
    assert memtab(beta, "sync", "resolve", NOTES, "--merged", str(merged)) == 0
    assert (beta / "memory" / "global" / "notes.md").read_text() == "x = a and b\n"
    capsys.readouterr()
    assert memtab(beta, "sync", "resolve", NOTES, "--keep", "local") == 1
    assert "No sync conflict" in capsys.readouterr().err


def test_init_refuses_what_cannot_work(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    home = tmp_path / "home"
    home.mkdir()
    assert memtab(home, "sync", "init", "--remote", str(tmp_path / "nowhere.git")) == 1
    assert "There is no git repository at" in capsys.readouterr().err
    assert not (home / "memtab" / "sync" / "memory").exists()
    assert memtab(home, "sync", "init", "--remote", "x", "--scope", "project:") == 1
    assert "not a scope" in capsys.readouterr().err
    assert memtab(home, "sync") == 1
    assert "not set up" in capsys.readouterr().err


def test_a_scope_goes_to_one_remote(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    home = tmp_path / "home"
    home.mkdir()
    one, two = bare_repository(tmp_path / "one.git"), bare_repository(tmp_path / "two.git")
    assert memtab(home, "sync", "init", "--remote", str(one)) == 0
    assert memtab(home, "sync", "init", "--remote", str(two), "--name", "team") == 1
    assert "synced with memory already" in capsys.readouterr().err
    args = ["sync", "init", "--remote", str(two), "--name", "team", "--scope", "project:/src/app"]
    capsys.readouterr()
    assert memtab(home, *args, "--json") == 0
    made = json.loads(capsys.readouterr().out)
    assert list(made) == ["name", "remote", "branch", "scopes", "xumBackup"]
    assert made["name"] == "team" and made["xumBackup"] is None
    assert memtab(home, "sync", "status", "--json") == 0
    targets = json.loads(capsys.readouterr().out)["targets"]
    assert [t["scopes"] for t in targets] == [["global"], ["project:/src/app"]]
