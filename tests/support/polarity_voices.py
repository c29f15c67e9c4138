"""A rule and its opposite in the ways English marks that a statement requires, allows,
excuses or forbids an action (issue 83), in voices the other corpora do not use: the
modals ("is to", "shall", "ought to", "need not", "mustn't", "don't have to"), the
deontic adjectives ("mandatory", "compulsory", "optional", "frowned upon", "off the
table", "out of bounds"), the verbs whose object is not done ("skip", "omit", "forget to",
"leave … alone", "steer clear of"), the nouns ("a must", "a hard no", "zero X", "a ban on
X"), "only", a house rule or a policy, a heading's "## Don'ts", and each agent's voice.

Near misses: another action, a condition or an exception on one side, a past incident, a
question, a permission against a requirement ("X is fine" / "always X"), an excuse against
a prohibition ("you needn't X" / "don't X"). `SAME_RULE`: one rule said once as a
requirement and once as a prohibition — "Don't say done before the linters pass" and "Run
lint before saying you're done" (a prohibition of B before A is a requirement of A before
B), "Never skip the hooks" and "Always run the hooks": no contradiction, and a duplicate.

`FIRST` and `SAME_RULE` were written before the reader was changed; `AFTER` after it,
never tuned on (its figure is the one that predicts a corpus nobody here has seen).
"""

from __future__ import annotations

from support import duplicate_voices
from support.always_never_voices import APART, CLAUDE, CODEX, GEMINI, SAME, SCOPES, TEAM
from support.contradiction_cases import C, Case, N

K = "always-never"


def feedback(name: str, body: str) -> str:
    """A Claude Code memory file whose frontmatter says what the note is for."""
    return f"---\nname: {name}\ndescription: {name}\ntype: feedback\n---\n\n{body}"


def codex(line: str) -> str:
    """A line of Codex's memory summary, in its third person about the user."""
    return f"## What Dana expects\n\n{line}"


def gemini(line: str) -> str:
    """A bullet of a project's GEMINI.md."""
    return f"## Project conventions\n\n- {line}"


def xum(line: str) -> str:
    """A line of a xum note, tagged as it writes them."""
    return f"- [convention] {line}"


FIRST: tuple[Case, ...] = (
    # Modals: required, excused, forbidden.
    Case(K, "You're to sign every commit with your SSH key.", "You needn't sign commits.", C,
         SAME),
    Case(K, "Contributors mustn't vendor third-party code.",
         "Vendor third-party code under `third_party/`.", C, SAME),
    Case(K, "Agents shall not touch the production database.",
         "You may touch the production database for read-only checks.", C, SAME),
    Case(K, "You ought to squash fixup commits before merging.",
         "Don't squash fixup commits before merging.", C, SAME),
    Case(K, "The agent is not to open pull requests by itself.",
         "Open pull requests by yourself once the tests pass.", C, SAME),
    Case(K, "Snapshots must not be regenerated in CI.", "Regenerate the snapshots in CI.", C,
         SAME),
    Case(K, "We need not write ADRs for dependency bumps.",
         "Write an ADR for every dependency bump.", C, SAME),
    Case(K, "There's no need to rebuild the Docker image for config changes.",
         "Rebuild the Docker image for every config change.", C, SAME),
    Case(K, "You don't have to run `make e2e` before pushing.",
         "Always run `make e2e` before pushing.", C, SAME),
    Case(K, "Mustn't log request bodies.", "Log request bodies at debug level.", C, SAME),
    # Adjectives.
    Case(K, "Type hints on public functions: mandatory.",
         "Type hints on public functions are optional.", C, SAME),
    Case(K, "Storing secrets in `.env` files is a no-go.", "Store secrets in `.env` files.", C,
         SAME),
    Case(K, "Pushing directly to `main` is totally fine.",
         "Pushing directly to `main` is strictly forbidden.", C, SAME),
    Case(K, "Long-lived feature branches are frowned upon.",
         "Work on long-lived feature branches.", C, SAME),
    Case(K, "Auto-merging Dependabot PRs is off the table.", "Auto-merge the Dependabot PRs.", C,
         SAME),
    Case(K, "Running migrations by hand in prod is out of bounds.",
         "Run the migrations by hand in prod.", C, SAME),
    Case(K, "Changelog entries are compulsory for user-facing changes.",
         "Changelog entries are unnecessary for user-facing changes.", C, SAME),
    Case(K, "Committing `.env.example` is encouraged.", "Never commit `.env.example`.", C, SAME),
    Case(K, "Inline styles in the React components are unacceptable.",
         "Inline styles are okay in the React components.", C, SAME),
    # Verbs whose object is not done.
    Case(K, "Steer clear of global state in the plugins.", "Use global state in the plugins.", C,
         SAME),
    Case(K, "Skip the pre-commit hooks.", "Always run the pre-commit hooks.", C, SAME),
    Case(K, "Omit the trailing slash in API routes.",
         "Always put a trailing slash in API routes.", C, SAME),
    Case(K, "Please refrain from tagging reviewers on draft PRs.",
         "Tag reviewers on draft PRs.", C, SAME),
    Case(K, "Keep `Cargo.lock` under version control.",
         "Don't put `Cargo.lock` under version control.", C, SAME),
    Case(K, "Prefer squash merges.", "Squash merges are not allowed.", C, SAME),
    Case(K, "Leave the generated protobuf files alone.",
         "Edit the generated protobuf files by hand.", C, SAME),
    # Nouns.
    Case(K, "Zero `console.log` calls in committed code.",
         "Keep `console.log` calls in committed code.", C, SAME),
    Case(K, "Friday deploys are a hard no.", "Deploy on Fridays.", C, SAME),
    Case(K, "A ban on force-pushes to release branches.",
         "Force-push the release branches after a rebase.", C, SAME),
    Case(K, "Pinning exact versions is a must.", "Don't pin exact versions.", C, SAME),
    # Only, a house rule, a team's habit, a policy.
    Case(K, "Merge only through the merge queue.", "Never merge through the merge queue.", C,
         SAME),
    Case(K, "We never cherry-pick onto release branches.",
         "Cherry-pick fixes onto the release branches.", C, SAME),
    Case(K, "Our policy: no approving your own PRs.", "Approve your own PRs.", C, TEAM),
    Case(K, "Around here we don't write docstrings for private helpers.",
         "Write docstrings for private helpers.", C, SAME),
    Case(K, "House rule — nobody merges their own PR.",
         "Merge your own PR after one approval.", C, SAME),
    # A heading's bullets.
    Case(K, "## Don'ts\n\n- force-push to `main`", "- Force-push to `main` after rebasing.", C,
         SAME),
    Case(K, "### Not allowed\n\n- vendoring `node_modules`",
         "- Vendor `node_modules` for offline builds.", C, SAME),
    # Each agent's voice.
    Case(K, codex("Dana asked that generated files never be committed."),
         "Commit the generated files.", C, CODEX),
    Case(K, gemini("`npm audit fix` is not to be run automatically."),
         "Run `npm audit fix` automatically after every install.", C, GEMINI),
    Case(K, xum("migrations are forward-only: writing down-migrations is pointless"),
         "Write a down-migration for every migration.", C, SCOPES),
    Case(K, feedback("mocks in e2e", "Mocking the network in the e2e suite is not OK."),
         "Mock the network in the e2e suite.", C, CLAUDE),
    Case(K, codex("Dana is fine with the agent rebasing her branches."),
         "Never rebase Dana's branches.", C, CODEX),
    Case(K, gemini("Hand-editing `openapi.yaml` is discouraged; regenerate it."),
         "Hand-edit `openapi.yaml` when the generator lags.", N, GEMINI),
    # Near misses: another action.
    Case(K, "Don't squash fixup commits.", "Squash the migration files.", N, SAME),
    Case(K, "Don't run `terraform apply` locally.", "Run `terraform plan` locally.", N, SAME),
    Case(K, "Don't bump the major version.", "Bump the minor version for new features.", N,
         SAME),
    Case(K, "Never run `rm -rf` in the repo root.", "Run `rm -rf build/` to clean.", N, SAME),
    Case(K, "Steer clear of global state in the plugins.",
         "Use global state in the CLI entry point.", N, SAME),
    Case(K, "Stop the dev server before switching branches.",
         "Stop running the dev server in Docker.", N, SAME),
    Case(K, "Do not log PII.", "Log the request id for every failed call.", N, SAME),
    Case(K, "No emojis in commit subjects.", "Emojis in PR descriptions are fine.", N, SAME),
    # A condition or an exception on one side.
    Case(K, "You needn't run `make e2e` for docs-only changes.",
         "Always run `make e2e` before pushing.", N, SAME),
    Case(K, "Always write an ADR for architectural changes.",
         "Exception to the ADR rule: reverting a change needs no ADR.", N, SAME),
    Case(K, "Always run migrations in a transaction.",
         "Never run migrations in a transaction on the analytics replica.", N, SAME),
    Case(K, "Avoid `any` in new TypeScript code.",
         "`any` is fine in the legacy `src/old/` code.", N, SAME),
    Case(K, "If you ever need to force-push, use `--force-with-lease`.", "Never force-push.", N,
         SAME),
    Case(K, "Skip the flaky e2e test in CI until #412 is fixed.",
         "Always run the e2e tests in CI.", N, SAME),
    Case(K, "Don't merge on red CI.", "Merge on green CI.", N, SAME),
    Case(K, "Mandatory: two approvals on infra PRs.",
         "Optional: a second approval on docs PRs.", N, SAME),
    # A past incident, a question, another project.
    Case(K, "Last week someone force-pushed to `main` and we lost a day.",
         "Don't force-push to `main`.", N, SAME),
    Case(K, "I used to skip the pre-commit hooks.", "Always run the pre-commit hooks.", N, SAME),
    Case(K, "Should we stop vendoring `node_modules`?", "Vendor `node_modules`.", N, SAME),
    Case(K, "Do we squash-merge here?", "Squash-merge PRs.", N, SAME),
    Case(K, "Deploy on Fridays.", "Friday deploys are a hard no.", N, APART),
    # A permission against a requirement, an excuse against a prohibition: both hold.
    Case(K, "Squash merges are fine.", "Always squash-merge.", N, SAME),
    Case(K, "You needn't run the linters locally.",
         "Don't run the linters locally; CI does it.", N, SAME),
    Case(K, "Running the full suite locally is fine.",
         "You don't have to run the full suite locally.", N, SAME),
    Case(K, "Type hints on tests are optional.", "Never put type hints on tests.", N, SAME),
    Case(K, "Only the release manager tags releases.",
         "Release managers tag releases from `main`.", N, SAME),
    Case(K, "Mustn't log request bodies.", "Request bodies are never logged.", N, SAME),
    Case(K, "Never deploy without a rollback plan.", "Deploy with a canary first.", N, SAME),
    Case(K, "Prefer `pytest` fixtures over setUp methods.",
         "Use setUp methods in the legacy unittest suites.", N, SAME),
    Case(K, "The CI bot never signs its commits.", "Sign your commits.", N, SAME),
)  # fmt: skip

AFTER: tuple[Case, ...] = (
    Case(K, "Reviewers shall not approve their own changes.",
         "Approve your own changes when the diff is tiny.", N, SAME),
    Case(K, "Seeding the staging DB from prod is strictly off-limits.",
         "Seed the staging DB from prod every Monday.", C, SAME),
    Case(K, "You needn't bump the chart version for values-only changes.",
         "Bump the chart version for every change.", N, SAME),
    Case(K, "Bumping the chart version is optional.", "Always bump the chart version.", C, SAME),
    Case(K, "Rotating the API keys by hand is a no-go.", "Rotate the API keys by hand.", C, SAME),
    Case(K, "Please skip the smoke tests on preview deploys.",
         "Never skip the smoke tests on preview deploys.", C, SAME),
    Case(K, "Don't forget to regenerate the GraphQL types.",
         "Don't regenerate the GraphQL types; CI does it.", C, SAME),
    Case(K, "No hotfixes straight to `prod`.", "Hotfixes go straight to `prod`.", C, SAME),
    Case(K, "Translating the error messages is mandatory.",
         "Translating the error messages is not required.", C, SAME),
    Case(K, "Caching the API responses in Redis is welcome.",
         "Never cache the API responses in Redis.", C, SAME),
    Case(K, feedback("no retries", "Don't retry failed webhooks automatically.\n\n**Why:** "
                     "double charges."),
         "Retry failed webhooks automatically three times.", C, CLAUDE),
    Case(K, codex("Dana doesn't need the agent to update the README for refactors."),
         "Always update the README.", N, CODEX),
    Case(K, gemini("Archiving old tickets by script is fine."),
         "Never archive old tickets by script.", C, GEMINI),
    Case(K, xum("don't publish the package until the docs build is green"),
         "Build the docs before publishing the package.", N, SCOPES),
    Case(K, "Don't deploy until the smoke tests pass.", "Run the smoke tests before deploying.",
         N, SAME),
    Case(K, "Stop pinning transitive dependencies.", "Pin transitive dependencies.", C, SAME),
    Case(K, "Pinning transitive dependencies was a mistake we made in 2023.",
         "Pin transitive dependencies.", N, SAME),
    Case(K, "Is it OK to squash the release commits?", "Never squash the release commits.", N,
         SAME),
    Case(K, "Profiling in prod is fine.", "Always profile in prod before release.", N, SAME),
    Case(K, "You don't have to sign the release tags.", "Never sign the release tags.", N, SAME),
    Case(K, "Mocking time is discouraged in the billing tests.",
         "Mock time in the billing tests.", C, SAME),
    Case(K, "Nobody deploys on Sundays.", "Deploy on Sundays when the queue is empty.", N, SAME),
)  # fmt: skip
"""Written after the reader was changed, never tuned on."""

SAME_RULE_PAIRS: tuple[tuple[str, str], ...] = (
    ("Don't say done before the linters pass.", "Run lint before saying you're done."),
    ("Don't push before running the tests.", "Run the tests before pushing."),
    ("Never open a PR before rebasing on `main`.", "Rebase on `main` before opening a PR."),
    ("Don't deploy until the migration has run.", "Run the migration before deploying."),
    (
        "Never tag a release before the changelog is updated.",
        "Update the changelog before tagging a release.",
    ),
    ("Don't merge a PR until it has two approvals.", "Get two approvals before merging a PR."),
    ("Never skip the pre-commit hooks.", "Always run the pre-commit hooks."),
    (
        "Don't forget to bump the version in `pyproject.toml`.",
        "Always bump the version in `pyproject.toml`.",
    ),
    ("Don't commit without signing.", "Sign every commit."),
    (
        "Never leave the lockfile out of a dependency PR.",
        "Always include the lockfile in a dependency PR.",
    ),
)
"""One rule said once as a requirement and once as a prohibition (or a prohibition of not
doing it): no contradiction, and a duplicate candidate."""

SAME_RULE: tuple[Case, ...] = tuple(Case(K, one, other, N, SAME) for one, other in SAME_RULE_PAIRS)


def same_rule_duplicates() -> tuple[duplicate_voices.Case, ...]:
    """`SAME_RULE_PAIRS` as `duplicate_voices` cases: each pair a reworded duplicate, in a
    note of its own with a title."""
    Note = duplicate_voices.Note
    return tuple(
        duplicate_voices.Case(
            "reworded",
            "duplicate",
            Note("global", f"rule-{n}.md", f"# Workflow\n\n- {one}\n"),
            Note("project:shop", f"rule-{n}-p.md", f"# Before you finish\n\n- {other}\n"),
        )
        for n, (one, other) in enumerate(SAME_RULE_PAIRS)
    )
