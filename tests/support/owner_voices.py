"""Labelled note pairs for `memtab contradictions` (issue 83) where the two notes name what a
value belongs to differently: a setting, a port, a version, a schedule or a path said of
its thing in one note's sentence and only by the note around it in the other — its heading
("## API" over "- Port: 8000"), the line that opens a config fence ("The API's `.env`:") —
or said as another kind of claim (a path after a label, a version in a table, a schedule
by cron and in words). Near misses: the same key of another service, environment,
product or file, the same value said both ways, a note whose heading names nothing.

`CASES` was written before the readers were changed for it; `AFTER` after, never tuned on.
Each case's notes are built and read as `contradiction_voices.found` builds them (a title
and a filler line each).
"""

from __future__ import annotations

from support.always_never_voices import SCOPES as GLOBAL
from support.contradiction_cases import SAME, C, Case, N
from support.contradiction_voices import CLAUDE, CODEX, TEAM

BILLING = ("global", "project:billing-api")
"""Global memory and the memory of a project whose name says what it is (`billing-api`)."""
BILLING_ONLY = ("project:billing-api", "project:billing-api")

_API_ENV = "The API's `.env`:\n\n```env\nPORT=8080\nLOG_FORMAT=json\n```"
_GATEWAY = "## Gateway\n\n```yaml\nserver:\n  port: 9000\n```"
_PINNED = "| Component | Pinned |\n|---|---|\n| Postgres | 15 |\n| Redis | 7.2 |"

CASES: tuple[Case, ...] = (
    # Settings: whose by a heading, or by a purpose said in other words.
    Case("setting", "- Set `WORKER_CONCURRENCY=4` for the importer.",
         "- `WORKER_CONCURRENCY=8` for the import jobs.", C, SAME),
    Case("setting", "## CI\n\n- `PYTEST_WORKERS=4`", "- CI runs with `PYTEST_WORKERS=8`.", C, SAME),
    Case("setting", "## Production\n\n- `GUNICORN_TIMEOUT=30`",
         "- In production `GUNICORN_TIMEOUT=60`.", C, GLOBAL),
    Case("setting", "## Importer\n\n- `BATCH_SIZE=500`", "- `BATCH_SIZE=1000` for the importer.",
         C, SAME),
    Case("setting", "### Staging\n\n- `DB_POOL_SIZE=10` (pgbouncer in front)",
         "- Staging has `DB_POOL_SIZE=20`.", C, CLAUDE),
    Case("setting", "- The search indexer runs with `INDEX_BATCH=200`.",
         "- `INDEX_BATCH=50` for the search index.", C, SAME),
    # Ports: the service by a heading, an env list's opening line, a YAML section.
    Case("port", "## API\n\n- Port: 8000", "- The API listens on 8080.", C, SAME),
    Case("port", "## Billing service\n\n- Listens on 4100.", "- billing service: port 4200", C,
         SAME),
    Case("port", _API_ENV, "- The API listens on 3000.", C, SAME),
    Case("port", "# Web app\n\nIt serves on port 5173 locally.", "The web app runs on 5174.", C,
         TEAM),
    Case("port", "## Redis\n\n- port: 6380", "- Redis listens on 6379.", C, SAME),
    Case("port", _GATEWAY, "- The gateway listens on 9001.", C, SAME),
    Case("port", "## Mailpit\n\n- UI: http://localhost:8025", "Mailpit's UI is on port 8026.", C,
         CODEX),
    Case("port", "- billing-api listens on 4000.", "- The API listens on 4001.", C, BILLING),
    Case("port", "Billing API: http://localhost:7000", "The API runs on 7001 locally.", C,
         BILLING_ONLY),
    # Versions: in a table whose header says no "version", by a heading, as an image tag.
    Case("version", _PINNED, "- We run Postgres 16.", C, SAME),
    Case("version", "## Node\n\n- Version: 20", "- The frontend builds on Node 22.", C, SAME),
    Case("version", _PINNED, "- We run Redis 6.", C, SAME),
    Case("version", "- The Postgres image tag is `16.2`.", "- Postgres 15 in docker compose.", C,
         SAME),
    Case("version", "| Tool | Pinned at |\n|---|---|\n| Python | 3.11 |\n| Ruff | 0.6 |",
         "This project targets Python 3.12.", C, GLOBAL),
    Case("version", "## Python\n\nCurrent version: 3.11", "We're on Python 3.12 now.", C, SAME),
    Case("version", "## Terraform\n\n- Version: 1.7", "terraform 1.5 (pinned)", C, TEAM),
    Case("version", "- The Go toolchain is `1.22`.", "- Go 1.23 for the CLI.", C, SAME),
    Case("version", "We pin Python to 3.11.", "- Python 3.12 everywhere.", C, SAME),
    Case("version", "Kubernetes cluster version: 1.29", "- We run Kubernetes 1.30.", C, GLOBAL),
    # Schedules: by cron and in words.
    Case("schedule", "- Nightly backup: `0 2 * * *`", "- Backups run every night at 03:00.", C,
         SAME),
    Case("schedule", "- The cleanup cron is `30 4 * * *`.", "- Cleanup runs daily at 05:30.", C,
         SAME),
    Case("schedule", "- `0 9 * * *` — the digest email", "- The digest email goes out at 08:00.",
         C, GLOBAL),
    Case("schedule", "## Reports\n\n- Schedule: `0 6 * * *`", "- Reports are built at 07:15.", C,
         CODEX),
    Case("schedule", "The invoice run's crontab: `0 1 * * *`.",
         "Invoices are generated every day at 2am.", C, SAME),
    # Paths: by a heading over a label, or read from / loaded from.
    Case("path", "## Migrations\n\n- Files: `src/db/migrations/`, one change per file",
         "- Migrations are in `db/migrations/`.", C, SAME),
    Case("path", "## Fixtures\n\n- Location: `tests/fixtures/`",
         "- Fixtures live under `spec/fixtures/`.", C, SAME),
    Case("path", "Settings are read from `config/settings.toml`.",
         "Settings are loaded from `etc/shop/settings.toml`.", C, SAME),
    Case("path", "## Logs\n\n- Path: `/var/log/shop/`", "- Logs are kept in `/srv/logs/shop/`.", C,
         GLOBAL),
    Case("path", "## Email templates\n\n- Folder: `templates/email/`",
         "Email templates sit in `app/mail/templates/`.", C, SAME),
    Case("path", "- Seed data: `db/seeds/`, loaded by `make seed`",
         "- The seed data is in `fixtures/seed/`.", C, SAME),
    # Near misses: another owner, another place, the same value said both ways.
    Case("setting", "## Worker\n\n- `CONCURRENCY=4`", "- `CONCURRENCY=8` for the importer.", N,
         SAME),
    Case("setting", "## Exporter\n\n- `BATCH_SIZE=500`", "- `BATCH_SIZE=1000` for the importer.",
         N, SAME),
    Case("setting", "## Staging\n\n- `GUNICORN_TIMEOUT=30`",
         "- In production `GUNICORN_TIMEOUT=60`.", N, SAME),
    Case("setting", "## CI\n\n- `PYTEST_WORKERS=4`", "- `PYTEST_WORKERS=8` on my laptop.", N,
         SAME),
    Case("setting", "## Importer\n\n- `BATCH_SIZE=500`", "- `BATCH_SIZE=500` for the importer.",
         N, SAME),
    Case("setting", "- `WORKER_CONCURRENCY=4` for the importer.",
         "- `WORKER_CONCURRENCY=8` for the mailer.", N, SAME),
    Case("port", "## API\n\n- Port: 8000", "- The web app listens on 8080.", N, SAME),
    Case("port", "## API\n\n- Port: 8000", "## Web\n\n- Port: 3000", N, SAME),
    Case("port", _API_ENV, "- The admin UI listens on 3000.", N, SAME),
    Case("port", _API_ENV, "- The API listens on 8080.", N, SAME),
    Case("port", "## Billing service\n\n- Listens on 4100.",
         "- The invoicing service listens on 4200.", N, SAME),
    Case("port", _GATEWAY, "- The auth service listens on 9001.", N, SAME),
    Case("port", "## Redis\n\n- port: 6380", "- Postgres listens on 5432.", N, SAME),
    Case("port", "## Staging\n\n- The API listens on 8001.",
         "- In production the API listens on 8000.", N, SAME),
    Case("port", "## Notes\n\n- Port: 8000", "## Notes\n\n- Port: 3000", N, SAME),
    Case("port", "- The API listens on 4000.", "- billing-api listens on 4001.", N, BILLING),
    Case("port", "- The API listens on 4001.", "- The billing worker listens on 4002.", N,
         BILLING_ONLY),
    Case("port", "- billing-api listens on 4000.", "- The web app listens on 4001.", N, BILLING),
    Case("version", _PINNED, "- We run Postgres 15.4.", N, SAME),
    Case("version", _PINNED, "- Node 20 for the frontend.", N, SAME),
    Case("version", "## Node\n\n- Version: 20", "- Python 3.12 for the scripts.", N, SAME),
    Case("version", "## Node\n\n- Version: 20", "- The frontend builds on Node 20.11.", N, SAME),
    Case("version", "- The Postgres image tag is `16.2`.", "- Redis 7 in docker compose.", N,
         SAME),
    Case("version", "- The Postgres image tag is `16.2`.", "- Postgres 16 in docker compose.", N,
         SAME),
    Case("version", "- The Go toolchain is `1.22`.", "- We build with Go 1.22.4.", N, SAME),
    Case("version", "We pin Python to 3.11.", "- Ruby 3.2 for the scripts.", N, SAME),
    Case("version", "- Postgres `max_connections` is 200.", "- Postgres 16 in compose.", N, SAME),
    Case("schedule", "- Nightly backup: `0 2 * * *`", "- The digest email goes out at 03:00.", N,
         SAME),
    Case("schedule", "- Nightly backup: `0 2 * * *`", "- Backups run every night at 02:00.", N,
         SAME),
    Case("schedule", "- The cleanup cron is `30 4 * * *`.", "- Cleanup runs daily at 04:30.", N,
         SAME),
    Case("schedule", "## Reports\n\n- Schedule: `0 6 * * *`",
         "- Invoices are built at 07:15.", N, SAME),
    Case("schedule", "- `0 9 * * *` — the digest email", "- The digest email goes out at 09:00.",
         N, SAME),
    Case("schedule", "- Cache warmup: `*/15 * * * *`", "- The cache warmup starts at 06:00.", N,
         SAME),
    Case("path", "## Migrations\n\n- Files: `src/db/migrations/`, one change per file",
         "- Seeds are in `db/seeds/`.", N, SAME),
    Case("path", "## Fixtures\n\n- Location: `tests/fixtures/`",
         "- Snapshots live in `tests/__snapshots__/`.", N, SAME),
    Case("path", "Settings are read from `config/settings.toml`.",
         "Secrets are read from `config/secrets.toml`.", N, SAME),
    Case("path", "## Logs\n\n- Path: `/var/log/shop/`", "- Backups are kept in `/srv/backups/`.",
         N, SAME),
    Case("path", "## Migrations\n\n- Files: `src/db/migrations/`, one change per file",
         "- Migrations are in `src/db/migrations/`.", N, SAME),
)  # fmt: skip

AFTER: tuple[Case, ...] = (
    Case("port", "### Search (Meilisearch)\n\n- Port 7700, master key in 1Password",
         "Meilisearch listens on 7701 in compose.", C, SAME),
    Case("port", "Notification service — local env:\n\n```\nPORT=4010\nQUEUE=notify\n```",
         "- The notification service runs on port 4020.", C, CLAUDE),
    Case("setting", "## Thumbnailer\n\n- `THUMB_WORKERS=2`",
         "- `THUMB_WORKERS=6` for the thumbnailer.", C, SAME),
    Case("setting", "### QA\n\n- `RATE_LIMIT_RPS=50`", "- QA runs with `RATE_LIMIT_RPS=5`.", C,
         TEAM),
    Case("version", "## Elasticsearch\n\nVersion: 8.11", "Elasticsearch 7.17 in every environment.",
         C, SAME),
    Case("version", "| Runtime | Pinned |\n|---|---|\n| Ruby | 3.2 |\n| Bundler | 2.5 |",
         "- We're on Ruby 3.3 since the upgrade.", C, GLOBAL),
    Case("schedule", "- Sitemap regeneration: `15 3 * * *`",
         "- The sitemap is regenerated nightly at 04:15.", C, SAME),
    Case("schedule", "## Newsletter\n\n- Cron: `0 10 * * 2`", "- The newsletter goes out at 09:00.",
         C, CODEX),
    Case("path", "## Screenshots\n\n- Dir: `docs/img/`, PNG only",
         "- Screenshots are kept in `assets/screens/`.", C, SAME),
    Case("path", "Feature flags are loaded from `config/flags.yml`.",
         "Feature flags are read from `flags/flags.json`.", C, GLOBAL),
    Case("port", "### Search (Meilisearch)\n\n- Port 7700, master key in 1Password",
         "- Typesense listens on 8108.", N, SAME),
    Case("setting", "## Thumbnailer\n\n- `THUMB_WORKERS=2`",
         "- `THUMB_WORKERS=6` for the video encoder.", N, SAME),
    Case("schedule", "- Sitemap regeneration: `15 3 * * *`",
         "- The RSS feed is regenerated nightly at 04:15.", N, SAME),
    Case("path", "## Screenshots\n\n- Dir: `docs/img/`, PNG only",
         "- Fonts are kept in `assets/fonts/`.", N, SAME),
    Case("version", "## Elasticsearch\n\nVersion: 8.11", "Kibana 8.12 in every environment.", N,
         SAME),
)  # fmt: skip
