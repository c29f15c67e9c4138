"""What an engine's finding names, as a file and line of the trust corpus, and whether it is
an item of the answer key.

A mux file is named by its virtual path (with the project or workspace beside it), another
agent's by its file id (`<source id>:<path in it>`, the source's root from `memtab sources`);
both are turned back into the corpus file the laid-out one was copied from. Two files with
the same text are one for pairs (contradictions, duplicates, near-misses): the engines may
name either copy of a line, as `contradictions` lists every place a side is said.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tests.quality.trust_homes import CORPUS, LaidOut

from memtab.store.paths import project_dir_name


@dataclass(frozen=True)
class Loc:
    """A corpus file (relative to its half) and a line, None for the whole file."""

    file: str
    line: int | None

    def __str__(self) -> str:
        return self.file if self.line is None else f"{self.file}:{self.line}"


class Matcher:
    """Finds the key's items in the engines' answers for one laid-out half."""

    def __init__(self, laid: LaidOut) -> None:
        self.laid = laid
        self.key = laid.key
        self.half_dir = CORPUS / laid.half
        self.roots = {
            row["id"]: row["root"]
            for row in laid.run("sources", "--json")["sources"]
            if row["root"]
        }
        self._digests: dict[str, str] = {}

    def loc(self, member: dict[str, Any]) -> Loc:
        """The corpus file and line a finding's member names."""
        line = member.get("line")
        path = member["path"]
        return Loc(self.corpus_file(path, member.get("project"), member.get("workspace")), line)

    def corpus_file(self, path: str, project: str | None, workspace: str | None) -> str:
        if path.startswith("/memories/"):
            _, _, scope, rest = [*path.split("/", 3), ""][:4]
            xum = self.key["layout"]["xum_home"]
            if scope == "global":
                return f"{xum}/memory/global/{rest}"
            if scope == "project" and project:
                original = self._original(project)
                return f"{xum}/memory/project/{project_dir_name(original)}/{rest}".rstrip("/")
            if scope in ("workspace", "session") and workspace:
                folder = "memory" if scope == "workspace" else "session-memory"
                return f"{xum}/sessions/{workspace}/{folder}/{rest}"
            return f"?{path}"
        source, _, rest = path.partition(":")
        name, _, rel = rest.partition(":")
        root = self.roots.get(f"{source}:{name}")
        if root is None:
            return f"?{path}"
        return self.laid.corpus_path(Path(root) / rel) or f"?{path}"

    def _original(self, laid_out: str) -> str:
        home = str(self.laid.home)
        user_home: str = self.key["layout"]["user_home"]
        return user_home + laid_out[len(home) :] if laid_out.startswith(home) else laid_out

    def _digest(self, file: str) -> str:
        if file not in self._digests:
            path = self.half_dir / file
            data = path.read_bytes() if path.is_file() else file.encode()
            self._digests[file] = hashlib.sha256(data).hexdigest()
        return self._digests[file]

    def same_text(self, one: str, other: str) -> bool:
        return one == other or self._digest(one) == self._digest(other)

    @staticmethod
    def _in_lines(line: int | None, lines: list[int] | None) -> bool:
        return lines is None or line is None or min(lines) <= line <= max(lines)

    def side_matches(self, loc: Loc, side: dict[str, Any]) -> bool:
        return self.same_text(loc.file, side["file"]) and self._in_lines(loc.line, side["lines"])

    def pair_matches(self, a: Loc, b: Loc, item: dict[str, Any]) -> bool:
        """Whether a found pair is the item's pair, either way round (an item of more than
        two places, `more`: any two of them)."""
        sides = [item["a"], item["b"], *item.get("more", [])]
        if a.line is None and b.line is None and _lines_of_one_text(self, sides):
            return False  # a file and its copy: no two of its lines are said to be the same
        return any(
            self.side_matches(a, one) and self.side_matches(b, two)
            for i, one in enumerate(sides)
            for j, two in enumerate(sides)
            if i != j
        )

    def single_matches(self, loc: Loc, item: dict[str, Any]) -> bool:
        """Whether one finding is at the item's place (its `alt` too): the same file, and the
        same line — or both about the whole file."""
        for place in (item["at"], item.get("alt")):
            if place is None or loc.file != place["file"]:
                continue
            lines = place["lines"]
            if lines is None and loc.line is None:
                return True
            if lines and loc.line is not None and min(lines) <= loc.line <= max(lines):
                return True
        return False

    def is_index_entry(self, a: Loc, b: Loc) -> bool:
        """Whether one of the pair is an index's line pointing at the other file (Claude
        Code's, Codex's or Gemini CLI's `MEMORY.md`): the index restating its topic."""
        for index, topic in ((a, b), (b, a)):
            if Path(index.file).name != "MEMORY.md" or index.line is None:
                continue
            path = self.half_dir / index.file
            lines = path.read_text(encoding="utf-8").splitlines() if path.is_file() else []
            if 0 < index.line <= len(lines) and Path(topic.file).name in lines[index.line - 1]:
                return True
        return False


def _lines_of_one_text(matcher: Matcher, sides: list[dict[str, Any]]) -> bool:
    """Whether every side is some lines of one file (or of copies of it)."""
    first = sides[0]["file"]
    return all(side["lines"] and matcher.same_text(side["file"], first) for side in sides)
