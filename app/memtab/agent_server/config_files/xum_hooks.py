"""xum's tool hooks (docs/formats.md §22.4, §22.6): Memtab's writes into a xum home are not xum tool
calls and do not run them, and `memtab mcp install` says so where a user has some."""

from __future__ import annotations

from pathlib import Path

from memtab.store.home import Home

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
