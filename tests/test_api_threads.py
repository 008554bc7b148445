"""Extractors shared between threads: each thread gets exactly what sequential calls give
(a web service loading relx once and extracting in a thread per request)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from relx.model_store import models_dir

SAMPLES = Path(__file__).resolve().parents[1] / "corpora" / "abstracts"
N_THREADS = 4
ROUNDS = 3

needs_models = pytest.mark.skipif(
    not all((models_dir() / m / "meta.json").exists()
            for m in ("ppi-default", "ge-events", "relx_bio_sm")),
    reason="shipped models missing")


def _in_threads(work: Callable[[int], Any]) -> list[Any]:
    """``work(i)`` in ``N_THREADS`` threads started together; their results (an exception
    raised in a thread is raised here)."""
    start = threading.Barrier(N_THREADS)
    out: list[Any] = [None] * N_THREADS
    errors: list[BaseException] = []

    def run(i: int) -> None:
        try:
            start.wait()
            out[i] = work(i)
        except BaseException as exc:  # noqa: BLE001 - handed to the test below
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(N_THREADS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=600)
    assert not any(t.is_alive() for t in threads), "a thread did not finish"
    if errors:
        raise errors[0]
    return out


def _texts() -> list[list[str]]:
    """Four different inputs: each sample abstract alone, then all of them in one text of
    many sentences (the case that came back as one sentence)."""
    samples = [p.read_text(encoding="utf-8") for p in sorted(SAMPLES.glob("*.txt"))]
    return [samples[0:2], samples[2:4], [samples[4]], ["\n\n".join(samples)]]


def test_sentence_splitter_is_per_thread() -> None:
    """pysbd's segmenter keeps the text it splits on itself: shared between threads, one
    thread's sentences were looked up in another's text."""
    from relx.parse.fast import _segmenter

    texts = [" ".join(t) for t in _texts()]
    alone = [[(s.start, s.end) for s in _segmenter().segment(t)] for t in texts]

    def work(i: int) -> list[list[tuple[int, int]]]:
        return [[(s.start, s.end) for s in _segmenter().segment(texts[i])]
                for _ in range(10)]

    for i, rounds in enumerate(_in_threads(work)):
        assert all(r == alone[i] for r in rounds)


@pytest.fixture(scope="module")
def ppi():
    import relx

    return relx.load(task="ppi")


@pytest.fixture(scope="module")
def events():
    import relx

    return relx.load(task="events")


@pytest.mark.slow
@needs_models
@pytest.mark.parametrize("task", ["ppi", "events"])
def test_threads_sharing_an_extractor_get_the_sequential_results(task, ppi, events) -> None:
    ex = ppi if task == "ppi" else events
    inputs = _texts()
    sequential = [[r.model_dump() for r in ex.extract(t)] for t in inputs]
    assert all(sequential)

    def work(i: int) -> list[list[dict]]:
        return [[r.model_dump() for r in ex.extract(inputs[i])] for _ in range(ROUNDS)]

    for i, rounds in enumerate(_in_threads(work)):
        for got in rounds:
            assert got == sequential[i]      # exactly: sentences, offsets, scores, types


@pytest.mark.slow
@needs_models
def test_threads_streaming_and_annotating_at_once(ppi) -> None:
    """``pipe`` and ``annotate`` (the batch runner's entry) from threads at once, each
    equal to the same call made alone. (Not to each other: documents annotated together
    are scored and typed in windows, and an event score can differ in its fourth decimal
    from the same document's score alone.)"""
    from relx.api import as_documents

    inputs = _texts()
    docs = [[(f"t{i}-{k}", text) for k, text in enumerate(t)] for i, t in enumerate(inputs)]
    piped = [[[r.model_dump() for r in found] for found in ppi.pipe(d, batch_size=1)]
             for d in docs]
    alone = [[[r.model_dump() for r in found] for _, found, _ in ppi.annotate(as_documents(d))]
             for d in docs]

    def work(i: int) -> tuple[list, list]:
        streamed = [[r.model_dump() for r in found] for found in ppi.pipe(docs[i],
                                                                         batch_size=1)]
        annotated = [[r.model_dump() for r in found]
                     for _, found, _ in ppi.annotate(as_documents(docs[i]))]
        return streamed, annotated

    for i, (streamed, annotated) in enumerate(_in_threads(work)):
        assert streamed == piped[i] and annotated == alone[i]


@pytest.mark.slow
@needs_models
def test_thread_limits_are_restored_after_threads_extract(ppi) -> None:
    from threadpoolctl import threadpool_info

    before = [p["num_threads"] for p in threadpool_info()]
    _in_threads(lambda i: ppi.extract(_texts()[i]))
    assert [p["num_threads"] for p in threadpool_info()] == before
