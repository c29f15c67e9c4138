"""A project's checkout as a check sees it: the questions a rule asks of it, each answer
recorded, and its index.

A rule asks of a checkout through its methods — whether a path is there, which
definition file a folder has, what a Makefile defines, where the project installed a
program, which files of the index have a name — and each question and its answer is
`Asked`: remembered for the rest of the check (asked once, however many files ask it)
and recorded for the file being checked, whose findings hold while every answer does
(`check.kept`). Questions of the disk are asked again by each check; questions of the
index hold while the checkout's signature does (git's index and HEAD and the top folder
for a repository, every folder walked otherwise), and are asked of the new index when it
changed.

The index of a git repository is what `git ls-files` lists (tracked, and untracked files
.gitignore does not exclude), so build output and dependencies are not suggested as the
new place of a moved file; another directory is walked, at most `MAX_WALK_ENTRIES` files
and folders, skipping dependency and cache folders. It is made at its first use: a check whose files
all hold asks the disk alone. The index only suggests: whether a path a memory names
exists is always asked of the disk (one `lstat`), so a stale index never reports a file
that is there. `CheckoutCache` keeps each checkout while its signature holds.

A walk that stops at its bound (the index's, a glob's on disk) is an answer too, and the
report says it (`cut_walks`): what it could not read was not checked.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import os
import stat
import threading
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from memtab.check.scripts import (
    JUSTFILE_NAMES,
    MAKEFILE_NAMES,
    MISE_CONFIGS,
    MISE_TASK_DIRS,
    TASKFILE_NAMES,
    NodePackage,
    PythonProject,
    Targets,
    just_recipes,
    make_targets,
    mise_config_tasks,
    mise_file_tasks,
    node_package,
    package_scripts,
    python_project,
    taskfile_tasks,
)
from memtab.file_protocol.file_ref import SourceError
from memtab.fs.globs import MAX_VISITED, indexed_match, matches_on_disk, walk_files
from memtab.fs.memo import stamp_of
from memtab.fs.user_files import read_regular_file
from memtab.sources.history import run_git

logger = logging.getLogger(__name__)

MAX_WALK_ENTRIES = 50_000
SKIPPED_DIRS = frozenset(
    {
        ".git", "node_modules", ".venv", "venv", "__pycache__", ".tox", ".nox",
        ".mypy_cache", ".pytest_cache", ".ruff_cache", ".next", ".nuxt", ".cache",
        ".gradle", ".idea", ".vscode", "target", "dist", "build", "_build", ".svelte-kit",
    }
)  # fmt: skip
# Where a project keeps the programs it installs for itself.
PROJECT_BIN_DIRS = ("node_modules/.bin", ".venv/bin", "venv/bin", ".venv/Scripts")
SHOWN_TARGETS = 8

Question = tuple[object, ...]
"""What a check asks: its kind, then what it is asked of (plain values)."""
Answer = object
"""An answer: plain values (a bool, a string, None, tuples of them), compared as equal."""
Answered = tuple[Question, Answer]
_UNASKED = object()


class Asked:
    """The questions one check asked and their answers (see the module doc): each asked
    once per check, and recorded for the file being checked (`recording`). `answer_of`
    answers a question asked again of a file kept from an earlier check (the engine's:
    it finds the checkout, the program, the memory file the question is of)."""

    def __init__(self, answer_of: Callable[[Question], Answer] | None = None) -> None:
        self._answer_of = answer_of
        self._answers: dict[Question, Answered] = {}
        self._record: list[Answered] | None = None

    def ask(self, question: Question, work: Callable[[], Answer] | None = None) -> Answer:
        """The answer to `question`, worked out by `work` (else `answer_of`) the first
        time this check asks it, and recorded for the file being checked."""
        answered = self._answers.get(question)
        if answered is None:
            if work is not None:
                answer = work()
            elif self._answer_of is not None:
                answer = self._answer_of(question)
            else:
                raise LookupError(f"no one answers {question[0]!r}")
            # one tuple for the question and its answer, however many files record it
            answered = self._answers[question] = (question, answer)
        if self._record is not None:
            self._record.append(answered)
        return answered[1]

    def holds(self, answered: Answered) -> bool:
        """Whether a question recorded earlier has the same answer now (unrecorded)."""
        record, self._record = self._record, None
        try:
            return self.ask(answered[0]) == answered[1]
        finally:
            self._record = record

    def forget(self) -> None:
        """A new check: every answer may have changed."""
        self._answers.clear()

    @contextlib.contextmanager
    def recording(self) -> Iterator[list[Answered]]:
        """Record what is asked in the block (each question once, in the order asked)."""
        record: list[Answered] = []
        outer, self._record = self._record, record
        try:
            yield record
        finally:
            self._record = outer
            unique = list(dict.fromkeys(map(id, record)))
            if len(unique) != len(record):
                by_id = {id(answered): answered for answered in record}
                record[:] = [by_id[key] for key in unique]


@dataclass(frozen=True)
class Index:
    """The files of a checkout (relative, `/`-separated), its folders, and both by name."""

    files: frozenset[str]
    directories: frozenset[str]
    by_name: dict[str, tuple[str, ...]]
    git: bool
    truncated: bool = False


INDEX_KINDS = frozenset(
    {"manifests", "named", "indexed-dir", "indexed-file", "mise-files", "glob-indexed", "index-cut"}
)
"""The questions the index answers: they hold while the checkout's signature does."""


class Checkout:
    """One checkout: the questions a rule asks of it (see the module doc)."""

    def __init__(
        self,
        root: Path,
        *,
        asked: Asked | None = None,
        index: Index | None = None,
        make_index: Callable[[Path], Index] | None = None,
    ) -> None:
        self.root = root
        self.key = str(root)
        self.asked = asked if asked is not None else Asked()
        self.git = os.path.lexists(root / ".git")
        self._index = index
        self._make_index = make_index or index_of
        self._read: dict[str, tuple[object, object]] = {}
        self._lock = threading.Lock()

    # --- the index (made at its first use) -----------------------------------------------

    @property
    def index(self) -> Index:
        with self._lock:
            if self._index is None:
                self._index = self._make_index(self.root)
            return self._index

    @property
    def files(self) -> frozenset[str]:
        return self.index.files

    @property
    def directories(self) -> frozenset[str]:
        return self.index.directories

    @property
    def indexed(self) -> bool:
        """Whether the index was made (a check whose files all held may not need it)."""
        return self._index is not None

    # --- questions of the disk --------------------------------------------------------------

    def exists(self, relative: str) -> bool:
        """Whether `relative` is on disk (never answered from the index alone)."""
        return self._ask("exists", relative)  # type: ignore[return-value]

    def is_dir(self, relative: str) -> bool:
        return self._ask("is-dir", relative)  # type: ignore[return-value]

    def is_file(self, relative: str) -> bool:
        return self._ask("is-file", relative)  # type: ignore[return-value]

    def stem_taken(self, relative: str) -> bool:
        """Whether a file of `relative`'s folder is named as it is with an extension
        (`src/lib/api.ts` for `src/lib/api`)."""
        return self._ask("stem-taken", relative)  # type: ignore[return-value]

    def prefix_taken(self, relative: str) -> bool:
        """Whether a file or folder of `relative`'s folder has a name that starts with its
        name (`docs/adr/0003-outbox.md` for `docs/adr/0003-`, a name cut short)."""
        return self._ask("prefix-taken", relative)  # type: ignore[return-value]

    def glob_matches(self, pattern: str, directory: bool) -> bool:
        """Whether a file or folder (`directory`: a folder) matches the glob `pattern`
        (`fs.globs`): of the index, else — one it does not list yet — on disk (one it could
        not tell within its bound may match)."""
        if self._ask("glob-indexed", pattern, directory):
            return True
        return self._ask("glob", pattern, directory) is not False

    def defines(self, definition: str, target: str) -> bool:
        """Whether the definition file `relative` (a Makefile, a justfile, package.json)
        defines `target` (read again only when it changed)."""
        return self._ask("defines", definition, target)  # type: ignore[return-value]

    def defined(self, definition: str) -> tuple[str, ...]:
        """The first names the definition file defines, sorted (`…` last when it defines
        more), for a message."""
        return self._ask("defined", definition)  # type: ignore[return-value]

    def python_runs(self, definition: str, name: str) -> bool:
        """Whether `uv run NAME` (`pdm run`, `poetry run`) may run something of the
        pyproject.toml `definition`: a script, a tool it depends on, a pdm script (or the
        file cannot be read: it may)."""
        return self._ask("python-runs", definition, name)  # type: ignore[return-value]

    def poe_tasks(self, definition: str) -> tuple[str, ...]:
        """The poe tasks of the pyproject.toml `definition`, sorted."""
        return self._ask("poe-tasks", definition)  # type: ignore[return-value]

    def mise_config(self, directory: str) -> tuple[tuple[str, ...], bool]:
        """The tasks mise's config files at `directory` define, sorted, and whether they
        may define more (an include)."""
        return self._ask("mise-config", directory)  # type: ignore[return-value]

    def project_program(self, program: str, directory: str = "") -> str | None:
        """Where the project installed `program` for itself (node_modules/.bin, .venv/bin),
        in `directory` or the checkout's root; None when it did not."""
        return self._ask("project-program", program, directory)  # type: ignore[return-value]

    def provides(self, program: str) -> bool:
        """Whether the project itself provides `program`: a script of one of its
        pyproject.toml files or a tool one depends on, a program one of its package.json
        files installs or depends on, a Go command of its `cmd/` folder (installed with
        the project's dependencies, or built from it)."""
        if any(
            self._ask("python-provides", path, program)
            for path in self.manifests(("pyproject.toml",))
        ):
            return True
        if any(
            self._ask("node-provides", path, program) for path in self.manifests(("package.json",))
        ):
            return True
        return self.indexed_dir(f"cmd/{program}")

    def read(self, relative: str, reader: Callable[[Path], object]) -> object:
        """What `reader` makes of the checkout's file `relative` (a README), read again
        only when it changed: the question asked is the file's size, time and type."""
        self._ask("stat", relative)
        return self._cached(relative, reader)

    # --- questions of the index ---------------------------------------------------------------

    def named(self, name: str) -> tuple[str, ...]:
        """Every file and folder of the index with this name."""
        return self._ask("named", name)  # type: ignore[return-value]

    def indexed_dir(self, relative: str) -> bool:
        return self._ask("indexed-dir", relative)  # type: ignore[return-value]

    def indexed_file(self, relative: str) -> bool:
        return self._ask("indexed-file", relative)  # type: ignore[return-value]

    def manifests(self, names: Iterable[str]) -> tuple[str, ...]:
        """The files of the index with one of these names, shallowest first."""
        return self._ask("manifests", tuple(sorted(set(names))))  # type: ignore[return-value]

    def mise_files(self, directory: str) -> tuple[str, ...]:
        """The file tasks of the mise project at `directory`, sorted."""
        return self._ask("mise-files", directory)  # type: ignore[return-value]

    # --- answers --------------------------------------------------------------------------

    def _ask(self, kind: str, *args: object) -> Answer:
        if kind in INDEX_KINDS and kind != "index-cut":
            self._ask("index-cut")  # a finding from a cut index says so (`cut_walks`)
        return self.asked.ask((kind, self.key, *args), lambda: self.answer(kind, *args))

    def answer(self, kind: str, *args: object) -> Answer:
        """The answer to a question of this checkout now (unrecorded)."""
        return _ANSWERS[kind](self, *args)

    def _exists(self, relative: str) -> bool:
        return os.path.lexists(os.path.join(self.root, relative))

    def _is_dir(self, relative: str) -> bool:
        return os.path.isdir(os.path.join(self.root, relative))

    def _is_file(self, relative: str) -> bool:
        return os.path.isfile(os.path.join(self.root, relative))

    def _stem_taken(self, relative: str) -> bool:
        parent, _, name = relative.rpartition("/")
        try:
            with os.scandir(self.root / parent) as entries:
                return any(entry.name.startswith(name + ".") for entry in entries)
        except OSError:
            return False

    def _prefix_taken(self, relative: str) -> bool:
        parent, _, name = relative.rpartition("/")
        try:
            with os.scandir(self.root / parent) as entries:
                return any(entry.name.startswith(name) for entry in entries)
        except OSError:
            return False

    def _targets(self, relative: str) -> Targets:
        found = self._cached(relative, _read_targets)
        assert isinstance(found, Targets)
        return found

    def _defined(self, relative: str) -> tuple[str, ...]:
        names = sorted(self._targets(relative).names)
        return (*names[:SHOWN_TARGETS], "…") if len(names) > SHOWN_TARGETS else tuple(names)

    def _python(self, relative: str) -> PythonProject:
        found = self._cached(relative, python_project)
        assert isinstance(found, PythonProject)
        return found

    def _python_runs(self, relative: str, name: str) -> bool:
        project = self._python(relative)
        return (
            project.problem is not None
            or project.runs(name)
            or name in project.tasks.get("pdm", ())
        )

    def _node(self, relative: str) -> NodePackage:
        found = self._cached(relative, node_package)
        assert isinstance(found, NodePackage)
        return found

    def _mise_config(self, directory: str) -> tuple[tuple[str, ...], bool]:
        root = self.root / directory if directory else self.root
        key = tuple(_stat_key(root / config) for config in MISE_CONFIGS)
        cached = self._read.get(f"mise:{directory}")
        if cached is None or cached[0] != key:
            cached = (key, mise_config_tasks(root))
            self._read[f"mise:{directory}"] = cached
        tasks = cached[1]
        assert isinstance(tasks, Targets)
        return tuple(sorted(tasks.names)), tasks.open

    def _mise_files(self, directory: str) -> tuple[str, ...]:
        prefix = f"{directory}/" if directory else ""
        wanted = tuple(prefix + folder + "/" for folder in MISE_TASK_DIRS)
        files = [path[len(prefix) :] for path in self.files if path.startswith(wanted)]
        return tuple(sorted(mise_file_tasks(files)))

    def _manifests(self, names: tuple[str, ...]) -> tuple[str, ...]:
        by_name = self.index.by_name
        found = [path for name in names for path in by_name.get(name, ()) if path in self.files]
        return tuple(sorted(found, key=lambda path: (path.count("/"), path)))

    def _project_program(self, program: str, directory: str) -> str | None:
        for base in dict.fromkeys((directory, "")):
            for bin_dir in PROJECT_BIN_DIRS:
                relative = f"{base}/{bin_dir}" if base else bin_dir
                names = self._listed(relative)
                if program in names or f"{program}.exe" in names:
                    return f"{relative}/{program}"
        return None

    def _cached(self, relative: str, read: Callable[[Path], object]) -> object:
        """What `read` makes of a file, read again only when the file changed."""
        key = _stat_key(self.root / relative)
        slot = f"{read.__name__}:{relative}"
        cached = self._read.get(slot)
        if cached is not None and cached[0] == key:
            return cached[1]
        value = read(self.root / relative)
        self._read[slot] = (key, value)
        return value

    def _listed(self, relative: str) -> frozenset[str]:
        """The names in a folder of the checkout (none when it is not one), listed again
        only when it changed."""
        path = os.path.join(self.root, relative)
        key = _stat_key(path)
        cached = self._read.get(f"listed:{relative}")
        if cached is not None and cached[0] == key:
            assert isinstance(cached[1], frozenset)
            return cached[1]
        try:
            names = frozenset(os.listdir(path)) if key is not None else frozenset()
        except OSError:
            names = frozenset()
        self._read[f"listed:{relative}"] = (key, names)
        return names


_ANSWERS: dict[str, Callable[..., Answer]] = {
    "exists": Checkout._exists,
    "is-dir": Checkout._is_dir,
    "is-file": Checkout._is_file,
    "stem-taken": Checkout._stem_taken,
    "prefix-taken": Checkout._prefix_taken,
    "glob": lambda checkout, pattern, directory: matches_on_disk(
        checkout.root, pattern, directory, SKIPPED_DIRS
    ),
    "glob-indexed": lambda checkout, pattern, directory: indexed_match(
        checkout.files, checkout.directories, pattern, directory
    ),
    "stat": lambda checkout, relative: _stat_key(checkout.root / relative),
    "defines": lambda checkout, definition, target: checkout._targets(definition).defines(target),
    "defined": Checkout._defined,
    "python-runs": Checkout._python_runs,
    "python-provides": lambda checkout, path, program: checkout._python(path).runs(program),
    "node-provides": lambda checkout, path, program: program in checkout._node(path).programs,
    "poe-tasks": lambda checkout, path: tuple(sorted(checkout._python(path).tasks.get("poe", ()))),
    "mise-config": Checkout._mise_config,
    "project-program": Checkout._project_program,
    "index-cut": lambda checkout: checkout.index.truncated,
    "named": lambda checkout, name: checkout.index.by_name.get(name, ()),
    "indexed-dir": lambda checkout, relative: relative in checkout.directories,
    "indexed-file": lambda checkout, relative: relative in checkout.files,
    "manifests": Checkout._manifests,
    "mise-files": Checkout._mise_files,
}
"""How each question of a checkout is answered."""


def _read_targets(path: Path) -> Targets:
    name = path.name
    if name in MAKEFILE_NAMES:
        return make_targets(path)
    if name in JUSTFILE_NAMES:
        return just_recipes(path)
    if name in TASKFILE_NAMES:
        return taskfile_tasks(path)
    return package_scripts(path)


def build_checkout(root: Path, asked: Asked | None = None) -> Checkout:
    """A checkout of `root`, its index made now (see the module doc)."""
    return Checkout(root, asked=asked, index=index_of(root))


def index_of(root: Path) -> Index:
    """Index `root` (see the module doc); a directory git cannot list is walked."""
    if os.path.lexists(root / ".git"):
        try:
            listed = run_git(root, ["ls-files", "-z", "--cached", "--others", "--exclude-standard"])
        except SourceError as error:
            logger.info("Walking %s: git cannot list it (%s)", root, error)
        else:
            files = [path for path in listed.split("\0") if path]
            return _indexed(files, git=True, truncated=False)
    files, truncated = _walk(root)
    return _indexed(files, git=False, truncated=truncated)


def _indexed(files: list[str], *, git: bool, truncated: bool) -> Index:
    directories: set[str] = set()
    for path in files:
        parent = path.rpartition("/")[0]
        while parent and parent not in directories:
            directories.add(parent)
            parent = parent.rpartition("/")[0]
    by_name: dict[str, list[str]] = {}
    for path in (*files, *directories):
        by_name.setdefault(path.rpartition("/")[2], []).append(path)
    return Index(
        frozenset(files),
        frozenset(directories),
        {name: tuple(sorted(paths)) for name, paths in by_name.items()},
        git,
        truncated,
    )


def _walk(root: Path) -> tuple[list[str], bool]:
    walked = walk_files(
        root, most_entries=MAX_WALK_ENTRIES, enter=lambda name: name not in SKIPPED_DIRS
    )
    return walked.files, walked.cut


def cut_walks(asked: Iterable[Answered]) -> list[str]:
    """What a check could not read because a walk stopped at its bound, in words, each
    once, from the questions its files asked (`asked`)."""
    said: dict[str, None] = {}
    for (kind, root, *args), answer in asked:
        if kind == "index-cut" and answer is True:
            said[
                f"{root}: only its first {MAX_WALK_ENTRIES:,} files and folders were read (it is "
                "no git repository, and holds more): a moved file is looked for among those"
            ] = None
        elif kind == "glob" and answer is None:
            said[
                f"{root}: `{args[0]}` was not checked: telling whether anything matches it "
                f"reads more than {MAX_VISITED:,} files and folders"
            ] = None
    return list(said)


def checkout_signature(root: Path, checkout: Checkout | None = None) -> bytes:
    """What changes when the index should be made again (see the module doc), as 16
    bytes. A checkout that is no git repository is walked for it (its folders' times)."""
    signature: list[object] = [_stat_key(root)]
    git = root / ".git"
    if os.path.isdir(git):
        signature += [_stat_key(git / "index"), _stat_key(git / "HEAD")]
    elif os.path.isfile(git):
        signature += [_stat_key(git), *_worktree_keys(git)]
    elif checkout is not None:
        signature += [_stat_key(root / d) for d in sorted(checkout.directories)]
    return hashlib.blake2b(repr(signature).encode(), digest_size=16).digest()


def _worktree_keys(pointer: Path) -> list[object]:
    """A linked worktree's `.git` file names its git dir (`gitdir: …`)."""
    try:
        text = read_regular_file(pointer, limit=4096, truncate=True).decode("utf-8", "replace")
    except OSError:
        return []
    if not text.startswith("gitdir:"):
        return []
    git_dir = Path(text[len("gitdir:") :].strip().splitlines()[0])
    if not git_dir.is_absolute():
        git_dir = pointer.parent / git_dir
    return [_stat_key(git_dir / "index"), _stat_key(git_dir / "HEAD")]


def _stat_key(path: Path | str) -> tuple[int, ...] | None:
    try:
        info = os.stat(path)
    except OSError:
        return None
    return (*stamp_of(info), stat.S_IFMT(info.st_mode))


class CheckoutCache:
    """Each checkout, kept while its signature holds (thread-safe: the window's checks
    run on a worker while the next may start); its questions asked through `asked`."""

    def __init__(
        self, asked: Asked | None = None, make_index: Callable[[Path], Index] = index_of
    ) -> None:
        self._asked = asked
        self._make_index = make_index
        self._lock = threading.Lock()
        self._entries: dict[Path, tuple[bytes, Checkout]] = {}

    def get(self, root: Path) -> Checkout:
        """The checkout at `root`, made again when its signature changed."""
        with self._lock:
            cached = self._entries.get(root)
        if cached is not None and checkout_signature(root, cached[1]) == cached[0]:
            return cached[1]
        checkout = Checkout(root, asked=self._asked, make_index=self._make_index)
        signature = checkout_signature(root, checkout)
        with self._lock:
            self._entries[root] = (signature, checkout)
        return checkout

    def signature(self, root: Path) -> bytes | None:
        """The signature of the checkout at `root` as it was last got (None: never)."""
        with self._lock:
            cached = self._entries.get(root)
        return cached[0] if cached is not None else None
