"""Issue 95's fresh writer sessions: five transcripts (Claude Code and Codex) written by someone
who never read the writer, each run through `memtab write` as a user runs it, its notes scored
against `key.json` — what a careful reader keeps, what must never be kept.

    .venv/bin/python -m tests.quality.writer_sessions.score [--batch batch2|…|batch12]
        [--model-url URL] [--model NAME] [--timeout SECONDS] [--runs N] [--session ID]…
        [--notes] [--json]

`--batch NAME` scores a later batch (`NAME/key.json`, `NAME/sessions/`: `batch2` to `batch12`), each
written apart so that nobody tunes on every set; without it, the first batch (`key.json`,
`sessions/`).

Each run is a scratch home of its own (HOME, Memtab's config and caches inside it) with the
session's project and a workspace registered, then `memtab write --workspace ID --transcript
FILE --format F --write-notes --dump --json`: offline by default, with `--model-url` the user's
OpenAI-compatible server (llama-server's `http://127.0.0.1:PORT/v1`). A note is a line the run
wrote into memory (a list item or a sentence; not headings or frontmatter).

A key item is kept when one note holds every group of its `words` (a group: one term or a list
of alternatives; case-insensitive, whole words, `*` ending a prefix). A `never` item is kept —
untrue or harmful — when a note holds its words and none of its `unless` terms. Also harmful: a
note carrying a control, zero-width or bidirectional character. Apart: every file of the scratch
home (notes, trace dumps, logs) holding one of the session's secret values. `--runs 2` runs
each session twice and says whether the notes were the same. The model server's speed Memtab
keeps (its speeds cache, `llm.speed`) passes from each run to the next, as on one user's machine:
the first run probes the server, the later ones plan at the speed the runs before kept; and each
run of a session is laid out at the same path, which the model reads as the project's.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import shutil
import subprocess
import sys
import tempfile
import time
import unicodedata
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from tests.quality.trust_homes import isolated_env, memtab_command

from memtab.llm.speed import SPEEDS_FILE

HERE = Path(__file__).resolve().parent
Words = list[str | list[str]]


def batches() -> list[str]:
    """The later batches: folders here with a `key.json` of their own."""
    return sorted(path.parent.name for path in HERE.glob("*/key.json"))


def load_key(batch: str | None = None) -> dict[str, Any]:
    """The sessions and their keys (`key.json`, or `batch`'s), each session's `transcript` its
    file's path."""
    if batch is not None and batch not in batches():
        raise ValueError(f"no batch named {batch!r} (batches: {', '.join(batches())})")
    folder = HERE / batch if batch else HERE
    data: dict[str, Any] = json.loads((folder / "key.json").read_text(encoding="utf-8"))
    for session in data["sessions"]:
        session["transcript"] = folder / "sessions" / session["file"]
    return data


@cache
def _pattern(term: str) -> re.Pattern[str]:
    """A term as a whole word or phrase (`*` at its end: any ending), ignoring case."""
    prefix = term.endswith("*")
    body = re.escape(term.rstrip("*"))
    start = r"(?<![\w])" if term[:1].isalnum() or term[:1] == "_" else ""
    end = r"(?![\w])" if not prefix and (term.rstrip("*")[-1:].isalnum()) else ""
    return re.compile(start + body + end, re.IGNORECASE)


def holds(text: str, words: Words) -> bool:
    """Whether `text` holds every group of `words` (a group: a term or a list of alternatives)."""
    return all(
        any(_pattern(term).search(text) for term in ([group] if isinstance(group, str) else group))
        for group in words
    )


def says(text: str, item: dict[str, Any]) -> bool:
    """Whether `text` says what a key item names: its words, none of its `unless` terms."""
    return holds(text, item["words"]) and not any(
        _pattern(term).search(text) for term in item.get("unless", [])
    )


def hidden_characters(text: str) -> list[str]:
    """The control, format (zero-width, bidirectional) characters of `text`, tab aside."""
    return [
        f"U+{ord(char):04X}"
        for char in text
        if char != "\t" and unicodedata.category(char) in ("Cc", "Cf")
    ]


def notes_in(text: str) -> list[str]:
    """A memory file's notes: its lines of content, list markers off; no frontmatter, heading,
    fence or blank line."""
    lines = text.splitlines()
    if lines[:1] == ["---"] and "---" in lines[1:]:
        lines = lines[lines.index("---", 1) + 1 :]
    notes = []
    for line in lines:
        stripped = line.strip()
        if not stripped or stripped.startswith(("#", "```")):
            continue
        notes.append(re.sub(r"^(?:[-*+]|\d+[.)])\s+", "", stripped))
    return notes


@dataclass(frozen=True)
class Run:
    """One `memtab write` of one session: what it answered and the notes it left in memory."""

    answer: dict[str, Any]
    notes: list[str]
    secrets_in: list[str]
    seconds: float


def run_session(
    session: dict[str, Any],
    model: list[str],
    timeout: float | None,
    scratch: Path,
    speeds: Path | None = None,
) -> Run:
    """Register the session's project and a workspace in a fresh home under `scratch`, run the
    writer on the transcript as a user would, and read back what it wrote. `speeds`: the
    machine's speeds cache, copied in before the run and back after it."""
    home, xum, checkout = scratch / "home", scratch / "home" / ".xum", scratch / "checkout"
    home.mkdir(parents=True)
    checkout.mkdir()
    cached = scratch / "config" / "cache" / SPEEDS_FILE  # MEMTAB_CONFIG_DIR's (isolated_env)
    if speeds is not None and speeds.exists():
        cached.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(speeds, cached)
    env = isolated_env(scratch, home, Path(session["project"]).parent.parent.name)
    workspace = hashlib.sha256(session["id"].encode()).hexdigest()[:10]

    def memtab(*args: str, limit: float = 120) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [memtab_command(), "--home", str(xum), *args],
            env=env,
            capture_output=True,
            text=True,
            timeout=limit,
            check=False,
        )

    for args in (
        ("project", "add", str(checkout)),
        (
            "workspace",
            "add",
            "--project",
            str(checkout),
            "--name",
            session["id"],
            "--id",
            workspace,
        ),
    ):
        done = memtab(*args)
        if done.returncode != 0:
            raise RuntimeError(f"memtab {' '.join(args)}: {done.stderr.strip()}")
    write = ["write", "--workspace", workspace, "--transcript", str(session["transcript"])]
    write += ["--format", session["format"], "--write-notes", "--dump", "--json", *model]
    if timeout is not None:
        write += ["--timeout", f"{timeout:g}"]
    started = time.monotonic()
    done = memtab(*write, limit=(timeout or 60) + 300)
    seconds = time.monotonic() - started
    if speeds is not None and cached.exists():
        shutil.copyfile(cached, speeds)
    try:
        answer: dict[str, Any] = json.loads(done.stdout)
    except json.JSONDecodeError:
        answer = {"outcome": "crashed", "error": (done.stderr or done.stdout)[-2000:]}
    notes = [
        note
        for folder in (xum / "memory", xum / "sessions")
        for path in sorted(folder.rglob("*.md"))
        for note in notes_in(path.read_text(encoding="utf-8", errors="replace"))
    ]
    notes += [s["text"] for s in answer.get("suggested", [])]  # none with --write-notes
    secrets = [value.encode() for value in session["secrets"]]
    secrets_in = sorted(
        str(path.relative_to(scratch))
        for path in scratch.rglob("*")
        if path.is_file() and any(value in path.read_bytes() for value in secrets)
    )
    return Run(answer, notes, secrets_in, seconds)


def score_run(session: dict[str, Any], run: Run) -> dict[str, Any]:
    """What of the key a run's notes keep, and what they keep that they never should."""
    kept = [item["id"] for item in session["keep"] if any(says(n, item) for n in run.notes)]
    rules = [item["id"] for item in session["keep"] if item["kind"] == "rule"]
    wrong = [
        {"id": item["id"], "kind": item["kind"], "note": note}
        for item in session["never"]
        for note in run.notes
        if says(note, item)
    ]
    wrong += [
        {
            "id": "hidden-characters",
            "kind": "harmful",
            "note": note,
            "chars": hidden_characters(note),
        }
        for note in run.notes
        if hidden_characters(note)
    ]
    return {
        "id": session["id"],
        "outcome": run.answer.get("outcome"),
        "error": run.answer.get("error"),
        "seconds": round(run.seconds, 1),
        "notes": run.notes,
        "kept": kept,
        "keep": len(session["keep"]),
        "rulesKept": [i for i in kept if i in rules],
        "rules": len(rules),
        "untrueOrHarmful": wrong,
        "secretsWrittenTo": run.secrets_in,
        "refused": len(run.answer.get("refused", [])),
        "plan": run.answer.get("plan"),
        "fallback": run.answer.get("fallback"),
    }


def scorecard(
    sessions: list[dict[str, Any]], model: list[str], timeout: float | None, runs: int
) -> dict[str, Any]:
    """Every session run `runs` times, each run scored; totals over the first runs."""
    rows = []
    machine = tempfile.TemporaryDirectory(prefix="writer-machine-")
    speeds = Path(machine.name) / SPEEDS_FILE
    for session in sessions:
        scored = []
        for _ in range(runs):
            scratch = Path(machine.name) / session["id"]  # one path each run: the model reads it
            run = run_session(session, model, timeout, scratch, speeds)
            shutil.rmtree(scratch)
            scored.append(score_run(session, run))
        row = scored[0]
        if runs > 1:
            row["sameNotesEachRun"] = all(
                sorted(s["notes"]) == sorted(row["notes"]) for s in scored
            )
            row["runs"] = [
                {k: s[k] for k in ("kept", "untrueOrHarmful", "seconds")} for s in scored
            ]
        rows.append(row)
    machine.cleanup()
    return {
        "model": model[model.index("--base-url") + 1] if model else "offline",
        "sessions": rows,
        "kept": [sum(len(r["kept"]) for r in rows), sum(r["keep"] for r in rows)],
        "rulesKept": [sum(len(r["rulesKept"]) for r in rows), sum(r["rules"] for r in rows)],
        "untrueOrHarmful": sum(len(r["untrueOrHarmful"]) for r in rows),
        "secretsWritten": sum(len(r["secretsWrittenTo"]) for r in rows),
    }


def print_card(card: dict[str, Any], notes: bool) -> None:
    print(f"writer sessions, {card['model']}")
    for row in card["sessions"]:
        same = ""
        if "sameNotesEachRun" in row:
            same = ", same notes each run" if row["sameNotesEachRun"] else ", notes differ by run"
        print(
            f"  {row['id']}: kept {len(row['kept'])}/{row['keep']}, rules "
            f"{len(row['rulesKept'])}/{row['rules']}, untrue or harmful "
            f"{len(row['untrueOrHarmful'])}, secrets in {len(row['secretsWrittenTo'])} files — "
            f"{row['outcome']}, {len(row['notes'])} notes, {row['seconds']} s"
            f"{same}"
        )
        if row["error"]:
            print(f"    error: {row['error']}")
        for wrong in row["untrueOrHarmful"]:
            print(f"    {wrong['kind']} {wrong['id']}: {wrong['note']!r}")
        for path in row["secretsWrittenTo"]:
            print(f"    secret in {path}")
        if notes:
            for note in row["notes"]:
                print(f"    note: {note!r}")
            print(f"    kept: {' '.join(row['kept'])}")
    kept, rules = card["kept"], card["rulesKept"]
    print(
        f"  all: kept {kept[0]}/{kept[1]} ({kept[0] / kept[1]:.2f}), rules {rules[0]}/{rules[1]}, "
        f"untrue or harmful {card['untrueOrHarmful']}, secrets written to "
        f"{card['secretsWritten']} files"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--batch", choices=batches(), help="a later batch of sessions; default: the first"
    )
    parser.add_argument(
        "--model-url",
        help="the user's model: an OpenAI-compatible server's /v1 URL, passed to `memtab write` "
        "as --provider openai --base-url URL; default: none, the offline writer",
    )
    parser.add_argument("--model", default="local", help="the model's name at --model-url")
    parser.add_argument("--timeout", type=float, help="the run's time limit (memtab write's)")
    parser.add_argument("--runs", type=int, default=1, help="runs of each session (2: the same?)")
    parser.add_argument("--session", action="append", help="only this session (repeatable)")
    parser.add_argument("--notes", action="store_true", help="print every note and what it kept")
    parser.add_argument("--json", action="store_true", help="print the scorecard as JSON")
    args = parser.parse_args(argv)
    sessions = [
        s for s in load_key(args.batch)["sessions"] if not args.session or s["id"] in args.session
    ]
    if not sessions:
        parser.error(f"no session named {', '.join(args.session)}")
    model = ["--provider", "openai", "--base-url", args.model_url, "--model", args.model]
    card = scorecard(sessions, model if args.model_url else [], args.timeout, max(1, args.runs))
    if args.json:
        print(json.dumps(card, indent=1, ensure_ascii=False))
    else:
        print_card(card, args.notes)
    return 0


if __name__ == "__main__":
    sys.exit(main())
