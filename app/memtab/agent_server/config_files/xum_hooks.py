"""xum's tool hooks and Memtab's writes into a xum home (docs/formats.md §22.4, §22.6): they
are not run, and `memtab mcp install` says so where a user has some.

xum runs `tool_hook`, `tool_pre` and `tool_post` (its `src/node/services/hooks.ts`; its
docs/hooks/tools.mdx, "Tool hooks are experimental. Expect breaking changes") around its own
tool calls, the memory tool's included: through the workspace's runtime (`runtime.exec`,
`cwd` the project directory; "For SSH workspaces, hooks execute on the remote machine", and
a Docker or devcontainer workspace runs them inside its container, `XUM_PROJECT_DIR` mapped
into that namespace), with `XUM_WORKSPACE_ID` always set, a per-call `XUM_EXEC` marker the
wrapping `tool_hook` prints to have the tool run and receive its result on stdin, and
10 seconds a phase. Memtab's writes on another agent's behalf are not xum tool calls: they
have no xum workspace runtime to run in (an SSH or container workspace's hooks would run on
the wrong machine, against paths of another namespace), often no workspace at all (a
session serving the global scope), and no `tool_hook` protocol to follow faithfully while
xum changes it. Running a user's policy script with inputs it was not written for is worse
than not running it, so they are bypassed — and said to be: the default write mode, `inbox`,
puts every change before the user in the Inbox instead.

Hooks are found as xum finds them: `<checkout>/.xum/<hook>` (then the older `.mux/<hook>`),
then `<xum home>/<hook>`.
"""

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
    """The tool hook files xum would run for a session of `checkout` (its own first, then
    the home's), each name once."""
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
