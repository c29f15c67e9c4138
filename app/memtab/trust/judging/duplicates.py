"""`memtab duplicates` with the user's model deciding (`trust.judging`; docs/formats.md §19.5).

What structure proves is not asked: a copy, a group whose lines are the same text (case,
markup and punctuation aside). Every other group the words found — a finding, or a candidate
(`DuplicatesReport.candidates`) — is asked as pairs, its first member with each other one;
then the wider net (`net.candidates`). A pair the model calls `same` is confirmed; `conflict`
or `neither` dismisses that pair, never the others of its group; a pair not answered leaves
its group where the words put it. A group of the net's pairs the model confirmed (joined
where they share a statement) is a finding it judged.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from memtab.check.documents import Document
from memtab.store.text.near_duplicates import lowered_words
from memtab.trust.duplicates.records import DuplicateGroup, DuplicatesReport, group_key, listed
from memtab.trust.duplicates.statements import Statement
from memtab.trust.judging.asking import ModelJudge, net_size
from memtab.trust.judging.kept import Verdict
from memtab.trust.judging.net import Candidate, Together, candidates, places_of, scope_words
from memtab.trust.judging.questions import Pair, shown
from memtab.trust.memories import where_in_words
from memtab.trust.records import MemoryPlace


def wider_duplicates(
    report: DuplicatesReport, read: Sequence[tuple[Document, Sequence[Statement]]]
) -> list[Candidate]:
    """The wider net of `memtab duplicates`: statements of memories (records of what happened
    aside) no group of `report` (its findings, candidates, dismissed) holds together. A
    candidate of whole notes holds none of their lines: the notes are asked as one pair, and
    a rule said in both is still its own."""
    held = [*report.groups, *(g for g in report.candidates if g.kind != "reworded")]
    together = Together([group.members for group in (*held, *report.dismissed)])
    memories = [(document, said) for document, said in read if not document.record]
    return candidates(memories, apart=together.side_by_side, most=net_size(report.files_read))


@dataclass(frozen=True)
class _Asked:
    """A group put to the model: its pairs, each its first member with another (by index)."""

    group: DuplicateGroup
    pairs: tuple[tuple[int, Pair], ...]
    whole: bool
    """Its members are whole notes (`reworded`): judged as one, never split."""


def judge_duplicates(
    report: DuplicatesReport,
    judge: ModelJudge,
    said: Mapping[str, Sequence[str]],
    wider: Sequence[Candidate] = (),
) -> DuplicatesReport:
    """`report` as the model judges it (module doc); `said`: a `reworded` group's memories'
    content by its key (a `rule` group's are its members' lines)."""
    asked = [_asked(group, said) for group in report.groups]
    maybe = [_asked(group, said) for group in report.candidates]
    verdicts = judge.verdicts(
        [pair for one in (*asked, *maybe) for _, pair in one.pairs]
        + [candidate.pair for candidate in wider]
    )
    groups: list[DuplicateGroup] = []
    still: list[DuplicateGroup] = []
    dismissed: list[DuplicateGroup] = []
    for one in asked:
        kept, gone = _judged(one, verdicts)
        groups += kept
        dismissed += gone
    for one in maybe:
        kept, gone = _judged(one, verdicts)
        for group in kept:
            if group.judged_by == "offline":
                still.append(group)
            else:  # what the model confirmed is said as a finding, no longer "Might be …"
                groups.append(group.replaced(why=_as_found(group.why)))
        dismissed += gone
    # The net asks the lines of notes a candidate holds (a rule said in two notes that are
    # not the same note); once the notes are confirmed, their lines are theirs.
    notes = Together([g.members for g in groups if g.kind == "reworded"])
    confirmed = [
        c
        for c in wider
        if _says(verdicts.get(c.pair), "same") and not notes.side_by_side(c.one, c.other)
    ]
    added = _joined(confirmed, verdicts)
    stats = judge.stats
    stats.confirmed += sum(g.judged_by != "offline" for g in groups)
    stats.dismissed += len(dismissed)
    return report.replaced(
        groups=(*groups, *added),
        candidates=tuple(still),
        dismissed=(*report.dismissed, *dismissed),
        judged=judge.note(),
    )


def _asked(group: DuplicateGroup, said: Mapping[str, Sequence[str]]) -> _Asked:
    """The pairs `group` is asked as: none when structure proves it."""
    if group.kind == "copy":
        return _Asked(group, (), False)
    whole = group.kind == "reworded" and bool(said.get(group.key))
    texts = list(said[group.key]) if whole else [m.text for m in group.members]
    if not all(texts) or len(texts) < 2:
        return _Asked(group, (), whole)
    # A reworded group lists copies of its notes among them: a note's scope is known only
    # when each member is one note.
    known = len(texts) == len(group.members)
    scopes = [scope_words(m) if known else "" for m in group.members]
    first = texts[0]
    pairs = tuple(
        (index, Pair(shown(first, scopes[0]), shown(text, scopes[index] if known else "")))
        for index, text in enumerate(texts[1:], start=1)
        if lowered_words(text) != lowered_words(first)
    )
    return _Asked(group, pairs, whole)


def _as_found(why: str) -> str:
    """A candidate's words (`Might be the same note in other words: …`) as a finding's."""
    rest = why.removeprefix("Might be ")
    return rest[:1].upper() + rest[1:] if rest != why else why


def _says(verdict: Verdict | None, kind: str) -> bool:
    return verdict is not None and verdict.verdict == kind


def _judged(
    asked: _Asked, verdicts: Mapping[Pair, Verdict]
) -> tuple[list[DuplicateGroup], list[DuplicateGroup]]:
    """What the model's verdicts make of an asked group: the groups kept (judged by the model
    when every pair of it was confirmed), and the pairs dismissed."""
    group = asked.group
    answered = {index: verdicts[pair] for index, pair in asked.pairs if pair in verdicts}
    if not asked.pairs or not answered:
        return [group], []
    same = [v for v in answered.values() if v.verdict == "same"]
    gone = {index: v for index, v in answered.items() if v.verdict != "same"}
    every = len(answered) == len(asked.pairs)
    if asked.whole:  # whole notes: one verdict for the group
        if every and not gone:
            return [group.replaced(judged_by=same[0].model, reason=same[0].reason)], []
        if every and not same:
            first = next(iter(gone.values()))
            return [], [group.replaced(judged_by=first.model, reason=first.reason)]
        return [group], []
    members = group.members
    out = [
        (group if len(members) == 2 else _subgroup(group, (members[0], members[index]))).replaced(
            judged_by=verdict.model, reason=verdict.reason
        )
        for index, verdict in gone.items()
    ]
    rest = tuple(m for index, m in enumerate(members) if index not in gone)
    if len(rest) < 2:
        return [], out
    kept = group if len(rest) == len(members) else _subgroup(group, rest)
    if every:
        kept = kept.replaced(judged_by=same[0].model, reason=same[0].reason)
    return [kept], out


def _subgroup(group: DuplicateGroup, members: Sequence[MemoryPlace]) -> DuplicateGroup:
    """`group` of only `members` (its key theirs)."""
    return group.replaced(members=tuple(members), key=group_key(members, [m.text for m in members]))


def _joined(
    confirmed: Sequence[Candidate], verdicts: Mapping[Pair, Verdict]
) -> list[DuplicateGroup]:
    """The net's pairs the model confirmed as groups: pairs sharing a statement are one."""
    parent: dict[tuple[str, int], tuple[str, int]] = {}

    def root(node: tuple[str, int]) -> tuple[str, int]:
        while parent.setdefault(node, node) != node:
            node = parent[node] = parent[parent[node]]
        return node

    for candidate in confirmed:
        one, other = (
            (candidate.one.document.key, candidate.one.line),
            (
                candidate.other.document.key,
                candidate.other.line,
            ),
        )
        parent[root(one)] = root(other)
    joined: dict[tuple[str, int], list[Candidate]] = {}
    for candidate in confirmed:
        joined.setdefault(root((candidate.one.document.key, candidate.one.line)), []).append(
            candidate
        )
    return [_group_of(found, verdicts[found[0].pair]) for found in joined.values()]


def _group_of(found: Sequence[Candidate], verdict: Verdict) -> DuplicateGroup:
    """Pairs of the net the model confirmed, as one `rule` group it judged."""
    places: dict[tuple[str, int | None], MemoryPlace] = {}
    for candidate in found:
        for place in places_of(candidate):
            places.setdefault((place.path, place.line), place)
    members = tuple(places.values())
    wheres = sorted({where_in_words(place) for place in members})
    where = f"in {listed(wheres)}" if len(wheres) > 1 else f"twice in {wheres[0]}"
    return DuplicateGroup(
        kind="rule",
        similarity=min(candidate.similarity for candidate in found),
        why=f"The same statement in other words {where}, as the model judged it",
        members=members,
        key=group_key(members, [m.text for m in members]),
        judged_by=verdict.model,
        reason=verdict.reason,
    )
