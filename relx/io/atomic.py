"""Atomic file writes: write to a temporary file beside the target, then rename."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO


@contextmanager
def atomic_open(path: str | Path, mode: str = "w", encoding: str | None = "utf-8") -> Iterator[IO]:
    """Open ``path`` for writing so readers only ever see the old or the complete new file."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, mode, encoding=None if "b" in mode else encoding) as fh:
            yield fh
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, 0o644)  # mkstemp makes 0600 files; outputs are for others to read too
        os.replace(tmp, path)
    except OSError as exc:
        if os.path.exists(tmp):
            os.unlink(tmp)
        if exc.filename is None:          # e.g. ENOSPC from write(): name the file
            raise type(exc)(exc.errno, exc.strerror, str(path)) from exc
        raise
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def concat_files(parts: list[Path], target: Path, head: str = "") -> None:
    """``head``, then each existing part's text, as one file written atomically."""
    import shutil

    with atomic_open(target) as fh:
        fh.write(head)
        for p in parts:
            if p.exists():
                with open(p, encoding="utf-8") as src:
                    shutil.copyfileobj(src, fh, 1 << 20)
