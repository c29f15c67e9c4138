"""Memtab's writes into Claude Code's memory that is synced or shared refuse what Claude
Code refuses there — a potential secret — with its words (docs/formats.md §17.5): in team
memory "shared with all repository collaborators", in account memory (and an auto memory
synced to the account) "synced to your account". The words are Claude Code 2.1.331's
(its memory chunk's `aSr`), on homes laid out as it writes them."""

from __future__ import annotations

from pathlib import Path

import pytest

from memtab.file_protocol.memory_file import MemoryFileError
from memtab.redact import secret_labels
from memtab.sources.agent_file import AgentFile, SourceVersions
from memtab.sources.content import read_source_file, save_source_file
from memtab.sources.discovery import discover
from memtab.sources.listing import source_file, target_file
from memtab.sources.model import SecretRefusedError, Source
from support.agent_machine import Machine

GITHUB_TOKEN = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"
TEAM_WORDS = (
    "Content contains potential secrets (GitHub Token) and cannot be written to team memory. "
    "Team memory is shared with all repository collaborators. Remove the sensitive content "
    "and try again."
)
ACCOUNT_WORDS = (
    "Content contains potential secrets (GitHub Token) and cannot be written to memory. "
    "Memory is synced to your account. Remove the sensitive content and try again."
)


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def source_of(machine: Machine, layout: str) -> Source:
    return next(s for s in discover(machine.context()).sources if s.layout == layout)


def test_a_secret_is_refused_in_team_memory_with_claude_codes_words(machine: Machine) -> None:
    deploys = write(machine.claude_memory / "team" / "platform" / "deploys.md", "Ship.\n")
    source = source_of(machine, "claude-team-memory")
    agent_file = AgentFile(
        source, source_file(source, "platform/deploys.md"), SourceVersions(machine.home)
    )
    loaded = agent_file.read()
    with pytest.raises(MemoryFileError) as refused:
        agent_file.save(f"Ship with `GH_TOKEN={GITHUB_TOKEN}`.\n", loaded.sha256)
    assert str(refused.value) == TEAM_WORDS
    assert deploys.read_text(encoding="utf-8") == "Ship.\n"
    assert agent_file.versions() == []  # nothing was written, nothing recorded
    # Split by a zero-width space, as Claude Code scans it: still a token.
    with pytest.raises(MemoryFileError, match="cannot be written to team memory"):
        agent_file.save(f"`{GITHUB_TOKEN[:10]}\u200b{GITHUB_TOKEN[10:]}`\n", loaded.sha256)
    # A new file (Copy to…, a restore of a deleted one) is refused alike.
    with pytest.raises(SecretRefusedError, match="shared with all repository collaborators"):
        save_source_file(source, target_file(source, "platform/keys.md"), GITHUB_TOKEN, None)
    assert not (deploys.parent / "keys.md").exists()
    # What is not a secret is written.
    agent_file.save("Ship on Tuesdays.\n", loaded.sha256)
    assert deploys.read_text(encoding="utf-8") == "Ship on Tuesdays.\n"


def test_a_secret_is_refused_in_memory_synced_to_the_account(machine: Machine) -> None:
    write(machine.claude / "memory" / "personal" / "preferences.md", "Short answers.\n")
    account = source_of(machine, "claude-account-memory")
    file = source_file(account, "preferences.md")
    assert file is not None
    with pytest.raises(SecretRefusedError) as refused:
        save_source_file(account, file, GITHUB_TOKEN, read_source_file(account, file).sha256)
    assert str(refused.value) == ACCOUNT_WORDS

    # The user's own auto memory: refused once it is synced (it holds `.memory-sync`)…
    personal = source_of(machine, "claude-memory")
    topic = source_file(personal, "memory/project_config-sync.md")
    assert topic is not None
    text = f"{read_source_file(personal, topic).text}\nToken: {GITHUB_TOKEN}\n"
    save_source_file(personal, topic, text, read_source_file(personal, topic).sha256)
    assert GITHUB_TOKEN in topic.physical.read_text(encoding="utf-8")  # kept on this machine
    write(machine.claude_memory / ".memory-sync", '{"v":1,"partition":"user"}')
    personal = source_of(machine, "claude-memory")
    with pytest.raises(SecretRefusedError) as refused:
        save_source_file(personal, topic, text + "more\n", read_source_file(personal, topic).sha256)
    assert str(refused.value) == ACCOUNT_WORDS


def test_what_claude_code_does_not_refuse_is_written(machine: Machine) -> None:
    """Claude Code refuses tokens known by their shape, not a value it knows only by its
    name (it redacts those where it shows them, but writes them)."""
    deploys = write(machine.claude_memory / "team" / "platform" / "deploys.md", "Ship.\n")
    source = source_of(machine, "claude-team-memory")
    file = source_file(source, "platform/deploys.md")
    assert file is not None
    text = "db_password: hunter2hunter2\nSee https://github.com/acme/api/pull/42\n"
    save_source_file(source, file, text, read_source_file(source, file).sha256)
    assert deploys.read_text(encoding="utf-8") == text


def test_tokens_are_named_as_claude_code_names_them() -> None:
    text = (
        f"{GITHUB_TOKEN} AKIAABCDEFGHIJKLMNOP\n-----BEGIN RSA PRIVATE KEY-----\nMIIE\n"
        "-----END RSA PRIVATE KEY-----\n"
    )
    assert secret_labels(text) == ["Private Key", "GitHub Token", "AWS Access Token"]
    assert secret_labels("password = 'hunter2hunter2' eyJhbGciOiJI.eyJzdWIiOiIx.sig") == []
