"""Plain text shown inside Qt's rich text (labels, tooltips, the Inbox's details)."""

from __future__ import annotations

_ESCAPES = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#x27;"})


def escape_html(text: str) -> str:
    """`text` with `&`, `<`, `>` and quotes escaped — what `html.escape` returns, without
    the `html` package, whose import loads its 2,231 named entities (~0.3 MiB every
    window would keep for nothing)."""
    return text.translate(_ESCAPES)
