"""Which tool of a kind a sentence says to use, and which not (docs/formats.md §19.6).

A tool is chosen where the sentence names it as the thing used — after a cue ("Use
pnpm", "Format with black", "Package manager: pnpm", "Test runner is jest", "Tests run
on vitest", "Node via fnm"), or as the subject doing the job ("goreleaser builds the
releases", "pnpm for installs", "Plain pip here") — never where its name only describes
another thing ("the npm token", "Docker Desktop is not installed", "run `npm ci`"), nor in
a comparison ("much faster than pip"). A command said as the means of a job ("install with
`poetry install`") chooses the program it runs. A sentence telling a change ("We dropped
goreleaser; releases are built with ko now", "moved to bun, pnpm is gone") chooses the
new one and says not to use the old.
"""

from __future__ import annotations

import itertools
import re

from memtab.trust.reading.tool_kinds import (
    GATED,
    TOOL_KIND,
    TOOL_KINDS,
    TOOL_WORDS,
    kind_of,
    said_as,
)
from memtab.trust.words import stems_of

USED_FOR = "@used-for"
"""Marks a choice's scope read from what the tool keeps ("The OpenAI key lives in
1Password"): it meets another choice only for a thing both name."""
__all__ = [
    "OLD_PART",
    "TOOL_KIND",
    "TOOL_KINDS",
    "TOOL_WORDS",
    "moved_tools",
    "tells_change",
    "tools",
]

_WORD = re.compile(
    r"(?<![\w./@-])("
    + "|".join(map(re.escape, sorted(TOOL_KIND, key=len, reverse=True)))
    + r")(?![\w/@'-]|\.\w)"
)
_HEAD = re.compile(
    r"(?:\s++v?\d++(?:\.\d++)*+)?+"
    r"(?:\s*+(?:$|[.,;:!?)\]—–(→]|-[\s>]|=>)|\s++(?:for|in|into|on|to|with|here|now|is|are|was|were|"
    r"as|only|not|instead|over|rather|and|across|everywhere|from|by|at|via|then|too|also|since|"
    r"again|still|last|this|locally|globally|everything|exclusively|builds|runs|handles|manages|"
    r"formats|lints|checks|installs|bundles|serves|compiles|does|writes|generates|pins|"
    r"works|publishes|cuts|creates|produces|packages|tests|shop|house|configures|provisions|"
    r"syncs|renders|parses|logs|mocks|stores|stays|remains|orchestrates|drives|powers|owns|"
    r"replaced|replaces|took|takes|wins|won)\b)"
)
"""What follows a tool named as itself: an end, a preposition, a verb of its job — not a
noun it describes ("npm token", "docker desktop"), but "shop" ("we're a uv shop"); its
version may stand between ("Unit tests are written in JUnit 5.")."""
_CUES = frozenset(
    {"use", "uses", "using", "prefer", "prefers", "adopt", "adopted", "with", "via",
     "through", "under", "on", "by", "is", "are", "to", "now", "not", "never", "no", "avoid",
     "than", "over", "of", ":", "we're", "run", "runs", "kept", "keep", "keeps"}
)  # fmt: skip
"""What comes right before a tool that is chosen (or said not to be): a verb of using, a
preposition of means ("Format with black", "Node via fnm"), a label's colon, a negation
("never pip", "instead of npm")."""
_NEGATIONS = frozenset({"don't", "dont", "not", "never", "no", "avoid"})
"""A negation one verb before a tool says not to use it ("don't bring uv")."""
_LEADING = frozenset({"the", "a", "an", "our", "plain", "only", "just"})
_CLAUSE_MARKS = frozenset({";", ",", ":", "(", "—", "–", "."})
_TOKEN = re.compile(r"[\w']+|[;,:(—–.]")
_SUBJECT_AFTER = re.compile(
    r"\s++(?:for\b|here\b|everywhere\b|only\b|(?:is|are)\s++(?:our|the|my|what|not)\b|"
    r"instead\s++of\b|over\b|rather\s++than\b|"
    r"(?:builds|runs|handles|manages|formats|lints|checks|installs|bundles|compiles|does|"
    r"writes|generates|publishes|cuts|creates|produces|packages|tests|configures|provisions|"
    r"syncs|serves|renders|parses|logs|mocks|stores)\b)|\s*+$|,\s*+not\b"
)
"""What follows a tool said as the subject of its job at a clause's start ("pnpm for
installs", "goreleaser builds the releases", "pnpm is our package manager")."""
_PAST = re.compile(
    r"\b(?:was|were|used to|no longer|any ?more|previously|formerly|until|nobody uses|"
    r"(?:is|are|now|considered)\s++legacy)\b|->|→|=>"
)
"""A clause saying what was ("legacy" as what a tool is, not of a part: "the legacy
theme" is a part of the project, `OLD_PART`)."""
_GONE = re.compile(
    r"\b(?:removed|deleted|moved|renamed|replaced|deprecated|obsolete|gone|dropped|retired|"
    r"superseded|archived|instead of|rather than|broken|no such|missing|stopped|quit|ditched|"
    r"abandoned|gave up|given up|giving up|rejected|reverted|cancell?ed|decided against|"
    r"(?:is|are) out|no more|went back|took over|in favou?r of|phased out|got rid of|sunset)\b"
)
"""A clause saying a tool is gone, left or turned down: the verbs and phrases English says
it with (a closed class: of removing, leaving, rejecting and replacing)."""
_PLANNED = re.compile(
    r"\b(?:will|would|could|might|shall|going to|want to|wants to|plan\w*|intend\w*|"
    r"consider\w*|evaluat\w*|explor\w*|try|tries|trying|trial\w*|spike|pilot\w*|"
    r"prototyp\w*|candidates?|propos\w*|someday|one day|eventually|if|whether|"
    r"(?:ticket|todo) (?:to|for)|on the roadmap|in the backlog|"
    r"next (?:quarter|sprint|month|year|week))\b|'ll\b|(?<!in )(?<!since )(?<!until )"
    r"(?<!by )(?<!of )\bmay\b"
)
"""A clause telling what may be, is wanted or being tried (a modal, a verb of intending or
trying, a condition, an errand: "a ticket to move to X"): the tool it names is not the one
used now ("was tried for a month; it did not stick" tells what was, `_PAST`)."""
_ROLE = re.compile(
    r"(?:\b(?:(to|onto|for|with|by|in favou?r of)|(from|off|over))|(→|->|=>))\s*+"
    r"(?:(?:the|a|an|our)\s++)?$"
)
"""The preposition right before the second of two tools in a change: to (for, with, by, in
favour of, an arrow) the one used, from (off, over) the one left ("moved from Y to X",
"dropped Y for X", "X took over from Y")."""
_UNDO = re.compile(
    r"\b(?:roll(?:s|ed|ing)?+\s++back|rollback|walk(?:s|ed|ing)?+\s++back|back(?:s|ed|ing)?+"
    r"\s++out(?:\s++of)?+|call(?:s|ed|ing)?+\s++off|revert(?:s|ed|ing)?+|revers(?:ed|ing)|"
    r"undo(?:es|ing)?+|undid|undone|unw(?:ound|inding)|scrap(?:s|ped|ping)?+|"
    r"cancell?+(?:ed|ing)|abandon(?:s|ed|ing)?+|(?:gave|give|gives|given|giving)\s++up\s++on|"
    r"drop(?:s|ped|ping)?+(?!-)|shelv(?:e|es|ed|ing)|"
    r"(?:fail(?:s|ed)?+|stall(?:s|ed)?+)(?=\s*+(?:$|[,;.!]|(?:and|so|but|because|after|when|"
    r"again|twice|badly|completely|halfway)\b))|"
    r"fell\s++through|(?:went|go|goes|going|gone|switched|moved|came|fell)\s++back)\b"
)
"""A verb undoing or abandoning what it governs (a closed class: of reversing, calling off,
giving up, failing): "rolled back the switch to X", "the move to X was reverted"."""
_CHANGE = re.compile(
    r"\b(?:switch\w*+|mov(?:e|es|ed|ing)|migrat\w++|chang\w++|transition\w*+|swap\w*+|"
    r"port(?:s|ed|ing)?+|rewr\w++|conver\w++|shift\w*+|cut-?over\w*+|roll-?outs?+|"
    r"adopt\w*+|replac\w++)\b"
)
"""A word naming a change of tool (a noun or a verb of changing: "the switch to X", "the PR
that moved us to X"): a "to X" after it is the change's, not the undoing verb's (an upgrade
or a bump keeps the tool: "reverted the upgrade to Vite 5" stays on Vite)."""
_UNDONE_HEAD = re.compile(r"\s++(?:" + _CHANGE.pattern + r"|" + _UNDO.pattern + r"|got\b|gets\b)")
"""What else may follow a tool a clause undoing a change names: the change ("the Pulumi
rewrite"), the undoing ("Rspack got rolled back")."""
_PASSIVE = re.compile(r"\b(?:was|were|got|get|gets|been|being|is|are)\s++(?:\w++\s++)?$")
_UNDO_FAILS = re.compile(r"^(?:fail|stall|fell)")
_SOURCE = re.compile(r"\b(?:from|off)\s++(?:(?:the|a|an|our)\s++)?$")
_TARGET = re.compile(
    r"\b(?:to|onto|into|for|in\s++favou?r\s++of)\s++(?:back\s++)?(?:(?:the|a|an|our)\s++)?$"
)
_REPLACING = re.compile(r"\b(?:replaced|replaces|superseded|supersedes|took over|beat)\b")
OLD_PART = frozenset(
    {"legaci", "old", "older", "previous", "former", "classic", "deprec", "outdat"}
)
"""Stems marking a part of the project as its old one ("the legacy theme", "the old
admin"): a choice for it says nothing of the rest."""
_SPAN = re.compile(r"`([^`\n]+)`")
_INSTALLS = frozenset({"install", "i", "add", "remove", "rm", "uninstall", "sync", "lock"})
"""A package manager's own job: its commands that install as a developer does (its others
publish, run scripts or install a CI image's "`npm ci`", which a project may do with
another)."""
_RUNNER = re.compile(
    r"^(?:(?:uv|poetry|pipenv|pdm|hatch|rye|pixi)\s++run|python3?+\s++-m|npx|bunx|bun\s++x|"
    r"(?:pnpm|npm|yarn)\s++(?:exec|dlx)|bundle\s++exec|go\s++run|cargo)\s++"
)
"""What runs another program (`` `uv run pytest` ``, `` `npx playwright test` ``)."""
_COMMANDS = {"./gradlew": "gradle", "gradlew": "gradle", "mvn": "maven", "./mvnw": "maven",
             "mvnw": "maven"}  # fmt: skip
"""Commands named otherwise than their tool."""
_IMPORT = re.compile(
    r"^(?:from\s++([\w.]++)\s++import\b|import\s++(?:static\s++)?([\w.]++)\s*+(?:$|;|as\b)|"
    r"import\s++[^'\"]*?\bfrom\s++['\"]([^'\"]++)['\"]|"
    r"(?:const|let|var)\s++\w++\s*+=\s*+require\(\s*+['\"]([^'\"]++)['\"]|"
    r"import\s++(?:\w++\s++)?\"([^\"]++)\"|use\s++(\w++)::|using\s++([\w.]++)\s*+;?$|"
    r"require\s++['\"]([^'\"]++)['\"])"
)
"""An import of a module in Python, JavaScript, Go, Rust, C#, the JVM or Ruby."""
_MODULES = {
    "torch": "pytorch", "jinja2": "jinja", "okhttp3": "okhttp", "react-query": "tanstack query",
    "gin-gonic": "gin", "actix_web": "actix-web", "newtonsoft": "newtonsoft.json",
    "fasterxml": "jackson", "sirupsen": "logrus",
}  # fmt: skip
"""Modules named otherwise than their tool."""
_MODULE_PARTS = re.compile(r"[./:@]+")
_IMPORT_OPENS = re.compile(
    r"^\s*+(?:[-*+]\s++)?+(?:[\w /-]{1,40}:\s*+)?+(?:(?:always|never|just|only|don't|do\s+not|"
    r"please|we|i)\s++)*+$",
    re.IGNORECASE,
)
"""What may come before an import that states a tool used: nothing, a label, "always",
"never" ("Dataframes: `import polars as pl`") — not a story ("Error when `import torch`…")."""
_BY_MEANS = re.compile(r"\b(?:with|via|using|use|through)\s*+$", re.IGNORECASE)
"""What comes right before a command said as the means of a job ("install with `poetry
install`"): only there is its program chosen ("Run: `pnpm run seed`" chooses nothing)."""
_CLAUSE_END = re.compile(r"[;,:]\s+|\.\s+|(?<!\s)\s++(?:but|[—–-])\s+")  # a run's first space
_NEGATED_CLAUSE = re.compile(
    r"\b(?:not|never|no|avoid|don't|do not|without|forbidden|banned|disallowed)\b"
)
_FROM = re.compile(r"\bfrom\b")
_NEGATED_BETWEEN = re.compile(r"(?:not|instead of|rather than|over|never)\s")
_WITH = re.compile(r"\bwith\b")
_REPLACE = re.compile(r"\breplace")
_COMPARED = re.compile(r"\b(?:than|like|vs\.?|versus)\s+$")
_COMPARISON = re.compile(
    r"\b(?:faster|slower|better|worse|nicer|simpler|quicker|lighter|heavier|smaller|bigger|"
    r"easier|harder|safer|stricter|leaner)\s+than\b|\bmore\s+\w+\s+than\b|"
    r"\b(?:vs\.?(?!\s*+code\b)|versus|compar\w*|benchmark\w*)(?!\w)"
)
"""A sentence comparing tools: no choice said."""
_NEGATION = re.compile(
    r"\b(?:not|no|never|avoid|without|don't|do not|instead of|rather than)\s++"
    r"(?:(?:use|using|reach\s++for|bring(?:\s++in)?|install|add|pick|choose|touch|run)\s++)?$"
)
"""A negation right before a tool, or before a verb of using it: not to use it."""
_MEANS = frozenset(
    {"written", "built", "lives", "live", "kept", "managed", "defined", "done", "implemented",
     "configured", "handled", "declared", "described", "tracked", "stored", "modelled",
     "modeled"}
)  # fmt: skip
"""Verbs after which "in" names the tool a thing is done with ("written in Cypress")."""
_CLAUSE_BREAK = re.compile(r";|\s[—–]\s|\.\s")
_ARROW = re.compile(r"->|→|=>")
_MOVED_TO = re.compile(r"\b(?:moved|switched|migrated)\s+(?:[\w.-]+\s+){0,8}?to\b")
_TOOL_CLAUSE = re.compile(r"[;,(—–]\s*|\)\s*|\.\s+|(?<!\s)\s++but\s+")  # a run's first space
_TOOL_CLAUSE_SPAN = re.compile(r"[^;,(—–.]++(?:\.(?!\s)[^;,(—–.]*+)*+")
"""A clause as `_TOOL_CLAUSE` splits them, with where it is."""
_SCOPE = re.compile(r"\b(?:for|in|to|on)\s+((?:[\w-]+\s*){1,5})")
_PART = re.compile(
    r"\s*+(?:the|our|my)\s++((?:[\w.-]++\s++){0,3}?(?:apps?|site|website|frontend|backend|api|"
    r"services?|server|workers?|admin|dashboard|cli|storefront|monolith|lambdas?|sdk|portal|"
    r"extension|plugin|bot|microservices?))\b(?!\s*+(?:code|tests?|files?)\b)"
)
"""A clause's subject naming a part of the project ("the docs site", "the API")."""
_JOBS = (
    "logging logs tests testing mocks mocking assertions dates times state fetching arguments "
    "parsing errors configuration config static analysis access layer outbound requests "
    "doubles gitops flags injection dependencies serialization validation migrations emails "
    "styling styles components ui orm persistence queues jobs installs packages types checking "
    "runtime async cli command-line tools experiments tracking linting formatting bundling "
    "builds releases deploys deployment"
)
"""Words of the job a tool does: "for logging" says what it is used for, not where."""
_NO_SCOPE = frozenset(
    {
        *TOOL_KIND,
        *stems_of(_JOBS),
        "everyth",
        "anyth",
        "all",
        "everi",
        "each",
        "whole",
    }
)
"""Stems a "for …" names when it names no part of the project ("uv for everything", "pino
for logging")."""

_DATA = ("ORM", "database library")
_DATA_JOB = frozenset(stems_of("database queries rows sql"))
"""What a database library is for: "for the database" names its job, not a part."""
_INDEX_ENTRY = re.compile(r"^\s*+(?:[-*+]\s++)?+\[[^\]\n]*+\]\([^)\n]*+\)\s*+[—–:-]")
"""A line of an index pointing to a memory and saying what it holds ("[tooling.md](…) —
switched npm → pnpm"): the memory it points to says it, not the index."""

Choice = tuple[str, str, str]
"""(key: the kind and what it holds for, value: the tool or "not:" and it, shown)."""


def plain(sentence: str) -> str:
    """A sentence lower-cased, its code spans left out (a command is no choice of tool) and
    each tool said by its one name."""
    return said_as(_SPAN.sub(_span_said, sentence).lower())


def _span_said(span: re.Match[str]) -> str:
    """A code span as `plain` reads it: the name alone of a tool named by a common word
    ("`just`", "`make`": the span says it is the tool) as the name; an import of a tool's
    module stated as the rule (`_IMPORT_OPENS`) as a use of it ("Dataframes: `import polars
    as pl`"); a command as the tool it runs where
    said as the means (`_BY_MEANS`), through a runner or not ("`npx playwright test`",
    "`bundle exec rspec`"); any other (a binary, "`npm`", "run `npm ci`") left out."""
    said = span.group(1).strip()
    if said.lower() in GATED:
        return f" {said} "
    if (module := imported(said)) is not None:
        stated = _IMPORT_OPENS.search(span.string, 0, span.start()) is not None
        return f" use {module} " if stated else " "
    command = _RUNNER.sub("", said.lower())
    words = said_as(command).split()
    run = len(command) < len(said)  # a runner's program: named alone ("`npx vitest`")
    means = _BY_MEANS.search(span.string, max(0, span.start() - 12), span.start())
    if len(words) < 2 - run or not means:
        return " "
    words[0] = _COMMANDS.get(words[0], words[0])
    program = next((t for t in (" ".join(words[:2]), words[0]) if t in TOOL_KIND), None)
    if program is None:
        return " "
    if TOOL_KIND[program].endswith("package manager") and words[1] not in _INSTALLS:
        return " "  # "`npm publish`", "`pnpm run jobs`": another job than installing
    return f" {program} "


def imported(said: str) -> str | None:
    """The tool whose module a line of code imports ("`import polars as pl`", "`from
    loguru import logger`", "`use axum::Router`", "`using Serilog;`"), or None."""
    found = _IMPORT.match(said)
    if found is None:
        return None
    module = next(group for group in found.groups() if group).lower()
    parts = [part for part in _MODULE_PARTS.split(module) if part]
    dotted = [".".join(parts[:end]) for end in range(len(parts), 0, -1)]
    for part in (*dotted, *parts):
        name = _MODULES.get(part, part)
        for tool in (name, name.replace("_", "-")):
            if tool in TOOL_KIND:
                return tool
    return None


def _says_job(lowered: str, job: tuple[str, ...]) -> bool:
    return any(word.startswith(job) for word in _TOKEN.findall(lowered))


def _named(
    lowered: str, sentence: str, head: re.Pattern[str] | None = None
) -> list[tuple[int, str]]:
    """Where tools are named as themselves (not describing another thing; `head`: or what
    else may follow one): a tool named by a common word only where `sentence` names its job
    (`tool_kinds.GATED`)."""
    found = []
    for match in _WORD.finditer(lowered):
        tool = match.group(1)
        job = GATED.get(tool)
        if job is not None and not _says_job(sentence, job):
            continue
        if _HEAD.match(lowered, match.end()) or (head and head.match(lowered, match.end())):
            found.append((match.start(), tool))
    return found


def _chosen(lowered: str, start: int, tool: str) -> bool:
    """Whether the tool named at `start` is said to be the one used (or not to be): after
    a cue, or opening a clause as the subject of its job."""
    before = _TOKEN.findall(lowered[max(0, start - 40) : start])
    while before and before[-1] in _LEADING:
        before.pop()
    if before and (before[-1] in _CUES or (len(before) > 1 and before[-2] in _NEGATIONS)):
        return True
    if len(before) > 1 and before[-1] == "in" and before[-2] in _MEANS:
        return True  # "Browser tests are written in Cypress", "All infra lives in Terraform"
    if len(before) > 2 and before[-3] in _NEGATIONS and before[-1] in ("for", "to", "with"):
        return True  # "Don't reach for axios"
    opens = not before or before[-1] in _CLAUSE_MARKS
    return opens and _SUBJECT_AFTER.match(lowered, start + len(tool)) is not None


def tells_change(sentence: str) -> bool:
    """Whether a sentence tells a tool left, turned down or replaced (`moved_tools` reads
    it): "We stopped using Lerna", "Flake8 is out", "Sentry was retired in favour of
    Rollbar"."""
    lowered = plain(sentence)
    undo = _UNDO.search(lowered)
    if not (_GONE.search(lowered) or _PAST.search(lowered) or undo):
        return False
    return bool(
        _named(lowered, lowered, _UNDONE_HEAD if undo else None)
    )  # "We stopped squashing commits": no tool


def moved_tools(sentence: str) -> list[Choice]:
    """A change of tool a sentence tells, clause by clause: a clause saying a tool is gone
    says not to use it; another naming one of its kind, that it is the one used now ("We
    dropped goreleaser; releases are built with ko now"); two in one clause, by the
    preposition before the second ("moved from Y to X", "Y retired in favour of X", "X
    took over from Y"). What a clause plans or tries, and a comparison, choose nothing."""
    lowered = plain(sentence)
    if _COMPARISON.search(lowered) or _INDEX_ENTRY.match(sentence):
        return []
    used: list[str] = []
    unused: list[str] = []
    *before, now = _ARROW.split(lowered)
    if before:  # "black → ruff format": what was, where what follows is of its kind
        after = {kind_of(tool, lowered) for _, tool in _named(now, lowered)}
        was = [tool for _, tool in _named(before[-1], lowered)]
        unused += [tool for tool in was if kind_of(tool, lowered) in after]
    for clause in _TOOL_CLAUSE.split(now):
        if _PLANNED.search(clause):
            continue
        mentions = list({tool: (at, tool) for at, tool in _named(clause, lowered)}.values())
        undo = _UNDO.search(clause)
        if undo is not None:
            undone = _undone(clause, undo, _named(clause, lowered, _UNDONE_HEAD))
            used += undone[0]
            unused += undone[1]
            continue
        if len(mentions) == 2:
            roles = _roles(clause, mentions)
            if roles is not None:
                used.append(roles[0])
                unused.append(roles[1])
            continue
        if len(mentions) != 1:
            continue
        at, tool = mentions[0]
        gone = _PAST.search(clause) or _GONE.search(clause)
        if gone and gone.group(0) in _FOR_THE_ONE_USED and gone.start() < at:
            gone = None  # "…, in favour of pnpm": pnpm is the one used
        elif gone and gone.group(0) in ("instead of", "rather than") and gone.start() > at:
            gone = None  # "managed by npm instead of by hand": npm is the one used
        moved_to = _MOVED_TO.search(clause)
        (used if moved_to or not gone else unused).append(tool)
    kinds = {kind_of(tool, lowered) for tool in (*used, *unused)}
    if not unused or len(kinds) != 1 or len(set(used)) > 1 or set(used) & set(unused):
        return []
    kind = kinds.pop()
    shown = f"the {kind} to use"
    claims = [(kind, used[0], shown)] if used else []
    return claims + [(kind, f"not:{tool}", shown) for tool in dict.fromkeys(unused)]


_FOR_THE_ONE_USED = frozenset({"in favour of", "in favor of"})


def _undone(
    clause: str, undo: re.Match[str], mentions: list[tuple[int, str]]
) -> tuple[list[str], list[str]]:
    """The tools used and left of a clause undoing what it governs: the target of the change
    undone is left, its source kept ("rolled back the switch from Y to X", "the X migration
    was reverted"); a "to X" of the undoing verb itself is where it went back to ("reverted to
    X", "dropped Y for X"). A negated undoing ("never reverted the move to X") says neither."""
    if _NEGATED_CLAUSE.search(clause, 0, undo.start()):
        return [], []
    passive = _PASSIVE.search(clause, 0, undo.start()) or _UNDO_FAILS.match(undo.group(0))
    used: list[str] = []
    unused: list[str] = []
    for at, tool in mentions:
        if at < undo.start() and not passive:
            continue  # the subject of an active undoing: not what it undoes
        start = undo.end() if at > undo.start() else 0
        before = clause[start:at]
        own = at > undo.start() and not _CHANGE.search(before)
        if _SOURCE.search(before):
            (unused if own else used).append(tool)  # "went back from pnpm to npm"
        elif own and _TARGET.search(before):
            used.append(tool)  # "reverted to npm", "dropped yarn for pnpm"
        else:
            unused.append(tool)
    return used, unused


def _roles(clause: str, mentions: list[tuple[int, str]]) -> tuple[str, str] | None:
    """The tool used and the one left of two a clause telling a change names (None: the
    clause tells no change, or not which is which)."""
    (_, first), (at, second) = sorted(mentions)
    if not (_GONE.search(clause) or _MOVED_TO.search(clause)):
        return None  # "We used to prefer yarn over npm": no change told
    role = _ROLE.search(clause, 0, at)
    if role is not None:
        return (second, first) if role.group(1) or role.group(3) else (first, second)
    if _REPLACING.search(clause, 0, at):
        return first, second  # "Pytest replaced unittest"
    return None


def tools(sentence: str) -> list[Choice]:
    """The tool a sentence says to use, and the one it says not to (module doc)."""
    lowered = plain(sentence)
    if _COMPARISON.search(lowered):
        return []  # "uv is much faster than pip": no choice said
    planned = [m.span() for m in _TOOL_CLAUSE_SPAN.finditer(lowered) if _PLANNED.search(m[0])]
    named = [
        (start, tool)
        for start, tool in _named(lowered, lowered)
        if _chosen(lowered, start, tool) and not any(a <= start < b for a, b in planned)
    ]
    if not named:
        return []
    kinds = {kind_of(tool, lowered) for _, tool in named}
    if len(kinds) != 1 or len({tool for _, tool in named}) > 2:
        return []
    kind = kinds.pop()
    names = list(dict.fromkeys(tool for _, tool in named))
    used, unused = _which_is_used(lowered, named, names)
    if used is None and (unused is None or len(names) > 1):
        return []
    clause = next(c for c in _TOOL_CLAUSE.split(lowered) if _WORD.search(c))
    scope = (
        (_scope(clause) | _part(clause, kind)) - _DATA_JOB
        if kind.endswith(_DATA)
        else (_scope(clause) | _part(clause, kind))
    )
    shown = f"the {kind} to use" + (f" for {' '.join(sorted(scope))}" if scope else "")
    if used is not None and (kept := _kept_for(lowered, named, used, kind)):
        scope |= {USED_FOR, *kept}  # it meets another only for a thing both name
    key = f"{kind}:{' '.join(sorted(scope))}" if scope else kind
    claims = [(key, used, shown)] if used is not None else []
    if unused is not None:
        claims.append((key, f"not:{unused}", shown))
    return claims


def _scope(lowered: str) -> frozenset[str]:
    """What a choice of tool holds for, when the sentence says ("for the web app", "in the
    web app", "to publish the SDK": its stems), the tools' names aside: empty for the whole
    project."""
    found = _SCOPE.search(_WORD.sub(" ", lowered))  # a tool's name is no scope ("fly.io")
    if found is None:
        return frozenset()
    stems = stems_of(found.group(1))  # a number is none either ("on React 18": its version)
    return frozenset(s for s in stems if s not in _NO_SCOPE and not s.replace("_", "").isdigit())


def _kept_for(lowered: str, named: list[tuple[int, str]], used: str, kind: str) -> frozenset[str]:
    """What a clause's subject says a tool is where it is kept, stored or written: one
    thing, a noun and what it is of ("The OpenAI key lives in 1Password"), not the kind's
    whole domain ("Secrets", "All infra", "E2E tests": a noun alone, the kind's or a job's)."""
    start = next(at for at, tool in named if tool == used)
    words = _TOKEN.findall(_TOOL_CLAUSE.split(lowered[:start])[-1])
    while words and words[-1] in _LEADING:
        words.pop()
    if len(words) < 3 or words[-1] != "in" or words[-2] not in _MEANS:
        return frozenset()
    said = list(stems_of(_WORD.sub(" ", " ".join(words[:-2]))))
    kept = frozenset(said) - _NO_SCOPE - frozenset(stems_of(kind))
    return kept if said and said[-1] in kept and len(kept) > 1 else frozenset()


def _part(clause: str, kind: str) -> frozenset[str]:
    """The part of the project a clause's subject names, when it does ("The docs site
    uses npm", "The frontend deploys to Vercel"): its stems, the kind's own aside ("the
    frontend" of a frontend framework is the whole project's)."""
    found = _PART.match(clause)
    if found is None:
        return frozenset()
    said = _WORD.sub(" ", found.group(1))
    return frozenset(stems_of(said)) - _NO_SCOPE - frozenset(stems_of(kind))


def _which_is_used(
    lowered: str, named: list[tuple[int, str]], names: list[str]
) -> tuple[str | None, str | None]:
    """The tool a sentence says to use and the one it says not to (None: not said)."""
    if len(names) == 1:
        start = named[0][0]
        before = lowered[max(0, start - 30) : start]
        if _COMPARED.search(before):
            return None, None  # "much faster than pip": a comparison, no choice of it
        negated = _NEGATION.search(before) is not None
        return (None, names[0]) if negated else (names[0], None)
    first, second = names
    between = lowered[named[0][0] : max(start for start, _ in named)]
    if _CLAUSE_BREAK.search(between):
        return _by_clause(lowered, named)  # "X is not installed; use Y": each clause its own
    if _FROM.search(lowered[: named[0][0]]) and " to " in between:
        return second, first  # switched from Y to X
    if _NEGATED_BETWEEN.search(between):
        return first, second  # X, not Y / X instead of Y / prefer X over Y
    if _WITH.search(between) and _REPLACE.search(lowered):
        return second, first  # replace Y with X
    return _by_clause(lowered, named)


def _by_clause(lowered: str, named: list[tuple[int, str]]) -> tuple[str | None, str | None]:
    """Two tools in two clauses, one of them negated: the other is the one to use
    ("Stick to X; Y is not allowed", "Don't use Y, use X", "X is ours; avoid Y")."""
    bounds = [0, *(m.end() for m in _CLAUSE_END.finditer(lowered)), len(lowered)]
    spans = list(itertools.pairwise(bounds))
    clauses = [lowered[a:b] for a, b in spans]
    where: dict[str, int] = {}
    for start, tool in named:
        index = next((i for i, (a, b) in enumerate(spans) if a <= start < b), len(spans) - 1)
        where.setdefault(tool, index)
    if len(set(where.values())) != 2:
        return None, None
    negated = {tool for tool, index in where.items() if _NEGATED_CLAUSE.search(clauses[index])}
    if len(negated) != 1:
        return None, None
    unused = negated.pop()
    used = next(tool for tool in where if tool != unused)
    return used, unused
