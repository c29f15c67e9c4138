"""A labelled set of memories for `memtab duplicates` precision (issue 83): notes that share
most of their words and must never be combined, in forms the other case sets do not use —
the same rule said of another service, package, environment, branch, OS, team or file
type (`subject`); of another scope or condition, "in CI" / "locally", "for the mobile app"
(`scope`); of another time, "until the migration", "since v3" (`time`); a rule and its
exception said without the word "exception" (`exception`); an open question or TODO beside
the decision (`question`); an incident or a session's log beside the rule it led to
(`incident`); two steps of one procedure (`steps`); two notes that share a project's
header or template (`template`) — in each agent's format: Claude Code's frontmatter,
Codex's handbook, Gemini CLI's GEMINI.md bullets, xum's notes. `REWORDED` holds true
rewordings in the same voices (recall is watched too).

`BATCH` was written before the engine's change it measures; `AFTER` after it and never
tuned on (docs/trust-quality.md "Near misses in new forms"). Each `Case` is two memories;
a `neither` case joined, or a group joining two cases, is a wrong finding.
"""

from __future__ import annotations

from support.duplicate_voices import Case, Note

G, U, C, GE = "global", "claude-user", "codex", "gemini"
B, Q, S = "project:brackwater", "project:quillon", "project:sorrel"
BC, QC, SC = "claude:brackwater", "claude:quillon", "claude:sorrel"
BT, QW = "team:brackwater", "workspace:quillon"


def _text(place: str, text: str, title: str) -> str:
    """A memory as its agent writes it: Gemini CLI's added memories, Claude Code's
    frontmatter file, Codex's handbook section, xum's titled note (the case's title on its
    first note only: a title says what a note is about, one shared would say it of both)."""
    if place == GE:
        return f"## Gemini Added Memories\n- {text}\n"
    if place.startswith(("claude:", "team:")) or place == U:
        slug = title.lower().replace(" ", "-")
        return (
            f"---\nname: {slug}\ndescription: {title}\ntype: project\n---\n\n{text}\n"
            if place.startswith("claude:")
            else f"# {title}\n\n{text}\n"
        )
    if place == C:
        return f"# Task group: {title}\n\n## Durable notes\n\n- {text}\n"
    return f"# {title}\n\n{text}\n"


def _case(
    kind: str, expected: str, one: tuple[str, str], other: tuple[str, str], title: str
) -> Case:
    (place, text), (their_place, their_text) = one, other
    return Case(
        kind,
        expected,  # type: ignore[arg-type]
        Note(place, f"{kind}.md", _text(place, text, title)),
        Note(their_place, f"{kind}.md", _text(their_place, their_text, "Notes")),
    )


def _same(kind: str, one: tuple[str, str], other: tuple[str, str], title: str = "Notes") -> Case:
    return _case(kind, "duplicate", one, other, title)


def _apart(kind: str, one: tuple[str, str], other: tuple[str, str], title: str = "Notes") -> Case:
    return _case(kind, "neither", one, other, title)


_HEADER = (
    "Context: quillon is the Kotlin backend for the courier app (Ktor, Exposed, Postgres 15, "
    "deployed to GKE by Argo CD); the on-call rota and the runbooks are in Notion."
)
"""A project's header that opens its notes (a template's, not what they say)."""
_TEMPLATE = "Owner: platform guild. Status: adopted. Review: every six months or after an incident."


def _templated(place: str, text: str, header: str) -> tuple[str, str]:
    return place, f"{header}\n\n{text}"


BATCH: tuple[Case, ...] = (
    # -- the same rule said of another thing -------------------------------------------
    _apart("subject",
           (B, "- Restart the billing worker after changing its environment; it reads its "
               "variables only at boot."),
           (BC, "Restart the search indexer after changing its environment; it reads its "
                "variables only at boot."),
           "Workers"),
    _apart("subject",
           (G, "- Pin the numpy version exactly: its minor releases changed dtype promotion "
               "under us."),
           (GE, "Pin the pandas version exactly: its minor releases changed dtype promotion "
                "under us."),
           "Pins"),
    _apart("subject",
           (S, "- Deploys to staging need one approval in the deploys channel before they "
               "start."),
           (SC, "Deploys to production need one approval in the deploys channel before they "
                "start."),
           "Deploys"),
    _apart("subject",
           (BT, "- Merges into the release branch need one approving review from a "
                "maintainer."),
           (B, "- Merges into the develop branch need one approving review from a "
               "maintainer."),
           "Branches"),
    _apart("subject",
           (U, "On macOS, run the setup script with sudo once so it installs the dev "
               "certificates."),
           (Q, "- On Linux, run the setup script with sudo once so it installs the dev "
               "certificates."),
           "Setup"),
    _apart("subject",
           (C, "The growth team ships its experiments behind a flag and removes the flag "
               "within two sprints."),
           (S, "- The checkout team ships its experiments behind a flag and removes the flag "
               "within two sprints."),
           "Experiments"),
    _apart("subject",
           (GE, "Indent the JSON fixtures with two spaces and sort their keys."),
           (QC, "Indent the TOML fixtures with two spaces and sort their keys."),
           "Fixtures"),
    _apart("subject",
           (B, "- The admin API's rate limit is raised for the Black Friday weekend."),
           (BT, "- The public API's rate limit is raised for the Black Friday weekend."),
           "Limits"),
    _apart("subject",
           (S, "- Vacuum the events table by hand after a bulk delete; autovacuum lags "
               "behind on it."),
           (SC, "Vacuum the sessions table by hand after a bulk delete; autovacuum lags "
                "behind on it."),
           "Vacuum"),
    _apart("subject",
           (G, "Error strings in the Go services are lowercase and end without a period."),
           (Q, "- Error strings in the Rust services are lowercase and end without a "
               "period."),
           "Errors"),
    _apart("subject",
           (C, "Rotate the Stripe webhook secret every quarter and store it in Vault."),
           (B, "- Rotate the Twilio auth token every quarter and store it in Vault."),
           "Secrets"),
    # -- another scope or condition ----------------------------------------------------
    _apart("scope",
           (Q, "- Skip the slow snapshot tests in CI; they run nightly instead."),
           (QC, "Skip the slow snapshot tests locally; they run in CI instead."),
           "Snapshots"),
    _apart("scope",
           (S, "- For the mobile app, API errors are shown as a toast with a retry button."),
           (SC, "For the web app, API errors are shown as a toast with a retry button."),
           "Errors shown"),
    _apart("scope",
           (B, "- When the VPN is down, reach the staging database through the bastion "
               "host."),
           (BT, "- Reach the staging database through the bastion host."),
           "Access"),
    _apart("scope",
           (G, "During a release freeze, merges to main need the release manager's "
               "approval."),
           (S, "- Merges to main need the release manager's approval."),
           "Freeze"),
    _apart("scope",
           (Q, "- Enterprise customers get their monthly invoices as PDF and CSV."),
           (QW, "Trial customers get their monthly invoices as PDF and CSV."),
           "Invoices"),
    _apart("scope",
           (U, "On battery, the agent should run only the unit tests before a commit."),
           (B, "- Run only the unit tests before a commit."),
           "Tests"),
    # -- another time --------------------------------------------------------------------
    _apart("time",
           (S, "- Until the Postgres 16 upgrade is done, write the reporting queries in "
               "raw SQL."),
           (SC, "Write the reporting queries in raw SQL."),
           "Reporting"),
    _apart("time",
           (B, "- Since v3, the export endpoint streams its rows as NDJSON."),
           (BC, "Before v3, the export endpoint sent its rows as one JSON array."),
           "Export"),
    _apart("time",
           (Q, "- Until the auth rewrite lands, sessions are kept in Redis."),
           (QC, "Once the auth rewrite lands, sessions are kept in Postgres."),
           "Sessions"),
    _apart("time",
           (C, "Through the end of the quarter, the legacy billing API stays read-only."),
           (S, "- The legacy billing API stays read-only."),
           "Legacy"),
    _apart("time",
           (GE, "After the Gradle 9 migration, build the Android app with the configuration "
                "cache on."),
           (QC, "Build the Android app with the configuration cache on."),
           "Android"),
    # -- a rule and its exception, said without "exception" --------------------------------
    _apart("exception",
           (B, "- Every new table gets a `created_at` column."),
           (BC, "The lookup tables skip the `created_at` column every new table gets."),
           "Tables"),
    _apart("exception",
           (G, "All services log in JSON."),
           (S, "- All services log in JSON apart from the CLI, which logs plain text."),
           "Logging"),
    _apart("exception",
           (Q, "- Use the shared HTTP client for outgoing requests."),
           (QC, "Use the shared HTTP client for outgoing requests, save for the webhook "
                "sender, which sets its own timeouts."),
           "HTTP"),
    _apart("exception",
           (S, "- Every endpoint requires authentication."),
           (SC, "Every endpoint requires authentication other than `/healthz` and "
                "`/metrics`."),
           "Auth"),
    _apart("exception",
           (C, "Commit the lock file with every dependency change."),
           (B, "- Commit the lock file with every dependency change, bar the docs site: "
               "Netlify resolves its own."),
           "Lock files"),
    # -- an open question or TODO beside the decision -----------------------------------
    _apart("question",
           (Q, "- TODO: decide whether background jobs stay on Celery or move to Dramatiq."),
           (QC, "Background jobs stay on Celery; Dramatiq was tried and dropped."),
           "Jobs"),
    _apart("question",
           (S, "- Still to check with Priya whether the audit log must keep IP addresses."),
           (SC, "The audit log keeps IP addresses for 90 days, per Priya."),
           "Audit"),
    _apart("question",
           (B, "- Unsure if the nightly backup covers the uploads bucket; verify before "
               "relying on it."),
           (BT, "- The nightly backup covers the uploads bucket."),
           "Backups"),
    _apart("question",
           (GE, "Open item: should the mobile app cache the feed for offline use?"
                " Leaning towards caching the feed for 24 hours."),
           (S, "- The mobile app caches the feed for offline use, for 24 hours."),
           "Feed"),
    # -- an incident or a log entry beside the rule it led to ------------------------------
    _apart("incident",
           (B, "- 2026-03-14: building an index on the orders table without CONCURRENTLY "
               "locked it for nine minutes."),
           (BC, "Build every index on the orders table CONCURRENTLY."),
           "Indexes"),
    _apart("incident",
           (Q, "- Incident 4412: a Friday evening deploy of checkout took it down for an "
               "hour."),
           (QC, "No deploys of checkout on Friday evenings."),
           "Deploy days"),
    _apart("incident",
           (S, "- Session log: the upload test was flaky until I mocked the clock in it."),
           (SC, "Mock the clock in the upload test."),
           "Upload test"),
    _apart("incident",
           (C, "Last week a cache stampede after a deploy knocked over the pricing service."),
           (B, "- Warm the pricing cache after a deploy, before switching traffic."),
           "Pricing"),
    # -- two steps of one procedure ------------------------------------------------------
    _apart("steps",
           (Q, "- Release, step 1: bump the version in `build.gradle.kts` and open a "
               "release PR."),
           (QC, "Release, step 2: when the release PR merges, tag the merge commit and "
                "push the tag."),
           "Release"),
    _apart("steps",
           (S, "- To rotate the signing key, first generate the new key pair and upload "
               "its public half to the key server."),
           (SC, "To rotate the signing key, last revoke the old key pair on the key server, "
                "once every client has the new one."),
           "Signing key"),
    _apart("steps",
           (B, "- Restoring a backup: stop the API workers before restoring the database "
               "dump."),
           (BT, "- Restoring a backup: start the API workers again after restoring the "
                "database dump and checking the row counts."),
           "Restore"),
    # -- notes that share a project's header or template -------------------------------
    _apart("template",
           _templated(Q, "- Couriers' GPS pings are sampled every 15 seconds.", _HEADER),
           _templated(QC, "The dispatch queue is drained by two consumers.", _HEADER),
           "Quillon"),
    _apart("template",
           _templated(QW, "Payouts to couriers run on Mondays.", _HEADER),
           _templated(Q, "- The admin panel is a separate Ktor module.", _HEADER),
           "Quillon notes"),
    _apart("template",
           _templated(G, "Decision: trunk-based development for every repo.", _TEMPLATE),
           _templated(U, "Decision: Renovate batches dependency updates weekly.", _TEMPLATE),
           "Decision record"),
    # -- true rewordings, in the same voices ----------------------------------------------
)  # fmt: skip

REWORDED: tuple[Case, ...] = (
    _same("reworded",
          (B, "- Restart the billing worker after changing its environment; it reads its "
              "variables only at boot."),
          (BC, "The billing worker only picks up environment changes when it restarts, so "
               "restart it after editing a variable."),
          "Billing worker"),
    _same("reworded",
          (G, "Pin the numpy version exactly, minor releases included."),
          (GE, "numpy must be pinned to an exact version, down to the minor release."),
          "numpy"),
    _same("reworded",
          (S, "- Vacuum the events table by hand after a bulk delete."),
          (SC, "After bulk-deleting from the events table, run a manual vacuum on it."),
          "Events"),
    _same("reworded",
          (Q, "- Skip the slow snapshot tests in CI."),
          (QC, "CI does not run the slow snapshot tests; they are skipped there."),
          "CI snapshots"),
    _same("reworded",
          (B, "- Build every index on the orders table CONCURRENTLY."),
          (BT, "- Indexes on the orders table are always built CONCURRENTLY."),
          "Orders"),
    _same("reworded",
          (C, "Commit the lock file with every dependency change."),
          (S, "- Whenever a dependency changes, the lock file is committed with it."),
          "Lock file"),
    _same("reworded",
          (GE, "Error strings in Go are lowercase and end without a period."),
          (B, "- In Go, error strings start lowercase and have no trailing period."),
          "Go errors"),
    _same("reworded",
          (U, "Mock the clock in the upload tests."),
          (Q, "- The upload tests run with a mocked clock."),
          "Clock"),
    _same("reworded",
          (S, "- Every endpoint requires authentication."),
          (SC, "No endpoint may be reached without authentication."),
          "Endpoints"),
    _same("reworded",
          (QW, "Background jobs run on Celery."),
          (QC, "We use Celery for the background jobs."),
          "Celery"),
    _same("reworded",
          (G, "Reach the staging database only through the bastion host."),
          (BT, "- The staging database is reachable through the bastion host and nowhere "
               "else."),
          "Bastion"),
    _same("reworded",
          (C, "Rotate the Stripe webhook secret every quarter."),
          (S, "- The Stripe webhook secret is rotated quarterly."),
          "Stripe"),
    _same("reworded",
          (Q, "- Indent the JSON fixtures with two spaces and sort their keys."),
          (QW, "JSON fixtures: two-space indentation, keys sorted."),
          "JSON"),
    _same("reworded",
          (B, "- Warm the pricing cache after a deploy, before switching traffic."),
          (BC, "Before traffic is switched after a deploy, the pricing cache gets warmed."),
          "Warm-up"),
    _same("reworded",
          (GE, "The audit log keeps IP addresses for 90 days."),
          (SC, "IP addresses stay in the audit log for 90 days."),
          "IPs"),
    _same("reworded",
          (U, "Every new table gets a `created_at` column."),
          (S, "- New tables always have a `created_at` column."),
          "created_at"),
)  # fmt: skip

AFTER: tuple[Case, ...] = (
    _apart("subject",
           (S, "- The notifications service retries failed pushes three times, then drops "
               "them."),
           (SC, "The mailer service retries failed pushes three times, then drops them."),
           "Retries"),
    _apart("subject",
           (G, "Keep the iOS build's provisioning profiles in the team vault."),
           (GE, "Keep the Android build's signing keystore in the team vault."),
           "Vault"),
    _apart("subject",
           (BT, "- Feature branches of the mobile repo are deleted after merge."),
           (B, "- Feature branches of the infra repo are deleted after merge."),
           "Branch hygiene"),
    _apart("subject",
           (Q, "- Lint the Dockerfiles with hadolint in the pre-commit hook."),
           (QC, "Lint the shell scripts with shellcheck in the pre-commit hook."),
           "Hooks"),
    _apart("subject",
           (C, "The EU cluster's nodes are patched on the first Tuesday of the month."),
           (S, "- The US cluster's nodes are patched on the first Tuesday of the month."),
           "Patching"),
    _apart("scope",
           (U, "Inside the monorepo's frontend packages, imports are sorted by eslint."),
           (B, "- Imports are sorted by eslint."),
           "Imports"),
    _apart("scope",
           (QW, "On the self-hosted runners, the Docker layer cache is kept between jobs."),
           (Q, "- The Docker layer cache is kept between jobs."),
           "Runners"),
    _apart("scope",
           (GE, "Use the read replica for analytics queries in production."),
           (SC, "Use the read replica for analytics queries in staging."),
           "Replica"),
    _apart("time",
           (B, "- Until the new SSO is live, contractors log in with a shared staging "
               "account."),
           (BC, "Contractors log in with a shared staging account."),
           "Contractors"),
    _apart("time",
           (C, "Since the Kafka move, order events are published by the outbox relay."),
           (Q, "- Order events are published by the outbox relay."),
           "Events"),
    _apart("exception",
           (S, "- Every migration is reviewed by the DBA."),
           (SC, "Every migration is reviewed by the DBA, excluding the seed-data ones."),
           "Migrations"),
    _apart("question",
           (G, "Not sure yet whether we keep Sentry for the frontend errors."),
           (B, "- We keep Sentry for the frontend errors."),
           "Sentry"),
    _apart("question",
           (QC, "FIXME: the cron job that prunes old uploads never ran in October?"),
           (QW, "The cron job prunes old uploads every night."),
           "Uploads"),
    _apart("incident",
           (S, "- Yesterday the staging database ran out of disk during the nightly import."),
           (SC, "Check free disk on the staging database before the nightly import."),
           "Disk"),
    _apart("steps",
           (B, "- Onboarding, day one: request access to the AWS console and the VPN."),
           (BT, "- Onboarding, day two: request access to the data warehouse and Looker."),
           "Onboarding"),
    _apart("template",
           _templated(QW, "The courier ratings are recomputed hourly.", _HEADER),
           _templated(QC, "Refunds need a supervisor's approval in the admin panel.", _HEADER),
           "Quillon context"),
    # -- two facts of one frame, as the tune half's near misses are ---------------------
    _apart("facts",
           (B, "- Staging deploys go out from the main branch."),
           (BC, "Production deploys go out from release tags."),
           "Deploy sources"),
    _apart("facts",
           (Q, "- Sign every commit with your SSH key."),
           (QC, "Sign every release tag with your SSH key."),
           "Signing"),
    _apart("facts",
           (S, "- Never force-push to main."),
           (SC, "Never push to main directly."),
           "Pushing"),
    _apart("facts",
           (G, "Ask before deploying anything to production."),
           (GE, "Ask before adding new dependencies."),
           "Asking"),
    _apart("facts",
           (B, "- The email queue runs with concurrency 4."),
           (BT, "- The webhook queue runs with concurrency 4."),
           "Queues"),
    _apart("facts",
           (Q, "- The export job retries 5 times with exponential backoff."),
           (QW, "The import job retries 5 times with exponential backoff."),
           "Jobs retry"),
    _apart("facts",
           (C, "Store timestamps in UTC."),
           (S, "- Store money in integer cents."),
           "Storage"),
    _apart("facts",
           (U, "Run `pnpm lint` before pushing."),
           (B, "- Run `just lint` before pushing."),
           "Lint"),
    _apart("facts",
           (S, "- The frontend dev server listens on 5173."),
           (SC, "The admin dev server listens on 5173."),
           "Dev servers"),
    _apart("facts",
           (GE, "Prefer small PRs for backend changes."),
           (Q, "- Prefer small PRs for schema changes."),
           "PR size"),
    _apart("facts",
           (B, "- Use Postgres for the order service."),
           (BC, "Use Postgres for the analytics service."),
           "Databases"),
    _apart("facts",
           (QC, "Tests for the parser live in tests/parser."),
           (Q, "- Fixtures for the parser live in tests/parser."),
           "Parser"),
)  # fmt: skip
"""Near misses written after the engine's change and never tuned on (see the module doc)."""

AFTER_REWORDED: tuple[Case, ...] = (
    _same("reworded",
          (S, "- The notifications service retries failed pushes three times, then drops "
              "them."),
          (SC, "Failed pushes get three retries from the notifications service before it "
               "drops them."),
          "Pushes"),
    _same("reworded",
          (G, "Keep the iOS provisioning profiles in the team vault."),
          (BT, "- iOS provisioning profiles live in the team vault, nowhere else."),
          "Profiles"),
    _same("reworded",
          (Q, "- Lint the Dockerfiles with hadolint in the pre-commit hook."),
          (QW, "The pre-commit hook runs hadolint over the Dockerfiles."),
          "hadolint"),
    _same("reworded",
          (C, "Use the read replica for analytics queries."),
          (B, "- Analytics queries go to the read replica."),
          "Analytics"),
    _same("reworded",
          (GE, "Every migration is reviewed by the DBA."),
          (SC, "The DBA reviews each migration."),
          "DBA"),
    _same("reworded",
          (U, "Patch the cluster nodes on the first Tuesday of each month."),
          (S, "- Cluster nodes get patched every first Tuesday of the month."),
          "Patch day"),
    _same("reworded",
          (QC, "Order events are published by the outbox relay."),
          (Q, "- The outbox relay publishes the order events."),
          "Outbox"),
    _same("reworded",
          (B, "- Contractors log in with a shared staging account."),
          (BC, "A shared staging account is what contractors use to log in."),
          "Logins"),
)  # fmt: skip
"""Rewordings written after the engine's change and never tuned on."""

DAYS: tuple[Case, ...] = (
    _apart("incident",
           (B, "- Last Friday the cert on the payments gateway expired and checkout failed "
               "for two hours."),
           (BC, "Renew the cert on the payments gateway a month before it expires."),
           "Certs"),
    _apart("incident",
           (Q, "- 2026-09-02: the nightly export filled the shared volume and the API "
               "stopped writing logs."),
           (QW, "Write the nightly export to its own volume, not the shared one."),
           "Export volume"),
    _apart("incident",
           (S, "- Two weeks ago a migration dropped the default on `orders.status` and "
               "inserts failed."),
           (SC, "Keep a default on `orders.status` in every migration."),
           "Defaults"),
    _apart("incident",
           (GE, "Earlier today the agent ran the seed script against staging and wiped it."),
           (C, "Never run the seed script against staging."),
           "Seeding"),
    _apart("incident",
           (U, "Yesterday the release workflow published the wheel twice to PyPI."),
           (B, "- The release workflow publishes the wheel to PyPI once, on tags."),
           "Publishing"),
    _apart("incident",
           (QC, "Last sprint the flaky geocoder test blocked three merges."),
           (Q, "- The flaky geocoder test is quarantined with the `flaky` marker."),
           "Geocoder"),
)  # fmt: skip
"""Incidents told of a day gone beside the rule they led to, written after the engine read
a day gone (`about.told_of_a_day`) and never tuned on."""

DAYS_REWORDED: tuple[Case, ...] = (
    _same("reworded",
          (B, "- Renew the payments gateway cert a month before it expires; it lapsed last "
              "Friday."),
          (BC, "The payments gateway cert gets renewed a month ahead of its expiry."),
          "Gateway cert"),
    _same("reworded",
          (S, "- Never run the seed script against staging."),
          (SC, "The seed script must not be run against staging: it wiped it two weeks ago."),
          "Seed script"),
    _same("reworded",
          (G, "Quarantine flaky tests with the `flaky` marker."),
          (QW, "Flaky tests get the `flaky` marker, so they stop blocking merges like last "
               "sprint."),
          "Flaky"),
)  # fmt: skip
"""Rewordings with a day gone in their reason, written with `DAYS`."""
