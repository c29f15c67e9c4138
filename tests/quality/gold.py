"""What a careful reader keeps from each transcript of the measured part (tests/quality/split.txt).

Labelled by reading each session whole — the user's messages, the agent's answers and
sub-agent reports, the commands and their results — and writing down what the person
whose memory it is would want their agent to know next time, before the offline
writer's output on these transcripts was looked at. Each item lists fragments one note
must all contain (case-insensitive); `why` says what the note is about.

These lists are not changed to fit the writer: an item it misses stays missed.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class GoldItem:
    fragments: tuple[str, ...]
    why: str


@dataclass(frozen=True)
class GoldCase:
    path: str  # relative to tests/, as in split.txt
    language: str
    items: tuple[GoldItem, ...]


def gold(*fragments: str, why: str) -> GoldItem:
    return GoldItem(fragments, why)


_SPOTTER = "fixtures/shared/claude-code/marot-spotter__test__fixtures__transcripts__"
_MOREDIP = "fixtures/shared/claude-code/moredip-session-share__samples__claude-code-projects__"

GOLD = (
    GoldCase(
        _SPOTTER + "258c7280-ae70-4798-800f-63464d01a85d.jsonl",
        "en",
        (
            gold("spotter-gqc", why="the user's goal: implement the spotter-gqc epic"),
            gold("mix test", why="the test suite command"),
            gold("mix credo --strict", why="the lint command"),
            gold("mix compile --warnings-as-errors", why="the strict compile"),
            gold("mix deps.get", why="installs dependencies"),
            gold("mix ecto.migrate", why="runs migrations (worked)"),
            gold("mix ash.codegen", why="generates Ash migrations and snapshots"),
            gold("sqlite", "migration", why="generated migrations must be rewritten for SQLite"),
            gold("lazy_html", why="LiveView tests need the lazy_html test dependency"),
            gold("sandbox", "shared", why="LiveView tests need the sandbox in shared mode"),
            gold("bd ready", why="beads: how to find ready work"),
            gold("bd sync", why="beads are synced before git push"),
            gold("1100", why="Spotter's default port is 1100"),
        ),
    ),
    GoldCase(
        _SPOTTER + "4d5611e5-241a-462a-8d15-5122611a9569.jsonl",
        "en",
        (
            gold("spotter-dov", why="the user's goal: work on the spotter-dov epic"),
            gold("mix test", why="the test suite command"),
            gold("mix credo --strict", why="the lint command"),
            gold("mix compile", why="the build command"),
            gold("mix format", why="the formatter"),
            gold("mix dialyzer", why="the type checker"),
            gold("git commit", "mix format", why="the pre-commit hook refuses unformatted code"),
            gold(
                "fix the issues", why="the user's decision: fix what the hook finds, no --no-verify"
            ),
            gold("priv/static/assets/spotter.css", why="tracked despite .gitignore: git add -f"),
            gold("bd ready", why="beads: how to find ready work"),
            gold("bd sync", why="beads are synced before committing"),
            gold("AshComputer", "handle_event", why="AshComputer generates the event handlers"),
            gold("LLMChain.run", why="LLMChain.run returns a 3-tuple on error"),
        ),
    ),
    GoldCase(
        _SPOTTER + "subagent.jsonl",
        "en",
        (
            gold("credo", "dialyxir", "mix_audit", why="the user's goal: set up these tools"),
            gold("no rig", why="the user's decision: beads of this project have no rig prefix"),
            gold("igniter", why="no Igniter installers exist; mix igniter.install adds the deps"),
            gold("bd create", why="how beads are created (epic, --parent tasks)"),
        ),
    ),
    GoldCase(
        _MOREDIP + "0ccf1a04-1b4c-43b6-8aa5-79e41db43a68.jsonl",
        "en",
        (),  # poems written by sub-agents: nothing about a project to keep
    ),
)
