"""Gemini CLI's settings, the keys that decide where its memory is and what it loads, merged
from its four files as it merges them, `$VAR`s replaced (docs/formats.md §17.7); a file that is
not an object read as empty, saying so."""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, TypeVar

from memtab.fs.jsonfile import JsonError, parse_json, strip_json_comments
from memtab.fs.records import Lenient, Record
from memtab.fs.user_files import read_regular_file

T = TypeVar("T")

DEFAULT_CONTEXT_NAME = "GEMINI.md"
SETTINGS_NAME = "settings.json"
TRUSTED_FOLDERS_NAME = "trustedFolders.json"
DEFAULT_TRUNCATE_THRESHOLD = 40_000
"""`DEFAULT_TRUNCATE_TOOL_OUTPUT_THRESHOLD`: characters of a tool's text Gemini CLI keeps."""
_MAX_BYTES = 1024 * 1024
_VARIABLE = re.compile(r"\$(?:([A-Za-z0-9_]+)|\{([^}]+)\})")
"""`$NAME` or `${…}`, split at `:-` in Python (Gemini CLI's lazy pattern is quadratic)."""
_TRUST_LEVELS = ("TRUST_FOLDER", "TRUST_PARENT", "DO_NOT_TRUST")


class _Context(Record):
    file_name: Any = None
    memory_boundary_markers: Any = None
    import_format: Any = None


class _Experimental(Record):
    auto_memory: Any = None


class _Tools(Record):
    truncate_tool_output_threshold: Any = None


class _Mcp(Record):
    allowed: Any = None
    excluded: Any = None


class _FolderTrust(Record):
    enabled: Any = None


class _Security(Record):
    folder_trust: Annotated[_FolderTrust | None, Lenient(None)] = None


class GeminiSettingsFile(Record):
    """One Gemini CLI settings file, the keys Memtab reads, as written."""

    context: Annotated[_Context | None, Lenient(None)] = None
    experimental: Annotated[_Experimental | None, Lenient(None)] = None
    security: Annotated[_Security | None, Lenient(None)] = None
    tools: Annotated[_Tools | None, Lenient(None)] = None
    mcp: Annotated[_Mcp | None, Lenient(None)] = None
    policy_paths: Any = None


@dataclass(frozen=True)
class GeminiSettings:
    """What the merged settings decide (see the module doc)."""

    context_names: tuple[str, ...] = (DEFAULT_CONTEXT_NAME,)
    boundary_markers: tuple[str, ...] = (".git",)
    import_format: str = "tree"
    auto_memory: bool = False
    folder_trust: bool = True
    truncate_threshold: float = DEFAULT_TRUNCATE_THRESHOLD
    mcp_allowed: frozenset[str] | None = None
    """The MCP servers every file that lists some allows, lowercased (None: no list)."""
    mcp_excluded: frozenset[str] = frozenset()
    policy_paths: tuple[str, ...] = ()
    """As written (`~` not expanded), each once."""
    problems: tuple[str, ...] = ()

    @property
    def global_name(self) -> str:
        """The global memory file's name (`getCurrentGeminiMdFilename`: the first)."""
        return self.context_names[0]


def system_settings_path(env: Mapping[str, str]) -> Path:
    chosen = env.get("GEMINI_CLI_SYSTEM_SETTINGS_PATH")
    if chosen:
        return Path(chosen)
    if sys.platform == "darwin":
        return Path("/Library/Application Support/GeminiCli/settings.json")
    if sys.platform == "win32":
        return Path(r"C:\ProgramData\gemini-cli\settings.json")
    return Path("/etc/gemini-cli/settings.json")


def system_defaults_path(env: Mapping[str, str]) -> Path:
    chosen = env.get("GEMINI_CLI_SYSTEM_DEFAULTS_PATH")
    if chosen:
        return Path(chosen)
    return system_settings_path(env).parent / "system-defaults.json"


def expand_variables(value: str, env: Mapping[str, str]) -> str:
    """`resolveEnvVarsInString` from `env` (unset without a default stays as written)."""

    def replace(match: re.Match[str]) -> str:
        name, default = match.group(1), None
        if name is None:  # `${NAME}` or `${NAME:-default}`: the name is at least one character
            inside = match.group(2)
            cut = inside.find(":-", 1)
            name, default = (inside, None) if cut < 0 else (inside[:cut], inside[cut + 2 :])
        if name in env:
            return env[name]
        return default if default is not None else match.group(0)

    return _VARIABLE.sub(replace, value)


def read_settings_file(path: Path, problems: list[str]) -> GeminiSettingsFile | None:
    """A settings file's keys (None: absent; unreadable or not a JSON object: reported)."""
    try:  # without blocking: a FIFO named settings.json is refused at once
        data = read_regular_file(path, limit=_MAX_BYTES)
    except FileNotFoundError:
        return None
    except OSError as error:
        problems.append(f"{path} is not read: {error.strerror or error}")
        return None
    try:
        raw = parse_json(strip_json_comments(data.decode("utf-8", errors="replace")))
    except JsonError as error:
        problems.append(f"{path} is not JSON ({error}): Gemini CLI stops at its start")
        return None
    if not isinstance(raw, dict):
        problems.append(f"{path} is not a JSON object: Gemini CLI stops at its start")
        return None
    return GeminiSettingsFile.read(raw)


class SettingsReader:
    """Gemini CLI's settings for one Gemini home, each file read once."""

    def __init__(self, gemini_dir: Path, env: Mapping[str, str], *, system: bool = True) -> None:
        """`system`: read the system's files too (an isolated home does not)."""
        self.gemini_dir = gemini_dir
        self.env = env
        self._problems: list[str] = []
        self._before = [
            read_settings_file(path, self._problems)
            for path in (
                *([system_defaults_path(env)] if system else []),
                gemini_dir / SETTINGS_NAME,
            )
        ]
        self._after = [
            read_settings_file(path, self._problems)
            for path in ([system_settings_path(env)] if system else [])
        ]
        trust = _first(reversed([*self._before, *self._after]), _folder_trust)
        self.folder_trust = trust if isinstance(trust, bool) else True
        self._rules: Sequence[tuple[str, str]] | None = None

    def trusts(self, project: Path) -> bool:
        """Whether Gemini CLI trusts `project` (see `trusted`)."""
        if self._rules is None:
            self._rules = trust_rules(self.gemini_dir, self.env)
        return trusted(project, self.env, self._rules, folder_trust=self.folder_trust)

    def settings(self, project: Path | None = None) -> GeminiSettings:
        """What a session started in `project` merges (None: the user's and the system's)."""
        problems = list(self._problems)
        workspace = None
        at_home = project is not None and _same(project, self.gemini_dir.parent)
        if project is not None and not at_home and self.trusts(project):
            workspace = read_settings_file(project / ".gemini" / SETTINGS_NAME, problems)
        merged = list(reversed([*self._before, workspace, *self._after]))  # the last set wins
        context = [f.context for f in merged if f is not None and f.context is not None]
        names = _first(context, lambda c: c.file_name)
        markers = _first(context, lambda c: c.memory_boundary_markers)
        fmt = _first(context, lambda c: c.import_format)
        auto = _first(merged, lambda f: f.experimental.auto_memory if f.experimental else None)
        threshold = _first(merged, _truncate_threshold)
        return GeminiSettings(
            context_names=context_names(names, self.env),
            boundary_markers=(
                tuple(expand_variables(m, self.env) for m in markers if isinstance(m, str))
                if isinstance(markers, list)
                else (".git",)
            ),
            import_format="flat" if fmt == "flat" else "tree",
            auto_memory=auto is True,
            folder_trust=self.folder_trust,
            truncate_threshold=DEFAULT_TRUNCATE_THRESHOLD if threshold is None else threshold,
            mcp_allowed=_allowed_servers(merged),
            mcp_excluded=frozenset(
                name
                for f in merged
                for name in _server_names(f.mcp.excluded if f and f.mcp else None) or ()
            ),
            policy_paths=tuple(
                dict.fromkeys(
                    path
                    for f in reversed(merged)
                    if f is not None and isinstance(f.policy_paths, list)
                    for path in f.policy_paths
                    if isinstance(path, str) and path
                )
            ),
            problems=tuple(problems),
        )


def _server_names(value: Any) -> list[str] | None:
    """A list of server names, each lowercased and trimmed (None: not a list)."""
    if not isinstance(value, list):
        return None
    return [item.lower().strip() for item in value if isinstance(item, str)]


def _allowed_servers(files: Sequence[GeminiSettingsFile | None]) -> frozenset[str] | None:
    """The servers every file with an `mcp.allowed` list allows (None: no file has one)."""
    lists = [_server_names(f.mcp.allowed if f is not None and f.mcp else None) for f in files]
    defined = [frozenset(names) for names in lists if names is not None]
    if not defined:
        return None
    return frozenset.intersection(*defined)


def _truncate_threshold(settings: GeminiSettingsFile) -> float | None:
    """`tools.truncateToolOutputThreshold` when it is a number (another value: unset)."""
    value = settings.tools.truncate_tool_output_threshold if settings.tools else None
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return value


def _folder_trust(settings: GeminiSettingsFile | None) -> Any:
    security = settings.security if settings is not None else None
    return security.folder_trust.enabled if security and security.folder_trust else None


def _first(items: Iterable[T | None], pick: Callable[[T], Any]) -> Any:
    """The first value `pick` finds among `items` (None: none has one)."""
    for item in items:
        if item is not None:
            value = pick(item)
            if value is not None:
                return value
    return None


def context_names(raw: Any, env: Mapping[str, str] | None = None) -> tuple[str, ...]:
    """The context file names of `context.fileName` as Gemini CLI takes them, then `GEMINI.md`."""
    values = [raw] if isinstance(raw, str) else raw if isinstance(raw, list) else []
    names: list[str] = []
    for value in values:
        if not isinstance(value, str):
            continue
        trimmed = expand_variables(value, env or {}).strip()
        if trimmed:
            names.append(os.path.normpath(trimmed))
    return tuple(dict.fromkeys([*names, DEFAULT_CONTEXT_NAME]))


def _same(one: Path, other: Path) -> bool:
    """Whether two paths are one folder, links resolved (`Storage.isWorkspaceHomeDir`)."""
    return os.path.realpath(one) == os.path.realpath(other)


def trusted(
    project: Path,
    env: Mapping[str, str],
    rules: Sequence[tuple[str, str]],
    *,
    folder_trust: bool,
) -> bool:
    """Whether Gemini CLI trusts `project` (`checkPathTrust`)."""
    forced = env.get("GEMINI_CLI_TRUST_WORKSPACE")
    if env.get("GEMINI_RESTRICTED_MODE") == "true" or forced == "false":
        return False
    if forced == "true" or not folder_trust:
        return True
    location = os.path.realpath(project)
    best_length, best = -1, None
    for rule, level in rules:
        effective = os.path.dirname(rule) if level == "TRUST_PARENT" else rule
        real = os.path.realpath(effective) if os.path.exists(effective) else effective
        inside = location == real or location.startswith(real.rstrip("/") + "/")
        if inside and len(rule) > best_length:
            best_length, best = len(rule), level
    return best in ("TRUST_FOLDER", "TRUST_PARENT")


def trust_rules(gemini_dir: Path, env: Mapping[str, str]) -> Sequence[tuple[str, str]]:
    """`trustedFolders.json`'s rules (path, level); none when it cannot be read."""
    path = Path(env.get("GEMINI_CLI_TRUSTED_FOLDERS_PATH") or gemini_dir / TRUSTED_FOLDERS_NAME)
    try:
        data = read_regular_file(path, limit=_MAX_BYTES)
        raw = parse_json(strip_json_comments(data.decode("utf-8", errors="replace")))
    except (OSError, JsonError):
        return ()
    if not isinstance(raw, dict):
        return ()
    return tuple((k, v) for k, v in raw.items() if isinstance(k, str) and v in _TRUST_LEVELS)
