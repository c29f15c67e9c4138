"""Issue 83's measuring stick: `memtab duplicates`, `contradictions`, `leaks`, `check` and
`recall` run on one half of the trust corpus (tests/quality/trust_corpus/) through the door a
user uses — the CLI's `--json`, with HOME the person's home, the other agents' memory found
where each agent keeps it — and scored against the half's answer key.

    .venv/bin/python -m tests.quality.trust_scorecard --half tune [--details] [--json]
        [--model-url URL]   # the person's model judges, as a user's (default: offline)

`tune` is the half the engines may be tuned on; `held-out` and `fresh` (issue 94, written by
someone who never read the engines) are not to be read item by item (their numbers only).
Each kind is printed with the issue's target beside it. A finding the key says nothing of is
"unlabelled": counted against precision where the target counts every finding (leaks, check)
and listed by `--details`, so the key can be reviewed against it; a duplicates group none of
whose pairs the key labels is counted apart (`unlabelledGroups`), as labelled precision cannot
see it.

Codex's import of a Claude Code memory is never a duplicate (issue 81 point 6: it is shown
once, as the copy it is): the key's `import` pairs are scored on a line of their own, found
when `memtab list --source <Codex's> --json` names the copy's original (`importedFrom`),
and are no part of the duplicates' recall.
"""

from __future__ import annotations

import argparse
import json
import tempfile
from collections.abc import Iterable
from dataclasses import replace
from pathlib import Path
from typing import Any

from tests.quality.trust_homes import HALVES, LaidOut, lay_out
from tests.quality.trust_matching import Loc, Matcher
from tests.quality.trust_stages import missed_stages, stage_lines


def _ratio(found: int, total: int) -> float:
    return found / total if total else 1.0


def _by_kind(items: list[dict[str, Any]], found: set[str]) -> dict[str, list[int]]:
    kinds: dict[str, list[int]] = {}
    for item in items:
        counts = kinds.setdefault(item["kind"], [0, 0])
        counts[0] += item["id"] in found
        counts[1] += 1
    return kinds


def _pairs(group: list[Loc]) -> Iterable[tuple[Loc, Loc]]:
    for i, first in enumerate(group):
        for second in group[i + 1 :]:
            if first.file != second.file:
                yield first, second


IMPORT = "import"
"""The key's kind of a pair Codex's import and its Claude Code original make."""


def score_duplicates(matcher: Matcher, answer: dict[str, Any]) -> dict[str, Any]:
    key = matcher.key
    found: set[str] = set()
    near: set[str] = set()
    pairs = {"right": 0, "wrong": 0, "index": 0}
    groups = {"right": 0, "wrong": 0}
    unlabelled: list[list[str]] = []
    unlabelled_groups: list[list[str]] = []
    polarity_groups: list[list[str]] = []
    opposites = [i for i in key["contradictions"] if i["kind"] == "always-never"]
    opposites += [i for i in key["duplicate_near_misses"] if i["kind"] == "opposite"]
    for group in answer["groups"]:
        members = [matcher.loc(m) for m in group["members"]]
        if any(matcher.pair_matches(a, b, item) for a, b in _pairs(members) for item in opposites):
            polarity_groups.append([str(m) for m in members])
        seen = set()
        for a, b in _pairs(members):
            hits = [
                i["id"]
                for i in key["duplicates"]
                if i["kind"] != IMPORT and matcher.pair_matches(a, b, i)
            ]
            misses = [
                i["id"] for i in key["duplicate_near_misses"] if matcher.pair_matches(a, b, i)
            ]
            found.update(hits)
            near.update(misses)
            verdict = (
                "right"
                if hits
                else "wrong"
                if misses
                else "index"
                if matcher.is_index_entry(a, b)
                else "unlabelled"
            )
            seen.add(verdict)
            if verdict == "unlabelled":
                unlabelled.append([str(a), str(b), group["kind"]])
            else:
                pairs[verdict] += 1
        if seen & {"wrong", "index"}:
            groups["wrong"] += 1
        elif "right" in seen:
            groups["right"] += 1
        else:  # no pair the key labels: precision cannot see it, its owner reads it
            unlabelled_groups.append([str(m) for m in members])
    items = [i for i in key["duplicates"] if i["kind"] != IMPORT]
    labelled = pairs["right"] + pairs["wrong"] + pairs["index"]
    return {
        "recall": _ratio(len(found), len(items)),
        "found": len(found),
        "seeded": len(items),
        "byKind": _by_kind(items, found),
        "precisionLabelled": _ratio(pairs["right"], labelled),
        "precisionAll": _ratio(pairs["right"], labelled + len(unlabelled)),
        "precisionGroups": _ratio(groups["right"], groups["right"] + groups["wrong"]),
        "groups": len(answer["groups"]),
        "polarityGroups": len(polarity_groups),
        "nearMisses": [len(near), len(key["duplicate_near_misses"])],
        "nearMissesByKind": _by_kind(key["duplicate_near_misses"], near),
        "indexEntryPairs": pairs["index"],
        "missed": [i["id"] for i in items if i["id"] not in found],
        "nearMissesFlagged": sorted(near),
        "unlabelled": unlabelled,
        "unlabelledGroups": unlabelled_groups,
        "polarity": polarity_groups,
    }


def score_imports(matcher: Matcher, listings: list[dict[str, Any]]) -> dict[str, Any]:
    """The key's import pairs Memtab knows as imports: a copy whose listed row names its
    original (`importedFrom`)."""
    known = [
        (
            matcher.loc({"path": row["path"]}),
            matcher.loc({"path": row["importedFrom"]}),
        )
        for listing in listings
        for row in listing["files"]
        if row.get("importedFrom")
    ]
    items = [i for i in matcher.key["duplicates"] if i["kind"] == IMPORT]
    found = {i["id"] for i in items if any(matcher.pair_matches(a, b, i) for a, b in known)}
    return {
        "recall": _ratio(len(found), len(items)),
        "found": len(found),
        "seeded": len(items),
        "byKind": _by_kind(items, found),
        "linked": len(known),
        "missed": [i["id"] for i in items if i["id"] not in found],
    }


def score_contradictions(matcher: Matcher, answer: dict[str, Any]) -> dict[str, Any]:
    key = matcher.key
    found: set[str] = set()
    near: set[str] = set()
    right = wrong = 0
    unlabelled: list[list[str]] = []
    for item in answer["contradictions"]:
        a, b = matcher.loc(item["first"]), matcher.loc(item["second"])
        # Every place of every value (`elsewhere`: the same value said again; `others`:
        # a thing said three ways is one contradiction): any two of different values.
        sides = [
            [matcher.loc(side), *(matcher.loc(said) for said in side.get("elsewhere", []))]
            for side in (item["first"], item["second"], *item.get("others", []))
        ]
        pairs = [
            (one, two)
            for i, mine in enumerate(sides)
            for theirs in sides[i + 1 :]
            for one in mine
            for two in theirs
        ]
        hits = [
            i["id"]
            for i in key["contradictions"]
            if any(matcher.pair_matches(one, two, i) for one, two in pairs)
        ]
        misses = [
            i["id"]
            for i in key["contradiction_near_misses"]
            if any(matcher.pair_matches(one, two, i) for one, two in pairs)
        ]
        found.update(hits)
        near.update(misses)
        right += bool(hits)
        wrong += bool(misses) and not hits
        if not hits and not misses:
            unlabelled.append([str(a), str(b), item["kind"]])
    items = key["contradictions"]
    return {
        "recall": _ratio(len(found), len(items)),
        "found": len(found),
        "seeded": len(items),
        "byKind": _by_kind(items, found),
        "precisionLabelled": _ratio(right, right + wrong),
        "precisionAll": _ratio(right, right + wrong + len(unlabelled)),
        "reported": len(answer["contradictions"]),
        "nearMisses": [len(near), len(key["contradiction_near_misses"])],
        "nearMissesByKind": _by_kind(key["contradiction_near_misses"], near),
        "missed": [i["id"] for i in items if i["id"] not in found],
        "nearMissesFlagged": sorted(near),
        "unlabelled": unlabelled,
    }


def _score_singles(
    matcher: Matcher,
    findings: list[tuple[Loc, str]],
    items: list[dict[str, Any]],
    negatives: list[dict[str, Any]],
    acceptable: list[dict[str, Any]],
) -> dict[str, Any]:
    found: set[str] = set()
    right = 0
    wrong: list[list[str]] = []
    unlabelled: list[list[str]] = []
    for loc, kind in findings:
        hits = [i["id"] for i in items if matcher.single_matches(loc, i)]
        found.update(hits)
        if hits or any(matcher.single_matches(loc, i) for i in acceptable):
            right += 1
            continue
        flagged = [i["id"] for i in negatives if matcher.single_matches(loc, i)]
        (wrong if flagged else unlabelled).append([str(loc), kind, *flagged])
    return {
        "recall": _ratio(len(found), len(items)),
        "found": len(found),
        "seeded": len(items),
        "byKind": _by_kind(items, found),
        "precision": _ratio(right, len(findings)),
        "reported": len(findings),
        "missed": [i["id"] for i in items if i["id"] not in found],
        "negativesFlagged": wrong,
        "unlabelled": unlabelled,
    }


def score_leaks(matcher: Matcher, answer: dict[str, Any]) -> dict[str, Any]:
    # A leak's `elsewhere` (the memory's other lines naming the same project, Codex's
    # imports holding the same line) are places of it, as a contradiction's are.
    findings = [
        (matcher.loc(place), leak["kind"])
        for leak in answer["leaks"]
        for place in (leak, *leak.get("elsewhere", []))
    ]
    key = matcher.key
    return _score_singles(matcher, findings, key["leaks"], key["leak_negatives"], [])


def score_check(matcher: Matcher, answer: dict[str, Any]) -> dict[str, Any]:
    findings = [(matcher.loc(f), f["kind"]) for f in answer["findings"]]
    key = matcher.key
    # Two memories that disagree on a port, version or setting are what `disagreement`
    # says: right when found, though not every such pair is within its documented rules.
    facts = ("port", "version", "setting")
    acceptable = [
        {"id": f"{item['id']}.{side}", "at": item[side]}
        for item in key["contradictions"]
        if item["kind"] in facts
        for side in ("a", "b")
    ]
    return _score_singles(matcher, findings, key["check"], key["check_negatives"], acceptable)


def score_recall(laid: LaidOut) -> dict[str, Any]:
    directory = laid.moved(laid.key["layout"]["recall_directory"])
    rows = []
    for case in laid.key["recall"]:
        answer = laid.run(
            "recall", case["prompt"], "--directory", directory, "--agent", "claude", "--json"
        )
        files = [f for agent in answer["agents"] for f in agent["files"]]
        picked = [
            Path(f["physicalPath"]).name
            for f in sorted(files, key=lambda f: f.get("rank") or 0)
            if f["verdict"] == "recalled"
        ]
        plausible = bool(
            picked
            and picked[0] in case["expect"] + case["also"]
            and set(picked) & set(case["expect"])
        )
        rows.append(
            {
                "id": case["id"],
                "prompt": case["prompt"],
                "picked": picked,
                "expect": case["expect"],
                "plausible": plausible,
            }
        )
    return {"plausible": sum(r["plausible"] for r in rows), "prompts": len(rows), "cases": rows}


TARGETS = [
    ("duplicates", "recall", ">=", 0.85),
    ("duplicates", "byKind.reworded", ">=", 0.75),
    ("duplicates", "byKind.global-project", ">=", 0.75),
    ("duplicates", "precisionLabelled", ">=", 0.8),
    ("duplicates", "polarityGroups", "==", 0),
    ("duplicates", "nearMisses", "<=", 0.1),
    ("imports", "recall", ">=", 0.85),
    ("contradictions", "recall", ">=", 0.85),
    ("contradictions", "byKind.always-never", ">=", 5 / 6),
    ("contradictions", "byKind.tool", ">=", 5 / 6),
    ("contradictions", "nearMisses", "<=", 0.1),
    ("leaks", "recall", ">=", 0.9),
    ("leaks", "precision", ">=", 0.95),
    ("check", "recall", ">=", 0.9),
    ("check", "precision", ">=", 0.9),
    ("recall", "plausible", ">=", 0.9),
]


def _value(card: dict[str, Any], engine: str, measure: str) -> tuple[float, str]:
    part = card[engine]
    if measure == "plausible":
        return _ratio(part["plausible"], part["prompts"]), f"{part['plausible']}/{part['prompts']}"
    if measure.startswith("byKind."):
        found, total = part["byKind"].get(measure[7:], [0, 0])
        return _ratio(found, total), f"{found}/{total}"
    if measure == "nearMisses":
        found, total = part["nearMisses"]
        return _ratio(found, total), f"{found}/{total}"
    value = part[measure]
    return float(value), f"{value:.2f}" if isinstance(value, float) else str(value)


def verdicts(card: dict[str, Any]) -> list[tuple[str, str, str, bool]]:
    """Each target: (engine, measure, shown value with target, met)."""
    rows = []
    for engine, measure, op, target in TARGETS:
        value, shown = _value(card, engine, measure)
        met = {">=": value >= target - 1e-9, "<=": value <= target + 1e-9, "==": value == target}
        ok = met[op] and not card[engine].get("error")  # a crash earns no measure
        rows.append((engine, measure, f"{shown} ({op} {target:.2g})", ok))
    return rows


ENGINES = [
    ("duplicates", score_duplicates, "groups"),
    ("contradictions", score_contradictions, "contradictions"),
    ("leaks", score_leaks, "leaks"),
    ("check", score_check, "findings"),
]


def model_env(url: str | None, model: str) -> dict[str, str]:
    """The environment naming the person's model at `url` (an OpenAI-compatible server, as
    llama-server is), as a user configures it; none: offline."""
    if not url:
        return {}
    return {"MEMTAB_PROVIDER": "openai", "MEMTAB_BASE_URL": url, "MEMTAB_MODEL": model}


def scorecard(
    half: str, model: dict[str, str] | None = None, *, stages: bool = False
) -> dict[str, Any]:
    """Lay the half out in a scratch folder, run every engine on it, score each (`model`: the
    environment naming the person's model, `model_env`: the model judges; none: offline;
    `stages`: where each labelled pair missed fell, `trust_stages`)."""
    with tempfile.TemporaryDirectory(prefix=f"trust-{half}-") as folder:
        laid = replace(lay_out(half, Path(folder)), model=model or {})
        matcher = Matcher(laid)
        card: dict[str, Any] = {"half": half}
        for engine, score, empty in ENGINES:
            answer = laid.run(engine, "--json", timeout=3600 if model else 300)
            if answer.get("judged"):
                card[f"{engine}Judged"] = answer["judged"]
            error = answer.get("error")
            card[engine] = score(matcher, {empty: []} if error else answer)
            if error:  # a crash finds nothing: every item is missed, and the card says why
                card[engine]["error"] = error
        listings = [
            laid.run("list", "--source", source, "--json")
            for source in sorted(matcher.roots)
            if source.startswith("codex:")
        ]
        card["imports"] = score_imports(matcher, listings)
        card["recall"] = score_recall(laid)
        if stages:
            card["stages"] = missed_stages(laid, matcher, card)
        return card


def print_card(card: dict[str, Any], details: bool) -> None:
    print(f"trust corpus, {card['half']} half")
    for engine in ("duplicates", "contradictions", "leaks", "check"):
        part = card[engine]
        kinds = ", ".join(f"{k} {f}/{t}" for k, (f, t) in sorted(part["byKind"].items()))
        print(f"  {engine}: {part['found']}/{part['seeded']} found — {kinds}")
        if "unlabelledGroups" in part:
            print(
                f"    {len(part['unlabelledGroups'])} of {part['groups']} groups join no pair "
                "the key labels (unseen by precision: read them with --details)"
            )
        if part.get("error"):
            print(f"    {engine} failed: {part['error']}")
    imports = card["imports"]
    print(
        f"  imports: {imports['found']}/{imports['seeded']} known as Codex's imports of their "
        "original (memtab list's importedFrom), never duplicates"
    )
    recall = card["recall"]
    print(f"  recall: {recall['plausible']}/{recall['prompts']} plausible")
    for engine in ("duplicates", "contradictions"):
        if card.get(f"{engine}Judged"):
            print(f"  {engine}: {card[f'{engine}Judged']}")
    for engine, measure, shown, met in verdicts(card):
        print(f"    {'ok  ' if met else 'MISS'} {engine} {measure}: {shown}")
    if "stages" in card:
        print("  where the labelled pairs missed fell:")
        for engine in ("contradictions", "duplicates"):
            print("\n".join(stage_lines(engine, card["stages"][engine]["byKind"])))
    if not details:
        return
    if card["half"] != "tune":
        print("  (held-out: its items are not for the engines' authors)")
    for engine in ("duplicates", "contradictions", "leaks", "check"):
        part = card[engine]
        print(f"  {engine} missed: {' '.join(part['missed'])}")
        labels = ("nearMissesFlagged", "negativesFlagged", "polarity", "unlabelled")
        for label in (*labels, "unlabelledGroups"):
            for row in part.get(label, []):
                print(f"  {engine} {label}: {row}")
    print(f"  imports missed: {' '.join(imports['missed'])}")
    for engine, found in card.get("stages", {}).items():
        for item, stage in found["items"].items():
            holds = found.get("itemHolds", {}).get(item)
            print(f"  {engine} stage {item}: {stage}" + (f" ({', '.join(holds)})" if holds else ""))
    for row in recall["cases"]:
        mark = "ok  " if row["plausible"] else "MISS"
        picked, expect = row["picked"], row["expect"]
        print(f"  recall {mark} {row['id']} {row['prompt']!r}: {picked} (expect {expect})")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--half", choices=HALVES, default="tune")
    parser.add_argument("--details", action="store_true", help="list misses and false findings")
    parser.add_argument("--json", action="store_true", help="print the whole scorecard as JSON")
    parser.add_argument(
        "--model-url",
        help="the person's model: an OpenAI-compatible server's /v1 URL (llama-server's "
        "http://127.0.0.1:PORT/v1), set as MEMTAB_PROVIDER=openai and MEMTAB_BASE_URL, so "
        "duplicates and contradictions are judged by it as a user's are; default: none, offline",
    )
    parser.add_argument(
        "--model", default="local", help="the model's name at --model-url (default: local)"
    )
    parser.add_argument(
        "--stages",
        action="store_true",
        help="where each labelled contradiction and duplicate pair missed fell in the "
        "pipeline, as counts by stage (no text, no file names; --details: by item)",
    )
    args = parser.parse_args(argv)
    card = scorecard(args.half, model_env(args.model_url, args.model), stages=args.stages)
    if args.json:
        print(json.dumps(card, indent=1))
    else:
        print_card(card, args.details)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
