"""How well a memory answers a prompt, judged from the words it is listed by: the prompt's
stemmed content words looked up in each candidate's fields, weighed by inverse document frequency;
words, not meaning. Pure Python, no I/O."""

from __future__ import annotations

import bisect
import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache

from memtab.store.text.stems import english_stem

PREFIX_WEIGHT = 0.7
MIN_PREFIX = 4
_WORD = re.compile(r"[^\W_]+", re.UNICODE)
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")
_STOP_WORDS = """
    a about above after again against all also am an and any are as at be because been before
    being below between both but by can could did do does doing done down during each else few
    for from further get got had has have having he her here hers him his how i if in into is
    it its itself just let like me more most my no nor not now of off on once only or other our
    ours out over own please same she should show so some such tell than that the their them
    then there these they this those through to too under until up us use used using very was
    we were what when where which while who whom why will with would you your yours remember
    know need want make makes made recall memory memories thing things way project file files md
    add adds added adding create creates created creating update updates updated updating
    change changes changed changing fix fixes fixed fixing write writes wrote written writing
    move moves moved moving take takes took taken taking give gives gave given giving look
    looks looked looking try tries tried trying keep keeps kept keeping work works worked
    working help helps helped helping start starts started starting stop stops stopped stopping
    find finds found finding see sees saw seen seeing set sets setting run runs ran running put
    puts putting new old one two three first last next still again
"""
STOP_WORDS = frozenset(_STOP_WORDS.split())
"""Words that say nothing of what a prompt is about: every memory's (`memory`, `md`), a task's
verbs, numbers and order."""


def words(text: str) -> list[str]:
    """The stems of `text`'s content words, in order (camelCase and snake_case split)."""
    raw = _WORD.findall(_CAMEL.sub(" ", text).replace("_", " "))
    return [stem for stem in map(_stem, raw) if stem]


def stems_of(text: str) -> frozenset[str]:
    """The stems of `text`'s content words, each once (`words` without their order)."""
    raw = set(_WORD.findall(_CAMEL.sub(" ", text).replace("_", " ")))
    return frozenset(map(_stem, raw)) - _NO_STEM


_NO_STEM = frozenset({""})


@lru_cache(maxsize=65536)
def _stem(word: str) -> str:
    """One word's stem, or "" for a stop word, a number or a lone ASCII letter."""
    folded = word.casefold()
    if folded in STOP_WORDS or folded.isdigit() or (len(folded) < 2 and folded.isascii()):
        return ""
    return english_stem(folded)


@dataclass(frozen=True)
class Fields:
    """What a candidate is listed by, each field with its weight."""

    parts: tuple[tuple[str, float], ...]

    @classmethod
    def of(cls, *parts: tuple[str, float]) -> Fields:
        return cls(tuple(parts))


@dataclass(frozen=True)
class Judgement:
    score: float
    """The summed weight of the prompt's words found (0: none)."""
    matched: tuple[str, ...]
    """The prompt's words found, as the prompt spells them."""
    share: float
    """The part of the prompt's words found, 0 to 1."""
    kinds: tuple[str, ...] = ()
    """The kinds of work the prompt is about that a field says in other words (`kinds`)."""


NOTHING = Judgement(0.0, (), 0.0)


class Prompt:
    """A prompt's content words (stems) and how each was spelt."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.spelt: dict[str, str] = {}
        for raw in _WORD.findall(_CAMEL.sub(" ", text).replace("_", " ")):
            stems = words(raw)
            if stems:
                self.spelt.setdefault(stems[0], raw.casefold())
        self.stems = tuple(self.spelt)

    def __bool__(self) -> bool:
        return bool(self.stems)


def judge(
    prompt: Prompt, candidates: Sequence[Fields], *, kinds_weights: Sequence[float] = ()
) -> list[Judgement]:
    """Each candidate's judgement for `prompt`, weighed against the others; `kinds_weights`
    (none: not judged): what each field, in order, saying a kind of work the prompt is about
    in other words weighs against one of the prompt's words."""
    if not prompt or not candidates:
        return [NOTHING for _ in candidates]
    stems = prompt.stems
    own = frozenset(stems)
    about = [k for k in kinds(_stem) if k.said_by(own)] if kinds_weights else []
    # Each prompt stem's beginnings a held stem may be (`authent` holds `auth`).
    beginnings = {s: frozenset(s[:size] for size in range(MIN_PREFIX, len(s))) for s in stems}
    frequency = [0] * (len(stems) + len(about))
    found: list[list[float]] = []  # each candidate's weight for each stem, then kind (0: none)
    for candidate in candidates:
        fields = [(_Held(text), weight) for text, weight in candidate.parts]
        row: list[float] = []
        for stem in stems:
            best = 0.0
            for held, weight in fields:
                if stem in held.stems:
                    best = max(best, weight)
                elif held.begins(stem, beginnings[stem]):
                    best = max(best, weight * PREFIX_WEIGHT)
            row.append(best)
        for kind in about:
            said = [
                weight
                for (held, _), weight in zip(fields, kinds_weights, strict=False)
                if kind.held_beside(held.stems, own)
            ]
            row.append(max(said, default=0.0))
        for slot, best in enumerate(row):
            if best > 0:
                frequency[slot] += 1
        found.append(row)
    count = len(candidates)
    idf = [math.log(1 + (count + 1) / (seen + 0.5)) for seen in frequency]
    spelt = [prompt.spelt[stem] for stem in stems]
    names = [kind.name for kind in about]
    return [_judged(row, idf, spelt, names) for row in found]


def _judged(row: list[float], idf: list[float], spelt: list[str], names: list[str]) -> Judgement:
    score = 0.0
    matched: list[str] = []
    kinds_said: list[str] = []
    for slot, (best, weight) in enumerate(zip(row, idf, strict=True)):
        if best > 0:
            score += weight * best
            if slot < len(spelt):
                matched.append(spelt[slot])
            else:
                kinds_said.append(names[slot - len(spelt)])
    share = len(matched) / len(spelt)
    return Judgement(round(score, 3), tuple(matched), round(share, 3), tuple(kinds_said))


class _Held:
    """A field's stems, looked up whole or by a beginning shared with a prompt's stem."""

    __slots__ = ("_sorted", "stems")

    def __init__(self, text: str) -> None:
        self.stems = stems_of(text)
        self._sorted: list[str] | None = None

    def begins(self, stem: str, beginnings: frozenset[str]) -> bool:
        """Whether a held stem begins with `stem` or the reverse, the shorter of 4 letters or
        more."""
        if len(stem) >= MIN_PREFIX:
            if self._sorted is None:
                self._sorted = sorted(self.stems)
            at = bisect.bisect_right(self._sorted, stem)
            if at < len(self._sorted) and self._sorted[at].startswith(stem):
                return True
        return not beginnings.isdisjoint(self.stems)


TEXT_SHARE = 0.5
"""A text holds a prompt when it holds at least half of its words (a long text holds a few of
any)."""


def holds(judgement: Judgement) -> bool:
    """Whether a judgement of a memory's whole text says it holds the prompt."""
    return judgement.score > 0 and judgement.share >= TEXT_SHARE


def ranked(judgements: Iterable[Judgement]) -> list[int]:
    """The indexes of the judgements found at all, best first (ties: their order)."""
    scored = [(j.score, -i) for i, j in enumerate(judgements) if j.score > 0]
    return [-i for _, i in sorted(scored, reverse=True)]


# --- The kinds of software work a prompt can be about, each named by the words and tools that
# say it: what a model reads in a prompt beyond its words ("ship a build" is release work).

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
