"""What the user's model adds as the judge (issues 83, 94). With `--half`, on a half of the
trust corpus through the door a user uses (`memtab duplicates --json`, `memtab contradictions
--json`, the model named by the environment): offline, then `--runs` runs judged, each scored
as `trust_scorecard` scores it, with what its calls cost. Without, on corpora of our own: the
duplicates of `support.duplicate_claims` (its duplicates in one home, its near misses in
another) and the always/never rules of `support.always_never_voices`' batches (each case
alone, with a background), found and near misses flagged offline and judged.

    .venv/bin/python -m tests.quality.judge_measure --model-url http://127.0.0.1:PORT/v1
        [--half tune|held-out|fresh [--runs N | --calls N]]

`--calls N`: only the first N calls `memtab duplicates` (or `--only contradictions`) would
make, in this process (a slow local model past the request limit still answers), each verdict
against the key's, the engine scored offline and judged.

Needs a running OpenAI-compatible server (llama-server); answers are kept in a scratch home
(`--keep DIR` to keep them between runs).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any
from unittest import mock

from tests.quality.perfect_judge import KeyJudge, judged_runs
from tests.quality.trust_homes import HALVES, LaidOut, lay_out
from tests.quality.trust_matching import Matcher
from tests.quality.trust_scorecard import model_env, score_contradictions, score_duplicates

from memtab.llm.settings import ProviderSettings
from memtab.llm.types import ChatProvider, ModelReply
from memtab.store.home import Home
from memtab.trust.contradictions.engine import ContradictionsEngine
from memtab.trust.duplicates.engine import DuplicatesEngine
from memtab.trust.judging.asking import JudgeStats, ModelJudge, make_provider
from memtab.trust.judging.contradictions import judge_contradictions, wider_contradictions
from memtab.trust.judging.duplicates import judge_duplicates, wider_duplicates
from memtab.trust.judging.kept import Verdict
from memtab.trust.judging.questions import Pair

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from support import always_never_voices, contradiction_voices, duplicate_claims
from support.contradiction_cases import Case as VoiceCase
from support.duplicate_voices import Case, laid_out, score
from support.seeded_memories import memory


def _duplicates(cases: Sequence[Case], home: Home, judge: ModelJudge | None) -> dict[str, int]:
    documents, ids = laid_out(cases)
    engine = DuplicatesEngine(home)
    report = engine.report_of(documents).replaced(files_read=0)
    if judge is not None:
        report = judge_duplicates(report, judge, engine.said, wider_duplicates(report, engine.read))
    found = score([[m.path for m in g.members] for g in report.groups], ids, cases)
    return {
        "found": sum(hit for hit, _ in found.found.values()),
        "near": sum(hit for hit, _ in found.near.values()) + len(found.across),
        "polarity": found.polarity,
    }


def _contradictions(
    cases: Sequence[VoiceCase], home: Home, judge: ModelJudge | None
) -> dict[str, int]:
    made = contradiction_voices.notes(tuple(cases))
    background = [
        memory("global", f"bg-{i}.md", f"# Bg {i}\n\n- {line}\n")
        for i, line in enumerate(contradiction_voices.FILLERS)
    ]
    found = near = 0
    for number, case in enumerate(cases):
        pair = [memory(place, name, text) for place, name, at, text in made if at == number]
        engine = ContradictionsEngine(home, line_time=lambda d, line: 0)
        report = engine.report_of([*pair, *background]).replaced(files_read=0)
        if judge is not None:
            wider = wider_contradictions(report, engine.compared)
            report = judge_contradictions(report, judge, wider, engine.contradiction_of)
        joined = any(
            {d.path for d in pair}
            <= {p.path for side in (c.first, c.second, *c.others) for p in side.places}
            for c in report.contradictions
        )
        found += joined and case.expected == "contradiction"
        near += joined and case.expected != "contradiction"
    return {"found": found, "near": near}


def _cost(stats: JudgeStats) -> str:
    calls, asked = max(stats.calls, 1), max(stats.asked, 1)
    return (
        f"{stats.calls} calls asking {stats.asked} pairs, {stats.seconds / calls:.1f} s a call "
        f"({stats.seconds / asked:.1f} s a pair), "
        f"{(stats.input_tokens + stats.output_tokens) / calls:.0f} tokens a call "
        f"({stats.output_tokens / calls:.0f} out); {stats.confirmed} confirmed, "
        f"{stats.dismissed} dismissed, {stats.waiting} waiting, {stats.failed} failed"
        + (f"; not heard: the model {stats.unheard}" if stats.unheard else "")
    )


def _scores(row: dict[str, Any]) -> str:
    dup, con = row["duplicates"], row["contradictions"]
    return (
        f"duplicates {dup['found']}/{dup['seeded']}, precision {dup['precisionLabelled']:.2f}, "
        f"near misses {dup['nearMisses'][0]}/{dup['nearMisses'][1]}, polarity groups "
        f"{dup['polarityGroups']}; contradictions {con['found']}/{con['seeded']}, precision "
        f"{con['precisionLabelled']:.2f}, near misses {con['nearMisses'][0]}/{con['nearMisses'][1]}"
    )


def _half(half: str, url: str, model: str, runs: int) -> None:
    """The half offline, then judged by the model at `url` (module doc)."""
    with tempfile.TemporaryDirectory(prefix=f"judge-{half}-") as folder:
        laid = lay_out(half, Path(folder))
        matcher = Matcher(laid)
        [offline] = judged_runs(laid, matcher, 1)
        print(f"{half}, offline: {_scores(offline)}")
        judged = replace(laid, model=model_env(url, model))
        for row in judged_runs(judged, matcher, runs):
            print(f"{half}, run {row['run']} judged ({row['seconds']} s): {_scores(row)}")
            print(f"    duplicates: {row['duplicatesJudged']}")
            print(f"    contradictions: {row['contradictionsJudged']}")


def _judged(
    laid: LaidOut, home: Home, judge: ModelJudge, only: str | None
) -> tuple[dict[str, Any], dict[str, Any], Any]:
    """One engine's report on the laid-out half scored offline and judged by `judge`, and the
    judged report."""
    matcher = Matcher(laid)
    if only == "contradictions":
        found = ContradictionsEngine(home, env=laid.env())
        report = found.find()
        wider = wider_contradictions(report, found.compared, found.records)
        judged = judge_contradictions(report, judge, wider, found.contradiction_of)
        return (
            score_contradictions(matcher, report.to_json()),
            score_contradictions(matcher, judged.to_json()),
            judged,
        )
    engine = DuplicatesEngine(home, env=laid.env())
    groups = engine.find()
    judged_groups = judge_duplicates(
        groups, judge, engine.said, wider_duplicates(groups, engine.read)
    )
    return (
        score_duplicates(matcher, groups.to_json()),
        score_duplicates(matcher, judged_groups.to_json()),
        judged_groups,
    )


def _calls(half: str, url: str, model: str, calls: int, only: str | None) -> None:
    """The first `calls` calls `memtab duplicates` (or `--only contradictions`) makes on the
    half, in this process through the real provider (a slow local model past the request
    limit still answers): each verdict against the key's (`perfect_judge.KeyJudge`), the
    controls heard or not, the time, and the engine's score offline and judged."""
    settings = ProviderSettings(
        provider="openai", model=model, base_url=url, request_timeout_s=4 * 3600
    )
    with tempfile.TemporaryDirectory(prefix=f"judge-{half}-") as folder:
        laid = lay_out(half, Path(folder))
        matcher = Matcher(laid)
        key = KeyJudge(laid, matcher)
        home = Home(laid.xum_home)
        replies: list[str] = []

        def recorded(settings: ProviderSettings, limit: int | None) -> ChatProvider:
            provider = make_provider(settings, limit)
            complete = provider.complete

            def complete_and_keep(*args: Any, **kwargs: Any) -> ModelReply:
                reply = complete(*args, **kwargs)
                replies.append(reply.text)
                return reply

            provider.complete = complete_and_keep  # type: ignore[method-assign]
            return provider

        judge = ModelJudge(home, settings, files=calls * 10, make=recorded)
        answered: dict[Pair, Verdict] = {}
        verdicts = judge.verdicts

        def heard(pairs: Sequence[Pair]) -> dict[Pair, Verdict]:
            found = verdicts(pairs)
            answered.update(found)
            return found

        judge.verdicts = heard  # type: ignore[method-assign]
        with mock.patch.dict(os.environ, laid.env(), clear=True):  # the person's agents
            before, after, judged = _judged(laid, home, judge, only)
        stats = judge.stats
        print(f"{half} {only or 'duplicates'}: {_cost(stats)}; {stats.seconds:.0f} s")
        print(f"    {judged.judged}")
        for name, card in (("offline", before), ("judged", after)):
            print(
                f"    {name}: found {card['found']}/{card['seeded']}, precision "
                f"{card['precisionLabelled']:.2f} (all {card['precisionAll']:.2f}), near misses "
                f"{card['nearMisses'][0]}/{card['nearMisses'][1]}"
            )
        table: dict[tuple[str, str], int] = {}
        for pair, verdict in answered.items():
            right, _ = key.verdict(pair.one, pair.other)
            table[(right, verdict.verdict)] = table.get((right, verdict.verdict), 0) + 1
        for (right, said), count in sorted(table.items()):
            print(f"    key {right:8} model {said:8} {count}")
        for text in replies[:1]:
            print(f"    its first reply begins: {text[:800]!r}")
        judge.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--model-url", required=True, help="an OpenAI-compatible server's /v1")
    parser.add_argument("--model", default="local")
    parser.add_argument("--keep", type=Path, help="a folder keeping the answers between runs")
    parser.add_argument(
        "--runs", type=int, default=1, help="runs of duplicates, each asking what the last left"
    )
    parser.add_argument("--only", choices=("duplicates", "contradictions"), help="one engine")
    parser.add_argument("--half", choices=HALVES, help="a half of the trust corpus, as a user")
    parser.add_argument(
        "--calls",
        type=int,
        help="with --half: only the first CALLS calls of one engine (--only), in-process",
    )
    args = parser.parse_args(argv)
    if args.half and args.calls:
        _calls(args.half, args.model_url, args.model, args.calls, args.only)
        return 0
    if args.half:
        _half(args.half, args.model_url, args.model, args.runs)
        return 0
    settings = ProviderSettings(provider="openai", model=args.model, base_url=args.model_url)
    with tempfile.TemporaryDirectory(prefix="judge-measure-") as scratch:
        root = args.keep or Path(scratch)
        same = [c for c in duplicate_claims.BATCH if c.expected == "duplicate"]
        near = [c for c in duplicate_claims.BATCH if c.expected == "neither"]
        corpora = [("duplicate_claims duplicates", same), ("near misses", near)]
        for name, cases in corpora if args.only != "contradictions" else []:
            home = Home(root / name.replace(" ", "-"))
            print(f"{name} ({len(cases)}): offline {_duplicates(cases, home, None)}")
            for run in range(1, args.runs + 1):  # each asks what the last left unasked
                judge = ModelJudge(home, settings, files=len(cases) * 2)
                started = time.monotonic()
                judged = _duplicates(cases, home, judge)
                judge.close()
                print(f"    run {run}: judged {judged}")
                print(f"    {_cost(judge.stats)}; {time.monotonic() - started:.0f} s")
                if not judge.stats.waiting:
                    break
        batches = [
            (name, getattr(always_never_voices, name)) for name in ("SECOND", "THIRD", "FOURTH")
        ]
        for name, cases in batches if args.only != "duplicates" else []:
            home = Home(root / f"always-never-{name.lower()}")
            offline = _contradictions(cases, home, None)
            # each case is its own run of the engine: the budget is the batch's, not a run's
            judge = ModelJudge(home, settings, files=len(cases) * 10 * 20)
            judged = _contradictions(cases, home, judge)
            judge.close()
            wanted = sum(c.expected == "contradiction" for c in cases)
            print(
                f"always_never_voices {name} ({wanted} contradictions, {len(cases) - wanted} "
                f"near misses): offline {offline}, judged {judged}"
            )
            print(f"    {_cost(judge.stats)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
