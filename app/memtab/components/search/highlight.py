"""Where a search's terms occur in a text: the spans the tree highlights in a row's name and
description; apart from the search so that the tree's rows, painted first, import only this."""

from __future__ import annotations


def highlight_spans(text: str, terms: tuple[str, ...]) -> list[tuple[int, int]]:
    """Merged (start, end) spans of `text` where any term occurs, case-insensitively; where
    casefolding changes the length (`ß`) highlighting is skipped rather than misplaced."""
    folded = text.casefold()
    if len(folded) != len(text) or not terms:
        return []
    spans: list[tuple[int, int]] = []
    for term in terms:
        start, size = folded.find(term), len(term)
        while start != -1 and size:
            touching = spans and spans[-1][1] == start  # the last one: one span
            spans.append((spans.pop()[0] if touching else start, start + size))
            start = folded.find(term, start + size)
    if len(terms) == 1:  # one term's are in order and apart: merged already
        return spans
    spans.sort()
    merged: list[tuple[int, int]] = []
    for start, end in spans:
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
        else:
            merged.append((start, end))
    return merged
