"""Errors raised by readers: always name the file and the place."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path


class ReaderError(ValueError):
    """Malformed input; the message names the file and the element id or line.

    ``document``: the id of the document the error is about, when known (the rest of the
    file may still be readable: readers given an ``on_error`` callback report such errors
    and go on with the next document).
    """

    def __init__(self, path: str | Path, where: str, message: str,
                 document: str | None = None) -> None:
        self.path = str(path)
        self.where = where
        self.reason = message
        self.document = document
        super().__init__(f"{path}: {where}: {message}")


#: a reader's ``on_error``: called with each error confined to one document; ``None``: raise
OnError = Callable[[ReaderError], None] | None


def report(on_error: OnError, exc: ReaderError) -> None:
    """Hand ``exc`` to ``on_error``, or raise it when there is none."""
    if on_error is None:
        raise exc
    on_error(exc)
