"""One table of an agent's TOML file set in place: its keys' values spliced in at their
spans, missing keys added beside them, a missing table added after its family; every
other character as it was, and a `[` inside a string or an array never taken for a header."""

from __future__ import annotations

import tomllib

import pytest

from memtab.agent_server.config_files.toml_tables import (
    TomlEditError,
    scan,
    set_keys,
    toml_array,
    toml_string,
)

TABLE = ("mcp_servers", "memtab")
VALUES = {"command": '"/m"', "args": '["mcp"]'}


def test_values_are_replaced_at_their_spans_and_comments_and_spacing_stay() -> None:
    text = (
        "# Codex   settings\n"
        "model = 'o3'   # mine\n"
        "\n"
        '  [ mcp_servers . "memtab" ]   # memtab\n'
        "    command   =  'old'   # the launcher\n"
        "    args = [\n"
        '      "x", # first\n'
        '      "y",\n'
        "    ]\n"
        '    env.A = "1"\n'
        "\n"
        "[profiles.fast]\n"
        "x = nan\n"
    )
    edited = set_keys(text, TABLE, VALUES)
    assert edited == (
        "# Codex   settings\n"
        "model = 'o3'   # mine\n"
        "\n"
        '  [ mcp_servers . "memtab" ]   # memtab\n'
        '    command   =  "/m"   # the launcher\n'
        '    args = ["mcp"]\n'
        '    env.A = "1"\n'
        "\n"
        "[profiles.fast]\n"
        "x = nan\n"
    )


def test_brackets_inside_strings_and_arrays_are_no_headers() -> None:
    text = (
        'notes = """\n[mcp_servers.memtab]\ncommand = "fake" \\"""\n"""\n'
        "lit = '''\n[x]'''\n"
        "when = 1979-05-27 07:32:00Z # a date with a space\n"
        'nested = [\n  ["[mcp_servers.memtab]"], # ]\n  { a = "]" },\n]\n'
        "[mcp_servers.memtab]\r\n"
        'command = "old"\r\n'
    )
    sections = scan(text)
    assert [section.key for section in sections] == [None, TABLE]
    assert [st.key for st in sections[0].statements] == [
        ("notes",),
        ("lit",),
        ("when",),
        ("nested",),
    ]
    edited = set_keys(text, TABLE, VALUES)
    assert edited == text.replace('"old"', '"/m"') + 'args = ["mcp"]\r\n'
    assert tomllib.loads(edited)["mcp_servers"]["memtab"] == {"command": "/m", "args": ["mcp"]}


def test_missing_keys_go_beside_their_neighbours_a_missing_table_after_its_family() -> None:
    assert set_keys('[mcp_servers.memtab]\nargs = ["x"]\n', TABLE, VALUES) == (
        '[mcp_servers.memtab]\ncommand = "/m"\nargs = ["mcp"]\n'
    )
    assert set_keys("[mcp_servers.memtab]", TABLE, VALUES) == (
        '[mcp_servers.memtab]\ncommand = "/m"\nargs = ["mcp"]\n'
    )
    text = 'a = 1\n\n[mcp_servers.gh]\n  command = "gh"\n\n# profiles\n[profiles]\n'
    assert set_keys(text, TABLE, VALUES) == (
        'a = 1\n\n[mcp_servers.gh]\n  command = "gh"\n\n'
        '[mcp_servers.memtab]\n  command = "/m"\n  args = ["mcp"]\n'
        "\n# profiles\n[profiles]\n"
    )
    assert set_keys("a = 1", TABLE, VALUES) == (
        'a = 1\n\n[mcp_servers.memtab]\ncommand = "/m"\nargs = ["mcp"]\n'
    )
    assert set_keys("", TABLE, VALUES) == '[mcp_servers.memtab]\ncommand = "/m"\nargs = ["mcp"]\n'


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ('[[mcp_servers.memtab]]\ncommand = "x"\n', "an array of tables"),
        ('[mcp_servers.memtab]\ncommand.x = "y"\n', "through dotted keys"),
    ],
)
def test_a_table_memtab_cannot_edit_in_place_is_refused(text: str, why: str) -> None:
    with pytest.raises(TomlEditError, match=why):
        set_keys(text, TABLE, VALUES)


def test_values_are_written_as_toml_reads_them() -> None:
    tricky = 'a "q" \\ \t\n\x7f\x01 é'
    text = f"s = {toml_string(tricky)}\nl = {toml_array([tricky, ''])}\n"
    assert tomllib.loads(text) == {"s": tricky, "l": [tricky, ""]}
