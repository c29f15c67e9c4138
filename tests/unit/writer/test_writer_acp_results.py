"""Commands run through the ACP bridge (Zed's claude-code-acp: `mcp__acp__Bash`), whose result
opens on "Exited with code N.Final output:" whatever the outcome: the writer reads that code
like Claude Code's own "Exit code N" (a real session of matthsena/reef-coder, tuned on)."""

from __future__ import annotations

import gzip
from pathlib import Path

from memtab.transcripts import read_transcript
from memtab.writer.extract import extract_findings

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
