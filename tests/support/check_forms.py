"""A labelled corpus for `memtab check`'s missing paths and broken links (issue 83), in forms
the trust corpus and the check's quality corpus do not use: paths in tables, in code with a
line number (`src/a.py:12`), with `./`, `~/` and Windows separators, as an absolute path
inside the checkout; links in reference style, with `#anchors` (to a heading that is gone),
between memory files of one scope in sub-folders (`../`), Claude Code's `@`-imports. Near
misses: the same forms naming what is there, and examples, globs, placeholders, paths in
another checkout, URLs, build output, what a line says is gone or still to come.

Each case is one memory file of the project `kelp` (its checkout `CHECKOUT`), except
`@`-imports, which are Claude Code rules in the checkout; a case that is a finding must be
found on its line with its kind, a near miss must not be found at all.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol, TypeVar

from memtab.check.engine import CheckEngine
from memtab.check.programs import which_in
from memtab.check.records import Finding
from memtab.sources.claude.source import encode_project_path
from memtab.store.home import Home
from memtab.store.sidecars.registry import add_workspace
from support.checkouts import add_to_git, stand_in_programs
from support.leak_places import card

CHECKOUT: dict[str, str] = {
    "README.md": "# kelp\n",
    "Makefile": "test:\n\tpytest\n",
    "pyproject.toml": "[project]\nname = 'kelp'\n",
    "src/kelp/__init__.py": "",
    "src/kelp/invoices.py": "def total():\n    return 0\n",
    "src/kelp/api/__init__.py": "",
    "src/kelp/api/routes.py": "",
    "tests/test_invoices.py": "",
    "docs/runbook.md": "# Runbook\n\n## Rollback\n\nSteps.\n",
    "docs/adr/0001-queues.md": "# Queues\n",
    "scripts/seed.sh": "#!/bin/sh\n",
    "config/settings.toml": "",
    "web/src/App.tsx": "",
    ".gitignore": "dist/\n",
    "CLAUDE.md": "# kelp\n\nSee @README.md for the overview.\n",
}
"""The checkout (relative path → text)."""

TOPICS: dict[str, str] = {
    "topics/deploy.md": "# Deploy\n\n## Rollback\n\nRoll back with the previous tag.\n\n"
    "## Smoke tests\n\nRun them after each deploy.\n",
    "topics/queues.md": "# Queues\n\nOne queue per tenant.\n",
    "index.md": "# Index\n\n- [deploy](topics/deploy.md)\n- [queues](topics/queues.md)\n",
}
"""Memory files the cases link to (the project's memory, besides the cases)."""


@dataclass(frozen=True)
class Case:
    text: str
    kind: str | None
    """`missing-path` or `broken-link` (None: a near miss)."""
    line: int | None
    form: str
    where: str = "memory"
    """`memory`: a file of the project's memory (`topics/` holds it when `sub`); `rule`: a
    Claude Code rule in the checkout."""
    sub: bool = False


M, B = "missing-path", "broken-link"
_CASE_FILE = re.compile(r"(?:^|[/:])case-(\d+)\.md$")
CASES: tuple[Case, ...] = (
    # --- missing paths ------------------------------------------------------------------
    Case(
        "# Map\n\n| what | where |\n|---|---|\n| invoices | src/kelp/billing.py |\n",
        M,
        5,
        "path in a table",
    ),
    Case("# Bug\n\n- The rounding is at `src/kelp/pricing.py:42`.\n", M, 3, "code with a line"),
    Case(
        "# Bug\n\n- Off by one in `src/kelp/invoices.py:17:9` and `src/kelp/tax.py:3:1`.\n",
        M,
        3,
        "code with line and column",
    ),
    Case("# Seed\n\n- Run `./scripts/reset_db.sh` before the tests.\n", M, 3, "./ path"),
    Case(
        "# Layout\n\n- Routes: `src\\kelp\\api\\views.py` (Dana's Windows box).\n",
        M,
        3,
        "Windows separators",
    ),
    Case(
        "# Home\n\n- Settings are read from `~/src/kelp/config/local.toml`.\n",
        M,
        3,
        "~/ path inside the checkout",
    ),
    Case(
        "# Abs\n\n- The worker is {checkout}/src/kelp/worker.py\n",
        M,
        3,
        "absolute path inside the checkout",
    ),
    Case(
        "# Ref\n\n- See the [ADR][adr] for why.\n\n[adr]: docs/adr/0002-retries.md\n",
        B,
        5,
        "reference-style link to a checkout file",
    ),
    Case(
        "# Docs\n\n- Start with [the runbook](../../src/kelp/docs/runbook.md).\n",
        None,
        None,
        "../ outside the memory",
    ),
    Case(
        "# Tests\n\n| test | file |\n|---|---|\n| totals | `tests/test_totals.py::test_sum` |\n",
        M,
        5,
        "pytest node id in a table",
    ),
    Case("# Web\n\n- The shell is `web/src/Shell.tsx#L10-L40`.\n", M, 3, "path with #L lines"),
    Case("# Folders\n\n- Fixtures go in `tests/fixtures/` (JSON).\n", M, 3, "folder in code"),
    Case(
        "# Config\n\nThe service reads config/secrets.toml at start.\n",
        M,
        3,
        "path in prose with an extension",
    ),
    Case("# Bold\n\n- **src/kelp/ledger.py** holds the ledger.\n", M, 3, "bold path"),
    Case(
        "# Scripts\n\n```sh\n./scripts/migrate.sh --dry-run\n```\n",
        M,
        4,
        "./ path in a shell block",
    ),
    Case("# ADR\n\n- Decided in docs/adr/0003-outbox.md, see there.\n", M, 3, "path in prose"),
    # A bold label on a line of its own governs its paragraph, list or fence, not the file.
    Case(
        "# Pricing\n\n**Ideas:**\n- Cache the totals.\n\nRounding is in `src/kelp/rounding.py`.\n",
        M,
        6,
        "path after a label's list",
    ),
    Case(
        "# Exports\n\n**Next steps:**\nShip the exports.\n\n- Exports: `src/kelp/exports.py`.\n",
        M,
        6,
        "path after a label's paragraph",
    ),
    Case(
        "# Seed\n\n**TODO:**\n```sh\n./scripts/seed.sh --all\n```\n"
        "The fixtures are in `tests/fixtures/invoices.json`.\n",
        M,
        7,
        "path right after a label's fence",
    ),
    Case(
        "# Layout\n\n**Pending:**\n1. Split the CLI.\n2. Drop py3.9.\n\n"
        "| what | where |\n|---|---|\n| cli | src/kelp/cli.py |\n",
        M,
        9,
        "table after a label's numbered list",
    ),
    Case(
        "# Jobs\n\n**Roadmap**:\n\n- Retries with backoff.\n- A dead-letter queue.\n\n"
        "Workers live in `src/kelp/workers/`.\n",
        M,
        8,
        "folder after a label, a blank line and its list",
    ),
    # --- broken links -------------------------------------------------------------------
    Case("# See\n\n- [old deploy notes](topics/deploy-old.md)\n", B, 3, "link to a gone topic"),
    Case(
        "# See\n\n- [deploy][d]\n\n[d]: topics/deploy-v1.md\n",
        B,
        5,
        "reference link to a gone topic",
    ),
    Case(
        "# See\n\n- [rollback](topics/deploy.md#rolling-back)\n",
        B,
        3,
        "anchor to a heading that is gone",
    ),
    Case(
        "# Local\n\n- Jump to [the steps](#release-steps).\n\n## Steps\n\n1. Tag.\n",
        B,
        3,
        "anchor to a heading of its own that is gone",
    ),
    Case(
        "# Up\n\n- Back to [the index](../index-old.md).\n",
        B,
        3,
        "../ link to a gone file",
        sub=True,
    ),
    Case(
        "# Queues\n\n- Details: [retries](queues-retries.md)\n",
        B,
        3,
        "sibling link in a sub-folder",
        sub=True,
    ),
    Case(
        "# Ref\n\n- Runbook: [runbook][r]\n\n[r]: docs/runbook.md#rollback-steps\n",
        B,
        5,
        "reference link with an anchor that is gone",
    ),
    Case(
        "# Style\n\n- Follow @docs/style-guide.md when writing.\n",
        B,
        3,
        "@-import of a gone file",
        where="rule",
    ),
    Case(
        "# Ops\n\n- Runbook: @./docs/oncall.md\n", B, 3, "@./ import of a gone file", where="rule"
    ),
    Case(
        "# Notes\n\n- [The queue design](topics/queues.md#dead-letters) explains it.\n",
        B,
        3,
        "anchor to a topic's heading that is gone",
    ),
    Case(
        "# Index\n\n| topic | file |\n|---|---|\n| billing | [billing](topics/billing.md) |\n",
        B,
        5,
        "link in a table",
    ),
    Case("# Index\n\n- [Deploy](<topics/deploy notes.md>)\n", B, 3, "link in angle brackets"),
    Case(
        "# Checkout\n\n- The [runbook](docs/runbook.md#rollback) — start there.\n",
        None,
        None,
        "link to a checkout file from memory",
    ),
    Case("# Folder\n\n- [ADR list](docs/adrs/)\n", B, 3, "link to a gone checkout folder"),
    Case(
        "# Rule\n\n- Queue rules: @docs/adr/0009-fanout.md\n",
        B,
        3,
        "@-import of a gone ADR",
        where="rule",
    ),
    Case("# See\n\n- [smoke](topics/deploy.md#smoke-test)\n", B, 3, "anchor off by a letter"),
    Case(
        "# Steps\n\nSee [the first step](#step-1).\n\n## Step 2\n\nPush.\n",
        B,
        3,
        "anchor to a renumbered heading",
    ),
    # --- near misses ----------------------------------------------------------------------
    Case(
        "# Pricing\n\n**Ideas:**\n- Cache in `src/kelp/cache.py`.\n"
        "- Batch in `src/kelp/batch.py`.\n",
        None,
        None,
        "a label's list items",
    ),
    Case(
        "# Pricing\n\n**Ideas:**\n\n- Cache in `src/kelp/cache.py`.\n\n"
        "- Batch in `src/kelp/batch.py`,\n\n  sharded by `src/kelp/shards.py`.\n",
        None,
        None,
        "a label's loose list",
    ),
    Case(
        "# Seed\n\n**Draft:**\n\n```sh\npython src/kelp/seed_all.py\n```\n",
        None,
        None,
        "a label's fence",
    ),
    Case(
        "# Notes\n\n## Next steps\n\nShip the exports.\n\n```sh\ncat src/kelp/exports.py\n```\n\n"
        "Then `src/kelp/ledger.py`.\n",
        None,
        None,
        "an open heading's whole section",
    ),
    Case(
        "# Notes\n\n## Next steps\n\n**Exports:**\n- CSV in `src/kelp/csv.py`.\n\n"
        "Then `src/kelp/ledger.py`.\n",
        None,
        None,
        "a label's block under an open heading, and after it",
    ),
    Case(
        "# Map\n\n| what | where |\n|---|---|\n| invoices | src/kelp/invoices.py |\n",
        None,
        None,
        "existing path in a table",
    ),
    Case(
        "# Bug\n\n- Totals at `src/kelp/invoices.py:2`.\n", None, None, "existing path with a line"
    ),
    Case("# Seed\n\n- `./scripts/seed.sh` loads the fixtures.\n", None, None, "existing ./ path"),
    Case(
        "# Win\n\n- `src\\kelp\\invoices.py` on Dana's box.\n", None, None, "existing Windows path"
    ),
    Case(
        "# Example\n\n- Name modules like `src/kelp/<domain>.py`, e.g. `src/kelp/foo.py`.\n",
        None,
        None,
        "example paths",
    ),
    Case("# Globs\n\n- Lint `src/**/*.py` and `tests/test_*.py`.\n", None, None, "globs"),
    Case(
        "# Other\n\n- The shared client is in `../kelp-common/src/client.py`.\n",
        None,
        None,
        "path in another checkout (../)",
    ),
    Case(
        "# Other\n\n- tern's handler: `~/src/tern/cmd/handler.go`.\n",
        None,
        None,
        "path in another checkout (~/)",
    ),
    Case(
        "# URL\n\n- https://github.com/fernhill/kelp/blob/main/src/kelp/old_pricing.py\n",
        None,
        None,
        "URL",
    ),
    Case(
        "# Build\n\n- The wheel lands in `dist/kelp-1.0-py3-none-any.whl`.\n",
        None,
        None,
        "build output",
    ),
    Case(
        "# Gone\n\n- `src/kelp/legacy.py` was removed in the March cleanup.\n",
        None,
        None,
        "a path said to be gone",
    ),
    Case(
        "# Plan\n\n- TODO: add `src/kelp/tax.py` for the VAT rules.\n",
        None,
        None,
        "a file still to come",
    ),
    Case("# Docs\n\n- Put guides in path/to/guide.md form.\n", None, None, "path/to placeholder"),
    Case(
        "# See\n\n- [deploy](topics/deploy.md) and [queues](topics/queues.md)\n",
        None,
        None,
        "existing links",
    ),
    Case("# See\n\n- [rollback](topics/deploy.md#rollback)\n", None, None, "existing anchor"),
    Case(
        "# Local\n\n- Jump to [steps](#steps).\n\n## Steps\n\n1. Tag.\n",
        None,
        None,
        "own existing anchor",
    ),
    Case("# See\n\n- [index](../index.md)\n", None, None, "existing ../ link", sub=True),
    Case("# Ref\n\n- [d]\n\n[d]: topics/queues.md\n", None, None, "existing reference link"),
    Case(
        "# Rule\n\n- Read @../../README.md first (imports are relative to the rule).\n",
        None,
        None,
        "existing @-import",
        where="rule",
    ),
    Case(
        "# Rule\n\n- Personal prefs: @~/.claude/kelp-prefs.md\n",
        None,
        None,
        "home @-import",
        where="rule",
    ),
    Case(
        "# Rule\n\n- Mention people as @dana or @fernhill/billing in reviews.\n",
        None,
        None,
        "@-mentions",
        where="rule",
    ),
    Case(
        "# Web\n\n- Docs: [Python](https://docs.python.org/3/library/pathlib.html#pathlib.Path)\n",
        None,
        None,
        "URL with an anchor",
    ),
    Case(
        "# Abs\n\n- The system config is /etc/kelp/kelp.toml on the servers.\n",
        None,
        None,
        "absolute path outside the checkout",
    ),
    Case(
        "# Env\n\n- `$KELP_HOME/config/local.toml` and `${XDG_CONFIG_HOME}/kelp/x.toml`\n",
        None,
        None,
        "variables",
    ),
    Case(
        "# Modules\n\n- `kelp.api.routes` and `kelp/api` are the same thing.\n",
        None,
        None,
        "dotted module name",
    ),
    Case(
        "# Media\n\n- Send `application/json` and accept `text/csv`.\n", None, None, "media types"
    ),
    Case(
        "# Branches\n\n- Rebase on `origin/main`; feature branches are `feat/kelp-123`.\n",
        None,
        None,
        "branches",
    ),
    Case(
        "# Exists\n\n- Config is config/settings.toml, routes in src/kelp/api/routes.py.\n",
        None,
        None,
        "existing paths in prose",
    ),
    Case(
        "# Test id\n\n- `tests/test_invoices.py::test_total` is the slow one.\n",
        None,
        None,
        "existing pytest node id",
    ),
    Case("# Kube\n\n- `kubectl rollout restart deploy/kelp-api`\n", None, None, "kube resource"),
    Case(
        "# Moved\n\n- `src/kelp/totals.py` → `src/kelp/invoices.py` (renamed).\n",
        None,
        None,
        "an arrow telling a rename",
    ),
)


def lay_out(
    root: Path, cases: tuple[Case, ...] = CASES, checkout_files: dict[str, str] = CHECKOUT
) -> tuple[Home, str, Path, dict[str, int]]:
    """The corpus as a home in `root`: the home, its workspace, the checkout, and each case's
    file (its physical path) → its index."""
    home = Home(root / "home")
    checkout = home.root / "src" / "kelp"  # an isolated home looks into its own folders only
    files = dict(checkout_files)
    where: dict[str, int] = {}
    for number, case in enumerate(cases):
        if case.where == "rule":
            files[f".claude/rules/case-{number}.md"] = case.text
            where[str(checkout / ".claude" / "rules" / f"case-{number}.md")] = number
    for relative, text in files.items():
        path = checkout / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    add_to_git(checkout)
    workspace = add_workspace(home, str(checkout), "main", workspace_path=str(checkout))
    memory = home.project_root(str(checkout))
    for relative, text in TOPICS.items():
        (memory / relative).parent.mkdir(parents=True, exist_ok=True)
        (memory / relative).write_text(text, encoding="utf-8")
    for number, case in enumerate(cases):
        if case.where != "memory":
            continue
        relative = f"{'topics/' if case.sub else ''}case-{number}.md"
        path = memory / relative
        path.write_text(case.text.replace("{checkout}", str(checkout)), encoding="utf-8")
        where[str(path)] = number
    claude = root / "agents" / "claude"
    session = claude / "projects" / encode_project_path(str(checkout))
    session.mkdir(parents=True)
    transcript = {
        "type": "user",
        "cwd": str(checkout),
        "message": {"role": "user", "content": "hi"},
    }
    (session / "0d7b9f4e-session.jsonl").write_text(json.dumps(transcript) + "\n", encoding="utf-8")
    home.memtab_dir.mkdir(parents=True, exist_ok=True)
    sources = {"isolated": True, "claude-code": {"enabled": True, "path": str(claude)}}
    (home.memtab_dir / "sources.json").write_text(json.dumps(sources), encoding="utf-8")
    return home, workspace, checkout, where


def found(
    root: Path, cases: tuple[Case, ...] = CASES, checkout_files: dict[str, str] = CHECKOUT
) -> tuple[dict[int, list[Finding]], list[Finding]]:
    """Each case's missing paths and broken links, and those of no case's file."""
    home, workspace, _checkout, _where = lay_out(root, cases, checkout_files)
    return by_case(root, home, workspace, (M, B), ("git", "make", "python", "pytest"))


def by_case(
    root: Path, home: Home, workspace: str, kinds: Collection[str], installed: Sequence[str]
) -> tuple[dict[int, list[Finding]], list[Finding]]:
    """The findings of `kinds` `memtab check` makes of `workspace` on a machine with only
    `installed`: each case's (its file `case-N.md`), and those of no case's file."""
    path = stand_in_programs(root / "bin", list(installed))
    env = {"PATH": path, "HOME": str(root / "home"), "MEMTAB_CONFIG_DIR": str(root / "config")}
    engine = CheckEngine(home, env=env, find_program=which_in(path), stale_days=0)
    mine: dict[int, list[Finding]] = {}
    others: list[Finding] = []
    for finding in engine.check(workspace).findings:
        if finding.kind not in kinds:
            continue
        named = _CASE_FILE.search(finding.path)
        if named is None:
            others.append(finding)
        else:
            mine.setdefault(int(named.group(1)), []).append(finding)
    return mine, others


def score(
    root: Path, cases: tuple[Case, ...] = CASES, checkout_files: dict[str, str] = CHECKOUT
) -> dict[str, object]:
    """Recall over the cases (found on their line, of their kind), precision over what is
    found, and the near misses flagged."""
    return tally(cases, *found(root, cases, checkout_files))


class Labelled(Protocol):
    """A case of a labelled check corpus: the kind found on its line (None: a near miss)."""

    @property
    def kind(self) -> str | None: ...
    @property
    def line(self) -> int | None: ...
    @property
    def form(self) -> str: ...


L = TypeVar("L", bound=Labelled)


def on_its_line(case: Labelled, finding: Finding) -> bool:
    return (finding.kind, finding.line) == (case.kind, case.line)


def tally(
    cases: Sequence[L],
    mine: dict[int, list[Finding]],
    others: list[Finding],
    hits: Callable[[L, Finding], bool] = on_its_line,
) -> dict[str, object]:
    """The card of what was found of `cases` (`hits`: whether a finding is its case's)."""
    right = wrong = 0
    missed, flagged = [], []
    for number, case in enumerate(cases):
        found_here = mine.get(number, [])
        hit = [f for f in found_here if hits(case, f)]
        if case.kind is not None and hit:
            right += 1
        elif case.kind is not None:
            missed.append(case.form)
        wrong += len(found_here) - len(hit[:1])
        if case.kind is None and found_here:
            flagged.append(case.form)
    wrong += len(others)
    seeded = sum(case.kind is not None for case in cases)
    others_found = [(f.path, f.line, f.subject) for f in others]
    return card(right, wrong, seeded, missed, flagged, others=others_found)
