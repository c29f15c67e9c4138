"""The scorecard's duplicates line counts the groups no labelled pair is in
(tests/quality/trust_scorecard.py, issue 83): labelled precision cannot see a wrong group
the key says nothing of, so its owner reads them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.quality.trust_matching import Loc, Matcher
from tests.quality.trust_scorecard import score_duplicates


class _Key:
    """A matcher over a key of one duplicate pair and one near miss, by file name."""

    def __init__(self) -> None:
        self.key: dict[str, Any] = {
            "duplicates": [{"id": "D1", "kind": "reworded", "a": "a.md", "b": "b.md"}],
            "duplicate_near_misses": [{"id": "N1", "kind": "value", "a": "c.md", "b": "d.md"}],
            "contradictions": [],
        }

    def loc(self, member: dict[str, Any]) -> Loc:
        return Loc(member["path"], member.get("line"))

    def pair_matches(self, a: Loc, b: Loc, item: dict[str, Any]) -> bool:
        return {a.file, b.file} == {item["a"], item["b"]}

    def is_index_entry(self, a: Loc, b: Loc) -> bool:
        return False


def _group(*files: str) -> dict[str, Any]:
    return {"kind": "rule", "members": [{"path": f, "line": 1} for f in files]}


def test_a_group_of_no_labelled_pair_is_counted_apart() -> None:
    answer = {"groups": [_group("a.md", "b.md"), _group("c.md", "d.md"), _group("e.md", "f.md")]}
    card = score_duplicates(_Key(), answer)  # type: ignore[arg-type]
    assert card["precisionLabelled"] == 0.5 and card["groups"] == 3
    assert card["unlabelledGroups"] == [["e.md:1", "f.md:1"]]


def test_a_file_and_its_copy_are_not_two_of_its_lines_said_the_same(tmp_path: Path) -> None:
    (tmp_path / "style.md").write_text("- Pipelines start with a value.\n- `with` for paths.\n")
    (tmp_path / "copy.md").write_text("- Pipelines start with a value.\n- `with` for paths.\n")
    matcher = Matcher.__new__(Matcher)  # no laid-out half: only the files' texts are read
    matcher.half_dir, matcher._digests = tmp_path, {}
    lines = {"a": {"file": "style.md", "lines": [1]}, "b": {"file": "style.md", "lines": [2]}}
    copies = {"a": {"file": "style.md", "lines": None}, "b": {"file": "copy.md", "lines": None}}
    whole = (Loc("style.md", None), Loc("copy.md", None))
    assert not matcher.pair_matches(*whole, lines)  # a near miss inside the copied file
    assert matcher.pair_matches(*whole, copies)
    assert matcher.pair_matches(Loc("style.md", 1), Loc("style.md", 2), lines)
