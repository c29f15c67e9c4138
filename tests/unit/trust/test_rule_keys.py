"""One rule's key (`trust.rule_key`, issue 83) on tests/support/rule_keys.py: a rule and its
opposite whose object is said in other words are a contradiction, one rule said twice in
other words is one duplicate group, and their near misses are neither."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest

from memtab.store.home import Home
from memtab.trust.claims import Claim, contradict, group_keys, sentence_claims
from memtab.trust.duplicates import statements
from memtab.trust.duplicates.engine import DuplicatesEngine
from memtab.trust.rule_key import GATE, key_of, rule_key, same_rule
from support import contradiction_voices, duplicate_voices, rule_keys
from support.contradiction_cases import Case

OPPOSITES_MISSED = {
    "- Don't add print statements to the DAGs.",
    "- Never vendor third-party SDKs.",
    "- Don't run the full Detox suite locally.",
    "- Don't insert debug breakpoints in the tests.",
    "- The `legacy/` module is off limits.",
    "- Never bump the app version without asking.",
    "- Don't touch the generated GraphQL types.",
}
"""Opposites not found, and why: a modifier only the `never` says ("third-party", "full",
"debug", "print statements" of a `print`: a narrower rule is an exception, not an opposite),
another noun ("suite" / "tests"), "legacy" read as a time gone by, "just X; no need to ask"
not read, and "touch" for any verb."""


def _joined(cases: tuple[Case, ...]) -> list[str]:
    found = contradiction_voices.found(cases)
    return [case.one for number, case in enumerate(cases) if found[number]]


def test_opposites_whose_object_is_said_in_other_words_are_contradictions() -> None:
    joined = _joined(rule_keys.OPPOSITES)
    assert sorted(c.one for c in rule_keys.OPPOSITES if c.one not in joined) == sorted(
        OPPOSITES_MISSED
    )
    assert _joined(rule_keys.OPPOSITE_NEAR) == []


def test_the_opposites_written_after_are_found_and_their_near_misses_not() -> None:
    """Written after the change, never tuned on: one near miss is a `value` claim's (the
    frame "commit … files" given two values), not a rule's."""
    assert len(_joined(rule_keys.OPPOSITES_AFTER)) >= 9
    assert _joined(rule_keys.OPPOSITE_NEAR_AFTER) == ["- Don't commit `.DS_Store` files."]


def _scored(cases: Sequence[duplicate_voices.Case], home: Path) -> duplicate_voices.Score:
    documents, ids = duplicate_voices.laid_out(cases)
    groups = DuplicatesEngine(Home(home)).groups_of(documents)
    return duplicate_voices.score([[m.path for m in g.members] for g in groups], ids, cases)


def test_one_rule_said_twice_in_other_words_is_one_group(tmp_path: Path) -> None:
    same = _scored(rule_keys.SAME_RULES, tmp_path / "same")
    assert same.found["global-project"][0] >= 17 and same.across == []
    after = _scored(rule_keys.SAME_RULES_AFTER, tmp_path / "after")
    assert after.found["global-project"][0] >= 9 and after.across == []


def test_near_misses_of_one_rule_said_twice_are_not_grouped(tmp_path: Path) -> None:
    """Two joined before the rule key, by their words: "Don't put secrets in the Helm
    values" / "…image tags…", "rebase … before review" / "… after the release"."""
    near = _scored(rule_keys.SAME_NEAR, tmp_path / "near")
    assert near.polarity == 0 and near.near["subject"][0] <= 2 and near.across == []
    after = _scored(rule_keys.SAME_NEAR_AFTER, tmp_path / "after")
    assert after.polarity == 0 and after.near["subject"][0] == 0 and after.across == []


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("Never commit `.env` files.", "`.env` must never be committed."),
        ("Never put API keys in `Info.plist`.", "Don't store API keys in `Info.plist`."),
        ("Never disable SSL verification.", "Don't turn off SSL verification."),
        ("Never run migrations against production by hand.", "Never run migrations manually."),
        ("Ask before dropping a table.", "Never drop a table without asking."),
    ],
)
def test_one_rule_in_other_words_has_one_key(one: str, other: str) -> None:
    mine, theirs = rule_key(one), rule_key(other)
    assert mine is not None and theirs is not None and same_rule(mine, theirs)


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("Never commit `.env` files.", "Never commit `node_modules`."),
        ("Always rebase before review.", "Always rebase after review."),
        ("Never deploy on Fridays.", "Always deploy on Fridays."),
        ("Always rebase your branch before asking for review.", "Rebase your branch."),
    ],
)
def test_other_rules_have_other_keys(one: str, other: str) -> None:
    mine, theirs = rule_key(one), rule_key(other)
    assert mine is not None and theirs is not None and not same_rule(mine, theirs)


def test_a_rule_to_ask_first_opposes_leave_and_not_a_rule_to_do_it() -> None:
    """ "Ask before X" is never X unasked: "Feel free to X" opposes it, "Always X after Y"
    does not (one may ask, then do it), nor does "Rebase before asking for review"."""
    asked = [c for c in _claims("Ask before dropping the staging tables.") if c.value == "never"]
    assert len(asked) == 1 and GATE in asked[0].key.split()
    assert asked[0].shown == "whether dropping the staging tables is fine without asking"
    said = [c.shown for c in _claims("Ask me before you drop a table.") if c.value == "never"]
    assert said == ["whether to drop a table without asking"]
    leave = _claims("Feel free to drop the staging tables.")
    rule = _claims("Always drop the staging tables after a release.")
    assert any(set(group_keys(asked[0])) & set(group_keys(c)) for c in leave)
    assert any(contradict(asked[0], c) for c in leave)
    assert not any(contradict(asked[0], c) for c in rule)
    assert (
        GATE not in key_of("always", frozenset(_claims("Rebase before asking.")[0].key.split()))[1]
    )


def _claims(sentence: str) -> list[Claim]:
    return [c for c in sentence_claims(sentence) if c.kind == "always-never"]


def test_a_rule_pair_kept_is_taken_as_kept_by_the_next_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The next run over the same files (a fresh engine: the kept pairs read from disk)
    searches nothing again: a rule pair kept is one the kept answer's check takes."""
    documents, _ = duplicate_voices.laid_out(rule_keys.SAME_RULES)
    home = Home(tmp_path / "home")
    found = DuplicatesEngine(home).groups_of(documents)
    assert any(group.kind == "rule" and group.similarity < 0.35 for group in found)
    searched: list[int] = []
    monkeypatch.setattr(statements, "_rule_pairs", lambda *args: searched.append(1) or ())
    assert DuplicatesEngine(home).groups_of(documents) == found and searched == []
