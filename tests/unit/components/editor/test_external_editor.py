"""Which program "Open in external editor" runs (no Qt, no process started)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from memtab.components.editor.external import DESKTOP_DEFAULT, editor_launch

FILE = Path("/home/me/.mux/memory/global/notes.md")


def which_of(*installed: str) -> Callable[[str], str | None]:
    """A fake `shutil.which` that finds `installed` (and any absolute path)."""

    def which(program: str) -> str | None:
        name = program.rsplit("/", 1)[-1]
        return f"/usr/bin/{name}" if name in installed or program.startswith("/") else None

    return which


def test_visual_comes_first_and_is_split_like_a_shell() -> None:
    launch = editor_launch(
        FILE,
        {"VISUAL": "code --wait", "EDITOR": "nano"},
        which=which_of("code", "nano"),
    )
    assert launch.argv == ("code", "--wait", str(FILE))
    assert launch.name == "code (from $VISUAL)"
    assert launch.problem is None
    quoted = editor_launch(FILE, {"EDITOR": "'/opt/My Editor/edit' -n"}, which=which_of())
    assert quoted.argv == ("/opt/My Editor/edit", "-n", str(FILE))


def test_nothing_set_uses_the_desktop_default() -> None:
    assert editor_launch(FILE, {}, which=which_of()) == DESKTOP_DEFAULT
    assert editor_launch(FILE, {"VISUAL": "  ", "EDITOR": ""}, which=which_of()) == DESKTOP_DEFAULT
    assert DESKTOP_DEFAULT.argv is None


def test_terminal_editors_run_in_a_terminal() -> None:
    launch = editor_launch(FILE, {"EDITOR": "vim"}, which=which_of("vim", "x-terminal-emulator"))
    assert launch.argv == ("x-terminal-emulator", "-e", "vim", str(FILE))
    assert launch.name == "vim (from $EDITOR) in x-terminal-emulator"
    preferred = editor_launch(
        FILE, {"EDITOR": "nvim", "TERMINAL": "kitty"}, which=which_of("nvim", "kitty", "xterm")
    )
    assert preferred.argv == ("kitty", "nvim", str(FILE))
    gnome = editor_launch(FILE, {"EDITOR": "nano"}, which=which_of("nano", "gnome-terminal"))
    assert gnome.argv == ("gnome-terminal", "--", "nano", str(FILE))
    # emacs opens its own window unless told to stay in the terminal.
    assert editor_launch(FILE, {"EDITOR": "emacs"}, which=which_of("emacs")).argv == (
        "emacs",
        str(FILE),
    )
    nw = editor_launch(FILE, {"EDITOR": "emacs -nw"}, which=which_of("emacs", "xterm"))
    assert nw.argv == ("xterm", "-e", "emacs", "-nw", str(FILE))


def test_a_terminal_editor_without_a_terminal_falls_back_to_the_desktop() -> None:
    launch = editor_launch(FILE, {"EDITOR": "vim"}, which=which_of("vim"))
    assert launch.argv is None and launch.problem is None
    assert "vim (from $EDITOR) needs a terminal" in launch.name
    elsewhere = editor_launch(
        FILE, {"EDITOR": "vim"}, which=which_of("vim", "xterm"), linux_desktop=False
    )
    assert elsewhere.argv is None


def test_unusable_variables_are_a_problem_not_a_silent_fallback() -> None:
    missing = editor_launch(FILE, {"VISUAL": "subl -w"}, which=which_of())
    assert missing.argv is None
    assert missing.problem == "$VISUAL names subl, which is not installed or not on the PATH"
    unbalanced = editor_launch(FILE, {"EDITOR": "'code --wait"}, which=which_of("code"))
    assert unbalanced.argv is None
    assert unbalanced.problem is not None and "$EDITOR ('code --wait) cannot be read" in (
        unbalanced.problem
    )
