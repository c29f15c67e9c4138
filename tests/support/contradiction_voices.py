"""A second labelled set of note pairs for `memtab contradictions` (issue 83), written apart
from the trust corpus and from `contradiction_cases`, in the voices those do not use: a
rule said as "avoid X", "X is banned", "we stopped X", "X — don't", "no X" / "X is fine",
"X every time", first person, passive, British spelling; a tool chosen as "we're on X now",
"X is our runner", "stick to X", "moved off Y to X", "don't reach for Y", for jobs well
beyond package managers (ORMs, loggers, schema validators, feature flags, task runners…);
Claude Code's frontmatter files, Codex's memory summary, GEMINI.md bullets, a team's
CLAUDE.md, long prose paragraphs. Near misses: an exception, another scope or job, two
things, agreement said twice, what was, a question.

Each case's two texts are the notes' bodies as written; `notes()` gives each note a title
and a filler line of its own, so what is found joins the case's two notes or nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from pathlib import Path
from typing import Any

import pytest

from memtab.store.home import Home
from memtab.trust.contradictions.engine import ContradictionsEngine
from support.contradiction_cases import Case
from support.seeded_memories import memory

SAME = ("project:shop", "project:shop")
CLAUDE = ("claude:shop", "project:shop")
"""A Claude Code memory of the project and a mux note of it (seen together)."""
TEAM = ("team:shop", "claude:shop")
CODEX = ("codex", "project:shop")
C, N = "contradiction", "neither"


def _claude(name: str, body: str) -> str:
    """A Claude Code memory file: its frontmatter, then the body."""
    return (
        f"---\nname: {name}\ndescription: {name} for the shop\nmetadata:\n  type: feedback\n"
        f"---\n\n{body}"
    )


CASES: tuple[Case, ...] = (
    # Always / never, in any phrasing.
    Case("always-never", "- Avoid mocking the database in integration tests.",
         "- Mock the database in integration tests, every time.", C, SAME),
    Case("always-never", "- Force pushes to shared branches are banned.",
         "- Force-push shared branches after rebasing them.", C, SAME),
    Case("always-never", "- Committing generated files — don't.",
         "- Always commit the generated files.", C, SAME),
    Case("always-never", "- No `console.log` in committed code.",
         "- `console.log` in committed code is fine.", C, SAME),
    Case("always-never", "We stopped squashing commits on merge.",
         "- Squash commits on merge.", C, SAME),
    Case("always-never",
         _claude("merging", "Never merge your own pull request; someone else presses the "
                 "button.\n\n**Why:** two pairs of eyes on every change."),
         "- Merge your own pull requests once CI is green.", C, CLAUDE),
    Case("always-never", "- Always use British spelling in user-facing copy (colour, organise).",
         "- Never use British spelling in user-facing copy; product wants US English.", C, SAME),
    Case("always-never", "- Lockfiles must be committed.",
         "Lockfiles are never committed in this repo.", C, SAME),
    Case("always-never", "* Do not add type hints to the test files.",
         "* Type hints are required in the test files.", C, SAME),
    Case("always-never", "- We've banned `any` in the TypeScript code.",
         "- Using `any` in the TypeScript code is fine.", C, SAME),
    Case("always-never",
         "I never run the linters locally; pre-commit does it in CI and that's enough.",
         "- Run the linters locally before every push.", C),
    Case("always-never", "- NEVER use `git add .`",
         "- Use `git add .` to stage everything.", C, TEAM),
    Case("always-never", "- Please refrain from rebasing public branches.",
         "- Rebase public branches regularly.", C, SAME),
    Case("always-never",
         "- user prefers that the agent never runs database migrations automatically",
         "- Run the database migrations automatically after every pull.", C, CODEX),
    Case("always-never", "- Don't write docstrings for private helpers.",
         "- Private helpers get a docstring every time.", C, SAME),
    Case("always-never", "- Storing secrets in `.env` files is forbidden.",
         "- Store secrets in `.env` files.", C, SAME),
    Case("always-never", "- Translations should never be edited by hand.",
         "- Edit the translations by hand.", C, SAME),
    Case("always-never", "- Snapshot tests are banned here.",
         "- Write snapshot tests for every component.", C, SAME),
    # Always / never near misses: an exception, another thing, agreement, before/after.
    Case("always-never", "- Don't commit directly to `main`.",
         "- Never commit directly to `main`, not even for typos.", N, SAME),
    Case("always-never", "- Avoid global state in the UI layer.",
         "- Avoid global state in the workers too.", N, SAME),
    Case("always-never", "- No trailing whitespace.", "- No trailing commas in JSON files.", N,
         SAME),
    Case("always-never", "- Never log personal data.", "- Always log the request id.", N, SAME),
    Case("always-never", "- Never rebase after the review has started.",
         "- Rebase before the review starts.", N, SAME),
    Case("always-never", "- We stopped using Travis.", "- Use the GitHub Actions cache.", N,
         SAME),
    Case("always-never", "- Avoid `sleep` in unit tests.",
         "- Always write unit tests for the parser.", N, SAME),
    Case("always-never", "- Is it fine to skip the changelog for docs-only changes?",
         "- Always update the changelog.", N, SAME),
    Case("always-never", "- Don't deploy on Fridays.", "- Deploy on Tuesdays.", N, SAME),
    Case("always-never", "- Avoid long-running transactions.",
         "- Always run the migrations in a transaction.", N, SAME),
    # A tool chosen for a job, said in other words, for jobs of every kind.
    Case("tool", "- Use pnpm.", "- We're on yarn now.", C, SAME),
    Case("tool", "- Tests run under vitest.", "- Jest is our runner.", C, SAME),
    Case("tool", "- HTTP calls go through axios.",
         "- Don't reach for axios; the fetch wrapper in `src/http.ts` does it.", C, SAME),
    Case("tool", "- CI runs on Jenkins.", "- We moved off Jenkins to Buildkite last quarter.",
         C, SAME),
    Case("tool", "- Stick to Playwright for browser tests.",
         "- Browser tests are written in Cypress.", C, SAME),
    Case("tool", "- Our ORM is Prisma.", "- Database access goes through TypeORM.", C, SAME),
    Case("tool", "- Schema validation: zod.", "- Validate request bodies with yup.", C, SAME),
    Case("tool", "- Logging is done with pino.", "- The logger is winston.", C, SAME),
    Case("tool", "- Dates are handled with date-fns.", "- Use dayjs for dates.", C, SAME),
    Case("tool", "- Feature flags live in LaunchDarkly.",
         "- We use Unleash for feature flags.", C, SAME),
    Case("tool", "- The task runner is `just`: recipes live in the justfile.",
         "- Tasks run through make.", C, SAME),
    Case("tool", "- The web framework is FastAPI.", "- The API is built with Flask.", C, SAME),
    Case("tool", "- Build the service with Gradle.", "- The service builds with Maven.", C,
         SAME),
    Case("tool", "- Kubernetes manifests are templated with Helm.",
         "- We use Kustomize for the manifests.", C, SAME),
    Case("tool", "- Git hooks are managed by husky.", "- lefthook runs the git hooks.", C,
         SAME),
    Case("tool", "- HTTP is mocked with msw in tests.", "- Mock HTTP calls with nock.", C, SAME),
    Case("tool",
         _claude("styling", "Styles are written with Tailwind utility classes.\n\n"
                 "**How to apply:** no CSS files for new components."),
         "- Style components with styled-components.", C, CLAUDE),
    Case("tool", "- Infrastructure is managed with Pulumi.",
         "- All infra lives in Terraform.", C, SAME),
    Case("tool", "- Prefer ruff over flake8 for linting.", "- flake8 is the linter.", C, SAME),
    Case("tool", "- Background jobs run on Sidekiq.", "- We switched the background jobs to "
         "GoodJob.", C, SAME),
    Case("tool", "- the user's editor of choice is Helix",
         "- I use Neovim for everything.", C, ("codex", "global")),
    Case("tool", "- Errors are reported to Sentry.", "- Errors go to Rollbar.", C, SAME),
    # Tool near misses.
    Case("tool", "- Use pnpm in the web app.", "- The docs site uses npm.", N, SAME),
    Case("tool", "- We moved from Jest to Vitest.", "- Vitest is our runner.", N, SAME),
    Case("tool", "- Pino for the API's logs.", "- Winston in the legacy worker.", N, SAME),
    Case("tool", "- Playwright for end-to-end tests.", "- Vitest for unit tests.", N, SAME),
    Case("tool", "- Sentry for errors.", "- Datadog for metrics.", N, SAME),
    Case("tool", "- Is yarn still installed on the CI image?", "- Use pnpm.", N, SAME),
    Case("tool", "- Compare zod and yup before choosing one.", "- Use zod.", N, SAME),
    Case("tool", "- husky hooks were removed; lefthook runs them now.",
         "- lefthook runs the git hooks.", N, SAME),
    Case("tool", "- Redis for caching.", "- Postgres for the job queue.", N, SAME),
    Case("tool", "- The Prisma client is generated on install.", "- Use TypeORM.", N, SAME),
    # Ports, settings, versions, paths, schedules.
    Case("port", "- The Vite dev server comes up on 5173.", "- Vite serves the app on port 5174.",
         C, SAME),
    Case("port", "- I point my browser at localhost:4200 for the Angular app.",
         "- The Angular app listens on 4201.", C, SAME),
    Case("port", "- The gRPC server binds to 50051.", "- gRPC: port 50052.", C, SAME),
    Case("port", "- Traefik's dashboard is served on 8088.",
         "Traefik dashboard — http://localhost:8089", C, SAME),
    Case("port", "- The gRPC server binds to 50051.",
         "- The gRPC health check answers on 50052.", N, SAME),
    Case("port", "- MongoDB listens on 27017.", "- Mongo Express listens on 8081.", N, SAME),
    Case("setting", "- `GUNICORN_WORKERS=4`.", "- We run gunicorn with `GUNICORN_WORKERS=8`.",
         C, SAME),
    Case("setting", "- `RATE_LIMIT_PER_MINUTE=600` on the public API.",
         "- The public API has `RATE_LIMIT_PER_MINUTE=300`.", C, SAME),
    Case("setting", "- `PAGE_SIZE=50` in staging.", "- `PAGE_SIZE=25` in production.", N, SAME),
    Case("version", "- Lambdas run on Python 3.11.", "We're still on Python 3.9 for the lambdas.",
         C, SAME),
    Case("version", "- Java 17 (Temurin).", "- The service targets Java 21.", C, SAME),
    Case("version", "- The app runs PHP 8.1.", "- PHP 8.3 in production and locally.", C, SAME),
    Case("version", "- Python 3.12 for the API.", "- Python 3.9 for the legacy ETL.", N, SAME),
    Case("version", "- Angular 17.", "- Angular Material 16.", N, SAME),
    Case("path", "- Env files are kept in `config/env/`.", "- The env files sit under `.envs/`.",
         C, SAME),
    Case("path", "- Alembic migrations are stored in `migrations/versions/`.",
         "- Migrations live in `alembic/versions/`.", C, SAME),
    Case("path", "- Unit tests are in `tests/unit/`.",
         "- Integration tests are in `tests/integration/`.", N, SAME),
    Case("schedule", "- We deploy on Thursdays.", "- Deploys go out on Tuesdays.", C, SAME),
    Case("schedule", "- Sprint planning is on Mondays.", "- Sprint planning happens on "
         "Wednesdays.", C, SAME),
    Case("schedule", "- Releases are cut on Mondays.", "- Release notes are written on Fridays.",
         N, SAME),
    # More settings, paths, ports and schedules, in other voices.
    Case("setting", "- Set `MAX_UPLOAD_MB=25` for the API.", "The API runs with "
         "`MAX_UPLOAD_MB=50` so the bakeries can upload menus as PDFs.", C, SAME),
    Case("setting", "- `replicas: 3` for the web deployment", "- The web deployment runs with "
         "`replicas: 5`.", C, SAME),
    Case("setting", "- `CONCURRENCY=4` for the importer.", "- `CONCURRENCY=8` for the mailer.", N,
         SAME),
    Case("setting", "- `SESSION_TTL_MINUTES=30`", "- Sessions last `SESSION_TTL_MINUTES=30`.", N,
         SAME),
    Case("path", "- The OpenAPI spec is at `docs/openapi.yaml`.",
         "- Find the OpenAPI spec in `api/openapi.yml`.", C, SAME),
    Case("path", "- The OpenAPI spec is at `docs/openapi.yaml`.",
         "- The AsyncAPI spec is at `docs/asyncapi.yaml`.", N, SAME),
    Case("path", "- Seed data lives in `db/seeds/`.", "- Seed data lives in `db/seeds/demo/`.",
         N, SAME),
    Case("port", "- Mongo Express → http://localhost:8081", "- Mongo Express listens on 8082.",
         C, SAME),
    Case("port", "- The API listens on 8000 in production.",
         "- The API listens on 8001 on my laptop.", N, SAME),
    Case("schedule", "- Dependabot PRs are merged on Fridays.",
         "- We merge the Dependabot PRs on Mondays.", C, SAME),
    Case("schedule", "- We deploy on Thursdays.", "- We don't deploy on Fridays.", N, SAME),
    Case("version", "- The shop is built on Rails 7.1.", "- Rails 6.1 (we haven't upgraded yet).",
         C, SAME),
    Case("version", "- Ruby 3.3 for the shop.", "- Ruby 3.1 for the one-off scripts in `bin/`.",
         N, SAME),
    Case("schedule", "- Standup is at 09:30.", "Daily standup at 10:00, on the team call.", C,
         SAME),
    Case("schedule", "- The nightly backup starts at 03:00 UTC.", "- The backup runs at 2am UTC.",
         C, SAME),
    Case("schedule", "- Standup at 9:30 CET.", "- Standup at 8:30 UTC.", N, SAME),
    Case("schedule", "- Standup is at 09:30.", "- Retro is at 16:00.", N, SAME),
    Case("schedule", "- The deploy window is 10:00–15:00.", "- Deploys start at 11:00.", N, SAME),
    Case("setting", "- Set `max_connections = 200` in postgresql.conf.",
         "- Postgres runs with `max_connections = 100`.", C, SAME),
    Case("setting", "- `printWidth: 100` in the Prettier config.", "- Prettier's `printWidth: 80`.",
         C, SAME),
    Case("setting", "- Set `WEB_CONCURRENCY` to 4.", "- `WEB_CONCURRENCY=2` on the dynos.", C,
         SAME),
    Case("setting", "- `timeout: 30` for the health check.", "- `timeout: 300` for the batch job.",
         N, SAME),
    Case("setting", "- Use `postgres:16` in compose.", "- `redis:7` in compose.", N, SAME),
    # Written after the readers were changed for the cases above, as a check of them: the
    # cues' synonyms they lacked ("under no circumstances", "discouraged", "not permitted",
    # "it's OK to") were added after, nothing else.
    Case("always-never", "- Under no circumstances push to prod on a Friday.",
         "- Push to prod on Fridays.", C, SAME),
    Case("always-never", "- It's OK to skip the e2e suite for docs PRs.",
         "- Never skip the e2e suite for docs PRs.", C, SAME),
    Case("always-never", "- We always vendor our Go dependencies.",
         "- Don't vendor the Go dependencies.", C, SAME),
    Case("always-never", "- Rule of thumb: no raw SQL in the controllers.",
         "- Raw SQL in the controllers is okay.", C, SAME),
    Case("always-never", "- Hard rule: don't touch the generated client.",
         "- Regenerate the client, then touch up the generated client by hand.", C, SAME),
    Case("always-never", "- Feature branches must never be rebased once pushed.",
         "- Rebase pushed feature branches onto main daily.", C, SAME),
    Case("always-never", "- Skipping CI with `[skip ci]` is not permitted.",
         "- Use `[skip ci]` for docs-only commits.", C, SAME),
    Case("always-never", "- Disabling the linter inline is discouraged.",
         "- Disable the linter inline freely.", C, SAME),
    Case("always-never", "- Don't squash when merging release branches.",
         "- Squash everything, release branches included.", C, SAME),
    Case("always-never", "- Never write raw SQL.",
         "- Always write migrations in raw SQL.", N, SAME),
    Case("always-never", "- Don't deploy without a rollback plan.",
         "- Always deploy with the canary first.", N, SAME),
    Case("always-never", "- We no longer pin minor versions.", "- Pin major versions.", N, SAME),
    Case("tool", "- Package management is via Poetry.", "- We're a uv shop now.", C, SAME),
    Case("tool", "- Our linter of choice is Biome.", "- ESLint handles linting.", C, SAME),
    Case("tool", "- The frontend is React.", "- The frontend is written in Svelte.", C, SAME),
    Case("tool", "- Queue: BullMQ.", "- Jobs are processed by Agenda.", C, SAME),
    Case("tool", "- We host on Render.", "- Deploys go to Fly.io.", C, SAME),
    Case("tool", "- i18n is handled by i18next.", "- Translations use FormatJS.", C, SAME),
    Case("tool", "- Load tests run with k6.", "- We load-test with Locust.", C, SAME),
    Case("tool", "- React for the storefront.", "- Vue for the admin panel.", N, SAME),
    Case("tool", "- k6 for load tests.", "- Playwright for browser tests.", N, SAME),
    Case("tool", "- We used to deploy to Heroku.", "- Deploys go to Fly.io.", N, SAME),
)  # fmt: skip

FILLERS = (
    "The staging data is refreshed from a masked dump.", "Our brand colours are teal and sand.",
    "Invoices are numbered per country.", "The support rota is in the team wiki.",
    "Most customers are small bakeries.", "The mobile app is a thin wrapper around the site.",
    "Legal reviews every new tracking script.", "Product photos are resized at upload.",
    "The warehouse sync is the flakiest part.", "Newsletter copy comes from marketing.",
    "The admin area is only for staff.", "Stock counts are reconciled each night.",
)  # fmt: skip


def notes(cases: tuple[Case, ...] = CASES) -> list[tuple[str, str, int, str]]:
    """Each case's two notes: (place, name, case number, text), in case order."""
    made = []
    for number, case in enumerate(cases):
        for side, (place, said) in enumerate(zip(case.places, (case.one, case.other), strict=True)):
            filler = FILLERS[(2 * number + side) % len(FILLERS)]
            if said.startswith("---"):
                text = f"{said}\n\n{filler}\n"
            else:
                text = f"# Voices {number}\n\n{said}\n\n{filler}\n"
            made.append((place, f"voice-{number}-{'ab'[side]}.md", number, text))
    return made


def found(cases: tuple[Case, ...] = CASES) -> dict[int, bool]:
    """Whether a contradiction joins each case's two notes, each case read alone with a
    background of unrelated notes: a seeded contradiction is read when shown, as a finding
    or as a candidate (what the words only suspect, for the user's model to judge); a near
    miss is read wrong only as a finding."""
    made = notes(cases)
    background = [
        memory("global", f"bg-{i}.md", f"# Bg {i}\n\n- {line}\n") for i, line in enumerate(FILLERS)
    ]
    home = Home(Path("/nowhere"))
    joined = {}
    for number in range(len(cases)):
        pair = [memory(place, name, text) for place, name, case, text in made if case == number]
        engine = ContradictionsEngine(home, line_time=lambda d, line: 0)
        shown = engine.found_in([*pair, *background])
        listed = [*shown.contradictions]
        if cases[number].expected == "contradiction":
            listed += shown.candidates
        joined[number] = any(
            {d.path for d in pair}
            <= {p.path for side in (c.first, c.second, *c.others) for p in side.places}
            for c in listed
        )
    return joined


def wrong_of_kind(
    cases: tuple[Case, ...],
    joined: dict[int, bool],
    kind: str,
    unread: frozenset[str] = frozenset(),
) -> tuple[list[str], list[str]]:
    """A kind's contradictions not found and near misses found (`found`'s `joined`), the
    cases whose first note is `unread` aside: ([], []) when every one is read right."""
    missed, flagged = [], []
    for number, case in enumerate(cases):
        if case.kind != kind or case.one in unread:
            continue
        if case.expected == "contradiction" and not joined[number]:
            missed.append(f"{case.one} | {case.other}")
        if case.expected == "neither" and joined[number]:
            flagged.append(f"{case.one} | {case.other}")
    return missed, flagged


def each_kind(
    cases: tuple[Case, ...], unread: Collection[str] = ()
) -> tuple[Callable[..., Any], Callable[..., None]]:
    """A corpus module's `found` fixture (module-scoped: `found`) and its test that each kind's
    contradictions are found and its near misses are not, the cases whose first note is
    `unread` aside — as `found, test_… = each_kind(CASES)`."""

    @pytest.fixture(scope="module", name="found")
    def found_once() -> dict[int, bool]:
        return found(cases)

    @pytest.mark.parametrize("kind", sorted({case.kind for case in cases}))
    def test(found: dict[int, bool], kind: str) -> None:
        assert wrong_of_kind(cases, found, kind, frozenset(unread)) == ([], [])

    return found_once, test


def read_wrong(
    cases: tuple[Case, ...],
    joined: dict[int, bool],
    aside: Collection[str] = (),
    told: Callable[[Case], str] = lambda case: case.one,
) -> tuple[list[str], list[str]]:
    """`cases`' contradictions not found (sorted) and near misses found (`found`'s
    `joined`), each `told` (its first note), those whose first note is `aside` left out:
    ([], []) when every one is read right."""
    read = [(c, joined[n]) for n, c in enumerate(cases) if c.one not in aside]
    missed = sorted(told(c) for c, j in read if c.expected == "contradiction" and not j)
    flagged = [told(c) for c, j in read if c.expected == "neither" and j]
    return missed, flagged


def held_apart(
    cases: tuple[Case, ...],
    not_read: Collection[str],
    after: tuple[Case, ...],
    after_not_read: Collection[str],
) -> tuple[Callable[..., None], Callable[[], None]]:
    """A corpus module's tests that the cases it says are `not_read` are still missed (one
    found leaves the list), and that its batch written `after` the change (never tuned on)
    flags no near miss and misses only `after_not_read` — as `test_…, test_… =
    held_apart(CASES, NOT_READ, AFTER, AFTER_NOT_READ)`, beside `each_kind`'s `found`."""

    def test_not_read(found: dict[int, bool]) -> None:
        said = [found[n] for n, c in enumerate(cases) if c.one in not_read and c.expected == C]
        assert said == [False] * len(not_read)

    def test_after() -> None:
        assert read_wrong(after, found(after)) == (sorted(after_not_read), [])

    return test_not_read, test_after
