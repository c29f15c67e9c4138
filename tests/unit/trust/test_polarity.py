"""`trust.polarity.rule_of` reads a rule in any phrasing (issue 83): "avoid X", "refrain
from X", "X is banned", "we stopped Xing", "X — don't", "no X" / "X is fine", "X every
time", the passive — its action the stems of what is done, never who does it."""

from __future__ import annotations

import pytest

from memtab.trust.polarity import MAY, THEN, contrasted, guessed, opposite, rule_of

RULES = [
    ("Force pushes to shared branches are banned.", "never", {"forc", "push", "share", "branch"}),
    ("Committing generated files — don't.", "never", {"commit", "generat", "file"}),
    ("`console.log` in committed code is fine.", "always", {"consol", "log", "commit", "code"}),
    ("We stopped squashing commits on merge.", "never", {"squash", "commit", "merg"}),
    ("Lockfiles are never committed in this repo.", "never", {"lockfil", "commit"}),
    ("We've banned `any` in the TypeScript code.", "never", {"any", "typescript"}),
    ("Please refrain from rebasing public branches.", "never", {"rebas", "public", "branch"}),
    ("Translations should never be edited by hand.", "never", {"translat", "edit", "hand"}),
    ("Snapshot tests are banned here.", "never", {"snapshot", "test"}),
    ("Mock the database in integration tests, every time.", "always",
     {"mock", "databas", "integr", "test"}),
    ("Type hints are required in the test files.", "always", {"type", "hint", "test", "file"}),
    ("Force-push shared branches after rebasing them.", "always",
     {"forc", "push", "share", "branch", "rebas", "~after"}),
    ("user prefers that the agent never runs database migrations automatically", "never",
     {"run", "databas", "migrat", "automat"}),
    ("NEVER use `git add .`", "never", {"git add ."}),
    ("Under no circumstances push to prod on a Friday.", "never", {"push", "product", "friday"}),
    ("Disabling the linter inline is discouraged.", "never", {"disabl", "linter", "inlin"}),
    ("It's OK to skip the e2e suite for docs PRs.", "optional",
     {"e2e", "suit", "doc", "pr"}),
    # Polarity however English marks it: a habit, "nobody should", a wish denied,
    # "insists on", an emphatic "do", a negative verb, a label's bare predicate.
    ("We squash-merge every PR.", "always", {"squash", "merg", "pr"}),
    ("I push my fixes straight to `main`.", "always", {"push", "fix", "straight", "main"}),
    ("Nobody should push straight to the release branch.", "never",
     {"push", "straight", "releas", "branch"}),
    ("user does not want the agent to open pull requests on its own", "never",
     {"open", "pull", "request"}),
    ("User wants me to run the linters before pushing.", "always", {"run", "linter", "push",
     "~before"}),
    ("user insists on signed commits (`git commit -S`)", "always", {"sign", "commit"}),
    ("Do run the linter before pushing.", "always", {"run", "linter", "push", "~before"}),
    ("Agent should avoid running `npm audit fix` automatically.", "never",
     {"run", "npm audit fix", "automat"}),
    ("Forgo the ORM in the reporting queries.", "never", {"orm", "report", "queri"}),
    ("Quit adding new endpoints to the v1 API.", "never", {"add", "new", "endpoint", "v1",
     "api"}),
    ("Force-pushing: off-limits.", "never", {"forc", "push"}),
    ("You must not sign off commits here.", "never", {"sign", "commit"}),
    ("We won't vendor the Go modules.", "never", {"vendor", "go"}),
    ("Feel free to amend local commits.", "always", {"amend", "local", "commit"}),
    ("In this workspace, commit straight to `main`.", "always", {"commit", "straight", "main"}),
    ("Hand-edit the generated client.", "always", {"hand", "edit", "generat", "client"}),
    ("If the change is docs-only, don't run the full suite.", "never",
     {"run", "suit", "~if"}),
    ("Leave debug prints out of commits.", "never", {"debug", "print", "commit"}),
    ("The user forbids `git push --force` on any branch.", "never",
     {"git push --force", "branch"}),
    ("Mocks: not in e2e tests.", "never", {"mock", "e2e", "test"}),
    ("Ban `eval` in the templates.", "never", {"eval", "templat"}),
    ("user dislikes merge commits on `main`", "never", {"merg", "commit", "main"}),
    ("User requires signed commits.", "always", {"sign", "commit"}),
]  # fmt: skip
NO_RULE = [
    "Seed data comes from the staging dump.",
    "Cache entries expire after an hour.",
    "We stopped at the second step.",
    "Card numbers must be masked in logs, except the last 4 digits.",
    "We are on Postgres 16.",
    "I think the queue is slow.",
    "We merged the fix yesterday.",
    "Nobody knows why the cache misses.",
]


@pytest.mark.parametrize(("sentence", "polarity", "action"), RULES)
def test_a_rule_is_read_in_any_phrasing(sentence: str, polarity: str, action: set[str]) -> None:
    rule = rule_of(sentence)
    assert rule is not None
    said = {stem for stem in rule.action if stem != MAY and not stem.startswith(THEN)}
    assert (rule.polarity, said) == (polarity, action)


@pytest.mark.parametrize("sentence", NO_RULE)
def test_a_statement_of_what_is_states_no_rule(sentence: str) -> None:
    assert rule_of(sentence) is None


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("No `console.log` in committed code.", "`console.log` in committed code is fine."),
        ("Snapshot tests are banned here.", "Write snapshot tests for every component."),
        ("NEVER use `git add .`", "Use `git add .` to stage everything."),
    ],
)
def test_a_rule_said_one_way_opposes_its_opposite_said_another(one: str, other: str) -> None:
    rule, their_rule = rule_of(one), rule_of(other)
    assert rule is not None and their_rule is not None
    assert opposite(rule, their_rule)


@pytest.mark.parametrize(
    ("one", "other"),
    [
        # Another time, a condition the other does not say, an object that is only a
        # possessor: an exception or another action, not the opposite.
        ("Never amend a commit after pushing it.",
         "Amend your local commits freely before pushing."),
        ("If the change is docs-only, don't run the full suite.",
         "Always run the full suite before merging."),
        ("Don't log tokens.", "Log the token's expiry time."),
        ("Avoid mocking in the parser's unit tests.", "Mock the network in unit tests."),
        ("Never force-push to `main`.", "Force-push your own branch after a rebase."),
    ],
)  # fmt: skip
def test_a_rule_said_at_another_time_or_of_another_thing_is_no_opposite(
    one: str, other: str
) -> None:
    rule, their_rule = rule_of(one), rule_of(other)
    assert rule is not None and their_rule is not None
    assert not opposite(rule, their_rule)


def test_a_rule_s_x_not_y_says_never_to_do_it_to_y() -> None:
    """ "Deploy from CI, not from your laptop": always deploy from CI, never from the
    laptop — "not just Y" says Y too."""
    rule, never = (
        rule_of("Deploy from CI, not from your laptop."),
        contrasted("Deploy from CI, not from your laptop."),
    )
    assert rule is not None and never is not None
    assert (rule.polarity, set(rule.action)) == ("always", {"deploy", "ci"})
    assert (never.polarity, set(never.action)) == ("never", {"deploy", "laptop"})
    opposite_rule = rule_of("Deploy from your laptop with `make deploy`.")
    assert opposite_rule is not None and opposite(never, opposite_rule)
    assert contrasted("Run the full matrix, not just your local Python.") is None


def test_a_verb_no_list_names_makes_a_rule_only_against_a_never_of_it() -> None:
    """ "Answer the user in German" is guessed an imperative (the duplicates never read it
    so): it opposes "Never answer in German", and "Proofread the answers in German", its
    words and more but another verb, does not."""
    answer, docker = (
        guessed("Answer the user in German."),
        guessed("Proofread the answers in German."),
    )
    never = rule_of("Never answer in German.")
    assert rule_of("Answer the user in German.") is None
    assert answer is not None and docker is not None and never is not None
    assert set(answer.action) == {"answer", "user", "german", "~verb:answer"}
    assert opposite(never, answer) and not opposite(never, docker)
    assert guessed("The API answers in German.") is None
    assert guessed("Never answer in German.") is None
