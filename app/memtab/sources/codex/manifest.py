"""A Codex memory extension's `manifest.json` (docs/formats.md §17.3): its record, read as Codex
reads it, and rendered read-only."""

from __future__ import annotations

from typing import Annotated

from memtab.fs.jsonfile import JsonError, parse_json
from memtab.fs.records import Lenient, Record, ValidEntries
from memtab.humanize import plural

MANIFEST_NAME = "manifest.json"
INSTRUCTIONS_NAME = "instructions.md"
RESOURCES_DIR = "resources"
MANIFEST_VERSION = 1
"""The manifest version Codex writes; it treats a manifest of another as none."""
_SHA_SHOWN = 12


class ManifestEntry(Record):
    """One resource a manifest lists: its file below `resources/` and its origin's sha256."""

    target_file_name: str
    content_sha256: Annotated[str, Lenient("")] = ""


class ExtensionManifest(Record):
    """`extensions/<name>/manifest.json`: its version and resources by source id."""

    version: int
    resources: ValidEntries[dict[str, ManifestEntry]]


def manifest_of(text: str) -> tuple[ExtensionManifest | None, str | None]:
    """A manifest's text read as Codex reads it, or None and why it is none to Codex."""
    try:
        raw = parse_json(text)
    except JsonError as error:
        return None, str(error)
    manifest = ExtensionManifest.read(raw)
    if manifest is None:
        return None, "not a manifest (Codex writes `version` and `resources`)"
    if manifest.version != MANIFEST_VERSION:
        return None, f"version {manifest.version}, where Codex writes {MANIFEST_VERSION}"
    return manifest, None


def render_manifest(relative: str, data: bytes) -> str:
    """The manifest at `relative` as the editor and `memtab show` show it; one Codex cannot use
    said in a line, then its text."""
    parts = relative.split("/")
    name = parts[-2] if len(parts) > 1 else relative
    text = data.decode("utf-8", "replace")
    manifest, problem = manifest_of(text)
    head = f"# Manifest of Codex memory extension `{name}`"
    if manifest is None:
        return f"{head}\n\nCodex cannot use it: {problem}.\n\n```json\n{text.rstrip()}\n```\n"
    count = plural(len(manifest.resources), "resource")
    lines = [
        head,
        "",
        f"Version {manifest.version}: Codex keeps {count} in step with where each comes "
        "from, rewrites them, and removes one a newer manifest no longer lists. Its "
        f"instructions to Codex's consolidation are in `{INSTRUCTIONS_NAME}` beside it.",
    ]
    if manifest.resources:
        lines += ["", "| Resource | From | Content sha256 |", "|---|---|---|"]
        for origin, entry in sorted(manifest.resources.items()):
            sha = entry.content_sha256
            shown = sha[:_SHA_SHOWN] + ("…" if len(sha) > _SHA_SHOWN else "")
            lines.append(
                f"| `{RESOURCES_DIR}/{_cell(entry.target_file_name)}` | {_cell(origin)} "
                f"| `{_cell(shown)}` |"
            )
    return "\n".join(lines) + "\n"


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ").replace("`", "'")
