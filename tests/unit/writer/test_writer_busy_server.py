"""A writer run never waits behind an earlier request on a model server on this machine (issue
95): a one-thread llama.cpp server goes on reading a prompt whose client gave up, for minutes,
so a run first asks whether the server is busy (`GET /slots`), waits within its time, and when
the server is still busy, or does not answer a short probe of its speed, sends nothing, writes
the offline notes and says why. Time is a driven clock; the server is a stand-in."""

from __future__ import annotations

from typing import Any

import pytest

from memtab.llm.pace import BUSY, BUSY_POLL_S, BUSY_WAIT_SHARE
from memtab.llm.speed import remember_speed
from memtab.store.home import Home
from memtab.store.sidecars.registry import Workspace
from memtab.writer.config import WriterSettings
from memtab.writer.job.run import run_writer
from support.fake_model_server import FakeModelServer

from .local_model import notes
from .test_writer_fallback import Judging, keep, session
from .test_writer_pacing import MODEL, NOW_MS, SLOW, LocalServerModel

LLAMA_PROPS = {"default_generation_settings": {"n_ctx": 16384}}
TIMINGS = {"prompt_n": 58, "prompt_ms": 9000.0, "predicted_n": 8, "predicted_ms": 2500.0}
PROBED = {"content": "pytest", "timings": TIMINGS}
FELL_BACK = "the model's answer was not usable ({why}); the offline notes were written"


def slots(*processing: bool) -> list[dict[str, Any]]:
    """What this build of llama-server answers at `/slots` (-np 4 by default)."""
    return [{"id": n, "is_processing": busy, "n_ctx": 4096} for n, busy in enumerate(processing)]


class DrivenTime:
    """The run's clock and its waits: each pause moves the clock on; after `busy_for` seconds
    the stand-in server's slots are idle."""

    def __init__(self, server: FakeModelServer, busy_for: float | None) -> None:
        self.server, self.busy_for = server, busy_for
        self.now_ms = NOW_MS
        self.pauses: list[float] = []

    def clock(self) -> int:
        return self.now_ms

    def pause(self, seconds: float) -> bool:
        self.pauses.append(seconds)
        self.now_ms += round(seconds * 1000)
        if self.busy_for is not None and sum(self.pauses) >= self.busy_for:
            self.server.routes["/slots"] = slots(False, False, False, False)
        return False


def served_model(server: FakeModelServer, replies: list[Any]) -> LocalServerModel:
    model = LocalServerModel(replies)
    model.base_url = server.openai_base_url
    server.props = LLAMA_PROPS
    return model


def test_a_server_busy_the_whole_wait_is_sent_nothing_and_the_offline_notes_are_written(
    home: Home, workspace: Workspace, fake_model_server: FakeModelServer
) -> None:
    model = served_model(fake_model_server, [keep(1)])
    fake_model_server.routes["/slots"] = slots(False, False, False, True)
    fake_model_server.routes["/completion"] = PROBED
    time = DrivenTime(fake_model_server, busy_for=None)
    settings = WriterSettings(dump_successful_runs=True)
    result = run_writer(
        home, workspace, session(), model, clock=time.clock, pause=time.pause, settings=settings
    )
    assert model.calls == 0  # neither the probe's speed nor a request: nothing waits behind
    assert sum(time.pauses) == pytest.approx(300 * BUSY_WAIT_SHARE)
    assert max(time.pauses) <= BUSY_POLL_S
    says = FELL_BACK.format(why=BUSY)
    assert result.outcome == "wrote" and result.fallback == says
    assert result.plan == says  # said once
    assert "- Always use pnpm, never npm." in notes(home, workspace)


def test_a_run_waits_for_the_earlier_request_to_end_then_asks(
    home: Home, workspace: Workspace, fake_model_server: FakeModelServer
) -> None:
    model = Judging([])
    model.base_url = fake_model_server.openai_base_url
    fake_model_server.props = LLAMA_PROPS
    fake_model_server.routes["/slots"] = slots(True, False, False, False)
    remember_speed(model.base_url, MODEL, SLOW, at_ms=NOW_MS)
    time = DrivenTime(fake_model_server, busy_for=12)
    result = run_writer(home, workspace, session(), model, clock=time.clock, pause=time.pause)
    assert sum(time.pauses) == 12 and model.calls == 1
    assert result.fallback is None and result.outcome == "wrote"


def test_a_server_that_does_not_answer_the_speed_probe_is_sent_nothing(
    home: Home, workspace: Workspace, fake_model_server: FakeModelServer
) -> None:
    """Its speed unknown, the lessons task would be sent unsized (~1,900 tokens): on a server
    that could not read 58 tokens in the probe's time it outlasts the run, and the server
    reads on after the run gave up."""
    model = served_model(fake_model_server, [keep(1)])  # no /completion: the probe is refused
    time = DrivenTime(fake_model_server, busy_for=None)
    result = run_writer(home, workspace, session(), model, clock=time.clock, pause=time.pause)
    assert model.calls == 0 and time.pauses == []
    why = "the model server did not answer a short probe of its speed within 30 s"
    assert result.fallback == result.plan == FELL_BACK.format(why=why)
    assert "- Always use pnpm, never npm." in notes(home, workspace)
