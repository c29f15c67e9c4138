"""The offline writer on real transcripts: what it remembers, and that it says it once."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from memtab.demo import demo_transcript
from memtab.store.home import Home, Workspace
from memtab.store.memory import MemoryStore
from memtab.writer.config import DEFAULT_MEMORY_PATH
from memtab.writer.offline import OfflineWriterProvider
from memtab.writer.run import WriterRunResult, load_transcript_events, run_writer

MUX_REPRO = "mux/coder-mux__tests__testdata__openai-reasoning-error-repro.jsonl"
MUX_REPLAY = "mux/coder-mux__src__node__services__replay__fixtures__replay-session__chat.jsonl"
CLAUDE_INIT = (
    "claude-code/d-kimuson-claude-code-viewer__mock-global-claude-dir__projects__sample-project__"
    "1af7fc5e-8455-4414-9ccd-011d40f70b2a.jsonl"
)
CLAUDE_EDGE = "claude-code/daaain-claude-code-log__test__test_data__edge_cases.jsonl"
CLAUDE_MEM = "claude-code/thedotmack-claude-mem__tests__fixtures__claude-code-session.jsonl"

# Per fixture with something worth remembering: lines the memory file must contain.
EXPECTED_LINES: dict[str, list[str]] = {
    MUX_REPRO: [
        "## Commands that work",
        "- `bun run docs:build` (build)",
        "- `bun install` (install)",
        "## Known failures",
        "- `TEST_INTEGRATION=1 bun x jest tests --reporters=default --runInBand` failed: "
        "`Integration tests require the following environment variables: OPENAI_API_KEY, "
        "ANTHROPIC_API_KEY`",
    ],
    CLAUDE_INIT: [
        "## Known failures",
        "- `Write /path/to/Demo/CLAUDE.md` failed: `Claude requested permissions to write to "
        "/path/to/Demo/CLAUDE.md, but you haven't granted it yet.`",
    ],
    CLAUDE_EDGE: [
        "- `FailingTool` failed: `Error: Tool execution failed with error: Command not found`",
    ],
    CLAUDE_MEM: ["- `bun test` (tests)"],
}
NOTHING_TO_REMEMBER = [
    MUX_REPLAY,
    "claude-code/daaain-claude-code-log__test__test_data__representative_messages.jsonl",
    "claude-code/daaain-claude-code-log__test__test_data__dag_compact_after_rewind.jsonl",
    "claude-code/daaain-claude-code-log__test__test_data__session_b.jsonl",
    "claude-code/daaain-claude-code-log__test__test_data__todowrite_examples.jsonl",
    "claude-code/simonw-claude-code-transcripts__tests__sample_session.jsonl",
    "claude-code/ryoppippi-ccusage__apps__ccusage__test__fixtures__claude__projects__project-alpha"
    "__session-alpha__chat.jsonl",
    "codex/daaain-claude-code-log__test__test_data__codex__sessions__2026__01__02__rollout-"
    "2026-01-02T03-04-05-11111111-1111-4111-8111-111111111111.jsonl",
    "codex/madshn-localpush__src-tauri__tests__fixtures__codex__2026-02-23__raw__sessions__rollout-"
    "2026-02-23T13-19-38-019c8a70-dda7-7f33-98ea-f30553347322.jsonl",
]


def write_once(home: Home, workspace: Workspace, transcript: Path) -> WriterRunResult:
    events = load_transcript_events(transcript)
    return run_writer(home, workspace, events, OfflineWriterProvider())


def memory(home: Home, workspace: Workspace) -> str:
    return MemoryStore(home, workspace).read(DEFAULT_MEMORY_PATH).content


@pytest.mark.parametrize("fixture", sorted(EXPECTED_LINES))
def test_fixture_transcripts_give_sensible_notes_once(
    fixtures_dir: Path, home: Home, workspace: Workspace, fixture: str
) -> None:
    first = write_once(home, workspace, fixtures_dir / fixture)
    assert first.outcome == "wrote", first.error
    text = memory(home, workspace)
    lines = text.splitlines()
    for expected in EXPECTED_LINES[fixture]:
        assert expected in lines, f"missing {expected!r} in:\n{text}"
    assert text.startswith("---\ndescription: ")
    second = write_once(home, workspace, fixtures_dir / fixture)
    assert second.outcome == "no_new_memories"
    assert memory(home, workspace) == text


@pytest.mark.parametrize("fixture", NOTHING_TO_REMEMBER)
def test_fixtures_with_nothing_durable_give_no_new_memories(
    fixtures_dir: Path, home: Home, workspace: Workspace, fixture: str
) -> None:
    result = write_once(home, workspace, fixtures_dir / fixture)
    assert result.outcome == "no_new_memories"
    assert not (home.workspace_root(workspace.id) / "notes.md").exists()


def test_the_failing_ci_wait_keeps_its_failing_end(
    fixtures_dir: Path, home: Home, workspace: Workspace
) -> None:
    write_once(home, workspace, fixtures_dir / MUX_REPRO)
    [line] = [line for line in memory(home, workspace).splitlines() if "wait_pr_checks" in line]
    assert line.startswith("- `gh pr view 69 --json")
    assert line.endswith("&& ./scripts/wait_pr_checks.sh 69` failed: `Some checks failed`")


def test_private_text_and_secrets_of_the_user_never_reach_memory(
    fixtures_dir: Path, home: Home, workspace: Workspace
) -> None:
    write_once(home, workspace, fixtures_dir / CLAUDE_MEM)
    text = memory(home, workspace)
    assert "sk-test-12345" not in text and "hunter2" not in text
    assert "MARKER" not in text  # no sidechain, reminder, caveat or compact-summary text


def test_the_demo_session_gives_directives_commands_and_the_fix(
    tmp_path: Path, home: Home, workspace: Workspace
) -> None:
    transcript = tmp_path / "chat.jsonl"
    transcript.write_text("".join(json.dumps(m) + "\n" for m in demo_transcript(1_700_000_000_000)))
    assert write_once(home, workspace, transcript).outcome == "wrote"
    lines = memory(home, workspace).splitlines()
    assert "- Always run `make check` before you push anything." in lines
    assert "- The staging database is read-only for us." in lines
    assert "- `make check`" in lines and "- `make db-up`" in lines
    assert "- `pytest tests/integration -k refresh -q` (tests)" in lines
    assert (
        "- `pytest tests/integration -k refresh -q` failed: `sqlalchemy.exc.OperationalError: "
        'connection to server at "localhost" (127.0.0.1), port 5432 failed: Connection '
        "refused` — fixed by `make db-up`."
    ) in lines
    assert write_once(home, workspace, transcript).outcome == "no_new_memories"


def claude_line(kind: str, uuid: str, content: list[dict[str, Any]], **extra: Any) -> str:
    message: dict[str, Any] = {"role": kind, "content": content}
    if kind == "assistant":
        message |= {"id": f"msg-{uuid}", "stop_reason": extra.pop("stop", "tool_use")}
    record = {"type": kind, "uuid": uuid, "sessionId": "s1", "cwd": "/src/acme"}
    return json.dumps({**record, "message": message, **extra}) + "\n"


def test_a_claude_tool_error_and_what_fixed_it(
    tmp_path: Path, home: Home, workspace: Workspace
) -> None:
    def bash(call_id: str, command: str) -> dict[str, Any]:
        return {"type": "tool_use", "id": call_id, "name": "Bash", "input": {"command": command}}

    def result(call_id: str, text: str, *, error: bool = False) -> dict[str, Any]:
        return {"type": "tool_result", "tool_use_id": call_id, "content": text, "is_error": error}

    transcript = tmp_path / "session.jsonl"
    transcript.write_text(
        claude_line("user", "u1", [{"type": "text", "text": "Run the tests. I prefer npm ci."}])
        + claude_line("assistant", "a1", [bash("t1", "npm test")])
        + claude_line(
            "user",
            "r1",
            [result("t1", "Exit code 1\nError: Cannot find module 'vitest'", error=True)],
        )
        + claude_line("assistant", "a2", [bash("t2", "npm ci")])
        + claude_line("user", "r2", [result("t2", "added 312 packages")])
        + claude_line("assistant", "a3", [bash("t3", "npm test")])
        + claude_line("user", "r3", [result("t3", "Tests 41 passed")])
        + claude_line("assistant", "a4", [{"type": "text", "text": "Green."}], stop="end_turn")
    )
    assert write_once(home, workspace, transcript).outcome == "wrote"
    lines = memory(home, workspace).splitlines()
    assert "- I prefer npm ci." in lines
    assert "- `npm test` failed: `Error: Cannot find module 'vitest'` — fixed by `npm ci`." in lines
    assert "- `npm ci` (install)" in lines and "- `npm test` (tests)" in lines


def test_a_codex_failure_fixed_by_an_edit(tmp_path: Path, home: Home, workspace: Workspace) -> None:
    def item(payload: dict[str, Any]) -> str:
        return (
            json.dumps(
                {
                    "timestamp": "2026-01-02T03:04:05Z",
                    "type": "response_item",
                    **{"payload": payload},
                }
            )
            + "\n"
        )

    def shell(call_id: str, cmd: str) -> str:
        return item(
            {
                "type": "function_call",
                "name": "exec_command",
                "arguments": json.dumps({"cmd": cmd}),
                "call_id": call_id,
            }
        )

    def output(call_id: str, text: str) -> str:
        return item({"type": "function_call_output", "call_id": call_id, "output": text})

    transcript = tmp_path / "rollout.jsonl"
    transcript.write_text(
        json.dumps({"type": "session_meta", "payload": {"id": "s", "cwd": "/src/acme"}})
        + "\n"
        + shell("c1", "cargo test")
        + output(
            "c1", "error[E0425]: cannot find value `x` in this scope\nProcess exited with code 101"
        )
        + item(
            {
                "type": "custom_tool_call",
                "name": "apply_patch",
                "call_id": "c2",
                "input": "*** Begin Patch\n*** Update File: src/lib.rs\n*** End Patch",
            }
        )
        + item({"type": "custom_tool_call_output", "call_id": "c2", "output": "Done!"})
        + shell("c3", "cargo test")
        + output("c3", "test result: ok. 3 passed\nProcess exited with code 0")
    )
    assert write_once(home, workspace, transcript).outcome == "wrote"
    lines = memory(home, workspace).splitlines()
    assert (
        "- `cargo test` failed: `` error[E0425]: cannot find value `x` in this scope `` — "
        "fixed by editing `src/lib.rs`."
    ) in lines
    assert "- `cargo test` (tests)" in lines
