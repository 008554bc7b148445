"""The cyclic garbage collector while relx loads: :func:`paused_gc`."""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator

__all__ = ["paused_gc"]


@contextlib.contextmanager
def paused_gc() -> Iterator[None]:
    """No automatic cyclic garbage collection inside the block (the collector's state and
    thresholds restored after): loading builds millions of long-lived objects, and each
    full collection met on the way traverses all of them again (8 of them, ~1.6 s of a
    9 s ``relx.load()``). Threshold 0 as well as ``gc.disable()``: libraries re-enable the
    collector on their way (srsly's msgpack reader, which spaCy loads its pipeline with,
    calls ``gc.enable()`` unconditionally).

    At the end, what the block made joins the oldest generation without a traversal
    (``gc.freeze()`` then ``gc.unfreeze()``; only when nothing was frozen before, so that
    nobody's frozen objects are thawed): the first young collection after the block would
    otherwise traverse all of it (~0.3 s), and so would the next ones as it ages. A
    garbage cycle the block left is found at the next full collection."""
    was = gc.isenabled()
    thresholds = gc.get_threshold()
    gc.disable()
    gc.set_threshold(0, *thresholds[1:])
    try:
        yield
    finally:
        if gc.get_freeze_count() == 0:
            gc.freeze()
            gc.unfreeze()
        gc.set_threshold(*thresholds)
        if was:
            gc.enable()
        else:
            gc.disable()
