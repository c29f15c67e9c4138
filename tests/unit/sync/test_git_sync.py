"""Two homes syncing one memory through a local bare repository."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from memtab.store.history.versions import ScopeHistory
from memtab.store.restore.from_history import file_history
from memtab.sync import importer
from memtab.sync.conflicts.resolve import conflict_texts, find_conflict
from memtab.sync.repository.git import Git
from support.memory_paths import vpath
from support.spies import calls_through
from support.sync_machines import Machine

NOTES = "/memories/global/notes.md"


@pytest.mark.slow
def test_edits_of_different_lines_on_two_machines_both_stay(alpha: Machine, beta: Machine) -> None:
    alpha.publish(NOTES, "# Notes\n- one\n- two\n- three\n", beta)
    assert beta.text(NOTES) == "# Notes\n- one\n- two\n- three\n"

    alpha.write(NOTES, "# Notes\n- ONE\n- two\n- three\n")
    beta.write(NOTES, "# Notes\n- one\n- two\n- THREE\n")
    alpha.sync()
    report = beta.sync()
    alpha.sync()

    merged = "# Notes\n- ONE\n- two\n- THREE\n"
    assert beta.text(NOTES) == merged
    assert alpha.text(NOTES) == merged
    assert report.conflicts == []
    assert report.targets[0].pulled == (NOTES,)


@pytest.mark.slow
def test_notes_both_machines_add_at_the_end_are_all_kept(alpha: Machine, beta: Machine) -> None:
    alpha.publish(NOTES, "- first\n", beta)
    alpha.write(NOTES, "- first\n- from alpha\n")
    beta.write(NOTES, "- first\n- from beta\n")
    alpha.sync()
    beta.sync()
    alpha.sync()
    # What was published first comes first.
    assert alpha.text(NOTES) == beta.text(NOTES) == "- first\n- from alpha\n- from beta\n"


@pytest.mark.slow
def test_a_same_line_edit_is_a_conflict_that_keeps_both_texts(
    alpha: Machine, beta: Machine
) -> None:
    alpha.publish(NOTES, "- tabs or spaces: ?\n", beta)
    alpha.write(NOTES, "- tabs or spaces: tabs\n")
    beta.write(NOTES, "- tabs or spaces: spaces\n")
    alpha.sync()
    report = beta.sync()

    assert [c.path for c in report.conflicts] == [NOTES]
    assert report.needs_user
    assert "line 1" in report.conflicts[0].reason
    # This machine's text stays live; no conflict markers are ever written.
    assert beta.text(NOTES) == "- tabs or spaces: spaces\n"
    texts = conflict_texts(beta.service, find_conflict(beta.service, NOTES))
    assert texts.base == b"- tabs or spaces: ?\n"
    assert texts.local == b"- tabs or spaces: spaces\n"
    assert texts.remote == b"- tabs or spaces: tabs\n"
    # Beta's text is in its history too, and alpha keeps its own until it is decided.
    assert beta.conflicts() == [NOTES]
    alpha.sync()
    assert alpha.text(NOTES) == "- tabs or spaces: tabs\n"
    # Listed again at every sync until decided.
    assert [c.path for c in beta.sync().conflicts] == [NOTES]


@pytest.mark.slow
@pytest.mark.parametrize(
    ("keep", "expected"),
    [
        ("local", "- answer: beta\n"),
        ("remote", "- answer: alpha\n"),
        ("both", "- answer: beta\n- answer: alpha\n"),
    ],
)
def test_a_conflict_is_resolved_and_the_decision_travels(
    alpha: Machine, beta: Machine, keep: str, expected: str
) -> None:
    alpha.publish(NOTES, "- answer: ?\n", beta)
    alpha.write(NOTES, "- answer: alpha\n")
    beta.write(NOTES, "- answer: beta\n")
    alpha.sync()
    beta.sync()

    beta.resolve(NOTES, keep=keep)  # type: ignore[arg-type]
    assert beta.text(NOTES) == expected
    assert beta.conflicts() == []
    beta.sync()
    alpha.sync()
    assert alpha.text(NOTES) == expected
    assert alpha.conflicts() == []


@pytest.mark.slow
def test_a_conflict_resolved_with_a_merged_text(alpha: Machine, beta: Machine) -> None:
    alpha.publish(NOTES, "x = 1\n", beta)
    alpha.write(NOTES, "x = 2\n")
    beta.write(NOTES, "x = 3\n")
    alpha.sync()
    beta.sync()
    beta.resolve(NOTES, merged="x = 5\n")
    beta.sync()
    alpha.sync()
    assert alpha.text(NOTES) == beta.text(NOTES) == "x = 5\n"
    # The text that was not kept is still in beta's history.
    versions = file_history(beta.store, vpath(NOTES))
    kept = {beta.store.history.blobs.get(v.sha256) for v in versions if not v.deleted}
    assert b"x = 3\n" in kept


@pytest.mark.slow
def test_an_edit_made_to_a_conflicted_file_agreeing_with_the_other_side_resolves_it(
    alpha: Machine, beta: Machine
) -> None:
    alpha.publish(NOTES, "a\nb\n", beta)
    alpha.write(NOTES, "a\nB-alpha\n")
    beta.write(NOTES, "a\nB-beta\n")
    alpha.sync()
    beta.sync()
    assert beta.conflicts() == [NOTES]
    beta.write(NOTES, "a\nB-alpha\n")  # the user took alpha's line by hand
    beta.sync()
    assert beta.conflicts() == []
    alpha.sync()
    assert alpha.text(NOTES) == beta.text(NOTES) == "a\nB-alpha\n"


def test_deletes_travel(alpha: Machine, beta: Machine) -> None:
    alpha.publish("/memories/global/old.md", "stale\n", beta)
    beta.store.delete(vpath("/memories/global/old.md"))
    beta.sync()
    alpha.sync()
    assert alpha.text("/memories/global/old.md") is None
    # The deleted content stays in alpha's history, by the sync's hand.
    versions = ScopeHistory(alpha.home, "global").versions()
    assert any(v.deleted and v.actor == "sync" for v in versions)


@pytest.mark.slow
def test_renames_and_pins_travel(alpha: Machine, beta: Machine) -> None:
    alpha.write("/memories/global/a.md", "keep me\n")
    alpha.store.set_pinned(vpath("/memories/global/a.md"), True)
    alpha.sync()
    beta.sync()
    assert beta.pinned("/memories/global/a.md")

    beta.store.move(vpath("/memories/global/a.md"), vpath("/memories/global/sub/b.md"))
    beta.sync()
    alpha.sync()
    assert alpha.text("/memories/global/a.md") is None
    assert alpha.text("/memories/global/sub/b.md") == "keep me\n"
    assert alpha.pinned("/memories/global/sub/b.md")

    alpha.store.set_pinned(vpath("/memories/global/sub/b.md"), False)
    alpha.sync()
    beta.sync()
    assert not beta.pinned("/memories/global/sub/b.md")


@pytest.mark.slow
def test_an_edit_follows_a_rename_made_on_the_other_machine(alpha: Machine, beta: Machine) -> None:
    alpha.publish("/memories/global/a.md", "one\n", beta)
    alpha.store.move(vpath("/memories/global/a.md"), vpath("/memories/global/b.md"))
    beta.write("/memories/global/a.md", "one\ntwo\n")
    alpha.sync()
    beta.sync()
    alpha.sync()
    for machine in (alpha, beta):
        assert machine.files() == {"/memories/global/b.md": "one\ntwo\n"}


@pytest.mark.slow
def test_a_pin_made_under_the_old_name_follows_a_rename_of_the_other_machine(
    alpha: Machine, beta: Machine
) -> None:
    alpha.publish("/memories/global/a.md", "one\n", beta)
    alpha.store.move(vpath("/memories/global/a.md"), vpath("/memories/global/b.md"))
    beta.store.set_pinned(vpath("/memories/global/a.md"), True)
    alpha.sync()
    beta.sync()
    alpha.sync()
    for machine in (alpha, beta):
        assert machine.files() == {"/memories/global/b.md": "one\n"}
        assert machine.pinned("/memories/global/b.md"), machine.name


def test_an_edit_wins_over_a_delete_on_the_other_machine(alpha: Machine, beta: Machine) -> None:
    alpha.publish(NOTES, "one\n", beta)
    alpha.store.delete(vpath(NOTES))
    beta.write(NOTES, "one\ntwo\n")
    alpha.sync()
    report = beta.sync()
    alpha.sync()
    assert alpha.text(NOTES) == beta.text(NOTES) == "one\ntwo\n"
    notes = [note for target in report.targets for note in target.notes]
    assert notes and "deleted" in notes[0]


@pytest.mark.slow
def test_usage_is_added_across_machines_and_never_counted_twice(
    alpha: Machine, beta: Machine
) -> None:
    alpha.write(NOTES, "x\n")  # one use (a write)
    for machine in (alpha, beta, alpha, beta):
        machine.sync()
    beta.store.record_read(beta.store.resolved(virtual_path(NOTES)))
    beta.store.record_read(virtual_path(NOTES))
    for machine in (beta, alpha, beta, alpha, beta, alpha):
        machine.sync()
    counts = {m.name: m.store.meta_entries()["global:notes.md"].access_count for m in (alpha, beta)}
    assert counts == {"alpha": 3, "beta": 3}


def _git(remote: Path, *args: str) -> str:
    """What git says of the remote repository."""
    command = ["git", "--git-dir", str(remote), *args]
    return subprocess.run(command, capture_output=True, text=True, check=True).stdout


def test_files_not_in_a_synced_scope_stay_local(tmp_path: Path, remote: Path) -> None:
    alpha = Machine.create(tmp_path, "alpha")
    alpha.connect(remote)  # global only, the default
    alpha.store.meta.set_pinned("workspace:w1:local.md", True)
    alpha.write(NOTES, "shared\n")
    alpha.sync()
    tree = _git(remote, "ls-tree", "-r", "--name-only", "main").split()
    assert tree == [".memtab/format.json", ".memtab/meta/global.json", "global/notes.md"]
    assert _git(remote, "show", "main:.memtab/format.json") == '{\n  "format": 1\n}\n'
    meta = _git(remote, "show", "main:.memtab/meta/global.json")
    assert "workspace" not in meta


def test_a_project_maps_between_different_paths_on_each_machine(
    tmp_path: Path, remote: Path
) -> None:
    alpha = Machine.create(tmp_path, "alpha")
    beta = Machine.create(tmp_path, "beta")
    alpha.connect(remote, "project:/home/alice/app")
    beta.connect(remote, "project:/Users/alice/src/app")
    alpha_store = _project_store(alpha, "/home/alice/app")
    alpha_store.create_file(vpath("/memories/project/build.md"), "make test\n")
    alpha_store.set_pinned(vpath("/memories/project/build.md"), True)
    alpha.sync()
    beta.sync()
    beta_store = _project_store(beta, "/Users/alice/src/app")
    assert beta_store.read_text(vpath("/memories/project/build.md")) == "make test\n"
    key = "project:/Users/alice/src/app:build.md"
    assert beta.store.meta_entries()[key].pinned


def test_an_unreachable_remote_changes_nothing_and_is_retried(
    alpha: Machine, beta: Machine, remote: Path, tmp_path: Path
) -> None:
    alpha.publish(NOTES, "one\n", beta)
    away = tmp_path / "away.git"
    remote.rename(away)  # the NAS is off
    beta.write(NOTES, "one\ntwo\n")
    before = beta.files()
    report = beta.service.sync()
    assert report.offline and not report.needs_user
    assert report.targets[0].status == "offline"
    assert beta.files() == before
    status = beta.service.status().targets[0]
    assert status.offline_since is not None and status.ahead >= 1
    away.rename(remote)
    report = beta.sync()
    assert report.targets[0].status == "synced" and report.targets[0].pushed >= 1
    alpha.sync()
    assert alpha.text(NOTES) == "one\ntwo\n"
    assert beta.service.status().targets[0].offline_since is None


def test_a_push_the_remote_refuses_says_why_in_gits_words_and_is_not_retried(
    alpha: Machine, beta: Machine, remote: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    alpha.publish(NOTES, "one\n", beta)
    # A server's refusal: a size limit here; a hook or a protected branch elsewhere.
    subprocess.run(
        ["git", "--git-dir", str(remote), "config", "receive.maxInputSize", "10"], check=True
    )
    fetches = calls_through(monkeypatch, Git, "fetch")
    beta.write(NOTES, "one\n" + "two, a line longer than the remote takes\n" * 4)
    report = beta.service.sync()
    target = report.targets[0]
    assert target.status == "failed"
    assert target.error is not None and "unpacker error" in target.error
    assert "kept changing" not in target.error
    assert len(fetches) == 1  # refused once, not fetched and merged again three times
    assert beta.text(NOTES).startswith("one\ntwo")


def test_a_branch_a_stopped_push_left_locked_says_which_file_to_delete(
    alpha: Machine, beta: Machine, remote: Path
) -> None:
    alpha.publish(NOTES, "one\n", beta)
    lock = remote / "refs" / "heads" / "main.lock"
    lock.write_text("")  # as a receive-pack killed mid-update leaves it
    beta.write(NOTES, "one\ntwo\n")
    target = beta.service.sync().targets[0]
    assert target.status == "failed"
    assert target.error is not None and "main.lock exists" in target.error
    assert "kept changing" not in target.error
    lock.unlink()
    assert beta.sync().targets[0].pushed >= 1


def test_a_file_changed_while_the_merge_is_written_is_merged_again(
    alpha: Machine, beta: Machine, monkeypatch: pytest.MonkeyPatch
) -> None:
    alpha.publish(NOTES, "a\nb\nc\n", beta)
    alpha.write(NOTES, "A\nb\nc\n")
    alpha.sync()
    real_write = importer.restore_contents

    def agent_writes_first(store, scope, items, **kwargs):  # type: ignore[no-untyped-def]
        (beta.home.global_root / "notes.md").write_text("a\nb\nc\nagent\n")  # mux, no lock
        monkeypatch.setattr(importer, "restore_contents", real_write)
        return real_write(store, scope, items, **kwargs)

    monkeypatch.setattr(importer, "restore_contents", agent_writes_first)
    beta.sync()
    assert beta.text(NOTES) == "a\nb\nc\nagent\n"  # the agent's write was not overwritten
    assert beta.service.status().targets[0].unapplied == (NOTES,)
    beta.sync()
    alpha.sync()
    assert beta.text(NOTES) == alpha.text(NOTES) == "A\nb\nc\nagent\n"


def test_a_change_made_outside_memtab_is_synced(alpha: Machine, beta: Machine) -> None:
    (alpha.home.global_root).mkdir(parents=True, exist_ok=True)
    (alpha.home.global_root / "mux.md").write_text("written by mux\n")
    alpha.sync()
    beta.sync()
    assert beta.text("/memories/global/mux.md") == "written by mux\n"


def test_commits_name_who_changed_what_and_the_machine(
    alpha: Machine, beta: Machine, remote: Path
) -> None:
    alpha.write(NOTES, "one\n")
    alpha.sync()
    alpha.write(NOTES, "one\ntwo\n")
    alpha.store.move(vpath(NOTES), vpath("/memories/global/renamed.md"))
    alpha.sync()
    log = subprocess.run(
        ["git", "--git-dir", str(remote), "log", "--format=%B%x00", "main"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split("\0")
    subjects = [entry.strip().splitlines()[0] for entry in log if entry.strip()]
    assert "user: move /memories/global/notes.md -> /memories/global/renamed.md" in subjects
    assert "user: edit /memories/global/notes.md" in subjects
    edit = next(entry for entry in log if "user: edit" in entry)
    assert "Memtab-Actor: user" in edit and "Memtab-Machine: alpha" in edit


def test_sync_never_writes_into_a_scope_through_git(alpha: Machine, tmp_path: Path) -> None:
    alpha.write(NOTES, "one\n")
    alpha.sync()
    repository = alpha.home.memtab_dir / "sync" / "memory" / "repo.git"
    assert repository.is_dir()
    assert not (alpha.home.global_root / ".git").exists()
    config = json.loads((alpha.home.memtab_dir / "sync" / "config.json").read_text())
    assert config["targets"][0]["scopes"] == [{"scope": "global"}]


def test_without_git_sync_says_so_and_nothing_else_breaks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    machine = Machine.create(tmp_path, "alpha")
    monkeypatch.setenv("PATH", str(tmp_path / "empty-bin"))
    from memtab.sync.service import SyncError

    with pytest.raises(SyncError, match="needs the git program"):
        machine.service.init(str(tmp_path / "r.git"), [])
    machine.write(NOTES, "still works\n")
    assert machine.text(NOTES) == "still works\n"
    assert shutil.which("git") is None


def _project_store(machine: Machine, identity: str):  # type: ignore[no-untyped-def]
    from memtab.sync.repository.scopes import ProjectScopeStore

    return ProjectScopeStore(machine.home, identity, actor="user", run_id=None)


def virtual_path(path: str):  # type: ignore[no-untyped-def]
    from memtab.store.paths import parse_file_path

    return parse_file_path(path)


def test_a_workspace_is_synced_only_when_asked_and_maps_by_name(
    tmp_path: Path, remote: Path
) -> None:
    from memtab.store.scopes.memory import MemoryStore
    from memtab.store.sidecars.registry import add_workspace, load_registry

    alpha = Machine.create(tmp_path, "alpha")
    beta = Machine.create(tmp_path, "beta")
    ids = {}
    for machine, workspace_id in ((alpha, "aaaa000001"), (beta, "bbbb000002")):
        ids[machine.name] = add_workspace(machine.home, "/src/app", "fix-cart", workspace_id)
        machine.connect(remote, f"workspace:{workspace_id}=fix-cart")
    stores = {
        m.name: MemoryStore(m.home, load_registry(m.home).require_workspace(ids[m.name]))
        for m in (alpha, beta)
    }
    stores["alpha"].create_file(vpath("/memories/workspace/notes.md"), "cart total\n")
    stores["alpha"].set_pinned(vpath("/memories/workspace/notes.md"), True)
    alpha.sync()
    beta.sync()
    assert stores["beta"].read_text(vpath("/memories/workspace/notes.md")) == "cart total\n"
    assert beta.store.meta_entries()["workspace:bbbb000002:notes.md"].pinned


@pytest.mark.slow
def test_links_someone_committed_are_neither_brought_in_nor_removed(
    alpha: Machine, beta: Machine, remote: Path, tmp_path: Path
) -> None:
    alpha.publish(NOTES, "one\n", beta)
    clone = tmp_path / "clone"
    git = ["git", "-c", "user.name=T", "-c", "user.email=t@example.com"]
    subprocess.run([*git, "clone", "--quiet", "-b", "main", str(remote), str(clone)], check=True)
    (clone / "global" / "link.md").symlink_to("notes.md")
    subprocess.run([*git, "-C", str(clone), "add", "-A"], check=True)
    subprocess.run([*git, "-C", str(clone), "commit", "--quiet", "-m", "a link"], check=True)
    subprocess.run([*git, "-C", str(clone), "push", "--quiet", "origin", "main"], check=True)
    beta.sync()
    assert not (beta.home.global_root / "link.md").exists()
    beta.write(NOTES, "one\ntwo\n")
    beta.sync()
    tree = subprocess.run(
        ["git", "--git-dir", str(remote), "ls-tree", "-r", "main", "global/"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert "120000" in tree and "global/link.md" in tree
