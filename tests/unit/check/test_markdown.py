"""How a check reads a memory file: lines, code, links, and what a line says in words."""

from __future__ import annotations

from memtab.check.markdown import scan_markdown
from memtab.check.wording import names_commands_as_they_are, names_paths_as_they_are
from memtab.markdown import text_lines


def test_frontmatter_is_skipped_and_lines_keep_their_numbers() -> None:
    scanned = scan_markdown("---\ndescription: `src/x.py`\n---\n# T\n- `src/y.py`\n")
    assert [line.spans for line in scanned.lines] == [(), (), (), (), ("src/y.py",)]
    assert scanned.line(5).number == 5


def test_a_fenced_block_is_code_with_its_info_string_until_its_closing_fence() -> None:
    scanned = scan_markdown("```Bash\nmake test\n~~~\n```\nafter `x`\n")
    assert [line.block for line in scanned.lines] == [None, "bash", "bash", None, None]
    assert scanned.line(5).spans == ("x",)


def test_code_spans_follow_commonmark_backtick_runs() -> None:
    scanned = scan_markdown("use ``a `b` c`` and `d` but not ``e`\n")
    assert scanned.line(1).spans == ("a `b` c", "d")


def test_links_are_taken_from_prose_not_code() -> None:
    scanned = scan_markdown(
        '- [x.md](x.md) — hook\n- `[y](y.md)`\n[ref]: <docs/z.md>\n![img](a%20b.png "t")\n'
    )
    assert [(link.line, link.target, link.label) for link in scanned.links] == [
        (1, "x.md", "x.md"),
        (3, "docs/z.md", ""),
        (4, "a%20b.png", "img"),
    ]


def test_a_line_s_words_leave_out_paths_and_code() -> None:
    line = scan_markdown("- See [old notes](old/notes.md) and `removed.py` in src/old/x.py\n").line(
        1
    )
    assert "old" not in line.words.replace("old notes", "")
    assert names_paths_as_they_are(scan_markdown("- `src/old/x.py`\n").line(1).words)


def test_a_shell_block_line_speaks_only_in_its_comment() -> None:
    scanned = scan_markdown("```bash\nterraform plan\nmake old  # removed target\n```\n")
    assert names_commands_as_they_are(scanned.line(2).words)
    assert not names_commands_as_they_are(scanned.line(3).words)


def test_lines_are_numbered_as_an_editor_numbers_them() -> None:
    assert text_lines("a\r\nb\u2028c\n") == ["a", "b\u2028c"]
