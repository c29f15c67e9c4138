"""The MCP server's names, without the SDK (docs/formats.md §22.2, §22.4): its read-only
tools and its write modes — what installing needs of the server loads no pydantic into the
window or `memtab mcp install`."""

from __future__ import annotations

from typing import Final, Literal

READ_TOOLS: Final = ("list", "search", "view")
WriteMode = Literal["inbox", "direct", "off"]
WRITE_MODES: tuple[WriteMode, ...] = ("inbox", "direct", "off")
DEFAULT_WRITES: WriteMode = "inbox"
