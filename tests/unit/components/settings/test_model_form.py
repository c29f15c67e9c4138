"""File → Settings' model form without Qt: each provider's own fields and key, the note
under the key, and what Save and Test connection may do with the form as it is."""

from __future__ import annotations

from memtab.components.settings.model_form import (
    NO_KEY_NOTE,
    STORAGE_NOTE,
    UNTESTED_NO_KEY,
    ModelForm,
    key_question,
    override_note,
)

ANTHROPIC = "https://api.anthropic.com"
OLLAMA = "http://localhost:11434/v1"


def test_a_switch_restores_each_providers_own_fields_and_key() -> None:
    form = ModelForm({})
    first = form.switch("offline", "", "")
    assert first is not None and not first.left  # nothing shown before: no test to forget
    assert form.switch("offline", "", "") is None  # shown already
    form.switch("openai", "", "")
    form.keys.type("openai", form.origin("openai", OLLAMA), "sk-local")
    to_anthropic = form.switch("anthropic", "llama3", OLLAMA)
    assert to_anthropic is not None and to_anthropic.left
    assert (to_anthropic.model, to_anthropic.base_url, to_anthropic.key) == ("", "", "")
    back = form.switch("openai", "claude-x", "")
    assert back is not None and (back.model, back.base_url, back.key) == (
        "llama3",
        OLLAMA,
        "sk-local",
    )


def test_the_note_says_there_is_no_key_and_where_a_typed_key_belongs() -> None:
    form = ModelForm({})
    view = form.key_view("anthropic", "", "")
    assert view.note == f"{NO_KEY_NOTE} {STORAGE_NOTE}"
    assert (view.placeholder, view.forget_shown) == ("not set", False)
    form.keys.type("anthropic", form.origin("anthropic", ""), "sk-ant")
    moved = form.key_view("anthropic", "", "https://proxy.example.com")
    assert moved.note.startswith("The key above was typed for api.anthropic.com: Memtab asks")
    assert "before it goes to proxy.example.com" in moved.note
    assert form.typed_here("anthropic", "https://proxy.example.com") == ""
    assert form.typed_here("anthropic", ANTHROPIC) == "sk-ant"
    openai = form.key_view("openai", "", OLLAMA)
    assert " Local servers such as Ollama need none. " in openai.note


def test_a_saved_key_is_its_hosts_until_forgotten() -> None:
    form = ModelForm({})
    form.load({"anthropic": frozenset({ANTHROPIC})})
    view = form.key_view("anthropic", "", "")
    assert view.forget_shown and view.placeholder == "unchanged (a key is saved for this host)"
    assert not form.kept_key("anthropic", "https://proxy.example.com")
    place = form.place("anthropic", "")
    assert place == ("anthropic", ANTHROPIC)
    form.keys.forget.add(place)
    assert not form.key_view("anthropic", "", "").forget_shown


def test_the_environments_key_shows_in_the_placeholder() -> None:
    form = ModelForm({"ANTHROPIC_API_KEY": "sk-env"})
    view = form.key_view("anthropic", "", "")
    assert view.placeholder == "from $ANTHROPIC_API_KEY"
    assert view.note.startswith("Uses $ANTHROPIC_API_KEY")
    assert form.untested(form.preview("anthropic", "", "")) is None
    assert form.untested(ModelForm({}).preview("anthropic", "", "")) == UNTESTED_NO_KEY
    assert form.untested(ModelForm({}).preview("openai", "", OLLAMA)) is None


def test_save_refuses_a_bad_base_url_and_keeps_the_key_for_its_host() -> None:
    form = ModelForm({})
    refusal = form.url_problem("openai", "http://192.0.2.10:8080/v1")
    assert refusal is not None and refusal.startswith("Not saved: ")
    assert refusal.endswith(".")
    assert form.url_problem("offline", "http://192.0.2.10:8080/v1") is None
    assert form.url_problem("openai", "  ") is None
    bad = form.key_view("openai", "", "http://192.0.2.10:8080/v1")
    assert bad.note[0].isupper() and NO_KEY_NOTE not in bad.note
    form.keys.type("openai", form.origin("openai", OLLAMA), "sk-local")
    saved = form.to_save("openai", "  ", f"{OLLAMA}/ ")
    assert (saved.model, saved.base_url, saved.api_key) == ("gpt-4o-mini", OLLAMA, "sk-local")


def test_the_words_of_overrides_and_of_the_key_question() -> None:
    assert override_note({"MEMTAB_MODEL": " x ", "MEMTAB_BASE_URL": ""}) == (
        "Set in the environment, MEMTAB_MODEL override these settings."
    )
    assert override_note({}) == ""
    question = key_question(ANTHROPIC, "http://localhost:11434", "Send")
    assert (
        question.text
        == "The API key was typed for api.anthropic.com. Send it for http://localhost:11434?"
    )
    assert question.confirm == "Send to http://localhost:11434"
