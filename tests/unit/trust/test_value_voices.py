"""`memtab contradictions` on the labelled pairs of tests/support/value_voices.py (issue 83):
one setting given two values — a timeout, a size, a rate, a count, a flag, a version, a
port, a schedule, a branch or host of a role — found; the same value in other words, and
two things sharing a word, not."""

from __future__ import annotations

from support import contradiction_voices, value_voices
from support.value_voices import AFTER, CASES

NOT_READ = {
    "- Request bodies over 1 MB are rejected.",
    "- Failed jobs are retried 3 times.",
    "- Hotfixes branch off `release`.",
}
"""Cases' first notes whose contradiction is not found, and why: "over 1 MB" is a bound,
read as no setting's value (it is as often a bound of another thing: "uploads under 1 MB
skip the scan"); "Failed jobs" is another noun phrase than "Job retries"; "start from" is
a verb the branch's other frame does not say."""
AFTER_NOT_READ = {
    "Our Lambda functions time out after 15 seconds.",
    "- The Nginx `client_max_body_size` is 50m.",
}
"""The same for the batch written after the change (never tuned on): "Lambda functions"
is another noun phrase than "Lambda"; "50m" is Nginx's own unit, and the setting's name
in code is not the words "body size limit"."""
found, test_each_kind_s_contradictions_found_and_near_misses_not = contradiction_voices.each_kind(
    CASES, NOT_READ
)

(
    test_what_is_not_read_is_still_not_found,
    test_the_batch_written_after_holds_its_near_misses_and_most_contradictions,
) = contradiction_voices.held_apart(CASES, NOT_READ, AFTER, AFTER_NOT_READ)


def test_the_corpus_is_as_large_as_the_issue_asks() -> None:
    """At least 25 contradictions and 25 near misses before, 8 and 8 after."""
    before = [case.expected for case in CASES]
    after = [case.expected for case in value_voices.AFTER]
    assert min(before.count("contradiction"), before.count("neither")) >= 25
    assert min(after.count("contradiction"), after.count("neither")) >= 8
