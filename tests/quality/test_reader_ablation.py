"""The reader ablation (tests/quality/reader_ablation.py, issue 94) reports what a reader alone
finds: switched off, the check's recall rules lose the tune half's seeded recall findings, a
redaction rule switched off lets the secret it alone reads reach a model, and a reader that is
no function of its engine is refused rather than measured as finding nothing."""

from __future__ import annotations

import pytest
from tests.quality.reader_ablation import READERS, ablate, hidden_only_by, switch_off


def test_switching_off_the_recall_rules_loses_their_findings_on_tune() -> None:
    report = ablate("tune", [["check/recall"]])
    check = report["readers"]["check/recall"]["check"]
    assert {"K12", "K13", "K21"} <= set(check["right"])
    assert not check["false"] and not check["keptOutRight"]


def test_every_reader_names_what_its_engine_s_module_holds() -> None:
    for reader in READERS:
        for module, attribute, _nothing in reader.patches:
            assert attribute in vars(__import__(module, fromlist=[attribute])), reader.name


def test_a_reader_of_no_such_function_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    from tests.quality import reader_ablation

    ghost = reader_ablation.Reader("ghost", ("check",), (("memtab.check.engine", "no_such", ()),))
    monkeypatch.setitem(reader_ablation._BY_NAME, "ghost", ghost)
    with pytest.raises(AttributeError, match="ghost"):
        switch_off(["ghost"])


def test_a_redaction_reader_alone_hides_the_secret_only_it_reads() -> None:
    prose = next(r for r in READERS if r.name == "redact/secret_in_prose")
    texts = [("said", "the schema password is hunter2"), ("plain", "the password is required")]
    assert [row.split(":")[0] for row in hidden_only_by(prose, texts)] == ["said"]
