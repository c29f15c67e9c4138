"""The writer's news in words: "Recorded 3 notes in notes.md · just now" (no Qt)."""

from __future__ import annotations

from memtab.components.writer.supervision import NewsKind, added_lines, count_notes, news_from_run

BEFORE = "# Notes\n\n## Directives\n- Use pnpm.\n"
AFTER = (
    "# Notes\n\n## Directives\n- Use pnpm.\n- Never push to main.\n\n## Commands\n- `make test`\n"
)
NOW = 1_800_000_000_000


def news(
    outcome: str, before: str = BEFORE, after: str = AFTER, suggested: int = 0, left_out: int = 0
) -> object:
    return news_from_run(
        outcome=outcome,
        workspace_id="a1b2c3d4e5",
        workspace_name="main",
        memory_path="/memories/workspace/notes.md",
        before=before,
        after=after,
        suggested=suggested,
        at_ms=NOW,
        left_out=left_out,
    )


def test_a_run_that_wrote_says_how_many_notes_and_where() -> None:
    recorded = news("wrote")
    assert recorded is not None and recorded.kind is NewsKind.RECORDED  # type: ignore[attr-defined]
    assert recorded.text(now=NOW + 1000) == "Recorded 2 notes in notes.md · just now"  # type: ignore[attr-defined]
    assert recorded.text(now=NOW + 5 * 60_000).endswith("· 5 min ago")  # type: ignore[attr-defined]
    # The new lines, for the editor to highlight: the two bullets and the new heading.
    assert recorded.lines == (4, 6, 7)  # type: ignore[attr-defined]
    title, body = recorded.notification()  # type: ignore[attr-defined]
    assert (title, body) == ("Memtab recorded 2 notes", "In notes.md of main")


def test_a_suggest_only_run_says_review() -> None:
    suggested = news("suggested", after=BEFORE, suggested=1)
    assert suggested is not None
    assert suggested.text() == "Suggested 1 note — review"  # type: ignore[attr-defined]
    assert "review" in suggested.details()  # type: ignore[attr-defined]


def test_notes_left_out_past_a_runs_limit_are_said() -> None:
    suggested = news("suggested", after=BEFORE, suggested=20, left_out=8)
    assert suggested is not None
    assert suggested.text() == "Suggested 20 notes (8 less sure left out) — review"  # type: ignore[attr-defined]
    assert "found 8 more notes and left them out" in suggested.details()  # type: ignore[attr-defined]
    recorded = news("wrote", left_out=1)
    assert recorded is not None
    assert recorded.text(now=NOW).startswith("Recorded 2 notes (1 less sure left out) in notes.md")  # type: ignore[attr-defined]
    assert "found 1 more note and left it out" in recorded.details()  # type: ignore[attr-defined]


def test_nothing_new_failed_or_only_removed_is_no_news() -> None:
    assert news("no_new_memories", after=BEFORE) is None
    assert news("failed") is None
    assert news("wrote", before=AFTER, after=BEFORE) is None  # it only removed lines
    assert news("suggested", suggested=0) is None


def test_notes_are_bullets_or_else_plain_lines() -> None:
    assert added_lines("a\n", "a\n\nb\n") == (2,)
    assert count_notes("# T\nplain note\n", (0, 1)) == 1  # the heading is not a note
    assert count_notes("- one\n- two\ntext\n", (0, 1, 2)) == 2
