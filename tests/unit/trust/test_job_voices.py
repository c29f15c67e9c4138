"""`memtab contradictions` on the labelled pairs of tests/support/job_voices.py (issue 83):
two notes choosing different tools for one job where no taxonomy names the tools, the job
said in the notes' own words — found; two tools used together, one for another job or
another part, a tool mentioned and not chosen — not."""

from __future__ import annotations

from memtab.trust.claims import sentence_claims
from support import contradiction_voices
from support.job_voices import AFTER, CASES

NOT_READ = {
    "- Rsbuild bundles the app.",
    "- We rely on Ladybug for migrations.",
    "- We deploy with Kamal.",
}
"""Cases' first notes whose contradiction is not found, and why: a capitalised word that
is the subject of a job, or follows "rely on", "through" or a "we" doing it, may as well
be a person's name ("Sam cuts the releases"), so only a name by its form is read there."""
AFTER_NOT_READ = {
    "- PDFs are generated with WeasyPrint.",
    "- Screenshots are diffed with Lost Pixel.",
}
"""The same for the batch written after the change (never tuned on): "PDF generator" ends
in a word no kind of tool is called by, so it is no job named as a tool; "Lost Pixel" is a
name of two words."""
found, test_each_kind_s_contradictions_found_and_near_misses_not = contradiction_voices.each_kind(
    CASES, NOT_READ
)


(
    test_what_is_not_read_is_still_not_found,
    test_the_batch_written_after_holds_its_near_misses_and_most_contradictions,
) = contradiction_voices.held_apart(CASES, NOT_READ, AFTER, AFTER_NOT_READ)


def test_a_job_s_tool_is_read_by_its_form_and_a_person_s_name_not() -> None:
    """A code span or a package-like name doing a job is read as the tool doing it; a
    role a person holds, a file, a day and a bare capitalised subject are not."""
    read = {
        said: [c.value for c in sentence_claims(said) if c.key.startswith("job:")]
        for said in (
            "`just` runs the tasks.",
            "Our task runner is Taskfile.",
            "Migrations: `pgroll`.",
            "Our release owner is Sam.",
            "The config file is `settings.toml`.",
            "Dependabot PRs are merged on Fridays.",
            "Sam cuts the releases.",
        )
    }
    assert read == {
        "`just` runs the tasks.": ["just"],
        "Our task runner is Taskfile.": ["taskfile"],
        "Migrations: `pgroll`.": ["pgroll"],
        "Our release owner is Sam.": [],
        "The config file is `settings.toml`.": [],
        "Dependabot PRs are merged on Fridays.": [],
        "Sam cuts the releases.": [],
    }
