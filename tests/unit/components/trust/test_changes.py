"""The window's trust actions (issue 72 points 2 and 5): Combine into…, Keep and Move,
each one step of Edit → Undo that Redo makes again, made only where nothing changed — and
each writing exactly what its review showed (issue 94)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from memtab.components.files.ops import OpResult
from memtab.components.files.undo import UndoStack, redo_step, undo_step
from memtab.components.jobs import JobContext
from memtab.components.trust import jobs as trust_jobs
from memtab.components.trust.changes import keep, move_target
from memtab.components.trust.jobs import NotRead, WindowTrust, propose_combine, propose_move
from memtab.components.trust.review import Proposal, Reviewed
from memtab.fs.atomic import atomic_write_text
from memtab.store.files import content_sha256
from memtab.store.home import Home
from memtab.store.paths import parse_file_path
from memtab.store.restore.from_history import file_history
from memtab.store.scopes.memory import MemoryStore
from memtab.trust.duplicates.kept import load_kept
from memtab.trust.duplicates.records import DuplicateGroup
from memtab.trust.leaks.records import Leak
from memtab.trust.report import TrustReport
from support.memory_home import OTHER_PROJECT, PROJECT, make_home

NOTE = "# Deploying\n\nDeploy to staging with `make deploy ENV=staging`; prod needs approval.\n"
RULE = "- Always run `pnpm lint` before pushing a branch to origin."
HABITS = """- Prefer small commits with a message saying why.
- Answer review comments the same day; resolve the threads you answered.
- Keep the changelog entry in the same pull request as the change.
"""
WORKFLOW = """- The API lives in `services/api`, the web app in `apps/web`.
- Postgres runs in docker: `docker compose up db` before the integration tests.
- Feature flags are read from `config/flags.yaml` at start-up, never at request time.
"""


@pytest.fixture
def home(tmp_path: Path) -> Home:
    return make_home(tmp_path / "home")


def _ctx() -> JobContext:
    return JobContext.standalone()


def _report(home: Home) -> TrustReport:
    result = WindowTrust(home).find(_ctx())
    assert not isinstance(result, NotRead)
    return result


def _groups_with(home: Home, name: str) -> list[DuplicateGroup]:
    return [g for g in _report(home).duplicates if any(m.path.endswith(name) for m in g.members)]


def keeping(proposal: object, name: str) -> Reviewed:
    """The review of `proposal` that keeps the group in the file named `name`."""
    assert isinstance(proposal, Proposal), proposal
    return next(r for r in proposal.reviews if r.choice and r.choice.label.startswith(name))


def only_review(proposal: object) -> Reviewed:
    assert isinstance(proposal, Proposal), proposal
    [reviewed] = proposal.reviews
    return reviewed


def test_combine_into_one_member_removes_the_copy_and_undo_brings_it_back(home: Home) -> None:
    kept = home.project_root(PROJECT) / "deploying.md"
    copy = home.global_root / "deploy-notes.md"
    atomic_write_text(kept, NOTE)
    atomic_write_text(copy, NOTE)
    [group] = _groups_with(home, "deploying.md")
    into = keeping(propose_combine(home, group, _ctx()), "deploying.md")
    assert into.texts is not None and into.texts.draft == NOTE  # a copy adds nothing
    stack = UndoStack()
    result = trust_jobs.write(home, stack, into, NOTE, _ctx())
    assert result.ok, result.error
    assert kept.read_text() == NOTE and not copy.exists()
    assert len(stack) == 1
    step = stack.pop()
    assert step is not None
    assert undo_step(home, step, stack=stack).ok
    assert copy.read_text() == NOTE
    redo = stack.peek_redo()
    assert redo is not None and redo_step(home, redo, stack=stack).ok
    assert not copy.exists()
    assert _groups_with(home, "deploying.md") == []


def test_combine_of_a_rule_takes_the_line_out_of_the_others_only(home: Home) -> None:
    one = home.global_root / "habits.md"
    other = home.project_root(PROJECT) / "workflow.md"
    atomic_write_text(one, f"# Habits\n\n{RULE}\n{HABITS}")
    atomic_write_text(other, f"# Workflow\n\n{WORKFLOW}{RULE}\n")
    [group] = _groups_with(home, "habits.md")
    into = keeping(propose_combine(home, group, _ctx()), "habits.md")
    stack = UndoStack()
    assert trust_jobs.write(home, stack, into, None, _ctx()).ok
    assert RULE in one.read_text()
    assert other.read_text() == f"# Workflow\n\n{WORKFLOW}"
    step = stack.pop()
    assert step is not None and undo_step(home, step, stack=stack).ok
    assert RULE in other.read_text()


def test_nothing_is_combined_where_a_member_changed_since_it_was_read(home: Home) -> None:
    kept = home.project_root(PROJECT) / "deploying.md"
    copy = home.global_root / "deploy-notes.md"
    atomic_write_text(kept, NOTE)
    atomic_write_text(copy, NOTE)
    [group] = _groups_with(home, "deploying.md")
    into = keeping(propose_combine(home, group, _ctx()), "deploying.md")
    atomic_write_text(copy, NOTE + "\nA line added meanwhile.\n")
    stack = UndoStack()
    result = trust_jobs.write(home, stack, into, NOTE + "- Edited.\n", _ctx())
    assert not result.ok and "changed since it was read" in (result.error or "")
    assert "A line added meanwhile" in copy.read_text() and kept.read_text() == NOTE
    assert len(stack) == 0


def test_keep_is_undone_by_forgetting_it(home: Home) -> None:
    atomic_write_text(home.project_root(PROJECT) / "deploying.md", NOTE)
    atomic_write_text(home.global_root / "deploy-notes.md", NOTE)
    [group] = _groups_with(home, "deploying.md")
    stack = UndoStack()
    assert keep(stack, home, group).ok
    assert group.key in load_kept(home) and _groups_with(home, "deploying.md") == []
    step = stack.pop()
    assert step is not None and undo_step(home, step, stack=stack).ok
    assert group.key not in load_kept(home)


def test_a_global_memory_naming_one_project_moves_to_its_memory_in_one_step(home: Home) -> None:
    leaking = home.global_root / "web-build.md"
    text = f"# Web build\n\nThe bundle of {OTHER_PROJECT}/src/app.tsx is built by vite.\n"
    atomic_write_text(leaking, text)
    leaks = [leak for leak in _report(home).leaks if leak.place.path.endswith("web-build.md")]
    [leak] = leaks
    assert move_target(leak) == f"Move to project {OTHER_PROJECT}'s memory"
    stack = UndoStack()
    result = trust_jobs.write(
        home, stack, only_review(propose_move(home, leak, _ctx())), None, _ctx()
    )
    assert result.ok, result.error
    moved = home.project_root(OTHER_PROJECT) / "web-build.md"
    assert moved.read_text() == text and not leaking.exists()
    step = stack.pop()
    assert step is not None and undo_step(home, step, stack=stack).ok
    assert leaking.read_text() == text and not moved.exists()


SECRET_NOTE = """# Local services

- The API runs on port 8080.
- The test settings read `DATABASE_URL=postgresql://acme:{password}@localhost:5433/acme_test`.
- The password is also in the team vault.
"""
PASSWORD = "s3cr3t-Pa55w0rd-for-tests"
LOCAL_SERVICES = "/memories/global/local-services.md"


def _secret_leak(home: Home, name: str) -> Leak:
    leaks = [x for x in _report(home).leaks if x.kind == "secret" and x.place.path.endswith(name)]
    [leak] = leaks
    return leak


def test_take_the_line_out_removes_the_secret_s_line_and_only_it(home: Home) -> None:
    """The finding's text is redacted: the line is found by its number and what it says
    redacted, and taken out whole through the store (history keeps it, Undo puts it
    back) — never where the file changed since it was read."""
    path = home.global_root / "local-services.md"
    text = SECRET_NOTE.format(password=PASSWORD)
    atomic_write_text(path, text)
    leak = _secret_leak(home, "local-services.md")
    changed = "- A line an agent added above.\n" + text
    read_at = path.stat().st_mtime_ns
    atomic_write_text(path, changed)
    os.utime(path, ns=(read_at, read_at + 5_000_000_000))
    stack = UndoStack()
    refused = propose_move(home, leak, _ctx())
    assert isinstance(refused, OpResult)
    assert not refused.ok and "changed since it was read" in (refused.error or "")
    assert path.read_text() == changed and len(stack) == 0

    atomic_write_text(path, text)
    leak = _secret_leak(home, "local-services.md")
    assert PASSWORD not in leak.place.text and leak.place.line == 4
    assert move_target(leak) == "Take the line out"
    reviewed = only_review(propose_move(home, leak, _ctx()))
    assert reviewed.accept == "&Take the line out"
    [shown] = reviewed.files
    assert shown.diff is not None and PASSWORD not in str(shown.diff)  # shown redacted
    result = trust_jobs.write(home, stack, reviewed, None, _ctx())
    assert result.ok, result.error
    lines = text.splitlines(keepends=True)
    assert path.read_text() == "".join(lines[:3] + lines[4:])
    versions = file_history(MemoryStore(home, None), parse_file_path(LOCAL_SERVICES))
    assert any(v.sha256 == content_sha256(text) for v in versions)  # history keeps it
    step = stack.pop()
    assert step is not None and undo_step(home, step, stack=stack).ok
    assert path.read_text() == text
