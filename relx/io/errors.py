"""Errors raised by readers: always name the file and the place."""

from __future__ import annotations

from pathlib import Path


class ReaderError(ValueError):
    """Malformed input; the message names the file and the element id or line."""

    def __init__(self, path: str | Path, where: str, message: str) -> None:
        self.path = str(path)
        self.where = where
        self.reason = message
        super().__init__(f"{path}: {where}: {message}")
