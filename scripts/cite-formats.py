#!/usr/bin/env python3
"""Rewrite the code's "SPEC §n" citations into docs/formats.md sections. Run once, then delete.

    .venv/bin/python scripts/cite-formats.py              # dry run: the diff it would apply
    .venv/bin/python scripts/cite-formats.py --write      # rewrite the files in place
    .venv/bin/python scripts/cite-formats.py --self-test  # check the rewriting on examples

The code cited `../shared/SPEC.md`, research notes outside the repository. Its sections
now live in docs/formats.md under new numbers: `NUMBER_MAP` maps each SPEC section to its
formats section, `FILE_MAP` refines that per file where a section became subsections, and
`PHRASES` rewords the few citations without a number. A citation in docs/ becomes
`formats.md §m`, anywhere else `docs/formats.md §m`.

Citations get longer, so a Python line pushed past the 100-character limit is wrapped
inside its comment or docstring: the overflow moves to the start of the next line of the
same paragraph, or onto a new line. Each rewritten Python file must still compile and hold
the same words in the same order (only line breaks may move), else it is not written.

Anything the script cannot map or wrap is listed with its place, and the exit status is 1;
everything else is still rewritten with --write.
"""

from __future__ import annotations

import argparse
import difflib
import io
import re
import subprocess
import sys
import tokenize
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
FORMATS = REPO / "docs" / "formats.md"
LIMIT = 100  # ruff's line-length (pyproject.toml)
SUFFIXES = (".py", ".md")

# SPEC's sections → docs/formats.md's.
NUMBER_MAP = {
    "1": "1",
    "2": "2",
    "3": "3",
    "4": "4",
    "5": "5",
    "5a": "6",
    "6": "7",
    "7": "8",
    "8": "9",
    "9": "10",
    "10": "11",
    "11": "12",
    "12": "13",
}

# Where one file's citations belong in a subsection (path relative to the repository).
_WRITER_DUMPS = {"9": "10.3"}
FILE_MAP: dict[str, dict[str, str]] = {
    "app/memtab/cli/traces_commands.py": _WRITER_DUMPS,
    "app/memtab/consolidation/guard.py": {"8": "9.1"},
    "app/memtab/consolidation/sweep.py": {"8": "9.5"},
    "app/memtab/llm/loop.py": _WRITER_DUMPS,
    "app/memtab/llm/settings.py": {"11": "12.3"},
    "app/memtab/sources/listing.py": {"4": "4.2"},
    "app/memtab/store/frontmatter.py": {"4": "4.1"},
    "app/memtab/store/paths.py": {"2": "2.3"},
    "app/memtab/store/registry.py": {"1": "2.1", "2": "2.2"},
    "app/memtab/traces/names.py": _WRITER_DUMPS,
    "app/memtab/traces/reader.py": _WRITER_DUMPS,
    "app/memtab/traces/schema.py": _WRITER_DUMPS,
    "app/memtab/transcripts/budget.py": {"9": "10.2"},
    "app/memtab/transcripts/claude.py": {"10": "11.3"},
    "app/memtab/transcripts/codex.py": {"10": "11.4"},
    "app/memtab/transcripts/mux.py": {"10": "11.2"},
    "app/memtab/transcripts/redact.py": {"11": "12.1"},
    "app/memtab/writer/config.py": {"1": "2.1"},
    "app/memtab/writer/dumps.py": _WRITER_DUMPS,
    "app/memtab/writer/policy.py": {"9": "10.1"},
    "app/memtab/writer/run.py": {"9": "10.2"},
    "app/memtab/writer/state.py": {"9": "10.1"},
    "app/memtab/writer/tools.py": {"9": "10.2"},
    "app/memtab/writer/traces.py": _WRITER_DUMPS,
    "tests/fixtures/traces/README.md": _WRITER_DUMPS,
    "tests/unit/consolidation/test_sweep.py": {"8": "9.5"},
    "tests/unit/llm/test_llm_key_hosts.py": {"11": "12.3"},
    "tests/unit/store/test_store_dirname.py": {"2": "2.3"},
    "tests/unit/store/test_store_frontmatter.py": {"4": "4.1"},
    "tests/unit/store/test_store_registry.py": {"1": "2.1", "2": "2.2"},
    "tests/unit/store/test_store_symlinks.py": {"3": "3.3"},
    "tests/unit/transcripts/test_redact_common_formats.py": {"11": "12.1"},
    "tests/unit/transcripts/test_transcript_redact.py": {"11": "12.1"},
    "tests/unit/writer/test_writer_policy.py": {"9": "10.1"},
    "tests/unit/writer/test_writer_redaction_paths.py": {"11": "12.2"},
}

# Citations without a section number; `{doc}` is the document's name as cited there.
PHRASES = {
    "SPEC's floor": "the minimum of {doc} §12.1",
    "the maintained rule set SPEC points to": "a maintained rule set",
    "`../shared/SPEC.md`": "`{doc}`",
    "../shared/SPEC.md": "{doc}",
}

_REF = r"§\w+"
_CITATION = re.compile(
    rf"(?P<docs>\(docs: )?\bSPEC (?P<refs>{_REF}(?:\s*(?:–|-|,|and)\s*{_REF})*)(?P<close>\))?"
)
_REFS = re.compile(_REF)
_SPEC = re.compile(r"\bSPEC\b")
_HEADING = re.compile(r"^#{2,3} (\d+(?:\.\d+)?)\.? ", re.MULTILINE)
_BULLET = re.compile(r"(?:[-*•]|\d+[.)]) ")
_DIVIDER = re.compile(r" -{4,}$")


@dataclass
class Outcome:
    """What rewriting one file gave: its new text, and what could not be done."""

    text: str
    citations: int = 0
    wrapped: int = 0
    problems: list[str] = field(default_factory=list)


# --- rewriting citations ------------------------------------------------------------------


def document_name(relative: str) -> str:
    """How a file cites the document: relative to docs/ for the docs themselves."""
    return "formats.md" if relative.startswith("docs/") else "docs/formats.md"


def target(section: str, relative: str) -> str | None:
    """The formats section of SPEC `section` as cited in `relative` (None: unknown)."""
    return FILE_MAP.get(relative, {}).get(section) or NUMBER_MAP.get(section)


def rewrite_citations(text: str, relative: str) -> Outcome:
    """`text` with every SPEC citation pointing at docs/formats.md."""
    outcome = Outcome(text)
    lines = text.split("\n")
    for number, line in enumerate(lines):
        if _SPEC.search(line) is not None:
            lines[number] = _rewrite_line(line, f"{relative}:{number + 1}", relative, outcome)
    outcome.text = "\n".join(lines)
    return outcome


def _rewrite_line(line: str, place: str, relative: str, outcome: Outcome) -> str:
    """One line's citations rewritten; what cannot be is noted at `place`."""
    doc = document_name(relative)
    original = line
    for phrase, replacement in PHRASES.items():
        if phrase in line:
            outcome.citations += line.count(phrase)
            line = line.replace(phrase, replacement.format(doc=doc))

    def cite(match: re.Match[str]) -> str:
        sections = [ref[1:] for ref in _REFS.findall(match["refs"])]
        mapped = [target(section, relative) for section in sections]
        unknown = [s for s, m in zip(sections, mapped, strict=True) if m is None]
        if unknown:
            outcome.problems.append(f"{place}: no formats section for SPEC §{unknown[0]}")
            return match[0]
        outcome.citations += 1
        refs = _REFS.sub(lambda ref: "§" + str(target(ref[0][1:], relative)), match["refs"])
        if len(set(mapped)) < len(mapped):  # two SPEC sections became one
            refs = ", ".join(f"§{m}" for m in dict.fromkeys(mapped))
        if match["docs"]:  # "(docs: SPEC §9)" → "(docs/formats.md §10.3)"
            return f"({doc} {refs}{match['close'] or ''}"
        return f"{doc} {refs}{match['close'] or ''}"

    line = _CITATION.sub(cite, line)
    divider = _DIVIDER.search(original)
    if divider is not None:  # `# --- usage (SPEC §6) -----`: keep the rule's width
        grown = len(line) - len(original)
        line = line[: len(line) - min(grown, len(divider[0]) - 4)]
    for leftover in _SPEC.finditer(line):
        if not line[leftover.end() :].startswith(" §"):  # unknown sections: noted above
            outcome.problems.append(f"{place}: a citation without a rule: {line.strip()!r}")
    return line


# --- wrapping Python lines ----------------------------------------------------------------


@dataclass(frozen=True)
class Prose:
    """Lines of a comment or a triple-quoted string (0-based, inclusive)."""

    kind: str  # "comment" or "string"
    first: int
    last: int


def prose_lines(source: str) -> dict[int, Prose]:
    """Which lines are prose: full-line comments and the lines of triple-quoted strings."""
    found: dict[int, Prose] = {}
    lines = source.split("\n")
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        row, column = token.start[0] - 1, token.start[1]
        if token.type == tokenize.COMMENT and not lines[row][:column].strip():
            found[row] = Prose("comment", row, row)
        elif token.type == tokenize.STRING and token.string.lstrip("rRbBuU")[:3] in ('"""', "'''"):
            prose = Prose("string", row, token.end[0] - 1)
            for inside in range(prose.first, prose.last + 1):
                found[inside] = prose
    return found


def _layout(line: str, prose: Prose, row: int) -> tuple[int, str]:
    """Where a prose line's words start, and the prefix a continuation of it takes."""
    indent = line[: len(line) - len(line.lstrip())]
    if prose.kind == "comment":
        marker = re.match(r"\s*#+ ?", line)
        assert marker is not None
        start = marker.end()
        prefix = marker[0]
    elif row == prose.first:
        opening = re.search(r"[rRbBuU]*('''|\"\"\")", line)
        assert opening is not None
        start, prefix = opening.end(), indent
    else:
        start, prefix = len(indent), indent
    bullet = _BULLET.match(line, start)
    if bullet is not None:
        prefix += " " * (bullet.end() - start)
    return start, prefix


def _continues(
    lines: list[str], row: int, prose: Prose, prefix: str, prose_of: dict[int, Prose]
) -> bool:
    """Whether line `row` continues the paragraph a line of `prose` with `prefix` is in:
    the same docstring, or the next full-line comment, with the same prefix."""
    if row >= len(lines) or not lines[row].startswith(prefix):
        return False
    if prose.kind == "string" and row > prose.last:
        return False
    if prose.kind == "comment" and getattr(prose_of.get(row), "kind", None) != "comment":
        return False
    rest = lines[row][len(prefix) :]
    if not rest.strip() or rest[0].isspace() or _BULLET.match(rest):
        return False
    return rest.strip() not in ('"""', "'''")


def _break_at(line: str, start: int) -> int | None:
    """The last space a line can break at within LIMIT: after some words, and not inside
    a citation (`docs/formats.md §5` stays whole)."""
    cut = line.rfind(" ", start, LIMIT + 1)
    while cut > start and line[:cut].endswith("formats.md"):
        cut = line.rfind(" ", start, cut)
    return cut if cut > start and line[start:cut].strip() else None


def wrap_line(lines: list[str], row: int, prose_of: dict[int, Prose]) -> bool:
    """Bring line `row` within LIMIT by moving its last words to the next line of its
    paragraph (or a new line); False when it is not prose or has no room to break."""
    while len(lines[row]) > LIMIT:
        prose = prose_of.get(row)
        if prose is None:
            return False
        line = lines[row]
        start, prefix = _layout(line, prose, row)
        cut = _break_at(line, start)
        if cut is None:
            return False
        head, overflow = line[:cut].rstrip(), line[cut + 1 :].strip()
        closes_string = prose.kind == "string" and row == prose.last
        following = row + 1
        if not closes_string and _continues(lines, following, prose, prefix, prose_of):
            lines[row] = head
            lines[following] = f"{prefix}{overflow} {lines[following][len(prefix) :]}"
            row = following
            continue
        lines[row] = head
        lines.insert(following, prefix + overflow)
        return True
    return True


def wrap_python(text: str, original: str, relative: str, outcome: Outcome) -> str:
    """`text` with every line over LIMIT that is not in `original` wrapped (problems noted
    in `outcome`): a long line the file already had is left to whoever allowed it."""
    lines = text.split("\n")
    refused = set(original.split("\n"))
    while True:
        long_rows = [
            row for row, line in enumerate(lines) if len(line) > LIMIT and line not in refused
        ]
        if not long_rows:
            return "\n".join(lines)
        row = long_rows[0]
        before = lines[row]
        if wrap_line(lines, row, prose_lines("\n".join(lines))):
            outcome.wrapped += 1
        else:
            refused.add(before)
            outcome.problems.append(
                f"{relative}:{row + 1}: {len(before)} characters; break the line by hand"
            )


def words(source: str) -> list[str]:
    """The words of a Python source, whatever its line breaks (to check a wrap lost none)."""
    found: list[str] = []
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.COMMENT:
            found.extend(token.string.lstrip("#").split())
        elif token.type not in (tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT):
            found.extend(token.string.split())
    return found


def rewrite(text: str, relative: str) -> Outcome:
    """One file, rewritten and (for Python) wrapped and checked."""
    outcome = rewrite_citations(text, relative)
    if relative.endswith(".py") and outcome.text != text:
        cited = outcome.text
        outcome.text = wrap_python(cited, text, relative, outcome)
        try:
            compile(outcome.text, relative, "exec")
            same_words = words(outcome.text) == words(cited)
        except (SyntaxError, tokenize.TokenError) as error:
            same_words = False
            outcome.problems.append(f"{relative}: no longer compiles ({error})")
        if not same_words:
            outcome.problems.append(f"{relative}: wrapping changed its words; left as it was")
            outcome.text = text
    return outcome


# --- the repository -----------------------------------------------------------------------


def formats_sections() -> set[str]:
    """The section numbers docs/formats.md has."""
    return set(_HEADING.findall(FORMATS.read_text(encoding="utf-8")))


def missing_sections() -> list[str]:
    """Sections the maps point to that docs/formats.md lacks."""
    wanted = set(NUMBER_MAP.values()) | {s for m in FILE_MAP.values() for s in m.values()}
    wanted |= {"12.1"}  # PHRASES
    return sorted(wanted - formats_sections())


def candidate_files() -> list[str]:
    """Tracked files that may cite SPEC: not this script, not formats.md, and not the
    shared fixtures (a byte-for-byte copy of other people's data)."""
    listed = subprocess.run(
        ["git", "ls-files", "-z"], cwd=REPO, check=True, capture_output=True, text=True
    ).stdout.split("\0")
    skip = {"scripts/cite-formats.py", "docs/formats.md"}
    return sorted(
        p
        for p in listed
        if p.endswith(SUFFIXES) and p not in skip and not p.startswith("tests/fixtures/shared/")
    )


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--write", action="store_true", help="rewrite the files in place")
    parser.add_argument("--self-test", action="store_true", help="check the rewriting")
    args = parser.parse_args(argv)
    if args.self_test:
        return self_test()
    gaps = missing_sections()
    if gaps:
        print(f"docs/formats.md has no section {', '.join(gaps)}; fix the maps", file=sys.stderr)
        return 1
    problems: list[str] = []
    files = citations = wrapped = 0
    for relative in candidate_files():
        path = REPO / relative
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        if _SPEC.search(text) is None:
            continue
        outcome = rewrite(text, relative)
        problems.extend(outcome.problems)
        if outcome.text == text:
            continue
        files += 1
        citations += outcome.citations
        wrapped += outcome.wrapped
        if args.write:
            path.write_text(outcome.text, encoding="utf-8")
        else:
            sys.stdout.writelines(
                difflib.unified_diff(
                    text.splitlines(keepends=True),
                    outcome.text.splitlines(keepends=True),
                    f"a/{relative}",
                    f"b/{relative}",
                )
            )
    verb = "rewrote" if args.write else "would rewrite"
    print(
        f"{verb} {citations} citation(s) in {files} file(s), wrapping {wrapped} line(s)",
        file=sys.stderr,
    )
    for problem in problems:
        print(f"needs a hand: {problem}", file=sys.stderr)
    return 1 if problems else 0


# --- self-test ----------------------------------------------------------------------------


def self_test() -> int:
    """Check the rewriting and the wrapping on small examples; 0 when all hold."""
    failures: list[str] = []

    def check(name: str, got: object, expected: object) -> None:
        if got != expected:
            failures.append(f"{name}: got {got!r}, expected {expected!r}")

    def cited(line: str, relative: str = "app/memtab/x.py") -> str:
        return rewrite_citations(line, relative).text

    check("number", cited("# paths (SPEC §3)."), "# paths (docs/formats.md §3).")
    check("renumbered", cited("SPEC §5a, SPEC §6"), "docs/formats.md §6, docs/formats.md §7")
    check("range", cited("(SPEC §2–§3)"), "(docs/formats.md §2–§3)")
    check("list", cited("(SPEC §8, §9)"), "(docs/formats.md §9, §10)")
    check(
        "per file",
        cited("(SPEC §1, §2)", "app/memtab/store/registry.py"),
        "(docs/formats.md §2.1, §2.2)",
    )
    check("docs prefix", cited("format (docs: SPEC §9)."), "format (docs/formats.md §10).")
    check("in docs/", cited("home (SPEC §1)", "docs/ARCHITECTURE.md"), "home (formats.md §1)")
    check("possessive", cited("SPEC §11's minimum"), "docs/formats.md §12's minimum")
    check("steps", cited("SPEC §8 steps 1–5"), "docs/formats.md §9 steps 1–5")
    check("phrase", cited("keys, SPEC's floor)"), "keys, the minimum of docs/formats.md §12.1)")
    check("no citation", cited("INSPECT SPECPATH"), "INSPECT SPECPATH")
    check("same target once", cited("(SPEC §1, §1)"), "(docs/formats.md §1)")
    unknown = rewrite_citations("# SPEC §99 and SPEC alone", "a.py")
    check("unknown kept", unknown.text, "# SPEC §99 and SPEC alone")
    check("unknown reported", len(unknown.problems), 2)

    word = "word " * 18
    docstring = (
        "def f() -> None:\n"
        f'    """Short summary that is long enough to overflow once it cites SPEC §11 {word}.\n'
        "\n"
        f"    Body {word}SPEC §9 and more\n"
        "    words on the next line.\n"
        "    - a bullet that needs wrapping once its citation of SPEC §8 grows longer"
        " and longer, z\n"
        '    """\n'
        f"    # a comment that cites SPEC §7 and is long enough to wrap {word}\n"
        "    # and continues here.\n"
        "    return None\n"
    )
    done = rewrite(docstring, "app/memtab/x.py")
    check("python problems", done.problems, [])
    check("fits", max(len(line) for line in done.text.split("\n")) <= LIMIT, True)
    check("same words", words(done.text), words(rewrite_citations(docstring, "a.py").text))
    check("bullet continuation", "\n      z\n" in done.text, True)
    check("comment continuation", "    # and continues here." not in done.text, True)
    check("compiles", compile(done.text, "x.py", "exec") is not None, True)
    closing = 'x = 1\n\n\ndef g() -> None:\n    """' + "w " * 40 + 'SPEC §7."""\n    return None\n'
    wrapped_close = rewrite(closing, "app/memtab/y.py")
    check("closing quotes move down", wrapped_close.text.split("\n")[5].endswith('."""'), True)
    code = "x = 'SPEC §7'  # " + "y" * 90 + "\n"
    check("code line reported", len(rewrite(code, "app/memtab/z.py").problems), 1)
    check("maps point at formats.md", missing_sections(), [])
    divider = "    # --- usage (SPEC §6) " + "-" * 70
    check("divider keeps its width", len(cited(divider)), len(divider))
    check("divider", cited(divider).startswith("    # --- usage (docs/formats.md §7) ---"), True)
    summary = '"""' + "x" * 80 + ' (SPEC §8).\n"""\n'
    check(
        "citation kept whole", rewrite(summary, "a.py").text.split("\n")[1], "(docs/formats.md §9)."
    )

    for failure in failures:
        print(f"FAIL {failure}", file=sys.stderr)
    print(f"self-test: {'ok' if not failures else f'{len(failures)} failed'}", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
