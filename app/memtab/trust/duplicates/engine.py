"""Memories that say the same thing, across agents and scopes (docs/formats.md §19.5).

Every memory is read as its content (`trust.words`: no frontmatter, titles or blank
lines), and compared three ways, each finding a group of the memories it joins:

1. **copies**: the same content, line for line, whitespace runs and list markers aside —
   a copy in another scope, Codex's import of a Claude Code memory
   (`extensions/external_agent_import/…`), a note under other frontmatter;
2. **reworded**: the same note in other words — the IDF-weighted Jaccard similarity of
   their stems at least `REWORDED_SIMILARITY` (the one near-duplicate mechanism,
   `store.text.near_duplicates`; a stem held by every memory weighs nothing, one held by
   two weighs most): a note written again shares its commands, paths, names and
   numbers, a note on the same subject shares its common words. Copies of a member join
   its group;
3. **rules**: one statement — a rule, a fact — written in two memories or more, between
   memories no group above joins (the same rule in global and in a project), found by
   what it says (`trust.duplicates.statements`: `Use pnpm, not npm` / `Prefer pnpm over
   npm in this repo`; never `Branch names are kebab-case` / `Test names are kebab-case`,
   nor two ports), a rule by its own clause too, its reason or example aside
   (`trust.duplicates.clauses`). A sentence held by more than `COMMON_FILES` memories is
   a template's.

Records of what happened (session summaries, episodes, Codex's rollout summaries:
`Document.record`) are not compared: what they repeat is history; nor are Codex's copies of
Claude Code memory (`Document.imported`): an import is never a duplicate to combine
(`sources.codex.imports.shown_once`). The thresholds were
chosen on the tuning half of the seeded corpus (`tests/support/seeded_duplicates.py`),
and measured on the held-out half (docs/trust-quality.md "Duplicates").

`DuplicatesEngine` keeps each file's words (`kept.per_file`, in Memtab's cache dir too):
a second run, in this process or the next, reads every file again but works out the
words only of those whose text changed; and the pairs its two searches found, and which
alike statements say one thing (`per_file.KeptAnswer`): a run over the same files
searches and reads none again.
"""

from __future__ import annotations

import functools
import hashlib
import math
from collections import defaultdict
from collections.abc import Collection, Mapping, Sequence
from typing import Any, NamedTuple

from memtab.check.documents import Document
from memtab.fs.memo import collection_paused
from memtab.kept.per_file import (
    MAX_LINE,
    KeptAnswer,
    KeptOnDisk,
    NotAsMadeError,
    PerFile,
    only,
)
from memtab.markdown import text_lines
from memtab.store.home import Home
from memtab.store.text.near_duplicates import (
    COMMON_FILES,
    alike_groups,
    idf_weights,
    lowered_words,
    near_duplicate_pairs,
)
from memtab.store.text.stems import english_stem
from memtab.trust.duplicates.anchors import same_fact
from memtab.trust.duplicates.boilerplate import (
    LINE_DIGEST,
    alike_past,
    boilerplate_of,
    line_digest,
)
from memtab.trust.duplicates.boilerplate import (
    similarity as weighted_similarity,
)
from memtab.trust.duplicates.meaning import (
    POLARITIES,
    POLARITY,
    at_odds,
    content_text,
    opposed_stems,
    own_name,
    required_by,
)
from memtab.trust.duplicates.records import (
    DuplicateGroup,
    DuplicateKind,
    DuplicatesReport,
    group_key,
    listed,
)
from memtab.trust.duplicates.same_claim import same_claims
from memtab.trust.duplicates.statements import (
    STATEMENT_SIMILARITY,
    Pairs,
    Statement,
    a_header,
    a_template_field,
    alike,
    clause_alike,
    is_statement,
    one_rule,
    rare_weight,
    rules_apart,
    said_whole,
    statement_groups,
    statement_pairs,
    statements_held,
    wrapped_lines,
)
from memtab.trust.memories import MemoryEngine, anew, place_of, where_in_words
from memtab.trust.polarity import headed, rule_of, under_never_heading
from memtab.trust.words import ContentLine, content_lines, sentence_stems, statements

REWORDED_SIMILARITY = 0.36
MIN_NOTE_STEMS = 5
"""A memory of fewer stems says too little to be told reworded from merely alike."""
IMPORT_FOLDER = "external_agent_import/"
"""Where Codex keeps what it imported of another agent's memory."""


class NoteWords(NamedTuple):
    """What the engine keeps of one memory: a digest of its content (copies share it),
    its stems, and its statements with theirs."""

    content: bytes
    stems: frozenset[str]
    statements: tuple[Statement, ...]
    lines: bytes = b""
    """An 8-byte digest of each content line, whitespace runs aside: a line many
    memories hold word for word is a template's (`BOILERPLATE_NOTES`)."""


def note_words(document: Document) -> NoteWords:
    """A memory's words (see the module doc)."""
    stems: set[str] = set()
    found: list[Statement] = []
    own = own_name(document)
    lines = content_lines(document.text)
    wrapped = wrapped_lines(lines, text_lines(document.text))
    forbidden = under_never_heading(document.text) if "#" in document.text else frozenset()
    for line in lines:
        if line.code:
            stems |= sentence_stems(line.text)
            continue
        said_here = statements(line.text)
        for index, sentence in enumerate(said_here):
            said = sentence_stems(sentence if own is None else own.sub(" ", sentence))
            rule = rule_of(headed(sentence) if line.number in forbidden else sentence)
            if rule is not None:  # "Never rebase…" is no "Always rebase…"
                # "Never X without Y" requires Y: it says what "Always X with Y" says
                required = rule.polarity == "never" and required_by(sentence) is not None
                said = said | {POLARITY["always" if required else rule.polarity]}
            stems |= said
            cut = (index == len(said_here) - 1 and line.number in wrapped) or (
                index == 0 and line.number - 1 in wrapped
            )
            if not cut and is_statement(sentence, said):
                found.append(Statement(line.number, sentence, said))
    digests = b"".join(line_digest(line.text) for line in lines if not line.code)
    return NoteWords(_content_digest(lines), frozenset(stems), tuple(found), digests)


def _content_digest(lines: Sequence[ContentLine]) -> bytes:
    """What copies share: a digest of the content lines, whitespace runs aside."""
    digest = hashlib.blake2b(digest_size=16)
    for line in lines:
        digest.update(" ".join(line.text.split()).encode("utf-8", "surrogatepass") + b"\n")
    return digest.digest()


def packed_words(words: NoteWords) -> object:
    """A memory's words as the engine's cache keeps them (`per_file.KeptOnDisk`)."""
    return (words.content, words.stems, tuple(map(tuple, words.statements)), words.lines)


def unpacked_words(held: Any) -> NoteWords:
    """`packed_words`' inverse (TypeError or ValueError for what it never made: a wrong
    type at any level, a line number no file has, a sentence's stems not the note's) —
    checked a field of every statement at once (16,000 notes hold ~500,000)."""
    content, stems, said, lines = held
    if type(content) is not bytes or len(content) != 16 or not _stems(stems):
        raise TypeError("not a memory's words")
    if type(lines) is not bytes or len(lines) % LINE_DIGEST:
        raise TypeError("not a memory's lines")
    if type(said) is not tuple or not only(tuple, said):
        raise TypeError("not a memory's statements")
    if said:
        numbers, texts, stated = zip(*said, strict=True)
        if not (only(int, numbers) and only(str, texts) and only(frozenset, stated)):
            raise TypeError("not a memory's statement")
        if min(numbers) < 1 or max(numbers) > MAX_LINE:
            raise ValueError("a line no file has")
        if not stems.issuperset(frozenset().union(*stated)):
            raise ValueError("a statement's stems are not its memory's")
    return NoteWords(content, stems, tuple(map(Statement._make, said)), lines)


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
        self._agreed = KeptAnswer.of_home(home, "duplicates-rules", valid=_agreed)
        self.said: dict[str, tuple[str, ...]] = {}
        """What each `reworded` group's memories say (their content), by the group's key,
        for the last run: what a model judging them reads (`trust.judging`)."""
        self.read: list[tuple[Document, tuple[Statement, ...]]] = []
        """The last run's memories compared and their statements: the wider net a model
        judges (`trust.judging.net`)."""

    @collection_paused()
    def find(
        self, workspace_id: str | None = None, *, kept: Collection[str] = ()
    ) -> DuplicatesReport:
        """Every group of the home's memory (or of what `workspace_id`'s sessions see),
        but those whose key is in `kept`. HomeError for an unusable registry or an
        unknown workspace."""
        collected, everything = self.memories(workspace_id)
        groups = self.groups_of(collected.documents, everything=everything)
        shown = tuple(group for group in groups if group.key not in kept)
        return DuplicatesReport(
            groups=shown,
            files_read=len(collected.documents),
            kept=len(groups) - len(shown),
            problems=collected.problems,
        )

    def groups_of(
        self, documents: Sequence[Document], *, everything: bool = True
    ) -> list[DuplicateGroup]:
        """The groups among `documents` (see the module doc); `everything`: they are every
        memory the engine reads (what it keeps of others is forgotten). What was kept and
        is found at its use not to be what the engine makes is worked out anew."""
        return anew(
            "duplicates",
            lambda: self._groups_of(documents, everything),
            (self._words, self._searches, self._agreed),
        )

    def _groups_of(self, documents: Sequence[Document], everything: bool) -> list[DuplicateGroup]:
        self.said = {}
        compared = sorted(
            (d for d in documents if not d.record and d.imported is None),
            key=lambda d: (d.path, d.key),
        )
        words = self._words.of_all(compared, note_words, everything=everything)
        notes = [(d, w) for d, w in zip(compared, words, strict=True) if w.stems]
        self.read = [(d, w.statements) for d, w in notes]
        by_content: dict[bytes, list[int]] = defaultdict(list)
        for index, (_, found) in enumerate(notes):
            by_content[found.content].append(index)
        representatives = [members[0] for members in by_content.values()]
        weight = idf_weights(notes[i][1].stems for i in representatives)
        weight.update(dict.fromkeys(POLARITIES, 0.0))  # a mark, not a word: it weighs nothing
        eligible = [i for i in representatives if len(notes[i][1].stems) >= MIN_NOTE_STEMS]
        held = statements_held({i: notes[i][1].statements for i in representatives})
        openers = {
            i: notes[i][1].statements[0].line for i in representatives if notes[i][1].statements
        }
        content = functools.cache(lambda i: content_lines(notes[i][0].text))
        rules = [
            s
            for s, said in held.items()
            if len({o.note for o in said}) <= COMMON_FILES
            and not a_header(said, openers)
            and not a_template_field(said, content)
        ]
        # The two searches over the same files (their words in the same order) find the
        # same pairs: the last run's are kept (most of a run over files that did not change).
        searched = self._searches.get(self._words.last_run)
        texts = [held[stems][0].statement.text for stems in rules]
        if searched is not None and not _holds(
            searched,
            [notes[i][1].stems for i in eligible],
            (rules, texts),
            weight,
            rare_weight(len(representatives)),
        ):
            raise NotAsMadeError("pairs that are not alike as kept")
        if searched is None:
            reworded = _reworded_pairs([notes[i][1].stems for i in eligible], weight)
            boilerplate = boilerplate_of(notes[i][1].lines for i in representatives)
            searched = (
                tuple(
                    (similarity, a, b)
                    for similarity, a, b in reworded
                    if not at_odds(notes[eligible[a]][0], notes[eligible[b]][0])
                    and alike_past(
                        (notes[eligible[a]][0], notes[eligible[a]][1].lines),
                        (notes[eligible[b]][0], notes[eligible[b]][1].lines),
                        boilerplate,
                        weight,
                        REWORDED_SIMILARITY,
                    )
                    and same_claims(
                        notes[eligible[a]][0],
                        notes[eligible[b]][0],
                        boilerplate,
                        weight,
                        lambda one, other: rules_apart(one, other, weight),
                        rare_weight(len(representatives)),
                    )
                ),
                statement_pairs(
                    rules,
                    texts,
                    weight,
                    rare_weight(len(representatives)),
                ),
            )
            self._searches.put(self._words.last_run, searched)
        groups: list[DuplicateGroup] = []
        grouped: dict[int, int] = {}  # a note's index → its group's number
        for joined, similarity in alike_groups(searched[0], rank=lambda index: index):
            members = [eligible[i] for i in joined]
            for rep in members:
                _same_content(notes, by_content[notes[rep][1].content])
            every = [i for rep in members for i in by_content[notes[rep][1].content]]
            number = len(groups)
            grouped.update(dict.fromkeys(every, number))
            groups.append(_reworded_group(notes, members, every, similarity, weight))
            self.said[groups[-1].key] = tuple(content_text(notes[i][0]) for i in members)
        for members in by_content.values():
            if len(members) > 1 and members[0] not in grouped:
                _same_content(notes, members)
                grouped.update(dict.fromkeys(members, len(groups)))
                groups.append(_copy_group(notes, members))
        # Which alike statements say one thing depends on their files' texts and paths
        # too: kept for a run over the same files at the same paths.
        run = hashlib.blake2b(self._words.last_run, digest_size=16)
        for document in compared:
            run.update(document.path.encode("utf-8", "surrogatepass") + b"\0")
        agreed = self._agreed.get(run.digest())
        ruled, parts = statement_groups(notes, held, rules, searched[1], grouped, weight, agreed)
        if agreed is None:
            self._agreed.put(run.digest(), parts)
        groups += ruled
        order: dict[DuplicateKind, int] = {"copy": 0, "reworded": 1, "rule": 2}
        return sorted(groups, key=lambda g: (order[g.kind], g.members[0].path, g.key))


def _reworded_pairs(sets: Sequence[frozenset[str]], weight: Mapping[str, float]) -> Pairs:
    """The memories' stems alike at `REWORDED_SIMILARITY`."""
    return tuple(near_duplicate_pairs(sets, REWORDED_SIMILARITY, weight=weight))


def _searched(answer: Any) -> bool:
    """Whether `answer` is the two searches' pairs, as `groups_of` keeps them: each a
    similarity in (0, 1] and two different indexes."""
    return (
        type(answer) is tuple
        and len(answer) == 2
        and all(type(pairs) is tuple and all(map(_is_pair, pairs)) for pairs in answer)
    )


def _agreed(answer: Any) -> bool:
    """Whether `answer` is `statement_groups`' parts as `groups_of` keeps them: each an
    alike group's number and two memories' numbers or more, none below 0."""
    return type(answer) is tuple and all(
        type(part) is tuple and len(part) > 2 and only(int, part) and min(part) >= 0
        for part in answer
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
    rules: tuple[Sequence[frozenset[str]], Sequence[str]],
    weight: Mapping[str, float],
    rare: float,
) -> bool:
    """Whether the pairs kept name sets that are there (the same files digest alike), each
    as alike as kept and as its search requires (a pair forged under a valid digest is
    none); `rules`: the statements' stems and a sentence of each."""
    said, texts = rules

    def searched_so(sets: Sequence[frozenset[str]], kept: float, i: int, j: int) -> bool:
        if sets is notes:
            return kept >= REWORDED_SIMILARITY - 1e-9
        if (kept >= STATEMENT_SIMILARITY - 1e-9 or said_whole(said[i], said[j])) and alike(
            said[i], said[j], weight, rare
        ) is not None:
            return True
        return (
            clause_alike((texts[i], said[i]), (texts[j], said[j]), weight)
            or (
                not opposed_stems(said[i], said[j])
                and same_fact((texts[i], said[i]), (texts[j], said[j]))
            )
            or one_rule(texts[i], texts[j])
        )

    return all(
        j < len(sets)
        and math.isclose(kept, weighted_similarity(sets[i], sets[j], weight))
        and searched_so(sets, kept, i, j)
        for pairs, sets in zip(searched, (notes, said), strict=True)
        for kept, i, j in pairs
    )


def _same_content(notes: Sequence[tuple[Document, NoteWords]], members: Sequence[int]) -> None:
    """NotAsMadeError unless the memories kept as copies hold the same content."""
    if len(members) > 1:
        # The first, the last and one between: a group of thousands is not read again.
        checked = {members[0], members[len(members) // 2], members[-1]}
        found = {_content_digest(content_lines(notes[i][0].text)) for i in checked}
        if found != {notes[members[0]][1].content}:
            raise NotAsMadeError("copies whose content differs")


def _copy_group(
    notes: Sequence[tuple[Document, NoteWords]], members: Sequence[int]
) -> DuplicateGroup:
    documents = [notes[i][0] for i in members]
    places = tuple(place_of(d) for d in documents)
    return DuplicateGroup(
        kind="copy",
        similarity=1.0,
        why=_copies_why(documents),
        members=places,
        key=group_key(places, [notes[i][1].content for i in members]),
    )


def _copies_why(documents: Sequence[Document]) -> str:
    imported = [d for d in documents if IMPORT_FOLDER in d.path]
    originals = [d for d in documents if IMPORT_FOLDER not in d.path]
    if imported and originals:
        return (
            f"The same text: {_count(imported, 'is', 'are')} Codex's import of "
            f"{where_in_words(place_of(originals[0]))}'s {_name(originals[0])}"
        )
    texts = {d.text for d in documents}
    wheres = {where_in_words(place_of(d)) for d in documents}
    what = "the same text"
    if len(texts) > 1:
        what += ", under other frontmatter or spacing"
    if len(wheres) == 1:
        return f"{what[0].upper()}{what[1:]}, {len(documents)} times in {wheres.pop()}"
    return f"{what[0].upper()}{what[1:]}, in {listed(sorted(wheres))}"


def _reworded_group(
    notes: Sequence[tuple[Document, NoteWords]],
    representatives: Sequence[int],
    members: Sequence[int],
    similarity: float,
    weight: Mapping[str, float],
) -> DuplicateGroup:
    documents = [notes[i][0] for i in members]
    places = tuple(place_of(d) for d in documents)
    shared = frozenset.intersection(*(notes[i][1].stems for i in representatives)) - POLARITIES
    top = sorted(shared, key=lambda s: (-weight.get(s, 0.0), s))[:4]
    shown = _as_written(top, [notes[i][0] for i in representatives])
    copies = len(members) - len(representatives)
    why = (
        f"The same note in other words: {round(similarity * 100)}% of what they say is "
        f"shared ({', '.join(shown)}…)"
    )
    if copies:
        why += f"; {_count_of(copies, 'copy', 'copies')} of one of them too"
    return DuplicateGroup(
        kind="reworded",
        similarity=round(similarity, 3),
        why=why,
        members=places,
        key=group_key(places, [notes[i][1].content for i in members]),
    )


def _as_written(stems: Sequence[str], documents: Sequence[Document]) -> list[str]:
    """Each stem as the first of the documents writes it."""
    wanted = set(stems)
    written: dict[str, str] = {}
    for document in documents:
        for word in lowered_words(document.text):
            found = english_stem(word) if len(word) > 1 else ""
            if found in wanted and found not in written:
                written[found] = word
        if len(written) == len(wanted):
            break
    return [written.get(s, s) for s in stems]


def _name(document: Document) -> str:
    return document.path.rsplit("/", 1)[-1].rsplit(":", 1)[-1]


def _count(documents: Sequence[Document], one: str, many: str) -> str:
    if len(documents) == 1:
        return f"{_name(documents[0])} {one}"
    return f"{len(documents)} files {many}"


def _count_of(count: int, one: str, many: str) -> str:
    return f"{count} {one if count == 1 else many}"
