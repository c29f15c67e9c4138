"""`memtab check` on the labelled corpus of tests/support/check_claims.py (issue 83): a path
a note claims is in the checkout, in a monorepo's forms — relative to the package the line,
its heading or its `cd` names, a package's own path, `./file`, a name cut short, a first
folder gone with the file elsewhere, a claim in the sentence beside a condition — found on
its line; what is there, examples, globs, URLs, another machine's, a container's,
generated, ignored, gone and still-to-come paths, never."""

from __future__ import annotations

from pathlib import Path

import pytest

from support import check_claims
from support.check_claims import AFTER, CASES

NOT_READ_AFTER = {
    "a question then the claim": "the line says `moved` (`check.wording`): a line saying "
    "what it names was moved is left alone, whichever sentence says it",
}
"""Cases of the batch written after the change not found, and why."""


@pytest.mark.parametrize("after", [False, True], ids=["corpus", "written-after"])
def test_a_path_a_note_claims_is_found_in_every_form(tmp_path: Path, after: bool) -> None:
    card = check_claims.score(tmp_path, after=after)
    assert (card["flagged"], card["others"], card["precision"]) == ([], [], 1.0)
    assert card["missed"] == (list(NOT_READ_AFTER) if after else [])


def test_the_corpus_is_as_large_as_the_brief_asks() -> None:
    assert sum(case.kind is not None for case in CASES) >= 25
    assert sum(case.kind is None for case in CASES) >= 25
    assert sum(case.kind is not None for case in AFTER) >= 10
    assert sum(case.kind is None for case in AFTER) >= 10


def test_a_path_whose_first_folder_is_gone_is_offered_where_its_file_is(tmp_path: Path) -> None:
    by_case, _ = check_claims.found(tmp_path)
    number = next(n for n, c in enumerate(CASES) if c.form.startswith("a first folder gone"))
    (finding,) = by_case[number]
    assert finding.subject == "src/settings/base.py"
    assert finding.fix is not None
    assert "services/billing/settings/base.py" in finding.fix.new_str
