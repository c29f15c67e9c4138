"""The one frontmatter reader (docs/formats.md §4.1): mux's fences, YAML 1.2, duplicate keys,
cleaning."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memtab.store.text.frontmatter import (
    DESCRIPTION_PREFIX_BYTES,
    _yaml_description,
    clean_description,
    description_from_prefix,
    description_from_text,
    description_prefix,
    find_frontmatter,
    frontmatter_block,
    full_description,
    title_of,
    yaml_scalar,
)
from support.memory_paths import vpath
from support.property_examples import examples

# --- descriptions ---------------------------------------------------------------------


def _fm(yaml_text: str, body: str = "# Title\n\nBody.\n") -> str:
    return f"---\n{yaml_text}\n---\n{body}"


@pytest.mark.parametrize(
    ("text", "description"),
    [
        (_fm("description: Plain text"), "Plain text"),
        (_fm("title: x\ndescription: Second key\ntags: [a, b]"), "Second key"),
        (_fm('description: "Quoted: with colon # and hash"'), "Quoted: with colon # and hash"),
        (_fm("description: 'It''s single-quoted'"), "It's single-quoted"),
        (_fm("description: |\n  line one\n  line two\n"), "line one line two"),
        (_fm("description: >-\n  folded\n  text\n"), "folded text"),
        (_fm("description: plain # a comment"), "plain"),
        ("---\r\ndescription: crlf\r\n---\r\nbody", "crlf"),
        ("---\ndescription: at end of file\n---", "at end of file"),
        ("---\ndescription: first close wins\n---\n---\nmore", "first close wins"),
        ("---\ndescription: |\n  ---x\n---\n", "---x"),
        # `---\n---\n` is no empty block: the block runs on to the next fence, as in mux
        ("---\n---\ndescription: explicit document start\n---\n", "explicit document start"),
    ],
)
def test_string_descriptions(text: str, description: str) -> None:
    assert description_from_text(text) == description


@pytest.mark.parametrize(
    "value",
    ["yes", "no", "on", "off", "y", "n", "Yes", "2024-01-01", "12:30", "0o", "=", "null-ish"],
)
def test_yaml_11_words_and_dates_stay_strings(value: str) -> None:
    assert description_from_text(_fm(f"description: {value}")) == value


@pytest.mark.parametrize(
    "value", ["123", "-1", "1.5", "1e3", "0x1F", ".inf", ".nan", "true", "False", "null", "~", ""]
)
def test_non_string_scalars_give_no_description(value: str) -> None:
    assert description_from_text(_fm(f"description: {value}")) == ""


@pytest.mark.parametrize(
    "yaml_text",
    [
        "description: [a, b]",
        "description: {a: b}",
        "description:\n  - item",
        "description: !!binary aGVsbG8=",
        "description: !!timestamp 2024-01-01",
    ],
)
def test_collections_and_tagged_values_give_no_description(yaml_text: str) -> None:
    assert description_from_text(_fm(yaml_text)) == ""


@pytest.mark.parametrize(
    "text",
    [
        _fm("description: [unclosed"),
        _fm("description: a: b"),
        _fm("description: ok\n  bad indentation: x\n- list"),
        _fm('description: "unterminated'),
        _fm("description: !!python/object:os.system x"),
        _fm("description: x\n\tindented: with a tab"),
        _fm("- just\n- a list\n- description"),
        _fm("description"),
        _fm("description: x\nnested: " + "[" * 3000),  # deeper than the parser can recurse
        _fm("description: x\nnested: " + "{a: " * 2000),
    ],
)
def test_malformed_frontmatter_gives_no_description(text: str) -> None:
    assert description_from_text(text) == ""


@pytest.mark.parametrize(
    "text",
    [
        "description: not frontmatter\n",
        "\n---\ndescription: not at the very top\n---\n",
        " ---\ndescription: indented fence\n---\n",
        "---\ndescription: never closed\n",
        "---\n---\ndescription: after an empty block\n",
        "----\ndescription: four dashes\n----\n",
        "---  \ndescription: opening fence with trailing spaces\n---\n",
        "---\t\ndescription: opening fence with a tab\n---\n",
        "---\ndescription: closing fence with trailing spaces\n---  \n",
        "---\ndescription: closing fence with a CR at the very end\n---\r",
        "\ufeff---\ndescription: after a BOM\n---\n",
        "",
    ],
)
def test_no_frontmatter_gives_no_description(text: str) -> None:
    assert description_from_text(text) == ""


@pytest.mark.parametrize(
    ("raw", "clean"),
    [
        ("a\t\tb\n\nc   d", "a b c d"),
        ("  padded  ", "padded"),
        ("a\x01b", "ab"),
        ("a \x01 b", "a  b"),  # mux collapses whitespace first, then drops controls
        ("x\x7fy\x1fz", "xyz"),
        ("\x00lead", "lead"),
        ("a\u00a0\u3000b", "a b"),
        ("nel\x85kept", "nel\x85kept"),  # U+0085 is neither JS whitespace nor a C0 control
        ("x" * 200, "x" * 200),
        ("x" * 201, "x" * 200 + "…"),
        ("word " * 60, "word " * 40 + "…"),  # mux keeps the space before the cut
        ("🚀" * 100, "🚀" * 100),  # 200 UTF-16 units
        ("🚀" * 101, "🚀" * 100 + "…"),
        # mux's cut takes the first half of a pair, which encodes as U+FFFD
        ("a" + "🚀" * 100, "a" + "🚀" * 99 + "\ufffd…"),
    ],
)
def test_clean_description(raw: str, clean: str) -> None:
    assert clean_description(raw) == clean


def test_escaped_control_chars_in_a_description_are_stripped() -> None:
    text = _fm('description: "tab\\there\\nnew line \\x01ctl\\e and \\x7f del"')
    assert description_from_text(text) == "tab here new line ctl and  del"  # as mux


@pytest.mark.parametrize(
    "yaml_text",
    [
        "description: first\ndescription: second",
        "description: x\ntitle: a\ntitle: b",
        "description: x\nnull: a\nNULL: b",  # one key (null) to YAML 1.2
        "description: x\n1: a\n1.0: b",
        "description: x\nnested:\n  a: 1\n  a: 2",
        'description: x\n"title": a\ntitle: b',
    ],
)
def test_a_repeated_key_gives_no_description_as_in_mux(yaml_text: str) -> None:
    assert description_from_text(_fm(yaml_text)) == ""


@pytest.mark.parametrize(
    "yaml_text", ["description: x\ntrue: a\n1: b", "description: x\n1: a\n'1': b"]
)
def test_keys_that_only_look_alike_are_not_repeated(yaml_text: str) -> None:
    assert description_from_text(_fm(yaml_text)) == "x"


def test_long_description_is_cut_to_200_plus_ellipsis() -> None:
    description = description_from_text(_fm("description: " + "abcd " * 100))
    assert description.endswith("…")
    assert len(description) <= 201
    assert description.startswith("abcd abcd")


def test_full_description_reads_the_first_4_kib_like_the_tree_but_does_not_cut() -> None:
    long = "word " * 60
    assert full_description(f"---\ndescription: {long}\n---\n") == long.strip()
    beyond = "---\n" + "pad: x\n" * 700 + "description: too late\n---\n"
    assert full_description(beyond) == description_from_text(beyond) == ""


def test_description_prefix_is_the_first_4_kib_as_bytes() -> None:
    text = "é" * 3000  # 6000 bytes: the cut falls inside nothing (2-byte chars, even offset)
    assert description_prefix(text) == "é" * 2048
    assert description_prefix("a" + "é" * 3000).endswith("\ufffd")  # a char cut in half
    assert description_prefix("short") == "short"


def test_find_frontmatter_spans() -> None:
    text = "---\r\nname: a\r\n---\r\nbody"
    span = find_frontmatter(text)
    assert span is not None
    assert text[span.body_start : span.body_end] == "name: a\r\n"
    assert text[span.end :] == "body"
    assert span.newline == "\r\n"
    assert find_frontmatter("---  \nname: a\n---\n") is None
    end_of_file = find_frontmatter("---\nname: a\n---")
    assert end_of_file is not None and end_of_file.end == len("---\nname: a\n---")


# --- the fast path agrees with the YAML parser -------------------------------------------


def _spec_frontmatter_block(prefix: str) -> str | None:
    """mux's /^---\\r?\\n([\\s\\S]*?)\\r?\\n---(?:\\r?\\n|$)/, spelled out line by line: the
    reference the regex in `frontmatter_block` must agree with."""
    lines = prefix.split("\n")
    if len(lines) < 2 or lines[0] not in ("---", "---\r"):
        return None
    for index in range(2, len(lines)):  # the opening's line break is not the closing's
        last = index == len(lines) - 1
        if lines[index] == "---" or (lines[index] == "---\r" and not last):
            block = "\n".join(lines[1:index])
            return block[:-1] if block.endswith("\r") else block
    return None


_FENCE_PIECES = st.sampled_from(
    [
        "---",
        "--",
        "-",
        "\n",
        "\r",
        "\r\n",
        " ",
        "\t",
        "x",
        "description: a",
        "----",
        "\n---",
        "\n\n",
    ]
)


@settings(max_examples=examples(300), deadline=None)
@given(st.lists(_FENCE_PIECES, max_size=14).map("".join))
def test_frontmatter_block_follows_the_spec_rule(prefix: str) -> None:
    assert frontmatter_block(prefix) == _spec_frontmatter_block(prefix)


def _yaml_reference(prefix: str) -> str:
    """The description by the YAML parser alone (no fast path)."""
    block = _spec_frontmatter_block(prefix)
    value = _yaml_description(block) if block else None
    return clean_description(value) if value is not None else ""


_KEYS = st.sampled_from(
    ["description"] * 4 + ["title", "tags", "x_y-z", "on", "true", "null", "NULL", "Null"]
)
_SIMPLE_VALUES = st.sampled_from(
    [
        "",
        "plain words",
        "yes",
        "on",
        "null",
        "~",
        "true",
        "False",
        "12",
        "-3",
        "1.5",
        "1e3",
        ".inf",
        "0x1F",
        "2024-01-01",
        "C# and F#",
        "key:value",
        "url http://x.y/z?q=1",
        "a, b and [c]",
        "'single'",
        '"double"',
        "'it has \"quotes\"'",
        '"it\'s"',
        "[a, b]",
        "[]",
        "[ a ,b/c, d.e ]",
        "ünïcödé",
        "日本語の説明",
        "emoji 🚀 ok",
        "trail  ",
        "a  b",
        "x'y\"z",
        "\ufffd",
        "50% off",
        "a|b>c",
        "~tilde",
        "x@y",
        "e=mc^2",
    ]
)
_TRICKY_VALUES = st.one_of(
    st.sampled_from(
        [
            " ",
            "a #comment",
            "a: b",
            "ends with:",
            "-dash",
            "- item",
            "?q",
            ":colon",
            "[a, [b]]",
            "[a b, c]",
            "{a: b}",
            "'it''s'",
            '"esc\\"aped"',
            '"a" trailing',
            "&anchor x",
            "*alias",
            "!tag x",
            "|",
            ">",
            "%pct",
            "@at",
            "`tick",
            "tab\there",
            "cr\r",
            "nel\x85x",
            "ls\u2028x",
            "bom\ufeffx",
            "ctl\x01x",
            "del\x7fx",
            "  lead",
            "'unclosed",
            '"unclosed',
            "\ufffe",
            "[a,]",
            "[,a]",
            "0o17",
            "-",
        ]
    ),
    st.text(alphabet=st.characters(codec="utf-8", exclude_characters="\n"), max_size=12),
)
_SIMPLE_LINES = st.builds(lambda key, value: f"{key}: {value}", _KEYS, _SIMPLE_VALUES)
_TRICKY_LINES = st.one_of(
    st.builds(
        lambda key, sep, value: f"{key}{sep}{value}",
        _KEYS | st.sampled_from(["1a", "ké", "a b", "-k", "?k", "k" * 70]),
        st.sampled_from([": ", ":", ":  ", " : ", ":\t"]),
        _SIMPLE_VALUES | _TRICKY_VALUES,
    ),
    st.sampled_from(
        ["", "   ", "# comment", "  # indented", "  nested: x", "- item", "---x", "...", "\t"]
    ),
)


_FRONTMATTER_LINES = st.one_of(
    st.lists(_SIMPLE_LINES, max_size=5),  # the fast path's own ground
    st.lists(st.one_of(_SIMPLE_LINES, _SIMPLE_LINES, _TRICKY_LINES), max_size=5),
)


@pytest.mark.slow
@settings(max_examples=examples(250), deadline=None)
@given(
    _FRONTMATTER_LINES,
    st.sampled_from(["\n", "\n", "\n", "\r\n"]),
    st.sampled_from(["", "body\n"]),
)
def test_fast_path_agrees_with_the_yaml_parser(lines: list[str], newline: str, body: str) -> None:
    prefix = "---" + newline + "".join(line + newline for line in lines) + "---" + newline + body
    assert description_from_text(prefix) == _yaml_reference(prefix), prefix


@pytest.mark.slow
@settings(max_examples=examples(250), deadline=None)
@given(
    _FRONTMATTER_LINES,
    st.sampled_from(["\n", "\r\n"]),
    st.sampled_from([b"", b"body\n", b"\n---\nmore\n", b"\xff\xfe bad utf-8 \xe9\n"]),
    st.sampled_from([b"", b"\xff", "é".encode(), b"\xe9\n"]),
)
def test_decoding_only_the_frontmatter_gives_the_same_description(
    lines: list[str], newline: str, body: bytes, noise: bytes
) -> None:
    head = ("---" + newline + "".join(line + newline for line in lines)).encode("utf-8", "replace")
    prefix = (head + noise + b"---" + newline.encode() + body)[:DESCRIPTION_PREFIX_BYTES]
    expected = description_from_text(prefix.decode("utf-8", "replace"))
    assert description_from_prefix(prefix) == expected, prefix


def test_the_fast_path_never_loads_pyyaml() -> None:
    # PyYAML costs start-up time: the tree's descriptions must not need it.
    probe = (
        "import sys\n"
        "from memtab.store.text.frontmatter import description_from_prefix as d\n"
        "assert d(b'---\\ndescription: Plain text\\ntags: [a, b]\\n---\\nbody') == 'Plain text'\n"
        "assert 'yaml' not in sys.modules, 'the fast path imported yaml'\n"
        "assert d(b'---\\ndescription: >\\n  folded\\n---\\n') == 'folded'\n"
        "assert 'yaml' in sys.modules\n"
    )
    subprocess.run([sys.executable, "-c", probe], check=True)


# --- the title a file gives itself (shown where it has no description) ---------------------


_CLAUDE_HINT = (
    "_A short and distinctive 5-10 word descriptive title for the session. Super info dense, "
    "no filler_"
)


@pytest.mark.parametrize(
    ("text", "title"),
    [
        ("# Scratch: refresh race repro\n\n- Two tabs.\n", "Scratch: refresh race repro"),
        ("---\nname: x\n---\n\n## **Deploy** [notes](d.md):\n", "Deploy notes"),
        ("```\n# a comment in code\n```\n# Real title\n", "Real title"),
        # Claude Code's session-memory summary.md, as real ones read: the title in the
        # hint's italics, or the hint kept and the title on a line of its own below it.
        (
            "# Session Title\n_Compaction任务中断问题 & PostCompact hook机制研究_\n\n"
            "# Current State\n_What is actively being worked on right now?_\n\nDone.\n\n"
            "# Files and Functions\n_What are the important files? In short, what do they "
            "contain and why are they relevant?_\n",
            "Compaction任务中断问题 & PostCompact hook机制研究",
        ),
        (
            f"# Session Title\n{_CLAUDE_HINT}\n\nFixing Redundant URL-Encoded Backslashes in "
            "Hugo Links\n\n# Current State\n_What is actively being worked on right now?_\n",
            "Fixing Redundant URL-Encoded Backslashes in Hugo Links",
        ),
        (f"# Session Title\n{_CLAUDE_HINT}\n\n# Current State\n", ""),  # unfilled
        ("# Session Title\n\n# Current State\n_What is happening?_\n", ""),
        ("No heading at all.\n", ""),
    ],
)
def test_the_title_of_a_file(text: str, title: str) -> None:
    assert title_of(text) == title


def test_an_undescribed_file_is_listed_with_its_title(tmp_path: Path) -> None:
    from memtab.store.home import Home
    from memtab.store.paths import Scope
    from memtab.store.scopes.memory import MemoryStore
    from memtab.store.sidecars.registry import add_workspace

    home = Home(tmp_path / "home")
    add_workspace(home, "/src/app", "main", workspace_id="a1a1a1a1a1")
    store = MemoryStore.open(home, "a1a1a1a1a1")
    store.create_file(
        vpath("/memories/global/scratch.md"), "# Scratch: refresh race repro\n\n- x\n"
    )
    store.create_file(vpath("/memories/global/kept.md"), "---\ndescription: Why\n---\n# Title\n")
    entries = {entry.path.name: entry for entry in store.list_scope(Scope.GLOBAL).files}
    assert (entries["scratch.md"].description, entries["scratch.md"].heading) == (
        "",
        "Scratch: refresh race repro",
    )
    assert (entries["kept.md"].description, entries["kept.md"].heading) == ("Why", "")


# --- writing a value ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "written"),
    [
        ("Build notes", "Build notes"),
        ("Rebase, never merge.", "Rebase, never merge."),
        ("Ideas: with a colon", "'Ideas: with a colon'"),
        ("yes", "'yes'"),
        ("42", "'42'"),
        ("0E0", '"0E0"'),  # plain in YAML 1.1, a number in mux's 1.2
        ("# not a comment", "'# not a comment'"),
        ('it\'s "quoted"', 'it\'s "quoted"'),
    ],
)
def test_a_value_is_written_plain_unless_yaml_needs_quotes(value: str, written: str) -> None:
    assert yaml_scalar(value) == written
    assert description_from_text(f"---\ndescription: {written}\n---\n") == value


@settings(max_examples=examples(200))
@given(st.text(st.characters(blacklist_categories=("Cs", "Cc")), min_size=1, max_size=80))
def test_every_value_written_reads_back_the_same(value: str) -> None:
    # Whitespace as mux reads it (JavaScript's \s): Python's split misses U+FEFF.
    value = " ".join(value.replace("\ufeff", " ").split())
    if value:
        assert full_description(f"---\ndescription: {yaml_scalar(value)}\n---\n") == value
