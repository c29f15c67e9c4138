"""A labelled corpus for `memtab check`'s missing folders, globs and links (issue 83), in forms
tests/support/check_forms.py does not use: a folder written with its trailing `/` after a
fence closed earlier, under a heading naming a package, in a table; a glob (`packages/*/lib/`,
`tests/**/snapshots/`) that matches nothing of the checkout; a sibling link with an anchor, a
title, angle brackets or in reference style, whose label or sentence names a topic in words
("error budgets", "older decisions"). Near misses: globs that match, folders that are there
or sit in a fenced example, globs of build output, ignored folders, branches and buckets,
paths in another checkout, URLs, links that lead somewhere.

The checkout is a pnpm monorepo, `loom`; each case is one memory file of its project memory
(as in check_forms, whose layout and scoring this uses). `AFTER` was written after the
change that reads globs, never tuned on.
"""

from __future__ import annotations

from pathlib import Path

from memtab.check.records import Finding
from support import check_forms
from support.check_forms import Case

CHECKOUT: dict[str, str] = {
    "README.md": "# loom\n",
    "package.json": '{"name": "loom", "private": true, "scripts": {"test": "vitest"}}\n',
    "pnpm-workspace.yaml": "packages:\n  - packages/*\n  - apps/*\n",
    "packages/core/package.json": '{"name": "@loom/core"}\n',
    "packages/core/src/index.ts": "",
    "packages/core/src/queue.ts": "",
    "packages/cli/package.json": '{"name": "@loom/cli"}\n',
    "packages/cli/src/main.ts": "",
    "apps/web/src/App.tsx": "",
    "apps/web/vite.config.ts": "",
    "apps/admin/src/main.tsx": "",
    "src/workers/email.ts": "",
    "src/workers/sms.ts": "",
    "tests/unit/fixtures/users.json": "",
    "tests/e2e/fixtures/orders.json": "",
    "tests/unit/queue.test.ts": "",
    "db/migrations/0001_init.sql": "",
    "db/migrations/0002_jobs.sql": "",
    "docs/guides/setup.md": "# Setup\n",
    "scripts/release.sh": "#!/bin/sh\n",
    "infra/terraform/main.tf": "",
    ".gitignore": "dist/\ncoverage/\n.turbo/\n",
}
"""The checkout (relative path → text)."""

M, B = "missing-path", "broken-link"


def _case(text: str, kind: str | None, form: str, at: str = "") -> Case:
    """A case whose finding is on the line holding `at` (none for a near miss)."""
    line = next(n for n, raw in enumerate(text.split("\n"), 1) if at in raw) if at else None
    return Case(text, kind, line, form)


_FENCED = "# Dev loop\n\n```sh\npnpm install\npnpm dev\n```\n\n"
CASES: tuple[Case, ...] = (
    # --- missing folders --------------------------------------------------------------------
    _case("# Jobs\n\nBackground jobs: `src/jobs/`, one file per queue.\n", M, "folder", "src/"),
    _case(
        _FENCED + "Seed data for local runs is in `db/seeds/` today.\n",
        M,
        "folder after a closed fence",
        "db/seeds/",
    ),
    _case(
        "# Env\n\n~~~yaml\nstage: dev\nregion: eu-west-1\n~~~\n\nPer-stage files sit in "
        "`config/env/` beside it.\n",
        M,
        "folder after a closed tilde fence",
        "config/env/",
    ),
    _case(
        "# Setup\n\n1. Copy the env file:\n\n   ```sh\n   cp .env.example .env\n   ```\n\n"
        "2. Local TLS certs go in `infra/certs/`.\n",
        M,
        "folder after a fence in a numbered list",
        "infra/certs/",
    ),
    _case(
        "# Where\n\n| what | where |\n|---|---|\n| cron workers | `src/workers/cron/` |\n",
        M,
        "folder in a table",
        "cron/",
    ),
    _case(
        "# Web\n\nStorybook stories sit in apps/web/stories/ beside the components.\n",
        M,
        "folder in prose",
        "stories/",
    ),
    _case(
        "# Core\n\nAdapters per broker: `packages/core/src/adapters/`.\n",
        M,
        "folder three deep",
        "adapters/",
    ),
    _case(
        "# packages/cli\n\nEach subcommand is a file in `src/commands/`.\n",
        M,
        "folder under a heading naming a package",
        "src/commands/",
    ),
    _case(
        '# Docs\n\n```json\n{"docs": true}\n```\n\nGuides for the API are under `docs/api/`.\n',
        M,
        "folder after a closed json fence",
        "docs/api/",
    ),
    # --- globs that match nothing -------------------------------------------------------------
    _case(
        "# Snapshots\n\nVitest snapshots sit under `tests/**/snapshots/` next to each suite.\n",
        M,
        "glob ** folder",
        "snapshots/",
    ),
    _case(
        "# Packages\n\nBuilt sources of each package: `packages/*/lib/`.\n",
        M,
        "glob * folder",
        "lib/",
    ),
    _case(
        "# Migrations\n\nMigrations are `db/migrations/*.ts`, run in name order.\n",
        M,
        "glob of files by extension",
        "*.ts",
    ),
    _case(
        "# Assets\n\nStatic assets of the apps live in `apps/*/public/`.\n",
        M,
        "glob of app folders",
        "public/",
    ),
    _case(
        "# Format\n\n```sh\npnpm prettier --write 'docs/**/*.mdx'\n```\n",
        M,
        "glob in a shell block",
        "mdx",
    ),
    _case(
        "# Tests\n\n| suite | files |\n|---|---|\n| e2e | `tests/e2e/**/*.spec.ts` |\n",
        M,
        "glob in a table",
        "spec.ts",
    ),
    _case(
        "# GraphQL\n\nSchema files: `src/**/*.graphql`, stitched at boot.\n",
        M,
        "glob ** of files",
        "graphql",
    ),
    _case(
        _FENCED + "Every worker's handlers are in `src/workers/*/handlers/` by queue.\n",
        M,
        "glob after a closed fence",
        "handlers/",
    ),
    _case(
        "# Terraform\n\nModules: `infra/terraform/modules/*/`; one per service.\n",
        M,
        "glob under a missing folder",
        "modules/",
    ),
    # --- broken links ------------------------------------------------------------------------
    _case("# See\n\nDeploy details are in [notes](deploy-notes.md).\n", B, "sibling link", "]("),
    _case(
        "# See\n\nCanary steps: [rollout](./rollout.md#canary).\n",
        B,
        "./ link with an anchor",
        "](",
    ),
    _case(
        "# See\n\nWhat shipped when: [Release notes](<release notes.md>).\n",
        B,
        "angle-bracket link with a space",
        "](",
    ),
    _case(
        '# See\n\nPaging rules: [oncall](oncall.md "Who is on call").\n',
        B,
        "link with a title",
        "](",
    ),
    _case(
        "# See\n\nEscalation goes through [pager].\n\n[pager]: pager-duty.md\n",
        B,
        "reference definition",
        "[pager]:",
    ),
    _case(
        "# SLOs\n\nOur error budget policy: [error budgets](error-budgets.md).\n",
        B,
        "link whose label names errors",
        "](",
    ),
    _case(
        "# Index\n\n- [Older decisions](decisions-2025.md)\n- [index](index.md)\n",
        B,
        "index link whose label says older",
        "decisions-2025",
    ),
    _case(
        '# See\n\nBackoff: [retries](queues.md#backoff "Backoff").\n',
        B,
        "link with an anchor and a title",
        "](",
    ),
    _case("# See\n\nStart with the [runbook](runbook) page.\n", B, "link without .md", "]("),
    _case(
        "# See\n\nWhy we split the queue: [design doc](design%20doc.md).\n",
        B,
        "percent-encoded link",
        "](",
    ),
    # --- near misses --------------------------------------------------------------------------
    _case("# Pkgs\n\nEach package's code: `packages/*/src/`.\n", None, "glob that matches"),
    _case("# Fixtures\n\nFixtures: `tests/**/fixtures/`.\n", None, "** glob that matches"),
    _case("# Mig\n\nMigrations are `db/migrations/*.sql`.\n", None, "extension glob that matches"),
    _case("# TS\n\nLint `src/**/*.ts` and `apps/*/src/`.\n", None, "globs that match"),
    _case("# Apps\n\nEvery app: `apps/*/`.\n", None, "glob of folders that match"),
    _case(
        "# Pkgs\n\nManifests: `packages/*/package.json`.\n",
        None,
        "glob of a named file that matches",
    ),
    _case(
        "# Config\n\n```yaml\nwatch:\n  - src/jobs/\n  - tests/**/snapshots/\n```\n",
        None,
        "folder and glob in a fenced yaml example",
    ),
    _case(
        "# Tree\n\n```text\napps/\n  web/\n  mobile/\n```\n",
        None,
        "a tree in a text fence",
    ),
    _case("# Workers\n\nWorkers: `src/workers/`.\n", None, "folder that is there"),
    _case(_FENCED + "Migrations are in `db/migrations/`.\n", None, "folder after a fence, there"),
    _case(
        "# Build\n\nThe bundles: `dist/**/*.js`, and `coverage/**/*.html` for reports.\n",
        None,
        "globs of build output and ignored folders",
    ),
    _case("# Types\n\n`node_modules/@types/*/` holds the typings.\n", None, "glob in dependencies"),
    _case("# Lint\n\nWe lint `src/**/*.{ts,tsx}` with one config.\n", None, "glob with braces"),
    _case(
        "# Plugins\n\nName plugins like `plugins/*/index.ts`, e.g. `plugins/auth/index.ts`.\n",
        None,
        "glob in an example",
    ),
    _case(
        "# Cleanup\n\n`scripts/legacy/*.sh` were removed in the spring.\n", None, "glob said gone"
    ),
    _case("# Plan\n\n- TODO: move fixtures into `tests/**/data/`.\n", None, "glob still to come"),
    _case("# Branches\n\nRelease branches are `release/*`.\n", None, "branch glob"),
    _case(
        "# Exports\n\nDaily exports land in `exports/daily/*.csv` in the bucket.\n",
        None,
        "bucket prefix glob",
    ),
    _case(
        "# Infra\n\nShared modules: `../loom-infra/modules/vpc/`.\n",
        None,
        "folder in another checkout (../)",
    ),
    _case(
        "# Other\n\nThe SDK's fixtures: `~/src/loom-sdk/tests/fixtures/`.\n",
        None,
        "folder in another checkout (~/)",
    ),
    _case("# Kube\n\n`kubectl rollout restart deploy/loom-api`\n", None, "kube resource"),
    _case("# Docs\n\nPublic docs: [guides](https://loom.dev/guides/).\n", None, "link to a URL"),
    _case("# See\n\nBack to the [index](index.md).\n", None, "sibling link that leads there"),
    _case(
        '# See\n\nRollback: [deploy](topics/deploy.md#rollback "Rollback").\n',
        None,
        "link with an anchor and a title, there",
    ),
    _case(
        "# See\n\nThe queue design: [q].\n\n[q]: <topics/queues.md>\n",
        None,
        "reference definition, there",
    ),
    _case(
        "# See\n\nOnboarding: [setup guide](docs/guides/setup.md).\n",
        None,
        "link to a checkout file",
    ),
    _case(
        "# Volumes\n\nPostgres keeps its data in `/var/lib/postgresql/data/`.\n",
        None,
        "absolute folder outside the checkout",
    ),
    _case("# Ignore\n\n`.turbo/*` is turbo's cache.\n", None, "glob of an ignored dot folder"),
    _case(
        "# Queues\n\nThe old queue workers under `src/queues/` are still there for reference.\n",
        M,
        "an old folder said to be still there",
        "src/queues/",
    ),
    _case(
        "# Queues\n\nThe old queue workers sat in `src/queues/` beside the app.\n",
        M,
        "an old folder said where it sat: checked ('old' kept nothing false away on real data)",
        "src/queues/",
    ),
    _case(
        "# Queues\n\nThe old queue workers were still in `src/queues/` last spring.\n",
        M,
        "a folder in the past tense: checked ('were' kept nothing false away on real data)",
        "src/queues/",
    ),
)

AFTER: tuple[Case, ...] = (
    _case("# Stories\n\n- Storybook: `apps/*/stories/`\n", M, "glob of a folder no app has", "*"),
    _case("# Tests\n\nIntegration tests: `tests/integration/`.\n", M, "folder in tests", "tests/"),
    _case(
        "# Bench\n\n```bash\nvitest bench tests/unit/**/*.bench.ts\n```\n",
        M,
        "glob of files in a bash block",
        "bench.ts",
    ),
    _case(
        "# Lambdas\n\nLambda handlers: `infra/lambdas/*/handler.ts`.\n",
        M,
        "glob under a folder that is gone",
        "handler",
    ),
    _case("# FAQ\n\nSee [the FAQ](faq.md#tokens) first.\n", B, "sibling link, anchor", "faq"),
    _case(
        '# ADR\n\nThe [queue decision][adr] stands.\n\n[adr]: adr-0007.md "Queue ADR"\n',
        B,
        "reference definition with a title",
        "[adr]:",
    ),
    _case(
        "# Deploys\n\nRunbook for failed deploys: [failed deploys](deploy-failures.md)\n",
        B,
        "link on a line saying failed",
        "](",
    ),
    _case(
        "# Email\n\nEmail templates live in packages/core/templates/ now.\n",
        M,
        "folder in prose",
        "templates/",
    ),
    _case(
        "# Seeds\n\n| data | files |\n|---|---|\n| seeds | `db/seeds/*.sql` |\n",
        M,
        "glob in a table under a folder that is gone",
        "seeds",
    ),
    _case(
        "# Docs\n\n````md\n```sh\npnpm dev\n```\n````\n\nThe CLI's plugins sit in "
        "`packages/cli/plugins/`.\n",
        M,
        "folder after a four-backtick fence",
        "plugins/",
    ),
    _case("# Stories\n\n- Sources: `apps/*/src/`\n", None, "glob of app sources"),
    _case("# Tests\n\n```bash\nvitest run tests/unit/*.test.ts\n```\n", None, "glob that matches"),
    _case(
        "# Guide\n\nSee [the guide](docs/guides/setup.md#setup).\n",
        None,
        "checkout link with its anchor",
    ),
    _case("# Wiki\n\nThe runbook: [runbook](https://wiki.loom.dev/runbook).\n", None, "wiki URL"),
    _case(
        "# API\n\n`packages/**/src/index.ts` exports the public API.\n",
        None,
        "** glob of a file that is there",
    ),
    _case("# Coverage\n\nCoverage reports: `coverage/lcov-report/`.\n", None, "ignored output"),
    _case("# Build\n\n```yaml\nfiles:\n  - apps/*/dist/\n```\n", None, "glob in a yaml block"),
    _case("# Git\n\nBranch names: `feature/*`, `fix/*`.\n", None, "branch globs"),
    _case(
        "# SDK\n\nThe SDK repo keeps examples in `../loom-sdk/examples/*/`.\n",
        None,
        "glob in another checkout",
    ),
    _case("# Workers\n\nOne file per channel: `src/workers/*.ts`.\n", None, "glob of workers"),
)
"""Written after the change that reads globs and folders, never tuned on."""


def found(
    root: Path, cases: tuple[Case, ...] = CASES
) -> tuple[dict[int, list[Finding]], list[Finding]]:
    """Each case's missing paths and broken links, and those of no case's file."""
    return check_forms.found(root, cases, CHECKOUT)


def score(root: Path, cases: tuple[Case, ...] = CASES) -> dict[str, object]:
    """Recall over the cases (found on their line, of their kind), precision, near misses
    flagged."""
    return check_forms.score(root, cases, CHECKOUT)
