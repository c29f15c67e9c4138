"""The real-model tier: the fixture runs `scripts/real-model` makes, and their cassettes.

A cassette (`tests/fixtures/real-model/<model>/<run>.json`) holds what a real model served
by llama.cpp's server answered in one run: each request (in brief: its message roles, its
last message, its tools, whether it asked for calls by schema, its reply limit) and the
reply as the server sent it. The script records them on a real home laid out here; the
ordinary tests replay them through the real provider, tool loop and job
(`CassetteTransport`), so `make test` needs no model and no network. A writer run on
that server is the lessons task (`memtab.writer.lessons`): a digest sent, lessons asked.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx2
import pytest

from memtab.store.home import Home
from memtab.store.paths import parse_file_path
from memtab.store.scopes.memory import MemoryStore, MemoryStoreError
from memtab.store.sidecars.registry import Workspace, add_workspace, load_registry

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures" / "shared"
CASSETTES = ROOT / "tests" / "fixtures" / "real-model"
PROJECT = "/src/fixture-project"
WORKSPACE_ID = "realmodel01"
# What the server was and how it served (the script's defaults; a cassette says its own).
SERVED_AS = "127.0.0.1:18181/v1"
LAST_MESSAGE_CHARS = 2000


@dataclass(frozen=True)
class WriterFixture:
    """A transcript the writer runs on: its run name and its file under FIXTURES."""

    name: str
    path: str


@dataclass(frozen=True)
class StoreFixture:
    """A memory store Consolidate now runs on: its files under FIXTURES, each name's
    prefix up to `marker` dropped and `__` read as `/`, laid out in the project scope."""

    name: str
    folder: str
    marker: str


WRITER_FIXTURES = (
    WriterFixture(
        "claude-init-session",
        "claude-code/d-kimuson-claude-code-viewer__mock-global-claude-dir__projects__"
        "sample-project__1af7fc5e-8455-4414-9ccd-011d40f70b2a.jsonl",
    ),
    WriterFixture(
        "claude-representative",
        "claude-code/daaain-claude-code-log__test__test_data__representative_messages.jsonl",
    ),
    WriterFixture(
        "claude-mem-session",
        "claude-code/thedotmack-claude-mem__tests__fixtures__claude-code-session.jsonl",
    ),
    WriterFixture(
        "codex-localpush",
        "codex/madshn-localpush__src-tauri__tests__fixtures__codex__2026-02-23__raw__sessions__"
        "rollout-2026-02-23T20-34-25-019c8bfe-ec25-79e0-97d7-bda6a9c575ff.jsonl",
    ),
    WriterFixture(
        "mux-replay-session",
        "mux/coder-mux__src__node__services__replay__fixtures__replay-session__chat.jsonl",
    ),
    WriterFixture(
        "claude-sample-session",
        "claude-code/simonw-claude-code-transcripts__tests__sample_session.jsonl",
    ),
    WriterFixture(
        "claude-todowrite",
        "claude-code/daaain-claude-code-log__test__test_data__todowrite_examples.jsonl",
    ),
    WriterFixture(
        "claude-edge-cases",
        "claude-code/daaain-claude-code-log__test__test_data__edge_cases.jsonl",
    ),
)
STORE_FIXTURES = (
    StoreFixture("codex-memories", "memory-stores/codex-memories", "__memories__"),
    StoreFixture("claude-code-auto-memory", "memory-stores/claude-code-auto-memory", "__memory__"),
    StoreFixture("loki-mode", "memory-stores/loki-mode", "__.loki__memory__"),
)


def fixture_home(root: Path) -> tuple[Home, Workspace]:
    """A fresh memory home at `root` with the one workspace every run uses."""
    home = Home(root)
    add_workspace(home, PROJECT, "fixture", workspace_id=WORKSPACE_ID, workspace_path=PROJECT)
    return home, load_registry(home).require_workspace(WORKSPACE_ID)


def store_files(store: StoreFixture) -> dict[str, str]:
    """The store's files as the project scope holds them: virtual path → text."""
    files: dict[str, str] = {}
    for path in sorted((FIXTURES / store.folder).iterdir()):
        rest = path.name.split(store.marker, 1)[1].replace("__", "/")
        files[f"/memories/project/{rest}"] = path.read_text(encoding="utf-8")
    return files


def lay_out_store(home: Home, workspace: Workspace, store: StoreFixture) -> list[str]:
    """Write the store's files into the workspace's project scope; the paths written (a
    file the store does not take, such as a JSON file where only Markdown is kept, is
    left out)."""
    memory = MemoryStore(home, workspace, actor="user")
    written = []
    for virtual, text in store_files(store).items():
        path = parse_file_path(virtual)
        try:
            if path.parent is not None and str(path.parent) != "/memories/project":
                memory.create_directory(path.parent)
        except MemoryStoreError:
            pass  # made for an earlier file
        try:
            memory.save(path, text, None)
        except MemoryStoreError:
            continue
        written.append(virtual)
    return written


def request_summary(body: Mapping[str, Any]) -> dict[str, Any]:
    """What a cassette keeps of a request: enough to see it is the same turn."""
    messages = body.get("messages") or []
    last = messages[-1] if messages else {}
    content = last.get("content") if isinstance(last, dict) else None
    text = content if isinstance(content, str) else json.dumps(last, ensure_ascii=False)
    return {
        "roles": [message.get("role") for message in messages if isinstance(message, dict)],
        "last": text[:LAST_MESSAGE_CHARS],
        "tools": [tool["function"]["name"] for tool in body.get("tools") or ()],
        "responseFormat": "response_format" in body,
        "maxTokens": body.get("max_tokens", body.get("max_completion_tokens")),
    }


class RecordingTransport(httpx2.BaseTransport):
    """httpx2's own transport, keeping each exchange for a cassette."""

    def __init__(self) -> None:
        self.inner = httpx2.HTTPTransport()
        self.exchanges: list[dict[str, Any]] = []

    def handle_request(self, request: httpx2.Request) -> httpx2.Response:
        summary = request_summary(json.loads(request.content or b"{}"))
        try:
            response = self.inner.handle_request(request)
            content = response.read()
        except httpx2.HTTPError as error:
            self.exchanges.append({"request": summary, "error": f"{type(error).__name__}"})
            raise
        try:
            reply: Any = json.loads(content)
        except ValueError:
            reply = content.decode("utf-8", errors="replace")
        self.exchanges.append({"request": summary, "status": response.status_code, "reply": reply})
        return httpx2.Response(response.status_code, headers=response.headers, content=content)

    def close(self) -> None:
        self.inner.close()


class CassetteTransport(httpx2.BaseTransport):
    """Answers each request with the next recorded reply, after checking it is the turn
    that was recorded (same roles, same tools, same wish for calls by schema)."""

    def __init__(self, exchanges: list[dict[str, Any]]) -> None:
        self.exchanges = [exchange for exchange in exchanges if "status" in exchange]
        self.used = 0

    def handle_request(self, request: httpx2.Request) -> httpx2.Response:
        assert self.used < len(self.exchanges), "a request the cassette did not record"
        recorded = self.exchanges[self.used]
        self.used += 1
        sent = request_summary(json.loads(request.content or b"{}"))
        for key in ("roles", "tools", "responseFormat"):
            assert sent[key] == recorded["request"][key], (key, sent[key], self.used)
        reply = recorded["reply"]
        # A cap planned otherwise replays the same reply so long as the reply fits under it.
        written = (
            reply.get("usage", {}).get("completion_tokens") if isinstance(reply, dict) else None
        )
        cap, recorded_cap = sent["maxTokens"], recorded["request"]["maxTokens"]
        if written is None or cap is None or recorded_cap is None or written >= recorded_cap:
            assert cap == recorded_cap, ("maxTokens", cap, self.used)
        else:
            assert cap > written, ("maxTokens", cap, "the recorded reply wrote", written, self.used)
        content = json.dumps(reply).encode() if not isinstance(reply, str) else reply.encode()
        return httpx2.Response(
            recorded["status"], headers={"content-type": "application/json"}, content=content
        )


def cassette_path(model: str, run: str) -> Path:
    return CASSETTES / model / f"{run}.json"


def read_cassette(model: str, run: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(cassette_path(model, run).read_text(encoding="utf-8"))
    return data


def write_cassette(model: str, run: str, data: Mapping[str, Any]) -> Path:
    path = cassette_path(model, run)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    return path


def cassette_params(kind: str, logger: str, failed_log: str) -> list[Any]:
    """A `pytest.param` for each recorded run of `kind`, a failed one declaring the
    warning its job logs (`logger`, a regex of `failed_log`)."""
    params = []
    for path in sorted(CASSETTES.glob("*/*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        if data["kind"] != kind:
            continue
        marks = []
        if data["outcome"] == "failed":
            marks.append(pytest.mark.expect_log(logger, "WARNING", failed_log))
        params.append(pytest.param(path, marks=marks, id=f"{path.parent.name}-{path.stem}"))
    return params
