"""Claude Code's project directory names: the encoding, and decoding them back to paths,
including when a path holds `-` (the encoding is lossy)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memtab.sources.claude.source import (
    decode_project_dir,
    encode_project_path,
    names_match,
    probe_filesystem,
    transcript_cwd,
)


@pytest.mark.parametrize(
    ("path", "encoded"),
    [
        ("/home/alice/src/acme-api", "-home-alice-src-acme-api"),
        ("/Users/alice/.config/my_app v2", "-Users-alice--config-my-app-v2"),
        ("/srv/ai-blame.rs", "-srv-ai-blame-rs"),
        ("C:\\Users\\bob\\proj", "C--Users-bob-proj"),
        ("/home/zoë/日本", "-home-zo----"),  # non-ASCII letters are not [A-Za-z0-9]
        ("/tmp/🚀", "-tmp---"),  # outside the BMP: two UTF-16 units, two dashes
    ],
)
def test_encoding_replaces_every_character_but_ascii_letters_and_digits(
    path: str, encoded: str
) -> None:
    assert encode_project_path(path) == encoded


def test_long_names_match_by_their_first_200_characters_and_a_hash_suffix() -> None:
    path = "/home/alice/" + "deeply-nested/" * 20 + "project"
    encoded = encode_project_path(path)
    assert len(encoded) > 200
    assert names_match(path, encoded[:200] + "-1x2y3z")
    assert not names_match(path, encoded[:199] + "X-1x2y3z")
    assert not names_match(path, encoded[:200])  # the cut name always has a suffix


def _claude_dir(tmp_path: Path, name: str, cwd: str | None = None) -> Path:
    directory = tmp_path / "claude" / "projects" / name
    directory.mkdir(parents=True)
    if cwd is not None:
        lines = [
            {"type": "summary", "summary": "no cwd on this line"},
            {"type": "user", "cwd": cwd, "sessionId": "s1"},
        ]
        (directory / "s1.jsonl").write_text("".join(json.dumps(x) + "\n" for x in lines))
    return directory


def test_a_known_project_wins_over_a_directory_that_encodes_the_same(tmp_path: Path) -> None:
    # /src/my-app is registered; /src/my/app also exists on disk and encodes the same.
    (tmp_path / "src" / "my" / "app").mkdir(parents=True)
    known = str(tmp_path / "src" / "my-app")
    directory = _claude_dir(tmp_path, encode_project_path(known))
    decoded = decode_project_dir(directory, [known])
    assert (decoded.path, decoded.how) == (known, "known project")


def test_a_project_known_twice_is_one_project(tmp_path: Path) -> None:
    # Known from xum's registry and from Codex's config.toml, with no transcript to ask.
    known = str(tmp_path / "src" / "harbor-api")
    directory = _claude_dir(tmp_path, encode_project_path(known))
    decoded = decode_project_dir(directory, [known, known])
    assert (decoded.path, decoded.how) == (known, "known project")


def test_two_known_projects_with_one_name_are_told_apart_by_the_transcript(
    tmp_path: Path,
) -> None:
    dashed, nested = str(tmp_path / "a-b"), str(tmp_path / "a" / "b")
    name = encode_project_path(dashed)
    assert name == encode_project_path(nested)
    directory = _claude_dir(tmp_path, name, cwd=nested + "/src")  # ran in a subdirectory
    decoded = decode_project_dir(directory, [dashed, nested])
    assert (decoded.path, decoded.how) == (nested, "session transcript")


def test_two_known_projects_with_one_name_and_no_transcript_stay_ambiguous(
    tmp_path: Path,
) -> None:
    dashed, nested = str(tmp_path / "a-b"), str(tmp_path / "a" / "b")
    directory = _claude_dir(tmp_path, encode_project_path(dashed))
    decoded = decode_project_dir(directory, [dashed, nested])
    assert decoded.path is None and decoded.how == "ambiguous"
    assert set(decoded.candidates) == {dashed, nested}
    assert dashed in (decoded.note or "")
    # Only one of them exists: that one it is.
    Path(nested).mkdir(parents=True)
    assert decode_project_dir(directory, [dashed, nested]).path == nested


def test_an_unknown_project_is_read_from_a_session_transcript(tmp_path: Path) -> None:
    project = str(tmp_path / "work" / "tool-kit")
    directory = _claude_dir(tmp_path, encode_project_path(project), cwd=project)
    assert transcript_cwd(directory) == project
    decoded = decode_project_dir(directory, [])
    assert (decoded.path, decoded.how) == (project, "session transcript")


def test_a_transcript_cwd_that_does_not_encode_to_the_name_is_ignored(tmp_path: Path) -> None:
    directory = _claude_dir(tmp_path, "-elsewhere-entirely", cwd=str(tmp_path / "other"))
    assert transcript_cwd(directory) is None


def test_the_filesystem_decodes_names_with_dashes_dots_and_spaces(tmp_path: Path) -> None:
    project = tmp_path / "src" / "my-app.v2" / ".hidden dir"
    project.mkdir(parents=True)
    name = encode_project_path(str(project))
    assert probe_filesystem(name) == [str(project)]
    decoded = decode_project_dir(_claude_dir(tmp_path, name), [])
    assert (decoded.path, decoded.how) == (str(project), "filesystem")


def test_the_filesystem_reports_every_candidate_when_it_cannot_tell(tmp_path: Path) -> None:
    dashed, nested = tmp_path / "x" / "my-app", tmp_path / "x" / "my" / "app"
    dashed.mkdir(parents=True)
    nested.mkdir(parents=True)
    name = encode_project_path(str(dashed))
    decoded = decode_project_dir(_claude_dir(tmp_path, name), [])
    assert decoded.path is None and decoded.how == "ambiguous"
    assert set(decoded.candidates) == {str(dashed), str(nested)}


def test_a_name_nothing_explains_is_unknown(tmp_path: Path) -> None:
    directory = _claude_dir(tmp_path, "-no-such-place-anywhere-4242")
    decoded = decode_project_dir(directory, [])
    assert decoded.path is None and decoded.how == "unknown" and decoded.note
    assert decode_project_dir(directory, [], probe=False).how == "unknown"


def test_long_known_paths_are_matched_by_their_cut_names(tmp_path: Path) -> None:
    project = "/srv/" + "a-very-long-directory-name/" * 9 + "service"
    assert len(encode_project_path(project)) > 200
    cut = encode_project_path(project)[:200] + "-6b1f0e"
    decoded = decode_project_dir(_claude_dir(tmp_path, cut), ["/srv/other", project])
    assert (decoded.path, decoded.how) == (project, "known project")


def test_transcripts_are_read_again_when_they_change(tmp_path: Path) -> None:
    first = str(tmp_path / "one")
    directory = _claude_dir(tmp_path, encode_project_path(first), cwd=first)
    assert transcript_cwd(directory) == first
    (directory / "s1.jsonl").unlink()  # other transcripts: read again
    (directory / "s2.jsonl").write_text("")  # just created, nothing written yet
    assert transcript_cwd(directory) is None
    (directory / "s2.jsonl").write_text(json.dumps({"cwd": first + "/src"}) + "\n")
    assert transcript_cwd(directory) == first  # an empty head was not remembered
