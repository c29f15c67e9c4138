"""How fast a model server on this machine reads and writes, as its replies say: llama.cpp's
`timings` on every reply, Ollama's durations (its OpenAI-compatible replies say none, so a
short prompt of its own API is timed), kept per server and model in a private cache that
each run refreshes; a figure no server could give is no measure (issue 95)."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from memtab.fs.config.config_dir import cache_dir
from memtab.llm.local_servers import probe_speed
from memtab.llm.openai import OpenAIProvider
from memtab.llm.speed import (
    MAX_KEPT,
    SPEEDS_FILE,
    Speed,
    known_speed,
    measured_speed,
    remember_speed,
    step_of,
    stepped,
    timings_of,
)
from memtab.llm.types import Timings, UserMessage
from support.fake_model_server import FakeModelServer, json_response, openai_completion
from support.private_modes import mode_of

MODEL = "qwen2.5-coder:1.5b"
# What llama-server -t 1 answered for Qwen2.5-Coder-1.5B on this machine (a real reply's).
LLAMA_TIMINGS = {
    "cache_n": 1385,
    "prompt_n": 307,
    "prompt_ms": 15649.534,
    "prompt_per_token_ms": 50.97568078175895,
    "prompt_per_second": 19.61719754722409,
    "predicted_n": 52,
    "predicted_ms": 12205.291,
    "predicted_per_token_ms": 239.31943137254902,
    "predicted_per_second": 4.178515694545915,
}
# Ollama's documented reply of /api/generate, durations in nanoseconds.
OLLAMA_REPLY = {
    "model": MODEL,
    "response": "pytest",
    "done": True,
    "total_duration": 9_500_000_000,
    "load_duration": 1_200_000_000,
    "prompt_eval_count": 96,
    "prompt_eval_duration": 6_400_000_000,
    "eval_count": 8,
    "eval_duration": 2_000_000_000,
}


def test_a_llama_cpp_reply_says_what_it_took(fake_model_server: FakeModelServer) -> None:
    body = openai_completion("done") | {"timings": LLAMA_TIMINGS}
    fake_model_server.add(json_response(body, wire="openai"))
    with OpenAIProvider("qwen", None, fake_model_server.openai_base_url) as provider:
        reply = provider.complete("", [UserMessage("hi")], [])
    assert reply.timings == Timings(307, 15649.534 / 1000, 52, 12205.291 / 1000)
    speed = measured_speed([reply.timings])
    assert speed is not None
    assert round(speed.prompt_per_s, 1) == 19.6 and round(speed.output_per_s, 2) == 4.26


def test_ollama_s_durations_are_read_in_nanoseconds() -> None:
    assert timings_of(OLLAMA_REPLY) == Timings(96, 6.4, 8, 2.0)


@pytest.mark.parametrize(
    "timings",
    [
        {"prompt_n": "307", "prompt_ms": 15.0, "predicted_n": 52, "predicted_ms": 12.0},
        {"prompt_n": 307, "prompt_ms": -1, "predicted_n": 52, "predicted_ms": 12.0},
        {"prompt_n": 307, "prompt_ms": 15.0, "predicted_n": True, "predicted_ms": 12.0},
        {"prompt_n": 10**30, "prompt_ms": 15.0, "predicted_n": 52, "predicted_ms": 12.0},
        {"prompt_n": 307, "prompt_ms": 1e300, "predicted_n": 52, "predicted_ms": 12.0},
        {"prompt_n": 307, "prompt_ms": 15.0, "predicted_n": 52},
        [],
    ],
)
def test_timings_no_server_could_give_are_none(timings: Any) -> None:
    assert timings_of({"timings": timings}) is None


def test_too_few_tokens_measure_nothing_and_what_was_known_stands() -> None:
    known = Speed(20.0, 5.0)
    cached_prompt = Timings(prompt_tokens=3, prompt_s=0.01, output_tokens=40, output_s=10.0)
    assert measured_speed([cached_prompt], known) == Speed(20.0, 4.0)
    assert measured_speed([cached_prompt]) is None
    instant = Timings(prompt_tokens=500, prompt_s=0.0, output_tokens=40, output_s=0.0)
    assert measured_speed([instant], known) == known


def test_speeds_are_kept_per_server_and_model_in_a_private_file(umask: int) -> None:
    server = "http://127.0.0.1:8080/v1"
    remember_speed(server, "qwen-1.5b", Speed(14.25, 4.1), at_ms=1_000)
    remember_speed(server, "qwen-0.5b", Speed(40.0, 12.0), at_ms=2_000)
    remember_speed(server, "qwen-1.5b", Speed(12.0, 3.9), at_ms=3_000)

    kept = known_speed(server, "qwen-1.5b")
    assert kept is not None and (kept.prompt_per_s, kept.output_per_s) == (12.0, 3.9)
    assert kept.measured_at == 3_000
    other = known_speed(server, "qwen-0.5b")
    assert other is not None and other.prompt_per_s == 40.0
    assert known_speed("http://127.0.0.1:11434/v1", "qwen-1.5b") is None
    path = cache_dir() / SPEEDS_FILE
    assert mode_of(path) == 0o600 and mode_of(path.parent) == 0o700
    document = json.loads(path.read_text(encoding="utf-8"))
    assert document["speeds"][0] == {
        "server": server,
        "model": "qwen-1.5b",
        "promptPerS": 12.0,
        "outputPerS": 3.9,
        "measuredAt": 3_000,
    }


def test_the_cache_keeps_the_most_recently_measured() -> None:
    for number in range(MAX_KEPT + 5):
        remember_speed("http://127.0.0.1:8080/v1", f"m{number}", Speed(10, 2), at_ms=number)
    assert known_speed("http://127.0.0.1:8080/v1", f"m{MAX_KEPT + 4}") is not None
    assert known_speed("http://127.0.0.1:8080/v1", "m0") is None
    document = json.loads((cache_dir() / SPEEDS_FILE).read_text(encoding="utf-8"))
    assert len(document["speeds"]) == MAX_KEPT


@pytest.mark.parametrize(
    "content",
    [
        b"not json",
        b'{"version": 2, "speeds": []}',
        json.dumps(
            {
                "version": 1,
                "speeds": [
                    {
                        "server": "s",
                        "model": "m",
                        "promptPerS": 0,
                        "outputPerS": 3,
                        "measuredAt": 1,
                    },
                    {
                        "server": "s",
                        "model": "m",
                        "promptPerS": "fast",
                        "outputPerS": 3,
                        "measuredAt": 1,
                    },
                ],
            }
        ).encode(),
    ],
)
def test_a_damaged_cache_is_measured_anew(content: bytes) -> None:
    path = cache_dir() / SPEEDS_FILE
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(content)
    assert known_speed("s", "m") is None
    remember_speed("s", "m", Speed(10, 2), at_ms=5)
    assert known_speed("s", "m") is not None


def test_a_link_at_the_cache_s_name_is_never_followed(tmp_path: Path) -> None:
    target = tmp_path / "elsewhere.json"
    target.write_text("kept", encoding="utf-8")
    path = cache_dir() / SPEEDS_FILE
    path.parent.mkdir(parents=True, exist_ok=True)
    os.symlink(target, path)
    remember_speed("s", "m", Speed(10, 2), at_ms=5)
    assert target.read_text(encoding="utf-8") == "kept"
    assert not path.is_symlink() and known_speed("s", "m") is not None


def ollama(server: FakeModelServer) -> None:
    server.routes["/api/show"] = {"model_info": {"general.architecture": "qwen2"}}
    server.routes["/api/ps"] = {"models": []}
    server.routes["/api/generate"] = OLLAMA_REPLY


def test_ollama_is_timed_on_a_short_prompt_of_its_own_api(
    fake_model_server: FakeModelServer,
) -> None:
    ollama(fake_model_server)
    timings = probe_speed(fake_model_server.openai_base_url, MODEL, nonce=42)
    assert timings == Timings(96, 6.4, 8, 2.0)
    assert fake_model_server.requests == []  # no request of the model's chat


def test_only_ollama_on_this_machine_is_timed(fake_model_server: FakeModelServer) -> None:
    fake_model_server.routes["/api/generate"] = OLLAMA_REPLY  # but no /api/show: not Ollama
    assert probe_speed(fake_model_server.openai_base_url, MODEL, nonce=1) is None
    assert probe_speed("https://api.openai.com/v1", MODEL, nonce=1) is None


LLAMA_PROPS = {"default_generation_settings": {"n_ctx": 16384}}


def test_a_llama_cpp_server_is_timed_on_a_short_prompt_read_whole(
    fake_model_server: FakeModelServer,
) -> None:
    """A run on a server never measured (a fresh home, a new model) is sized from the start."""
    fake_model_server.props = LLAMA_PROPS
    fake_model_server.routes["/completion"] = {"content": "pytest", "timings": LLAMA_TIMINGS}
    timings = probe_speed(fake_model_server.openai_base_url, MODEL, nonce=42)
    assert timings == Timings(307, 15649.534 / 1000, 52, 12205.291 / 1000)
    assert fake_model_server.requests == []  # no request of the model's chat


def test_a_server_s_runs_are_planned_at_a_step_that_its_load_does_not_move() -> None:
    """This machine's one-thread server read 20–27 tokens a second in one hour of batch6 and
    3.9–46.6 in another: what a run asks is planned at a step of a ladder (four to a doubling)
    below the measure, held while later measures stay from what the plan holds time for (the
    step over 1.6) to four times it."""
    assert stepped(Speed(23.4, 14.0)) == Speed(2**4.5, 2**3.75)  # 22.6, 13.5
    assert stepped(Speed(16.0, 31.9), Speed(16.0, 8.0)) == Speed(16.0, 8.0)  # held
    assert stepped(Speed(10.0, 5.0), Speed(16.0, 8.0)) == Speed(16.0, 8.0)  # held: still in time
    assert stepped(Speed(64.0, 4.9), Speed(16.0, 8.0)) == Speed(64.0, 2**2.25)  # moved: its own
    assert stepped(Speed(9.9, 8.0), Speed(16.0, 8.0)) == Speed(2**3.25, 8.0)  # slower than planned
    assert all(step_of(2 ** (k / 4)) == 2 ** (k / 4) for k in range(-40, 80))  # a step is its own
