"""What an agent is told of a change the host may have made before it stopped (docs/formats.md
§22.8): never that it failed; read without the SDK."""

from __future__ import annotations

from collections.abc import Sequence

READ_TOOLS = ("list", "search", "view")
"""The tools that change nothing (`agent_server.server_names.READ_TOOLS`)."""
DEFAULT_WRITES = "inbox"
"""`memtab mcp --writes` when none is given (`cli/share/agent_server_commands.py`)."""
# A change's file: a rename's new name first.
_PATH_ARGUMENTS = ("new_path", "path", "old_path")


def writes_option(words: Sequence[str]) -> str:
    """The write mode a `memtab mcp` command line gives (its last `--writes`), else the default."""
    value = DEFAULT_WRITES
    for index, word in enumerate(words):
        if word == "--writes" and index + 1 < len(words):
            value = words[index + 1]
        elif word.startswith("--writes="):
            value = word.removeprefix("--writes=")
    return value


def change_in_flight(message: dict[str, object], writes: str) -> str | None:
    """What to tell the agent of a change request the host stopped before answering (it may have
    happened, how to check); None otherwise."""
    if message.get("method") != "tools/call":
        return None
    params = message.get("params")
    if not isinstance(params, dict):
        return None
    name = params.get("name")
    if not isinstance(name, str) or name in READ_TOOLS:
        return None
    arguments = params.get("arguments")
    path = _path(arguments if isinstance(arguments, dict) else {})
    if writes == "inbox":
        return (
            f"this change ({name}) may have reached the user's Memtab Inbox before it stopped: "
            "sending it again would propose it twice (the user can reject the copy)"
        )
    return (
        f"this change ({name}) may have been written before it stopped — `view` {path} to "
        "see: if the change is there, do not send it again; if not, send it again with "
        "`expected_sha256` set to the sha256 `view` gives, so it applies only to the file "
        "as you saw it"
    )


def _path(arguments: dict[object, object]) -> str:
    """The file a change names, in backquotes; else words for it."""
    for key in _PATH_ARGUMENTS:
        value = arguments.get(key)
        if isinstance(value, str) and value:
            return f"`{value}`"
    return "the file"
