"""The load floor of relx's stack in a fresh process: spaCy, the shipped parse pipeline,
numba and relx's cached kernels (wall and CPU seconds per step), before any relx model.

    python benchmarks/bench_load_floor.py
"""

from __future__ import annotations

import time

_T = [(time.perf_counter(), time.process_time())]


def mark(step: str) -> None:
    wall, cpu = time.perf_counter(), time.process_time()
    print(f"{step:34} wall {wall - _T[-1][0]:.3f} s  cpu {cpu - _T[-1][1]:.3f} s", flush=True)
    _T.append((wall, cpu))


def main() -> None:
    import spacy
    mark("import spacy")
    import relx.parse  # noqa: F401  (registers the pipeline's components)
    from relx.model_store import find_model_dir
    mark("import relx.parse")
    nlp = spacy.load(find_model_dir("relx_bio_sm"))
    mark("spacy.load(relx_bio_sm)")
    nlp("IL-2 activates STAT5 in T cells.")
    mark("first parse")
    import numba  # noqa: F401
    mark("import numba")
    import relx.kernels.path  # noqa: F401
    mark("import relx.kernels.path")
    print(f"{'total':34} wall {_T[-1][0] - _T[0][0]:.3f} s  cpu {_T[-1][1] - _T[0][1]:.3f} s")


if __name__ == "__main__":
    main()
