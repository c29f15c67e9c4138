"""A seeded corpus for the check where memory is recalled (issue 72 point 1): a project's
checkout and 200 memories whose lines make claims about it — paths, Makefile targets,
npm scripts, the port a service runs on (as its README says) — beside lines that claim
nothing of the code; then a code change (one commit: files removed and moved, targets
and scripts dropped, ports changed in the README) that breaks the claims of exactly 30
memories, one line each. The truth is known: which lines a check should flag.

Two families of wording: `TUNED` (what the marks were built and looked at on) and
`HELD_OUT` (other phrasings, other names: plain-text paths, `pnpm run`, targets named in
prose), never looked at while the marks were made. Each memory names its own files and
targets, so a change breaks the memories it is meant to and no other.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from pathlib import Path

from support.checkouts import add_to_git

MEMORIES = 200
BROKEN = 30

_WORDS = [
    "billing",
    "ledger",
    "invoice",
    "refund",
    "token",
    "session",
    "audit",
    "export",
    "import",
    "report",
    "cache",
    "queue",
    "worker",
    "mailer",
    "search",
    "upload",
    "thumbnail",
    "webhook",
    "payment",
    "account",
    "profile",
    "tenant",
    "quota",
    "metrics",
    "tracing",
    "schema",
    "migration",
    "seed",
    "fixture",
    "backup",
    "restore",
    "archive",
    "cleanup",
    "digest",
]
_NEUTRAL = (
    "- We prefer small pull requests, reviewed within a day.",
    "- Decision: keep the public API backwards compatible until v3.",
    "- The team writes commit messages in the imperative mood.",
    "- Ask before changing anything shared with the mobile app.",
    "- Tests must not depend on the network.",
    "- Use UTC everywhere; convert only in the UI.",
    "- Prefer composition over inheritance in the service layer.",
    "- Pair on anything touching payments.",
)


@dataclass(frozen=True)
class Claim:
    """One line of a memory that claims something of the checkout."""

    kind: str  # "path", "make", "npm", "port"
    name: str  # the path, target or script
    text: str


@dataclass
class Memory:
    name: str
    lines: list[str]
    claims: dict[int, Claim] = field(default_factory=dict)
    """By line number (1-based), the lines that claim something."""

    @property
    def text(self) -> str:
        return "\n".join(self.lines) + "\n"


@dataclass
class Corpus:
    memories: list[Memory]
    broken: set[tuple[str, int]]
    """(memory name, line) of every claim the change breaks."""
    files: list[str]
    make_targets: list[str]
    npm_scripts: list[str]
    gone_files: list[str]
    moved_files: dict[str, str]
    gone_targets: list[str]
    gone_scripts: list[str]
    ports: dict[str, int] = field(default_factory=dict)
    """Each service's port, as the README states it."""
    moved_ports: dict[str, int] = field(default_factory=dict)
    family: str = "tuned"


def _claim(family: str, kind: str, name: str, rng: random.Random, port: int = 0) -> str:
    purpose = rng.choice(("run the checks", "build it", "reset the data", "deploy", "lint"))
    if family == "tuned":
        return {
            "path": f"- The code for this lives in `{name}`.",
            "make": f"- Run `make {name}` to {purpose}.",
            "npm": f"- `npm run {name}` is how we {purpose}.",
            "port": f"- The {name} service runs on port {port}.",
        }[kind]
    return {
        "path": f"- See {name} for how it works; start reading there.",
        "make": f"- To {purpose}, the Makefile has `make {name}`.",
        "npm": f"- `pnpm run {name}` before you push.",
        "port": f"- Talk to the {name} service at localhost:{port}.",
    }[kind]


def _readme_line(family: str, service: str, port: int) -> str:
    if family == "tuned":
        return f"- The {service} service runs on port {port}."
    return f"- The {service} service is served at localhost:{port}."


def build(root: Path, *, family: str = "tuned", seed: int = 72) -> Corpus:
    """Write the checkout at `root` (a git repository, every file added) and return the
    corpus of memories about it (not written: the caller puts them in its memory)."""
    rng = random.Random(f"{family}:{seed}")
    memories: list[Memory] = []
    files: list[str] = []
    targets: list[str] = []
    scripts: list[str] = []
    broken: set[tuple[str, int]] = set()
    breaking = set(rng.sample(range(MEMORIES), BROKEN))
    gone_files: list[str] = []
    moved: dict[str, str] = {}
    gone_targets: list[str] = []
    gone_scripts: list[str] = []
    ports: dict[str, int] = {}
    moved_ports: dict[str, int] = {}
    folder = "src/acme" if family == "tuned" else "lib/core"
    for index in range(MEMORIES):
        word = f"{rng.choice(_WORDS)}_{index:03d}"
        memory = Memory(f"m{index:03d}-{word}.md", [f"# {word.replace('_', ' ').title()}", ""])
        kinds = rng.sample(("path", "make", "npm", "port"), rng.randint(1, 2))
        for position, kind in enumerate(kinds):
            if kind == "path":
                name = f"{folder}/{word}.py"
                files.append(name)
            elif kind == "make":
                name = f"{word.replace('_', '-')}"
                targets.append(name)
            elif kind == "npm":
                name = f"{word.replace('_', ':')}"
                scripts.append(name)
            else:
                name = word.replace("_", "")
                ports[name] = 3000 + index
            if rng.random() < 0.5:
                memory.lines.append(rng.choice(_NEUTRAL))
            memory.lines.append(_claim(family, kind, name, rng, ports.get(name, 0)))
            claim = Claim(kind, name, memory.lines[-1])
            memory.claims[len(memory.lines)] = claim
            if index in breaking and position == 0:
                broken.add((memory.name, len(memory.lines)))
                if kind == "path" and rng.random() < 0.5:
                    moved[name] = f"{folder}/legacy/{word}.py"
                elif kind == "path":
                    gone_files.append(name)
                elif kind == "make":
                    gone_targets.append(name)
                elif kind == "npm":
                    gone_scripts.append(name)
                else:
                    moved_ports[name] = 8000 + index
        memory.lines.append(rng.choice(_NEUTRAL))
        memories.append(memory)
    corpus = Corpus(
        memories, broken, files, targets, scripts, gone_files, moved, gone_targets, gone_scripts,
        ports, moved_ports, family,
    )  # fmt: skip
    _write_checkout(root, files, targets, scripts)
    _write_readme(root, corpus, ports)
    add_to_git(root)
    return corpus


def _write_readme(root: Path, corpus: Corpus, ports: dict[str, int]) -> None:
    lines = [_readme_line(corpus.family, service, port) for service, port in ports.items()]
    text = "# acme\n\nThe service.\n\n## Services\n\n" + "\n".join(lines) + "\n"
    (root / "README.md").write_text(text, "utf-8")


def _write_checkout(root: Path, files: list[str], targets: list[str], scripts: list[str]) -> None:
    root.mkdir(parents=True, exist_ok=True)
    for name in files:
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f'"""{name}"""\n', "utf-8")
    _write_makefile(root, targets)
    _write_package(root, scripts)


def _write_makefile(root: Path, targets: list[str]) -> None:
    rules = "".join(f"{target}:\n\t@echo {target}\n\n" for target in targets)
    (root / "Makefile").write_text(f".PHONY: {' '.join(targets)}\n\n{rules}", "utf-8")


def _write_package(root: Path, scripts: list[str]) -> None:
    package = {"name": "acme", "private": True, "scripts": {s: f"echo {s}" for s in scripts}}
    (root / "package.json").write_text(json.dumps(package, indent=2) + "\n", "utf-8")


def change_the_code(root: Path, corpus: Corpus) -> None:
    """The commit that breaks exactly the corpus's `broken` claims: files removed and
    moved, Makefile targets and npm scripts dropped (every change added to git)."""
    for name in corpus.gone_files:
        (root / name).unlink()
    for old, new in corpus.moved_files.items():
        (root / new).parent.mkdir(parents=True, exist_ok=True)
        (root / old).rename(root / new)
    _write_makefile(root, [t for t in corpus.make_targets if t not in corpus.gone_targets])
    _write_package(root, [s for s in corpus.npm_scripts if s not in corpus.gone_scripts])
    _write_readme(root, corpus, {**corpus.ports, **corpus.moved_ports})
    add_to_git(root)
