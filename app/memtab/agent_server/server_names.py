"""The MCP server's read-only tools and write modes without the SDK (docs/formats.md §22.2, §22.4),
so installing loads no pydantic."""

from __future__ import annotations

from typing import Final, Literal

READ_TOOLS: Final = ("list", "search", "view")
WriteMode = Literal["inbox", "direct", "off"]
WRITE_MODES: tuple[WriteMode, ...] = ("inbox", "direct", "off")
DEFAULT_WRITES: WriteMode = "inbox"
