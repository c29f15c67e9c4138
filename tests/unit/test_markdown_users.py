"""Every reader of Markdown lines agrees with the one classifier (`memtab.markdown`), line by
line, on real memory files (tests/fixtures/shared, docs/) and on the corners where the
readers told lines apart each their own way before: the check, the offline consolidator's
units, the writer's sections, a file's title and Claude Code's `@`-imports. (The editor's
highlighter: tests/gui/editor/test_highlighter_lines.py.)"""

from __future__ import annotations

from pathlib import Path

import pytest

from memtab.check.markdown import scan_markdown
from memtab.consolidation.offline.units import split_units
from memtab.markdown import Line, LineKind, classify, text_lines
from memtab.sources.claude.instructions import imports_of
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
        assert line.in_block == (kind is LineKind.CODE), line
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
