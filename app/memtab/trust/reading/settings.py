"""The value a sentence gives a setting in code: `MAX_WORKERS=8` (docs/formats.md §19.6).

A setting is an upper-case name and its value in a code span (`X=8`, `X = 8`; or a config
file's, a number or a flag: "`max_connections = 200`", "`replicas: 3`"; or a name in a code
span given a number after it: "set `WEB_CONCURRENCY` to 4"; a program's long flag given a
number is that program's setting: "Gunicorn runs with `--workers 5`"), the only value of
that name in its clause; never a secret (a token, a key, a password) nor one that names
where it runs (`NODE_ENV`, `LOG_LEVEL`, a host, a path). What comes before an arrow is what
was ("`X=4` -> `X=8`", "when asked… -> set `X=8`"); a clause that says what was, may be or
holds only at times gives none (what a colon after its code explains is no part of it).
Where it holds (`scopes`: "in CI", "in production", "on my laptop") and what it is for ("for
the importer") tell two settings of one name apart.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from memtab.check.known_programs import KNOWN_PROGRAMS
from memtab.trust.reading.scopes import (
    HEDGED,
    SCOPE_STEMS,
    Scope,
    pack,
    same_place,
    scope_of,
    unpack,
)
from memtab.trust.words import stems_of

_SETTING = re.compile(
    r"`\s*+(?P<key>[A-Z][A-Z0-9_]++)\s*+=\s*+(?P<value>[^\s`'\";,&|]++)\s*+`"
    r"|(?<![\w`$=/.-])(?P<bare_key>[A-Z][A-Z0-9]*+(?:_[A-Z0-9]++)++)="
    r"(?P<bare_value>(?:[\w/+]|[.:-](?=[\w/+]))++)(?![\w=`])"
)
"""`X=8` in a code span, or bare with a name of two words or more (`SALTMARSH_THREADS=8`; not
one run's, `_runs_command`)."""
_WHERE_IT_RUNS = re.compile(
    r"(?:^|_)(?:ENV|ENVIRONMENT|DEBUG|LOG|LEVEL|MODE|PATH|HOME|DIR|TOKEN|KEY|SECRET|PASSWORD|"
    r"PASS|PWD|AUTH|CREDENTIALS?|URL|URI|DSN|HOST|USER|NAME|ID)(?:_|$)"
)
_PLACEHOLDER = re.compile(r"^(?:<.*>|x+|\.{2,}|…|changeme|your.*|\$.*|\{.*\})$", re.IGNORECASE)
_ARROW = re.compile(r"->|→|=>")
_CLAUSE = re.compile(r";\s*|\s[—–]\s|(?<=[.!?])(?<!\be\.g\.)(?<!\bi\.e\.)\s+|,\s+")
_HEDGE = re.compile(
    r"\b(?:" + HEDGED + r"|legacy|try|trying|tried|default|instead|rather|than|like|"
    r"example)\b|\?",
    re.IGNORECASE,
)


_CONFIG = re.compile(
    r"`\s*+(?P<key>[a-z][\w.-]*+)(?:\s*+=\s*+|:\s++)"
    r"(?P<value>-?\d++(?:\.\d++)?+[a-z]{0,3}|true|false)\s*+`"
)
"""A config file's setting in a code span: "`max_connections = 200`", "`replicas: 3`"."""
_SET_TO = re.compile(
    r"`(?P<key>[A-Z][A-Z0-9_]++|[a-z][a-z0-9]*+(?:_[a-z0-9]++)++|[a-z]++(?:[A-Z][a-z0-9]*+)++)`"
    r"\s++(?:is\s++(?:set\s++to\s++)?|to\s++|=\s*+)(?P<value>\d++(?:\.\d++)?+)"
    r"(?!\.\d|\s*+(?:%|percent|x\b))"
)
"""A setting named in a code span and given a number after it: "set `WEB_CONCURRENCY` to
4", "`max_connections` is 200" (a name of one word — a tool's — is no setting's)."""
_SPAN = re.compile(r"`([^`\n]++)`")
_WORD = re.compile(r"[\w.+-]++")
_FLAG = re.compile(
    r"(?<![\w-])--(?P<key>[a-z][a-z0-9-]*+)(?:=|\s++)(?P<value>\d++(?:\.\d++)?+[a-z]{0,3})(?![\w.-])"
)
"""A long flag given a number: "--workers 5", "--timeout=30s"."""
_FOR = re.compile(r"\bfor\s++(?:(?:the|our|my|its)\s++)?(?P<what>[\w-]++(?:\s++[\w-]++)?)")
"""What a setting is given for, after it ("`CONCURRENCY=4` for the importer")."""


class Setting(NamedTuple):
    name: str
    value: str
    scope: Scope
    whose: str = ""
    """What it is set for, stems space-separated ("" for nothing in particular)."""


def settings(sentence: str) -> list[Setting]:
    """The value each setting is given by `sentence` (see the module doc)."""
    if "`" not in sentence and "=" not in sentence:
        return []
    found: dict[str, Setting] = {}
    for clause in _CLAUSE.split(_ARROW.split(sentence)[-1]):
        # What a colon after the last span explains hedges nothing of it ("Keep `X=false`
        # even locally: reloading leaks connections until…").
        parts = clause.split(": ")
        coded = max(
            (i for i, part in enumerate(parts) if "`" in part or _SETTING.search(part)),
            default=len(parts) - 1,
        )
        if _HEDGE.search(_SETTING.sub(" ", ": ".join(parts[: coded + 1]))):
            continue
        given = [_assigned(m) for m in _SETTING.finditer(clause) if not _runs_command(m)]
        said = [*_CONFIG.finditer(clause), *_SET_TO.finditer(clause)]
        given += [(m.group("key"), m.group("value"), m.start(), m.end()) for m in said]
        for key, value, _, end in [*given, *_flags(clause)]:
            if _WHERE_IT_RUNS.search(key.upper()) or _PLACEHOLDER.match(value):
                continue
            name = key
            if name in found and found[name].value != value:
                return []  # two values of one name: a story, or a choice
            rest = _CONFIG.sub(" ", _SETTING.sub(" ", clause))
            purpose = _FOR.search(clause, end)
            whose = purpose.group("what") if purpose is not None else ""
            whose = " ".join(sorted(set(stems_of(whose)) - SCOPE_STEMS))
            found[name] = Setting(name, value, scope_of(rest), whose)
    return list(found.values())


def _assigned(match: re.Match[str]) -> tuple[str, str, int, int]:
    key = match.group("key") or match.group("bare_key")
    return key, match.group("value") or match.group("bare_value"), match.start(), match.end()


def _runs_command(match: re.Match[str]) -> bool:
    """A bare assignment before a program (`FOO_BAR=1 make test`): that one run's, no setting."""
    if match.group("bare_key") is None:
        return False
    after = match.string[match.end() :].split(maxsplit=1)[:1]
    return bool(after) and (after[0].startswith("./") or after[0].lower() in KNOWN_PROGRAMS)


def _flags(clause: str) -> list[tuple[str, str, int, int]]:
    """Each number a program's long flag is given in a code span, as the setting of that
    program (name, value, where the span starts and ends): the span's own program
    (`gunicorn app.wsgi --workers 5`), else, for a span of flags alone (`--workers 5`), the
    one known program the clause names outside its spans ("Gunicorn runs with…")."""
    spans = list(_SPAN.finditer(clause))
    if not any("--" in span.group(1) for span in spans):
        return []
    named = {w for w in _WORD.findall(_SPAN.sub(" ", clause).lower()) if w in KNOWN_PROGRAMS}
    found = []
    for span in spans:
        code = span.group(1).strip()
        first = code.split(maxsplit=1)[0].lower()
        if first in KNOWN_PROGRAMS:
            program = first
        elif code.startswith("-") and len(named) == 1:
            program = next(iter(named))
        else:
            continue
        found += [
            (f"{program}_{flag.group('key')}", flag.group("value"), span.start(), span.end())
            for flag in _FLAG.finditer(code)
        ]
    return found


def setting_key(setting: Setting) -> str:
    name = setting.name.lower().replace("-", "_").replace(".", "_")  # one name in any case
    return f"{name}|{pack(setting.scope)}|{setting.whose}"


def same_setting(one: str, other: str) -> bool:
    """Whether two settings' keys (`setting_key`) are of one name in one place, for one
    thing — what one is for the other's or a part of it ("the import jobs" are the
    importer's), or one of them for nothing in particular."""
    name, scope, whose = one.split("|", 2)
    other_name, other_scope, other_whose = other.split("|", 2)
    mine, theirs = set(whose.split()), set(other_whose.split())
    for_one = not mine or not theirs or mine <= theirs or theirs <= mine
    return name == other_name and for_one and same_place(unpack(scope), unpack(other_scope))
