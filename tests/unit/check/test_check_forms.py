"""`memtab check` on the labelled corpus of tests/support/check_forms.py (issue 83): missing
paths and broken links in tables, with line numbers, `./`, `~/` and Windows paths, reference
links, `#anchors` to headings that are gone, links between a scope's folders and Claude
Code's `@`-imports — found on their line; examples, globs, other checkouts, URLs, build
output, what is gone or to come, and links to what is there — never."""

from __future__ import annotations

from pathlib import Path

import pytest

from memtab.check.records import Finding
from support import check_forms
from support.check_forms import CASES

NOT_READ: dict[str, str] = {}
"""Cases not found, and why ("link to a gone topic", its label saying the notes are old,
was found once a link's label was no longer read as what its line says of it)."""


@pytest.fixture(scope="module")
def found(
    tmp_path_factory: pytest.TempPathFactory,
) -> tuple[dict[int, list[Finding]], list[Finding]]:
    return check_forms.found(Path(tmp_path_factory.mktemp("check-forms")))


def test_missing_paths_and_broken_links_are_found_on_their_line(
    found: tuple[dict[int, list[Finding]], list[Finding]],
) -> None:
    by_case, _ = found
    missed = [
        case.form
        for number, case in enumerate(CASES)
        if case.kind is not None
        and not any(f.kind == case.kind and f.line == case.line for f in by_case.get(number, []))
    ]
    assert missed == sorted(NOT_READ, key=[case.form for case in CASES].index)


def test_no_near_miss_is_found(found: tuple[dict[int, list[Finding]], list[Finding]]) -> None:
    by_case, others = found
    flagged = [CASES[number].form for number in by_case if CASES[number].kind is None]
    extra = [
        (CASES[number].form, f.subject)
        for number, findings in by_case.items()
        if CASES[number].kind is not None
        for f in findings
        if (f.kind, f.line) != (CASES[number].kind, CASES[number].line)
    ]
    assert (flagged, extra, [f.subject for f in others]) == ([], [], [])


def test_an_anchor_names_the_heading_it_leads_to(
    found: tuple[dict[int, list[Finding]], list[Finding]],
) -> None:
    by_case, _ = found
    [finding] = by_case[[c.form for c in CASES].index("anchor to a heading that is gone")]
    assert finding.message == "The link to `topics/deploy.md#rolling-back` leads to no heading"
    assert "No heading of topics/deploy.md is `#rolling-back` now" in finding.why


def test_the_corpus_is_as_large_as_the_brief_asks() -> None:
    assert sum(case.kind is not None for case in CASES) >= 30
    assert sum(case.kind is None for case in CASES) >= 30
