"""Compile relx's numba functions for portable CPU levels into ``relx/_jit`` (``make jit-cache``).

    python -m lab.jit_cache [--levels generic,x86-64-v3,x86-64-v4] [--out relx/_jit]

For each level, a fresh process runs what ``relx extract`` runs on the sample abstracts
(``corpora/abstracts``, the PPI task typing its pairs) with ``NUMBA_CPU_NAME=<level>
NUMBA_CPU_FEATURES=`` (no host features), relx's shipped code and start-up cache off
(:mod:`relx.array_cache`: a new environment's first run builds what it holds) and numba's
cache in a temporary folder; the cache files land in ``<out>/<level>/<folder under relx>/``, where
:mod:`relx.numba_cache` looks (~30 CPU-seconds a level, mostly loading the models).
The wheel ships the folder (``pyproject.toml`` package data); it is rebuilt, not kept in git.
A level the building machine's CPU cannot run (``x86-64-v4`` without AVX-512) is skipped
with a note: its code is compiled by running the workload, which would die there; a machine
of that level then loads the highest level built (:func:`relx.numba_cache.shipped_dir`).
Prints the seconds and the number of functions per level.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "corpora" / "abstracts"
DEFAULT_LEVELS = ("generic", "x86-64-v3", "x86-64-v4")


def run_workload(samples: Path) -> None:
    """What a first ``relx extract`` compiles: the PPI task's extractor, which types its pairs
    with the event model, on the sample abstracts (the events task compiles the same
    functions and signatures: measured, with identical cache files)."""
    import relx

    extractor = relx.load(task="ppi")
    for p in sorted(samples.glob("*.txt")):
        extractor.extract(p.read_text(encoding="utf-8"))


def cache_subpaths() -> dict[str, Path]:
    """numba's cache subfolder (under ``NUMBA_CACHE_DIR``) of each relx folder -> that
    folder relative to the package."""
    from numba.core.caching import UserProvidedCacheLocator

    package = ROOT / "relx"
    folders = {p.parent for p in package.rglob("*.py")}
    return {UserProvidedCacheLocator.get_suitable_cache_subpath(str(f / "x.py")):
            f.relative_to(package) for f in folders}


def build_level(level: str, out: Path) -> int:
    """Compile for ``level`` into ``out/level``; the number of functions (index files)."""
    with tempfile.TemporaryDirectory(prefix="relx-jit-") as cache:
        # RELX_CACHE_DIR=0: the start-up cache off, so that what a new environment's
        # first run computes (the trees' expansion, relx.learn.packed_trees) is compiled too
        env = dict(os.environ, NUMBA_CACHE_DIR=cache, NUMBA_CPU_NAME=level,
                   NUMBA_CPU_FEATURES="", RELX_SHIPPED_JIT="0", RELX_CACHE_DIR="0",
                   PYTHONPATH=str(ROOT))
        subprocess.run([sys.executable, "-m", "lab.jit_cache", "--workload", str(SAMPLES)],
                       check=True, env=env, cwd=ROOT)
        return collect(Path(cache), out / level)


def collect(cache: Path, target: Path) -> int:
    """Copy relx's files from numba cache folder ``cache`` (a ``NUMBA_CACHE_DIR``) into
    ``target/<folder under relx>/``, replacing ``target``; the number of functions."""
    shutil.rmtree(target, ignore_errors=True)
    n = 0
    for sub, folder in cache_subpaths().items():
        for f in sorted((cache / sub).glob("*.nb[ic]")):
            (target / folder).mkdir(parents=True, exist_ok=True)
            shutil.copy2(f, target / folder / f.name)
            n += f.suffix == ".nbi"
    return n


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--levels", default=",".join(DEFAULT_LEVELS),
                    help="comma-separated CPU levels (relx.numba_cache.X86_LEVELS)")
    ap.add_argument("--out", type=Path, default=ROOT / "relx" / "_jit")
    ap.add_argument("--workload", type=Path, help=argparse.SUPPRESS)
    a = ap.parse_args(argv)
    if a.workload:
        run_workload(a.workload)
        return
    from relx.numba_cache import X86_LEVELS, cpu_levels

    known = {name for name, _ in X86_LEVELS}
    runnable = set(cpu_levels())
    levels = [lv.strip() for lv in a.levels.split(",") if lv.strip()]
    if unknown := [lv for lv in levels if lv not in known]:
        ap.error(f"unknown CPU levels {unknown}; known: {sorted(known)}")
    for level in levels:
        if level not in runnable:   # its code is made by running it: it would die (SIGILL)
            shutil.rmtree(a.out / level, ignore_errors=True)
            print(f"{level}: skipped, this CPU cannot run code compiled for it; machines "
                  "with it load the highest level built", flush=True)
            continue
        t0 = time.perf_counter()
        n = build_level(level, a.out)
        print(f"{level}: {n} functions compiled in {time.perf_counter() - t0:.1f} s "
              f"-> {a.out / level}", flush=True)


if __name__ == "__main__":
    main()
