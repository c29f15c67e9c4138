"""The kinds of software work a prompt can be about, each named by the words and tools that
say it: what a model reads in a prompt beyond its words ("ship a build" is release work, "the
wrong time for people abroad" is time zones). Pure data and lookups, no I/O."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache

KINDS: dict[str, str] = {
    # Each kind: its words, a comma between them; a phrase's words must all be held.
    "schema change": "migration, migrate, migrations, schema, column, columns, table, tables, "
    "alembic, flyway, liquibase, ddl, alter, makemigrations, field",
    "testing": "test, tests, testing, unittest, pytest, jest, vitest, mocha, rspec, junit, "
    "fixture, fixtures, factory, factories, mock, mocking, coverage, regression, e2e, "
    "maestro, playwright, cypress, detox, snapshot, assert, table driven",
    "local setup": "laptop, macbook, machine, locally, local, setup, install, onboarding, "
    "bootstrap, devcontainer, docker, compose, prerequisites, toolchain, dev environment, "
    "homebrew, brew, fnm, nvm, pyenv, seed",
    "release": "release, releases, ship, shipping, deploy, deploys, deployment, rollout, "
    "roll out, publish, store submission, app store, play store, testflight, ota, hotfix, "
    "production, prod, staging, version bump, build number, changelog",
    "build": "build, builds, ci, pipeline, workflow, artifact, bundle, eas, fastlane, "
    "xcode cloud, bitrise, circleci, jenkins, github actions, gradle, xcodebuild, compile",
    "analytics": "analytics, track, tracking event, event name, events, funnel, amplitude, "
    "mixpanel, segment, posthog, telemetry, instrument, instrumentation, kpi, conversion, "
    "retention, cohort, metric, metrics",
    "errors and monitoring": "error, errors, exception, exceptions, crash, crashes, crashed, "
    "crashing, sentry, bugsnag, rollbar, crashlytics, stack trace, traceback, loki, "
    "datadog, grafana, prometheus, observability, monitoring, apm, new relic, honeycomb",
    "logging": "log, logs, logging, logger, pino, structlog, print, verbosity",
    "time zones": "time zone, time zones, timezone, timezones, tz, utc, gmt, dst, daylight, "
    "abroad, travel, travels, travelling, traveling, offset, iana, local time, wall clock",
    "translation": "translation, translations, translate, translated, translator, "
    "localization, localisation, localize, i18n, l10n, locale, language, languages, "
    "i18next, gettext, lokalise, crowdin, plural, rtl, spanish, french, german",
    "sign-in": "auth, authentication, authenticate, login, signin, logout, "
    "session, sessions, jwt, oauth, sso, saml, password, passwords, mfa, 2fa, middleware",
    "access control": "permission, permissions, role, roles, rbac, acl, access, isolation, "
    "tenant, tenants, tenancy, organization, organisation, row level security, rls, "
    "authorization, authorisation, privilege",
    "rate limits": "429, rate limit, rate limits, rate limited, throttle, throttled, "
    "throttling, quota, quotas, backoff, too many requests, retry after, limit",
    "performance": "slow, slowly, slowness, latency, lag, laggy, stutter, stutters, jank, "
    "freeze, freezes, fps, frame, frames, perf, performance, profile, profiler, profiling, "
    "hot path, allocation, allocations, gc, garbage, budget, optimize, optimise, bottleneck, "
    "explain, index, indexes, pagination, n+1",
    "secrets": "secret, secrets, api key, credential, credentials, token, tokens, vault, "
    "secrets manager, rotate, rotation, env, dotenv, 1password, ssm, signing key, "
    "certificate, password",
    "screens and navigation": "screen, screens, page, pages, view, views, navigation, "
    "navigate, navigator, route, routes, router, routing, tab, tabs, modal, deep link, "
    "deep links, layout, expo router, react navigation",
    "design system": "design system, design tokens, token, colour, colours, color, colors, "
    "theme, theming, dark mode, light mode, typography, font, spacing, component, "
    "components, button, buttons, icon, icons, style, styles, css, tailwind",
    "payments": "payment, payments, pay, paid, charge, charged, purchase, purchases, "
    "purchased, buy, bought, billing, invoice, invoices, receipt, receipts, refund, "
    "subscription, iap, in app purchase, stripe, checkout, fee, fees, entitlement",
    "notifications": "notification, notifications, push notification, reminder, reminders, "
    "notify, email, emails, sms, apns, fcm, expo push, alert, alerts, inbox",
    "version control": "git, commit, commits, push, pushed, pull, pulled, branch, branches, "
    "merge, rebase, pull request, pr, prs, review, force push, lfs, large file, binary, "
    "squash, cherry pick",
    "dependencies": "upgrade, upgrades, bump, dependency, dependencies, major, package, "
    "packages, lockfile, renovate, dependabot, npm, pnpm, pip, cargo, semver, lts",
    "background jobs": "job, jobs, queue, queues, worker, workers, cron, scheduled, "
    "celery, sidekiq, bullmq, rq, beat, retry, retries, dead letter",
    "caching": "cache, cached, caching, redis, memcached, ttl, invalidate, invalidation, "
    "stale, persister, offline",
    "offline": "offline, no signal, airplane mode, sync, syncing, reconnect, persister, queued",
    "realtime connections": "websocket, websockets, socket, sockets, disconnect, "
    "disconnects, disconnecting, reconnect, reconnects, heartbeat, ping, keepalive, idle, "
    "timeout, sse, long polling, mqtt, broker",
    "infrastructure": "terraform, infra, infrastructure, provision, cluster, kubernetes, "
    "k8s, helm, aws, gcp, azure, instance, environment, environments, staging, vpc, dns",
    "privacy": "pii, personal data, gdpr, privacy, consent, anonymize, anonymise, erase, "
    "erasure, retention, dpo, hipaa, phi",
    "incidents": "paged, page, pager, pagerduty, oncall, on call, incident, incidents, "
    "outage, down, escalation, postmortem, rota, runbook",
    "feature flags": "feature flag, feature flags, flag, flags, toggle, toggles, rollout, "
    "unleash, launchdarkly, experiment, experiments, kill switch, enable, turn",
    "api design": "endpoint, endpoints, api, rest, openapi, swagger, graphql, handler, "
    "handlers, controller, viewset, serializer, request, response, status code, "
    "pagination, versioning, error body",
    "code review and pull requests": "pull request, pr, prs, review, reviewer, reviewers, "
    "diff, diffs, small, split, refactor, squash merge, screenshot",
    "hardware and firmware": "firmware, device, devices, ota, flash, flashing, bootloader, "
    "reboot, rebooted, watchdog, brownout, battery, batteries, sensor, sensors, "
    "calibration",
}
"""Each kind of work a prompt may be about and the words and tools that say it: a general
taxonomy of an application team's work, not any one project's vocabulary."""


@dataclass(frozen=True)
class Kind:
    """A kind of work and its words, each a tuple of stems (a phrase: all its stems)."""

    name: str
    words: tuple[tuple[str, ...], ...]

    def said_by(self, stems: Iterable[str]) -> tuple[str, ...]:
        """The stems of `stems` that say this kind on their own or as a whole phrase."""
        held = frozenset(stems)
        said: list[str] = []
        for phrase in self.words:
            if held.issuperset(phrase):
                said += [s for s in phrase if s not in said]
        return tuple(said)

    def held_beside(self, held: frozenset[str], own: frozenset[str]) -> bool:
        """Whether `held` says this kind with a word that is not one of `own` (the prompt's)."""
        return any(held.issuperset(p) and not own.issuperset(p) for p in self.words)


@cache
def kinds(stem: object) -> tuple[Kind, ...]:
    """Every kind, its words stemmed by `stem` (a word's stem, "" for a stop word)."""
    assert callable(stem)
    built: list[Kind] = []
    for name, text in KINDS.items():
        phrases: list[tuple[str, ...]] = []
        for phrase in text.split(","):
            stems = tuple(s for s in (stem(w) for w in phrase.split()) if s)
            if stems and stems not in phrases:
                phrases.append(stems)
        built.append(Kind(name, tuple(phrases)))
    return tuple(built)
