"""End-to-end extraction vs parse-only throughput on the same GE abstracts, all cores.

    python benchmarks/bench_extract.py [--limit N] [--procs P]
        [--task ppi|typed|events|gene-relations]

Each of P processes loads the shipped models (set up as a ``relx batch`` worker: one compute
thread, :func:`relx.api.settle_heap`), then (timed) parses its share of the
abstracts, and separately runs the whole extractor on the same share: with ``--task ppi``
(default) parse, NER, grounding, candidate pairs and the shipped model's scores (plain,
undirected pairs: ``relx.load(task="ppi", types=False)``); with ``--task typed`` the same
plus the event model on the sentences of the reported pairs, typing and directing them
(``relx.load(task="ppi")``, what ``relx extract --task ppi`` does); with ``--task events`` parse, NER proteins, grounding and the shipped event model (triggers,
arguments, events); with ``--task gene-relations`` what ``relx extract`` does by default:
every candidate pair scored and typed, then the document-level gene relation model (a model whose pair classifier reads no event types would type only the reported pairs' sentences). Last line: JSON with ``abstracts_per_s``,
``parse_only_abstracts_per_s``, ``extract_cpu_s`` and ``parse_only_cpu_s`` (the
extraction's and the parse's CPU seconds, summed over the processes: steadier than wall
time on a shared machine; ``cpu_share_of_parse_only`` is their ratio, parse-only over
extract, the CPU counterpart of the wall-time share), ``peak_rss_mb`` (sum of the
processes' peak resident sizes; ``worker_peak_rss_mb``: the largest worker's,
``parent_peak_rss_mb``: this process's).
"""

from __future__ import annotations

import json
import multiprocessing as mp
import os
import resource
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from functools import partial

sys.path.insert(0, os.path.dirname(__file__))
from _abstracts import bench_args, ge_abstracts, halves, one_thread  # noqa: E402

from relx.api import settle_heap, warm_up  # noqa: E402


def _extractor(task: str):
    if task == "events":
        from relx.ge.extract import EventExtractor

        return EventExtractor()
    if task == "gene-relations":
        from relx.ppi.gene_relations import load

        return load()
    import relx

    return relx.load(task="ppi", types=task == "typed")


def _work(docs: list, task: str = "ppi") -> dict:
    one_thread()
    ex = _extractor(task)
    warm_up(ex)   # as a batch worker does: what loads on first use, loaded now
    settle_heap()   # as a batch worker does once its models are loaded
    t0, c0 = time.perf_counter(), time.process_time()
    parser = ex.pairs.parser if task == "gene-relations" else ex.parser
    n_sent = sum(len(d.sentences) for d in parser.parse_documents(docs))
    t1, c1 = time.perf_counter(), time.process_time()
    n_rel = n_cand = n_typed = 0
    for _, found, extra in ex.annotate(docs):
        n_rel += len(found)       # relations, or events
        n_cand += len(extra.triggers) if task == "events" else extra   # triggers, or pairs
        if task == "typed":
            n_typed += sum(r.type != "Interaction" for r in found)
    t2 = time.perf_counter()
    return {"parse_s": t1 - t0, "extract_s": t2 - t1, "extract_cpu_s": time.process_time() - c1,
            "parse_cpu_s": c1 - c0,
            "sentences": n_sent,
            "relations": n_rel, "candidates": n_cand, "typed": n_typed,
            "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}


def main() -> None:
    a = bench_args(__doc__, tasks=("ppi", "typed", "events", "gene-relations"))
    docs = ge_abstracts(a.limit)
    with ProcessPoolExecutor(a.procs, mp_context=mp.get_context("spawn")) as pool:
        parts = list(pool.map(partial(_work, task=a.task), halves(docs, a.procs)))
    parse_s = max(p["parse_s"] for p in parts)
    extract_s = max(p["extract_s"] for p in parts)
    parent_rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    rss = sum(p["rss_mb"] for p in parts) + parent_rss
    n = len(docs)
    found, scored = ("events", "triggers") if a.task == "events" else (
        "relations", "candidate pairs")
    print(f"{n} abstracts, {sum(p['sentences'] for p in parts)} sentences, "
          f"{sum(p['candidates'] for p in parts)} {scored}, "
          f"{sum(p['relations'] for p in parts)} {found}"
          + (f" ({sum(p['typed'] for p in parts)} typed)" if a.task == "typed" else "")
          + f", {a.procs} processes")
    print(f"parse only: {parse_s:.1f} s = {n / parse_s:.1f} abstracts/s")
    print(f"end to end: {extract_s:.1f} s = {n / extract_s:.1f} abstracts/s "
          f"({parse_s / extract_s:.0%} of parse-only throughput)")
    print(f"peak RSS: {rss:.0f} MB over {a.procs} workers + parent (largest worker "
          f"{max(p['rss_mb'] for p in parts):.0f} MB, parent {parent_rss:.0f} MB)")
    cpu_s = sum(p["extract_cpu_s"] for p in parts)
    parse_cpu_s = sum(p["parse_cpu_s"] for p in parts)
    print(f"CPU: parse only {parse_cpu_s:.1f} s, end to end {cpu_s:.1f} s "
          f"({parse_cpu_s / cpu_s:.0%})")
    print(json.dumps({"abstracts_per_s": round(n / extract_s, 1),
                      "extract_cpu_s": round(cpu_s, 1),
                      "parse_only_cpu_s": round(parse_cpu_s, 1),
                      "cpu_share_of_parse_only": round(parse_cpu_s / cpu_s, 3),
                      "parse_only_abstracts_per_s": round(n / parse_s, 1),
                      "peak_rss_mb": round(rss),
                      "worker_peak_rss_mb": round(max(p["rss_mb"] for p in parts)),
                      "parent_peak_rss_mb": round(parent_rss), "abstracts": n, "processes": a.procs,
                      "task": a.task}))


if __name__ == "__main__":
    main()
