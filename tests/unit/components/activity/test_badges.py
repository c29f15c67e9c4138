"""The "agent edited" badges, counted from scans without Qt: which files, and whose change."""

from __future__ import annotations

import hashlib
import json

import pytest

from memtab.components.activity.badges import CLAIM_TTL_MS, Actor, AgentEdits, Badge
from memtab.components.activity.own_writes import OwnWrites
from memtab.components.tree.full_scan import scan_home
from memtab.components.tree.scan import HomeScan, ScanRequest
from memtab.store.files import read_file_content
from memtab.store.home import Home
from memtab.store.paths import parse_file_path
from memtab.store.scopes.scope_view import ScopeView
from memtab.store.sidecars.meta import global_key
from support import memory_home
from support.memory_home import MAIN, memory, touch_later

home = memory_home.home

GIT = parse_file_path("/memories/global/tools/git.md")
ZETA = parse_file_path("/memories/global/Zeta.md")


def content_sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def rescan(previous: HomeScan, *paths: object) -> HomeScan:
    changed = frozenset(str(path) for path in paths)
    return scan_home(ScanRequest(previous.home, MAIN, previous=previous, changed_paths=changed))


def test_an_agents_change_gets_a_badge_and_memtabs_own_does_not(home: Home) -> None:
    own = OwnWrites()
    badges = AgentEdits(own)
    first = scan_home(ScanRequest(home, MAIN))
    git, zeta = home.global_root / "tools" / "git.md", home.global_root / "Zeta.md"
    touch_later(git, memory("Git conventions", "An agent wrote this.\n"))
    touch_later(zeta, memory("Last by name", "Memtab saved this.\n"))
    own.note(ZETA, read_file_content(zeta).sha256)
    badges.count_in(rescan(first, git, zeta))
    assert badges.paths == {str(git)}
    badge = badges.badge(str(git))
    assert badge is not None and badge.actor is Actor.OUTSIDE and badge.label == "another program"


def test_a_folder_memtab_moved_gets_no_badge_and_an_own_save_clears_one(home: Home) -> None:
    own = OwnWrites()
    badges = AgentEdits(own)
    first = scan_home(ScanRequest(home, MAIN))
    git, python = home.global_root / "tools" / "git.md", home.global_root / "tools" / "python.md"
    touch_later(git, memory("Git conventions", "An agent, while the file is open.\n"))
    touch_later(python, memory("Python tooling", "Came with the folder.\n"))
    own.note(parse_file_path("/memories/global/tools/python.md"))
    second = rescan(first, git, python)
    assert badges.count_in(second)
    # The open file is no exception: the editor shows its badge in the header.
    assert badges.paths == {str(git)}
    touch_later(git, memory("Git conventions", "Saved in Memtab's editor.\n"))
    own.note(GIT, read_file_content(git).sha256)
    badges.count_in(rescan(second, git))
    assert badges.paths == set()


def test_badges_go_when_opened_deleted_or_moved_away(home: Home) -> None:
    badges = AgentEdits(OwnWrites())
    first = scan_home(ScanRequest(home, MAIN))
    git, zeta = home.global_root / "tools" / "git.md", home.global_root / "Zeta.md"
    touch_later(git, memory("Git conventions", "Agent.\n"))
    touch_later(zeta, memory("Last by name", "Agent.\n"))
    second = rescan(first, git, zeta)
    badges.count_in(second)
    assert badges.paths == {str(git), str(zeta)}
    assert badges.clear(str(zeta)) and not badges.clear(str(zeta))
    assert badges.paths == {str(git)}
    assert badges.drop_under(second, parse_file_path("/memories/global/tools"))
    assert badges.paths == set()
    touch_later(zeta, memory("Last by name", "Agent again.\n"))
    third = rescan(second, zeta)
    badges.count_in(third)
    zeta.unlink()
    badges.count_in(rescan(third, zeta))
    assert badges.paths == set()


class Clock:
    def __init__(self) -> None:
        self.now = 1_800_000_000_000

    def __call__(self) -> int:
        return self.now


def test_memtabs_jobs_claim_their_changes_before_or_after_the_scan(home: Home) -> None:
    clock = Clock()
    badges = AgentEdits(OwnWrites(), clock)
    first = scan_home(ScanRequest(home, MAIN))
    notes = home.workspace_root(MAIN) / "notes.md"
    # Claimed first (the run's result came before the watcher's rescan).
    badges.claim(str(notes), Actor.WRITER)
    touch_later(notes, memory("Notes of this branch", "- Use pnpm.\n"))
    second = rescan(first, notes)
    badges.count_in(second)
    assert badges.badge(str(notes)) == Badge(actor=Actor.WRITER, at_ms=clock.now)
    # Seen first, claimed a moment later: the badge takes the actor.
    zeta = home.global_root / "Zeta.md"
    touch_later(zeta, memory("Last by name", "Merged.\n"))
    badges.count_in(rescan(second, zeta))
    assert badges.badge(str(zeta)).actor is Actor.OUTSIDE  # type: ignore[union-attr]
    clock.now += 1000
    assert badges.claim(str(zeta), Actor.CONSOLIDATOR)
    assert badges.badge(str(zeta)).actor is Actor.CONSOLIDATOR  # type: ignore[union-attr]
    # A claim long after the change says nothing about it.
    clock.now += CLAIM_TTL_MS + 1
    assert not badges.claim(str(zeta), Actor.WRITER)


def test_runs_in_other_processes_claim_the_contents_they_wrote(home: Home) -> None:
    clock = Clock()
    badges = AgentEdits(OwnWrites(), clock)
    first = scan_home(ScanRequest(home, MAIN))
    notes, zeta = home.workspace_root(MAIN) / "notes.md", home.global_root / "Zeta.md"
    # `memtab write` in a terminal logged its run before the window's rescan saw the file.
    written = memory("Notes of this branch", "- Use pnpm.\n")
    badges.claim_content(content_sha(written), Actor.WRITER)
    touch_later(notes, written)
    second = rescan(first, notes)
    badges.count_in(second)
    assert badges.badge(str(notes)) == Badge(actor=Actor.WRITER, at_ms=clock.now)
    # `memtab sync` logged its run after the rescan: the badge shown takes the actor.
    brought = memory("Last by name", "From the other machine.\n")
    touch_later(zeta, brought)
    badges.count_in(rescan(second, zeta))
    assert badges.badge(str(zeta)).actor is Actor.OUTSIDE  # type: ignore[union-attr]
    assert not badges.claim_content(content_sha("other text"), Actor.SYNC)
    clock.now += 1000
    assert badges.claim_content(content_sha(brought), Actor.SYNC)
    assert badges.badge(str(zeta)).actor is Actor.SYNC  # type: ignore[union-attr]
    # A run logged long after the change says nothing about it.
    clock.now += CLAIM_TTL_MS + 1
    assert not badges.claim_content(content_sha(brought), Actor.WRITER)


def test_changes_while_this_windows_consolidation_runs_are_its(home: Home) -> None:
    badges = AgentEdits(OwnWrites())
    first = scan_home(ScanRequest(home, MAIN))
    git = home.global_root / "tools" / "git.md"
    badges.consolidating = True
    touch_later(git, memory("Git conventions", "Merged.\n"))
    badges.count_in(rescan(first, git))
    assert badges.badge(str(git)).actor is Actor.CONSOLIDATOR  # type: ignore[union-attr]


def test_a_write_through_the_memory_tool_is_muxs(home: Home) -> None:
    badges = AgentEdits(OwnWrites())
    first = scan_home(ScanRequest(home, MAIN))
    git = home.global_root / "tools" / "git.md"
    touch_later(git, memory("Git conventions", "mux's agent wrote this.\n"))
    written_at = git.stat().st_mtime_ns // 1_000_000
    meta = json.loads(home.meta_path.read_text())
    meta["entries"][global_key("tools/git.md")] = {"accessCount": 1, "lastWriteAt": written_at}
    home.meta_path.write_text(json.dumps(meta))
    badges.count_in(rescan(first, git, home.meta_path))
    badge = badges.badge(str(git))
    assert badge is not None and badge.actor is Actor.MUX
    assert badge.sentence().startswith("mux changed it")


def test_a_read_xum_counts_is_no_edit(home: Home) -> None:
    """xum's view of a file counts a use in memory-meta.json and publishes a change whose
    reason is `access` (memoryService.ts recordUsage): the bytes did not change, so no
    "agent edited" badge (docs/formats.md §14.6)."""
    badges = AgentEdits(OwnWrites())
    first = scan_home(ScanRequest(home, MAIN))
    git = home.global_root / "tools" / "git.md"
    read_at = git.stat().st_mtime_ns // 1_000_000 + 60_000
    meta = json.loads(home.meta_path.read_text())
    meta["entries"][global_key("tools/git.md")] = {"accessCount": 3, "lastAccessedAt": read_at}
    home.meta_path.write_text(json.dumps(meta))
    badges.count_in(rescan(first, git, home.meta_path))
    assert badges.badge(str(git)) is None


def test_badges_are_kept_across_restarts_until_the_files_go(home: Home) -> None:
    badges = AgentEdits(OwnWrites())
    first = scan_home(ScanRequest(home, MAIN))
    git, zeta = home.global_root / "tools" / "git.md", home.global_root / "Zeta.md"
    touch_later(git, memory("Git conventions", "Agent.\n"))
    touch_later(zeta, memory("Last by name", "Agent.\n"))
    badges.count_in(rescan(first, git, zeta))
    other_workspace = str(home.workspace_root("e5e5e5e5e5") / "notes.md")
    saved = {**badges.saved(), other_workspace: {"actor": "mux", "at": 5}, "x": {"actor": "?"}}
    saved = json.loads(json.dumps(saved))  # as the UI state file holds them
    restored = AgentEdits(OwnWrites())
    restored.restore(saved)
    assert restored.badges == {**badges.badges, other_workspace: Badge(actor=Actor.MUX, at_ms=5)}
    zeta.unlink()  # while Memtab was closed
    assert restored.forget_missing(scan_home(ScanRequest(home, MAIN)))
    # A file of a workspace not shown keeps its badge: the scan says nothing about it.
    assert restored.paths == {str(git), other_workspace}


def test_counting_a_storm_of_changes_makes_one_view(
    home: Home, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Counting runs on the GUI thread: 1000 changed files must not make 1000 views."""
    badges = AgentEdits(OwnWrites())
    first = scan_home(ScanRequest(home, MAIN))
    changed = [home.global_root / f"storm{index}.md" for index in range(5)]
    for path in changed:
        touch_later(path, memory("Storm", "Written by a script.\n"))
    second = rescan(first, *changed)
    made: list[ScopeView] = []
    real_view = HomeScan.view

    def counting_view(scan: HomeScan) -> ScopeView:
        made.append(real_view(scan))
        return made[-1]

    monkeypatch.setattr(HomeScan, "view", counting_view)
    badges.count_in(second)
    assert badges.paths == {str(path) for path in changed}
    assert len(made) == 1


@pytest.mark.parametrize(
    "raw",
    [
        None,
        "mux",
        [],
        {},
        {"actor": "mux"},
        {"at": 5},
        {"actor": "someone", "at": 5},
        {"actor": 3, "at": 5},
        {"actor": None, "at": 5},
        {"actor": "mux", "at": 0},
        {"actor": "mux", "at": -5},
        {"actor": "mux", "at": True},
        {"actor": "mux", "at": 5.5},
        {"actor": "mux", "at": "5"},
    ],
)
def test_a_saved_badge_not_understood_is_dropped_the_others_kept(raw: object) -> None:
    restored = AgentEdits(OwnWrites())
    restored.restore({"/a.md": raw, "/b.md": {"actor": "outside", "at": 7, "later": [1]}})
    assert restored.badges == {"/b.md": Badge(actor=Actor.OUTSIDE, at_ms=7)}


@pytest.mark.parametrize("saved", [None, [], "badges", 3])
def test_saved_badges_that_are_no_object_restore_none(saved: object) -> None:
    restored = AgentEdits(OwnWrites())
    restored.restore(saved)
    assert restored.badges == {}


def test_a_file_operation_of_the_window_is_the_users_whenever_the_scan_saw_it(
    home: Home,
) -> None:
    """A restore by the window's file operation sets `lastWriteAt` as mux's tool does: a
    scan while it writes names mux; once it ends (`OwnWrites.written`) that badge goes and
    a scan after it gives none."""
    own = OwnWrites()
    badges = AgentEdits(own)
    told: list[bool] = []
    own.listen(lambda paths: told.append(badges.written_by_user(paths)))
    first = scan_home(ScanRequest(home, MAIN))
    git, zeta = home.global_root / "tools" / "git.md", home.global_root / "Zeta.md"
    touch_later(git, memory("Git conventions", "Restored by the user.\n"))
    written_at = git.stat().st_mtime_ns // 1_000_000
    meta = json.loads(home.meta_path.read_text())
    meta["entries"][global_key("tools/git.md")] = {"accessCount": 1, "lastWriteAt": written_at}
    home.meta_path.write_text(json.dumps(meta))
    during = rescan(first, git, home.meta_path)
    badges.count_in(during)
    assert badges.badge(str(git)).actor is Actor.MUX  # type: ignore[union-attr]
    own.written([str(git), str(zeta)])
    assert told == [True] and badges.paths == set()
    touch_later(zeta, memory("Last by name", "Restored by the user too.\n"))
    badges.count_in(rescan(during, zeta))
    assert badges.paths == set()
    own.written([])  # nothing written: nobody told
    assert told == [True]
