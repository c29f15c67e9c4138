"""Settings → Other agents without Qt: where each agent's memory was looked for, where it
is found without a path, what the form saves, and each agent's line and button in
"Memtab for your agents"."""

from __future__ import annotations

import os
import shlex
from pathlib import Path

from memtab.agent_server.agents import ServedOptions
from memtab.agent_server.install import planned_changes, server_command
from memtab.agent_server.registrations import Registration
from memtab.components.settings.agents_view import (
    ISOLATED_HOME,
    ServerRow,
    changed,
    changed_agents,
    changing,
    chosen_settings,
    default_text,
    install_question,
    looked_for_text,
    server_row,
    sources_note,
)
from memtab.file_protocol.file_ref import Agent
from memtab.sources.config import AgentSettings, SourcesSettings
from memtab.sources.model import LookedFor
from memtab.store.home import Home

FILE = Path("/home/me/.claude.json")


def test_each_place_looked_at_is_a_line_of_the_agents_own() -> None:
    looked = [
        LookedFor(agent="claude-code", path="/x/.claude", found=True, how="default"),
        LookedFor(agent="codex", path="/x/.codex", found=False, how="default"),
        LookedFor(agent="claude-code", path="/y", found=False, how="settings", note="moved"),
        LookedFor(agent="claude-code", path="", found=False, how="off", note="turned off"),
    ]
    assert looked_for_text("claude-code", looked).splitlines() == [
        "/x/.claude — found (default)",
        "/y — not found (settings; moved)",
        "Not looked for (turned off)",
    ]
    assert looked_for_text("loki", looked) == "Not looked for"


def test_without_a_path_the_agents_variable_then_its_directories() -> None:
    assert default_text("codex") == "Found in $CODEX_HOME, else ~/.codex"
    assert default_text("loki").startswith("Each project's .loki/memory")
    assert default_text("gemini") == "Found in $GEMINI_CLI_HOME/.gemini, else ~/.gemini"


def test_a_typed_path_is_made_absolute_and_an_empty_one_found_automatically() -> None:
    assert chosen_settings(True, "  ") == AgentSettings(enabled=True, path=None)
    home = os.path.expanduser("~")
    assert chosen_settings(False, " ~/notes ") == AgentSettings(
        enabled=False, path=os.path.join(home, "notes")
    )


def test_only_the_agents_whose_settings_changed_are_saved() -> None:
    stored = SourcesSettings(agents={"codex": AgentSettings(enabled=False)})
    chosen: dict[Agent, AgentSettings] = {
        "claude-code": AgentSettings(),
        "codex": AgentSettings(enabled=True),
    }
    assert changed_agents(stored, chosen) == [("codex", AgentSettings(enabled=True))]


def test_a_home_with_its_own_sources_says_so_before_the_problems() -> None:
    assert sources_note(["bad path"], isolated=True) == f"{ISOLATED_HOME}\nbad path"
    assert sources_note([], isolated=False) == ""


def test_a_registered_agent_offers_remove_and_an_unreadable_file_no_button() -> None:
    registered = Registration("claude", FILE, ["memtab", "mcp"], ServedOptions(None, "inbox"))
    assert server_row(registered) == ServerRow(
        text=registered.text(),
        registered=True,
        button="Remove",
        tip="memtab mcp uninstall --claude",
        offered=True,
    )
    absent = server_row(Registration("codex", FILE, None, None))
    assert (absent.button, absent.tip, absent.offered) == (
        "Install",
        "memtab mcp install --codex",
        True,
    )
    unreadable = Registration("claude", FILE, None, None, problem="not JSON")
    assert not server_row(unreadable).offered
    assert not server_row(registered, demo=True).offered  # a demo home changes no agent


def test_install_asks_naming_each_file_what_it_adds_and_the_home_it_serves() -> None:
    home = Home(Path("/data/memory"))
    env = {"HOME": "/home/me"}
    question = install_question("claude", str(home.root), planned_changes("claude", home, env))
    command = shlex.join(server_command(home))
    assert question.title == "Install Memtab in Claude Code?"
    assert question.text == (
        "Every Claude Code session will start Memtab's server for the memory in /data/memory, "
        "and read it from its first turn; its changes go to your Inbox."
    )
    assert question.informative == (
        "This changes these files now:\n"
        f"• /home/me/.claude.json: adds mcpServers.memtab, which runs {command}\n"
        "• /home/me/.claude/settings.json: adds Memtab's read-only tools (list, search, "
        "view) to permissions.allow\n\n"
        "Nothing else in them changes, and each that exists is first copied beside itself "
        "(.claude.json.memtab-backup, settings.json.memtab-backup). Remove takes it all out "
        "again."
    )
    codex = install_question("codex", str(home.root), planned_changes("codex", home, env))
    assert codex.informative.startswith(
        f"This changes this file now:\n• /home/me/.codex/config.toml: adds "
        f"[mcp_servers.memtab], which runs {command}\n\nNothing else in it changes"
    )
    gemini = install_question("gemini", str(home.root), planned_changes("gemini", home, env))
    assert gemini.title == "Install Memtab in Gemini CLI?"
    assert gemini.text.startswith(
        "Every Gemini CLI session in a folder it trusts will start Memtab's server for the "
        "memory in /data/memory"
    )
    assert gemini.informative == (
        "This changes these files now:\n"
        f"• /home/me/.gemini/settings.json: adds mcpServers.memtab, which runs {command}\n"
        "• /home/me/.gemini/policies/memtab.toml: Memtab's own rule: its read-only tools "
        "(mcp_memtab_list, mcp_memtab_search, mcp_memtab_view) run without asking\n\n"
        "Nothing else in the other changes, and if it exists it is first copied beside itself "
        "(settings.json.memtab-backup). Remove takes it all out again."
    )


def test_a_change_says_what_it_does_then_what_it_did_and_each_warning() -> None:
    assert changing("claude", registered=True) == "Removing from Claude Code…"
    assert changing("xum", registered=False) == "Installing in xum…"

    class Outcome:
        def __init__(self, message: str, warnings: tuple[str, ...] = ()) -> None:
            self.message, self.warnings = message, warnings

    assert changed([Outcome("a", ("w1",)), Outcome("b", ("w2",))]) == "a\nb\nw1\nw2"
