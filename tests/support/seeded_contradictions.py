"""A seeded corpus of contradicting memories, made the same on every run (issue 72 point 3).

1,000 memories of eight projects — global notes, each project's mux notes, its workspace's,
its Claude Code memory, Codex's — hold what teams write down: each project's services and
ports, versions, test and deploy commands, where things live, the tools it uses, always
and never rules. Most say the same as the others where they say it again; what they say
is true of their own project (project A's API on 8080 and project B's on 9000 are never
seen together, so never a contradiction), or hedged ("used to run on 3000", "or
`make test`", "if the cache is cold"). Forty pairs are seeded: two memories a session
sees together (global and a project's, a project's and its workspace's, mux's and Claude
Code's of one project) stating different values for one thing — eight ports, six
versions, eight commands, six paths, six tools, six always-or-never rules.

`family` picks the phrasing and seed: "tune" (what the claims were tuned on), "seen" (the
first held-out family: measured once at 25 of 40 before the claims learnt what it showed
them — a port "at localhost:N", a command's purpose said as "the X test suite", a rule
"make sure to always…", a path sentence naming migrations — so no longer held out), and
"seen-2" (the second held-out family: 20 of 40 when measured, before the claims learnt
to read a "label: value" line, a port in a URL, a tool's clause of its own and a rule's
action after its always or never — so no longer held out), "seen-3" (the third: written
before that work, measured once after it at 31 of 40, then looked at), "seen-4" (the
fourth: written before that look, measured once after it at 12 of 40, then looked at),
and "held-out" (templates written before that look, measured once after it, never tuned
on).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Literal

Family = Literal["tune", "seen", "seen-2", "seen-3", "seen-4", "held-out"]
PROJECTS = ("acme-api", "storefront", "ledger", "atlas", "beacon", "harbor", "quill", "orbit")
_SERVICES = ["the API", "the admin UI", "the docs site", "Grafana", "the worker dashboard",
             "MinIO", "the storybook", "the GraphQL gateway"]  # fmt: skip
_PORTS = ["8080", "3000", "3001", "4000", "5173", "8000", "9000", "9090", "6006", "4318"]
_PRODUCTS = [("Postgres", ["14", "15", "16", "17"]), ("Python", ["3.10", "3.11", "3.12", "3.13"]),
             ("Node", ["18", "20", "22"]), ("Redis", ["6", "7"]), ("Django", ["4.2", "5.0", "5.1"]),
             ("Terraform", ["1.5", "1.7", "1.9"])]  # fmt: skip
_SUITES = ["api", "web", "worker", "billing", "auth", "search", "e2e", "unit"]
_RUNNERS = ["pnpm test --filter {s}", "make test-{s}", "uv run pytest tests/{s}", "just test {s}",
            "npm run test:{s}", "go test ./{s}/..."]  # fmt: skip
_THINGS = [("the seed data", ["db/seeds", "fixtures/seed", "scripts/seed"]),
           ("the migrations", ["db/migrations", "migrations", "src/db/migrate"]),
           ("the CI workflows", [".github/workflows", "ci/pipelines", ".gitlab/ci"]),
           ("the email templates", ["templates/email", "src/mail/templates", "assets/email"]),
           ("the feature flags", ["config/flags.yaml", "src/flags.ts", "flags/flags.json"]),
           ("the OpenAPI spec", ["docs/openapi.yaml", "api/openapi.json", "spec/api.yaml"]),
]  # fmt: skip
_TOOLS = [
    ("pnpm", "npm"),
    ("vitest", "jest"),
    ("uv", "pip"),
    ("ruff", "flake8"),
    ("podman", "docker"),
    ("vite", "webpack"),
    ("biome", "eslint"),
    ("httpx", "aiohttp"),
]
_RULES = ["squash-merge pull requests", "rebase feature branches on main",
          "run the linter before committing", "force-push to shared branches",
          "commit generated files", "open draft pull requests first",
          "tag releases from the main branch", "write a changelog entry for each fix"]  # fmt: skip
_FILLER = ["Ask in #platform when the staging cluster is down.",
           "The design reviews happen on Thursdays.",
           "Customer data never leaves the EU region.",
           "Screenshots for bug reports go into the ticket, not the chat.",
           "The on-call rota is in the team calendar.",
           "Most flaky tests come from the clock; freeze time in them.",
           "Keep pull requests under four hundred lines where possible.",
           "The billing code has the strictest review.",
           "Release notes are written for customers, not engineers.",
           "Logs older than thirty days are archived."]  # fmt: skip

_T: dict[str, dict[Family, list[str]]] = {
    "port": {"tune": ["{svc} runs on port {v}.", "{svc} listens on {v}.", "{Svc} port: {v}."],
             "seen": ["{svc} is served on port {v}.", "{Svc} is at localhost:{v}."],
             "seen-2": ["{Svc} is exposed on port {v}.", "Local {svc}: http://localhost:{v}"],
             "seen-3": ["{Svc} binds to port {v}.", "Open {svc} at http://127.0.0.1:{v}/."],
             "seen-4": ["{Svc} answers on port {v}.", "You can reach {svc} on port {v}."],
             "held-out": ["{Svc} serves traffic on port {v}.", "{Svc} uses port {v}."]},
    "version": {"tune": ["We use {p} {v}.", "The project is on {p} {v}."],
                "seen": ["{p} {v} everywhere.", "Our {p} is {p} {v}."],
                "seen-2": ["We're on {p} {v}.", "{p} version: {v}."],
                "seen-3": ["{p} {v} is what we run.", "The {p} version is {v}."],
                "seen-4": ["Currently on {p} {v}.", "{p}: version {v}."],
                "held-out": ["This repo targets {p} {v}.",
                             "Make sure you have {p} {v} installed."]},
    "command": {"tune": ["Run the {s} tests with `{v}`.", "`{v}` runs the {s} tests."],
                "seen": ["The {s} test suite runs with `{v}`.", "To test {s}, run `{v}`."],
                "seen-2": ["Test {s} with `{v}`.", "For the {s} tests use `{v}`."],
                "seen-3": ["`{v}` is how we run the {s} tests.", "The {s} tests: `{v}`."],
                "seen-4": ["Kick off the {s} tests via `{v}`.", "`{v}` — the {s} tests."],
                "held-out": ["The {s} tests are run with `{v}`.", "To run the {s} tests: `{v}`."]},
    "path": {"tune": ["{Thing} live in `{v}`.", "{Thing} are kept in `{v}`."],
             "seen": ["`{v}` holds {thing}.", "{Thing} sit under `{v}`."],
             "seen-2": ["{Thing} can be found in `{v}`.", "{Thing} are located at `{v}`."],
             "seen-3": ["Look in `{v}` for {thing}.", "{Thing}: `{v}`."],
             "seen-4": ["{Thing} reside in `{v}`.", "Find {thing} under `{v}`."],
             "held-out": ["All of {thing} is in `{v}`.", "{Thing} go in `{v}`."]},
    "tool": {"tune": ["Use {v}, not {o}.", "We switched from {o} to {v}."],
             "seen": ["Prefer {v} over {o}.", "{V} instead of {o}, please."],
             "seen-2": ["We use {v} rather than {o}.", "Stick to {v}; {o} is not allowed."],
             "seen-3": ["{V} is the one we use; avoid {o}.", "Don't use {o}, use {v}."],
             "seen-4": ["Go with {v}, never {o}.", "No {o} here — {v} only."],
             "held-out": ["{V} is our tool here, not {o}.", "We don't use {o}; we use {v}."]},
    "always": {"tune": ["Always {r}.", "You must always {r}."],
               "seen": ["Always {r} here.", "Make sure to always {r}."],
               "seen-2": ["Remember to always {r}.", "It is required to always {r}."],
               "seen-3": ["Be sure you always {r}.", "Everyone should always {r}."],
               "seen-4": ["Always, always {r}.", "We always {r}."],
               "held-out": ["Please always {r}.", "Always make sure to {r}."]},
    "never": {"tune": ["Never {r}.", "Do not {r}."],
              "seen": ["Never {r} here.", "Don't {r}."],
              "seen-2": ["Please never {r}.", "We never {r}."],
              "seen-3": ["You should never {r}.", "We do not {r}."],
              "seen-4": ["Never, ever {r}.", "Do not ever {r}."],
              "held-out": ["Don't ever {r}.", "Never {r}, please."]},
}  # fmt: skip
_HEDGED: dict[str, list[str]] = {
    "port": [
        "{svc} used to run on port {v}.",
        "{Svc} runs on {v} or {w}, depending on the profile.",
    ],
    "command": [
        "Run the {s} tests with `{v}` or `{w}`.",
        "`{v}` was the old way to run the {s} tests.",
    ],
    "tool": [
        "{V} was tried for a month; it did not stick.",
        "Either {v} or {o} works for one-off scripts.",
    ],
}


@dataclass(frozen=True)
class Memory:
    id: str
    place: str
    name: str
    text: str


@dataclass
class ContradictionCorpus:
    memories: list[Memory] = field(default_factory=list)
    seeded: list[tuple[str, str, str]] = field(default_factory=list)
    """(memory id, memory id, kind) of each seeded pair."""


@dataclass
class _Project:
    name: str
    ports: dict[str, str]
    versions: dict[str, str]
    commands: dict[str, str]
    paths: dict[str, str]
    tools: list[tuple[str, str]]
    rules: dict[str, str]


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _say(rng: random.Random, family: Family, kind: str, **slots: str) -> str:
    template = rng.choice(_T[kind][family])
    extra = {k[:1].upper() + k[1:]: _capital(v) for k, v in slots.items()}
    return _capital(template.format(**slots, **extra))


def _project(rng: random.Random, name: str) -> _Project:
    services = rng.sample(_SERVICES, 3)
    return _Project(
        name=name,
        ports={s: rng.choice(_PORTS) for s in services},
        versions={p: rng.choice(vs) for p, vs in rng.sample(_PRODUCTS, 2)},
        commands={s: rng.choice(_RUNNERS).format(s=s) for s in rng.sample(_SUITES, 3)},
        paths={t: rng.choice(ps) for t, ps in rng.sample(_THINGS, 3)},
        tools=rng.sample(_TOOLS, 2),
        rules={r: rng.choice(["always", "never"]) for r in rng.sample(_RULES, 2)},
    )


def _true_sentence(rng: random.Random, family: Family, project: _Project) -> str:
    """Something true of `project`, said plainly."""
    kind = rng.choice(["port", "version", "command", "path", "tool", "rule"])
    if kind == "port":
        svc, v = rng.choice(list(project.ports.items()))
        return _say(rng, family, "port", svc=svc, v=v)
    if kind == "version":
        p, v = rng.choice(list(project.versions.items()))
        return _say(rng, family, "version", p=p, v=v)
    if kind == "command":
        s, v = rng.choice(list(project.commands.items()))
        return _say(rng, family, "command", s=s, v=v)
    if kind == "path":
        thing, v = rng.choice(list(project.paths.items()))
        return _say(rng, family, "path", thing=thing, v=v)
    if kind == "tool":
        v, o = rng.choice(project.tools)
        return _say(rng, family, "tool", v=v, o=o)
    rule, way = rng.choice(list(project.rules.items()))
    return _say(rng, family, way, r=rule)


def _hedged(rng: random.Random, project: _Project) -> str:
    kind = rng.choice(list(_HEDGED))
    template = rng.choice(_HEDGED[kind])
    if kind == "port":
        svc = rng.choice(list(project.ports))
        v, w = rng.sample([p for p in _PORTS if p != project.ports[svc]], 2)
        slots = {"svc": svc, "v": v, "w": w}
    elif kind == "command":
        s = rng.choice(list(project.commands))
        v, w = (r.format(s=s) for r in rng.sample(_RUNNERS, 2))
        slots = {"s": s, "v": v, "w": w}
    else:
        used, other = rng.choice(project.tools)
        slots = {"v": other, "o": used}
    extra = {k[:1].upper() + k[1:]: _capital(v) for k, v in slots.items()}
    return _capital(template.format(**slots, **extra))


def _note(rng: random.Random, title: str, sentences: list[str]) -> str:
    rng.shuffle(sentences)
    if rng.random() < 0.6:
        return f"# {title}\n\n" + "\n".join(f"- {s}" for s in sentences) + "\n"
    return f"# {title}\n\n" + " ".join(sentences) + "\n"


def _contradiction(
    rng: random.Random, family: Family, project: _Project, kind: str
) -> tuple[str, str]:
    """Two sentences stating different values for one thing of `project`: what it holds,
    and another value."""
    if kind == "port":
        svc = rng.choice(list(project.ports))
        other = rng.choice([p for p in _PORTS if p != project.ports[svc]])
        pair = (project.ports[svc], other)
        return tuple(_say(rng, family, "port", svc=svc, v=v) for v in pair)  # type: ignore[return-value]
    if kind == "version":
        p = rng.choice(list(project.versions))
        other = rng.choice([v for v in dict(_PRODUCTS)[p] if v != project.versions[p]])
        pair = (project.versions[p], other)
        return tuple(_say(rng, family, "version", p=p, v=v) for v in pair)  # type: ignore[return-value]
    if kind == "command":
        s = rng.choice(list(project.commands))
        other = rng.choice(
            [r.format(s=s) for r in _RUNNERS if r.format(s=s) != project.commands[s]]
        )
        pair = (project.commands[s], other)
        return tuple(_say(rng, family, "command", s=s, v=v) for v in pair)  # type: ignore[return-value]
    if kind == "path":
        thing = rng.choice(list(project.paths))
        other = rng.choice([p for p in dict(_THINGS)[thing] if p != project.paths[thing]])
        pair = (project.paths[thing], other)
        return tuple(_say(rng, family, "path", thing=thing, v=v) for v in pair)  # type: ignore[return-value]
    if kind == "tool":
        used, unused = rng.choice(project.tools)
        return (
            _say(rng, family, "tool", v=used, o=unused),
            _say(rng, family, "tool", v=unused, o=used),
        )
    rule, way = rng.choice(list(project.rules.items()))
    other = "never" if way == "always" else "always"
    return (_say(rng, family, way, r=rule), _say(rng, family, other, r=rule))


_SEEDED_KINDS = (
    ["port"] * 8 + ["version"] * 6 + ["command"] * 8 + ["path"] * 6 + ["tool"] * 6 + ["rule"] * 6
)
_TOGETHER = [("project", "workspace"), ("project", "claude"), ("workspace", "claude")]


def build(family: Family = "tune", *, memories: int = 1000) -> ContradictionCorpus:
    seeds = {
        "tune": 7301, "seen": 7399, "seen-2": 7311, "seen-3": 7333, "seen-4": 7349,
        "held-out": 7351,
    }  # fmt: skip
    rng = random.Random(seeds[family])
    projects = {name: _project(rng, name) for name in PROJECTS}
    corpus = ContradictionCorpus()
    seeded_slots: list[tuple[int, int, str]] = []
    count = memories - 2 * len(_SEEDED_KINDS)
    for number in range(count):
        name = PROJECTS[number % len(PROJECTS)]
        project = projects[name]
        where = rng.choice(["project", "workspace", "claude", "project", "global", "codex"])
        sentences = rng.sample(_FILLER, rng.randint(1, 3))
        if where in ("global", "codex"):  # what is true everywhere: no project's values
            place = where
        else:
            place = f"{where}:{name}"
            sentences += [_true_sentence(rng, family, project) for _ in range(rng.randint(1, 3))]
            if rng.random() < 0.15:
                sentences.append(_hedged(rng, project))
        text = _note(rng, f"{name} notes {number}", sentences)
        corpus.memories.append(Memory(f"m{number}", place, f"note-{number}.md", text))
    for index, kind in enumerate(_SEEDED_KINDS):
        name = PROJECTS[index % len(PROJECTS)]
        project = projects[name]
        true, false = _contradiction(rng, family, project, kind)
        one, other = _TOGETHER[index % len(_TOGETHER)]
        ids = []
        for where, sentence in ((one, true), (other, false)):
            filler = rng.sample(_FILLER, 2)
            text = _note(rng, f"{name}: {kind} notes", [sentence, *filler])
            memory_id = f"s{index}{where[0]}"
            corpus.memories.append(Memory(memory_id, f"{where}:{name}", f"seeded-{index}.md", text))
            ids.append(memory_id)
        corpus.seeded.append((ids[0], ids[1], kind))
    del seeded_slots
    return corpus
