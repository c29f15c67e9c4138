"""Paths a memory names that are not in its checkout (moved or deleted files).

Only what is clearly a path of the checkout is checked (docs/formats.md §19.3):

- a relative path of at least two parts (`src/auth/refresh.py`, `docs/adr/`, as Windows
  writes it `src\\auth\\refresh.py`) whose first part is in the checkout (so `origin/main`,
  `owner/repo`, `application/json` and a path in another repository are not), or an
  absolute path inside the checkout (`~/src/app/x.py` too, `~` the user's home);
- in a code span, a shell line, or prose — in prose only with a file extension, a
  trailing `/` or three parts (`and/or`, `client/server` are words);
- never a URL, a glob or variable (`*`, `{…}`, `$X`, `<name>`), a placeholder
  (`path/to/x`, `foo/bar`, `YOUR_NAME`), a scoped package (`@types/node`), build output or
  dependencies (`dist/`, `node_modules/`, anything the repository ignores), a cluster's
  resource in a `kubectl` or `oc` command (`logs deploy/api`: a Deployment, where `-f
  deploy/api.yaml` is a file);
- never on a line that says the path is gone, moved or renamed, gives it as an example,
  or speaks of it as not there yet (`check.wording`).

A missing file whose name is the name of exactly one other file in the checkout was
probably moved there: the fix replaces the path on that line.
"""

from __future__ import annotations

import itertools
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass

from memtab.check.checkout import SKIPPED_DIRS, Checkout
from memtab.check.markdown import Line, ScannedText
from memtab.check.rules.commands import SESSION_BLOCKS, SHELL_BLOCKS, commands_of
from memtab.check.wording import is_open_section, names_paths_as_they_are

# Linear in the line (a memory may hold a 100 KB line): a token starts only where its
# look-behind allows, and a run it cannot give back to is possessive. A URL's scheme is
# the run of scheme characters before `://` (from its first letter).
_URL = re.compile(
    r"(?<![\w+.-])(?:(?![A-Za-z])[\w+.-])*+[A-Za-z][\w+.-]*+://\S*|\bwww\.\S+|mailto:\S+"
)
_RELATIVE = re.compile(r"(?<![\w/.~$@:%+\\-])(?:\./)?\.?[\w@+-][\w@.+-]*+(?:/[\w@.+-]++)+/?")
_ABSOLUTE = re.compile(r"(?<![\w/.~$@:%\\-])/[\w@.+-]++(?:/[\w@.+-]++)+/?")
_HOME_RELATIVE = re.compile(r"(?<![\w/.~$@:%\\-])~/[\w@.+-]++(?:/[\w@.+-]++)+/?")
# `src\kelp\api.py`, as Windows writes a relative path (never after a drive or a `\`).
_WINDOWS = re.compile(r"(?<![\w/.~$@:%\\-])(?:\.\\)?[\w@+-][\w@.+-]*+(?:\\[\w@.+-]++)+\\?")
# What may trail a path (`:12`, `#L3-L9`, punctuation), read backwards from the end of the
# token: matched from one place, where `…+$` would be tried from every one (exponential
# over a run of dots).
_TRAILING_REVERSED = re.compile(r"(?:(?:\d++:)?\d++:|(?:\d++L?-)?\d++L?#|[.,;:!?)\]}'\"])*")
_PLACEHOLDER_SEGMENTS = frozenset(
    {"foo", "bar", "baz", "qux", "xxx", "yyy", "zzz", "your", "some", "something", "..."}
)
_SHOUTED_PLACEHOLDER = re.compile(r"^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$")
_MEDIA_TYPES = frozenset({"application", "text", "image", "audio", "video", "multipart", "font"})
# A path followed by one of these goes on as a template (`.entire/metadata/<id>/`).
_TEMPLATE_CONTINUES = frozenset("<{$*[%")
_NUMBERS = re.compile(r"^[\d.]+$")
_EXTENSION = re.compile(r"\.[A-Za-z0-9]{1,8}$")
# Programs whose `TYPE/NAME` arguments name a cluster's resources, the types they take
# (kubectl's names and short names), and the options after which a path is a file.
_CLUSTER_PROGRAMS = frozenset({"kubectl", "oc"})
_RESOURCE_TYPES = frozenset(
    {
        "deploy", "deployment", "deployments", "po", "pod", "pods", "svc", "service",
        "services", "sts", "statefulset", "statefulsets", "ds", "daemonset", "daemonsets",
        "rs", "replicaset", "replicasets", "job", "jobs", "cj", "cronjob", "cronjobs", "cm",
        "configmap", "configmaps", "secret", "secrets", "ing", "ingress", "ingresses", "ns",
        "namespace", "namespaces", "no", "node", "nodes", "pvc", "persistentvolumeclaim",
        "pv", "persistentvolume", "sa", "serviceaccount", "hpa", "ep", "endpoints", "role",
        "rolebinding", "clusterrole", "clusterrolebinding", "netpol", "networkpolicy",
        "pdb", "crd", "rollout", "rollouts", "route", "dc", "deploymentconfig",
    }
)  # fmt: skip
_FILE_OPTIONS = frozenset({"-f", "--filename", "-k", "--kustomize"})


@dataclass(frozen=True)
class NamedPath:
    """A path a line names: as written, and inside the checkout (`relative`)."""

    line: int
    written: str
    relative: str
    directory: bool


def named_paths(
    scanned: ScannedText, checkout: Checkout, home: str | None = None
) -> Iterator[NamedPath]:
    """Every path of the checkout the text names on a line that states it as it is
    (`home`: the user's home folder, what `~/` names)."""
    link_targets: dict[int, set[str]] = {}
    for link in scanned.links:
        link_targets.setdefault(link.line, set()).add(link.target.strip().removeprefix("./"))
    for line in scanned.lines:
        if line.fence or not names_paths_as_they_are(line.words) or is_open_section(line.section):
            continue
        seen: set[str] = set()
        resources = frozenset(_cluster_resources(line))
        for written, strict in _candidates(line):
            if written in resources:
                continue
            named = _inside(written, checkout, strict=strict, home=home)
            if named is None or named[0] in seen or named[0] in link_targets.get(line.number, ()):
                continue
            seen.add(named[0])
            yield NamedPath(line.number, written, named[0], named[1])


def _candidates(line: Line) -> Iterator[tuple[str, bool]]:
    """(token as written, whether it needs the stricter prose rule)."""
    if line.block is not None:
        if line.block in SHELL_BLOCKS or line.block in SESSION_BLOCKS or line.block == "":
            yield from ((token, False) for token in _tokens(line.text))
        return
    for span in line.spans:
        yield from ((token, False) for token in _tokens(span))
    yield from ((token, True) for token in _tokens(line.prose))


def _cluster_resources(line: Line) -> Iterator[str]:
    """The `TYPE/NAME` arguments of the line's `kubectl` and `oc` commands: resources of
    a cluster (`deploy/api`), not paths — but after `-f`, a file."""
    if "/" not in line.text or not any(p in line.text for p in _CLUSTER_PROGRAMS):
        return
    for command in commands_of(line):
        if command.program not in _CLUSTER_PROGRAMS:
            continue
        for before, argument in itertools.pairwise(command.words):
            kind, slash, _ = argument.partition("/")
            if slash and kind.lower() in _RESOURCE_TYPES and before not in _FILE_OPTIONS:
                yield argument


def _tokens(text: str) -> Iterator[str]:
    text = _URL.sub(" ", text)
    patterns = [_ABSOLUTE, _RELATIVE]
    patterns += [_HOME_RELATIVE] if "~/" in text else []
    patterns += [_WINDOWS] if "\\" in text else []
    for pattern in patterns:
        for match in pattern.finditer(text):
            start, end = match.span()
            if text[end : end + 1] not in _TEMPLATE_CONTINUES or _emphasised(text, start, end):
                yield match.group(0)


def _emphasised(text: str, start: int, end: int) -> bool:
    """Whether the token at `start:end` is set in bold or italics (`**src/app.py**`): as many
    `*` close it as open it, where a glob's `*` goes on from a path (`src/*.py`)."""
    opened = closed = 0
    while opened < 4 and start > opened and text[start - opened - 1] == "*":
        opened += 1
    while closed < 4 and text[end + closed : end + closed + 1] == "*":
        closed += 1
    return 0 < opened == closed <= 3


def _inside(
    written: str, checkout: Checkout, *, strict: bool, home: str | None = None
) -> tuple[str, bool] | None:
    """The path inside the checkout a token names, and whether it names a folder; None
    when it is not clearly a path of this checkout (see the module doc)."""
    trailing = _TRAILING_REVERSED.match(written[::-1])  # it matches every text (`*`)
    token = written[: len(written) - (trailing.end() if trailing is not None else 0)]
    if "\\" in token and "/" not in token:
        token = token.replace("\\", "/")
    if token.startswith("~/"):
        if not home:
            return None
        token = home.rstrip("/") + token[1:]
    directory = token.endswith("/")
    token = token.rstrip("/")
    if token.startswith("/"):
        root = str(checkout.root).rstrip("/") + "/"
        real_root = os.path.realpath(checkout.root).rstrip("/") + "/"
        prefix = next((r for r in (root, real_root) if token.startswith(r)), None)
        if prefix is None:
            return None
        token, anchored = token[len(prefix) :], True
    else:
        anchored = False
        token = token.removeprefix("./")
    parts = token.split("/")
    if len(parts) < 2 or not _plausible(parts):
        return None
    if strict and not (directory or len(parts) >= 3 or _EXTENSION.search(parts[-1])):
        return None
    if parts[0] in SKIPPED_DIRS or any(part in SKIPPED_DIRS for part in parts[:-1]):
        return None
    if not anchored and not checkout.exists(parts[0]):
        return None
    return token, directory


def _plausible(parts: list[str]) -> bool:
    """Not a placeholder, number, version, media type or scoped package."""
    if parts[0].startswith(("@", "-")) or (len(parts) == 2 and parts[0] in _MEDIA_TYPES):
        return False
    lowered = [part.lower() for part in parts]
    if any(p in ("", ".", "..") or p in _PLACEHOLDER_SEGMENTS for p in lowered):
        return False
    if any(a == "path" and b == "to" for a, b in itertools.pairwise(lowered)):
        return False
    if any(_NUMBERS.match(part) or _SHOUTED_PLACEHOLDER.match(part) for part in parts):
        return False
    return not any(part.startswith("your") or part.startswith("my-") for part in lowered)


def is_missing(checkout: Checkout, named: NamedPath) -> bool:
    """Whether nothing is at the path — nor, for a name without an extension, a file of
    that name with one (`src/lib/api` for `src/lib/api.ts`, as imports name modules)."""
    if checkout.exists(named.relative):
        return False
    if named.directory or _EXTENSION.search(named.relative.rsplit("/", 1)[-1]):
        return True
    return not checkout.stem_taken(named.relative)


def moved_to(checkout: Checkout, named: NamedPath) -> str | None:
    """Where a missing path probably went: the only file (or folder) of the checkout with
    its name, outside build output and dependencies; None when there is not exactly one."""
    name = named.relative.rsplit("/", 1)[-1]
    candidates = [
        path
        for path in checkout.named(name)
        if not any(part in SKIPPED_DIRS for part in path.split("/"))
        and checkout.indexed_dir(path) == named.directory
        and checkout.exists(path)
    ]
    return candidates[0] if len(candidates) == 1 else None


def rewritten(written: str, relative: str, new_relative: str) -> str:
    """`written` (as the memory spells the path) naming `new_relative` instead."""
    return written.replace(relative, new_relative, 1)
