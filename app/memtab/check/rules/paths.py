"""Paths a memory names that are not in its checkout (moved or deleted files).

Only what is clearly a path of the checkout is checked (docs/formats.md §19.3):

- a relative path of at least two parts (`src/auth/refresh.py`, `docs/adr/`, as Windows
  writes it `src\\auth\\refresh.py`) whose first part is in the checkout (so `origin/main`,
  `owner/repo`, `application/json` and a path in another repository are not), or in a
  folder the line or its heading names or `cd`s to (`In services/api, … src/main.ts`), or
  nowhere but a file of the checkout ends with its folder and name (moved), or a folder
  or file that is a code span of its own (`deploy/helm/`, `docs/openapi.json`: not after
  a possessive, in a sentence naming a repository, nor under a version's folder);
  `./file`; an absolute path inside the checkout (`~/src/app/x.py` too, `~` the user's
  home); a code span that is one file name of source code or a tool's config
  (`jest.config.ts`; not named after the project, as its users' files are), or a hidden
  file's name with an extension, in prose too (`.nrepl.edn`; not after a possessive nor in
  a sentence naming a repository), missing when no file of the checkout has that name
  (nor, for a hidden one, a file of its root whose name starts with its first part:
  `.env.example` for `.env.local`);
- in a code span, a shell line, or prose — in prose only with a file extension, a
  trailing `/` or three parts (`and/or`, `client/server` are words);
- a glob in a code span or a shell line (`packages/*/lib/`, `tests/**/*.snap`) whose first
  folder is in the checkout, missing when nothing of the checkout matches it
  (`fs.globs`), unless its sentence gives it as a pattern names follow;
- never a URL, a glob in prose, a template or variable (`{…}`, `$X`, `<name>`), a placeholder
  (`path/to/x`, `foo/bar`, `YOUR_NAME`), a scoped package (`@types/node`), build output or
  dependencies (`dist/`, `node_modules/`, anything the repository ignores), a cluster's
  resource in a `kubectl` or `oc` command (`logs deploy/api`: a Deployment, where `-f
  deploy/api.yaml` is a file);
- never on a line that says the path is gone, moved or renamed, gives it as an example,
  or speaks of it as not there yet, nor in a sentence that is a condition or a future
  (`check.wording`), nor in a command run on another machine or in a container.

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
from memtab.check.rules.commands import SESSION_BLOCKS, SHELL_BLOCKS, commands_of, made_paths
from memtab.check.wording import (
    hedged,
    is_open_section,
    names_a_pattern,
    names_a_repository,
    names_paths_as_they_are,
    says_gone_under,
)
from memtab.fs.globs import MAX_PARTS, is_glob

# Linear in the line (a memory may hold a 100 KB line): a token starts only where its
# look-behind allows, and a run it cannot give back to is possessive. A URL's scheme is
# the run of scheme characters before `://` (from its first letter).
_URL = re.compile(
    r"(?<![\w+.-])(?:(?![A-Za-z])[\w+.-])*+[A-Za-z][\w+.-]*+://\S*|\bwww\.\S+|mailto:\S+"
)
_RELATIVE = re.compile(r"(?<![\w/.~$@:%+\\-])(?:\./)?\.?[\w@+-][\w@.+-]*+(?:/[\w@.+-]++)+/?")
_ABSOLUTE = re.compile(r"(?<![\w/.~$@:%\\-])/[\w@.+-]++(?:/[\w@.+-]++)+/?")
# `./seed.sh`, `.\\dev.ps1`: a file in the folder commands run in.
_DOT_RELATIVE = re.compile(r"(?<![\w/.~$@:%+\\-])\.[/\\]\.?[\w@+-][\w@.+-]*+(?![/\\])")
# `packages/*/lib/`, `tests/**/fixtures/`: a glob whose first folder is a name (no `./`).
_GLOB = re.compile(r"(?<![\w/.~$@:%+\\*-])[\w@+-][\w@.+-]*+(?:/[\w@.+*-]++)+/?")
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
_FILE_EXTENSION = re.compile(r"\.[A-Za-z][A-Za-z0-9]{0,7}$")
"""A file's extension, not a version's last number (`release/v2.4`)."""
_VERSIONED = re.compile(r"\d\.\d")
_POSSESSIVE = re.compile(r"\w(?:['’]s|s['’]) ?`?$")
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
# Programs that run a command on another machine or in a container: its paths are there.
_ELSEWHERE_PROGRAMS = frozenset({"ssh", "mosh", "vagrant"})
_IN_CONTAINER = frozenset({"exec", "run", "cp", "debug", "attach"})
_CONTAINER_PROGRAMS = frozenset({"docker", "podman", "nerdctl", "kubectl", "oc", "docker-compose"})
_COMMAND_BREAK = re.compile(r"&&|\|\||[;|]|^\s*\$\s")
# A code span that is one path with spaces in it (`docs/Design Notes/flow.md`).
_SPACED = re.compile(r"[\w@.+-]++(?: [\w@.+-]++)*+(?:/[\w@.+-]++(?: [\w@.+-]++)*+)++/?")
# A file name alone, of source code or a tool's `NAME.config.EXT`: a file of the project
# wherever it is (a data file, `prices.json`, may be another program's; a domain,
# `api.example.com`, a version, `v1.2`, a note's name, `ROADMAP.md`, are not files).
_BARE_FILE = re.compile(
    r"[A-Za-z0-9_][\w@+-]*+(?:\.config\.(?:[cm]?[jt]s|json|ya?ml|toml)|\.(?:[cm]?[jt]sx?|py|"
    r"pyi|rs|go|c|h|cc|cpp|hpp|java|kt|swift|rb|php|cs|ex|exs|lua|vue|svelte))"
)
# A hidden file's name with an extension (`.nrepl.edn`, `.periphery.yml`), in prose too: a
# tool's config at the root of a project (not a folder's: `.github/workflows`).
_HIDDEN_FILE = re.compile(r"(?<![\w/.~$@:%+\\*<>{}-])\.[\w+-]++(?:\.[\w+-]++)++(?![/\\<>{}*])")
_CUT = ("…", "...")
"""What ends a name cut short (`docs/adr/0003-…`)."""


@dataclass(frozen=True)
class NamedPath:
    """A path a line names: as written, and inside the checkout (`relative`)."""

    line: int
    written: str
    relative: str
    directory: bool
    cut: bool = False
    """The name is cut short (`docs/adr/0003-…`): what is there starts with it."""

    @property
    def nothing_at(self) -> str:
        """What is not there, in words (`no folder is at src/jobs`)."""
        if is_glob(self.relative):
            return f"nothing matches {self.relative}{'/' if self.directory else ''}"
        return f"no {'folder' if self.directory else 'file or folder'} is at {self.relative}"


def named_paths(
    scanned: ScannedText, checkout: Checkout, home: str | None = None
) -> Iterator[NamedPath]:
    """Every path of the checkout the text names in a sentence that states it as it is
    (`home`: the user's home folder, what `~/` names)."""
    link_targets: dict[int, set[str]] = {}
    for link in scanned.links:
        link_targets.setdefault(link.line, set()).add(link.target.strip().removeprefix("./"))
    for line in scanned.lines:
        if line.fence or not names_paths_as_they_are(line.words) or is_open_section(line.section):
            continue
        if says_gone_under(line.section):
            continue
        resources = frozenset(_cluster_resources(line))
        made = made_paths(line) if line.block is not None or line.spans else frozenset()
        candidates = [
            c
            for c in _candidates(line, checkout)
            if c[0] not in resources and _plain(c[0]).removeprefix("./").rstrip("/") not in made
        ]
        if not candidates or _runs_elsewhere(line):
            continue
        seen: set[str] = set()
        bases = _bases(line, [written for written, _ in candidates], checkout)
        alone = {span.strip() for span in line.spans}
        for written, strict in candidates:
            around = line.words_around(written)
            if hedged(around) or (is_glob(written) and names_a_pattern(around)):
                continue
            # a name alone may be another checkout's: said after a possessive or a repository
            elsewhere = (written in alone or _hidden_file(written)) and _elsewhere(
                line, written, around
            )
            if elsewhere and _hidden_file(written):
                continue
            named = _inside(
                written,
                checkout,
                strict=strict,
                home=home,
                bases=bases,
                alone=written in alone and not elsewhere,
            )
            if named is None or named[0] in seen or named[0] in link_targets.get(line.number, ()):
                continue
            seen.add(named[0])
            yield NamedPath(line.number, written, *named)


def _elsewhere(line: Line, written: str, around: str) -> bool:
    """Whether the path may be another checkout's: a possessive names its owner (`the other
    repo's `cmd/x/main.go``, `upstream's `src/``), or its sentence names a repository."""
    at = line.text.find(written)
    owned = at > 0 and _POSSESSIVE.search(line.text, max(0, at - 6), at) is not None
    return owned or names_a_repository(around)


def _runs_elsewhere(line: Line) -> bool:
    """Whether the line's code runs on another machine or in a container (`ssh app-1 …`,
    `docker compose exec api …`): the paths it names are there, not in the checkout."""
    code = [line.text] if line.block is not None else line.spans
    for piece in code:
        for command in _COMMAND_BREAK.split(piece):
            words = command.split(maxsplit=4)[:4]
            if not words:
                continue
            program = words[0].rsplit("/", 1)[-1]
            if program in _ELSEWHERE_PROGRAMS or (
                program in _CONTAINER_PROGRAMS and not _IN_CONTAINER.isdisjoint(words)
            ):
                return True
    return False


def _bases(line: Line, written: list[str], checkout: Checkout) -> tuple[list[str], list[str]]:
    """The checkout's folders the line (or its heading) names, and those its commands `cd`
    to: what a path on the line may be written relative to (`In services/api, … src/x.ts`)."""
    named = [*written, *_tokens(line.section)] if line.section else written
    folders = []
    for token in named:
        relative = _plain(token).rstrip("/")
        if (
            "/" in relative
            and relative[0] != "/"
            and not is_glob(relative)
            and checkout.is_dir(relative)
        ):
            folders.append(relative)
    moved = [c.directory.removeprefix("./").rstrip("/") for c in commands_of(line) if c.directory]
    return folders, [d for d in moved if d and not d.startswith(("/", "~")) and checkout.is_dir(d)]


def _plain(written: str) -> str:
    """A token without what trails it (`:12`, `#L3`, punctuation), `/`-separated."""
    trailing = _TRAILING_REVERSED.match(written[::-1])  # it matches every text (`*`)
    token = written[: len(written) - (trailing.end() if trailing is not None else 0)]
    if "\\" in token and "/" not in token:
        token = token.replace("\\", "/")
    return token


def _candidates(line: Line, checkout: Checkout) -> Iterator[tuple[str, bool]]:
    """(token as written, whether it needs the stricter prose rule)."""
    if line.block is not None:
        if line.block in SHELL_BLOCKS or line.block in SESSION_BLOCKS or line.block == "":
            yield from ((token, False) for token in _tokens(line.text, globs=True))
        return
    for span in line.spans:
        if _one_spaced_path(span.strip(), checkout) or _own_file_name(span.strip(), checkout):
            yield span.strip(), False
        else:
            yield from ((token, False) for token in _tokens(span, globs=True))
    yield from ((token, True) for token in _tokens(line.prose))
    prose = _URL.sub(" ", line.prose)
    yield from ((match.group(0), True) for match in _HIDDEN_FILE.finditer(prose))


def _own_file_name(span: str, checkout: Checkout) -> bool:
    """Whether a code span is a file name alone, a hidden one (`_HIDDEN_FILE`) or one of
    `_BARE_FILE` not named after the project: a tool named for its project reads
    `dockyard.yaml` in its users' repositories."""
    if _hidden_file(span):
        return True
    if _BARE_FILE.fullmatch(span) is None:
        return False
    project = os.path.basename(str(checkout.root).rstrip("/")).lower()
    return not span.lower().startswith(project)


def _hidden_file(name: str) -> bool:
    """Whether `name` is a hidden file's name with an extension (`.nrepl.edn`)."""
    return _HIDDEN_FILE.fullmatch(name) is not None and _FILE_EXTENSION.search(name) is not None


def _one_spaced_path(span: str, checkout: Checkout) -> bool:
    """Whether a code span is one path with spaces: only a path's characters, its folder
    (`docs/Design Notes` of `docs/Design Notes/flow.md`) a folder of the checkout, and no
    file name or option before a space (`src/a.py src/b.py`, `scripts/dev.sh --fresh`)."""
    if " " not in span or _SPACED.fullmatch(span) is None:
        return False
    words = span.split(" ")
    if _EXTENSION.search(words[0]) or any(word.startswith("-") for word in words):
        return False
    folder = span.rstrip("/").rpartition("/")[0]
    return checkout.is_dir(folder)


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


def _tokens(text: str, *, globs: bool = False) -> Iterator[str]:
    """The paths `text` names (`globs`: and the globs, as code names them)."""
    text = _URL.sub(" ", text)
    if globs and "*" in text:
        yield from (
            match.group(0)
            for match in _GLOB.finditer(text)
            if "*" in match.group(0)
            and text[match.end() : match.end() + 1] not in _TEMPLATE_CONTINUES
        )
    patterns = [_ABSOLUTE, _RELATIVE]
    patterns += [_HOME_RELATIVE] if "~/" in text else []
    patterns += [_WINDOWS] if "\\" in text else []
    patterns += [_DOT_RELATIVE] if ".\\" in text or "./" in text else []
    for pattern in patterns:
        for match in pattern.finditer(text):
            start, end = match.span()
            if text[end : end + 1] not in _TEMPLATE_CONTINUES or _emphasised(text, start, end):
                yield match.group(0) + ("…" if text.startswith("…", end) else "")


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
    written: str,
    checkout: Checkout,
    *,
    strict: bool,
    home: str | None = None,
    bases: tuple[list[str], list[str]] = ([], []),
    alone: bool = False,
) -> tuple[str, bool, bool] | None:
    """The path inside the checkout a token names, whether it names a folder, and whether
    its name is cut short; None when it is not clearly a path of this checkout (see the
    module doc). `bases`: the folders the line names, and those it `cd`s to; `alone`: the
    token is a code span of its own."""
    cut = written.endswith(_CUT)
    token = _plain(written.removesuffix("…"))
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
    explicit = token.startswith("./")  # relative to where the line's commands run
    token = token.removeprefix("./")
    parts = token.split("/")
    single = len(parts) == 1 and (
        (explicit and (_EXTENSION.search(token) or token[:1] == "."))
        or (not strict and _BARE_FILE.fullmatch(token) is not None)
        or _hidden_file(token)
    )
    if (len(parts) < 2 and not single) or not _plausible(parts):
        return None
    if is_glob(token) and len(parts) > MAX_PARTS:
        return None
    if strict and not (directory or len(parts) >= 3 or _EXTENSION.search(parts[-1])):
        return None
    # build output and dependencies (a glob's last part too: `rm -rf packages/*/dist`)
    if not SKIPPED_DIRS.isdisjoint(parts if is_glob(token) else parts[:-1]):
        return None
    if anchored:
        return token, directory, cut
    # A code span of its own that is a folder (`deploy/helm/`) or a file (`docs/api.json`):
    # a branch, a repository or a release's asset has neither a trailing `/` nor a named
    # file in folders that are not versions (`origin/main`, `rust-v0.131.0/cli.tar.gz`).
    whole = alone and (
        directory
        or (
            _FILE_EXTENSION.search(parts[-1]) is not None
            and not any(map(_VERSIONED.search, parts[:-1]))
        )
    )
    relative = _relative(token, parts, checkout, bases, explicit=explicit, whole=whole)
    return (relative, directory, cut) if relative is not None else None


def _relative(
    token: str,
    parts: list[str],
    checkout: Checkout,
    bases: tuple[list[str], list[str]],
    *,
    explicit: bool,
    whole: bool = False,
) -> str | None:
    """Where in the checkout a relative path is: under the folder the line `cd`s to (a
    `./` path), at the root, under a folder the line names, or — its first folder nowhere —
    where a file of the checkout ends with it (a package's own path, `src/x.ts` of
    `services/api/src/x.ts`) or with its folder and name (moved: `src/settings/base.py`
    of `services/billing/settings/base.py`), or at the root when it is `whole`, a folder
    or a file its own code span names (`deploy/helm/`, `docs/openapi.json`); None when it
    is no path of this checkout."""
    named, moved_to = bases
    if explicit and moved_to:
        return f"{moved_to[-1]}/{token}"
    glob = is_glob(token)
    if not glob and checkout.exists(token):
        return token
    base = next((b for b in named if checkout.exists(f"{b}/{parts[0]}")), None)
    if base is not None:
        return f"{base}/{token}"
    if len(parts) == 1:
        # `./manage.py` run from a folder the note does not name, `jest.config.ts`: there
        # when anywhere.
        return next(iter(checkout.named(token)), token)
    if checkout.exists(parts[0]):
        return token
    if glob or not (whole or _EXTENSION.search(parts[-1])):
        return None  # a branch, a repository, a media type: only a file is looked for
    ends = [path for path in checkout.named(parts[-1]) if path.endswith("/" + token)]
    if ends:
        return ends[0]  # there, as a package names it
    if whole:
        return token
    if len(parts) < 3:
        return None
    tail = "/" + "/".join(parts[-2:])
    return token if len([p for p in checkout.named(parts[-1]) if p.endswith(tail)]) == 1 else None


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
    that name with one (`src/lib/api` for `src/lib/api.ts`, as imports name modules), nor,
    for a hidden file named alone, a file of the root whose name starts with its first part:
    the tool is set up there, and what it copies or writes locally may be missing (`.env.local`
    of `.env.example`, `.terraform.lock.hcl` beside `.terraform-version`)."""
    if named.cut:
        return not checkout.prefix_taken(named.relative)
    if is_glob(named.relative):
        return not checkout.glob_matches(named.relative, named.directory)
    if checkout.exists(named.relative):
        return False
    if _hidden_file(named.relative):
        return not checkout.prefix_taken(named.relative[: named.relative.index(".", 1)])
    if named.directory or _EXTENSION.search(named.relative.rsplit("/", 1)[-1]):
        return True
    return not checkout.stem_taken(named.relative)


def moved_to(checkout: Checkout, named: NamedPath) -> str | None:
    """Where a missing path probably went: the only file (or folder) of the checkout with
    its name, outside build output and dependencies; None when there is not exactly one."""
    name = named.relative.rsplit("/", 1)[-1]
    if is_glob(named.relative):
        return None
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
