"""Tool choices beyond package managers and test runners (issue 83): two memories naming
two tools of one kind as the one used contradict each other — end-to-end runners,
infrastructure as code, CI services, ORMs, migration tools, error trackers, editors — and
a tool named for another job, or alongside the other, does not."""

from __future__ import annotations

from pathlib import Path

import pytest

from memtab.store.home import Home
from memtab.trust.contradictions.engine import ContradictionsEngine
from support.contradiction_cases import FILLERS
from support.seeded_memories import memory

CONTRADICTIONS = [
    ("Type-check with mypy.", "Type checking is done by pyright."),
    ("The API is deployed with Terraform.", "Infrastructure is managed with Pulumi."),
    ("Migrations are written with Alembic.", "Database migrations use Flyway."),
    ("CI runs on GitHub Actions.", "Our CI is GitLab CI."),
    ("The ORM is SQLAlchemy.", "We use Django's ORM for models."),
    ("Use Prisma for database access.", "The data layer uses TypeORM."),
    ("E2E tests use Cypress.", "End-to-end tests run on Playwright."),
    ("We report errors to Sentry.", "Errors are tracked with Rollbar."),
    ("Docs are built with Sphinx.", "The documentation site uses MkDocs."),
    ("My editor is PyCharm.", "I use Neovim for everything."),
    ("Don't use npm.", "npm for installs."),
    ("Logging is done with pino.", "The logger is winston."),
    ("The task runner is `just`.", "Tasks run through make."),
    ("Browser tests are written in Cypress.", "Stick to Playwright for browser tests."),
]
NEAR_MISSES = [
    ("Type-check with mypy.", "Lint with ruff."),
    ("CI runs on GitHub Actions.", "Releases are published to GitLab's registry."),
    ("We report errors to Sentry.", "Errors go to https://sentry.acme.io (the team's)."),
    ("Use Prisma for the API's database.", "Use TypeORM in the legacy admin app."),
    ("Plain pip here; Pallets pins with pip-tools.", "Use pip to install the dev requirements."),
    ("Jenkins was replaced by GitHub Actions.", "CI runs on GitHub Actions."),
    ("Just run make once.", "Use `just`."),
    ("`npm` is still missing from the PATH.", "Use npm."),
    ("The frontend deploys to Vercel.", "The API is hosted on Fly.io."),
    ("The docs site uses npm.", "Use pnpm in the web app."),
    ("Infrastructure is provisioned with Terraform.", "Servers are configured with Ansible."),
    ("Component styles are CSS Modules.", "Styles are compiled with Sass."),
]


def _joined(one: str, other: str) -> bool:
    pair = [
        memory("project:shop", "one.md", f"# One\n\n- {one}\n"),
        memory("project:shop", "other.md", f"# Other\n\n- {other}\n"),
    ]
    background = [
        memory("global", f"bg-{i}.md", f"# Bg {i}\n\n- {line}\n") for i, line in enumerate(FILLERS)
    ]
    engine = ContradictionsEngine(Home(Path("/nowhere")), line_time=lambda d, line: 0)
    return any(
        {d.path for d in pair}
        <= {p.path for side in (c.first, c.second, *c.others) for p in side.places}
        for c in engine.pairs_of([*pair, *background])
    )


@pytest.mark.parametrize(("one", "other"), CONTRADICTIONS)
def test_two_tools_of_one_kind_contradict(one: str, other: str) -> None:
    assert _joined(one, other)


@pytest.mark.parametrize(("one", "other"), NEAR_MISSES)
def test_tools_of_other_jobs_or_parts_do_not(one: str, other: str) -> None:
    assert not _joined(one, other)
