"""Issue 94's perfect judge: a stand-in model that answers each pair it is asked by a trust
corpus half's answer key, served over loopback HTTP as an OpenAI-compatible server, and
`memtab duplicates --json` and `memtab contradictions --json` run through the CLI with it
configured, as a user runs them, a few times over one laid-out home (each run asks what the
last left) — scored as `trust_scorecard` scores them.

    .venv/bin/python -m tests.quality.perfect_judge --half tune|held-out [--runs 3] [--json]

The stand-in finds each statement it is shown in the half's files (its scope said before it
aside, the laid-out home's path read back as the corpus's) and answers `same` for a pair the
key calls duplicates, `conflict` for a pair it calls a contradiction (two whole notes holding
one are not the same), `neither` for every other pair; the controls as every judge must. It
reads only the key and the half's files: nothing of how Memtab chose what to ask.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from tests.quality.trust_homes import CORPUS, HALVES, LaidOut, lay_out
from tests.quality.trust_matching import Loc, Matcher
from tests.quality.trust_scorecard import IMPORT, model_env, score_contradictions, score_duplicates
from tests.support.fake_model_server import (
    FakeModelServer,
    RecordedRequest,
    ScriptedResponse,
    json_response,
    openai_completion,
)

from memtab.store.text.near_duplicates import lowered_words

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from support.pair_models import control_verdict, pairs_asked

MODEL = "perfect-judge"
_SCOPE = re.compile(r"^\((?:global memory, read in every project|\w+ memory of project [^)]*)\) ")


class KeyJudge:
    """Answers pairs of statements by a laid-out half's key (see the module doc)."""

    def __init__(self, laid: LaidOut, matcher: Matcher) -> None:
        self.laid = laid
        self.matcher = matcher
        key = laid.key
        self.same = [i for i in key["duplicates"] if i["kind"] != IMPORT]
        self.conflict = key["contradictions"]
        self.files: dict[str, tuple[str, list[str]]] = {}
        for path in sorted((CORPUS / laid.half / "home").rglob("*")):
            if path.is_file() and path.stat().st_size < 200_000:
                try:
                    text = path.read_text(encoding="utf-8")
                except UnicodeDecodeError:
                    continue
                lines = [" ".join(lowered_words(line)) for line in text.splitlines()]
                rel = path.relative_to(CORPUS / laid.half).as_posix()
                self.files[rel] = (" ".join(lowered_words(text)), lines)
        self._found: dict[str, list[Loc]] = {}
        self.asked = 0

    def where(self, statement: str) -> list[Loc]:
        """Where in the half a statement is said: its lines, or files for a note."""
        if statement not in self._found:
            text = _SCOPE.sub("", statement).removesuffix("…")
            text = text.replace(str(self.laid.home), self.laid.key["layout"]["user_home"])
            words = " ".join(lowered_words(text))
            found = []
            for file, (whole, lines) in self.files.items():
                if not words or words not in whole:
                    continue
                at = [n for n, line in enumerate(lines, start=1) if words in line]
                found += [Loc(file, n) for n in at] or [Loc(file, None)]
            self._found[statement] = found
        return self._found[statement]

    def verdict(self, one: str, other: str) -> tuple[str, str]:
        """The key's verdict on a pair, and its item's id ("" for none)."""
        control = control_verdict(one, other)
        if control is not None:
            return control, "a control"
        self.asked += 1
        places = [(a, b) for a in self.where(one) for b in self.where(other) if a.file != b.file]
        # Two whole notes holding a contradiction are not the same, whatever else they share.
        whole_notes = any(a.line is None or b.line is None for a, b in places)
        kinds = ((self.same, "same"), (self.conflict, "conflict"))
        for items, verdict in reversed(kinds) if whole_notes else kinds:
            for item in items:
                if any(self.matcher.pair_matches(a, b, item) for a, b in places):
                    return verdict, item["id"]
        return "neither", ""

    def respond(self, request: RecordedRequest) -> ScriptedResponse:
        asked = request.body["messages"][-1]["content"]
        if isinstance(asked, list):
            asked = "".join(part.get("text", "") for part in asked)
        answers = []
        for number, one, other in pairs_asked(asked):
            verdict, item = self.verdict(one, other)
            reason = f"the key's {item}" if item else "the key says nothing of them"
            answers.append({"pair": number, "reason": reason, "verdict": verdict})
        return json_response(openai_completion(json.dumps(answers)), wire="openai")


def measured(half: str, runs: int = 3) -> list[dict[str, Any]]:
    """Each run's duplicates and contradictions scores on `half` with the perfect judge."""
    with (
        tempfile.TemporaryDirectory(prefix=f"perfect-{half}-") as folder,
        FakeModelServer() as server,
    ):
        laid = lay_out(half, Path(folder))
        matcher = Matcher(laid)
        server.respond_always(KeyJudge(laid, matcher).respond)
        laid = replace(laid, model=model_env(server.openai_base_url, MODEL))
        return judged_runs(laid, matcher, runs, lambda: len(server.requests))


def judged_runs(
    laid: LaidOut, matcher: Matcher, runs: int, calls: Callable[[], int] = lambda: 0
) -> list[dict[str, Any]]:
    """`runs` runs of `memtab duplicates --json` and `memtab contradictions --json` on a laid-out
    half as its person runs them (the model the environment names judging), each scored."""
    rows = []
    for run in range(1, runs + 1):
        started = time.monotonic()
        duplicates = laid.run("duplicates", "--json", timeout=6 * 3600)
        contradictions = laid.run("contradictions", "--json", timeout=6 * 3600)
        rows.append(
            {
                "run": run,
                "duplicates": score_duplicates(matcher, duplicates),
                "contradictions": score_contradictions(matcher, contradictions),
                "duplicatesJudged": duplicates.get("judged", ""),
                "contradictionsJudged": contradictions.get("judged", ""),
                "calls": calls(),
                "seconds": round(time.monotonic() - started),
            }
        )
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--half", choices=HALVES, default="tune")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    rows = measured(args.half, args.runs)
    if args.json:
        print(json.dumps(rows, indent=1))
        return 0
    for row in rows:
        dup, con = row["duplicates"], row["contradictions"]
        print(
            f"run {row['run']}: duplicates {dup['found']}/{dup['seeded']} "
            f"({dup['recall']:.2f}), precision {dup['precisionLabelled']:.2f}, near misses "
            f"{dup['nearMisses'][0]}/{dup['nearMisses'][1]}, polarity groups "
            f"{dup['polarityGroups']}; contradictions {con['found']}/{con['seeded']} "
            f"({con['recall']:.2f}), precision {con['precisionLabelled']:.2f}, near misses "
            f"{con['nearMisses'][0]}/{con['nearMisses'][1]}; calls so far {row['calls']}"
        )
        print(f"    {row['duplicatesJudged']}")
        print(f"    {row['contradictionsJudged']}")
        if args.half == "tune":
            print(f"    missed: {' '.join(dup['missed'])} · {' '.join(con['missed'])}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
