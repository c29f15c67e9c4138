"""What the harness shows of skills and of the agent's memory: a skill's scripted menu is
no project decision (the option chosen is one the skill's instructions list), and the
bullets an edit adds to an inline MEMORY.md are saved memories (real lines of
FSM1/cipher-box's `/gsd:check-todos` and MEMORY.md, and Viniciuscarvalho/FitToday's
feature-marker skill, tests/fixtures/shared/claude-code)."""

from __future__ import annotations

from memtab.transcripts import TranscriptEvent, TranscriptToolCall
from memtab.writer.offline.asked import SkillScripts, decisions_in
from memtab.writer.offline.extract import extract_findings

from .events import calls

GSD_CHECK_TODOS = (
    "<objective>\nList all pending todos, allow selection, load full context for the "
    "selected todo, and route to appropriate action.\n</objective>\n\n"
    + "\n".join(f"- step {n}: read the todo file and its area" for n in range(12))
    + '\n\nUse AskUserQuestion:\n- header: "Action"\n- question: "What would you like to do '
    'with this todo?"\n- options:\n  - "Work on it now" — move to done, start working\n'
    '  - "Create a phase" — /gsd:add-phase with this scope\n  - "Put it back" — return to list\n'
)


def _asked(question: str, options: list[str], chosen: str) -> TranscriptToolCall:
    return TranscriptToolCall(
        id="q1",
        name="AskUserQuestion",
        input={
            "questions": [
                {"question": question, "options": [{"label": label} for label in options]}
            ]
        },
        output=f'User has answered your questions: "{question}"="{chosen}". You can now continue',
    )


def test_an_option_the_skills_instructions_list_is_its_menu() -> None:
    scripts = SkillScripts()
    scripts.remember(GSD_CHECK_TODOS)
    menu = _asked(
        "What would you like to do with this todo?",
        ["Work on it now", "Brainstorm approach", "Put it back"],
        "Work on it now",
    )
    assert decisions_in(menu) != []  # without the instructions it reads as a decision
    assert decisions_in(menu, scripts.lists) == []
    # FitToday: "Full Workflow (Recommended)" — the skill's text lists "**Full Workflow**"
    scripts.remember(
        "Base directory for this skill: /Users/v/.claude/skills/feature-marker\n\n"
        "# feature-marker\n\nAutomates feature work from a PRD.\n\n## Usage\n\n"
        + "\n".join(f"- phase {n}: generate and check its document" for n in range(10))
        + "\n\n### Interactive Mode\n\nOpens a menu to select execution mode:\n"
        "- **Full Workflow** - Default, generates missing files and executes all phases\n"
        "- **Tasks Only** - Skips to execution\n"
    )
    assert scripts.lists("Full Workflow (Recommended)")
    # a one-word option may be named in any document; a project's own choice is kept
    assert not scripts.lists("pnpm")
    assert not scripts.lists("Consent Mode v2")


def test_the_digest_reads_a_skills_instructions_from_its_system_message() -> None:
    skill = TranscriptEvent(id="s1", role="system", source="claude", text=GSD_CHECK_TODOS)
    menu = _asked(
        "What would you like to do with this todo?",
        ["Work on it now", "Put it back"],
        "Work on it now",
    )
    assert extract_findings([skill, calls(menu)]).decisions == []
    assert extract_findings([calls(menu)]).decisions != []


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
