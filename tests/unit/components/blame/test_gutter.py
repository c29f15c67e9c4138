"""What the blame gutter shows, without Qt: a line per buffer line, matched to the blamed
file's lines; the card's words and links."""

from __future__ import annotations

from memtab.blame.records import (
    AdHocNote,
    AdHocNoteSource,
    Blame,
    BlameLine,
    ConsolidationSource,
    TranscriptSource,
)
from memtab.components.blame import UNSAVED, describe, entries

NOW = 1_800_000_000_000
HOUR = 3_600_000


def blame() -> Blame:
    writer = TranscriptSource(
        workspace_id="ws1",
        message_ids=("user-1", "assistant-1"),
        run_id="run-w",
        trace_dump="1_assistant-1.json",
    )
    dream = ConsolidationSource(run_id="run-c", op="str_replace", op_index=1, reason="merged")
    return Blame(
        path="/memories/workspace/notes.md",
        lines=(
            BlameLine(line=1, text="# Notes", actor="before-memtab", at=NOW - 48 * HOUR),
            BlameLine(
                line=2,
                text="- a",
                actor="writer",
                at=NOW - HOUR,
                run_id="run-w",
                version="v2",
                source=writer,
            ),
            BlameLine(
                line=3,
                text="- b",
                actor="consolidator",
                at=NOW - 3 * HOUR,
                run_id="run-c",
                version="v3",
                source=dream,
            ),
        ),
    )


def test_each_buffer_line_keeps_its_author_and_new_lines_are_unsaved() -> None:
    shown = entries(blame(), "# Notes\n- new\n- a\n- b\n", NOW)
    assert [e.actor for e in shown] == ["before-memtab", UNSAVED, "writer", "consolidator"]
    assert [e.label for e in shown] == ["before", "unsaved", "writer 1h", "consol 3h"]


def test_a_writer_line_links_its_dump_and_run() -> None:
    writer = describe(blame().lines[1], NOW)
    assert writer.title == "Memory writer"
    assert "Drawn from transcript messages user-1, assistant-1" in writer.details
    assert [(link.kind, link.target, link.workspace_id) for link in writer.links] == [
        ("trace", "1_assistant-1.json", "ws1"),
        ("run", "run-w", None),
    ]


def test_a_consolidation_line_links_its_run_and_op_and_says_why() -> None:
    dream = describe(blame().lines[2], NOW)
    assert dream.title == "Consolidator"
    assert "Why: merged" in dream.details
    assert any("run-c, op 2: str_replace" in detail for detail in dream.details)
    (link,) = dream.links
    assert (link.kind, link.target, link.op_index) == ("run", "run-c", 1)


def test_a_codex_line_from_an_ad_hoc_note_names_the_note_on_its_card() -> None:
    note = AdHocNote(id="codex:memories:extensions/ad_hoc/notes/n.md", actor="user", at=NOW)
    drawn = BlameLine(
        line=4,
        text="- Use pnpm [ad-hoc note]",
        actor="codex",
        at=NOW,
        source=AdHocNoteSource(notes=(note,)),
    )
    card = describe(drawn, NOW)
    assert card.title == "Codex" and card.links == ()
    assert (
        "Tagged [ad-hoc note]: Codex's consolidation drew it from the user's notes" in card.details
    )
    assert any(d.startswith(f"From the note {note.id} (You, ") for d in card.details)
    gone = describe(drawn.replaced(source=AdHocNoteSource()), NOW)
    assert "No note there now shares its words (deleted, or reworded)" in gone.details
