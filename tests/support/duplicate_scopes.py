"""A labelled set of memories for `memtab duplicates` (issue 83): the same rule kept in the
global scope and again in a project, and one rule said in other words, written apart
from the trust corpus and `duplicate_voices` in voices they do not use — a team's shared
memory, Claude Code's user rules, a workspace's scratch notes; "In this repo, …", "For
<project>: …", "here too", a rule with the project's command or path in brackets;
"make sure to X" ↔ "X, always", a verb for its noun, "I'd like you to", passive, "rule of
thumb".

`duplicate` cases — `global-project` (a rule in global memory, a user-level CLAUDE.md,
AGENTS.md or GEMINI.md, and the project's copy adding the project's context or dropping
the general part) and `reworded` — must be one group. `neither` cases must not:
`exception` (a project's exception to a global rule), `narrower` (the rule said of a
part only), `value` (the same subject, another value), `subject` (the same subject, a
different claim), `opposite` (the rule denied). A group joining two cases is wrong too.
"""

from __future__ import annotations

from support.duplicate_voices import Case, Note


def _case(kind: str, expected: str, one: tuple[str, str], other: tuple[str, str]) -> Case:
    """A case of two one-paragraph memories, each (place, text), named by its kind."""
    (place, text), (their_place, their_text) = one, other
    return Case(
        kind,
        expected,  # type: ignore[arg-type]
        Note(place, f"{kind}.md", f"# Notes\n\n{text}\n"),
        Note(their_place, f"{kind}.md", f"# Notes\n\n{their_text}\n"),
    )


def _same(kind: str, one: tuple[str, str], other: tuple[str, str]) -> Case:
    return _case(kind, "duplicate", one, other)


def _apart(kind: str, one: tuple[str, str], other: tuple[str, str]) -> Case:
    return _case(kind, "neither", one, other)


G, U, C, GE = "global", "claude-user", "codex", "gemini"
T, Q, S = "project:tern", "project:quarry", "project:saltmarsh"
TT, QC, SW = "team:tern", "claude:quarry", "workspace:saltmarsh"

GLOBAL_PROJECT: tuple[Case, ...] = (
    _same("global-project",
          (G, "- Never store secrets in environment files that get committed."),
          (TT, "- In this repo, never store secrets in committed environment files; "
               "they live in 1Password.")),
    _same("global-project",
          (U, "Run the formatter before every commit."),
          (Q, "- Before each commit, run the formatter (`cargo fmt`).")),
    _same("global-project",
          (C, "- Write a regression test for every bug you fix."),
          (S, "For saltmarsh: every bug fix comes with a regression test "
              "under `tests/regressions/`.")),
    _same("global-project",
          (GE, "## Gemini Added Memories\n- Never log personal data such as emails or "
               "phone numbers."),
          (QC, "Quarry's rule too: never log personal data (emails, phone numbers) — "
               "see `logging/redact.rs`.")),
    _same("global-project",
          (G, "- Prefer composition over inheritance."),
          (T, "- Here too: composition over inheritance for the widget classes.")),
    _same("global-project",
          (U, "Always pin exact versions of dependencies."),
          (S, "- saltmarsh pins exact dependency versions in `requirements.lock`.")),
    _same("global-project",
          (C, "- Do not use `print` for debugging output; use the logger."),
          (TT, "In tern, no `print` for debugging output — use the logger.")),
    _same("global-project",
          (G, "Keep functions short, under 40 lines."),
          (Q, "- In this codebase functions stay under 40 lines.")),
    _same("global-project",
          (GE, "## Gemini Added Memories\n- Answer in British English."),
          (SW, "Reminder: answers in British English here as well.")),
    _same("global-project",
          (U, "- Never disable a failing test to get CI green."),
          (QC, "Don't disable failing tests to make CI green on quarry, fix them.")),
    _same("global-project",
          (G, "- Document every public function with a docstring."),
          (T, "- tern: every public function gets a docstring (Google style).")),
    _same("global-project",
          (C, "- Rebase feature branches instead of merging main into them."),
          (S, "In saltmarsh, rebase feature branches rather than merging `main` into them.")),
    _same("global-project",
          (G, "Delete dead code instead of commenting it out."),
          (TT, "- Dead code is deleted, not commented out (tern).")),
    _same("global-project",
          (U, "- Make sure to update the changelog with every user-facing change."),
          (Q, "Quarry: update `CHANGELOG.md` with every user-facing change.")),
    _same("global-project",
          (GE, "## Gemini Added Memories\n- Use UTC for all timestamps in logs."),
          (S, "- Log timestamps are in UTC, like everywhere else.")),
    _same("global-project",
          (G, "- Never push directly to the default branch; open a pull request."),
          (QC, "In quarry nobody pushes directly to `trunk`, the default branch: open a "
               "pull request.")),
    _same("global-project",
          (C, "- Use feature flags for unfinished work that is merged."),
          (T, "- Unfinished work merged into tern goes behind a feature flag (`flags.yaml`).")),
    _same("global-project",
          (U, "Avoid abbreviations in variable names."),
          (SW, "- saltmarsh too: no abbreviations in variable names.")),
    _same("global-project",
          (G, "- Write commit messages in the imperative mood."),
          (TT, "Commit messages in tern are written in the imperative mood "
               "(\"Add parser\", not \"Added parser\").")),
    _same("global-project",
          (C, "- Never hard-code timeouts; read them from configuration."),
          (Q, "- Quarry reads every timeout from configuration (`quarry.toml`), none "
              "hard-coded.")),
    _same("global-project",
          (GE, "## Gemini Added Memories\n- Ask before deleting any file."),
          (T, "- In tern, ask me before deleting any file.")),
    _same("global-project",
          (U, "- Validate every input at the API boundary."),
          (S, "For saltmarsh, every input is validated at the API boundary "
              "(pydantic models in `api/schemas.py`).")),
)  # fmt: skip

GLOBAL_PROJECT_NEAR: tuple[Case, ...] = (
    _apart("exception",
           (G, "- Run the full test suite before every push."),
           (T, "- In tern, don't run the full test suite before a push; CI runs it.")),
    _apart("exception",
           (U, "Always squash commits when merging a pull request."),
           (Q, "- Quarry is the exception: keep every commit when merging a pull request.")),
    _apart("exception",
           (C, "- Never commit generated code."),
           (S, "In saltmarsh the generated protobuf code is committed, on purpose.")),
    _apart("exception",
           (G, "- Use tabs for indentation."),
           (TT, "- tern uses spaces for indentation, not tabs.")),
    _apart("exception",
           (GE, "## Gemini Added Memories\n- Always add type hints to new functions."),
           (QC, "No type hints in quarry's generated bindings; they are rebuilt "
                "every release.")),
    _apart("exception",
           (U, "- Never use `unsafe`."),
           (Q, "- `unsafe` is allowed in quarry's `simd/` module, with a SAFETY comment.")),
    _apart("exception",
           (G, "Delete merged branches right away."),
           (S, "- saltmarsh keeps merged release branches for a year.")),
    _apart("narrower",
           (C, "- Add a benchmark for every performance fix."),
           (T, "- Add a benchmark for every performance fix in tern's tile cache.")),
    _apart("narrower",
           (G, "- Never log request bodies."),
           (Q, "- Never log request bodies of the payment endpoints in quarry.")),
    _apart("narrower",
           (U, "- Tag every release in git."),
           (S, "- Tag every hotfix release of saltmarsh's CLI in git.")),
    _apart("narrower",
           (G, "- Ask before changing any database schema."),
           (TT, "- Ask before changing the billing tables' schema in tern.")),
    _apart("narrower",
           (GE, "## Gemini Added Memories\n- Keep modules under 500 lines."),
           (Q, "- Keep the parser's modules under 500 lines.")),
    _apart("value",
           (G, "- Keep pull requests under 400 changed lines."),
           (T, "- In tern, pull requests stay under 1000 changed lines.")),
    _apart("value",
           (C, "- Line length is 100 characters."),
           (S, "- saltmarsh: line length 79 characters (flake8 default).")),
    _apart("value",
           (U, "- Dates in user-facing text are ISO 8601."),
           (Q, "- Quarry shows dates in user-facing text as DD.MM.YYYY.")),
    _apart("value",
           (G, "- Review pull requests within one working day."),
           (TT, "- tern's pull requests are reviewed within three working days.")),
    _apart("value",
           (GE, "## Gemini Added Memories\n- Reply in a formal tone."),
           (S, "- Replies for saltmarsh in a casual tone.")),
    _apart("subject",
           (G, "- Never paste secrets into chat tools."),
           (T, "- Secrets in tern are rotated every 90 days by the platform team.")),
    _apart("subject",
           (C, "- Format the code before each commit."),
           (Q, "- The formatter's config is `rustfmt.toml` at the repo root.")),
    _apart("subject",
           (U, "Public functions need docstrings."),
           (S, "- saltmarsh's docs are published to Read the Docs from `main`.")),
    _apart("opposite",
           (G, "- Squash fixup commits before review."),
           (QC, "In quarry, never squash fixup commits before review; reviewers read them "
                "one by one.")),
    _apart("opposite",
           (U, "- Always vendor third-party JavaScript."),
           (T, "- Never vendor third-party JavaScript in tern; load it from the CDN.")),
)  # fmt: skip

REWORDED: tuple[Case, ...] = (
    _same("reworded",
          (G, "- Make sure to run the migrations before starting the server."),
          (T, "- The migrations are run before the server is started, always.")),
    _same("reworded",
          (U, "I'd like you to explain the plan before writing any code."),
          (Q, "- Give an explanation of the plan first, then write the code.")),
    _same("reworded",
          (C, "- The user prefers that you summarise the change at the end of each answer."),
          (S, "- End every answer with a summary of the change.")),
    _same("reworded",
          (G, "- Remember to close database connections in a `finally` block."),
          (TT, "Database connections get closed in a `finally` block.")),
    _same("reworded",
          (GE, "## Gemini Added Memories\n- Deletion of user data requires a second "
               "approval."),
          (QC, "Deleting user data needs a second approval.")),
    _same("reworded",
          (U, "- Be sure to validate the config on startup."),
          (S, "The config is validated at startup, always.")),
    _same("reworded",
          (G, "Rule of thumb: benchmark before optimising anything."),
          (T, "- Optimisation only after a benchmark.")),
    _same("reworded",
          (C, "- Dana wants every new endpoint documented in the OpenAPI spec."),
          (Q, "- Document each new endpoint in the OpenAPI spec.")),
    _same("reworded",
          (G, "- Always use parameterised queries; never build SQL from strings."),
          (SW, "SQL is never built from strings: parameterised queries only.")),
    _same("reworded",
          (U, "Make sure the retry logic uses exponential backoff."),
          (T, "- Retries back off exponentially.")),
    _same("reworded",
          (G, "- Translation of the UI strings happens in Crowdin, not in the repo."),
          (S, "UI strings are translated in Crowdin, not in the repo.")),
    _same("reworded",
          (C, "- Please keep the README's install section up to date when the setup "
              "changes."),
          (Q, "When the setup changes, update the install section of the README.")),
)  # fmt: skip

REWORDED_NEAR: tuple[Case, ...] = (
    _apart("opposite",
           (G, "- Run the seed script before starting the dev server."),
           (T, "- Never run the seed script when the dev server starts; it wipes local "
               "data.")),
    _apart("narrower",
           (U, "- Outline the tests before writing the implementation."),
           (Q, "- Outline the tests first only for changes over 200 lines.")),
    _apart("subject",
           (C, "- List the files you changed at the end of each answer."),
           (S, "- The list of changed files is generated by `scripts/changed.sh`.")),
    _apart("value",
           (G, "- Idle SSH sessions are dropped after 5 minutes."),
           (TT, "Idle SSH sessions are dropped after 30 minutes.")),
    _apart("subject",
           (GE, "## Gemini Added Memories\n- Exporting customer data requires a ticket."),
           (QC, "Customer data exports are logged in the audit table.")),
    _apart("value",
           (U, "- Webhooks time out after 10 seconds."),
           (S, "Webhooks time out after 30 seconds.")),
    _apart("opposite",
           (G, "- Profile before caching anything."),
           (T, "- Don't profile before caching the tile lookups; they're known to be slow.")),
    _apart("subject",
           (C, "- Add every new CLI flag to the man page."),
           (Q, "- The man page is built from `docs/quarry.1.md`.")),
    _apart("narrower",
           (G, "- Check disk space before writing the backup."),
           (SW, "Check disk space before writing the nightly backup in staging only.")),
    _apart("value",
           (U, "- API docs are hosted on Mintlify."),
           (S, "API docs are hosted on ReadMe.")),
)  # fmt: skip

CASES: tuple[Case, ...] = GLOBAL_PROJECT + GLOBAL_PROJECT_NEAR + REWORDED + REWORDED_NEAR
