"""The three spotter sessions (marot/spotter, kept in tests/quality/data): the first real
sessions labelled for the writer, tuned on since. An item marked `# missed` was not found by
the offline writer when it was labelled (documentation only: the score does not look at it).

Each row: name, file under tests/quality/data, the items (fragments one note must all
contain), and the session's language.
"""

from __future__ import annotations

Label = tuple[str, str, tuple[tuple[str, ...], ...], str]

SPOTTER_LABELS: tuple[Label, ...] = (
    (
        "spotter: OpenTelemetry tracing",
        "spotter-otel-tracing.jsonl.gz",
        (
            ("goal", "spotter-4te"),
            ("mix deps.get",),
            ("mix compile",),
            ("mix credo",),
            ("mix format",),
            ("git commit", "mix format"),
            ("hex_trace_id",),
            ("mix test",),  # missed — always piped into tail here
            ("mix dialyzer",),  # missed
            ("bd ready",),  # missed
        ),
        "en",
    ),
    (
        "spotter: session sync",
        "spotter-session-sync.jsonl.gz",
        (
            ("goal", "spotter-a0y"),
            ("mix compile",),
            ("mix credo",),
            ("mix test",),
            ("mix format",),
            ("git commit", "mix format"),
            ("mix ash.codegen",),  # the labels of issue 24 keep a project's other tasks
            ("mix ecto.migrate",),
            ("priv/static/assets",),  # missed
            ("bd ready",),  # missed
        ),
        "en",
    ),
    (
        "spotter: transcript UI",
        "spotter-transcript-ui.jsonl.gz",
        (
            ("goal", "spotter-fum"),
            ("mix deps.get",),
            ("mix compile",),
            ("mix credo",),
            ("mix test",),
            ("vitest",),
            ("build", "assets/"),
            ("bd ready",),  # missed
        ),
        "en",
    ),
)
