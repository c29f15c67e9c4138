"""What Gemini CLI recalls for a prompt (docs/formats.md §17.8): everything it loads at the
start, then the notes `MEMORY.md` points to by words of the prompt; a note no line of
`MEMORY.md` names is one no prompt reaches."""

from __future__ import annotations

from pathlib import Path

from memtab.loads.gemini import gemini_loads
from memtab.loads.recall.gemini import gemini_recall
from memtab.loads.recall.records import AgentRecall, Unrecallable
from memtab.loads.recall.relevance import Prompt
from support.gemini_home import GeminiHome, build_gemini_home


def _recall(
    tmp_path: Path, prompt: str, project_name: str = "acme-api"
) -> tuple[GeminiHome, tuple[AgentRecall, list[Unrecallable]]]:
    project = tmp_path / project_name
    gemini = build_gemini_home(tmp_path / "user", project, patches=False)
    (project / ".git").mkdir()
    (gemini.memory / "scratch.md").write_text("# Scratch\n\nRelease day notes.\n")
    loads = gemini_loads(
        gemini_dir=gemini.gemini_dir,
        cwd=project,
        identify=lambda _path: None,
        env={},
        system_settings=False,
    )
    return gemini, gemini_recall(Prompt(prompt), loads, lambda _path: None)


def test_the_note_memory_md_points_to_by_the_prompts_words_is_recalled(tmp_path: Path) -> None:
    _gemini, (recall, unrecallable) = _recall(tmp_path, "how do I cut a release build?")

    assert [(f.kind, f.verdict) for f in recall.files if f.verdict == "loaded"] == [
        ("global", "loaded"),
        ("memory", "loaded"),
        ("project", "loaded"),
    ]
    recalled = [f for f in recall.files if f.verdict == "recalled"]
    assert [(f.name, f.rank) for f in recalled] == [("build-notes.md", 1)]
    assert set(recalled[0].matched) >= {"release", "build"}
    assert [Path(u.physical_path or "").name for u in unrecallable] == ["scratch.md"]
    assert all(u.agent == "gemini" for u in unrecallable)


def test_a_prompt_no_pointer_answers_recalls_no_note(tmp_path: Path) -> None:
    _gemini, (recall, _unrecallable) = _recall(tmp_path, "translate the onboarding emails")

    assert [f for f in recall.files if f.verdict != "loaded"] == []
    assert any("No line of MEMORY.md" in note for note in recall.notes)


def test_the_folder_a_pointer_names_the_note_in_is_no_word_of_it(tmp_path: Path) -> None:
    # The pointer is `- See <memory>/build-notes.md for …`: the memory's folder is named
    # after the project (`tmp/fix-token-refresh/memory`), not what the note is about.
    gemini, (recall, _unrecallable) = _recall(
        tmp_path, "why does the token refresh race", project_name="fix-token-refresh"
    )
    assert "token-refresh" in str(gemini.memory)
    assert [f for f in recall.files if f.verdict != "loaded"] == []
