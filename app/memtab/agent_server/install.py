"""Registering `memtab mcp` where each agent looks for MCP servers (docs/formats.md §22.6): only
Memtab's entries change, a file replaced only while it holds what was read; a file that cannot be
edited gets the snippet to add by hand. `uninstall.py` takes it out again."""

from __future__ import annotations

import contextlib
import json
import os
import shlex
import shutil
import sys
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any, Literal, NamedTuple

from memtab.agent_server.agents import (
    AGENT_TITLES,
    CLAUDE_READ_RULES,
    GEMINI_READ_TOOLS,
    SERVER_KEY,
    AgentName,
    ProjectPlace,
    ServedOptions,
    changed_options,
    claude_settings_path,
    config_path,
    demo_refusal,
    gemini_project_refusal,
    project_folder,
    served_options,
)
from memtab.agent_server.codex_config import (
    CodexConfigError,
    codex_server,
    parse_toml,
    set_codex_server,
)
from memtab.agent_server.config_files import ConfigFileError, EditStatus, gemini_settings
from memtab.agent_server.config_files.checked_replace import CreatedFiles, Edit, Edited, edit_file
from memtab.agent_server.config_files.gemini_settings import ForeignPolicyError, policy_path
from memtab.agent_server.config_files.json_edits import add_items
from memtab.agent_server.config_files.json_members import JsonEditError, member_value, set_member
from memtab.agent_server.config_files.places import ProjectLinkError
from memtab.agent_server.server_names import READ_TOOLS
from memtab.fs.private import private_dir
from memtab.fs.records import Record, field
from memtab.sources.gemini.mcp_settings import server_blocks
from memtab.store.home import Home

Status = Literal["added", "updated", "unchanged", "refused", "removed"]
JSON_KEYS: dict[AgentName, str] = {
    "claude": "mcpServers",
    "gemini": gemini_settings.SERVERS_KEY,
    "xum": "servers",
}
# Read with comments: xum's mcp.jsonc, Gemini CLI's settings.json.
JSONC_AGENTS: tuple[AgentName, ...] = ("gemini", "xum")
CLAUDE_ALLOW_PATH = ("permissions", "allow")


class InstallError(Exception):
    """A configuration file Memtab will not rewrite; the message says why and what to do."""


@contextlib.contextmanager
def refusing(path: Path) -> Iterator[None]:
    """The edits' own errors as InstallError, naming `path` (Codex's name it themselves)."""
    try:
        yield
    except CodexConfigError as error:
        raise InstallError(str(error)) from None
    except (JsonEditError, ForeignPolicyError) as error:
        raise InstallError(f"{path} {error}") from None


class Outcome(Record):
    """What registering did to one agent file; `warnings`: what the user may not have meant."""

    agent: AgentName
    path: Path
    status: Status
    message: str
    warnings: tuple[str, ...] = ()


def launcher() -> list[str]:
    """How this Memtab starts from a shell: the bundle, the `memtab` on PATH that is this one, else
    `python -m memtab`."""
    if getattr(sys, "frozen", False):
        return [sys.executable]
    script = shutil.which("memtab")
    here = Path(sys.executable).parent
    if script is not None and Path(script).parent.resolve() == here.resolve():
        return [script]
    beside = here / "memtab"
    if beside.is_file():
        return [str(beside)]
    return [sys.executable, "-m", "memtab"]


def server_command(
    home: Home,
    workspace: str | None = None,
    writes: str | None = None,
    answer_budget: int | None = None,
) -> list[str]:
    """The command line that starts the server on `home`, with `workspace`, write mode and
    budget."""
    command = [*launcher(), "mcp", "--home", str(home.root)]
    if workspace:
        command += ["--workspace", workspace]
    if writes:
        command += ["--writes", writes]
    return [*command, "--answer-budget", str(answer_budget)] if answer_budget else command


class ClaudeMcpServer(Record, write_only=True):
    """Claude Code's `mcpServers` entry (formats §22.6), as `claude mcp add` writes it."""

    type: Literal["stdio"] = "stdio"
    command: str
    args: tuple[str, ...]
    env: dict[str, str] = field(default_factory=dict)
    always_load: bool = True


def _claude_server(command: list[str]) -> ClaudeMcpServer:
    return ClaudeMcpServer(command=command[0], args=tuple(command[1:]))


class ClaudeMcpServers(Record, write_only=True):
    """Claude Code's `mcpServers` with Memtab's server alone: the snippet to add by hand."""

    mcp_servers: dict[str, ClaudeMcpServer]


class ClaudePermissions(Record, write_only=True):
    """Claude Code's `permissions.allow` with Memtab's read-only tools: the snippet."""

    allow: tuple[str, ...]


class ClaudeSettings(Record, write_only=True):
    """Claude Code's settings with Memtab's permissions alone: the snippet to add by hand."""

    permissions: ClaudePermissions


class XumMcpServers(Record, write_only=True):
    """xum's `mcp.jsonc` `servers` with Memtab's server alone: the snippet to add by hand."""

    servers: dict[str, str]


def snippet(agent: AgentName, command: list[str]) -> str:
    """What to add to the agent's file by hand."""
    if agent == "claude":
        servers = ClaudeMcpServers(mcp_servers={SERVER_KEY: _claude_server(command)})
        return json.dumps(servers.to_json(), indent=2)
    if agent == "codex":
        return set_codex_server("", command)[0].rstrip("\n")
    if agent == "gemini":
        return gemini_settings.server_snippet(command)
    return json.dumps(XumMcpServers(servers={SERVER_KEY: shlex.join(command)}).to_json(), indent=2)


def permissions_snippet(agent: AgentName = "claude") -> str:
    """What lets the read-only tools run without asking, to add by hand."""
    if agent == "gemini":
        return gemini_settings.POLICY_TEXT.rstrip()
    settings = ClaudeSettings(permissions=ClaudePermissions(allow=CLAUDE_READ_RULES))
    return json.dumps(settings.to_json(), indent=2)


ENTRY_NAMES: dict[AgentName, str] = {
    "claude": "mcpServers.memtab",
    "codex": "[mcp_servers.memtab]",
    "gemini": "mcpServers.memtab",
    "xum": "servers.memtab",
}


def entry_keys(agent: AgentName, project: ProjectPlace | None = None) -> tuple[str, ...]:
    """Where Memtab's entry is in a JSON agent file (Claude Code's user or local scope, xum's
    `servers`)."""
    keys = (JSON_KEYS.get(agent, ""), SERVER_KEY)
    if project is not None and agent == "claude":
        return ("projects", project.claude_key, *keys)
    return keys


def entry_name(agent: AgentName, project: ProjectPlace | None = None) -> str:
    if project is not None and agent == "claude":
        return f"projects[{json.dumps(project.claude_key)}].{ENTRY_NAMES[agent]}"
    return ENTRY_NAMES[agent]


def _project_words(agent: AgentName, project: ProjectPlace) -> str:
    """What a per-project entry means, in words (§22.6)."""
    if agent == "claude":
        return (
            f"Claude Code's local scope: read only by sessions started in {project.claude_key} "
            "(or below it), where it takes the place of a user-wide memtab entry"
        )
    if agent == "gemini":
        return (
            f"Gemini CLI's workspace settings: read only by sessions started in "
            f"{project.checkout} itself (not in a folder below it) while Gemini CLI trusts it, "
            "where it takes the place of the memtab entry in ~/.gemini/settings.json"
        )
    return (
        f"Codex's project config: read only by sessions started in {project.checkout} once "
        "Codex trusts the project, where it takes the place of the memtab entry in "
        "~/.codex/config.toml"
    )


_WORDS = {
    "added": "added the memtab server to",
    "updated": "updated the memtab server in",
    "unchanged": "the memtab server is already in",
}
_READ_TOOLS_WORDS = ", ".join(READ_TOOLS)
_GEMINI_TOOLS_WORDS = ", ".join(GEMINI_READ_TOOLS)
# Why each agent's entry says what it says, for the install's output.
_WHY: dict[AgentName, str] = {
    "claude": "with alwaysLoad: true, so Claude Code waits for Memtab as it starts (up to "
    "5 s) and the model has Memtab's tools from its first turn, not behind its tool search",
    "codex": f"with required = true, so Codex waits for Memtab as it starts (and starts no "
    f"session while Memtab cannot start: memtab mcp uninstall --codex takes it out), and "
    f'approval_mode = "approve" for the read-only tools ({_READ_TOOLS_WORDS}), so they '
    f"run without asking, and env_vars, so Memtab reads the CODEX_HOME, config and cache "
    f"your Codex session has (Codex passes a server only a few of its variables)",
    "gemini": "so Gemini CLI starts Memtab in every folder it trusts and waits for its tools "
    "before the first turn; no trust: true (only the tools its policies allow run without "
    "asking)",
    "xum": "",
}


def install_agent(
    agent: AgentName,
    home: Home,
    command: list[str],
    env: Mapping[str, str] | None = None,
    project: ProjectPlace | None = None,
) -> list[Outcome]:
    """Register the server run by `command` with `agent` (for `project` where it has one): its
    entry, then Claude Code's permissions or Gemini CLI's policy file. Nothing for a demo home."""
    path = config_path(agent, home, env, project)
    refusal = demo_refusal(home)
    if refusal is None and agent == "gemini" and project is not None:
        refusal = gemini_project_refusal(project, env)
    if refusal is not None:
        return [outcome(agent, path, "refused", f"wrote nothing: {refusal}")]
    created = CreatedFiles.of(env)
    outcomes = [register_server(agent, path, command, project, created)]
    if outcomes[0].status == "refused":
        return outcomes
    if agent == "claude":
        outcomes.append(allow_read_tools(claude_settings_path(env), created))
    elif agent == "gemini":
        gemini_dir = config_path("gemini", home, env).parent
        outcomes.append(allow_gemini_read_tools(policy_path(gemini_dir), created))
        where = project.checkout if project else None
        blocks = server_blocks(gemini_dir, os.environ if env is None else env, SERVER_KEY, where)
        warned = (*outcomes[0].warnings, *(f"Gemini CLI: warning: {block}" for block in blocks))
        outcomes[0] = outcomes[0].replaced(warnings=warned)
    return outcomes


def make_home(home: Home) -> str | None:
    """Make the memory home a server is registered for when nothing is there yet: a folder only
    this user may enter, so each session finds the home new and empty rather than missing
    (docs/formats.md §22.6). What was made, in words (None: something was there); OSError when it
    cannot be made."""
    if os.path.lexists(home.root):
        return None
    private_dir(home.root)
    return f"Made the memory home {home.root}: empty, and only you may open it"


def install_on_home(
    agent: AgentName, home: Home, env: Mapping[str, str] | None = None
) -> list[Outcome]:
    """`memtab mcp install --<agent>` on `home`: global scope, default write mode."""
    return install_agent(agent, home, server_command(home), env)


class PlannedChange(NamedTuple):
    """A file `install_on_home` changes and what it adds; `shared`: it holds more than Memtab's."""

    path: Path
    change: str
    shared: bool = True


def planned_changes(
    agent: AgentName, home: Home, env: Mapping[str, str] | None = None
) -> list[PlannedChange]:
    """The files `install_on_home` changes for `agent`, with what each adds (no disk)."""
    command = shlex.join(server_command(home))
    path = config_path(agent, home, env)
    entry = PlannedChange(path, f"adds {ENTRY_NAMES[agent]}, which runs {command}")
    if agent == "gemini":
        rule = f"Memtab's own rule: its read-only tools ({_GEMINI_TOOLS_WORDS}) run without asking"
        return [entry, PlannedChange(policy_path(path.parent), rule, shared=False)]
    if agent != "claude":
        return [entry]
    rules = PlannedChange(
        claude_settings_path(env),
        f"adds Memtab's read-only tools ({_READ_TOOLS_WORDS}) to permissions.allow",
    )
    return [entry, rules]


def register_server(
    agent: AgentName,
    path: Path,
    command: list[str],
    project: ProjectPlace | None = None,
    created: CreatedFiles | None = None,
) -> Outcome:
    """Add or bring up to date the server in `path`, nothing else changed; a created file noted in
    `created`."""
    previous: list[ServedOptions | None] = [None]
    keys = entry_keys(agent, project)

    def edit(data: bytes | None) -> tuple[bytes, EditStatus]:
        text = decode(path, data)
        edited = _edited(agent, path, text, command, keys)
        current = entry_command(agent, path, text, keys)
        previous[0] = served_options(current) if current is not None else None
        return edited

    by_hand = lambda: f"add this by hand:\n{snippet(agent, command)}"  # noqa: E731
    edited = edit_outcome(
        agent, path, edit, by_hand, project=project_folder(agent, project), created=created
    )
    if isinstance(edited, Outcome):
        return edited
    message = f"{_WORDS[edited.status]} {where(path, edited)}"
    if edited.status != "unchanged":
        message += f": {entry_name(agent, project)} runs {shlex.join(command)}"
        message += f", {_WHY[agent]}" if _WHY[agent] else ""
        message += f"; {_project_words(agent, project)}" if project is not None else ""
        message += "; nothing else changed"
    after = served_options(command)
    warnings = changed_options(previous[0], after) if after is not None else []
    warned = tuple(f"{AGENT_TITLES[agent]}: warning: {text}" for text in warnings)
    return outcome(agent, path, edited.status, message + kept_words(edited), warned)


def allow_read_tools(path: Path, created: CreatedFiles | None = None) -> Outcome:
    """Add Memtab's read-only tools to Claude Code's permission list in `path` (`claude -p` refuses
    others)."""

    def edit(data: bytes | None) -> tuple[bytes, EditStatus]:
        with refusing(path):
            edited, status = add_items(decode(path, data), CLAUDE_ALLOW_PATH, [*CLAUDE_READ_RULES])
        return edited.encode("utf-8"), status

    by_hand = lambda: f"add this by hand:\n{permissions_snippet()}"  # noqa: E731
    edited = edit_outcome("claude", path, edit, by_hand, created=created)
    if isinstance(edited, Outcome):
        return edited
    if edited.status == "unchanged":
        message = f"Memtab's read-only tools are already allowed in {where(path, edited)}"
    else:
        message = (
            f"allowed Memtab's read-only tools in {where(path, edited)}: permissions.allow now "
            f"holds {', '.join(CLAUDE_READ_RULES)}, so claude -p (which refuses a tool it is not "
            f"allowed) can read the memory; the change tools still ask; nothing else changed"
        )
    return outcome("claude", path, edited.status, message + kept_words(edited))


def allow_gemini_read_tools(path: Path, created: CreatedFiles | None = None) -> Outcome:
    """Write Memtab's rule to Gemini CLI's policies (`gemini -p` leaves out tools that would
    ask)."""

    def edit(data: bytes | None) -> tuple[bytes, EditStatus]:
        with refusing(path):
            return gemini_settings.policy_written(data)

    policy = gemini_settings.POLICY_TEXT.rstrip()
    by_hand = f"add this by hand:\n(in another file of {path.parent})\n{policy}"
    edited = edit_outcome("gemini", path, edit, lambda: by_hand, created=created, whole=True)
    if isinstance(edited, Outcome):
        return edited
    if edited.status == "unchanged":
        message = f"Memtab's rule is already in {where(path, edited)}"
    else:
        message = (
            f"wrote Memtab's rule to {where(path, edited)}: its read-only tools "
            f"({_GEMINI_TOOLS_WORDS}) run without asking, in gemini -p too (which leaves out a "
            f"tool that would ask); the change tools still ask"
        )
    return outcome("gemini", path, edited.status, message + kept_words(edited))


def outcome(
    agent: AgentName, path: Path, status: Status, words: str, warnings: tuple[str, ...] = ()
) -> Outcome:
    """An `Outcome` whose message is `words` after the agent's name."""
    message = f"{AGENT_TITLES[agent]}: {words}"
    return Outcome(agent=agent, path=path, status=status, message=message, warnings=warnings)


def edit_outcome(
    agent: AgentName,
    path: Path,
    edit: Edit,
    by_hand: Callable[[], str],
    *,
    nothing: str = "wrote nothing",
    **options: Any,
) -> Edited | Outcome:
    """`edit_file(path, edit, **options)`, or the refused `Outcome` saying why and, unless a link
    stopped it, what to do by hand."""
    try:
        return edit_file(path, edit, **options)
    except ProjectLinkError as error:
        return outcome(agent, path, "refused", f"{nothing}: {error}")
    except (InstallError, ConfigFileError) as error:
        why = f"left {path} as it is: {error}" if isinstance(error, ConfigFileError) else error
        return outcome(agent, path, "refused", f"{why}; {by_hand()}")
    except OSError as error:
        return outcome(agent, path, "refused", f"cannot write {path}: {error.strerror or error}")


def where(path: Path, edited: Edited) -> str:
    """The file changed, as an outcome names it: a link's target with the link."""
    return str(path) if edited.target == path else f"{edited.target} (linked from {path})"


def kept_words(edited: Edited) -> str:
    """What an outcome adds of the backup and the folders made for a new file."""
    words = ""
    if edited.made:
        folders = ", ".join(str(folder) for folder in edited.made)
        words += f"; made {folders} for it (uninstall takes it away again)"
    if edited.backup_note is not None:
        words += f"; {edited.backup_note}"
    if edited.backup is not None:
        words += f"; the file as it was is kept as {edited.backup}"
    return words


def decode(path: Path, data: bytes | None) -> str:
    """An agent's file as text ("" when there is none); InstallError when it is no UTF-8."""
    if data is None:
        return ""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise InstallError(f"{path} is not UTF-8 text") from None


def entry_command(
    agent: AgentName, path: Path, text: str, keys: tuple[str, ...] | None = None
) -> list[str] | None:
    """The command line of the `memtab` entry in the file text (None: none); InstallError when
    unreadable as its format."""
    if not text.strip():
        return None
    with refusing(path):
        if agent == "codex":
            server = codex_server(path, parse_toml(path, text))
            if not isinstance(server, dict):
                return None
            value: Any = {"command": server.get("command"), "args": server.get("args", [])}
        else:
            entry = keys or entry_keys(agent)
            if agent == "gemini":
                gemini_settings.check_readable(text)
            there, value = member_value(text, entry, jsonc=agent in JSONC_AGENTS)
            if not there:
                return None
    if isinstance(value, dict):
        command, args = value.get("command"), value.get("args", [])
        if agent == "xum":
            value = command
        elif isinstance(command, str) and isinstance(args, list):
            return [command, *(str(arg) for arg in args)]
    if isinstance(value, str):
        try:
            return shlex.split(value)
        except ValueError:
            return None
    return None


def _edited(
    agent: AgentName, path: Path, text: str, command: list[str], keys: tuple[str, ...]
) -> tuple[bytes, EditStatus]:
    """The file's new bytes with the server's entry (an existing object entry keeping its other
    keys), and what changed."""
    with refusing(path):
        if agent == "codex":
            updated, status = set_codex_server(text, command, path=path)
        elif agent == "gemini":
            updated, status = gemini_settings.set_gemini_server(text, command, keys)
        elif agent == "claude":
            updated, status = set_member(text, keys, _claude_server(command).to_json())
        else:
            there, current = member_value(text, keys, jsonc=True) if text.strip() else (False, None)
            in_object = there and isinstance(current, dict)  # xum's {"command": …} form
            at = (*keys, "command") if in_object else keys
            updated, status = set_member(text, at, shlex.join(command), jsonc=True)
            status = "updated" if in_object and status == "added" else status
    try:
        return updated.encode("utf-8"), status
    except UnicodeEncodeError:
        raise InstallError(
            f"the server's command line cannot be written as UTF-8: {command}"
        ) from None
