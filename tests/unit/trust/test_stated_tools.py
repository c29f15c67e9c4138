"""`memtab contradictions` on the labelled pairs of tests/support/stated_tools.py (issue 83):
a note stating the tool in use ("mount with Enzyme (…)", "We switched the workspace to
pnpm", "App state: Redux Toolkit") against a rule that names it ("Never use Enzyme"), a
version said "on X N", ports and settings said in a list — found; the same tool for
another job or part, a move away from it beside "never", agreement — not."""

from __future__ import annotations

import pytest

from memtab.trust.claims import Claim, claims_of, contradict
from memtab.trust.reading.jobs import kinds_used, named_uses
from support import contradiction_voices
from support.contradiction_cases import C
from support.stated_tools import AFTER, CASES

NOT_READ = {
    "- Local ports — api: 8080, web: 3000, docs: 4000.",
    "- Never run Python 3.12 in production yet.",
}
"""Cases' first notes whose contradiction is not found, and why: "web" in a list of ports
and "the web app" are two names of a service no reader joins; a rule "in production"
says nothing of a use that names no place."""
AFTER_NOT_READ = {"- Never rely on Testcontainers in unit tests."}
"""The same for the batch written after the change (never tuned on): "start their Postgres
on Testcontainers" — "on" after a thing, not after a verb of running."""
found, test_each_kind_s_contradictions_found_and_near_misses_not = contradiction_voices.each_kind(
    CASES, NOT_READ
)
(
    _,
    test_the_batch_written_after_holds_its_near_misses_and_most_contradictions,
) = contradiction_voices.held_apart(CASES, NOT_READ, AFTER, AFTER_NOT_READ)


def test_the_cases_not_read_are_still_missed(found: dict[int, bool]) -> None:
    said = [found[n] for n, case in enumerate(CASES) if case.one in NOT_READ and case.expected == C]
    assert said == [False] * len(NOT_READ)


@pytest.mark.parametrize(
    ("sentence", "uses"),
    [
        ("Never use Enzyme; it cannot render hooks.", [("enzyme", "")]),
        ("Don't pull in Moment.js, anywhere.", [("moment", "")]),
        ("Never run Docker Compose locally.", [("docker compose", "local")]),
        ("Avoid Lodash in the frontend.", [("lodash", "frontend")]),
        ("Never use Celery beat.", [("celery beat", "")]),
        ("Never auto-format the generated SQL.", []),  # "never" and a verb: no tool
        ("Stay on npm; don't introduce pnpm.", [("npm", ""), ("pnpm", "")]),
        (
            "Component tests mount with Enzyme (full DOM).",
            [("enzyme", "compon dom full mount test")],
        ),
        ("Collection helpers come from Lodash.", [("lodash", "collect come helper")]),
        ("The dev VM runs on Vagrant.", [("vagrant", "dev vm")]),
        ("App state: Redux Toolkit, one slice per feature.", [("redux toolkit", "app state")]),
        (
            "Storybook (v8) documents every shared component.",
            [("storybook", "compon document share")],
        ),
        ("We moved the bundling from Webpack to Vite.", [("vite", "bundl"), ("webpack", "bundl")]),
        ("Biome since March.", [("biome", "")]),
        ("Playwright since the spring, for every browser test.", [("playwright", "browser test")]),
        ("Dana since March: on the platform team.", []),  # a person, maybe
        ("Ladle (the Storybook alternative) for previews.", [("ladle", "preview")]),
        ("Limit logins with a fixed-window counter.", []),  # the name describes the counter
        ("Symptom: `curl` to GitHub fails.", []),  # a label of no job
        ("1:1 with Jana every other Wednesday.", []),  # a meeting: no verb before "with"
        ("Step one: render the manifests.", []),  # a step after a label: no tool named
        ("Example with `URLSafeTimedSerializer`.", []),  # an example
        ("Pair with Alice on the parser.", []),  # "pair with": no means
        ("Priya (on leave) owns the releases.", []),  # a person: no version in parentheses
        ("Owners: Sam, Priya.", []),  # a role, and a list
        ("We used to test with Enzyme.", []),  # what was
        ("We might move the bundling to Vite.", []),  # what may be
        ("We rolled back the move to Vite.", []),  # undone
    ],
)
def test_a_tool_is_read_in_use_or_ruled_out_by_its_name(
    sentence: str, uses: list[tuple[str, str]]
) -> None:
    read = [
        (value.removeprefix("not:"), key.partition(":")[2])
        for key, value, _ in named_uses(sentence)
    ]
    assert read == uses


def _use(text: str) -> Claim:
    return next(c for c in claims_of(text) if c.key.startswith("in use "))


@pytest.mark.parametrize(
    ("rule", "statement", "expected"),
    [
        ("Never use Redux.", "App state: Redux Toolkit, one slice per feature.", True),
        ("Never use Celery beat.", "Exports run through Celery, one task per tenant.", False),
        ("Never use Docker for local development.", "CI builds the images with Docker.", False),
        ("Never use Docker.", "CI builds the images with Docker.", True),
        ("Always use Docker.", "CI builds the images with Docker.", False),
        ("Avoid Hypothesis in the API tests.", "Parser tests get inputs via Hypothesis.", False),
        ("Avoid Hypothesis in the API tests.", "API tests get inputs via Hypothesis.", True),
        ("Never use Bazel.", "We moved the build off Bazel to Pants.", False),
    ],
)
def test_a_rule_out_opposes_a_use_of_its_tool_for_what_it_holds_for(
    rule: str, statement: str, expected: bool
) -> None:
    one = _use(rule)
    other = next(
        c for c in claims_of(statement) if c.key.partition(":")[0] == one.key.partition(":")[0]
    )
    assert contradict(one, other) is expected


def test_a_tool_ruled_out_for_a_part_says_nothing_of_a_use_naming_none() -> None:
    """A taxonomy's tool ruled out for one job, and used with no part said ("Celery
    handles the retries"), may be used for another: no contradiction."""
    ruled = [
        c for c in claims_of("Never use Celery for the scheduled reports.") if c.kind == "tool"
    ]
    used = [c for c in claims_of("Celery handles the webhook retries.") if c.kind == "tool"]
    assert ruled and used
    assert not any(contradict(a, b) for a in ruled for b in used)


def test_values_said_in_a_list_are_each_their_thing_s() -> None:
    ports = {
        (c.key.split("|")[0], c.value)
        for c in claims_of("Local ports — api: 8080, web: 3000.")
        if c.kind == "port"
    }
    listed = claims_of("Dev servers: admin on 5174, storefront on 5173.")
    settings = claims_of("Keep them as set (`WORKERS`: 8, `PREFETCH`: 1).")
    required = claims_of("`WORKERS` must be 8.")
    assert ports == {("api", "8080"), ("web", "3000")}
    assert {(c.kind, c.value) for c in listed} == {("port", "5174"), ("port", "5173")}
    assert {(c.kind, c.shown, c.value) for c in settings} == {
        ("setting", "WORKERS", "8"),
        ("setting", "PREFETCH", "1"),
    }
    assert [(c.kind, c.shown, c.value) for c in required] == [("setting", "WORKERS", "8")]
    assert [c for c in claims_of("Team: Ana, Bo and Cy.") if c.kind != "always-never"] == []


@pytest.mark.parametrize(
    "sentence",
    [
        "Staging and prod both run on Postgres 14.",
        "Our lambdas are on the Node 18 runtime.",
        "We are on Postgres 16: the instance was upgraded in May.",
    ],
)
def test_a_version_is_read_said_of_both_places_or_with_what_of_the_product_it_is(
    sentence: str,
) -> None:
    assert [c.kind for c in claims_of(sentence) if c.kind == "version"] == ["version"]


@pytest.mark.parametrize(
    ("sentence", "chosen"),
    [
        (
            "Testing: unit tests run with Jest, e2e with Playwright.",
            {("JavaScript test runner", "jest"), ("end-to-end test runner", "playwright")},
        ),
        ("Local stack: everything runs with Docker Compose.", {("container runtime", "docker")}),
        ("Styles are written with Tailwind.", {("styling approach", "tailwind")}),
        ("Styles are written with Tailwind utility classes.", set()),  # describes the classes
        ("Never use Docker Compose for local development.", set()),  # ruled out: the rule's
        ("Formatting runs with Black.", {("Python formatter", "black")}),  # its job said
        ("The shop runs with Black.", set()),  # a common word, its job not said
    ],
)
def test_a_known_tool_in_use_makes_its_kind_s_choice(
    sentence: str, chosen: set[tuple[str, str]]
) -> None:
    """Each tool a sentence names in use, two kinds in one sentence too, is the choice of
    its kind for what the sentence names."""
    uses = named_uses(sentence)
    assert {(key.partition(":")[0], tool) for key, tool, _ in kinds_used(uses, sentence)} == chosen


def test_a_choice_read_from_a_use_meets_another_only_for_a_thing_both_name() -> None:
    """A token said to come from Vault chooses Vault for that token: it says nothing of
    where the OpenAI key lives, and meets a choice for CI's secrets."""
    used = [c for c in claims_of("The deploy secret for CI comes from Vault.") if c.kind == "tool"]
    key = [c for c in claims_of("The OpenAI key lives in 1Password.") if c.kind == "tool"]
    ci = [c for c in claims_of("Use 1Password for the CI secrets.") if c.kind == "tool"]
    assert used and key and ci
    assert not any(contradict(a, b) for a in used for b in key)
    assert any(contradict(a, b) for a in used for b in ci)


def test_a_move_over_many_words_to_a_tool_chooses_it() -> None:
    """ "moved … over to X" tells X is used now, however many words name what moved."""
    said = "We moved all of the end-to-end browser suites over to Playwright."
    assert {c.value for c in claims_of(said) if c.kind == "tool"} == {"playwright"}
