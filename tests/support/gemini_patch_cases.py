"""Cases of Gemini CLI memory patches, to apply with Gemini CLI's own code and with Memtab's.

Each case is a private memory folder (and a global `GEMINI.md`) as files, one `.patch` in
its inbox, and the kind of that patch. Paths inside the texts are written `{MEM}` (the
project's memory folder) and `{GLOBAL}` (the global context file), filled in where the case
is laid out. `scripts/record-gemini-patch-cases` applies every case with the bundle of
`@google/gemini-cli` (its exported `applyInboxMemoryPatch`) and stores what it did in
`tests/fixtures/gemini/patch_cases.json`; tests/unit/sources/test_gemini_patch.py applies
the same cases with Memtab and compares.

The named cases are the rules one by one (offsets, end-of-file newlines, Windows line
endings, headers, targets, new notes and their pointer in `MEMORY.md`…); the generated
ones (`generated_cases`, a fixed seed) are real diffs of random texts, applied to the text
they were made from or to one shifted, trimmed or changed, and sometimes broken on
purpose (counts, context, lines).
"""

from __future__ import annotations

import difflib
import random
from pathlib import Path
from typing import Any

Case = dict[str, Any]

MEMORY_INDEX = "# Project Memory\n\n- Build with `make dev`.\n- Tests run offline.\n"
LONG = "".join(f"line {n}\n" for n in range(1, 41))


def _case(
    name: str,
    patch: str,
    *,
    kind: str = "private",
    memory: dict[str, str] | None = None,
    global_text: str | None = "# Global\n\n- Prefer pytest.\n",
) -> Case:
    return {
        "name": name,
        "kind": kind,
        "memory": {"MEMORY.md": MEMORY_INDEX} if memory is None else memory,
        "global": global_text,
        "patchName": "extraction.patch",
        "patch": patch,
    }


def _update(target: str, body: str) -> str:
    return f"--- {target}\n+++ {target}\n{body}"


def named_cases() -> list[Case]:
    """The rules one by one."""
    index = "{MEM}/MEMORY.md"
    cases = [
        _case(
            "adds a line at the end",
            _update(
                index,
                "@@ -2,3 +2,4 @@\n \n- Build with `make dev`.\n- Tests run offline.\n"
                "+- The API listens on 8080.\n",
            ),
        ),
        _case(
            "a hunk found 3 lines below where it says",
            _update(
                index,
                "@@ -1,3 +1,3 @@\n line 4\n-line 5\n+line five\n line 6\n",
            ),
            memory={"MEMORY.md": LONG},
        ),
        _case(
            "a hunk found above where it says",
            _update(index, "@@ -30,3 +30,3 @@\n line 4\n-line 5\n+line five\n line 6\n"),
            memory={"MEMORY.md": LONG},
        ),
        _case(
            "context that matches nowhere",
            _update(index, "@@ -1,3 +1,3 @@\n line 4\n-line 5\n+line five\n line 7\n"),
            memory={"MEMORY.md": LONG},
        ),
        _case(
            "two hunks, the second after the first",
            _update(
                index,
                "@@ -1,3 +1,3 @@\n line 1\n-line 2\n+line two\n line 3\n"
                "@@ -20,3 +20,3 @@\n line 20\n-line 21\n+line twenty-one\n line 22\n",
            ),
            memory={"MEMORY.md": LONG},
        ),
        _case(
            "a second hunk whose lines are only before the first",
            _update(
                index,
                "@@ -20,3 +20,3 @@\n line 20\n-line 21\n+line twenty-one\n line 22\n"
                "@@ -1,3 +1,3 @@\n line 1\n-line 2\n+line two\n line 3\n",
            ),
            memory={"MEMORY.md": LONG},
        ),
        _case(
            "a new sibling note and its pointer",
            "--- /dev/null\n+++ {MEM}/build-notes.md\n@@ -0,0 +1,2 @@\n+# Build notes\n"
            "+Use make dev.\n"
            + _update(
                index,
                "@@ -3,2 +3,3 @@\n- Build with `make dev`.\n- Tests run offline.\n"
                "+- See {MEM}/build-notes.md for how to build.\n",
            ),
        ),
        _case(
            "a new sibling note without its pointer",
            "--- /dev/null\n+++ {MEM}/verify-workflow.md\n@@ -0,0 +1,1 @@\n+# Verify\n",
        ),
        _case(
            "a new note and no MEMORY.md yet",
            "--- /dev/null\n+++ {MEM}/deploy_steps.md\n@@ -0,0 +1,1 @@\n+# Deploy\n",
            memory={},
        ),
        _case(
            "a new note MEMORY.md already names",
            "--- /dev/null\n+++ {MEM}/named.md\n@@ -0,0 +1,1 @@\n+# Named\n",
            memory={"MEMORY.md": "# Project Memory\n- named.md holds it\n"},
        ),
        _case(
            "pointer after an index without a last newline",
            "--- /dev/null\n+++ {MEM}/late.md\n@@ -0,0 +1,1 @@\n+# Late\n",
            memory={"MEMORY.md": "# Project Memory\n- one"},
        ),
        _case(
            "a new MEMORY.md",
            "--- /dev/null\n+++ {MEM}/MEMORY.md\n@@ -0,0 +1,2 @@\n+# Project Memory\n+- First.\n",
            memory={},
        ),
        _case(
            "a new file that exists",
            "--- /dev/null\n+++ {MEM}/MEMORY.md\n@@ -0,0 +1,1 @@\n+# Project Memory\n",
        ),
        _case(
            "an update of a missing file",
            _update("{MEM}/missing.md", "@@ -1,1 +1,1 @@\n-a\n+b\n"),
        ),
        _case(
            "git's a/ and b/ prefixes",
            "--- a/{MEM}/MEMORY.md\n+++ b/{MEM}/MEMORY.md\n"
            "@@ -4,1 +4,2 @@\n- Tests run offline.\n+- Lint with ruff.\n",
        ),
        _case(
            "different paths in the headers",
            "--- {MEM}/MEMORY.md\n+++ {MEM}/OTHER.md\n@@ -1,1 +1,1 @@\n-# Project Memory\n+# P\n",
        ),
        _case(
            "a relative path",
            "--- MEMORY.md\n+++ MEMORY.md\n@@ -1,1 +1,1 @@\n-# Project Memory\n+# P\n",
        ),
        _case("no +++ header", "--- {MEM}/MEMORY.md\n@@ -1,1 +1,1 @@\n-# Project Memory\n+# P\n"),
        _case("no hunk", "--- {MEM}/MEMORY.md\n+++ {MEM}/MEMORY.md\n"),
        _case("not a patch at all", "Remember: the API listens on 8080.\n"),
        _case(
            "a line that is no diff line",
            _update(index, "@@ -1,2 +1,2 @@\n-# Project Memory\n+# P\nstray\n"),
        ),
        _case(
            "counts that do not match",
            _update(index, "@@ -1,3 +1,3 @@\n-# Project Memory\n+# P\n"),
        ),
        _case(
            "an unknown line after a hunk",
            _update(index, "@@ -1,1 +1,1 @@\n-# Project Memory\n+# P\n") + "trailing words\n",
        ),
        _case(
            "a note in a subfolder is outside the private root",
            "--- /dev/null\n+++ {MEM}/notes/deep.md\n@@ -0,0 +1,1 @@\n+# Deep\n",
        ),
        _case(
            "a hidden note",
            "--- /dev/null\n+++ {MEM}/.hidden.md\n@@ -0,0 +1,1 @@\n+# Hidden\n",
        ),
        _case(
            "a note that is not Markdown",
            "--- /dev/null\n+++ {MEM}/notes.txt\n@@ -0,0 +1,1 @@\n+text\n",
        ),
        _case(
            "an uppercase .MD note",
            "--- /dev/null\n+++ {MEM}/Upper.MD\n@@ -0,0 +1,1 @@\n+# Upper\n",
        ),
        _case(
            "a path that climbs out with ..",
            "--- /dev/null\n+++ {MEM}/../escape.md\n@@ -0,0 +1,1 @@\n+# Out\n",
        ),
        _case(
            "a path that climbs out and back in",
            _update("{MEM}/../memory/MEMORY.md", "@@ -1,1 +1,1 @@\n-# Project Memory\n+# Memory\n"),
        ),
        _case(
            "the global file",
            _update("{GLOBAL}", "@@ -3,1 +3,2 @@\n- Prefer pytest.\n+- Answer in English.\n"),
            kind="global",
        ),
        _case(
            "a global patch aimed at the private index",
            _update(index, "@@ -1,1 +1,1 @@\n-# Project Memory\n+# P\n"),
            kind="global",
        ),
        _case(
            "a private patch aimed at the global file",
            _update("{GLOBAL}", "@@ -1,1 +1,1 @@\n-# Global\n+# G\n"),
        ),
        _case(
            "a new global file",
            "--- /dev/null\n+++ {GLOBAL}\n@@ -0,0 +1,1 @@\n+# Global\n",
            kind="global",
            global_text=None,
        ),
        _case(
            "two parts for one file, the second on the first's result",
            _update(index, "@@ -1,1 +1,1 @@\n-# Project Memory\n+# Memory\n")
            + _update(index, "@@ -1,2 +1,2 @@\n-# Memory\n+# Our memory\n \n"),
        ),
        _case(
            "one part applies, the next does not: nothing is written",
            "--- /dev/null\n+++ {MEM}/first.md\n@@ -0,0 +1,1 @@\n+# First\n"
            + _update(index, "@@ -1,1 +1,1 @@\n-# Not there\n+# X\n"),
        ),
        _case(
            "removes the last newline",
            _update(
                index,
                "@@ -4,1 +4,1 @@\n-- Tests run offline.\n+- Tests run offline.\n"
                "\\ No newline at end of file\n",
            ),
        ),
        _case(
            "adds a last newline",
            _update(
                index,
                "@@ -2,1 +2,1 @@\n-- one\n\\ No newline at end of file\n+- one\n",
            ),
            memory={"MEMORY.md": "# Project Memory\n- one"},
        ),
        _case(
            "says no last newline where there is one",
            _update(
                index,
                "@@ -2,1 +2,1 @@\n-- one\n\\ No newline at end of file\n+- two\n",
            ),
            memory={"MEMORY.md": "# Project Memory\n- one\n"},
        ),
        _case(
            "a file with Windows line endings, a patch with Unix ones",
            _update(index, "@@ -1,2 +1,2 @@\n-# Project Memory\n+# Memory\n \n"),
            memory={"MEMORY.md": "# Project Memory\r\n\r\n- one\r\n"},
        ),
        _case(
            "a file with Unix line endings, a patch with Windows ones",
            _update(index, "@@ -1,2 +1,2 @@\r\n-# Project Memory\r\n+# Memory\r\n \r\n"),
        ),
        _case(
            "a blank context line written as an empty line",
            _update(
                index, "@@ -1,3 +1,3 @@\n-# Project Memory\n+# Memory\n\n- Build with `make dev`.\n"
            ),
        ),
        _case(
            "a quoted name with a tab and a date after it",
            '--- "{MEM}/MEMORY.md"\t2026-09-01 10:00:00\n+++ "{MEM}/MEMORY.md"\t2026-09-01\n'
            "@@ -1,1 +1,1 @@\n-# Project Memory\n+# Memory\n",
        ),
        _case(
            "Index and separator lines before the headers",
            "Index: MEMORY.md\n"
            + "=" * 67
            + "\n"
            + _update(index, "@@ -1,1 +1,1 @@\n-# Project Memory\n+# Memory\n"),
        ),
        _case(
            "a hunk without counts",
            _update(index, "@@ -1 +1 @@\n-# Project Memory\n+# Memory\n"),
        ),
        _case(
            "a hunk header without numbers",
            _update(index, "@@ something @@\n+- Added."),
        ),
        _case(
            "a BOM and non-ASCII text",
            _update(index, "@@ -1,2 +1,3 @@\n \ufeff# Projekt\n-- größe\n+- Größe\n+- 크기 ✓\n"),
            memory={"MEMORY.md": "\ufeff# Projekt\n- größe\n"},
        ),
        _case(
            "an empty patch file",
            "",
        ),
        _case(
            "an added line that ends the text without a newline",
            _update(index, "@@ -4,1 +4,2 @@\n- Tests run offline.\n+- last"),
        ),
        _case(
            "an ambiguous context picks the nearest match",
            _update(index, "@@ -5,2 +5,3 @@\n x\n+added\n x\n"),
            memory={"MEMORY.md": "a\nx\nx\nb\nx\nx\nc\nx\nx\n"},
        ),
        _case(
            "a pure addition before line one",
            _update(index, "@@ -0,0 +1,1 @@\n+# Title\n"),
        ),
    ]
    return cases


_WORDS = ("alpha", "beta", "gamma", "delta", "- item", "", "## Notes", "x", "x", "end")


def generated_cases(count: int = 300, seed: int = 71) -> list[Case]:
    """Real diffs of random texts, applied to a text like the one they were made from."""
    rng = random.Random(seed)
    cases: list[Case] = []
    for number in range(count):
        before = [
            rng.choice(_WORDS) + ("" if rng.random() < 0.7 else f" {n}")
            for n in range(rng.randint(1, 25))
        ]
        after = list(before)
        for _ in range(rng.randint(1, 4)):
            where = rng.randint(0, len(after))
            what = rng.random()
            if what < 0.4:
                after.insert(where, f"new {rng.randint(0, 99)}")
            elif what < 0.7 and after:
                del after[min(where, len(after) - 1)]
            elif after:
                after[min(where, len(after) - 1)] = f"changed {rng.randint(0, 99)}"
        end_newline = rng.random() < 0.85
        old_text = "\n".join(before) + ("\n" if end_newline else "")
        new_text = "\n".join(after) + ("\n" if rng.random() < 0.85 else "")
        diff = _unified(old_text, new_text, "{MEM}/MEMORY.md", rng.choice((0, 1, 3, 3, 3)))
        if not diff:
            continue
        on_disk = old_text
        twist = rng.random()
        if twist < 0.2:
            on_disk = "".join(f"top {n}\n" for n in range(rng.randint(1, 6))) + on_disk
        elif twist < 0.3:
            on_disk = on_disk.replace("\n", "\r\n")
        elif twist < 0.4 and before:
            lines = on_disk.split("\n")
            lines[rng.randrange(len(lines))] = "edited meanwhile"
            on_disk = "\n".join(lines)
        elif twist < 0.47:
            diff = _broken(diff, rng)
        elif twist < 0.52:
            diff = diff.replace("\n", "\r\n")
        cases.append(_case(f"generated {number}", diff, memory={"MEMORY.md": on_disk}))
    return cases


def _unified(old: str, new: str, name: str, context: int) -> str:
    """GNU-style unified diff (with `\\ No newline at end of file` where it is due)."""
    old_lines = old.splitlines(keepends=True)
    new_lines = new.splitlines(keepends=True)
    out: list[str] = []
    for line in difflib.unified_diff(old_lines, new_lines, name, name, n=context):
        if line.startswith(("---", "+++")):
            out.append(line.rstrip("\n").rstrip() + "\n")
        elif line.endswith("\n"):
            out.append(line)
        else:
            out.append(line + "\n\\ No newline at end of file\n")
    return "".join(out)


def _broken(diff: str, rng: random.Random) -> str:
    lines = diff.split("\n")
    hunk_lines = [i for i, line in enumerate(lines) if line[:1] in (" ", "-", "+") and i > 1]
    choice = rng.random()
    if hunk_lines and choice < 0.4:
        i = rng.choice(hunk_lines)
        lines[i] = lines[i][:1] + "tampered"
    elif hunk_lines and choice < 0.7:
        del lines[rng.choice(hunk_lines)]
    else:
        headers = [i for i, line in enumerate(lines) if line.startswith("@@")]
        if headers:
            i = rng.choice(headers)
            lines[i] = lines[i].replace("@@ -", f"@@ -{rng.randint(1, 40)}0", 1)
    return "\n".join(lines)


def all_cases() -> list[Case]:
    return named_cases() + generated_cases()


def fill(text: str, memory_dir: Path, global_file: Path) -> str:
    return text.replace("{MEM}", str(memory_dir)).replace("{GLOBAL}", str(global_file))


def unfill(text: str, memory_dir: Path, global_file: Path) -> str:
    return text.replace(str(memory_dir), "{MEM}").replace(str(global_file), "{GLOBAL}")
