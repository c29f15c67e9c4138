"""A labelled set of pairs of notes for `memtab contradictions` (issue 83): two notes that
give one thing two values — a port of one service, a version of one product, a tool for
one job, a branch, a setting, a command for one job, a path, a day, a language, a rule and
its opposite — and near misses that look alike but are about two things (another service,
another product, another environment or part, an exception, a compatible detail).

Written apart from the trust corpus, in other voices: bullets, prose, labels, tables,
headings over bullets. Each case is two notes (a global one and a project's, or two of one
project) with a filler line of its own, so what is found joins the case's two notes or
nothing. `expected` is `contradiction` or `neither`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Expected = Literal["contradiction", "neither"]


@dataclass(frozen=True)
class Case:
    kind: str
    one: str
    other: str
    expected: Expected
    places: tuple[str, str] = ("global", "project:shop")
    """Where each note is (`support.seeded_memories.memory`'s places)."""


SAME = ("project:shop", "project:shop")
"""Two notes of one project."""

C, N = "contradiction", "neither"

CASES: tuple[Case, ...] = (
    # Ports of one service.
    Case("port", "The backend server listens on 8081.", "Backend: port 8080", C, SAME),
    Case("port", "Mailpit's web UI is on http://localhost:8025.",
         "Open Mailpit at localhost:8026 to see the mails.", C, SAME),
    Case("port", "- Keycloak runs on port 8180 in docker compose",
         "Keycloak (compose) is exposed on 8181.", C, SAME),
    Case("port", "## Local services\n\n- MinIO: 9000\n- the console: 9001",
         "MinIO listens on :9002 locally.", C, SAME),
    Case("port", "Our Storybook is served on port 6006.",
         "storybook → `pnpm storybook`, runs on 6007", C, SAME),
    Case("port", "| service | port |\n|---|---|\n| api | 4000 |\n| web | 4001 |",
         "The API listens on port 4100.", C, SAME),
    Case("port", "- Elasticsearch (docker): 9200", "Elasticsearch listens on 9201 in docker.", C,
         SAME),
    Case("port", "RabbitMQ's management console listens on 15672.",
         "The RabbitMQ management console is on port 15673.", C, SAME),
    Case("port", "- Vault (docker): port 8200", "Vault runs on port 8201 in docker.", C, SAME),
    Case("port", "Local Jaeger: http://localhost:16686", "Jaeger is served on 16687 locally.", C,
         SAME),
    # Versions of one product.
    Case("version", "We're on Node 18 for the lambdas.", "Lambdas run Node 20.", C, SAME),
    Case("version", "PG 14 in every environment.", "The database is PostgreSQL 15.", C, SAME),
    Case("version", "- Python 3.10", "This project targets Python 3.12.", C, SAME),
    Case("version", "Django 4.2 (LTS).", "We upgraded to Django 5.0 in March; it's what runs.", C,
         SAME),
    Case("version", "k8s 1.27 on the prod cluster.", "The prod cluster runs Kubernetes 1.28.", C,
         SAME),
    Case("version", "Terraform 1.5 — pinned in `.terraform-version`.", "terraform 1.7", C, SAME),
    Case("version", "Rust 1.75 (rust-toolchain.toml).", "The toolchain is Rust 1.79.", C, SAME),
    Case("version", "## Runtime\n\n- Ruby 3.2\n- Bundler for gems", "Ruby 3.3.", C, SAME),
    # A tool for one job.
    Case("tool", "Unit tests use jest.", "We test with vitest now.", C),
    Case("tool", "Format Python with black.", "Python formatting: ruff format.", C, SAME),
    Case("tool", "pnpm for installs.", "The repo moved to yarn in May.", C, SAME),
    Case("tool", "We package Python with poetry.", "Dependencies are managed with uv.", C, SAME),
    Case("tool", "Lint TypeScript with eslint.", "Linting is biome now (eslint was dropped).", C,
         SAME),
    Case("tool", "Containers run under podman here.", "Local containers: docker.", C, SAME),
    Case("tool", "My editor is Neovim.", "I use VS Code for everything.", C),
    Case("tool", "Bundle the frontend with webpack.", "The frontend bundler is vite.", C, SAME),
    Case("tool", "| job | tool |\n|---|---|\n| types | mypy |\n| lint | ruff |",
         "Type checking runs on pyright.", C, SAME),
    Case("tool", "Code is formatted by black.", "Formatting: ruff format (black is gone).", C,
         SAME),
    Case("tool", "Editor: Emacs (with lsp-mode, pyright).", "Uses VS Code with the Vim keys.", C,
         ("global", "global")),
    Case("tool", "semantic-release publishes the packages from tags.",
         "We retired semantic-release; release-please cuts the releases now.", C, SAME),
    # A branch.
    Case("branch", "Feature branches go into `dev`.", "PRs target `main`.", C, SAME),
    Case("branch", "The release branch is `release/next`.",
         "The release branch is `stable`.", C, SAME),
    # A setting, a count.
    Case("setting", "`CELERY_CONCURRENCY=4` on the workers.",
         "The workers run with `CELERY_CONCURRENCY=2`.", C, SAME),
    Case("setting", "`X=1` -> now `BATCH_SIZE=500`",
         "`BATCH_SIZE=200` (kept low for the mailer).", C, SAME),
    Case("setting", "`WORKERS=4` in production.", "Production runs with `WORKERS=12`.", C, SAME),
    Case("setting", "Max line length is 120.", "The max line length is 79.", C, SAME),
    Case("count", "Keep 7 days of logs.", "We keep 30 days of logs.", C, SAME),
    Case("count", "The request timeout is 30 seconds.", "Request timeout: 10 seconds.", C,
         SAME),
    # A command for one job.
    Case("command", "Run the migrations with `make migrate`.",
         "Migrations: `alembic upgrade head`.", C, SAME),
    Case("command", "## Tests\n\n- `npm test`", "Run the tests: `pnpm vitest run`.", C, SAME),
    Case("command", "Seed the database: `rake db:seed`.",
         "The database is seeded by `bin/seed`.", C, SAME),
    Case("command", "`make docs` builds the API reference.",
         "Build the API reference with `mkdocs build`.", C, SAME),
    # A path.
    Case("path", "The fixtures live in `spec/fixtures/`.", "Fixtures are in `test/data/`.", C,
         SAME),
    Case("path", "## Config\n\n- file: `config/app.toml`", "The config is at `settings.toml`.",
         C, SAME),
    # A day, a language.
    Case("schedule", "We release on Mondays.", "Releases go out on Thursdays.", C, SAME),
    Case("language", "Code comments are in English.", "Write code comments in French.", C,
         SAME),
    Case("language", "The UI copy is written in Spanish.", "UI copy: German only.", C, SAME),
    Case("language", "Docs are written in English.", "Write the docs in German.", C, SAME),
    Case("schedule", "Backups run on Sundays.", "Backups run on Saturdays now.", C, SAME),
    Case("branch", "Pull requests go to `develop`.", "Open merge requests against `trunk`.", C,
         SAME),
    Case("count", "Retain 3 backups for the database.", "We retain 7 backups for the database.",
         C, SAME),
    # A rule and its opposite.
    Case("always-never", "Always run `pre-commit` before pushing.",
         "Never run pre-commit before pushing; CI does it.", C),
    Case("always-never", "Don't use `print` for logging.",
         "Use `print` for logging in the scripts.", C),
    Case("always-never", "Write tests first.", "Never write tests first here.", C),
    Case("always-never", "Never amend pushed commits.", "Always amend pushed commits.", C),
    Case("always-never", "No emojis in commit messages.",
         "Always put an emoji in commit messages.", C),
    Case("always-never", "Force-pushing to `main` is not allowed.",
         "Always force-push to `main` after a rebase.", C),
    Case("always-never", "Signed commits are required.", "Don't sign commits here.", C, SAME),
    # Said as a change.
    Case("tool", "Use yarn.", "We switched from yarn to pnpm.", C, SAME),
    Case("version", "Node 16.", "Node 16 is gone; we're on Node 20.", C, SAME),
    Case("port", "The admin API listens on 7000.", "Admin API: port 7001, not 7000.", C, SAME),
    Case("tool", "Tests: pytest.", "We no longer use pytest; tests are unittest now.", C, SAME),
    # Near misses: another service, part, environment, product or project.
    Case("port", "The API listens on port 3000.", "The admin UI listens on port 3001.", N, SAME),
    Case("port", "Staging API on 3001.", "Prod API on 3000.", N, SAME),
    Case("port", "Postgres on 5432.", "The API listens on port 5433.", N, SAME),
    Case("port", "Redis listens on 6379.", "Redis Sentinel listens on 26379.", N, SAME),
    Case("port", "Postgres (docker) listens on 5433.", "The system Postgres is on 5432.", N,
         SAME),
    Case("port", "The API runs on 8000.", "The API runs on 8001.", N,
         ("project:shop", "project:blog")),
    Case("port", "The web app's dev server runs on 5173.",
         "The docs dev server runs on 5174.", N, SAME),
    Case("port", "Grafana: 3000.", "Prometheus: 9090.", N, SAME),
    Case("port", "The API listens on 8080 in CI.", "The API listens on 8081 locally.", N, SAME),
    Case("port", "Postgres listens on 5432.", "PgBouncer listens on 6432 in front of Postgres.",
         N, SAME),
    Case("port", "Grafana 10 runs on port 3000.", "Grafana runs on port 3000 (compose).", N, SAME),
    Case("version", "Node 20 for my own scripts.", "The shop runs on Node 22.", N),
    Case("version", "Postgres 16.", "PostGIS 3.4.", N, SAME),
    Case("version", "Python 3.12.", "mypy 1.10.", N, SAME),
    Case("version", "The analytics DB is Postgres 13.", "The main database is Postgres 16.", N,
         SAME),
    Case("version", "Go 1.22 for the CLI.", "Go 1.21 for the lambda runtime.", N, SAME),
    Case("version", "React 18.", "React Native 0.74.", N, SAME),
    Case("version", "Node 20.", "Node 22 is coming in Q3.", N, SAME),
    Case("version", "Make sure you have Redis 7 installed.", "Redis 6 everywhere.", C, SAME),
    Case("count", "Make sure you have Redis 7 installed.", "Install 14 packages first.", N,
         SAME),
    Case("version", "Python 3.11 in CI.", "Python 3.12 on my laptop.", N, SAME),
    Case("tool", "Use pnpm for the web app.", "Use yarn for the docs site.", N, SAME),
    Case("tool", "Use pnpm, not npm.", "pnpm is our package manager.", N, SAME),
    Case("tool", "We use ruff for linting.", "Format with black.", N, SAME),
    Case("tool", "Publish with `npm publish`.", "Installs go through pnpm.", N, SAME),
    Case("tool", "Don't use npm.", "Never use npm here.", N, SAME),
    Case("tool", "uv is much faster than pip.", "Use uv.", N, SAME),
    Case("tool", "The npm registry token is in 1Password.", "Use pnpm.", N, SAME),
    Case("tool", "Check whether npm still owns the global bin.", "Use pnpm.", N, SAME),
    Case("tool", "- [tooling.md](tooling.md) — switched npm → pnpm", "Use npm.", N, SAME),
    Case("tool", "Docker for the database.", "Podman for the CI runners.", N, SAME),
    Case("tool", "Vitest instead of jest, please.", "Jest for the unit tests.", C, SAME),
    Case("tool", "Never commit the npm token.", "Use pnpm.", N, SAME),
    Case("tool", "We use pnpm in the web app.", "Use npm to publish the SDK.", N, SAME),
    Case("tool", "Stick to pnpm; npm is not allowed.", "npm for everything.", C, SAME),
    Case("tool", "Docker Desktop is not installed here.", "Use docker.", N, SAME),
    Case("tool", "The black formatter's settings are in pyproject.toml.", "Use ruff format.", N,
         SAME),
    Case("branch", "PRs target `main`.", "Hotfixes branch off `release`.", N, SAME),
    Case("branch", "The default branch is `main`.", "The docs deploy from `gh-pages`.", N, SAME),
    Case("setting", "`WORKERS=4` in CI.", "`WORKERS=8` on my laptop is fine.", N, SAME),
    Case("setting", "`PAGE_SIZE=50` in staging.", "`PAGE_SIZE=100` in production.", N, SAME),
    Case("setting", "Try `BATCH_SIZE=50` if the mailer times out.", "`BATCH_SIZE=200`.", N, SAME),
    Case("setting", "`API_TOKEN=abc123` in CI.", "`API_TOKEN=def456` in CI.", N, SAME),
    Case("count", "The request timeout is 30 seconds.", "The idle timeout is 60 seconds.", N,
         SAME),
    Case("count", "Sessions expire after 15 minutes.", "Tokens expire after 60 minutes.", N,
         SAME),
    Case("count", "Keep 7 days of logs.", "Keep 90 days of backups.", N, SAME),
    Case("setting", "Line length 88 (black default).", "Prettier printWidth is 100.", N, SAME),
    Case("command", "Run the unit tests with `pytest tests/unit`.",
         "Run the e2e tests with `playwright test`.", N, SAME),
    Case("command", "Run the tests with `pnpm test`.",
         "Run the tests with `pnpm test --filter api`.", N, SAME),
    Case("command", "`just wipe` empties the local cache.", "`just warm` fills the local cache.",
         N, SAME),  # one thing, two jobs: a command that opens its sentence does what follows
    Case("path", "The fixtures live in `tests/fixtures/`.",
         "Snapshots live in `tests/__snapshots__/`.", N, SAME),
    Case("path", "The mailer test: `spec/mailers/receipt_mailer_spec.rb`.",
         "- Mailer tests live under spec/mailers.", N, SAME),  # a file in the folder: both hold
    Case("schedule", "Deploy on Wednesdays.", "Never deploy on Fridays.", N, SAME),
    Case("schedule", "Releases go out on Mondays.", "The backup runs on Sundays.", N, SAME),
    Case("language", "Commit messages in English.", "The UI is translated into German.", N,
         SAME),
    Case("language", "Commit messages in English.", "Talk to the support team in German.", N,
         SAME),
    Case("language", "Code comments in English.", "Code comments in English or German.", N,
         SAME),
    Case("schedule", "Releases go out on Tuesdays.", "Releases go out on Tuesdays and Fridays.",
         N, SAME),
    Case("schedule", "Standups are on Mondays.", "Retros are on Fridays.", N, SAME),
    Case("branch", "Release PRs target `stable`.", "PRs target `main`.", N, SAME),
    Case("count", "Refunds need 2 approvals.", "Payouts need 3 approvals.", N, SAME),
    Case("count", "Keep 30 days of logs in production.", "Keep 7 days of logs in staging.", N,
         SAME),
    Case("count", "Sessions expire after 15 minutes.", "The cache expires after 60 minutes.", N,
         SAME),
    Case("always-never", "Never push to `main`.",
         "Never push to `main` directly, except the release bot.", N),
    Case("always-never", "Always run the tests.", "Never run the tests against production.", N),
    Case("always-never", "Never log tokens.", "Always log request ids.", N),
    Case("always-never", "Always squash-merge.", "Always squash-merge feature branches.", N),
    Case("always-never", "Never deploy on Fridays.", "Always deploy on Wednesdays.", N),
    Case("always-never", "Don't commit `.env`.", "Commit `.env.example`.", N),
    Case("always-never", "No secrets in the repo.", "Always keep the repo tidy.", N),
    Case("always-never", "No idea why the build is slow.", "Always build with `-j4`.", N),
    Case("always-never", "Force-pushing to `main` is not allowed.",
         "Always force-push your own branches after a rebase.", N),
)  # fmt: skip

FILLERS = (
    "The on-call rotation lives in PagerDuty.", "Invoices are rendered with WeasyPrint.",
    "The nightly export lands in the reports bucket.", "Sentry groups errors by release.",
    "Translations are edited in Crowdin.", "The mobile app ships every other Tuesday.",
    "Customer data stays in the EU region.", "The design system lives in Figma.",
    "Receipts are emailed by the mailer worker.", "Refunds need a second approval.",
    "Uploads are scanned for viruses.", "Support tickets sync from Zendesk.",
)  # fmt: skip


def notes() -> list[tuple[str, str, int, str]]:
    """Each case's two notes: (place, name, case number, text), in case order."""
    made = []
    for number, case in enumerate(CASES):
        for side, (place, said) in enumerate(zip(case.places, (case.one, case.other), strict=True)):
            filler = FILLERS[(2 * number + side) % len(FILLERS)]
            body = said if said.startswith(("#", "|")) else f"- {said}"
            text = f"# Notes {number}\n\n{body}\n\n{filler}\n"
            made.append((place, f"case-{number}-{'ab'[side]}.md", number, text))
    return made
