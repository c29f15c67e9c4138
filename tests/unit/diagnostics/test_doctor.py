"""`memtab doctor`'s checks: what counts as broken, what as a warning, and the JSON shape."""

from __future__ import annotations

import errno
import importlib.metadata
import json
import os
import re
import shutil
from pathlib import Path
from typing import Any

import pytest

from memtab.cli.health.doctor_commands import run_doctor
from memtab.diagnostics.home import check_sidecars, home_why
from memtab.diagnostics.report import Level
from memtab.diagnostics.setup import QT_CHECK, QtCheck, read_qt_check, run_qt_check
from memtab.diagnostics.watching import check_watcher, inotify_in_use
from memtab.fs.atomic import Directory
from memtab.fs.config.config_dir import config_dir
from memtab.fs.sidecar import edit_sidecar
from memtab.store.catch_up.external import record_external
from memtab.store.home import Home, HomeLocation
from memtab.store.scopes.memory import MemoryStore
from memtab.writer.config import DEFAULT_TIMEOUT_S, LOCAL_TIMEOUT_S
from support.demo_homes import copied_demo_home
from support.fake_model_server import FakeModelServer
from support.memory_paths import vpath

SECRET = "sk-ant-doctor-SECRET-0123456789"
QT_FINE = QtCheck(pyside6="6.0.0", qt="6.0.1")


def fine_qt() -> QtCheck:
    return QT_FINE


def doctor(home: Path, **kwargs: Any) -> dict[str, Any]:
    report = run_doctor(HomeLocation(home, "--home"), qt_check=fine_qt, **kwargs)
    data = report.to_json()
    assert data["status"] == report.status.value
    assert json.loads(json.dumps(data)) == data  # plain JSON all the way down
    return data


def levels(data: dict[str, Any], check: str) -> list[str]:
    return [f["level"] for f in data["findings"] if f["check"] == check]


@pytest.fixture
def demo(tmp_path: Path) -> Home:
    return copied_demo_home(tmp_path / "demo")


def test_a_healthy_home_is_ok_and_reports_every_section(demo: Home) -> None:
    data = doctor(demo.root)
    assert data["status"] == "ok", data["findings"]
    # its keys, in order at every level: test_doctor_json_keys.py
    assert data["home"] == {
        "path": str(demo.root),
        "source": "--home",
        "why": "given with --home",
        "exists": True,
        "readable": True,
        "writable": True,
    }
    registry = data["registry"]
    assert registry["workspaces"] >= 2 and registry["projects"] >= 1 and registry["problem"] is None
    names = [row["name"] for row in data["sidecars"]]
    assert names[:4] == [
        "config.json",
        "memory-meta.json",
        "memory-consolidation.json",
        "extensionMetadata.json",
    ]
    assert "settings.json" in names
    meta = data["sidecars"][1]
    assert meta["status"] == "ok" and meta["size"] == demo.meta_path.stat().st_size
    assert data["watcher"]["homeDirectories"] == _directories(demo.root)
    assert data["provider"]["provider"] == "offline" and data["provider"]["key"]["sent"] is False
    assert data["writer"]["settings"]["offline_notes"] == "suggest"
    assert data["runtime"]["versions"]["qt"] == "6.0.1"
    assert set(data["runtime"]["versions"]) >= {"memtab", "python", "watchdog", "httpx2"}
    # the HTTP client the model calls use (httpx2), the one the MCP SDK brings
    assert data["runtime"]["versions"]["httpx2"] == importlib.metadata.version("httpx2")


@pytest.mark.expect_log(
    "memtab.fs.sidecar", "WARNING", r"^memory-meta.json could not be used \(not valid JSON"
)
def test_an_unusable_sidecar_is_broken_and_its_kept_copies_are_listed(demo: Home) -> None:
    demo.meta_path.write_text("{not json")
    data = doctor(demo.root)
    assert data["status"] == "broken"
    meta = next(row for row in data["sidecars"] if row["name"] == "memory-meta.json")
    assert meta["status"] == "unusable" and "not valid JSON" in meta["problem"]
    assert levels(data, "sidecars") == ["broken"]

    with edit_sidecar(demo.meta_path, None) as document:  # keeps the bad bytes aside
        document["version"] = 1
    data = doctor(demo.root)
    meta = next(row for row in data["sidecars"] if row["name"] == "memory-meta.json")
    assert meta["status"] == "ok"
    [kept] = meta["keptAside"]
    assert kept["size"] == len("{not json") and ".corrupt-" in kept["path"]
    assert data["status"] == "warning" and levels(data, "sidecars") == ["warning"]
    assert "compare with the current file" in data["findings"][0]["message"]


def test_a_broken_ui_state_is_only_a_warning(demo: Home) -> None:
    config = config_dir()
    config.mkdir(parents=True, exist_ok=True)
    (config / "ui-state.json").write_text("[]")
    rows, found = check_sidecars(demo, config)
    assert [f.level for f in found.items] == [Level.WARNING]
    assert rows[-1].name == "ui-state.json" and rows[-1].status == "unusable"


def test_a_corrupt_registry_is_broken(demo: Home) -> None:
    demo.config_path.write_text('{"projects": ')
    data = doctor(demo.root)
    assert data["registry"]["problem"] and "workspaces" not in data["registry"]
    assert "broken" in levels(data, "registry")


def test_entries_the_registry_skips_are_warnings(demo: Home) -> None:
    document = json.loads(demo.config_path.read_text())
    document["projects"].append("not a project entry")
    demo.config_path.write_text(json.dumps(document))
    data = doctor(demo.root)
    assert data["registry"]["skipped"] and levels(data, "registry") == ["warning"]


def test_a_home_that_is_a_file_is_broken_and_a_missing_one_a_warning(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("x")
    assert doctor(tmp_path / "file")["status"] == "broken"
    missing = doctor(tmp_path / "new")
    assert missing["status"] == "warning" and levels(missing, "home") == ["warning"]


def test_the_provider_says_where_each_value_came_from_and_never_the_key(
    demo: Home, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = config_dir()
    config.mkdir(parents=True, exist_ok=True)
    (config / "settings.json").write_text(json.dumps({"provider": "anthropic", "model": "m1"}))
    monkeypatch.setenv("ANTHROPIC_API_KEY", SECRET)
    monkeypatch.setenv("MEMTAB_BASE_URL", "https://api.anthropic.com")
    data = doctor(demo.root)
    provider = data["provider"]
    assert (provider["provider"], provider["model"]) == ("anthropic", "m1")
    assert provider["origins"] == {
        "provider": f"settings file {config / 'settings.json'}",
        "model": f"settings file {config / 'settings.json'}",
        "baseUrl": "environment variables MEMTAB_*",
    }
    assert provider["key"]["from"] == "$ANTHROPIC_API_KEY" and provider["key"]["sent"]
    assert SECRET not in json.dumps(data)
    assert data["status"] == "ok"


def test_a_provider_that_cannot_work_is_broken(demo: Home, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMTAB_PROVIDER", "anthropic")
    data = doctor(demo.root)
    assert levels(data, "provider") == ["broken"] and "needs an API key" in json.dumps(data)
    monkeypatch.setenv("MEMTAB_PROVIDER", "gemini")
    data = doctor(demo.root)
    assert "'gemini'" in data["provider"]["problem"] and data["status"] == "broken"
    monkeypatch.setenv("MEMTAB_PROVIDER", "openai")
    monkeypatch.setenv("OPENAI_API_KEY", "sk-env")
    monkeypatch.setenv("MEMTAB_BASE_URL", "http://localhost:11434/v1")
    data = doctor(demo.root)  # the key stays with the official API: worth a word, works
    assert levels(data, "provider") == ["warning"] and data["provider"]["key"]["withheld"]


def test_a_saved_key_with_no_place_is_a_warning_once_and_never_shown(demo: Home) -> None:
    config = config_dir()
    config.mkdir(parents=True, exist_ok=True)
    path = config / "settings.json"
    document = {
        "provider": "openai",
        "base_url": "http://localhost:11434/v1",
        "api_keys": {"anthropic": {"api.anthropic.com": SECRET}},  # no scheme: no host
    }
    path.write_text(json.dumps(document))
    data = doctor(demo.root)
    assert [(f["level"], f["message"]) for f in data["findings"] if f["check"] == "provider"] == [
        (
            "warning",
            "The key under api_keys for 'anthropic' is not used: its origin is not a URL with "
            f"a host (scheme://host). Fix or remove it in {path}.",
        )
    ]
    assert data["provider"]["key"]["sent"] is False and SECRET not in json.dumps(data)
    path.write_text(json.dumps({"provider": "antropic", "api_key": SECRET}))
    data = doctor(demo.root)  # the provider cannot be used, and its key is not lost
    assert levels(data, "provider") == ["warning", "broken"]
    assert "The key saved for 'antropic' is not used" in json.dumps(data["findings"])
    assert SECRET not in json.dumps(data)


def test_check_provider_sends_one_request(
    demo: Home, monkeypatch: pytest.MonkeyPatch, fake_model_server: FakeModelServer
) -> None:
    monkeypatch.setenv("MEMTAB_PROVIDER", "openai")
    monkeypatch.setenv("MEMTAB_BASE_URL", fake_model_server.openai_base_url)
    fake_model_server.add_openai_reply(tool_calls=[("report_ready", {"status": "ready"})])
    fake_model_server.add_error(404, {"error": {"message": "model 'gpt-4o-mini' not found"}})
    first = doctor(demo.root, check_connection=True)
    assert first["provider"]["check"]["ok"] and first["status"] == "ok"
    assert first["provider"]["check"]["toolUse"] == "made"
    second = doctor(demo.root, check_connection=True)
    assert second["provider"]["check"]["errorKind"] == "not_found"
    assert levels(second, "provider") == ["broken"]
    assert "Unknown model or wrong base URL" in second["findings"][-1]["message"]
    assert len(fake_model_server.requests) == 2


def test_check_provider_asks_for_a_tool_call_and_says_when_the_model_cannot(
    demo: Home, monkeypatch: pytest.MonkeyPatch, fake_model_server: FakeModelServer
) -> None:
    """ "Connected" is not enough: the writer and Consolidate now need tool calls."""
    monkeypatch.setenv("MEMTAB_PROVIDER", "openai")
    monkeypatch.setenv("MEMTAB_BASE_URL", fake_model_server.openai_base_url)
    fake_model_server.add_openai_reply(text="OK")
    data = doctor(demo.root, check_connection=True)
    [request] = fake_model_server.bodies()
    assert [tool["function"]["name"] for tool in request["tools"]] == ["report_ready"]
    assert data["provider"]["check"]["ok"] and data["provider"]["check"]["toolUse"] == "none"
    assert levels(data, "provider") == ["warning"]
    assert "without calling the tool it was asked to call" in json.dumps(data["findings"])


def test_the_limits_of_each_request_are_said(demo: Home, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMTAB_PROVIDER", "openai")
    monkeypatch.setenv("MEMTAB_BASE_URL", "http://127.0.0.1:8080/v1")
    assert doctor(demo.root)["provider"]["limits"] == {
        "requestTimeoutS": 1800,
        "requestTimeoutFrom": "the default for a server on this machine",
        "writerMaxTokens": 2048,
        "consolidationMaxTokens": 4096,
        "maxTokensFrom": "each job's default",
    }
    config = config_dir()
    config.mkdir(parents=True, exist_ok=True)
    (config / "settings.json").write_text(json.dumps({"request_timeout_s": 90, "max_tokens": 512}))
    limits = doctor(demo.root)["provider"]["limits"]
    assert (limits["requestTimeoutS"], limits["requestTimeoutFrom"]) == (
        90,
        "request_timeout_s in settings.json",
    )
    assert (limits["writerMaxTokens"], limits["maxTokensFrom"]) == (
        512,
        "max_tokens in settings.json",
    )


def test_bad_writer_settings_are_warnings(demo: Home) -> None:
    config = config_dir()
    config.mkdir(parents=True, exist_ok=True)
    (config / "settings.json").write_text(json.dumps({"writer": {"timeout_s": 0}}))
    data = doctor(demo.root)
    assert levels(data, "writer") == ["warning"] and data["writer"]["settings"]["timeout_s"] == 60
    assert "writer.timeout_s = 0 is invalid" in data["writer"]["problems"][0]


def test_the_writer_s_limit_is_the_one_a_run_has_when_none_is_set(
    demo: Home, monkeypatch: pytest.MonkeyPatch
) -> None:
    """--json gives `timeout_s` as a number always: unset, the default for the model in use."""
    monkeypatch.setenv("MEMTAB_PROVIDER", "openai")
    monkeypatch.setenv("MEMTAB_BASE_URL", "http://localhost:11434/v1")
    monkeypatch.setenv("MEMTAB_MODEL", "qwen2.5-coder:1.5b")
    assert doctor(demo.root)["writer"]["settings"]["timeout_s"] == LOCAL_TIMEOUT_S
    monkeypatch.setenv("MEMTAB_BASE_URL", "https://api.openai.example/v1")
    assert doctor(demo.root)["writer"]["settings"]["timeout_s"] == DEFAULT_TIMEOUT_S


def test_qt_that_does_not_load_is_broken(demo: Home) -> None:
    report = run_doctor(
        HomeLocation(demo.root, "--home"),
        qt_check=lambda: QtCheck(problem="ImportError: libGL.so.1: cannot open shared object file"),
    )
    assert report.broken
    assert "window cannot open" in report.findings[-1].message
    platform = run_doctor(
        HomeLocation(demo.root, "--home"),
        qt_check=lambda: QT_FINE.replaced(platform_problem="libxcb-cursor.so.0: cannot open"),
    )
    assert platform.broken and "xcb platform plugin" in platform.findings[-1].message


def test_the_real_qt_check_runs_in_a_child_and_reads_the_versions() -> None:
    found = run_qt_check()
    assert found.qt and found.pyside6, found


def test_the_qt_check_prints_the_record_the_doctor_reads() -> None:
    printed = set(re.findall(r'found\["(\w+)"\]', QT_CHECK))
    assert printed == {declared.key for declared in QtCheck.fields()}
    line = '{"pyside6": "6.9.0", "qt": "6.9.1", "platformProblem": "libxcb.so: missing"}'
    assert read_qt_check(f"noise\n{line}\n", "") == QtCheck(
        pyside6="6.9.0", qt="6.9.1", platform_problem="libxcb.so: missing"
    )


@pytest.mark.parametrize(
    ("stdout", "stderr", "said"),
    [
        ("", "", "no output"),
        ("not json\n", "Traceback …\nImportError: no PySide6\n", "ImportError: no PySide6"),
        ("[1]\n", "", "no output"),
        ('"versions"\n', "warning: late\n", "warning: late"),
    ],
)
def test_a_qt_check_without_an_answer_says_what_it_printed_last(
    stdout: str, stderr: str, said: str
) -> None:
    problem = f"the Qt check ended without an answer ({said})"
    assert read_qt_check(stdout, stderr) == QtCheck(problem=problem)


def test_other_agents_memory_is_found(
    demo: Home, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    claude = tmp_path / "claude"
    claude.mkdir()
    (claude / "CLAUDE.md").write_text("# me\n")
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(claude))
    data = doctor(tmp_path / "plain-home")
    found = {source["id"]: source for source in data["sources"]["found"]}
    assert found["claude-code:user"]["root"] == str(claude)
    assert {"agent": "claude-code", "path": str(claude), "found": True}.items() <= next(
        item for item in data["sources"]["lookedFor"] if item["agent"] == "claude-code"
    ).items()


def _fake_proc(root: Path, watches_per_instance: list[int]) -> Path:
    """A /proc with one process of this user holding inotify instances and other fds."""
    fd_dir, info_dir = root / "4242" / "fd", root / "4242" / "fdinfo"
    fd_dir.mkdir(parents=True)
    info_dir.mkdir()
    for number, watches in enumerate(watches_per_instance, start=3):
        (fd_dir / str(number)).symlink_to("anon_inode:inotify")
        lines = ["pos:\t0", "flags:\t02004000"]
        lines += [
            f"inotify wd:{w + 1} ino:1 sdev:1 mask:fc6 ignored_mask:0" for w in range(watches)
        ]
        (info_dir / str(number)).write_text("\n".join(lines) + "\n")
    (fd_dir / "0").symlink_to("/dev/null")
    (root / "self").mkdir()  # not a pid
    return root


def _directories(root: Path) -> int:
    """The directories under `root`, itself included, links not followed (os.walk's own
    count: one inotify watch each)."""
    return sum(1 for _ in os.walk(root))


def test_inotify_watches_in_use_are_counted_from_proc(tmp_path: Path) -> None:
    proc = _fake_proc(tmp_path / "proc", [3, 2])
    assert inotify_in_use(proc, uid=os.getuid()) == type(inotify_in_use(proc))(2, 5)
    assert inotify_in_use(tmp_path / "nowhere").watches is None


@pytest.mark.skipif(not hasattr(os, "getuid"), reason="POSIX users")
def test_too_few_free_watches_for_the_home_is_a_warning(demo: Home, tmp_path: Path) -> None:
    limits = tmp_path / "limits"
    limits.mkdir()
    (limits / "max_user_instances").write_text("2\n")
    directories = _directories(demo.root)
    (limits / "max_user_watches").write_text(f"{directories + 4}\n")
    proc = _fake_proc(tmp_path / "proc", [3, 2])
    facts, found = check_watcher(demo.root, limits=limits, proc=proc, backend="inotify")
    section = facts.to_json()
    if not section["inotify"]:
        pytest.skip("inotify is Linux's")
    assert section["inotify"] == {
        "maxUserWatches": directories + 4,
        "maxUserInstances": 2,
        "watchesInUse": 5,
        "instancesInUse": 2,
        "headroom": directories - 1,
    }
    messages = [f.message for f in found.items]
    assert len(messages) == 2 and all(f.level is Level.WARNING for f in found.items)
    assert f"The home has {directories} directories but only {directories - 1}" in messages[0]
    assert "All 2 inotify instances" in messages[1]
    roomy, fine = check_watcher(demo.root, limits=limits, proc=tmp_path / "none", backend="inotify")
    assert roomy.inotify is not None and roomy.inotify.watches_in_use is None and not fine.items


def test_polling_is_a_warning(demo: Home) -> None:
    facts, found = check_watcher(demo.root, backend="polling")
    assert facts.to_json()["native"] is False and facts.to_json()["inotify"] is None
    assert [f.level for f in found.items] == [Level.WARNING]


@pytest.mark.parametrize(
    ("source", "why"),
    [
        ("MUX_ROOT", "$MUX_ROOT is set (mux's variable)"),
        ("~/.mux", "mux's earlier home ~/.mux exists, and no populated ~/.xum"),
        ("Memtab", "no variable is set and no mux home exists, so Memtab uses its own"),
        ("something-new", "set by something-new"),
    ],
)
def test_why_the_home_was_chosen(source: str, why: str) -> None:
    assert home_why(source) == why


# --- history and locks ------------------------------------------------------------------------


@pytest.fixture
def kept(demo: Home) -> Home:
    """The demo home once Memtab has seen it (history holds its files) and changed a file."""
    store = MemoryStore.open(demo, "a1b2c3d4e5")
    record_external(store)
    store.create_file(vpath("/memories/global/doctor.md"), "seen\n")
    return demo


def history_findings(data: dict[str, Any]) -> list[tuple[str, str]]:
    return [(f["level"], f["message"]) for f in data["findings"] if f["check"] == "history"]


def test_a_healthy_history_is_counted_and_writable(kept: Home) -> None:
    data = doctor(kept.root)
    history = data["history"]
    assert history["exists"] and history["writable"] and history["unreadableContents"] == 0
    assert history["contents"] > 0
    assert all(index["badLines"] == [] for index in history["indexes"])
    assert data["locks"] == {
        "path": str(kept.root / "memtab" / "locks"),
        "lockable": True,
        "notLockFiles": [],
        "xum": {"locks": [], "leftovers": []},
    }
    assert not [name for name in os.listdir(kept.history_dir) if name.startswith(".")]
    assert not (kept.root / "memtab" / "locks" / "doctor-probe.lock").exists()


def test_history_that_is_a_file_is_broken(kept: Home) -> None:
    shutil.rmtree(kept.history_dir)
    kept.history_dir.write_text("oops\n")
    assert history_findings(doctor(kept.root)) == [
        (
            "broken",
            f"{kept.history_dir} is not a directory: history cannot keep a copy of what a "
            "change replaces, so deletes and overwrites are refused",
        )
    ]


def test_history_that_cannot_be_written_is_broken(
    kept: Home, monkeypatch: pytest.MonkeyPatch
) -> None:
    def read_only(*_args: object, **_kwargs: object) -> str:
        raise OSError(errno.EROFS, "Read-only file system", str(kept.history_dir))

    monkeypatch.setattr(Directory, "write_temp", read_only)
    data = doctor(kept.root)
    assert data["status"] == "broken" and data["history"]["writable"] is False
    assert history_findings(data) == [
        (
            "broken",
            f"History cannot keep copies ({kept.history_dir} is on a read-only file system): "
            "deletes and overwrites are refused until it can",
        )
    ]


def test_an_index_dir_that_is_a_file_is_broken(kept: Home) -> None:
    shutil.rmtree(kept.history_index_dir)
    kept.history_index_dir.write_text("")
    ((level, message),) = [
        finding for finding in history_findings(doctor(kept.root)) if "cannot keep" in finding[1]
    ]
    assert level == "broken" and f"{kept.history_index_dir} is not a directory" in message


def test_a_corrupt_index_line_and_a_damaged_copy_are_broken(kept: Home) -> None:
    index = kept.history_index_dir / "global.jsonl"
    lines = index.read_bytes().splitlines(keepends=True)
    index.write_bytes(lines[0] + b'{"id": "cut short\n' + b"".join(lines[1:]) + b"[1]")
    blob = next(path for path in kept.history_blobs_dir.rglob("*.z"))
    blob.write_bytes(b"not zlib")
    data = doctor(kept.root)
    assert data["status"] == "broken"
    (entry,) = [i for i in data["history"]["indexes"] if i["path"] == str(index)]
    assert entry["badLines"] == [2, len(lines) + 2]
    assert history_findings(data) == [
        (
            "broken",
            f"1 stored content in {kept.history_blobs_dir} cannot be read (damaged or "
            "unreadable): the versions that hold them cannot be restored",
        ),
        (
            "broken",
            f"{index}: 2 lines cannot be read (line 2, {len(lines) + 2}): the versions they "
            "held are not shown; they are kept as they are",
        ),
    ]


def test_a_corrupt_runs_log_line_is_broken(kept: Home) -> None:
    kept.runs_log_path.write_text('{"id": "run-x"}\n')
    data = doctor(kept.root)
    assert (
        "broken",
        f"{kept.runs_log_path}: 1 line cannot be read (line 1): the runs they "
        "held are not shown; they are kept as they are",
    ) in history_findings(data)


def test_a_locks_dir_where_no_lock_can_be_taken_is_broken(kept: Home) -> None:
    locks = kept.root / "memtab" / "locks"
    shutil.rmtree(locks)
    locks.write_text("")
    data = doctor(kept.root)
    assert data["status"] == "broken" and data["locks"]["lockable"] is False
    (finding,) = [f for f in data["findings"] if f["check"] == "locks"]
    assert finding["message"].startswith(f"No lock can be taken in {locks}: ")
    assert finding["message"].endswith("every change to memory fails until it can")


def test_lock_files_that_are_directories_are_broken(kept: Home) -> None:
    # The probe lock could be taken, so doctor said locks work: every change failed.
    locks = kept.root / "memtab" / "locks"
    made = []
    for name in ("consolidation.lock", "memory-meta.lock"):
        (locks / name).unlink(missing_ok=True)
        (locks / name).mkdir()
        made.append(str(locks / name))
    data = doctor(kept.root)
    assert data["status"] == "broken" and data["locks"]["lockable"] is False
    assert data["locks"]["notLockFiles"] == sorted(made)
    messages = [f["message"] for f in data["findings"] if f["check"] == "locks"]
    assert messages == [
        f"{path} is not a lock file (a directory or another kind of entry): every change "
        "that takes this lock fails until it is removed"
        for path in sorted(made)
    ]


def test_codex_leaving_memtab_threads_out_of_its_memory_is_said(tmp_path: Path) -> None:
    """Codex 0.169.0's `[memories] disable_on_external_context` (its `MemoriesToml`) marks a
    thread that called an MCP server polluted: with Memtab registered there, doctor says so."""
    codex = tmp_path / "codex"
    codex.mkdir()
    config = codex / "config.toml"
    config.write_text(
        '[mcp_servers.memtab]\ncommand = "memtab"\nargs = ["mcp"]\n', encoding="utf-8"
    )
    env = {"CODEX_HOME": str(codex), "HOME": str(tmp_path / "user")}
    home = tmp_path / "home"
    home.mkdir()
    assert levels(doctor(home, env=env), "sources") == []
    config.write_text(
        config.read_text(encoding="utf-8") + "\n[memories]\ndisable_on_external_context = true\n",
        encoding="utf-8",
    )
    data = doctor(home, env=env)
    (finding,) = [f for f in data["findings"] if f["check"] == "sources"]
    assert finding["level"] == "warning"
    assert finding["message"] == (
        "Codex: [memories] disable_on_external_context is on: a Codex thread that calls an MCP "
        "server — Memtab's included — or searches the web is marked polluted and never becomes "
        "part of Codex's own memory. Set it to false to let those threads be remembered"
    )


def test_what_keeps_gemini_cli_from_starting_memtab_is_said(tmp_path: Path) -> None:
    """Gemini CLI 0.61 starts no MCP server its settings exclude (`mcp.excluded`) or leave
    out of an allow-list (`mcp.allowed`), nor one `gemini mcp disable` turned off
    (`mcp-server-enablement.json`): with Memtab registered there, doctor says which."""
    gemini = tmp_path / "user" / ".gemini"
    gemini.mkdir(parents=True)
    settings = gemini / "settings.json"
    entry = '"mcpServers": {"memtab": {"command": "memtab", "args": ["mcp"]}}'
    settings.write_text("{" + entry + "}", encoding="utf-8")
    env = {"HOME": str(tmp_path / "user"), "GEMINI_CLI_SYSTEM_SETTINGS_PATH": str(tmp_path / "x")}
    home = tmp_path / "home"
    home.mkdir()
    assert levels(doctor(home, env=env), "sources") == []
    settings.write_text(
        "{\n  // only these\n"
        + f'  "mcp": {{"allowed": ["github"], "excluded": ["MemTab"]}},\n  {entry}\n}}',
        encoding="utf-8",
    )
    (gemini / "mcp-server-enablement.json").write_text('{"memtab": {"enabled": false}}')
    messages = [f["message"] for f in doctor(home, env=env)["findings"] if f["check"] == "sources"]
    assert messages == [
        "Gemini CLI: its settings exclude the memtab server (mcp.excluded), so it never starts "
        'it: take "memtab" out of that list',
        "Gemini CLI: its settings allow only these MCP servers (mcp.allowed): github, so it "
        'never starts memtab: add "memtab" to that list',
        f"Gemini CLI: the memtab server is disabled ({gemini / 'mcp-server-enablement.json'}: "
        "`gemini mcp disable memtab` or /mcp disable), so it never starts it: `gemini mcp "
        "enable memtab` turns it on again",
    ]
