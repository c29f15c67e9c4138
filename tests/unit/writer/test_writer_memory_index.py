"""The bullets an edit adds to an inline MEMORY.md are saved memories (real lines of
FSM1/cipher-box's MEMORY.md, tests/fixtures/shared/claude-code)."""

from __future__ import annotations

from memtab.transcripts.events import TranscriptToolCall
from memtab.writer.offline.extract import extract_findings

from .events import calls


def test_bullets_added_to_an_inline_memory_index_are_saved_memories() -> None:
    # cipher-box: the older layout keeps the memories in MEMORY.md itself
    index = "/Users/michael/.claude/projects/-Users-michael-Code-cipher-box/memory/MEMORY.md"
    edit = TranscriptToolCall(
        id="e1",
        name="Edit",
        input={
            "file_path": index,
            "old_string": "## Patterns & Lessons",
            "new_string": (
                "## CRITICAL: TypeORM Migration Discipline\n"
                "- **`synchronize: true` in dev/test hides missing migrations** — tables "
                "auto-created from entities, so missing `CREATE TABLE` migrations are invisible "
                "until staging/production deploy\n"
                "- **Also update FullSchema baseline** for fresh database initialization\n"
                "- **Use `IF NOT EXISTS`** for idempotency (pattern: `1740000000000-Add.ts`)\n"
                "- Phase 14 hit this exact bug: `SharesPartialUniqueIndex` tried to modify "
                "`shares` table that didn't exist on staging. Fixed in PR #186.\n"
                "- [feedback_types.md](feedback_types.md) — a link of the newer index\n\n"
                "## Patterns & Lessons"
            ),
        },
        output="The file has been updated successfully.",
    )
    assert extract_findings([calls(edit)]).findings == [
        "`synchronize: true` in dev/test hides missing migrations — tables auto-created from "
        "entities, so missing `CREATE TABLE` migrations are invisible until staging/production "
        "deploy."
    ]
    # the same edit of any other Markdown file is no memory
    assert isinstance(edit.input, dict)
    other = TranscriptToolCall(
        id="e2", name="Edit", input={**edit.input, "file_path": "/Users/michael/notes.md"}
    )
    assert extract_findings([calls(other)]).findings == []
