"""Free text a model or plan brings, capped before Memtab keeps it in the journal, runs log or a
plan (mux reads the journal at every start)."""

from __future__ import annotations

from memtab.fs.atomic import encode_utf8

MAX_SUMMARY_BYTES = 4096  # a run's summary (mux shows it as the run's one line)
MAX_NOTE_BYTES = 1024  # an op's note: the reason a change was made, or why it was refused
MAX_ERROR_BYTES = 4096  # why a run failed
_ELLIPSIS = "…"


def cap_text(text: str, max_bytes: int) -> str:
    """`text` cut on a character boundary to at most `max_bytes` of UTF-8, `…` ending a cut."""
    if len(text) * 4 <= max_bytes:  # no character takes more than 4 bytes
        return text
    encoded = encode_utf8(text)
    if len(encoded) <= max_bytes:
        return text
    room = max_bytes - len(encode_utf8(_ELLIPSIS))
    return encoded[:room].decode("utf-8", "ignore") + _ELLIPSIS  # drops a cut sequence


def cap_optional(text: str | None, max_bytes: int) -> str | None:
    """`cap_text` of a text that may be absent."""
    return None if text is None else cap_text(text, max_bytes)
