"""The cyclic garbage collector while relx loads (:func:`paused_gc`) and once it has
loaded (:func:`freeze`)."""

from __future__ import annotations

import contextlib
import gc
import threading
from collections.abc import Iterator

__all__ = ["freeze", "paused_gc"]

_lock = threading.Lock()
_depth = 0                              # paused_gc blocks open now, in any thread
_saved: tuple[bool, tuple[int, ...]] = (True, (700, 10, 10))   # state before the first
_froze = False                          # relx has frozen the heap in this process


def freeze() -> None:
    """``gc.freeze()``, remembered, so that :func:`paused_gc` need not ask the collector
    whether anything is frozen: ``gc.get_freeze_count()`` walks the whole frozen list
    (~0.15 s over a loaded relx's ~650,000 objects)."""
    global _froze
    gc.freeze()
    _froze = True


@contextlib.contextmanager
def paused_gc() -> Iterator[None]:
    """No automatic cyclic garbage collection inside the block (the collector's state and
    thresholds restored when the last open block ends, whichever thread opened it):
    loading builds millions of long-lived objects, and each full collection met on the way
    traverses all of them again (8 of them, ~1.6 s of a 9 s ``relx.load()``). Threshold 0
    as well as ``gc.disable()``: libraries re-enable the collector on their way (srsly's
    msgpack reader, which spaCy loads its pipeline with, calls ``gc.enable()``
    unconditionally).

    At the end, what the blocks made joins the oldest generation without a traversal
    (``gc.freeze()`` then ``gc.unfreeze()``; only when nothing was frozen before, so that
    nobody's frozen objects are thawed): the first young collection after the block would
    otherwise traverse all of it (~0.3 s), and so would the next ones as it ages. A
    garbage cycle the block left is found at the next full collection.

    Asking whether anything is frozen walks the frozen list (``gc.get_freeze_count()``):
    not asked once relx has frozen the heap itself (:func:`freeze`), and a block belongs
    around loading only, never around a lookup that runs per mention (entered on every
    species lookup after the heap was frozen, it made parsing seven times slower)."""
    global _depth, _saved
    with _lock:
        if _depth == 0:
            _saved = (gc.isenabled(), gc.get_threshold())
        _depth += 1
        gc.disable()
        gc.set_threshold(0, *_saved[1][1:])
    try:
        yield
    finally:
        with _lock:
            _depth -= 1
            if _depth == 0:
                was, thresholds = _saved
                if not _froze and gc.get_freeze_count() == 0:
                    gc.freeze()
                    gc.unfreeze()
                gc.set_threshold(*thresholds)
                if was:
                    gc.enable()
                else:
                    gc.disable()
