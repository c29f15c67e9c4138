"""A half of the trust corpus (tests/quality/trust_corpus/<half>/) laid out as a real user's
home in a scratch folder, and the way back from what the engines name to the corpus's files.

The corpus is written as its person's home: `home/` is `/home/dana` (the key's
`layout.user_home`), with xum's home in `.xum`, Claude Code's in `.claude`, Codex's in `.codex`,
Gemini CLI's in `.gemini` and the checkouts under `src/`. Laying it out elsewhere moves that
home the way a person moving it would: every text naming the old home names the new one, and
the folders whose names are made from a project's path (Claude Code's `projects/<encoded>`,
xum's `memory/project/<dirName>`, Codex's import of the former) are renamed for the new path.
Programs the person has installed are stand-ins on PATH (`layout.installed`), so `check`
finds the same programs installed on any machine.
"""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from memtab.sources.claude.source import encode_project_path
from memtab.store.paths import project_dir_name

CORPUS = Path(__file__).resolve().parent / "trust_corpus"
HALVES = (
    "tune",
    "held-out",
    "fresh",
    "fresh2",
    "fresh3",
    "fresh4",
    "fresh5",
    "fresh6",
    "fresh7",
    "fresh8",
    "fresh9",
    "fresh10",
    "fresh11",
    "fresh12",
    "fresh13",
    "fresh14",
    "fresh15",
    "fresh16",
)
TEXT_SUFFIXES = {"", ".md", ".json", ".toml", ".txt", ".yaml", ".yml", ".jsonl", ".cfg", ".ini"}


def load_key(half: str) -> dict[str, Any]:
    """The half's answer key (`key.json`)."""
    data: dict[str, Any] = json.loads((CORPUS / half / "key.json").read_text(encoding="utf-8"))
    return data


@dataclass(frozen=True)
class LaidOut:
    """A half laid out under `root`: the person's home, their xum home, the environment."""

    half: str
    root: Path
    home: Path
    key: dict[str, Any]
    renames: dict[str, str]  # a folder name made from a project's path: laid out → corpus
    model: dict[str, str] = field(default_factory=dict)
    """The person's model, as the environment names it (MEMTAB_PROVIDER…): none, offline."""

    @property
    def xum_home(self) -> Path:
        return self.root / self.key["layout"]["xum_home"].replace("home", self.home_rel, 1)

    @property
    def home_rel(self) -> str:
        return str(self.home.relative_to(self.root))

    def project_path(self, name: str) -> str:
        """Where project `name`'s checkout is, laid out."""
        for project in self.key["layout"]["projects"]:
            if project["name"] == name:
                return self.moved(project["path"])
        raise KeyError(name)

    def moved(self, original: str) -> str:
        """An absolute path of the person's machine, as laid out here."""
        user_home = self.key["layout"]["user_home"]
        return (
            str(self.home) + original[len(user_home) :]
            if original.startswith(user_home)
            else original
        )

    def corpus_path(self, laid_out: str | Path) -> str | None:
        """The corpus file (relative to the half) a laid-out file is, or None outside it."""
        path = Path(laid_out)
        try:
            rel = path.relative_to(self.home)
        except ValueError:
            return None
        parts = [self.renames.get(part, part) for part in rel.parts]
        return "/".join(["home", *parts])

    def run(self, *args: str, timeout: float = 300) -> dict[str, Any]:
        """One command's `--json`, as the person would run it (exit 0 or 1 both answer)."""
        command = [memtab_command(), "--home", str(self.xum_home), *args]
        done = subprocess.run(
            command, env=self.env(), capture_output=True, text=True, timeout=timeout, check=False
        )
        if done.returncode not in (0, 1):
            raise RuntimeError(f"{' '.join(args)} exited {done.returncode}: {done.stderr[-2000:]}")
        answer: dict[str, Any] = json.loads(done.stdout)
        return answer

    def env(self) -> dict[str, str]:
        """The environment the person's commands run in (`isolated_env`), with their model."""
        user = Path(self.key["layout"]["user_home"]).name
        return {**isolated_env(self.root, self.home, user), **self.model}


def isolated_env(root: Path, home: Path, user: str) -> dict[str, str]:
    """The environment a person's commands run in: their HOME, nothing of this machine's
    agents, Memtab's config and caches inside the scratch folder `root`, programs from
    `root/bin` and the system's."""
    keep = {name: os.environ[name] for name in ("LANG", "LC_ALL", "TZ") if name in os.environ}
    return {
        **keep,
        "HOME": str(home),
        "USER": user,
        "PATH": f"{root / 'bin'}:/usr/bin:/bin",
        "MEMTAB_CONFIG_DIR": str(root / "config"),
        "XDG_CONFIG_HOME": str(root / "xdg-config"),
        "XDG_CACHE_HOME": str(root / "cache"),
        "XDG_DATA_HOME": str(root / "data"),
        "XDG_STATE_HOME": str(root / "state"),
        "GEMINI_CLI_SYSTEM_SETTINGS_PATH": str(root / "etc" / "gemini-settings.json"),
        "GEMINI_CLI_SYSTEM_DEFAULTS_PATH": str(root / "etc" / "gemini-defaults.json"),
        "MEMTAB_MCP_SHARED": "off",
    }


def memtab_command() -> str:
    """The `memtab` command of the Python running this (the venv's), as a user runs it."""
    beside = Path(sys.executable).with_name("memtab")
    return str(beside) if beside.exists() else "memtab"


def lay_out(half: str, root: Path) -> LaidOut:
    """Copy the half's home into `root` as its person's home moved there (module doc)."""
    key = load_key(half)
    layout = key["layout"]
    user_home = layout["user_home"]
    home = root / user_home.lstrip("/")
    shutil.copytree(CORPUS / half / "home", home, symlinks=False)
    laid = LaidOut(half, root, home, key, {})
    renames: dict[str, str] = {}
    for project in layout["projects"]:
        old, new = project["path"], laid.moved(project["path"])
        renames[encode_project_path(old)] = encode_project_path(new)
        renames[project_dir_name(old)] = project_dir_name(new)
    for path in sorted(home.rglob("*"), key=lambda p: len(p.parts), reverse=True):
        if path.name in renames:
            path.rename(path.with_name(renames[path.name]))
    for path in home.rglob("*"):
        if path.is_file() and path.suffix in TEXT_SUFFIXES:
            text = path.read_text(encoding="utf-8")
            if user_home in text:
                path.write_text(text.replace(user_home, str(home)), encoding="utf-8")
    _private(home)
    _same_age(home)
    bin_dir = root / "bin"
    bin_dir.mkdir()
    for program in layout["installed"]:
        stub = bin_dir / program
        stub.write_text("#!/bin/sh\nexit 0\n", encoding="utf-8")
        stub.chmod(0o755)
    return LaidOut(half, root, home, key, {new: old for old, new in renames.items()})


def _same_age(home: Path) -> None:
    """Every file an hour old: a checkout's and the layout's write times would otherwise
    order the agents' listings (Claude Code's newest first) and break recall's ties by
    how the corpus happened to be checked out."""
    an_hour_ago = time.time() - 3600
    for path in home.rglob("*"):
        if path.is_file():
            os.utime(path, (an_hour_ago, an_hour_ago))


def _private(home: Path) -> None:
    """Agents keep their folders private; so does the laid-out home."""
    for path in [home, *home.rglob("*")]:
        if path.is_dir():
            path.chmod(stat.S_IRWXU)
        else:
            path.chmod(stat.S_IRUSR | stat.S_IWUSR | (path.stat().st_mode & stat.S_IXUSR))
