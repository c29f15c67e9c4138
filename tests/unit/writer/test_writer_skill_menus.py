"""A skill's scripted menu is no project decision: the option the user chose is one the
skill's instructions list (real lines of FSM1/cipher-box's `/gsd:check-todos` and
Viniciuscarvalho/FitToday's feature-marker skill, tests/fixtures/shared/claude-code)."""

from __future__ import annotations

from memtab.transcripts import TranscriptEvent, TranscriptToolCall
from memtab.writer.asked import SkillScripts, decisions_in
from memtab.writer.extract import extract_findings

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
