"""The window's features stand alone (issue 53): import-linter's independence contract
`gui-features-alone` names every feature folder under gui/, so a folder added and left out
cannot import its siblings unseen; the gui layers contract places the same folders between
the Memory tab and the shared layers. A feature is in two places (issue 84): its presenter
and jobs in `components/<feature>/`, its widgets in `gui/<feature>/`, which the settled
window (`gui/window/`) imports as they are, through no re-export face. What is not a
feature is named here, with why."""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path
from typing import Any

import memtab

GUI = Path(memtab.__file__).parent / "gui"
PYPROJECT = Path(__file__).resolve().parents[2] / "pyproject.toml"

COMPOSITION = {"first_paint", "memory_tab", "window"}
"""What puts the features together (the first paint's frame, the tab, the window): it may
import every feature."""

SHARED = {"tasks", "toolkit"}
"""What every feature may stand on: the job service, and the widgets, text widgets and
three-way view several features show."""


def _contracts() -> list[dict[str, Any]]:
    config = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))
    contracts: list[dict[str, Any]] = config["tool"]["importlinter"]["contracts"]
    return contracts


def _feature_folders() -> set[str]:
    folders = {path.name for path in GUI.iterdir() if (path / "__init__.py").is_file()}
    assert {"editor", "tree", "toolkit", "window"} <= folders  # the package itself
    return folders - COMPOSITION - SHARED


def test_every_feature_folder_is_in_the_independence_contract() -> None:
    contract = next((c for c in _contracts() if c.get("id") == "gui-features-alone"), None)
    assert contract is not None, "no contract `gui-features-alone` in pyproject.toml"
    assert contract["type"] == "independence"
    assert not contract.get("ignore_imports"), "the features stand alone with no exception"
    named = {module.removeprefix("memtab.gui.") for module in contract["modules"]}
    assert named == _feature_folders()


def test_the_gui_layers_place_the_same_features() -> None:
    layers = next(c["layers"] for c in _contracts() if c.get("containers") == ["memtab.gui"])
    features = next(layer for layer in layers if "editor" in layer.split(" "))
    assert {name.strip() for name in features.replace("|", ":").split(":")} == _feature_folders()
    others = " ".join(layer for layer in layers if layer != features)
    assert set(others.replace(":", " ").split()) == COMPOSITION | SHARED | {"context", "actions"}


def _re_exports(path: Path) -> bool:
    """Whether a module only imports and re-exports (a docstring, imports, `__all__`)."""
    body = ast.parse(path.read_text(encoding="utf-8")).body
    statements = [
        node
        for node in body
        if not (isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant))
    ]
    imports = [node for node in statements if isinstance(node, ast.Import | ast.ImportFrom)]
    others = [
        node
        for node in statements
        if node not in imports
        and not (
            isinstance(node, ast.Assign)
            and [getattr(target, "id", None) for target in node.targets] == ["__all__"]
        )
    ]
    return bool(imports) and not others


def test_a_feature_has_no_re_export_face() -> None:
    faces = {
        str(path.relative_to(GUI))
        for feature in _feature_folders()
        for path in sorted((GUI / feature).rglob("*.py"))
        if _re_exports(path)
    }
    assert faces == set(), "the window imports a feature's own modules, through no face"


def test_the_check_sees_a_face(tmp_path: Path) -> None:
    face = tmp_path / "feature.py"
    face.write_text(
        '"""A face."""\n\nfrom memtab.gui.writer.feedback import WriterFeedback\n\n'
        '__all__ = ["WriterFeedback"]\n',
        encoding="utf-8",
    )
    assert _re_exports(face)
    assert not _re_exports(GUI / "window" / "features.py")


def test_a_features_jobs_sit_beside_its_presenter() -> None:
    """A job of the window's (a function taking a `JobContext`) lives in components/."""
    apart = sorted(
        str(path.relative_to(GUI.parent))
        for path in GUI.parent.rglob("*.py")
        if path.relative_to(GUI.parent).parts[0] not in {"components", "gui"}
        and "JobContext" in path.read_text(encoding="utf-8")
    )
    assert apart == [], "a feature's jobs go in components/<feature>/, beside its presenter"
