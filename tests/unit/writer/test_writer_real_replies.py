"""The writer on the fixture transcripts, replaying what a real model answered.

`scripts/real-model --record` ran the writer with Qwen2.5-Coder (1.5B and 0.5B, Q4) served
by llama.cpp's `llama-server` on one CPU thread, and kept each reply
(tests/fixtures/real-model/). Replayed here through the real provider, tool loop and
run — only the network is the cassette — each run ends as it ended then, writing what it
wrote. Those models write their tool calls as text; each run here finishing is the
transport of issue 82 at work (calls by JSON schema, calls read from text)."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any
from unittest import mock

import pytest

from memtab.llm.http import HttpOptions
from memtab.llm.settings import ProviderSettings, create_provider
from memtab.llm.settings_model import WRITER_JOB
from memtab.llm.types import close_provider
from memtab.writer.config import WriterSettings
from memtab.writer.job.providers import read_for_run
from memtab.writer.job.run import run_writer
from support.ports import refused_port
from support.real_model import (
    CASSETTES,
    FIXTURES,
    WRITER_FIXTURES,
    CassetteTransport,
    cassette_params,
    fixture_home,
)

TARGET_RUNS = [fixture.name for fixture in WRITER_FIXTURES[:5]]
# What each model wrote from its recorded replies, per fixture, each note judged as the
# user whose memory it is: true? useful to the next agent here?
KEPT_BY = {
    "1.5b": {
        # true (`bun test` ran and passed), useful: the command that runs the suite here (the
        # offline writer's note; the model's own for the same command is not written twice)
        "claude-mem-session": ["- `bun test` (tests)"],
        # true (the agent's answer), useful: where to start reading
        "mux-replay-session": ["- The entry point lives in src/main.ts."],
    },
    "0.5b": {
        # the offline writer's note: the model's answer kept nothing, and drops none
        "claude-mem-session": ["- `bun test` (tests)"],
        # true (the agent's answer), useful: where to start reading
        "mux-replay-session": ["- The entry point lives in src/main.ts."],
    },
}


def _replay(path: Path, tmp_path: Path) -> tuple[dict[str, Any], Any, CassetteTransport]:
    data = json.loads(path.read_text(encoding="utf-8"))
    transport = CassetteTransport(data["exchanges"])
    home, workspace = fixture_home(tmp_path / "home")
    # Each replay alone, as it was recorded: no speed of the server measured before it, and
    # no server running here answering for the one recorded.
    alone = mock.patch.dict(os.environ, {"MEMTAB_CONFIG_DIR": str(tmp_path / "config")})
    with refused_port() as port, alone:
        settings = ProviderSettings("openai", "qwen", f"http://127.0.0.1:{port}/v1")
        options = HttpOptions(transport=transport, max_retries=0)
        provider = create_provider(settings, options=options, job=WRITER_JOB)
        try:
            events, _ = read_for_run(provider, FIXTURES / data["fixture"])
            limit = WriterSettings(timeout_s=data["runLimitS"])
            result = run_writer(home, workspace, events, provider, settings=limit)
        finally:
            close_provider(provider)
    return data, result, transport


@pytest.mark.parametrize(
    "path", cassette_params("writer", "memtab.writer.job.run", "Memory writer failed")
)
def test_a_recorded_run_replays_to_the_same_end(path: Path, tmp_path: Path) -> None:
    data, result, transport = _replay(path, tmp_path)
    assert (result.outcome, result.error, result.after) == (
        data["outcome"],
        data["error"],
        data["after"],
    )
    assert transport.used == len(transport.exchanges), "every recorded reply was asked for"


def test_the_1_5b_model_finishes_on_at_least_4_of_the_5_transcripts(tmp_path: Path) -> None:
    """Issue 82's target: a note written or `no_new_memories` declared, no run cut by a
    request limit while the run's own limit stood."""
    finished = []
    for name in TARGET_RUNS:
        _, result, _ = _replay(CASSETTES / "1.5b" / f"{name}.json", tmp_path / name)
        assert not (result.timed_out and "one request" in (result.error or ""))
        if result.outcome in ("wrote", "no_new_memories"):
            finished.append(name)
    assert len(finished) >= 4, finished


def _notes_written(model: str, tmp_path: Path) -> dict[str, list[str]]:
    """Each fixture run's notes, as today's code writes them from the recorded replies."""
    written = {}
    for fixture in WRITER_FIXTURES:
        path = CASSETTES / model / f"{fixture.name}.json"
        _, result, _ = _replay(path, tmp_path / model / fixture.name)
        bullets = [line for line in result.after.splitlines() if line.startswith("- ")]
        if bullets:
            written[fixture.name] = bullets
    return written


def test_what_the_1_5b_model_writes_is_what_its_user_would_keep(tmp_path: Path) -> None:
    """Issue 82's target, read as the person whose memory it is: it writes some notes, at
    least half of them true and useful. Each is judged here."""
    assert _notes_written("1.5b", tmp_path) == KEPT_BY["1.5b"]


def test_what_the_0_5b_model_writes_holds_nothing_harmful(tmp_path: Path) -> None:
    """No secret, copied instruction, invented rule or words put in the user's mouth."""
    assert _notes_written("0.5b", tmp_path) == KEPT_BY["0.5b"]
