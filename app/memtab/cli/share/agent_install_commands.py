"""`memtab mcp install` and `memtab mcp uninstall` (docs/formats.md §22.6): register Memtab's
server with each agent, or take it out again, and say what was written and why (the parser
is `agent_server_commands`; this module loads only for these two)."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

from memtab.agent_server.agents import (
    AGENT_TITLES,
    AGENTS,
    NO_XUM_PROJECT,
    AgentName,
    ProjectPlace,
    agent_found,
    claude_settings_path,
    config_path,
    demo_refusal,
    project_place,
)
from memtab.agent_server.config_files.gemini_settings import policy_path
from memtab.agent_server.hosting.login_service import (
    Answer,
    login_service_facts,
    remember_answer,
    remembered_answer,
)
from memtab.agent_server.install import (
    Outcome,
    install_agent,
    make_home,
    permissions_snippet,
    server_command,
    snippet,
)
from memtab.agent_server.registrations import registration
from memtab.agent_server.server_names import DEFAULT_WRITES, WriteMode
from memtab.agent_server.session_scope import FROM_DIRECTORY, session_scope
from memtab.agent_server.uninstall import uninstall_agent
from memtab.cli.options import CliError, home_location
from memtab.fs.config.settings_file import SettingsFileError
from memtab.store.home import Home
from memtab.watch.service import install as install_service

HOOK_NAMES = ("tool_hook", "tool_pre", "tool_post")
_PROJECT_FOLDERS = (".xum", ".mux")

HOOKS_BYPASSED = (
    "xum's tool hooks ({hooks}) do not run on changes other agents make through Memtab: xum "
    "runs them only around its own tool calls, in its workspace's runtime (on the remote "
    "machine or in the container for SSH and container workspaces). With --writes inbox "
    "(the default) you review each change in the Inbox instead; with --writes direct they "
    "are written without your hooks"
)


def xum_hooks(home: Home, checkout: Path | None = None) -> list[Path]:
    """The tool hook files xum would run for a session of `checkout` (its own first, then the
    home's), each once."""
    found: list[Path] = []
    for name in HOOK_NAMES:
        places = [checkout / folder / name for folder in _PROJECT_FOLDERS] if checkout else []
        places.append(home.root / name)
        hook = next((place for place in places if place.is_file()), None)
        if hook is not None:
            found.append(hook)
    return found


def hooks_bypassed_note(hooks: list[Path]) -> str | None:
    """What install says of the hooks found (None: there are none)."""
    if not hooks:
        return None
    return HOOKS_BYPASSED.format(hooks=", ".join(str(hook) for hook in hooks))


_TITLES = ", ".join(AGENT_TITLES[agent] for agent in AGENTS)


def install(
    home_given: str | None,
    chosen: list[AgentName],
    project_given: str | None,
    print_only: bool,
    workspace: str | None,
    writes: WriteMode,
    answer_budget: int | None,
    login_service: bool | None,
) -> int:
    """`memtab mcp install` (`agent_server_commands.run_install` says what each takes)."""
    home = Home(home_location(home_given).path)
    _refuse_demo(home, "install")
    project = _project(project_given)
    agents = chosen or [agent for agent in _agents(project) if agent_found(agent, home)]
    if not agents:
        raise CliError(f"No agent found ({_TITLES}): name one, e.g. memtab mcp install --claude")
    _refuse_xum(agents, project)
    # the server's own default needs no option
    command = server_command(
        home, workspace, None if writes == DEFAULT_WRITES else writes, answer_budget
    )
    if print_only:
        for agent in agents:
            path = config_path(agent, home, project=project)
            under = (
                f" (under projects[{project.claude_key!r}])"
                if project and agent == "claude"
                else ""
            )
            print(f"# {AGENT_TITLES[agent]}: {path}{under}\n{snippet(agent, command)}\n")
            if agent in ("claude", "gemini"):
                where = claude_settings_path() if agent == "claude" else gemini_policy(home)
                print(f"# {AGENT_TITLES[agent]}: {where}\n{permissions_snippet(agent)}\n")
        return 0
    try:
        made = make_home(home)
    except OSError as error:
        raise CliError(f"cannot make the memory home {home.root}: {error}") from error
    if made is not None:
        print(made)
    outcomes = [
        outcome
        for agent in agents
        for outcome in install_agent(agent, home, command, project=project)
    ]
    status = _report(outcomes)
    hooks = hooks_bypassed_note(xum_hooks(home, project.checkout if project else None))
    if hooks is not None:
        print(hooks)
    if project is not None and any(outcome.status != "refused" for outcome in outcomes):
        # What a session started in the checkout serves (§22.9), so nothing narrows unsaid.
        there = [str(project.checkout)]
        scope = session_scope(home, there, decided_by=FROM_DIRECTORY, pinned=workspace)
        print(f"In {project.checkout}: {scope.words()}")
    if status == 0:  # the agents have Memtab: warm from login, if the user wants it
        status = offer_login_service(home, login_service)
    return status


def uninstall(home_given: str | None, chosen: list[AgentName], project_given: str | None) -> int:
    """`memtab mcp uninstall` (`agent_server_commands.run_uninstall` says what each takes)."""
    home = Home(home_location(home_given).path)
    _refuse_demo(home, "uninstall")
    project = _project(project_given)
    agents = chosen or [
        agent
        for agent in _agents(project)
        if project is not None or registration(agent, config_path(agent, home)).registered
    ]
    if not agents:
        raise CliError(f"No agent has the memtab server ({_TITLES}): nothing to take out")
    _refuse_xum(agents, project)
    return _report(
        [outcome for agent in agents for outcome in uninstall_agent(agent, home, project=project)]
    )


def gemini_policy(home: Home) -> Path:
    """Memtab's policy file for Gemini CLI (the user's, for a project's install too)."""
    return policy_path(config_path("gemini", home).parent)


def _project(directory: str | None) -> ProjectPlace | None:
    """`--project DIR`'s place (None without it); CliError when DIR is no directory."""
    if directory is None:
        return None
    path = Path(directory).expanduser()
    if not path.is_dir():
        raise CliError(f"--project {directory}: no such directory")
    return project_place(path)


def _agents(project: ProjectPlace | None) -> tuple[AgentName, ...]:
    """The agents an install may go to: all, or those with a per-project configuration."""
    return AGENTS if project is None else tuple(a for a in AGENTS if a != "xum")


def _refuse_demo(home: Home, change: str) -> None:
    """A demo home reaches no real agent (`--print` too: its snippet would serve it)."""
    refusal = demo_refusal(home, change)
    if refusal is not None:
        raise CliError(refusal)


def _refuse_xum(agents: list[AgentName], project: ProjectPlace | None) -> None:
    if project is not None and "xum" in agents:
        raise CliError(NO_XUM_PROJECT)


def _report(outcomes: list[Outcome]) -> int:
    """Each outcome's line (a refusal's and the warnings on stderr); 1 if one was refused."""
    for outcome in outcomes:
        print(outcome.message, file=sys.stderr if outcome.status == "refused" else sys.stdout)
        for warning in outcome.warnings:
            print(warning, file=sys.stderr)
    return 1 if any(outcome.status == "refused" for outcome in outcomes) else 0


# --- install's offer of a warm Memtab from login (docs/formats.md §22.6, §22.8) ------------------

QUESTION = (
    "Keep Memtab warm from login, so each agent's first session of the day starts at once? "
    "This starts `memtab watch` for this home at login ({entry}). [Y/n] "
)
HINT = (
    "Memtab is not kept warm from login: the first session of the day waits for it to start. "
    "`memtab mcp install --login-service` sets that up (`--no-login-service`: no, and this "
    "line is not said again)."
)


def offer_login_service(
    home: Home,
    chosen: bool | None,
    *,
    ask: Callable[[str], str] = input,
    interactive: Callable[[], bool] = lambda: sys.stdin.isatty() and sys.stdout.isatty(),
) -> int:
    """Install the login service for `home`, or not, as `chosen` says (None: as the user
    answered before, else asked in a terminal, else a line says how); what is done is said
    on stdout, a failure on stderr. The exit status (1: the service could not be set up)."""
    facts = login_service_facts(home)
    if chosen is None:
        if facts.installed or remembered_answer(home) == "declined":
            print(f"Login: {facts.note}")
            return 0
        if not interactive():
            print(HINT)
            return 0
        try:
            reply = ask(QUESTION.format(entry=facts.entry))
        except EOFError:
            reply = "n"
        chosen = reply.strip().lower() in ("", "y", "yes")
    if not chosen:
        _remember(home, "declined")
        print("Login: not kept warm from login; `memtab watch --install` sets it up later.")
        return 0
    try:
        result = install_service(home)
    except OSError as error:
        print(
            f"memtab: the login service could not be set up: {error.strerror or error} "
            f"({facts.entry})",
            file=sys.stderr,
        )
        return 1
    _remember(home, "installed")
    print(f"Login: kept warm from login by `memtab watch` ({result.path})")
    for ran in result.ran:
        if ran.status != 0:
            print(f"  {' '.join(ran.argv)}: {ran.said or f'exit {ran.status}'}", file=sys.stderr)
    if result.note:
        print(f"  {result.note}")
    return 0


def _remember(home: Home, answer: Answer) -> None:
    try:
        remember_answer(home, answer)
    except SettingsFileError as error:
        print(f"memtab: the answer is not kept ({error}): it is asked again", file=sys.stderr)
