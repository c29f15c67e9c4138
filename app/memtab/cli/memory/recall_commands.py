"""`memtab recall PROMPT`: what each agent would load and recall for a prompt, and why each memory
is taken or missed (docs/formats.md §17.8); `--model` also asks the configured model."""

from __future__ import annotations

from memtab.cli.common import command, format_table
from memtab.cli.options import CliError
from memtab.fs.config.settings_file import SettingsFileError
from memtab.llm.settings import ProviderSettings, resolve_provider_settings
from memtab.llm.types import ProviderError
from memtab.loads.recall.asking import ask_model
from memtab.loads.recall.engine import compute_recall
from memtab.loads.recall.records import AgentRecall, ModelPick, Recall, RecallFile
from memtab.loads.records import AGENT_LABELS, AGENTS, AgentName
from memtab.store.home import Home

_SHOWN_UNRECALLABLE = 10


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
    try:
        settings = resolve_provider_settings()
    except (SettingsFileError, ProviderError) as error:
        raise CliError(str(error)) from error
    if settings.is_offline:
        raise CliError(
            "--model asks the configured model, and none is: choose one in File → Settings "
            "or with memtab models use-local (an Anthropic or OpenAI-compatible one)"
        )
    return settings


@run_recall.text
def print_recall(result: Recall, manifest: bool) -> None:
    where = f" in {result.directory}" if result.directory else ""
    print(f"For {result.prompt!r}{where}:\n")
    for agent in result.agents:
        _print_agent(agent, manifest)
    never = result.never_shown()
    if never:
        print(f"No agent can recall these {len(never)}, whatever the prompt:")
        for item in never[:_SHOWN_UNRECALLABLE]:
            print(f"  {AGENT_LABELS[item.agent]}: {item.id or item.path} — {item.reason}")
        more = len(never) - _SHOWN_UNRECALLABLE
        if more > 0:
            print(f"  … and {more} more (--json lists them all)")


def _print_agent(agent: AgentRecall, manifest: bool) -> None:
    print(f"{AGENT_LABELS[agent.agent]} — {agent.how}")
    for note in agent.notes:
        print(f"  ({note})")
    rows = [["", "FILE", "WHY"]]
    for file in agent.files:
        rows.append([_mark(file), _name(file), file.reason + _cut(file)])
    if len(rows) > 1:
        print(format_table(rows))
    else:
        print("  nothing")
    if agent.model_pick is not None:
        _print_pick(agent.model_pick)
    if manifest and agent.sent:
        print("\n" + agent.sent)
    print()


def _print_pick(pick: ModelPick) -> None:
    cost = f"{pick.input_tokens:,} tokens in, {pick.output_tokens:,} out"
    if pick.elapsed_ms is not None:
        cost += f", {pick.elapsed_ms / 1000:.1f} s"
    print(f"\nAsked {pick.model} as Claude Code asks its model ({pick.provider}; {cost}):")
    if pick.problem is not None:
        print(f"  no pick — {pick.problem}")
        return
    picks = ", ".join(pick.picks) if pick.picks else "nothing"
    print(f"  it picks: {picks} (agrees with the words' prediction on {pick.agreement:.0%})")
    if pick.not_listed:
        print(f"  it also named {', '.join(pick.not_listed)}: no file listed, Claude Code drops it")


def _mark(file: RecallFile) -> str:
    if file.verdict == "loaded":
        return "start"
    if file.verdict == "recalled":
        return f"#{file.rank}"
    return "missed"


def _name(file: RecallFile) -> str:
    name = file.name or file.id or file.path or ""
    if file.first_line is not None and file.verdict != "loaded":
        name += f":{file.first_line}-{file.last_line}"
    return name


def _cut(file: RecallFile) -> str:
    return f" ({file.cut_reason})" if file.cut_reason and file.verdict != "loaded" else ""
