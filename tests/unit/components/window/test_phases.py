"""components.window.phases: the window's features built phase by phase, without Qt."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest

from memtab.components.window.phases import Composition, Feature, FeatureKey, Phase, keyed


@dataclass
class Window:
    """A host that records what happens to its parts."""

    log: list[str] = field(default_factory=list)


@dataclass
class Part:
    name: str
    window: Window

    def save_ui_state(self) -> None:
        self.window.log.append(f"save {self.name}")

    def shutdown(self) -> None:
        self.window.log.append(f"stop {self.name}")


def part(name: str) -> Feature[Window]:
    def build(window: Window) -> Part:
        window.log.append(f"build {name}")
        return Part(name, window)

    return Feature(name, PHASES[name], build)


def step(name: str, phase: Phase) -> Feature[Window]:
    def run(window: Window) -> None:
        window.log.append(f"run {name}")

    return Feature(name, phase, run)


PHASES = {
    "tab": Phase.FIRST_PAINT,
    "history": Phase.AFTER_PAINT,
    "menus": Phase.AFTER_PAINT,
    "writer": Phase.WATCHING,
    "traces": Phase.ON_DEMAND,
}


def composition() -> tuple[Window, Composition[Window]]:
    window = Window()
    features = [
        part("tab"),
        part("history"),
        part("menus"),
        step("watch", Phase.WATCHING),
        part("writer"),
        part("traces"),
    ]
    return window, Composition(window, features)


def test_each_phase_builds_its_features_in_the_lists_order_once() -> None:
    window, parts = composition()
    parts.reach(Phase.FIRST_PAINT)
    assert window.log == ["build tab"]
    parts.reach(Phase.AFTER_PAINT)
    parts.reach(Phase.AFTER_PAINT)
    assert window.log == ["build tab", "build history", "build menus"]
    parts.reach(Phase.WATCHING)
    assert window.log[3:] == ["run watch", "build writer"]
    assert parts.reached is Phase.WATCHING
    assert parts.built == ("tab", "history", "menus", "watch", "writer")
    assert parts.part("watch") is None and isinstance(parts.part("writer"), Part)


def test_reaching_a_later_phase_first_builds_the_earlier_ones_before_it() -> None:
    window, parts = composition()
    parts.reach(Phase.WATCHING)  # e.g. the watcher started before the menus were built
    assert window.log == [
        "build tab", "build history", "build menus", "run watch", "build writer",
    ]  # fmt: skip
    parts.reach(Phase.AFTER_PAINT)
    assert parts.reached is Phase.WATCHING and len(window.log) == 5


def test_on_demand_features_wait_to_be_asked_for() -> None:
    window, parts = composition()
    parts.reach(Phase.WATCHING)
    assert "build traces" not in window.log
    traces = parts.demand("traces")
    assert isinstance(traces, Part) and parts.demand("traces") is traces
    assert window.log.count("build traces") == 1
    with pytest.raises(ValueError):
        parts.reach(Phase.ON_DEMAND)
    with pytest.raises(KeyError):
        parts.demand("nothing")


def test_closing_saves_then_stops_the_parts_built_last_first_once() -> None:
    window, parts = composition()
    parts.reach(Phase.AFTER_PAINT)
    window.log.clear()
    parts.save_ui_state()
    parts.shutdown()
    parts.shutdown()
    assert window.log == [
        "save tab", "save history", "save menus", "stop menus", "stop history", "stop tab",
    ]  # fmt: skip
    parts.reach(Phase.WATCHING)  # nothing is built after the window closed
    assert parts.demand("traces") is None
    assert window.log[-1] == "stop tab"


def test_closing_asks_only_the_parts_that_save_or_stop() -> None:
    log: list[str] = []

    class Stopper:
        def shutdown(self) -> None:
            log.append("stop")

    class Saver:
        def save_ui_state(self) -> None:
            log.append("save")

    parts = Composition(
        Window(),
        [
            Feature("stopper", Phase.FIRST_PAINT, lambda _host: Stopper()),
            Feature("saver", Phase.FIRST_PAINT, lambda _host: Saver()),
            Feature("plain", Phase.FIRST_PAINT, lambda _host: object()),
            Feature("step", Phase.FIRST_PAINT, lambda _host: None),
        ],
    )
    parts.reach(Phase.FIRST_PAINT)
    parts.save_ui_state()
    parts.shutdown()
    assert log == ["save", "stop"]


def test_a_builder_reaching_a_later_phase_builds_nothing_twice() -> None:
    window = Window()

    def menus(host: Window) -> None:
        host.log.append("run menus")
        parts.reach(Phase.WATCHING)  # e.g. a signal the menus' building sends

    parts = Composition(
        window,
        [part("tab"), Feature("menus", Phase.AFTER_PAINT, menus), part("writer")],
    )
    parts.reach(Phase.AFTER_PAINT)
    assert window.log == ["build tab", "run menus", "build writer"]


def test_a_phase_reached_again_while_it_is_built_is_left_to_the_building_under_way() -> None:
    window = Window()

    def editor(host: Window) -> None:
        host.log.append("build editor")
        parts.reach(Phase.AFTER_PAINT)  # e.g. an error shown while the parts are built
        host.log.append("editor built")

    parts = Composition(
        window,
        [part("tab"), Feature("editor", Phase.AFTER_PAINT, editor), part("history")],
    )
    parts.reach(Phase.AFTER_PAINT)
    assert window.log == ["build tab", "build editor", "editor built", "build history"]
    assert parts.built == ("tab", "editor", "history")


def test_the_list_is_the_order_things_happen() -> None:
    with pytest.raises(ValueError, match="phase order"):
        Composition(Window(), [part("history"), part("tab")])
    with pytest.raises(ValueError, match="twice"):
        Composition(Window(), [part("tab"), part("tab")])


HISTORY = FeatureKey[Part]("history")
WRITER = FeatureKey[Part]("writer")


def test_a_feature_gets_another_by_its_key_once_the_list_built_it() -> None:
    window = Window()
    handed: list[Part] = []

    def menus(host: Window) -> Part:
        handed.append(parts.get(HISTORY))  # built before it in the list
        with pytest.raises(LookupError, match="writer"):
            parts.get(WRITER)  # after it: not built yet
        return Part("menus", host)

    parts = Composition(
        window,
        [
            keyed(HISTORY, Phase.AFTER_PAINT, lambda host: Part("history", host)),
            keyed(FeatureKey[Part]("menus"), Phase.AFTER_PAINT, menus),
            keyed(WRITER, Phase.WATCHING, lambda host: Part("writer", host)),
        ],
    )
    assert parts.find(HISTORY) is None
    with pytest.raises(LookupError):
        parts.get(HISTORY)
    parts.reach(Phase.AFTER_PAINT)
    assert handed == [parts.get(HISTORY)] and parts.get(HISTORY).name == "history"
    assert parts.find(WRITER) is None
    parts.reach(Phase.WATCHING)
    assert parts.find(WRITER) is parts.get(WRITER) is parts.part("writer")
