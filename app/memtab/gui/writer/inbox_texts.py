"""What the Inbox says of each item, in words: who proposed it (agents named as History
names them, `store.actors`: "Codex create", "Codex via Memtab MCP · create"), and where
it came from and rests on (the details pane). What an agent's proposal would write is
its review's (`review_view`)."""

from __future__ import annotations

from memtab.gui.toolkit.text.rich_text import escape_html
from memtab.store.actors import actor_name
from memtab.writer.inbox.inbox import InboxItem


def origin_text(item: InboxItem) -> str:
    """Who proposed an item, in a few words."""
    if item.kind == "harvest":
        confidence = "" if item.confidence is None else f" · confidence {item.confidence:.2f}"
        return f"mux harvest · {item.category}{confidence}"
    if item.kind == "agent":
        return f"{actor_name(item.source)} · {item.category}"
    return "Memtab's offline writer"


def row_tag(item: InboxItem) -> str:
    """Who proposed an item, as its row's first words."""
    if item.kind == "harvest":
        return "mux" if item.confidence is None else f"mux {item.confidence:.2f}"
    if item.kind == "agent":
        return f"{actor_name(item.source, how=False)} {item.category}"
    return "writer"


def details_html(item: InboxItem) -> str:
    """The item's provenance and evidence, for the details pane."""
    escape = escape_html
    if item.kind == "agent":  # a memory-tool call: what it writes is the review's
        return f"<p><b>{escape(origin_text(item))}</b><br>Changes {escape(item.memory_path)}</p>"
    parts = [
        f"<p><b>{escape(origin_text(item))}</b><br>"
        f"From {escape(item.source)} · goes to {escape(item.memory_path)}, "
        f"under “{escape(item.section)}”</p>"
    ]
    if item.rationale:
        parts.append(f"<p><i>Why:</i> {escape(item.rationale)}</p>")
    if item.target_reason:
        parts.append(f"<p><i>Why there:</i> {escape(item.target_reason)}</p>")
    if item.evidence:
        rows = []
        for evidence in item.evidence:
            if evidence.text is None:
                rows.append(f"<li><code>{escape(evidence.id)}</code> — not in the transcript</li>")
            else:
                text = escape(evidence.text).replace("\n", "<br>")
                rows.append(
                    f"<li><code>{escape(evidence.id)}</code> ({escape(evidence.role or '?')}): "
                    f"{text}</li>"
                )
        parts.append("<p><i>Evidence:</i></p><ul>" + "".join(rows) + "</ul>")
    return "".join(parts)
