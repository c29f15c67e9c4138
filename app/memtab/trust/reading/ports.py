"""The port a sentence says a service listens on (docs/formats.md §19.6).

A port is a number said as one — "port 3000", ":9100", "localhost:8025", "listens on
6380", "Redis on 6379" — the only one of its clause (a number after "not" is the one it
is not: "port 7001, not 7000"); its service is the words that open the clause, up to its
verb or preposition ("The agent's metrics endpoint listens…": agent metrics), after a
label's colon ("Local LLM: my Ollama listens on…"), the label when the clause opens on
the port ("Backend: port 8080", "Traefik dashboard — http://localhost:8089"); a name in
parentheses after it is the same service's other name ("Docs preview
(sphinx-autobuild) runs on…"). Where it holds (`scopes`) is read from the clause and its
short asides. A clause that says what was, what may be, what will be or what holds only
at times gives none; nor a sentence said as a comparison, nor a bound ("up to 88").
"""

from __future__ import annotations

import re
from typing import NamedTuple

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

_ASIDE = re.compile(r"\(([^()]*)\)")
_CLAUSE = re.compile(r";\s*+|\s[—–]\s|(?<=[.!?])\s++|,\s++(?:so|because|since|but|which)\s++")
_NOT = re.compile(r"\bnot\s++(?:port\s++)?:?\d{2,5}\b", re.IGNORECASE)
_DIGITS = re.compile(r"\d{2,5}")
_WORDS = re.compile(r"[\w.'-]+|[(:]")
_PORT = re.compile(
    r"\bports?\s*(?:is\s+|:\s*|=\s*|of\s+)?(?P<a>\d{2,5})\b"
    r"|(?:\b(?:localhost|127\.0\.0\.1|0\.0\.0\.0)|\[::1\]|(?<![\w:.]))"
    r":(?P<b>\d{2,5})(?![\d:])"
    r"|\b(?:listens?|listening|runs?|running|served|serves|serving|binds?|bound|exposed|"
    r"available|reachable|answers|is|are|lives?|sits?|up)\s+(?:locally\s+)?(?:on|at|(?<!\bup\s)to)\s+"
    r"(?P<c>\d{2,5})\b(?![.,:]\d)",
    re.IGNORECASE,
)
_BARE_ON = re.compile(r"^(?P<subject>[A-Za-z][\w .'-]{0,40}?)\s+on\s+(?P<d>\d{4,5})\b(?![.,:]\d)")
"""A service and its port with no verb: "Redis on 6379", "Staging API on 3001"."""
_HEDGE = re.compile(
    r"\b(?:" + HEDGED + r"|legacy|should|planned|plan|soon|default|instead|than|like|both|"
    r"also|same|moved|changed|free|clash(?:es)?|conflicts?)\b|->|→|=>|\?",
    re.IGNORECASE,
)
_OPENING = frozenset(
    {"the", "a", "an", "our", "your", "my", "its", "their", "this", "that", "you", "we", "i",
     "can", "could", "may", "open", "visit", "reach", "hit", "browse", "find", "see", "then",
     "and", "so", "now", "note", "also", "here", "there", "local", "locally"}
)  # fmt: skip
"""Words that open a clause before its service is named."""
_ENDS_SUBJECT = frozenset(
    {"is", "are", "listens", "listen", "listening", "runs", "run", "running", "serves",
     "serve", "served", "binds", "bind", "sits", "lives", "uses", "use", "exposes", "exposed",
     "answers", "responds", "starts", "gets", "has", "should", "must", "will", "can", "now",
     "still", "always", "also", "on", "at", "in", "under", "via", "for", "with", "to", "from",
     "behind", "inside", "port", "ports", "locally", "when", "while", "go", "goes",
     "through", "comes", "come", "boots", "boot", "up"}
)  # fmt: skip
_GENERIC = frozenset(
    {"port", "server", "servic", "endpoint", "instanc", "process", "daemon", "url", "address",
     "localhost"}
)  # fmt: skip
"""Stems naming any service ("the backend server" is the backend)."""
_NAME = re.compile(r"^[\w.'-]+(?:\s+[\w.'-]+){0,2}$")
_STARTED = re.compile(
    r"^[^\w`]*+`[^`\n]++`\s++(?:starts|serves|opens|launches|boots)\s++(?:up\s++)?"
    r"(?P<service>[\w.'-]++(?:\s++[\w.'-]++){0,2}?)\s++(?:locally\s++)?(?:on|at)\s"
)
"""A command in a code span and what it starts, before where it listens: "`just dev` starts
kletboard on port 8000" is kletboard's port, not the command's."""
_ON_A_HOST = re.compile(
    r"(?:on|at)\s(?=[a-z]*+[\d.-])(?=[\d.-]*+[a-z])[a-z0-9][a-z0-9.-]*+\s"
    r"(?:listens|answers|runs|serves|is|binds|sits)$",
    re.IGNORECASE,
)
"""A service named with the machine it runs on, before its verb: "Mosquitto on klet-gw
listens…" is the table's "| Mosquitto on klet-gw | 1883 |", not Mosquitto anywhere."""
_DASH_LABEL = re.compile(r"^([A-Za-z][\w.' -]{0,30}?[\w.'])\s[—–]\s(?=\S{0,60}?:\d)")
"""A label and a dash before an address with a port: the label's colon."""


class Port(NamedTuple):
    service: frozenset[str]
    also: frozenset[str]
    """The service's other name, said in parentheses after it (empty: none)."""
    scope: Scope
    value: str
    shown: str
    """The service as written."""


def ports(sentence: str) -> list[Port]:
    """The port each clause of `sentence` says a service listens on (see the module doc);
    one it names no service of has none (its note's, `trust.owners.owned`)."""
    if "port" not in sentence.lower() and not _DIGITS.search(sentence):
        return []
    asides = [a for a in _ASIDE.findall(sentence) if len(a.split()) <= 3]
    plain = _ASIDE.sub(lambda m: f" ({' ' * len(m.group(1))}) ", sentence)
    plain = _DASH_LABEL.sub(r"\1: ", plain, count=1)  # "Traefik dashboard — http://…:8089"
    found = []
    for clause in _CLAUSE.split(plain):
        port = _port(clause, sentence)
        if port is not None:
            found.append(port._replace(scope=scope_of(" ".join([clause, *asides]))))
    return found


def _port(clause: str, sentence: str) -> Port | None:
    clause = _NOT.sub(" ", clause)
    if _HEDGE.search(clause):
        return None
    numbers = {m.group("a") or m.group("b") or m.group("c") for m in _PORT.finditer(clause)}
    bare = _BARE_ON.match(clause.strip())
    if bare is not None:
        numbers.add(bare.group("d"))
    if len(numbers) != 1:
        return None
    value = numbers.pop()
    before = clause[: clause.find(value)]
    label, colon, after = before.rpartition(":")
    started = _STARTED.match(before)
    written = started["service"] if started else _subject(after if colon else before)
    if not written and colon:
        written = _subject(label)
    service = service_of(written)
    if not service:  # "Port: 8000" under "## API": its note's (`owners.owned`)
        return Port(frozenset(), frozenset(), Scope(frozenset(), "", False), value, "")
    also: frozenset[str] = frozenset()
    other_name = _in_parentheses_after(sentence, written)
    if other_name and _NAME.match(other_name):
        also = service_of(other_name)
    return Port(service, also, Scope(frozenset(), "", False), value, written)


def _in_parentheses_after(sentence: str, written: str) -> str:
    """What a sentence says in parentheses right after `written` ("" for nothing)."""
    at = sentence.find(written) if written else -1
    if at < 0:
        return ""
    rest = sentence[at + len(written) :].lstrip()
    end = rest.find(")")
    return (
        rest[1:end].strip() if rest.startswith("(") and end > 0 and "(" not in rest[1:end] else ""
    )


def _subject(text: str) -> str:
    """The words opening `text` up to its verb or preposition, those before the service
    left out."""
    words = _WORDS.findall(text.replace("http", " ").replace("://", " "))
    start = 0
    while start < len(words) and words[start].lower() in _OPENING:
        start += 1
    end = start
    while end < len(words) and words[end].lower() not in _ENDS_SUBJECT and words[end] not in "(:":
        end += 1
    if _ON_A_HOST.match(" ".join(words[end : end + 3])):  # "Mosquitto on klet-gw listens…"
        end += 2
    return " ".join(words[start:end])


def service_of(written: str) -> frozenset[str]:
    """The stems naming a service in `written` ("the backend server": backend)."""
    return frozenset(s for s in stems_of(written) if s not in _GENERIC and s not in SCOPE_STEMS)


def port_key(port: Port) -> str:
    """A port's service, its other name and its scope, as a claim's key keeps them."""
    return "|".join((" ".join(sorted(port.service)), " ".join(sorted(port.also)), pack(port.scope)))


def of_project(key: str, project: str, *, named: bool = False) -> str:
    """A port's key (`port_key`) in a memory of `project` (its name): a service named by
    some of the project's name's words has the project's name as its other name ("the API"
    in harbor-api's memory is harbor-api), one named by the project's name and more, the
    rest ("the ledgerline API" in ledgerline's memory is its API), and one `named` by a proper
    name apart from the project's, both ("Puma" in kilnmarket's memory is global memory's
    "kilnmarket (puma)", not another project's Puma; "the manager" may be any of its
    processes)."""
    service, also, scope = key.split("|", 2)
    names = service_of(project.replace("-", " ").replace("_", " "))
    words = set(service.split())
    if service and not also and words < names:
        also = " ".join(sorted(names))
    elif service and not also and names and names < words:
        also = " ".join(sorted(words - names))
    elif named and service and not also and names and names.isdisjoint(words):
        also = " ".join(sorted(names | words))
    return "|".join((service, also, scope))


def same_service(one: str, other: str) -> bool:
    """Whether two ports' keys (`port_key`) are of one service where it holds: one named
    as the other, or as its other name, in the same place (`scopes.same_place`)."""
    service, also, scope = one.split("|", 2)
    other_service, other_also, other_scope = other.split("|", 2)
    names = (other_service, other_also)
    named = service in names or (bool(also) and also in names)
    return named and same_place(unpack(scope), unpack(other_scope))
