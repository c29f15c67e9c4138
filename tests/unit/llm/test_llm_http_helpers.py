"""Pure helpers of the HTTP layer: retry-after parsing, safe URL display, argument parsing."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from email.utils import format_datetime

import pytest

from memtab.llm.http import display_url, parse_retry_after
from memtab.llm.wire import parse_tool_arguments

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
