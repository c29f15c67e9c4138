"""A labelled set of memories for `memtab duplicates` (issue 83): one rule said in other
words — synonyms rather than shared stems ("squash before merging" / "fold the commits
into one"), another construction (a noun for a verb, a passive, a conditional), a reason
added, a bullet and prose, one agent's voice and another's, a global rule restated in a
project — and near misses that share most of their words and say something else: another
subject, condition, scope, time, value, or the opposite. Written for measuring meaning
proposed by a sentence embedding (docs/trust-quality.md "On memory nobody tuned them
on"), apart from every other case set here.

Kinds as in `duplicate_scopes`: `reworded` and `global-project` must be one group;
`subject`, `condition`, `scope`, `time`, `value` and `opposite` must not. Measured as
`duplicate_claims` is: the duplicates in one home, the near misses in another.
"""

from __future__ import annotations

from support.duplicate_claims import _case
from support.duplicate_voices import Case

G, U, C, GE = "global", "claude-user", "codex", "gemini"
T, B, W = "project:thistledown", "project:cobaltbay", "project:wrenfield"
TT, BC, WW = "team:thistledown", "claude:cobaltbay", "workspace:wrenfield"


def _same(kind: str, one: tuple[str, str], other: tuple[str, str]) -> Case:
    return _case(kind, "duplicate", one, other)


def _apart(kind: str, one: tuple[str, str], other: tuple[str, str]) -> Case:
    return _case(kind, "neither", one, other)


REWORDED: tuple[Case, ...] = (
    _same("reworded",
          (G, "Squash the branch before merging."),
          (B, "- Keep history linear: fold a branch's commits into one when it lands.")),
    _same("reworded",
          (U, "Never leave debugging output in committed code."),
          (T, "Strip stray print statements and console logs before you commit.")),
    _same("reworded",
          (C, "- The user dislikes long answers; be brief."),
          (BC, "Keep replies short — Noor skims, and walls of text get ignored.")),
    _same("reworded",
          (GE, "Ask before deleting any file."),
          (W, "- Get my confirmation first whenever you want to remove a file.")),
    _same("reworded",
          (G, "Tests must not hit the network."),
          (TT, "- Unit tests run offline; mock every HTTP call.")),
    _same("reworded",
          (U, "Write dates as ISO 8601 (2024-05-01), never 05/01/24."),
          (B, "Dates are always year-month-day with dashes; no slashed American dates.")),
    _same("reworded",
          (C, "- Dependencies are pinned to exact versions."),
          (WW, "Lock every package to a precise release — no caret or tilde ranges.")),
    _same("reworded",
          (G, "Secrets never go into the repository."),
          (T, "- Credentials and API keys stay out of git; they live in the vault.")),
    _same("reworded",
          (GE, "Reply to me in German"),
          (BC, "The user wants every answer written in German.")),
    _same("reworded",
          (U, "Prefer composition over inheritance."),
          (W, "Build classes by combining small objects rather than subclassing.")),
    _same("reworded",
          (G, "Use tabs for indentation in Go files."),
          (TT, "- Go sources are indented with tab characters, as gofmt does.")),
    _same("reworded",
          (C, "- Every public function has a docstring."),
          (B, "Document each exported function with a docstring; reviewers send back "
              "undocumented ones.")),
    _same("reworded",
          (G, "Do not add new dependencies without asking."),
          (W, "- Check with me before pulling in any new third-party library.")),
    _same("reworded",
          (U, "Run the formatter before every commit."),
          (T, "Code is formatted automatically ahead of each commit (pre-commit hook).")),
    _same("reworded",
          (GE, "Never commit directly to main"),
          (BC, "All changes reach the main branch through pull requests, not direct "
               "pushes.")),
    _same("reworded",
          (G, "Keep pull requests small."),
          (WW, "PRs should stay compact — one concern each, a few hundred lines at most.")),
    _same("reworded",
          (C, "- Error messages tell the user what to do next."),
          (T, "Every error shown to a user should suggest the next step to fix it.")),
    _same("reworded",
          (U, "Type hints on every function signature."),
          (B, "- All function parameters and return values carry type annotations.")),
)  # fmt: skip

GLOBAL_PROJECT: tuple[Case, ...] = (
    _same("global-project",
          (G, "Commit messages use the imperative mood (\"Add\", not \"Added\")."),
          (T, "- In thistledown, write commit subjects as commands: \"Fix parser\", not "
              "\"Fixed parser\".")),
    _same("global-project",
          (U, "Never store timestamps in local time; use UTC."),
          (BC, "Timestamps in cobaltbay's database are saved in UTC, not the server's zone.")),
    _same("global-project",
          (C, "- Avoid abbreviations in variable names."),
          (W, "Here too: spell variable names out in full; `cnt` and `usr` get flagged.")),
    _same("global-project",
          (GE, "Run the linter before pushing"),
          (TT, "- Lint locally ahead of every push (`make lint`).")),
    _same("global-project",
          (G, "Log in structured JSON, not free text."),
          (B, "- Logs are emitted as JSON objects so the collector can parse them.")),
    _same("global-project",
          (U, "Never disable a failing test to get CI green."),
          (WW, "Skipping a broken test to make the pipeline pass is not allowed here.")),
    _same("global-project",
          (C, "- Keep functions short and single-purpose."),
          (T, "Functions should do one thing and stay small; split them otherwise.")),
    _same("global-project",
          (G, "Explain the why in code comments, not the what."),
          (BC, "Comments in this repo say why the code does something; the code already "
               "says what.")),
    _same("global-project",
          (GE, "Use feature flags for unfinished work"),
          (W, "- Incomplete features ship hidden behind a toggle.")),
    _same("global-project",
          (U, "Database migrations must be reversible."),
          (TT, "Every migration needs a working down step, so it can be rolled back.")),
    _same("global-project",
          (G, "Don't catch bare exceptions."),
          (B, "- `except:` and `except Exception:` without a reason are rejected in review; "
              "catch the specific error.")),
    _same("global-project",
          (C, "- Review your own diff before asking for review."),
          (WW, "Read through the full change yourself first, then request reviewers.")),
    _same("global-project",
          (U, "Avoid global mutable state."),
          (T, "- No module-level variables that change at run time.")),
    _same("global-project",
          (G, "Tag every release in git."),
          (BC, "Each version we ship gets a git tag (`vX.Y.Z`).")),
)  # fmt: skip

NEAR: tuple[Case, ...] = (
    _apart("opposite",
           (G, "Squash the branch before merging."),
           (B, "- Don't squash the branch before merging; we keep every commit.")),
    _apart("opposite",
           (U, "Always ask before deleting a file."),
           (T, "Delete generated files without asking.")),
    _apart("opposite",
           (C, "- Mock every HTTP call in tests."),
           (W, "Never mock HTTP calls in the integration tests; hit the sandbox.")),
    _apart("opposite",
           (GE, "Pin dependencies to exact versions"),
           (BC, "Don't pin dependencies to exact versions; ranges let Renovate work.")),
    _apart("opposite",
           (G, "Use tabs for indentation."),
           (TT, "- Never use tabs for indentation; four spaces.")),
    _apart("opposite",
           (U, "Rebase feature branches onto main before review."),
           (B, "Merge main into feature branches before review; never rebase them.")),
    _apart("subject",
           (C, "- Unit tests must not hit the network."),
           (T, "Smoke tests must hit the real network.")),
    _apart("subject",
           (G, "Keep pull requests small."),
           (W, "- Keep Docker images small.")),
    _apart("subject",
           (U, "Every public function has a docstring."),
           (BC, "Every public endpoint has a rate limit.")),
    _apart("subject",
           (GE, "Reply to me in German"),
           (TT, "- Release notes are written in German.")),
    _apart("subject",
           (G, "Run the formatter before every commit."),
           (B, "- Run the database backup before every deploy.")),
    _apart("subject",
           (C, "- Log in structured JSON."),
           (W, "Config files are structured JSON.")),
    _apart("subject",
           (U, "Tag every release in git."),
           (T, "- Tag every incident in the tracker.")),
    _apart("condition",
           (G, "Ask before force-pushing."),
           (BC, "Ask before force-pushing when someone else has commits on the branch.")),
    _apart("condition",
           (U, "Run the full test suite before pushing."),
           (W, "- Run the full test suite before pushing only if the schema changed.")),
    _apart("condition",
           (C, "- Database migrations must be reversible."),
           (TT, "Migrations must be reversible unless they only add a column.")),
    _apart("condition",
           (G, "Update the changelog before merging."),
           (B, "- If the branch changes the public API, update the changelog before "
               "merging.")),
    _apart("scope",
           (GE, "Use feature flags for unfinished work"),
           (T, "- On the mobile app, use feature flags for unfinished work.")),
    _apart("scope",
           (U, "Never store timestamps in local time."),
           (W, "In the reporting service, timestamps are stored in local time.")),
    _apart("scope",
           (G, "Type hints on every function signature."),
           (BC, "Type hints on every function signature in the `core/` package only.")),
    _apart("scope",
           (C, "- Lint locally before every push."),
           (TT, "Lint in CI on every push; locally it is optional.")),
    _apart("time",
           (G, "Deploys go out on Tuesdays."),
           (B, "- Until the migration is finished, deploys go out on Tuesdays.")),
    _apart("time",
           (U, "Freeze merges the week before a release."),
           (W, "Freeze merges the week after a release.")),
    _apart("time",
           (C, "- The API used to return XML."),
           (T, "The API returns XML.")),
    _apart("value",
           (G, "Keep functions under 40 lines."),
           (BC, "- Keep functions under 80 lines.")),
    _apart("value",
           (GE, "Commit messages are written in English"),
           (TT, "- Commit messages are written in Portuguese.")),
    _apart("value",
           (U, "Wrap lines at 80 characters."),
           (B, "Wrap lines at 120 characters.")),
    _apart("value",
           (C, "- The staging database is Postgres."),
           (W, "The staging database is MySQL.")),
    _apart("value",
           (G, "Format Python with Black."),
           (T, "- Format Python with Ruff's formatter.")),
    _apart("value",
           (U, "Review requests go to Priya."),
           (BC, "Review requests go to Tomás.")),
    _apart("value",
           (GE, "Use pnpm for installs"),
           (WW, "- Use yarn for installs.")),
    _apart("value",
           (G, "Retry failed jobs three times."),
           (TT, "- Retry failed jobs once.")),
)  # fmt: skip

BATCH: tuple[Case, ...] = REWORDED + GLOBAL_PROJECT + NEAR
