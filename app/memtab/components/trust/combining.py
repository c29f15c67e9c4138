"""What Combine into… proposes for whole files that say the same thing, no Qt: one file keeping
every line either says, once (`operations.trust` builds it), reviewed before anything
changes; kept by default is Consolidate now's keeper
(`consolidation.offline.combine.keeper_rank`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from memtab.components.merge import ThreeWayTexts
from memtab.trust.duplicates.records import DuplicateGroup
from memtab.trust.memories import where_in_words
from memtab.trust.records import MemoryPlace

REVIEW_NOTE = (
    "Every line either file says, once, under the kept file's title. Check it and edit it "
    "if needed: Combine keeps exactly this text."
)
"""The note under the text to keep."""


@dataclass(frozen=True)
class CombineChoice:
    """Where a group can be combined: one of its members (`member`: its index) or mux's
    global memory (`member` None)."""

    label: str
    member: int | None


def combine_choices(group: DuplicateGroup) -> list[CombineChoice]:
    """Where `group` can go: each member, then mux's global memory for a group of whole
    files none of which is there already."""
    choices = [
        CombineChoice(f"{file_name(m.path)} — {where_in_words(m)}", index)
        for index, m in enumerate(group.members)
    ]
    in_global = any(m.agent == "mux" and m.scope == "global" for m in group.members)
    if group.kind != "rule" and not in_global:
        choices.append(CombineChoice("A new file in mux's global memory (every session)", None))
    return choices


def file_name(path: str) -> str:
    """A place's file name (`testing.md` of `/memories/project/testing.md`, of a file id)."""
    return path.rstrip("/").rsplit("/", 1)[-1].rsplit(":", 1)[-1]


def newest(places: Sequence[MemoryPlace]) -> int:
    """The index of the place changed last."""
    return max(range(len(places)), key=lambda i: places[i].modified_at)


@dataclass(frozen=True)
class CombineMember:
    """One file of the group as it was read: its text and sha, and what makes it the
    better file to keep (its description, its uses, its pin)."""

    place: MemoryPlace
    text: str
    sha256: str
    described: bool = False
    uses: int | None = None
    """How often agents used it (mux's memory-meta.json); None: not counted (another
    agent's file)."""
    pinned: bool = False

    @property
    def name(self) -> str:
        return file_name(self.place.path)

    def facts(self) -> str:
        """`described · used 12× · pinned`, `no description · never used`."""
        said = ["described" if self.described else "no description"]
        if self.uses is not None:
            said.append(f"used {self.uses}×" if self.uses else "never used")
        if self.pinned:
            said.append("pinned")
        return " · ".join(said)


@dataclass(frozen=True)
class CombineProposal:
    """What Combine proposes for `group`: its files as read, the one kept by default
    (`keeper`), and for each member kept, the review's texts (`reviews`: that member as
    "mine", the others as "theirs", the combined text as the draft to keep)."""

    group: DuplicateGroup
    members: tuple[CombineMember, ...]
    keeper: int
    reviews: tuple[ThreeWayTexts, ...]

    def choices(self) -> list[CombineChoice]:
        """Where the group can go, each member with why it is the better file or not, the
        one kept by default first."""
        listed = combine_choices(self.group)
        for index, member in enumerate(self.members):
            choice = listed[index]
            listed[index] = CombineChoice(f"{choice.label} · {member.facts()}", index)
        order = [self.keeper, *(i for i in range(len(listed)) if i != self.keeper)]
        return [listed[i] for i in order]

    def review(self, choice: CombineChoice) -> ThreeWayTexts:
        """The texts reviewed for `choice` (a new file in global memory: the default
        keeper's combined text, every member going)."""
        return self.reviews[self.keeper if choice.member is None else choice.member]

    def summary(self, choice: CombineChoice) -> str:
        """What accepting `choice` does, in words."""
        gone = [m.name for i, m in enumerate(self.members) if i != choice.member]
        if choice.member is None:
            where = "a new file in mux's global memory"
        else:
            kept = self.members[choice.member]
            where = f"{kept.name} ({where_in_words(kept.place)})"
        return (
            f"{self.group.why}.\nCombine keeps the text below in {where}: every line either "
            f"file says, once. {', '.join(gone)} then "
            f"{'goes' if len(gone) == 1 else 'go'} — Edit → Undo brings "
            f"{'it' if len(gone) == 1 else 'them'} back as before, usage and pins included. "
            "Nothing changes until you combine."
        )


def side_labels(proposal: CombineProposal, choice: CombineChoice) -> tuple[str, str, str]:
    """The review's titles: (no common version), the file kept, the files taken out."""
    kept = proposal.keeper if choice.member is None else choice.member
    others = [m.name for i, m in enumerate(proposal.members) if i != kept]
    first = proposal.members[kept].name
    mine = f"From {first}" if choice.member is None else f"Kept: {first}"
    verb = "And" if choice.member is None else "Taken out"
    return ("", mine, f"{verb}: {', '.join(others)}")
