"""Labelled note pairs for `memtab contradictions` (issue 83): one thing — a service's port,
a tool's version, a setting, a branch, a host — given two values in the forms config and
docs are written in, not sentences: `API_PORT=8000`, `host:port` and URLs, YAML, TOML,
JSON and `.env` in fences, a table's row under its header, version pins and ranges
(`.nvmrc`, `requires-python = ">=3.11"`, `FROM python:3.11-slim`), "defaults to", "set X
to", "bumped to", a value in a sentence's middle — and one value in prose, the other in a
table or a fence. Near misses: two things (the API's port and the DB's), a change told as
history beside its new value, a range that holds the other value, an example, another
environment, another project.

`CASES` was written before the readers were changed for it; `AFTER` after, never tuned on.
Each case's notes are built and read as `contradiction_voices.found` builds them.
"""

from __future__ import annotations

from support.contradiction_cases import Case

SAME = ("project:shop", "project:shop")
CLAUDE = ("claude:shop", "project:shop")
CODEX = ("codex", "project:shop")
GEMINI = ("gemini", "project:shop")
GLOBAL = ("global", "project:shop")
OTHER = ("project:shop", "project:blog")
C, N = "contradiction", "neither"


def _claude(name: str, body: str) -> str:
    return (
        f"---\nname: {name}\ndescription: {name} notes\nmetadata:\n  type: project\n---\n\n{body}"
    )


def _fence(language: str, body: str, before: str = "Config:") -> str:
    return f"{before}\n\n```{language}\n{body}\n```\n"


CASES: tuple[Case, ...] = (
    # Ports: env vars, URLs, host:port, YAML/TOML/JSON, tables, prose.
    Case("port", "- `API_PORT=8000` in `.env`.", "- The API listens on 8080.", C, SAME),
    Case("port", "| Service | URL |\n|---|---|\n| Grafana | http://localhost:3000 |",
         "- Grafana runs on 3001.", C, SAME),
    Case("port", "The auth service is served from :7000.", "- auth: `127.0.0.1:7001`", C, SAME),
    Case("port", _fence("yaml", "worker:\n  port: 9100\n  replicas: 2", "Worker deploy values:"),
         "- The worker exposes port 9200.", C, SAME),
    Case("port", "- Set `GATEWAY_PORT` to 8443.", "- The gateway binds 9443.", C, SAME),
    Case("port", "- Mailhog UI — port 8025", "- `MAILHOG_UI_PORT=8026`", C, SAME),
    Case("port", "- Storybook boots at localhost:6006.",
         _fence("toml", "[storybook]\nport = 6008", "From `dev.toml`:"), C, SAME),
    Case("port", _fence("json", '{\n  "devServer": {\n    "port": 5173\n  }\n}', "webpack dev:"),
         "- The dev server listens on 5174.", C, SAME),
    Case("port", "- The admin panel: https://admin.localhost:8444",
         "- Admin panel → port 8443.", C, SAME),
    Case("port", "- OpenSearch listens on 9200.", "- `OPENSEARCH_PORT=9201`", C, SAME),
    Case("port", _claude("ports", "Temporal's web UI is on 8233."),
         "| component | port |\n|---|---|\n| Temporal UI | 8088 |", C, CLAUDE),
    Case("port", "## Env\n\n```\nREDIS_PORT=6380\nREDIS_DB=2\n```",
         "- Redis: port 6379.", C, SAME),
    Case("port", "- The payments API, which we run in docker, listens on 4010.",
         "- payments API → `localhost:4011`", C, SAME),
    Case("port", "- `ports: [\"9000:9000\"]` is how minio is mapped; MinIO listens on 9000.",
         "- `MINIO_PORT=9002`", C, SAME),
    # Versions: version files, pins, ranges, image tags, tables, "bumped to".
    Case("version", "- `.nvmrc`: 18", "- Node 20 LTS everywhere.", C, SAME),
    Case("version", _fence("toml", '[project]\nrequires-python = ">=3.11"', "pyproject:"),
         "- Python 3.10 only.", C, SAME),
    Case("version", _fence("toml", '[tool.poetry.dependencies]\npython = "^3.11"', "pyproject:"),
         "- We're on Python 3.9.", C, SAME),
    Case("version", "- Bumped Postgres to 16 last sprint.", "- Postgres 15 in compose.", C,
         SAME),
    Case("version", "- compose: `image: redis:7.2`", "- Redis 6.2.", C, SAME),
    Case("version", "- `go 1.21` in go.mod.", "- We build with Go 1.22.", C, SAME),
    Case("version", "## .tool-versions\n\n```\nnodejs 20.11.0\nruby 3.3.0\n```",
         "- Ruby 3.2.", C, SAME),
    Case("version", "- The image is `FROM python:3.11-slim`.", "- Python 3.12 everywhere.", C,
         SAME),
    Case("version", "- TypeScript bumped to 5.4.",
         "| tool | version |\n|---|---|\n| TypeScript | 5.2 |", C, SAME),
    Case("version", "- Java: 17", "- `JAVA_VERSION=21` in CI images.", C, SAME),
    Case("version", "- `.python-version` says 3.11.", "- Python 3.13.", C, CODEX),
    Case("version", "| runtime | version |\n|---|---|\n| node | 18 |\n| pnpm | 8 |",
         "- `engines.node` is `20`.", C, SAME),
    # Settings: YAML/TOML/INI keys, "set X to", "defaults to", tables of variables.
    Case("setting", _fence("yaml", "celery:\n  concurrency: 4", "Worker settings:"),
         "- Celery concurrency is set to 8.", C, SAME),
    Case("setting", "- Set max_connections to 200 in postgresql.conf.",
         "- `max_connections = 100`", C, SAME),
    Case("setting", "| Variable | Value |\n|---|---|\n| `DB_POOL_SIZE` | 20 |",
         "- `DB_POOL_SIZE=10`.", C, SAME),
    Case("setting", _fence("toml", "[tool.ruff]\nline-length = 100", "ruff:"),
         "- Ruff line-length: 88.", C, SAME),
    Case("setting", _fence("ini", "[pytest]\ntimeout = 120", "pytest.ini:"),
         "- The pytest timeout is 300.", C, SAME),
    Case("setting", "- `CACHE_TTL` defaults to 300.", "- `CACHE_TTL=600`", C, SAME),
    Case("setting", "- `NEW_CHECKOUT=true` in the shared env file.",
         "- NEW_CHECKOUT stays `false`.", C, SAME),
    Case("setting", _fence("json", '{\n  "jest": {\n    "maxWorkers": 4\n  }\n}', "package.json:"),
         "- Jest maxWorkers is 2.", C, SAME),
    Case("setting", "- The uploader's chunk size defaults to 8 MB.",
         "- `UPLOAD_CHUNK_SIZE=16MB`", C, SAME),
    Case("setting", "- We set `statement_timeout` to 5000 on the reporting role.",
         "- reporting role: `statement_timeout = 30000`", C, SAME),
    Case("setting", _claude("gunicorn", "Gunicorn's `workers = 3` in gunicorn.conf.py."),
         "- Gunicorn workers: 5.", C, CLAUDE),
    # Branches, hosts, paths, commands.
    Case("branch", "- The default branch is `develop`.",
         "| repo setting | value |\n|---|---|\n| default branch | `main` |", C, SAME),
    Case("branch", _fence("yaml", "release:\n  branch: stable", "release-please:"),
         "- Releases are cut from `release` (the release branch).", C, SAME),
    Case("branch", "- `DEPLOY_BRANCH=production`", "- The deploy branch is `prod`.", C, SAME),
    Case("host", "- `DATABASE_HOST=db.internal`", "- The database host is `pg.internal`.", C,
         SAME),
    Case("host", "- Sentry DSN host: `o123.ingest.sentry.io`",
         "- Sentry host is `sentry.shop.dev`.", C, SAME),
    Case("host", "| env | API host |\n|---|---|\n| staging | api.staging.shop.dev |",
         "- The staging API host is `stg-api.shop.dev`.", C, SAME),
    Case("path", "- `UPLOAD_DIR=/var/lib/shop/uploads`",
         "- The upload dir is `/srv/uploads`.", C, SAME),
    Case("path", _fence("yaml", "logging:\n  path: /var/log/shop", "logging.yml:"),
         "- The logging path is `/tmp/shop-logs`.", C, SAME),
    Case("command", "| task | command |\n|---|---|\n| e2e tests | `pnpm e2e` |",
         "- Run the e2e tests with `npx playwright test`.", C, SAME),
    Case("command", "- `test:` `make check` (in the Makefile notes)",
         "- The test command is `tox -e py`.", C, SAME),
    Case("setting", _fence("env", "WEB_CONCURRENCY=4", "Heroku config:"),
         "- `WEB_CONCURRENCY` is 2.", C, SAME),
    Case("setting", "- The retry budget is `MAX_RETRIES=5`.",
         _fence("yaml", "max_retries: 3", "worker.yml:"), C, SAME),
    Case("port", _fence("yaml", "services:\n  api:\n    port: 8000\n  web:\n    port: 3000",
                        "compose notes:"),
         "- The web app is served on 3001.", C, SAME),
    Case("version", _fence("yaml", "runtime:\n  node: 18", "build image:"),
         "- The build image runs Node 22.", C, SAME),
    Case("host", _fence("toml", "[database]\nhost = \"db-primary.internal\"", "db.toml:"),
         "- The database host is `db-replica.internal`.", C, SAME),
    # Near misses: two things, history, ranges, examples, environments, other projects.
    Case("port", "- `API_PORT=8000`", "- `DB_PORT=5432`", N, SAME),
    Case("port", "- The API moved from 8000 to 8080.", "- API: port 8080", N, SAME),
    Case("port", "| service | port |\n|---|---|\n| api | 8000 |\n| db | 5432 |",
         "- The database listens on 5432.", N, SAME),
    Case("port", _fence("yaml", "services:\n  api:\n    port: 8000\n  web:\n    port: 3000",
                        "compose notes:"),
         "- The API listens on 8000.", N, SAME),
    Case("port", "Example `.env`:\n\n```env\nAPI_PORT=9999\n```", "- The API listens on 8000.",
         N, SAME),
    Case("port", "- Staging API: https://api.staging.shop.dev:8443",
         "- The API listens on 8000 locally.", N, SAME),
    Case("port", "- The blog listens on 4000.", "- The blog listens on 4001.", N, OTHER),
    Case("port", "- Grafana: http://localhost:3000", "- Prometheus: http://localhost:9090", N,
         SAME),
    Case("version", _fence("toml", '[project]\nrequires-python = ">=3.11"', "pyproject:"),
         "- Python 3.12 everywhere.", N, SAME),
    Case("version", "- Terraform `required_version = \"~> 1.5\"`.", "- terraform 1.7", N, SAME),
    Case("version", "- Postgres was bumped from 15 to 16.", "- Postgres 16 in compose.", N,
         SAME),
    Case("version", "- `.nvmrc`: 20", "- Node 20.11 on CI.", N, SAME),
    Case("version", "- compose: `image: redis:7.2`", "- compose: `image: postgres:16`", N, SAME),
    Case("version", "| runtime | version |\n|---|---|\n| node | 20 |\n| pnpm | 8 |",
         "- pnpm 9 is what the blog uses.", N, OTHER),
    Case("version", "- The image is `FROM python:3.11-slim`.",
         "- The docs build runs Sphinx 7.", N, SAME),
    Case("setting", _fence("yaml", "celery:\n  concurrency: 4", "Worker settings:"),
         "- Gunicorn concurrency is set to 8.", N, SAME),
    Case("setting", "- `CACHE_TTL` defaults to 300.", "- `SESSION_TTL=600`", N, SAME),
    Case("setting", "- `DB_POOL_SIZE=10`.", "- `DB_POOL_SIZE=10` (ten connections).", N, SAME),
    Case("setting", "- We raised `max_connections` from 100 to 200.",
         "- `max_connections = 200`", N, SAME),
    Case("setting", "e.g. `WEB_CONCURRENCY=16` on a big dyno.", "- `WEB_CONCURRENCY` is 2.", N,
         SAME),
    Case("setting", _fence("ini", "[pytest]\ntimeout = 120", "pytest.ini:"),
         "- The HTTP client timeout is 300.", N, SAME),
    Case("setting", "| Variable | Value |\n|---|---|\n| `DB_POOL_SIZE` | 20 |\n| `WORKERS` | 4 |",
         "- `WORKERS=4`", N, SAME),
    Case("setting", _fence("json", '{\n  "jest": {\n    "maxWorkers": 4\n  }\n}', "package.json:"),
         "- Vitest maxWorkers is 2.", N, SAME),
    Case("branch", "- The default branch is `main`.",
         "| repo setting | value |\n|---|---|\n| default branch | `main` |", N, SAME),
    # A table naming a row twice lists pairs (an endpoint's methods), not one value a thing.
    Case("setting", "| endpoint | method |\n|---|---|\n| /users | GET |\n| /users | POST |",
         "| endpoint | method | timeout |\n|---|---|---|\n| /users | DELETE | 30s |", N, SAME),
    Case("branch", "- `DEPLOY_BRANCH=production`", "- The docs branch is `gh-pages`.", N, SAME),
    Case("host", "- `DATABASE_HOST=db.internal`", "- `CACHE_HOST=redis.internal`", N, SAME),
    Case("host", "| env | API host |\n|---|---|\n| staging | api.staging.shop.dev |",
         "- The production API host is `api.shop.dev`.", N, SAME),
    Case("host", "- The database host is `db.internal`.", "- The database host is `db.blog`.", N,
         OTHER),
    Case("path", "- `UPLOAD_DIR=/var/lib/shop/uploads`", "- `CACHE_DIR=/var/cache/shop`", N,
         SAME),
    Case("command",
         "| task | command |\n|---|---|\n| e2e tests | `pnpm e2e` |\n| unit | `pnpm test` |",
         "- Run the unit tests with `pnpm test`.", N, SAME),
    Case("port", "- `API_PORT=8000` (was 8080 until May).", "- The API listens on 8000.", N, SAME),
)  # fmt: skip

_ENGINES = _fence("json", '{{\n  "engines": {{\n    "node": "{}"\n  }}\n}}', "package.json:")
AFTER: tuple[Case, ...] = (
    Case("port", "- Keycloak: `KC_HTTP_PORT=8180`", "- Keycloak listens on 8080.", C, SAME),
    Case("port", _fence("yaml", "mailpit:\n  smtp_port: 1025\n  ui_port: 8025", "compose:"),
         "- `MAILPIT_UI_PORT=8026`", C, SAME),
    Case("port", "| Service | Port |\n|---|---|\n| Jaeger UI | 16686 |",
         "- The Jaeger UI runs on 16687.", C, SAME),
    Case("port", _claude("dev", "Flower's dashboard is on localhost:5555."),
         "- `FLOWER_PORT=5566`", C, CLAUDE),
    Case("version", "- `.ruby-version`: 3.1", "- The app runs on Ruby 3.3.", C, SAME),
    Case("version", _ENGINES.format(">=22"),
         "- CI runs Node 18.", C, SAME),
    Case("version", "- Dockerfile: `FROM node:18-alpine`", "- Node 20 everywhere.", C, SAME),
    Case("version", "| dependency | version |\n|---|---|\n| Django | 4.2 |",
         "- We upgraded Django to 5.1.", C, SAME),
    Case("version", _fence("", "python 3.10.4\nnodejs 20.9.0", "`.tool-versions`:"),
         "- The project targets Python 3.12.", C, GEMINI),
    Case("setting", _fence("toml", "[tool.black]\nline-length = 120", "black:"),
         "- Black line-length: 88.", C, SAME),
    Case("setting", "- Set SIDEKIQ_CONCURRENCY to 10.", "- `SIDEKIQ_CONCURRENCY=25`", C, SAME),
    Case("setting", _fence("ini", "[uwsgi]\nprocesses = 4", "uwsgi.ini:"),
         "- uWSGI processes: 8.", C, SAME),
    Case("setting", "| Variable | Value |\n|---|---|\n| `RATE_LIMIT_PER_MIN` | 60 |",
         "- `RATE_LIMIT_PER_MIN=120`", C, SAME),
    Case("branch", "- `RELEASE_BRANCH=release/2.x`", "- The release branch is `stable`.", C, SAME),
    Case("host", "- `SMTP_HOST=smtp.mailgun.org`", "- The SMTP host is `smtp.sendgrid.net`.", C,
         SAME),
    Case("path", _fence("yaml", "backups:\n  dir: /mnt/backups", "backup.yml:"),
         "- The backups dir is `/var/backups/shop`.", C, SAME),
    # Near misses.
    Case("port", "- `KC_HTTP_PORT=8180`", "- `KC_HTTPS_PORT=8443`", N, SAME),
    Case("port", "| Service | Port |\n|---|---|\n| Jaeger UI | 16686 |\n| Jaeger OTLP | 4317 |",
         "- Jaeger OTLP listens on 4317.", N, SAME),
    Case("port", "- We moved Flower from 5555 to 5566.", "- `FLOWER_PORT=5566`", N, SAME),
    Case("version", _ENGINES.format(">=18"),
         "- CI runs Node 22.", N, SAME),
    Case("version", "- Dockerfile: `FROM node:20-alpine`", "- Node 20.11 locally.", N, SAME),
    Case("version", "| dependency | version |\n|---|---|\n| Django | 4.2 |",
         "- The blog runs Django 5.1.", N, OTHER),
    Case("setting", _fence("toml", "[tool.black]\nline-length = 120", "black:"),
         "- isort line-length: 88.", N, SAME),
    Case("setting", "For example:\n\n```env\nSIDEKIQ_CONCURRENCY=50\n```",
         "- `SIDEKIQ_CONCURRENCY=25`", N, SAME),
    Case("setting", "- `RATE_LIMIT_PER_MIN=120` in staging.",
         "- `RATE_LIMIT_PER_MIN=60` in production.", N, SAME),
    Case("host", "- `SMTP_HOST=smtp.mailgun.org`", "- `IMAP_HOST=imap.mailgun.org`", N, SAME),
    Case("path", _fence("yaml", "backups:\n  dir: /mnt/backups\nuploads:\n  dir: /mnt/uploads",
                        "storage.yml:"),
         "- The uploads dir is `/mnt/uploads`.", N, SAME),
)  # fmt: skip
