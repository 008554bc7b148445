"""Build the start-up cache entries a wheel ships (``relx/_arrays``): the gene lexicon's
tables, which a new environment's first ``relx extract`` would otherwise build (~1.2 s).

    python -m lab.array_ship [--out relx/_arrays]

A fresh process runs what ``relx extract`` runs on the sample abstracts
(``corpora/abstracts``, the PPI task) with an empty start-up cache
(:mod:`relx.array_cache`); the lexicon's entries it writes (``lexicon-*.npz``: named by a
digest of the shipped lexicon and of the code that builds them, so a changed lexicon or
builder makes other names and never reads these) are copied to ``--out``, replacing it.
The model-derived entries (walked trees, decoded model arrays: ~120 MB) are not shipped.
The wheel ships the folder (``pyproject.toml`` package data); it is rebuilt, not kept in
git. Prints each entry and its size.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from lab.jit_cache import SAMPLES, run_workload

ROOT = Path(__file__).resolve().parents[1]
#: the entries shipped: those derived from the lexicon (relx/data/lexicon.tsv.gz)
SHIPPED = "lexicon-*.npz"


def build(out: Path) -> list[Path]:
    """Run the workload with an empty cache folder and copy its lexicon entries to
    ``out`` (replaced); the copied files."""
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, RELX_CACHE_DIR=cache, PYTHONPATH=str(ROOT))
        subprocess.run([sys.executable, "-m", "lab.array_ship", "--workload", str(SAMPLES)],
                       check=True, env=env, cwd=ROOT)
        shutil.rmtree(out, ignore_errors=True)
        out.mkdir(parents=True)
        files = sorted(Path(cache).glob(SHIPPED))
        for f in files:
            shutil.copy2(f, out / f.name)
    return [out / f.name for f in files]


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", type=Path, default=ROOT / "relx" / "_arrays")
    ap.add_argument("--workload", type=Path, help=argparse.SUPPRESS)   # the child process
    a = ap.parse_args(argv)
    if a.workload:
        run_workload(a.workload)
        return
    files = build(a.out)
    if not files:
        raise SystemExit("no lexicon entries were written: is the start-up cache off?")
    for f in files:
        print(f"{f.stat().st_size / 1e6:6.1f} MB  {f.name}")
    print(f"{sum(f.stat().st_size for f in files) / 1e6:6.1f} MB in {len(files)} entries "
          f"-> {a.out}")


if __name__ == "__main__":
    main()
