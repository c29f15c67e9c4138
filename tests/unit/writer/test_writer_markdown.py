"""The offline writer reads the Markdown of users' and agents' messages by the one line
classifier (`memtab.markdown`), as the check, the consolidator and the editor do: code is
any fenced block (tildes too, a longer run around a shorter one, never a code span),
headings and list items as the classifier tells them. Where its own patterns read
otherwise, these failed; on every real transcript of the corpus the findings are the same
(`tests/quality/measure.py`)."""

from __future__ import annotations

from memtab.transcripts.events import TranscriptToolCall
from memtab.writer.offline.answers import facts_in
from memtab.writer.offline.directives import directives_in, human_text, looks_pasted
from memtab.writer.offline.extract import command_a_bash_agent_ran

FACT = "The integration tests require `OPENAI_API_KEY` and `ANTHROPIC_API_KEY`."


def test_what_a_fenced_block_holds_is_no_directive() -> None:
    assert directives_in("Always use pnpm. Never use npm.") == [
        "Always use pnpm.",
        "Never use npm.",
    ]
    for fenced in (
        "See the log:\n~~~\nAlways use pnpm.\n~~~\n",
        # a block that shows a block: the inner run of three does not close the four
        "The README says:\n````md\nAlways use pnpm.\n```\nNever use npm.\n````\n",
    ):
        assert directives_in(fenced) == [], fenced


def test_a_code_span_of_three_backticks_stays_in_the_sentence() -> None:
    assert directives_in("Use ```pnpm``` always.") == ["Use ```pnpm``` always."]
    assert human_text("Run ```make``` first.\n```\nls\n```") == "Run ```make``` first."


def test_comments_in_a_code_block_are_no_headings_of_a_pasted_document() -> None:
    typed = "Fix the build, it fails here:\n```bash\n# one\n# two\nmake\n```\n"
    assert not looks_pasted(typed)
    assert looks_pasted("# One\nx\n## Two\ny\n")


def test_an_answers_fenced_block_holds_no_fact() -> None:
    assert facts_in(f"Done. {FACT}") == [FACT]
    assert facts_in(f"Done.\n~~~\n{FACT}\n~~~\n") == []


def test_a_bash_agents_command_in_a_tilde_fence() -> None:
    command = "cd /src/app && bunx tsc --noEmit"
    report = (
        f"Running it now.\n\n~~~bash\n{command}\n~~~\n\nIt completed successfully with no errors."
    )
    call = TranscriptToolCall(
        id="t1",
        name="Task",
        input={"subagent_type": "Bash", "prompt": f"Run {command} and report."},
        output=report,
    )
    assert command_a_bash_agent_ran(call) == command
