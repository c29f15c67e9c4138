"""Fixtures for the writer's tests: a home with one workspace, and mux transcripts."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from memtab.llm.anthropic import AnthropicProvider
from memtab.llm.http import HttpOptions
from memtab.llm.openai import OpenAIProvider
from memtab.store.home import Home
from memtab.store.sidecars.registry import Workspace, add_workspace, load_registry
from support.fake_model_server import FakeModelServer

from .helpers import ANTHROPIC_KEY, OPENAI_KEY, PROJECT, WORKSPACE_ID

FAST = HttpOptions(
    timeout_s=5.0, connect_timeout_s=2.0, max_retries=1, backoff_base_s=0.001, backoff_max_s=0.01
)


@pytest.fixture
def home(tmp_path: Path) -> Home:
    """An empty memory home."""
    return Home(tmp_path / "home")


@pytest.fixture
def workspace(home: Home) -> Workspace:
    """A registered workspace of a single-project home."""
    add_workspace(home, PROJECT, "main", workspace_id=WORKSPACE_ID, workspace_path=PROJECT)
    return load_registry(home).require_workspace(WORKSPACE_ID)


@pytest.fixture
def anthropic(fake_model_server: FakeModelServer) -> Iterator[AnthropicProvider]:
    """An Anthropic provider against the fake model server."""
    with AnthropicProvider(
        "claude-test", ANTHROPIC_KEY, fake_model_server.anthropic_base_url, options=FAST
    ) as provider:
        yield provider


@pytest.fixture
def openai(fake_model_server: FakeModelServer) -> Iterator[OpenAIProvider]:
    """An OpenAI-compatible provider against the fake model server."""
    with OpenAIProvider(
        "gpt-test", OPENAI_KEY, fake_model_server.openai_base_url, options=FAST
    ) as provider:
        yield provider
