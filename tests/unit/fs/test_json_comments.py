"""JSON with comments read as plain JSON: one stripper for Gemini CLI's settings and xum's
mcp.jsonc (`fs.jsonfile.strip_json_comments`)."""

from __future__ import annotations

import json

import pytest

from memtab.fs.jsonfile import strip_json_comments


def test_json_comments_are_stripped_outside_strings_only() -> None:
    text = '{"a": "http://x/*y*/", // c\n "b": 1 /* d */}'
    assert json.loads(strip_json_comments(text)) == {"a": "http://x/*y*/", "b": 1}


def test_every_character_keeps_its_place() -> None:
    text = '{"a": 1, // one\n /* two\r\n lines */ "b": "//"}'
    stripped = strip_json_comments(text)
    assert len(stripped) == len(text)
    assert [i for i, c in enumerate(text) if c in "\r\n"] == [
        i for i, c in enumerate(stripped) if c in "\r\n"
    ]


def test_trailing_commas_stay_unless_asked_as_gemini_cli_reads_them() -> None:
    text = '{"a": [1, 2, /* last */ ], "b": {"c": ",]",}, // end\n}'
    with pytest.raises(json.JSONDecodeError):
        json.loads(strip_json_comments(text))
    assert json.loads(strip_json_comments(text, trailing_commas=True)) == {
        "a": [1, 2],
        "b": {"c": ",]"},
    }


def test_a_comma_between_values_is_kept() -> None:
    text = '[1, "x", // c\n 2, {"k": [3,]},]'
    assert json.loads(strip_json_comments(text, trailing_commas=True)) == [1, "x", 2, {"k": [3]}]
