"""A key given two values in one scope, read from structure (issue 94): a Markdown table's
row × column cell, a key of a fenced config block (`KEY=v`, `key: v`, `key = v`, a
`.tool-versions` line), a command given for one named task, a port, version or path of one
named thing — each beside near misses of the same shape that are no contradiction (another
row, another column, another section, another environment, an example, a value the other
only makes more precise, the same value twice).

Provenance: written by q94 on 28 Nov 2026 for issue 94, from the issue's words alone,
before the readers were changed for it, without reading the trust corpus's halves
(`tests/quality/trust_corpus/`) or their keys. `CASES` is measured before and after; `SECOND`, more
shapes (a fence of shell exports, a Dockerfile's `ENV`, a Makefile's `?=`, a compose file's
port mappings and environment list, a host, a value given in two structures), was written
after `CASES` was measured (all read), before any change; `THIRD` (a list of named mappings,
a TOML inline table, a value said in a sentence and in a config fence) after `SECOND`'s change
was measured, before the next; `FOURTH` (a host's IP address) after the readers that read
`SECOND` and `THIRD` were measured on the halves and taken out (they found none there), before
IP addresses were read; `FIFTH` (a setting's name as a label, an inventory's host variables,
a unit's `Environment=`) after the IP addresses' reader was measured and taken out.
"""

from __future__ import annotations

from support.contradiction_cases import SAME, Case

C, N = "contradiction", "neither"

CASES: tuple[Case, ...] = (
    # A table's cell: one row's one column given two values.
    Case("table cell", "| Service | Port |\n|---|---|\n| api | 4000 |\n| web | 4001 |",
         "| Service | Port |\n|---|---|\n| api | 4100 |", C, SAME),
    Case("table cell", "| Environment | Region |\n|---|---|\n| staging | eu-west-1 |\n"
         "| production | us-east-1 |",
         "| Environment | Region |\n|---|---|\n| staging | eu-central-1 |", C, SAME),
    Case("table cell", "| Queue | Max retries |\n|---|---|\n| emails | 5 |\n| webhooks | 8 |",
         "| Queue | Max retries |\n|---|---|\n| emails | 10 |", C, SAME),
    Case("table cell", "| Job | Schedule |\n|---|---|\n| backup | `0 3 * * *` |\n"
         "| reindex | `0 5 * * 0` |",
         "| Job | Schedule |\n|---|---|\n| backup | `30 1 * * *` |", C, SAME),
    Case("table cell", "| Bucket | Retention days |\n|---|---|\n| logs | 30 |\n| uploads | 365 |",
         "| Bucket | Retention days |\n|---|---|\n| logs | 90 |", C, SAME),
    # …and near misses: another row, another column, the same value, an example.
    Case("table cell", "| Environment | Region |\n|---|---|\n| staging | eu-west-1 |",
         "| Environment | Region |\n|---|---|\n| production | us-east-1 |", N, SAME),
    Case("table cell", "| Service | Port |\n|---|---|\n| api | 4000 |",
         "| Service | Replicas |\n|---|---|\n| api | 3 |", N, SAME),
    Case("table cell", "| Queue | Max retries |\n|---|---|\n| emails | 5 |\n| webhooks | 8 |",
         "| Queue | Max retries |\n|---|---|\n| webhooks | 8 |", N, SAME),
    Case("table cell", "| Bucket | Retention days |\n|---|---|\n| logs | 30 |",
         "| Bucket | Retention days |\n|---|---|\n| uploads | 365 |", N, SAME),
    # A key of a config fence given two values.
    Case("config key", "```env\nREDIS_URL=redis://localhost:6379/0\n```",
         "```env\nREDIS_URL=redis://localhost:6380/0\n```", C, SAME),
    Case("config key", "```env\nWORKER_CONCURRENCY=4\nLOG_FORMAT=json\n```",
         "```\nWORKER_CONCURRENCY=12\n```", C, SAME),
    Case("config key", "```yaml\nsearch:\n  replicas: 2\n  heap: 1g\n```",
         "```yaml\nsearch:\n  replicas: 3\n```", C, SAME),
    Case("config key", "```toml\n[tool.pytest.ini_options]\ntimeout = 30\n```",
         "```toml\n[tool.pytest.ini_options]\ntimeout = 60\n```", C, SAME),
    Case("config key", "```ini\n[worker]\nthreads = 8\n```",
         "```ini\n[worker]\nthreads = 4\n```", C, SAME),
    Case("config key", "```yaml\nservices:\n  postgres:\n    image: postgres:15\n```",
         "```yaml\nservices:\n  postgres:\n    image: postgres:16\n```", C, SAME),
    Case("config key", "```\nnodejs 20.11.0\npython 3.12.1\n```",
         "```\nnodejs 18.19.0\npython 3.12.1\n```", C, SAME),
    Case("config key", "```env\nSESSION_TTL_MINUTES=30\n```",
         "Session settings:\n\n```yaml\nsession_ttl_minutes: 45\n```", C, SAME),
    # …and near misses: another section, another service, a placeholder, the same value.
    Case("config key", "```yaml\nsearch:\n  replicas: 2\n```",
         "```yaml\nindexer:\n  replicas: 3\n```", N, SAME),
    Case("config key", "```ini\n[worker]\nthreads = 8\n```",
         "```ini\n[api]\nthreads = 2\n```", N, SAME),
    Case("config key", "```yaml\nservices:\n  postgres:\n    image: postgres:15\n```",
         "```yaml\nservices:\n  redis:\n    image: redis:7\n```", N, SAME),
    Case("config key", "```env\nREDIS_URL=redis://localhost:6379/0\n```",
         "```env\nREDIS_URL=<your redis url>\n```", N, SAME),
    Case("config key", "```env\nWORKER_CONCURRENCY=4\n```",
         "```env\nWORKER_CONCURRENCY=4\nLOG_FORMAT=json\n```", N, SAME),
    # A command given for one named task.
    Case("task command", "| Task | Command |\n|---|---|\n| lint | `make lint` |\n"
         "| test | `make test` |",
         "| Task | Command |\n|---|---|\n| lint | `ruff check .` |", C, SAME),
    Case("task command", "- Deploy to staging: `./scripts/deploy.sh staging`",
         "- Deploy to staging: `kubectl apply -k overlays/staging`", C, SAME),
    Case("task command", "**Build the docs:** `mkdocs build`",
         "**Build the docs:** `sphinx-build docs site`", C, SAME),
    Case("task command", "## Commands\n\n- seed the database: `make seed`",
         "## Commands\n\n- seed the database: `python manage.py loaddata seed.json`", C, SAME),
    # …and near misses: another task, a command made more precise.
    Case("task command", "- Deploy to staging: `./scripts/deploy.sh staging`",
         "- Deploy to production: `./scripts/deploy.sh production`", N, SAME),
    Case("task command", "- Run the tests: `pytest`", "- Run the tests: `pytest -x -q`", N, SAME),
    Case("task command", "| Task | Command |\n|---|---|\n| lint | `make lint` |",
         "| Task | Command |\n|---|---|\n| format | `make fmt` |", N, SAME),
    # A port, version or path of one named thing, in two structures.
    Case("named thing", "- Grafana: http://localhost:3001",
         "| Service | URL |\n|---|---|\n| Grafana | http://localhost:3002 |", C, SAME),
    Case("named thing", "- Fixtures: `tests/fixtures/`", "- Fixtures: `spec/fixtures/`", C, SAME),
    Case("named thing", "```json\n{\n  \"engines\": {\n    \"node\": \">=20\"\n  }\n}\n```",
         "```\nnodejs 18.19.0\n```", C, SAME),
    Case("named thing", "- Unit fixtures: `tests/unit/fixtures/`",
         "- E2E fixtures: `tests/e2e/fixtures/`", N, SAME),
    Case("named thing", "- Grafana: http://localhost:3001",
         "| Service | URL |\n|---|---|\n| Prometheus | http://localhost:9090 |", N, SAME),
)  # fmt: skip

SECOND: tuple[Case, ...] = (
    # Keys of fences in other languages' assignment forms.
    Case("config key", "```bash\nexport DATABASE_POOL_SIZE=10\n```",
         "```sh\nexport DATABASE_POOL_SIZE=20\n```", C, SAME),
    Case("config key", "```dockerfile\nFROM python:3.12-slim\nENV GUNICORN_WORKERS=4\n```",
         "```env\nGUNICORN_WORKERS=2\n```", C, SAME),
    Case("config key", "```makefile\nAPI_PORT ?= 8000\n```", "```env\nAPI_PORT=8001\n```", C,
         SAME),
    Case("config key", "```yaml\nservices:\n  web:\n    ports:\n      - \"8000:8000\"\n```",
         "```yaml\nservices:\n  web:\n    ports:\n      - \"8001:8000\"\n```", C, SAME),
    Case("config key", "```yaml\nservices:\n  worker:\n    environment:\n"
         "      - CONCURRENCY=4\n```",
         "```yaml\nservices:\n  worker:\n    environment:\n      - CONCURRENCY=8\n```", C,
         SAME),
    Case("config key", "```python\nCELERY_WORKER_CONCURRENCY = 4\n```",
         "```python\nCELERY_WORKER_CONCURRENCY = 8\n```", C, SAME),
    # …and near misses of those shapes.
    Case("config key", "```yaml\nservices:\n  web:\n    ports:\n      - \"8000:8000\"\n```",
         "```yaml\nservices:\n  admin:\n    ports:\n      - \"8001:8000\"\n```", N, SAME),
    Case("config key", "```bash\nexport DATABASE_POOL_SIZE=10\n```",
         "```bash\nexport DATABASE_POOL_SIZE=10\nexport DATABASE_TIMEOUT=5\n```", N, SAME),
    Case("config key", "```python\nfor worker in range(4):\n    concurrency = 4\n```",
         "```python\nconcurrency = 8\n```", N, SAME),
    Case("config key", "```toml\n[tool.poetry.dependencies]\npython = \"^3.11\"\n```",
         "```\npython 3.12.1\n```", N, SAME),
    # A host, a version, a command, a path given in two structures.
    Case("named thing", "| Service | Host |\n|---|---|\n| postgres | db01.lan |",
         "- Postgres host: `db02.lan`", C, SAME),
    Case("named thing", "- Redis host: `cache.internal`", "- Redis host: `redis.internal`", C,
         SAME),
    Case("named thing", "| Tool | Version |\n|---|---|\n| Terraform | 1.6.6 |",
         "```\nterraform 1.7.5\n```", C, SAME),
    Case("named thing", "| Task | Command |\n|---|---|\n| lint | `ruff check .` |",
         "- Lint: `make lint`", C, SAME),
    Case("named thing", "| What | Where |\n|---|---|\n| fixtures | `tests/fixtures/` |",
         "- Fixtures: `spec/fixtures/`", C, SAME),
    Case("named thing", "| Service | Host |\n|---|---|\n| postgres | db01.lan |",
         "- Redis host: `cache01.lan`", N, SAME),
    Case("named thing", "| Tool | Version |\n|---|---|\n| Terraform | 1.6.6 |",
         "```\nterraform 1.6.6\n```", N, SAME),
)  # fmt: skip

THIRD: tuple[Case, ...] = (
    # A list of named mappings: each item's keys are its name's.
    Case("config key", "```yaml\n- hosts: media\n  vars:\n    jellyfin_port: 8096\n```",
         "```yaml\n- hosts: media\n  vars:\n    jellyfin_port: 8097\n```", C, SAME),
    Case("config key", "```yaml\njobs:\n  - name: backup\n    schedule: \"0 3 * * *\"\n"
         "    retention_days: 7\n```",
         "```yaml\njobs:\n  - name: backup\n    retention_days: 14\n```", C, SAME),
    Case("config key", "```yaml\n- hosts: media\n  vars:\n    jellyfin_port: 8096\n```",
         "```yaml\n- hosts: nas\n  vars:\n    jellyfin_port: 8097\n```", N, SAME),
    Case("config key", "```yaml\njobs:\n  - name: backup\n    retention_days: 7\n"
         "  - name: reports\n    retention_days: 30\n```",
         "```yaml\njobs:\n  - name: reports\n    retention_days: 30\n```", N, SAME),
    # A TOML inline table.
    Case("config key", "```toml\n[dependencies]\ntokio = { version = \"1.36\", features = "
         "[\"full\"] }\n```", "```toml\n[dependencies]\ntokio = \"1.38\"\n```", C, SAME),
    Case("config key", "```toml\n[dependencies]\nserde = { version = \"1.0\" }\n```",
         "```toml\n[dependencies]\ntokio = { version = \"1.38\" }\n```", N, SAME),
    # A value said in a sentence and in a config fence.
    Case("named thing", "The API listens on port 8000.", "```env\nAPI_PORT=8001\n```", C, SAME),
    Case("named thing", "Set `GUNICORN_WORKERS` to 4.", "```env\nGUNICORN_WORKERS=8\n```", C,
         SAME),
    Case("named thing", "We run PostgreSQL 15.",
         "```yaml\nservices:\n  db:\n    image: postgres:16\n```", C, SAME),
    Case("named thing", "The API listens on port 8000.", "```env\nADMIN_PORT=8001\n```", N,
         SAME),
)  # fmt: skip

FOURTH: tuple[Case, ...] = (
    Case("address", "- NAS IP: 192.168.1.20", "- NAS IP: 192.168.1.21", C, SAME),
    Case("address", "- The NAS is at 192.168.1.20.", "- NAS: `192.168.1.30`", C, SAME),
    Case("address", "- Pi-hole runs on 192.168.1.2.", "- Pi-hole: 192.168.1.3", C, SAME),
    Case("address", "- NAS IP: 192.168.1.20", "- Router IP: 192.168.1.1", N, SAME),
    Case("address", "- The NAS is at 192.168.1.20 on the LAN.",
         "- The NAS is at 100.64.0.20 over Tailscale.", N, SAME),
    Case("address", "- NAS IP: 192.168.1.20", "- NAS IP: 192.168.1.20 (static lease)", N, SAME),
)  # fmt: skip

FIFTH: tuple[Case, ...] = (
    Case("setting label", "- backup_retention_days: 30", "- backup_retention_days: 14", C, SAME),
    Case("setting label", "- `restic_keep_daily`: 7", "```yaml\nrestic_keep_daily: 14\n```", C,
         SAME),
    Case("setting label", "- `restic_keep_daily`: 7", "- `restic_keep_weekly`: 4", N, SAME),
    Case("setting label", "- backup_retention_days: 30", "- backup_retention_days: 30", N, SAME),
    Case("config key", "```ini\n[media]\nnas ansible_host=192.168.1.20 ansible_user=oskar\n```",
         "```ini\n[media]\nnas ansible_host=192.168.1.21\n```", C, SAME),
    Case("config key", "```ini\n[media]\nnas ansible_host=192.168.1.20\n```",
         "```ini\n[media]\npi ansible_host=192.168.1.21\n```", N, SAME),
    Case("config key", "```ini\n[Service]\nEnvironment=\"JELLYFIN_PORT=8096\"\n```",
         "```env\nJELLYFIN_PORT=8097\n```", C, SAME),
    Case("config key", "```ini\n[Service]\nEnvironment=\"JELLYFIN_PORT=8096\"\n```",
         "```env\nJELLYFIN_CACHE_DIR=/var/cache/jellyfin\n```", N, SAME),
)  # fmt: skip

SIXTH: tuple[Case, ...] = (
    # A plus joining two products ("Redis 7 + Sentinel"): the first one's version.
    Case("named thing", "- Cache: Redis 7 + Sentinel.", "- We run Redis 6.", C, SAME),
    Case("named thing", "- Cache: Redis 7 + Sentinel.", "- Cache: Redis 7.", N, SAME),
    # A program's long flag, in its command or said of it, and its own config file's key.
    Case("program flag", "- Start the app with `uvicorn shop.asgi:app --workers 4`.",
         "- Uvicorn runs with `--workers 2` in the container image.", C, SAME),
    Case("program flag", "- Start the app with `uvicorn shop.asgi:app --workers 4`.",
         "- Start the app with `hypercorn shop.asgi:app --workers 2`.", N, SAME),
    Case("program flag", "- Gunicorn's own file, `etc/gunicorn.conf.py`:\n\n"
         "```python\nthreads = 4\nkeepalive = 5\n```",
         "- The Procfile starts `gunicorn shop.wsgi --threads 8`.", C, SAME),
    Case("program flag", "- Gunicorn's own file, `etc/gunicorn.conf.py`:\n\n"
         "```python\nthreads = 4\n```",
         "- The Procfile starts `gunicorn shop.wsgi --timeout 8`.", N, SAME),
    Case("program flag", "```python\nthreads = 4\n```",
         "- The Procfile starts `gunicorn shop.wsgi --threads 8`.", N, SAME),
    # A bound ("up to 100") is no port.
    Case("bound", "- Lines up to 100 characters.",
         "- Lines up to 80 characters in the docs folder.", N, SAME),
)  # fmt: skip
"""Written by v99 on 28 Nov 2026 (issue 94) for the readings of a product joined by a plus,
a program's long flag and its config file's fence, and a bound read as a port — before they
were read."""

SEVENTH: tuple[Case, ...] = (
    # A timeout of one named thing, in seconds or milliseconds, said as a noun or a verb.
    Case("timeout", "- Requests to the geocoder time out after 3s.",
         "- The geocoder client has an 8 second timeout.", C, SAME),
    Case("timeout", "- The Stripe timeout is 10000 ms.", "- Stripe calls time out after 30 s.", C,
         SAME),
    Case("timeout", "- Requests to the geocoder time out after 3s.",
         "- The geocoder client has a 3000 ms timeout.", N, SAME),
    Case("timeout", "- Requests to the geocoder time out after 3s.",
         "- Postgres `statement_timeout` is 30s.", N, SAME),
    Case("timeout", "- Stripe calls time out after 10 s in staging.",
         "- Stripe calls time out after 30 s in production.", N, SAME),
    # A setting assigned in a code span with spaces around its "=", its name a word that
    # also means an example ("SAMPLE_…": the name, not the sentence, says "sample").
    Case("spaced setting", "- `SAMPLE_RATE_HZ = 50`: the accelerometer is read at fifty hertz.",
         "- `SAMPLE_RATE_HZ` is 100 so the vibration peaks show.", C, SAME),
    Case("spaced setting", "- `SAMPLE_RATE_HZ = 50`: the accelerometer is read at fifty hertz.",
         "- `SAMPLE_COUNT = 100`: enough for the vibration peaks.", N, SAME),
    Case("spaced setting", "- `SAMPLE_RATE_HZ = 100`: enough for the vibration peaks.",
         "- The sensor task sets `SAMPLE_RATE_HZ=100`.", N, SAME),
    # A port of the service the project's name names, and of a service a command starts.
    Case("named thing", "- The shop API listens on port 8000.",
         "- Locally the API runs on port 8010.", C, SAME),
    Case("named thing", "- The shop API listens on port 8000.",
         "- The admin API runs on port 8010.", N, SAME),
    Case("named thing", "- `make lab` opens JupyterLab on port 8888.",
         "- JupyterLab listens on 8890.", C, SAME),
    Case("named thing", "- `make lab` opens JupyterLab on port 8888.",
         "- `make docs` opens MkDocs on port 8890.", N, SAME),
)  # fmt: skip
"""Written by x101 on 28 Nov 2026 (issue 94), in its own words, after reading the trust
corpus's fresh2 and fresh3 misses, before the readings of a timeout, a setting's spaced `=`, a
service the project's name names and one a command starts (the first and last taken out: none
found on held-out or fresh4)."""

EIGHTH: tuple[Case, ...] = (
    # A table's row whose name says what its value is: the column's header is no part of it.
    Case("table cell", "| What | Where |\n|---|---|\n| Grafana port | 3001 |",
         "- Grafana listens on port 3000.", C, SAME),
    Case("table cell", "| What | Where |\n|---|---|\n| Grafana port | 3000 |",
         "- Grafana listens on port 3000.", N, SAME),
    Case("table cell", "| What | Where |\n|---|---|\n| Loki port | 3100 |",
         "- Grafana listens on port 3000.", N, SAME),
    # One row in two tables, alike in every cell but one (their headers other words).
    Case("table row", "| board | bus | addr |\n|---|---|---|\n| SHT31 | i2c-0 | 0x44 |",
         "| chip | link | setting |\n|---|---|---|\n| SHT31 | i2c-0 | 0x45 |", C, SAME),
    Case("table row", "| board | bus | addr |\n|---|---|---|\n| SHT31 | i2c-0 | 0x44 |",
         "| chip | link | setting |\n|---|---|---|\n| SHT31 | i2c-1 | 0x45 |", N, SAME),
    Case("table row", "| board | bus | addr |\n|---|---|---|\n| SHT31 | i2c-0 | 0x44 |",
         "| chip | link | supply |\n|---|---|---|\n| SHT31 | i2c-0 | 3.3V |", N, SAME),
    Case("table row", "| board | bus | addr |\n|---|---|---|\n| SHT31 | i2c-0 | 0x44 |",
         "| chip | link | setting |\n|---|---|---|\n| SHT35 | i2c-0 | 0x45 |", N, SAME),
    # A HOCON (or nginx) block's keys under its name.
    Case("config key", "```hocon\ndatabase {\n  poolSize = 8\n}\n```",
         "```hocon\ndatabase {\n  poolSize = 16\n}\n```", C, SAME),
    Case("config key", "```hocon\ndatabase {\n  poolSize = 8\n}\n```",
         "```hocon\ncache {\n  poolSize = 16\n}\n```", N, SAME),
    # A package's version in a TOML inline table or a dependencies section.
    Case("version", '```toml\n[dependencies]\naxum = { version = "0.7", features = [] }\n```',
         "- The web layer is Axum 0.6.", C, SAME),
    Case("version", '```toml\n[dependencies]\naxum = { version = "0.7", features = [] }\n```',
         "- The web layer is Axum 0.7.5.", N, SAME),
    Case("version", '```toml\n[dependencies]\nhyper = "1.2"\n```',
         "- The web layer is Axum 0.6.", N, SAME),
    Case("version", '```toml\n[dependencies]\nhyper = "1.2"\n```',
         '```toml\n[dependencies]\nhyper = "0.14"\n```', C, SAME),
    # Java's version said as a JDK's; a number before "so" is no count.
    Case("version", "- The service builds on JDK 17.", "- The Gradle build targets Java 21.", C,
         SAME),
    Case("version", "- The service builds on JDK 17.", "- The Gradle build targets Java 17.", N,
         SAME),
    Case("version", "- Builds target Java 11 so old clients still load.",
         "- Builds use JDK 21.", C, SAME),
    Case("version", "- Builds target Java 11 so old clients still load.",
         "- Builds use Java 21.", C, SAME),
    # "Locally and in production" holds locally too; one environment alone does not.
    Case("version", "- Redis 7.2 locally and in production.", "- We run Redis 6.2.", C, SAME),
    Case("version", "- Redis 7.2 in production.", "- We run Redis 6.2.", N, SAME),
    # What a colon after a setting's code explains hedges nothing of it.
    Case("named thing",
         "- Keep `QUEUE_WORKERS=2` on the laptop: more starve the browser until it swaps.",
         "- `QUEUE_WORKERS=6` for local runs.", C, SAME),
    Case("named thing", "- Maybe `QUEUE_WORKERS=2`: more starve the browser.",
         "- `QUEUE_WORKERS=6` for local runs.", N, SAME),
)  # fmt: skip
"""Written by r102 on 28 Nov 2026 (issue 94), in its own words, after reading the trust
corpus's fresh4 misses, before the readings of a row's name that says its value's kind, a row
alike in two tables, HOCON blocks, TOML inline tables and dependencies sections, a JDK's
version, "locally and in production", and a colon's explanation after a setting."""

NINTH: tuple[Case, ...] = (
    # A version numbered by its year, with a build suffix (Unity's, a release candidate's).
    Case("version", "- The game builds on Unity 2021.3.18f1.", "- The game builds on Unity 6.", C,
         SAME),
    Case("version", "- The editor is Unity 2023.2.1f1.", "- The editor is Unity 2023.2.", N, SAME),
    Case("version", "- We test on Python 3.14.0rc2.", "- We test on Python 3.13.", C, SAME),
    # A setting named in lower camel case is a name, as one in a code span is.
    Case("setting", "- maxRetries is 4 for the uploader.", "- `maxRetries: 6` in uploader.yaml.",
         C, SAME),
    Case("setting", "- maxRetries is 4 for the uploader.", "- maxRetries is 4.", N, SAME),
)  # fmt: skip
"""Written by the lead on 28 Nov 2026 (issue 94) after reading fresh5's misses: a version
numbered by its year with a build suffix, and a setting named in lower camel case."""
TENTH: tuple[Case, ...] = (
    # A variable given its value outside a code span, as one inside is.
    Case("setting", "- WORKER_THREADS=8 on the build box.", "- WORKER_THREADS=4 since the backups "
         "share the box.", C, SAME),
    Case("setting", "- WORKER_THREADS=8 on the build box.", "- Run WORKER_THREADS=4 make bench "
         "to compare.", N, SAME),
    # A table's column headed by an environment says where its values hold, not their name.
    Case("setting", "| var | prod |\n|---|---|\n| POOL_SIZE | 10 |", "- Pool size in prod: "
         "`POOL_SIZE=15`.", C, SAME),
    Case("setting", "| var | staging |\n|---|---|\n| POOL_SIZE | 10 |", "- Pool size in prod: "
         "`POOL_SIZE=15`.", N, SAME),
    # One program's two targets are two jobs (fresh10's one false contradiction, untuned).
    Case("command", "- `make deploy` is only for the kind cluster.", "- `make install-crds` "
         "applies them to the kind cluster.", N, SAME),
    Case("command", "- Run the api tests with `npm test`.", "- Run the api tests with "
         "`pnpm test`.", C, SAME),
)  # fmt: skip
"""Written by the lead on 29 Nov 2026 (issue 94) after reading fresh6's and fresh7's misses, and
fresh10's one false contradiction."""
ELEVENTH: tuple[Case, ...] = (
    # Each key of an object written on one line is a value, as on a line of its own.
    Case("setting", '```json\n"Uploads": { "MaxMb": 10, "MaxFiles": 5 }\n```',
         '```json\n{\n  "Uploads": {\n    "MaxMb": 25\n  }\n}\n```', C, SAME),
    Case("setting", '```json\n"Uploads": { "MaxMb": 10, "MaxFiles": 5 }\n```',
         '```json\n{\n  "Avatars": {\n    "MaxMb": 25\n  }\n}\n```', N, SAME),
    # A version range written with a space is one value.
    Case("version", '```toml\n[tool.poetry.dependencies]\npython = ">= 3.12"\n```',
         "- The service runs on Python 3.11.", C, SAME),
    Case("version", '```toml\n[tool.poetry.dependencies]\npython = ">= 3.12"\n```',
         "- The service runs on Python 3.13.", N, SAME),
    # A project's service by its proper name is the one global memory names with the project.
    Case("port", "| what | port |\n|---|---|\n| shop (puma) | 3000 |",
         "- Puma listens on 3100 locally.", C),
    Case("port", "| what | port |\n|---|---|\n| shop (puma) | 3000 |",
         "- Puma listens on 3100 locally.", N, ("global", "project:blog")),
    Case("port", "- shop's manager serves health probes on :8082.",
         "- The manager serves metrics on :8080.", N),
    # An environment's label before a web address is the label of what it is said under; a
    # database URL's host is after its user and password.
    Case("url-host", "## Database\n\n- Production: postgres://app:Tr0ut-88@db1.internal:5432/app",
         "## Database\n\n- Production: postgres://app:Tr0ut-88@db2.internal:5432/app", C, SAME),
    Case("url-host", "## Database\n\n- Production: postgres://app:Tr0ut-88@db1.internal:5432/app",
         "## Staging\n\n- Production: https://app.example.org", N, SAME),
)  # fmt: skip
"""Written by the lead on 29 Nov 2026 (issue 94) after reading fresh8's and fresh9's misses:
objects on one line (JSON, YAML flow, TOML inline tables), quoted ranges, a project's service
in a global table of ports (and fresh10's false one when a role was read as that name); and
fresh12's one false contradiction, untuned: two "Production:" labels under two headings."""
TWELFTH: tuple[Case, ...] = (
    # An EDN config's key is the keys of the maps around it and its own.
    Case("setting", "```edn\n{:db {:jdbc-url #env DATABASE_URL\n      :maximum-pool-size 10}}\n```",
         "```edn\n{:db {:maximum-pool-size 16}}\n```", C, SAME),
    Case("setting", "```edn\n{:db {:maximum-pool-size 10}}\n```",
         "```edn\n{:cache {:maximum-pool-size 16}}\n```", N, SAME),
    # A map under a library's name in deps.edn is that library's; what a tag reads is none.
    Case("setting", '```edn\n{:deps {org.clojure/clojure {:mvn/version "1.12.0"}\n'
         '        aero/aero {:mvn/version "1.1.6"}}}\n```',
         '```edn\n{:deps {aero/aero {:mvn/version "1.1.6"}}}\n```', N, SAME),
    Case("setting", "```edn\n{:server {:port #long #or [#env PORT 8080] :threads 8}}\n```",
         "```edn\n{:server {:port 9090 :threads 8}}\n```", N, SAME),
    # A service said with the machine it runs on is the table's row of that name.
    Case("port", "| service | port |\n|---|---|\n| Mosquitto on klet-gw | 1883 |",
         "- Mosquitto on klet-gw listens on port 1884.", C, SAME),
    Case("port", "| service | port |\n|---|---|\n| Mosquitto on klet-gw | 1883 |",
         "- Mosquitto on bench-pi listens on port 1884.", N, SAME),
    # A YAML key written as a Ruby symbol (Sidekiq's config) is the key.
    Case("setting", "```yaml\n:max_retries: 10\n:queues:\n  - default\n```",
         "```yaml\n:max_retries: 25\n```", C, SAME),
    Case("setting", "```yaml\n:max_retries: 10\n```",
         "```yaml\nproduction:\n  :max_retries: 25\n```", N, SAME),
)  # fmt: skip
"""Written by the lead on 29 Nov 2026 (issue 94): Clojure's EDN configs (fresh13's Aero
`config.edn`), a service named with its machine (fresh15's gateway) and Sidekiq's YAML of Ruby
symbols (fresh8's `sidekiq.yml`), after reading those halves."""
