"""Which claims disagree, one finding a disagreement (docs/formats.md §19.6).

A *side* is what memories say of one thing (a claim, its line left out): every line that
says it, in any memory, is one of its places. Two sides disagree when their claims
contradict (`claims.contradict`) and a session sees a place of each together
(`check.documents.seen_together`). A *disagreement* is every side of one thing joined by
disagreeing — the API's port said 8000 in global memory, 8080 in a project's and 9000 in a
workspace's is one, however many lines say each — found as the connected parts of that
graph by a search that tests each side against those not yet reached, so a thing said
with a thousand values costs a thousand tests, not half a million. The search stops when
`out_of_time` says so: what was found by then is the answer, and `cut` says it was cut.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from memtab.check.documents import Document, seen_together
from memtab.trust.claims import Claim, contradict, group_keys

Said = tuple[Document, Claim]
"""A place a side is said: the memory, and the claim on its line."""
TESTS_A_LOOK = 256
"""Sides tested between two looks at the clock."""


@dataclass
class Disagreement:
    """Sides of one thing that disagree: each a claim (line 0) and the places of it a
    session sees with a place of another side, in the order the memories were read; the
    first two disagree with each other."""

    sides: list[tuple[Claim, list[Said]]]


@dataclass
class Disagreements:
    found: list[Disagreement] = field(default_factory=list)
    cut: bool = False
    """The search stopped at its time bound: other sides were not compared."""


def disagreements(
    documents: Sequence[Document],
    claims: Sequence[Sequence[Claim]],
    *,
    out_of_time: Callable[[], bool],
) -> Disagreements:
    """The disagreements among `documents`, `claims` each one's (see the module doc)."""
    places_of: dict[Claim, list[Said]] = {}
    by_thing: dict[tuple[str, str], list[Claim]] = defaultdict(list)
    for document, found in zip(documents, claims, strict=True):
        for claim in found:
            side = claim._replace(line=0)
            places = places_of.get(side)
            if places is None:
                places = places_of[side] = []
                for key in group_keys(claim):
                    by_thing[(claim.kind, key)].append(side)
            if not places or places[-1] != (document, claim):
                places.append((document, claim))
    search = _Search(places_of, out_of_time)
    for sides in by_thing.values():
        if len({side.value for side in sides}) > 1 and not search.cut:
            search.join(sides)
    return Disagreements(search.disagreements(list(places_of)), search.cut)


class _Search:
    """The sides joined so far (a union-find), each side's neighbours, and the places of
    each side a session sees with a neighbour's."""

    def __init__(self, places_of: dict[Claim, list[Said]], out_of_time: Callable[[], bool]):
        self._places_of = places_of
        self._out_of_time = out_of_time
        self._parent: dict[Claim, Claim] = {}
        self._neighbours: dict[Claim, list[Claim]] = defaultdict(list)
        self._tests = 0
        self.cut = False

    def join(self, sides: Sequence[Claim]) -> None:
        """Join the sides of one thing that disagree (breadth first over those not yet
        reached: see the module doc)."""
        waiting = list(sides)
        while waiting and not self.cut:
            queue = [waiting.pop(0)]
            while queue and not self.cut:
                one = queue.pop(0)
                left = []
                for other in waiting:
                    if self.cut or not self._disagree(one, other):
                        left.append(other)
                    else:
                        queue.append(other)
                waiting = left

    def _disagree(self, one: Claim, other: Claim) -> bool:
        self._tests += 1
        if self._tests % TESTS_A_LOOK == 0 and self._out_of_time():
            self.cut = True
            return False
        if one.value == other.value or not contradict(one, other):
            return False
        if together(self._places_of[one], self._places_of[other]) is None:
            return False
        self._neighbours[one].append(other)
        self._neighbours[other].append(one)
        self._parent[self._root(other)] = self._root(one)
        return True

    def _root(self, side: Claim) -> Claim:
        parent = self._parent.get(side, side)
        while parent != side:
            grand = self._parent.get(parent, parent)
            self._parent[side] = grand
            side, parent = parent, grand
        return side

    def disagreements(self, order: list[Claim]) -> list[Disagreement]:
        """Each joined part as a disagreement, its sides in `order` (the first side said
        first, the second the first side it disagrees with)."""
        parts: dict[Claim, list[Claim]] = defaultdict(list)
        for side in order:
            if side in self._neighbours:
                parts[self._root(side)].append(side)
        found = []
        for sides in parts.values():
            first = sides[0]
            neighbours = set(self._neighbours[first])
            second = next(s for s in sides if s in neighbours)
            ordered = [first, second, *(s for s in sides if s not in (first, second))]
            shown = _shown([(side, self._places_of[side]) for side in ordered])
            found.append(Disagreement([side for side in shown if side[1]]))
        return found


def _shown(sides: list[tuple[Claim, list[Said]]]) -> list[tuple[Claim, list[Said]]]:
    """Each side with the places of it a session sees with a place of another value of
    the disagreement, in another file: worked out a class of memories at a time (what
    `seen_together` tells them by), never each place with each place."""
    files: dict[tuple[str, str | None], dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
    first: dict[tuple[str, str | None], Document] = {}
    for side, places in sides:
        for document, _ in places:
            place_class = (document.group, document.workspace)
            files[place_class][side.value].add(document.key)
            first.setdefault(place_class, document)
    with_others = {
        mine: [
            theirs
            for theirs in files
            if theirs == mine or seen_together(first[mine], first[theirs])
        ]
        for mine in files
    }

    def seen(document: Document, value: str) -> bool:
        for theirs in with_others[(document.group, document.workspace)]:
            for other_value, keys in files[theirs].items():
                if other_value != value and keys - {document.key}:
                    return True
        return False

    return [
        (side, [place for place in places if seen(place[0], side.value)]) for side, places in sides
    ]


def together(ones: Sequence[Said], others: Sequence[Said]) -> tuple[set[int], set[int]] | None:
    """The indexes of the places of each of two sides that a session sees with a place of
    the other (`seen_together`); None when no session sees the two at once.

    Whether two memories are seen together depends only on their group and workspace
    (and that they are two files), so the places are compared a class of them at a time,
    never each copy with each copy."""
    one_classes, other_classes = _classes(ones), _classes(others)
    kept_ones: set[int] = set()
    kept_others: set[int] = set()
    for one_class, one_places in one_classes.items():
        for other_class, other_places in other_classes.items():
            one_doc, other_doc = ones[one_places[0]][0], others[other_places[0]][0]
            if one_class != other_class and not seen_together(one_doc, other_doc):
                continue
            one_keys = {ones[i][0].key for i in one_places}
            other_keys = {others[i][0].key for i in other_places}
            kept_ones.update(i for i in one_places if other_keys - {ones[i][0].key})
            kept_others.update(i for i in other_places if one_keys - {others[i][0].key})
    if not kept_ones or not kept_others:
        return None
    return kept_ones, kept_others


def _classes(places: Sequence[Said]) -> dict[tuple[str, str | None], list[int]]:
    """The places' indexes by what `seen_together` tells memories by."""
    classes: dict[tuple[str, str | None], list[int]] = defaultdict(list)
    for index, (document, _) in enumerate(places):
        classes[(document.group, document.workspace)].append(index)
    return classes
