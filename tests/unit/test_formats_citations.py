"""The code cites the formats and rules Memtab implements by section (`docs/formats.md §n`):
every cited section exists in one of docs/formats/'s files, docs/formats.md's table says
where each top-level section is, no document is over 80 KB, and nothing cites the research
notes outside the repository."""

from __future__ import annotations

import os
import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
DOCS = REPO / "docs"
FORMATS = DOCS / "formats.md"
PARTS = DOCS / "formats"
CITED_IN = ("app", "tests", "docs", "scripts", "README.md")
CITATION = re.compile(r"formats\.md §(\d+(?:\.\d+)*)")
HEADING = re.compile(r"^#{2,4} (\d+(?:\.\d+)*)\.? ", re.MULTILINE)
TABLE_ROW = re.compile(r"^\| (\d+) \| \[[^\]]+\]\(formats/([\w-]+\.md)#[\w-]+\) \|", re.MULTILINE)
SKIPPED = {"fixtures", "__pycache__"}  # others' files; compiled code
OUTSIDE = re.compile(r"\bSPEC(?:\.md)? §")
LARGEST_DOCUMENT = 80 * 1024  # a newcomer reads a document whole


def cited_files() -> list[Path]:
    files: list[Path] = []
    for name in CITED_IN:
        top = REPO / name
        if top.is_file():
            files.append(top)
            continue
        for folder, subfolders, names in os.walk(top):
            subfolders[:] = [d for d in subfolders if d not in SKIPPED]
            files.extend(Path(folder, n) for n in names if n.endswith((".py", ".md")))
    return [path for path in files if path != Path(__file__)]


def sections_by_file() -> dict[str, set[str]]:
    return {
        part.name: set(HEADING.findall(part.read_text(encoding="utf-8")))
        for part in sorted(PARTS.glob("*.md"))
    }


def all_sections() -> set[str]:
    return set().union(*sections_by_file().values())


def test_the_section_numbers_are_read_from_the_headings() -> None:
    assert {"1", "2.1", "9.5", "17.5", "22"} <= all_sections()


def test_each_section_is_in_one_file() -> None:
    seen: dict[str, str] = {}
    twice = []
    for name, sections in sections_by_file().items():
        twice += [f"§{n}: {seen[n]} and {name}" for n in sections if n in seen]
        seen.update(dict.fromkeys(sections, name))
    assert twice == []


def test_the_table_says_where_each_top_level_section_is() -> None:
    listed = dict(TABLE_ROW.findall(FORMATS.read_text(encoding="utf-8")))
    actual = {
        number: name
        for name, sections in sections_by_file().items()
        for number in sections
        if "." not in number
    }
    assert listed == actual


def test_every_cited_section_of_formats_md_exists() -> None:
    sections = all_sections()
    missing = [
        f"{path.relative_to(REPO)}: §{number}"
        for path in cited_files()
        for number in CITATION.findall(path.read_text(encoding="utf-8"))
        if number not in sections
    ]
    assert missing == []


def test_no_document_is_over_80_kb() -> None:
    documents = [*DOCS.rglob("*.md"), REPO / "README.md"]
    too_large = [
        f"{path.relative_to(REPO)}: {path.stat().st_size:,} bytes"
        for path in documents
        if path.stat().st_size > LARGEST_DOCUMENT
    ]
    assert too_large == []


def test_nothing_cites_the_research_notes_outside_the_repository() -> None:
    citing = [
        str(path.relative_to(REPO))
        for path in cited_files()
        # "SPEC" first: the pattern's leading \b keeps the search from skipping ahead to it
        # (every file: 0.16 → 0.01 s of CPU)
        if "SPEC" in (text := path.read_text(encoding="utf-8")) and OUTSIDE.search(text)
    ]
    assert citing == []
