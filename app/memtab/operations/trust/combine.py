"""What Combine into… proposes for whole files that say the same thing, read off the GUI
thread (`components.trust.combining` says what it is).

Each file of the group is read — refused where it changed since the finding was read, or
where Memtab may not change it — with what makes it the better file to keep: a mux file's
pin and uses (memory-meta.json) and its description. The file kept by default is the one
Consolidate now keeps (`keeper_rank`). For each file kept, the combined text is what
Consolidate now's merge makes of it (`carry_into`: what the others add, carried into its
sections), unless that would leave out a content line of theirs (`store.text.content_lines`:
`carry_into` refuses a table the kept file lacks, a variant of one of its items) — then
every line of each, the lines they share once (`line_merge.merge_union`), under the kept
file's frontmatter; a kept file without a description takes theirs (`with_description`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from memtab.components.files.ops import OpResult
from memtab.components.jobs import JobContext
from memtab.components.merge.three_way import ThreeWayTexts, three_way_texts
from memtab.components.trust.changes import current_text
from memtab.components.trust.combining import CombineMember, CombineProposal
from memtab.consolidation.offline.combine import carry_into, keeper_rank
from memtab.consolidation.offline.describe import Description, with_description
from memtab.consolidation.offline.inputs import split_lines
from memtab.file_protocol.memory_file import MemoryFile, MemoryFileError, MuxFile
from memtab.fs.atomic import encode_utf8
from memtab.operations.trust.actions import PlaceFiles
from memtab.store.home import Home, HomeError
from memtab.store.scopes.memory import MemoryStoreError, SaveConflictError
from memtab.store.text.content_lines import content_lines
from memtab.store.text.frontmatter import (
    description_from_text,
    description_prefix,
    find_frontmatter,
    full_description,
)
from memtab.store.text.line_merge import merge_union
from memtab.trust.duplicates.records import DuplicateGroup


def propose_combine(
    home: Home, group: DuplicateGroup, _ctx: JobContext
) -> CombineProposal | OpResult:
    """What Combine proposes for `group`'s files (see the module doc), or why it cannot."""
    files = PlaceFiles(home)
    members: list[CombineMember] = []
    try:
        for place in group.members:
            file = files.open(place)
            if file is None:
                return OpResult("Cannot combine", error=f"{place.path} cannot be reached")
            if file.read_only_reason is not None:
                return OpResult("Cannot combine", error=f"{place.path}: {file.read_only_reason}")
            text, sha = current_text(file, place)
            pinned, uses = _usage(file)
            described = bool(description_from_text(description_prefix(text)))
            members.append(CombineMember(place, text, sha, described, uses, pinned))
    except (SaveConflictError, MemoryFileError, MemoryStoreError, HomeError, OSError) as error:
        return OpResult.failed("Cannot combine", error)
    return proposal_of(group, members)


def proposal_of(group: DuplicateGroup, members: Sequence[CombineMember]) -> CombineProposal:
    """What Combine proposes for `group`'s files as read (`members`): the one kept by
    default and, for each kept, the review's texts."""
    keeper = min(
        range(len(members)),
        key=lambda i: keeper_rank(
            path=members[i].place.path,
            pinned=members[i].pinned,
            described=members[i].described,
            uses=members[i].uses or 0,
            content_count=len(content_lines(members[i].text)),
        ),
    )
    reviews = tuple(_review(members, kept) for kept in range(len(members)))
    return CombineProposal(group, tuple(members), keeper, reviews)


def combined_text(kept: str, others: Sequence[str]) -> str:
    """`kept` with every content line `others` hold that it lacks, once (see the module
    doc), and the first description of theirs when it has none."""
    text = _carried(kept, others)
    if not description_from_text(description_prefix(kept)):
        said = next((d for o in others if (d := full_description(o))), "")
        if said:
            described = with_description(list(split_lines(text)), Description(said, "its copy"))
            if described is not None:
                text = "\n".join(described) + ("\n" if text.endswith("\n") else "")
    return text


def _carried(kept: str, others: Sequence[str]) -> str:
    carried = carry_into(split_lines(kept), [split_lines(other) for other in others])
    if carried is not None:
        text = "\n".join(carried.lines) + ("\n" if kept.endswith("\n") or not kept else "")
        held = content_lines(text)
        if all(content_lines(other) <= held for other in others):
            return text
    span = find_frontmatter(kept)
    head, body = (kept[: span.end], kept[span.end :]) if span is not None else ("", kept)
    for other in others:
        other_span = find_frontmatter(other)
        body = merge_union(body, other[other_span.end :] if other_span is not None else other)
    return head + body


def _review(members: Sequence[CombineMember], kept: int) -> ThreeWayTexts:
    """The review's texts with `kept` kept: it as "mine", the others as "theirs" (one after
    another, each under its name, when there are several), the combined text to keep."""
    others = [m for i, m in enumerate(members) if i != kept]
    if len(others) == 1:
        theirs = others[0].text
    else:
        theirs = "\n".join(f"──── {m.name} ────\n{m.text.rstrip()}\n" for m in others)
    texts = three_way_texts(None, encode_utf8(members[kept].text), encode_utf8(theirs))
    draft = combined_text(members[kept].text, [m.text for m in others])
    return replace(texts, draft=draft, clean=True, both=draft)


def _usage(file: MemoryFile) -> tuple[bool, int | None]:
    """A mux file's pin and uses (memory-meta.json); another agent's has neither (its uses
    are not counted: None)."""
    if not isinstance(file, MuxFile):
        return False, None
    entry = file.store.meta_entries().get(file.store.meta_key(file.path))
    return (entry.pinned, entry.access_count) if entry is not None else (False, 0)
