"""The trust corpus keeps its word (tests/quality/trust_corpus/, issue 83): every item of each
half's answer key points at a real file and line that says what the key recorded, each half
seeds what the issue asks of it, the halves share no text, and each half lays out as its
person's home. Whether the engines meet their targets is the scorecard's
(tests/quality/trust_scorecard.py), not this file's."""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterator
from itertools import combinations
from pathlib import Path
from typing import Any

import pytest
from tests.quality.trust_homes import CORPUS, HALVES, lay_out, load_key

from memtab.sources.claude.source import encode_project_path
from memtab.store.paths import project_dir_name

PAIRS = ("duplicates", "duplicate_near_misses", "contradictions", "contradiction_near_misses")
SINGLES = ("leaks", "leak_negatives", "check", "check_negatives")
# Lines written the same in every home (an agent's scaffolding, a format), not a person's words.
SCAFFOLDING = {
    "- Never edit, rename, or delete extension resources.",
    "* Each note is the user's word: fold it into the memory, and never delete a note.",
    '* Tag what comes from a note with "[ad-hoc note]".',
    "Merged stage-1 raw memories (stable ascending thread-id order):",
    "# Imported external-agent memory",
    '"experimental": { "autoMemory": true },',
    "- Read scope.json first: it names the project directory these files are for.",
    "- The first path component is the source project key; the rest is the file's path in "
    "that project's memory directory.",
    '"taskSettings": {"memoryWriterIntervalMessages": 2}',
    'approval_policy = "on-request"',
    "-----BEGIN OPENSSH PRIVATE KEY-----",
    "-----END OPENSSH PRIVATE KEY-----",
    "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW",  # every ed25519 key's
}


def places(item: dict[str, Any]) -> Iterator[dict[str, Any]]:
    for name in ("a", "b", "at", "alt"):
        if item.get(name) is not None:
            yield item[name]
    yield from item.get("more", [])


def sdist_checkouts(half: str) -> list[Path]:
    layout = load_key(half)["layout"]
    return [CORPUS / half / "home" / dest for dest in layout.get("sdist", {})]


def memory_files(half: str) -> list[Path]:
    """The half's text written for the corpus: everything but the published checkouts."""
    skip = sdist_checkouts(half)
    return [
        path
        for path in sorted((CORPUS / half / "home").rglob("*"))
        if path.is_file() and not any(path.is_relative_to(s) for s in skip)
    ]


@pytest.mark.parametrize("half", HALVES)
def test_every_item_points_at_the_line_it_names(half: str) -> None:
    key = load_key(half)
    for section in (*PAIRS, *SINGLES):
        for item in key[section]:
            for place in places(item):
                path = CORPUS / half / place["file"]
                assert path.is_file() or (place["lines"] is None and path.is_dir()), item["id"]
                if place["lines"] is None:
                    continue
                lines = path.read_text(encoding="utf-8").splitlines()
                assert all(1 <= n <= len(lines) for n in place["lines"]), item["id"]
                assert place["text"] in lines[place["lines"][0] - 1].strip(), item["id"]


@pytest.mark.parametrize("half", HALVES)
def test_no_place_is_both_a_finding_and_a_negative(half: str) -> None:
    key = load_key(half)

    def spots(section: str) -> set[tuple[str, int | None]]:
        return {
            (p["file"], n)
            for item in key[section]
            for p in places(item)
            for n in (p["lines"] or [None])
        }

    assert spots("leaks") & spots("leak_negatives") == set()
    assert spots("check") & spots("check_negatives") == set()
    ids = [item["id"] for section in (*PAIRS, *SINGLES, "recall") for item in key[section]]
    assert [i for i, n in Counter(ids).items() if n > 1] == []


@pytest.mark.parametrize("half", ["tune", "held-out"])
def test_each_half_seeds_what_the_issue_asks(half: str) -> None:
    key = load_key(half)

    def kinds(section: str) -> Counter[str]:
        return Counter(item["kind"] for item in key[section])

    duplicates, contradictions, leaks = kinds("duplicates"), kinds("contradictions"), kinds("leaks")
    assert len(key["duplicates"]) >= 40
    assert duplicates["reworded"] >= 8 and duplicates["global-project"] >= 8
    assert {"copy", "prose", "import"} <= set(duplicates)
    assert len(key["contradictions"]) >= 40
    assert min(contradictions[k] for k in ("always-never", "tool", "port", "version")) >= 6
    assert len(key["duplicate_near_misses"]) >= 30
    assert len(key["contradiction_near_misses"]) >= 30
    assert kinds("duplicate_near_misses")["opposite"] >= 6
    assert len(key["leaks"]) >= 40 and leaks["home-path"] >= 4
    assert leaks["foreign-host"] + leaks["foreign-path"] + leaks["foreign-repo"] >= 6
    assert "example-key" in kinds("leak_negatives") and "own-home" in kinds("leak_negatives")
    assert len(key["check"]) >= 25
    assert any("→" in p["text"] for item in key["check"] for p in places(item) if p["text"])
    assert len(key["recall"]) == 10


def test_the_fresh_half_seeds_what_issue_94_asks() -> None:
    """`fresh` (issue 94): copies, frontmatter-only and bullets↔prose twins, one line in two
    files, rewordings, global rules restated; contradicting pairs that share most words, each
    also a contradiction; values, always/never and tools with near misses; leaks beside names
    of variables without values; check findings beside paths that are there."""
    key = load_key("fresh")

    def kinds(section: str) -> Counter[str]:
        return Counter(item["kind"] for item in key[section])

    duplicates, contradictions = kinds("duplicates"), kinds("contradictions")
    assert min(duplicates[k] for k in ("copy", "frontmatter", "prose", "line")) >= 5
    assert duplicates["reworded"] >= 10 and duplicates["global-project"] >= 5
    assert duplicates["import"] >= 5
    near = kinds("duplicate_near_misses")
    other_subject = sum(near.values()) - near["opposite"] - near["contradicting"]
    assert near["opposite"] >= 10 and other_subject >= 15

    def ends(item: dict[str, Any]) -> tuple[str, ...]:
        return tuple(str((item[side]["file"], item[side]["lines"])) for side in ("a", "b"))

    contradicting = {ends(item) for item in key["contradictions"]}
    never_grouped = {ends(i) for i in key["duplicate_near_misses"] if i["kind"] != "opposite"}
    opposites = {ends(i) for i in key["duplicate_near_misses"] if i["kind"] == "opposite"}
    assert opposites <= contradicting <= opposites | never_grouped  # none is ever one group
    values = sum(contradictions.values()) - contradictions["always-never"] - contradictions["tool"]
    assert contradictions["always-never"] >= 8 and contradictions["tool"] >= 8 and values >= 15
    assert len(key["contradiction_near_misses"]) >= 15
    assert len(key["leaks"]) >= 10 and len(key["leak_negatives"]) >= 5
    assert "env-reference" in kinds("leak_negatives")
    assert len(key["check"]) >= 10 and len(key["check_negatives"]) >= 5
    assert len(key["recall"]) == 10


def test_the_fresh2_half_seeds_what_its_brief_asks() -> None:
    """`fresh2` (issue 94, a fourth home nobody tuned on): contradictions weighted to values
    structure can prove, with always/never, tools and near misses; each kind of duplicate with
    its near misses (every contradiction one too); leaks beside names, placeholders and
    public URLs; check findings beside what the checkouts have."""
    key = load_key("fresh2")

    def kinds(section: str) -> Counter[str]:
        return Counter(item["kind"] for item in key[section])

    contradictions, duplicates = kinds("contradictions"), kinds("duplicates")
    values = sum(contradictions.values()) - contradictions["always-never"] - contradictions["tool"]
    assert values >= 18 and contradictions["always-never"] >= 6 and contradictions["tool"] >= 6
    assert len(key["contradiction_near_misses"]) >= 14
    kinds_seeded = ("copy", "frontmatter", "prose", "line", "reworded", "global-project")
    assert min(duplicates[k] for k in kinds_seeded) >= 5 and duplicates["import"] >= 5
    near = kinds("duplicate_near_misses")
    assert near["opposite"] == contradictions["always-never"]
    assert near["opposite"] + near["contradicting"] == len(key["contradictions"])
    assert len(key["duplicate_near_misses"]) - len(key["contradictions"]) >= 10
    assert len(key["leaks"]) >= 15 and len(key["leak_negatives"]) >= 10
    assert len(key["check"]) >= 15 and len(key["check_negatives"]) >= 10
    assert "fresh2" in HALVES and "28 Nov 2026" in key["provenance"]
    assert len(key["recall"]) == 10


@pytest.mark.parametrize("half", HALVES)
def test_most_files_are_background(half: str) -> None:
    """Precision means something only over memory with nothing planted in most files (a
    near-miss or a negative is something not to find; a true finding its author did not plant,
    labelled after the engines ran, is no plan of the half)."""
    key = load_key(half)
    found = ("duplicates", "contradictions", "leaks", "check")
    seeded = {
        p["file"]
        for s in found
        for item in key[s]
        if not item.get("note", "").startswith("unseeded")
        for p in places(item)
    }
    files = [p for p in memory_files(half) if p.suffix == ".md"]
    background = [p for p in files if str(p.relative_to(CORPUS / half)) not in seeded]
    assert len(files) >= 150
    assert len(background) > len(files) / 2


def test_the_halves_share_no_text() -> None:
    """Nothing was copied between the halves: no line of 30 characters or more, no person, no
    project (the engines tuned on one must meet the other cold)."""

    def lines(half: str) -> set[str]:
        found = set()
        for path in memory_files(half):
            for line in path.read_text(encoding="utf-8").splitlines():
                if len(line.strip()) >= 30 and line.strip() not in SCAFFOLDING:
                    found.add(line.strip())
        return found

    for one, other in combinations(HALVES, 2):
        assert lines(one) & lines(other) == set(), (one, other)
        layouts = [load_key(half)["layout"] for half in (one, other)]
        assert layouts[0]["user_home"] != layouts[1]["user_home"]
        projects = [{p["name"] for p in layout["projects"]} for layout in layouts]
        assert projects[0] & projects[1] == set()


@pytest.mark.parametrize("half", HALVES)
def test_each_checkout_is_a_small_published_project_with_its_licence(half: str) -> None:
    for checkout in sdist_checkouts(half):
        provenance = (checkout / "PROVENANCE").read_text(encoding="utf-8")
        assert "Licence:" in provenance and "https://" in provenance
        assert any(checkout.glob("LICEN[CS]E*"))
        assert sum(p.stat().st_size for p in checkout.rglob("*") if p.is_file()) < 1_000_000


@pytest.mark.parametrize("half", HALVES)
def test_each_half_lays_out_as_its_persons_home(half: str, tmp_path: Path) -> None:
    laid = lay_out(half, tmp_path)
    key = laid.key
    for project in key["layout"]["projects"]:  # a checkout deleted since is one finding
        assert Path(laid.project_path(project["name"])).is_dir() != project.get("missing", False)
    config = (laid.xum_home / "config.json").read_text(encoding="utf-8")
    assert key["layout"]["user_home"] + "/" not in config.replace(str(laid.home), "")
    recall_dir = laid.moved(key["layout"]["recall_directory"])
    memory = laid.home / ".claude" / "projects" / encode_project_path(recall_dir) / "memory"
    names = {p.name for p in memory.glob("*.md")}
    for case in key["recall"]:
        assert set(case["expect"] + case["also"]) <= names, case["id"]
    back = laid.corpus_path(memory / "MEMORY.md")
    assert back is not None and (CORPUS / half / back).is_file()


def test_the_fresh3_half_seeds_what_its_brief_asks() -> None:
    """`fresh3` (issue 94, a fifth home nobody tuned on): check weighted heaviest, with its near
    misses; contradictions mostly values structure proves, then always/never and tools; each
    kind of duplicate with its near misses (every contradiction one too); leaks of varied shapes
    beside names, placeholders and public URLs."""
    key = load_key("fresh3")

    def kinds(section: str) -> Counter[str]:
        return Counter(item["kind"] for item in key[section])

    contradictions, duplicates = kinds("contradictions"), kinds("duplicates")
    values = sum(contradictions.values()) - contradictions["always-never"] - contradictions["tool"]
    assert values >= 16 and contradictions["always-never"] >= 5 and contradictions["tool"] >= 4
    assert len(key["contradiction_near_misses"]) >= 15
    kinds_seeded = ("copy", "frontmatter", "prose", "line", "reworded", "global-project")
    assert min(duplicates[k] for k in kinds_seeded) >= 5 and duplicates["import"] >= 5
    near = kinds("duplicate_near_misses")
    assert near["opposite"] == contradictions["always-never"]
    assert near["opposite"] + near["contradicting"] == len(key["contradictions"])
    assert len(key["duplicate_near_misses"]) - len(key["contradictions"]) >= 15
    assert len(key["leaks"]) >= 15 and len(key["leak_negatives"]) >= 10
    assert len(key["check"]) >= 25 and len(key["check_negatives"]) >= 15
    assert "fresh3" in HALVES and "28 Nov 2026" in key["provenance"]
    assert len(key["recall"]) == 10


# A path as a note writes one: a relative path with a folder, or a file name with a suffix.
NOTE_PATH = re.compile(
    r"(?<![\w:/.{}-])((?:[\w-]+/)+[\w.-]*|[\w-]+(?:\.[\w-]+)*\.(?:go|ts|tsx|js|py|sh|sql|json|yml|ipynb|lock))(?![\w.])"
)
TARGET = re.compile(r"`(make|npm run|just) ([\w:-]+)")


def _checkout(half: str, file: str) -> Path:
    """The checkout a memory file of `half` is about (its project's or workspace's)."""
    layout = load_key(half)["layout"]
    home = CORPUS / half
    config = json.loads((home / layout["xum_home"] / "config.json").read_text(encoding="utf-8"))
    workspaces = {
        ws["id"]: path for path, project in config["projects"] for ws in project["workspaces"]
    }
    for project in layout["projects"]:
        path = project["path"]
        if project_dir_name(path) in file or encode_project_path(path) in file:
            return home / "home" / path.removeprefix(layout["user_home"] + "/")
    for ws, path in workspaces.items():
        if f"/sessions/{ws}/" in file:
            return home / "home" / path.removeprefix(layout["user_home"] + "/")
    raise AssertionError(f"no checkout for {file}")


def _has_target(checkout: Path, tool: str, target: str) -> bool:
    """Whether the checkout defines `target` for `tool` (package.json's scripts, a Mix task
    module, its Taskfile, Makefile or justfile)."""
    if tool == "npm run":
        if not (checkout / "package.json").is_file():  # a checkout with no npm project
            return False
        scripts = json.loads((checkout / "package.json").read_text(encoding="utf-8"))["scripts"]
        return target in scripts
    if tool == "mix":
        return (checkout / "lib" / "mix" / "tasks" / f"{target}.ex").is_file()
    if tool == "task":
        taskfile = (checkout / "Taskfile.yml").read_text(encoding="utf-8")
        return re.search(rf"^  {re.escape(target)}:", taskfile, re.MULTILINE) is not None
    recipe_file = checkout / ("Makefile" if tool == "make" else "justfile")
    recipes = recipe_file.read_text(encoding="utf-8")
    return re.search(rf"^{re.escape(target)}\b[^\n]*:", recipes, re.MULTILINE) is not None


def test_fresh3_checkouts_have_what_its_key_says_and_lack_what_it_says_is_missing() -> None:
    """Every path and target a `fresh3` note names that the key calls existing is in that
    note's checkout; every check finding names a path, target or program that is not."""
    key = load_key("fresh3")
    installed = set(key["layout"]["installed"])
    for item in key["check_negatives"]:
        at = item["at"]
        if item["kind"] != "exists":
            continue
        checkout = _checkout("fresh3", at["file"])
        paths = NOTE_PATH.findall(at["text"])
        targets = TARGET.findall(at["text"])
        assert paths or targets, item["id"]
        for path in paths:
            assert (checkout / path).exists(), (item["id"], path)
        for tool, target in targets:
            assert _has_target(checkout, tool, target), (item["id"], target)
    for item in key["check"]:
        at = item["at"]
        checkout = _checkout("fresh3", at["file"])
        missing_paths = [p for p in NOTE_PATH.findall(at["text"]) if not (checkout / p).exists()]
        missing_targets = [t for t in TARGET.findall(at["text"]) if not _has_target(checkout, *t)]
        programs = re.findall(r"`([\w-]+) ", at["text"])
        missing_programs = [p for p in programs if p not in installed]
        found = {
            "missing-path": missing_paths,
            "renamed": missing_paths,
            "missing-script": missing_targets,
            "missing-program": missing_programs,
        }[item["kind"]]
        assert found, item["id"]


# What each untuned half's brief asks it to seed, at least: fresh7 was written in the time a
# smaller half takes, so its brief asks less of every section but the contradictions' kinds.
_FULL_HALF = {
    "values": 20,
    "contradiction_near_misses": 15,
    "duplicates": 20,
    "duplicate_kind": 3,
    "leaks": 18,
    "leak_negatives": 10,
    "check": 20,
    "check_negatives": 15,
    "different_facts": 15,
}
SEEDED_MINIMUMS = {
    "fresh4": {**_FULL_HALF, "written": "28 Nov 2026"},
    "fresh5": {**_FULL_HALF, "written": "28 Nov 2026"},
    "fresh6": {**_FULL_HALF, "written": "29 Nov 2026"},
    "fresh7": {
        **_FULL_HALF,
        "values": 14,
        "contradiction_near_misses": 10,
        "leaks": 12,
        "check": 12,
        "check_negatives": 12,
        "different_facts": 10,
        "written": "29 Nov 2026",
    },
    "fresh8": {**_FULL_HALF, "written": "29 Nov 2026"},
    "fresh9": {**_FULL_HALF, "written": "29 Nov 2026"},
    "fresh10": {**_FULL_HALF, "written": "29 Nov 2026"},
    "fresh11": {**_FULL_HALF, "written": "29 Nov 2026"},
    "fresh12": {**_FULL_HALF, "written": "29 Nov 2026"},
    "fresh13": {**_FULL_HALF, "written": "29 Nov 2026"},
    "fresh14": {**_FULL_HALF, "written": "29 Nov 2026"},
    "fresh15": {**_FULL_HALF, "written": "29 Nov 2026"},
    "fresh16": {**_FULL_HALF, "written": "29 Nov 2026"},
}
UNTUNED_HALVES = list(SEEDED_MINIMUMS)


@pytest.mark.parametrize("half", UNTUNED_HALVES)
def test_the_untuned_halves_seed_what_their_briefs_ask(half: str) -> None:
    """`fresh4` onwards (issue 94, homes nobody tuned on): contradictions
    weighted heaviest, mostly values structure proves, then always/never and tools, with near
    misses; each kind of duplicate with its near misses (every contradiction one too); leaks of
    varied shapes beside names, placeholders, examples and public URLs; check findings beside
    what the checkouts have."""
    key, least = load_key(half), SEEDED_MINIMUMS[half]

    def kinds(section: str) -> Counter[str]:
        return Counter(item["kind"] for item in key[section])

    contradictions, duplicates = kinds("contradictions"), kinds("duplicates")
    values = sum(contradictions.values()) - contradictions["always-never"] - contradictions["tool"]
    assert values >= least["values"]
    assert contradictions["always-never"] >= 5 and contradictions["tool"] >= 5
    assert len(key["contradiction_near_misses"]) >= least["contradiction_near_misses"]
    kinds_seeded = ("copy", "frontmatter", "prose", "line", "reworded", "global-project", "import")
    assert min(duplicates[k] for k in kinds_seeded) >= least["duplicate_kind"]
    assert len(key["duplicates"]) >= least["duplicates"]
    near = kinds("duplicate_near_misses")
    assert near["opposite"] == contradictions["always-never"]
    assert near["opposite"] + near["contradicting"] == len(key["contradictions"])
    assert (
        len(key["duplicate_near_misses"]) - len(key["contradictions"]) >= least["different_facts"]
    )
    assert len(key["leaks"]) >= least["leaks"]
    assert len(key["leak_negatives"]) >= least["leak_negatives"]
    assert len(key["check"]) >= least["check"]
    assert len(key["check_negatives"]) >= least["check_negatives"]
    assert half in HALVES and least["written"] in key["provenance"]
    assert len(key["recall"]) == 10


AGENT_FILE_KINDS = ("codex-summary-version", "no-description", "not-in-index")
"""Check findings about an agent's own file, not a checkout."""


def _breaks_its_agents_rule(kind: str, path: Path) -> bool:
    """Whether an agent's file is what a finding of `kind` (AGENT_FILE_KINDS) says it is."""
    text = path.read_text(encoding="utf-8")
    if kind == "codex-summary-version":
        return text.split("\n", 1)[0] != "v1"
    if kind == "no-description":
        frontmatter = text.split("---", 2)[1] if text.startswith("---") else ""
        return re.search(r"^description:[ \t]*\S", frontmatter, re.MULTILINE) is None
    return path.name not in (path.parent / "MEMORY.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("half", UNTUNED_HALVES)
def test_untuned_checkouts_have_what_their_keys_say_and_lack_what_they_say_is_missing(
    half: str,
) -> None:
    """Every path and target the key names for an untuned half's line is written in that
    line; those of a line called existing are in the note's checkout, those of a check finding
    are not (a renamed file's new name is), and a missing program is not among the installed
    ones. A finding about an agent's own file breaks that agent's rule: a Codex summary not
    begun by `v1`, a topic without a description, a Gemini CLI note its MEMORY.md never names."""
    key = load_key(half)
    installed = set(key["layout"]["installed"])
    for item in key["check_negatives"]:
        checkout = _checkout(half, item["at"]["file"])
        named = item.get("paths", []) + item.get("targets", [])
        assert (item["kind"] == "exists") == bool(named), item["id"]
        for path in item.get("paths", []):
            assert path.rsplit("/", 1)[-1] in item["at"]["text"], item["id"]
            assert (checkout / path).exists(), (item["id"], path)
        for tool, target in item.get("targets", []):
            assert f"{tool} {target}" in item["at"]["text"], item["id"]
            assert _has_target(checkout, tool, target), (item["id"], target)
    for item in key["check"]:
        if item["kind"] in AGENT_FILE_KINDS:
            path = CORPUS / half / item["at"]["file"]
            assert _breaks_its_agents_rule(item["kind"], path), item["id"]
            continue
        checkout = _checkout(half, item["at"]["file"])
        missing = item.get("paths", []) + item.get("targets", []) + item.get("programs", [])
        assert missing, item["id"]
        for path in item.get("paths", []):
            assert path in item["at"]["text"], item["id"]
            assert not (checkout / path).exists(), (item["id"], path)
        if item["kind"] == "renamed":
            assert (checkout / item["now"]).is_file(), item["id"]
        for tool, target in item.get("targets", []):
            assert f"{tool} {target}" in item["at"]["text"], item["id"]
            assert not _has_target(checkout, tool, target), (item["id"], target)
        for program in item.get("programs", []):
            assert f"`{program}" in item["at"]["text"] and program not in installed, item["id"]
