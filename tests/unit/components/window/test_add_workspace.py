"""File → Add workspace…'s checks and words, without Qt."""

from __future__ import annotations

import os

from memtab.components.window.menus import (
    ADD_ANYWAY_LABEL,
    ADD_LABEL,
    Added,
    AddWorkspaceForm,
    FolderCheck,
    Register,
    folder_name,
    typed_project,
    worth_checking,
)


def test_the_typed_path_is_expanded_and_normalized() -> None:
    assert typed_project("  /work/app/../proj/ ") == "/work/proj"
    assert typed_project("~/proj") == os.path.join(os.path.expanduser("~"), "proj")
    assert typed_project("   ") == ""


def test_the_workspace_is_named_after_the_folder() -> None:
    assert folder_name(" /work/proj/ ") == "proj"
    assert folder_name("") == ""


def test_only_an_absolute_path_is_looked_at() -> None:
    assert worth_checking("/work/proj")
    assert not worth_checking("proj")
    assert not worth_checking("")


def test_adding_wants_an_absolute_folder_and_a_name() -> None:
    form = AddWorkspaceForm()
    assert form.add("", "main") == "Choose the project folder (an absolute path)."
    assert form.add("relative/proj", "main") == "Choose the project folder (an absolute path)."
    assert form.add("/", "") == "Give the workspace a name."
    assert form.add("/work/proj", "  ") == Register("/work/proj", "proj", False)
    assert form.add("/work/proj", " feature ") == Register("/work/proj", "feature", False)


def test_a_missing_folder_is_added_only_when_asked_again_for_that_path() -> None:
    form = AddWorkspaceForm()
    answer = form.answered(Added(error="/work/gone does not exist.", missing=True), "/work/gone")
    assert answer.workspace_id is None
    assert answer.error is not None and answer.error.startswith("/work/gone does not exist.")
    assert "or Add anyway if" in answer.error and "&" not in answer.error
    assert answer.ok_label == form.ok_label == ADD_ANYWAY_LABEL
    assert form.add("/work/gone", "") == Register("/work/gone", "gone", True)
    assert form.add("/work/other", "") == Register("/work/other", "other", False)
    form.project_changed()
    assert form.ok_label == ADD_LABEL
    assert form.add("/work/gone", "") == Register("/work/gone", "gone", False)


def test_a_refusal_is_said_and_a_success_closes() -> None:
    form = AddWorkspaceForm()
    refused = form.answered(Added(error="config.json is locked."), "/work/proj")
    assert (refused.workspace_id, refused.error) == (None, "config.json is locked.")
    silent = form.answered(Added(), "/work/proj")
    assert silent.error == "The workspace could not be added."
    added = form.answered(Added(workspace_id="ws-1"), "/work/proj")
    assert (added.workspace_id, added.error, added.ok_label) == ("ws-1", None, ADD_LABEL)


def test_a_look_at_a_folder_counts_only_while_the_field_holds_it() -> None:
    found = FolderCheck("/work/proj", "/work/proj does not exist on this machine.", True)
    assert AddWorkspaceForm.still_typed(found, "/work/app/../proj/")
    assert not AddWorkspaceForm.still_typed(found, "/work/pro")
