"""loki-mode's JSON memory as readable Markdown; the renderers never raise: what they cannot read
is said in a line, then the raw text."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from memtab.fs.jsonfile import JsonError, parse_json
from memtab.store.files import MAX_FILE_BYTES

_MAX_VALUE_CHARS = 400
_MAX_GENERIC_DEPTH = 8
_NONE = "(none recorded)"


def render_loki(relative: str, data: bytes, *, newest_only: bool = False) -> str:
    """The Markdown shown for loki-mode file `relative` (`newest_only`: `data` is a JSON-lines
    file's end)."""
    if relative.rsplit("/", 1)[-1].endswith(".jsonl"):
        text = _render_lines(relative, data, newest_only=newest_only)
    else:
        try:
            value = parse_json(data)
        except JsonError as error:
            raw = data.decode("utf-8", "replace")
            text = (
                f"# {relative}\n\nCannot render this file: {error}. Its text:\n\n```\n{raw}\n```\n"
            )
        else:
            text = _renderer_for(relative)(relative, value)
    if len(text) <= MAX_FILE_BYTES:  # a rendering may be longer than its file
        return text
    return text[:MAX_FILE_BYTES] + "\n\n… (the rest is not shown: over the size cap)\n"


def _renderer_for(relative: str) -> Callable[[str, Any], str]:
    segments = relative.split("/")
    if segments[0] == "episodic":
        return _episode
    if relative == "semantic/patterns.json":
        return _patterns
    if relative == "semantic/anti-patterns.json":
        return _anti_patterns
    if segments[0] == "handoffs":
        return _handoff
    return _generic


def _episode(relative: str, value: Any) -> str:
    if not isinstance(value, dict):
        return _generic(relative, value)
    context = _dict(value.get("context"))
    header = _join(
        " · ",
        _labelled("task", value.get("task_id")),
        _labelled("agent", value.get("agent")),
        _text(value.get("timestamp")),
        _labelled("duration", value.get("duration_seconds"), suffix=" s"),
        _labelled("phase", context.get("phase")),
    )
    lines = [f"# Episode {_text(value.get('id')) or relative}", ""]
    if header:
        lines += [header, ""]
    lines += ["## Goal", "", _text(context.get("goal")) or _NONE, ""]
    constraints = _list(context.get("constraints"))
    if constraints:
        lines += ["Constraints:", *[f"- {_text(c)}" for c in constraints], ""]
    lines += ["## Actions", ""]
    actions = _list(value.get("action_log"))
    lines += [f"- {_action(a)}" for a in actions] or [_NONE]
    commit = _labelled("commit", value.get("git_commit"))
    outcome = _join(" · ", _text(value.get("outcome")), commit)
    lines += ["", "## Outcome", "", outcome or _NONE, "", "## Errors", ""]
    errors = _list(value.get("errors_encountered"))
    lines += [f"- {_error(e)}" for e in errors] or [_NONE]
    files = [
        (label, _list(value.get(key)) or _list(context.get(key)))
        for label, key in (
            ("Read", "files_read"),
            ("Modified", "files_modified"),
            ("Involved", "files_involved"),
            ("Produced", "artifacts_produced"),
        )
    ]
    if any(paths for _, paths in files):
        lines += ["", "## Files", ""]
        for label, paths in files:
            if paths:
                lines.append(f"- {label}: {', '.join(_text(p) for p in paths)}")
    return "\n".join(lines) + "\n"


def _action(action: Any) -> str:
    if not isinstance(action, dict):
        return _text(action)
    parts = [
        _labelled("t=", action.get("t"), separator=""),
        _text(action.get("action")),
        _text(action.get("target")),
    ]
    result = _text(action.get("result"))
    error = _text(action.get("error"))
    text = _join(" ", *parts)
    if result or error:
        text += " — " + _join(": ", result, error)
    return text or _compact(action)


def _error(error: Any) -> str:
    if not isinstance(error, dict):
        return _text(error)
    text = _join(": ", _text(error.get("type")), _text(error.get("message")))
    resolution = _text(error.get("resolution"))
    if resolution:
        text += f" → {resolution}"
    return text or _compact(error)


def _patterns(relative: str, value: Any) -> str:
    patterns = _items(value, "patterns")
    if patterns is None:
        return _generic(relative, value)
    lines = [f"# Semantic patterns ({len(patterns)})", ""]
    if not patterns:
        lines.append("No patterns yet.")
    for pattern in patterns:
        if not isinstance(pattern, dict):
            lines += [f"- {_text(pattern)}", ""]
            continue
        title = _text(pattern.get("pattern")) or _text(pattern.get("id")) or "(untitled)"
        identifier = _text(pattern.get("id"))
        lines += [f"## {title}" + (f" ({identifier})" if identifier else ""), ""]
        confidence = pattern.get("confidence")
        facts = _join(
            " · ",
            _labelled("category", pattern.get("category")),
            _labelled(
                "confidence", round(confidence, 2) if isinstance(confidence, float) else confidence
            ),
            _used(pattern.get("usage_count")),
        )
        if facts:
            lines += [facts, ""]
        conditions = _list(pattern.get("conditions"))
        if conditions:
            lines += ["When:", *[f"- {_text(c)}" for c in conditions], ""]
        # A blank line after each: lines of one paragraph would run together.
        lines += [
            f"Correct approach: {_text(pattern.get('correct_approach')) or _NONE}",
            "",
            f"Incorrect approach: {_text(pattern.get('incorrect_approach')) or _NONE}",
            "",
        ]
    return "\n".join(lines).rstrip("\n") + "\n"


def _anti_patterns(relative: str, value: Any) -> str:
    items = _items(value, "anti_patterns", "anti-patterns")
    if items is None:
        return _generic(relative, value)
    lines = [f"# Anti-patterns ({len(items)})", ""]
    if not items:
        lines.append("No anti-patterns yet.")
    for item in items:
        if not isinstance(item, dict):
            lines += [f"- {_text(item)}", ""]
            continue
        title = (
            _text(item.get("what_fails"))
            or _text(item.get("pattern"))
            or _text(item.get("id"))
            or "(untitled)"
        )
        lines += [f"## {title}", ""]
        for label, key in (
            ("Why", "why"),
            ("Incorrect approach", "incorrect_approach"),
            ("Instead", "prevention"),
            ("Correct approach", "correct_approach"),
            ("Source", "source"),
        ):
            text = _text(item.get(key))
            if text:
                lines += [f"{label}: {text}", ""]  # each its own paragraph
    return "\n".join(lines).rstrip("\n") + "\n"


def _handoff(relative: str, value: Any) -> str:
    if not isinstance(value, dict):
        return _generic(relative, value)
    stem = relative.rsplit("/", 1)[-1].rsplit(".", 1)[0]
    lines = [f"# Handoff {_text(value.get('id')) or stem}", ""]
    facts = _join(
        " · ",
        _text(value.get("timestamp")),
        _labelled("reason", value.get("reason")),
        _labelled("iteration", value.get("iteration")),
        _labelled("from", value.get("from_agent")),
        _labelled("to", value.get("to_agent")),
    )
    if facts:
        lines += [facts, ""]
    status = _dict(value.get("task_status"))
    if status:
        lines += ["Tasks: " + ", ".join(f"{_text(v)} {k}" for k, v in status.items()), ""]
    for title, key in (
        ("Open questions", "open_questions"),
        ("Key decisions", "key_decisions"),
        ("Blockers", "blockers"),
        ("Files modified", "files_modified"),
        ("Recent commits", "recent_commits"),
    ):
        items = _list(value.get(key))
        lines += [f"## {title}", "", *([f"- {_text(i)}" for i in items] or [_NONE]), ""]
    context = value.get("context")
    if isinstance(context, dict) and context:
        lines += ["## Context", "", _generic_body(context, 0)]
    return "\n".join(lines).rstrip("\n") + "\n"


def _render_lines(relative: str, data: bytes, *, newest_only: bool) -> str:
    raw_lines = data.split(b"\n")
    if newest_only and raw_lines:
        raw_lines = raw_lines[1:]  # the first line is cut
    failures = relative.rsplit("/", 1)[-1] == "failures.jsonl"
    entries: list[str] = []
    skipped = 0
    for raw in raw_lines:
        if not raw.strip():
            continue
        try:
            value = parse_json(raw)
        except JsonError:
            skipped += 1
            continue
        entries.append(_failure(value) if failures else _compact(value, limit=_MAX_VALUE_CHARS))
    title = "Failures" if failures else relative
    lines = [f"# {title} ({len(entries)})", ""]
    if newest_only:
        lines += ["Only the newest entries are shown: the file is over the size cap.", ""]
    lines += [f"- {entry}" for entry in entries] or ["No entries."]
    if skipped:
        lines += ["", f"{skipped} line(s) are not valid JSON and are not shown."]
    return "\n".join(lines) + "\n"


def _failure(value: Any) -> str:
    if not isinstance(value, dict):
        return _text(value)
    head = _join(
        " · ",
        _text(value.get("ts") or value.get("timestamp")),
        _text(value.get("task_id")),
        _labelled("attempt", value.get("attempt")),
    )
    text = _join(": ", head, _text(value.get("error")))
    approach = _text(value.get("approach"))
    if approach:
        text += f" — tried: {approach}"
    return text or _compact(value)


def _generic(relative: str, value: Any) -> str:
    return f"# {relative}\n\n{_generic_body(value, 0)}"


def _generic_body(value: Any, depth: int) -> str:
    """Nested objects and lists as an indented bullet list (deep nesting elided)."""
    indent = "  " * depth
    if depth >= _MAX_GENERIC_DEPTH:
        return f"{indent}- …\n"
    if isinstance(value, dict):
        if not value:
            return f"{indent}- (empty)\n"
        lines = []
        for key, item in value.items():
            if isinstance(item, dict | list) and item and not _is_scalar_list(item):
                lines.append(f"{indent}- {key}:\n{_generic_body(item, depth + 1)}")
            else:
                lines.append(f"{indent}- {key}: {_text(item)}\n")
        return "".join(lines)
    if isinstance(value, list):
        if not value:
            return f"{indent}- (empty)\n"
        if _is_scalar_list(value):
            return "".join(f"{indent}- {_text(item)}\n" for item in value)
        return "".join(
            f"{indent}-\n{_generic_body(item, depth + 1)}"
            if isinstance(item, dict | list)
            else f"{indent}- {_text(item)}\n"
            for item in value
        )
    return f"{indent}{_text(value)}\n"


def _is_scalar_list(value: Any) -> bool:
    return isinstance(value, list) and not any(isinstance(i, dict | list) for i in value)


def _items(value: Any, *keys: str) -> list[Any] | None:
    if isinstance(value, list):
        return value
    if isinstance(value, dict):
        for key in keys:
            if isinstance(value.get(key), list):
                return list(value[key])
    return None


def _dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _list(value: Any) -> list[Any]:
    if isinstance(value, list):
        return value
    return [] if value in (None, "", {}) else [value]


def _text(value: Any) -> str:
    """Any JSON value as one short line."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, str):
        text = " ".join(value.split())
    elif isinstance(value, int | float):
        text = str(value)
    else:
        return _compact(value)
    return text if len(text) <= _MAX_VALUE_CHARS else text[: _MAX_VALUE_CHARS - 1] + "…"


def _compact(value: Any, *, limit: int = _MAX_VALUE_CHARS) -> str:
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (ValueError, RecursionError):
        text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _labelled(label: str, value: Any, *, suffix: str = "", separator: str = " ") -> str:
    text = _text(value)
    return f"{label}{separator}{text}{suffix}" if text else ""


def _used(count: Any) -> str:
    """ "used 1 time", "used 3 times" ("" when no count is recorded)."""
    text = _text(count)
    if not text:
        return ""
    return f"used {text} time" if text == "1" else f"used {text} times"


def _join(separator: str, *parts: str) -> str:
    return separator.join(part for part in parts if part)
