"""Whose change a badge names, as the window's runs and the user's opens claim it, without Qt
(`components.activity.edit_claims.EditClaims`)."""

from __future__ import annotations

from pathlib import Path

from memtab.components.activity.badges import Actor
from memtab.components.activity.edit_claims import EditClaims
from memtab.components.activity.own_writes import OwnWrites
from memtab.components.tree.full_scan import scan_home
from memtab.components.tree.scan import ScanRequest
from memtab.file_protocol.file_ref import MemoryFileRef
from memtab.store.files import read_file_content
from memtab.store.home import Home
from memtab.store.paths import parse_file_path
from memtab.store.sidecars.journal import ConsolidationRecord, JournalOp
from support import memory_home
from support.memory_home import CHILD, MAIN, memory, touch_later

home = memory_home.home


def claims_on(home: Home, *changed: Path) -> EditClaims:
    """Claims over a scan of `home`, then a rescan that saw `changed` files change (each
    badged "another program" until claimed)."""
    claims = EditClaims(home, OwnWrites())
    first = scan_home(ScanRequest(home, MAIN))
    claims.scanned(first, first=True)
    for path in changed:
        path.parent.mkdir(parents=True, exist_ok=True)
        touch_later(path, memory("Changed", f"{path.name} changed.\n"))
    request = ScanRequest(home, MAIN, previous=first, changed_paths=frozenset(map(str, changed)))
    claims.scanned(scan_home(request), first=False)
    assert all(actor_of(claims, path) is Actor.OUTSIDE for path in changed)
    return claims


def actor_of(claims: EditClaims, physical: object) -> Actor | None:
    badge = claims.badge_of(str(physical))
    return badge.actor if badge is not None else None


def test_a_task_s_writer_claims_its_tree_s_notebook_and_only_workspace_paths(home: Home) -> None:
    claims = claims_on(home, home.workspace_root(MAIN) / "notes.md")
    assert claims.writer_wrote(CHILD, "/memories/workspace/notes.md")
    assert actor_of(claims, home.workspace_root(MAIN) / "notes.md") is Actor.WRITER
    assert not claims.writer_wrote(MAIN, "/memories/global/notes.md")  # not the writer's scope
    assert not claims.writer_wrote(MAIN, "not a path")


def test_an_accepted_proposal_is_the_agent_s_change(home: Home) -> None:
    claims = claims_on(home, home.global_root / "tools" / "git.md")
    assert claims.agent_wrote("/memories/global/tools/git.md", "codex")
    badge = claims.badge_of(str(home.global_root / "tools" / "git.md"))
    assert badge is not None and badge.actor is Actor.AGENT and badge.agent == "codex"
    assert not claims.agent_wrote("/etc/passwd", "codex")


def test_a_consolidation_claims_what_its_record_applied_and_changes_while_it_runs(
    home: Home,
) -> None:
    a, b, c = (home.global_root / name for name in ("a.md", "b.md", "c.md"))
    claims = claims_on(home, a, b, c)
    claims.consolidation_started(MAIN)
    assert claims.edits.consolidating
    record = ConsolidationRecord(
        last_run_at=1,
        trigger="manual",
        ops=(
            JournalOp(
                command="rename",
                path="/memories/global/a.md",
                new_path="/memories/global/b.md",
                applied=True,
            ),
            JournalOp(command="delete", path="/memories/global/c.md", applied=False),
        ),
    )
    assert claims.consolidation_ended(record)
    assert not claims.edits.consolidating
    assert actor_of(claims, a) is Actor.CONSOLIDATOR and actor_of(claims, b) is Actor.CONSOLIDATOR
    assert actor_of(claims, c) is Actor.OUTSIDE  # not applied: not its
    claims.consolidation_started("another workspace")
    assert not claims.edits.consolidating


def test_runs_elsewhere_claim_their_contents_by_kind(home: Home) -> None:
    git = home.global_root / "tools" / "git.md"
    claims = claims_on(home, git)
    sha = read_file_content(git).sha256
    assert not claims.contents_written({sha: "revert"})  # the user's own
    assert claims.contents_written({sha: "sync"}) and actor_of(claims, git) is Actor.SYNC


def test_a_file_the_tab_opens_keeps_its_badge_until_the_user_opens_it(home: Home) -> None:
    claims = claims_on(home, home.global_root / "tools" / "git.md")
    git = str(home.global_root / "tools" / "git.md")
    ref = MemoryFileRef.of_mux(parse_file_path("/memories/global/tools/git.md"))
    assert claims.claim_all([git], Actor.SYNC)
    claims.quiet_begins()
    assert not claims.opened(ref, git, [ref])  # the tab reopened it: still the sync's
    claims.quiet_ends([], [ref])  # its text is still on its way
    assert not claims.opened(ref, git, [])  # it arrived: still quiet, then forgotten
    assert claims.opened(ref, git, [])  # the user opened it: the badge goes
    assert claims.badge_of(git) is None
