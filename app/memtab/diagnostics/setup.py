"""How Memtab is set up: the model provider (where each value came from, never the key), the
writer's settings, other agents' memory and Memtab's server with them; and the versions it runs
on, with whether Qt loads, looked at in a child Python so the doctor never loads Qt."""

from __future__ import annotations

import contextlib
import importlib.metadata
import io
import logging
import os
import platform
import subprocess
import sys
from collections.abc import Callable, Mapping
from typing import Annotated

import watchdog.version

from memtab import __version__
from memtab.agent_server.agents import AGENT_TITLES, config_path
from memtab.agent_server.agents import SERVER_KEY as MEMTAB_SERVER
from memtab.agent_server.bridge.rendezvous import shared_unavailable
from memtab.agent_server.hosting.login_service import LoginServiceFacts, login_service_facts
from memtab.agent_server.hosting.status import SharedServerFacts, shared_server_facts
from memtab.agent_server.registrations import registration, registrations
from memtab.diagnostics.report import CouldNotRun, Findings
from memtab.fs.config.settings_file import SettingsFileError, load_settings_file, settings_path
from memtab.fs.jsonfile import JsonError, parse_json
from memtab.fs.records import Key, OrNone, Record
from memtab.llm.endpoints import OFFICIAL_HOSTS, url_host
from memtab.llm.local_servers import ServedContext, served_context
from memtab.llm.settings import ProviderSettings, explain_provider_settings, unused_key_problems
from memtab.llm.settings_model import CONSOLIDATION_JOB, WRITER_JOB, is_local
from memtab.llm.types import ProviderError
from memtab.logs import LOG_FILE_NAME, log_dir, log_file
from memtab.sources.codex.memory_settings import (
    external_context_note,
    read_memory_settings,
)
from memtab.sources.config import SourceContext
from memtab.sources.discovery import agent_directory, discover
from memtab.sources.gemini.mcp_settings import server_blocks
from memtab.sources.model import LookedFor
from memtab.store.home import Home
from memtab.store.sidecars.registry import Registry
from memtab.writer.config import WriterSettings

logger = logging.getLogger(__name__)

SMALL_CONTEXT = 16_384
"""A context below this holds little of a transcript or a store beside a run's prompt."""


class ProviderOrigins(Record, write_only=True):
    """`provider.origins`: where each value came from (a layer, or the default)."""

    provider: str
    model: str | None
    base_url: str | None


class KeyFacts(Record, write_only=True):
    """`provider.key`: whether requests carry a key, from where, and why (never the key)."""

    sent: bool
    came_from: Annotated[str | None, Key("from")]
    withheld: str | None
    saved_for: tuple[str, ...]
    note: str


class LimitsFacts(Record, write_only=True):
    """`provider.limits`: each job's request time and reply length, and their origin (§15.1)."""

    request_timeout_s: float
    request_timeout_from: str
    writer_max_tokens: int
    consolidation_max_tokens: int
    max_tokens_from: str


class ProviderFacts(Record, write_only=True):
    """`provider`: the model, each value's origin, the key rule, the limits, the test's result."""

    provider: str
    model: str | None
    base_url: str | None
    origins: ProviderOrigins
    key: KeyFacts
    problem: str | None = None
    check: Record | None = None  # `llm.probe.ProbeResult`, loaded with httpx2 when asked
    limits: LimitsFacts | None = None
    context: ServedContext | None = None
    """What a server on this machine serves the model with, asked after the test request."""


class WriterFacts(Record, write_only=True):
    """`writer`: its settings under settings.json's names, and each bad value's problem."""

    settings: WriterSettings
    problems: tuple[str, ...]


class SourceFacts(Record, write_only=True):
    """One of `sources.found`: another agent's memory found."""

    id: str
    agent: str
    label: str
    root: str
    project: str | None
    writable: bool


class SourcesFacts(Record, write_only=True):
    """`sources`: other agents' memory found, where it was looked for, and problems."""

    found: tuple[SourceFacts, ...]
    looked_for: tuple[LookedFor, ...]
    problems: tuple[str, ...]


def check_provider(
    env: Mapping[str, str], *, probe: bool = False
) -> tuple[ProviderFacts | CouldNotRun, Findings]:
    """The provider, model and base URL in use, where each came from, and the key rule."""
    found = Findings("provider")
    for problem in unused_key_problems(env):
        found.warning(problem)
    try:
        resolved = explain_provider_settings(env=env)
    except (ProviderError, SettingsFileError) as error:
        found.broken(f"The model settings cannot be used: {error}")
        return CouldNotRun(problem=str(error)), found
    settings = resolved.settings
    origins = dict(resolved.origins)
    facts = ProviderFacts(
        provider=settings.provider,
        model=None if settings.is_offline else settings.model,
        base_url=None if settings.is_offline else settings.base_url,
        origins=ProviderOrigins(
            provider=origins["provider"],
            model=origins.get("model"),
            base_url=origins.get("base_url"),
        ),
        key=KeyFacts(
            sent=bool(settings.api_key),
            came_from=_key_origin(settings.api_key, settings.api_key_env),
            withheld=f"${settings.withheld_key_env}" if settings.withheld_key_env else None,
            saved_for=settings.saved_key_origins,
            note=settings.key_note(),
        ),
        limits=None if settings.is_offline else _limits(settings),
    )
    if settings.provider == "anthropic" and not settings.api_key:
        how = (
            settings.key_note()
            if settings.withheld_key_env or settings.saved_key_origins
            else "set $ANTHROPIC_API_KEY or $MEMTAB_API_KEY, or save one in Edit → Settings"
        )
        found.broken(f"Anthropic needs an API key and none is used: {how}")
    elif settings.withheld_key_env or settings.saved_key_origins:
        found.warning(settings.key_note())
    elif (
        settings.provider == "openai"
        and not settings.api_key
        and url_host(settings.base_url) == OFFICIAL_HOSTS["openai"]
    ):
        found.broken("The OpenAI API needs a key and none is used: set $OPENAI_API_KEY")
    if probe and not settings.is_offline:
        from memtab.llm.probe import probe_provider  # lazy: httpx2, only when asked

        result = probe_provider(settings)
        facts = facts.replaced(check=result)
        if not result.ok:
            found.broken(f"Test request: {result.summary}")
        elif result.tool_use in ("none", "invalid"):
            found.warning(f"Test request: {result.summary}")
        if is_local(settings.base_url):  # after the test request: the model is loaded
            context = served_context(settings.base_url, settings.model)
            facts = facts.replaced(context=context)
            if context is not None and context.raise_hint and context.tokens < SMALL_CONTEXT:
                found.warning(
                    f"{context.server} gives each request {context.tokens:,} tokens: a run "
                    f"shows the model only part of a transcript or the store; "
                    f"{context.raise_hint}"
                )
    return facts, found


def _limits(settings: ProviderSettings) -> LimitsFacts:
    return LimitsFacts(
        request_timeout_s=settings.request_limit(),
        request_timeout_from=settings.request_limit_origin(),
        writer_max_tokens=settings.reply_limit(WRITER_JOB),
        consolidation_max_tokens=settings.reply_limit(CONSOLIDATION_JOB),
        max_tokens_from="max_tokens in settings.json"
        if settings.max_tokens is not None
        else "each job's default",
    )


def _key_origin(key: str | None, variable: str | None) -> str | None:
    if not key:
        return None
    return f"${variable}" if variable else "settings file"


def check_writer(env: Mapping[str, str]) -> tuple[WriterFacts, Findings]:
    """The writer's settings as the app reads them; each value replaced by its default."""
    found = Findings("writer")
    path = settings_path(env)
    try:
        raw = load_settings_file(path).get(WriterSettings.SECTION)
    except SettingsFileError as error:  # reported with the sidecars and the provider
        raw = None
        logger.info("writer settings: %s", error)
    settings, problems = WriterSettings.checked(raw, source=str(path))
    for problem in problems:
        found.warning(problem)
    # `timeout_s` is shown as the limit a run has (a number, as --json always gave it): with
    # none set, the one for the model in use.
    settings = settings.replaced(timeout_s=settings.limit_s(local=_model_is_local(env)))
    return WriterFacts(settings=settings, problems=tuple(problems)), found


def _model_is_local(env: Mapping[str, str]) -> bool:
    try:
        provider = explain_provider_settings(env=env).settings
    except (ProviderError, SettingsFileError):  # the provider's section says why
        return False
    return not provider.is_offline and is_local(provider.base_url)


def check_sources(
    home: Home, registry: Registry | None, env: Mapping[str, str]
) -> tuple[SourcesFacts, Findings]:
    """Other agents' memory found, and where it was looked for."""
    found = Findings("sources")
    context = SourceContext.load(home, env=env, registry=registry)
    discovery = discover(context)
    for problem in context.problems:
        found.warning(problem)
    codex_root = agent_directory(context, "codex")
    if codex_root is not None:  # Codex leaving threads using Memtab out of its memory (§17.6)
        codex = read_memory_settings(codex_root)
        note = external_context_note(codex)
        if note is not None and MEMTAB_SERVER in codex.mcp_servers:
            found.warning(f"Codex: {note}. Set it to false to let those threads be remembered")
    gemini = config_path("gemini", home, env)  # what keeps Gemini CLI from starting Memtab (§22.6)
    if registration("gemini", gemini).registered:
        for block in server_blocks(gemini.parent, env, MEMTAB_SERVER):
            found.warning(f"Gemini CLI: {block}")
    facts = SourcesFacts(
        found=tuple(
            SourceFacts(
                id=source.id,
                agent=source.agent,
                label=source.label,
                root=str(source.root),
                project=source.project,
                writable=source.writable,
            )
            for source in discovery.sources
        ),
        looked_for=discovery.looked_for,
        problems=tuple(context.problems),
    )
    return facts, found


def check_agent_server(home: Home, env: Mapping[str, str]) -> tuple[SharedServerFacts, Findings]:
    """Whether agents' sessions of `home` started with `env` get a warm server (docs/formats.md
    §22.8; asks the host over its socket), and whether each registered `--home` exists."""
    found = Findings("agentServer")
    facts = shared_server_facts(home, env)
    if facts.why_not is not None and shared_unavailable(env) is None:
        found.warning(facts.note)
    for registered in registrations(home, env):
        named = registered.options.home if registered.options is not None else None
        if named is None or not os.path.isabs(named) or os.path.isdir(named):
            continue  # a relative --home is the agent's directory's: not known here
        what = "is not a folder" if os.path.lexists(named) else "does not exist"
        found.warning(
            f"{AGENT_TITLES[registered.agent]}'s Memtab server serves the home {named}, which "
            f"{what}: its sessions list and find nothing (a typo in --home, or a home moved "
            f"or deleted since). Fix --home in {registered.path}, or run `memtab mcp "
            f"install` again with the home meant"
        )
    return facts, found


def check_login_service(home: Home, env: Mapping[str, str]) -> tuple[LoginServiceFacts, Findings]:
    """Whether `home`'s agents find a warm host from login, and what was answered."""
    return login_service_facts(home, env), Findings("loginService")


QT_CHECK_TIMEOUT_S = 30.0
# Run by a child interpreter; prints the record `QtCheck` as JSON. It imports nothing of Memtab:
# the child may not find it.
QT_CHECK = """
import ctypes, json, pathlib, sys
found = {}
try:
    import PySide6
    from PySide6 import QtCore
    found["pyside6"] = PySide6.__version__
    found["qt"] = QtCore.qVersion()
    plugins = QtCore.QLibraryInfo.path(QtCore.QLibraryInfo.LibraryPath.PluginsPath)
    xcb = pathlib.Path(plugins) / "platforms" / "libqxcb.so"
    if sys.platform.startswith("linux") and xcb.is_file():
        try:
            ctypes.CDLL(str(xcb))
        except OSError as error:
            found["platformProblem"] = str(error)
except Exception as error:
    found["problem"] = f"{type(error).__name__}: {error}"
print(json.dumps(found))
"""


class QtCheck(Record):
    """What `QT_CHECK` found: the versions, and why Qt or its xcb plugin does not load."""

    pyside6: OrNone[str] = None
    qt: OrNone[str] = None
    platform_problem: OrNone[str] = None
    problem: OrNone[str] = None


QtChecker = Callable[[], QtCheck]


def run_qt_check() -> QtCheck:
    """What `QT_CHECK` found, in a child Python (in this process in a frozen bundle)."""
    if getattr(sys, "frozen", False):
        output = io.StringIO()
        with contextlib.redirect_stdout(output):
            exec(compile(QT_CHECK, "<qt check>", "exec"), {"__name__": "qt_check"})
        return read_qt_check(output.getvalue(), "")
    try:
        child = subprocess.run(
            [sys.executable, "-c", QT_CHECK],
            capture_output=True,
            text=True,
            timeout=QT_CHECK_TIMEOUT_S,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired) as error:
        return QtCheck(problem=f"the Qt check could not run ({error})")
    return read_qt_check(child.stdout, child.stderr)


def read_qt_check(stdout: str, stderr: str) -> QtCheck:
    """What the check printed (its last line), or why there is no answer."""
    lines = stdout.strip().splitlines()
    try:
        found = QtCheck.read(parse_json(lines[-1])) if lines else None
    except JsonError:
        found = None
    if found is None:
        last = (stderr.strip().splitlines() or ["no output"])[-1]
        return QtCheck(problem=f"the Qt check ended without an answer ({last})")
    return found


def _distribution_version(*names: str) -> str | None:
    for name in names:
        try:
            return importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            continue
    return None


class Versions(Record, write_only=True):
    """`runtime.versions`: Memtab's, Python's, the platform's and the libraries'."""

    memtab: str
    python: str
    platform: str
    pyside6: str | None
    qt: str | None
    watchdog: str
    httpx: str | None
    """Kept for readers of the JSON: httpx's version when installed, else None."""
    httpx2: str
    pydantic: str | None


class RuntimeFacts(Record, write_only=True):
    """`runtime`: the versions, why Qt does not load, whether frozen, and the log file."""

    versions: Versions
    qt_problem: str | None
    frozen: bool
    log_file: str


def check_runtime(qt_check: QtChecker = run_qt_check) -> tuple[RuntimeFacts, Findings]:
    """Versions of Memtab, Python, Qt and the libraries, and whether Qt loads."""
    # lazy: httpx2 only when asked
    import httpx2

    found = Findings("runtime")
    qt = qt_check()
    if qt.problem:
        found.broken(f"Qt does not load, so the window cannot open: {qt.problem}")
    if qt.platform_problem:
        found.broken(
            f"Qt's xcb platform plugin cannot load ({qt.platform_problem}): the window "
            "will not open on X11; `memtab` names the package to install, and "
            "scripts/install-system-deps installs everything Qt needs"
        )
    versions = Versions(
        memtab=__version__,
        python=platform.python_version(),
        platform=platform.platform(),
        pyside6=qt.pyside6 or _distribution_version("PySide6-Essentials", "PySide6"),
        qt=qt.qt,
        watchdog=watchdog.version.VERSION_STRING,
        httpx=_distribution_version("httpx"),
        httpx2=httpx2.__version__,
        # the MCP SDK's (Memtab's own code does not import it): read, not imported
        pydantic=_distribution_version("pydantic"),
    )
    facts = RuntimeFacts(
        versions=versions,
        qt_problem=qt.problem or qt.platform_problem,
        frozen=bool(getattr(sys, "frozen", False)),
        log_file=str(log_file() or log_dir() / LOG_FILE_NAME),
    )
    return facts, found
