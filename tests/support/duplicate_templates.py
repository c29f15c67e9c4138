"""A labelled set of memories for `memtab duplicates` precision (issue 83): notes that share
only a template's line — a project's context line ("Stack: …", "Context: …", "Project:
…"), where it applies ("Applies to: …"), its owner and channel, a "Related:" or "See
also:" line, a footer ("Last reviewed: …"), a note template's fixed line with the project
filled in (an ADR's "Status: … · Deciders: …") — in 2 and in 3 or more notes, word for word
and with small changes, opening the note, after a heading, after a first line, after
frontmatter or closing it (`BOILERPLATE`: no pair of a set is a duplicate); and the same
rule or fact copied into 2 and into 3 or more notes, with a colon too ("Deploys: only from
main, never on Fridays."), which must stay found (`SAME`: every pair of a set is one).
Projects, people and voices are new here: oakum (Rails), pellucid (iOS), brindle (Airflow),
marrowfield (Phoenix), kittiwake (a Rust CLI), wrenfold (Go).

`BOILERPLATE` and `SAME` were written before the engine's change they measure;
`AFTER` and `AFTER_SAME` after it, never tuned on.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations

from memtab.check.documents import Document
from support.duplicate_voices import BACKGROUND, Expected, Note
from support.seeded_memories import memory, unique_names


@dataclass(frozen=True)
class Shared:
    """Notes that share a line: a template's (`neither`: no pair of them is a duplicate)
    or a rule's or fact's (`duplicate`: every pair is)."""

    kind: str
    expected: Expected
    notes: tuple[Note, ...]


def _xum(title: str, *paragraphs: str) -> str:
    return f"# {title}\n\n" + "\n\n".join(paragraphs) + "\n"


def _bare(*paragraphs: str) -> str:
    return "\n\n".join(paragraphs) + "\n"


def _described(description: str, title: str, *paragraphs: str) -> str:
    """A xum note with a description in frontmatter (lines 1–3) and a title."""
    return f"---\ndescription: {description}\n---\n" + _xum(title, *paragraphs)


def _claude(name: str, description: str, *paragraphs: str, kind: str = "project") -> str:
    head = f"---\nname: {name}\ndescription: {description}\ntype: {kind}\n---\n"
    return head + "\n\n".join(paragraphs) + "\n"


def _gemini(*bullets: str) -> str:
    return "## Gemini Added Memories\n" + "".join(f"- {b}\n" for b in bullets)


def _apart(kind: str, *notes: Note) -> Shared:
    return Shared(kind, "neither", notes)


def _same(kind: str, *notes: Note) -> Shared:
    return Shared(kind, "duplicate", notes)


OA, OC, OW, OT = "project:oakum", "claude:oakum", "workspace:oakum", "team:oakum"
P, PC, PW = "project:pellucid", "claude:pellucid", "workspace:pellucid"
B, BC, BW = "project:brindle", "claude:brindle", "workspace:brindle"
M, MC = "project:marrowfield", "claude:marrowfield"
K, KC, KW = "project:kittiwake", "claude:kittiwake", "workspace:kittiwake"
W, WC = "project:wrenfold", "claude:wrenfold"
G, U, C, GE = "global", "claude-user", "codex", "gemini"

_OAKUM = "Stack: Rails 7.2 · Sidekiq · MySQL 8 · Hotwire · Kamal"
_MARROW = "Context: marrowfield — Elixir 1.17, Phoenix 1.7 LiveView, Ecto, Postgres 16, Oban"
_KITTI = "Context: kittiwake, the Rust log shipper — tokio, clap, serde; MSRV 1.75"

BOILERPLATE: tuple[Shared, ...] = (
    # -- a project's context line ----------------------------------------------------
    _apart("context",
           Note(OA, "jobs.md", _xum("Background jobs", _OAKUM,
                "- Sidekiq retries are capped at 8 for the mailer queue.\n"
                "- The `low` queue is paused during the nightly import.")),
           Note(OA, "search.md", _xum("Search", _OAKUM,
                "Product search goes through Meilisearch; a rake task rebuilds the index "
                "after a catalogue import.")),
           Note(OW, "notes.md", _xum("checkout-rework — notes", _OAKUM,
                "- the cart total is recomputed on every line change\n"
                "- PayPal sandbox logins are in 1Password, vault Oakum Dev"))),
    _apart("context",
           Note(M, "presence.md", _bare(_MARROW,
                "Presence diffs are broadcast on the `room:*` topics; the client throttles "
                "redraws to ten a second.")),
           Note(MC, "project_uploads.md", _claude("uploads", "where uploads go", _MARROW,
                "Uploads go straight to R2 with presigned URLs; the LiveView only ever "
                "sees the object key."))),
    _apart("context",
           Note(P, "widgets.md", _xum("Widgets", "Project: pellucid (Swift 6, SwiftUI, TCA, "
                "iOS 17+)", "- The lock-screen widget refreshes from the app group's "
                "cached snapshot, never from the network.")),
           Note(PW, "notes.md", _xum("offline-mode spike", "Project: pellucid (SwiftUI, "
                "Swift 6, TCA, iOS 17+)", "- SwiftData store migrations crash on 17.0 "
                "betas, fine on 17.2")),
           Note(PC, "project_sync.md", _claude("sync", "how sync works", "Project: pellucid "
                "— Swift 6, SwiftUI, TCA, iOS 17+", "CloudKit sync uses one private zone "
                "per account; conflicts resolve last-writer-wins on the server record."))),
    _apart("context",
           Note(W, "rpc.md", _bare("wrenfold — gRPC notes", "Context: wrenfold (Go 1.23, "
                "gRPC, CockroachDB)", "Deadlines are set by the gateway at 2 s and "
                "propagated; handlers never set their own.")),
           Note(GE, "GEMINI.md", _gemini("Context: wrenfold (Go 1.23, gRPC, CockroachDB)",
                "The user's terminal is Ghostty with fish as the shell.")),
           Note(W, "ids.md", _xum("IDs", "Context: wrenfold (Go 1.23, gRPC, CockroachDB)",
                "Primary keys are UUIDv7 so inserts stay roughly ordered in the ranges."))),
    _apart("context",
           Note(K, "parser.md", _xum("Parser", _KITTI,
                "The syslog parser accepts RFC 3164 and RFC 5424; anything else goes to "
                "the dead-letter file.")),
           Note(KC, "project_buffers.md", _claude("buffers", "disk buffer sizing", _KITTI,
                "The disk buffer is capped at 2 GiB per sink; past that the oldest segment "
                "is dropped and a counter bumped.")),
           Note(KW, "notes.md", _xum("tls reload", _KITTI,
                "- cert reload on SIGHUP works, key reload doesn't yet"))),
    # -- where the note applies --------------------------------------------------------
    _apart("scope",
           Note(P, "keychain.md", _xum("Keychain", "Applies to: the pellucid app and its "
                "share extension", "Keychain items sit in the `group.dev.pellucid` access "
                "group so both targets can read the session token.")),
           Note(PC, "feedback_haptics.md", _claude("haptics", "when to use haptics",
                "Applies to: the pellucid app and its share extension",
                "Haptics only on confirmed actions; the designer found them noisy on every "
                "tap.", kind="feedback"))),
    _apart("scope",
           Note(B, "retries.md", _xum("Retries", "Task retries: 3, with a 5-minute delay, "
                "exponential after the second.", "Applies to: every DAG in the brindle "
                "repo")),
           Note(B, "sensors.md", _xum("Sensors", "Sensors run in reschedule mode so they "
                "free their worker slot between pokes.", "Applies to: every DAG in the "
                "brindle repo")),
           Note(BC, "feedback_backfills.md", _claude("backfills", "how to backfill",
                "Backfills go through `airflow dags backfill` with `--reset-dagruns`, one "
                "month at a time.", "Applies to: every DAG in the brindle repo",
                kind="feedback"))),
    _apart("scope",
           Note(OA, "money.md", _described("how oakum handles money", "Money",
                "Prices are integer cents in `Money` value objects.",
                "Applies to: the storefront and the admin, not the legacy API",
                "- Currency conversion happens once, at checkout.\n"
                "- Tax is computed by the Avalara adapter.\n"
                "- Refunds reuse the original exchange rate.\n"
                "- Rounding is banker's rounding.")),
           Note(OA, "emails.md", _described("transactional email in oakum", "Emails",
                "Transactional mail goes out through Postmark.",
                "Applies to: the storefront and the admin, not the legacy API",
                "- Templates are MJML under `app/views/mailers`.\n"
                "- Previews at `/rails/mailers`.\n"
                "- The bounce webhook marks the address undeliverable.\n"
                "- Marketing mail is a different system entirely."))),
    # -- who owns it -------------------------------------------------------------------
    _apart("owner",
           Note(B, "warehouse.md", _xum("Warehouse", "Owner: data platform · channel "
                "#brindle-pipelines", "The warehouse is BigQuery, one dataset per source "
                "system, partitioned by ingestion day.")),
           Note(BW, "notes.md", _xum("dedupe job", "Owner: data platform · channel "
                "#brindle-pipelines", "- duplicate events come from the mobile SDK retrying "
                "on 502\n- dedupe key: event_id + device_id"))),
    _apart("owner",
           Note(K, "release.md", _xum("Release", "Owner: Ruth Okafor · Slack #kittiwake-dev",
                "cargo-dist builds the tarballs and the Homebrew formula on a `v*` tag.")),
           Note(K, "windows.md", _xum("Windows", "Owner: Ruth Okafor, Slack #kittiwake-dev",
                "On Windows the event log source needs admin rights the first time only.")),
           Note(KC, "project_metrics.md", _claude("metrics", "metrics endpoint",
                "Owner: Ruth Okafor / Slack #kittiwake-dev", "Prometheus metrics are served "
                "on the admin listener, never on the ingest port."))),
    _apart("owner",
           Note(OA, "maintainers.md", _bare("Maintainers: Ines Duarte, Paulo Reis",
                "Gem upgrades land on Mondays so the week has time to catch regressions.")),
           Note(OT, "caching.md", _bare("Maintainers: Ines Duarte, Paulo Reis",
                "Fragment caches key on the product's `cache_version`, bumped by the "
                "importer."))),
    # -- related notes ------------------------------------------------------------------
    _apart("related",
           Note(OA, "replicas.md", _xum("Replicas", "Reads for reports go to the replica "
                "through `connects_to`; writes never do.", "Related: [[sidekiq-queues]], "
                "[[mysql-replicas]]")),
           Note(OT, "imports.md", _xum("Imports", "The supplier CSV import runs at 02:00 "
                "and locks the catalogue for about ten minutes.", "Related: "
                "[[sidekiq-queues]], [[mysql-replicas]]"))),
    _apart("related",
           Note(B, "lineage.md", _xum("Lineage", "Column lineage comes from dbt's manifest, "
                "published to DataHub after each run.", "See also: sensors.md, retries.md")),
           Note(B, "costs.md", _xum("Costs", "BigQuery slots are on a 500-slot reservation; "
                "ad-hoc queries use on-demand.", "See also: retries.md, sensors.md")),
           Note(BW, "slots.md", _xum("slot contention", "- the 06:00 batch collides with "
                "the finance dashboards", "See also: sensors.md · retries.md"))),
    # -- a footer ------------------------------------------------------------------------
    _apart("footer",
           Note(K, "config.md", _xum("Config", "Config is TOML; environment variables "
                "override it with the `KITTIWAKE_` prefix.", "Last reviewed: 2026-10-30 by "
                "Ruth")),
           Note(K, "sinks.md", _xum("Sinks", "The S3 sink batches 8 MiB or 60 s, whichever "
                "comes first.", "Last reviewed: 2026-10-30 by Ruth")),
           Note(KC, "project_journald.md", _claude("journald", "reading journald",
                "Journald is read through the C API, not by shelling out to journalctl.",
                "Last reviewed: 2026-10-30 by Ruth"))),
    _apart("footer",
           Note(OA, "assets.md", _xum("Assets", "Assets are served by Thruster in front of "
                "Puma, with far-future cache headers.", "Last checked: October 2026, Ines")),
           Note(OC, "reference_cdn.md", _claude("cdn", "the CDN in front of oakum",
                "Bunny CDN pulls from the origin; purges go through its API key in the "
                "credentials file.", "Last checked: Ines, October 2026",
                kind="reference"))),
    _apart("footer",
           Note(M, "source.md", _xum("Telemetry", "Telemetry events are exported to "
                "Honeycomb through OpenTelemetry.", "Source: https://wiki.marrowfield.dev/"
                "platform/observability")),
           Note(MC, "reference_alerts.md", _claude("alerts", "alerting", "Alerts page the "
                "on-call through Opsgenie after two failed health checks.",
                "Source: https://wiki.marrowfield.dev/platform/observability",
                kind="reference"))),
    # -- a preamble after a heading --------------------------------------------------------
    _apart("preamble",
           Note(M, "audience-1.md", _xum("LiveView hooks", "Audience: new contributors to "
                "marrowfield", "JS hooks live in `assets/js/hooks/` and are registered in "
                "`app.js` by name.")),
           Note(M, "audience-2.md", _xum("Seeds", "Audience: new contributors to "
                "marrowfield", "`mix seed.demo` loads two orgs with a month of fake "
                "bookings.")),
           Note(MC, "project_releases.md", _claude("releases", "how releases go out",
                "Audience: new contributors to marrowfield", "Releases are built with "
                "`mix release` in Docker and shipped to Fly.io."))),
    _apart("preamble",
           Note(PW, "triage.md", _xum("crash triage", "Env: TestFlight build 412 · "
                "Device: iPhone 12 mini", "- crash on cold start when the widget extension "
                "holds the DB lock")),
           Note(PW, "share-sheet.md", _xum("share sheet bug", "Env: TestFlight build 412 · "
                "Device: iPhone 12 mini", "- the share sheet drops images over 20 MB "
                "silently"))),
    _apart("preamble",
           Note(C, "pellucid-xcode.md", _xum("Task group: pellucid builds", "Workspace: "
                "~/src/pellucid · Xcode 16.1", "## Durable notes", "- Archive builds need "
                "the `Release-Store` scheme, not `Release`.")),
           Note(C, "pellucid-tests.md", _xum("Task group: pellucid tests", "Workspace: "
                "~/src/pellucid · Xcode 16.1", "## Durable notes", "- Snapshot tests are "
                "recorded on the iPhone 15 simulator only."))),
    _apart("preamble",
           Note(KW, "batching.md", _bare("kittiwake batching spike", "Env: staging "
                "(eu-west-1) · Branch: ruth/ingest-batching", "- batching by 500 halves the "
                "CPU per event")),
           Note(KW, "loki.md", _bare("Env: staging (eu-west-1) · Branch: "
                "ruth/ingest-batching", "- the Loki sink returns 429 above 4 MB per push"))),
    # -- a note template's fixed line, the project filled in -------------------------------
    _apart("filled",
           Note(OA, "adr-012.md", _xum("ADR 012: Solid Queue for cron", "Status: accepted · "
                "Deciders: Ines, Paulo · Project: oakum", "Recurring jobs move from "
                "sidekiq-cron to Solid Queue's recurring tasks.")),
           Note(OA, "adr-015.md", _xum("ADR 015: Kamal over Capistrano", "Status: accepted "
                "· Deciders: Ines, Paulo · Project: oakum", "Deploys are container images "
                "pushed by Kamal; the Capistrano recipes are deleted."))),
    _apart("filled",
           Note(K, "adr-3.md", _xum("ADR 3: one binary", "Status: accepted · Deciders: "
                "Ruth, Femi · Project: kittiwake", "The agent and the CLI ship as one "
                "binary with subcommands.")),
           Note(K, "adr-5.md", _xum("ADR 5: no plugins", "Status: accepted · Deciders: "
                "Ruth, Femi · Project: kittiwake", "Sinks are compiled in; a WASM plugin "
                "ABI was rejected as too young.")),
           Note(KC, "project_adr-7.md", _claude("adr-7", "ADR 7", "Status: accepted · "
                "Deciders: Ruth, Femi · Project: kittiwake", "Config validation fails at "
                "startup, never lazily at first use."))),
    _apart("filled",
           Note(B, "runbook-late-data.md", _xum("Late data", "Runbook for: brindle · "
                "Severity: SEV2 · Pager: data-oncall", "Check the source's export job "
                "first; nine times in ten it is the vendor's SFTP drop.")),
           Note(B, "runbook-dbt-fail.md", _xum("dbt run failed", "Runbook for: brindle · "
                "Pager: data-oncall · Severity: SEV2", "Rerun the failed model alone with "
                "`dbt build -s model+`; a full rerun burns the slot budget."))),
    _apart("filled",
           Note(OC, "reference_ci.md", _claude("ci", "oakum's CI", "Repo: "
                "github.com/oakum-co/oakum · default branch trunk", "CI is Buildkite; the "
                "system tests run on four parallel agents.", kind="reference")),
           Note(OC, "project_flags.md", _claude("flags", "feature flags in oakum",
                "Repo: github.com/oakum-co/oakum · default branch trunk", "Flipper flags "
                "are cached for 30 seconds per process."))),
    _apart("filled",
           Note(OA, "team-pay.md", _xum("Refund flow", "Team: payments · Slack "
                "#oakum-payments · PagerDuty: oakum-pay", "Partial refunds are capped at "
                "the captured amount minus earlier refunds.")),
           Note(OC, "project_chargebacks.md", _claude("chargebacks", "chargebacks",
                "Team: payments · Slack #oakum-payments · PagerDuty: oakum-pay",
                "Chargeback evidence is uploaded within seven days or the dispute is "
                "lost."))),
    # -- the project's line with a negation in it (a scope, still no claim of the note) ----
    _apart("scope",
           Note(W, "load.md", _xum("Load tests", "Environment: staging only (eu-west-1), "
                "not production", "The ghz load test holds 3,000 RPS on four pods.")),
           Note(WC, "project_chaos.md", _claude("chaos", "chaos drills", "Environment: "
                "staging only (eu-west-1), not production", "Chaos drills kill one "
                "CockroachDB node a week, on Wednesdays."))),
    # -- a keyword line (already no statement): a control ---------------------------------
    _apart("context",
           Note(M, "migrations.md", _xum("Migrations", "Tags: ecto, migrations, postgres, "
                "zero-downtime", "Columns are added nullable, backfilled in batches, then "
                "made NOT NULL.")),
           Note(MC, "feedback_locks.md", _claude("locks", "lock timeouts", "Tags: ecto, "
                "migrations, postgres, zero-downtime", "Set `lock_timeout` to 5s in every "
                "migration that alters a hot table.", kind="feedback"))),
)  # fmt: skip


SAME: tuple[Shared, ...] = (
    # -- a rule with a colon, in 2 and in 3 notes --------------------------------------
    _same("colon",
          Note(OA, "deploys.md", _xum("Deploys", "- Kamal builds on the CI agent, not "
               "locally.\n- Deploys: only from main, never on Fridays.")),
          Note(OC, "feedback_deploys.md", _claude("deploys", "when to deploy", "Ask Ines "
               "before a deploy that includes a migration.", "Deploys: only from main, never "
               "on Fridays.", kind="feedback"))),
    _same("colon",
          Note(K, "tags.md", _xum("Tags", "Tags are `vMAJOR.MINOR.PATCH`, no `-rc` on "
               "main.", "Releases: only from a signed tag, never from a branch.")),
          Note(KC, "feedback_release.md", _claude("release", "releasing kittiwake",
               "Releases: only from a signed tag, never from a branch.", "The changelog is "
               "written by hand, per release.", kind="feedback")),
          Note(KW, "release-prep.md", _xum("release 0.9 prep", "- crates.io token expires in "
               "December", "- Releases: only from a signed tag, never from a branch"))),
    _same("colon",
          Note(M, "ecto.md", _xum("Ecto", "Migrations: always reversible, never in the same "
               "PR as the code that needs them.", "Repo functions stay in context modules.")),
          Note(MC, "feedback_migrations.md", _claude("migrations", "migration rules",
               "Migrations: always reversible, never in the same PR as the code that needs "
               "them.", kind="feedback"))),
    _same("colon",
          Note(K, "testing.md", _xum("Testing", "Tests: run `cargo nextest run`, never plain "
               "`cargo test`.", "Property tests use proptest with 256 cases.")),
          Note(G, "rust.md", _xum("Rust", "- Clippy with `-D warnings` in CI.\n- Tests: run "
               "`cargo nextest run`, never plain `cargo test`."))),
    _same("colon",
          Note(M, "ecto-2.md", _xum("Migrations policy", "The migration lock is "
               "`pg_advisory_lock`.", "Ecto: every migration gets a `down`; no `execute` "
               "without one.")),
          Note(MC, "feedback_ecto.md", _claude("ecto", "ecto", "Ecto: every migration gets "
               "a `down`; no `execute` without one.", "Ask before adding a new Repo.",
               kind="feedback"))),
    # -- a fact with a label, in the body -----------------------------------------------
    _same("fact",
          Note(OA, "deploy-window.md", _xum("Deploy window", "Deploys need a green build on "
               "trunk.", "Prod deploy window: Tuesdays and Thursdays, 10:00–15:00 CET.")),
          Note(OW, "train.md", _xum("release train", "- train leaves Tuesday morning",
               "- Prod deploy window: Tuesdays and Thursdays, 10:00–15:00 CET"))),
    _same("fact",
          Note(B, "retention.md", _xum("Retention", "Raw exports are encrypted with the "
               "project KMS key.", "Retention: 30 days for raw events, 13 months for "
               "aggregates.")),
          Note(BC, "project_gdpr.md", _claude("gdpr", "GDPR duties", "Deletion requests "
               "are processed by the weekly erasure DAG.", "Retention: 30 days for raw "
               "events, 13 months for aggregates.")),
          Note(BW, "audit.md", _xum("audit prep", "- auditors asked for the DPA list",
               "- Retention: 30 days for raw events, 13 months for aggregates"))),
    _same("fact",
          Note(OA, "review.md", _xum("Review", "Reviews happen in GitHub, never in chat.",
               "Code review: two approvals for anything under `app/models/billing`.")),
          Note(OT, "billing.md", _xum("Billing", "The billing models are the oldest code in "
               "the repo.", "Code review: two approvals for anything under "
               "`app/models/billing`."))),
    _same("fact",
          Note(P, "staging.md", _xum("Staging", "Staging URL: https://staging.pellucid.app "
               "(basic auth in 1Password)", "Staging resets every Sunday night.")),
          Note(PC, "reference_envs.md", _claude("envs", "environments", "Production is "
               "behind Cloudflare.", "Staging URL: https://staging.pellucid.app (basic auth "
               "in 1Password)", kind="reference"))),
    _same("fact",
          Note(P, "concurrency.md", _xum("Concurrency", "Swift concurrency: strict "
               "checking is on for every target.", "Actors guard the image cache.")),
          Note(PC, "feedback_swift6.md", _claude("swift6", "Swift 6 migration", "We finished "
               "the Swift 6 migration in September.", "Swift concurrency: strict checking "
               "is on for every target.", kind="feedback"))),
    # -- a rule or fact copied word for word, 2 and 3 notes ------------------------------
    _same("copied",
          Note(OA, "cards.md", _xum("Cards", "Never log full card numbers; mask all but the "
               "last four.", "Card tokens come from Stripe Elements.")),
          Note(OT, "logging.md", _xum("Logging", "Lograge formats request logs as JSON.",
               "Never log full card numbers; mask all but the last four.")),
          Note(OC, "feedback_pci.md", _claude("pci", "PCI scope", "Never log full card "
               "numbers; mask all but the last four.", "The PCI scope is the checkout "
               "controller and the webhook.", kind="feedback"))),
    _same("copied",
          Note(M, "format.md", _xum("Formatting", "Credo runs in strict mode.", "Run `mix "
               "format --check-formatted` before every push.")),
          Note(G, "elixir.md", _xum("Elixir", "- Pattern match in function heads over "
               "`case` on the argument.\n- Run `mix format --check-formatted` before every "
               "push."))),
    _same("copied",
          Note(M, "liveview.md", _xum("LiveView", "The LiveView socket times out after 45 "
               "seconds of silence.", "Streams replace assigns for long lists.")),
          Note(MC, "project_socket.md", _claude("socket", "socket behaviour", "Reconnects "
               "back off up to 10 s.", "The LiveView socket times out after 45 seconds of "
               "silence.")),
          Note(G, "marrowfield-ops.md", _xum("marrowfield ops", "Fly machines restart in "
               "place on deploy.", "The LiveView socket times out after 45 seconds of "
               "silence."))),
    _same("copied",
          Note(G, "logging.md", _xum("Logging", "Prefer `structlog` over the stdlib logger "
               "in new modules.")),
          Note(B, "style.md", _xum("Style", "- Type hints on every public function.\n"
               "- Prefer `structlog` over the stdlib logger in new modules."))),
    _same("copied",
          Note(OA, "stripe.md", _xum("Stripe", "Never call the Stripe API from a controller; "
               "enqueue a job.", "Webhooks are verified with the signing secret.")),
          Note(OC, "feedback_stripe.md", _claude("stripe", "Stripe calls", "Never call the "
               "Stripe API from a controller — enqueue a job instead.", kind="feedback"))),
    # -- a rule opening the notes that hold it -------------------------------------------
    _same("opening",
          Note(B, "providers.md", _bare("Always pin Airflow providers to exact versions.",
               "The constraints file comes from the Airflow release.")),
          Note(BC, "feedback_pins.md", _claude("pins", "pinning providers", "Always pin "
               "Airflow providers to exact versions.", "A minor release of the Google "
               "provider broke the BigQuery operator once.", kind="feedback"))),
    _same("opening",
          Note(OA, "trunk-1.md", _bare("Never push to `trunk` directly; open a PR.",
               "Branch names start with the ticket key.")),
          Note(OT, "trunk-2.md", _bare("Never push to `trunk` directly; open a PR.",
               "Draft PRs are fine for early feedback.")),
          Note(OC, "feedback_trunk.md", _claude("trunk", "trunk rules", "Never push to "
               "`trunk` directly; open a PR.", "Rebase on trunk before asking for review.",
               kind="feedback"))),
    _same("opening",
          Note(W, "flags.md", _xum("Flags", "Feature flags: OpenFeature with the flagd "
               "provider, and every flag is removed within two sprints.", "Flag names are "
               "kebab-case.")),
          Note(WC, "feedback_flags.md", _claude("flags", "flag hygiene", "Feature flags: "
               "OpenFeature with the flagd provider, and every flag is removed within two "
               "sprints.", kind="feedback"))),
    _same("opening",
          Note(K, "build.md", _xum("Build", "Build cache: sccache on S3, bucket "
               "kittiwake-sccache, shared by CI and laptops", "Release builds use `lto = "
               "\"fat\"`.")),
          Note(KC, "project_ci.md", _claude("ci", "kittiwake CI", "Build cache: sccache on "
               "S3, bucket kittiwake-sccache, shared by CI and laptops", "CI runs on "
               "GitHub's ARM runners too."))),
    # -- the same fact in other words or a bullet and prose -------------------------------
    _same("reworded",
          Note(K, "limits.md", _xum("Limits", "The ingest API rejects payloads over 5 MB.",
               "Gzip bodies are inflated before the check.")),
          Note(KC, "project_limits.md", _claude("limits", "payload limits", "Payloads over "
               "5 MB are rejected by the ingest API."))),
    _same("reworded",
          Note(P, "images.md", _xum("Images", "- Image uploads are resized to 2048 px on the "
               "long edge before upload.\n- HEIC is converted to JPEG.")),
          Note(GE, "GEMINI-2.md", _gemini("pellucid resizes image uploads to 2048 px on the "
               "long edge before upload.", "The user's Mac is an M3 Pro."))),
    _same("reworded",
          Note(W, "migrations.md", _xum("Schema changes", "Schema changes go through "
               "`atlas migrate`, reviewed by Sunita.")),
          Note(WC, "project_schema.md", _claude("schema", "schema changes", "Schema "
               "changes: `atlas migrate`, and Sunita reviews each one."))),
)  # fmt: skip


@dataclass(frozen=True)
class Tally:
    """What the groups found make of the sets: sets found whole (their notes joined, a
    note to another directly or through a third: a rule group names one note of a
    reworded group) and their pairs joined, by kind; near-miss sets with a pair joined
    and the pairs joined, by kind; pairs joined of two sets; and the precision of the
    pairs joined (right: a `duplicate` set's; wrong: a `neither` set's or two sets')."""

    found: dict[str, list[int]]
    near: dict[str, list[int]]
    across: list[tuple[str, str]]
    right: int
    wrong: int

    @property
    def precision(self) -> float:
        return self.right / (self.right + self.wrong) if self.right + self.wrong else 1.0


def laid_out(sets: Sequence[Shared]) -> tuple[list[Document], dict[str, tuple[int, int]]]:
    """Every set's notes and the background as memories (each with a unique name: a mux
    project's notes share one folder's names, a workspace's too), and
    the sets' ids of them: a path → its set's number (-1 for the background) and place."""
    notes = [(n, (i, j)) for i, s in enumerate(sets) for j, n in enumerate(s.notes)]
    notes += [(n, (-1, j)) for j, n in enumerate(BACKGROUND)]
    names = unique_names((n.place.partition(":")[0], n.name) for n, _ in notes)
    documents = [memory(n.place, name, n.text) for (n, _), name in zip(notes, names, strict=True)]
    ids = {d.path: who for d, (_, who) in zip(documents, notes, strict=True)}
    assert len(ids) == len(documents)
    return documents, ids


def tally(
    groups: Sequence[Sequence[str]], ids: dict[str, tuple[int, int]], sets: Sequence[Shared]
) -> Tally:
    """`groups`: each group's members' paths; `ids`: as `laid_out` gives them."""
    joined = {
        frozenset(pair)
        for members in groups
        for pair in combinations(members, 2)
        if len(set(pair)) == 2
    }
    by_id = {who: path for path, who in ids.items()}
    found: dict[str, list[int]] = {}
    near: dict[str, list[int]] = {}
    right = wrong = 0
    for number, shared in enumerate(sets):
        paths = [by_id[(number, j)] for j in range(len(shared.notes))]
        hits = sum(frozenset(pair) in joined for pair in combinations(paths, 2))
        if shared.expected == "duplicate":
            counts = found.setdefault(shared.kind, [0, 0])
            counts[0] += _connected(paths, joined)
            right += hits
        else:
            counts = near.setdefault(shared.kind, [0, 0])
            counts[0] += hits > 0
            wrong += hits
        counts[1] += 1
    across = sorted((min(pair), max(pair)) for pair in joined if len({ids[p][0] for p in pair}) > 1)
    return Tally(found, near, across, right, wrong + len(across))


def _connected(paths: Sequence[str], joined: set[frozenset[str]]) -> bool:
    """Whether the notes are one through the pairs joined."""
    reached, todo = {paths[0]}, [paths[0]]
    while todo:
        one = todo.pop()
        for other in paths:
            if other not in reached and frozenset((one, other)) in joined:
                reached.add(other)
                todo.append(other)
    return reached == set(paths)
