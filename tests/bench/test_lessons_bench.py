"""Benchmark: a hostile local model server answers the writer's lessons task with one native
`record_lessons` call of 40,000 lessons (issue 95, round 7: refused in quadratic time, 69–87 s
against the run's 20 s). The run goes through the real door — `create_writer_provider` over
HTTP to a server on this machine (the fake model server), `run_writer` with a 20 s limit —
and is timed whole, wall and CPU, the load beside them; the run must end within its limit.

Run: .venv/bin/python -m pytest --bench tests/bench/test_lessons_bench.py -s
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from bench.table import Row, record
from memtab.llm.settings import ProviderSettings
from memtab.llm.types import close_provider
from memtab.store.home import Home
from memtab.store.sidecars.registry import add_workspace, load_registry
from memtab.transcripts.events import TranscriptEvent, TranscriptToolCall
from memtab.writer.config import WriterSettings
from memtab.writer.job.providers import create_writer_provider
from memtab.writer.job.run import run_writer
from support.fake_model_server import FakeModelServer

pytestmark = pytest.mark.bench

LESSONS = 40_000
RUN_LIMIT_S = 20.0


def _session() -> list[TranscriptEvent]:
    ran = TranscriptToolCall(
        id="c1", name="Bash", input={"command": "bun test"}, output="12 pass", exit_code=0
    )
    return [
        TranscriptEvent(id="u1", role="user", source="claude", text="Run the suite."),
        TranscriptEvent(id="a1", role="assistant", source="claude", tool_calls=[ran]),
        TranscriptEvent(
            id="a2", role="assistant", source="claude", text="All pass; src/main.ts is the entry."
        ),
    ]


def test_forty_thousand_lessons_in_one_call(
    fake_model_server: FakeModelServer, tmp_path: Path
) -> None:
    lessons = [
        {"kind": "fact", "lesson": f"File src/f{n}.ts holds part {n}.", "evidence": f"f{n}"}
        for n in range(LESSONS)
    ]
    fake_model_server.add_openai_reply("", [("record_lessons", {"lessons": lessons})])
    home = Home(tmp_path / "home")
    add_workspace(home, "/src/acme", "acme", workspace_id="b1b1b1b1b1", workspace_path="/src/acme")
    workspace = load_registry(home).require_workspace("b1b1b1b1b1")
    provider = create_writer_provider(
        ProviderSettings("openai", "hostile", fake_model_server.openai_base_url)
    )
    load = os.getloadavg()[0]
    started, started_cpu = time.perf_counter(), time.process_time()
    try:
        result = run_writer(
            home, workspace, _session(), provider, settings=WriterSettings(timeout_s=RUN_LIMIT_S)
        )
    finally:
        close_provider(provider)
    spent, cpu = time.perf_counter() - started, time.process_time() - started_cpu
    assert not result.timed_out and len(result.refused) <= 6
    record(
        "lessons-40k",
        Row(
            f"writer: one `record_lessons` call of {LESSONS:,} lessons refused",
            f"{spent:.2f} s ({cpu:.2f} s CPU, load {load:.1f})",
            f"within the run's {RUN_LIMIT_S:g} s",
        ),
    )
