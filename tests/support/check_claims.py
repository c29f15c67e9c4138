"""A labelled corpus for `memtab check`'s missing paths (issue 83): a note that says a file
or folder is in the checkout when it is not, in the forms people write a path that
`check_forms` does not use — a monorepo's paths relative to a package the line names (`In
`services/api`, … `src/main.ts``, `cd services/worker && …`), a path whose first folder
is gone but whose file is elsewhere, `./file` at the root, `.\\` on Windows, a name cut
short (`docs/adr/0003-…`), a claim in one sentence beside a condition or a future in
another. Near misses: the same forms naming what is there (under the package the line
names, or as a package's own path), and examples, globs, URLs, another machine's or
container's paths, generated, ignored, gone and still-to-come files.

Each case is one memory file of the project (`check_forms.lay_out`, its checkout
`CHECKOUT`). `CASES` were written before the change to `check.rules.paths`; `AFTER`
after it, never tuned on.
"""

from __future__ import annotations

from pathlib import Path

from memtab.check.records import Finding
from support import check_forms
from support.check_forms import Case

CHECKOUT: dict[str, str] = {
    "README.md": "# ferry\n",
    "CONTRIBUTING.md": "# Contributing\n",
    "Makefile": "proto:\n\tbuf generate\n",
    "package.json": '{"name": "ferry", "private": true}\n',
    "pnpm-workspace.yaml": "packages:\n  - services/*\n  - packages/*\n",
    ".gitignore": "dist/\ngen/\n.env.local\nnode_modules/\n",
    "services/api/package.json": '{"name": "@ferry/api"}\n',
    "services/api/src/server.ts": "",
    "services/api/src/routes/orders.ts": "",
    "services/api/src/db/pool.ts": "",
    "services/worker/main.go": "package main\n",
    "services/worker/internal/queue/consumer.go": "package queue\n",
    "services/billing/settings/base.py": "",
    "packages/ui/package.json": '{"name": "@ferry/ui"}\n',
    "packages/ui/src/Button.tsx": "",
    "docs/adr/0001-monorepo.md": "# Monorepo\n",
    "docs/adr/0002-queues.md": "# Queues\n",
    "docs/runbook.md": "# Runbook\n",
    "scripts/dev.sh": "#!/bin/sh\n",
    "scripts/seed.ts": "",
    "config/base.toml": "",
    "infra/terraform/main.tf": "",
    ".github/workflows/ci.yml": "on: push\n",
}
"""The checkout (relative path → text): a pnpm monorepo with a Go and a Python service."""

M = "missing-path"


def _note(line: str) -> str:
    return f"# Note\n\n{line}\n"


CASES: tuple[Case, ...] = (
    # --- paths the note claims that are not there ---------------------------------------
    Case(
        _note("Config lives in `config/settings.toml`; if you change it, restart the worker."),
        M,
        3,
        "a claim beside a condition in another clause",
    ),
    Case(
        _note("Dev stack: run ./scripts/dev-up.sh. It will build the images first."),
        M,
        3,
        "a claim beside a future in the next sentence",
    ),
    Case(_note("For the why, see docs/adr/0003-…"), M, 3, "a name cut short"),
    Case(
        _note("`services/api/src/routes/refunds.ts:88` is where refunds are validated."),
        M,
        3,
        "a package's path with a line",
    ),
    Case(
        _note("The pool is set up in services\\api\\src\\db\\connection.ts on Dana's laptop."),
        M,
        3,
        "Windows separators in prose",
    ),
    Case(_note('Handlers go in "services/api/src/handlers/".'), M, 3, "a quoted folder"),
    Case(
        _note("In `services/api`, the server starts from `src/main.ts`."),
        M,
        3,
        "relative to a package the line names",
    ),
    Case(
        _note("`cd services/worker && go run ./cmd/worker`"),
        M,
        3,
        "relative to a folder the line changes to",
    ),
    Case(_note("Run `./seed.sh` to load fixtures."), M, 3, "./ file at the root"),
    Case(
        _note("Worker's consumer: services/worker/internal/queue/consume.go (line 40)"),
        M,
        3,
        "a path with (line N)",
    ),
    Case(
        _note("- **Button**: packages/ui/src/components/Button.tsx"),
        M,
        3,
        "a file moved up a folder",
    ),
    Case(
        "# Map\n\n| what | where |\n|---|---|\n| terraform | `infra/terraform/prod/main.tf` |\n",
        M,
        5,
        "a folder gone in a table",
    ),
    Case(
        _note("The ADR for queues is docs/adr/0004-queues.md — read it before the worker."),
        M,
        3,
        "a path before a dash",
    ),
    Case(
        _note("The runbook (`docs/runbooks/oncall.md`) covers paging."),
        M,
        3,
        "a path in parentheses",
    ),
    Case(
        _note("Settings: `src/settings/base.py` (Django)."),
        M,
        3,
        "a first folder gone, the file elsewhere",
    ),
    Case(_note("Lint config: ./.eslintrc.cjs"), M, 3, "./ dotfile at the root"),
    Case(_note("Run `.\\scripts\\dev.ps1` on Windows."), M, 3, ".\\ Windows path"),
    Case(
        _note("Migrations: `services/api/migrations/` (numbered)."),
        M,
        3,
        "a package's folder",
    ),
    Case(
        _note("`scripts/dev.sh:12` sets PGPORT and `scripts/env.sh` exports it."),
        M,
        3,
        "the second path on a line",
    ),
    Case(
        _note(
            "If the API hangs, look at `services/api/src/db/pool.ts`. The retry loop is in "
            "`services/api/src/db/retry.ts`."
        ),
        M,
        3,
        "a claim in the sentence after a condition",
    ),
    Case(
        _note(
            "We may split it later. For now the producer is "
            "services/worker/internal/queue/producer.go."
        ),
        M,
        3,
        "a claim in the sentence after a maybe",
    ),
    Case("# Jobs\n\n## services/api/src/jobs/\n\nOne file a job.\n", M, 3, "a path as a heading"),
    Case(
        _note("Seeds: `scripts/seed.ts` then `scripts/seed-demo.ts`."),
        M,
        3,
        "a second seed script",
    ),
    Case(
        _note("In packages/ui the input is src/Input.tsx, styled like the button."),
        M,
        3,
        "relative to a package named in prose",
    ),
    Case(
        _note("Entry point is 'services/worker/cmd/main.go'."),
        M,
        3,
        "single-quoted path",
    ),
    Case(
        "# API\n\n## Layout (services/api)\n\n- Routes: `src/routes/refunds.ts`\n",
        M,
        5,
        "relative to a package its heading names",
    ),
    Case(
        _note("Poller: `services/worker/internal/poll/poller.go`; errors go to Sentry."),
        M,
        3,
        "a claim beside errors in another clause",
    ),
    Case(
        _note("The timeout was raised to 30 s. It is set in `config/timeouts.toml`."),
        M,
        3,
        "a claim in the sentence after a past",
    ),
    Case(
        _note("Without the VPN it hangs — the client is `services/api/src/vpn/client.ts`."),
        M,
        3,
        "a claim after a dash beside without",
    ),
    # --- near misses ------------------------------------------------------------------
    Case(
        _note("We deleted the legacy importer; its tests in `services/api/test/importer/` too."),
        None,
        None,
        "a deletion in the clause before",
    ),
    Case(
        _note("`services/api/src/old-auth.ts` was broken and is gone."),
        None,
        None,
        "gone and broken in one sentence",
    ),
    Case(
        _note("Renamed `scripts/dev-old.sh`. Nothing else changed."),
        None,
        None,
        "a rename in the sentence",
    ),
    Case(
        _note("Config lives in `config/base.toml`; if you change it, restart the worker."),
        None,
        None,
        "an existing path beside a condition",
    ),
    Case(
        _note("In `services/api`, the server starts from `src/server.ts`."),
        None,
        None,
        "existing, relative to a package the line names",
    ),
    Case(
        _note("In `packages/ui`, buttons are in `src/Button.tsx`."),
        None,
        None,
        "existing, relative to another package",
    ),
    Case(
        _note("`cd services/api && ./node_modules/.bin/tsc -p .`"),
        None,
        None,
        "dependencies after cd",
    ),
    Case(_note("Run `./scripts/dev.sh`."), None, None, "existing ./ path"),
    Case(
        _note("`./main.go` is the worker's entry point."),
        None,
        None,
        "./ file of a folder the line does not name",
    ),
    Case(
        _note("`src/routes/orders.ts` validates the orders."),
        None,
        None,
        "a package's own path, written from the package",
    ),
    Case(_note("The monorepo decision: docs/adr/0001-…"), None, None, "existing name cut short"),
    Case(
        _note("The generated client goes to `services/api/src/gen/client.ts` (openapi)."),
        None,
        None,
        "generated",
    ),
    Case(
        _note("`services/api/src/legacy.ts` was deleted in May."),
        None,
        None,
        "gone",
    ),
    Case(
        _note("Create `services/api/src/routes/refunds.ts` for the refunds endpoint."),
        None,
        None,
        "to be created",
    ),
    Case(
        _note("Tests are named like `services/api/test/<name>.test.ts`."),
        None,
        None,
        "placeholder",
    ),
    Case(_note("Lint `packages/*/src/**/*.tsx` only."), None, None, "glob"),
    Case(
        _note("https://github.com/ferry/ferry/blob/main/services/api/src/old.ts"),
        None,
        None,
        "URL path",
    ),
    Case(
        _note("`ssh deploy@app-1 'cd /srv/ferry && ./scripts/restart.sh'`"),
        None,
        None,
        "a path on another machine (ssh)",
    ),
    Case(_note("`scp dist.tgz app-1:releases/ferry/`"), None, None, "host:path"),
    Case(
        _note("On the build box the artefacts are in /var/lib/ferry/builds/."),
        None,
        None,
        "absolute path elsewhere",
    ),
    Case(
        _note("`docker compose exec api cat scripts/runtime.json` shows the live config."),
        None,
        None,
        "a path inside a container",
    ),
    Case(
        _note("The other repo's `cmd/tern/main.go` does the same."),
        None,
        None,
        "another repository's path",
    ),
    Case(
        _note("`C:\\Users\\dana\\ferry\\scripts\\dev.ps1` on her machine."),
        None,
        None,
        "Windows absolute path",
    ),
    Case(_note("For example `scripts/new-thing.sh`."), None, None, "example"),
    Case(_note("`dist/index.js` is what node runs."), None, None, "ignored build output"),
    Case(
        _note("`gen/pb/orders.pb.go` is rebuilt by `make proto`."),
        None,
        None,
        "ignored generated folder",
    ),
    Case(
        _note("`services/api/src/server.ts:42` starts the listener."),
        None,
        None,
        "existing path with a line",
    ),
    Case(_note("Windows: `services\\worker\\main.go`"), None, None, "existing Windows path"),
    Case(
        _note("Then `./scripts/dev.sh` (it may take a minute)."),
        None,
        None,
        "existing path beside a maybe",
    ),
    Case(
        _note("Send `text/markdown`; release branches are `release/2026-11`."),
        None,
        None,
        "media type and branch",
    ),
    Case(_note("`kubectl -n ferry logs deploy/api`"), None, None, "cluster resource"),
    Case(
        _note("If you need a local config, put it in `services/worker/config.local.toml`."),
        None,
        None,
        "a path in a conditional sentence",
    ),
    Case(
        _note("It'll be in `services/api/src/routes/v3/` once we ship v3."),
        None,
        None,
        "a contracted future",
    ),
    Case(
        _note("`services/api/.env.local` is each developer's own."),
        None,
        None,
        "ignored local file",
    ),
)

AFTER: tuple[Case, ...] = (
    Case(
        _note("Payments config: `services/api/src/config/payments.ts`. Ask Ana if unsure."),
        M,
        3,
        "a claim before an aside with if",
    ),
    Case(
        _note("Ops scripts sit under scripts/ops/ (rotate-keys.sh and friends)."),
        M,
        3,
        "a folder in prose with a slash",
    ),
    Case(
        "# Worker\n\n**In services/worker:**\n\n- the retry policy is `internal/retry/policy.go`\n",
        M,
        5,
        "relative to a package its bold label names",
    ),
    Case(
        _note("`cd packages/ui && ./build.sh --watch` rebuilds the kit."),
        M,
        3,
        "./ file after cd",
    ),
    Case(_note("ADRs: docs/adr/0007-..."), M, 3, "a name cut short with three dots"),
    Case(
        _note("See infra\\terraform\\modules\\vpc\\main.tf for the subnets."),
        M,
        3,
        "Windows path to a gone module",
    ),
    Case(
        _note("The billing settings moved? No: they are in `billing/settings/base.py`."),
        M,
        3,
        "a question then the claim",
    ),
    Case(_note("Rollback steps → `docs/rollback.md`."), M, 3, "a claim after an arrow"),
    Case(
        _note("We'd rather not touch it. `services/worker/internal/queue/dlq.go` holds the DLQ."),
        M,
        3,
        "a claim after a contracted would",
    ),
    Case(
        _note("Health checks: `services/api/src/routes/health.ts` (GET /healthz)."),
        M,
        3,
        "a claim with a URL path beside it",
    ),
    # --- near misses ------------------------------------------------------------------
    Case(
        _note("- [x] moved the seeds; they now live in `scripts/seeds/`"),
        None,
        None,
        "a line that says moved (left alone)",
    ),
    Case(
        _note("Run it with `./scripts/dev.sh --fresh`; it will wipe the DB."),
        None,
        None,
        "existing ./ path beside will",
    ),
    Case(
        "# Worker\n\n**In services/worker:**\n\n- the consumer is `internal/queue/consumer.go`\n",
        None,
        None,
        "existing, relative to a bold label",
    ),
    Case(
        _note("`cd packages/ui && ./node_modules/.bin/vite`"),
        None,
        None,
        "dependencies after cd",
    ),
    Case(_note("ADRs start at docs/adr/0001-..."), None, None, "existing name cut short"),
    Case(
        _note("`kubectl exec -it deploy/api -- cat /app/src/config/runtime.json`"),
        None,
        None,
        "a path in a pod",
    ),
    Case(
        _note("Maybe split `services/api/src/routes/orders.ts` into `routes/orders/`."),
        None,
        None,
        "a maybe naming a folder to come",
    ),
    Case(
        _note("Our routes mirror upstream's `src/routes/users.ts` from fastify-demo."),
        None,
        None,
        "another project's path, first folder nowhere",
    ),
    Case(
        _note("`settings/base.py` holds the Django settings."),
        None,
        None,
        "a package's own short path",
    ),
    Case(
        _note("Logs are at ~/Library/Logs/ferry/api.log on macOS."),
        None,
        None,
        "a path in the user's home",
    ),
    Case(
        _note("`git show origin/main:services/api/src/old.ts` for the old version."),
        None,
        None,
        "a path at another revision",
    ),
)
"""Written after the change and never tuned on (see the module doc)."""


def score(root: Path, *, after: bool = False) -> dict[str, object]:
    """`check_forms.score` of this corpus (`after`: of the batch written after)."""
    return check_forms.score(root, AFTER if after else CASES, CHECKOUT)


def found(root: Path, *, after: bool = False) -> tuple[dict[int, list[Finding]], list[Finding]]:
    """`check_forms.found` of this corpus (`after`: of the batch written after)."""
    return check_forms.found(root, AFTER if after else CASES, CHECKOUT)
