"""Labelled note pairs for `memtab contradictions` (issue 83): one setting given two values
— a timeout, a limit, a retry count, an interval, a size, a flag, an environment variable,
a config key, a runtime's or library's version, a service's port, a weekday, a time, a
cron schedule, the branch or host of a role. Two values of one thing contradict; the same
value in other words ("30s" / "30 seconds" / "half a minute", "Node 20" / "node@20" /
"v20.x", "Monday" / "Mon") does not, nor two things that share a word (the API's port and
the DB's, the client's timeout and the server's, staging and production).

Written before the readers were changed for it (`CASES`), and a second batch after
(`AFTER`, never tuned on), in bullets, labels, tables, prose, first person and passive,
Claude Code's frontmatter files, a team's CLAUDE.md, Codex's memory summary and GEMINI.md.
Each case's notes are built and read as `contradiction_voices.found` builds them.
"""

from __future__ import annotations

from support.contradiction_cases import Case

SAME = ("project:shop", "project:shop")
CLAUDE = ("claude:shop", "project:shop")
TEAM = ("team:shop", "claude:shop")
CODEX = ("codex", "project:shop")
GEMINI = ("gemini", "project:shop")
GLOBAL = ("global", "project:shop")
C, N = "contradiction", "neither"


def _claude(name: str, body: str) -> str:
    return (
        f"---\nname: {name}\ndescription: {name} notes\nmetadata:\n  type: project\n---\n\n{body}"
    )


CASES: tuple[Case, ...] = (
    # Durations: timeouts, intervals, expiries.
    Case("duration", "- The payment client times out after 30 seconds.",
         "- Payment client timeout: 45s.", C, SAME),
    Case("duration", "Sessions expire after 15 minutes of inactivity.",
         "- Session expiry is 30 min.", C, SAME),
    Case("duration", "- The health check polls every 10s.",
         "The health check interval is 60 seconds.", C, SAME),
    Case("duration",
         _claude("webhooks", "Webhook deliveries time out after 5 seconds.\n\n"
                 "**Why:** Stripe retries anyway."),
         "- Webhook delivery timeout is 10 s.", C, CLAUDE),
    Case("duration", "- Cache TTL for product pages: 1 hour.",
         "- Product pages are cached for 10 minutes.", C, SAME),
    Case("duration", "- The payment client times out after 30 seconds.",
         "- Payment client timeout: half a minute.", N, SAME),
    Case("duration", "- Session expiry is 30 min.",
         "- Sessions expire after 30 minutes.", N, SAME),
    Case("duration", "- The payment client times out after 30 seconds.",
         "- The payment server times out after 60 seconds.", N, SAME),
    Case("duration", "- Cache TTL for product pages: 1 hour.",
         "- Cache TTL for product pages: 60 minutes.", N, SAME),
    Case("duration", "- The health check polls every 10s.",
         "- The queue worker polls every 2s.", N, SAME),
    # Sizes and limits.
    Case("size", "- Uploads are capped at 10 MB.", "- Max upload size: 25MB.", C, SAME),
    Case("size", "The API rate limit is 100 requests per minute.",
         "- API rate limit: 300 requests per minute.", C, SAME),
    Case("size", "- Request bodies over 1 MB are rejected.",
         "- Request body limit is 2 MB.", C, GLOBAL),
    Case("size", "- Max upload size: 25MB.", "- Uploads are capped at 25 megabytes.", N, SAME),
    Case("size", "- Max upload size: 25MB.", "- Max avatar size: 2MB.", N, SAME),
    Case("size", "The API rate limit is 100 requests per minute.",
         "The admin API rate limit is 20 requests per minute.", N, SAME),
    # Counts: retries, workers, replicas.
    Case("count", "- Failed jobs are retried 3 times.", "- Job retries: 5.", C, SAME),
    Case("count", "We run 4 gunicorn workers.", "- Gunicorn workers: 8.", C, SAME),
    Case("count", "- The web deployment has 3 replicas.",
         "- Web deployment replicas: 2.", C, CODEX),
    Case("count", "- Failed jobs are retried 3 times.", "- Job retries: three.", N, SAME),
    Case("count", "We run 4 gunicorn workers.", "- Celery workers: 8.", N, SAME),
    Case("count", "- The web deployment has 3 replicas.",
         "- The web deployment has 6 replicas in production.", N, SAME),
    # Flags, environment variables, config keys.
    Case("flag", "- `FEATURE_NEW_CHECKOUT` is on.", "- `FEATURE_NEW_CHECKOUT` is off.", C, SAME),
    Case("flag", "- `strict` is `true` in tsconfig.", "- tsconfig `strict`: `false`.", C, SAME),
    Case("flag", "- Set `PYTHONHASHSEED=0` in CI.", "- CI sets `PYTHONHASHSEED=42`.", C, SAME),
    Case("flag", "- `pool_size` is 20 in the SQLAlchemy config.",
         "- SQLAlchemy `pool_size = 5`.", C, SAME),
    Case("flag", "- `FEATURE_NEW_CHECKOUT` is on.", "- `FEATURE_NEW_CHECKOUT` is enabled.", N,
         SAME),
    Case("flag", "- `strict` is `true` in tsconfig.", "- `strict` is `false` in the ESLint config.",
         N, SAME),
    Case("flag", "- Set `PYTHONHASHSEED=0` in CI.", "- Set `PYTHONHASHSEED=random` locally.", N,
         SAME),
    # Versions of a runtime or library.
    Case("version", "- We're on Node 20.", "- The project runs on node@22.", C, SAME),
    Case("version", "* Python version: 3.12", "- The project runs Python 3.11.", C, GEMINI),
    Case("version", "- Django 5.0 everywhere.", "- Upgraded to Django 4.2 LTS.", C, SAME),
    Case("version", "- We're on Node 20.", "- Use node v20.x.", N, SAME),
    Case("version", "- We're on Node 20.", "- We're on Node 20.11.", N, SAME),
    Case("version", "* Python version: 3.12", "- The docs build uses Sphinx 7.", N, GEMINI),
    # Ports.
    Case("port", "- The API listens on 8000.", "- API: http://localhost:8080", C, SAME),
    Case("port", "Postgres is on 5432 in docker compose.",
         "- Postgres (compose) port: 5433", C, SAME),
    Case("port", "- The API listens on 8000.", "- The DB listens on 5432.", N, SAME),
    Case("port", "- The API listens on 8000.", "- The staging API listens on 8443.", N, SAME),
    # Schedules: weekdays, times, crons.
    Case("schedule", "- The staging database is wiped every Sunday.",
         "- The staging database is wiped every Wednesday.", C, SAME),
    Case("schedule", "- Releases go out on Tuesdays.", "- Release day is Thursday.", C, SAME),
    Case("schedule", "- The nightly backup runs at 02:00.",
         "- The nightly backup runs at 4am.", C, SAME),
    Case("schedule", "- The digest email cron is `0 7 * * *`.",
         "- The digest email cron is `0 9 * * 1`.", C, SAME),
    Case("schedule", "- The staging database is wiped every Sunday.",
         "- Staging DB gets wiped on Sun.", N, SAME),
    Case("schedule", "- The nightly backup runs at 02:00.",
         "- The nightly backup runs at 2am.", N, SAME),
    Case("schedule", "- Releases go out on Tuesdays.", "- Retros are on Thursdays.", N, SAME),
    Case("schedule", "- The staging database is wiped every Sunday.",
         "- The production database is backed up every Wednesday.", N, SAME),
    # Branches and hosts of a role.
    Case("role", "- The default branch is `main`.", "- Default branch: `trunk`.", C, TEAM),
    Case("role", "- Hotfixes branch off `release`.", "- Hotfix branches start from `main`.", C,
         SAME),
    Case("role", "- Staging is at https://staging.shop.dev.",
         "- Staging lives at https://stage.shop-internal.net.", C, SAME),
    Case("role", "- The default branch is `main`.", "- The docs branch is `gh-pages`.", N, TEAM),
    Case("role", "- Staging is at https://staging.shop.dev.",
         "- Production is at https://shop.dev.", N, SAME),
    Case("role", "- Staging is at https://staging.shop.dev.",
         "- Staging lives at https://staging.shop.dev/.", N, SAME),
    # More of each, across layouts.
    Case("duration", "- Gunicorn's worker timeout is 120 s.",
         "Gunicorn kills a worker after 30 seconds (its `--timeout`).", C, CODEX),
    Case("count", "- Set `WEB_CONCURRENCY` to 4.", "- `WEB_CONCURRENCY=2` on the dyno.", C, SAME),
    Case("schedule", "- The weekly report job runs Mondays at 06:00.",
         "- Weekly report job: Fridays.", C, GEMINI),
    Case("duration", "- Logs are kept for 14 days.", "- Backups are kept for 30 days.", N, SAME),
    Case("count", "- We used to retry 5 times.", "- Job retries: 3.", N, SAME),
    Case("schedule", "- The cleanup cron runs at 09:00 UTC.",
         "- The cleanup cron runs at 10:00 CET.", N, SAME),
    Case("size", "- Uploads are capped at 10 MB.", "- Uploads under 1 MB skip the virus scan.",
         N, SAME),
    Case("duration", "- The client's connect timeout is 5s.",
         "- The client's read timeout is 30s.", N, SAME),
    Case("count", "- Webhooks are retried 3 times.", "- Emails are retried 5 times.", N, SAME),
    Case("schedule", "- Deploy to staging on Mondays.", "- Deploy to production on Thursdays.", N,
         SAME),
)  # fmt: skip

AFTER: tuple[Case, ...] = (
    # Written after the readers were changed, never tuned on.
    Case("duration", "Our Lambda functions time out after 15 seconds.",
         "- Lambda timeout: 900 s (the max).", C, SAME),
    Case("size", "- The Nginx `client_max_body_size` is 50m.",
         "- Nginx body size limit: 100 MB.", C, SAME),
    Case("duration",
         _claude("tokens", "Access tokens live for 15 minutes.\n\n**Why:** security asked."),
         "- Access token lifetime: 1 hour.", C, CLAUDE),
    Case("count", "- The importer is retried 2 times before paging.",
         "- The importer is retried 4 times.", C, SAME),
    Case("flag", "- `DEBUG_SQL` is off.", "- `DEBUG_SQL` is set to true.", C, SAME),
    Case("version", "- Ruby 3.3 for the whole app.", "- The app runs on ruby@3.2.", C, CODEX),
    Case("schedule", "- Dependabot PRs are merged on Fridays.",
         "- Dependabot PRs get merged on Mondays.", C, GEMINI),
    Case("duration", "- Redis keys for carts expire after 7 days.",
         "- Cart keys in Redis have a TTL of 3 days.", C, SAME),
    Case("duration", "Our Lambda functions time out after 15 seconds.",
         "- Lambda timeout: 15 s.", N, SAME),
    Case("size", "- Nginx body size limit: 100 MB.", "- Nginx buffer size: 16 KB.", N, SAME),
    Case("duration", "- Access token lifetime: 1 hour.", "- Refresh token lifetime: 30 days.", N,
         CLAUDE),
    Case("count", "- The importer is retried 4 times.", "- The exporter is retried 2 times.", N,
         SAME),
    Case("flag", "- `DEBUG_SQL` is off.", "- `DEBUG_SQL` is disabled.", N, SAME),
    Case("version", "- Ruby 3.3 for the whole app.", "- Ruby v3.3.x.", N, SAME),
    Case("schedule", "- Dependabot PRs are merged on Fridays.",
         "- Renovate PRs are merged on Mondays.", N, GEMINI),
    Case("duration", "- Redis keys for carts expire after 7 days.",
         "- Redis keys for carts expire after a week.", N, SAME),
)  # fmt: skip
