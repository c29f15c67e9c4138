"""A seeded corpus of duplicate memories, made the same on every run (issue 72 point 2).

Notes are made of facts — a test command, a tool preferred over another, where a thing
lives, a gotcha and its remedy, a deploy, a convention, a port, a variable, a reviewer, a
style rule — each written by one of several templates. The corpus holds:

- `copies`: a note and a copy of it elsewhere — in another scope or agent, as Codex's
  import of a Claude Code memory (`extensions/external_agent_import/…`), under other
  frontmatter, with its whitespace changed;
- `reworded`: a note and the same note written again — each fact by another template,
  the facts in another order, bullets as prose or prose as bullets, another title and
  description, at times a fact left out or a sentence of no substance added;
- `rules`: one rule written in a global note and in a project's note (the notes
  otherwise about different things);
- distractors that must not be grouped: *siblings* (notes of the same project and
  topic sharing one or two facts with a seeded note, the others different) and
  *variants* (the same templates with other values: the api suite's tests and the web
  suite's), and unrelated notes.

`family` picks the templates: "tune" (the ones the mechanism was tuned on) or "held-out"
(written before measuring, never looked at while tuning): each kind of fact has six
templates, three in each family, and each family its own seed. "held-out" measured the
rules at 5 of 15 and was then looked at for them; "held-out-2" writes the facts rules are
made of by templates of its own, written before that look.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Literal

Family = Literal["tune", "held-out", "held-out-2"]

# Each kind: its slots' pools, then six templates (the first three the tune family's).
_POOLS: dict[str, list[str]] = {
    "suite": ["api", "web", "worker", "billing", "auth", "search", "mobile", "admin", "cli",
              "ingest", "payments", "reports"],
    "cmd": ["pnpm test --filter {suite}", "make test-{suite}", "uv run pytest tests/{suite}",
            "npm run test:{suite}", "just test {suite}", "cargo test -p {suite}",
            "go test ./{suite}/...", "yarn workspace {suite} test"],
    "tool": ["pnpm", "ruff", "podman", "uv", "vitest", "biome", "httpx", "pytest", "rg",
             "fd", "zod", "sqlc", "ky", "mise", "bun", "esbuild"],
    "other": ["npm", "flake8", "docker", "pip", "jest", "eslint", "requests", "unittest",
              "grep", "find", "yup", "an ORM", "axios", "asdf", "node", "webpack"],
    "thing": ["the feature flags", "the seed data", "the OpenAPI spec", "the email templates",
              "the migration scripts", "the CI workflows", "the Terraform modules",
              "the design tokens", "the fixtures", "the protobuf schemas", "the cron jobs",
              "the locale files"],
    "path": ["config/flags.yaml", "db/seeds/", "docs/openapi.yaml", "templates/email/",
             "db/migrations/", ".github/workflows/", "infra/terraform/", "src/styles/tokens.ts",
             "tests/fixtures/", "proto/", "ops/cron/", "src/locales/"],
    "component": ["the token refresh", "the websocket client", "the PDF export",
                  "the image resizer", "the search indexer", "the rate limiter",
                  "the webhook retry", "the CSV import", "the session cookie",
                  "the upload handler", "the cache warmer", "the SSO callback"],
    "symptom": ["times out under load", "drops messages after a reconnect",
                "renders blank pages for long tables", "leaks memory on large files",
                "double-counts deleted rows", "returns 429 to the admin panel",
                "retries forever on a 410", "chokes on a UTF-8 BOM",
                "expires an hour early in Safari", "truncates files over 2 GB",
                "stampedes the database at midnight", "loops on a missing state param"],
    "remedy": ["raise the client timeout to 30 s", "resubscribe in the onopen handler",
               "paginate the table before rendering", "stream the file instead of buffering",
               "filter on deleted_at first", "exempt the admin role",
               "treat 410 as final", "strip the BOM before parsing",
               "set SameSite=Lax on the cookie", "switch to the multipart upload",
               "add jitter to the schedule", "check the state param before redirecting"],
    "env": ["staging", "production", "the preview environment", "the demo cluster",
            "the EU region", "the load-test stack"],
    "deploy": ["fly deploy --config fly.{envtag}.toml", "make deploy ENV={envtag}",
               "kubectl apply -k deploy/{envtag}", "./scripts/release.sh {envtag}"],
    "subject": ["commit messages", "branch names", "pull request titles", "changelog entries",
                "database table names", "feature flag names", "log messages", "error codes",
                "API routes", "test names"],
    "rule": ["use the imperative mood and stay under 72 characters",
             "start with the ticket number, like PAY-123-short-name",
             "say what changed for the user, not how",
             "go under Unreleased until the release is cut",
             "are plural snake_case",
             "are kebab-case and start with the team's prefix",
             "are lower-case sentences without a trailing period",
             "are upper-case with the service's prefix, like BILL_042",
             "are nouns in the plural, versioned under /v2",
             "describe the behaviour, as in test_refund_is_idempotent"],
    "service": ["the API", "the admin UI", "the docs site", "Grafana", "the mock OAuth server",
                "the job dashboard", "MinIO", "the storybook", "the metrics exporter",
                "the GraphQL gateway"],
    "port": ["8080", "3001", "4000", "3000", "9090", "5555", "9000", "6006", "9100", "4001"],
    "var": ["FEATURE_PREVIEW", "SKIP_EMAILS", "STRIPE_MODE", "LOG_SQL", "FAKE_CLOCK",
            "USE_LOCAL_S3", "DISABLE_SSO", "SEED_USERS", "TRACE_REQUESTS", "OFFLINE_MAPS"],
    "purpose": ["turns on the unreleased screens", "keeps the mailer from sending anything",
                "switches payments to the test keys", "prints every query",
                "freezes time at the fixture date", "sends uploads to MinIO",
                "logs in without the identity provider", "creates the demo accounts",
                "adds a trace id to each response", "serves map tiles from disk"],
    "reviewer": ["Priya", "Tomás", "Aiko", "Jonas", "Fatima", "Lena", "Marcus", "Chen"],
    "area": ["database migrations", "the billing code", "anything under infra/",
             "changes to the public API", "the auth flows", "the mobile release",
             "dependency upgrades", "the search ranking"],
    "language": ["Python", "TypeScript", "Go", "SQL", "Rust", "shell scripts"],
    "style": ["type every public function", "never use `any`", "return errors, do not panic",
              "keep migrations idempotent", "avoid `unwrap()` outside tests",
              "quote every variable and `set -euo pipefail`"],
}  # fmt: skip

_TEMPLATES: dict[str, list[str]] = {
    "test": [
        "Run the {suite} tests with `{cmd}`.",
        "`{cmd}` runs the {suite} test suite.",
        "For the {suite} suite, the tests run with `{cmd}`.",
        "To test {suite}, use `{cmd}`.",
        "The {suite} tests: `{cmd}`.",
        "Use `{cmd}` whenever the {suite} tests need running.",
    ],
    "prefer": [
        "Use {tool}, not {other}.",
        "Prefer {tool} over {other} in this repo.",
        "We switched from {other} to {tool}; do not bring {other} back.",
        "{tool} is the tool here; {other} is not used.",
        "Always reach for {tool} rather than {other}.",
        "No {other} in this codebase: {tool} replaces it.",
    ],
    "where": [
        "{Thing} live in `{path}`.",
        "You will find {thing} under `{path}`.",
        "`{path}` holds {thing}.",
        "{Thing} are kept in `{path}`.",
        "Look in `{path}` for {thing}.",
        "All of {thing} sit in `{path}`.",
    ],
    "gotcha": [
        "{Component} {symptom}; {remedy}.",
        "Known issue: {component} {symptom}. Fix: {remedy}.",
        "If {component} {symptom}, {remedy}.",
        "Gotcha: {component} {symptom} — the remedy is to {remedy}.",
        "When {component} {symptom}: {remedy}.",
        "{Component} {symptom}. Workaround: {remedy}.",
    ],
    "deploy": [
        "Deploy to {env} with `{deploy}`.",
        "`{deploy}` ships to {env}.",
        "Releasing to {env} is `{deploy}`.",
        "To deploy {env}, run `{deploy}`.",
        "{Env} deploys: `{deploy}`.",
        "The {env} release goes out with `{deploy}`.",
    ],
    "convention": [
        "{Subject} {rule}.",
        "Convention: {subject} {rule}.",
        "House rule for {subject}: they {rule}.",
        "Our {subject} {rule}.",
        "Keep to this for {subject}: they {rule}.",
        "Reminder: {subject} {rule}.",
    ],
    "port": [
        "{Service} runs on port {port}.",
        "{Service} listens on {port} locally.",
        "Locally, {service} is served on port {port}.",
        "{Service} is at localhost:{port}.",
        "Open {service} on port {port}.",
        "{Service} binds to port {port}.",
    ],
    "var": [
        "`{var}=1` {purpose}.",
        "Setting `{var}=1` {purpose}.",
        "The `{var}` flag {purpose} when set to 1.",
        "Export `{var}=1`: it {purpose}.",
        "With `{var}=1` the app {purpose}.",
        "`{var}` (set it to 1) {purpose}.",
    ],
    "review": [
        "{reviewer} reviews {area}.",
        "Ask {reviewer} to review {area}.",
        "{area} need {reviewer}'s review.",
        "{reviewer} must approve {area}.",
        "Send {area} to {reviewer} for review.",
        "Reviews of {area} go to {reviewer}.",
    ],
    "style": [
        "In {language}, {style}.",
        "{language} style: {style}.",
        "When writing {language}, {style}.",
        "{language} code here must {style}.",
        "Rule for {language}: {style}.",
        "Our {language}: {style}.",
    ],
}
_KINDS = tuple(_TEMPLATES)
_FILLERS = [
    "Keep this up to date.",
    "Written after the last incident review.",
    "Ask in the team channel if this looks wrong.",
    "This came up twice last sprint.",
]
_TITLES = [
    "{Project} notes", "Working on {project}", "{Project}: what to know", "About {project}",
    "{Project} — day to day", "{Project} cheatsheet",
]  # fmt: skip
_SAID: dict[str, str] = {}  # every sentence written, and the fact it says (while building)
PROJECTS = ("acme-api", "storefront", "ledger", "atlas", "beacon", "harbor", "quill", "orbit")


@dataclass(frozen=True)
class Fact:
    """One fact: its kind and its slots' values."""

    kind: str
    values: tuple[tuple[str, str], ...]

    @property
    def id_key(self) -> str:
        return self.kind + ":" + "|".join(v for _, v in self.values)

    def written(self, template: str) -> str:
        values = dict(self.values)
        capitalized = {k[:1].upper() + k[1:]: v[:1].upper() + v[1:] for k, v in values.items()}
        sentence = template.format(**values, **capitalized)
        _SAID[sentence] = self.id_key
        return sentence


@dataclass(frozen=True)
class Note:
    """A seeded note: its name, where it goes (`place`: "global", "project:<name>",
    "workspace:<name>", "claude:<name>", "codex", "codex-import:<name>"), its text, and
    `origin`: the seeded note it says the same as (its own id when it is an original)."""

    id: str
    name: str
    place: str
    text: str
    origin: str
    kind: str = "original"  # original | copy | reworded | sibling | variant | unrelated | rule


@dataclass
class DuplicateCorpus:
    notes: list[Note] = field(default_factory=list)
    copies: list[tuple[str, str]] = field(default_factory=list)
    reworded: list[tuple[str, str]] = field(default_factory=list)
    rules: list[tuple[str, str, str]] = field(default_factory=list)
    """(global note id, project note id, the rule's text as each writes it)."""
    said: dict[str, str] = field(default_factory=dict)
    """Every sentence of the corpus, and the fact it says."""

    def same(self, one: str, other: str) -> bool:
        """Whether the seeded notes `one` and `other` say the same thing."""
        by_id = {note.id: note for note in self.notes}
        return by_id[one].origin == by_id[other].origin


_HELD_OUT_RULES: dict[str, list[str]] = {
    "prefer": [
        "{tool} only — {other} is off the table.",
        "We standardised on {tool} over {other}.",
        "Pick {tool}; {other} is banned here.",
    ],
    "convention": [
        "All {subject} {rule}.",
        "{Subject} should {rule}.",
        "Team norm — {subject} {rule}.",
    ],
    "style": [
        "Writing {language}? {style}.",
        "For {language}: {style}.",
        "In our {language} code, {style}.",
    ],
    "test": [
        "Tests for {suite}: run `{cmd}`.",
        "`{cmd}` is the {suite} test command.",
        "Run `{cmd}` to test {suite}.",
    ],
}
"""The second held-out family's templates of the facts a rule is made of (its other
facts are written as "held-out"'s): written before the rules' misses in "held-out" were
looked at, never tuned on."""


def _templates(kind: str, family: Family) -> list[str]:
    every = _TEMPLATES[kind]
    if family == "held-out-2" and kind in _HELD_OUT_RULES:
        return _HELD_OUT_RULES[kind]
    return every[:3] if family == "tune" else every[3:]


def _fact(rng: random.Random, kind: str, used: set[tuple[str, ...]]) -> Fact:
    """A fact never drawn before, of `kind` while its pools last, else of another kind."""
    kinds = [kind, *rng.sample(_KINDS, len(_KINDS))]
    for each in kinds:
        for _ in range(60):
            values = _values(rng, each)
            key = (each, *(v for _, v in values))
            if key not in used:
                used.add(key)
                return Fact(each, values)
    raise AssertionError("the pools are too small")


def _values(rng: random.Random, kind: str) -> tuple[tuple[str, str], ...]:
    pick = rng.choice
    pools = _POOLS
    if kind == "test":
        suite = pick(pools["suite"])
        return (("suite", suite), ("cmd", pick(pools["cmd"]).format(suite=suite)))
    if kind == "prefer":
        return (("tool", pick(pools["tool"])), ("other", pick(pools["other"])))
    if kind == "where":
        return (("thing", pick(pools["thing"])), ("path", pick(pools["path"])))
    if kind == "gotcha":
        return (
            ("component", pick(pools["component"])),
            ("symptom", pick(pools["symptom"])),
            ("remedy", pick(pools["remedy"])),
        )
    if kind == "deploy":
        env = pick(pools["env"])
        tag = env.split()[-1] if " " not in env else env.split()[1].replace("-", "")
        return (("env", env), ("deploy", pick(pools["deploy"]).format(envtag=tag)))
    if kind == "convention":
        return (("subject", pick(pools["subject"])), ("rule", pick(pools["rule"])))
    if kind == "port":
        return (("service", pick(pools["service"])), ("port", pick(pools["port"])))
    if kind == "var":
        return (("var", pick(pools["var"])), ("purpose", pick(pools["purpose"])))
    if kind == "review":
        return (("reviewer", pick(pools["reviewer"])), ("area", pick(pools["area"])))
    return (("language", pick(pools["language"])), ("style", pick(pools["style"])))


def _note_text(
    rng: random.Random,
    facts: list[Fact],
    family: Family,
    project: str,
    *,
    avoid: dict[str, str] | None = None,
    frontmatter: bool,
) -> tuple[str, dict[str, str]]:
    """A note of `facts`; returns its text and the template each fact was written with
    (`avoid`: another template than these, where the family has one)."""
    chosen: dict[str, str] = {}
    sentences = []
    for fact in facts:
        templates = _templates(fact.kind, family)
        if avoid is not None:
            templates = [t for t in templates if t != avoid.get(fact.id_key)] or templates
        template = rng.choice(templates)
        chosen[fact.id_key] = template
        sentences.append(fact.written(template))
    title = rng.choice(_TITLES).format(project=project, Project=project.capitalize())
    if rng.random() < 0.5:
        body = "\n".join(f"- {sentence}" for sentence in sentences)
    else:
        body = " ".join(sentences)
    text = f"# {title}\n\n{body}\n"
    if frontmatter:
        description = f"{project}: " + ", ".join(f.kind for f in facts[:3])
        text = f"---\ndescription: {description}\n---\n\n" + text
    return text, chosen


def build(family: Family = "tune", *, originals: int = 150, reworded: int = 50) -> DuplicateCorpus:
    """The corpus of `family` (see the module doc)."""
    rng = random.Random({"tune": 7201, "held-out": 7299, "held-out-2": 7313}[family])
    corpus = DuplicateCorpus()
    _SAID.clear()
    used: set[tuple[str, ...]] = set()
    made: list[tuple[Note, list[Fact], dict[str, str], str]] = []
    places = ["global", *(f"project:{p}" for p in PROJECTS), *(f"claude:{p}" for p in PROJECTS)]
    for number in range(originals):
        project = PROJECTS[number % len(PROJECTS)]
        count = rng.randint(3, 6)
        facts = [_fact(rng, rng.choice(_KINDS), used) for _ in range(count)]
        place = rng.choice([p for p in places if p == "global" or p.endswith(project)])
        text, chosen = _note_text(
            rng, facts, family, project, frontmatter=place.startswith("claude")
        )
        note = Note(f"n{number}", f"{facts[0].kind}-{number}.md", place, text, f"n{number}")
        corpus.notes.append(note)
        made.append((note, facts, chosen, project))
    # Reworded: the first `reworded` originals, written again elsewhere.
    for note, facts, chosen, project in made[:reworded]:
        kept = list(facts)
        if len(kept) >= 4 and rng.random() < 0.3:
            kept.pop(rng.randrange(len(kept)))
        if rng.random() < 0.5:
            rng.shuffle(kept)
        text, _ = _note_text(
            rng, kept, family, project, avoid=chosen, frontmatter=rng.random() < 0.5
        )
        if rng.random() < 0.2:
            text = text.rstrip("\n") + "\n\n" + rng.choice(_FILLERS) + "\n"
        place = rng.choice(
            [p for p in places if p != note.place and (p == "global" or project in p)]
        )
        again = Note(note.id + "r", f"{project}-{facts[0].kind}-again.md", place, text, note.id,
                     "reworded")  # fmt: skip
        corpus.notes.append(again)
        corpus.reworded.append((note.id, again.id))
    # Copies: twenty originals after those, copied the ways copies are made.
    for index, (note, _facts, _chosen, project) in enumerate(made[reworded : reworded + 20]):
        way = index % 4
        if way == 0:  # Codex's import of a Claude Code memory
            place, text = f"codex-import:{project}", note.text
        elif way == 1:  # the same file in another scope
            place, text = ("global" if note.place != "global" else f"project:{project}"), note.text
        elif way == 2:  # under other frontmatter
            body = note.text.split("---\n", 2)[2] if note.text.startswith("---\n") else note.text
            place = f"claude:{project}" if not note.place.startswith("claude") else "global"
            text = (
                f"---\nname: {note.name[:-3]}\ndescription: copied note\ntype: project\n---\n{body}"
            )
        else:  # whitespace changed on the way
            place = f"workspace:{project}"
            text = note.text.replace("\n- ", "\n-   ").replace(". ", ".  ") + "\n\n"
        copy = Note(note.id + "c", note.name, place, text, note.id, "copy")
        corpus.notes.append(copy)
        corpus.copies.append((note.id, copy.id))
    # Rules: one rule in a global note and in a project's, the rest unrelated.
    for number in range(15):
        project = PROJECTS[number % len(PROJECTS)]
        rule = _fact(rng, rng.choice(("prefer", "convention", "style", "test")), used)
        first, second = rng.sample(_templates(rule.kind, family), 2)
        sentences = []
        for place, template in (("global", first), (f"project:{project}", second)):
            others = [_fact(rng, rng.choice(_KINDS), used) for _ in range(3)]
            lines = [f"- {f.written(rng.choice(_templates(f.kind, family)))}" for f in others]
            written = rule.written(template)
            lines.insert(rng.randrange(len(lines) + 1), f"- {written}")
            sentences.append(written)
            note_id = f"rule{number}{'g' if place == 'global' else 'p'}"
            corpus.notes.append(
                Note(note_id, f"habits-{number}.md", place,
                     f"# Habits {number}\n\n" + "\n".join(lines) + "\n", note_id, "rule")
            )  # fmt: skip
        corpus.rules.append((f"rule{number}g", f"rule{number}p", rule.written(first)))
    # Distractors: siblings of the next originals (one or two facts shared) and variants.
    for index, (note, facts, _chosen, project) in enumerate(made[reworded + 20 : reworded + 60]):
        if index % 2 == 0:
            shared = facts[: rng.randint(1, min(2, len(facts) - 1))]
            others = [_fact(rng, rng.choice(_KINDS), used) for _ in range(rng.randint(3, 4))]
            kind = "sibling"
            chosen_facts = shared + others
        else:
            chosen_facts = [_variant(rng, fact, used) for fact in facts]
            kind = "variant"
        if kind == "variant":  # the original's templates, in its order and form
            sentences = [
                f.written(_chosen[old.id_key] if f.kind == old.kind else _TEMPLATES[f.kind][0])
                for f, old in zip(chosen_facts, facts, strict=True)
            ]
            bulleted = "\n- " in note.text
            body = "\n".join(f"- {s}" for s in sentences) if bulleted else " ".join(sentences)
            head = note.text[: note.text.index("# ")]  # the frontmatter, if any
            title = note.text[len(head) :].split("\n", 1)[0]
            text = f"{head}{title}\n\n{body}\n"
        else:
            text, _ = _note_text(rng, chosen_facts, family, project, frontmatter=False)
        where = note.place if kind == "variant" else f"project:{project}"
        twin_id = f"{note.id}{kind[0]}"
        twin = Note(twin_id, f"{project}-{kind}-{index}.md", where, text, twin_id, kind)
        corpus.notes.append(twin)
    corpus.said = dict(_SAID)
    return corpus


def _variant(rng: random.Random, fact: Fact, used: set[tuple[str, ...]]) -> Fact:
    """The fact about another thing of the same kind (the web suite for the api's)."""
    for _ in range(50):
        values = _values(rng, fact.kind)
        if values[0][1] != fact.values[0][1]:
            key = (fact.kind, *(v for _, v in values))
            if key not in used:
                used.add(key)
                return Fact(fact.kind, values)
    return _fact(rng, fact.kind, used)
