"""The `modified:` timestamp Claude Code writes into a memory's frontmatter (docs/formats.md
§17.2): set to the save's time in the value's own shape when a file has one, never added."""

from __future__ import annotations

import re
import time

from memtab.fs.clock import now_ms
from memtab.store.text.frontmatter import find_frontmatter

_LINE = re.compile(
    r"(?m)^(?P<key>modified[ \t]*:[ \t]*)(?P<quote>['\"]?)(?P<value>\d{4}-\d{2}-\d{2}"
    r"(?:[T ]\d{2}:\d{2}(?::\d{2}(?P<fraction>\.\d+)?)?(?P<zone>Z|[+-]\d{2}:?\d{2})?)?)"
    r"(?P=quote)[ \t]*\r?$"
)


def stamp_for_save(agent: str, text: str, now: int | None = None) -> str:
    """What a save of `agent`'s file writes: a Claude Code file's stamp set to `now`."""
    return (
        refresh_modified(text, now_ms() if now is None else now) if agent == "claude-code" else text
    )


def refresh_modified(text: str, at_ms: int) -> str:
    """`text` with its frontmatter's `modified:` set to `at_ms`, when it has one."""
    span = find_frontmatter(text)
    if span is None:
        return text
    match = _LINE.search(text[span.body_start : span.body_end])
    if match is None:
        return text
    stamp = _stamp(match, at_ms)
    start, end = span.body_start + match.start("value"), span.body_start + match.end("value")
    return text[:start] + stamp + text[end:]


def _stamp(match: re.Match[str], at_ms: int) -> str:
    value = match.group("value")
    now = time.gmtime(at_ms // 1000)
    if len(value) == 10:  # a date alone
        return time.strftime("%Y-%m-%d", now)
    seconds = time.strftime(f"%Y-%m-%d{value[10]}%H:%M:%S", now)
    if match.group("fraction") is not None or match.group("zone") == "Z":
        return seconds + (f".{at_ms % 1000:03d}" if match.group("fraction") else "") + "Z"
    if match.group("zone"):  # an offset: written in UTC, as Claude Code would
        return seconds + "+00:00"
    return seconds
