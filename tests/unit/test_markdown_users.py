"""Every reader of Markdown lines agrees with the one classifier (`memtab.markdown`), line by
line, on real memory files (tests/fixtures/shared, docs/) and on the corners where the
readers told lines apart each their own way before: the check, the offline consolidator's
units, the writer's sections, a file's title and Claude Code's `@`-imports, the lines a
plan may not lose, the notes the writer's news counts, and whether a file starts with a
heading. (The editor's highlighter: tests/gui/editor/test_highlighter_lines.py.)"""

from __future__ import annotations

from pathlib import Path

import pytest

from memtab.check.markdown import scan_markdown
from memtab.components.writer.supervision import count_notes
from memtab.consolidation.offline.describe import Description, with_description
from memtab.consolidation.offline.units import split_units
from memtab.markdown import Line, LineKind, classify, text_lines
from memtab.sources.claude.instructions import imports_of
from memtab.sources.notes import Note as AgentNote
from memtab.store.text.content_lines import content_lines, normalize_line
from memtab.store.text.frontmatter import heading_text, title_of
from memtab.writer.offline.notes import Note, apply_notes
from support.markdown_texts import REAL_FILES, TEXTS


def test_the_real_files_are_there() -> None:
    assert len(REAL_FILES) >= 20
    fenced = [
        name for name, text in TEXTS if any(line.kind is LineKind.FENCE for line in _lines(text))
    ]
    assert len(fenced) >= 5  # enough of them hold code to tell


def _lines(text: str) -> list[Line]:
    return classify(text_lines(text))


@pytest.mark.parametrize(("name", "text"), TEXTS, ids=[name for name, _ in TEXTS])
def test_the_check_reads_lines_as_the_classifier(name: str, text: str) -> None:
    scanned = scan_markdown(text).lines
    classified = _lines(text)
    assert len(scanned) == len(classified)
    for line, found in zip(scanned, classified, strict=True):
        kind = found.kind
        assert line.fence == (kind in (LineKind.FRONTMATTER, LineKind.FENCE)), line
        assert (line.block is not None) == (kind is LineKind.CODE), line
        if kind is LineKind.HEADING and found.text:
            assert line.section == found.text, line


@pytest.mark.parametrize(("name", "text"), TEXTS, ids=[name for name, _ in TEXTS])
def test_the_consolidators_units_read_lines_as_the_classifier(name: str, text: str) -> None:
    lines = text_lines(text)
    classified = classify(lines)
    units = split_units(lines)
    starts = {unit.start: unit for unit in units}
    frontmatter = [i for i, found in enumerate(classified) if found.kind is LineKind.FRONTMATTER]
    assert [u for u in units if u.kind == "frontmatter"] == (
        [u for u in units if u.start == 0 and u.end == len(frontmatter)] if frontmatter else []
    )
    for unit in units:
        kinds = [classified[i].kind for i in range(unit.start, unit.end)]
        if unit.kind == "heading":
            assert kinds == [LineKind.HEADING], unit
        elif unit.kind == "code":
            assert kinds[0] is LineKind.FENCE, unit
            assert set(kinds[1:]) <= {LineKind.CODE, LineKind.FENCE}, unit
    in_block = False
    for index, found in enumerate(classified):
        opens = found.kind is LineKind.FENCE and not in_block
        in_block = (in_block or opens) and not (found.kind is LineKind.FENCE and not opens)
        unit = starts.get(index)
        if unit is None:
            continue
        if found.kind is LineKind.HEADING:
            assert unit.kind == "heading", (index, unit)
        if opens or found.kind is LineKind.CODE:  # a block is one unit, from its fence
            assert unit.kind == "code" and opens, (index, unit)


@pytest.mark.parametrize(("name", "text"), TEXTS, ids=[name for name, _ in TEXTS])
def test_a_files_title_is_its_first_heading_as_the_classifier_tells_it(
    name: str, text: str
) -> None:
    headings = [
        found.text for found in _lines(text) if found.kind is LineKind.HEADING and found.text
    ]
    title = title_of(text)
    if headings and heading_text(headings[0]).lower() not in ("title", "session title"):
        assert title == heading_text(headings[0])
    elif not headings:
        assert title == ""


def test_the_writer_finds_its_sections_as_the_classifier() -> None:
    """A `## Commands` inside a code block is code: the writer adds its own section."""
    existing = "# Workspace notes\n\n```md\n## Directives\n```\n"
    written = apply_notes(existing, [Note("Directives", "Run `make test` first")])
    assert written == existing + "\n## Directives\n\n- Run `make test` first\n"


def test_claude_imports_are_read_outside_code_as_the_classifier(tmp_path: Path) -> None:
    (tmp_path / "a.md").write_text("a\n")
    (tmp_path / "b.md").write_text("b\n")
    text = "````\n```\n@a.md\n```\n````\n@b.md\n"
    assert [path.name for path in imports_of(text, tmp_path, tmp_path)] == ["b.md"]


@pytest.mark.parametrize(("name", "text"), TEXTS, ids=[name for name, _ in TEXTS])
def test_a_files_content_lines_are_what_the_classifier_calls_content(name: str, text: str) -> None:
    lines = text_lines(text)
    content = {LineKind.TEXT, LineKind.FENCE, LineKind.CODE, LineKind.LIST_ITEM, LineKind.RULE}
    assert content_lines(text) == {
        normalize_line(line)
        for line, found in zip(lines, classify(lines), strict=True)
        if found.kind in content and line.strip()
    }


def test_a_comment_in_a_code_block_is_content_a_plan_may_not_lose() -> None:
    text = "---\ndescription: d\n---\n# Build\n\n```sh\n# once a day\nmake\n```\n"
    assert content_lines(text) == {"```sh", "# once a day", "make", "```"}


def test_the_writers_news_counts_list_items_as_the_classifier() -> None:
    after = "# Notes\n```\n- an example, not a note\n```\n1. a note\n#tag line\n"
    assert count_notes(after, (2, 4)) == 1
    assert count_notes(after, (5,)) == 1  # `#tag` is text, not a heading


def test_a_file_starts_with_a_heading_as_the_classifier_tells_it() -> None:
    description = Description("Build steps", "heading")
    assert with_description(["#hashtag first"], description) is None  # text comes first
    assert with_description(["# Build"], description) == [
        "---",
        "description: Build steps",
        "---",
        "# Build",
    ]
    note = AgentNote(name="Build", description="", body="#hashtag first\n", topic_type=None)
    assert note.as_mux() == "---\ndescription: Build\n---\n\n# Build\n\n#hashtag first\n"
