"""The offline writer's candidates: every note its rules propose, with the evidence each came
from — what a learned judge would choose from. A run writes what the rules choose; the
research command tests/quality/judge_cv.py cross-validates a judge over these candidates (it
did not beat the rules: docs/writer-quality.md, 2026-11-23).

The rules find well-formed notes (a command that ran and succeeded, a fact the agent stated,
the user's answer to a question, a solved problem, the goal); what they did not do well was choosing
among them. So a transcript's digest (`extract.TranscriptDigest`) keeps, beside what the
rules choose (`findings()`), what their SOFT gates leave out — the judgement calls:

- facts past the session's surest few (`answers.best_facts`), past an answer's first
  `MAX_FINDINGS_PER_ANSWER`, a report's facts that are not firm, a non-English fact that is
  not firm, a fact said right after a failed call;
- a goal the session did not do enough work for (`MIN_GOAL_STEPS`, no project change);
- a workflow tool used too seldom (`MIN_TOOL_USES`, `MIN_TOOL_SUBCOMMANDS`).

The HARD rails stay rules and run before any of this: the judge never sees a secret (notes
are redacted), a pasted block, a placeholder, a fragment that does not name its subject
(`answers.stands_alone`), a throwaway (under /tmp, `python -c`, a one-package install, a
script the session deleted), a command that failed, sub-agent chatter, or prose in a
language the writer does not claim (`language`). Each candidate's `Evidence` is structural:
where it was said, how often, what the rules made of it (docs/formats.md §10.2).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from memtab.transcripts import TranscriptToolCall
from memtab.writer.offline.answers import fact_weight, is_english, is_marked
from memtab.writer.offline.findings import Evidence, FactSource, Findings
from memtab.writer.offline.shell.commands import is_exploratory, main_words, program_name
from memtab.writer.offline.solved_problems import EDIT_TOOL_NAME

# Bounds, so a digest stays flat on a transcript of any length.
MAX_CANDIDATE_FACTS = 200
MAX_FILES = 2000
_FILE_KEYS = ("file_path", "path", "notebook_path", "filePath", "target_file")
# The file names a line names: `src/app.ts`, app.ts, `app.ts`.
_FILE_NAME = re.compile(r"(?<![\w.-])[\w.-]+\.[A-Za-z]{1,6}\b")  # from a name's start only


@dataclass
class _Fact:
    origin: str
    source: FactSource
    step: int
    weight: int
    after_failure: bool
    rank: int
    said: int = 1


class CandidatePool:
    """What a digest keeps for the judge beyond what the rules keep: every fact the agent
    stated (bounded by `MAX_CANDIDATE_FACTS`), how often each kept item came up, and when."""

    def __init__(self) -> None:
        self.facts: dict[str, _Fact] = {}
        self.said: dict[tuple[str, str], int] = {}
        self.first_step: dict[tuple[str, str], int] = {}
        self.commands: dict[str, tuple[str, str]] = {}  # other commands: family → shown, origin
        self.read_files: set[str] = set()
        self.edited_files: set[str] = set()

    def touched(self, call: TranscriptToolCall) -> None:
        """Remember the file names a tool call opened or edited (its input's path)."""
        if not isinstance(call.input, dict):
            return
        kept = self.edited_files if EDIT_TOOL_NAME.search(call.name) else self.read_files
        for key in _FILE_KEYS:
            value = call.input.get(key)
            if isinstance(value, str) and len(kept) < MAX_FILES:
                kept.add(value.replace("\\", "/").rsplit("/", 1)[-1].lower())

    def add_facts(
        self,
        found: Iterable[str],
        origin: str,
        *,
        source: FactSource,
        step: int,
        after_failure: bool = False,
    ) -> None:
        """Facts of one answer or report, in order (`found` already passed the hard rails)."""
        for rank, fact in enumerate(found):
            weight = fact_weight(fact, told_the_user=source == "final")
            known = self.facts.get(fact)
            if known is not None:
                known.said += 1
                known.weight = max(known.weight, weight)
                known.after_failure = known.after_failure and after_failure
                continue
            if len(self.facts) < MAX_CANDIDATE_FACTS:
                self.facts[fact] = _Fact(origin, source, step, weight, after_failure, rank)

    def other_command(self, command: str, family: str, shown: str, origin: str, step: int) -> None:
        """A command that worked but that the rules do not keep (not a build, test, lint,
        install, project tool or script): a candidate unless it only looks around or is git
        bookkeeping (hard rails)."""
        words = main_words(command)
        if not words or is_exploratory(command) or program_name(words[0]) == "git":
            return
        self.seen("command", family, step)
        known = self.commands.get(family)
        if known is None and len(self.commands) >= MAX_CANDIDATE_FACTS:
            return
        if known is None or len(shown) < len(known[0]):
            self.commands[family] = (shown, origin)

    def widen(
        self,
        wide: Findings,
        rules: Findings,
        *,
        passed_fact_rules: Sequence[str],
        families: dict[str, str],
        steps: int,
        changed: bool,
    ) -> None:
        """Add to `wide` (the rules' findings, with what the soft gates left out of goals,
        tools and commands) every fact of the pool, and to each candidate its evidence.
        `families`: each command's family (how its runs were counted)."""
        for fact, known in self.facts.items():
            if fact not in wide.findings:
                wide.findings.append(fact)
                wide.origins.setdefault(("finding", fact), (known.origin,))
        for fact in wide.findings:
            wide.evidence[("finding", fact)] = self.fact_evidence(
                fact,
                rules_kept=fact in rules.findings,
                passed_rules=fact in passed_fact_rules,
                steps=steps,
            )
        keyed: list[tuple[str, str, str, bool]] = [
            *(("directive", rule, rule, True) for rule in wide.directives),
            *(("decision", answer, answer, True) for answer in wide.decisions),
            *(
                ("command", c.command, families[c.command], c in rules.commands)
                for c in wide.commands
            ),
            *(("tool", t.program, t.program, t in rules.tools) for t in wide.tools),
            *(("fix", solved.key, solved.family, True) for solved in wide.solved_problems),
        ]
        if wide.goal is not None:
            keyed.append(("goal", wide.goal, wide.goal, rules.goal is not None))
        for kind, key, seen_as, kept in keyed:
            wide.evidence[(kind, key)] = self.evidence(
                kind, seen_as, rules_kept=kept, steps=steps, changed=changed
            )

    def seen(self, kind: str, key: str, step: int) -> None:
        """One more time an item of `kind` came up (a command family ran, a rule was said)."""
        if (kind, key) not in self.first_step and len(self.first_step) >= MAX_CANDIDATE_FACTS:
            return
        self.first_step.setdefault((kind, key), step)
        self.said[(kind, key)] = self.said.get((kind, key), 0) + 1

    def fact_evidence(
        self, fact: str, *, rules_kept: bool, passed_rules: bool, steps: int
    ) -> Evidence:
        named = {name.lower() for name in _FILE_NAME.findall(fact)}
        known = self.facts.get(fact)
        if known is None:  # a hooks note (no prose read)
            return Evidence(
                "finding", rules_kept, session_steps=steps, source="hooks", passed_fact_rules=True
            )
        return Evidence(
            "finding",
            rules_kept,
            said=known.said,
            position=_position(known.step, steps),
            source=known.source,
            weight=known.weight,
            after_failure=known.after_failure,
            rank_in_answer=known.rank,
            english=is_english(fact),
            session_steps=steps,
            marked=is_marked(fact),
            passed_fact_rules=passed_rules,
            names_read_file=bool(named & self.read_files),
            names_edited_file=bool(named & self.edited_files),
        )

    def evidence(
        self, kind: str, key: str, *, rules_kept: bool, steps: int, changed: bool
    ) -> Evidence:
        """The evidence of a goal, directive, decision, command (by family) or solved problem."""
        return Evidence(
            kind,
            rules_kept,
            said=max(1, self.said.get((kind, key), 1)),
            position=_position(self.first_step.get((kind, key), 0), steps),
            english=is_english(key),
            session_steps=steps,
            changed_project=changed,
        )


def _position(step: int, steps: int) -> float:
    return min(1.0, step / steps) if steps else 0.0
