"""Memories that say the same thing, across agents and scopes (docs/formats.md §19.5).

Offline, a *finding* is only what the text itself proves; what the words only suspect is a
*candidate*, shown apart, for the user's model (`trust.judging`) or the user to judge:

1. **copies** (findings): the same text (`same_text`) — a copy in another scope, a note
   under other frontmatter or spacing, the same sentences as a list in one and as prose in
   the other;
2. **one statement said again** (findings): a sentence in one normal form (the same words,
   markup, case and punctuation aside) in two memories or more — the same rule in global
   and in a project — but a template's line (`statements.a_template_line`, its header, its
   fields), a skill's line (`Document.skill`: each skill is read alone and needs all of
   its steps) and a line under a prohibition's heading against one that is not;
3. **reworded** (candidates): notes whose stems are alike at `REWORDED_SIMILARITY` (the
   IDF-weighted Jaccard similarity, `store.text.near_duplicates`), still alike without the
   boilerplate lines they share, and that state nothing against each other (`AtOdds`:
   opposite rules, two values for one thing are a contradiction's, never a duplicate's);
4. **one statement in other words** (candidates): sentences alike in words
   (`statements.statement_pairs`) whose claims and rules do not disagree.

Records of what happened (session summaries, episodes, Codex's rollout summaries:
`Document.record`) are not compared: what they repeat is history; nor are Codex's copies of
Claude Code memory (`Document.imported`): an import is never a duplicate to combine
(`sources.codex.imports.shown_once`). A sentence held by more than `COMMON_FILES` memories
is a template's.

`DuplicatesEngine` keeps each file's words (`kept.per_file`, in Memtab's cache dir too):
a second run, in this process or the next, reads every file again but works out the
words only of those whose text changed; and the pairs its two searches found
(`per_file.KeptAnswer`): a run over the same files searches none again.
"""

from __future__ import annotations

import functools
import hashlib
import math
from collections import defaultdict
from collections.abc import Collection, Mapping, Sequence
from typing import Any, NamedTuple

from memtab.check.documents import Collected, Document
from memtab.fs.memo import collection_paused
from memtab.kept.per_file import (
    MAX_LINE,
    KeptAnswer,
    KeptOnDisk,
    NotAsMadeError,
    PerFile,
    only,
)
from memtab.kept.reports import KeptReport
from memtab.markdown import text_lines
from memtab.store.home import Home
from memtab.store.text.near_duplicates import (
    COMMON_FILES,
    alike_groups,
    idf_weights,
    near_duplicate_pairs,
)
from memtab.trust.claims import contradict, sentence_claims
from memtab.trust.duplicates.boilerplate import (
    LINE_DIGEST,
    AlikePast,
    boilerplate_of,
    line_digest,
)
from memtab.trust.duplicates.boilerplate import (
    similarity as weighted_similarity,
)
from memtab.trust.duplicates.groups import copy_group, reworded_group
from memtab.trust.duplicates.kept import report_context
from memtab.trust.duplicates.meaning import (
    POLARITIES,
    POLARITY,
    AtOdds,
    content_text,
    required_by,
)
from memtab.trust.duplicates.records import DuplicateGroup, DuplicateKind, DuplicatesReport
from memtab.trust.duplicates.same_text import DIGEST, a_task, digest, normal_text, outline
from memtab.trust.duplicates.same_text import text_digest as same_text_digest
from memtab.trust.duplicates.statements import (
    STATEMENT_SIMILARITY,
    Pairs,
    Said,
    Statement,
    a_header,
    a_template_field,
    a_template_line,
    alike,
    apart_by_place,
    candidate_groups,
    is_statement,
    rare_weight,
    said_again,
    said_whole,
    statement_pairs,
    statements_held,
    wrapped_lines,
)
from memtab.trust.memories import MemoryEngine, anew
from memtab.trust.polarity import headed, rule_of, under_never_heading
from memtab.trust.records import MemoryPlace
from memtab.trust.words import ContentLine, content_lines, sentence_stems, statements

REWORDED_SIMILARITY = 0.36
MIN_NOTE_STEMS = 5
"""A memory of fewer stems says too little to be told reworded from merely alike."""


class NoteWords(NamedTuple):
    """What the engine keeps of one memory: a digest of its content (copies share it) and
    of its text (`same_text`), its stems, its statements with theirs and a digest of each
    one's normal form, its lines and its outline."""

    content: bytes
    stems: frozenset[str]
    statements: tuple[Statement, ...]
    lines: bytes = b""
    """An 8-byte digest of each content line, whitespace runs aside: a line many
    memories hold word for word is a template's (`BOILERPLATE_NOTES`)."""
    text: bytes = b""
    """A 16-byte digest of its text (`same_text.text_digest`): the same text's."""
    said: bytes = b""
    """An 8-byte digest of each statement's normal form (`same_text.normal_text`)."""
    outline: bytes = b""
    """An 8-byte digest of its sections' headings (`same_text.outline`), b"" for none."""


class Found(NamedTuple):
    """What a run found: the groups the text proves, and the candidates."""

    groups: list[DuplicateGroup]
    candidates: list[DuplicateGroup]


def note_words(document: Document) -> NoteWords:
    """A memory's words (see the module doc)."""
    stems: set[str] = set()
    found: list[Statement] = []
    said: list[bytes] = []
    text = document.text  # unpacked once
    raw = text_lines(text)
    lines = content_lines(text)
    wrapped = wrapped_lines(lines, raw)
    forbidden = under_never_heading(text) if "#" in text else frozenset()
    for line in lines:
        if line.code:
            stems |= sentence_stems(line.text)
            continue
        said_here = statements(line.text)
        task = a_task(raw[line.number - 1])
        for index, sentence in enumerate(said_here):
            stated = sentence_stems(sentence)
            rule = rule_of(headed(sentence) if line.number in forbidden else sentence)
            if rule is not None:  # "Never rebase…" is no "Always rebase…"
                # "Never X without Y" requires Y: it says what "Always X with Y" says
                required = rule.polarity == "never" and required_by(sentence) is not None
                stated = stated | {POLARITY["always" if required else rule.polarity]}
            stems |= stated
            cut = (index == len(said_here) - 1 and line.number in wrapped) or (
                index == 0 and line.number - 1 in wrapped
            )
            if not cut and not task and is_statement(sentence, stated):
                found.append(Statement(line.number, sentence, stated))
                said.append(digest(normal_text(sentence)))
    shape = outline(text)
    return NoteWords(
        _content_digest(lines),
        frozenset(stems),
        tuple(found),
        b"".join(line_digest(line.text) for line in lines if not line.code),
        same_text_digest(text),
        b"".join(said),
        digest("\n".join(shape)) if shape else b"",
    )


def _content_digest(lines: Sequence[ContentLine]) -> bytes:
    """What copies share: a digest of the content lines, whitespace runs aside."""
    digest = hashlib.blake2b(digest_size=16)
    for line in lines:
        digest.update(" ".join(line.text.split()).encode("utf-8", "surrogatepass") + b"\n")
    return digest.digest()


def packed_words(words: NoteWords) -> object:
    """A memory's words as the engine's cache keeps them (`per_file.KeptOnDisk`)."""
    return (
        words.content,
        words.stems,
        tuple(map(tuple, words.statements)),
        words.lines,
        words.text,
        words.said,
        words.outline,
    )


def unpacked_words(held: Any) -> NoteWords:
    """`packed_words`' inverse (TypeError or ValueError for what it never made: a wrong
    type at any level, a line number no file has, a sentence's stems not the note's) —
    checked a field of every statement at once (16,000 notes hold ~500,000)."""
    content, stems, said, lines, text, normal, shape = held
    if type(content) is not bytes or len(content) != 16 or not _stems(stems):
        raise TypeError("not a memory's words")
    if type(lines) is not bytes or len(lines) % LINE_DIGEST:
        raise TypeError("not a memory's lines")
    if type(text) is not bytes or len(text) != 16 or type(shape) is not bytes:
        raise TypeError("not a memory's text")
    if type(said) is not tuple or not only(tuple, said):
        raise TypeError("not a memory's statements")
    if type(normal) is not bytes or len(normal) != DIGEST * len(said):
        raise TypeError("not a digest of each statement")
    if len(shape) not in (0, DIGEST):
        raise ValueError("not an outline's digest")
    if said:
        numbers, texts, stated = zip(*said, strict=True)
        if not (only(int, numbers) and only(str, texts) and only(frozenset, stated)):
            raise TypeError("not a memory's statement")
        if min(numbers) < 1 or max(numbers) > MAX_LINE:
            raise ValueError("a line no file has")
        if not stems.issuperset(frozenset().union(*stated)):
            raise ValueError("a statement's stems are not its memory's")
    return NoteWords(content, stems, tuple(map(Statement._make, said)), lines, text, normal, shape)


def _stems(held: object) -> bool:
    return type(held) is frozenset and only(str, held)


class DuplicatesEngine(MemoryEngine):
    """Finds the duplicates of a home's memory (see the module doc)."""

    def __init__(
        self, home: Home, *, env: Mapping[str, str] | None = None, sources: bool = True
    ) -> None:
        super().__init__(home, env=env, sources=sources)
        self._words = PerFile(
            KeptOnDisk.of_home(home, "duplicates", pack=packed_words, unpack=unpacked_words)
        )
        self._searches = KeptAnswer.of_home(home, "duplicates-pairs", valid=_searched)
        self._reports = KeptReport(
            home, "duplicates", DuplicatesReport, (DuplicateGroup, MemoryPlace), findings="groups"
        )
        self.said: dict[str, tuple[str, ...]] = {}
        """What each `reworded` candidate's memories say (their content), by the group's
        key, for the last run: what a model judging them reads (`trust.judging`)."""
        self.read: list[tuple[Document, tuple[Statement, ...]]] = []
        """The last run's memories compared and their statements: the wider net a model
        judges (`trust.judging.net`)."""

    @collection_paused()
    def find(
        self, workspace_id: str | None = None, *, kept: Collection[str] = (), reuse: bool = False
    ) -> DuplicatesReport:
        """Every group and candidate of the home's memory (or of what `workspace_id`'s
        sessions see), but those whose key is in `kept`; `reuse`: the report the last run
        kept when nothing it read changed (`kept.reports`; then `said` and `read` are not
        the run's: no model judges it). HomeError for an unusable registry or an unknown
        workspace."""

        def made(collected: Collected, everything: bool) -> tuple[DuplicatesReport, bool]:
            documents = collected.documents
            return self.report_of(documents, everything=everything, kept=kept), True

        context = report_context(kept)
        reports = self._reports if reuse else None
        return self.reported(workspace_id, reports, lambda _: context, made)

    def report_of(
        self,
        documents: Sequence[Document],
        *,
        everything: bool = True,
        kept: Collection[str] = (),
    ) -> DuplicatesReport:
        """The groups and candidates among `documents` (`found_in`) as a report, but those
        whose key is in `kept`: what a model judging them is given (`trust.judging`)."""
        found = self.found_in(documents, everything=everything)
        shown = tuple(group for group in found.groups if group.key not in kept)
        return DuplicatesReport(
            groups=shown,
            files_read=len(documents),
            kept=len(found.groups) - len(shown),
            candidates=tuple(group for group in found.candidates if group.key not in kept),
        )

    def groups_of(
        self, documents: Sequence[Document], *, everything: bool = True
    ) -> list[DuplicateGroup]:
        """The groups the text proves among `documents` (`found_in`)."""
        return self.found_in(documents, everything=everything).groups

    def found_in(self, documents: Sequence[Document], *, everything: bool = True) -> Found:
        """The groups and candidates among `documents` (see the module doc); `everything`:
        they are every memory the engine reads (what it keeps of others is forgotten).
        What was kept and is found at its use not to be what the engine makes is worked
        out anew."""
        return anew(
            "duplicates",
            lambda: self._found_in(documents, everything),
            (self._words, self._searches),
        )

    def _found_in(self, documents: Sequence[Document], everything: bool) -> Found:
        self.said = {}
        compared = sorted(
            (d for d in documents if not d.record and d.imported is None),
            key=lambda d: (d.path, d.key),
        )
        words = self._words.of_all(compared, note_words, everything=everything)
        notes = [(d, w) for d, w in zip(compared, words, strict=True) if w.stems]
        self.read = [(d, w.statements) for d, w in notes]
        by_text: dict[bytes, list[int]] = defaultdict(list)
        for index, (_, found) in enumerate(notes):
            by_text[found.text].append(index)
        groups: list[DuplicateGroup] = []
        for members in by_text.values():
            if len(members) > 1:
                _same_text(notes, members)
                documents = [notes[i][0] for i in members]
                contents = [notes[i][1].content for i in members]
                groups.append(copy_group(documents, contents, [notes[i][1].text for i in members]))
        representatives = [members[0] for members in by_text.values()]
        content = functools.cache(lambda i: content_lines(notes[i][0].text))
        held = statements_held(
            {i: notes[i][1].statements for i in representatives if not notes[i][0].skill}
        )
        openers = {
            i: notes[i][1].statements[0].line for i in representatives if notes[i][1].statements
        }
        templates = [
            s
            for s, said in held.items()
            if len({o.note for o in said}) > COMMON_FILES
            or a_header(said, openers)
            or a_template_field(said, content)
        ]
        for stems in templates:
            del held[stems]
        normal = _normal_forms(notes)
        groups += _said_again(notes, held, normal, content)
        eligible = [i for i in representatives if len(notes[i][1].stems) >= MIN_NOTE_STEMS]
        weight = idf_weights(notes[i][1].stems for i in representatives)
        weight.update(dict.fromkeys(POLARITIES, 0.0))  # a mark, not a word: it weighs nothing
        rules = list(held)
        reworded, alike_said = self._searched(notes, representatives, eligible, rules, weight)
        candidates: list[DuplicateGroup] = []
        reworded_of: dict[int, int] = {}  # a note's index → its candidate's number
        for joined, similarity in alike_groups(reworded, rank=lambda index: index):
            members = [eligible[i] for i in joined]  # their copies checked as a copy group
            every = [i for rep in members for i in by_text[notes[rep][1].text]]
            reworded_of.update(dict.fromkeys(every, len(candidates)))
            candidates.append(
                reworded_group(
                    [notes[i][0] for i in every],
                    [notes[i][1] for i in members],
                    [notes[i][0] for i in members],
                    [notes[i][1].content for i in every],
                    similarity,
                    weight,
                )
            )
            self.said[candidates[-1].key] = tuple(content_text(notes[i][0]) for i in members)

        def one_of(said: Said) -> tuple[str, ...]:  # one statement of each, said once
            note = said.note
            slot = f"reworded {reworded_of[note]}" if note in reworded_of else f"note {note}"
            return slot, f"said {normal(said).hex()}"

        by_place = apart_by_place(notes)
        candidates += candidate_groups(
            notes,
            held,
            rules,
            alike_said,
            one_of,
            lambda one, other: by_place(one, other) or _disagree(one, other),
        )
        order: dict[DuplicateKind, int] = {"copy": 0, "reworded": 1, "rule": 2}
        return Found(
            sorted(groups, key=lambda g: (order[g.kind], g.members[0].path, g.key)),
            sorted(candidates, key=lambda g: (order[g.kind], g.members[0].path, g.key)),
        )

    def _searched(
        self,
        notes: Sequence[tuple[Document, NoteWords]],
        representatives: Sequence[int],
        eligible: Sequence[int],
        rules: Sequence[frozenset[str]],
        weight: Mapping[str, float],
    ) -> tuple[Pairs, Pairs]:
        """The two searches' pairs — the notes alike, the statements alike — kept for a
        run over the same files (their words in the same order: most of a run over files
        that did not change)."""
        rare = rare_weight(len(representatives))
        sets = [notes[i][1].stems for i in eligible]
        searched = self._searches.get(self._words.last_run)
        if searched is not None:
            if not _holds(searched, sets, rules, weight, rare):
                raise NotAsMadeError("pairs that are not alike as kept")
            return searched
        boilerplate = boilerplate_of(notes[i][1].lines for i in representatives)
        at_odds, alike_past = AtOdds(), AlikePast()
        searched = (
            tuple(
                (similarity, a, b)
                for similarity, a, b in _reworded_pairs(sets, weight)
                # the cheaper question first: a pair alike only in the boilerplate it
                # shares has no claim read
                if alike_past(
                    (notes[eligible[a]][0], notes[eligible[a]][1].lines),
                    (notes[eligible[b]][0], notes[eligible[b]][1].lines),
                    boilerplate,
                    weight,
                    REWORDED_SIMILARITY,
                )
                and not at_odds(notes[eligible[a]][0], notes[eligible[b]][0])
            ),
            statement_pairs(rules, weight, rare),
        )
        self._searches.put(self._words.last_run, searched)
        return searched


def _normal_forms(notes: Sequence[tuple[Document, NoteWords]]) -> Any:
    """A statement's normal form's digest, by where it is said (NotAsMadeError for a
    statement its memory does not hold)."""

    def normal(said: Said) -> bytes:
        words = notes[said.note][1]
        at = words.statements.index(said.statement)
        return words.said[at * DIGEST : (at + 1) * DIGEST]

    return normal


def _said_again(
    notes: Sequence[tuple[Document, NoteWords]],
    held: Mapping[frozenset[str], list[Said]],
    normal: Any,
    content: Any,
) -> list[DuplicateGroup]:
    """The statements said in one normal form in two memories or more, each a finding,
    but a template's line (`a_template_line`); a line under a prohibition's heading is said
    apart from the same line under none (its stems hold the rule's polarity)."""
    by_form: dict[tuple[bytes, frozenset[str]], list[Said]] = defaultdict(list)
    for stems, said in held.items():
        for occurrence in said:
            by_form[(normal(occurrence), stems & POLARITIES)].append(occurrence)
    outline_of = functools.cache(lambda note: notes[note][1].outline)
    found = []
    for said in by_form.values():
        chosen = _one_a_note(said)
        if len(chosen) > 1 and not a_template_line(chosen, content, outline_of):
            found.append(said_again(notes, chosen))
    return found


def _one_a_note(said: Sequence[Said]) -> list[Said]:
    """The first statement of each memory (a rule said twice in one memory is the
    consolidator's to clear)."""
    seen: set[int] = set()
    chosen = []
    for occurrence in sorted(said, key=lambda s: (s.note, s.statement.line)):
        if occurrence.note not in seen:
            seen.add(occurrence.note)
            chosen.append(occurrence)
    return chosen


def _disagree(one: Said, other: Said) -> bool:
    """Whether two statements' claims disagree (`claims.contradict`: a port, a tool, always
    or never): a contradiction's, never one statement in other words."""
    mine = sentence_claims(one.statement.text)
    if not mine:
        return False
    theirs = sentence_claims(other.statement.text)
    return any(contradict(a, b) for a in mine for b in theirs)


def _reworded_pairs(sets: Sequence[frozenset[str]], weight: Mapping[str, float]) -> Pairs:
    """The memories' stems alike at `REWORDED_SIMILARITY`."""
    return tuple(near_duplicate_pairs(sets, REWORDED_SIMILARITY, weight=weight))


def _searched(answer: Any) -> bool:
    """Whether `answer` is the two searches' pairs, as `_found_in` keeps them: each a
    similarity in (0, 1] and two different indexes."""
    return (
        type(answer) is tuple
        and len(answer) == 2
        and all(type(pairs) is tuple and all(map(_is_pair, pairs)) for pairs in answer)
    )


def _is_pair(pair: object) -> bool:
    return (
        type(pair) is tuple
        and len(pair) == 3
        and type(pair[0]) is float
        and math.isfinite(pair[0])
        and 0.0 < pair[0] <= 1.0 + 1e-9  # a sum in another order can pass 1 by a bit
        and type(pair[1]) is int
        and type(pair[2]) is int
        and 0 <= pair[1] < pair[2]
    )


def _holds(
    searched: tuple[Pairs, Pairs],
    notes: Sequence[frozenset[str]],
    said: Sequence[frozenset[str]],
    weight: Mapping[str, float],
    rare: float,
) -> bool:
    """Whether the pairs kept name sets that are there (the same files digest alike), each
    as alike as kept and as its search requires (a pair forged under a valid digest is
    none); `said`: the statements' stems."""

    def searched_so(sets: Sequence[frozenset[str]], kept: float, i: int, j: int) -> bool:
        if sets is notes:
            return kept >= REWORDED_SIMILARITY - 1e-9
        return (kept >= STATEMENT_SIMILARITY - 1e-9 or said_whole(said[i], said[j])) and alike(
            said[i], said[j], weight, rare
        ) is not None

    return all(
        j < len(sets)
        and math.isclose(kept, weighted_similarity(sets[i], sets[j], weight))
        and searched_so(sets, kept, i, j)
        for pairs, sets in zip(searched, (notes, said), strict=True)
        for kept, i, j in pairs
    )


def _same_text(notes: Sequence[tuple[Document, NoteWords]], members: Sequence[int]) -> None:
    """NotAsMadeError unless the memories kept as the same text hold it."""
    if len(members) > 1:
        # The first and the last: a group of thousands is not read again.
        checked = {members[0], members[-1]}
        found = {same_text_digest(notes[i][0].text) for i in checked}
        if found != {notes[members[0]][1].text}:
            raise NotAsMadeError("copies whose text differs")
