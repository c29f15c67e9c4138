"""Properties of the offline consolidator on random stores (hypothesis).

On any store: a second run right after the first changes nothing; no run changes a file
that is not Markdown; no run removes a heading or label line from a file it edits, nor
leaves a heading or label that had content with none; a deleted file's content stands
elsewhere in the store afterwards; pinned files never change; memory never grows.
"""

from __future__ import annotations

import json
import re
import tempfile
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memtab.consolidation.offline.units import lowered_words
from memtab.consolidation.service import ConsolidationService
from memtab.llm.settings import ProviderSettings
from memtab.store.home import Home
from memtab.store.paths import parse_file_path
from memtab.store.sidecars.journal import ConsolidationRecord
from support.memory_paths import vpath
from support.property_examples import examples

from .helpers import WS, memory_bytes, new_home, store_for

OFFLINE = ProviderSettings("offline", "offline", "")
BUDGET = 8

FACTS = [
    "- Run make check before every push.",
    "- The staging database is read-only.",
    "- Redis listens on port 6380 here.",
    "- Use uv pip inside existing venvs.",
    "- Sign commits with the global key.",
    "The deploy script needs the VPN up first.",
    "  continued detail of the item above",
    "- Pending: 3",  # a `- key: value` item is content, not a label
]
STRUCTURE = [
    "# Notes",
    "## Setup",
    "## Tips",
    "### Task 1: restore the archive",
    "Preference signals:",
    "Reusable knowledge:",
    "task_outcome: success",
    "- Setup:",
    "**Why:** the hook rewrites it",
    "| key | value |",
    "<!-- kept by hand -->",
]
NAMES = ["a.md", "b.md", "notes.md", "sub/c.md", "notes-copy.md", "data.json", "x.txt"]
FRONTMATTER = ["", "---\ndescription: Topic\n---\n", "---\ntype: feedback\n---\n"]


@st.composite
def stores(draw: st.DrawFn) -> list[tuple[str, str, list[str], str, bool]]:
    """A few files drawn from one small vocabulary, so items, labels and whole blocks
    repeat within files, across files and across scopes."""
    labels = draw(st.lists(st.sampled_from(STRUCTURE), min_size=1, max_size=3, unique=True))
    facts = draw(st.lists(st.sampled_from(FACTS), min_size=1, max_size=3, unique=True))
    blocks = [[label, fact] for label in labels for fact in facts]
    pieces = st.one_of(
        st.sampled_from([*labels, *facts, "", "```", "x = 1", "---"]).map(lambda p: [p]),
        st.sampled_from(blocks),
    )
    files = []
    for _ in range(draw(st.integers(1, 6))):
        body = [line for chunk in draw(st.lists(pieces, max_size=6)) for line in chunk]
        files.append(
            (
                draw(st.sampled_from(["global", "project", "workspace"])),
                draw(st.sampled_from(NAMES)),
                body,
                draw(st.sampled_from(FRONTMATTER)),
                draw(st.booleans()),
            )
        )
    return files


def consolidate(home: Home) -> ConsolidationRecord:
    return ConsolidationService(home, settings=OFFLINE).run(WS)


def files_of(home: Home) -> dict[Path, bytes]:
    roots = [home.root / "memory", home.sessions_dir]
    return {
        path: path.read_bytes()
        for root in roots
        if root.exists()
        for path in sorted(root.rglob("*"))
        if path.is_file() and "memory" in path.relative_to(home.root).parts
    }


# The test's own idea of structure and content (not the code under test's).
def is_structure(line: str) -> bool:
    return line.strip() in STRUCTURE or line.startswith("#")


def is_content(line: str) -> bool:
    return line in FACTS or line in ("x = 1", "```", "| key | value |")


def structure_lines(text: str) -> Counter[str]:
    return Counter(line.strip() for line in text.split("\n") if is_structure(line))


def is_owner(line: str) -> bool:
    """A heading or a label: what content stands under."""
    return is_structure(line) and not line.startswith(("|", "<!--"))


def filled(text: str) -> Counter[str]:
    """The headings and labels with content before the next heading or label."""
    found: Counter[str] = Counter()
    owner: str | None = None
    for line in [*text.split("\n"), "# end"]:
        if is_owner(line):
            owner = line.strip()
        elif owner is not None and is_content(line):
            found[owner] += 1
            owner = None
    return found


def content_lines(text: str) -> set[str]:
    return {" ".join(line.split()) for line in text.split("\n") if is_content(line)}


@pytest.mark.slow
@settings(max_examples=examples(30), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(files=stores())
def test_random_stores_keep_structure_other_files_and_settle(
    files: list[tuple[str, str, list[str], str, bool]],
) -> None:
    with tempfile.TemporaryDirectory() as root:
        home = new_home(Path(root) / "home")
        store = store_for(home, WS)
        pinned: set[Path] = set()
        for scope, name, pieces, frontmatter, pin in files:
            path = f"/memories/{scope}/{name}"
            physical = store.physical(parse_file_path(path))
            if physical.exists():
                continue
            if name.endswith(".md"):
                text = frontmatter + "\n".join(pieces) + "\n"
            elif name.endswith(".json"):
                text = json.dumps({"note": pieces}, indent=2) + "\n"
            else:
                text = "\n".join(pieces) + "\n"  # the same Markdown, in a .txt file
            store.create_file(vpath(path), text)
            if pin:
                store.set_pinned(vpath(path), True)
                pinned.add(physical)
        before = files_of(home)
        size_before = memory_bytes(home)

        first = consolidate(home)

        after = files_of(home)
        assert all(op.applied for op in first.ops), first.ops
        assert memory_bytes(home) <= size_before
        store_lines = {
            " ".join(line.split())
            for path, data in after.items()
            if path.suffix == ".md"
            for line in data.decode().split("\n")
        }
        for path, data in before.items():
            if path in pinned or path.suffix != ".md":
                assert after.get(path) == data, path  # untouched
                continue
            if path not in after:
                missing = content_lines(data.decode()) - store_lines
                assert not missing, (path, missing)
                continue
            old, new = data.decode(), after[path].decode()
            assert structure_lines(new) >= structure_lines(old), (old, new)
            assert filled(new) >= filled(old), (old, new)
        if len(first.ops) < BUDGET:
            assert consolidate(home).ops == ()


_WORD_RUNS = re.compile(r"\w+")


@settings(max_examples=examples(300), deadline=None)
@given(
    text=st.text(alphabet=st.characters(max_codepoint=127), max_size=80)
    | st.text(max_size=80)
    | st.sampled_from(["Straße — über ÉCOLE_2", "İstanbul x", "a\x1fb\x1cc", "ﬁle ǅ"])
)
def test_words_are_the_lowercased_word_runs_of_any_text(text: str) -> None:
    """Shingles read a note's words by a byte table when it is ASCII: the same words the
    `\\w+` pattern finds in the lowercased text, for any text."""
    assert lowered_words(text) == _WORD_RUNS.findall(text.lower())


def test_lines_indented_under_a_label_are_content_a_merge_keeps() -> None:
    """Found by the property above: a line indented under a label (`Preference signals:`)
    was read as part of the label — structure — so a file alike to another but for that
    line was merged away and the line lost."""
    with tempfile.TemporaryDirectory() as root:
        home = new_home(Path(root) / "home")
        store = store_for(home, WS)
        store.create_file(vpath("/memories/project/a.md"), "- Run make check before every push.\n")
        store.create_file(
            vpath("/memories/project/b.md"),
            "- Run make check before every push.\n"
            "Preference signals:\n"
            "  continued detail of the item above\n",
        )
        consolidate(home)
        kept = "\n".join(data.decode() for data in files_of(home).values())
        assert "continued detail of the item above" in kept
