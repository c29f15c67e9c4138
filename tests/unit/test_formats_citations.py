"""The code cites the formats and rules Memtab implements by section of docs/formats.md:
every cited section exists, and nothing cites the research notes outside the repository."""

from __future__ import annotations

import os
import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
FORMATS = REPO / "docs" / "formats.md"
CITED_IN = ("app", "tests", "docs", "scripts", "README.md")
CITATION = re.compile(r"formats\.md §(\d+(?:\.\d+)*)")
HEADING = re.compile(r"^#{2,4} (\d+(?:\.\d+)*)\.? ", re.MULTILINE)
SKIPPED = {"fixtures", "__pycache__"}  # others' files; compiled code
OUTSIDE = re.compile(r"\bSPEC(?:\.md)? §")


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


def test_the_section_numbers_are_read_from_the_headings() -> None:
    sections = set(HEADING.findall(FORMATS.read_text(encoding="utf-8")))
    assert {"1", "2.1", "9.5", "17.5"} <= sections


def test_every_cited_section_of_formats_md_exists() -> None:
    sections = set(HEADING.findall(FORMATS.read_text(encoding="utf-8")))
    missing = [
        f"{path.relative_to(REPO)}: §{number}"
        for path in cited_files()
        for number in CITATION.findall(path.read_text(encoding="utf-8"))
        if number not in sections
    ]
    assert missing == []


def test_nothing_cites_the_research_notes_outside_the_repository() -> None:
    citing = [
        str(path.relative_to(REPO))
        for path in cited_files()
        if OUTSIDE.search(path.read_text(encoding="utf-8"))
    ]
    assert citing == []
