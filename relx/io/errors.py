"""Errors raised by readers: always name the file and the place."""

from __future__ import annotations

from collections.abc import Callable

from relx.errors import ReaderError

#: a reader's ``on_error``: called with each error confined to one document; ``None``: raise
__all__ = ["OnError", "ReaderError", "report"]

OnError = Callable[[ReaderError], None] | None


def report(on_error: OnError, exc: ReaderError) -> None:
    """Hand ``exc`` to ``on_error``, or raise it when there is none."""
    if on_error is None:
        raise exc
    on_error(exc)
