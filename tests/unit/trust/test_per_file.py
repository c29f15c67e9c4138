"""What the trust engines keep of each memory file between processes (`kept.per_file`,
docs/formats.md §19.10): the next command works out only the files whose text changed,
follows every edit, survives a damaged cache, and keeps it private."""

from __future__ import annotations

import gc
import hashlib
import marshal
import os
import zlib
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest

from memtab.check.documents import Document
from memtab.kept.per_file import CACHE_VERSION, MAGIC, cache_file_for
from memtab.store.home import Home
from memtab.trust import memories, together
from memtab.trust.contradictions import engine as contradictions
from memtab.trust.duplicates import engine as duplicates
from memtab.trust.duplicates import statements
from memtab.trust.leaks import engine as leaks
from memtab.trust.leaks.engine import Identity, LeaksEngine
from support import seeded_contradictions, seeded_duplicates, seeded_leaks
from support.memory_home import make_home
from support.private_modes import mode_of
from support.seeded_memories import SRC, memory, project_path

TESTING = "# Testing\n\n- Run the API tests with `pnpm test --filter api` before pushing.\n"
TESTING_AGAIN = "# How we test\n\nBefore a push, run the api tests: `pnpm test --filter api`.\n"
PORTS = "# Ports\n\n- The API runs on port 8000.\n"
PORTS_AGAIN = "# Ports\n\n- The API runs on port 8080.\n"
WEB = f"# Web\n\n- The web app lives in {project_path('web')}/src/app.tsx.\n"

# Each engine by its cache's name: the function that works a file out (patched to count
# its calls), and one run of a fresh engine — a new process's — over some documents.
Run = Callable[[Home, Sequence[Document]], object]
ENGINES: dict[str, tuple[object, str, Run]] = {
    "duplicates": (
        duplicates,
        "note_words",
        lambda home, docs: duplicates.DuplicatesEngine(home).found_in(docs),
    ),
    "contradictions": (
        contradictions,
        "claims_of",
        lambda home, docs: contradictions.ContradictionsEngine(home, line_time=_no_time).pairs_of(
            docs
        ),
    ),
    "leaks": (
        leaks,
        "mentions_of",
        lambda home, docs: LeaksEngine(home).leaks_of(docs, _projects("api", "web")),
    ),
}


def _no_time(document: Document, line: int) -> int:
    return document.modified_ms


def _projects(*names: str) -> dict[str, Identity]:
    return {project_path(n): leaks.identity_of(project_path(n)) for n in names}


def _documents(*, ports: str = PORTS, testing: str = TESTING) -> list[Document]:
    return [
        memory("global", "ports.md", ports),
        memory("project:api", "ports.md", PORTS_AGAIN),
        memory("global", "testing.md", testing),
        memory("project:api", "web.md", WEB),
    ]


@pytest.fixture
def home(tmp_path: Path) -> Home:
    return Home(tmp_path / "home")


def _counting(monkeypatch: pytest.MonkeyPatch, name: str) -> list[str]:
    """The paths of the files the engine `name` works out from now on."""
    module, function, _ = ENGINES[name]
    real = getattr(module, function)
    made: list[str] = []

    def counted(first: object, *rest: object) -> object:
        # note_words takes the document; claims_of and mentions_of its text
        made.append(first.path if isinstance(first, Document) else str(first))
        return real(first, *rest)

    monkeypatch.setattr(module, function, counted)
    return made


@pytest.mark.parametrize("name", ENGINES)
def test_the_next_process_works_out_only_the_changed_file(
    home: Home, name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    run = ENGINES[name][2]
    first = run(home, _documents())
    made = _counting(monkeypatch, name)
    assert run(home, _documents()) == first and made == []
    changed = _documents(ports=PORTS_AGAIN)
    again = run(home, changed)
    assert len(made) == 1
    monkeypatch.undo()
    cache_file_for(home, name).unlink()
    assert again == run(home, changed)  # what a run with no cache finds


def test_the_cache_follows_an_edit_to_what_it_finds(home: Home) -> None:
    run = ENGINES["contradictions"][2]
    assert len(run(home, _documents())) == 1  # 8000 against 8080
    assert run(home, _documents(ports=PORTS_AGAIN)) == []
    assert len(run(home, _documents())) == 1
    run = duplicates.DuplicatesEngine(home).found_in
    assert run(_documents()) == ([], [])
    [group] = run(
        [*_documents(testing=TESTING_AGAIN), memory("global", "t.md", TESTING)]
    ).candidates
    assert group.kind == "reworded"


DAMAGES: dict[str, Callable[[bytes], bytes]] = {
    "empty": lambda data: b"",
    "not ours": lambda data: b"\x00garbage" * 100,
    "cut short": lambda data: data[: len(data) // 2],
    "a byte changed": lambda data: data[:-5] + bytes([data[-5] ^ 0xFF]) + data[-4:],
    "its digest changed": lambda data: data[: len(MAGIC)] + bytes(16) + data[len(MAGIC) + 16 :],
}


@pytest.mark.parametrize("damage", DAMAGES)
@pytest.mark.parametrize("name", ENGINES)
def test_a_damaged_cache_is_worked_out_anew_and_written_again(
    home: Home, name: str, damage: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    run = ENGINES[name][2]
    found = run(home, _documents())
    path = cache_file_for(home, name)
    path.write_bytes(DAMAGES[damage](path.read_bytes()))
    made = _counting(monkeypatch, name)
    assert run(home, _documents()) == found
    assert len(made) == 4  # every file worked out again
    made.clear()
    assert run(home, _documents()) == found and made == []  # and the cache written anew


@pytest.mark.parametrize("damage", DAMAGES)
def test_damaged_pairs_are_searched_anew_and_written_again(
    home: Home, damage: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    documents = [*_documents(testing=TESTING_AGAIN), memory("global", "t.md", TESTING)]
    run = ENGINES["duplicates"][2]
    found = run(home, documents)
    path = cache_file_for(home, "duplicates-pairs")
    path.write_bytes(DAMAGES[damage](path.read_bytes()))
    asked = _searches(monkeypatch)
    assert run(home, documents) == found and len(asked) == 2
    assert run(home, documents) == found and len(asked) == 2


@pytest.mark.parametrize("name", ENGINES)
def test_a_cache_of_the_right_digest_but_another_shape_is_worked_out_anew(
    home: Home, name: str
) -> None:
    """Data that is no engine's (a file forged, or written by a Memtab whose values had
    another shape under the same version): nothing crashes, the files are worked out."""
    run = ENGINES[name][2]
    found = run(home, _documents())
    path = cache_file_for(home, name)
    for held in (
        [1, 2, 3],
        (1, str(home.root), name, None, ("k",), bytes(16), (42,)),
        (CACHE_VERSION, str(home.root), name, (), ("k",), bytes(16), ((1, 2),)),
        (CACHE_VERSION, str(home.root), name, (), ("k", "l"), bytes(16), (42,)),
    ):
        body = zlib.compress(marshal.dumps(held))
        path.write_bytes(MAGIC + hashlib.blake2b(body, digest_size=16).digest() + body)
        assert run(home, _documents()) == found


def _searches(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How many sets each pair search of the duplicates engine is asked about from now on."""
    real = duplicates.near_duplicate_pairs
    asked: list[int] = []

    def counted(sets: Sequence[frozenset[str]], *args: object, **kwargs: object) -> object:
        asked.append(len(sets))
        return real(sets, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(duplicates, "near_duplicate_pairs", counted)
    monkeypatch.setattr(statements, "near_duplicate_pairs", counted)
    return asked


def test_the_next_run_over_the_same_files_searches_no_pairs_again(
    home: Home, monkeypatch: pytest.MonkeyPatch
) -> None:
    documents = [*_documents(testing=TESTING_AGAIN), memory("global", "t.md", TESTING)]
    run = ENGINES["duplicates"][2]
    found = run(home, documents)
    assert [group.kind for group in found.candidates] == ["reworded"]  # type: ignore[attr-defined]
    asked = _searches(monkeypatch)
    assert run(home, documents) == found and asked == []
    changed = [*documents, memory("project:api", "t.md", TESTING_AGAIN)]
    again = run(home, changed)
    assert len(asked) == 2  # one file more: notes and statements searched again
    monkeypatch.undo()
    for name in ("duplicates", "duplicates-pairs"):
        cache_file_for(home, name).unlink()
    assert again == run(home, changed)


def test_pairs_kept_for_other_sets_are_searched_again(home: Home) -> None:
    """Pairs naming sets a run does not have (a forged file of the right digest) are no
    answer: searched anew, never an index out of range."""
    documents = [*_documents(testing=TESTING_AGAIN), memory("global", "t.md", TESTING)]
    engine = duplicates.DuplicatesEngine(home)
    found = engine.found_in(documents)
    path = cache_file_for(home, "duplicates-pairs")
    held = marshal.loads(zlib.decompress(path.read_bytes()[len(MAGIC) + 16 :]))
    forged = (*held[:4], (((0.9, 0, 99),), ()))
    body = zlib.compress(marshal.dumps(forged))
    path.write_bytes(MAGIC + hashlib.blake2b(body, digest_size=16).digest() + body)
    assert ENGINES["duplicates"][2](home, documents) == found


@pytest.mark.parametrize("engine", ["duplicates", "contradictions", "leaks", "together"])
def test_a_run_holds_the_cycle_collector_off_and_ends_with_it_on(
    tmp_path: Path, engine: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A run's documents, words and pairs hold no cycle: the collector's passes over them
    as they grow are time lost (`per_file.collection_paused`)."""
    read = memories.list_memory
    seen: list[bool] = []

    def reading(*args: object, **kwargs: object) -> object:
        seen.append(gc.isenabled())
        return read(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(memories, "list_memory", reading)
    home = make_home(tmp_path / "home")
    made = {
        "duplicates": duplicates.DuplicatesEngine,
        "contradictions": contradictions.ContradictionsEngine,
        "leaks": LeaksEngine,
        "together": together.TrustEngines,
    }
    assert gc.isenabled()
    made[engine](home, sources=False).find()
    assert seen == [False] and gc.isenabled()


def test_what_a_file_names_is_read_again_for_another_project_s_names(home: Home) -> None:
    documents = _documents()
    dev = {"HOME": SRC.rsplit("/", 1)[0]}  # the seeded projects are in the user's home
    assert LeaksEngine(home, env=dev).leaks_of(documents, _projects("api")) == []
    [leak] = LeaksEngine(home, env=dev).leaks_of(documents, _projects("api", "web"))
    assert leak.place.path == "/memories/project/web.md" and leak.kind == "other-project"


def test_a_run_over_some_files_keeps_what_it_had_of_the_others(
    home: Home, monkeypatch: pytest.MonkeyPatch
) -> None:
    documents = _documents()
    duplicates.DuplicatesEngine(home).groups_of(documents)
    duplicates.DuplicatesEngine(home).groups_of(documents[:1], everything=False)
    made = _counting(monkeypatch, "duplicates")
    duplicates.DuplicatesEngine(home).groups_of(documents)
    assert made == []
    duplicates.DuplicatesEngine(home).groups_of(documents[:1])  # everything: the rest forgotten
    duplicates.DuplicatesEngine(home).groups_of(documents)
    assert len(made) == 3


def test_the_cache_is_private_whatever_the_umask(home: Home, umask: int) -> None:
    """It holds the memory's sentences: 0600 in a 0700 folder (docs/formats.md §16.2)."""
    ENGINES["duplicates"][2](home, _documents())
    path = cache_file_for(home, "duplicates")
    assert mode_of(path.parent) == 0o700 and mode_of(path) == 0o600


def test_the_cache_is_never_written_through_a_link(home: Home, tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere.txt"
    elsewhere.write_text("someone's file\n", encoding="utf-8")
    path = cache_file_for(home, "duplicates")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.symlink_to(elsewhere)
    ENGINES["duplicates"][2](home, _documents())
    assert elsewhere.read_text(encoding="utf-8") == "someone's file\n"
    assert not path.is_symlink() and path.read_bytes().startswith(MAGIC)


WORKED_OUT = {
    1: "cf7a6e40d9aab3b7",
    2: "91adf0c823440618",
    3: "1de975692c1691fb",
    4: "3b9d1ddea3cb22ac",
    5: "111ddc3c457f27fe",
    6: "c4f9703b3150200e",
    7: "c8a4bdd251fa7e88",
    8: "1c7db586f2d6fd30",
    9: "1c7db586f2d6fd30",
    10: "1c7db586f2d6fd30",
    11: "1c7db586f2d6fd30",
    12: "6107759e81534585",
    13: "6107759e81534585",
    14: "2e2696c31c8bab41",
    15: "2e2696c31c8bab41",
    16: "b938489e5edda339",
    17: "28f236c92a1d3273",
    18: "28f236c92a1d3273",
    19: "b18bf2ff96f42295",
    20: "b18bf2ff96f42295",
    21: "c68b0b4c74d5376b",
    22: "c68b0b4c74d5376b",
    23: "c68b0b4c74d5376b",
    24: "7af823b6a918bcac",
    25: "7af823b6a918bcac",
    26: "7af823b6a918bcac",
    27: "7af823b6a918bcac",
    28: "7af823b6a918bcac",
    29: "7af823b6a918bcac",
    30: "cda28db08f100b07",
    31: "5ef61158d0d8293e",
    32: "a69a16f7750e2c5a",
    33: "a69a16f7750e2c5a",
    34: "a69a16f7750e2c5a",
    35: "a69a16f7750e2c5a",
    36: "a69a16f7750e2c5a",
    37: "f7960353dc76b871",
    38: "41e4fa8a009225a7",
    39: "4f1dec05550e1a2d",
    40: "1751327577d62b07",
    41: "fe9b3bde9a87e122",
    42: "fe9b3bde9a87e122",
    43: "538374451d9c97d5",
    44: "538374451d9c97d5",
    45: "6c1c459bbf003a76",
    46: "0d0ebf197048cbb8",
    47: "0d0ebf197048cbb8",  # a bare `X_Y=8`, a table's environment column: none seeded here
    48: "0d0ebf197048cbb8",  # a project's port named apart from its name: none seeded here
    49: "0d0ebf197048cbb8",  # a label before a web address, the host after its user: none here
    50: "0d0ebf197048cbb8",  # a version "stays on", a word after x.y.z: none here
    51: "0d0ebf197048cbb8",  # EDN keys, a service on a host or a command starts: none here
}
"""What the engines work out of the seeded corpora's files, digested (`_worked_out`), by
`per_file.CACHE_VERSION`."""


def _plain(value: object) -> object:
    """`value` with its sets sorted (their order is the process's hash seed's)."""
    if isinstance(value, frozenset):
        return sorted(value)
    if isinstance(value, tuple | list):
        return [_plain(item) for item in value]
    return value.hex() if isinstance(value, bytes) else value


def _worked_out() -> str:
    texts = [note.text for note in seeded_duplicates.build().notes]
    texts += [m.text for m in seeded_contradictions.build(memories=300).memories]
    texts += [m.text for m in seeded_leaks.build().memories]
    projects = _projects(*seeded_leaks.PROJECTS)
    names = sorted({n for i in projects.values() for n in i.names}, key=len, reverse=True)
    pattern = leaks._names_pattern(names)
    digest = hashlib.sha256()
    for index, text in enumerate(texts):
        words = duplicates.note_words(memory("global", f"{index}.md", text))
        said = (words, contradictions.claims_of(text), leaks.mentions_of(text, pattern))
        digest.update(repr(_plain(said)).encode())
    return digest.hexdigest()[:16]


def test_what_is_worked_out_of_a_file_is_pinned_to_the_cache_s_version() -> None:
    """A user's cache holds what an older Memtab worked out: a change to what the engines
    work out of a file (a stop word, a claim's pattern) must come with a new version."""
    assert _worked_out() == WORKED_OUT.get(CACHE_VERSION), (
        "what the trust engines work out of a file changed: bump per_file.CACHE_VERSION "
        "(users' caches hold what the old code worked out) and pin the new digest here"
    )


DECIDED = {
    15: "1f104754108c93aa",
    16: "2cbb81d4bbcedea5",
    17: "2cbb81d4bbcedea5",
    18: "2cbb81d4bbcedea5",
    19: "2cbb81d4bbcedea5",
    20: "46ed436308f4b482",
    21: "46ed436308f4b482",
    22: "46ed436308f4b482",
    23: "46ed436308f4b482",
    24: "46ed436308f4b482",
    25: "46ed436308f4b482",
    26: "46ed436308f4b482",
    27: "46ed436308f4b482",
    28: "46ed436308f4b482",
    29: "c8b81d791ddc55a5",
    30: "c8b81d791ddc55a5",
    31: "c8b81d791ddc55a5",
    32: "c8b81d791ddc55a5",
    33: "c8b81d791ddc55a5",
    34: "c8b81d791ddc55a5",
    35: "c8b81d791ddc55a5",
    36: "c8b81d791ddc55a5",
    37: "c8b81d791ddc55a5",
    38: "c8b81d791ddc55a5",
    39: "c8b81d791ddc55a5",
    40: "c8b81d791ddc55a5",
    41: "7876b96f7af843f3",
    42: "7876b96f7af843f3",
    43: "7876b96f7af843f3",
    44: "7876b96f7af843f3",
    45: "7876b96f7af843f3",
    46: "7876b96f7af843f3",
    47: "7876b96f7af843f3",
    48: "7876b96f7af843f3",
    49: "7876b96f7af843f3",
    50: "7876b96f7af843f3",
    51: "7876b96f7af843f3",
}
"""What the duplicates decide over the seeded duplicates (`_decided`), digested, by
`per_file.CACHE_VERSION`: the kept pair searches and statement groups are keyed by the files'
texts, not by the code that judged them (from 41, the candidates with the groups)."""


def _decided() -> str:
    corpus = seeded_duplicates.build()
    documents = [
        memory(note.place, f"{index}-{note.name}", note.text)
        for index, note in enumerate(corpus.notes)
    ]
    found = duplicates.DuplicatesEngine(Home(Path("/nowhere"))).found_in(documents)
    said = sorted(
        (group.kind, sorted((member.path, member.line or 0) for member in group.members))
        for group in (*found.groups, *found.candidates)
    )
    return hashlib.sha256(repr(said).encode()).hexdigest()[:16]


def test_what_the_duplicates_decide_is_pinned_to_the_cache_s_version() -> None:
    """A change to which statements say one thing (polarity, claims, meaning) must come with
    a new version, or users' kept decisions answer for the old code."""
    assert _decided() == DECIDED.get(CACHE_VERSION), (
        "what the duplicates decide changed: bump per_file.CACHE_VERSION and pin the new "
        "digest here (and in WORKED_OUT)"
    )


@pytest.mark.skipif(os.geteuid() != 0, reason="making another user's file needs root")
@pytest.mark.parametrize("whose", ["the folder", "the file"])
def test_a_cache_another_user_could_write_is_never_loaded(
    home: Home, whose: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another user's cache folder (a `MEMTAB_CONFIG_DIR` they made), or a cache file of
    theirs in this user's: what it holds is never loaded (nor written to)."""
    run = ENGINES["duplicates"][2]
    found = run(home, _documents())
    path = cache_file_for(home, "duplicates")
    for owned in [path, path.parent] if whose == "the folder" else [path]:
        os.chown(owned, 65534, 65534)
    made = _counting(monkeypatch, "duplicates")
    assert run(home, _documents()) == found and len(made) == 4
