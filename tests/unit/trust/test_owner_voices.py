"""`memtab contradictions` on the labelled pairs of tests/support/owner_voices.py (issue 83):
a value whose thing one note names in its sentence and the other only by the note around
it — its heading, the line opening a config fence — or says as another kind of claim, found;
the same key of another service, environment, product or file, not."""

from __future__ import annotations

from memtab.trust.claims import _claims, claims_of
from memtab.trust.owners import owners_of
from support import contradiction_voices, owner_voices
from support.owner_voices import AFTER, CASES

NOT_READ = {"## Mailpit\n\n- UI: http://localhost:8025"}
"""Cases' first notes whose contradiction is not found, and why: the sentence names a part
("UI"), so the heading's thing is not read as whose part it is."""
AFTER_NOT_READ = {"### Search (Meilisearch)\n\n- Port 7700, master key in 1Password"}
"""The same for the batch written after the change (never tuned on): the heading names two
things ("Search", "Meilisearch"), read as one service of both names."""

found, test_each_kind_s_contradictions_found_and_near_misses_not = contradiction_voices.each_kind(
    CASES, NOT_READ
)
(
    test_what_is_not_read_is_still_not_found,
    test_the_batch_written_after_holds_its_near_misses_and_most_contradictions,
) = contradiction_voices.held_apart(CASES, NOT_READ, AFTER, AFTER_NOT_READ)


def test_the_corpus_is_as_large_as_the_brief_asks() -> None:
    """At least 30 contradictions and 30 near misses before, 10 and 5 after."""
    before = [case.expected for case in CASES]
    after = [case.expected for case in owner_voices.AFTER]
    assert min(before.count("contradiction"), before.count("neither")) >= 30
    assert (after.count("contradiction"), after.count("neither")) == (10, 5)


def test_a_line_s_owner_is_its_heading_or_the_line_opening_its_fence() -> None:
    text = "# Shop\n\n## API\n\n- Port: 8000\n\nThe worker's `.env`:\n\n```env\nPORT=9000\n```\n"
    owners = owners_of(text)
    assert (owners[5], owners[7], owners[10]) == ("API", "API", "The worker's  :")


def test_a_value_said_of_nothing_is_its_heading_s_thing() -> None:
    """A port said of nothing under "## API" is the API's; under "## Notes", no one's."""
    said = {(c.kind, c.key, c.value) for c in claims_of("# Shop\n\n## API\n\n- Port: 8000\n")}
    assert said == {("port", "api||/", "8000")}
    assert claims_of("# Notes\n\n- Port: 8000\n") == ()


def test_a_heading_naming_an_environment_places_what_is_under_it() -> None:
    staging = claims_of("## Staging\n\n- The API listens on 8001.\n")
    assert [c.key for c in staging] == ["api||staging/"]


def test_a_file_read_from_the_home_folder_is_a_place_its_aside_no_part_of_its_thing() -> None:
    """A file "loaded from `~/.tool.yaml`" is placed; "(XDG)" says how, not what."""
    said = claims_of("The config is loaded from `~/.tool.yaml`.")
    aside = claims_of("The config is read from `~/.config/tool/config.yaml` (XDG).")
    assert [(c.kind, c.key, c.value) for c in said] == [("path", "configur", "~/.tool.yaml")]
    assert [(c.kind, c.key) for c in aside if c.kind == "path"] == [("path", "configur")]


def test_a_place_said_of_more_than_five_words_is_none_a_word_said_twice_counted_twice() -> None:
    """What a path is said of is plain in five words at most, as before the owner was read."""
    said = claims_of("`db/` holds the migration scripts. database migrations need Chen's review.")
    assert [c for c in said if c.kind == "path"] == []


def test_a_sentence_is_read_once_whatever_heading_it_is_under() -> None:
    """The readers read a sentence once (templates and copies repeat theirs); its owner is
    given after, so "- Port: 8000" under "## API" and under "## Web" is one reading, two
    ports."""
    _claims.cache_clear()
    api, web = claims_of("## API\n\n- Port: 8000\n"), claims_of("## Web\n\n- Port: 8000\n")
    assert (_claims.cache_info().misses, _claims.cache_info().hits) == (1, 1)
    assert [c.key for c in (*api, *web)] == ["api||/", "web||/"]


def test_a_frame_under_an_environment_s_heading_holds_there() -> None:
    """A value of a frame under "## Staging" is staging's, unless its words say where."""
    under = claims_of("## Staging\n\n- Default branch is `develop`.\n")
    itself = claims_of("# Staging\n\nStaging is at https://staging.acme.io (VPN needed).\n")
    assert [c.key for c in under] == ["branch default in staging"]
    assert [c.key for c in itself] == ["stage"]
