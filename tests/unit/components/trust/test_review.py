"""Nothing is acted on unseen (issue 94 point 1): every action opens a review of what it
writes, file by file; Combine of a rule takes out only the lines that say the kept line's
text — a member in other words, or a contradiction grouped as one rule, is shown and left as
it is —; a move of memory into another project's or agent's memory is named, with who stops
reading it; the review's texts are what is written, or nothing where a file changed since."""

from __future__ import annotations

from pathlib import Path

import pytest

from memtab.components.files.undo import UndoStack, undo_step
from memtab.components.jobs import JobContext
from memtab.components.text_diff import compute_diff
from memtab.components.trust import jobs as trust_jobs
from memtab.components.trust.changes import without_line
from memtab.components.trust.jobs import proposal_of, propose_combine
from memtab.components.trust.review import (
    CombineMember,
    Proposal,
    ReadFile,
    Reviewed,
    file_key,
    lines_review,
    same_text,
)
from memtab.fs.atomic import atomic_write_text
from memtab.store.home import Home
from memtab.trust.duplicates.records import DuplicateGroup
from memtab.trust.records import MemoryPlace
from support.memory_home import OTHER_PROJECT, PROJECT, make_home

RULE = "Always run `pnpm lint` before pushing a branch to origin."
SAME_IN_OTHER_MARKUP = "**Always** run pnpm lint before pushing a branch to origin"
REWORDED = "Run the linter (pnpm lint) before you push any branch."


@pytest.fixture
def home(tmp_path: Path) -> Home:
    return make_home(tmp_path / "home")


def _ctx() -> JobContext:
    return JobContext.standalone()


def _place(path: str, line: int, text: str, scope: str = "project", **more: str) -> MemoryPlace:
    project = more.pop("project", PROJECT if scope == "project" else None)
    return MemoryPlace(
        path=path, agent=more.pop("agent", "mux"), scope=scope, line=line, text=text,  # type: ignore[arg-type]
        project=project,
    )  # fmt: skip


def _rule_group(*members: MemoryPlace) -> DuplicateGroup:
    return DuplicateGroup(
        kind="rule", similarity=0.6, why="One rule in three memories", members=members
    )


def _keeping(proposal: object, name: str) -> Reviewed:
    assert isinstance(proposal, Proposal), proposal
    return next(r for r in proposal.reviews if r.choice and r.choice.label.startswith(name))


def test_the_same_text_is_the_same_line_whatever_its_markup_case_or_spacing() -> None:
    assert same_text(f"- {RULE}", SAME_IN_OTHER_MARKUP)
    assert same_text("1. Use [uv](https://docs.astral.sh/uv) for venvs.", "* use  UV for venvs")
    assert not same_text(RULE, REWORDED)
    assert not same_text(
        "Icons come from lucide-react.", "Use heroicons; lucide-react was dropped."
    )


def test_combine_of_a_rule_leaves_a_member_in_other_words_untouched(home: Home) -> None:
    """Today the rule's line was taken out of every other file, a rewording too (the issue's
    five lines deleted on a real corpus); now only the same text goes."""
    habits = home.global_root / "habits.md"
    workflow = home.project_root(PROJECT) / "workflow.md"
    notes = home.project_root(PROJECT) / "notes.md"
    atomic_write_text(habits, f"# Habits\n\n- {RULE}\n- Small commits.\n")
    atomic_write_text(workflow, f"# Workflow\n\n- Tests first.\n- {SAME_IN_OTHER_MARKUP}\n")
    notes_text = f"# Notes\n\n- {REWORDED}\n- Ask Priya about billing.\n"
    atomic_write_text(notes, notes_text)
    group = _rule_group(
        _place("/memories/global/habits.md", 3, RULE, scope="global"),
        _place("/memories/project/workflow.md", 4, SAME_IN_OTHER_MARKUP),
        _place("/memories/project/notes.md", 3, REWORDED),
    )
    reviewed = _keeping(propose_combine(home, group, _ctx()), "habits.md")
    assert [(c.name, c.becomes) for c in reviewed.files] == [
        ("habits.md", "keeps line 3"),
        ("workflow.md", "loses line 4"),
        ("notes.md", "keeps line 3: says it in other words"),
    ]
    assert [c.changes for c in reviewed.files] == [False, True, False]
    assert "1 line in other words: left as it is" in reviewed.summary
    assert reviewed.moves == ()  # global memory: every session of the project still reads it
    stack = UndoStack()
    assert trust_jobs.write(home, stack, reviewed, None, _ctx()).ok
    assert notes.read_text() == notes_text  # byte for byte
    assert workflow.read_text() == "# Workflow\n\n- Tests first.\n"
    step = stack.pop()
    assert step is not None and undo_step(home, step, stack=stack).ok
    assert SAME_IN_OTHER_MARKUP in workflow.read_text()


def test_a_contradiction_grouped_as_one_rule_is_never_combined() -> None:
    """The issue's "Icons come from lucide-react" / "Use heroicons for every icon;
    lucide-react was dropped": grouped by the words, no line of it is taken out."""
    group = _rule_group(
        _place("/memories/global/ui.md", 3, "Icons come from lucide-react.", scope="global"),
        _place(
            "/memories/project/web.md", 5, "Use heroicons for every icon; lucide-react was dropped."
        ),
    )
    ui = "# UI\n\n- Icons come from lucide-react.\n"
    web = "# Web\n\n- Tabs.\n- Use heroicons for every icon; lucide-react was dropped.\n"
    texts = {
        file_key(group.members[0]): ReadFile(ui, "a"),
        file_key(group.members[1]): ReadFile(web, "b"),
    }
    for kept in (0, 1):
        reviewed = lines_review(group, kept, texts, without_line, compute_diff)
        assert reviewed.refused and not any(change.changes for change in reviewed.files)
        assert "takes nothing out" in reviewed.summary


def test_taking_a_rule_out_of_a_project_that_no_longer_reads_it_is_named() -> None:
    """Both files are `/memories/project/rules.md`: one in each project's memory."""
    kept = _place("/memories/project/rules.md", 3, RULE, project=OTHER_PROJECT)
    gone = _place("/memories/project/rules.md", 3, RULE)
    group = _rule_group(kept, gone)
    texts = {
        file_key(kept): ReadFile(f"# A\n\n- {RULE}\n", "a"),
        file_key(gone): ReadFile(f"# B\n\n- {RULE}\n- More.\n", "b"),
    }
    reviewed = lines_review(group, 0, texts, without_line, compute_diff)
    assert [c.after for c in reviewed.files] == [f"# A\n\n- {RULE}\n", "# B\n\n- More.\n"]
    assert reviewed.moves == (
        f"Takes the line out of project {PROJECT}'s mux memory; it stays in project "
        f"{OTHER_PROJECT}'s mux memory: mux sessions in project {PROJECT} will no longer read "
        "it.",
    )


def test_combining_whole_files_of_two_projects_names_what_moves_and_who_stops_reading_it() -> None:
    """The issue's "Go 1.23 or newer is required" went from one project's Claude Code memory
    into another's, the original deleted, unsaid."""
    one = MemoryPlace(
        path="claude-code:memory-a:memory/go.md",
        agent="claude-code",
        scope="project",
        project="/src/a",
    )
    other = MemoryPlace(
        path="claude-code:memory-b:memory/go.md",
        agent="claude-code",
        scope="project",
        project="/src/b",
    )
    group = DuplicateGroup(
        kind="reworded", similarity=0.7, why="The same note", members=(one, other)
    )
    members = [
        CombineMember(one, "# Go\n\n- Build with `make`.\n- Go 1.23 or newer is required.\n", "a"),
        CombineMember(other, "# Go\n\n- Build with `make`.\n", "b", described=True),
    ]
    proposal = proposal_of(group, members)
    keep_b = _keeping(proposal, "go.md — Claude Code, project /src/b")
    assert keep_b.moves == (
        "Moves 1 line from project /src/a's Claude Code memory into project /src/b's Claude "
        "Code memory: Claude Code sessions in project /src/a will no longer read it, and "
        "Claude Code sessions in project /src/b will.",
    )
    assert [(c.name, c.becomes, c.before is None, c.after is None) for c in keep_b.files] == [
        ("go.md", "becomes the text to keep", False, False),
        ("go.md", "removed — every line of it is in the text to keep", False, True),
    ]
    into_global = next(r for r in proposal.reviews if r.choice and r.choice.member is None)
    assert len(into_global.moves) == 2 and all(
        "into mux's global memory: Claude Code sessions in project" in said
        and said.endswith("and every mux session will.")
        for said in into_global.moves
    )


def test_nothing_is_written_where_a_file_changed_after_its_review(home: Home) -> None:
    habits = home.global_root / "habits.md"
    workflow = home.project_root(PROJECT) / "workflow.md"
    atomic_write_text(habits, f"# Habits\n\n- {RULE}\n")
    atomic_write_text(workflow, f"# Workflow\n\n- {RULE}\n")
    group = _rule_group(
        _place("/memories/global/habits.md", 3, RULE, scope="global"),
        _place("/memories/project/workflow.md", 3, RULE),
    )
    reviewed = _keeping(propose_combine(home, group, _ctx()), "habits.md")
    atomic_write_text(habits, "# Habits\n\n- Rebase often.\n")  # the kept line gone meanwhile
    stack = UndoStack()
    result = trust_jobs.write(home, stack, reviewed, None, _ctx())
    assert not result.ok and "changed since it was read" in (result.error or "")
    assert workflow.read_text() == f"# Workflow\n\n- {RULE}\n" and len(stack) == 0
