"""Pure helpers of the HTTP layer: retry-after parsing, safe URL display, argument parsing."""

from __future__ import annotations

import subprocess
import sys
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime

import pytest

from memtab.llm.endpoints import display_url
from memtab.llm.http import parse_retry_after
from memtab.llm.wire import parse_tool_arguments
from support.fake_model_server import FakeModelServer

NOW = datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)


@pytest.mark.parametrize(
    ("headers", "expected"),
    [
        ({"Retry-After": "7"}, 7.0),
        ({"retry-after": "1.5"}, 1.5),
        ({"retry-after-ms": "250", "retry-after": "9"}, 0.25),
        ({"retry-after": format_datetime(NOW + timedelta(seconds=30), usegmt=True)}, 30.0),
        ({"retry-after": format_datetime(NOW - timedelta(seconds=30), usegmt=True)}, 0.0),
        ({"retry-after": "-3"}, 0.0),
        ({"retry-after": "soon"}, None),
        ({}, None),
    ],
)
def test_parse_retry_after(headers: dict[str, str], expected: float | None) -> None:
    assert parse_retry_after(headers, now=NOW) == expected


def test_display_url_hides_credentials_and_query() -> None:
    shown = display_url("https://user:hunter2@proxy.example/v1?key=abc#x")
    assert shown == "https://proxy.example/v1"
    assert display_url("HTTPS://Proxy.Example:8443/V1?k=1") == "https://proxy.example:8443/V1"


def test_describing_a_models_settings_loads_no_http_client() -> None:
    """The window shows what runs will use (Consolidate now's tooltip, Settings) without
    httpx2 (~6 MiB): the URL shown is the standard library's."""
    code = (
        "import sys; from memtab.llm.settings import ProviderSettings; "
        "shown = ProviderSettings('openai', 'gpt', 'https://u:p@h.example/v1?key=k').describe(); "
        "print(shown); loaded = {'httpx', 'httpx2'} & set(sys.modules); assert not loaded, loaded"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], check=False, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("openai · gpt · https://h.example/v1 · ")


def test_a_model_call_loads_one_http_client(fake_model_server: FakeModelServer) -> None:
    """httpx2, which the MCP SDK brings too: no second HTTP stack (httpx, httpcore, certifi)
    in the process of a model call."""
    fake_model_server.add_openai_reply(text="OK")
    code = (
        "import sys; from memtab.llm.settings import ProviderSettings, create_provider; "
        "from memtab.llm.types import UserMessage; "
        f"settings = ProviderSettings('openai', 'm', {fake_model_server.openai_base_url!r}); "
        "provider = create_provider(settings); "
        "print(provider.complete('s', [UserMessage('hi')], []).text); "
        "print(sorted({m.split('.')[0] for m in sys.modules} "
        "& {'httpx', 'httpcore', 'certifi', 'httpx2', 'httpcore2'}))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], check=False, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == ["OK", "['httpcore2', 'httpx2']"]


@pytest.mark.parametrize(
    ("raw", "arguments", "error_part"),
    [
        ('{"a": 1}', {"a": 1}, None),
        ({"a": 1}, {"a": 1}, None),
        ("", {}, None),
        (None, {}, None),
        ("{", None, "not valid JSON"),
        ("[1]", None, "got array"),
        ('"text"', None, "got str"),
        (7, None, "got int"),
    ],
)
def test_parse_tool_arguments(raw: object, arguments: object, error_part: str | None) -> None:
    parsed, _, error = parse_tool_arguments(raw)
    assert parsed == arguments
    if error_part is None:
        assert error is None
    else:
        assert error is not None and error_part in error
