"""`trust_scorecard --stages` (tests/quality/trust_stages.py, issue 83): where each labelled
pair the engines missed fell, as counts that add up to the misses — and each stage reached by
a home built for it, so no stage is a name nothing can land on."""

from __future__ import annotations

import dataclasses
import tempfile
from pathlib import Path
from typing import Any

import pytest
from tests.quality.trust_homes import lay_out
from tests.quality.trust_matching import Matcher
from tests.quality.trust_scorecard import IMPORT, print_card, scorecard
from tests.quality.trust_stages import (
    CONTRADICTION_STAGES,
    NO_SHARED_KEY,
    OTHER_KINDS,
    PAIR_TESTS,
    Fate,
    Reading,
    as_laid_out,
    contradiction_fate,
    stage_lines,
    tally,
)
from tests.quality.trust_stages_duplicates import DUPLICATE_STAGES, Compared, duplicate_fate
from tests.quality.trust_stages_lines import FEATURES
from tests.support.memory_home import write_registry

from memtab.fs.atomic import atomic_write_text
from memtab.store.home import Home
from memtab.trust.memories import read_memories


class _ByPath:
    """A matcher whose corpus files are the memories' virtual paths."""

    def same_text(self, one: str, other: str) -> bool:
        return one == other

    def corpus_file(self, path: str, project: str | None, workspace: str | None) -> str:
        return path


def _reading(tmp_path: Path, files: dict[str, str], **changed: dict[str, Any]) -> Reading:
    """The global memory `files` (name → text) as the engines read them; `changed`: a
    file's document with other fields (a record, another project's group)."""
    home = Home(tmp_path / "home")
    write_registry(home)
    for name, text in files.items():
        atomic_write_text(home.global_root / name, text)
    documents = tuple(
        dataclasses.replace(d, **changed.get(d.path.rsplit("/", 1)[-1], {}))
        for d in read_memories(home, sources=False).documents
    )
    return Reading(_ByPath(), documents, tuple(d.path for d in documents))  # type: ignore[arg-type]


def _item(kind: str, a: tuple[str, int | None], b: tuple[str, int | None]) -> dict[str, Any]:
    def side(name: str, line: int | None) -> dict[str, Any]:
        return {"file": f"/memories/global/{name}", "lines": None if line is None else [line]}

    return {"id": "X1", "kind": kind, "a": side(*a), "b": side(*b)}


CONTRADICTIONS = [
    ("file not read", "port", {"a.md": "The API listens on port 8000.\n"}, {}),
    (
        "file not compared",
        "port",
        {"a.md": "The API listens on port 8000.\n", "b.md": "The API listens on port 9000.\n"},
        {"b.md": {"record": True}},
    ),
    (
        "line not a statement",
        "port",
        {"a.md": "The API listens on port 8000.\n", "b.md": "# The API\n"},
        {},
    ),
    (
        "no claim",
        "port",
        {"a.md": "The API listens on port 8000.\n", "b.md": "The trip was lovely.\n"},
        {},
    ),
    (
        "no polarity",
        "always-never",
        {"a.md": "Never deploy on Fridays.\n", "b.md": "The API listens on port 8000.\n"},
        {},
    ),
    (
        "never paired (other kinds)",
        "port",
        {"a.md": "The API listens on port 8000.\n", "b.md": "We build with Node 20.\n"},
        {},
    ),
    (
        "never paired (no key shared)",
        "always-never",
        {"a.md": "Never deploy on Fridays.\n", "b.md": "Always use tabs for indentation.\n"},
        {},
    ),
    (
        "dropped by equal values",
        "port",
        {"a.md": "The API listens on port 8000.\n", "b.md": "The API listens on port 8000.\n"},
        {},
    ),
    (
        "dropped by same_thing",
        "tool",
        {"a.md": "Use pnpm for the web app.\n", "b.md": "Use yarn for the docs site.\n"},
        {},
    ),
    (
        "dropped by contradict",
        "version",
        {"a.md": "We build with Node 20.\n", "b.md": "We build with Node 20.1.\n"},
        {},
    ),
    (
        "dropped by seen_together",
        "port",
        {"a.md": "The API listens on port 8000.\n", "b.md": "The API listens on port 9000.\n"},
        {"a.md": {"group": "/src/one"}, "b.md": {"group": "/src/two"}},
    ),
    (
        "passed every filter",
        "port",
        {"a.md": "The API listens on port 8000.\n", "b.md": "The API listens on port 9000.\n"},
        {},
    ),
]


@pytest.mark.parametrize(("stage", "kind", "files", "changed"), CONTRADICTIONS)
def test_each_contradiction_stage_is_reached(
    tmp_path: Path, stage: str, kind: str, files: dict[str, str], changed: dict[str, Any]
) -> None:
    reading = _reading(tmp_path, files, **changed)
    assert contradiction_fate(reading, _item(kind, ("a.md", 1), ("b.md", 1))).label == stage


def test_every_contradiction_stage_has_its_case() -> None:
    reached = {
        next(s for s in CONTRADICTION_STAGES if stage == s or stage.startswith(f"{s} "))
        for stage, *_ in CONTRADICTIONS
    }
    assert reached == set(CONTRADICTION_STAGES)
    named = [stage for stage, *_ in CONTRADICTIONS if stage.startswith(("dropped", "never"))]
    assert len(named) == len({*PAIR_TESTS, OTHER_KINDS, NO_SHARED_KEY})


def test_the_polarity_read_is_told_by_its_category(tmp_path: Path) -> None:
    files = {"a.md": "Never deploy on Fridays.\n", "b.md": "Always use tabs for indentation.\n"}
    fate = contradiction_fate(
        _reading(tmp_path, files), _item("always-never", ("a.md", 1), ("b.md", 1))
    )
    assert fate.polarity == "never/always"


_PLAIN = "The trip was lovely.\n"
_AND = " and the food was good and the people were kind"
NO_CLAIM_LINES = [
    ("code span", "The `trip` was lovely.\n", 1),
    ("listed tool", "The trip with the pytest folks was lovely.\n", 1),
    ("capitalised", "The trip to Lisbon was lovely.\n", 1),
    ("number", "The 2 trips were lovely.\n", 1),
    ("version", "The trip was plan v2.1 again.\n", 1),
    ("negator/modal", "The trip should be lovely.\n", 1),
    ("bullet", "- " + _PLAIN, 1),
    ("table row", "| The trip was lovely. |\n", 1),
    ("heading-led", "# Notes\n\n" + _PLAIN, 3),
    ("≤ 8 words", _PLAIN, 1),
    ("9–20 words", f"The trip was lovely{_AND}.\n", 1),
    ("> 20 words", f"The trip was lovely{_AND}{_AND} and the weather was warm.\n", 1),
    ("colon/arrow", "The trip → lovely.\n", 1),
]
"""A claimless line holding one feature (and, but a length, the shortest length)."""
_LENGTHS = {"≤ 8 words", "9–20 words", "> 20 words"}


@pytest.mark.parametrize(("feature", "text", "line"), NO_CLAIM_LINES)
def test_a_line_that_gives_no_claim_tells_what_it_holds(
    tmp_path: Path, feature: str, text: str, line: int
) -> None:
    files = {"a.md": "The API listens on port 8000.\n", "b.md": text}
    fate = contradiction_fate(_reading(tmp_path, files), _item("port", ("a.md", 1), ("b.md", line)))
    extra = set() if feature in _LENGTHS or feature == "version" else {"≤ 8 words"}
    extra |= {"number", "≤ 8 words"} if feature == "version" else set()
    assert fate.label == "no claim" and fate.holds == {feature, *extra}


def test_an_item_whose_two_sides_give_no_claim_has_one_length_its_longest(
    tmp_path: Path,
) -> None:
    files = {"a.md": _PLAIN, "b.md": f"The trip was lovely{_AND}.\n"}
    fate = contradiction_fate(_reading(tmp_path, files), _item("port", ("a.md", 1), ("b.md", 1)))
    assert fate.label == "no claim" and fate.holds == {"9–20 words"}


def test_every_feature_has_its_line_and_the_look_alikes_hold_none(tmp_path: Path) -> None:
    assert [feature for feature, *_ in NO_CLAIM_LINES] == list(FEATURES)
    look_alikes = (
        "Trip notes were lovely.\n"  # capitalised, but first
        "The trip was black and white.\n"  # a tool's name that is an English word
        "The trip was at https://example.org then.\n"  # a link's colon
        "The trip was v-shaped.\n"
    )
    files = {"a.md": "The API listens on port 8000.\n", "b.md": look_alikes}
    fate = contradiction_fate(_reading(tmp_path, files), _item("port", ("a.md", 1), ("b.md", None)))
    assert fate.label == "no claim" and fate.holds == {"≤ 8 words"}


def test_the_no_claim_counts_tell_what_those_lines_hold() -> None:
    items = [{"id": f"X{i}", "kind": "tool"} for i in range(3)]
    fates = {
        "X0": Fate("no claim", holds=frozenset({"bullet", "code span", "≤ 8 words"})),
        "X1": Fate("no claim", holds=frozenset({"bullet", "9–20 words"})),
        "X2": Fate("dropped by", "contradict"),
    }
    row = tally(items, fates, CONTRADICTION_STAGES)["tool"]
    holds = row["noClaimHolds"]
    assert list(holds) == list(FEATURES) and holds["bullet"] == 2 and holds["code span"] == 1
    assert holds["number"] == 0 and sum(holds[f] for f in _LENGTHS) == row["stages"]["no claim"]
    shown = stage_lines("contradictions", {"tool": row})[0]
    assert "no claim 2 (code span 1, bullet 2, ≤ 8 words 1, 9–20 words 1) ·" in shown
    row = tally(items, {"X2": fates["X2"]}, CONTRADICTION_STAGES)["tool"]
    assert "noClaimHolds" not in row


_NOTE = "Uploads go to the media bucket through the signed URL service.\n"
DUPLICATES = [
    ("file not read", {"a.md": _NOTE}, {}, (1, 1)),
    ("file not compared", {"a.md": _NOTE, "b.md": _NOTE}, {"b.md": {"imported": "Codex"}}, (1, 1)),
    ("line not a statement", {"a.md": _NOTE, "b.md": "# Uploads\n"}, {}, (1, 1)),
    (
        "never paired",
        {"a.md": _NOTE, "b.md": "Lint with ruff before each commit on every branch.\n"},
        {},
        (1, 1),
    ),
    (
        "a candidate",
        {
            "a.md": "Retry failed uploads 3 times before giving up.\nDeploys run nightly.\n",
            "b.md": "Failed uploads: retry them 3 times, then give up.\nThe linter is ruff.\n",
        },
        {},
        (1, 1),
    ),
    ("passed every filter", {"a.md": _NOTE, "b.md": _NOTE}, {}, (None, None)),
]


@pytest.mark.parametrize(("stage", "files", "changed", "lines"), DUPLICATES)
def test_each_duplicate_stage_is_reached(
    tmp_path: Path,
    stage: str,
    files: dict[str, str],
    changed: dict[str, Any],
    lines: tuple[int | None, int | None],
) -> None:
    seen = Compared(_reading(tmp_path, files, **changed))
    item = _item("reworded", ("a.md", lines[0]), ("b.md", lines[1]))
    assert duplicate_fate(seen, item).label == stage


def test_every_duplicate_stage_has_its_case() -> None:
    reached = {
        next(s for s in DUPLICATE_STAGES if stage == s or stage.startswith(f"{s} "))
        for stage, *_ in DUPLICATES
    }
    assert reached == set(DUPLICATE_STAGES)


def test_the_counts_name_every_stage_and_each_test_that_dropped() -> None:
    items = [{"id": f"X{i}", "kind": "port"} for i in range(3)]
    fates = {"X0": Fate("never paired"), "X1": Fate("dropped by", "contradict")}
    row = tally(items, fates, CONTRADICTION_STAGES)["port"]
    assert row["missed"] == 2 and sum(row["stages"].values()) == 2
    assert row["stages"]["never paired"] == 1 and row["stages"]["dropped by contradict"] == 1
    assert "dropped" not in row["stages"] and row["stages"]["no claim"] == 0
    fates = {"X0": Fate("never paired", OTHER_KINDS)}
    row = tally(items, fates, CONTRADICTION_STAGES)["port"]
    assert row["stages"]["never paired (other kinds)"] == 1 and row["stages"]["dropped"] == 0
    assert "never paired" not in row["stages"]


@pytest.mark.slow
def test_the_tune_half_s_stages_add_up_to_its_misses_and_its_finds_pass_them_all(
    capsys: pytest.CaptureFixture[str],
) -> None:
    card = scorecard("tune", stages=True)
    for engine in ("contradictions", "duplicates"):
        missed = card[engine]["missed"]
        stages = card["stages"][engine]
        assert sorted(stages["items"]) == sorted(missed)
        assert sum(row["missed"] for row in stages["byKind"].values()) == len(missed)
        for kind, row in stages["byKind"].items():
            assert sum(row["stages"].values()) == row["missed"], kind
            assert (
                card[engine]["byKind"][kind][1] - card[engine]["byKind"][kind][0] == (row["missed"])
            )
    with tempfile.TemporaryDirectory(prefix="trust-tune-") as folder:  # found: past all
        laid = lay_out("tune", Path(folder))
        matcher = Matcher(laid)
        reading = Reading.of(laid, matcher)
        with as_laid_out(laid):
            seen = Compared(reading)
            found = [
                *(
                    contradiction_fate(reading, i)
                    for i in laid.key["contradictions"]
                    if i["id"] not in card["contradictions"]["missed"]
                ),
                *(
                    duplicate_fate(seen, i)
                    for i in laid.key["duplicates"]
                    if i["kind"] != IMPORT and i["id"] not in card["duplicates"]["missed"]
                ),
            ]
    assert found and {fate.label for fate in found} == {"passed every filter"}
    print_card(card, details=False)
    shown = capsys.readouterr().out
    assert "where the labelled pairs missed fell" in shown
    assert ".md" not in shown and "home/" not in shown  # counts only: no file, no text
    for row in card["stages"]["contradictions"]["byKind"].values():
        at = row["stages"]["no claim"]
        assert not at or sum(row["noClaimHolds"][f] for f in FEATURES[-4:-1]) == at
