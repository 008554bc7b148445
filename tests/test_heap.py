"""relx.heap.paused_gc: no automatic collection inside, the collector's state back after."""

from __future__ import annotations

import subprocess
import sys


def test_paused_gc_stops_collections_and_restores_the_collector_even_across_threads(
) -> None:
    """In a fresh process (nothing frozen): inside, no automatic collection runs even when
    a library re-enables the collector; nested and overlapping blocks in two threads
    restore the thresholds and state once the last ends; what the block made is in the
    oldest generation after, and a cycle it left is still collected."""
    code = """
import gc, threading
from relx.heap import paused_gc
gc.set_threshold(500, 7, 9)
runs = []
gc.callbacks.append(lambda phase, info: runs.append(info["generation"]) if phase == "start" else None)
with paused_gc():
    gc.enable()                       # as srsly does
    junk = [[i] for i in range(100_000)]
    assert not runs, runs
    inner_open, outer_done = threading.Event(), threading.Event()
    def other():
        with paused_gc():
            inner_open.set()
            outer_done.wait()
    t = threading.Thread(target=other)
    t.start()
    inner_open.wait()
assert gc.get_threshold()[0] == 0    # the other thread's block is still open
outer_done.set()
t.join()
assert gc.get_threshold() == (500, 7, 9) and gc.isenabled(), gc.get_threshold()
assert gc.get_count()[0] < 500 and gc.get_freeze_count() == 0
class Node: pass
a, b = Node(), Node(); a.b, b.a = b, a
import weakref; gone = weakref.ref(a); del a, b
gc.collect()
assert gone() is None
print("ok")
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok"


def test_paused_gc_keeps_a_disabled_collector_disabled() -> None:
    import gc

    from relx.heap import paused_gc

    was = gc.isenabled()
    gc.disable()
    try:
        with paused_gc():
            pass
        assert not gc.isenabled()
    finally:
        if was:
            gc.enable()


def test_paused_gc_does_not_walk_the_frozen_list_once_relx_froze_the_heap() -> None:
    """``gc.get_freeze_count()`` walks every frozen object; after :func:`relx.heap.freeze`
    a block does not ask it (and leaves the frozen objects frozen)."""
    code = """
import gc
from relx import heap
keep = [[i] for i in range(10_000)]
heap.freeze()
frozen, count = len(keep), gc.get_freeze_count
def walked():
    raise AssertionError("gc.get_freeze_count() called")
gc.get_freeze_count = walked
with heap.paused_gc():
    junk = [[i] for i in range(1_000)]
gc.get_freeze_count = count
assert gc.get_freeze_count() >= frozen
print("ok")
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok"
