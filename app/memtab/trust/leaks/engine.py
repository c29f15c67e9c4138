"""Memories in the wrong place, and secrets (docs/formats.md §19.7).

Each project Memtab knows (the registry's projects and workspaces, and the projects other
agents' memory belongs to) is known by what names it (`Identity`): its path, its folder's
name where that is no word of its own (`acme-api`, `billing_svc2`; never `ledger`), its
repository (`owner/name`, from the checkout's `origin` remote when it is on this disk)
and its hosts (a host name of three labels or more that one project's memory names and no
other's does: `api.acme.internal`). Every memory's lines are read for them once, and:

- a project's memory naming another project's path, repository or host (a bare name is
  a reference: "talks to acme-api") belongs in that project's memory, or (naming
  its own too) in global memory or both projects' (`other-project`); a host is a
  project's when its memories name it in more files than any other project's do (global
  memory's mentions count for none);
- global memory, which every session loads, naming one project alone belongs in that
  project's memory (`project-in-global`); naming several, it is about them all and stays;
- memory shared with collaborators (Claude Code's team memory) naming a person's home
  folder (`/home/<name>/`, `/Users/<name>/`) belongs in that person's own memory
  (`personal-path`);
- a secret-like value, anywhere, belongs in no memory (`secret`: the shapes `redact.py`
  knows, the line shown redacted).

Codex's own memory (`memories/`) keeps every project's memory by design and is read for
secrets only. A memory that names only its own project is never a leak. `LeaksEngine`
keeps each file's mentions (`trust.per_file`, in Memtab's cache dir too): a second run, in
this process or the next, reads only the changed files' lines again.
"""

from __future__ import annotations

import functools
import logging
import os
import re
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

from memtab.check.documents import Document
from memtab.markdown import text_lines
from memtab.redact import redact_secrets, secret_labels
from memtab.store.home import Home
from memtab.store.sidecars.registry import MULTI_PROJECT_KEY, load_registry
from memtab.trust.kept_texts import KeptTexts
from memtab.trust.leaks.records import Leak, LeakKind, LeaksReport
from memtab.trust.memories import place_of, read_memories
from memtab.trust.per_file import KeptOnDisk, PerFile, collection_paused, is_line, only

logger = logging.getLogger(__name__)

_HOST = re.compile(
    r"(?<![\w.@/-])((?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.){2,}[a-z]{2,12})(?![\w-])"
)
_COMMON_HOSTS = re.compile(
    r"(?:^|\.)(?:github|gitlab|bitbucket|npmjs|pypi|python|google|googleapis|amazonaws|"
    r"microsoft|apple|docker|anthropic|openai|readthedocs|wikipedia|stackoverflow|"
    r"cloudflare|vercel|netlify|herokuapp|example)\.[a-z]+$|^(?:www|docs|api)\.[^.]+\.[a-z]+$"
)
_PERSONAL = re.compile(r"(?:/home/|/Users/|[A-Za-z]:\\Users\\)([A-Za-z0-9._-]+)")
_REMOTE = re.compile(r"^\s*url\s*=\s*(\S+)", re.MULTILINE)
_SLUG = re.compile(r"[:/]([\w.-]+/[\w.-]+?)(?:\.git)?/?$")
_DISTINCT_NAME = re.compile(r"^[a-z][a-z0-9]*(?:[-_][a-z0-9]+)+$|^[a-z]+[0-9]+[a-z0-9]*$")
"""A folder name that names only its project: words joined by `-` or `_`, or with digits."""


@dataclass(frozen=True)
class Identity:
    """What names one project (see the module doc)."""

    path: str
    names: tuple[str, ...]


class Mention(NamedTuple):
    line: int
    named: str
    """What was named, as written."""
    strong: bool = True
    """Named as a path, repository or host (a bare project name is only a reference to
    it: "talks to acme-api")."""


class FileMentions(NamedTuple):
    """What one memory names: the projects' names and hosts, personal folders, secrets."""

    names: tuple[Mention, ...]
    hosts: tuple[Mention, ...]
    personal: tuple[Mention, ...]
    secrets: tuple[Mention, ...]


class LeaksEngine:
    """Finds the leaks of a home's memory (see the module doc)."""

    def __init__(
        self, home: Home, *, env: Mapping[str, str] | None = None, sources: bool = True
    ) -> None:
        self.home = home
        self._env = env
        self._sources = sources
        self._texts = KeptTexts(home)
        self._mentions = PerFile(
            KeptOnDisk.of_home(
                home, "leaks", pack=packed_mentions, unpack=unpacked_mentions, fits=_named_in
            )
        )

    @collection_paused()
    def find(self, workspace_id: str | None = None) -> LeaksReport:
        """Every leak of the home's memory (or of what `workspace_id`'s sessions see)."""
        collected = read_memories(
            self.home, workspace_id, sources=self._sources, env=self._env, texts=self._texts
        )
        projects = self.known_projects(collected.documents)
        everything = workspace_id is None and self._sources
        leaks = self.leaks_of(collected.documents, projects, everything=everything)
        return LeaksReport(
            leaks=tuple(leaks),
            files_read=len(collected.documents),
            projects=tuple(sorted(projects)),
            problems=collected.problems,
        )

    def known_projects(self, documents: Sequence[Document]) -> dict[str, Identity]:
        """Every project the home knows (its registry's, its workspaces', the memories'),
        each with what names it."""
        registry = load_registry(self.home)
        paths = {p.path for p in registry.projects if p.path != MULTI_PROJECT_KEY}
        paths |= {w.project_identity for w in registry.workspaces if w.project_identity}
        paths |= {d.project for d in documents if d.project}
        return {path: identity_of(path) for path in paths if os.path.isabs(path)}

    def leaks_of(
        self,
        documents: Sequence[Document],
        projects: Mapping[str, Identity],
        *,
        everything: bool = True,
    ) -> list[Leak]:
        """The leaks among `documents`, the projects known being `projects`;
        `everything`: they are every memory the engine reads (what it keeps of others is
        forgotten). What a file names is kept for the projects' names it was read for;
        kept for a line its file does not have, it is worked out anew."""
        found = self._leaks_of(documents, projects, everything)
        if all(leak.place.text for leak in found):
            return found
        logger.info("The leaks' cache names lines their files do not have: worked out anew")
        self._mentions.forget()
        return self._leaks_of(documents, projects, everything)

    def _leaks_of(
        self, documents: Sequence[Document], projects: Mapping[str, Identity], everything: bool
    ) -> list[Leak]:
        names = sorted({n for i in projects.values() for n in i.names}, key=len, reverse=True)
        pattern = _names_pattern(names)
        ordered = sorted(documents, key=lambda d: (d.path, d.key))
        mentions = self._mentions.of_all(
            ordered,
            lambda d: mentions_of(d.text, pattern),
            everything=everything,
            context=tuple(names),
        )
        owner = _Owners(projects)
        hosts = _project_hosts(ordered, mentions)
        leaks: list[Leak] = []
        for document, found in zip(ordered, mentions, strict=True):
            leaks += _secrets(document, found)
            if _shared_with_collaborators(document):
                leaks += _personal(document, found)
            if document.record or _every_project_s(document):
                continue
            named: dict[str, list[Mention]] = defaultdict(list)
            for mention in found.names:
                project = owner.of(mention.named)
                if project is not None and (mention.strong or document.project is None):
                    named[project].append(mention)
            for mention in found.hosts:
                if mention.named in hosts:
                    named[hosts[mention.named]].append(mention)
            leaks += _misplaced(document, named, projects)
        return leaks


class _Owners:
    """The project each name names: the name as written, else the one project a name of
    which it spells in other case (`/Users/Alice/code` written `/users/alice/code`)."""

    def __init__(self, projects: Mapping[str, Identity]) -> None:
        self._exact = {n: path for path, i in projects.items() for n in i.names}
        folded: dict[str, set[str]] = defaultdict(set)
        for name, path in self._exact.items():
            folded[name.lower()].add(path)
        self._folded = {name: paths.pop() for name, paths in folded.items() if len(paths) == 1}

    def of(self, named: str) -> str | None:
        """The project `named` names; None when names in other case are several projects'."""
        return self._exact.get(named) or self._folded.get(named.lower())


def identity_of(path: str) -> Identity:
    """What names the project at `path` (see the module doc)."""
    names = [path.rstrip("/")]
    folder = os.path.basename(path.rstrip("/")).lower()
    if _DISTINCT_NAME.match(folder):
        names.append(folder)
    slug = _repository(Path(path))
    if slug is not None:
        names.append(slug)
    return Identity(path, tuple(dict.fromkeys(names)))


def _repository(checkout: Path) -> str | None:
    """`owner/name` of the checkout's `origin` remote, when it is on this disk."""
    try:
        config = (checkout / ".git" / "config").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
    section = config.split('[remote "origin"]', 1)
    if len(section) < 2:
        return None
    url = _REMOTE.search(section[1].split("[", 1)[0])
    slug = _SLUG.search(url.group(1)) if url is not None else None
    return slug.group(1).lower() if slug is not None else None


def _names_pattern(names: Sequence[str]) -> re.Pattern[str] | None:
    if not names:
        return None
    alternatives = "|".join(re.escape(name) for name in names)
    return re.compile(rf"(?<![\w.-])({alternatives})(?![\w-]|\.\w)", re.IGNORECASE)


def mentions_of(text: str, names: re.Pattern[str] | None) -> FileMentions:
    """What a memory's text names, line by line."""
    found_names: list[Mention] = []
    hosts: list[Mention] = []
    personal: list[Mention] = []
    secrets: list[Mention] = []
    holds_secrets = redact_secrets(text) != text  # most texts hold none: lines not read for one
    for number, line in enumerate(text_lines(text), start=1):
        if names is not None and ("/" in line or "-" in line or "_" in line):
            found_names += [
                Mention(
                    number, m.group(1), "/" in m.group(1) or line[m.start() - 1 : m.start()] == "/"
                )
                for m in names.finditer(line)
            ]
        if "." in line:
            hosts += [
                Mention(number, m.group(1))
                for m in _HOST.finditer(line.lower())
                if not _COMMON_HOSTS.search(m.group(1)) and not _looks_like_a_file(m.group(1))
            ]
        if "/home/" in line or "/Users/" in line or ":\\Users\\" in line:
            personal += [Mention(number, m.group(0)) for m in _PERSONAL.finditer(line)]
        if not holds_secrets:
            continue
        labels = secret_labels(line)
        if labels or redact_secrets(line) != line:
            secrets.append(Mention(number, labels[0] if labels else "a secret-named value"))
    return FileMentions(tuple(found_names), tuple(hosts), tuple(personal), tuple(secrets))


_NOTHING = FileMentions((), (), (), ())


def packed_mentions(found: FileMentions) -> object:
    """What a memory names as the engine's cache keeps it (`per_file.KeptOnDisk`)."""
    return tuple(tuple(map(tuple, mentions)) for mentions in found)


def _named_in(found: FileMentions, names: tuple[str, ...]) -> bool:
    """Whether every project name `found` holds is one of `names` (its cache's context)."""
    if not found.names:
        return True
    known = _lowered(names)
    return all(mention.named.lower() in known for mention in found.names)


@functools.lru_cache(maxsize=4)
def _lowered(names: tuple[str, ...]) -> frozenset[str]:
    return frozenset(name.lower() for name in names)


def unpacked_mentions(held: Any) -> FileMentions:
    """`packed_mentions`' inverse (TypeError or ValueError for what it never made: a wrong
    type at any level, a line no file has, an empty name)."""
    if held == ((), (), (), ()):
        return _NOTHING  # most memories name nothing
    if type(held) is not tuple or not only(tuple, held):
        raise TypeError("not what a memory names")
    names, hosts, personal, secrets = (tuple(map(Mention._make, kind)) for kind in held)
    for line, named, strong in (*names, *hosts, *personal, *secrets):
        if not is_line(line) or type(named) is not str or not named or type(strong) is not bool:
            raise TypeError("not a mention")
    return FileMentions(names, hosts, personal, secrets)


_FILE_ENDINGS = frozenset(
    {"md", "py", "ts", "js", "json", "yaml", "yml", "toml", "txt", "sh", "tsx"}
)


def _looks_like_a_file(host: str) -> bool:
    return host.rsplit(".", 1)[-1] in _FILE_ENDINGS


def _project_hosts(
    documents: Sequence[Document], mentions: Sequence[FileMentions]
) -> dict[str, str]:
    """Each host some project's memories name in more files than any other project's →
    that project (global memory's mentions count for none)."""
    named_by: dict[str, dict[str | None, int]] = defaultdict(lambda: defaultdict(int))
    for document, found in zip(documents, mentions, strict=True):
        for host in {mention.named for mention in found.hosts}:
            named_by[host][document.project] += 1
    owners: dict[str, str] = {}
    for host, counts in named_by.items():
        ranked = sorted(((p, n) for p, n in counts.items() if p is not None), key=lambda i: -i[1])
        if not ranked:
            continue
        if len(ranked) == 1 or ranked[0][1] > ranked[1][1]:
            owners[host] = ranked[0][0]
    return owners


def _misplaced(
    document: Document, named: Mapping[str, list[Mention]], projects: Mapping[str, Identity]
) -> list[Leak]:
    own = document.project
    both = False
    if own is not None:
        others = {p: m for p, m in named.items() if p != own and not _nested(p, own)}
        if not others:
            return []  # only its own project
        both = own in named
        kind: LeakKind = "other-project"
    else:
        if document.scope != "global" or len(named) != 1:
            return []
        others, kind = dict(named), "project-in-global"
    leaks = []
    for project, mentions in sorted(others.items()):
        first = mentions[0]
        where = f"project {project}'s memory"
        if both:
            where = f"global memory, or both projects': it names {own} too"
            why = (
                f"It is in project {own}'s memory, which {project}'s sessions never load, "
                f"and names {first.named} of project {project} as well as its own."
            )
        elif kind == "other-project":
            why = (
                f"It is in project {own}'s memory, which {project}'s sessions never load, "
                f"and names {first.named} of project {project}, not its own."
            )
        else:
            why = (
                f"Global memory is loaded by every session of every project; it names "
                f"{first.named} of project {project} and no other project."
            )
        belongs_to = None if both else project
        leaks.append(
            _leak(document, first.line, kind, first.named, where, why, belongs_to=belongs_to)
        )
    return leaks


def _every_project_s(document: Document) -> bool:
    """Codex's own memory files (`memories/`: its summary, its task groups), which keep
    every project's memory in one place by design, each scoped by Codex itself."""
    return document.agent == "codex" and document.path.startswith("codex:memories:")


def _nested(one: str, other: str) -> bool:
    return one.startswith(other.rstrip("/") + "/") or other.startswith(one.rstrip("/") + "/")


def _secrets(document: Document, found: FileMentions) -> list[Leak]:
    return [
        _leak(
            document,
            mention.line,
            "secret",
            mention.named,
            "no memory: in a password manager or the environment",
            f"The line holds what looks like {_an(mention.named)}; every agent that loads "
            "this memory reads it, and history keeps it.",
        )
        for mention in found.secrets
    ]


def _an(label: str) -> str:
    return label if label.startswith("a ") else f"a {label}"


def _shared_with_collaborators(document: Document) -> bool:
    """Claude Code's team memory (`<auto memory>/team/<mount>/`), shared with the
    repository's collaborators."""
    return document.agent == "claude-code" and ":memory/team/" in document.path


def _personal(document: Document, found: FileMentions) -> list[Leak]:
    return [
        _leak(
            document,
            mention.line,
            "personal-path",
            mention.named,
            "your own memory (Claude Code's auto memory of the project), not the team's",
            "Team memory is shared with every collaborator of the repository; a path in one "
            "person's home folder means nothing on their machines and says who wrote it.",
        )
        for mention in found.personal
    ]


def _leak(
    document: Document,
    line: int,
    kind: LeakKind,
    names: str,
    belongs: str,
    why: str,
    *,
    belongs_to: str | None = None,
) -> Leak:
    lines = text_lines(document.text)
    text = redact_secrets(lines[line - 1]) if 0 < line <= len(lines) else ""
    return Leak(
        kind=kind,
        place=place_of(document, line, text),
        names=names,
        belongs=belongs,
        belongs_to=belongs_to,
        why=why,
    )
