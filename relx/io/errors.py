"""Errors raised by readers: always name the file and the place."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from relx.errors import ReaderError

#: a reader's ``on_error``: called with each error confined to one document; ``None``: raise
__all__ = ["OnError", "ReaderError", "report"]

OnError = Callable[[ReaderError], None] | None


#: what converting one malformed document can raise besides :class:`ReaderError` (a JSON
#: number where a string belongs, a missing key...): confined to that document
DOCUMENT_ERRORS = (TypeError, ValueError, AttributeError, KeyError, IndexError)


def document_error(path: str | Path, where: str, exc: Exception,
                   document: str | None) -> ReaderError:
    """``exc``, raised while converting the document ``document`` (at ``where``), as a
    :class:`ReaderError` naming that document."""
    if not isinstance(exc, ReaderError):
        exc = ReaderError(path, where, f"malformed document: {type(exc).__name__}: {exc}")
    if document is not None:
        exc.document = document
    return exc


def report(on_error: OnError, exc: ReaderError) -> None:
    """Hand ``exc`` to ``on_error``, or raise it when there is none."""
    if on_error is None:
        raise exc
    on_error(exc)
