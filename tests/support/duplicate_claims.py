"""A labelled set of memories for `memtab duplicates` (issue 83): one rule in other words,
and one rule kept globally and again in a project, in voices neither the trust corpus,
`duplicate_voices` nor `duplicate_scopes` use — "No X without Y" and "Y before X", "X is
off-limits / mandatory / banned", "don't forget to", "heads-up:", an agent told in the third
person ("the assistant must…"), a correction recorded ("user corrected me: …"), terse chat
shorthand, a non-native writer, a question and its answer — with the rule's reason or the
project's command, path or tool beside it.

`BATCH` was written before the engine's change this corpus measures; `AFTER` after it, and
never tuned on (docs/trust-quality.md "The seeded corpora"). Kinds as in `duplicate_scopes`:
`reworded` and `global-project` must be one group; `value`, `narrower`, `exception`,
`opposite` and `subject` must not.
"""

from __future__ import annotations

from support.duplicate_voices import Case, Note

G, U, C, GE = "global", "claude-user", "codex", "gemini"
F, M, P = "project:fernhill", "project:mossgate", "project:pebblecast"
FT, MC, PW = "team:fernhill", "claude:mossgate", "workspace:pebblecast"
_GEMINI = "## Gemini Added Memories\n"


def _case(kind: str, expected: str, one: tuple[str, str], other: tuple[str, str]) -> Case:
    """Two one-paragraph memories, each (place, text), named by the case's kind."""
    (place, text), (their_place, their_text) = one, other
    return Case(
        kind,
        expected,  # type: ignore[arg-type]
        Note(place, f"{kind}.md", _noted(place, text)),
        Note(their_place, f"{kind}.md", _noted(their_place, their_text)),
    )


def _noted(place: str, text: str) -> str:
    return f"{_GEMINI}- {text}\n" if place == GE else f"# Working notes\n\n{text}\n"


def _same(kind: str, one: tuple[str, str], other: tuple[str, str]) -> Case:
    return _case(kind, "duplicate", one, other)


def _apart(kind: str, one: tuple[str, str], other: tuple[str, str]) -> Case:
    return _case(kind, "neither", one, other)


REWORDED: tuple[Case, ...] = (
    _same("reworded",
          (G, "No schema migration without a rollback script."),
          (MC, "- Every schema migration ships with a rollback script.")),
    _same("reworded",
          (U, "Don't forget to bump the API version when a response field is removed."),
          (F, "- Removing a field from a response means bumping the API version.")),
    _same("reworded",
          (C, "- The assistant must never force-push to shared branches."),
          (P, "Force-pushing to a shared branch is off-limits.")),
    _same("reworded",
          (G, "Heads-up: feature work branches off `develop`, not `main`."),
          (FT, "- Feature branches are cut from `develop` (never from `main`).")),
    _same("reworded",
          (U, "User corrected me: integration tests belong in `it/`, not next to the code."),
          (M, "- Integration tests live in the `it/` folder.")),
    _same("reworded",
          (GE, "pls always run shellcheck on scripts b4 committing"),
          (PW, "Shell scripts are checked with shellcheck before every commit.")),
    _same("reworded",
          (G, "Is important to close the HTTP client after use, otherwise sockets leak."),
          (MC, "Always close the HTTP client when done with it; leaked sockets piled up "
               "last month.")),
    _same("reworded",
          (C, "- Q: where do fixtures go? A: under `tests/fixtures/`, one folder per module."),
          (F, "- Test fixtures are stored in `tests/fixtures/`, a folder per module.")),
    _same("reworded",
          (U, "Passwords are hashed with Argon2id, nothing weaker."),
          (P, "- Hash every password using Argon2id.")),
    _same("reworded",
          (G, "Mandatory: a changelog entry for each release."),
          (FT, "- Each release needs its changelog entry.")),
    _same("reworded",
          (GE, "The user wants numbers in tables right-aligned"),
          (M, "Right-align numeric columns in tables.")),
    _same("reworded",
          (C, "- Secrets are never printed to the console, not even in debug mode."),
          (PW, "Do not print secrets to the console, debug mode included.")),
    _same("reworded",
          (G, "Before opening a PR, rebase it on the latest `main`."),
          (MC, "PRs get rebased onto the latest `main` before they are opened.")),
    _same("reworded",
          (U, "Hard rule: no `console.log` left in committed code."),
          (F, "- Committed code must not contain `console.log` calls.")),
    _same("reworded",
          (C, "- Mocking `datetime` is banned; inject a clock instead."),
          (P, "Inject a clock rather than mocking `datetime`.")),
    _same("reworded",
          (G, "When a test is flaky, quarantine it and file a ticket the same day."),
          (FT, "- Flaky tests are quarantined and get a ticket filed the same day.")),
    _same("reworded",
          (GE, "Always answer me in German"),
          (M, "Answers should be written in German.")),
    _same("reworded",
          (U, "Wrap lines of prose in docs at 80 columns."),
          (PW, "Docs prose is wrapped at 80 columns.")),
    _same("reworded",
          (C, "- Every public API change needs an ADR in `docs/adr/`."),
          (MC, "Write an ADR under `docs/adr/` for any change to the public API.")),
    _same("reworded",
          (G, "Cache keys include the tenant id, always."),
          (F, "- Never build a cache key without the tenant id in it.")),
    _same("reworded",
          (U, "Run the database in Docker for local development, never a local install."),
          (P, "- Local development uses the Dockerised database instead of a native "
              "install.")),
    _same("reworded",
          (GE, "Dont merge your own pull requests"),
          (FT, "- Nobody merges their own pull request; another person does.")),
    _same("reworded",
          (C, "- Dependencies are updated by Renovate; no manual bumps."),
          (M, "Let Renovate do dependency updates, don't bump versions by hand.")),
    _same("reworded",
          (G, "Time zones: the server works in UTC only."),
          (MC, "All server-side times are in UTC.")),
    _same("reworded",
          (U, "Prefer early returns to nested ifs."),
          (PW, "Return early instead of nesting if statements.")),
)  # fmt: skip

GLOBAL_PROJECT: tuple[Case, ...] = (
    _same("global-project",
          (G, "Never commit directly to `main`."),
          (F, "- fernhill: no direct commits to `main`; everything goes through a PR.")),
    _same("global-project",
          (U, "Write tests before fixing a bug."),
          (M, "- Write the failing test first when fixing a bug (`make test-one`).")),
    _same("global-project",
          (C, "- Never put credentials in source code."),
          (PW, "Credentials never go in the source code of pebblecast; they come from SOPS.")),
    _same("global-project",
          (GE, "Use descriptive branch names"),
          (FT, "- Branch names in this project are descriptive (`fix/login-timeout`, not "
               "`fix1`).")),
    _same("global-project",
          (G, "Don't ignore linter warnings; fix them."),
          (P, "- Linter warnings from `ruff` get fixed, not ignored.")),
    _same("global-project",
          (U, "Squash commits before merging."),
          (MC, "In mossgate we squash commits before merging (`gh pr merge --squash`).")),
    _same("global-project",
          (C, "- No magic numbers; name the constant."),
          (F, "- No magic numbers in fernhill's code: give each constant a name in "
              "`constants.py`.")),
    _same("global-project",
          (G, "Ask before adding a new service to docker-compose."),
          (PW, "pebblecast: check with me before adding a service to `docker-compose.yml`.")),
    _same("global-project",
          (GE, "Keep secrets out of logs"),
          (M, "- Secrets stay out of the logs (the `redact()` filter in `log.py`).")),
    _same("global-project",
          (U, "Don't use wildcard imports."),
          (FT, "- Wildcard imports are not allowed in this codebase.")),
    _same("global-project",
          (G, "Every TODO carries a ticket number."),
          (MC, "TODO comments in mossgate need a ticket number (`TODO(MG-123)`).")),
    _same("global-project",
          (C, "- Use structured logging, never string formatting in log calls."),
          (P, "- Structured logging only (`structlog`), no string formatting in log calls.")),
    _same("global-project",
          (G, "Run the whole test suite before tagging a release."),
          (F, "- Before a release is tagged, `tox` runs the whole test suite.")),
    _same("global-project",
          (U, "Pin the Docker base image by digest."),
          (PW, "Base images in pebblecast's Dockerfiles are pinned by digest.")),
    _same("global-project",
          (GE, "Never use `git add -A`; stage files by name"),
          (FT, "- Stage files by name here; `git add -A` is not used.")),
    _same("global-project",
          (G, "Review your own diff before asking for a review."),
          (M, "- Look over your own diff before asking for a review — `git diff main...`.")),
    _same("global-project",
          (C, "- Keep API responses backwards compatible."),
          (MC, "Mossgate's API responses stay backwards compatible; the mobile app lags.")),
    _same("global-project",
          (U, "No network calls in unit tests."),
          (P, "- Unit tests never make network calls (`pytest-socket` blocks them).")),
    _same("global-project",
          (G, "Document every environment variable in the README."),
          (F, "- Each environment variable fernhill reads is documented in `README.md`.")),
    _same("global-project",
          (GE, "Explain the root cause in the PR description"),
          (PW, "PR descriptions on pebblecast explain the root cause of the bug.")),
)  # fmt: skip

NEAR: tuple[Case, ...] = (
    _apart("value",
           (G, "Keep functions under 30 lines."),
           (F, "- Functions in fernhill stay under 60 lines.")),
    _apart("value",
           (U, "Cache keys expire after 10 minutes."),
           (M, "- Cache keys expire after 2 hours.")),
    _apart("value",
           (C, "- Answers in French."),
           (P, "Answers should be written in Spanish.")),
    _apart("value",
           (G, "Feature branches are cut from `develop`."),
           (FT, "- Feature branches are cut from `release`.")),
    _apart("value",
           (GE, "Hash passwords with bcrypt"),
           (MC, "Passwords are hashed with scrypt.")),
    _apart("value",
           (U, "Wrap docs prose at 72 columns."),
           (PW, "Docs prose is wrapped at 100 columns.")),
    _apart("value",
           (C, "- Dependencies are updated by Dependabot."),
           (F, "Let Renovate do dependency updates.")),
    _apart("narrower",
           (G, "No schema migration without a rollback script."),
           (M, "- No schema migration on the billing database without a rollback script.")),
    _apart("narrower",
           (U, "Right-align numeric columns in tables."),
           (P, "- Right-align numeric columns in the invoice tables only.")),
    _apart("narrower",
           (C, "- Quarantine flaky tests."),
           (FT, "- Quarantine flaky tests only when they fail twice in one week.")),
    _apart("narrower",
           (G, "Write an ADR for any change to the public API."),
           (MC, "Write an ADR for a change to the public API only if it breaks clients.")),
    _apart("narrower",
           (GE, "Rebase PRs on the latest main before opening them"),
           (F, "- Rebase PRs on the latest `main` before opening them when they touch "
               "migrations.")),
    _apart("narrower",
           (U, "Close the HTTP client after use."),
           (PW, "Close the HTTP client after use in the batch importer.")),
    _apart("exception",
           (G, "Never commit directly to `main`."),
           (P, "- pebblecast is the exception: docs typos may be committed directly to "
               "`main`.")),
    _apart("exception",
           (C, "- No network calls in unit tests."),
           (M, "- Unlike the global rule, mossgate's unit tests may call the local "
               "emulator.")),
    _apart("exception",
           (U, "Squash commits before merging."),
           (FT, "- This repo opts out of squashing: merge commits keep the history.")),
    _apart("exception",
           (G, "Use structured logging everywhere."),
           (MC, "The CLI in mossgate overrides that: plain-text logging for the CLI.")),
    _apart("exception",
           (GE, "Pin Docker base images by digest"),
           (F, "- fernhill's dev images are exempt from digest pinning.")),
    _apart("opposite",
           (G, "Always rebase PRs on `main` before opening them."),
           (M, "- Don't rebase PRs on `main` before opening them; we merge `main` in.")),
    _apart("opposite",
           (U, "Mock `datetime` in tests."),
           (P, "- Never mock `datetime` in tests.")),
    _apart("opposite",
           (C, "- Squash commits before merging."),
           (FT, "- Never squash commits before merging; bisect needs them.")),
    _apart("opposite",
           (G, "Wildcard imports are fine in `__init__.py`."),
           (MC, "Wildcard imports are not allowed in `__init__.py`.")),
    _apart("opposite",
           (GE, "Print secrets to the console in debug mode"),
           (PW, "Do not print secrets to the console, not even in debug mode.")),
    _apart("opposite",
           (U, "Merge your own pull requests once approved."),
           (F, "- Never merge your own pull request.")),
    _apart("subject",
           (G, "Every schema migration ships with a rollback script."),
           (M, "- Rollback scripts are stored in `db/rollback/`.")),
    _apart("subject",
           (C, "- The changelog is generated by `git-cliff`."),
           (P, "- Each release needs its changelog entry reviewed by Marta.")),
    _apart("subject",
           (U, "Flaky tests are quarantined."),
           (FT, "- The quarantine list is `tests/flaky.txt`.")),
    _apart("subject",
           (G, "Structured logging only."),
           (MC, "Logs are shipped to Loki by the Promtail sidecar.")),
    _apart("subject",
           (GE, "Renovate updates the dependencies"),
           (F, "- Renovate's dashboard issue is pinned in the tracker.")),
    _apart("subject",
           (C, "- Integration tests live in `it/`."),
           (PW, "Integration tests need the `docker` group on the runner.")),
)  # fmt: skip

BATCH: tuple[Case, ...] = REWORDED + GLOBAL_PROJECT + NEAR
"""The corpus written before the change."""

AFTER: tuple[Case, ...] = (
    _same("reworded",
          (G, "Whenever you add a CLI flag, add it to `--help` too."),
          (MC, "- New CLI flags must show up in the `--help` output.")),
    _same("reworded",
          (U, "Screenshots in PRs for any UI change, please."),
          (P, "- A UI change's PR includes screenshots.")),
    _same("reworded",
          (C, "- Avoid global mutable state."),
          (FT, "Global mutable state is to be avoided.")),
    _same("reworded",
          (GE, "I always want the diff shown before a file is overwritten"),
          (F, "- Show the diff before overwriting any file.")),
    _same("reworded",
          (G, "Config values come from environment variables, never from hard-coded "
              "literals."),
          (PW, "Don't hard-code config values; read them from environment variables.")),
    _same("reworded",
          (U, "FYI the staging DB gets wiped every Sunday night."),
          (M, "- Every Sunday night the staging database is wiped.")),
    _same("reworded",
          (C, "- No emoji in commit messages."),
          (MC, "Commit messages must not contain emoji.")),
    _same("reworded",
          (G, "Test names describe the behaviour, e.g. `test_rejects_expired_token`."),
          (P, "- Name tests after the behavior they check (`test_rejects_expired_token`).")),
    _same("reworded",
          (GE, "Never run destructive git commands like reset --hard without asking"),
          (FT, "- Ask first before any destructive git command such as `git reset --hard`.")),
    _same("reworded",
          (U, "One logical change per commit — don't mix refactors with fixes."),
          (F, "- Keep refactors and fixes in separate commits; one logical change each.")),
    _same("global-project",
          (G, "Use `pathlib` instead of `os.path`."),
          (M, "- mossgate code uses `pathlib`, not `os.path` (see `mossgate/paths.py`).")),
    _same("global-project",
          (C, "- Never log access tokens."),
          (PW, "Access tokens are never logged in pebblecast, not even truncated.")),
    _same("global-project",
          (U, "Every migration must be reversible."),
          (FT, "- Migrations in this repo must be reversible (`alembic downgrade -1` works).")),
    _same("global-project",
          (GE, "Keep the README's quick start working"),
          (P, "- The README quick start has to keep working; CI runs it via `make quickstart`.")),
    _same("global-project",
          (G, "Don't catch bare exceptions."),
          (MC, "No bare `except:` in mossgate — catch the specific exception.")),
    _same("global-project",
          (U, "Add a docstring to every module."),
          (F, "- Every module in fernhill starts with a docstring.")),
    _same("global-project",
          (C, "- Write dates as ISO 8601 in logs."),
          (PW, "Log dates in pebblecast are ISO 8601 (`structlog` TimeStamper, fmt=\"iso\").")),
    _same("global-project",
          (G, "Run `pre-commit` before pushing."),
          (M, "- Here too, `pre-commit run --all-files` before every push.")),
    _same("global-project",
          (GE, "Never commit large binary files"),
          (FT, "- Large binaries don't get committed to this repository; use Git LFS.")),
    _same("global-project",
          (U, "Review dependency licences before adding a package."),
          (P, "- Check the licence of a new package before it is added to pebblecast.")),
    _apart("value",
           (G, "Log dates as ISO 8601."),
           (F, "- Log dates as Unix epoch seconds.")),
    _apart("value",
           (C, "- The staging DB is wiped every Sunday night."),
           (M, "- The staging DB is wiped every Wednesday night.")),
    _apart("narrower",
           (U, "Show the diff before overwriting a file."),
           (PW, "Show the diff before overwriting a file in `migrations/` only.")),
    _apart("narrower",
           (GE, "Every migration must be reversible"),
           (MC, "Migrations that touch the billing tables must be reversible.")),
    _apart("exception",
           (G, "Avoid global mutable state."),
           (P, "- pebblecast's plugin registry is the exception: global mutable state, "
               "on purpose.")),
    _apart("exception",
           (C, "- Every module has a docstring."),
           (FT, "- Generated modules in this repo are exempt from the docstring rule.")),
    _apart("opposite",
           (U, "Emoji in commit messages are welcome."),
           (F, "- No emoji in commit messages.")),
    _apart("opposite",
           (G, "Catch bare exceptions at the top level of workers."),
           (M, "- Never catch bare exceptions, not even at the top level of workers.")),
    _apart("subject",
           (GE, "Run pre-commit before pushing"),
           (PW, "The pre-commit hooks are defined in `.pre-commit-config.yaml`.")),
    _apart("subject",
           (C, "- Access tokens are never logged."),
           (MC, "Access tokens expire after 15 minutes.")),
)  # fmt: skip
"""The corpus written after the change (`BATCH`'s figures known), never tuned on."""

MODEL_PARAPHRASES: tuple[Case, ...] = (
    _same("reworded",
          (G, "Never store API keys in the frontend bundle."),
          (F, "- Do not store API keys in the client-side code.")),
    _same("reworded",
          (U, "Run the database migrations before starting the API server."),
          (M, "- Ensure migration scripts are executed before starting the API.")),
    _same("reworded",
          (C, "- Keep each pull request focused on a single change."),
          (P, "- Ensure each pull request addresses a single change.")),
    _same("reworded",
          (G, "Validate request bodies at the API boundary, not deep in the services."),
          (MC, "Validate API requests at the boundary, not within services.")),
    _same("reworded",
          (GE, "Always pin the Python version in the Dockerfile"),
          (FT, "- Ensure the Python version is pinned in the Dockerfile.")),
    _same("reworded",
          (U, "Never edit files under the vendor directory by hand."),
          (PW, "Do not alter files within the vendor directory manually.")),
    _same("reworded",
          (C, "- Prefer composition over inheritance in the UI components."),
          (F, "- In the UI components, prefer composition over inheritance.")),
    _apart("value",
           (G, "Use snake_case for every column name in the database."),
           (M, "- Use camelCase for every column name in the database.")),
)  # fmt: skip
"""A second source of voices: each first rule written here, the second the real local
model's rewording of it (Qwen2.5-Coder-1.5B Q4 on llama-server, temperature 0.7, seed 83,
asked to "say exactly the same rule in different words"), read and kept as it answered —
the one that changed the value is a near miss; four that changed the meaning or said it
word for word are left out. Measured after the change, never tuned on."""


ATTACHED: tuple[Case, ...] = (
    _same("global-project",
          (G, "Squash fixup commits before merging, because reviewers read the history "
              "commit by commit."),
          (F, "- Squash your fixup commits before the merge — `git rebase -i --autosquash "
              "main` does it in one go.")),
    _same("reworded",
          (U, "Never paste customer emails into prompts; legal flagged it after the March "
              "audit."),
          (M, "- Customer emails must never be pasted into a prompt, e.g. when asking for "
              "help with a support ticket.")),
    _same("global-project",
          (C, "- Set a timeout on every outbound HTTP call, otherwise a slow carrier hangs "
              "the worker pool."),
          (P, "Every outbound HTTP call gets a timeout (we use `httpx.Timeout(10)`).")),
    _same("reworded",
          (G, "Use feature flags for unfinished features so main stays releasable."),
          (FT, "- Unfinished features go behind a feature flag: trunk has to be shippable "
               "at any moment.")),
    _same("global-project",
          (GE, "Always add an index for new foreign key columns, Postgres doesn't create "
               "one for you"),
          (MC, "New foreign key columns need an index — found that out when the orders "
               "page took 40 s.")),
    _same("reworded",
          (U, "Don't use `latest` as a Docker image tag; a rebuild can silently pull a "
              "different base."),
          (PW, "Pin Docker images to a version tag instead of `latest`, so builds are "
               "reproducible.")),
    _same("reworded",
          (C, "- Prefer early returns over nested ifs; it keeps the happy path at the left "
              "margin."),
          (F, "Early returns instead of nested ifs, e.g. `if not user: return None` at the "
              "top.")),
    _same("reworded",
          (G, "Write migrations so they can run twice without failing — deploys sometimes "
              "retry them."),
          (M, "- Migrations must be safe to run twice; `make migrate` is rerun on every "
              "deploy.")),
    _same("reworded",
          (U, "Keep secrets out of log lines, incident 2291 was a bearer token in a debug "
              "log."),
          (P, "- No secrets in log lines; the log shipper forwards everything to a "
              "third-party vendor.")),
    _same("global-project",
          (GE, "Ask before deleting any branch on the remote, someone may still have work "
               "on it"),
          (FT, "- Never delete a remote branch without asking first (`git push origin "
               "--delete` included).")),
    _same("global-project",
          (G, "Regenerate the API client after changing the OpenAPI spec, since the "
              "frontend types come from it."),
          (PW, "After any OpenAPI spec change, regenerate the API client with "
               "`pnpm gen:api`.")),
    _same("reworded",
          (C, "- Never block the event loop with synchronous file IO: one slow disk stalls "
              "every request."),
          (MC, "Synchronous file IO on the event loop is not allowed, use `aiofiles` or a "
               "thread.")),
    _apart("opposite",
           (G, "Squash fixup commits before merging, because reviewers read the history "
               "commit by commit."),
           (M, "- Don't squash fixup commits before merging; reviewers read the history "
               "commit by commit.")),
    _apart("subject",
           (C, "- Set a timeout on every outbound HTTP call, otherwise a slow carrier hangs "
               "the worker pool."),
           (P, "Retry outbound HTTP calls to carriers twice, otherwise a slow carrier hangs "
               "the worker pool.")),
    _apart("value",
           (U, "Pin Docker base images to a version tag, so builds are reproducible."),
           (F, "- Pin Docker base images to a digest, so builds are reproducible.")),
    _apart("narrower",
           (GE, "Always add an index for new foreign key columns, Postgres doesn't create "
                "one for you"),
           (MC, "Add an index for new foreign key columns on the orders table only — it is "
                "the one that is slow.")),
    _apart("exception",
           (G, "Use feature flags for unfinished features so main stays releasable."),
           (PW, "- The mobile app is exempt from feature flags: store review makes them "
                "useless there.")),
    _apart("subject",
           (C, "- Keep secrets out of log lines, e.g. tokens, passwords and session "
               "cookies."),
           (FT, "Keep secrets out of error messages, e.g. tokens, passwords and session "
                "cookies.")),
    _apart("value",
           (U, "Run the full test suite before tagging a release, it takes about 12 "
               "minutes."),
           (M, "- Run the smoke tests before tagging a release, they take about 12 "
               "minutes.")),
    _apart("opposite",
           (GE, "Never delete a remote branch without asking first"),
           (P, "- Delete remote branches right after merging, nobody needs them "
               "afterwards.")),
    _apart("narrower",
           (G, "Write migrations so they can run twice without failing — deploys sometimes "
               "retry them."),
           (F, "- Data migrations that backfill columns must be safe to run twice; the "
               "backfill job retries.")),
    _apart("opposite",
           (C, "- Prefer early returns over nested ifs; it keeps the happy path at the left "
               "margin."),
           (MC, "Prefer nested ifs over early returns, it keeps the single exit point the "
                "linter wants.")),
)  # fmt: skip
"""Rules with a reason, an example or the project's command beside them, in the same
sentence ("X, because Y", "X — `cmd` does it", "X, e.g. Y", "X: Y"): written before the
engine's candidate search read a rule's own clause, and measured before and after it."""

ATTACHED_AFTER: tuple[Case, ...] = (
    _same("global-project",
          (U, "Bump the minor version for every new public endpoint, since clients pin on "
              "minor versions."),
          (M, "- A new public endpoint bumps the minor version — `make bump-minor` handles "
              "the tag.")),
    _same("reworded",
          (C, "- Never merge on a red CI run, even if the failure looks unrelated."),
          (FT, "Merging while CI is red is off the table; flaky or not, rerun it first.")),
    _same("global-project",
          (G, "Translate every new UI string, otherwise the German build falls back to "
              "English keys."),
          (P, "- Every new UI string gets translated (`pnpm i18n:extract` lists the "
              "missing ones).")),
    _same("reworded",
          (GE, "Add a regression test for each fixed bug, e.g. `test_issue_512_empty_cart`"),
          (MC, "Each bug fix comes with a regression test; reviewers ask for it anyway.")),
    _same("reworded",
          (U, "Don't print stack traces to users, they leak file paths and versions."),
          (F, "- Stack traces are never shown to users: log them, show an error id.")),
    _apart("value",
           (U, "Bump the minor version for every new public endpoint, since clients pin on "
               "minor versions."),
           (P, "- Bump the major version for every new public endpoint, since clients pin "
               "on minor versions.")),
    _apart("opposite",
           (C, "- Never merge on a red CI run, even if the failure looks unrelated."),
           (M, "Merging on a red CI run is fine when the failure looks unrelated.")),
    _apart("subject",
           (G, "Translate every new UI string, otherwise the German build falls back to "
               "English keys."),
           (FT, "- Review every new UI string, otherwise the German build falls back to "
                "English keys.")),
    _apart("narrower",
           (GE, "Add a regression test for each fixed bug, e.g. `test_issue_512_empty_cart`"),
           (F, "- Add a regression test for each fixed bug in the payment code only, e.g. "
               "`test_issue_512_empty_cart`.")),
    _apart("exception",
           (U, "Don't print stack traces to users, they leak file paths and versions."),
           (MC, "The admin console is the exception: it prints stack traces to staff "
                "users.")),
)  # fmt: skip
"""Written after the candidate search read a rule's own clause (`ATTACHED`'s figures known),
never tuned on."""
