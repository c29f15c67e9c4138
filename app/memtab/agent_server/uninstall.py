"""Taking `memtab mcp` out of each agent's files (docs/formats.md §22.6): what `install.py` wrote
and nothing else, replaced as install does, so right after an install the file is back byte for byte
(a created file and its folders gone)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path

from memtab.agent_server.agents import (
    CLAUDE_READ_RULES,
    GEMINI_READ_TOOLS,
    AgentName,
    ProjectPlace,
    claude_settings_path,
    config_path,
    demo_refusal,
    project_folder,
)
from memtab.agent_server.codex_config import remove_codex_server
from memtab.agent_server.config_files import EditStatus, gemini_settings
from memtab.agent_server.config_files.checked_replace import (
    CreatedFiles,
    Edit,
)
from memtab.agent_server.config_files.gemini_settings import policy_path
from memtab.agent_server.config_files.json_edits import remove_items, remove_member
from memtab.agent_server.install import (
    CLAUDE_ALLOW_PATH,
    JSONC_AGENTS,
    Outcome,
    decode,
    edit_outcome,
    entry_keys,
    entry_name,
    kept_words,
    outcome,
    refusing,
    where,
)
from memtab.store.home import Home


def uninstall_agent(
    agent: AgentName,
    home: Home,
    env: Mapping[str, str] | None = None,
    project: ProjectPlace | None = None,
) -> list[Outcome]:
    """Take the server out of `agent`'s files, and Claude Code's or Gemini CLI's read rules unless
    `project`'s; nothing from a demo home."""
    path = config_path(agent, home, env, project)
    refusal = demo_refusal(home, "uninstall")
    if refusal is not None:
        return [outcome(agent, path, "refused", f"changed nothing: {refusal}")]
    created = CreatedFiles.of(env)
    if agent == "gemini" and project is None:
        # the rule first: its folder is inside the one install made
        rule = forbid_gemini_read_tools(policy_path(path.parent), created)
        return [unregister_server(agent, path, project, created), rule]
    outcomes = [unregister_server(agent, path, project, created)]
    if agent == "claude" and project is None:
        outcomes.append(forbid_read_tools(claude_settings_path(env), created))
    return outcomes


def _taken_out(path: Path, take_out: Callable[[str], tuple[str, str]]) -> Edit:
    """The edit of `path` that `take_out` makes of its text (nothing when there is no file)."""

    def edit(data: bytes | None) -> tuple[bytes, EditStatus]:
        if data is None:
            return b"", "unchanged"
        with refusing(path):
            updated, status = take_out(decode(path, data))
        return updated.encode("utf-8"), "updated" if status == "removed" else "unchanged"

    return edit


def unregister_server(
    agent: AgentName,
    path: Path,
    project: ProjectPlace | None = None,
    created: CreatedFiles | None = None,
) -> Outcome:
    """Take `memtab` out of the agent's MCP servers in `path`, nothing else; a file install created
    goes once empty."""
    if agent == "codex":
        edit = _taken_out(path, lambda text: remove_codex_server(text, path=path))
    else:
        keys, jsonc = entry_keys(agent, project), agent in JSONC_AGENTS
        edit = _taken_out(path, lambda text: remove_member(text, keys, jsonc=jsonc))
    what = f"the memtab server ({entry_name(agent, project)})"
    return _removed(agent, path, edit, what, project_folder(agent, project), created)


def forbid_read_tools(path: Path, created: CreatedFiles | None = None) -> Outcome:
    """Take Memtab's read-only tools out of Claude Code's permission list in `path`."""
    rules = list(CLAUDE_READ_RULES)
    edit = _taken_out(path, lambda text: remove_items(text, CLAUDE_ALLOW_PATH, rules))
    what = f"Memtab's read-only tools ({', '.join(CLAUDE_READ_RULES)}) in permissions.allow"
    return _removed("claude", path, edit, what, None, created)


def forbid_gemini_read_tools(path: Path, created: CreatedFiles | None = None) -> Outcome:
    """Take Memtab's policy file (`path`) out of Gemini CLI's policies."""

    def edit(data: bytes | None) -> tuple[bytes, EditStatus]:
        with refusing(path):
            return gemini_settings.policy_removed(data)

    what = f"Memtab's rule (its read-only tools, {', '.join(GEMINI_READ_TOOLS)}, allowed)"
    return _removed("gemini", path, edit, what, None, created, whole=True)


def _removed(
    agent: AgentName,
    path: Path,
    edit: Edit,
    what: str,
    project: Path | None,
    created: CreatedFiles | None,
    *,
    whole: bool = False,
) -> Outcome:
    by_hand = lambda: f"take out {what} by hand"  # noqa: E731
    options = {"project": project, "created": created, "whole": whole}
    edited = edit_outcome(agent, path, edit, by_hand, nothing="changed nothing", **options)
    if isinstance(edited, Outcome):
        return edited
    if edited.status == "unchanged":
        words = f"nothing of Memtab's to take out of {where(path, edited)}"
        return outcome(agent, path, "unchanged", words)
    words = f"took {what} out of {where(path, edited)}; nothing else changed"
    if edited.removed and whole:
        words += "; the file was Memtab's own, so it is gone"
    elif edited.removed:
        words += "; the file held nothing else and Memtab's install had created it, so it is gone"
        words += "".join(f"; so is {folder}, made for it" for folder in edited.unmade)
    return outcome(agent, path, "removed", words + kept_words(edited))
