#!/usr/bin/env python3
"""Memtab's prediction of what Claude Code recalls, against Claude Code itself.

For each prompt of a case file (`tests/agents/recall_cases.json`), Claude Code (from npm,
/work/agents/node_modules) runs headless (`claude -p`) in a project whose auto memory is
the case file's topic files, against the stand-in model of /work/agents/stub_model.py.
Claude Code's memory selection is a side request to the model (system prompt "You are
selecting memories …"); the stand-in answers it with the case's scripted pick — what a
careful model reading the manifest would answer, written by hand per prompt — and every
other request with "OK.". What is recorded is what Claude Code SENDS for the selection
(its `Available memories:` manifest, the query) and what it then READS (the
`Memory: <path>:` blocks of its `relevant_memories` attachment in the main request).
Memtab's prediction is `memtab recall --agent claude --json` on the same home.

What this shows: that Memtab builds the manifest Claude Code sends byte for byte, that
Claude Code reads what the reply picks (its filters, its 5, its cut), and how often
Memtab's pick agrees with the scripted one. What it cannot show: what a real model would
pick — the scripted picks are a person's reading of the manifest, not Anthropic's model.

Run: python3 scripts/recall_trial.py --memtab .venv/bin/memtab [--only N] [--json OUT]
Standard library only; needs /work/agents (its stub model and the agents from npm).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

AGENTS = Path(os.environ.get("MEMTAB_AGENTS_HARNESS", "/work/agents"))
CASES = Path(__file__).resolve().parent.parent / "tests" / "agents" / "recall_cases.json"
SELECTOR = "You are selecting memories"
SELECTION_WAIT_S = 1.5
_MEMORY_BLOCK = re.compile(r"^Memory: (.+):$", re.MULTILINE)


def load_stub() -> Any:
    sys.path.insert(0, str(AGENTS))
    import stub_model  # type: ignore[import-not-found]

    return stub_model


def selector_server(stub: Any, log: Path, picks: dict[str, list[str]], readme: Path) -> Any:
    """The harness's stand-in, answering Claude Code's memory selection with a script."""

    class Selector(stub.StubModel):  # type: ignore[misc, name-defined]
        def _turn(self, api, agent, body, record, tools_of, *rest, **kw):  # type: ignore[no-untyped-def]
            system = body.get("system") or []
            text = (
                system
                if isinstance(system, str)  # Memtab's `recall --model` sends a string
                else " ".join(b.get("text", "") for b in system if isinstance(b, dict))
            )
            if api == "anthropic" and SELECTOR in text:
                query = body["messages"][-1]["content"][-1]["text"]
                prompt = query.split("\n", 1)[1]
                chosen = picks.get(prompt, [])
                reply = json.dumps({"selected_memories": chosen})
                record.update(
                    api=api,
                    kind="memory_selection",
                    depth=0,
                    tools=[],
                    deferred_tools=[],
                    step={"kind": "text", "text": reply},
                )
                whole, events = stub.anthropic_answer(body, stub.Step("text", text=reply))
                if body.get("stream"):
                    return 200, "text/event-stream", events, whole
                return 200, "application/json", [json.dumps(whole).encode()], whole
            if api == "anthropic" and body.get("tools"):
                # Claude Code drops a selection still under way when its turn ends: the
                # first answer waits for it, and reads a file, so a second request follows
                time.sleep(SELECTION_WAIT_S)
            return super()._turn(api, agent, body, record, tools_of, *rest, **kw)

    script = stub.Script(
        [{"tool": "Read", "args": {"file_path": str(readme)}}, {"text": "OK."}], "OK."
    )
    return Selector(script, log, agent="claude").start()


def build_home(root: Path, case: dict[str, Any]) -> tuple[Path, Path, Path]:
    """A throwaway HOME with Claude Code's auto memory for a project checkout."""
    home = root / "home"
    project = root / "src" / case["project"]
    project.mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(project)], check=True)
    (project / "README.md").write_text(f"# {case['project']}\n", encoding="utf-8")
    encoded = re.sub(r"[^A-Za-z0-9]", "-", str(project))
    memory = home / ".claude" / "projects" / encoded / "memory"
    memory.mkdir(parents=True)
    (memory / "MEMORY.md").write_text(case["index"], encoding="utf-8")
    now = time.time()
    for age, topic in enumerate(case["topics"]):
        path = memory / topic["name"]
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(topic["text"], encoding="utf-8")
        moment = now - 3600 * (age + 1)
        os.utime(path, (moment, moment))
    (home / "team-store").mkdir()
    (home / ".claude.json").write_text(
        json.dumps({"hasCompletedOnboarding": True, "numStartups": 1})
    )
    return home, project, memory


def claude_env(home: Path, tmp: Path, url: str) -> dict[str, str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("ANTHROPIC_", "CLAUDE_", "MEMTAB_", "XDG_"))
    }
    env.update(
        HOME=str(home),
        TMPDIR=str(tmp),
        NO_COLOR="1",
        TERM="dumb",
        PATH=f"{AGENTS / 'node_modules' / '.bin'}:{env.get('PATH', '/usr/bin:/bin')}",
        ANTHROPIC_BASE_URL=url,
        ANTHROPIC_API_KEY="sk-ant-stub-key",
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC="1",
        DISABLE_AUTOUPDATER="1",
        DISABLE_TELEMETRY="1",
        DISABLE_ERROR_REPORTING="1",
        # Claude Code 2.1.332 selects memories when the account's recall flag is
        # on or memory stores are configured: an empty team store turns it on here
        CLAUDE_MEMORY_STORES=json.dumps([str(home / "team-store")]),
    )
    return env


def observed(log: Path, memory: Path) -> dict[str, Any]:
    """What Claude Code sent for the selection and what it read after it."""
    sent = None
    read: list[str] = []
    for line in log.read_text().splitlines():
        record = json.loads(line)
        body = record.get("body") or {}
        if record.get("kind") == "memory_selection":
            sent = body["messages"][0]["content"][0]["text"]
        elif record.get("kind") == "main":
            text = json.dumps(body.get("messages", []), ensure_ascii=False)
            found = []
            for match in _MEMORY_BLOCK.finditer(text.replace("\\n", "\n")):
                path = Path(match.group(1))
                found.append(
                    path.relative_to(memory).as_posix()
                    if path.is_relative_to(memory)
                    else str(path)
                )
            read = list(dict.fromkeys(found)) or read
    return {"sent": sent, "read": read}


def predicted(
    memtab: str, home: Path, project: Path, prompt: str, model_url: str | None = None
) -> dict[str, Any]:
    """`memtab recall --json` on the case's home; with `model_url`, `--model` too, asking
    the stand-in there (as Claude Code's model: claude-sonnet-5-5)."""
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith("MEMTAB_")},
        "HOME": str(home),
        "CLAUDE_MEMORY_STORES": json.dumps([str(home / "team-store")]),
    }
    argv = [memtab, "recall", "--agent", "claude", "--directory", str(project), "--json"]
    if model_url is not None:
        argv.append("--model")
        env.update(
            MEMTAB_CONFIG_DIR=str(home / ".config" / "memtab"),
            MEMTAB_PROVIDER="anthropic",
            MEMTAB_MODEL="claude-sonnet-5-5",
            MEMTAB_BASE_URL=model_url,
            MEMTAB_API_KEY="sk-ant-stub-key",
        )
    out = subprocess.run([*argv, prompt], env=env, capture_output=True, text=True, check=True)
    agent = json.loads(out.stdout)["agents"][0]
    picks = [f["name"] for f in agent["files"] if f["verdict"] == "recalled"]
    return {"sent": agent.get("sent"), "picks": picks, "model_pick": agent.get("modelPick")}


def selection_requests(log: Path) -> list[dict[str, Any]]:
    """The memory selection requests the stand-in got, in order (Claude Code's, Memtab's)."""
    found = []
    for line in log.read_text().splitlines():
        record = json.loads(line)
        if record.get("kind") == "memory_selection":
            body = record["body"]
            system = body["system"]
            found.append(
                {
                    "system": system
                    if isinstance(system, str)
                    else [b["text"] for b in system][-1],
                    "texts": [b["text"] for m in body["messages"] for b in m["content"]],
                    "max_tokens": body.get("max_tokens"),
                }
            )
    return found


def agreement(a: list[str], b: list[str]) -> float:
    if not a and not b:
        return 1.0
    return len(set(a[:5]) & set(b[:5])) / max(len(a[:5]), len(b[:5]))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--memtab", required=True)
    parser.add_argument("--cases", default=str(CASES))
    parser.add_argument("--only", type=int, help="run only the Nth prompt (1-based)")
    parser.add_argument("--json", help="write every prompt's record here")
    parser.add_argument("--keep", action="store_true", help="keep the run folder")
    parser.add_argument(
        "--model",
        action="store_true",
        help="also run memtab recall --model against the stand-in: is its request Claude Code's?",
    )
    args = parser.parse_args(argv)
    case = json.loads(Path(args.cases).read_text())
    stub = load_stub()
    runs = AGENTS / "runs"
    runs.mkdir(exist_ok=True)
    root = Path(tempfile.mkdtemp(prefix="recall-", dir=runs))
    home, project, memory = build_home(root, case)
    prompts = [{**p, "set": "tuned"} for p in case["prompts"]]
    prompts += [{**p, "set": "held out"} for p in case.get("held_out", [])]
    if args.only:
        prompts = [prompts[args.only - 1]]
    picks = {p["prompt"]: p["scripted"] for p in prompts}
    log = root / "requests.jsonl"
    results = []
    for number, item in enumerate(prompts, start=1):
        log.write_text("")
        server = selector_server(stub, log, picks, project / "README.md")
        tmp = root / "tmp"
        tmp.mkdir(exist_ok=True)
        asked = None
        try:
            subprocess.run(
                [
                    str(AGENTS / "node_modules" / ".bin" / "claude"),
                    "-p",
                    item["prompt"],
                    "--output-format",
                    "json",
                ],
                cwd=project,
                env=claude_env(home, tmp, server.url),
                stdin=subprocess.DEVNULL,
                capture_output=True,
                timeout=120,
                check=False,
            )
            seen = observed(log, memory)
            mine = predicted(
                args.memtab, home, project, item["prompt"], server.url if args.model else None
            )
            if args.model:
                asked = selection_requests(log)
        finally:
            server.stop()
        score = agreement(mine["picks"], seen["read"])
        same_manifest = seen["sent"] == mine["sent"]
        same_request = None
        if asked is not None:
            # Claude Code's request, then Memtab's: the same system prompt, texts, limit;
            # and Memtab read the stand-in's answer as Claude Code did.
            same_request = (
                len(asked) == 2
                and asked[0] == asked[1]
                and list((mine["model_pick"] or {}).get("picks", [])) == seen["read"]
            )
        results.append(
            {
                "prompt": item["prompt"],
                "scripted": item["scripted"],
                "claude_read": seen["read"],
                "memtab": mine["picks"],
                "agreement": score,
                "manifest_identical": same_manifest,
                "model_request_identical": same_request,
                "sent": seen["sent"],
            }
        )
        request = "" if same_request is None else f"model {'=' if same_request else '≠'} "
        print(
            f"{number:2}. {score:4.2f} manifest {'=' if same_manifest else '≠'} {request}"
            f"read {seen['read']} memtab {mine['picks']}  — {item['prompt']}"
        )
    total = sum(r["agreement"] for r in results) / len(results)
    print(
        f"\nagreement on the top five: {total:.0%} over {len(results)} prompts; manifests "
        f"identical: {sum(r['manifest_identical'] for r in results)}/{len(results)}"
    )
    if args.model:
        same = sum(bool(r["model_request_identical"]) for r in results)
        print(f"memtab recall --model: Claude Code's request and reading {same}/{len(results)}")
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=2, ensure_ascii=False))
    if not args.keep:
        shutil.rmtree(root, ignore_errors=True)
    else:
        print(f"run folder: {root}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
