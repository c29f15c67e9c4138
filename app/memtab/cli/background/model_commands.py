"""`memtab models` and `memtab settings`: which model the writer and Consolidate use, the model
servers running here, and switching to one of them (or back offline)."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Annotated

from memtab.cli.common import as_cli_error, command, format_table, group
from memtab.cli.options import CliError
from memtab.fs.config.settings_file import SettingsFileError
from memtab.fs.records import Record
from memtab.fs.terminal_text import printable
from memtab.llm.local_servers import (
    KNOWN_SERVERS,
    LocalServer,
    LocalServerError,
    ServerKind,
    choose_model,
    find_local_servers,
    find_server,
    settings_for,
)
from memtab.llm.settings import (
    OFFLINE_MODEL,
    ProviderSettings,
    resolve_provider_settings,
    save_provider_settings,
)
from memtab.llm.types import OFFLINE_PROVIDER, ProviderError
from memtab.writer.config import LOCAL_TIMEOUT_S, MAX_TIMEOUT_S, load_writer_settings

_KIND_NAMES = ", ".join(kind.name for kind in KNOWN_SERVERS)


@command(
    "models",
    home=False,
    writes_home=False,
    description="Print the model the writer and Consolidate now use; with --local, also "
    f"ask this machine's usual ports ({_KIND_NAMES}) which models they serve.",
)
def run_models(
    *, local: bool = False, port: tuple[str, ...] = (), timeout: float = 0.6
) -> ModelsFound:
    """the model in use, and model servers running on this machine

    Args:
        local: look for local model servers
        port (KIND=PORT): where a server listens when not on its usual port (ollama=11435)
        timeout: seconds to wait for each port (0.6)
        json: machine-readable output
    """
    try:
        configured: ProviderSettings | None = resolve_provider_settings()
        problem = None
    except (ProviderError, SettingsFileError) as error:
        configured, problem = None, str(error)
    servers = _find(port, timeout) if local else []
    return ModelsFound(configured=_settings_row(configured, problem), local=tuple(servers))


@run_models.text
def _print_models(found: ModelsFound, local: bool) -> None:
    configured = found.configured
    in_use = (
        configured.description
        if isinstance(configured, ProviderRow)
        else f"unusable ({configured.problem})"
    )
    print(f"In use: {printable(in_use)}")
    if local:
        print(_servers_text(list(found.local)))


settings_group = group(
    "settings", home=False, writes_home=False, help="choose the model Memtab uses"
)


@command("use-local", under=settings_group, home=False)
def run_use_local(
    server: Annotated[str, f"which server: {_KIND_NAMES}, or its port"],
    *,
    model: str | None = None,
    port: tuple[str, ...] = (),
    timeout: float = 0.6,
) -> SettingsSaved:
    """use a model server running on this machine (no key, nothing leaves it)

    Save settings that send the writer's and Consolidate's requests to a local server's
    OpenAI-compatible API. The server must be running.

    Args:
        server (server): its help is its Annotated words (the servers' names)
        model: a model it serves (`qwen2.5-coder` picks `qwen2.5-coder:7b`)
        port (KIND=PORT): where a server listens when not on its usual port (ollama=11435)
        timeout: seconds to wait for each port (0.6)
        json: machine-readable output
    """
    servers = _find(port, timeout)
    found = find_server(server, servers)
    if found is None:
        running = ", ".join(f"{s.kind} ({s.port})" for s in servers) or "none"
        raise CliError(
            f"No {server} server answers on this machine (running: {running}). "
            "Start it (e.g. `ollama serve`), or give its port with --port."
        )
    with as_cli_error(LocalServerError):
        chosen = choose_model(found, model)
    return _save(settings_for(found, chosen))


@command("use-offline", under=settings_group, home=False)
def run_use_offline() -> SettingsSaved:
    """use Memtab's built-in offline engines (no model)

    Args:
        json: machine-readable output
    """
    return _save(ProviderSettings("offline", OFFLINE_MODEL, ""))


def _save(settings: ProviderSettings) -> SettingsSaved:
    with as_cli_error(ProviderError, SettingsFileError):
        path = save_provider_settings(settings)
    return SettingsSaved(saved=_settings_row(settings, None), settings_file=path)


@run_use_local.text
@run_use_offline.text
def _print_saved(saved: SettingsSaved) -> None:
    row = saved.saved
    assert isinstance(row, ProviderRow)  # what was saved was usable
    print(f"Saved to {saved.settings_file}: {row.description}")
    print("The writer and Consolidate now use it (the environment and --provider still win).")
    run_limit = load_writer_settings().timeout_s  # None: the default, sized for a local model
    if row.provider != OFFLINE_PROVIDER and run_limit is not None and run_limit < LOCAL_TIMEOUT_S:
        print(
            f"A writer run stops after {run_limit:g} s (writer.timeout_s in settings.json); "
            f"a model on this machine may need minutes: raise it, up to {MAX_TIMEOUT_S:g} s."
        )


def _find(port: tuple[str, ...], timeout: float) -> list[LocalServer]:
    with as_cli_error(LocalServerError):
        return find_local_servers(_kinds(port), timeout=timeout)


def _kinds(overrides: tuple[str, ...]) -> list[ServerKind]:
    """The known servers with the ports given as KIND=PORT."""
    ports: dict[str, int] = {}
    for item in overrides:
        name, _, port = item.partition("=")
        if name not in {kind.name for kind in KNOWN_SERVERS} or not port.isdigit():
            raise CliError(f"--port takes KIND=PORT with KIND one of {_KIND_NAMES}, not {item!r}")
        if not 0 < int(port) < 65536:
            raise CliError(f"--port {item}: not a port number")
        ports[name] = int(port)
    return [
        dataclasses.replace(kind, port=ports.get(kind.name, kind.port)) for kind in KNOWN_SERVERS
    ]


class ProviderRow(Record, write_only=True):
    """The model in use (`memtab models --json`, `settings use-local --json`); never the key."""

    provider: str
    model: str | None
    base_url: str | None
    description: str


class ProviderProblem(Record, write_only=True):
    """Why no model is usable (settings.json or the environment refused)."""

    problem: str | None


class ModelsFound(Record, write_only=True):
    """`memtab models --json`: the model in use (or why none is) and the local servers found."""

    configured: ProviderRow | ProviderProblem
    local: tuple[LocalServer, ...]


class SettingsSaved(Record, write_only=True):
    """`memtab settings use-local|use-offline --json`: what was saved, and where."""

    saved: ProviderRow | ProviderProblem
    settings_file: Path


def _settings_row(
    settings: ProviderSettings | None, problem: str | None
) -> ProviderRow | ProviderProblem:
    if settings is None:
        return ProviderProblem(problem=problem)
    return ProviderRow(
        provider=settings.provider,
        model=settings.model,
        base_url=settings.base_url,
        description=settings.describe(),
    )


def _servers_text(servers: list[LocalServer]) -> str:
    if not servers:
        return (
            f"No model server answers on this machine's usual ports ({_KIND_NAMES}).\n"
            "With Ollama: `ollama pull qwen2.5-coder`, then `ollama serve` if it is not running."
        )
    rows = [
        [server.title, server.base_url, printable(", ".join(server.models)) or "(no models)"]
        for server in servers
    ]
    first = servers[0]
    hint = f"memtab settings use-local {first.kind}"
    if len(first.models) > 1:
        hint += f" --model {printable(first.models[0])}"
    return f"{format_table(rows)}\nTo use one: {hint}"
