"""Consolidate now sized to what the machine reads in the run's time, not only to the
context its server serves (issue 95): from the speed a server on this machine is planned at
(a step of what its replies' `timings` measured), a run that has time to read the store is
given its files, each result is shown as far as the plan's time left reads it (lowered when
the machine measures slower than its step), each reply limited to what that time writes,
and the run stops before a request it has no time for — ending within its limit with a
result that says what it left, and the next run starts there. (A store the run has no time
to read is read by code and judged: test_judged_runs.) Time here is the run's clock, which
the fake server moves on as a server reading 10 tokens a second and writing 4 (the issue's
machine) would."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

import pytest

from memtab.consolidation.engine.runner import RunLimits
from memtab.consolidation.errors import RunFailedError
from memtab.consolidation.service import ConsolidationService
from memtab.llm.loop import DEFAULT_TIMEOUT_S
from memtab.llm.openai import OpenAIProvider
from memtab.llm.pace import BUSY_SLOWDOWN, SAFETY_SHARE, pace_of
from memtab.llm.speed import Speed, known_speed, remember_speed, stepped
from memtab.store.home import Home
from memtab.store.paths import parse_file_path
from memtab.store.scopes.memory import MemoryStore
from support.fake_model_server import (
    FakeModelServer,
    RecordedRequest,
    ScriptedResponse,
    json_response,
    openai_completion,
)

from .helpers import FAST_HTTP, WS, FakeClock, Wire, put

LIMIT_MS = DEFAULT_TIMEOUT_S * 1000
NOTES = [f"/memories/project/{name}.md" for name in ("a-build", "b-deploy", "c-style", "d-tests")]
NOTES += [f"/memories/project/{name}.md" for name in ("e-db", "f-ci")]
BIG = "/memories/project/MEMORY.md"
LISTED = re.compile(r"^(/memories/\S+) · ", re.MULTILINE)
QUIET = Speed(100.0, 40.0)
"""The speed the server was measured at on a quiet machine: ten times what it does now."""


def seed(store: MemoryStore) -> None:
    for number, path in enumerate(NOTES):
        lines = "".join(
            f"- Step {number}.{line}: run `make check-{line}` before pushing the branch.\n"
            for line in range(18)
        )
        put(store, path, f"---\ndescription: Notes {number} on how the team works\n---\n{lines}")
    body = "".join(
        f"- Entry {line}: the deploy key lives in Vault, path ops/{line}.\n" for line in range(150)
    )
    put(store, BIG, f"---\ndescription: The index of every note\n---\n{body}")


class SlowLlama:
    """A llama.cpp server (its /props, `timings` on each reply) reading `prompt_per_s` and
    writing `output_per_s` tokens a second, on the run's `clock`: each reply moves it on by
    what the reply took. It keeps the prompt it read, as llama-server does, and reads only
    what a request adds. Its model views each listed file in turn, then answers."""

    def __init__(
        self,
        server: FakeModelServer,
        clock: FakeClock,
        prompt_per_s: float = 10.0,
        output_per_s: float = 4.0,
        *,
        sleep: bool = False,
    ) -> None:
        server.props = {"default_generation_settings": {"n_ctx": 32768}}
        self.server, self.clock = server, clock
        self.prompt_per_s, self.output_per_s = prompt_per_s, output_per_s
        self.sleep = sleep
        self.kept = ""
        self.took_ms: list[int] = []

    def serve(self, replies: int) -> None:
        for _ in range(replies):
            self.server.add_callback(self._respond)

    def _respond(self, request: RecordedRequest) -> ScriptedResponse:
        prompt = json.dumps(request.body["messages"], ensure_ascii=False)
        kept = next(
            (i for i, (a, b) in enumerate(zip(self.kept, prompt, strict=False)) if a != b), None
        )
        kept = min(len(self.kept), len(prompt)) if kept is None else kept
        self.kept = prompt
        text, calls = self._next_turn(request.body["messages"])
        body = openai_completion(text, calls, completion_id=f"chatcmpl-{len(self.took_ms)}")
        read = max((len(prompt) - kept) // 4, 1)
        written = max(len(json.dumps(body["choices"][0]["message"])) // 4, 1)
        if written > request.body["max_tokens"]:  # its limit: cut, as a server cuts it
            body = openai_completion("Merged the", finish_reason="length")
            written = request.body["max_tokens"]
        took = read / self.prompt_per_s + written / self.output_per_s
        body["timings"] = {
            "prompt_n": read,
            "prompt_ms": read / self.prompt_per_s * 1000,
            "predicted_n": written,
            "predicted_ms": written / self.output_per_s * 1000,
        }
        self.took_ms.append(round(took * 1000))
        if not self.sleep:
            self.clock.now += round(took * 1000)
        return json_response(body, delay=took if self.sleep else 0.0, wire="openai")

    @staticmethod
    def _next_turn(messages: list[dict[str, Any]]) -> tuple[str, list[tuple[str, Any]]]:
        listed = LISTED.findall(messages[1]["content"])
        viewed = {
            json.loads(call["function"]["arguments"])["path"]
            for message in messages
            if message["role"] == "assistant"
            for call in message.get("tool_calls") or ()
        }
        for path in listed:
            if path not in viewed:
                return "", [("memory", {"command": "view", "path": path})]
        return "No changes needed.", []


def listing(request: RecordedRequest) -> list[str]:
    return LISTED.findall(request.body["messages"][1]["content"])


def shown(requests: list[RecordedRequest]) -> list[str]:
    """Every tool result the model was sent, in order, once each."""
    results: dict[str, str] = {}
    for request in requests:
        for message in request.body["messages"]:
            if message["role"] == "tool":
                results.setdefault(message["tool_call_id"], message["content"])
    return list(results.values())


@pytest.fixture
def slow(fake_model_server: FakeModelServer, clock: FakeClock) -> SlowLlama:
    return SlowLlama(fake_model_server, clock)


def run_once(
    home: Home, wire: Wire, clock: FakeClock, slow: SlowLlama, **kwargs: Any
) -> tuple[str, list[RecordedRequest], int]:
    """One Consolidate now: its summary, its requests and the run's time in ms."""
    before, started = len(wire.server.requests), clock.now
    slow.serve(20)
    record = wire.service(home, clock=clock, **kwargs).run(WS, trigger="manual")
    while wire.server.pending:  # replies the run did not ask for are not the next run's
        wire.server._script.pop()
    return record.summary, wire.server.requests[before:], clock.now - started


def test_a_file_left_in_part_is_shown_from_where_the_last_run_left_off(
    fake_model_server: FakeModelServer,
    home: Home,
    store: MemoryStore,
    clock: FakeClock,
    slow: SlowLlama,
) -> None:
    wire = Wire("openai", fake_model_server)
    text = "".join(f"- Entry {n}: the deploy key lives in Vault.\n" for n in range(400))
    put(store, BIG, text)
    remember_speed(wire.settings().base_url or "", "gpt-test", QUIET)

    first, requests, _ = run_once(home, wire, clock, slow)
    [cut] = shown(requests)
    last = max(int(n) for n in re.findall(r"^(\d+)\t", cut, re.MULTILINE))
    assert cut.endswith(
        f"[Not shown: this run has no time left to read more on this machine (its limit is "
        f"300 s); its other {400 - last} lines are left for the next run. Make the changes you "
        "have found, then reply with your one-line summary.]"
    )
    left = f"the rest next run: MEMORY.md from line {last + 1}"
    assert first == f"no changes made (read none of the 1 file; {left})."

    remember_speed(wire.settings().base_url or "", "gpt-test", QUIET)  # quiet again
    _, requests, _ = run_once(home, wire, clock, slow)
    resumed = shown(requests)[0]
    assert resumed.startswith(
        f"[Lines 1–{last} of this file were read by an earlier run: shown from line {last + 1}. "
        f"View it with offset 1 to read them again.]\n{last + 1}\t- Entry {last}:"
    )

    path = parse_file_path(BIG)  # changed since: read from its start again
    store.save(path, "- Entry new: keys rotate monthly.\n" + text, store.read(path).sha256)
    remember_speed(wire.settings().base_url or "", "gpt-test", QUIET)
    _, requests, _ = run_once(home, wire, clock, slow)
    assert shown(requests)[0].startswith("1\t- Entry new: keys rotate monthly.")


def test_a_reply_may_write_only_what_the_time_left_holds(
    fake_model_server: FakeModelServer, home: Home, store: MemoryStore, clock: FakeClock
) -> None:
    wire = Wire("openai", fake_model_server)
    seed(store)
    remember_speed(wire.settings().base_url or "", "gpt-test", QUIET)
    slow = SlowLlama(fake_model_server, clock, QUIET.prompt_per_s, QUIET.output_per_s)
    clock_at: list[int] = []
    original: Callable[[RecordedRequest], ScriptedResponse] = slow._respond

    def noting(request: RecordedRequest) -> ScriptedResponse:
        clock_at.append(clock.now)
        return original(request)

    slow._respond = noting  # type: ignore[method-assign]
    _, requests, _ = run_once(home, wire, clock, slow)

    deadline = clock_at[0] + LIMIT_MS * (1 - SAFETY_SHARE)
    assert len(requests) > 2
    writes = stepped(QUIET).output_per_s / BUSY_SLOWDOWN
    for at, request in zip(clock_at, requests, strict=True):
        # what it may write takes no longer than the time left after reading it, at the
        # planned speed (the machine is no slower than its step)
        assert request.body["max_tokens"] / writes * 1000 <= deadline - at + 1


@pytest.mark.slow  # slow: a real server's real delays, on the run's real clock (3 s limit)
def test_on_a_server_too_slow_to_read_everything_the_run_ends_in_time_not_in_a_timeout(
    fake_model_server: FakeModelServer, home: Home, store: MemoryStore
) -> None:
    wire = Wire("openai", fake_model_server)
    seed(store)
    # 100 times the machine, in 1/100 of its time: reading all would take ~7 s.
    slow = SlowLlama(fake_model_server, FakeClock(), 1000.0, 400.0, sleep=True)
    slow.serve(20)
    service = ConsolidationService(
        home, settings=wire.settings(), http_options=FAST_HTTP, limits=RunLimits(timeout_s=3.0)
    )

    record = service.run(WS, trigger="manual")

    assert "the rest next run: " in record.summary  # no speed known: it measured as it read
    assert sum(slow.took_ms) < 3000 * (1 - SAFETY_SHARE)


def test_a_cloud_model_is_not_sized(clock: FakeClock) -> None:
    remember_speed("https://api.openai.com/v1", "gpt-test", Speed(10.0, 4.0))
    with OpenAIProvider("gpt-test", "sk-test", "https://api.openai.com/v1") as provider:
        assert pace_of(provider, 300.0, None, clock) is None


def test_ollama_is_timed_once_and_the_runs_sized_by_its_step(
    fake_model_server: FakeModelServer, home: Home, store: MemoryStore, clock: FakeClock
) -> None:
    wire = Wire("openai", fake_model_server)
    seed(store)
    info = {"general.architecture": "qwen2", "qwen2.context_length": 32768}
    fake_model_server.routes["/api/show"] = {"model_info": info}
    fake_model_server.routes["/api/ps"] = {
        "models": [{"name": "gpt-test", "context_length": 32768}]
    }
    fake_model_server.routes["/api/generate"] = {
        "prompt_eval_count": 96,
        "prompt_eval_duration": 9_600_000_000,
        "eval_count": 8,
        "eval_duration": 2_000_000_000,
    }
    record = wire.service(home, clock=clock).run(WS, trigger="manual")
    # too slow to read the store: read by code, which proposed nothing to ask about
    assert record.summary.startswith("no changes needed (code read every one of the 7 files")
    kept = known_speed(wire.settings().base_url or "", "gpt-test")
    assert kept is not None and (kept.prompt_per_s, kept.output_per_s) == (9.513657, 4.0)  # step

    fake_model_server.routes["/api/generate"] = {
        "prompt_eval_count": 96,
        "prompt_eval_duration": 4_800_000_000,
        "eval_count": 8,
        "eval_duration": 1_000_000_000,
    }
    for later_ms in (3_600_000, 24 * 3_600_000):  # an hour, a day on: not timed again
        clock.now += later_ms
        wire.service(home, clock=clock).run(WS, trigger="manual")
        assert known_speed(wire.settings().base_url or "", "gpt-test") == kept


@pytest.mark.expect_log("memtab.consolidation.engine.runner", "WARNING", r"run failed: .*timed out")
def test_a_server_slower_than_measured_fails_the_run_saying_its_speed(
    fake_model_server: FakeModelServer, home: Home, store: MemoryStore
) -> None:
    wire = Wire("openai", fake_model_server)
    seed(store)
    remember_speed(wire.settings().base_url or "", "gpt-test", Speed(100_000.0, 40_000.0))
    fake_model_server.props = {"default_generation_settings": {"n_ctx": 32768}}
    wire.reply("No changes needed.", delay=5.0)  # a machine busier than when measured
    service = wire.service(home, limits=RunLimits(timeout_s=0.5))

    with pytest.raises(RunFailedError) as failed:
        service.run(WS, trigger="manual")

    assert str(failed.value).endswith(
        "; the model server here reads about 92682 tokens a second and writes 38967.9"
    )


class HabitualLlama(SlowLlama):
    """As SlowLlama, its model viewing each file as Qwen2.5-Coder-1.5B does on the fixture
    stores: from line 1, ten lines at a time, whatever the run has time to read."""

    @staticmethod
    def _next_turn(messages: list[dict[str, Any]]) -> tuple[str, list[tuple[str, Any]]]:
        text, calls = SlowLlama._next_turn(messages)
        return text, [(name, {**arguments, "offset": 1, "limit": 10}) for name, arguments in calls]


def test_a_file_is_shown_when_the_time_left_writes_a_reply_though_not_a_change(
    fake_model_server: FakeModelServer, home: Home, store: MemoryStore, clock: FakeClock
) -> None:
    # A machine busier than when measured, writing 1 token a second (load 13 on 2 cores):
    # after the first reply no change of 160 tokens fits in the time left, yet the smallest
    # file and a reply do.
    wire = Wire("openai", fake_model_server)
    seed(store)
    put(store, "/memories/project/tiny.md", "- Use `make check`.\n")
    remember_speed(wire.settings().base_url or "", "gpt-test", Speed(400.0, 10.0))  # quiet

    summary, requests, took_ms = run_once(
        home, wire, clock, SlowLlama(fake_model_server, clock, 40.0, 1.0)
    )

    assert shown(requests)[0] == "1\t- Use `make check`."
    assert summary.startswith("no changes made (read ") and "; the rest next run: " in summary
    assert took_ms <= LIMIT_MS * (1 - SAFETY_SHARE)
