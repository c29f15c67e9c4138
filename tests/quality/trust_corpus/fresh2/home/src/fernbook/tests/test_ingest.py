from fernbook.ingest import barcodes


def test_barcodes_are_sorted(tmp_path):
    for name in ("WSX0000002.tif", "WSX0000001.tif"):
        (tmp_path / name).write_bytes(b"")
    assert barcodes(tmp_path) == ["WSX0000001", "WSX0000002"]
