"""components.tree.scan_steps: what each scan the Memory tab shows fans out to, without Qt."""

from __future__ import annotations

from memtab.components.tree.full_scan import scan_home
from memtab.components.tree.scan import DiskChanges, HomeScan, ScanRequest
from memtab.components.tree.scan_steps import ScanSteps, scan_steps
from memtab.file_protocol.file_ref import MemoryFileRef
from memtab.store.home import Home
from memtab.store.paths import parse_file_path
from support import memory_home
from support.memory_home import MAIN, MULTI

home = memory_home.home


def steps(scan: HomeScan, previous: HomeScan | None, **options: bool) -> ScanSteps:
    options.setdefault("assembled", True)
    options.setdefault("searching", False)
    options.setdefault("explicit_workspace", False)
    return scan_steps(scan, previous, **options)


def test_the_first_scan_shows_the_tree_alone(home: Home) -> None:
    scan = scan_home(ScanRequest(home, MAIN))._replace(registry_error="config.json: bad JSON")
    first = steps(scan, None, assembled=False, searching=True)
    assert first.first and not first.workspace_changed and not first.search_again
    assert first.error == "config.json: bad JSON", "said before the parts exist too"
    assert not first.followed


def test_another_workspace_is_shown_anew_and_says_why_when_asked_for_by_name(
    home: Home,
) -> None:
    main = scan_home(ScanRequest(home, MAIN))
    multi = scan_home(ScanRequest(home, MULTI))
    switched = steps(multi, main)
    assert switched.workspace_changed and not switched.first and switched.error is None
    assert steps(main, None).workspace_changed, "the parts' first scan shows its workspace"
    unknown = main._replace(workspace_note="No workspace ffffffffff")
    assert steps(unknown, multi).workspace_note is None, "not named by the user: nothing said"
    named = steps(unknown, multi, explicit_workspace=True)
    assert named.workspace_note == "No workspace ffffffffff; showing another workspace instead."
    assert steps(unknown, main, explicit_workspace=True).workspace_note is None  # still shown


def test_the_open_files_follow_what_changed_in_the_same_workspace(home: Home) -> None:
    main = scan_home(ScanRequest(home, MAIN))
    notes, gone = parse_file_path("/memories/global/a.md"), parse_file_path("/memories/global/b.md")
    changed = main._replace(
        changes=DiskChanges(changed=frozenset({notes}), deleted=frozenset({gone}))
    )
    same = steps(changed, main)
    assert not same.workspace_changed
    assert same.followed == {MemoryFileRef.of_mux(notes), MemoryFileRef.of_mux(gone)}
    assert not steps(main, main).followed, "nothing changed: nothing to follow"
    other = scan_home(ScanRequest(home, MULTI))
    assert not steps(changed, other).followed, "another workspace's files are shown anew"


def test_a_search_under_way_searches_the_new_scan(home: Home) -> None:
    main = scan_home(ScanRequest(home, MAIN))
    assert steps(main, main, searching=True).search_again
    assert not steps(main, main).search_again
