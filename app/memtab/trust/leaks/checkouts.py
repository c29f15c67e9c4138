"""The places a project's checkout on disk names (docs/formats/check-and-blame.md §19.7):
what it is deployed to, reads from and is cloned from, as its remotes (`.git/config`), its
module and package (`go.mod`, `package.json`, `pyproject.toml`, …), its environment
(`.env*`), compose, CI, platform (`vercel.json`, `fly.toml`, …) and Kubernetes, Helm and
deploy files say. A place one checkout names is that project's, or one it uses; one that
several checkouts name is shared (`evidence`).

Read bounded: the files of a few known names and those in deploy and CI folders, up to
`_MOST_FILES` files of `_MOST_BYTES` each, never through a link.
"""

from __future__ import annotations

import json
import os
import re
from collections import defaultdict
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path

from memtab.fs.user_files import read_regular_file
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


def checkout_places(checkout: str) -> frozenset[str]:
    """The hosts and places (`places.places_in`'s) the checkout at `checkout` names; none
    when it is not on this disk."""
    root = Path(checkout)
    found: set[str] = set()
    for path in _files(root):
        text = _read(path)
        if not text:
            continue
        lines = text.splitlines()
        if path.name == "config" and path.parent.name == ".git":
            lines = [_as_url(url) for url in _REMOTE_URL.findall(text)]
        elif path.name == "go.mod":
            lines = [f"https://{module}" for module in _MODULE.findall(text)]
        elif path.name == "package.json":
            lines += _package_repository(text)
        for line in lines:
            found.update(host for host in hosts_in(line) if _HOST_END.search(host))
            found.update(places_in(line))
    return frozenset(found)


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


def _files(root: Path) -> Iterator[Path]:
    count = 0
    candidates = [root / ".git" / "config"]
    candidates += sorted(_entries(root, lambda name: _ROOT_FILES.match(name) is not None))
    for folder in _FOLDERS:
        candidates += _walk(root / folder, _DEPTH)
    for path in candidates:
        if count >= _MOST_FILES:
            return
        if path.is_file() and not path.is_symlink():
            count += 1
            yield path


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


def _walk(folder: Path, depth: int) -> list[Path]:
    """The configuration files in `folder`, to `depth` levels, never through a link."""
    if depth <= 0 or folder.is_symlink() or not folder.is_dir():
        return []
    found = sorted(_entries(folder, lambda name: _FOLDER_FILES.search(name) is not None))
    try:
        with os.scandir(folder) as entries:
            folders = sorted(e.path for e in entries if e.is_dir(follow_symlinks=False))
    except OSError:
        return found
    for sub in folders:
        found += _walk(Path(sub), depth - 1)
    return found


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
