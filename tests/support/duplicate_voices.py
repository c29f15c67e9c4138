"""A labelled set of whole memories for `memtab duplicates` (issue 83), written apart from
the trust corpus and the other case sets, in voices they do not use: terse bullets, long
prose, Claude Code's frontmatter files, Codex's memory summary, Gemini CLI's GEMINI.md, a
team's CLAUDE.md; British and American spelling; imperative, first and third person,
passive; "we use X", "X is our Y", "prefer X over Y", "stick to X", "moved off Y to X".

Each `Case` is two memories. `duplicate` cases say one thing twice — `reworded`, the same
rule kept in global memory and a project's (`global-project`), prose and bullets
(`prose-bullets`) — and must be in one group. `neither` cases share a subject or a frame
and not a claim — `subject` (a URL and a page under it, a person's profile and a summary
naming them, two lines naming the same maintainer), `opposite` (the same rule and its
denial: a group of them is a polarity group), `narrower` (a general rule and a narrower
one), `value` (the same frame, another value) — and must not be. Every memory's other
lines are its own, so a group joining two cases is wrong too.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from memtab.check.documents import Document
from support.seeded_memories import memory, unique_names

Expected = Literal["duplicate", "neither"]


@dataclass(frozen=True)
class Note:
    place: str
    name: str
    text: str


@dataclass(frozen=True)
class Case:
    kind: str
    expected: Expected
    one: Note
    other: Note


def _claude(name: str, description: str, kind: str, body: str) -> str:
    return f"---\nname: {name}\ndescription: {description}\ntype: {kind}\n---\n\n{body}\n"


CASES: tuple[Case, ...] = (
    # -- the same rule in other words ---------------------------------------------------
    Case("reworded", "duplicate",
         Note("global", "packaging.md",
              "# Packaging\n\n- Stick to uv for Python environments; pip-tools is gone.\n"
              "- Wheels are built in CI only.\n"),
         Note("claude:ledgerline", "feedback_uv.md",
              _claude("uv only", "Python envs are managed with uv", "feedback",
                      "We moved off pip-tools to uv for every Python environment.\n\n"
                      "**Why:** lock resolution took minutes with pip-compile."))),
    Case("reworded", "duplicate",
         Note("global", "colour.md",
              "# Colour\n\nThe colour palette comes from the design tokens in "
              "`tokens/colours.json`; never hard-code a hex value in a component.\n"),
         Note("project:kestrel-web", "styling.md",
              "# Styling notes\n\n- Hex colors are banned in components — take them from "
              "`tokens/colours.json`.\n- Storybook runs on every PR.\n")),
    Case("reworded", "duplicate",
         Note("codex", "memory_summary.md",
              "# Memory summary\n\n## Preferences\n\n"
              "- The user wants British spelling in user-facing strings (colour, licence, "
              "organise).\n- The user reviews diffs in the terminal, not the browser.\n"),
         Note("claude:ledgerline", "feedback_spelling.md",
              _claude("spelling", "UI copy is British English", "feedback",
                      "User-facing strings use British spelling: colour, licence, organise.\n"
                      "\n**How to apply:** in `locales/en-GB.json` and error messages."))),
    Case("reworded", "duplicate",
         Note("global", "shell.md",
              "# Shell\n\n- Scripts start with `set -euo pipefail`.\n"
              "- Quote every variable expansion.\n"),
         Note("gemini", "GEMINI.md",
              "## Gemini Added Memories\n- Every bash script I write should open with "
              "`set -euo pipefail`.\n- The user's laptop is an M2 MacBook Air.\n")),
    Case("reworded", "duplicate",
         Note("project:ledgerline", "money.md",
              "# Money\n\nAmounts are held as integer pence in `Money` objects; floats are "
              "banned for currency anywhere in the ledger.\n"),
         Note("claude:ledgerline", "project_money.md",
              _claude("money type", "currency is integer pence", "project",
                      "Never use floats for currency — the ledger keeps amounts as integer "
                      "pence (`Money`).\n\nRounding happens once, at display time."))),
    Case("reworded", "duplicate",
         Note("project:kestrel-web", "i18n.md",
              "# i18n\n\nWe use FormatJS for translations; react-intl's `<FormattedMessage>` "
              "is the only way strings reach the page.\n"),
         Note("claude:kestrel-web", "reference_i18n.md",
              _claude("i18n", "translations", "reference",
                      "FormatJS is our i18n library. Strings reach the page through "
                      "`<FormattedMessage>` only.\n\nCatalogues live in `lang/`."))),
    Case("reworded", "duplicate",
         Note("global", "reviews.md",
              "# Reviews\n\nI'd like review comments prefixed with `nit:` when they are "
              "optional, so I know what I can skip.\n"),
         Note("project:ledgerline", "review.md",
              "# Review etiquette\n\n- Optional review comments are prefixed `nit:`.\n"
              "- Two approvals for anything under `ledger/core`.\n")),
    Case("reworded", "duplicate",
         Note("project:harrow", "db.md",
              "# Database\n\n- Postgres 16 via the `harrow-db` compose service.\n"
              "- Migrations are written with Alembic and reviewed by Ines.\n"),
         Note("claude:harrow", "project_alembic.md",
              _claude("migrations", "who reviews schema changes", "project",
                      "Schema changes: Alembic migrations, and Ines reviews every one.\n\n"
                      "She is in Lisbon, so expect replies before 17:00 UTC."))),
    Case("reworded", "duplicate",
         Note("global", "editor.md",
              "# Editor\n\nIndent YAML with two spaces, never tabs.\n"),
         Note("project:harrow", "ops.md",
              "# Ops\n\n- YAML files are indented by two spaces; tabs are not allowed.\n"
              "- Helm charts live in `deploy/charts`.\n")),
    Case("reworded", "duplicate",
         Note("project:kestrel-web", "api-client.md",
              "# API client\n\nThe generated client in `src/api/gen` is regenerated from "
              "`openapi.yaml` with `pnpm gen:api`; nobody edits it by hand.\n"),
         Note("claude:kestrel-web", "feedback_api-gen.md",
              _claude("generated client", "don't hand-edit src/api/gen", "feedback",
                      "Don't hand-edit anything in `src/api/gen` — rerun `pnpm gen:api` "
                      "after changing `openapi.yaml`."))),
    # -- the same rule in global memory and a project's ---------------------------------
    Case("global-project", "duplicate",
         Note("global", "commits.md",
              "# Commits\n\n- Sign every commit with my SSH key (`git commit -S`).\n"
              "- Subject lines under 72 characters.\n"),
         Note("team:harrow", "CLAUDE.md",
              "# Harrow team notes\n\n- Commits must be signed (`git commit -S`); unsigned "
              "ones are rejected by the server hook.\n- The staging cluster is `harrow-stg`."
              "\n")),
    Case("global-project", "duplicate",
         Note("claude-user", "testing.md",
              "# Testing\n\nWhen a test is flaky, quarantine it with the `flaky` marker "
              "and open a ticket; don't just rerun CI until it goes green.\n"),
         Note("project:harrow", "ci.md",
              "# CI\n\n- Flaky tests get the `flaky` marker and a ticket — rerunning CI "
              "until it passes is not a fix.\n- CI images are pinned by digest.\n")),
    Case("global-project", "duplicate",
         Note("gemini", "GEMINI.md",
              "## Gemini Added Memories\n- Prefer `rg` over `grep` when searching code.\n"
              "- The user's name is Tomasz.\n"),
         Note("project:kestrel-web", "tools.md",
              "# Tools\n\nSearch the code with ripgrep (`rg`) rather than grep; it skips "
              "`node_modules` by itself.\n")),
    Case("global-project", "duplicate",
         Note("global", "python.md",
              "# Python\n\nType hints on every public function; `mypy --strict` must "
              "pass.\n"),
         Note("claude:ledgerline", "feedback_typing.md",
              _claude("typing", "strict mypy", "feedback",
                      "All public functions are type-annotated and the code passes "
                      "`mypy --strict`.\n\n**Why:** the ledger's arithmetic bugs were type "
                      "bugs."))),
    Case("global-project", "duplicate",
         Note("codex", "memory_summary.md",
              "# Summary\n\n- User asks that destructive git commands (`reset --hard`, "
              "`push --force`) are never run without confirmation.\n"),
         Note("project:ledgerline", "git.md",
              "# Git\n\n- Never run `git reset --hard` or `git push --force` without asking "
              "first.\n- Release branches are `release/YYYY.MM`.\n")),
    Case("global-project", "duplicate",
         Note("global", "docs.md",
              "# Docs\n\n- Every new CLI flag gets a line in the changelog.\n"),
         Note("team:kestrel-web", "CLAUDE.md",
              "# Kestrel web\n\n## Conventions\n\n- A new CLI flag needs a changelog "
              "entry.\n- The design review is on Thursdays.\n")),
    Case("global-project", "duplicate",
         Note("claude-user", "comms.md",
              "# Communication\n\nAnswer in English even when I write in Polish.\n"),
         Note("project:harrow", "people.md",
              "# People\n\n- Tomasz writes in Polish sometimes; always answer him in "
              "English.\n- Ines owns the database.\n")),
    Case("global-project", "duplicate",
         Note("global", "deps.md",
              "# Dependencies\n\nPin direct dependencies to exact versions; no caret "
              "ranges.\n"),
         Note("claude:kestrel-web", "feedback_pinning.md",
              _claude("pinning", "exact versions", "feedback",
                      "Direct dependencies are pinned to an exact version in "
                      "`package.json` — caret ranges are not allowed."))),
    # -- prose and bullets --------------------------------------------------------------
    Case("prose-bullets", "duplicate",
         Note("project:harrow", "incidents.md",
              "# Incidents\n\nWhen production is down, the first thing we do is post in "
              "#harrow-incident and page the on-call engineer through Opsgenie; only after "
              "that does anyone start debugging.\n"),
         Note("claude:harrow", "reference_incident.md",
              _claude("incident", "what to do first when prod is down", "reference",
                      "Prod down:\n- post in #harrow-incident\n- page on-call via "
                      "Opsgenie\n- then debug"))),
    Case("prose-bullets", "duplicate",
         Note("project:ledgerline", "release.md",
              "# Release\n\n- tag `vYYYY.MM.N` on main\n- `make publish` uploads to the "
              "internal index\n- announce in #ledger-releases\n"),
         Note("codex", "ledger-release.md",
              "# Releasing ledgerline\n\nTo release, tag main as `vYYYY.MM.N`, run "
              "`make publish` to upload to the internal index, and announce it in "
              "#ledger-releases.\n")),
    Case("prose-bullets", "duplicate",
         Note("global", "pairing.md",
              "# Pairing\n\nWhen we pair, I drive and you navigate: propose the next step, "
              "wait for my go-ahead, and keep each change small enough to review in a "
              "minute.\n"),
         Note("claude-user", "pairing.md",
              "# Pair mode\n\n- I drive, you navigate\n- propose the next step\n"
              "- wait for go-ahead\n- each change reviewable in a minute\n")),
    Case("prose-bullets", "duplicate",
         Note("project:kestrel-web", "perf.md",
              "# Performance budget\n\nThe landing page ships under 170 KB of JavaScript, "
              "gzipped, and Lighthouse performance stays at 90 or above; CI fails the "
              "build otherwise.\n"),
         Note("team:kestrel-web", "perf-budget.md",
              "# Perf budget\n\n- landing page JS ≤ 170 KB gzipped\n- Lighthouse "
              "performance ≥ 90\n- CI fails the build if either is broken\n")),
    # -- near misses: the same subject, another claim -----------------------------------
    Case("subject", "neither",
         Note("project:harrow", "links.md",
              "# Links\n\n- Runbooks: https://wiki.harrow.dev/ops\n- Status page: "
              "https://status.harrow.dev\n"),
         Note("claude:harrow", "reference_failover.md",
              _claude("failover", "db failover runbook", "reference",
                      "DB failover runbook: https://wiki.harrow.dev/ops/db-failover — "
                      "promote the replica with `patronictl failover`."))),
    Case("subject", "neither",
         Note("claude:ledgerline", "user_profile.md",
              _claude("user", "who the user is", "user",
                      "Tomasz Wiśniewski, staff engineer on ledgerline, based in Kraków. "
                      "Works mostly in Python and Rust.")),
         Note("codex", "memory_summary.md",
              "# Summary of recent work\n\n- Tomasz Wiśniewski (staff engineer, ledgerline) "
              "asked for the reconciliation job to be split into two Celery tasks.\n")),
    Case("subject", "neither",
         Note("project:harrow", "maintainers.md",
              "# Maintainers\n\n- Ines Carvalho — scheduler maintainer, merges and cuts "
              "releases.\n"),
         Note("global", "oss.md",
              "# Open source\n\nInes Carvalho maintains harrow's scheduler; I help with "
              "reviews there on Fridays.\n")),
    Case("subject", "neither",
         Note("project:kestrel-web", "sentry.md",
              "# Sentry\n\n- Sentry: https://sentry.io/organizations/kestrel/projects/web/\n"),
         Note("claude:kestrel-web", "reference_sentry.md",
              _claude("sentry", "source maps", "reference",
                      "Sentry (https://sentry.io/organizations/kestrel/projects/web/): source "
                      "maps are uploaded by `pnpm sentry:sourcemaps` in the release job."))),
    Case("subject", "neither",
         Note("project:ledgerline", "redis.md",
              "# Redis\n\nRedis runs on the `cache-01` host and holds the session store.\n"),
         Note("claude:ledgerline", "project_redis.md",
              _claude("redis memory", "eviction", "project",
                      "Redis on `cache-01` is capped at 2 GB with `allkeys-lru` eviction."))),
    Case("subject", "neither",
         Note("global", "people.md",
              "# People\n\n- Priyanka Rao — engineering manager, kestrel web team.\n"),
         Note("project:kestrel-web", "owners.md",
              "# Owners\n\n- Priyanka Rao approves the kestrel web checkout releases.\n")),
    Case("subject", "neither",
         Note("project:harrow", "grafana.md",
              "# Dashboards\n\n- Grafana: https://grafana.harrow.dev, folder "
              "\"scheduler\".\n"),
         Note("global", "grafana.md",
              "# Grafana\n\nhttps://grafana.harrow.dev/alerting — the scheduler's alerts "
              "page whoever is on call after 5 minutes of failing jobs.\n")),
    Case("subject", "neither",
         Note("project:ledgerline", "vendors.md",
              "# Vendors\n\n- Stripe: payouts and card payments, account `acct_ledger`.\n"),
         Note("claude:ledgerline", "feedback_stripe.md",
              _claude("stripe webhooks", "verify signatures", "feedback",
                      "Stripe webhooks for payouts and card payments must have their "
                      "signature checked before anything is written."))),
    Case("subject", "neither",
         Note("project:kestrel-web", "contributors.md",
              "# Contributors\n\n- Ayo Bankole — maintainer of the design system.\n"),
         Note("claude:kestrel-web", "project_design-system.md",
              _claude("design system", "who to ask", "project",
                      "Ask Ayo Bankole before renaming a design token; the design system's "
                      "Figma file is the source of truth."))),
    Case("subject", "neither",
         Note("global", "runbooks.md",
              "# Runbooks\n\nOur runbooks live at https://wiki.harrow.dev/ops and are "
              "reviewed every quarter.\n"),
         Note("project:harrow", "failover.md",
              "# Failover\n\n- The failover runbook lives at "
              "https://wiki.harrow.dev/ops/db-failover and is reviewed every quarter.\n")),
    Case("subject", "neither",
         Note("claude:kestrel-web", "reference_staging.md",
              _claude("staging", "where staging is", "reference",
                      "Staging: https://staging.kestrel.app/checkout — log in with the "
                      "shared QA account.")),
         Note("project:kestrel-web", "staging.md",
              "# Staging\n\n- Staging: https://staging.kestrel.app/admin — log in with "
              "the shared QA account.\n")),
    Case("subject", "neither",
         Note("global", "harrow-links.md",
              "# harrow\n\n- Docs: https://docs.harrow.dev/guide\n"),
         Note("claude:harrow", "reference_api-docs.md",
              _claude("api docs", "scheduler API reference", "reference",
                      "Scheduler API docs: https://docs.harrow.dev/guide/scheduler-api"))),
    # -- near misses: a rule and its opposite --------------------------------------------
    Case("opposite", "neither",
         Note("global", "merging.md",
              "# Merging\n\nSquash when merging pull requests.\n"),
         Note("project:harrow", "merging.md",
              "# Merging\n\n- Don't squash here: keep every commit of a PR, the release "
              "notes are built from them.\n")),
    Case("opposite", "neither",
         Note("claude-user", "style.md",
              "# Style\n\n- Use emoji in commit messages.\n"),
         Note("project:ledgerline", "style.md",
              "# Style\n\nNo emoji in commit messages, ever.\n")),
    Case("opposite", "neither",
         Note("global", "tests.md",
              "# Tests\n\nMock the database in unit tests.\n"),
         Note("claude:ledgerline", "feedback_db-tests.md",
              _claude("db tests", "real database", "feedback",
                      "Never mock the database in tests — use the real Postgres from "
                      "testcontainers.\n\n**Why:** a mocked ledger passed while the "
                      "migration broke."))),
    Case("opposite", "neither",
         Note("gemini", "GEMINI.md",
              "## Gemini Added Memories\n- Run `terraform apply` yourself once the plan "
              "looks right.\n"),
         Note("project:harrow", "terraform.md",
              "# Terraform\n\n- Never run `terraform apply` yourself; hand me the plan.\n")),
    Case("opposite", "neither",
         Note("global", "pr.md",
              "# PRs\n\nOpen pull requests as drafts first.\n"),
         Note("team:kestrel-web", "CLAUDE.md",
              "# Team notes\n\n- Do not open pull requests as drafts; reviewers ignore "
              "drafts.\n")),
    Case("opposite", "neither",
         Note("codex", "memory_summary.md",
              "# Summary\n\n- The user wants lockfiles committed with every dependency "
              "change.\n"),
         Note("project:kestrel-web", "lockfiles.md",
              "# Lockfiles\n\nLockfiles are not committed in this repo; CI resolves "
              "them.\n")),
    # -- near misses: a general rule and a narrower one ----------------------------------
    Case("narrower", "neither",
         Note("global", "review.md",
              "# Review\n\nRequest a review from Ines for changes to the scheduler.\n"),
         Note("project:harrow", "review.md",
              "# Review\n\n- Request a review from Ines for changes to the scheduler's "
              "retry policy only when the backoff constants move.\n")),
    Case("narrower", "neither",
         Note("global", "logging.md",
              "# Logging\n\nLog in JSON.\n"),
         Note("project:ledgerline", "logging.md",
              "# Logging\n\n- Log in JSON, except in the CLI, which prints plain text.\n")),
    Case("narrower", "neither",
         Note("claude-user", "deploys.md",
              "# Deploys\n\nDeploy with `make deploy`.\n"),
         Note("project:harrow", "deploys.md",
              "# Deploys\n\n- Deploy the scheduler's canary with `make deploy` and the "
              "`CANARY=1` flag on weekdays.\n")),
    Case("narrower", "neither",
         Note("global", "backups.md",
              "# Backups\n\nBack up the database before every migration.\n"),
         Note("project:ledgerline", "backups.md",
              "# Backups\n\n- Back up the database before a migration only when it drops a "
              "column.\n")),
    # -- near misses: the same frame, another value --------------------------------------
    Case("value", "neither",
         Note("project:harrow", "timeouts.md",
              "# Timeouts\n\nThe scheduler's HTTP client times out after 30 seconds.\n"),
         Note("claude:harrow", "project_timeouts.md",
              _claude("timeouts", "webhook client", "project",
                      "The webhook HTTP client times out after 5 seconds."))),
    Case("value", "neither",
         Note("global", "node.md",
              "# Node\n\n- Node 20 for every project.\n"),
         Note("project:kestrel-web", "node.md",
              "# Node\n\nThis project stays on Node 18 until the image pipeline moves.\n")),
    Case("value", "neither",
         Note("project:ledgerline", "ports.md",
              "# Ports\n\n- The ledger API listens on 8400 locally.\n"),
         Note("claude:ledgerline", "reference_ports.md",
              _claude("ports", "local ports", "reference",
                      "The ledger admin listens on 8401 locally."))),
    Case("value", "neither",
         Note("global", "python-version.md",
              "# Python\n\nTarget Python 3.12 in new projects.\n"),
         Note("project:harrow", "python.md",
              "# Python\n\n- harrow targets Python 3.10; the scheduler's host is old.\n")),
)  # fmt: skip

BACKGROUND: tuple[Note, ...] = tuple(
    Note("global" if i % 3 == 0 else f"project:{('harrow', 'ledgerline', 'kestrel-web')[i % 3]}",
         f"bg-{i}.md", f"# Notes {i}\n\n- {line}\n")
    for i, line in enumerate((
        "The office VPN drops every 12 hours; reconnect with `vpnctl up`.",
        "Staging data is refreshed from an anonymised dump on Saturdays.",
        "The mobile team deploys on Wednesdays.",
        "Invoices are generated by the billing worker at month end.",
        "The search cluster has three nodes behind a load balancer.",
        "Feature flags live in Unleash.",
        "Customer exports are CSV with a UTF-8 BOM for Excel.",
        "The public docs build from the `docs/` folder with MkDocs.",
        "Kafka topics are named `<team>.<entity>.<event>`.",
        "Screenshots for the changelog go in `assets/changelog/`.",
        "The data team owns the warehouse models in dbt.",
        "On-call hand-over is Monday at 10:00.",
        "The status page is updated by whoever is incident commander.",
        "Support macros are kept in Zendesk.",
        "The mail relay rejects attachments over 10 MB.",
        "Old feature branches are deleted after 30 days.",
        "The design system's icons come from Lucide.",
        "Load tests use k6 scripts in `perf/`.",
    ))
)  # fmt: skip


@dataclass(frozen=True)
class Score:
    """What the groups found make of the cases: duplicates found (by kind), near misses
    joined (by kind), pairs joined of two cases, polarity groups, and the precision of
    the pairs joined (right: a duplicate case's; wrong: a near miss's or two cases')."""

    found: dict[str, list[int]]
    near: dict[str, list[int]]
    across: list[tuple[str, str]]
    polarity: int
    precision: float


def score(
    groups: list[list[str]], ids: dict[str, tuple[int, str]], cases: Sequence[Case] = CASES
) -> Score:
    """`groups`: each group's members' paths; `ids`: a path → its case number in `cases`
    and side ("a", "b"; a background note's case is -1)."""
    joined: set[frozenset[str]] = set()
    for members in groups:
        for i, one in enumerate(members):
            for other in members[i + 1 :]:
                if one != other:
                    joined.add(frozenset((one, other)))
    by_case = {ids[p]: p for p in ids}
    found: dict[str, list[int]] = {}
    near: dict[str, list[int]] = {}
    right = wrong = polarity = 0
    for number, case in enumerate(cases):
        pair = frozenset((by_case[(number, "a")], by_case[(number, "b")]))
        hit = pair in joined
        counts = (found if case.expected == "duplicate" else near).setdefault(case.kind, [0, 0])
        counts[0] += hit
        counts[1] += 1
        if hit and case.expected == "duplicate":
            right += 1
        elif hit:
            wrong += 1
            polarity += case.kind == "opposite"
    across = sorted(
        tuple(sorted(pair))  # type: ignore[misc]
        for pair in joined
        if len({ids[p][0] for p in pair}) > 1
    )
    wrong += len(across)
    return Score(found, near, across, polarity, right / (right + wrong) if right + wrong else 1.0)


def laid_out(cases: Sequence[Case]) -> tuple[list[Document], dict[str, tuple[int, str]]]:
    """Every case's two notes and the background as memories (each with a unique name: a mux
    project's notes share one folder's names), and `score`'s `ids` of them."""
    notes = [(n, (i, s)) for i, c in enumerate(cases) for s, n in (("a", c.one), ("b", c.other))]
    notes += [(n, (-1, str(j))) for j, n in enumerate(BACKGROUND)]
    places = (("project" if n.place.startswith("project:") else n.place, n.name) for n, _ in notes)
    names = unique_names(places)
    documents = [memory(n.place, name, n.text) for (n, _), name in zip(notes, names, strict=True)]
    ids = {d.path: who for d, (_, who) in zip(documents, notes, strict=True)}
    assert len(ids) == len(documents)
    return documents, ids
