"""Where Claude Code stops reading MEMORY.md: 200 lines or 25,000 UTF-16 units, at a
line's end (its memory docs; `memdir.ts` `truncateEntrypointContent`)."""

from __future__ import annotations

from memtab.sources.claude.index import index_cut, index_warning, move_past_cut
from support.agent_machine import real_files


def test_the_real_index_of_249_lines_is_read_to_line_200() -> None:
    text = real_files("claude-code-auto-memory")["memory/MEMORY.md"].read_text(encoding="utf-8")
    cut = index_cut(text)
    assert (cut.lines, cut.loaded_lines, cut.cut_at_line, cut.reason) == (249, 200, 201, "lines")
    assert cut.loaded_text.split("\n") == text.split("\n")[:200]
    assert "from line 201 on" in (index_warning(cut) or "")


def test_200_lines_are_read_whole_and_the_201st_is_not() -> None:
    assert index_cut("- a\n" * 200).cut_at_line is None
    assert index_cut("- a\n" * 200 + "- last").cut_at_line == 201


def test_the_size_limit_counts_utf16_units_so_korean_is_one_each() -> None:
    line = "가" * 199  # 199 units, 597 UTF-8 bytes
    text = "\n".join([line] * 150) + "\n"  # 30,000 units: over by size, under by lines
    cut = index_cut(text)
    # The newline after line k is at 200k - 1: the last at or before 25,000 ends line 125.
    assert (cut.loaded_lines, cut.cut_at_line, cut.reason) == (125, 126, "size")
    ascii_text = "\n".join(["x" * 199] * 125)  # 24,999 units: read whole
    assert index_cut(ascii_text).cut_at_line is None


def test_leading_blank_lines_claude_code_trims_still_count_in_the_file() -> None:
    text = "\n\n" + "- a\n" * 201
    cut = index_cut(text)
    assert (cut.loaded_lines, cut.cut_at_line) == (202, 203)


def test_one_line_longer_than_the_limit_is_cut_in_its_middle() -> None:
    cut = index_cut("x" * 30_000 + "\nmore")
    assert (cut.loaded_lines, cut.cut_at_line) == (0, 1)
    assert len(cut.loaded_text) == 25_000


def test_moving_the_lines_past_the_cut_leaves_a_link_on_the_last_line_read() -> None:
    text = "".join(f"- entry {n}\n" for n in range(1, 250))
    moved = move_past_cut(text, "MEMORY-continued.md")
    assert moved is not None
    index, rest = moved
    lines = index.splitlines()
    assert len(lines) == 200 and index_cut(index).cut_at_line is None
    assert lines[:199] == [f"- entry {n}" for n in range(1, 200)]
    assert lines[199].startswith("- [More of this index](MEMORY-continued.md)")
    assert rest == "".join(f"- entry {n}\n" for n in range(200, 250))
    assert move_past_cut(index, "MEMORY-continued.md") is None
