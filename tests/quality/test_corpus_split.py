"""The corpus split holds: no transcript of the part tuned on shares a message with one of
the part only measured, so a rule tuned on one cannot have seen the other's text.

Messages are compared by a hash of their whitespace-normalised text, the human's and the
agent's (tool calls and results left out: the same command output can honestly appear in
two sessions of one project). Short messages ("continue", "yes", a slash command's
`<command-name>/exit</command-name>` wrapper) are left out too: any two sessions may share
them. On failure only file names and counts are printed, never a
measured session's text."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable
from pathlib import Path

from .corpus import MEASURE_CASES, WRITER_CASES
from .dense_h28_en import DENSE_EN_ITEMS
from .dense_h28_intl import DENSE_INTL_ITEMS
from .scoring import load_events

# Shorter messages (their tags left out) are common phrases, not evidence of an overlap.
_MIN_MESSAGE_CHARS = 80
_TAG = re.compile(r"<[^>]+>")


def _message_hashes(path: Path, scratch: Path) -> set[str]:
    hashes: set[str] = set()
    for event in load_events(path, scratch):
        if event.role not in ("user", "assistant"):
            continue
        text = " ".join(event.text.split())
        if len(_TAG.sub("", text).strip()) >= _MIN_MESSAGE_CHARS:
            hashes.add(hashlib.sha256(text.encode("utf-8")).hexdigest())
    return hashes


def _distinct(paths: Iterable[Path]) -> list[Path]:
    return sorted(set(paths))


def test_no_tuned_on_transcript_shares_a_message_with_a_measured_one(tmp_path: Path) -> None:
    measured = {
        path: _message_hashes(path, tmp_path)
        for path in _distinct(case.path for case in MEASURE_CASES)
    }
    assert measured, "the measured part is empty"
    assert all(measured.values()), "a measured transcript was read as no message at all"
    overlaps: list[str] = []
    for tuned in _distinct(case.path for case in WRITER_CASES):
        if tuned in measured:
            overlaps.append(f"{tuned.name} is in both parts")
            continue
        hashes = _message_hashes(tuned, tmp_path)
        for path, their_hashes in measured.items():
            shared = len(hashes & their_hashes)
            if shared:
                overlaps.append(f"{tuned.name} shares {shared} message(s) with {path.name}")
    assert not overlaps, "\n".join(overlaps)


def test_every_dense_relabelling_names_a_tuned_on_session() -> None:
    """A dense item list whose file is not a tuned-on case would be silently dropped."""
    tuned_on = {case.path.name for case in WRITER_CASES}
    for file, items in (*DENSE_EN_ITEMS, *DENSE_INTL_ITEMS):
        assert file in tuned_on, file
        assert items and all(all(fragment.strip() for fragment in item) for item in items), file
