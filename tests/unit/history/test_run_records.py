"""The runs log's records against the journal's hand-written reader: an op is one thing.

mux's journal (docs/formats.md §8) is read by a hand-written reader (`store.sidecars.journal`,
before the window's first paint); the runs log's ops (§14.3) are the record `RunOp`. Both
read the op's own fields by the same rules, which this holds them to.
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from memtab.store.history.records import RunOp
from memtab.store.sidecars.journal import parse_op

_VALUES = (
    st.none()
    | st.booleans()
    | st.integers(-3, 3)
    | st.just(10**400)
    | st.floats()
    | st.text(max_size=4)
)
_OP_FIELDS = ("command", "path", "newPath", "applied", "note")


@given(
    st.one_of(
        _VALUES,
        st.lists(_VALUES, max_size=2),
        st.fixed_dictionaries(
            {},
            optional={
                **dict.fromkeys(_OP_FIELDS, _VALUES),
                "command": st.text(max_size=4) | _VALUES,
                "path": st.text(max_size=4) | _VALUES,
                "applied": st.booleans() | _VALUES,
            },
        ),
    )
)
def test_a_runs_log_op_reads_its_journal_fields_as_the_journal_does(raw: object) -> None:
    journal = parse_op(raw)
    logged = RunOp.read(raw)
    assert (journal is None) == (logged is None)
    if journal is not None and logged is not None:
        assert (journal.command, journal.path, journal.applied) == (
            logged.command,
            logged.path,
            logged.applied,
        )
        assert (journal.new_path, journal.note) == (logged.new_path, logged.note)
