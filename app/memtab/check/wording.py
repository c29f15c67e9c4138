"""What a line says about what it names: gone, an example, not there yet, or changing.

A check must not report what the memory itself already says: a path in "`src/old.py` was
removed", "e.g. `path/to/file`", "create `docs/setup.md` next", or "if `vercel` is not
installed". These are read from the line's words, in the languages memories are written
in (English first; Korean, Chinese and Japanese for the words that matter most). Every
list errs on the side of silence: a line that might say so is not checked.
"""

from __future__ import annotations

import functools
import re

_WORD = re.compile(r"[a-z0-9]+(?:['’-][a-z0-9]+)*")


class _Words:
    """A list of English words and phrases, found whole in any case, and of CJK words
    found anywhere. Faster than one regex of alternatives: a line is split into its words
    once, and single words are looked up in a set."""

    def __init__(self, *words: str) -> None:
        latin = [w for w in words if w.isascii()]
        self.single = frozenset(w for w in latin if " " not in w and "." not in w)
        # Phrases by their first word: only those whose first word is on the line are tried.
        self.phrases: dict[str, list[str]] = {}
        for phrase in (w for w in latin if " " in w):
            self.phrases.setdefault(phrase.split()[0], []).append(f" {phrase} ")
        self.dotted = tuple(w for w in latin if "." in w)  # "e.g": found anywhere
        self.anywhere = tuple(w for w in words if not w.isascii())

    def search(self, text: str) -> bool:
        lowered, words, spaced = _split(text)
        if not self.single.isdisjoint(words):
            return True
        for first in self.phrases.keys() & words:
            if any(phrase in spaced for phrase in self.phrases[first]):
                return True
        return any(w in lowered for w in self.dotted) or any(w in text for w in self.anywhere)


@functools.lru_cache(maxsize=4096)
def _split(text: str) -> tuple[str, frozenset[str], str]:
    """A line lowered, its words, and its words joined by single spaces (kept for the
    few lists each line is read against)."""
    lowered = text.lower()
    words = _WORD.findall(lowered)
    return lowered, frozenset(words), " " + " ".join(words) + " "


# The line says what it names is no longer there (or was changed): it knows.
_GONE = _Words(
    "removed", "remove", "deleted", "delete", "moved", "move", "renamed", "rename",
    "no longer", "gone", "dropped", "replaced", "replace", "deprecated", "obsolete",
    "formerly", "used to", "previously",
    "instead of", "rather than", "migrated", "archived", "retired",
    "superseded", "missing", "not found", "no such", "does not exist", "doesn't exist",
    "don't exist", "not exist", "nonexistent", "non-existent", "absent",
    "삭제", "제거", "이동", "폐기", "대신", "없음", "없는", "없다", "누락",
    "删除", "移除", "移动", "迁移", "废弃", "替换", "改名", "重命名", "不存在", "没有", "缺少",
    "缺失", "找不到",
    "削除", "移動", "廃止", "置き換え", "名前変更", "存在しない", "見つからない", "欠落",
)  # fmt: skip

# The sentence speaks of a failure or of being out of date ("stale", "errors", "not installed"):
# what it names may have changed. Its own sentence only, where a removal, move or rename
# (`_GONE`) leaves the whole line alone.
_FAILED_OR_PAST = _Words(
    "stale", "outdated", "not installed", "isn't installed",
    "not available", "unavailable", "uninstalled", "fails", "failed", "broken",
    "error", "errors",
)  # fmt: skip
# A fact or a command on a line that speaks of an old thing is not checked ("a Laravel 10 app
# and keeps the old Kernel classes" beside "Laravel 11 style"; a command run "from the old
# laptop"); a path beside "old" is stated as it is now ("The old importer is in `lib/x/`").
_AGED = _Words("old", "older")
_ARROW = re.compile(r"->|→|=>|⇒")
# What lies beside an arrow, up to a code span or path (blanked to 2+ spaces in a line's
# words), punctuation or another arrow: two words or more are a description.
_BESIDE_ARROW = re.compile(r"[^\s,;:()\[\]]++(?: [^\s,;:()\[\]]++)*+")
_WORD_OF_PROSE = re.compile(r"^[^\W\d_]{2,}+(?:['’-][^\W\d_]++)*+[.,!?]?$")

# The line gives an example or a pattern, not a fact.
_EXAMPLE = _Words(
    "e.g", "eg", "for example", "for instance", "example", "examples", "such as",
    "placeholder", "like this", "something like", "pattern",
    "예", "예시", "예를 들어", "例如", "比如", "示例", "例えば", "例",
)  # fmt: skip

# The line speaks of what is not there yet, or is being planned or made.
_NOT_YET = _Words(
    "create", "creates", "creating",
    "todo", "to-do", "to do", "planning", "proposed", "propose",
    "new file", "generate",
    "generated", "generates", "output", "outputs", "writes to", "written to", "produces",
    "emits", "wip", "idea", "tbd", "to be created", "to be added", "to be made",
    "to be written", "not yet", "ignored", "gitignored", "git-ignored", "compiled",
    "not committed", "uncommitted", "not checked in",
    "생성", "예정", "계획", "할 것", "만들", "创建", "将", "计划", "待办", "作成", "予定",
)  # fmt: skip

# The sentence is a condition, a future or a maybe (English's modal verbs, conditional
# conjunctions, hedges): what it names may not be there. Its own sentence only — "Config
# is in `a.toml`; if you change it, restart" still states where the config is.
_MAYBE = _Words(
    "will", "would", "could", "might", "may", "shall", "should", "if", "unless",
    "whether", "optional", "optionally", "consider", "maybe", "perhaps",
    "future", "later", "eventually", "someday", "possibly", "probably",
)  # fmt: skip
_CONTRACTED_WILL = re.compile(r"\w['’](?:ll|d)\b")
"""`it'll`, `we'd`: a contracted will or would."""


# The line speaks of a command or target still to be made.
_PLANNED = _Words(
    "create", "creating", "will", "todo", "to-do",
    "planning", "proposed", "propose", "future", "later", "eventually", "tbd",
    "wip", "not yet", "to be",
    "예정", "계획", "计划", "待办", "予定",
)  # fmt: skip


# A heading or label over lines that are not done yet: "Still open:", "## Next steps".
_OPEN_SECTION = _Words(
    "open", "todo", "to-do", "to do", "next", "next steps", "plan", "plans", "planned",
    "ideas", "idea", "backlog", "later", "future", "roadmap", "pending", "wip", "unresolved",
    "not yet", "proposal", "proposed", "draft", "follow-up", "follow-ups", "followups",
    "할 일", "예정", "계획", "待办", "计划", "予定", "未完了",
)  # fmt: skip


def is_open_section(section: str) -> bool:
    """Whether a heading or label says the lines under it are not done yet."""
    return bool(section) and _OPEN_SECTION.search(section)


def says_gone_under(section: str) -> bool:
    """Whether a heading or label says what is under it was or is to be removed, moved or
    renamed ("## Files to Delete", "Removed:"): the paths listed may be gone already."""
    return bool(section) and _GONE.search(section)


# A verb of making whose object is a thing in a few words, up to the clause's end ("to create
# the local database.", "| Before creating a release |"): it makes that thing, says nothing
# of the line's paths and commands. A name (a blanked code span or path: two spaces or
# more) in its object, or more after it, is what it may make.
_MAKES_A_THING = re.compile(
    r"\b(?:create|creates|creating)(?: [^\W\d_]++){1,6}+ ?+(?:[,.;:!?|()—–]|$)",
    re.IGNORECASE,
)


@functools.lru_cache(maxsize=4096)
def _read(text: str) -> tuple[bool, bool, bool, bool]:
    """What a line says (gone, an example, not there yet, planned), worked out once."""
    plans = _MAKES_A_THING.sub(" ", text) if "creat" in text.lower() else text
    return (
        _GONE.search(text) or _FAILED_OR_PAST.search(text) or _changes(text),
        _EXAMPLE.search(text),
        _NOT_YET.search(plans),
        _PLANNED.search(plans),
    )


def _changes(text: str) -> bool:
    """Whether an arrow on the line says one thing became another (`a.js` → `a.ts`,
    `8080 → 8081`): not when a side is a description ("`make db` → drops the DB",
    "App config → `src/config.ts`": what it does, where it is)."""
    arrows = list(_ARROW.finditer(text))
    if len(arrows) > 1 and _a_flow(text, arrows):
        return False
    return any(
        not (_described(text[: arrow.start()][::-1]) or _described(text[arrow.end() :]))
        for arrow in arrows
    )


def _a_flow(text: str, arrows: list[re.Match[str]]) -> bool:
    """Whether arrows chain three steps or more, one of them words ("browser → `api.ts` →
    `db.py`", "`make up` → `make seed` → open the app"): a flow or a sequence, not one
    name becoming another. A label before the chain (`Request:`) is not a step."""
    cuts = [0, *(edge for arrow in arrows for edge in arrow.span()), len(text)]
    steps = [text[cuts[index] : cuts[index + 1]] for index in range(0, len(cuts), 2)]
    steps[0] = steps[0].rpartition(":")[2]
    return any(_WORD_OF_PROSE.match(word) for step in steps for word in step.split())


def _described(side: str) -> bool:
    """Whether the words right beside an arrow (`side`, read from the arrow out) are two
    words or more (of letters, not `v2`): prose saying what the other side is or does.
    A code span or path there (two spaces or more in a line's words) is a name."""
    beside = _BESIDE_ARROW.match(side[1:] if side.startswith(" ") else side)
    if beside is None:
        return False
    return sum(1 for word in beside.group(0).split(" ") if _WORD_OF_PROSE.match(word)) >= 2


def says_gone(text: str) -> bool:
    """Whether the line says something it names was removed, moved, changed or is missing,
    or speaks of an old thing (`_AGED`)."""
    return _read(text)[0] or _AGED.search(text)


# A link the line says leads nowhere already ("dead link", "the link is broken").
_DEAD_LINK = _Words("broken", "dead", "404")


def says_link_gone(text: str) -> bool:
    """Whether a link's line (its label left out) says what the link leads to was removed,
    moved or changed, or that the link is dead. A past or a failure it speaks of ("error
    budgets", "older decisions", "was") is its topic: a link leads somewhere or not."""
    return bool(_GONE.search(text) or _changes(text) or _DEAD_LINK.search(text))


# A glob's sentence saying it is a pattern for names ("Templates:", "named like"), not
# where files are.
_NAMING = _Words(
    "template", "templates", "pattern", "patterns", "named", "naming", "convention",
    "conventions", "like",
)  # fmt: skip


# A sentence naming a repository ("In the mobile repo, …", "upstream"): a path it names
# whose first folder is not in the checkout may be that repository's.
_REPOSITORY = _Words("repo", "repos", "repository", "repositories", "upstream")


def names_a_repository(sentence: str) -> bool:
    return _REPOSITORY.search(sentence)


def names_a_pattern(sentence: str) -> bool:
    """Whether a glob's sentence gives it as a pattern names follow (see `_NAMING`)."""
    return _NAMING.search(sentence)


def is_example(text: str) -> bool:
    return _read(text)[1]


def names_paths_as_they_are(text: str) -> bool:
    """Whether the paths a line names are stated as they are now: not removed, moved or
    renamed, not an example, not yet there. Only such lines' paths are checked (each in a
    sentence not `hedged`)."""
    _, example, not_yet, _ = _read(text)
    return not (example or not_yet or _GONE.search(text) or _changes(text))


def hedged(sentence: str) -> bool:
    """Whether a sentence is a condition, a future or a maybe (see `_MAYBE`), or speaks of
    the past or a failure (`_FAILED_OR_PAST`)."""
    return (
        _MAYBE.search(sentence)
        or _FAILED_OR_PAST.search(sentence)
        or _CONTRACTED_WILL.search(sentence) is not None
    )


def names_commands_as_they_are(text: str) -> bool:
    """Whether the commands a line names are stated as they work now: not gone, not an
    example, not planned, not run on an old thing (`_AGED`: "from the old Windows laptop"
    may be another machine's). Only such lines' commands are checked."""
    gone, example, _, planned = _read(text)
    return not (gone or example or planned or _AGED.search(text))
