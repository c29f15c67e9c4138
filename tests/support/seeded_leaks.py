"""A seeded corpus of memories in the wrong place, made the same on every run (issue 72
point 5): eight projects, each with its path, repository and hosts; most memories name
only their own project (or none); 60 seeded cross-project mentions — a project's memory
naming another's path, repository or host, or global memory naming one project's —
written by templates of two families ("tune", "held-out": other templates and seed)."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Literal

from support.seeded_memories import project_path

Family = Literal["tune", "held-out"]
PROJECTS = ("acme-api", "storefront-web", "billing-ledger", "atlas-maps", "beacon-push",
            "harbor-deploy", "quill-docs", "orbit-jobs")  # fmt: skip
_OWN = {
    "tune": ["Build with `make build` in {path}.", "The service's hosts are {host} and its CI.",
             "Clone {repo} for the sources.", "Logs of {name} go to {host}/logs."],
    "held-out": ["Work happens in {path}/src.", "Staging lives on {host}.",
                 "Issues are filed on {repo}.", "{name} is deployed by its own pipeline."],
}  # fmt: skip
_CROSS = {
    "tune": ["Its shared types come from {path}/src/types.", "It calls {host} for every order.",
             "Fork of {repo}: keep them in step.", "The client lives in {path}."],
    "held-out": ["When {host} is down, nothing here works.", "Copy the config from {path}/config.",
                 "Upstream is {repo}.", "See {path}/README.md for the shared setup."],
}  # fmt: skip
_NEUTRAL = ["Keep pull requests small.", "Ask before touching the release scripts.",
            "Tests must pass before a merge.", "The on-call rota is in the calendar."]  # fmt: skip


@dataclass(frozen=True)
class Memory:
    id: str
    place: str
    name: str
    text: str
    names: str | None = None
    """The project it names but does not belong to (None: only its own, or none)."""


@dataclass
class LeakCorpus:
    memories: list[Memory] = field(default_factory=list)

    @property
    def seeded(self) -> list[Memory]:
        return [m for m in self.memories if m.names is not None]


def slots(name: str) -> dict[str, str]:
    return {"name": name, "path": project_path(name), "repo": f"acme-corp/{name}",
            "host": f"{name.split('-', maxsplit=1)[0]}.prod.acme.internal"}  # fmt: skip


def build(family: Family = "tune", *, memories: int = 400) -> LeakCorpus:
    rng = random.Random(7501 if family == "tune" else 7599)
    corpus = LeakCorpus()
    for number in range(memories - 60):
        name = PROJECTS[number % len(PROJECTS)]
        where = rng.choice(["project", "claude", "workspace", "global"])
        lines = rng.sample(_NEUTRAL, 2)
        if where != "global":
            lines.append(rng.choice(_OWN[family]).format(**slots(name)))
        place = "global" if where == "global" else f"{where}:{name}"
        text = f"# Notes {number}\n\n" + "".join(f"- {line}\n" for line in lines)
        corpus.memories.append(Memory(f"m{number}", place, f"note-{number}.md", text))
    for number in range(60):
        own, other = rng.sample(PROJECTS, 2)
        if number % 4 == 3:  # global memory about one project
            place, lines = "global", [rng.choice(_OWN[family]).format(**slots(other))]
        else:
            place = f"{rng.choice(['project', 'claude', 'workspace'])}:{own}"
            lines = [rng.choice(_CROSS[family]).format(**slots(other))]
        lines.append(rng.choice(_NEUTRAL))
        text = f"# Seeded {number}\n\n" + "".join(f"- {line}\n" for line in lines)
        corpus.memories.append(Memory(f"s{number}", place, f"seeded-{number}.md", text, other))
    return corpus
