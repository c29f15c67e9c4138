"""Whether a model server on this machine is busy with an earlier request (llama.cpp's `GET
/slots`, each slot's `is_processing`), and a run's request waiting for it while the request
still fits the run's time (issue 95: a one-thread llama-server reads on a prompt whose client
gave up, and every later request waits behind it). Time is a driven clock."""

from __future__ import annotations

from typing import Any

import pytest

from memtab.llm.local_servers import server_busy
from memtab.llm.pace import BUSY_POLL_S, Paced, RunPace
from memtab.llm.speed import Speed
from memtab.llm.types import UserMessage
from support.fake_model_server import FakeModelServer
from support.scripted_provider import ScriptedProvider


def slots(*processing: object) -> list[dict[str, Any]]:
    return [{"id": n, "is_processing": flag, "n_ctx": 4096} for n, flag in enumerate(processing)]


@pytest.mark.parametrize(
    ("answer", "busy"),
    [
        (slots(False, False, False, True), True),
        (slots(False, False, False, False), False),
        (slots(False, "yes"), None),  # not this server's answer
        ([], None),
        ({"error": "This server does not support slots endpoint."}, None),  # --no-slots
        (None, None),  # 404: another server
    ],
)
def test_a_llama_cpp_server_says_whether_a_slot_is_processing(
    fake_model_server: FakeModelServer, answer: Any, busy: bool | None
) -> None:
    fake_model_server.routes["/slots"] = answer
    assert server_busy(fake_model_server.openai_base_url) is busy


def test_a_remote_server_is_never_asked() -> None:
    assert server_busy("https://api.example.com/v1") is None


class Waits:
    """A run's clock in seconds and its pauses; the server's slots idle after `busy_for` s."""

    def __init__(self, server: FakeModelServer, busy_for: float | None) -> None:
        self.server, self.busy_for, self.now, self.pauses = server, busy_for, 0.0, []

    def pause(self, seconds: float) -> bool:
        self.pauses.append(seconds)
        self.now += seconds
        if self.busy_for is not None and self.now >= self.busy_for:
            self.server.routes["/slots"] = slots(False)
        return False


class LocalModel(ScriptedProvider):
    max_tokens = 512

    def __init__(self, base_url: str) -> None:
        super().__init__([])
        self.base_url = base_url


def paced(server: FakeModelServer, waits: Waits, limit_s: float) -> Paced:
    model = LocalModel(server.openai_base_url)
    pace = RunPace(limit_s, Speed(8.0, 3.0), now=lambda: waits.now, pause=waits.pause)
    return Paced(model, model, pace, fresh=True)


def test_a_request_waits_while_the_server_is_busy_and_is_then_asked(
    fake_model_server: FakeModelServer,
) -> None:
    fake_model_server.routes["/slots"] = slots(True)
    waits = Waits(fake_model_server, busy_for=9)
    wrapper = paced(fake_model_server, waits, limit_s=300)
    assert wrapper.may_ask([UserMessage("Which tool runs the tests? " * 10)])
    assert waits.now == pytest.approx(10) and set(waits.pauses) == {BUSY_POLL_S}
    assert not wrapper.pace.busy


def test_a_request_that_would_no_longer_fit_is_not_sent_to_a_busy_server(
    fake_model_server: FakeModelServer,
) -> None:
    fake_model_server.routes["/slots"] = slots(True)
    waits = Waits(fake_model_server, busy_for=None)
    wrapper = paced(fake_model_server, waits, limit_s=120)
    assert not wrapper.may_ask([UserMessage("Which tool runs the tests? " * 40)])
    assert wrapper.pace.busy
    assert 0 < waits.now < 120 * 0.9  # it gave up while the request still had to be read
