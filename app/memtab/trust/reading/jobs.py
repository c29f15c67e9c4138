"""The tool a sentence says does a job, known or not (docs/formats.md §19.6).

No list of tools is needed where the sentence's frame is the choice of a job and the slot
holds a name by its form (a code span, a package-like or capitalised name): "`just` runs
the tasks", "Our task runner is Taskfile", "Migrations: `pgroll`", "Errors are tracked in
GlitchTip", "For migrations we rely on `dbmate`". The job is said in the sentence's own
words: its verb of doing ("formats", "linted") or, after a light one ("runs", "built",
"manager"), its object ("the tasks"); what else it says is what the job is for ("the SQL",
"shell scripts"). Two such claims are of one job when the job is and what it is for is the
same, or one of them says for what.
"""

from __future__ import annotations

import re

from memtab.store.text.stems import english_stem
from memtab.trust.reading.named import DAY_WORDS, LANGUAGES
from memtab.trust.reading.tool_kinds import TOOL_KIND, TOOL_KINDS, said_as
from memtab.trust.words import LEFT_OUT

__all__ = ["JOB", "jobs", "same_job"]

JOB = "job:"
"""How a job's key starts: "job:lint|shell script"."""

_NAME = r"(`[^`\n]{1,40}`|@?[A-Za-z][\w.+/@-]{0,39})"
_WORDS = r"((?:[A-Za-z][\w'-]*\s+){0,3}[A-Za-z][\w'-]*)"
_OWNER = r"(?:(?:our|the|my)\s+)"
_DOES = r"\s+([a-z]+s)\s+(the|our|all|every|each)\s+([A-Za-z][A-Za-z\s-]{0,30})$"
_FRAMES: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"^" + _WORDS + r"\s*+:\s*+" + _NAME + r"$"), "label"),
    (re.compile(r"^" + _OWNER + _WORDS + r"\s+is\s+" + _NAME + r"$", re.I), "is"),
    (re.compile(r"^" + _NAME + r"\s+is\s+" + _OWNER + _WORDS + r"$", re.I), "is-after"),
    (re.compile(r"^" + _NAME + _DOES), "does"),
    (re.compile(r"^" + _WORDS + r"\s+(is|are|gets?)\s+([a-z]+ed|built|done|run|cut|kept|made)"
                r"\s+(with|by|in|via|on|using|through)\s+" + _NAME + r"$", re.I), "done"),
    (re.compile(r"^" + _WORDS + r"\s+(goes|go|runs?|lives?)\s+(through|on|in|via)\s+" + _NAME
                + r"$", re.I), "goes"),
    (re.compile(r"^for\s+" + _WORDS + r",?\s+we\s+(?:rely\s+on|use)\s+" + _NAME + r"$", re.I),
     "rely"),
    (re.compile(r"^we\s+(?:rely\s+on|use)\s+" + _NAME + r"\s+for\s+" + _WORDS + r"$", re.I),
     "rely-after"),
)  # fmt: skip
"""The frames of a job and the tool doing it."""
_LIGHT = frozenset(
    {"run", "runner", "build", "builder", "built", "done", "do", "make", "made", "handl",
     "handler", "manag", "manager", "generat", "generator", "kept", "live", "go", "tool",
     "servic", "librari", "framework", "platform", "engin", "provid", "system", "setup"}
)  # fmt: skip
"""Words saying that a job is done, not which (a closed class of light verbs, their agent
nouns and a tool's kinds of thing): the job is what they govern."""
_NOT_DONE = frozenset(
    {"is", "was", "has", "does", "needs", "requires", "wants", "uses", "takes", "gets",
     "says", "means", "lives", "works", "seems", "looks", "supports", "depends", "reads",
     "pins", "knows", "sees", "likes", "calls", "returns", "contains", "includes", "exists"}
)  # fmt: skip
"""Verbs of being, having, needing or reading: no job a tool does."""
_PEOPLE = frozenset(
    {"owner", "owners", "maintainer", "maintainers", "reviewer", "reviewers", "author",
     "lead", "contact", "approver", "assignee", "user", "users", "member", "designer",
     "engineer", "developer", "admin", "on-call", "person", "team", "champion", "sponsor",
     "buddy", "mentor", "dri", "poc", "expert", "captain", "host", "name"}
)  # fmt: skip
"""The last word of a role a person holds ("the owner", "our release manager"): no job of
a tool."""
_HEADS = frozenset(english_stem(kind.split()[-1].lower()) for kind in TOOL_KINDS)
"""What a kind of tool is called ("runner", "linter", "manager", "service"): a job named
as the thing said to be a tool ("our task runner is …") ends in one."""
_NAMED_AS = frozenset({"label", "is", "is-after"})
_ALIASES = {"end-to-end": "e2e", "tests": "test", "testing": "test", "docs": "doc"}
_MARK = re.compile(r"^\s*+(?:[-*+]|\d{1,9}[.)])\s+")
_NOT_NAMES = LEFT_OUT | DAY_WORDS | LANGUAGES
_AGENT = re.compile(r"(?:er|or)$")
_HEDGES = re.compile(r"\b(?:also|too|both|and|or|except|unless|if|when|sometimes|maybe)\b", re.I)
_FILE = re.compile(r"\.[a-z]{1,5}$")
_PACKAGE = re.compile(r"@?[a-z][a-z0-9]*+(?:[-_.][a-z0-9]++)++(?:/[a-z0-9][\w.-]*+)?")
_CAPITALISED = re.compile(r"[A-Z][a-z0-9]++(?:[A-Z][a-z0-9]*+)*+")
_SPAN_NAME = re.compile(r"@?[A-Za-z][\w.+-]*+(?:/[\w.+-]++)?")

Job = tuple[str, str, str]
"""(key, value: the tool, shown)."""


def _stem(word: str, *, head: bool = False) -> str:
    """A job word's stem; a job's head, its agent noun as its verb's ("formatter": format)."""
    word = _ALIASES.get(word.lower(), word.lower()).removesuffix("'s")
    if head and _AGENT.search(word) and len(word) > 5:
        verb = word[:-2]
        word = verb[:-1] if verb[-1:] == verb[-2:-1] else verb
    return english_stem(word)


def _tool(said: str, plain_ok: bool, *, place: bool = False) -> str | None:
    """The tool a slot names by its form (module doc), or None: a code span of one name
    (a file or a path is none), a package-like name, a tool the taxonomy knows, or, where
    `plain_ok`, a capitalised name; after "in" (`place`), no code span (a folder's)."""
    if said.startswith("`") and place:
        return None  # "The migrations live in `migrations`": a folder
    if said.startswith("`"):
        inner = said.strip("`").strip()
        if said_as(inner.lower()) in TOOL_KIND:
            return said_as(inner.lower())
        if not _SPAN_NAME.fullmatch(inner) or ("/" in inner and not inner.startswith("@")):
            return None
        return None if _FILE.search(inner) or inner.lower() in LEFT_OUT else inner.lower()
    lowered = said_as(said.lower())
    if lowered in TOOL_KIND:
        return lowered
    if _PACKAGE.fullmatch(said) and not _FILE.search(said):
        return lowered
    if plain_ok and _CAPITALISED.fullmatch(said) and lowered not in _NOT_NAMES:
        return lowered
    return None


def _job(words: list[str], verb: str = "", frame: str = "") -> tuple[str, list[str]] | None:
    """The job (a verb of doing, or the last word a light verb governs) and what it is
    for, as stems; a job named as a thing (`_NAMED_AS`) ends in what a tool is called (a
    label, also in a doing: "Migrations:", "Link checking:")."""
    kept = [w for w in words if w.lower() not in LEFT_OUT]
    if not kept or kept[-1].lower() in _PEOPLE:
        return None
    head = kept[-1].lower()
    named = frame != "label" or not head.endswith(("s", "ing"))
    if frame in _NAMED_AS and english_stem(head) not in _HEADS and named:
        return None
    stems = [_stem(w, head=i == len(kept) - 1) for i, w in enumerate(kept)]
    if verb and _stem(verb) not in _LIGHT:
        core = _stem(verb)
    else:
        while stems and stems[-1] in _LIGHT:
            stems.pop()
        if not stems:
            return None
        core = stems.pop()
    return core, [s for s in stems if s != core and s not in _LIGHT]


def jobs(sentence: str) -> list[Job]:
    """The tool a sentence says does a job (module doc): none where it hedges."""
    said = _MARK.sub("", sentence).strip().rstrip(".!").strip()
    if len(said) > 90 or _HEDGES.search(said):
        return []
    for pattern, frame in _FRAMES:
        found = pattern.match(said)
        if found is not None and (read := _read(frame, found.groups())):
            return read
    return []


def _read(frame: str, groups: tuple[str, ...]) -> list[Job]:
    """The job a frame's parts say, and how it is shown ("the tool that runs the tasks")."""
    if frame == "does":
        name, verb, the, what = groups
        if verb in _NOT_DONE:
            return []
        tool, job = _tool(name, False), _job(what.split(), verb[:-1])
        shown = f"the tool that {verb} {the} {what}"
    elif frame in ("done", "goes"):
        what, *said, by, name = groups
        # "by", "through" may name a person; "on" a day ("merged on Fridays") unless run on
        persons = ("by", "through") if frame == "goes" else ("by", "through", "on")
        doing = "" if frame == "goes" else said[-1]  # goes, runs, lives: light
        tool = _tool(name, by.lower() not in persons, place=by.lower() == "in")
        job = _job(what.split(), doing, frame)
        shown = f"the tool {what} {' '.join(said)} {by}"
    elif frame in ("is-after", "rely-after"):
        tool, job = _tool(groups[0], frame == "is-after"), _job(groups[1].split(), "", frame)
        shown = f"the {groups[1]}" if frame == "is-after" else f"the tool for {groups[1]}"
    else:
        tool, job = _tool(groups[1], frame != "rely"), _job(groups[0].split(), "", frame)
        shown = f"the {groups[0]}" if frame == "is" else f"the tool for {groups[0]}"
    if tool is None or job is None:
        return []
    core, scope = job
    if (ecosystem := TOOL_KIND.get(tool, "").split(" ")[0]) and ecosystem[0].isupper():
        scope = [*scope, ecosystem.lower()]  # "`vitest` runs the tests": JavaScript's
    return [(f"{JOB}{core}|{' '.join(sorted(set(scope)))}", tool, shown.lower())]


def same_job(one: tuple[str, str], other: tuple[str, str]) -> bool:
    """Whether two jobs (key and tool) are of one job: the same, for the same thing or for
    what one of them does not say; two tools the taxonomy knows are `reading.tools`'."""
    if one[1] in TOOL_KIND and other[1] in TOOL_KIND:
        return False
    core, _, scope = one[0].removeprefix(JOB).partition("|")
    other_core, _, other_scope = other[0].removeprefix(JOB).partition("|")
    mine, theirs = set(scope.split()), set(other_scope.split())
    return core == other_core and (not mine or not theirs or bool(mine & theirs))
