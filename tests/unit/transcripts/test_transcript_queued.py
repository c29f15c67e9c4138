"""A message the human typed while Claude Code worked: queued, then taken in mid-turn
(only a `queued_command` attachment records it) or handed on as a turn of its own."""

from __future__ import annotations

import gzip
from pathlib import Path

from memtab.transcripts.reader import read_transcript

from .helpers import jsonl

_SHARED = Path(__file__).resolve().parents[2] / "fixtures" / "shared" / "claude-code"


def _queued(uuid: str, prompt: object, **attachment: object) -> dict:
    return {
        "type": "attachment",
        "uuid": uuid,
        "sessionId": "s",
        "isSidechain": False,
        "attachment": {"type": "queued_command", "prompt": prompt, **attachment},
    }


def _user(uuid: str, text: str) -> dict:
    return {
        "type": "user",
        "uuid": uuid,
        "sessionId": "s",
        "message": {"role": "user", "content": text},
    }


def _user_texts(tmp_path: Path, *records: dict) -> list[str]:
    path = tmp_path / "t.jsonl"
    path.write_bytes(jsonl(*records))
    return [event.text for event in read_transcript(path).events if event.role == "user"]


def test_a_message_taken_in_mid_turn_is_the_humans(tmp_path: Path) -> None:
    texts = _user_texts(
        tmp_path,
        _user("u1", "fix the footer"),
        _queued("q1", "use the brand name Meow Programming Language", commandMode="prompt"),
    )
    assert texts == ["fix the footer", "use the brand name Meow Programming Language"]


def test_a_queued_message_handed_on_as_its_own_turn_is_read_once(tmp_path: Path) -> None:
    texts = _user_texts(
        tmp_path,
        _queued("q1", "create pr", commandMode="prompt"),
        _user("u2", "create pr"),
        _user("u3", "create pr"),  # typed again later: a message of its own
    )
    assert texts == ["create pr", "create pr"]


def test_an_image_in_a_queued_message_keeps_its_words(tmp_path: Path) -> None:
    prompt = [{"type": "text", "text": "this button is cut off"}, {"type": "image", "source": {}}]
    texts = _user_texts(tmp_path, _queued("q1", prompt))
    assert texts == ["this button is cut off\n[image]"]


def test_queued_commands_the_human_did_not_type_are_not_theirs(tmp_path: Path) -> None:
    texts = _user_texts(
        tmp_path,
        _queued(
            "q1", "<task-notification>done</task-notification>", commandMode="task-notification"
        ),
        _queued("q2", "a peer's request", commandMode="prompt", origin={"kind": "peer"}),
        _queued("q3", "mine", commandMode="prompt", origin={"kind": "human"}),
        _queued("q4", {"not": "a prompt"}, commandMode="prompt"),  # neither text nor blocks
        _queued("q5", "", commandMode="prompt"),
        {
            "type": "attachment",
            "uuid": "a4",
            "attachment": {"type": "hook_success", "content": "ok"},
        },
    )
    assert texts == ["mine"]


def test_a_real_session_keeps_the_directive_typed_mid_turn(tmp_path: Path) -> None:
    # 135yshr/meow (MIT): the user renames the brand while the agent edits the site.
    source = _SHARED / "135yshr-meow__entire-checkpoints-v1__9b__21926f697e__0__full.jsonl.gz"
    path = tmp_path / "session.jsonl"
    path.write_bytes(gzip.decompress(source.read_bytes()))
    events = read_transcript(path).events
    directive = [
        e for e in events if e.role == "user" and "Meow Programming Language に変更" in e.text
    ]
    assert len(directive) == 1
    assert not directive[0].sidechain
