"""Scanning the home: what a scan holds, incremental rescans, what changed (no Qt)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from memtab.components.tree.full_scan import scan_home
from memtab.components.tree.scan import HomeScan, ScanRequest, choose_workspace
from memtab.fs import memo
from memtab.fs.atomic import atomic_write_text
from memtab.store import description_cache, files
from memtab.store.home import Home
from memtab.store.paths import Scope, VirtualPath, parse_file_path
from memtab.store.sidecars.journal import ConsolidationRecord, Journal
from memtab.store.sidecars.registry import load_registry
from support import memory_home
from support.memory_home import ARCHIVED, CHILD, MAIN, MULTI, PROJECT, memory, touch_later

home = memory_home.home


def rescan(previous: HomeScan, *paths: Path | str, workspace_id: str | None = MAIN) -> HomeScan:
    return scan_home(
        ScanRequest(
            previous.home,
            workspace_id,
            previous=previous,
            changed_paths=frozenset(str(p) for p in paths),
        )
    )


def test_a_scan_holds_every_scope_meta_journal_and_orphans(home: Home) -> None:
    scan = scan_home(ScanRequest(home, MAIN))
    assert scan.workspace is not None and scan.workspace.id == MAIN
    assert [item.scope for item in scan.scopes] == [Scope.GLOBAL, Scope.PROJECT, Scope.WORKSPACE]
    global_files = [str(entry.path) for entry in scan.scope_if_shown(Scope.GLOBAL).listing.files]
    assert "/memories/global/tools/git.md" in global_files
    assert scan.file_count == 7
    assert [orphan.dir_name for orphan in scan.orphans] == ["gone-0123456789ab"]
    assert any(entry.pinned for entry in scan.meta.values())
    assert scan.status is not None and scan.status.workspace_record is None
    assert scan.changes.empty


def test_multi_project_workspace_has_no_project_scope(home: Home) -> None:
    scan = scan_home(ScanRequest(home, MULTI))
    project = scan.scope_if_shown(Scope.PROJECT)
    assert project.root is None and project.unavailable is not None
    assert "multi-project" in project.unavailable


def test_default_workspace_is_the_most_recent_active_top_level_one(home: Home) -> None:
    registry = load_registry(home)
    chosen, note = choose_workspace(registry, None, {ARCHIVED: 99, CHILD: 98, MAIN: 1}, True)
    assert chosen is not None and chosen.id == MAIN and note is None
    chosen, note = choose_workspace(registry, "missing", {}, True)
    assert chosen is not None and note is not None and "missing" in note
    assert choose_workspace(registry, None, {}, False) == (None, None)


def test_no_workspaces_means_global_only(tmp_path: Path) -> None:
    home = Home(tmp_path / "fresh")
    scan = scan_home(ScanRequest(home, None))
    assert scan.workspace is None
    assert scan.scope_if_shown(Scope.GLOBAL).listing.files == ()
    assert scan.scope_if_shown(Scope.WORKSPACE).unavailable is not None


def test_untouched_scopes_are_reused_and_touched_ones_relisted(home: Home) -> None:
    first = scan_home(ScanRequest(home, MAIN))
    new_file = home.workspace_root(MAIN) / "fresh.md"
    atomic_write_text(new_file, memory("Fresh"))
    second = rescan(first, new_file)
    assert second.scope_if_shown(Scope.GLOBAL) is first.scope_if_shown(Scope.GLOBAL)
    assert second.scope_if_shown(Scope.PROJECT) is first.scope_if_shown(Scope.PROJECT)
    assert second.scope_if_shown(Scope.WORKSPACE) is not first.scope_if_shown(Scope.WORKSPACE)
    assert VirtualPath(Scope.WORKSPACE, ("fresh.md",)) in second.changes.changed


def test_changes_report_modified_created_and_deleted_files_with_shas(home: Home) -> None:
    first = scan_home(ScanRequest(home, MAIN))
    git = home.global_root / "tools" / "git.md"
    touch_later(git, memory("Git conventions", "Changed by an agent.\n"))
    (home.global_root / "Zeta.md").unlink()
    second = rescan(first, git, home.global_root / "Zeta.md")
    git_path = parse_file_path("/memories/global/tools/git.md")
    assert second.changes.changed == {git_path}
    assert second.changes.deleted == {parse_file_path("/memories/global/Zeta.md")}
    from memtab.store.files import read_file_content

    assert second.changes.shas[git_path] == read_file_content(git).sha256


def test_an_ancestor_change_relists_the_scope(home: Home) -> None:
    first = scan_home(ScanRequest(home, MAIN))
    shutil.rmtree(home.global_root / "tools")
    second = rescan(first, home.root / "memory")
    names = [entry.path.name for entry in second.scope_if_shown(Scope.GLOBAL).listing.files]
    assert "git.md" not in names
    assert len(second.changes.deleted) == 2


def test_a_workspace_switch_reports_no_changes_for_the_new_scopes(home: Home) -> None:
    first = scan_home(ScanRequest(home, MAIN))
    second = scan_home(ScanRequest(home, MULTI, previous=first, changed_paths=None))
    assert second.workspace is not None and second.workspace.id == MULTI
    assert second.changes.empty


def test_agent_task_runs_are_offered_to_the_footer(home: Home) -> None:
    record = ConsolidationRecord(
        last_run_at=1_700_000_000_000, trigger="manual", summary="child run"
    )
    Journal(home).save_run(CHILD, PROJECT, record)
    scan = scan_home(ScanRequest(home, MAIN))
    assert [(label, run.summary) for label, run in scan.recent_runs] == [
        ("Agent task · subtask", "child run")
    ]


def test_orphans_are_rescanned_only_when_touched(home: Home) -> None:
    first = scan_home(ScanRequest(home, MAIN))
    second = rescan(first, home.global_root / "preferences.md")
    assert second.orphans[0] is first.orphans[0]
    orphan_file = home.projects_root / "gone-0123456789ab" / "more.md"
    atomic_write_text(orphan_file, "x")
    third = rescan(second, orphan_file)
    assert len(third.orphans[0].listing.files) == 2


def test_a_start_shows_what_changed_on_disk_since_the_last_one(
    home: Home, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The window's scans remember descriptions between starts (`store.description_cache`);
    a file mux or an editor changed in between is read again, the others are not."""
    # Every file here is a moment old: remember them all the same (no racy margin).
    monkeypatch.setattr(memo, "RACY_MARGIN_NS", -3600 * 10**9)
    window_scan = ScanRequest(home, MAIN, remember_descriptions=True)
    first = scan_home(window_scan)
    git, notes = home.global_root / "tools" / "git.md", home.workspace_root(MAIN) / "notes.md"
    atomic_write_text(git, memory("Git conventions, by mux"))  # renamed over: a new inode
    with notes.open("r+", encoding="utf-8") as editor:  # written in place, same size
        editor.write(memory("Notes of this BRANCH"))
    atomic_write_text(home.projects_root / "gone-0123456789ab" / "new.md", memory("Orphan 2"))
    read: list[str] = []
    real_read = files._read_entry_stat
    monkeypatch.setattr(
        files, "_read_entry_stat", lambda path, *args: read.append(path) or real_read(path, *args)
    )
    second = scan_home(window_scan)
    assert sorted(Path(path).name for path in read) == ["git.md", "new.md", "notes.md"]

    def described(scan: HomeScan) -> dict[str, str]:
        listings = [item.listing for item in scan.scopes] + [o.listing for o in scan.orphans]
        return {str(e.path): e.description for listing in listings for e in listing.files}

    assert described(second) == described(scan_home(ScanRequest(home, MAIN)))
    assert described(second)["/memories/global/tools/git.md"] == "Git conventions, by mux"
    assert described(second)["/memories/workspace/notes.md"] == "Notes of this BRANCH"
    assert described(first)["/memories/workspace/notes.md"] == "Notes of this branch"


def test_only_the_windows_scans_keep_a_description_cache(home: Home, tmp_path: Path) -> None:
    scan_home(ScanRequest(home, MAIN))
    cache = description_cache.cache_file_for(home.root)
    assert not cache.exists()
    scan_home(ScanRequest(home, MAIN, remember_descriptions=True))
    assert cache.is_file()


def test_a_session_scope_that_appears_is_its_files_created_and_one_that_goes_deleted(
    home: Home,
) -> None:
    """xum makes `sessions/<id>/session-memory/` at an agent's first checkpoint, while
    the window shows the workspace: the scan before it shows no session scope."""
    first = scan_home(ScanRequest(home, MAIN))
    assert first.scope_if_shown(Scope.SESSION) is None
    checkpoint = home.session_root(MAIN) / "checkpoint.md"
    checkpoint.parent.mkdir(parents=True)
    checkpoint.write_text("x\n", encoding="utf-8")
    second = rescan(first, checkpoint.parent.parent, checkpoint.parent, checkpoint)
    appeared = VirtualPath(Scope.SESSION, ("checkpoint.md",))
    session = second.scope_if_shown(Scope.SESSION)
    assert session is not None and [entry.path for entry in session.listing.files] == [appeared]
    assert second.changes.changed == {appeared} and not second.changes.deleted
    shutil.rmtree(checkpoint.parent)
    third = rescan(second, checkpoint.parent)
    assert third.scope_if_shown(Scope.SESSION) is None
    assert third.changes.deleted == {appeared} and not third.changes.changed


def test_switching_to_a_workspace_with_a_session_scope_reports_none_of_its_files(
    home: Home,
) -> None:
    session = home.session_root(CHILD)
    session.mkdir(parents=True)
    (session / "checkpoint.md").write_text("x\n", encoding="utf-8")
    first = scan_home(ScanRequest(home, MAIN))
    second = scan_home(ScanRequest(home, CHILD, previous=first, changed_paths=None))
    assert second.scope_if_shown(Scope.SESSION) is not None
    assert second.changes.empty
    third = scan_home(ScanRequest(home, MAIN, previous=second, changed_paths=None))
    assert third.changes.empty  # the session scope left with its workspace, not deleted
