"""Memtab applies Gemini CLI's memory patches exactly as Gemini CLI 0.61 applies them.

Every case of `support.gemini_patch_cases` (the rules one by one, and 300 real diffs of
random texts, applied as made, shifted, with Windows line endings, changed meanwhile or
broken) was applied by Gemini CLI's own `applyInboxMemoryPatch`, from its npm bundle, and
what it answered and left on disk recorded in tests/fixtures/gemini/patch_cases.json
(`scripts/record-gemini-patch-cases`). Here Memtab plans the same patch on the same files:
it must write the same text to the same files, or refuse with the same words — except
where Memtab refuses on purpose (a hunk header without numbers), which the case names.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memtab.sources.gemini.hunk_places import HunkPlaces, PatchTooCostlyError, PlacingWork
from memtab.sources.gemini.inbox import MemoryRoots, PatchRefusedError, plan_patch, read_patch
from memtab.sources.gemini.patch import (
    FilePatch,
    PatchError,
    _apply_hunk,
    apply_patch,
    parse_patch,
)
from support.gemini_patch_cases import fill, unfill
from support.property_examples import examples

FIXTURE = Path(__file__).parents[2] / "fixtures" / "gemini" / "patch_cases.json"
CASES: list[dict[str, Any]] = json.loads(FIXTURE.read_text(encoding="utf-8"))
# Memtab refuses what Gemini CLI would misplace (`patch.unnumbered_hunk`).
STRICTER = {"a hunk header without numbers"}


def _lay_out(case: dict[str, Any], root: Path) -> tuple[MemoryRoots, Path]:
    gemini = root / "home" / ".gemini"
    memory = gemini / "tmp" / "proj" / "memory"
    (memory / ".inbox" / case["kind"]).mkdir(parents=True)
    if case["global"] is not None:
        (gemini / "GEMINI.md").write_text(case["global"], encoding="utf-8", newline="")
    for name, text in case["memory"].items():
        (memory / name).parent.mkdir(parents=True, exist_ok=True)
        (memory / name).write_text(text, encoding="utf-8", newline="")
    roots = MemoryRoots(memory, gemini / "GEMINI.md")
    patch = memory / ".inbox" / case["kind"] / case["patchName"]
    patch.write_text(fill(case["patch"], memory, roots.global_file), encoding="utf-8", newline="")
    return roots, patch


def _files(roots: MemoryRoots) -> tuple[dict[str, str], str | None]:
    found = {
        str(path.relative_to(roots.memory_dir)): unfill(
            path.read_bytes().decode("utf-8"), roots.memory_dir, roots.global_file
        )
        for path in roots.memory_dir.rglob("*")
        if path.is_file() and ".inbox" not in path.relative_to(roots.memory_dir).parts
    }
    global_text = (
        unfill(roots.global_file.read_bytes().decode("utf-8"), roots.memory_dir, roots.global_file)
        if roots.global_file.exists()
        else None
    )
    return found, global_text


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_memtab_applies_each_case_as_gemini_cli_does(case: dict[str, Any], tmp_path: Path) -> None:
    roots, patch_path = _lay_out(case, tmp_path)
    expected = case["gemini"]
    patch = read_patch(roots, case["kind"], patch_path)
    assert patch is not None
    try:
        plan = plan_patch(roots, patch)
    except PatchRefusedError as refused:
        said, applied = unfill(str(refused), roots.memory_dir, roots.global_file), False
    else:
        for planned in plan.files:
            planned.target.parent.mkdir(parents=True, exist_ok=True)
            planned.target.write_text(planned.after, encoding="utf-8", newline="")
        said, applied = unfill(plan.message, roots.memory_dir, roots.global_file), True
    if case["name"] in STRICTER:
        # Gemini CLI puts the hunk's one line in place of the whole file; Memtab refuses.
        assert expected["success"] and expected["memory"]["MEMORY.md"] == "- Added."
        assert not applied and "no line numbers" in said
        return
    assert (applied, said) == (expected["success"], expected["message"])
    assert _files(roots) == (expected["memory"], expected["global"])


def test_the_cases_cover_both_outcomes_and_the_pointer() -> None:
    # The recording is worth something only if it holds applies and refusals of each kind.
    outcomes = {(c["kind"], c["gemini"]["success"]) for c in CASES}
    assert outcomes == {("private", True), ("private", False), ("global", True), ("global", False)}
    assert any("Auto-added MEMORY.md pointer" in c["gemini"]["message"] for c in CASES)
    assert sum(1 for c in CASES if c["name"].startswith("generated")) >= 250


def test_parse_errors_say_what_jsdiff_says() -> None:
    with pytest.raises(PatchError, match=r'^Unknown line 6 "trailing words"$'):
        parse_patch("--- /a\n+++ /a\n@@ -1 +1 @@\n-a\n+b\ntrailing words\n")
    with pytest.raises(PatchError, match=r"^Added line count did not match for hunk at line 3$"):
        parse_patch("--- /a\n+++ /a\n@@ -1,1 +1,2 @@\n-a\n+b")


def test_a_hunk_is_placed_at_the_nearest_line_where_it_fits() -> None:
    (part,) = parse_patch("--- /a\n+++ /a\n@@ -5,2 +5,3 @@\n x\n+added\n x\n")
    # Two places fit (lines 2–3 and 5–6); jsdiff tries line 5 first and takes it.
    assert apply_patch("a\nx\nx\nb\nx\nx\nc\n", part) == "a\nx\nx\nb\nx\nadded\nx\nc\n"


def _tried_line_by_line(
    lines: list[str], hunk_lines: tuple[str, ...], start: int, min_line: int, max_line: int
) -> int | None:
    """Where jsdiff 8's `applyPatch` puts a hunk: the first line, in its distance
    iterator's order (`start`, then nearer first, after before before, within the
    bounds), where `applyHunk` fits it."""
    tries = [start]
    for distance in range(1, max(abs(max_line - start), abs(start - min_line)) + 2):
        tries += [start + distance] if start + distance <= max_line else []
        tries += [start - distance] if start - distance >= min_line else []
    return next((p for p in tries if _apply_hunk(lines, hunk_lines, p) is not None), None)


_LINE = st.sampled_from(["", "a", "b", "a"])


@settings(max_examples=examples(500), deadline=None)
@given(
    st.lists(_LINE, max_size=30),
    st.lists(st.tuples(st.sampled_from(" -+\\"), _LINE), max_size=8),
    st.integers(-5, 35),
    st.integers(0, 35),
    st.integers(-5, 35),
)
def test_a_hunk_is_placed_where_jsdiff_tries_it_line_by_line(
    lines: list[str], body: list[tuple[str, str]], start: int, min_line: int, max_line: int
) -> None:
    """Files of few distinct lines (many partial fits), hunks at any line and bounds: the
    hunk's old lines searched for as a whole land where jsdiff's tries put them."""
    hunk_lines = tuple(op + text for op, text in body)
    places = HunkPlaces(lines, [hunk_lines], PlacingWork())
    assert places.place(hunk_lines, start, min_line, max_line) == _tried_line_by_line(
        lines, hunk_lines, start, min_line, max_line
    )


def _context_patch(context: int, tail: str) -> FilePatch:
    body = [" "] * context + tail.splitlines()
    olds = sum(line[0] != "+" for line in body)
    news = sum(line[0] != "-" for line in body)
    (part,) = parse_patch(f"--- /a\n+++ /a\n@@ -3,{olds} +3,{news} @@\n" + "\n".join(body) + "\n")
    return part


def test_a_hunk_of_3000_context_lines_is_placed_or_refused_within_a_second() -> None:
    """An 80 KB `MEMORY.md` of blank lines and a hunk of 3,000 blank context lines
    (issue 81 point 10: 40 s line by line when it fits nowhere): applied where it fits,
    refused where it does not, each at once."""
    memory = "# Project Memory\n\n" + "\n" * 80_000 + "- The last line.\n"
    started = time.perf_counter()
    nowhere = apply_patch(memory, _context_patch(3000, "-- a line nowhere\n+- instead"))
    far = apply_patch(memory, _context_patch(3000, " - The last line.\n+- Added."))
    assert time.perf_counter() - started < 1.0
    assert nowhere is None
    assert far == memory + "- Added.\n"


def test_a_patch_too_costly_to_place_is_refused_with_why() -> None:
    """Hunks each found only far from where they say, one after another: the search
    would read the file again for each, so past a bound the patch is refused."""
    memory = "".join(f"k{n}\n" for n in range(2000)) + "x\n" * 200_000
    hunks = "".join(
        f"@@ -{1 + 100_000 * (n % 2)},1 +{1 + 100_000 * (n % 2)},2 @@\n k{n}\n+added\n"
        for n in range(2000)
    )
    (part,) = parse_patch("--- /a\n+++ /a\n" + hunks)
    started = time.process_time()  # CPU, not wall: the refusal's own work, whatever the load
    with pytest.raises(PatchTooCostlyError, match="placing them would search more than 64 million"):
        apply_patch(memory, part)
    assert time.process_time() - started < 1.0
