"""Commands a command-running sub-agent ran: Claude Code's `Bash` agent type (a Task call with
`subagent_type: "Bash"`) runs the commands its prompt gives it, in a transcript of its own, and
hands the parent a report — the only trace of the run the parent's transcript keeps (agents whose
own shell tool cannot run a command with arguments, such as an ACP client's `mcp__acp__Bash`, send
every check through one)."""

from __future__ import annotations

import re

from memtab.markdown import classify, fenced_blocks
from memtab.transcripts import TranscriptToolCall
from memtab.writer.offline.shell.commands import main_words
from memtab.writer.offline.shell.outcomes import output_shows_success

_AGENT_TOOL_NAMES = frozenset(("Task", "Agent"))
_SHELLS = frozenset(("bash", "sh", "shell", "zsh", "console"))  # a fence's language
# Tool calls written out as text: the sub-agent described calls instead of making them.
_CALLS_AS_TEXT = re.compile(
    r"<(?:function_calls|invoke|tool_call|tool_response|function_response)\b"
)
# Claude Code's trailer on a sub-agent's report (`agentId: a4e4e30 (for resuming …)`).
_AGENT_TRAILER = re.compile(r"^agentId: \S+.*$", re.MULTILINE)


def command_a_bash_agent_ran(call: TranscriptToolCall) -> str | None:
    """The command a `Bash` sub-agent's report says it ran and that passed (`cd
    /home/me/app && bunx tsc --noEmit`, reported "completed successfully with no
    errors"), or None: another kind of call, several commands, a command the prompt did not
    ask for, calls written out as text, or a report that does not say it passed."""
    if call.name not in _AGENT_TOOL_NAMES or call.is_error or not isinstance(call.input, dict):
        return None
    if call.input.get("subagent_type") != "Bash":
        return None
    prompt = call.input.get("prompt")
    report = _AGENT_TRAILER.sub("", call.output or "")
    if not isinstance(prompt, str) or _CALLS_AS_TEXT.search(report):
        return None
    lines = report.splitlines()
    blocks = [
        (block.start, block.end)
        for block in fenced_blocks(classify(lines, frontmatter=False))
        if block.fence.info in _SHELLS and block.end is not None
    ]
    if len(blocks) != 1:
        return None  # none closed, or several commands
    start, end = blocks[0]
    assert end is not None
    command = "\n".join(lines[start + 1 : end]).strip()
    words = main_words(command)
    if "\n" in command or not words or " ".join(words) not in " ".join(prompt.split()):
        return None
    after = "\n".join(lines[end + 1 :])
    return command if after.strip() and output_shows_success(after) else None
