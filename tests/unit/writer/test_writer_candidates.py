"""The offline writer's candidates (writer/offline/candidates.py): what the rules' soft gates leave
out is offered to the judge with its evidence; the hard rails still refuse. Lines from real
tuned-on sessions."""

from __future__ import annotations

import pytest

from memtab.transcripts import TranscriptEvent
from memtab.writer.offline.extract import TranscriptDigest, extract_candidates, extract_findings

from .events import answer, bash, calls, tool, user

# Real final-answer lines of tuned-on sessions (marot-spotter; the answers module's example).
UNMARKED_FACT = (
    "The CSS isn't built via esbuild — `xterm.css` is in `priv/static/assets/` which is gitignored."
)
MARKED_FACT = (
    "Key fix: Resolved the Dialyzer false positive by using `:otel_span.hex_trace_id/1` "
    "instead of manually extracting trace_id from the span context record."
)
KEPT_FACT = MARKED_FACT.removeprefix("Key fix: ")  # the label is left out of the note
SAFECAST = "/Users/rob/safecast-map-MCP"


def test_a_fact_without_a_marker_is_a_candidate_the_rules_do_not_keep() -> None:
    events = [answer(f"{UNMARKED_FACT}\n\n{MARKED_FACT}")]
    assert extract_findings(events).findings == [KEPT_FACT]
    wide = extract_candidates(events)
    assert wide.findings == [KEPT_FACT, UNMARKED_FACT]
    kept, unmarked = (wide.evidence[("finding", fact)] for fact in wide.findings)
    assert kept.rules_kept and kept.passed_fact_rules and kept.weight == 3  # firm, told
    assert not unmarked.rules_kept and not unmarked.marked and not unmarked.passed_fact_rules
    assert kept.source == unmarked.source == "final"
    assert unmarked.rank_in_answer == 0 and kept.rank_in_answer == 1


def test_a_fact_names_the_file_the_session_read() -> None:
    read = calls(tool("Read", {"file_path": "/repo/priv/static/assets/xterm.css"}))
    wide = extract_candidates([read, answer(UNMARKED_FACT)])
    found = wide.evidence[("finding", UNMARKED_FACT)]
    assert found.names_read_file and not found.names_edited_file
    assert found.position == 1.0  # said after the session's one tool call


def test_a_fact_said_again_counts_and_mid_work_is_not_a_final_answer() -> None:
    mid_work = TranscriptEvent(id="a-mid", role="assistant", source="claude", text=UNMARKED_FACT)
    wide = extract_candidates([mid_work, bash("make test"), answer(UNMARKED_FACT)])
    found = wide.evidence[("finding", UNMARKED_FACT)]
    assert found.said == 2 and found.source == "answer" and found.weight == 2  # told at the end


def test_a_command_the_rules_do_not_keep_is_a_candidate_but_not_git_or_looking_around() -> None:
    events = [
        bash("cp .env.example .env"),
        bash("cp .env.example .env"),
        bash("supabase db reset"),
        bash('git commit -m "wip"'),
        bash("gh pr create --fill"),
        bash("ls src"),
        bash("python -c 'print(1)'"),
        bash("vercel deploy --prod", ok=False, output="Error: not linked"),
        bash("make test"),
    ]
    assert [c.command for c in extract_findings(events).commands] == ["make test"]
    wide = extract_candidates(events)
    assert [c.command for c in wide.commands] == ["make test", "cp .env.example .env"]
    copied = wide.evidence[("command", "cp .env.example .env")]
    assert not copied.rules_kept and copied.said == 2
    assert wide.evidence[("command", "make test")].rules_kept
    # a tool used once, in one subcommand: the rules leave it out, the judge sees it
    assert extract_findings(events).tools == []
    assert [t.program for t in wide.tools] == ["supabase"]
    assert not wide.evidence[("tool", "supabase")].rules_kept


def test_a_goal_without_enough_work_is_a_candidate() -> None:
    events = [user("Add a dark mode toggle to the settings page"), bash("npm test")]
    assert extract_findings(events).goal is None
    wide = extract_candidates(events)
    assert wide.goal is not None and "Add a dark mode toggle to the settings page" in wide.goal
    goal = wide.evidence[("goal", wide.goal)]
    assert not goal.rules_kept and goal.session_steps == 1 and goal.changed_project


def test_every_candidate_has_evidence_and_the_rules_choice_is_marked() -> None:
    events = [user("Always use pnpm, never npm."), bash("pnpm test"), answer(MARKED_FACT)]
    rules = extract_findings(events)
    wide = extract_candidates(events)
    assert set(wide.evidence) == {
        ("directive", "Always use pnpm, never npm."),
        ("command", "pnpm test"),
        ("finding", KEPT_FACT),
    }
    assert all(found.rules_kept for found in wide.evidence.values())
    assert (rules.directives, rules.commands) == (wide.directives, wide.commands)


def test_the_rules_findings_are_the_same_however_often_they_are_asked() -> None:
    # A failure and its fix still among the newest calls are judged each time `findings()`
    # is asked (the candidates ask it too): a second asking must not lose the fix.
    failed = bash("cd go && go build ./cmd/mcp-server/ 2>&1", ok=False, output="go: not found")
    worked = bash("PATH=$PATH:/usr/local/go/bin && cd go && go build ./cmd/mcp-server/", output="")
    digest = TranscriptDigest(candidates=True)
    for event in (failed, worked):
        event.cwd = SAFECAST
        digest.add(event)
    first = digest.findings()
    assert len(first.solved_problems) == 1
    assert digest.candidates().solved_problems == first.solved_problems
    assert digest.findings().solved_problems == first.solved_problems


def test_a_writer_run_keeps_no_candidates() -> None:
    # The pool is the judge research's (tests/quality/judge_cv.py): a run does not pay for it.
    digest = TranscriptDigest()
    digest.add(answer(UNMARKED_FACT))
    with pytest.raises(ValueError, match="candidates=True"):
        digest.candidates()
