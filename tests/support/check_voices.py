"""A labelled corpus for `memtab check` (issue 83) in the four agents' voices and layouts, of
every claim its rules read — package scripts, make/just/poe/uv targets, programs, paths,
links and anchors, a fact the README states otherwise, a fact two memories disagree on —
in forms `check_forms` and `check_claims` do not use: Claude Code topic files with
frontmatter, Gemini's "Gemini Added Memories" bullets, Codex's learned-facts bullets, xum
notes; `→` chains, tables, blockquotes, numbered steps, fences with a title or `~~~`,
PowerShell blocks, `user@host:dir$` prompts, paths with spaces, accents and line ranges,
links with titles or `%20`, anchors to headings with accents, code and `&`. Near misses:
what is there, plans, removals, examples, other projects', containers', the home's,
hedged facts.

Each case is one memory file of the project `tansy` (its checkout `CHECKOUT`): mux's
project memory, or Claude Code's auto memory (`where="claude"`); a disagreement's other
memory (`pair`) is a newer mux file. `CASES` were written before the change; `AFTER`
after it, never tuned on.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path

from memtab.check.records import Finding
from memtab.sources.claude.source import encode_project_path
from memtab.store.home import Home
from memtab.store.sidecars.registry import add_workspace
from support import check_forms
from support.checkouts import add_to_git

_PACKAGE = {
    "name": "tansy",
    "private": True,
    "scripts": {"dev": "pnpm -r dev", "build": "pnpm -r build", "lint": "eslint .",
                "db:migrate": "node scripts/migrate.mjs", "db:seed": "node scripts/seed.mjs",
                "test:e2e": "playwright test"},
}  # fmt: skip
_WEB = {
    "name": "@tansy/web",
    "scripts": {"dev": "vite", "build": "vite build", "storybook": "storybook dev"},
}
_PAYMENTS_FLOW = (
    "# Payments flow\n\n## Étape 2 : déployer\n\nShip it.\n\n## The `make up` target\n\n"
    "Starts it.\n\n## Retries & back-off\n\nThree tries.\n"
)
CHECKOUT: dict[str, str] = {
    "README.md": "# tansy\n\nA ledger and its web app.\n\n- The web app runs on port 5173.\n"
    "- The ledger API listens on port 8040.\n- The admin panel listens on port 8050.\n"
    "- Database: PostgreSQL 15.\n"
    "- Node 20 for the web app.\n",
    "package.json": json.dumps(_PACKAGE),
    "pnpm-workspace.yaml": "packages:\n  - apps/*\n",
    "Makefile": "setup:\n\t./scripts/setup.sh\nup:\n\tdocker compose up -d\ndown:\n\t"
    "docker compose down\ntest:\n\tpytest\nseed:\n\tpnpm run db:seed\n",
    "justfile": "fmt:\n    ruff format\n\nrelease version:\n    git tag {{version}}\n",
    "pyproject.toml": "[tool.poe.tasks]\nfmt = 'ruff format'\ntypecheck = 'mypy'\n",
    ".gitignore": "node_modules/\ndist/\n.venv/\n",
    "apps/web/package.json": json.dumps(_WEB),
    "apps/web/vite.config.ts": "",
    "apps/web/src/main.tsx": "",
    "apps/web/src/pages/Checkout.tsx": "",
    "apps/web/src/lib/api.ts": "",
    "services/ledger/pyproject.toml": "[project]\nname = 'ledger'\n\n[project.scripts]\n"
    "ledger-cli = 'ledger.cli:main'\n",
    "services/ledger/Makefile": "migrate-up:\n\talembic upgrade head\n",
    "services/ledger/src/ledger/__init__.py": "",
    "services/ledger/src/ledger/posting.py": "",
    "services/ledger/src/ledger/rates.py": "",
    "services/ledger/alembic/env.py": "",
    "tools/tansyctl/main.go": "package main\n",
    "scripts/setup.sh": "#!/bin/sh\n",
    "docs/runbook.md": "# Runbook\n\n## Restore from backup\n\nSteps.\n",
    "docs/Design Notes/payments flow.md": _PAYMENTS_FLOW,
    "docs/références/glossaire.md": "# Glossaire\n",
    ".github/workflows/ci.yml": "on: push\n",
}
"""The checkout (relative path → text): a pnpm monorepo with a Python service."""
UNTRACKED = ("node_modules/.bin/vite", "apps/web/node_modules/.bin/vite")
"""Installed dependencies (ignored by git, on the disk)."""
INSTALLED = ("git", "make", "just", "python", "pytest", "node", "npm", "npx", "pnpm", "yarn",
             "uv", "go", "docker", "poe", "kubectl", "brew", "ruff")  # fmt: skip
"""The machine's programs (nothing else is on PATH)."""

S, P, M, B = "missing-script", "missing-program", "missing-path", "broken-link"
C, D = "code-disagrees", "disagreement"
KINDS = frozenset({S, P, M, B, C, D})


@dataclass(frozen=True)
class Case:
    text: str
    kind: str | None
    """A finding's kind (None: a near miss)."""
    line: int | None
    form: str
    where: str = "memory"
    """`memory`: mux's project memory; `claude`: Claude Code's auto memory of the project."""
    pair: str | None = None
    """A newer memory of the project that states the fact otherwise (a disagreement)."""
    subject: str | None = None
    """The finding's subject, where the line could be found for another."""


def xum(*lines: str) -> str:
    """A mux note: a title, a blank line, then `lines` (the first is line 3)."""
    return "# Note\n\n" + "\n".join(lines) + "\n"


def claude(*lines: str) -> str:
    """A Claude Code topic file: frontmatter, a blank line, then `lines` (from line 7)."""
    head = "---\nname: tansy-note\ndescription: what I learned in tansy\ntype: project\n---\n\n"
    return head + "\n".join(lines) + "\n"


def gemini(*lines: str) -> str:
    """Gemini CLI's saved facts: its heading, then `lines` (from line 2)."""
    return "## Gemini Added Memories\n" + "\n".join(lines) + "\n"


def codex(*lines: str) -> str:
    """A Codex memory: a task heading, a blank line, then `lines` (from line 3)."""
    return "## Learned while working in tansy\n\n" + "\n".join(lines) + "\n"


CASES: tuple[Case, ...] = (
    # --- package scripts and targets ------------------------------------------------------
    Case(
        claude("Reset the DB → `pnpm run db:reset` → `pnpm run db:seed`."),
        S,
        7,
        "a script in a → chain (Claude Code)",
        "claude",
    ),
    Case(
        "# Tasks\n\n| task | command |\n|---|---|\n"
        "| migrate | `make -C services/ledger migrate` |\n",
        S,
        5,
        "make -C a package's Makefile, in a table",
    ),
    Case(
        xum("Cut a release:", "", '```bash title="release"', "just release-candidate 1.4", "```"),
        S,
        6,
        "a just recipe in a fence with a title",
    ),
    Case(
        gemini("- The storybook build is `npm --prefix apps/web run storybook:build`."),
        S,
        2,
        "npm --prefix (Gemini bullet)",
    ),
    Case(
        codex("- `uv run --directory services/ledger ledger-admin` rebuilds the balances."),
        S,
        3,
        "uv run --directory (Codex)",
    ),
    Case(xum("Type-check with `poe check-types` before pushing."), S, 3, "a poe task"),
    Case(xum("```", "$ make seed-demo", "seeding…", "```"), S, 4, "$ prompt, a bare fence"),
    Case(
        xum("On Windows:", "", "```powershell", "npm run dev:windows", "```"),
        S,
        6,
        "a PowerShell block",
    ),
    Case(xum("`cd apps/web; pnpm run lint:css`"), S, 3, "cd with ;"),
    Case(
        claude("Steps:", "1. `make setup`", "2. `make up-db`", "3. `make seed`"),
        S,
        9,
        "numbered steps (Claude Code)",
        "claude",
    ),
    Case(xum("**`make docs-serve`** serves the docs locally."), S, 3, "bold code"),
    Case(xum("[`make lint-all`](Makefile) runs every linter."), S, 3, "code in a link's text"),
    Case(xum("~~~sh", "pnpm --dir apps/web run e2e", "~~~"), S, 4, "pnpm --dir in a ~~~ fence"),
    Case(
        xum("```", "dana@tansy-dev:~/tansy$ make reset-all", "```"),
        S,
        4,
        "a user@host:dir$ prompt",
    ),
    Case(codex("- Unit tests: `yarn run test:unit` (web app)."), S, 3, "yarn run (Codex)"),
    Case(
        xum("`make up` → `make migrate` → open the app"),
        S,
        3,
        "make targets in a → chain",
    ),
    Case(xum("> Tip: `make fixtures` refreshes the golden files."), S, 3, "a blockquote"),
    Case(xum("`npm run build:analyze -- --json` prints the bundle sizes."), S, 3, "npm run --"),
    Case(
        xum("- Setup:", "", "  ```sh", "  just bootstrap", "  ```"),
        S,
        6,
        "a fence indented in a list",
    ),
    Case(gemini("- Drop the dev DB with `pnpm db:drop`."), S, 2, "pnpm X (Gemini)"),
    # --- programs -------------------------------------------------------------------------
    Case(
        xum("```bash", "grpcurl -plaintext localhost:9090 list", "```"),
        P,
        4,
        "a program in a bash block",
    ),
    Case(xum("```console", "$ hyperfine 'make test'", "```"), P, 4, "console prompt"),
    Case(
        claude("Watch the pods with `k9s --context tansy-prod`."),
        P,
        7,
        "a known tool inline (Claude Code)",
        "claude",
    ),
    Case(xum("```zsh", "taplo fmt pyproject.toml", "```"), P, 4, "a zsh block"),
    Case(xum("```shell", "sops -d secrets.enc.yaml > .env", "```"), P, 4, "a redirect"),
    # --- paths ----------------------------------------------------------------------------
    Case(
        xum("Design notes: `docs/Design Notes/refunds flow.md`."),
        M,
        3,
        "a path with spaces",
        subject="docs/Design Notes/refunds flow.md",
    ),
    Case(xum("The lexicon is in `docs/références/lexique.md`."), M, 3, "a path with accents"),
    Case(
        xum("Request: browser → `apps/web/src/lib/api.ts` → `services/ledger/src/ledger/http.py`"),
        M,
        3,
        "paths in a → chain",
    ),
    Case(xum("- entrypoint: apps/web/src/main.ts"), M, 3, "a key: value line"),
    Case(
        "# Map\n\n| part | file |\n|---|---|\n| **Rates** | services/ledger/src/ledger/fx.py |\n",
        M,
        5,
        "a table with a bold label",
    ),
    Case(
        xum(
            "`services/ledger/src/ledger/posting.py:40-58` posts; the reversal is "
            "`services/ledger/src/ledger/reversal.py:12-30`."
        ),
        M,
        3,
        "a path with a line range",
    ),
    Case(gemini("* Migrations live in `services/ledger/migrations/`."), M, 2, "* bullet (Gemini)"),
    Case(xum("`apps/web/src/pages/Cart.tsx#CartSummary` renders totals."), M, 3, "path#symbol"),
    Case(xum("Release workflow: `.github/workflows/release.yml`."), M, 3, "a dot folder"),
    Case(
        codex("- services/ledger/src/ledger/ledger.py owns the posting rules."),
        M,
        3,
        "a path in prose (Codex)",
    ),
    Case(
        "# Map\n\n| app | entry |\n|---|---|\n| web | `apps\\web\\src\\store.ts` |\n",
        M,
        5,
        "a Windows path in a table",
    ),
    Case(xum("3. Edit `apps/web/vite.config.js` for the proxy."), M, 3, "another extension"),
    Case(
        claude("**Why:** the proxy config is in `apps/web/src/proxy.ts`."),
        M,
        7,
        "after a **Why:** label (Claude Code)",
        "claude",
    ),
    Case(xum("Ledger setup is documented (see services/ledger/README.md)."), M, 3, "(see …)"),
    # --- links ----------------------------------------------------------------------------
    Case(xum('Read the [runbook](docs/runbook-v2.md "Runbook") first.'), B, 3, "a link's title"),
    Case(xum("[refunds](docs/Design%20Notes/refund%20flow.md)"), B, 3, "a %20 link"),
    Case(
        xum("[deploy](docs/Design%20Notes/payments%20flow.md#etape-2-deployer)"),
        B,
        3,
        "an anchor without the accents",
    ),
    Case(xum("[restore](docs/runbook.md#restore-a-backup)"), B, 3, "an anchor reworded"),
    Case(xum("CI: [workflow](.github/workflows/ci.yaml)"), B, 3, "a link, other extension"),
    Case(
        xum("See [rollback][rb].", "", '[rb]: docs/runbook.md#rollback "Rollback"'),
        B,
        5,
        "a reference with a title",
    ),
    # --- facts ----------------------------------------------------------------------------
    Case(claude("The web app runs on port 5174."), C, 7, "a port (Claude Code)", "claude"),
    Case(gemini("- The ledger API is on port 8041."), C, 2, "is on port (Gemini)"),
    Case(xum("Postgres v16 in docker compose."), C, 3, "a version with v"),
    Case(codex("- Node.js 22 (see .nvmrc)."), C, 3, "Node.js (Codex)"),
    Case(xum("Pool: `LEDGER_POOL_SIZE=20`."), D, 3, "a setting", pair=xum("`LEDGER_POOL_SIZE=10`")),
    Case(
        claude("Redis 7.2 backs the rate limiter."),
        D,
        7,
        "a version (Claude Code)",
        "claude",
        pair=xum("Redis 6 for the rate limiter."),
    ),
    Case(
        gemini("- The docs site runs on port 4000."),
        D,
        2,
        "a port (Gemini)",
        pair=xum("The docs site runs on :4001."),
    ),
    # --- what a making verb makes: a thing, not the line's path ------------------------
    Case(xum("Use `make bootstrap` to create the local database."), S, 3, "to create a thing"),
    Case(
        "# Guides\n\n| file | read it |\n|---|---|\n"
        "| `docs/guides/onboarding.md` | Before creating a release |\n",
        M,
        5,
        "a table row: before creating a thing",
    ),
    Case(
        codex("- `services/ledger/src/ledger/accounts.py` creates the default accounts."),
        M,
        3,
        "a file that creates a thing (Codex)",
    ),
    Case(gemini("- `just seed-users` creates test users."), S, 2, "a recipe that creates"),
    # --- near misses ----------------------------------------------------------------------
    Case(xum("`pnpm run db:seed` loads fixtures."), None, None, "an existing script"),
    Case(xum("`make -C services/ledger migrate-up`"), None, None, "an existing -C target"),
    Case(xum("`pnpm --filter @tansy/web run storybook:build`"), None, None, "--filter (unchecked)"),
    Case(xum("We will add `make release-notes` next sprint."), None, None, "a plan"),
    Case(xum("`make deploy-old` was removed in October."), None, None, "a removed target"),
    Case(xum("e.g. `just <recipe>` runs a recipe."), None, None, "an example"),
    Case(xum("`cd ../tansy-mobile && npm run ios`"), None, None, "another checkout's script"),
    Case(xum("`docker compose run ledger make migrate`"), None, None, "inside a container"),
    Case(xum("```bash", "go run ./tools/tansyctl", "```"), None, None, "an installed program"),
    Case(
        xum("`brew install grpcurl`, then `grpcurl -plaintext localhost:9090 list`."),
        None,
        None,
        "a program the note installs",
    ),
    Case(xum("`alias k=kubectl`", "", "```sh", "k get pods", "```"), None, None, "an alias"),
    Case(xum("```text", "make reset-all", "```"), None, None, "a text block"),
    Case(xum("`docs/Design Notes/payments flow.md`"), None, None, "an existing path, spaces"),
    Case(xum("`docs/références/glossaire.md`"), None, None, "an existing path, accents"),
    Case(
        xum("https://github.com/tansy/tansy/blob/main/apps/web/src/pages/Old.tsx"),
        None,
        None,
        "a URL",
    ),
    Case(gemini("- Token: `~/.config/tansy/cli.toml`."), None, None, "the home's config"),
    Case(
        xum("In the tansy-mobile repo, `src/screens/Pay.tsx` does this."),
        None,
        None,
        "another repository's path",
    ),
    Case(xum("We will add `apps/web/src/pages/Refunds.tsx` for refunds."), None, None, "a plan"),
    Case(xum("Removed `apps/web/src/legacy/cart.ts` (dead code)."), None, None, "a removal"),
    Case(xum("[flow](docs/Design%20Notes/payments%20flow.md)"), None, None, "an existing %20 link"),
    Case(
        xum("[step 2](docs/Design%20Notes/payments%20flow.md#étape-2--déployer)"),
        None,
        None,
        "an anchor with accents",
    ),
    Case(
        xum("[up](docs/Design%20Notes/payments%20flow.md#the-make-up-target)"),
        None,
        None,
        "an anchor to a heading with code",
    ),
    Case(
        xum("[retries](docs/Design%20Notes/payments%20flow.md#retries--back-off)"),
        None,
        None,
        "an anchor to a heading with &",
    ),
    Case(xum("[client](apps/web/src/lib/api.ts#L12)"), None, None, "a line anchor"),
    Case(xum("The admin panel listens on port 8050."), None, None, "the README's port"),
    Case(xum("Postgres 16 once we upgrade."), None, None, "a hedged version"),
    Case(xum("Vite picks 5174 when 5173 is taken."), None, None, "two ports"),
    Case(xum("Node 20+ works."), None, None, "a version range"),
    Case(xum("For example `make my-target`; targets are kebab-case."), None, None, "an example"),
    Case(xum("`npx playwright test` runs the e2e suite."), None, None, "npx"),
    Case(xum("`pnpm vite build` builds the web app."), None, None, "a tool through pnpm"),
    Case(xum("`uv run pytest -x`"), None, None, "an installed tool through uv"),
    Case(xum("`make up` → `make test` → `make down`"), None, None, "existing → chain"),
    Case(gemini("- My dotfiles: `~/dotfiles/zsh/aliases.zsh`."), None, None, "the home's file"),
    Case(xum("The server reads /etc/tansy/ledger.toml."), None, None, "an absolute path"),
    Case(xum("```powershell", "npm run dev", "```"), None, None, "an existing script, pwsh"),
    Case(xum("```", "dana@tansy-dev:~/tansy$ make seed", "```"), None, None, "an existing target"),
    Case(
        xum("`kubectl -n tansy exec deploy/ledger -- python -m ledger.cli`"),
        None,
        None,
        "in a pod",
    ),
    Case(xum("Create `docs/guides/faq.md` with the FAQ."), None, None, "a file to create"),
    Case(xum("`scripts/setup.sh` creates `config/local.toml`."), None, None, "a file it creates"),
    Case(
        xum("The first run creates the cache in `.cache/tansy/`."),
        None,
        None,
        "where a thing is created",
    ),
    Case(
        xum("`LEDGER_TIMEOUT_S=30` is the default."),
        None,
        None,
        "a hedged setting",
        pair=xum("`LEDGER_TIMEOUT_S=60`"),
    ),
)

AFTER: tuple[Case, ...] = (
    Case(
        claude("Seed order: `make setup` → `make seed` → `make seed-accounts` → log in"),
        S,
        7,
        "a four-step → chain",
        "claude",
    ),
    Case(xum("```", "[dana@tansy-dev tansy]$ just publish", "```"), S, 4, "a [user@host dir]$"),
    Case(xum("```ps1", "PS C:\\src\\tansy> pnpm run clean:win", "```"), S, 4, "a PS prompt"),
    Case(
        codex("- `make -C services/ledger migrate-down` reverses the last migration."),
        S,
        3,
        "a target beside 'migration' (Codex)",
    ),
    Case(gemini("- The admin panel uses port 8051."), C, 2, "uses port (Gemini)"),
    Case(
        xum("Python 3.13 for the ledger service."),
        D,
        3,
        "a language version",
        pair=xum("Python 3.12 for the ledger service."),
    ),
    Case(
        xum("Boot: `apps/web/src/main.tsx` → `apps/web/src/router.tsx` → the page"),
        M,
        3,
        "a path in a chain ending in words",
    ),
    Case(
        claude("Specs: `docs/Design Notes/ledger spec.md`"),
        M,
        7,
        "a path with spaces (Claude Code)",
        "claude",
        subject="docs/Design Notes/ledger spec.md",
    ),
    Case(
        xum("- `docs/références/index des termes.md` — the terms."),
        M,
        3,
        "accents and spaces",
        subject="docs/références/index des termes.md",
    ),
    Case(
        "# Tasks\n\n| task | command |\n|---|---|\n| e2e | `pnpm --dir apps/web run test:e2e` |\n",
        S,
        5,
        "pnpm --dir in a table",
    ),
    Case(xum("> **Note:** `just lint` checks everything."), S, 3, "a blockquote note"),
    Case(
        xum("[étape 3](<docs/Design Notes/payments flow.md#étape-3>)"),
        B,
        3,
        "an accented anchor that is gone",
    ),
    Case(
        codex(
            "- `services/ledger/src/ledger/rates.py` → `services/ledger/src/ledger/fx/convert.py`"
            " → ledger entries"
        ),
        M,
        3,
        "a data flow (Codex)",
    ),
    Case(xum("```bash", "step ca bootstrap --ca-url https://ca.tansy.dev", "```"), P, 4, "step"),
    # --- near misses ----------------------------------------------------------------------
    Case(xum("```ps1", "Get-ChildItem apps/web/src", "```"), None, None, "a cmdlet"),
    Case(
        xum("```powershell", "Set-Location apps/web; npm run dev", "```"),
        None,
        None,
        "a cmdlet then a script",
    ),
    Case(xum("`scripts/setup.sh` → `scripts/bootstrap.sh`"), None, None, "a rename by an arrow"),
    Case(xum("`docs/Design Notes/payments flow.md` is the spec."), None, None, "spaces, there"),
    Case(xum("```", "[dana@tansy-dev tansy]$ make up", "```"), None, None, "a target, there"),
    Case(xum("The web app runs on port 5173 locally, 443 in prod."), None, None, "two ports"),
    Case(
        xum("`make migrate-up` applies the migrations (services/ledger)."),
        None,
        None,
        "a package's target",
    ),
    Case(xum("Open `docs/Design Notes/` in the editor."), None, None, "a folder with a space"),
    Case(xum("```", "PS C:\\> Write-Host done", "```"), None, None, "a PS prompt's cmdlet"),
    # --- written after the making verbs were read by their object -------------------------
    Case(
        claude("Run `make venv` to create the virtualenv."),
        S,
        7,
        "to create (Claude Code)",
        "claude",
    ),
    Case(
        "# Guides\n\n| file | when |\n|---|---|\n"
        "| `docs/guides/releasing.md` | When creating a tag |\n",
        M,
        5,
        "a table row: when creating a thing",
    ),
    Case(codex("- `pnpm run db:create` creates the dev database."), S, 3, "a script that creates"),
    Case(
        gemini("- The signup form is `apps/web/src/pages/Signup.tsx`; it creates the account."),
        M,
        2,
        "a file, then what it creates (Gemini)",
    ),
    Case(xum("`make setup` creates the `config/dev.toml` file."), None, None, "a file it creates"),
    Case(xum("We create `tmp/exports/` on demand."), None, None, "a folder made on demand"),
    Case(
        claude("Creating branches: `git switch -c feat/<name>`"), None, None, "a branch", "claude"
    ),
    # --- written after the verbs of using a port were read --------------------------------
    Case(
        gemini("- The webhook relay exposes port 9000."),
        D,
        2,
        "exposes port (Gemini)",
        pair=xum("The webhook relay exposes port 9001."),
    ),
    Case(
        claude("The search sidecar binds to port 7701."),
        D,
        7,
        "binds to port (Claude Code)",
        "claude",
        pair=xum("The search sidecar runs on port 7700."),
    ),
    Case(
        xum("The web metrics port is 9100."),
        None,
        None,
        "another port of one service",
        pair=xum("The web stats port is 9200."),
    ),
    Case(xum("Nothing uses port 5432 besides Postgres."), None, None, "nothing uses a port"),
    Case(xum("The metrics port 9100 and the debug port 9200 are open."), None, None, "two ports"),
)


def lay_out(root: Path, cases: tuple[Case, ...]) -> tuple[Home, str]:
    """The corpus as a home in `root`: the home and its workspace."""
    home = Home(root / "home")
    checkout = home.root / "src" / "tansy"
    for relative, text in {**CHECKOUT, **dict.fromkeys(UNTRACKED, "")}.items():
        path = checkout / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    add_to_git(checkout)
    workspace = add_workspace(home, str(checkout), "main", workspace_path=str(checkout))
    memory = home.project_root(str(checkout))
    memory.mkdir(parents=True, exist_ok=True)
    claude_home = root / "agents" / "claude"
    session = claude_home / "projects" / encode_project_path(str(checkout))
    (session / "memory").mkdir(parents=True)
    transcript = {
        "type": "user",
        "cwd": str(checkout),
        "message": {"role": "user", "content": "hi"},
    }
    (session / "0d7b9f4e-session.jsonl").write_text(json.dumps(transcript) + "\n", encoding="utf-8")
    for number, case in enumerate(cases):
        folder = session / "memory" if case.where == "claude" else memory
        path = folder / f"case-{number}.md"
        path.write_text(case.text, encoding="utf-8")
        os.utime(path, (1_700_000_000, 1_700_000_000))  # older than its pair
        if case.pair is not None:
            (memory / f"pair-{number}.md").write_text(case.pair, encoding="utf-8")
    home.memtab_dir.mkdir(parents=True, exist_ok=True)
    sources = {"isolated": True, "claude-code": {"enabled": True, "path": str(claude_home)}}
    (home.memtab_dir / "sources.json").write_text(json.dumps(sources), encoding="utf-8")
    return home, workspace


def found(root: Path, cases: tuple[Case, ...]) -> tuple[dict[int, list[Finding]], list[Finding]]:
    """Each case's findings of `KINDS`, and those of no case's file."""
    home, workspace = lay_out(root, cases)
    return check_forms.by_case(root, home, workspace, KINDS, INSTALLED)


def _hits(case: Case, finding: Finding) -> bool:
    return check_forms.on_its_line(case, finding) and case.subject in (None, finding.subject)


def score(root: Path, *, after: bool = False) -> dict[str, object]:
    """Recall over the cases (found on their line, of their kind, about their subject),
    precision over what is found, the near misses flagged and the findings of no case's
    file."""
    cases = AFTER if after else CASES
    return check_forms.tally(cases, *found(root, cases), hits=_hits)
