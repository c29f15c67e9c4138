"""A small labelled set of pairs of statements, written from issue 83's kinds: the same
rule reworded, opposites (always/never, do/don't), other tool choices, and near misses —
each pair a global note and a project's note, so a session sees them together.

`Case.expected` is what the two are: `duplicate` (the same rule in other words),
`contradiction` (they can't both hold) or `neither` (alike in words, not in meaning). The
notes' other line is a fact of its own (no two notes share one), so what is found joins
the pair's two lines or nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Expected = Literal["duplicate", "contradiction", "neither"]


@dataclass(frozen=True)
class Case:
    kind: str
    one: str
    other: str
    expected: Expected


CASES: tuple[Case, ...] = (
    # Opposites: always/never, do/don't.
    Case("always/never", "Never rebase on main.",
         "Always rebase on main before asking for review.", "contradiction"),
    Case("always/never", "Always write commit messages in English.",
         "Never write commit messages in English; the team uses German.", "contradiction"),
    Case("always/never", "Always squash-merge pull requests.",
         "Never squash-merge pull requests; keep every commit.", "contradiction"),
    Case("always/never", "Use tabs for indentation in the Makefile.",
         "Don't use tabs for indentation in the Makefile.", "contradiction"),
    Case("always/never", "Run the database migrations before deploying.",
         "Do not run the database migrations before deploying.", "contradiction"),
    Case("always/never", "Never force-push to the release branch.",
         "Always force-push to the release branch after a rebase.", "contradiction"),
    # Tool choices.
    Case("tool", "Use pnpm, not npm.", "Use npm, not pnpm.", "contradiction"),
    Case("tool", "We use vitest for the frontend tests.",
         "Stick to jest for the frontend tests.", "contradiction"),
    Case("tool", "Use ruff for linting.", "Use flake8 for linting.", "contradiction"),
    Case("tool", "Use podman for local containers.",
         "Use docker for local containers, never podman.", "contradiction"),
    Case("tool", "Use uv to install Python packages.",
         "Use poetry to install Python packages.", "contradiction"),
    Case("tool", "Prefer httpx over aiohttp.", "Use aiohttp for every HTTP call.",
         "contradiction"),
    # The same rule in other words.
    Case("reworded", "Use pnpm, not npm.", "Prefer pnpm over npm in this repo.", "duplicate"),
    Case("reworded", "Always rebase on main before asking for review.",
         "Rebase onto main before you request a review.", "duplicate"),
    Case("reworded", "Commit messages use the imperative mood.",
         "Write commit messages in the imperative mood.", "duplicate"),
    Case("reworded", "Never commit `.env` files.", "`.env` files must never be committed.",
         "duplicate"),
    Case("reworded", "The staging database is reset every night at 02:00 UTC.",
         "Every night at 02:00 UTC the staging database gets reset.", "duplicate"),
    Case("reworded", "Squash-merge pull requests.", "Pull requests are squash-merged.",
         "duplicate"),
    Case("reworded", "Run `make lint` before pushing.", "Before you push, run `make lint`.",
         "duplicate"),
    Case("reworded", "Keep migrations idempotent.", "Migrations must be idempotent.",
         "duplicate"),
    # Near misses: alike in words, neither the same rule nor at odds.
    Case("near-miss", "Branch names are kebab-case.", "Test names are kebab-case.", "neither"),
    Case("near-miss", "The API runs on port 8080.", "The admin UI runs on port 8080.", "neither"),
    Case("near-miss", "Always run the linter before pushing.",
         "Always run the tests before pushing.", "neither"),
    Case("near-miss", "Never deploy on Fridays.", "Never merge on Fridays.", "neither"),
    Case("near-miss", "Always run the tests.", "Never run the tests against production.",
         "neither"),
    Case("near-miss", "Ask Priya to review database migrations.",
         "Ask Priya to review the billing code.", "neither"),
    Case("near-miss", "Use pnpm for the web app.", "Use yarn for the docs site.", "neither"),
    Case("near-miss", "Never log request bodies.", "Never log response headers.", "neither"),
)  # fmt: skip

FILLERS = (
    "The on-call rotation lives in PagerDuty.", "Invoices are rendered with WeasyPrint.",
    "The nightly export lands in the reports bucket.", "Sentry groups errors by release.",
    "Feature flags are read at start-up.", "The search index is rebuilt on Sundays.",
    "Translations are edited in Crowdin.", "The mobile app ships every other Tuesday.",
    "Grafana alerts go to the #ops channel.", "Customer data stays in the EU region.",
    "The design system lives in Figma.", "Load tests run against the perf cluster.",
    "Receipts are emailed by the mailer worker.", "The cron jobs are listed in ops/cron.",
    "Webhooks retry five times with backoff.", "The CDN caches images for a week.",
    "Audit logs are kept for seven years.", "Refunds need a second approval.",
    "The public API is versioned by date.", "Uploads are scanned for viruses.",
    "Session cookies expire after a day.", "Exports are zipped before upload.",
    "The changelog is written by hand.", "The docs site builds from the main branch.",
    "The billing worker runs hourly.", "Staff accounts use hardware keys.",
    "Dashboards refresh every minute.", "Support tickets sync from Zendesk.",
    "The data warehouse loads at dawn.", "Backups are tested each quarter.",
    "Rate limits are per API key.", "The status page is hosted elsewhere.",
    "Onboarding docs live in Notion.", "The search ranking uses click data.",
    "Emails are sent through Postmark.", "The admin panel needs the VPN.",
    "Thumbnails are made on upload.", "Time zones are stored as UTC.",
    "The mobile API has its own gateway.", "Coupons expire at midnight.",
    "Logs ship to Loki.", "PDF exports use a queue.",
    "Slack bots post release notes.", "The sandbox resets weekly.",
    "Metrics are scraped every 15 seconds.", "Partners get read-only keys.",
    "The style guide is in the wiki.", "Old branches are pruned monthly.",
    "Queues are drained before a deploy.", "The SDKs are generated from the spec.",
    "Usernames are case-insensitive.", "The map tiles come from our CDN.",
    "Payouts run on business days.", "Trials last fourteen days.",
    "Avatars are resized to 256 pixels.", "The sitemap is generated nightly.",
)  # fmt: skip


def notes() -> list[tuple[str, str, str, int, str]]:
    """Each case's two notes: (id, place, name, case number, text), in case order."""
    made = []
    for number, case in enumerate(CASES):
        for side, (place, said) in enumerate(
            (("global", case.one), (f"project:meaning-{number % 4}", case.other))
        ):
            filler = FILLERS[(2 * number + side) % len(FILLERS)]
            text = f"# Notes {number}\n\n- {said}\n- {filler}\n"
            made.append((f"c{number}{'ab'[side]}", place, f"case-{number}.md", number, text))
    return made
