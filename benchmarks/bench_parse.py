"""Parsing throughput of the shipped pipeline on GE abstracts: one process and all cores.

    python benchmarks/bench_parse.py [--limit N] [--repeat N]

Last line: JSON with ``sentences_per_s_1proc``, ``sentences_per_s_all`` (medians over the
repeats; every run's figure is in ``runs_1proc`` / ``runs_all``).
"""

from __future__ import annotations

import json
import multiprocessing as mp
import os
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor

sys.path.insert(0, os.path.dirname(__file__))
from _abstracts import bench_args, ge_abstracts, halves, one_thread  # noqa: E402


def _parse(docs: list) -> tuple[int, float]:
    from relx.parse.pipeline import Parser

    one_thread()
    parser = Parser()
    parser.parse_text("Warm-up sentence with IL-2.")  # model load outside the timing
    t0 = time.perf_counter()
    n = sum(len(d.sentences) for d in parser.parse_documents(docs))
    return n, time.perf_counter() - t0


def main() -> None:
    a = bench_args(__doc__)
    docs = ge_abstracts(a.limit)
    one, every = [], []
    for _ in range(max(a.repeat, 1)):
        n1, s1 = _parse(docs)
        one.append(n1 / s1)
        print(f"1 process: {len(docs)} abstracts, {n1} sentences in {s1:.1f} s = "
              f"{n1 / s1:.0f} sentences/s", flush=True)
        with ProcessPoolExecutor(a.procs, mp_context=mp.get_context("spawn")) as pool:
            parts = list(pool.map(_parse, halves(docs, a.procs)))
        n_all, s_all = sum(p[0] for p in parts), max(p[1] for p in parts)
        every.append(n_all / s_all)
        print(f"{a.procs} processes: {n_all} sentences in {s_all:.1f} s = {n_all / s_all:.0f} "
              f"sentences/s (slowest worker's time)", flush=True)
    print(json.dumps({"sentences_per_s_1proc": round(statistics.median(one), 1),
                      "sentences_per_s_all": round(statistics.median(every), 1),
                      "runs_1proc": [round(x, 1) for x in one],
                      "runs_all": [round(x, 1) for x in every], "processes": a.procs,
                      "abstracts": len(docs), "sentences": n1}))


if __name__ == "__main__":
    main()
