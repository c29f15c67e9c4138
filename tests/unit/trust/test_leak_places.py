"""`memtab leaks` on the labelled corpus of tests/support/leak_places.py (issue 83): another
project's places written as people write them — links, remotes, DSNs, ssh config, addresses,
buckets, ARNs, kube contexts, cloud projects — found and said to be that project's; the
projects' own places, public sites, registries, examples and the company's shared services
never."""

from __future__ import annotations

from pathlib import Path

import pytest

from memtab.trust.leaks.records import Leak
from support import leak_places
from support.leak_places import CASES
from support.seeded_memories import project_path

NOT_READ = {
    "container image": "an image is what a project deploys or publishes, no place of the "
    "project whose name it bears (a deploy tool's memory names the images it deploys)",
    "IP with port, no owner said": "an address is a project's when its memory names it in two "
    "files or more; tern's names this one once",
    "warehouse DSN in global memory": "Snowflake's account locator (`fh12345.eu-central-1`) "
    "is no host",
}
"""Leaks of the corpus not found, and why."""


@pytest.fixture(scope="module")
def found(tmp_path_factory: pytest.TempPathFactory) -> dict[int, list[Leak]]:
    return leak_places.found(Path(tmp_path_factory.mktemp("leak-places")))


def test_another_project_s_places_are_found_in_every_form(found: dict[int, list[Leak]]) -> None:
    missed = [
        case.form
        for number, case in enumerate(CASES)
        if case.belongs is not None
        and not any(
            leak.belongs_to in (None, project_path(case.belongs)) for leak in found.get(number, [])
        )
    ]
    assert missed == sorted(NOT_READ, key=[c.form for c in CASES].index)


def test_no_near_miss_nor_a_project_s_own_place_is_a_leak(found: dict[int, list[Leak]]) -> None:
    flagged = [CASES[n].form for n in found if n >= 0 and CASES[n].belongs is None]
    wrong = [
        (CASES[n].form, leak.names)
        for n, leaks in found.items()
        if n >= 0 and CASES[n].belongs is not None
        for leak in leaks
        if leak.belongs_to not in (None, project_path(CASES[n].belongs or ""))
    ]
    assert (flagged, wrong, [leak.names for leak in found.get(-1, [])]) == ([], [], [])


def test_the_corpus_is_as_large_as_the_brief_asks() -> None:
    assert sum(case.belongs is not None for case in CASES) >= 30
    assert sum(case.belongs is None for case in CASES) >= 30


def test_recall_and_precision_meet_issue_83_s_targets(tmp_path: Path) -> None:
    card = leak_places.score(tmp_path)
    assert card["precision"] == 1.0 and card["found"] >= 0.85 * card["seeded"], card  # type: ignore[operator]
