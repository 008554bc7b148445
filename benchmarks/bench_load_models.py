"""The three shipped models loaded one after another vs beside each other (threads), in a
fresh process after the imports: what ``relx.load()`` gains from loading them in parallel.

    python benchmarks/bench_load_models.py seq|par

Prints the mode and the wall seconds of the loads. Alternate the two modes a few times on a
quiet machine (``for i in 1 2 3; do ... seq; ... par; done``): single runs vary.
"""

from __future__ import annotations

import sys
import time
from concurrent.futures import ThreadPoolExecutor

import numba  # noqa: F401  (imports first: only the loads are timed)
import sklearn.base  # noqa: F401
import spacy  # noqa: F401

import relx.ge.interactions  # noqa: F401
import relx.ppi.extract  # noqa: F401
import relx.ppi.gene_relations  # noqa: F401
from relx.ge.extract import resolve_event_model
from relx.ppi.extract import resolve_model
from relx.ppi.gene_relations import load_gene_model


def main() -> None:
    mode = sys.argv[1] if len(sys.argv) > 1 else "par"
    t = time.perf_counter()
    if mode == "seq":
        load_gene_model()
        resolve_event_model(None)
        resolve_model(None)
    else:
        with ThreadPoolExecutor(2) as pool:
            gene = pool.submit(load_gene_model)
            events = pool.submit(resolve_event_model, None)
            resolve_model(None)
            gene.result()
            events.result()
    print(mode, round(time.perf_counter() - t, 2))


if __name__ == "__main__":
    main()
