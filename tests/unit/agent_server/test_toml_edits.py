"""One table of an agent's TOML file set or taken out in its tomlkit document: its keys'
values replaced where they are, missing keys added beside them, a missing table added after
the block before it; every other character as it was, and taking out what was added gives
back the bytes there were (`agent_server/config_files/toml_edits.py`)."""

from __future__ import annotations

import tomllib
from typing import Any

import pytest
import tomlkit
from hypothesis import given
from hypothesis import strategies as st

from memtab.agent_server.codex_config import (
    CodexConfigError,
    remove_codex_server,
    set_codex_server,
)
from memtab.agent_server.config_files.toml_edits import TomlEditError, remove_table, set_table

TABLE = ("mcp_servers", "memtab")
VALUES: dict[str, Any] = {"command": "/m", "args": ["mcp"]}


def _set(text: str, table: tuple[str, ...] = TABLE, values: dict[str, Any] = VALUES) -> str:
    document = tomlkit.parse(text)
    set_table(document, table, values, "\r\n" if "\r\n" in text else "\n")
    return document.as_string()


def _removed(text: str) -> str:
    document = tomlkit.parse(text)
    remove_table(document, TABLE)
    return document.as_string()


def test_values_are_replaced_where_they_are_and_comments_and_spacing_stay() -> None:
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
    assert _set(text) == (
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
    edited = _set(text)
    assert edited == text.replace('"old"', '"/m"') + 'args = ["mcp"]\r\n'
    assert tomllib.loads(edited)["mcp_servers"]["memtab"] == {"command": "/m", "args": ["mcp"]}


def test_missing_keys_go_beside_their_neighbours_a_missing_table_after_the_block_before() -> None:
    assert _set('[mcp_servers.memtab]\nargs = ["x"]\n') == (
        '[mcp_servers.memtab]\ncommand = "/m"\nargs = ["mcp"]\n'
    )
    assert _set("[mcp_servers.memtab]") == '[mcp_servers.memtab]\ncommand = "/m"\nargs = ["mcp"]\n'
    text = 'a = 1\n\n[mcp_servers.gh]\n  command = "gh"\n\n# profiles\n[profiles]\n'
    assert _set(text) == (
        'a = 1\n\n[mcp_servers.gh]\n  command = "gh"\n\n'
        '[mcp_servers.memtab]\n  command = "/m"\n  args = ["mcp"]\n'
        "\n# profiles\n[profiles]\n"
    )
    assert _set("a = 1") == 'a = 1\n\n[mcp_servers.memtab]\ncommand = "/m"\nargs = ["mcp"]\n'
    assert _set("") == '[mcp_servers.memtab]\ncommand = "/m"\nargs = ["mcp"]\n'
    # After a key whose value tomlkit gives as a plain Python value (a boolean, on the
    # file's last line, without its newline): the new key on a line of its own.
    values = {"required": False, "env_vars": ["A"]}
    assert _set("[t]\nrequired = true", ("t",), values) == (
        '[t]\nrequired = false\nenv_vars = ["A"]\n'
    )


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ('[[mcp_servers.memtab]]\ncommand = "x"\n', "an array of tables"),
        ('[mcp_servers.memtab]\ncommand.x = "y"\n', "through dotted keys"),
        ('[mcp_servers]\nmemtab = { command = "x" }\n', r"other than as a \[mcp_servers\."),
        ('mcp_servers.memtab.command = "x"\n', r"other than as a \[mcp_servers\."),
    ],
)
def test_a_table_memtab_cannot_edit_in_place_is_refused(text: str, why: str) -> None:
    with pytest.raises(TomlEditError, match=why):
        _set(text)


def test_values_are_written_as_toml_reads_them() -> None:
    tricky = 'a "q" \\ \t\n\x7f\x01 é'
    edited = _set("", ("s",), {"s": tricky, "l": [tricky, ""]})
    assert tomllib.loads(edited)["s"] == {"s": tricky, "l": [tricky, ""]}


def test_tables_are_taken_out_with_the_blank_line_set_before_them() -> None:
    text = "model = 'o3'\r\n\r\n[mcp_servers.gh]\r\ncommand = 'gh'\r\n\r\n[profiles.a]\r\nk = 1\r\n"
    edited = _set(_set(text, values={"command": "m"}), (*TABLE, "tools", "view"), {"x": 1})
    assert "\r\n\r\n[mcp_servers.memtab.tools.view]\r\nx = 1\r\n\r\n[profiles.a]" in edited
    assert _removed(edited) == text
    kept = '[mcp_servers.memtab]\ncommand = "m"\n\n# the profiles\n[profiles]\n'
    assert _removed(kept) == "\n# the profiles\n[profiles]\n"  # the comment after it stays


_LINES = st.sampled_from(
    ["model = 'o3'", "# a note", "", "  big = 1e400   # far", 'tags = ["a", # one\n  "b"]']
)
_TABLES = st.sampled_from(
    ["[profiles.fast]", "[mcp_servers.gh]", "  [ mcp_servers . 'x' ]  # other", "[[agents]]"]
)


@given(
    head=st.lists(_LINES, max_size=3),
    tables=st.lists(st.tuples(_TABLES, st.lists(_LINES, max_size=2)), max_size=3),
    newline=st.sampled_from(["\n", "\r\n"]),
)
def test_taking_out_what_was_set_gives_back_every_byte(
    head: list[str], tables: list[tuple[str, list[str]]], newline: str
) -> None:
    lines = [*head]
    for header, body in tables:
        lines += [header, *body]
    text = "".join(line.replace("\n", newline) + newline for line in lines)
    try:
        tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return  # a table twice: no document
    if tomlkit.parse(text).as_string() != text:
        return  # an array of tables split by a table: refused (see below)
    edited = _set(text)
    for name in ("list", "view"):
        edited = _set(edited, (*TABLE, "tools", name), {"approval_mode": "approve"})
    assert tomllib.loads(edited)["mcp_servers"]["memtab"]["command"] == "/m"
    assert _removed(edited) == text


def test_a_file_tomlkit_would_not_write_back_as_it_was_is_refused() -> None:
    text = "[[agents]]\nname = 'a'\n[profiles.fast]\n[[agents]]\nname = 'b'\n"
    assert tomlkit.parse(text).as_string() != text  # tomlkit puts the array together
    with pytest.raises(CodexConfigError, match="in a way Memtab cannot edit"):
        set_codex_server(text, ["/m", "mcp"])


@given(
    head=st.lists(_LINES, max_size=3),
    tables=st.lists(st.tuples(_TABLES, st.lists(_LINES, max_size=2)), max_size=3),
    newline=st.sampled_from(["\n", "\r\n"]),
    ended=st.booleans(),
)
def test_install_then_uninstall_give_back_every_byte_a_final_newline_or_none(
    head: list[str], tables: list[tuple[str, list[str]]], newline: str, ended: bool
) -> None:
    """Issue 81 point 16: a `config.toml` whose last line had no newline got one."""
    lines = [*head]
    for header, body in tables:
        lines += [header, *body]
    text = "".join(line.replace("\n", newline) + newline for line in lines)
    text = text if ended else text.removesuffix(newline)
    try:
        tomllib.loads(text)
        installed, _status = set_codex_server(text, ["/m", "mcp"])
    except (tomllib.TOMLDecodeError, CodexConfigError):
        return  # no document, or one Memtab refuses (see below)
    assert not text or installed.endswith("\n") == text.endswith("\n")
    assert remove_codex_server(installed) == (text, "removed")
