"""Train the shipped gene relation model (``models/gene-relations``) on BioRED train's fit
split with the setting and threshold chosen by cross-validation (docs/relations.md).

    python -m lab.relations.ship [--out models/gene-relations] [--version 0.1.0]

The development split is never used here: the shipped model is the one its figures describe.
"""

from __future__ import annotations

import argparse
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

from lab.relations.biored import CHOSEN, GRID, MAX_PAIRS, fit_final
from relx.ppi.gene_relations import save_gene_model


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, default=Path("models/gene-relations"))
    ap.add_argument("--version", default="0.1.0")
    ap.add_argument("--shared", default=None)
    a = ap.parse_args(argv)
    t0 = time.time()
    model, cv = fit_final(a.shared)
    meta = {"name": "gene-relations", "version": a.version, "task": "gene-relations",
            "created": datetime.now(UTC).replace(microsecond=0).isoformat(),
            "trained_on": ["BioRED Train.PubTator.gz, fit split (sha1(pmid) % 5 != 0), "
                           "gold gene mentions, scored by ppi-default + ge-events"],
            "setting": CHOSEN, "params": GRID[CHOSEN], "max_pairs": MAX_PAIRS,
            "threshold": model.threshold, "cv_fit_split": {
                "pairs": cv["pairs"], "type_accuracy": cv["type_accuracy"],
                "novelty_f1": cv["novelty"]["f1"], "ece": cv["ece"]},
            "seed": model.random_state, "train_seconds": round(time.time() - t0, 1)}
    print(save_gene_model(model, a.out, meta))
    return 0


if __name__ == "__main__":
    sys.exit(main())
