"""One memory-tool call that turns a file's lines (as `view` showed them) into new lines."""

from __future__ import annotations

from typing import Any


def _count_overlapping(haystack: str, needle: str) -> int:
    """Occurrences, overlapping ones included: a needle found once this way is found at
    that one place by the tool's own (non-overlapping) search too."""
    count, index = 0, haystack.find(needle)
    while index != -1:
        count += 1
        index = haystack.find(needle, index + 1)
    return count


def edit_arguments(path: str, old: list[str], new: list[str]) -> dict[str, Any] | None:
    """One memory-tool call turning a file's lines `old` into `new`. A pure insertion becomes
    `insert`; anything else a `str_replace` of the smallest changed block, widened by context lines
    until `old_str` is unique."""
    if old == new:
        return None
    prefix = 0
    while prefix < min(len(old), len(new)) and old[prefix] == new[prefix]:
        prefix += 1
    suffix = 0
    while suffix < min(len(old), len(new)) - prefix and old[-1 - suffix] == new[-1 - suffix]:
        suffix += 1
    low, high, grow = prefix, len(old) - suffix, len(new) - len(old)
    if low == high:
        text = "\n".join(new[low : high + grow]) + "\n"  # the tool drops one trailing ""
        return {"command": "insert", "path": path, "insert_line": low, "insert_text": text}
    # Matches are counted on the content with a final newline: a superset of the real one.
    haystack = "\n".join(old) + "\n"
    while True:
        old_str, new_str = _render_block(old, new, low, high, grow)
        if old_str and _count_overlapping(haystack, old_str) == 1:
            return {"command": "str_replace", "path": path, "old_str": old_str, "new_str": new_str}
        if high < len(old):
            high += 1
        elif low > 0:
            low -= 1
        else:
            return None


def _render_block(
    old: list[str], new: list[str], low: int, high: int, grow: int
) -> tuple[str, str]:
    """old_str/new_str replacing old[low:high] by new[low:high+grow], with the separators
    placed so the match never needs the file's final newline."""
    old_block, new_block = old[low:high], new[low : high + grow]
    if low > 0:
        replacement = "\n" + "\n".join(new_block) if new_block else ""
        return "\n" + "\n".join(old_block), replacement
    if high < len(old):
        replacement = "\n".join(new_block) + "\n" if new_block else ""
        return "\n".join(old_block) + "\n", replacement
    return "\n".join(old_block), "\n".join(new_block)
