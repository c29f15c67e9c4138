"""Fixtures: each provider wired to the fake model server (see cases.py)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from memtab.llm.anthropic import AnthropicProvider
from memtab.llm.http import HttpChatProvider
from memtab.llm.openai import OpenAIProvider
from support.fake_model_server import FakeModelServer

from .cases import ANTHROPIC_KEY, FAST_OPTIONS, OPENAI_KEY, ProviderCase


@pytest.fixture(params=["anthropic", "openai"])
def case(request: pytest.FixtureRequest, fake_model_server: FakeModelServer) -> ProviderCase:
    """Each provider in turn, against the fake server."""
    if request.param == "anthropic":
        return ProviderCase("anthropic", fake_model_server, ANTHROPIC_KEY, "claude-test")
    return ProviderCase("openai", fake_model_server, OPENAI_KEY, "gpt-test")


@pytest.fixture
def provider(case: ProviderCase) -> Iterator[HttpChatProvider]:
    """The case's provider with fast retry settings, closed after the test."""
    made = case.make()
    yield made
    made.close()


@pytest.fixture
def anthropic(fake_model_server: FakeModelServer) -> Iterator[AnthropicProvider]:
    """An Anthropic provider against the fake server."""
    with AnthropicProvider(
        "claude-test", ANTHROPIC_KEY, fake_model_server.anthropic_base_url, options=FAST_OPTIONS
    ) as made:
        yield made


@pytest.fixture
def openai(fake_model_server: FakeModelServer) -> Iterator[OpenAIProvider]:
    """An OpenAI-compatible provider against the fake server."""
    with OpenAIProvider(
        "gpt-test", OPENAI_KEY, fake_model_server.openai_base_url, options=FAST_OPTIONS
    ) as made:
        yield made
