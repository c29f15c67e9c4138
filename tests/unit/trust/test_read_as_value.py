"""`memtab contradictions` on tests/support/read_as_value.py: a rule's object, a tool's
version and a choice for one thing are not read as what another note's value opposes, and
the contradiction of each shape is still found (issue 83)."""

from __future__ import annotations

from support import contradiction_voices
from support.read_as_value import CASES

NOT_READ = {"- The Stripe keys live in Doppler."}
""""live in" against "are kept in" was read only by a tool's named use (`reading.jobs`,
removed with issue 94: it found nothing on held-out data)."""
found, test_each_kind_s_contradictions_found_and_near_misses_not = contradiction_voices.each_kind(
    CASES, NOT_READ
)
