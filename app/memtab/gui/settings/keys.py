"""The Settings dialog's keys: each belongs to the provider and host it was typed for.

`FormKeys` keeps what the form knows about keys while it is open: the keys typed in it,
each with the provider and base URL origin it was typed for; the hosts the settings file
holds a key for, per provider (never the keys themselves: the form does not read them
back); and the saved keys the user asked to forget. `confirm_key_host` is the question
asked before a key typed for one host is sent or saved for another (docs/formats.md §12.3).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from PySide6.QtWidgets import QMessageBox, QWidget

from memtab.gui.toolkit.dialog_layout import fit_to_title, give_mnemonics, small_dialog
from memtab.llm.endpoints import origin_label
from memtab.llm.saved_keys import KeyPlace, SavedKeys


@dataclass(frozen=True)
class TypedKey:
    """A key typed in the form, and the origin of the base URL it was typed with."""

    key: str
    origin: str


@dataclass
class FormKeys:
    """Keys typed, saved (by host only) and to forget, by provider (see the module doc)."""

    saved_origins: dict[str, frozenset[str]] = field(default_factory=dict)
    typed: dict[str, TypedKey] = field(default_factory=dict)
    forget: set[KeyPlace] = field(default_factory=set)

    @classmethod
    def from_saved(cls, saved: SavedKeys, providers: list[str]) -> FormKeys:
        return cls({name: saved.origins(name) for name in providers})

    def type(self, provider: str, origin: str, text: str) -> None:
        """The user typed `text` (blank: cleared it) for `provider` at `origin`."""
        if text.strip():
            self.typed[provider] = TypedKey(text.strip(), origin)
        else:
            self.typed.pop(provider, None)

    def shown(self, provider: str) -> str:
        """What the key field shows for `provider`: its own typed key, or nothing."""
        typed = self.typed.get(provider)
        return typed.key if typed is not None else ""

    def here(self, provider: str, origin: str) -> str:
        """The key typed for `provider` at `origin` ('' if none)."""
        typed = self.typed.get(provider)
        return typed.key if typed is not None and typed.origin == origin else ""

    def elsewhere(self, provider: str, origin: str) -> TypedKey | None:
        """The key typed for `provider` at another origin than `origin`, if any."""
        typed = self.typed.get(provider)
        return typed if typed is not None and typed.origin != origin else None

    def move(self, provider: str, origin: str) -> None:
        """The user said `provider`'s typed key may go to `origin`: it belongs there now."""
        typed = self.typed.get(provider)
        if typed is not None:
            self.typed[provider] = TypedKey(typed.key, origin)

    def is_saved(self, place: KeyPlace | None) -> bool:
        """Whether the file holds a key for `place` that is not to be forgotten."""
        if place is None or place in self.forget:
            return False
        return place[1] in self.saved_origins.get(place[0], frozenset())

    def others(self, provider: str) -> Mapping[KeyPlace, str]:
        """Keys typed for the providers other than `provider`, by where they belong."""
        return {
            (name, typed.origin): typed.key
            for name, typed in self.typed.items()
            if name != provider and typed.origin
        }


def confirm_key_host(parent: QWidget, typed_for: str, host: str, action: str) -> bool:
    """Ask before a key typed for origin `typed_for` goes to origin `host` (`action`:
    "Send" or "Save"); True to go ahead."""
    box = QMessageBox(parent)
    small_dialog(box)
    box.setIcon(QMessageBox.Icon.Warning)
    box.setWindowTitle("Use the key for another host?")
    box.setText(
        f"The API key was typed for {origin_label(typed_for)}. "
        f"{action} it for {origin_label(host)}?"
    )
    box.setInformativeText(
        f"Whoever runs {origin_label(host)} can read the key. Memtab sends a key only to "
        "the provider and host it was given for, unless you say so here."
    )
    confirm = box.addButton(f"{action} to {origin_label(host)}", QMessageBox.ButtonRole.AcceptRole)
    cancel = box.addButton(QMessageBox.StandardButton.Cancel)
    box.setDefaultButton(cancel)
    box.setEscapeButton(cancel)
    give_mnemonics(box)
    fit_to_title(box)
    box.exec()
    return box.clickedButton() is confirm
