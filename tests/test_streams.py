"""Inputs read whole stop at their cap, and streams (a named pipe, a subprocess's pipe,
``/dev/fd/N``) are read once into a file that can be read twice, or refused clearly."""

from __future__ import annotations

import gzip
import io
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

import relx.io.source as source
from relx.io.bioc import read_bioc_json
from relx.io.errors import ReaderError
from relx.io.plaintext import read_plaintext
from relx.io.source import InputTooLarge, input_limits, is_stream, read_whole, spooled

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="named pipes are POSIX")
MIB = 1 << 20


# --- files read whole ---------------------------------------------------------------------------
@pytest.fixture
def counted(monkeypatch) -> list[int]:
    """The bytes each opened input delivered (decompressed), in opening order."""
    delivered: list[int] = []
    real = source._open_raw

    class Counting(io.RawIOBase):
        def __init__(self, inner) -> None:
            self.inner, self.k = inner, len(delivered)
            delivered.append(0)

        def readable(self) -> bool:
            return True

        def read(self, n: int = -1) -> bytes:
            data = self.inner.read(n)
            delivered[self.k] += len(data)
            return data

        def close(self) -> None:
            self.inner.close()
            super().close()

    monkeypatch.setattr(source, "_open_raw", lambda path: Counting(real(path)))
    return delivered


def test_plain_text_over_max_bytes_stops_one_byte_after_the_cap(tmp_path: Path,
                                                               counted: list[int]) -> None:
    path = tmp_path / "big.txt"
    path.write_bytes(b"JAK1 binds STAT5. " * (3 * MIB // 18))
    with pytest.raises(InputTooLarge) as info:
        list(read_plaintext(path, max_bytes=MIB))
    assert counted == [MIB + 1]
    assert "cap of 1 MiB" in info.value.reason and "--max-input-mb" in info.value.reason
    assert info.value.document == "big"
    (doc,) = read_plaintext(path, max_bytes=4 * MIB)     # raised: read
    assert len(doc.text) == path.stat().st_size


def test_bioc_json_cap_counts_decompressed_bytes(tmp_path: Path, counted: list[int]) -> None:
    path = tmp_path / "bomb.json.gz"
    with gzip.open(path, "wb") as fh:         # 40 MiB of JSON in ~40 kB
        fh.write(b'{"documents": [' + b" " * (40 * MIB) + b"]}")
    with pytest.raises(ReaderError, match=r"cap of 2 MiB .* raise it with --max-input-mb"):
        list(read_bioc_json(path, max_bytes=2 * MIB))
    assert counted == [2 * MIB + 1]


def test_the_input_limit_caps_files_read_whole(tmp_path: Path, counted: list[int]) -> None:
    """``--max-input-mb`` (``input_limits``) is the default cap, not 512 MiB."""
    path = tmp_path / "big.txt"
    path.write_bytes(b"x" * (3 * MIB))
    with input_limits(max_input_bytes=MIB), pytest.raises(InputTooLarge, match="1 MiB"):
        list(read_plaintext(path))
    assert counted == [MIB + 1]
    assert read_whole(path) == path.read_bytes()


# --- streams ------------------------------------------------------------------------------------
TEXT = b"JAK1 binds STAT5.\n" * 1000


def _write_later(path: Path, data: bytes, delay: float = 0.0) -> threading.Thread:
    def run() -> None:
        time.sleep(delay)
        try:
            with open(path, "wb") as fh:
                fh.write(data)
        except BrokenPipeError:      # the reader stopped early
            pass

    t = threading.Thread(target=run, daemon=True)
    t.start()
    return t


def test_a_regular_file_is_its_own_path(tmp_path: Path) -> None:
    path = tmp_path / "a.txt"
    path.write_bytes(TEXT)
    assert not is_stream(path) and not is_stream(tmp_path)
    with spooled(path) as p:
        assert p == path


def test_a_named_pipe_is_spooled_once_and_read_twice(tmp_path: Path) -> None:
    fifo = tmp_path / "abstracts.txt"
    os.mkfifo(fifo)
    assert is_stream(fifo)
    writer = _write_later(fifo, TEXT, delay=0.3)       # the writer comes a little later
    with spooled(fifo, wait_seconds=20) as p:
        assert p != fifo and p.name == "abstracts.txt"
        assert p.read_bytes() == TEXT and p.read_bytes() == TEXT   # hash, then read
        (doc,) = read_plaintext(p)
        assert doc.id == "abstracts" and doc.text == TEXT.decode()
    writer.join(5)
    assert not p.exists()                               # removed after the block


def test_a_named_pipe_without_writer_is_refused_without_blocking(tmp_path: Path) -> None:
    fifo = tmp_path / "nobody.jsonl"
    os.mkfifo(fifo)
    t0 = time.monotonic()
    with pytest.raises(ReaderError, match=r"nothing was written to this pipe within 0.5 s"):
        with spooled(fifo, wait_seconds=0.5):
            pass
    assert time.monotonic() - t0 < 10


def test_a_pipe_over_the_cap_stops_one_byte_after_it(tmp_path: Path) -> None:
    fifo = tmp_path / "big.txt"
    os.mkfifo(fifo)
    writer = _write_later(fifo, b"x" * (3 * MIB))
    with pytest.raises(InputTooLarge, match=r"cap of 1 MiB .*--max-input-mb"):
        with spooled(fifo, max_bytes=MIB, wait_seconds=20):
            pass
    writer.join(10)
    assert not writer.is_alive()                      # its pipe was closed: it stopped
    code = "import sys; sys.stdout.buffer.write(b'x' * (3 << 20))"
    with subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE) as proc:
        with pytest.raises(InputTooLarge):
            with spooled(proc.stdout, max_bytes=MIB):
                pass
        assert len(proc.stdout.read()) == 3 * MIB - (MIB + 1)   # left in the pipe


def test_a_subprocess_pipe_and_dev_fd_are_spooled() -> None:
    code = "import sys; sys.stdout.buffer.write(b'JAK1 binds STAT5.\\n' * 1000)"
    with subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE) as proc:
        with spooled(proc.stdout, name="from-process.txt") as p:
            assert p.name == "from-process.txt" and p.read_bytes() == TEXT
    with subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE) as proc:
        dev_fd = Path(f"/dev/fd/{proc.stdout.fileno()}")    # what bash's <(...) gives
        if not dev_fd.exists():
            pytest.skip("no /dev/fd")
        assert is_stream(dev_fd)
        with spooled(dev_fd, wait_seconds=20) as p:
            assert p.name == "stream" and p.read_bytes() == TEXT


def test_standard_input_is_spooled(tmp_path: Path) -> None:
    """``relx ... -``: standard input piped in (a child process reads its stdin)."""
    code = ("from relx.io.source import spooled\n"
            "with spooled('-', name='in.jsonl') as p:\n"
            "    print(p.name, len(p.read_bytes()), len(p.read_bytes()))\n")
    out = subprocess.run([sys.executable, "-c", code], input=TEXT, capture_output=True,
                         timeout=120, env={**os.environ, "PYTHONPATH": str(Path.cwd())})
    assert out.returncode == 0, out.stderr.decode()
    assert out.stdout.split() == [b"in.jsonl", str(len(TEXT)).encode(),
                                  str(len(TEXT)).encode()]
