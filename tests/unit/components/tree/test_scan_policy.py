"""components.tree.scan_policy: when the Memory tab scans and what each scan covers — one at
a time, the changes meanwhile folded into the next, a workspace switch covering again what
the scan it replaces covered. Decisions only: no job runs here."""

from __future__ import annotations

from memtab.components.tree.scan_policy import ScanPolicy


def test_the_first_scan_waits_for_the_outline_and_covers_everything() -> None:
    policy = ScanPolicy()
    policy.begin_with_outline()
    assert policy.waiting_for_outline
    assert not policy.request(["/h/memory/global/a.md"], supersede=False, running=True)
    assert policy.outline_shown()
    assert policy.take() is None  # everything
    assert not policy.waiting_for_outline and not policy.outline_shown()


def test_a_change_while_idle_is_scanned_now() -> None:
    policy = ScanPolicy()
    assert policy.request(["/h/a.md"], supersede=False, running=False)
    assert policy.take() == {"/h/a.md"}
    policy.landed()
    assert not policy.due


def test_changes_while_a_scan_runs_are_folded_into_the_next() -> None:
    policy = ScanPolicy()
    policy.request(["/h/a.md"], supersede=False, running=False)
    assert policy.take() == {"/h/a.md"}
    assert not policy.request(["/h/b.md"], supersede=False, running=True)
    assert not policy.request(["/h/c.md"], supersede=False, running=True)
    assert policy.due
    policy.landed()
    assert policy.due  # the next one starts as the running one lands
    assert policy.take() == {"/h/b.md", "/h/c.md"}
    assert not policy.due


def test_everything_absorbs_the_paths_until_a_scan_takes_it() -> None:
    policy = ScanPolicy()
    policy.request(None, supersede=False, running=True)
    policy.request(["/h/a.md"], supersede=False, running=True)
    assert policy.take() is None
    policy.request(["/h/b.md"], supersede=False, running=True)
    assert policy.take() == {"/h/b.md"}


def test_a_switch_supersedes_the_running_scan_and_covers_what_it_covered() -> None:
    policy = ScanPolicy()
    policy.request(["/h/a.md"], supersede=False, running=False)
    policy.take()
    assert policy.request(["/h/b.md"], supersede=True, running=True)
    assert policy.take() == {"/h/a.md", "/h/b.md"}
    policy.request(None, supersede=False, running=False)
    assert policy.take() is None
    assert policy.request([], supersede=True, running=True)
    assert policy.take() is None  # the replaced scan covered everything


def test_a_failed_scan_leaves_what_it_covered_to_the_next() -> None:
    policy = ScanPolicy()
    policy.request(["/h/a.md"], supersede=False, running=False)
    policy.take()
    policy.request(["/h/b.md"], supersede=False, running=True)
    policy.failed()
    assert policy.due
    assert policy.take() == {"/h/a.md", "/h/b.md"}
    policy.failed()
    policy.request(None, supersede=False, running=False)
    policy.take()
    policy.failed()  # a scan of everything failed: the next covers everything
    assert policy.take() is None
