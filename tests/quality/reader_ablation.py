"""Issue 94's "every English reader earns its place": each reader switched off (patched to find
nothing), the scorecard's engines run on a half as `trust_scorecard` runs them, and what the
reader alone added reported — right findings (matched by the key) and false ones (a near miss
or a negative the key names; unlabelled findings apart) — per engine.

    .venv/bin/python -m tests.quality.reader_ablation --half H [--reader NAME ...] [--json]

A reader is a function (or a redaction rule) named once in `READERS`, switched off where its
engine calls it: the engines run as the user's `memtab` does, in a process of their own, so
the switch is made in that process before the command starts (`run_switched_off`). A reader
that adds a right finding it alone finds shows it here; one whose finding another reader
also finds adds nothing alone (switch both off with two `--reader`s to see it).
A "kept out" finding is one the reader's switching off lets in: a reader that keeps a false
finding out earns its place too.
"""

from __future__ import annotations

import argparse
import copy
import importlib
import json
import re
import sys
import tempfile
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from unittest import mock

from tests.quality import trust_homes
from tests.quality.trust_homes import HALVES, lay_out
from tests.quality.trust_matching import Matcher
from tests.quality.trust_scorecard import CANDIDATES, ENGINES

from memtab.trust.reading.scopes import Scope

_REPOSITORY = Path(__file__).resolve().parents[2]
_WRITER_SESSIONS = Path(__file__).resolve().parent / "writer_sessions"


@dataclass(frozen=True)
class Reader:
    """One reader: where its engine calls it (`patches`: module, name, what it gives when it
    finds nothing) or the redaction rules it is (`rules`), and the engines it can change."""

    name: str
    engines: tuple[str, ...]
    patches: tuple[tuple[str, str, object], ...] = ()
    rules: tuple[str, ...] = ()


_CLAIMS = "memtab.trust.claims"
_TRUST = ("duplicates", "contradictions")
_CHECK = "memtab.check.engine"
_LEAKS = "memtab.trust.leaks.engine"
READERS: tuple[Reader, ...] = (
    Reader("reading/ports", (*_TRUST, "check"), ((_CLAIMS, "ports", ()),)),
    Reader("reading/versions", (*_TRUST, "check"), ((_CLAIMS, "versions", ()),)),
    Reader("reading/settings", (*_TRUST, "check"), ((_CLAIMS, "settings", ()),)),
    Reader("reading/tools", _TRUST, ((_CLAIMS, "tools", ()), (_CLAIMS, "moved_tools", ()))),
    Reader("reading/named", _TRUST, ((_CLAIMS, "named", ()),)),
    Reader("reading/attached", _TRUST, ((_CLAIMS, "structured", ()), (_CLAIMS, "said", ()))),
    Reader("located/commands-paths", _TRUST, ((_CLAIMS, "command_or_path", ()),)),
    Reader("located/labels", _TRUST, ((_CLAIMS, "value_of", None),)),
    Reader("reading/scopes", _TRUST, ((_CLAIMS, "scope_of", Scope(frozenset(), "", False)),)),
    Reader("polarity/rules", _TRUST, ((_CLAIMS, "_polarity", ()),)),
    Reader("leaks/said_owners", ("leaks",), ((_LEAKS, "said_owners", {}),)),
    Reader("leaks/project_hosts", ("leaks",), ((_LEAKS, "project_hosts", {}),)),
    Reader("leaks/checkout_places", ("leaks",), ((_LEAKS, "evidence", {}),)),
    Reader("leaks/places_in", ("leaks",), ((_LEAKS, "places_in", []),)),
    Reader("leaks/named_owner", ("leaks",), ((_LEAKS, "_named_owner", False),)),
    Reader(
        "duplicates/boilerplate",
        ("duplicates",),
        (("memtab.trust.duplicates.engine", "boilerplate_of", frozenset()),),
    ),
    Reader("redact/secret_in_prose", ("leaks",), rules=("secret_in_prose",)),
    Reader("redact/short_password", ("leaks",), rules=("short_password",)),
    Reader("redact/password_then_value", ("leaks",), rules=("password_then_value",)),
    Reader("redact/token_then_value", ("leaks",), rules=("token_then_value",)),
    Reader("redact/minio_client_secret", ("leaks",), rules=("minio_client_secret",)),
    Reader("redact/bundler_credentials", ("leaks",), rules=("bundler_credentials",)),
    Reader("redact/named_key", ("leaks",), rules=("named_key",)),
    Reader("redact/login_and_password", ("leaks",), rules=("login_and_password",)),
    Reader("check/paths", ("check",), ((_CHECK, "named_paths", ()),)),
    Reader("check/runnable", ("check",), ((_CHECK, "run_problems", ()),)),
    Reader("check/facts", ("check",), ((_CHECK, "facts_of", []),)),
    Reader("check/code_facts", ("check",), ((_CHECK, "code_disagreements", []),)),
    Reader(
        "check/codex_summary",
        ("check",),
        (("memtab.check.rules.codex_summary", "missing_version_line", None),),
    ),
    Reader(
        "check/links", ("check",), ((_CHECK, "broken_links", ()), (_CHECK, "broken_imports", ()))
    ),
    Reader("check/hidden_text", ("check",), ((_CHECK, "hidden_text_findings", []),)),
    Reader(
        "check/recall", ("check",), ((_CHECK, "recall_found", ()), (_CHECK, "index_findings", []))
    ),
)
_BY_NAME = {reader.name: reader for reader in READERS}
_NEVER = re.compile(r"(?!)")


def _finding_nothing(nothing: object) -> Callable[..., object]:
    return lambda *_args, **_kwargs: copy.copy(nothing)  # a list its caller may extend


def switch_off(names: Iterable[str]) -> None:
    """Switch the named readers off in this process, each in the module that calls it (a name
    imported with `from … import` is the importer's own: patched there, it is what its calls
    find, whenever the engines were imported)."""
    for reader in (_BY_NAME[name] for name in names):
        for module, attribute, nothing in reader.patches:
            loaded = importlib.import_module(module)
            if not hasattr(loaded, attribute):
                raise AttributeError(f"{reader.name}: {module} has no {attribute}")
            setattr(loaded, attribute, _finding_nothing(nothing))
        if reader.rules:
            _rules_off(reader.rules).__enter__()  # for the process's life


@contextmanager
def _rules_off(names: Iterable[str]) -> Iterator[None]:
    """The named redaction rules find nothing while inside (restored after)."""
    rules = importlib.import_module("memtab.redact.rules")
    off = [rule for rule in rules.RULES if rule.name in set(names)]
    patterns = [rule.pattern for rule in off]
    for rule in off:
        object.__setattr__(rule, "pattern", _NEVER)
    try:
        yield
    finally:
        for rule, pattern in zip(off, patterns, strict=True):
            object.__setattr__(rule, "pattern", pattern)


def _strings(value: object) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


def transcript_texts() -> Iterator[tuple[str, str]]:
    """Every text of the writer's sessions (tests/quality/writer_sessions, every batch): each
    string of each JSON line, as the writer reads it before sending it to a model."""
    for path in sorted(_WRITER_SESSIONS.rglob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            for text in _strings(json.loads(line)):
                yield str(path.relative_to(_WRITER_SESSIONS)), text


def memory_texts(halves: Iterable[str]) -> Iterator[tuple[str, str]]:
    """Every text file of the halves' homes, whole, as a judge is sent a memory's lines."""
    for half in halves:
        home = trust_homes.CORPUS / half / "home"
        for path in sorted(p for p in home.rglob("*") if p.is_file()):
            if path.suffix in trust_homes.TEXT_SUFFIXES:
                yield f"{half}/{path.relative_to(home)}", path.read_text(errors="replace")


def hidden_only_by(reader: Reader, texts: Iterable[tuple[str, str]]) -> list[str]:
    """Where a redaction reader alone keeps a secret from a model: the texts `redact_outgoing`
    hides more of with the reader's rules than without them."""
    from memtab.redact import redact_outgoing

    shown = [(place, text, redact_outgoing(text)) for place, text in texts]
    with _rules_off(reader.rules):
        return [
            f"{place}: {text[:40]!r}"
            for place, text, hidden in shown
            if redact_outgoing(text) != hidden
        ]


def run_switched_off(names: Sequence[str], argv: list[str]) -> int:
    """`memtab ARGV` with the named readers switched off (the shim `_command` writes runs it)."""
    switch_off(names)
    from memtab.launch import main

    sys.argv = ["memtab", *argv]
    return int(main() or 0)


def _command(folder: Path, names: Sequence[str]) -> str:
    """An executable that runs `memtab` with `names` switched off, in place of the venv's."""
    shim = folder / "memtab-switched-off"
    shim.write_text(
        f"#!{sys.executable}\nimport sys\nsys.path.insert(0, {str(_REPOSITORY)!r})\n"
        "from tests.quality.reader_ablation import run_switched_off\n"
        f"sys.exit(run_switched_off({list(names)!r}, sys.argv[1:]))\n",
        encoding="utf-8",
    )
    shim.chmod(0o755)
    return str(shim)


def _found(part: dict[str, Any]) -> dict[str, set[str]]:
    """What a scored engine found: right (the key's item ids), false (near misses and negatives
    the key names; for duplicates a group of a contradicting pair too), unlabelled."""
    missed = set(part["missed"])
    false = {f"near miss {i}" for i in part.get("nearMissesFlagged", [])}
    false |= {f"negative {' '.join(row)}" for row in part.get("negativesFlagged", [])}
    false |= {f"contradicting pair grouped {' '.join(row)}" for row in part.get("polarity", [])}
    unlabelled = {" ".join(row) for row in part.get("unlabelled", [])}
    unlabelled |= {"group " + " ".join(row) for row in part.get("unlabelledGroups", [])}
    return {"missed": missed, "false": false, "unlabelled": unlabelled}


def findings(half: str, switched_off: Sequence[str], engines: Iterable[str]) -> dict[str, Any]:
    """Each engine's findings on the half (`_found`), the readers named switched off, and its
    candidates apart (`trust_scorecard.CANDIDATES`: not findings, but what a model is asked)."""
    wanted = set(engines)
    with tempfile.TemporaryDirectory(prefix=f"ablation-{half}-") as folder:
        laid = lay_out(half, Path(folder) / "laid")
        matcher = Matcher(laid)
        command = _command(Path(folder), switched_off)
        found: dict[str, Any] = {}
        with mock.patch.object(trust_homes, "memtab_command", lambda: command):
            for engine, score, empty in ENGINES:
                if engine in wanted:
                    answer = laid.run(engine, "--json")
                    if answer.get("error"):
                        raise RuntimeError(f"{engine} failed: {answer['error']}")
                    found[engine] = _found(score(matcher, answer))
                    if engine in CANDIDATES:  # what reaches the person's model
                        shown = {empty: answer.get("candidates", [])}
                        found[CANDIDATES[engine]] = _found(score(matcher, shown))
        return found


def added(before: dict[str, Any], after: dict[str, Any]) -> dict[str, dict[str, list[str]]]:
    """What the readers switched off in `after` added to `before`, per engine: right findings
    lost, false and unlabelled findings gone (`keptOut*`: the ones they kept out, now in)."""
    report: dict[str, dict[str, list[str]]] = {}
    for engine, was in before.items():
        now = after[engine]
        report[engine] = {
            "right": sorted(now["missed"] - was["missed"]),
            "false": sorted(was["false"] - now["false"]),
            "unlabelled": sorted(was["unlabelled"] - now["unlabelled"]),
            "keptOutRight": sorted(was["missed"] - now["missed"]),
            "keptOutFalse": sorted(now["false"] - was["false"]),
            "keptOutUnlabelled": sorted(now["unlabelled"] - was["unlabelled"]),
        }
    return report


def ablate(half: str, batches: Sequence[Sequence[str]]) -> dict[str, Any]:
    """Every batch of readers switched off together on the half, against all on."""
    engines = {engine for batch in batches for name in batch for engine in _BY_NAME[name].engines}
    engines = engines or {engine for engine, _score, _empty in ENGINES}
    baseline = findings(half, (), engines)
    rows: dict[str, Any] = {}
    for batch in batches:
        mine = {engine for name in batch for engine in _BY_NAME[name].engines}
        after = findings(half, batch, mine)
        rows["+".join(batch)] = added({e: baseline[e] for e in after}, after)
    every = {
        engine: {label: sorted(found) for label, found in part.items()}
        for engine, part in baseline.items()
    }  # what is found with every reader on: the before and after of a deletion
    return {"half": half, "allOn": every, "readers": rows}


def _counts(report: dict[str, list[str]]) -> str:
    labels = ("right", "false", "unlabelled", "keptOutRight", "keptOutFalse", "keptOutUnlabelled")
    return " · ".join(f"{label} {len(report[label])}" for label in labels if report[label])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--half", choices=HALVES)
    parser.add_argument(
        "--transcripts",
        action="store_true",
        help="instead: what each redaction reader alone hides from a model of the writer's "
        "sessions (tests/quality/writer_sessions) and of every half's memories",
    )
    parser.add_argument(
        "--reader",
        action="append",
        help="a reader to switch off alone (repeat; '+'-join names to switch off together; "
        "'none': only what every engine finds, all on); default: each reader of READERS alone",
    )
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    args = parser.parse_args(argv)
    if args.transcripts:
        for source, texts in (
            ("the writer's sessions", list(transcript_texts())),
            ("the halves' memories", list(memory_texts(HALVES))),
        ):
            for reader in (r for r in READERS if r.rules):
                hidden = hidden_only_by(reader, texts)
                print(
                    f"{reader.name}: alone hides a secret in {len(hidden)} of {len(texts)} "
                    f"texts of {source}"
                )
                print("".join(f"    {row}\n" for row in hidden), end="")
        return 0
    if args.half is None:
        parser.error("--half or --transcripts")
    batches = [name.split("+") for name in (args.reader or [r.name for r in READERS])]
    batches = [] if batches == [["none"]] else batches
    unknown = sorted({name for batch in batches for name in batch} - set(_BY_NAME))
    if unknown:
        parser.error(f"no such reader: {', '.join(unknown)} (READERS names them)")
    report = ablate(args.half, batches)
    if args.json:
        print(json.dumps(report, indent=1))
        return 0
    print(f"readers switched off one at a time, {args.half} half (what each alone added)")
    for name, engines in report["readers"].items():
        shown = [f"{engine}: {_counts(part)}" for engine, part in engines.items() if _counts(part)]
        print(f"  {name}: {'; '.join(shown) or 'nothing'}")
        for engine, part in engines.items():
            for label, rows in part.items():
                for row in rows:
                    print(f"      {engine} {label}: {row}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
