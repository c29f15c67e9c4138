"""`memtab mcp install`'s offer of the login service (docs/formats.md §22.6, §22.8): a warm Memtab
from login, asked once per home in a terminal."""

from __future__ import annotations

import sys
from collections.abc import Callable

from memtab.agent_server.hosting.login_service import (
    Answer,
    login_service_facts,
    remember_answer,
    remembered_answer,
)
from memtab.fs.config.settings_file import SettingsFileError
from memtab.store.home import Home
from memtab.watch.service import install as install_service

QUESTION = (
    "Keep Memtab warm from login, so each agent's first session of the day starts at once? "
    "This starts `memtab watch` for this home at login ({entry}). [Y/n] "
)
HINT = (
    "Memtab is not kept warm from login: the first session of the day waits for it to start. "
    "`memtab mcp install --login-service` sets that up (`--no-login-service`: no, and this "
    "line is not said again)."
)


def offer_login_service(
    home: Home,
    chosen: bool | None,
    *,
    ask: Callable[[str], str] = input,
    interactive: Callable[[], bool] = lambda: sys.stdin.isatty() and sys.stdout.isatty(),
) -> int:
    """Install the login service for `home`, or not, as `chosen` says (None: as the user
    answered before, else asked in a terminal, else a line says how); what is done is said
    on stdout, a failure on stderr. The exit status (1: the service could not be set up)."""
    facts = login_service_facts(home)
    if chosen is None:
        answer = remembered_answer(home)
        if facts.installed or answer == "declined":
            print(f"Login: {facts.note}")
            return 0
        if not interactive():
            print(HINT)
            return 0
        try:
            reply = ask(QUESTION.format(entry=facts.entry))
        except EOFError:
            reply = "n"
        chosen = reply.strip().lower() in ("", "y", "yes")
    if not chosen:
        _remember(home, "declined")
        print("Login: not kept warm from login; `memtab watch --install` sets it up later.")
        return 0
    try:
        result = install_service(home)
    except OSError as error:
        print(
            f"memtab: the login service could not be set up: {error.strerror or error} "
            f"({facts.entry})",
            file=sys.stderr,
        )
        return 1
    _remember(home, "installed")
    print(f"Login: kept warm from login by `memtab watch` ({result.path})")
    for ran in result.ran:
        if ran.status != 0:
            print(f"  {' '.join(ran.argv)}: {ran.said or f'exit {ran.status}'}", file=sys.stderr)
    if result.note:
        print(f"  {result.note}")
    return 0


def _remember(home: Home, answer: Answer) -> None:
    try:
        remember_answer(home, answer)
    except SettingsFileError as error:
        print(f"memtab: the answer is not kept ({error}): it is asked again", file=sys.stderr)
