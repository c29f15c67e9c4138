"""A choice between two named alternatives, whatever they are (docs/formats.md §19.6).

"Use polars, not pandas", "uvicorn instead of gunicorn", "prefer Valkey over Redis",
"moved from Appium to Maestro", "DuckDB is gone; ClickHouse now", "stick to Caddy; nginx
isn't approved": a claim about the pair itself — its key the two names (and what the
choice is for, when said), its value the one chosen. No list of tools is needed: the
phrasing names both sides. A plain "Use pandas for transforms" is a use of one tool for a
purpose (`used`), which a choice of the pair for that purpose can contradict.
"""

from __future__ import annotations

import re

from memtab.trust.reading.tool_kinds import TOOL_KIND, said_as
from memtab.trust.words import LEFT_OUT, stems_of

__all__ = ["PAIR", "USING", "choices", "used"]

PAIR = "between "
"""How a pair's key starts: "between pandas and polars"."""
USING = "using "
"""How a use's key starts: "using pandas"."""

_NAME = r"`?([a-z][\w.+#-]*[\w+#]|[a-z])`?"
_END = (
    r"(?=\s*+(?:$|[.,;:!?)—–])|\s++(?:for|in|on|between|across|when|here|now|everywhere|as|at)\b)"
)
"""What follows the second name: an end, or a preposition — never a noun it describes
("not npm scripts")."""
_USING = r"\b(?:use|prefer|pick|choose|go\s+with|stick\s+(?:to|with)|reach\s+for)\s++"
"""A verb of choosing: "use X not Y" needs no comma ("command not found" is no choice)."""
_OPENS = (
    r"(?:^|[:;]\s*+|\b(?:use|prefer|pick|choose|with|via|in|on|go\s+with|stick\s+(?:to|with)|"
    r"reach\s+for)\s++)"
)
"""What comes before the chosen name: a clause's start or a verb or preposition of using it
("Serve the site with nginx instead of Caddy")."""
_CHOSEN_FIRST = (
    re.compile(_OPENS + _NAME + r"\s*+[,—–]\s*+(?:not|never)\s++" + _NAME + _END),
    re.compile(_USING + _NAME + r"\s++(?:not|never)\s++" + _NAME + _END),
    re.compile(_OPENS + _NAME + r"\s++(?:instead\s+of|rather\s+than)\s++" + _NAME + _END),
    re.compile(r"\bprefer(?:s|red)?\s++" + _NAME + r"\s++(?:over|to)\s++" + _NAME + _END),
    re.compile(
        r"\bstick\s++(?:to|with)\s++" + _NAME + r"\s*+[;,.—–]\s*+" + _NAME
        + r"\s++(?:isn't|is\s+not|aren't|are\s+not)\s++(?:approved|allowed|permitted|welcome)"
    ),
)  # fmt: skip
"""Phrasings naming the chosen one first."""
_CHOSEN_SECOND = (
    re.compile(
        r"\b(?:moved|switched|migrated)\s++(?:\w+\s++)?(?:from|off)\s++" + _NAME
        + r"\s++(?:on)?to\s++" + _NAME + _END
    ),
    re.compile(r"\breplaced\s++" + _NAME + r"\s++with\s++" + _NAME + _END),
    re.compile(r"\bdropped\s++" + _NAME + r"\s++(?:for|in\s+favou?r\s+of)\s++" + _NAME + _END),
    re.compile(
        r"^" + _NAME + r"\s++(?:is|was|has\s+been|got)\s++(?:gone|dropped|removed|retired)"
        r"\s*+[;,.—–]\s*+(?:(?:we\s+)?use\s++)?" + _NAME + r"\s++(?:now|instead)\b"
    ),
    re.compile(
        r"\b(?:don't|do\s+not|never)\s++use\s++" + _NAME + r"\s*+[;,.—–]\s*+use\s++" + _NAME + _END
    ),
)  # fmt: skip
"""Phrasings naming the one left first: a change ("moved from Y to X"), or a ban then the
choice."""
_CHANGES = 4
"""How many of `_CHOSEN_SECOND` tell a change: still read in a sentence saying what was
("Y was dropped; X now")."""
_COMPARED = re.compile(r"\b(?:faster|slower|better|worse|nicer|simpler|than)\b")
_RATHER = re.compile(r"\brather\s++than\b")
_USE = re.compile(
    r"^(?:(?:we|i)\s+)?(?:use|prefer|pick|choose|stick\s+(?:to|with)|reach\s+for)\s++"
    + _NAME
    + r"\s++(?:for|in)\s++((?:[\w-]++\s*+){1,5})\.?$"
)
"""A plain use of one tool for a purpose: "Use pandas for transforms"."""
_SCOPE = re.compile(r"\b(?:for|in|between|across|on)\s++((?:[\w-]++\s*+){1,4})")
_LABEL = re.compile(r"^([\w\s-]{1,30}):\s")
_MARK = re.compile(r"^\s*(?:[-*+]|\d{1,9}[.)])\s+")
_VAGUE = frozenset({"it", "them", "one", "ones", "that", "this", "those", "these"})
_NO_SCOPE = frozenset({"everyth", "anyth", "all", "everi", "each", "whole", "new", "code"})

Choice = tuple[str, str, str]
"""(key, value, shown), as `reading.tools`' choices."""


def _plain(sentence: str) -> str:
    return said_as(_MARK.sub("", sentence).strip().lower())


def _scope(text: str, names: tuple[str, ...]) -> tuple[str, str]:
    """What the choice holds for, when the sentence says (a label or "for …"): its stems
    and its words, the names aside."""
    found = [m.group(1) for m in _SCOPE.finditer(text)]
    if (label := _LABEL.match(text)) is not None:
        found.append(label.group(1))
    left = set(LEFT_OUT) | _NO_SCOPE | {s for name in names for s in stems_of(name)}
    stems = {s for part in found for s in stems_of(part) if s not in left}
    words = [w for part in found for w in part.split() if w not in LEFT_OUT and w not in names]
    return " ".join(sorted(stems)), " ".join(dict.fromkeys(words)) if stems else ""


def _named(one: str, other: str) -> bool:
    """Whether both sides name a thing: two names, not a pronoun, not the same, nor one
    taxonomy kind's two tools (`reading.tools` reads those)."""
    if one == other or {one, other} & (LEFT_OUT | _VAGUE):
        return False
    kind = TOOL_KIND.get(one)
    return kind is None or kind != TOOL_KIND.get(other)


def choices(sentence: str, *, changes_only: bool = False) -> list[Choice]:
    """The choice between two alternatives a sentence makes (module doc); a sentence
    saying what was (`changes_only`) is read only for a change it tells."""
    lowered = _plain(sentence)
    if lowered.endswith((":", "?")):
        return []  # "Ideas, not decided:" heads a list; a question chooses nothing
    if _COMPARED.search(lowered) and not _RATHER.search(lowered):
        return []  # "polars is much faster than pandas": no choice said
    found: list[tuple[str, str, re.Match[str]]] = []
    for pattern in () if changes_only else _CHOSEN_FIRST:
        found += [(m.group(1), m.group(2), m) for m in pattern.finditer(lowered)]
    for pattern in _CHOSEN_SECOND[:_CHANGES] if changes_only else _CHOSEN_SECOND:
        found += [(m.group(2), m.group(1), m) for m in pattern.finditer(lowered)]
    pairs = {(chosen, left) for chosen, left, _ in found if _named(chosen, left)}
    if len(pairs) != 1:
        return []  # none, or two choices in one sentence: not read
    chosen, left = pairs.pop()
    match = next(m for c, lft, m in found if (c, lft) == (chosen, left))
    rest = lowered[: match.start()] + " " + lowered[match.end() :]
    scope, said = _scope(rest, (chosen, left))
    first, second = sorted((chosen, left))
    key = f"{PAIR}{first} and {second}" + (f":{scope}" if scope else "")
    shown = f"{first} or {second}" + (f" for {said}" if scope else "")
    return [(key, chosen, shown)]


def used(sentence: str) -> list[Choice]:
    """A plain use of one named thing for a purpose ("Use pandas for transforms")."""
    said = _USE.match(_plain(sentence))
    if said is None or said.group(1) in LEFT_OUT | _VAGUE:
        return []
    name = said.group(1)
    scope, words = _scope(f"for {said.group(2)}", (name,))
    if not scope:
        return []
    return [(f"{USING}{name}:{scope}", name, f"the tool for {words}")]
