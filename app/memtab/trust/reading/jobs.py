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
from memtab.trust.reading.tool_kinds import GATED, TOOL_KIND, TOOL_KINDS, kind_of, said_as
from memtab.trust.words import LEFT_OUT

__all__ = [
    "IN_USE",
    "JOB",
    "USED_FOR",
    "jobs",
    "kinds_used",
    "named_uses",
    "same_job",
    "uses_clash",
]

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


IN_USE = "in use "
"""How the key of a tool said in use, or ruled out, by its name starts: "in use enzyme:…"."""
_WHEN_HOW = frozenset(
    {"january", "february", "march", "april", "may", "june", "july", "august", "september",
     "october", "november", "december", "spring", "summer", "autumn", "winter", "again",
     "anymore", "anywhere", "everywhere", "here", "there", "now", "yet", "ever", "either",
     "too", "instead", "together", "alone", "today", "please", "directly", "only"}
)  # fmt: skip
"""Words that say when or how, neither a tool nor what a use is for."""
_NOT_TOOLS = _WHEN_HOW | {
    "ci", "pr", "prs", "api", "apis", "ui", "http", "https", "json", "yaml", "sql", "css",
    "html", "url"
}  # fmt: skip
"""Words that name a time, a thing every project has or how, not a tool."""
_STRONG = re.compile(
    r"[A-Z][\w.+#-]*+|[a-z]++[A-Z][\w.+-]*+|@?[a-z][a-z0-9]*+(?:[-_.][a-z0-9]++)++"
)
"""A word naming a thing by its form: capitalised, camel-cased ("jQuery"), package-like."""
_CAPITAL = re.compile(r"[A-Z][\w.+#-]*+|[a-z]++[A-Z][\w.+-]*+|v?\d++(?:\.\d++)*+")
"""A word going on with a name: capitalised ("Redux Toolkit") or its version ("SQLAlchemy 2")."""
_VERSIONED = re.compile(r"v\d++(?:\.\d++)*+")
_WORD_AT = re.compile(r"`([^`\n]{1,40})`|[@\w][\w.+#@/-]*+")
_BREAK = re.compile(r"\s*+(?:$|[,;:.!?(—–)])")
_MAX_WORDS = 4
_AFTER_NAME = frozenset(
    {"behind", "beside", "across", "via", "onto", "within", "without", "since", "during",
     "against", "inside", "instead", "everywhere", "anywhere", "here", "now", "too", "again",
     "last", "next", "early", "late", "earlier", "later", "ago", "already", "still"}
)  # fmt: skip
"""Words that may follow a tool named as itself (a preposition, an adverb), besides the
stop words: any other word makes the name describe it ("a fixed-window counter")."""
_WHOLE = frozenset(
    {"sinc", "repo", "codebas", "project", "anywher", "everywher", "again", "anymor", "here",
     "code", "thing", "everyth", "anyth", "all", "ani", "whole", "entir", "still", "now"}
)  # fmt: skip
"""Stems of what a rule or a use holds for that name no part: the whole project."""
_HEDGED = re.compile(
    r"\?|\b(?:or|either|e\.g|i\.e|example|such as|like|if|unless|except|when|whether|"
    r"maybe|perhaps|probably|might|could|would|should|will|plan\w*+|consider\w*+|evaluat\w*+|"
    r"try|tries|trying|tried|trial\w*+|pilot\w*+|propos\w*+|was|were|used to|no longer|"
    r"anymore|previously|formerly|legacy|until|removed|deleted|dropped|retired|deprecated|"
    r"replaced|gone|compar\w*+|than|vs|versus|instead|rather)\b|'ll\b|->|→|=>",
    re.IGNORECASE,
)
"""A clause naming alternatives, an example, a condition, what may be or was: no tool said
in use."""
_NEGATED = re.compile(
    r"\b(?:not|no|never|without|avoid|don't|dont|doesn't|isn't|aren't|stop\w*+|quit)\b", re.I
)
_MEANS = re.compile(
    r"(?<![\w'])([\w']++)\s++(with|via|through|using|from|on|in)\s++(?:(?:the|a|an|our)\s++)?",
    re.IGNORECASE,
)
"""A word and the preposition after it that may say a job's means ("mount with", "runs
on", "come from"), the name right after."""
_NOT_MEANS = re.compile(
    r"compar|replac|along|together|pair|talk|chat|speak|spoke|meet|met|sync|agree|familiar|"
    r"help|deal|problem|issue|bug|trouble|experiment|play|fight|struggl|conflict|clash|shar|"
    r"work|compatible|integrat|interop|check|confirm|ask|coordinat"
)
"""How words before "with" naming no means start ("pair with", "issues with")."""
_FROM_MEANS = frozenset({"come", "comes", "imported", "loaded", "pulled"})
_ON_MEANS = frozenset(
    {"run", "runs", "running", "built", "build", "builds", "published", "hosted", "deployed",
     "based", "live", "lives", "sit", "sits", "are", "is", "we're", "standardised",
     "standardized", "settled", "served", "scheduled", "queued"}
)  # fmt: skip
"""Words before "on" that make what follows the platform a thing runs on."""
_IN_MEANS = frozenset(
    {"written", "built", "kept", "managed", "defined", "done", "implemented", "configured",
     "handled", "declared", "described", "tracked", "stored", "modelled", "modeled",
     "scripted", "templated", "authored", "coded"}
)  # fmt: skip
_LABEL_AT = re.compile(r"([A-Za-z][\w' /-]{0,40}?)\s*+:\s++")
_LIST_NEXT = re.compile(r"\s*+(?:,|\band\b|/|\+|&)\s*+", re.IGNORECASE)
_PAREN = re.compile(r"\s*+\(([^()\n]{0,80})\)\s*+,?\s*+")
_DOING = re.compile(r"for\b|[a-z]{3,}s\b")
_MOVE = re.compile(
    r"\b(?:mov|switch|migrat|port|convert|transition)(?:ed|ing)\b|\bmoved\b", re.IGNORECASE
)
_MOVE_PART = re.compile(r"\s(?:over\s++)?(from|off|to|onto)\s++(?:(?:the|a|an|our)\s++)?", re.I)
_UNDONE = re.compile(
    r"\b(?:roll\w*+\s++back|rollback|revert\w*+|undo\w*+|undid|abandon\w*+|back\s++out|"
    r"gave\s++up|went\s++back|moved\s++back|switched\s++back)\b",
    re.IGNORECASE,
)
_USING = (
    r"(?:use|using|pull(?:ing)?\s++in|rely(?:ing)?\s++on|introduce|introducing|add|adding|"
    r"adopt|bring(?:ing)?\s++in|reach(?:ing)?\s++for|install|installing|run|running|touch|"
    r"pick|choose|depend(?:ing)?\s++on)\s++"
)
_RULE = re.compile(
    r"(?:(?:we|you|i|please)\s++)?(?:"
    r"(?:(never|don't|dont|do\s++not|must\s++not|mustn't|should\s++not|shouldn't|stop|quit)|"
    r"(always))\s++" + _USING + r"|(avoid|no)\s++(?:" + _USING + r")?|"
    r"(stick\s++(?:to|with)|stay\s++on)\s++)(?:(?:the|a|an|any)\s++)?",
    re.IGNORECASE,
)
"""A rule whose object is a tool by its name: never (avoid, no…) or always (stick to,
stay on) to use it ("Never use Enzyme", "Don't pull in Moment.js", "Stay on npm"); a
"never" or an "always" only with a verb of using (else what follows is its verb: "Never
auto-format…")."""
_BANNED = re.compile(
    r"\s*+(?:is|are)\s++(?:banned|forbidden|prohibited|off-limits|not\s++allowed|"
    r"not\s++permitted|not\s++welcome)\b",
    re.IGNORECASE,
)
_RULE_HEDGES = re.compile(r"\b(?:unless|except|if|when|without|or|until)\b", re.IGNORECASE)
_HELD_FOR = re.compile(
    r"\s++(?:(?:for|in|on|at|within|inside|across|to|during)\s++[^,;:(—–]++|[a-z]++(?<=ly)\b)", re.I
)
"""What a rule's object holds for: a prepositional phrase after it, or an adverb ("for
local development", "in the admin", "locally"), up to a clause mark (a reason follows)."""
_SINCE = re.compile(r"\s++since\s++(?:(?:the|last)\s++)?[\w-]++", re.IGNORECASE)
_EVERYTHING = re.compile(r"\b(?:everything|all|every|everywhere)\b", re.IGNORECASE)
_CLAUSES = re.compile(r";\s*+|\s[—–]\s|(?<=[.!?])\s++")
_STEM_WORDS = re.compile(r"[A-Za-z][\w'-]*+")
_MOVE_STEMS = frozenset({"move", "switch", "migrat", "port", "convert", "transit"})

Use = tuple[str, str, str]
"""(key: "in use " and the name's first word, then what it holds for; value: the name or
"not:" and it; shown)."""


def named_uses(sentence: str) -> list[Use]:
    """The tools a sentence says are in use, or rules for or against, by their names: each
    clause a rule ("Never use Enzyme", "Stay on npm", "Lodash is banned"), a move ("We
    switched the workspace to pnpm": the one left no more), or the means of a job ("mount
    with Enzyme", "formatted via Moment.js", "come from Lodash", "App state: Redux
    Toolkit", "Storybook (v8) documents…") — none where it hedges."""
    found: list[Use] = []
    for index, written in enumerate(_CLAUSES.split(_MARK.sub("", sentence).strip())):
        if clause := written.strip().rstrip(".!"):
            found += _clause_uses(clause, first=index == 0)
    return list(dict.fromkeys(found))


def _clause_uses(clause: str, *, first: bool) -> list[Use]:
    if (rule := _RULE.match(clause)) is not None:
        return _ruled(clause, rule)
    if (named := _name_at(clause, 0)) is not None and _BANNED.match(clause, named[1]):
        return [] if _RULE_HEDGES.search(clause) else [_use(named[0], f"not:{named[0]}", "")]
    if _UNDONE.search(clause) or "?" in clause:
        return []
    if (moved := _MOVE.search(clause)) is not None:
        return _moved(clause, moved)
    if _HEDGED.search(clause):
        return []
    found = _means(clause)
    return found or (_labelled(clause) or _subject(clause) or _since(clause) if first else [])


def _name_at(text: str, at: int) -> tuple[str, int] | None:
    """The tool named at `at` and where its name ends: a code span of one name, a known
    tool, or words naming a thing by their form (`_STRONG`), capitalised words and a
    version after them ("Redux Toolkit", "SQLAlchemy 2"), or one plain noun closing the
    clause ("Celery beat")."""
    first = _WORD_AT.match(text, at)
    if first is None:
        return None
    if first.group(1) is not None:
        tool = _tool(first.group(0), False)
        return (tool, first.end()) if tool and ":" not in tool else None
    word = first.group(0).rstrip(".")
    lowered = said_as(word.lower())
    if lowered in _NOT_NAMES or lowered in _NOT_TOOLS:
        return None
    if lowered not in TOOL_KIND and not _STRONG.fullmatch(word):
        return None
    words, end = [lowered], at + len(word)
    while len(words) < _MAX_WORDS and text[end : end + 1] == " ":
        more = _WORD_AT.match(text, end + 1)
        said = more.group(0).rstrip(".") if more and more.group(1) is None else ""
        if not said or said.lower() in _NOT_NAMES or said.lower() in _NOT_TOOLS:
            break
        going_on = _CAPITAL.fullmatch(said) is not None
        closing = _BREAK.match(text, end + 1 + len(said)) is not None and said.isalpha()
        closing = closing and (_CAPITAL.fullmatch(word) is not None or lowered in TOOL_KIND)
        if not going_on and not (len(words) == 1 and closing and not said.endswith("ly")):
            break
        words.append(said.lower()[1:] if _VERSIONED.fullmatch(said) else said.lower())
        end += 1 + len(said)
        if not going_on:
            break  # one plain noun closes the name
    if (after := _WORD_AT.match(text, end + 1)) and text[end : end + 1] == " ":
        said = after.group(0).lower()
        if said.isalpha() and said not in LEFT_OUT | _AFTER_NAME and not said.endswith("ly"):
            return None  # "a fixed-window counter", "Postgres tables": it names another thing
    name = " ".join(words)
    if name.endswith(".js") and name not in TOOL_KIND:
        name = name.removesuffix(".js")
    return (name, end) if ":" not in name else None


def _scope(text: str, name: str) -> str:
    """What a rule or a use holds for: the stems of `text` but the name's, the whole
    project's and those of doing anything (`_LIGHT`)."""
    words = [w.lower() for w in _STEM_WORDS.findall(text) if "'" not in w]
    kept = [w for w in words if w not in LEFT_OUT and w not in _WHEN_HOW]
    left = _WHOLE | _LIGHT | {english_stem(w) for w in name.split()}
    stems = {english_stem(_ALIASES.get(w, w)) for w in kept} - left
    return " ".join(sorted(s for s in stems if len(s) > 1))


def _use(name: str, value: str, scope: str) -> Use:
    return f"{IN_USE}{name.split(maxsplit=1)[0]}:{scope}", value, f"whether {name} is used"


def _ruled(clause: str, rule: re.Match[str]) -> list[Use]:
    """A rule never (or always) to use the tool it names, for what follows its name."""
    named = _name_at(clause, rule.end())
    if named is None or _RULE_HEDGES.search(clause):
        return []
    name, end = named
    value = name if rule.group(2) or rule.group(4) else f"not:{name}"
    held = _HELD_FOR.match(clause, end)
    return [_use(name, value, _scope(held.group(0), name) if held else "")]


def _moved(clause: str, moved: re.Match[str]) -> list[Use]:
    """A move from one tool to another: the one moved to in use, the one left not, each
    for what the move was of ("We moved the bundling from Webpack to Vite")."""
    if _NEGATED.search(clause, 0, moved.start()):
        return []
    used: list[str] = []
    left: list[str] = []
    rest = moved.end()
    for part in _MOVE_PART.finditer(clause, moved.end(), moved.end() + 200):
        named = _name_at(clause, part.end()) if part.start() <= rest + 60 else None
        if named is not None:
            (left if part.group(1).lower() in ("from", "off") else used).append(named[0])
            rest = named[1]
    if len(used) > 1 or len(left) > 1:
        return []
    names = {english_stem(w) for name in (*used, *left) for w in name.split()}
    scope = " ".join(
        s for s in _scope(clause, "").split() if s not in names and s not in _MOVE_STEMS
    )
    return [*(_use(n, n, scope) for n in used), *(_use(n, f"not:{n}", scope) for n in left)]


def _means(clause: str) -> list[Use]:
    """A tool said as the means of the job a clause names ("Component tests mount with
    Enzyme", "The dev VM runs on Vagrant", "Collection helpers come from Lodash")."""
    negated = _NEGATED.search(clause)
    found = []
    read = 0
    for means in _MEANS.finditer(clause):
        if negated is not None and negated.start() < means.start():
            break
        if not _means_of(means.group(1).lower(), means.group(2).lower()):
            continue
        named = _name_at(clause, means.end())
        if named is None:
            continue
        name, end = named
        scope = _scope(f"{clause[: means.start(2)]} {clause[end:]}", name)
        if scope or _EVERYTHING.search(clause):
            found.append(_use(name, name, scope))
        read += 1
        if read == 2:
            break  # each name reads the whole clause: two of them at most
    return found


def _means_of(word: str, preposition: str) -> bool:
    if preposition in ("with", "via", "through", "using"):  # "1:1 with Jana": no verb
        means = not word.isdigit() and not _NOT_MEANS.match(word)
        return means and word not in LEFT_OUT - {"is", "are", "done"}
    if preposition == "from":
        return word in _FROM_MEANS
    return word in (_ON_MEANS if preposition == "on" else _IN_MEANS)


def _labelled(clause: str) -> list[Use]:
    """A label naming a job and one tool after it ("App state: Redux Toolkit, with RTK
    Query…", "Database access: SQLAlchemy 2 (async)"), not a list of them: a tool no list
    holds only after a label ending in what a tool is called or a doing ("Task runner:",
    "Linting:")."""
    label = _LABEL_AT.match(clause)
    if label is None or label.group(1).split()[-1].lower() in _PEOPLE | LEFT_OUT:
        return []
    named = _name_at(clause, label.end())
    known = named is not None and named[0].split(maxsplit=1)[0] in TOOL_KIND
    head = english_stem(label.group(1).split()[-1].lower())
    if named is None or not (known or head in _HEADS or label.group(1).endswith("ing")):
        return []  # "Symptom: `curl` fails…", "desc: Covers…": a label of no job
    name, end = named
    end = aside.end() if (aside := _PAREN.match(clause, end)) else end
    if (more := _LIST_NEXT.match(clause, end)) is not None and _name_at(clause, more.end()):
        return []
    if not _BREAK.match(clause, end) and not clause.startswith("for ", end + 1):
        return []  # "removing Helm: render the manifests": a step, no tool named
    scope = _scope(label.group(1), name)
    return [_use(name, name, scope)] if scope else []


def _subject(clause: str) -> list[Use]:
    """A tool opening a clause, a parenthesis after it, then the job it does or is for
    ("Storybook (v8, the Vite builder) documents every shared component", "Ladle (…) for
    previews"); a name no list holds doing a job only with a version in the parenthesis
    ("Priya (on leave) owns…" is a person)."""
    named = _name_at(clause, 0)
    aside = _PAREN.match(clause, named[1]) if named else None
    if named is None or aside is None:
        return []
    doing = _DOING.match(clause, aside.end())
    if doing is None or doing.group(0) in _NOT_DONE:
        return []
    known = named[0].split(maxsplit=1)[0] in TOOL_KIND or doing.group(0) == "for"
    if not known and not any(c.isdigit() for c in aside.group(1)):
        return []  # "Priya (on leave) owns the releases": a person
    scope = _scope(clause[aside.end() :], named[0])
    return [_use(named[0], named[0], scope)] if scope else []


USED_FOR = "@used-for"
"""Marks a kind's choice read from a use for what its clause names (`kinds_used`): it
meets another choice only for something both name ("The CI token comes from Vault" says
nothing of where "the OpenAI key lives")."""


def kinds_used(uses: list[Use], sentence: str) -> list[Use]:
    """The taxonomy's choice each named use in use makes ("unit tests run with Jest, e2e
    with Playwright": Jest the JavaScript test runner), for what its clause names: a name
    a common word is only where its job is said (`GATED`)."""
    lowered = sentence.lower()
    found = []
    for key, value, _ in uses:
        first = value.split(maxsplit=1)[0]
        tool = value if value in TOOL_KIND else first if first in TOOL_KIND else None
        if tool is None or value.startswith("not:"):
            continue
        if (job := GATED.get(tool)) and not any(word in lowered for word in job):
            continue
        kind = kind_of(tool, lowered)
        scope = key.partition(":")[2]  # stems: not shown
        said = f"{kind}:{USED_FOR} {scope}" if scope else kind
        found.append((said, tool, f"the {kind} to use"))
    return found


def _since(clause: str) -> list[Use]:
    """A tool opening a clause and the time it has been used since ("Biome since March",
    "Playwright since the spring, for every browser test")."""
    named = _name_at(clause, 0)
    since = _SINCE.match(clause, named[1]) if named else None
    if named is None or since is None:
        return []
    capital = _CAPITAL.fullmatch(clause.split(maxsplit=1)[0]) is not None
    if capital and named[0].split(maxsplit=1)[0] not in TOOL_KIND:
        return []  # "Dana since March": a capitalised name no list holds may be a person
    return [_use(named[0], named[0], _scope(clause[since.end() :], named[0]))]


def uses_clash(one: tuple[str, str], other: tuple[str, str]) -> bool:
    """Whether two named uses (key, value) disagree: one rules a tool out (or tells it was
    left) and the other says it, or a tool it is part of, is in use ("Never use Redux" /
    "App state: Redux Toolkit"), for all the first holds for ("in the API tests": not the
    parser tests) or, said for nothing, for anything."""
    ruled_out, in_use = sorted((one, other), key=lambda use: not use[1].startswith("not:"))
    if not ruled_out[1].startswith("not:") or in_use[1].startswith("not:"):
        return False
    if not set(ruled_out[1].removeprefix("not:").split()) <= set(in_use[1].split()):
        return False
    scope = set(ruled_out[0].partition(":")[2].split())
    return scope <= set(in_use[0].partition(":")[2].split())
