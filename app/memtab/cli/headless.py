"""`memtab` without the window: a command, `--install-desktop` or `--self-test`, after the steps
every such run takes first (collector, log rotation, kept-aside sidecars, a killed Memtab's
leftovers). The window's start never imports it (contract "first-paint")."""

from __future__ import annotations

import argparse
import gc
import sys

from memtab.cli.options import CliError, home_location
from memtab.fs.sidecar import KeptAside, on_kept_aside
from memtab.log_rotation import start_rotating
from memtab.store.home import Home
from memtab.store.leftovers import remove_leftover_temps


def run(args: argparse.Namespace) -> int:
    """Run what `args` asks for without the window; its exit status (a failure raises)."""
    gc.enable()  # no window: `memtab.launch` held the cycle collector off for one
    # The window's log rotates from its first paint on (`gui.first_paint.boundary`).
    start_rotating()
    # The window shows these in its status bar; a terminal gets them on stderr.
    stop_telling = on_kept_aside(_say_kept_aside) if args.command else lambda: None
    try:
        if args.install_desktop:
            return install_desktop()
        if args.self_test:
            # lazy: --self-test only (~60 ms, 4.6 MiB: the demo and the consolidation job)
            from memtab.cli.health.self_test import run_self_test

            return run_self_test()
        if args.demo:  # promised never to be the real home, which the command would work on
            raise CliError(
                f"--demo opens the window on a demo home; `memtab {args.command}` would work "
                "on your real home: to run it on a demo, give the demo's folder with --home"
            )
        if args.writes_home:  # declared by each command (`CommandParser`)
            _remove_leftovers(args)
        status: int = args.handler(args)
        return status
    finally:
        stop_telling()


def install_desktop() -> int:
    """`memtab --install-desktop`: the launcher, icon and AppStream file for this user."""
    # lazy: --install-desktop only (~12 ms and ~1.9 MiB traced: sysconfig), not every
    # command's start
    from memtab.desktop import DesktopInstallError, install_desktop_files

    try:
        installed = install_desktop_files()
    except DesktopInstallError as error:
        raise CliError(str(error)) from None
    for path in installed:
        print(path)
    return 0


def _remove_leftovers(args: argparse.Namespace) -> None:
    """What a killed Memtab left in the home this command is about to write to."""
    location = home_location(getattr(args, "home", None))
    if location.path.is_dir():
        remove_leftover_temps(Home(location.path))


def _say_kept_aside(kept: KeptAside) -> None:
    """A sidecar Memtab could not parse was kept aside before a fresh one replaced it."""
    print(f"memtab: {kept.message} (in {kept.original.parent})", file=sys.stderr)
