"""`memtab recall PROMPT`: what each agent would load and recall for a prompt, and why each memory
is taken or missed (docs/formats.md §17.8); `--model` also asks the configured model."""

from __future__ import annotations

from memtab.cli.common import as_cli_error, command, format_table
from memtab.cli.options import CliError
from memtab.fs.config.settings_file import SettingsFileError
from memtab.llm.settings import ProviderSettings, resolve_provider_settings
from memtab.llm.types import ProviderError
from memtab.loads.recall.asking import ask_model
from memtab.loads.recall.engine import compute_recall
from memtab.loads.recall.records import Recall
from memtab.loads.records import AGENTS, AgentName
from memtab.store.home import Home


@command("recall", writes_home=False)
def run_recall(
    home: Home,
    prompt: str,
    *,
    workspace: str | None = None,
    directory: str | None = None,
    agent: tuple[AgentName, ...] = (),
    manifest: bool = False,
    model: bool = False,
) -> Recall:
    """what each agent would load and recall for a prompt, and why

    Args:
        prompt: the prompt, as the user would type it
        workspace (ID): a workspace (its checkout and scopes)
        directory (DIR): the directory Claude Code and Codex start in (default: the workspace's)
        agent: only this agent
        manifest: print what Claude Code sends its model to choose with
        model: also ask the configured model, as Claude Code asks its own (costs tokens)
    """
    if not prompt.strip():
        raise CliError("The prompt is empty: give the words the user would type")
    settings = _model_settings() if model else None
    result = compute_recall(
        home,
        prompt,
        workspace_id=workspace,
        directory=directory,
        agents=tuple(dict.fromkeys(agent)) or AGENTS,
    )
    return result if settings is None else ask_model(result, settings)


def _model_settings() -> ProviderSettings:
    """The configured model, or why there is none to ask."""
    with as_cli_error(SettingsFileError, ProviderError):
        settings = resolve_provider_settings()
    if settings.is_offline:
        raise CliError(
            "--model asks the configured model, and none is: choose one in File → Settings "
            "or with memtab models use-local (an Anthropic or OpenAI-compatible one)"
        )
    return settings


@run_recall.text
def print_recall(result: Recall, manifest: bool) -> None:
    """The window's groups (What each agent recalls) as tables: each agent's, then what none
    can recall; `manifest`: what Claude Code sends its model under its table."""
    # lazy: the window's rows, not `memtab --help`'s start
    from memtab.components.loads.loads import recall_groups, summary

    print(summary(result) + "\n")
    sent = {agent.agent: agent.sent for agent in result.agents}
    for group in recall_groups(result):
        print(group.title)
        for note in (group.how, *group.notes):
            print(f"  ({note})")
        rows = [[row.mark, row.name, row.why] for row in (*group.rows, *group.loaded)]
        print(format_table([["", "FILE", "WHY"], *rows]) if rows else "  nothing")
        if manifest and group.agent is not None and (text := sent[group.agent]):
            print("\n" + text)
        print()
