"""`duplicate_templates`' second batch, written after the engine's change it measures and
never tuned on (issue 83): 10 sets of notes sharing only a template's line (`AFTER`) and 6
sharing a rule or fact (`AFTER_SAME`), in projects and voices new here: halyard (a
TypeScript monorepo), pinnace (Django), gannet (a Flutter app)."""

from __future__ import annotations

from support.duplicate_templates import Shared, _apart, _bare, _claude, _gemini, _same, _xum
from support.duplicate_voices import Note

H, HC, HW = "project:halyard", "claude:halyard", "workspace:halyard"
PN, PNC, PNT = "project:pinnace", "claude:pinnace", "team:pinnace"
GA, GAC = "project:gannet", "claude:gannet"
GE = "gemini"

AFTER: tuple[Shared, ...] = (
    _apart("context",
           Note(H, "turbo.md", _xum("Turborepo", "Repo: halyard (pnpm workspaces, "
                "Turborepo, Next.js 15)", "Remote caching goes to Vercel; CI sets "
                "`TURBO_TOKEN` from the org secret.")),
           Note(H, "storybook.md", _xum("Storybook", "Repo: halyard (pnpm workspaces, "
                "Turborepo, Next.js 15)", "Storybook is deployed to Chromatic on every "
                "merge to main."))),
    _apart("context",
           Note(PN, "celery-queues.md", _xum("Celery queues", "Stack — Django 5.1, Celery, "
                "Redis, Postgres 16", "The `reports` queue has its own worker pool with a "
                "concurrency of one.")),
           Note(PNC, "project_admin.md", _claude("admin", "the Django admin", "Stack — "
                "Django 5.1, Celery, Redis, Postgres 16", "Staff users get the admin only "
                "through the SSO group `pinnace-staff`."))),
    _apart("context",
           Note(GA, "offline-counts.md", _bare("Context: gannet is the Flutter app for the "
                "bird-count survey", "Counts are queued in Hive boxes and synced when the "
                "device sees Wi-Fi.")),
           Note(GAC, "project_maps.md", _claude("maps", "map tiles", "Context: gannet is the "
                "Flutter app for the bird-count survey", "Map tiles come from a self-hosted "
                "tileserver-gl; offline packs are 40 MB per region."))),
    _apart("owner",
           Note(PN, "payments.md", _xum("Payments", "Adyen handles cards; SEPA debits go "
                "through GoCardless.", "Runbook owner: SRE (Tomasz) · escalation "
                "#pinnace-ops")),
           Note(PNT, "search.md", _xum("Search", "Search is Postgres full-text with a "
                "trigram index on titles.", "Runbook owner: SRE (Tomasz) · escalation "
                "#pinnace-ops"))),
    _apart("scope",
           Note(GA, "permissions.md", _xum("Permissions", "Scope: Android app, phones and "
                "tablets", "Location permission is asked on the first count, not at "
                "install.")),
           Note(GA, "crashes.md", _xum("Crashes", "Scope: Android app, phones and tablets",
                "Crashlytics is off in debug builds.")),
           Note(GAC, "project_builds.md", _claude("builds", "Android builds", "Scope: "
                "Android app, phones and tablets", "Release builds are signed by Play App "
                "Signing; the upload key sits in the team vault."))),
    _apart("related",
           Note(GA, "sync.md", _xum("Sync", "Related tickets: GAN-88, GAN-102",
                "Conflicts keep the count with the later observation time.")),
           Note(GAC, "feedback_sync-tests.md", _claude("sync tests", "testing sync",
                "Sync tests fake the clock with `clock` package's `Clock.fixed`.",
                "Related tickets: GAN-88, GAN-102", kind="feedback"))),
    _apart("footer",
           Note(H, "env.md", _xum("Env", "Env vars are validated by `@t3-oss/env-nextjs` "
                "at build time.", "Reviewed by: Amara, 2026-11")),
           Note(H, "images.md", _xum("Images", "`next/image` loads through the Cloudinary "
                "loader in production.", "Reviewed by: Amara, 2026-11")),
           Note(HC, "project_auth.md", _claude("auth", "auth in halyard", "Auth.js with "
                "the GitHub and email providers; sessions in the database.",
                "Reviewed by: Amara, 2026-11"))),
    _apart("preamble",
           Note(PN, "migrations.md", _xum("Migrations", "**Project:** pinnace · **Team:** "
                "growth", "Data migrations are separate from schema migrations and run "
                "after the deploy.")),
           Note(PNC, "project_emails.md", _claude("emails", "emails", "**Project:** pinnace "
                "· **Team:** growth", "Emails render with django-templated-email and send "
                "through SES."))),
    _apart("filled",
           Note(H, "incident-41.md", _xum("Incident 41", "Template: incident review · "
                "Service: halyard-web · Severity: SEV3", "The preview deployments leaked "
                "draft posts to search engines for two days.")),
           Note(H, "incident-44.md", _xum("Incident 44", "Template: incident review · "
                "Service: halyard-web · Severity: SEV3", "A bad middleware matcher sent "
                "every `/api` call through the auth redirect.")),
           Note(HW, "incident-47.md", _xum("Incident 47 (draft)", "Template: incident "
                "review · Service: halyard-web · Severity: SEV3", "- font files 404 after "
                "the CDN move"))),
    _apart("context",
           Note(GE, "GEMINI.md", _gemini("Project context: halyard, Next.js 15 "
                "with the app router", "The user writes commit messages in Polish when "
                "the repo is theirs.")),
           Note(H, "routing.md", _xum("Routing", "Project context: halyard, Next.js 15 "
                "with the app router", "Parallel routes are used for the dashboard modals."))),
)  # fmt: skip


AFTER_SAME: tuple[Shared, ...] = (
    _same("colon",
          Note(PN, "secrets.md", _xum("Secrets", "Secrets: never in the repo, always in "
               "Doppler.", "Local dev reads them through `doppler run`.")),
          Note(PNC, "feedback_secrets.md", _claude("secrets", "where secrets live",
               "Secrets: never in the repo, always in Doppler.", kind="feedback"))),
    _same("fact",
          Note(PN, "branches.md", _xum("Branches", "Default branch: develop; releases cut "
               "from main.", "Hotfix branches start with `hotfix/`.")),
          Note(PNT, "release.md", _xum("Release", "Release notes are drafted by "
               "release-drafter.", "Default branch: develop; releases cut from main."))),
    _same("copied",
          Note(PN, "celery-beat.md", _xum("Beat", "The Celery beat schedule lives in "
               "`pinnace/celery.py`.")),
          Note(PNC, "reference_celery.md", _claude("celery", "celery", "Workers are started "
               "by systemd units on the worker hosts.", "The Celery beat schedule lives in "
               "`pinnace/celery.py`.", kind="reference")),
          Note(PNT, "ops.md", _xum("Ops", "- The Celery beat schedule lives in "
               "`pinnace/celery.py`.\n- Flower runs on the bastion only."))),
    _same("fact",
          Note(GA, "android.md", _xum("Android", "Min SDK: 26 (Android 8.0)", "Target SDK "
               "follows the Play Store's yearly requirement.")),
          Note(GAC, "project_devices.md", _claude("devices", "supported devices", "The "
               "survey volunteers use old phones, so test on a Moto G5.", "Min SDK: 26 "
               "(Android 8.0)"))),
    _same("opening",
          Note(H, "turbo-cli.md", _bare("Use `pnpm dlx turbo` rather than a global turbo "
               "install.", "The pipeline is declared in `turbo.json`.")),
          Note(HC, "feedback_turbo.md", _claude("turbo", "running turbo", "Use `pnpm dlx "
               "turbo` rather than a global turbo install.", "A global install drifts "
               "from the lockfile's version.", kind="feedback"))),
    _same("fact",
          Note(GA, "api.md", _xum("API", "- API base URL: https://api.gannet.app/v2\n- "
               "Requests carry the survey id in `X-Survey`.")),
          Note(GAC, "reference_api.md", _claude("api", "the backend API", "Auth is a "
               "device token issued at first launch.", "API base URL: "
               "https://api.gannet.app/v2", kind="reference"))),
)  # fmt: skip
