"""What a check keeps of each file between checks and processes (`check.kept`,
docs/formats.md §19.10): a next check runs no rule on a file still as it was, sees every
change on disk, in the checkout's index and on PATH as a check from nothing would, and
survives a damaged cache."""

from __future__ import annotations

import hashlib
import logging
import marshal
import subprocess
import zlib
from collections.abc import Callable
from pathlib import Path

import pytest
from tests.quality.stores import CLAUDE, real_files

from memtab.check import engine as check_engine
from memtab.check.checkout import CheckoutCache
from memtab.check.engine import CheckEngine
from memtab.check.kept import ENGINE, RULES_VERSION
from memtab.check.programs import which_in
from memtab.check.records import CheckReport
from memtab.kept.per_file import CACHE_VERSION, MAGIC, cache_file_for
from support.checkouts import stand_in_programs
from support.private_modes import mode_of
from support.seeded_contradictions import build

from .helpers import NOW, home_with_project, make_checkout

MEMORY = {
    "paths.md": "# Layout\n\n- The parser is `src/gone.py`.\n- The CLI is `src/old.py`.\n",
    "runs.md": "# Running\n\n- Deploy with `make deploy`.\n- DB: `docker compose up -d`.\n",
    "links.md": "# Index\n\n- [Topics](topics/a.md)\n",
    "clean.md": "# Notes\n\n- The app is in `src/app.py`.\n",
}
CHECKOUT = {"Makefile": "test:\n\tpytest\n", "src/app.py": "", "src/old.py": ""}


class Setup:
    """A project, its checkout and its memory; checks as separate processes would run."""

    def __init__(self, tmp: Path) -> None:
        self.tmp = tmp
        self.repo = make_checkout(tmp / "acme", CHECKOUT)
        self.home, _ = home_with_project(tmp, self.repo, dict(MEMORY))
        self.memory = self.home.project_root(str(self.repo))
        self.bin = stand_in_programs(tmp / "bin", ["git", "make"])

    def check(self, *, kept: bool = True) -> CheckReport:
        """A check by a new engine (a new process): from the cache, or from nothing."""
        engine = CheckEngine(
            self.home,
            env={"PATH": self.bin, "HOME": str(self.tmp / "user")},
            find_program=which_in(self.bin),
            stale_days=0,
            clock=lambda: NOW,
            kept=kept,
        )
        return engine.check()


def _rules_run(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The texts the check's rules read from now on."""
    real = check_engine.scan_markdown
    read: list[str] = []

    def counted(text: str) -> object:
        read.append(text)
        return real(text)

    monkeypatch.setattr(check_engine, "scan_markdown", counted)  # the engine's own
    return read


def _kinds(report: CheckReport) -> list[tuple[str, str]]:
    return [(finding.kind, finding.subject) for finding in report.findings]


def test_a_next_process_runs_no_rule_on_files_as_they_were(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    setup = Setup(tmp_path)
    first = setup.check()
    assert sorted(_kinds(first)) == [
        ("broken-link", "topics/a.md"),
        ("missing-path", "src/gone.py"),
        ("missing-program", "docker"),
        ("missing-script", "make deploy"),
    ]
    path = cache_file_for(setup.home, ENGINE)
    assert path.read_bytes().startswith(MAGIC) and mode_of(path) == 0o600
    read = _rules_run(monkeypatch)
    assert setup.check() == first
    assert read == []


def test_a_warm_check_asks_a_checkout_s_signature_once_for_all_its_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    setup = Setup(tmp_path)
    first = setup.check()
    asked: list[Path] = []
    real = CheckoutCache.signature
    monkeypatch.setattr(
        CheckoutCache, "signature", lambda self, root: asked.append(root) or real(self, root)
    )
    read = _rules_run(monkeypatch)
    assert setup.check() == first and read == []
    assert asked == [setup.repo, setup.repo]  # the files kept, git-ignored paths


def _git(repo: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True)


def _make_path(setup: Setup) -> None:
    (setup.repo / "src" / "gone.py").write_text("")


def _move_in_git(setup: Setup) -> None:
    (setup.repo / "src" / "cli").mkdir()
    _git(setup.repo, "mv", "src/old.py", "src/cli/old.py")


def _install(setup: Setup) -> None:
    stand_in_programs(Path(setup.bin), ["docker"])


def _define(setup: Setup) -> None:
    (setup.repo / "Makefile").write_text("test:\n\tpytest\ndeploy:\n\t./d.sh\n")


def _write_linked(setup: Setup) -> None:
    (setup.memory / "topics").mkdir()
    (setup.memory / "topics" / "a.md").write_text("x\n")


def _edit(setup: Setup) -> None:
    (setup.memory / "clean.md").write_text("# Notes\n\n- See `src/nowhere.py`.\n")


# Each change, and the files whose rules run again after it.
CHANGES: dict[str, tuple[Callable[[Setup], None], set[str]]] = {
    "the path named is made": (_make_path, {"paths.md"}),
    "the file named is moved in git": (_move_in_git, {"paths.md"}),
    "the program is installed": (_install, {"runs.md"}),
    "the target is defined": (_define, {"runs.md"}),
    "the linked memory is written": (_write_linked, {"links.md", "topics/a.md"}),
    "a memory is edited": (_edit, {"clean.md"}),
}


@pytest.mark.parametrize("change", CHANGES)
def test_a_warm_check_sees_what_changed_as_a_check_from_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, change: str
) -> None:
    setup = Setup(tmp_path)
    before = setup.check()
    make, worked_again = CHANGES[change]
    make(setup)
    read = _rules_run(monkeypatch)
    warm = setup.check()
    # only the files the change is about are checked again, the rest are as kept
    texts = {
        p.relative_to(setup.memory).as_posix(): p.read_text() for p in setup.memory.rglob("*.md")
    }
    assert {name for name, text in texts.items() if text in read} == worked_again
    monkeypatch.undo()
    assert warm == setup.check(kept=False)
    assert warm != before


def test_a_moved_file_is_suggested_from_the_new_index(tmp_path: Path) -> None:
    setup = Setup(tmp_path)
    (setup.memory / "paths.md").write_text("- The CLI is `src/old.py`.\n")
    assert [f.kind for f in setup.check().findings if f.kind == "missing-path"] == []
    (setup.repo / "src" / "cli").mkdir()
    _git(setup.repo, "mv", "src/old.py", "src/cli/old.py")
    [moved] = [f for f in setup.check().findings if f.kind == "missing-path"]
    assert moved.fix is not None and moved.fix.new_str == "- The CLI is `src/cli/old.py`."


def test_a_damaged_or_forged_cache_is_worked_out_again(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    setup = Setup(tmp_path)
    found = setup.check()
    path = cache_file_for(setup.home, ENGINE)
    digest = bytes(16)
    root = str(setup.home.root)
    for held in (
        [1, 2, 3],
        (CACHE_VERSION, root, ENGINE, RULES_VERSION, ("k",), digest, ((1, 2),)),
        (CACHE_VERSION, root, ENGINE, RULES_VERSION + 1, ("k",), digest, (42,)),
    ):
        body = zlib.compress(marshal.dumps(held))
        path.write_bytes(MAGIC + hashlib.blake2b(body, digest_size=16).digest() + body)
        with caplog.at_level(logging.INFO):
            assert setup.check() == found
    path.write_bytes(b"not a cache")
    assert setup.check() == found


def test_a_value_of_another_shape_under_a_right_digest_is_not_used(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    setup = Setup(tmp_path)
    found = setup.check()
    path = cache_file_for(setup.home, ENGINE)
    body = zlib.decompress(path.read_bytes()[len(MAGIC) + 16 :])
    version, root, engine, context, keys, digests, values = marshal.loads(body)
    forged = tuple((*value[:3], (("x", "y", "z", "w", 1),), *value[4:]) for value in values)
    body = zlib.compress(marshal.dumps((version, root, engine, context, keys, digests, forged)))
    path.write_bytes(MAGIC + hashlib.blake2b(body, digest_size=16).digest() + body)
    read = _rules_run(monkeypatch)
    assert setup.check() == found
    assert len(read) == len(MEMORY)  # every file worked out again


RULES_FOUND = {
    1: "a5e307be1cc9cac2",
    2: "3656c78f5a565e3d",
    3: "3656c78f5a565e3d",
    4: "3656c78f5a565e3d",
    5: "3656c78f5a565e3d",
    6: "3656c78f5a565e3d",
    7: "81e308ff6d4e4f2f",
    8: "81e308ff6d4e4f2f",
    9: "81e308ff6d4e4f2f",
    10: "81e308ff6d4e4f2f",
    11: "81e308ff6d4e4f2f",
    12: "81e308ff6d4e4f2f",
    13: "81e308ff6d4e4f2f",
    14: "81e308ff6d4e4f2f",
    15: "81e308ff6d4e4f2f",
    16: "81e308ff6d4e4f2f",
    17: "81e308ff6d4e4f2f",
    18: "81e308ff6d4e4f2f",
    19: "81e308ff6d4e4f2f",
    20: "81e308ff6d4e4f2f",  # `task`, a tool's companion: none in this corpus
    21: "81e308ff6d4e4f2f",  # a path said to be ignored: none in this corpus
    22: "81e308ff6d4e4f2f",  # a fact said not yet to hold: none in this corpus
    23: "56dbb0be07859997",  # a file its own code span names, its first folder nowhere
    24: "c2cecd8f47c691bc",  # words that silenced lines stating what is there now (issue 94)
    25: "dd04f29ebe453583",  # a hidden file named alone, in prose too (`.nrepl.edn`)
    26: "dd04f29ebe453583",  # a justfile's `export:` recipe, "draft" silencing no path: none here
}
"""What the rules find in a corpus (`_rules_found`), digested, by `check.kept.RULES_VERSION`."""


def _rules_found(tmp: Path) -> str:
    """What a check keeps of each file of a corpus — this module's memory and checkout,
    Claude Code's real store and a seeded contradictions corpus (facts) — digested."""
    setup = Setup(tmp)
    corpus = {name: data.decode("utf-8") for name, data in real_files(CLAUDE).items()}
    corpus |= {f"seeded/{i}.md": m.text for i, m in enumerate(build(memories=200).memories)}
    for name, text in corpus.items():
        path = setup.memory / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    setup.check()
    body = zlib.decompress(cache_file_for(setup.home, ENGINE).read_bytes()[len(MAGIC) + 16 :])
    _, _, _, _, keys, _, values = marshal.loads(body)
    kept = sorted((key, value[1:5]) for key, value in zip(keys, values, strict=True))
    said = repr([(key, _plain(value)) for key, value in kept]).replace(str(tmp), "<tmp>")
    return hashlib.sha256(said.encode()).hexdigest()[:16]


def _plain(value: object) -> object:
    """`value` with its sets sorted (their order is the process's hash seed's)."""
    if isinstance(value, frozenset):
        return sorted(value)
    if isinstance(value, tuple | list):
        return [_plain(item) for item in value]
    return value


def test_what_the_rules_find_is_pinned_to_the_rules_version(tmp_path: Path) -> None:
    """A user's cache holds what an older Memtab's rules found: a change to what they find
    in a file must come with a new version."""
    assert _rules_found(tmp_path) == RULES_FOUND.get(RULES_VERSION), (
        "what the check's rules find in a file changed: bump check.kept.RULES_VERSION "
        "(users' caches hold what the old rules found) and pin the new digest here"
    )
