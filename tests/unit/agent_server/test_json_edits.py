"""Permission lists appended to in place and what Memtab added taken out again: each
removal the inverse of its addition, byte for byte, whatever the document and its layout;
an object or list left empty goes with it; TOML tables likewise."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from memtab.agent_server.config_files.json_edits import add_items, remove_items, remove_member
from memtab.agent_server.config_files.json_members import JsonEditError, set_member

ALLOW = ("permissions", "allow")
RULES = ["mcp__memtab__search", "mcp__memtab__view"]
SERVER = ("mcpServers", "memtab")


@pytest.mark.parametrize(
    ("before", "after"),
    [
        (
            '{\n  "permissions": {\n    "allow": [\n      "Read"\n    ]\n  }\n}\n',
            '{\n  "permissions": {\n    "allow": [\n      "Read",\n'
            '      "mcp__memtab__search",\n      "mcp__memtab__view"\n    ]\n  }\n}\n',
        ),
        (
            '{"permissions": {"allow": ["Read",  "Bash(ls)"]}}',
            '{"permissions": {"allow": ["Read",  "Bash(ls)",  "mcp__memtab__search",  '
            '"mcp__memtab__view"]}}',
        ),
        (
            '{\r\n\t"permissions": {\r\n\t\t"allow": []\r\n\t}\r\n}',
            '{\r\n\t"permissions": {\r\n\t\t"allow": [\r\n\t\t\t"mcp__memtab__search",\r\n'
            '\t\t\t"mcp__memtab__view"\r\n\t\t]\r\n\t}\r\n}',
        ),
        (
            '{\n  "model": "opus"\n}',
            '{\n  "model": "opus",\n  "permissions": {\n    "allow": [\n'
            '      "mcp__memtab__search",\n      "mcp__memtab__view"\n    ]\n  }\n}',
        ),
    ],
)
def test_rules_are_appended_as_the_list_is_laid_out(before: str, after: str) -> None:
    assert add_items(before, ALLOW, RULES) == (
        after,
        "added" if "allow" not in before else "updated",
    )
    assert add_items(after, ALLOW, RULES) == (after, "unchanged")


def test_taking_out_what_was_added_gives_the_text_back() -> None:
    for text in (
        '{\n  "permissions": {\n    "allow": ["Read"], // mine\n  },\n}\n',
        '{\n  "a": 1, // first\n  "b": [\n    2\n  ]\n}',
        '{\n  "a": 1 /* one */\n}',
    ):
        edited, _ = set_member(text, SERVER, {"x": 1}, jsonc=True)
        assert remove_member(edited, SERVER, jsonc=True) == (text, "removed")
    listed = '{\n  "permissions": {\n    "allow": ["Read"]\n  }\n}\n'
    edited, _ = add_items(listed, ALLOW, RULES)
    assert remove_items(edited, ALLOW, RULES) == (listed, "removed")


def test_what_a_removal_leaves_empty_goes_and_the_rest_stays() -> None:
    text = (
        '{\n  "permissions": {\n    "allow": [\n      "mcp__memtab__view"\n    ]\n  },\n  "x": 1\n}'
    )
    assert remove_items(text, ALLOW, RULES) == ('{\n  "x": 1\n}', "removed")
    kept = '{"permissions": {"allow": ["mcp__memtab__view"], "deny": ["Bash"]}}'
    assert remove_items(kept, ALLOW, RULES) == ('{"permissions": {"deny": ["Bash"]}}', "removed")
    first = '{\n  "mcpServers": {\n    "memtab": {},\n    "gh": "x"\n  }\n}'
    assert remove_member(first, SERVER) == (
        '{\n  "mcpServers": {\n    "gh": "x"\n  }\n}',
        "removed",
    )
    assert remove_member('{"a": 1}', SERVER) == ('{"a": 1}', "unchanged")
    assert remove_items('{"a": 1}', ALLOW, RULES) == ('{"a": 1}', "unchanged")


def test_a_list_memtab_cannot_read_or_no_list_is_refused() -> None:
    with pytest.raises(JsonEditError, match=r"'permissions\.allow' that is no list"):
        add_items('{"permissions": {"allow": "Read"}}', ALLOW, RULES)
    with pytest.raises(JsonEditError, match="a list with comments Memtab cannot add to"):
        add_items('{"permissions": {"allow": [ /* none yet */ ]}}', ALLOW, RULES, jsonc=True)
    with pytest.raises(JsonEditError, match=r"'mcpServers\.memtab' more than once"):
        remove_member('{"mcpServers": {"memtab": 1, "memtab": 2}}', SERVER)


_SCALARS = st.none() | st.booleans() | st.integers() | st.text(max_size=5)
_VALUES = st.recursive(
    _SCALARS,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner, max_size=3)
    ),
    max_leaves=6,
)
_OTHERS = st.dictionaries(
    st.text(max_size=4).filter(lambda key: key not in ("mcpServers", "permissions")),
    _VALUES,
    max_size=4,
)


@given(
    others=_OTHERS,
    servers=st.none() | st.dictionaries(st.sampled_from(["a", "z"]), _VALUES, min_size=1),
    allow=st.none() | st.lists(st.sampled_from(["Read", "Bash(ls)", "Edit"]), min_size=1),
    indent=st.sampled_from([None, 0, 2, 4, "\t"]),
)
def test_each_removal_undoes_its_addition_whatever_the_document(
    others: dict[str, Any], servers: dict[str, Any] | None, allow: list[str] | None, indent: Any
) -> None:
    document = dict(others)
    if servers is not None:
        document["mcpServers"] = servers
    if allow is not None:
        document["permissions"] = {"allow": allow}
    text = json.dumps(document, indent=indent)
    with_server, _ = set_member(text, SERVER, {"type": "stdio", "args": ["mcp"]})
    assert remove_member(with_server, SERVER) == (text, "removed")
    with_rules, _ = add_items(text, ALLOW, RULES)
    assert json.loads(with_rules)["permissions"]["allow"] == [*(allow or []), *RULES]
    assert remove_items(with_rules, ALLOW, RULES) == (text, "removed")


def test_a_jsonc_list_with_comments_is_added_to_and_given_back_byte_for_byte() -> None:
    """Gemini CLI's settings.json is JSON with comments: a list of allowed tools with a
    comment after an item (or a trailing comma, in xum's JSONC) is read without them, the
    rules go after its last item and its comment, and taking them out gives the text back
    (before, such a list was refused: "a list Memtab cannot read as plain JSON")."""
    text = (
        '{\n  "permissions": {\n    "allow": [\n      "Read", // files\n'
        '      "Bash(git)", /* vcs */\n    ],\n  },\n}'
    )
    edited, status = add_items(text, ALLOW, RULES, jsonc=True)
    assert status == "updated"
    assert edited == (
        '{\n  "permissions": {\n    "allow": [\n      "Read", // files\n'
        '      "Bash(git)", /* vcs */\n'
        + "".join(f'      "{rule}",\n' for rule in RULES)
        + "    ],\n  },\n}"
    )
    assert add_items(edited, ALLOW, RULES, jsonc=True) == (edited, "unchanged")
    assert remove_items(edited, ALLOW, RULES, jsonc=True) == (text, "removed")
    one_line = '{"permissions": {"allow": ["Read", /* c */]}}'
    edited, _ = add_items(one_line, ALLOW, RULES, jsonc=True)
    assert (
        edited
        == '{"permissions": {"allow": ["Read", '
        + ", ".join(f'"{rule}"' for rule in RULES)
        + ", /* c */]}}"
    )
    assert remove_items(edited, ALLOW, RULES, jsonc=True) == (one_line, "removed")
