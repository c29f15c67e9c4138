"""A writer's trace dump quotes the transcript and the memory it read: private whatever
the umask (docs/formats.md §16.2), 0600 in a 0700 folder."""

from __future__ import annotations

from pathlib import Path

from memtab.store.home import Home
from memtab.writer.job.dumps import RunTrace, write_trace_dump
from support.private_modes import mode_of


def test_a_trace_dump_is_private_whatever_the_umask(tmp_path: Path, umask: int) -> None:
    home = Home(tmp_path / "home")
    trace = RunTrace(
        run_started_at=1_790_000_000_000,
        workspace_id="a1b2c3d4e5",
        workspace_name="main",
        trigger_message_id="m1",
        model_string="test:model",
        timeout_ms=1000,
        project_path="/p",
        workspace_path="/p",
        memory_path="/m",
        memory_file="notes.md",
        system_prompt="prompt",
        existing_memory="the user's memory, quoted",
        events_summary={},
        events=[],
        user_message="what the user said",
    )
    dump = write_trace_dump(home, trace, max_dumps=5)
    assert "the user's memory, quoted" in dump.read_text()
    assert mode_of(dump) == 0o600 and mode_of(dump.parent) == 0o700
