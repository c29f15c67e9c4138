"""Rules from real lines of the sessions tuned on, each kept for a class of notes seen in
several projects (tests/quality/en_cases_h26.py's block and the blocks before it)."""

from __future__ import annotations

from itertools import count

from memtab.transcripts.events import TranscriptEvent, TranscriptToolCall
from memtab.writer.offline.extract import extract_findings

from .events import answer, shell, user

_ids = count()


def _working(text: str, *calls: TranscriptToolCall) -> TranscriptEvent:
    """The assistant's words mid-work (not a turn's final answer), then its calls."""
    return TranscriptEvent(
        id=f"w{next(_ids)}", role="assistant", source="codex", text=text, tool_calls=list(calls)
    )


# jdx/communique (Codex): the agent's explanation right after `git switch -c` failed.
_SANDBOX = "Branch creation hit the sandbox because `.git/` is read-only in this workspace profile."


def test_what_the_agent_says_right_after_a_failed_call_is_the_moments_trouble() -> None:
    failed = shell(
        "git switch -c bump-opus-4-8",
        ok=False,
        output="fatal: cannot lock ref 'refs/heads/bump-opus-4-8': Operation not permitted",
    )
    events = [
        user("ok first make a pr for the opus stuff"),
        _working("I'll make the branch.", failed),
        _working(_SANDBOX + " I'll rerun it with approval.", shell("git switch -c bump-opus-4-8")),
    ]
    assert extract_findings(events).findings == []


def test_the_same_words_after_a_call_that_worked_or_in_the_final_answer_are_kept() -> None:
    after_success = [user("make a pr"), _working(_SANDBOX, shell("git status --short"))]
    assert extract_findings(after_success).findings == [_SANDBOX]
    after_failure = [
        user("make a pr"),
        _working("I'll make the branch.", shell("git switch -c x", ok=False, output="fatal")),
        answer(_SANDBOX),  # the turn's final answer: said once the agent has finished
    ]
    assert extract_findings(after_failure).findings == [_SANDBOX]
    # a new message of the user starts a new turn: the failure before it is behind
    next_turn = [
        _working("I'll make the branch.", shell("git switch -c x", ok=False, output="fatal")),
        user("why?"),
        _working(_SANDBOX, shell("ls -la .git")),
    ]
    assert extract_findings(next_turn).findings == [_SANDBOX]
