"""Labelled note pairs for `memtab contradictions` (issue 83): a tool named with a status
other than "chosen now" — rejected, past ("used to", "moved off", "migrated from",
"deprecated", "was"), planned ("will move to", "evaluating"), scoped to a part of the
project ("the legacy theme", "the old admin"), compared, an example or an alternative —
and a tool whose name is two tools (Bun the runtime, the package manager and the Go ORM;
`sqlx` of Rust and of Go). Contradictions: the choice said in those forms, opposed by a
note choosing the other. Near misses: a tool named but not chosen, against a note choosing
another of its kind.

`CASES` was written before the reader was changed for it; `AFTER` after, never tuned on.
Each case's notes are built and read as `contradiction_voices.found` builds them.
"""

from __future__ import annotations

from support.contradiction_cases import Case

SAME = ("project:shop", "project:shop")
TEAM = ("team:shop", "claude:shop")
CODEX = ("codex", "project:shop")
C, N = "contradiction", "neither"

CASES: tuple[Case, ...] = (
    # The choice said through what was left: stopped, moved off, deprecated, replaced.
    Case("past", "We stopped using Lerna; Nx orchestrates the monorepo now.",
         "Monorepo tasks run with Lerna.", C, SAME),
    Case("past", "- Moved off Jest last quarter — Vitest runs the unit tests.",
         "Unit tests use jest.", C, SAME),
    Case("past", "Migrated from webpack to Vite in the spring.", "Bundle with webpack.", C, SAME),
    Case("past", "Poetry is deprecated here; uv manages the dependencies.",
         "Install dependencies with poetry.", C, SAME),
    Case("past", "We used to lint with ESLint; Biome does it now.",
         "Lint the TypeScript with eslint.", C, SAME),
    Case("past", "Yarn was the package manager until March; pnpm since.",
         "- Use yarn for installs.", C, SAME),
    Case("past", "We ditched Terraform; infra is Pulumi now.",
         "Infrastructure is managed with Terraform.", C, TEAM),
    Case("past", "Sentry was retired in favour of Rollbar.", "Report errors with Sentry.", C,
         SAME),
    Case("past", "No more pip: uv installs everything.", "Install packages with pip.", C, SAME),
    Case("past", "Flake8 is out; ruff lints the Python.", "Lint Python with flake8.", C, SAME),
    Case("past", "- black → ruff format (done in v2)", "Format Python with black.", C, SAME),
    Case("past", "Nobody uses nvm here any more, it's fnm.", "Node versions via nvm.", C, SAME),
    Case("past", "Styles were converted from Less to Sass.", "Write the styles in Less.", C,
         SAME),
    Case("past", "Jenkins is legacy; every pipeline runs on GitHub Actions.",
         "CI runs on Jenkins.", C, CODEX),
    Case("past", "CircleCI was cancelled; builds moved to GitLab CI.",
         "Builds run on CircleCI.", C, SAME),
    Case("past", "Abandoned Prisma for Drizzle.", "Use prisma for the database.", C, SAME),
    Case("past", "uv took over from pipenv in 2024.", "Manage dependencies with pipenv.", C,
         SAME),
    Case("past", "Pytest replaced unittest across the repo.",
         "Tests are written with unittest.", C, SAME),
    # The choice said through what was rejected or reverted.
    Case("rejected", "Rejected Cypress in the e2e review — Playwright is what we run.",
         "E2E tests are written in Cypress.", C, SAME),
    Case("rejected", "Decided against mypy: pyright checks the types.", "Type checking: mypy.",
         C, SAME),
    Case("rejected", "We gave up on Docker after the licence change; containers run under "
         "podman.", "Run containers with docker.", C, SAME),
    Case("rejected", "The move to ky was reverted; axios stays.", "Use ky for HTTP calls.", C,
         SAME),
    Case("rejected", "Went back from pnpm to npm after the CI issues.", "- Use pnpm.", C, SAME),
    Case("rejected", "Evaluated Vitest, kept Jest.", "Run the unit tests with vitest.", C, SAME),
    # One name, two tools: the job said decides which.
    Case("identity", "Install dependencies with bun.", "Use pnpm for installs.", C, SAME),
    Case("identity", "The Go services query Postgres with sqlx.",
         "Go services: use gorm for the database.", C, SAME),
    # Near misses: named, not chosen now.
    Case("past", "We stopped using Lerna.", "Use Nx for the monorepo.", N, SAME),
    Case("past", "Used to be on CircleCI.", "CI runs on GitHub Actions.", N, SAME),
    Case("past", "Poetry was used before 2023.", "Manage dependencies with uv.", N, SAME),
    Case("past", "Moved off nvm years ago.", "Node versions via fnm.", N, SAME),
    Case("past", "Rollup used to bundle the library.", "Bundle with vite.", N, SAME),
    Case("past", "- Migrated from Cypress last year.", "E2E: playwright.", N, TEAM),
    Case("scoped", "Use Less for the legacy theme styles.", "Write styles in Sass.", N, SAME),
    Case("scoped", "The old admin still builds with webpack.", "Bundle with Vite.", N, SAME),
    Case("scoped", "The legacy billing service still runs on Jenkins.",
         "CI runs on GitHub Actions.", N, SAME),
    Case("scoped", "The old admin is linted with flake8 until it's retired.",
         "Lint Python with ruff.", N, SAME),
    Case("scoped", "Legacy widgets in /static/old are Less.", "Styles are written in Sass.", N,
         SAME),
    Case("scoped", "Kept the mocha suite for the legacy SDK.", "Unit tests run on vitest.", N,
         SAME),
    Case("planned", "We may move to Bun one day.", "- Use pnpm.", N, SAME),
    Case("planned", "Evaluating Biome as an ESLint replacement.", "Lint with eslint.", N, SAME),
    Case("planned", "Planning to migrate from mypy to pyright next quarter.",
         "Type checking: mypy.", N, SAME),
    Case("planned", "If we ever drop Docker, Podman is the candidate.",
         "Run containers with docker.", N, SAME),
    Case("planned", "A spike tried esbuild for bundling; results in the wiki.",
         "Bundle with webpack.", N, SAME),
    Case("planned", "Kubernetes packaging: we might try cdk8s.", "Use kustomize.", N, SAME),
    Case("compared", "Vitest is much faster than Jest in our benchmarks.",
         "Unit tests use jest.", N, SAME),
    Case("compared", "Terraform vs Pulumi was debated in ADR-7.",
         "Infrastructure is managed with Terraform.", N, SAME),
    Case("compared", "For comparison, pnpm installs in 40 s and npm in 90 s.", "- Use npm.", N,
         SAME),
    Case("example", "Any runner works for scratch scripts, e.g. nose2 or ward.",
         "Tests run on pytest.", N, SAME),
    Case("example", "dprint is an alternative to Prettier we haven't tried.",
         "Format with prettier.", N, SAME),
    Case("example", "Candidates for error tracking: Sentry or Rollbar.",
         "Report errors with Bugsnag.", N, SAME),
    Case("example", "The upgrade guide mentions helm, kustomize, or jsonnet.",
         "Package the manifests with helm.", N, SAME),
    Case("rejected", "Ansible was considered and rejected for provisioning.",
         "Provision servers with Chef.", N, SAME),
    Case("rejected", "Interns sometimes reach for yarn out of habit.", "- Use pnpm.", N, SAME),
    Case("identity", "The Rust worker talks to Postgres through sqlx.",
         "Go services use gorm for the database.", N, SAME),
    Case("identity", "The API server runs on Bun.", "Install packages with pnpm.", N, SAME),
    Case("identity", "The Go API maps rows with bun.", "Use npm for installs.", N, SAME),
    Case("identity", "Rust crates use sqlx for queries.", "Database access: gorm.", N, SAME),
)  # fmt: skip

AFTER: tuple[Case, ...] = (
    Case("past", "Karma got the boot in 2023 and Vitest took its place.",
         "Unit tests: jest.", C, SAME),
    Case("past", "Heads up: we're off Yarn now, everything goes through pnpm.",
         "Install with yarn.", C, TEAM),
    Case("past", "Pipenv has been retired; the lockfile is poetry's now.",
         "Dependencies are managed with pipenv.", C, SAME),
    Case("past", "Travis CI was shut down, the builds live on Buildkite.",
         "CI: Travis CI.", C, CODEX),
    Case("rejected", "Tried Pulumi, hated it, so we stayed on Terraform.",
         "Infrastructure is written in Pulumi.", C, SAME),
    Case("rejected", "Rolled back the switch from Webpack to Rspack — webpack it is.",
         "Bundle with rspack.", C, SAME),
    Case("past", "Replaced Moment with date-fns everywhere.", "Dates are handled with moment.",
         C, SAME),
    Case("identity", "Add packages with bun.", "Use npm for installs.", C, SAME),
    Case("past", "Back in 2022 the team was on Mocha.", "Unit tests run on vitest.", N, SAME),
    Case("scoped", "The old marketing site is still built by Gulp.", "Build with vite.", N, SAME),
    Case("planned", "There's a ticket to move the API to Bun.", "Use pnpm.", N, SAME),
    Case("planned", "Someone should look at oxlint at some point.", "Lint with eslint.", N,
         SAME),
    Case("compared", "Podman starts containers quicker than Docker on the Macs.",
         "Run containers with docker.", N, SAME),
    Case("example", "Other Python runners exist (nose2, ward) but nobody here needs them.",
         "Tests run on pytest.", N, SAME),
    Case("identity", "The Rust ingester writes rows via sqlx.",
         "Database: gorm for the Go services.", N, SAME),
    Case("rejected", "A contractor proposed Chef for the servers; turned down.",
         "Provision servers with Ansible.", N, SAME),
)  # fmt: skip
