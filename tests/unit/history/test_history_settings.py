"""settings.json's `history` and `consolidation` sections (docs/formats.md §15.1): a bad
value falls back to its default with a warning naming it, the other kept."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memtab.consolidation.review.review_setting import load_review_mode, save_review_mode
from memtab.store.history.prune import MB, load_history_limits
from support.logfail import ExpectLog


def _env(tmp_path: Path, settings: object) -> dict[str, str]:
    (tmp_path / "settings.json").write_text(json.dumps(settings), encoding="utf-8")
    return {"MEMTAB_CONFIG_DIR": str(tmp_path)}


@pytest.mark.parametrize(
    ("section", "expected"),
    [
        ({}, (200, 180)),
        ({"max_mb": 5, "max_age_days": 2.5, "other": "kept"}, (5, 2.5)),
        ({"max_mb": 1.5}, (1.5, 180)),
        ([], (200, 180)),
        ("history", (200, 180)),
    ],
)
def test_history_limits_read(
    tmp_path: Path, section: object, expected: tuple[float, float], expect_log: ExpectLog
) -> None:
    if not isinstance(section, dict):  # a section that is no object is a bad value too
        expect_log("memtab.fs.config.declared", "WARNING", "'history' must be an object")
    limits = load_history_limits(_env(tmp_path, {"history": section}))
    assert (limits.max_bytes, limits.max_age_days) == (int(expected[0] * MB), expected[1])


@pytest.mark.expect_log(
    "memtab.fs.config.declared", "WARNING", r"settings.json: history\.max_mb = .* \(a number ≥ 1\)"
)
@pytest.mark.parametrize("bad", ["5", True, None, 0, 0.5, -3, [5], {"mb": 5}, 10**400])
def test_a_bad_history_limit_is_its_default_the_other_kept(tmp_path: Path, bad: object) -> None:
    section = {"max_mb": bad, "max_age_days": 7}
    (tmp_path / "settings.json").write_text(
        json.dumps({"history": section}).replace("1" + "0" * 400, "1e400"), encoding="utf-8"
    )
    limits = load_history_limits({"MEMTAB_CONFIG_DIR": str(tmp_path)})
    assert (limits.max_bytes, limits.max_age_days) == (200 * MB, 7)


@pytest.mark.parametrize(
    ("section", "expected"),
    [
        ({"review": "apply-directly"}, "apply-directly"),
        ({"review": "review-first", "x": 1}, "review-first"),
        ({}, "review-first"),
        ({"review": None}, "review-first"),
        ([], "review-first"),
        ("apply-directly", "review-first"),
    ],
)
def test_the_review_mode_reads(
    tmp_path: Path, section: object, expected: str, expect_log: ExpectLog
) -> None:
    if not isinstance(section, dict):  # a section that is no object is a bad value too
        expect_log("memtab.fs.config.declared", "WARNING", "'consolidation' must be an object")
    assert load_review_mode(_env(tmp_path, {"consolidation": section})) == expected


@pytest.mark.expect_log(
    "memtab.fs.config.declared",
    "WARNING",
    r"consolidation\.review = .* \(review-first or apply-directly\); using the default",
)
@pytest.mark.parametrize("bad", ["apply", "Apply-Directly", 1, True, ["apply-directly"]])
def test_a_bad_review_mode_is_the_default(tmp_path: Path, bad: object) -> None:
    assert load_review_mode(_env(tmp_path, {"consolidation": {"review": bad}})) == "review-first"


@pytest.mark.parametrize("section", [{"review": "bad", "other": [1]}, "not an object", None])
def test_saving_the_review_mode_keeps_the_sections_other_keys(
    tmp_path: Path, section: object
) -> None:
    env = _env(tmp_path, {"consolidation": section, "history": {"max_mb": 3}})
    save_review_mode("apply-directly", env)
    written = json.loads((tmp_path / "settings.json").read_text(encoding="utf-8"))
    kept = section if isinstance(section, dict) else {}
    assert written["consolidation"] == {**kept, "review": "apply-directly"}
    assert written["history"] == {"max_mb": 3}
