"""`parse_strict_json`: JSON and nothing more lenient — what is not JSON is a JsonError,
JSON holding what a strict reader refuses a JsonValueError, never a RecursionError."""

from __future__ import annotations

import pytest

from memtab.fs.jsonfile import JsonError, JsonValueError, parse_json, parse_strict_json

NOT_JSON = [
    ("\ufeff{}", "byte order mark"),
    ('{"a": NaN}', "NaN is not a JSON number"),
    ('{"a": -Infinity}', "-Infinity is not a JSON number"),
    ('{"a": "\x00"}', "Invalid control character"),
    ("{} {}", "Extra data"),
    ('{"a": 1', "not valid JSON"),
]
REFUSED_VALUES = [
    ('{"a": "\\ud800"}', "lone surrogate"),
    ('{"\\udc00": 1}', "lone surrogate"),
    ('{"a": 1e999}', r"past a float's range \(1e999\)"),
    ('{"a": -1E400}', "past a float's range"),
    ("[" * 129 + "]" * 129, "more than 128 levels"),
    ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
]


@pytest.mark.parametrize(("text", "reason"), NOT_JSON)
def test_what_is_not_json_is_a_json_error(text: str, reason: str) -> None:
    with pytest.raises(JsonError, match=reason) as refused:
        parse_strict_json(text)
    assert not isinstance(refused.value, JsonValueError)


@pytest.mark.parametrize(("text", "reason"), REFUSED_VALUES)
def test_json_a_strict_reader_refuses_is_a_json_value_error(text: str, reason: str) -> None:
    with pytest.raises(JsonValueError, match=reason):
        parse_strict_json(text)


def test_json_reads_as_json_reads_it() -> None:
    text = '{"a": "\\ud83d\\ude00 \\\\ud800", "b": [1.5, -2e10, 10], "c": ' + "[" * 127 + "]" * 127
    value = parse_strict_json(text + "}")
    assert value == parse_json(text + "}")
    assert value["a"] == "😀 \\ud800"  # a pair, and an escaped backslash: no surrogate


def test_the_tolerant_reader_still_takes_what_other_programs_write() -> None:
    assert parse_json('\ufeff{"a": NaN, "b": "\\ud800"}')["b"] == "\ud800"
