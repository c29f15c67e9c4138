"""The editor's plain-Python parts: the buffer codec, the diff, own writes (no Qt)."""

from __future__ import annotations

import pytest

from memtab.components.activity.own_writes import OwnWrites
from memtab.components.editor.text_buffer import (
    DocumentPositions,
    TextCodec,
    changed_span,
    utf16_offset,
    with_final_newline,
)
from memtab.components.text_diff import LineKind, compute_diff
from memtab.store.paths import parse_virtual_path


class _CancelledError(Exception):
    pass


class _CancelledToken:
    def raise_if_cancelled(self) -> None:
        raise _CancelledError


# --- buffer codec ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "lossless"),
    [
        ("a\nb\n", True),
        ("a\r\nb\r\n", True),
        ("\ufeffa\nb", True),
        ("a\r\nb\n", False),  # mixed endings
        ("a\rb", False),
        ("a\u2029b", False),
    ],
)
def test_codec_round_trips(text: str, lossless: bool) -> None:
    codec = TextCodec.detect(text)
    assert codec.round_trips(text) is lossless
    if lossless:
        assert codec.from_buffer(codec.to_buffer(text)) == text
        assert "\r" not in codec.to_buffer(text)


def test_changed_span_and_utf16_offsets() -> None:
    assert changed_span("abcdef", "abXYef") == (2, 4, 4)
    assert changed_span("same", "same") == (4, 4, 4)
    assert changed_span("aaa", "aaaa") == (3, 3, 4)
    assert utf16_offset("😀x", 1) == 2
    assert utf16_offset("ab", 2) == 2


# --- diff --------------------------------------------------------------------------------------


def test_compute_diff_numbers_and_counts() -> None:
    old = "a\nb\nc\nd\n"
    new = "a\nB\nc\nd\ne\n"
    result = compute_diff(old, new)
    assert (result.added, result.removed) == (2, 1)
    kinds = [(line.kind, line.text) for line in result.lines]
    assert kinds[0][0] is LineKind.HUNK
    assert (LineKind.REMOVED, "b") in kinds and (LineKind.ADDED, "B") in kinds
    removed = next(line for line in result.lines if line.kind is LineKind.REMOVED)
    assert removed.old_number == 2 and removed.new_number is None
    assert compute_diff("same\n", "same\n").identical


def test_compute_diff_stops_when_cancelled() -> None:
    with pytest.raises(_CancelledError):
        compute_diff("a\n", "b\n", _CancelledToken())


# --- own writes --------------------------------------------------------------------------------


def test_own_writes_match_by_path_and_sha_and_expire() -> None:
    clock = [1000]
    own = OwnWrites(ttl_ms=5000, clock=lambda: clock[0])
    path = parse_virtual_path("/memories/global/a.md")
    own.note(path, "sha-1")
    assert own.is_own(path, "sha-1")
    assert own.is_own("/memories/global/a.md")  # str and VirtualPath are the same key
    assert not own.is_own(path, "sha-2")
    assert not own.is_own(parse_virtual_path("/memories/global/b.md"))
    own.note("/home/x/memory/global/b.md", None)
    assert own.is_own("/home/x/memory/global/b.md", "any")
    clock[0] += 5001
    assert not own.is_own(path, "sha-1")
    own.note(path, "sha-3")
    own.forget(path)
    assert not own.is_own(path)


# --- final line break and document positions ---------------------------------------------------


@pytest.mark.parametrize(
    ("text", "saved"),
    [("", ""), ("a", "a\n"), ("a\n", "a\n"), ("a\n\n", "a\n\n"), ("a\nb", "a\nb\n")],
)
def test_saved_text_ends_with_a_line_break(text: str, saved: str) -> None:
    assert with_final_newline(text) == saved


@pytest.mark.parametrize("text", ["plain ascii", "a\U0001f600b\U0001f600\U0001f600c", "\U0001f600"])
def test_document_positions_round_trip(text: str) -> None:
    positions = DocumentPositions(text)
    for index in range(len(text) + 1):
        position = positions.to_document(index)
        assert position == utf16_offset(text, index)
        assert positions.to_text(position) == index
    # Inside a surrogate pair: the character's own index.
    if "\U0001f600" in text:
        first = text.index("\U0001f600")
        assert positions.to_text(positions.to_document(first) + 1) == first
