"""Pick up new scans and queue them for OCR; the barcode is the key."""

from pathlib import Path


def barcodes(inbox: Path) -> list[str]:
    return sorted(p.stem for p in inbox.glob("WSX*.tif"))
