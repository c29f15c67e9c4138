"""Memories in the wrong place, and secrets (docs/formats.md §19.7).

Each project Memtab knows (the registry's projects and workspaces, and the projects other
agents' memory belongs to) is known by what names it (`Identity`): its path, its folder's
name where that is no word of its own (`acme-api`, `billing_svc2`; `ledger` only as the
possessive of a path after it: "ledger's src/Api.hs", "as ledger's lib/src/models"), its
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
  folder (`/home/<name>/`, `/Users/<name>/`) belongs in that person's own memory, and so
  does a project's or global memory naming the home folder of a name not the user's here
  (`personal-path`: `/Users/ana.b/` on another machine);
- a secret-like value, anywhere, belongs in no memory (`secret`: the shapes `redact/`
  knows, the line shown redacted).

Codex's own memory (`memories/`) keeps every project's memory by design and is read for
secrets only. A memory that names only its own project is never a leak. `LeaksEngine`
keeps each file's mentions (`kept.per_file`, in Memtab's cache dir too): a second run, in
this process or the next, reads only the changed files' lines again.
"""

from __future__ import annotations

import functools
import os
import re
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import repeat
from typing import Any, NamedTuple

from memtab.check.documents import Collected, Document, Listed
from memtab.fs.memo import collection_paused
from memtab.kept.per_file import KeptOnDisk, NotAsMadeError, PerFile, is_line, only
from memtab.kept.reports import KeptPrinted, KeptReport
from memtab.markdown import text_lines
from memtab.redact import redact_secrets, secrets_named
from memtab.store.home import Home
from memtab.store.sidecars.registry import MULTI_PROJECT_KEY, load_registry
from memtab.trust.leaks.checkouts import KeptCheckouts, checkout_names, evidence
from memtab.trust.leaks.hosts import (
    company_domains,
    hosts_in,
    project_hosts,
    project_words,
    said_owners,
)
from memtab.trust.leaks.places import places_in
from memtab.trust.leaks.records import Leak, LeakKind, LeaksReport
from memtab.trust.memories import MemoryEngine, anew, copies_of, place_of
from memtab.trust.records import MemoryPlace

_PERSONAL = re.compile(r"(?:/home/|/Users/|[A-Za-z]:\\Users\\)([A-Za-z0-9._-]*[A-Za-z0-9])")
_TOKEN_ENDS = " \t`'\"(<[="
"""What ends a token (a path, a URL) before a name."""
_IMAGE_COMMAND = re.compile(r"\b(?:docker|podman) (?:pull|push|run)$")
_LONGEST_TOKEN = 400
"""The most of a path or URL looked at either side of a name in it."""
_PATH_ENDS = " \t`'\")>],"
"""What ends a path after a home folder."""
_NO_PERSON_NAMES = """runner runneradmin ubuntu ec2-user user username node vagrant pi circleci
    gitpod codespace vscode app admin administrator build builder jenkins docker me you
    yourname your-name your_name name someone somebody example shared public default guest
    linuxbrew root foo bar baz"""
_NO_PERSON = frozenset(_NO_PERSON_NAMES.split())
"""Home folders that are nobody's in particular: CI runners', images' and docs' users."""
_DISTINCT_NAME = re.compile(r"^[a-z][a-z0-9]*(?:[-_][a-z0-9]+)+$|^[a-z]+[0-9]+[a-z0-9]*$")
"""A folder name that names only its project: words joined by `-` or `_`, or with digits."""
_WORD_NAME = re.compile(r"[a-z]{3,}")
"""A folder name that is a word (`ledger`): a name only as a path's owner (`_owns_a_path`)."""
_POSSESSED_PATH = re.compile(
    r"['’]s\s++(?:[^\s/]++\s++){0,4}?[(`'\"]?(?P<path>[\w.-]++(?:/[\w.-]++)++/?)"
)
"""A possessive, at most four words, then a relative path: whose the path is."""
_FILE_NAME = re.compile(r"[\w-]\.[A-Za-z]\w{0,7}$")
_POSSESSIVE = re.compile(r"['’]s\s++\w")
_DETERMINED = re.compile(
    r"\b(?:the|a|an|this|that|these|those|our|my|your|its|their|his|her|each|every|any|some|no)"
    r"\s++$",
    re.IGNORECASE,
)
"""A word before a name that makes it a common noun ("the orchard's", "a kestrel's")."""
_LONGEST_DETERMINER = 12


@dataclass(frozen=True)
class Identity:
    """What names one project (see the module doc)."""

    path: str
    names: tuple[str, ...]
    places: frozenset[str] = frozenset()
    """The hosts and places its checkout names (`checkouts.checkout_places`)."""


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


MENTIONS_VERSION = "6"
"""Bumped when what is read of a file changes (these readers, or the redaction's rules they
ask what is a secret): a cache of another is read again."""


class LeaksEngine(MemoryEngine):
    """Finds the leaks of a home's memory (see the module doc)."""

    def __init__(
        self, home: Home, *, env: Mapping[str, str] | None = None, sources: bool = True
    ) -> None:
        super().__init__(home, env=env, sources=sources)
        self.own = own_names(os.environ if env is None else env)
        self.user_home = (os.environ if env is None else env).get("HOME", "")
        """The user's home folder: a project's path in it is also written from `~`."""
        """The user's own names (their home folder's, their login's): their home paths
        in their own memory are no leak."""
        self._checkouts = KeptCheckouts.of_home(home)
        self._reports = KeptReport(
            home, "leaks", LeaksReport, (Leak, MemoryPlace), findings="leaks"
        )
        self._mentions = PerFile(
            KeptOnDisk.of_home(
                home, "leaks", pack=packed_mentions, unpack=unpacked_mentions, fits=_named_in
            )
        )

    @collection_paused()
    def find(self, workspace_id: str | None = None, *, reuse: bool = False) -> LeaksReport:
        """Every leak of the home's memory (or of what `workspace_id`'s sessions see);
        `reuse`: the report the last run kept when nothing it read changed, the projects'
        names and checkouts neither (`kept.reports`)."""

        def made(collected: Collected, everything: bool) -> tuple[LeaksReport, bool]:
            documents = collected.documents
            projects = self.known_projects(d.project for d in documents)
            leaks = self.leaks_of(documents, projects, everything=everything)
            report = LeaksReport(
                leaks=tuple(leaks), files_read=len(documents), projects=tuple(sorted(projects))
            )
            return report, True

        return self.reported(workspace_id, self._reports if reuse else None, self._context, made)

    def printed_report(self, workspace_id: str | None = None) -> KeptPrinted | None:
        """What `--json` printed of the report a run over the same memory kept (`printed`),
        no record rebuilt; None when a file changed or none was kept."""
        return self.printed(workspace_id, "leaks", self._context)

    def _context(self, listed: Listed) -> object:
        """What a report depends on besides the memory: the user's names and home, what
        names each project."""
        projects = self.known_projects(listed.projects)
        named = tuple(
            (path, i.names, tuple(sorted(i.places))) for path, i in sorted(projects.items())
        )
        return ("leaks", tuple(sorted(self.own)), self.user_home, named)

    def known_projects(self, projects: Iterable[str | None]) -> dict[str, Identity]:
        """Every project the home knows (its registry's, its workspaces', the memories':
        `projects`), each with what names it."""
        registry = load_registry(self.home)
        paths = {p.path for p in registry.projects if p.path != MULTI_PROJECT_KEY}
        paths |= {w.project_identity for w in registry.workspaces if w.project_identity}
        paths |= {project for project in projects if project}
        kept = self._checkouts
        known = {
            path: identity_of(path, kept, self.user_home) for path in paths if os.path.isabs(path)
        }
        kept.finish()
        return known

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
        return anew(
            "leaks", lambda: self._leaks_of(documents, projects, everything), [self._mentions]
        )

    def _leaks_of(
        self, documents: Sequence[Document], projects: Mapping[str, Identity], everything: bool
    ) -> list[Leak]:
        # The longest first (a name inside another is not matched first), then by name:
        # the cache is kept for these names in this order (a set's order is the process's).
        names = sorted({n for i in projects.values() for n in i.names}, key=lambda n: (-len(n), n))
        pattern = _names_pattern(names)
        ordered = sorted(documents, key=lambda d: (d.path, d.key))
        mentions = self._mentions.of_all(
            ordered,
            lambda d: mentions_of(d.text, pattern),
            everything=everything,
            context=(MENTIONS_VERSION, *names),
        )
        owner = _Owners(projects)
        copies = copies_of(ordered)
        words = {path: project_words(path, i.names) for path, i in projects.items()}
        named_by = [
            (d.project, tuple(m.named for m in f.hosts))
            for d, f in zip(ordered, mentions, strict=True)
            if d.key not in copies  # a copy is no second file naming a host
        ]
        companies = company_domains((host for _, named in named_by for host in named), words)
        said = evidence({path: i.places for path, i in projects.items()})
        hosts = project_hosts(named_by, words, companies, said)
        lines = _host_lines(ordered, mentions, copies, hosts)
        shared = frozenset(place for place, project in said.items() if project is None)
        hosts.update(said_owners(lines, hosts, words, companies, shared))
        leaks: dict[str, list[Leak]] = {}
        for document, found in zip(ordered, mentions, strict=True):
            leaks[document.key] = mine = _secrets(document, found)
            if document.record or _every_project_s(document):
                continue
            mine += _personal(document, found, self.own, projects)
            named: dict[str, list[Mention]] = defaultdict(list)
            for mention in found.names:
                project = owner.of(mention.named)
                if project is not None and (mention.strong or document.project is None):
                    named[project].append(mention)
            identity = projects.get(document.project) if document.project else None
            uses = identity.places if identity is not None else frozenset()
            for mention in found.hosts:
                if mention.named in hosts and mention.named not in uses:
                    named[hosts[mention.named]].append(mention)
            mine += _misplaced(document, named, projects)
        for copy, original in copies.items():
            leaks[copy] = _folded(leaks[copy], leaks[original])
        listed = [leak for found in leaks.values() for leak in found]
        if not all(leak.place.text for leak in listed):
            raise NotAsMadeError("a mention of a line its file does not have")
        return listed


def _host_lines(
    documents: Sequence[Document],
    mentions: Sequence[FileMentions],
    copies: Mapping[str, str],
    owned: Mapping[str, str],
) -> list[tuple[str | None, str, str]]:
    """Each project memory's mention of a host no project owns: its project, the host and its
    line (`said_owners`)."""
    said: list[tuple[str | None, str, str]] = []
    for document, found in zip(documents, mentions, strict=True):
        if document.project is None or document.key in copies:
            continue
        mine = [m for m in found.hosts if m.named not in owned]
        if mine:
            lines = text_lines(document.text)
            said += [(document.project, m.named, lines[m.line - 1]) for m in mine]
    return said


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


def identity_of(path: str, kept: KeptCheckouts | None = None, user_home: str = "") -> Identity:
    """What names the project at `path` (see the module doc); `kept`: what its checkout's
    files named when read before; `user_home`: the user's home folder, from which a path
    in it is also written (`~/src/homelab`, `$HOME/src/homelab`)."""
    names = [path.rstrip("/")]
    home = user_home.rstrip("/")
    if home and names[0].startswith(home + "/"):
        names += [f"{start}{names[0][len(home) :]}" for start in ("~", "$HOME", "${HOME}")]
    folder = os.path.basename(path.rstrip("/")).lower()
    if _DISTINCT_NAME.match(folder) or _WORD_NAME.fullmatch(folder):
        names.append(folder)
    places, slug = checkout_names(path, kept)
    if slug is not None:
        names.append(slug)
    return Identity(path, tuple(dict.fromkeys(names)), places)


def _names_pattern(names: Sequence[str]) -> re.Pattern[str] | None:
    if not names:
        return None
    alternatives = "|".join(re.escape(name) for name in names)
    # `acme-api.git` is a repository of `acme-api`; `acme-api.md` is no name of it.
    return re.compile(rf"(?<![\w.-])({alternatives})(?![\w-]|\.(?!git\b)\w)", re.IGNORECASE)


def mentions_of(text: str, names: re.Pattern[str] | None) -> FileMentions:
    """What a memory's text names, line by line."""
    found_names: list[Mention] = []
    hosts: list[Mention] = []
    personal: list[Mention] = []
    secrets: list[Mention] = []
    holds_secrets = redact_secrets(text) != text  # most texts hold none: lines not read for one
    for number, line in enumerate(text_lines(text), start=1):
        if names is not None and (
            "/" in line or "-" in line or "_" in line or "'s " in line or "’s " in line
        ):
            for m in names.finditer(line):
                if _WORD_NAME.fullmatch(m.group(1).lower()) is None:
                    found_names.append(
                        Mention(number, m.group(1), _as_path(line, m.start(), m.group(1)))
                    )
                elif _owns_a_path(line, m.end()):
                    found_names.append(Mention(number, m.group(1)))
                elif _named_owner(line, m.start(), m.end()):
                    found_names.append(Mention(number, m.group(1), strong=False))
        if "." in line:
            hosts += [Mention(number, host) for host in hosts_in(line)]
        hosts += [Mention(number, place) for place in places_in(line)]
        if "/home/" in line or "/Users/" in line or ":\\Users\\" in line:
            personal += _homes(line, number)
        if not holds_secrets:
            continue
        said = secrets_named(line)
        if said:
            secrets.append(Mention(number, said[0]))
    return FileMentions(tuple(found_names), tuple(hosts), tuple(personal), tuple(secrets))


def _homes(line: str, number: int) -> list[Mention]:
    """The paths in home folders `line` names as absolute paths (`/home/ana/x`,
    `/data/home/ana/x`, `C:\\Users\\ana`; never `src/Users/List.tsx` nor a URL's path),
    each as written."""
    found = []
    for match in _PERSONAL.finditer(line):
        before = _token_before(line, match.start())
        if (before and not before.startswith("/")) or "://" in before:
            continue
        most = match.end() + _LONGEST_TOKEN
        ends = map(line.find, _PATH_ENDS, repeat(match.end()), repeat(most))
        end = min((i for i in ends if i >= 0), default=min(most, len(line)))
        found.append(Mention(number, before + line[match.start() : end].rstrip(".,:;!?")))
    return found


def home_folder(path: str) -> tuple[str, str]:
    """The home folder a path of `_homes` is in, and its person's name."""
    match = _PERSONAL.search(path)
    if match is None:
        return path, ""
    return path[: match.end()], match.group(1)


def _token_before(line: str, at: int) -> str:
    """The part of the token (a path, a URL) `line` holds at `at` that comes before it."""
    low = max(0, at - _LONGEST_TOKEN)  # a line may hold thousands: each is looked at near it
    start = max(low - 1, *(line.rfind(end, low, at) for end in _TOKEN_ENDS)) + 1
    return line[start:at]


def _owns_a_path(line: str, end: int) -> bool:
    """Whether a name ending at `end` is the possessive of a path written as only a path is
    (a file's name, a folder's `/`, three parts): "glossa's pagination (src/Glossa/Api.hs)"."""
    possessed = _POSSESSED_PATH.match(line, end)
    if possessed is None:
        return False
    path = possessed.group("path")
    return path.endswith("/") or path.count("/") >= 2 or _FILE_NAME.search(path) is not None


def _named_owner(line: str, start: int, end: int) -> bool:
    """Whether a name that is a word is said as a proper name's possessive: "kilnmarket's Stripe
    account", not "the orchard's gate" — a reference to the project (`Mention.strong` false)."""
    before = max(0, start - _LONGEST_DETERMINER)  # a long line's names each look back so far
    return _POSSESSIVE.match(line, end) is not None and not _DETERMINED.search(line, before, start)


def _as_path(line: str, at: int, named: str) -> bool:
    """Whether a project's name is written as a path or a repository names it
    (`/src/acme-api`, `~/src/acme-api`, `git@github.com:acme/acme-api.git`, `fork of
    acme/acme-api`), not as a bare reference (`talks to acme-api`) nor as the image it
    publishes (`image: acme/acme-api`, `docker pull acme/acme-api`)."""
    if "/" in named:
        return True
    if line[at - 1 : at] != "/":
        return False
    token = _token_before(line, at)
    if token.startswith(("/", "~", ".", "git@")) or "://" in token:
        return True
    head = line[max(0, at - len(token) - 20) : at - len(token)].rstrip()
    return not (head.endswith(("image:", "FROM")) or _IMAGE_COMMAND.search(head))


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
        [(project, mentions)] = named.items()
        if all(_WORD_NAME.fullmatch(m.named.lower()) for m in mentions) and _names_another(
            document.text, project, projects
        ):
            return []  # named as a word, beside another project's word: about several
    leaks = []
    for project, mentions in sorted(others.items()):
        # a line's first mention, its strongest first (a host before a name said as a word)
        ranked = sorted(reversed(mentions), key=lambda mention: mention.strong)
        lines = sorted({mention.line: mention for mention in ranked}.items())
        first = lines[0][1]
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
        leak = _leak(document, first.line, kind, first.named, where, why, belongs_to=belongs_to)
        split = text_lines(document.text) if len(lines) > 1 else None
        more = tuple(_place(document, line, split) for line, _ in lines[1:])
        leaks.append(leak.replaced(elsewhere=more) if more else leak)
    return leaks


def _names_another(text: str, project: str, projects: Mapping[str, Identity]) -> bool:
    """Whether `text` says a name that is a word of a project other than `project`, however
    it says it ("crossings PRs")."""
    words = [
        name
        for path, identity in projects.items()
        if path != project
        for name in identity.names
        if _WORD_NAME.fullmatch(name)
    ]
    pattern = _names_pattern(words)
    return pattern is not None and pattern.search(text) is not None


def _folded(copy: list[Leak], original: list[Leak]) -> list[Leak]:
    """Codex's copy's leaks that its original does not have (a line of a copy older than
    its original: see `copies_of`); each the original has too is its `elsewhere`, the
    original's finding saying so."""
    left = []
    for leak in copy:
        same = next(
            (
                index
                for index, mine in enumerate(original)
                if (mine.kind, mine.names, mine.place.text)
                == (leak.kind, leak.names, leak.place.text)
            ),
            None,
        )
        if same is None:
            left.append(leak)
            continue
        mine = original[same]
        why = mine.why if any(p.imported for p in mine.elsewhere) else mine.why + _COPIED
        original[same] = mine.replaced(
            why=why, elsewhere=(*mine.elsewhere, leak.place, *leak.elsewhere)
        )
    return left


_COPIED = (
    " Codex's import of this memory holds the line too (Codex's to change, never edited here)."
)


def _every_project_s(document: Document) -> bool:
    """Codex's own memory files (`memories/`: its summary, its task groups), which keep
    every project's memory in one place by design, each scoped by Codex itself."""
    return document.agent == "codex" and document.path.startswith("codex:memories:")


def _inside(path: str, folder: str) -> bool:
    folder = folder.rstrip("/")
    return path == folder or path.startswith(folder + "/")


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
    if label.startswith(("a ", "an ")):
        return label
    return f"an {label}" if label[:1].lower() in "aeiou" else f"a {label}"


def own_names(env: Mapping[str, str]) -> frozenset[str]:
    """The names the user's home folders have (lower-case): their home's, their login's."""
    home = env.get("HOME") or env.get("USERPROFILE") or ""
    names = {os.path.basename(home.rstrip("/\\"))}
    names |= {env.get(name, "") for name in ("USER", "LOGNAME", "USERNAME")}
    return frozenset(name.lower() for name in names if name)


def _personal(
    document: Document,
    found: FileMentions,
    own: frozenset[str],
    projects: Mapping[str, Identity],
) -> list[Leak]:
    """A person's home folder in memory shared with collaborators (any, the user's too),
    or one not the user's here in a project's or global memory (see the module doc)."""
    if not document.shared and document.scope not in ("project", "global"):
        return []
    where = _SHARED_WORDS.get(document.agent, "a memory shared with the repository")
    leaks = []
    for mention in found.personal:
        folder, person = home_folder(mention.named)
        if person.lower() in _NO_PERSON or any(_inside(mention.named, path) for path in projects):
            continue
        if document.shared:
            belongs = "your own memory, not one shared with the project's collaborators"
            why = (
                f"{where[0].upper()}{where[1:]} is read by every collaborator of the "
                "repository; a path in one person's home folder means nothing on their "
                "machines and says who wrote it."
            )
        elif person.lower() in own:
            continue
        else:
            belongs = f"{person}'s own memory, or where the team keeps shared files"
            sessions, memory = (
                ("of this project", "the project's memory")
                if document.scope == "project"
                else ("of any project", "global memory, which every session loads,")
            )
            why = (
                f"{folder} is {person}'s home folder, on their machine: no session "
                f"{sessions} here can open it, and {memory} says whose it is."
            )
        leaks.append(_leak(document, mention.line, "personal-path", folder, belongs, why))
    return leaks


_SHARED_WORDS = {
    "claude-code": "Claude Code's team memory or the project's committed CLAUDE.md",
    "codex": "the project's committed AGENTS.md",
    "gemini": "the project's committed GEMINI.md",
}


def _place(document: Document, line: int, lines: Sequence[str] | None = None) -> MemoryPlace:
    """A line of a memory (`lines`: its lines, if split), its secrets redacted."""
    lines = text_lines(document.text) if lines is None else lines
    text = redact_secrets(lines[line - 1]) if 0 < line <= len(lines) else ""
    return place_of(document, line, text)


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
    return Leak(
        kind=kind,
        place=_place(document, line),
        names=names,
        belongs=belongs,
        belongs_to=belongs_to,
        why=why,
    )
