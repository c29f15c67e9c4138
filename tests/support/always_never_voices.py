"""A labelled set of "always X" / "never X" pairs for `memtab contradictions` (issue 83),
written apart from the trust corpus, `contradiction_cases` and `contradiction_voices`, in
voices those do not use: terse bullets and labels ("force-pushing: off-limits"), a
first-person diary ("note to self: stop…"), a team's "we" and "nobody", Claude Code
feedback memories (**Why:** / **How to apply:**), Codex's memory ("user insists on…"),
Gemini's "## Gemini Added Memories", and xum's scopes (global against a project or a
workspace). Polarity in every way English marks it: always/never, do/don't, must/must not,
"no X", "avoid", "stop X-ing", "X is forbidden/banned/off-limits/prohibited", "X, not Y",
"we don't", "nobody should", the negative verbs (forgo, quit, refrain…).

Near misses: a narrower or conditional rule, an exception the note calls one, another
object of the same verb, a rule and its reason, another project, what happened, a question,
the same rule said twice.

`FIRST` was written before the readers were changed for it; `SECOND` after, never tuned on
(its figure is the one that predicts a corpus nobody here has seen). Each case's voice is
in `VOICES` (`voice_of`).
"""

from __future__ import annotations

from support.contradiction_cases import Case, Expected

SAME = ("project:shop", "project:shop")
CLAUDE = ("claude:shop", "project:shop")
TEAM = ("team:shop", "project:shop")
CODEX = ("codex", "project:shop")
GEMINI = ("gemini", "project:shop")
SCOPES = ("global", "project:shop")
WORKSPACE = ("workspace:shop", "project:shop")
APART = ("project:shop", "project:blog")
"""Two projects: no session sees both, each may have its own rule."""
C: Expected = "contradiction"
N: Expected = "neither"
GEMINI_HEAD = "## Gemini Added Memories\n"
CODEX_HEAD = "## User preferences\n"


def feedback(name: str, body: str) -> str:
    """A Claude Code feedback memory: frontmatter, then the rule, **Why:** and **How to
    apply:**."""
    return f"---\nname: {name}\ndescription: {name}\nmetadata:\n  type: feedback\n---\n\n{body}"


def _case(voice: str, one: str, other: str, expected: Expected, places: tuple[str, str]) -> Case:
    case = Case("always-never", one, other, expected, places)
    VOICES[case] = voice
    return case


VOICES: dict[Case, str] = {}
"""Each case's voice: terse, diary, team, claude, codex, gemini, scopes."""

FIRST: tuple[Case, ...] = (
    # Terse bullets and labels.
    _case("terse", "- rebase on main before review", "- no rebasing on main", C, SAME),
    _case("terse", "- Commit messages in English.",
          "- Don't write commit messages in English; the team uses German.", C, SAME),
    _case("terse", "- squash-merge PRs", "- No squash merges — keep the history.", C, SAME),
    _case("terse", "- Force-pushing: off-limits.", "- Force-push after every rebase.", C, SAME),
    _case("terse", "- Lockfile changes in feature PRs: never.",
          "- Commit lockfile changes in feature PRs.", C, SAME),
    _case("terse", "- dont bump deps in bugfix PRs", "- bump deps in every bugfix PR", C, SAME),
    _case("terse", "- Star imports are banned.", "- Use star imports in `__init__.py` files.", C,
          SAME),
    _case("terse", "- `kubectl exec` into prod pods is off-limits.",
          "- `kubectl exec` into prod pods to debug.", C, SAME),
    _case("terse", "- Deploy from CI, not from your laptop.",
          "- Deploy from your laptop with `make deploy`.", C, SAME),
    _case("terse", "- No mocks in the integration tests.",
          "- Mock external services in the integration tests.", C, SAME),
    _case("terse", "- Avoid raw SQL in the services.", "- Write raw SQL in the services.", C,
          SAME),
    _case("terse", "- Pushing tags by hand is prohibited.",
          "- Push the tags by hand after the release build.", C, SAME),
    # A first-person diary.
    _case("diary", "I always run `cargo fmt` before I commit.",
          "Note to self: stop running `cargo fmt` before committing — the hook does it.", C,
          SAME),
    _case("diary", "2026-03-02: decided I'll never amend pushed commits again.",
          "- Amend pushed commits freely.", C, SAME),
    _case("diary", "Learned the hard way: I should not mock the clock in the scheduler tests.",
          "- Mock the clock in the scheduler tests.", C, SAME),
    _case("diary", "I push my fixes straight to `main`.",
          "- Never push fixes straight to `main`.", C, SAME),
    # A team's "we".
    _case("team", "We squash-merge every PR.",
          "We don't squash-merge PRs; the history matters.", C, SAME),
    _case("team", "We pin exact versions in `package.json`.",
          "We never pin exact versions in `package.json` — ranges only.", C, SAME),
    _case("team", "Nobody should push straight to the release branch.",
          "- Push straight to the release branch.", C, SAME),
    _case("team", "We always write docstrings for test functions.",
          "We don't write docstrings for test functions.", C, SAME),
    _case("team", "We deploy straight from `main`.",
          "We do not deploy straight from `main`; releases go out from tags.", C, SAME),
    _case("team", "- We don't use default exports.", "- Use default exports for pages.", C,
          SAME),
    _case("team", "- Do run the linter before pushing.",
          "- Don't run the linter before pushing; CI does it.", C, SAME),
    # Claude Code feedback memories.
    _case("claude",
          feedback("staging-migrations", "Don't run the migrations against the shared staging "
                   "DB.\n\n**Why:** it broke QA twice in May.\n\n**How to apply:** use a local "
                   "copy of the dump."),
          "- Run the migrations against the shared staging DB before merging.", C, CLAUDE),
    _case("claude",
          feedback("trailers", "Stop adding `Co-authored-by` trailers to commits.\n\n**Why:** "
                   "the user finds them noisy."),
          "- Add a `Co-authored-by` trailer to every commit.", C, CLAUDE),
    _case("claude",
          feedback("whole-files", "Always reformat the whole file you edit.\n\n**Why:** the "
                   "user wants consistent files.\n**How to apply:** run ruff format on it."),
          "- Don't reformat whole files you edit; keep diffs small.", C, CLAUDE),
    _case("claude",
          feedback("real-db", "Never mock the database in the repository tests.\n\n**Why:** "
                   "mocked tests passed while the real migration failed.\n\n**How to apply:** "
                   "use the testcontainers fixture."),
          "- Mock the database in the repository tests to keep them fast.", C, CLAUDE),
    _case("claude",
          feedback("imperative", "The user wants commit messages written in the imperative "
                   "mood.\n\n**Why:** it matches git's own messages."),
          "- Don't write commit messages in the imperative mood.", C, CLAUDE),
    # Codex's memory.
    _case("codex", CODEX_HEAD + "- user does not want the agent to open pull requests on its "
          "own", "- Open a pull request on your own once the tests pass.", C, CODEX),
    _case("codex", CODEX_HEAD + "- user insists on signed commits (`git commit -S`)",
          "- Don't sign commits; the merge bot signs them.", C, CODEX),
    _case("codex", CODEX_HEAD + "- user: never edit `CHANGELOG.md` by hand",
          "- Edit `CHANGELOG.md` by hand in every PR.", C, CODEX),
    _case("codex", CODEX_HEAD + "- Agent should avoid running `npm audit fix` automatically.",
          "- Run `npm audit fix` automatically after installs.", C, CODEX),
    # Gemini's memories.
    _case("gemini", GEMINI_HEAD + "- The user prefers that I never use `sudo` in install "
          "scripts.", "- Use `sudo` in the install scripts.", C, GEMINI),
    _case("gemini", GEMINI_HEAD + "- I should always write the changelog entry myself.",
          "- Do not write changelog entries; release-please generates them.", C, GEMINI),
    _case("gemini", GEMINI_HEAD + "- User does not want me to run `terraform apply` locally.",
          "- Run `terraform apply` locally for the dev stack.", C, GEMINI),
    _case("gemini", GEMINI_HEAD + "- The user never wants generated files committed.",
          "- Commit the generated files.", C, GEMINI),
    # xum's scopes: global memory against a project's or a workspace's.
    _case("scopes", "- Delete merged branches right away.",
          "- Don't delete merged branches; the release scripts read them.", C, SCOPES),
    _case("scopes", "- In this workspace, commit straight to `main`.",
          "- Never commit straight to `main`.", C, WORKSPACE),
    _case("scopes", "- Always open a draft PR first.", "- Don't open draft PRs in this repo.", C,
          SCOPES),
    _case("scopes", "- Always add type hints to new Python functions.",
          "- Don't add type hints to new Python functions in shop.", C, SCOPES),
    _case("scopes", "- You must sign off every commit (DCO).",
          "- You must not sign off commits here.", C, SCOPES),
    _case("scopes", "- Feature flags must be removed after launch.",
          "- Feature flags must not be removed after launch; they stay as kill switches.", C,
          SCOPES),
    _case("scopes", "- Forgo the ORM in the reporting queries.",
          "- Use the ORM for the reporting queries.", C, SCOPES),
    _case("scopes", "- Quit adding new endpoints to the v1 API.",
          "- Add new endpoints to the v1 API.", C, SCOPES),
    _case("scopes", "- Editing old migrations is forbidden.",
          "- Edit old migrations to fix typos.", C, SCOPES),
    _case("scopes", "- Stop writing `TODO` comments; open an issue.",
          "- Write a `TODO` comment for every shortcut.", C, SCOPES),
    # Near misses: narrower or conditional, an exception, another object, a reason,
    # another project, what happened, a question, the same rule twice.
    _case("terse", "- Never force-push to `main`.",
          "- Force-push your own branch after a rebase.", N, SAME),
    _case("terse", "- Don't run the e2e suite locally.", "- Run the e2e suite in CI.", N, SAME),
    _case("scopes", "- Never commit to `main` directly.",
          "- The one exception: the release bot commits the version bump to `main` directly.",
          N, SCOPES),
    _case("terse", "- Never squash the release branches.",
          "- Squash feature branches on merge.", N, SAME),
    _case("terse", "- Don't commit `.env` files.", "- Commit the `.env.example` file.", N, SAME),
    _case("diary", "- Never rebase on main.",
          "Rebasing on main rewrote history and broke two PRs last week.", N, SAME),
    _case("team", "- Always pin the Docker base image by digest.",
          "- Pinning by tag broke the build when the base image moved.", N, SAME),
    _case("team", "- Squash-merge PRs.", "- Never squash-merge PRs.", N, APART),
    _case("claude",
          feedback("no-rebase", "Never rebase shared branches.\n\n**Why:** the user lost work "
                   "once."), "- Rebase shared branches onto main weekly.", N,
          ("claude:blog", "project:shop")),
    _case("team", "- We stopped using Lerna.", "- Use Nx for the monorepo tasks.", N, SAME),
    _case("terse", "- Never skip the hooks.",
          "- Skip the hooks with `--no-verify` only when the hook itself is broken.", N, SAME),
    _case("team", "- Always run the full suite before merging.",
          "- If the change is docs-only, don't run the full suite.", N, SAME),
    _case("terse", "- Never use `print` for logging.", "- Use `print` in the CLI's output code.",
          N, SAME),
    _case("claude", "- Avoid mocking in the parser's unit tests.",
          "- Mock the network in unit tests.", N, SAME),
    _case("team", "- Don't push on Fridays.", "- Nobody should push on Fridays.", N, SAME),
    _case("terse", "- Don't write comments in German.", "- Write commit messages in German.", N,
          SAME),
    _case("terse", "- Use merge commits, not rebases, for release branches.",
          "- Rebase feature branches on main.", N, SAME),
    _case("terse", "- Always run `make lint` before pushing.",
          "- `make lint` catches the import cycles CI misses.", N, SAME),
    _case("team", "- Always write tests.", "- Never write tests against the production database.",
          N, SAME),
    _case("diary", "- Never amend a commit after pushing it.",
          "- Amend your local commits freely before pushing.", N, SAME),
    _case("terse", "- No emojis in commit messages.", "- Emojis are fine in PR descriptions.", N,
          SAME),
    _case("terse", "- Don't use `git add .`.", "- Use `git add -p` to stage.", N, SAME),
    _case("team", "- Should we stop squash-merging?", "- Squash-merge PRs.", N, SAME),
    _case("codex", CODEX_HEAD + "- user once suggested never rebasing; undecided",
          "- Rebase on main before review.", N, CODEX),
    _case("terse", "- Don't log tokens.", "- Log the token's expiry time.", N, SAME),
    _case("terse", "- Never use `--force`.", "- Use `--force-with-lease` instead of `--force`.",
          N, SAME),
    _case("team", "- We never ship on Fridays.", "- Ship the hotfix on Friday if prod is down.",
          N, SAME),
    _case("terse", "- Avoid `useEffect` for data fetching.",
          "- Use `useEffect` for subscriptions.", N, SAME),
    _case("terse", "- Don't write to the prod database from scripts.",
          "- Read from the prod database in scripts, via the replica.", N, SAME),
    _case("gemini", GEMINI_HEAD + "- The user wants me to run the tests before committing.",
          "- Run the tests before committing.", N, GEMINI),
    _case("scopes", "- Never delete the `uploads` bucket.", "- Delete the `tmp` bucket nightly.",
          N, SCOPES),
    _case("diary", "I used to squash every merge.", "- Squash-merge PRs.", N, SAME),
    _case("codex", CODEX_HEAD + "- user never runs the GPU tests locally (no GPU)",
          "- Run the CPU tests locally.", N, CODEX),
)  # fmt: skip

SECOND: tuple[Case, ...] = (
    _case("terse", "- Rebasing shared branches: a no-go.",
          "- Rebase shared branches before each release.", C, SAME),
    _case("diary", "Reminder to myself — I won't commit straight to `develop` any more.",
          "- Commit straight to `develop` for small fixes.", C, SAME),
    _case("team", "Our team never merges its own PRs.", "- Merge your own PRs after CI passes.",
          C, SAME),
    _case("claude",
          feedback("lockfile", "Never regenerate the lockfile from scratch.\n\n**Why:** it "
                   "bumps every transitive dependency.\n\n**How to apply:** run `pnpm "
                   "install` against the existing lockfile."),
          "- Regenerate the lockfile from scratch every sprint.", C, CLAUDE),
    _case("codex", CODEX_HEAD + "- user wants Conventional Commits prefixes on every commit "
          "message", "- Don't use Conventional Commits prefixes in commit messages.", C, CODEX),
    _case("gemini", GEMINI_HEAD + "- The user said to always run `go vet` before committing.",
          "- Skip `go vet` before committing; golangci-lint covers it.", C, GEMINI),
    _case("scopes", "- Always add a `Signed-off-by` line.",
          "- This workspace doesn't need `Signed-off-by` lines.", C, WORKSPACE),
    _case("terse", "- Tag releases by hand, not with the bot.",
          "- Tag releases with the release bot.", C, SAME),
    _case("team", "We'd rather not pin Docker images by digest.",
          "- Pin Docker images by digest.", C, SAME),
    _case("diary", "Past me kept forgetting: always bump the schema version in the same commit.",
          "- Never bump the schema version in the same commit as the code change.", C, SAME),
    _case("claude",
          feedback("prints", "Leave debug prints out of commits.\n\n**Why:** the user reads "
                   "the diffs on a phone."), "- Commit the debug prints; CI greps them.", C,
          CLAUDE),
    _case("codex", CODEX_HEAD + "- The user forbids `git push --force` on any branch.",
          "- Use `git push --force` on your own branch after a rebase.", C, CODEX),
    _case("gemini", GEMINI_HEAD + "- Never open the browser for OAuth logins; print the URL "
          "instead.", "- Open the browser for OAuth logins automatically.", C, GEMINI),
    _case("terse", "- Mocks: not in e2e tests.", "- Mock the payment provider in the e2e tests.",
          C, SAME),
    # Near misses.
    _case("terse", "- Never deploy on Fridays.",
          "- Deploy hotfixes on Fridays if the on-call approves.", N, SAME),
    _case("terse", "- Don't run migrations by hand.", "- Run the seed script by hand.", N, SAME),
    _case("terse", "- Never commit `.env`.", "- Commit `.env.sample`.", N, SAME),
    _case("team", "- Always squash-merge PRs.",
          "- Squash-merging used to lose co-author trailers.", N, SAME),
    _case("terse", "- Don't use `sudo` in scripts.",
          "- Use `sudo` to install the system packages on the build box.", N, SAME),
    _case("terse", "- Never rebase `main`.", "- Rebase feature branches onto `main`.", N, SAME),
    _case("team", "- Always vendor dependencies.", "- Never vendor dependencies.", N, APART),
    _case("team", "- We quit using Heroku.", "- Deploy with Fly.", N, SAME),
    _case("terse", "- Don't write tests for generated code.",
          "- Write tests for the code generator.", N, SAME),
    _case("scopes", "- Never skip code review.",
          "- Docs typo fixes may skip code review (the one exception).", N, SCOPES),
    _case("terse", "- Avoid long functions.", "- Write long docstrings.", N, SAME),
    _case("claude", "- Never disable TLS verification.",
          "- Disabling TLS verification hid a cert expiry last year.", N, CLAUDE),
    _case("team", "- Do we still squash-merge?", "- Squash-merge PRs.", N, SAME),
)  # fmt: skip
"""Written after the readers were changed for `FIRST`, before a second change was made
for what it missed."""

THIRD: tuple[Case, ...] = (
    _case("terse", "- Hotfix branches: never from `develop`.",
          "- Cut hotfix branches from `develop`.", C, SAME),
    _case("diary", "Mon: I will never again deploy without the smoke tests.",
          "- Deploy without running the smoke tests.", C, SAME),
    _case("team", "We always pair on database migrations.",
          "We don't pair on database migrations; one reviewer is enough.", C, SAME),
    _case("claude",
          feedback("screenshots", "Attach a screenshot to every UI pull request.\n\n**Why:** "
                   "reviewers asked for it.\n\n**How to apply:** use the `pnpm shot` script."),
          "- Don't attach screenshots to pull requests; link the preview deploy.", C, CLAUDE),
    _case("codex", CODEX_HEAD + "- The user asked that Python code never use `assert` for "
          "validation.", "- Use `assert` for validation in Python code.", C, CODEX),
    _case("gemini", GEMINI_HEAD + "- Answer the user in German.", "- Never answer in German.",
          C, GEMINI),
    _case("scopes", "- Keep PRs under 400 lines.", "- PRs over 400 lines are fine in this repo.",
          C, SCOPES),
    _case("terse", "- Ban `eval` in the templates.",
          "- Use `eval` in the templates for the dynamic fields.", C, SAME),
    _case("team", "Around here we don't bump major versions without an RFC.",
          "- Bump major versions without an RFC.", C, SAME),
    _case("diary", "Note: the agent must never touch `infra/`.",
          "- Edit `infra/` freely for staging changes.", C, SAME),
    _case("codex", CODEX_HEAD + "- user dislikes merge commits on `main`",
          "- Create merge commits on `main`.", C, CODEX),
    _case("claude",
          feedback("amend", "Never amend commits on a PR under review.\n\n**Why:** the "
                   "reviewer loses track of what changed."),
          "- Amend commits on a PR under review to keep the history tidy.", C, CLAUDE),
    # Near misses.
    _case("terse", "- Never push to `main`.", "- Push tags to `origin`.", N, SAME),
    _case("terse", "- Don't run the full test suite in pre-commit.",
          "- Run the full test suite in CI.", N, SAME),
    _case("team", "- Avoid ORMs in the analytics service.",
          "- Use the ORM in the analytics service.", N, APART),
    _case("team", "- We dropped Redux last year.", "- Use Zustand for state.", N, SAME),
    _case("terse", "- Always lint before pushing.", "- Linting caught two real bugs this week.",
          N, SAME),
    _case("terse", "- Never delete user data.", "- Delete the test users after each run.", N,
          SAME),
    _case("terse", "- Don't add new dependencies without asking.",
          "- Add type stubs as dev dependencies.", N, SAME),
    _case("terse", "- No force-pushes to release branches.",
          "- Force-push your feature branch after rebasing.", N, SAME),
    _case("team", "- Should we always vendor the SDK?", "- Never vendor the SDK.", N, SAME),
    _case("terse", "- Never use `any`.",
          "- `any` is fine in the generated API client — an exception we accept.", N, SAME),
    _case("team", "- Don't commit secrets.", "- Never commit secrets; use the vault.", N, SAME),
    _case("terse", "- Never merge on Fridays.", "- Merge dependabot PRs on Mondays.", N, SAME),
)  # fmt: skip
"""Written after the second change (for what `SECOND` missed), before a third was made for
what it missed."""

FOURTH: tuple[Case, ...] = (
    _case("terse", "- Localize the error messages.",
          "- Never localize error messages; support greps them in English.", C, SAME),
    _case("diary", "Decided today: I'll always squash my WIP commits before opening a PR.",
          "- Don't squash WIP commits before opening a PR; reviewers like the steps.", C, SAME),
    _case("team", "We archive stale branches every month.",
          "We never archive branches; the history tool needs them.", C, SAME),
    _case("claude",
          feedback("stories", "Write a Storybook story for every new component.\n\n**Why:** "
                   "design reviews run in Storybook."),
          "- Don't write Storybook stories for new components.", C, CLAUDE),
    _case("codex", CODEX_HEAD + "- user never wants the agent to install global npm packages",
          "- Install global npm packages when a tool needs them.", C, CODEX),
    _case("gemini", GEMINI_HEAD + "- Summarize long logs before showing them to the user.",
          "- Never summarize logs; show them whole.", C, GEMINI),
    _case("scopes", "- Prefix branch names with your initials.",
          "- Don't prefix branch names here; the bot names them.", C, SCOPES),
    _case("terse", "- Throttle the webhook retries.", "- Webhook retries: never throttled.", C,
          SAME),
    _case("team", "Nobody should hand-edit `schema.graphql`.",
          "- Hand-edit `schema.graphql` to add descriptions.", C, SAME),
    _case("codex", CODEX_HEAD + "- user always wants tests written before the fix",
          "- Write the fix first, then the tests.", C, CODEX),
    # Near misses.
    _case("terse", "- Never localize log messages.", "- Localize the UI strings.", N, SAME),
    _case("terse", "- Don't squash release merges.", "- Squash WIP commits before review.", N,
          SAME),
    _case("team", "- We never archive the audit logs.", "- Archive stale branches monthly.", N,
          SAME),
    _case("terse", "- Never install packages with `sudo`.", "- Install packages into the venv.",
          N, SAME),
    _case("terse", "- Don't summarize test failures.",
          "- Summarize the release notes for the changelog.", N, SAME),
    _case("terse", "- Never prefix commit subjects with emojis.",
          "- Prefix branch names with the ticket id.", N, SAME),
    _case("terse", "- Avoid hand-editing lockfiles.", "- Hand-edit the README.", N, SAME),
    _case("team", "- Throttle webhook retries.", "- Never throttle webhook retries.", N, APART),
    _case("team", "- We stopped translating the docs in 2024.", "- Translate the UI strings.",
          N, SAME),
    _case("terse", "- Never deploy during the freeze.", "- Deploy every afternoon.", N, SAME),
)  # fmt: skip
"""Written after the third change (for what `THIRD` missed): never tuned on."""


def voice_of(case: Case) -> str:
    """The voice a case is written in."""
    return VOICES[case]
