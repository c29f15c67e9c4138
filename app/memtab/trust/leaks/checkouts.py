"""The places a project's checkout on disk names (docs/formats/check-and-blame.md §19.7):
what it is deployed to, reads from and is cloned from, as its remotes (`.git/config`), its
module and package (`go.mod`, `package.json`, `pyproject.toml`, …), its environment
(`.env*`), compose, CI, platform (`vercel.json`, `fly.toml`, …) and Kubernetes, Helm and
deploy files say. A place one checkout names is that project's, or one it uses; one that
several checkouts name is shared (`evidence`).

Read bounded: the files of a few known names and those in deploy and CI folders, up to
`_MOST_FILES` files of `_MOST_BYTES` each, never through a link. What each file named is
kept by its stat stamp (`KeptCheckouts`): a warm run lists the checkouts' files, reads none.
"""

from __future__ import annotations

import json
import os
import re
import stat
import time
from collections import defaultdict
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

from memtab.fs.globs import walk_files
from memtab.fs.memo import RACY_MARGIN_NS, Memo, Stamp, changed_since, memo_path, stamp_of
from memtab.fs.user_files import read_regular_file
from memtab.kept.per_file import only
from memtab.store.home import Home
from memtab.trust.leaks.hosts import domain_of, hosts_in, ownable
from memtab.trust.leaks.places import REPOSITORY, places_in

_ROOT_FILES = re.compile(
    r"^(?:\.env(?:\..+)?|.+\.env|(?:docker-)?compose(?:\..+)?\.ya?ml|package\.json|"
    r"pyproject\.toml|setup\.cfg|go\.mod|Cargo\.toml|composer\.json|pom\.xml|"
    r"build\.gradle(?:\.kts)?|vercel\.json|netlify\.toml|fly\.toml|render\.yaml|app\.ya?ml|"
    r"railway\.(?:json|toml)|Procfile|skaffold\.ya?ml|Tiltfile|kustomization\.ya?ml|"
    r"\.gitlab-ci\.ya?ml|Jenkinsfile|bitbucket-pipelines\.yml|\.drone\.ya?ml|"
    r"azure-pipelines\.ya?ml|cloudbuild\.ya?ml|serverless\.ya?ml|wrangler\.toml)$"
)
"""A checkout's own files at its root that say where it runs and what it uses."""
_FOLDERS = (
    ".github/workflows", ".circleci", ".buildkite", "deploy", "deployment", "deployments",
    "k8s", "kube", "kubernetes", "manifests", "helm", "charts", "chart", "infra", "ops",
    "config", "terraform", ".k8s", ".deploy",
)  # fmt: skip
"""Folders of deploy, CI and configuration files, read to `_DEPTH` levels."""
_FOLDER_FILES = re.compile(r"(?:\.(?:ya?ml|json|toml|tf|tfvars|env|conf|ini|cfg|hcl)|^\.env.*)$")
_DEPTH = 4
_MOST_ENTRIES = 5_000
_MOST_FILES = 200
_MOST_BYTES = 128 * 1024
_REMOTE_URL = re.compile(r"^[ \t]*(?:push)?url[ \t]*=[ \t]*(\S+)", re.MULTILINE)
_MODULE = re.compile(r"^module[ \t]+([\w.-]+\.[a-z]{2,12}/[\w./-]+)", re.MULTILINE)
_OWNER_NAME = re.compile(r"[\w.-]+/[\w.-]+")
_SHORTHAND = re.compile(r"^(github|gitlab|bitbucket):([\w.-]+/[\w.-]+)$")
_HOST_END = re.compile(
    r"\.(?:[a-z]{2}|com|net|org|io|dev|app|cloud|tech|site|online|services|systems|info|biz"
    r"|xyz|internal|local|lan|corp|intranet|localdomain|svc|cluster)$"
)
"""What a host's name ends in (a country's or a common top-level domain, a private network's
suffix): a checkout's `memtab.cli.main` or `django.contrib.auth` is a module, no host."""
_PUBLIC_DOMAINS = frozenset({"github.com", "gitlab.com", "bitbucket.org", "codeberg.org"})
"""Public code hosts: a repository there says nothing of the user's own domain."""
_SHORTHAND_HOSTS = {"github": "github.com", "gitlab": "gitlab.com", "bitbucket": "bitbucket.org"}


_ORIGIN = "\0origin:"
"""What a checkout's `.git/config` names as its `origin`'s `owner/name`, among its places."""
_ORIGIN_URL = re.compile(r"^\s*url\s*=\s*(\S+)", re.MULTILINE)
_SLUG = re.compile(r"[:/]([\w.-]+/[\w.-]+?)(?:\.git)?/?$")
_MAGIC = b"memtab-checkouts\n"
_VERSION = 1
_MOST_KEPT = 64 * 1024 * 1024
Entry = tuple[Stamp, frozenset[str]]


class KeptCheckouts:
    """What each checkout's file named, by its path, while its stat stamp (`fs.memo`) is
    the one it was read with past the racy margin: in memory and in a sealed memo per home
    (`trust-checkouts-v<version>-<home>.bin`); one engine's, one run at a time."""

    def __init__(
        self, memo: Memo | None = None, *, home: str = "", now_ns: Callable[[], int] = time.time_ns
    ) -> None:
        self._memo = memo
        self._home = home
        self._now_ns = now_ns
        self._known: dict[str, Entry] | None = None if memo is not None else {}
        self._seen: dict[str, Entry] = {}
        self._roots: set[str] = set()
        self._read = 0
        self.last_read = 0
        """Files the last run read (not kept, or changed since)."""

    @classmethod
    def of_home(cls, home: Home) -> KeptCheckouts:
        path = memo_path(home.root, f"trust-checkouts-v{_VERSION}-{{}}.bin")
        return cls(Memo(path, "checkouts' places", _MOST_KEPT), home=str(home.root))

    def named(self, root: Path, path: Path, info: os.stat_result) -> frozenset[str]:
        """What the file at `path` of the checkout at `root`, `lstat`ed as `info`, names."""
        if self._known is None:
            assert self._memo is not None
            self._known = self._memo.read_sealed(_MAGIC, self._entries) or {}
        self._roots.add(str(root))
        key, now = str(path), stamp_of(info)
        entry = self._known.get(key)
        if entry is not None and entry[0] == now:
            self._seen[key] = entry
            return entry[1]
        self._read += 1
        found = _named_in(path)
        if not changed_since(info, self._now_ns() - RACY_MARGIN_NS):
            self._seen[key] = (now, found)
        return found

    def finish(self) -> None:
        """The run ended: keep what it saw, and what was kept of checkouts it did not list;
        written when it differs."""
        known = self._known or {}
        roots = tuple(root.rstrip(os.sep) + os.sep for root in self._roots)
        kept = {k: e for k, e in known.items() if not k.startswith(roots)} | self._seen
        if self._memo is not None and (self._read or kept.keys() != known.keys()):
            held = (
                _VERSION,
                self._home,
                tuple(kept),
                tuple(stamp for stamp, _ in kept.values()),
                tuple(named for _, named in kept.values()),
            )
            self._memo.write_sealed(_MAGIC, held)
        self._known, self._seen, self._roots = kept, {}, set()
        self.last_read, self._read = self._read, 0

    def _entries(self, held: tuple[Any, ...]) -> dict[str, Entry]:
        if len(held) != 5:
            raise ValueError("not the shape written")
        version, home, paths, stamps, named = held
        if (version, home) != (_VERSION, self._home):
            return {}
        if not len(paths) == len(stamps) == len(named) or not only(str, paths):
            raise ValueError("its lists do not line up")
        if not all(type(s) is tuple and len(s) == 4 and only(int, s) for s in stamps):
            raise TypeError("not the stamps written")
        if not all(type(n) is frozenset and only(str, n) for n in named):
            raise TypeError("not the places written")
        return dict(zip(paths, zip(stamps, named, strict=True), strict=True))


def checkout_places(checkout: str, kept: KeptCheckouts | None = None) -> frozenset[str]:
    """The hosts and places (`places.places_in`'s) the checkout at `checkout` names; none
    when it is not on this disk."""
    return checkout_names(checkout, kept)[0]


def checkout_names(
    checkout: str, kept: KeptCheckouts | None = None
) -> tuple[frozenset[str], str | None]:
    """What the checkout at `checkout` names (`checkout_places`) and its `origin` remote's
    `owner/name` (None: none, or not on this disk); `kept`: what was read before."""
    root = Path(checkout)
    kept = kept if kept is not None else KeptCheckouts()
    found: set[str] = set()
    for path, info in _files(root):
        found |= kept.named(root, path, info)
    origin = next((p for p in found if p.startswith(_ORIGIN)), None)
    found.discard(origin or "")
    return frozenset(found), origin[len(_ORIGIN) :] if origin else None


def _named_in(path: Path) -> frozenset[str]:
    """The hosts and places one file of a checkout names (a `.git/config`'s `origin` too)."""
    text = _read(path)
    if not text:
        return frozenset()
    found: set[str] = set()
    lines = text.splitlines()
    if path.name == "config" and path.parent.name == ".git":
        lines = [_as_url(url) for url in _REMOTE_URL.findall(text)]
        origin = _origin(text)
        if origin is not None:
            found.add(_ORIGIN + origin)
    elif path.name == "go.mod":
        lines = [f"https://{module}" for module in _MODULE.findall(text)]
    elif path.name == "package.json":
        lines += _package_repository(text)
    for line in lines:
        found.update(host for host in hosts_in(line) if _HOST_END.search(host))
        found.update(places_in(line))
    return frozenset(found)


def _origin(config: str) -> str | None:
    """`owner/name` of a `.git/config`'s `origin` remote."""
    section = config.split('[remote "origin"]', 1)
    if len(section) < 2:
        return None
    url = _ORIGIN_URL.search(section[1].split("[", 1)[0])
    slug = _SLUG.search(url.group(1)) if url is not None else None
    return slug.group(1).lower() if slug is not None else None


def evidence(places: Mapping[str, frozenset[str]]) -> dict[str, str | None]:
    """Each place a checkout names → the project whose checkout it is, or None when the
    checkouts of several name it (a service they share); a host only when it may be that
    project's own (`hosts.ownable`: under the user's domains — those of their checkouts'
    own code hosts, and those several checkouts name hosts under); `places`: each
    project's `checkout_places`."""
    named: dict[str, set[str]] = defaultdict(set)
    code_hosts: set[str] = set()  # the domains of the checkouts' own code hosts
    by_domain: dict[str, set[str]] = defaultdict(set)
    for project, mine in places.items():
        for place in mine:
            named[place].add(project)
            if place.startswith(REPOSITORY):
                code_hosts.add(domain_of(place[len(REPOSITORY) :].partition("/")[0]) or "")
            elif (domain := domain_of(place)) is not None:
                by_domain[domain].add(project)
    shared = {domain for domain, projects in by_domain.items() if len(projects) > 1}
    domains = frozenset(code_hosts | shared) - _PUBLIC_DOMAINS - {""}
    return {
        place: next(iter(them)) if len(them) == 1 else None
        for place, them in named.items()
        if len(them) > 1 or ownable(place, domains)
    }


def _files(root: Path) -> Iterator[tuple[Path, os.stat_result]]:
    """The checkout's files read, each with its `lstat` (a regular file: no link)."""
    count = 0
    candidates = [root / ".git" / "config"]
    candidates += sorted(_entries(root, lambda name: _ROOT_FILES.match(name) is not None))
    for folder in _FOLDERS:
        candidates += _walk(root / folder)
    for path in candidates:
        if count >= _MOST_FILES:
            return
        try:
            info = os.lstat(path)
        except OSError:
            continue
        if stat.S_ISREG(info.st_mode):
            count += 1
            yield path, info


def _entries(folder: Path, wanted: Callable[[str], bool]) -> list[Path]:
    """The files in `folder` (not through a link) whose names are `wanted`."""
    try:
        with os.scandir(folder) as entries:
            return [
                Path(entry.path)
                for entry in entries
                if entry.is_file(follow_symlinks=False) and wanted(entry.name)
            ]
    except OSError:
        return []


def _walk(folder: Path) -> list[Path]:
    """The configuration files in `folder`, to `_DEPTH` levels, never through a link, reading at
    most `_MOST_ENTRIES` entries."""
    if folder.is_symlink() or not folder.is_dir():
        return []
    walked = walk_files(folder, most_entries=_MOST_ENTRIES, levels=_DEPTH)
    return [
        folder / relative
        for relative in walked.files
        if _FOLDER_FILES.search(relative.rpartition("/")[2]) is not None
    ]


def _read(path: Path) -> str:
    try:
        data = read_regular_file(path, limit=_MOST_BYTES, truncate=True, follow_links=False)
    except OSError:  # gone, a link or a FIFO put there since it was listed: nothing it names
        return ""
    return data.decode("utf-8", errors="replace")


def _as_url(remote: str) -> str:
    """A remote's URL as a line `places_in` reads a repository from (`host:owner/name`,
    scp-like without a user, written as ssh)."""
    if "://" in remote or "@" in remote or ":" not in remote:
        return remote
    return f"git@{remote}"


def _package_repository(text: str) -> list[str]:
    """`package.json`'s repository, as a URL (`github:owner/name` shorthand too)."""
    try:
        package = json.loads(text)
    except ValueError:
        return []
    repository = package.get("repository") if isinstance(package, dict) else None
    url = repository.get("url") if isinstance(repository, dict) else repository
    if not isinstance(url, str):
        return []
    shorthand = _SHORTHAND.match(url)
    if shorthand is not None:
        return [f"https://{_SHORTHAND_HOSTS[shorthand.group(1)]}/{shorthand.group(2)}"]
    if _OWNER_NAME.fullmatch(url):
        return [f"https://github.com/{url}"]
    return [url]
