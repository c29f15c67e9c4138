"""The bridge's answers of its own (docs/formats.md §22.8): while the host starts, `initialize`,
`tools/list` and `ping` answered at once from what a host answered the same setup before
(`known_answers`), then checked against the host's once it is up — a tools list that differs is
replaced (`notifications/tools/list_changed`); what a host answers is kept for the next session.
A client probing for the stateless protocol (`server/discover`) is told at once to open the
session as before (`initialize`): a probe left to a host still starting outlasts the client's
bound (Claude Code's 3 s), and the client then restarts the server."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from memtab.agent_server.bridge.known_answers import Answers, KnownAnswers, setup_key

TOOLS_CHANGED: dict[str, object] = {
    "jsonrpc": "2.0",
    "method": "notifications/tools/list_changed",
}
DISCOVER = "server/discover"
METHOD_NOT_FOUND = -32601  # JSON-RPC's; to `server/discover`, the client's cue for `initialize`


class Front:
    """One session's own answers, kept in `folder` (None: none kept, none answered): the setup it
    was started with (`words`, `cwd`, `env`) and asked for, what it answered, what the host said."""

    def __init__(
        self,
        folder: str | None = None,
        words: Sequence[str] = (),
        cwd: str = "",
        env: Mapping[str, str] | None = None,
    ) -> None:
        self._folder = folder
        self._words = list(words)
        self._cwd = cwd
        self._env = env or {}
        self._known: KnownAnswers | None = None
        self._answers_from: list[str] = []
        self._initialized: dict[str, object] | None = None  # the host's results
        self._listed: dict[str, object] | None = None
        self._due = False  # the host said something to keep
        self.initialized_here = False
        """`initialize` was answered here: the host is to be told it (replayed) once up."""
        self.tools_here: dict[str, object] | None = None
        """The tools list answered here, to check against the host's."""

    def asked_to_initialize(self, params: object) -> None:
        """The agent's `initialize`: which setup's answers are kept is known now."""
        if self._folder is not None:
            key = setup_key(self._words, self._cwd, self._env, params)
            self._known = KnownAnswers(self._folder, key)

    def answer_here(self, message: Mapping[str, object]) -> dict[str, object] | None:
        """The answer's `result` or `error` member for `message` while no host is up (None: the
        host answers)."""
        method = message.get("method")
        if method == "ping":
            return {"result": {}}
        if method == DISCOVER and not self.initialized_here:
            error = f"{DISCOVER} is not served while Memtab starts: open with initialize"
            return {"error": {"code": METHOD_NOT_FOUND, "message": error}}
        known = self._known.read() if self._known is not None else None
        if known is None:
            return None
        if method == "initialize" and not self.initialized_here:
            self.initialized_here = True
            return {"result": known.initialize}
        if self.initialized_here and is_tools_list(message) and known.tools is not None:
            self.tools_here = known.tools
            return {"result": known.tools}
        return None

    def host_welcomed(self, answers_from: Sequence[str]) -> None:
        """The files the host says its answers are made from (its welcome's `answersFrom`)."""
        self._answers_from = list(answers_from)

    def host_initialized(self, result: dict[str, object]) -> None:
        """What the host answered `initialize` (the agent's, or the one replayed to it)."""
        self._initialized = result
        self._due = True

    def host_listed(self, result: dict[str, object]) -> bool:
        """What the host answered `tools/list`, to keep; whether it differs from the list answered
        here (the agent is then to list again)."""
        self._listed = result
        self._due = True
        answered, self.tools_here = self.tools_here, None
        return answered is not None and answered != result

    def keep(self) -> None:
        """Keep what the host answered for the next session set up as this one (a session that
        lists no tools keeps the list kept before)."""
        if not self._due or self._known is None or self._initialized is None:
            return
        self._due = False
        self._known.keep(Answers(self._initialized, self._listed), self._answers_from)


def is_tools_list(message: Mapping[str, object]) -> bool:
    """Whether `message` asks for the tools' first page (the list a session starts with)."""
    if message.get("method") != "tools/list":
        return False
    params = message.get("params")
    return params is None or (isinstance(params, dict) and params.get("cursor") is None)
