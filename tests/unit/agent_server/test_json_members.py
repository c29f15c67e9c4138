"""One member of an agent's JSON file set in place: the value's text spliced in at its span,
or a new member laid out as its neighbours, every other character as it was."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from memtab.agent_server.config_files.json_members import (
    JsonEditError,
    member_value,
    set_member,
)

PATH = ("mcpServers", "memtab")
ENTRY = {"type": "stdio", "command": "/m", "args": ["mcp"], "env": {}}
PRETTY_ENTRY = (
    '"memtab": {\n'
    '      "type": "stdio",\n'
    '      "command": "/m",\n'
    '      "args": [\n'
    '        "mcp"\n'
    "      ],\n"
    '      "env": {}\n'
    "    }"
)


def test_what_json_loads_would_change_is_kept_character_for_character() -> None:
    text = '{"big": 1e400, "lone": "\\ud800", "odd" :[ 1,2 ] , "mcpServers": {}}'
    edited, status = set_member(text, PATH, ENTRY)
    assert status == "added"
    assert edited == (
        '{"big": 1e400, "lone": "\\ud800", "odd" :[ 1,2 ] , "mcpServers": {"memtab": '
        '{"type": "stdio", "command": "/m", "args": ["mcp"], "env": {}}}}'
    )


def test_a_member_is_added_after_the_last_with_the_files_own_indentation() -> None:
    text = (
        '{\n  "numStartups": 3,\n  "mcpServers": {\n    "a": {\n      "command": "b"\n    }\n'
        "  }\n}\n"
    )
    edited, _ = set_member(text, PATH, ENTRY)
    assert edited == text.replace('"b"\n    }\n', '"b"\n    },\n    ' + PRETTY_ENTRY + "\n")
    tabs = '{\n\t"x": 1e400\n}'
    edited, _ = set_member(tabs, PATH, "m")
    assert edited == '{\n\t"x": 1e400,\n\t"mcpServers": {\n\t\t"memtab": "m"\n\t}\n}'
    crlf = '{\r\n    "x": 1\r\n}\r\n'
    edited, _ = set_member(crlf, PATH, "m")
    assert (
        edited
        == '{\r\n    "x": 1,\r\n    "mcpServers": {\r\n        "memtab": "m"\r\n    }\r\n}\r\n'
    )
    compact = '{"x":1,"y":[{"z":null}]}'
    assert set_member(compact, PATH, "m")[0] == compact[:-1] + ',"mcpServers":{"memtab":"m"}}'


def test_an_empty_object_or_file_gets_the_member_laid_out_as_claude_code_writes() -> None:
    assert set_member("{}", PATH, "m")[0] == '{\n  "mcpServers": {\n    "memtab": "m"\n  }\n}'
    assert set_member('{\n  "mcpServers": {}\n}', PATH, "m")[0] == (
        '{\n  "mcpServers": {\n    "memtab": "m"\n  }\n}'
    )
    assert set_member(" \n", PATH, "m") == (
        '{\n  "mcpServers": {\n    "memtab": "m"\n  }\n}\n',
        "added",
    )


def test_an_existing_member_has_only_its_value_replaced() -> None:
    text = (
        '\ufeff{\n  "mcpServers": {\n    "memtab": {"command": "/old"},\n    "b": 1\n  },\n'
        '  "n": 1e400\n}'
    )
    edited, status = set_member(text, PATH, ENTRY)
    assert status == "updated"
    assert edited == text.replace('"memtab": {"command": "/old"}', PRETTY_ENTRY)
    assert set_member(edited, PATH, ENTRY) == (edited, "unchanged")
    assert member_value(edited, PATH) == (True, ENTRY)


def test_jsonc_comments_and_trailing_commas_stay_where_they_were() -> None:
    text = '// xum\n{\n  "servers": {\n    "gh": "gh-mcp", // mine\n  },\n  /* end */\n}\n'
    edited, _ = set_member(text, ("servers", "memtab"), "m", jsonc=True)
    assert edited == text.replace("// mine\n", '// mine\n    "memtab": "m",\n')
    text = '{\n  "servers": {\n    "gh": "gh-mcp" // mine\n  }\n}'
    edited, _ = set_member(text, ("servers", "memtab"), "m", jsonc=True)
    assert edited == '{\n  "servers": {\n    "gh": "gh-mcp", // mine\n    "memtab": "m"\n  }\n}'
    text = '{"servers": {\n  // none yet\n}}'
    edited, _ = set_member(text, ("servers", "memtab"), "m", jsonc=True)
    assert edited == '{"servers": {\n  // none yet\n  "memtab": "m"\n}}'
    with pytest.raises(JsonEditError, match="line 1, column 2"):
        set_member("{// no\n}", PATH, "m")  # comments are JSONC's, not JSON's


def test_a_comment_ends_at_its_first_closing_even_where_a_later_one_follows() -> None:
    """The object closes on its last member's line, a comment on each side of the brace:
    the member goes right after the last value, not after the later comment's `*/`."""
    text = '{\n  "servers": {\n    "gh": "gh-mcp" /* a */ } /* b */\n}'
    edited, _ = set_member(text, ("servers", "memtab"), "m", jsonc=True)
    assert edited == text.replace('"gh-mcp" ', '"gh-mcp",\n    "memtab": "m" ')


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ('{"a": 1', "ends before its value does (line 1, column 8)"),
        ('{"a": 1,}', "is not valid JSON (line 1, column 9)"),
        ('{"a": [1,]}', "is not valid JSON (line 1, column 10)"),
        ('{"a": NaN}', "is not valid JSON (line 1, column 7)"),
        ('{"a": 01}', "is not valid JSON (line 1, column 8)"),
        ('{"a": "\x01"}', "is not valid JSON (line 1, column 7)"),
        ('{"a"\n 1}', "is not valid JSON (line 2, column 2)"),
        ("{} {}", "is not valid JSON (line 1, column 4)"),
        ("[]", "does not hold a JSON object"),
        ('{"mcpServers": []}', "holds a 'mcpServers' that is not a JSON object"),
        ('{"mcpServers": {}, "mcpServers": {}}', "holds 'mcpServers' more than once"),
        ('{"mcpServers": {"memtab": 1, "memtab": 2}}', "'mcpServers.memtab' more than once"),
    ],
)
def test_text_that_is_not_what_it_should_be_is_refused_in_words(text: str, why: str) -> None:
    with pytest.raises(JsonEditError) as error:
        set_member(text, PATH, "m")
    assert why in str(error.value)


def test_deep_nesting_off_the_path_is_read_without_recursion() -> None:
    deep = "[" * 100_000 + "]" * 100_000
    edited, _ = set_member(f'{{"a": {deep}}}', PATH, "m")
    assert edited.startswith(f'{{"a": {deep},')


_SCALARS = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text()
)
_VALUES = st.recursive(
    _SCALARS,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(), inner, max_size=3),
    max_leaves=8,
)
_OTHERS = st.dictionaries(st.text().filter(lambda key: key != "mcpServers"), _VALUES, max_size=4)


@given(
    others=_OTHERS,
    servers=st.none() | st.dictionaries(st.sampled_from(["a", "z"]), _VALUES),
    had_memtab=st.booleans(),
    indent=st.sampled_from([None, 0, 2, 4, "\t"]),
    ascii_only=st.booleans(),
)
def test_only_the_members_text_changes_whatever_the_document(
    others: dict[str, Any],
    servers: dict[str, Any] | None,
    had_memtab: bool,
    indent: Any,
    ascii_only: bool,
) -> None:
    if servers is not None and had_memtab:
        servers = {**servers, "memtab": _OLD}
    document = others if servers is None else {**others, "mcpServers": servers}
    text = json.dumps(document, indent=indent, ensure_ascii=ascii_only)
    edited, status = set_member(text, PATH, ENTRY)
    assert json.loads(edited) == {**others, "mcpServers": {**(servers or {}), "memtab": ENTRY}}
    head = _common_prefix(text, edited)
    tail = _common_prefix(text[head:][::-1], edited[head:][::-1])
    if servers is not None and had_memtab:
        old = text.index(json.dumps(_OLD))  # what changed lies within the old value
        assert old <= head and len(text) - tail <= old + len(json.dumps(_OLD))
        assert status == "updated"
    else:
        assert head + tail == len(text) and status == "added"  # only added


_OLD = "@@the old entry@@"


def _common_prefix(one: str, other: str) -> int:
    size = 0
    for a, b in zip(one, other, strict=False):
        if a != b:
            break
        size += 1
    return size
