"""A stored content is expanded as it is read, never past what history keeps (16 MB,
docs/formats.md §14.2): a blob or a pack entry that would expand further — damaged, or
planted in the home — is refused in words, having held at most that much. `memtab blame`
of one that expanded to 1 GB took 3.1 GB (issue 49).

Each read runs in a child process whose address space is capped well below a gigabyte, and
says how much its peak resident memory grew.
"""

from __future__ import annotations

import subprocess
import sys
import zlib
from pathlib import Path

import pytest

from memtab.store.history import packs
from memtab.store.history.blobs import BlobError, BlobStore, sha256_of
from memtab.store.history.capture import MAX_HISTORY_FILE_BYTES

GB = 1 << 30
_BLOCK = b"\0" * (1 << 20)
# Reads one content in a child: what it said, then how much its peak memory grew (MiB). Its
# address space may grow 512 MiB past what it has mapped once its imports are done.
_READ = """
import resource, sys
from pathlib import Path
from memtab.store.history.blobs import BlobError, BlobStore
mapped = int(next(l for l in open("/proc/self/status") if l.startswith("VmSize")).split()[1])
resource.setrlimit(resource.RLIMIT_AS, ((mapped << 10) + (512 << 20),) * 2)
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
try:
    said = f"read {len(BlobStore(Path(sys.argv[1])).get(sys.argv[2]))} bytes"
except BlobError as error:
    said = str(error)
print(said)
print((resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) >> 10)
"""


def zeros_compressed(size: int) -> bytes:
    """`size` zero bytes (a multiple of 1 MiB) as zlib, built without compressing them
    all: after a full flush each MiB compresses to the same bytes."""
    compressor = zlib.compressobj(9)
    head = compressor.compress(_BLOCK) + compressor.flush(zlib.Z_FULL_FLUSH)
    middle = compressor.compress(_BLOCK) + compressor.flush(zlib.Z_FULL_FLUSH)
    end = compressor.flush()[:-4]  # its checksum is of what this compressor saw
    checksum = ((size % 65521) << 16) | 1  # Adler-32 of `size` zero bytes
    return head + middle * (size // len(_BLOCK) - 1) + end + checksum.to_bytes(4, "big")


def read_in_a_child(blobs: BlobStore, sha256: str) -> tuple[str, int]:
    done = subprocess.run(
        [sys.executable, "-c", _READ, str(blobs.directory), sha256],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    said, grew = done.stdout.splitlines()
    return said, int(grew)


@pytest.fixture
def blobs(tmp_path: Path) -> BlobStore:
    return BlobStore(tmp_path / "blobs")


def test_the_zeros_are_what_they_say() -> None:
    assert zlib.decompress(zeros_compressed(4 << 20)) == bytes(4 << 20)


@pytest.mark.slow  # slow: a child reads (~0.4 s of CPU)
def test_a_blob_that_expands_to_a_gigabyte_is_refused_with_bounded_memory(
    blobs: BlobStore,
) -> None:
    sha = sha256_of(b"what the index says")
    path = blobs.path_of(sha)
    path.parent.mkdir(parents=True)
    path.write_bytes(zeros_compressed(GB))
    said, grew = read_in_a_child(blobs, sha)
    assert said == (
        f"the stored content {sha[:12]} expands past 16 MB, more than history keeps "
        "(damaged, or not Memtab's): it is not read"
    )
    assert grew < 64


@pytest.mark.slow  # slow: a child reads (~0.4 s of CPU)
def test_a_pack_entry_that_expands_to_a_gigabyte_is_refused_with_bounded_memory(
    blobs: BlobStore,
) -> None:
    sha = sha256_of(b"what the index says")
    packs.write_pack(blobs.packs_dir, [(sha, zeros_compressed(GB))])
    said, grew = read_in_a_child(blobs, sha)
    assert said.startswith(f"the stored content {sha[:12]} expands past 16 MB")
    assert grew < 64


def test_a_content_as_large_as_history_keeps_is_read_and_one_byte_more_is_not(
    blobs: BlobStore,
) -> None:
    largest = b"x" * MAX_HISTORY_FILE_BYTES
    assert blobs.get(blobs.put(largest)) == largest
    over = largest + b"x"
    sha = sha256_of(over)
    path = blobs.path_of(sha)
    path.parent.mkdir(exist_ok=True)
    path.write_bytes(zlib.compress(over))  # as another program would have put it
    with pytest.raises(BlobError, match="expands past 16 MB"):
        blobs.get(sha)


def test_a_blob_cut_short_or_not_zlib_is_named_as_unreadable(blobs: BlobStore) -> None:
    data = b"# Notes\n" * 1000
    sha = blobs.put(data)
    path = blobs.path_of(sha)
    path.write_bytes(zlib.compress(data)[:-10])
    with pytest.raises(BlobError, match=r"cannot be read: .*truncated"):
        blobs.get(sha)
    path.write_bytes(b"not zlib at all")
    with pytest.raises(BlobError, match="cannot be read"):
        blobs.get(sha)
