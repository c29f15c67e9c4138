"""A Codex memory extension's `manifest.json`: its record, and how it is shown.

An extension Codex keeps in step with where its resources come from has, beside its
`instructions.md` and `resources/`, a manifest (openai/codex
`codex-rs/memories/write/src/extensions/persistent.rs`):

```json
{"version": 1,
 "resources": {"<source id>": {"targetFileName": "index-a.md", "contentSha256": "…"}}}
```

Each resource is `resources/<targetFileName>` (a flat `.md` name); Codex's sync rewrites
the instructions, the resources and the manifest, and removes the resources an older
manifest listed that the new one does not, leaving any other file of `resources/` be. A
manifest of another version, or one that cannot be read, is to Codex no manifest
(docs/formats.md §17.3). Memtab shows it rendered (`render_manifest`), read-only.
"""

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
    """One resource a Codex extension's manifest lists (docs/formats.md §17.3): its file
    below `resources/`, and the sha256 of the content it was made from (before Codex added
    its envelope: not the file's own)."""

    target_file_name: str
    content_sha256: Annotated[str, Lenient("")] = ""


class ExtensionManifest(Record):
    """`extensions/<name>/manifest.json`, written by Codex (docs/formats.md §17.3): its
    version and the resources it keeps, by where each comes from (a source id)."""

    version: int
    resources: ValidEntries[dict[str, ManifestEntry]]


def manifest_of(text: str) -> tuple[ExtensionManifest | None, str | None]:
    """A manifest's text read as Codex reads it, or None and why it is none to Codex (not
    JSON, not a manifest, another version than Codex's)."""
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
    """The manifest at `relative` (`extensions/<name>/manifest.json`) as the editor and
    `memtab show` show it: whose it is and each resource it keeps; one Codex cannot use is
    said in one line, followed by its text."""
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
