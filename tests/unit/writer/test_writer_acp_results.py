"""Commands run by other means than the agent's own Bash tool, in a real session of
matthsena/reef-coder (tuned on): through the ACP bridge (Zed's claude-code-acp:
`mcp__acp__Bash`), whose result opens on "Exited with code N.Final output:" whatever the
outcome — the writer reads that code like Claude Code's own "Exit code N" — and by a
sub-agent of the `Bash` type, whose report relays what the commands printed that moment."""

from __future__ import annotations

import gzip
from pathlib import Path

from memtab.transcripts.reader import read_transcript
from memtab.writer.offline.extract import extract_findings

from .events import calls, tool

_REEF = (
    Path(__file__).resolve().parents[2]
    / "fixtures/shared/claude-code"
    / "matthsena-reef-coder__entire-checkpoints-v1__f9__72c79dc2f8__4__full.jsonl.gz"
)


def test_an_acp_command_that_exited_non_zero_failed(tmp_path: Path) -> None:
    session = tmp_path / "session.jsonl"
    session.write_bytes(gzip.decompress(_REEF.read_bytes()))
    events = [event for event in read_transcript(session).events if not event.sidechain]
    acp = {
        call.command: call
        for event in events
        for call in event.tool_calls
        if call.name == "mcp__acp__Bash"
    }
    # `bunx` alone printed its usage and exited 1; with arguments the bridge could not spawn it
    assert acp["bunx"].exit_code == 1
    assert acp["bunx tsc --noEmit"].exit_code == -1
    commands = [command.command for command in extract_findings(events).commands]
    assert "`bunx`" not in commands and "bunx" not in commands


def test_a_bash_sub_agents_report_is_no_finding() -> None:
    report = tool(
        "Task",
        {
            "subagent_type": "Bash",
            "description": "Verify session-manager file",
            "prompt": "Check if the session-manager.ts file exists and show its first 30 lines:"
            "\n\ncd /home/matheus/Desktop/agent-swarm && ls -la src/session-manager.ts && "
            "head -30 src/session-manager.ts",
        },
        output="I'll check if the session-manager.ts file exists and show its first 30 lines."
        "\n\nThe file `src/session-manager.ts` does not exist in the "
        "`/home/matheus/Desktop/agent-swarm/src/` directory.",
    )
    assert extract_findings([calls(report)]).findings == []
    studied = tool(
        "Task", {**report.input, "subagent_type": "general-purpose"}, output=report.output
    )
    assert extract_findings([calls(studied)]).findings == [
        "The file `src/session-manager.ts` does not exist in the "
        "`/home/matheus/Desktop/agent-swarm/src/` directory."
    ]
