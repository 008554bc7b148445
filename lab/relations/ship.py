"""Train the shipped gene relation model (``models/gene-relations``) on BioRED train's fit
split with the setting and threshold chosen by cross-validation (docs/relations.md).

    python -m lab.relations.ship [--out models/gene-relations] [--version 0.2.0]

The development split is never used here: the shipped model is the one its figures describe
(the registered look's figures, ``runs/relations/dev-look-2.json``, go into the meta when
present).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from lab.relations.biored import CHOSEN, DEV_LOOK, GRID, MAX_PAIRS, fit_final
from relx.ppi.gene_relations import save_gene_model


def _figures(rep: dict[str, Any]) -> dict[str, Any]:
    """The model card's figures of one report: pairs, types and novelty beside the
    constant guesses, ECE."""
    share = rep["novelty"]["share_novel"]
    return {"pairs": rep["pairs"], "type_accuracy": rep["type_accuracy"],
            "type_majority": rep["type_majority"], "novelty_f1": rep["novelty"]["f1"],
            "novelty_f1_all_novel": round(2 * share / (1 + share), 4),
            "novelty_auc": rep["novelty"].get("auc"), "ece": rep["ece"]}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, default=Path("models/gene-relations"))
    ap.add_argument("--version", default="0.2.0")
    ap.add_argument("--shared", default=None)
    a = ap.parse_args(argv)
    t0 = time.time()
    model, cv = fit_final(a.shared)
    meta = {"name": "gene-relations", "version": a.version, "task": "gene-relations",
            "created": datetime.now(UTC).replace(microsecond=0).isoformat(),
            "trained_on": ["BioRED Train.PubTator.gz, fit split (sha1(pmid) % 5 != 0), "
                           "gold gene mentions, scored by ppi-default + ge-events"],
            "setting": CHOSEN, "params": GRID[CHOSEN], "max_pairs": MAX_PAIRS,
            "threshold": model.threshold, "novel_threshold": model.novel_threshold,
            "type_margin": model.type_margin, "cv_fit_split": _figures(cv),
            "seed": model.random_state, "train_seconds": round(time.time() - t0, 1)}
    if DEV_LOOK.exists():
        meta["dev_split"] = {"look": "second (registered in docs/relations.md)",
                             **_figures(json.loads(DEV_LOOK.read_text(encoding="utf-8")))}
    print(save_gene_model(model, a.out, meta))
    return 0


if __name__ == "__main__":
    sys.exit(main())
