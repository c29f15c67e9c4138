"""How many examples a property test draws (Hypothesis profiles: tests/conftest.py).

A test that sets its own count (`max_examples=examples(300)`) draws it under CI's profile,
`repeatable`, and the same share of it as the profile's default under the fast tier's,
`quick` (`make test-fast`): the edit loop checks each property on fewer examples, CI on all.
"""

from __future__ import annotations

from hypothesis import settings

# Hypothesis's default count, which `repeatable` and `explore` keep.
FULL_COUNT = 100


def examples(count: int) -> int:
    """`count` under a profile that draws Hypothesis's default, its share under another."""
    return max(1, count * settings().max_examples // FULL_COUNT)
