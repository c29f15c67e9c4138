"""A second labelled set of statement pairs (issue 83), written apart from the trust corpus
and from `meaning_cases`: the same rule or fact in global memory and a project's in other
words — numbers spelt out, a clause moved, a short form — and near misses that share a
sentence's frame and not what it says (another tool, thing, value or person). Each note
has a filler line of its own, so what is found joins the pair's lines or nothing."""

from __future__ import annotations

from support.meaning_cases import FILLERS, Case

CASES: tuple[Case, ...] = (
    # The same statement in other words.
    Case("reworded", "Run `cargo clippy -- -D warnings` before opening a PR.",
         "Clippy must pass with warnings denied (`cargo clippy -- -D warnings`) before any"
         " PR goes up.", "duplicate"),
    Case("reworded", "The nightly backup job keeps 14 days of snapshots.",
         "We retain fourteen days of nightly snapshots from the backup job.", "duplicate"),
    Case("reworded", "Never log full credit card numbers; mask all but the last four digits.",
         "Card numbers must be masked in logs, except the last 4 digits.", "duplicate"),
    Case("reworded", "Feature branches are deleted after the merge.",
         "After merging, delete the feature branch.", "duplicate"),
    Case("reworded", "All SQL goes through the query builder in `db/query.py`, no raw strings.",
         "Don't write raw SQL strings; use the query builder (`db/query.py`).", "duplicate"),
    Case("reworded", "Staging is rebuilt from scratch every Sunday at 03:00.",
         "Every Sunday at 03:00 the staging environment gets rebuilt from scratch.",
         "duplicate"),
    Case("reworded", "Use UTC for every timestamp written to the database.",
         "Timestamps in the DB are stored as UTC.", "duplicate"),
    Case("reworded", "The search API times out after 800 ms.",
         "Search requests are cut off at 800 ms by the API.", "duplicate"),
    Case("reworded", "Keep each migration reversible with a down step.",
         "Every migration needs a working down step so it can be reversed.", "duplicate"),
    Case("reworded", "Prefer composition over inheritance in the service layer.",
         "In the service layer, compose objects rather than inheriting from base classes.",
         "duplicate"),
    # Near misses: one frame, another thing or value.
    Case("near-miss", "Run `cargo clippy` before opening a PR.",
         "Run `cargo fmt` before opening a PR.", "neither"),
    Case("near-miss", "The nightly backup job keeps 14 days of snapshots.",
         "The weekly backup job keeps 90 days of snapshots.", "neither"),
    Case("near-miss", "Never log full credit card numbers.", "Never log full access tokens.",
         "neither"),
    Case("near-miss", "Feature branches are deleted after the merge.",
         "Release branches are kept after the merge.", "neither"),
    Case("near-miss", "Staging is rebuilt every Sunday at 03:00.",
         "Production is backed up every Sunday at 03:00.", "neither"),
    Case("near-miss", "The search API times out after 800 ms.",
         "The upload API times out after 30 s.", "neither"),
    Case("near-miss", "Ask Omar before changing the billing schema.",
         "Ask Omar before changing the CI pipeline.", "neither"),
    Case("near-miss", "Store money as integer cents.", "Store durations as integer milliseconds.",
         "neither"),
)  # fmt: skip


def notes() -> list[tuple[str, str, str, int, str]]:
    """Each case's two notes: (id, place, name, case number, text), in case order."""
    made = []
    for number, case in enumerate(CASES):
        for side, (place, said) in enumerate(
            (("global", case.one), (f"project:statements-{number % 3}", case.other))
        ):
            filler = FILLERS[(2 * number + side + 7) % len(FILLERS)]
            text = f"# Notes {number}\n\n- {said}\n- {filler}\n"
            made.append((f"s{number}{'ab'[side]}", place, f"case-{number}.md", number, text))
    return made
