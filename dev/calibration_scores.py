"""Held-out scores for relx.ppi.calibration from a trained model's own out-of-fold member
probabilities (``ProbabilityEnsemble.oof_``), the cheap alternative to
``python -m relx.ppi.calibration oof`` (which re-trains the whole recipe per outer fold).

The rows of ``oof_`` are the training pairs in training order, so the training files must
be given in the order the model was trained on (``make default-model``); only gold rows are
kept. Model format 4 (``dev/repack_models.py``) drops ``oof_``: use the model as trained
(ppi-default 0.18.0 at commit 50023b9; 0.18.1 is it repacked, scores bitwise equal). Folds
for cross-fitting the calibrator: 5 seeded random document folds.

    git show 50023b9:models/ppi-default/pipeline.skops > runs/calib/ppi-0.18.0/pipeline.skops
    (same for meta.json, config.toml)
    python dev/calibration_scores.py --model runs/calib/ppi-0.18.0 \
        --train ../shared/corpora/ppi/AImed-learning-format.xml.gz \
        --train ../shared/corpora/ppi/BioInfer-learning-format.xml.gz \
        --train ../shared/corpora/ppi/IEPA-learning-format.xml.gz \
        --train runs/silver/ge2011-2013-silver.jsonl --out runs/calib/internal_scores.npz
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np

from relx.io import read_jsonl, read_ppi_xml
from relx.ppi.model import load_model
from relx.represent.instances import labels, pair_instances


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--model", default="models/ppi-default")
    ap.add_argument("--train", action="append", required=True)
    ap.add_argument("--folds", type=int, default=5)
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    docs = []
    for p in args.train:
        docs += list(read_jsonl(p) if ".jsonl" in p else read_ppi_xml(p))
    inst = pair_instances(docs)
    model = load_model(args.model)
    ens = model.pipeline.steps[-1][1]
    if getattr(ens, "oof_", None) is None:
        raise SystemExit(f"{args.model}: saved without oof_ (model format 4 drops it); use the "
                         "model as `relx train` saved it, e.g. ppi-default 0.18.0 from git "
                         "(50023b9), whose scores 0.18.1 repacks bitwise-equal")
    if len(inst) != len(ens.oof_):
        raise SystemExit(f"{len(inst)} training pairs, the model has {len(ens.oof_)} rows")
    y = labels(inst)
    gold = np.array([not x.relation.silver for x in inst])
    q = ens.posterior(ens.oof_)
    doc = np.array([x.document_id for x in inst])
    _, g = np.unique(doc, return_inverse=True)
    fold = np.random.RandomState(0).permutation(g.max() + 1)[g] % args.folds
    meta = {"source": f"{model.name} {model.version}: its ensemble's stored 3-fold document "
                      "out-of-fold member probabilities (oof_) combined as the model does",
            "train": [Path(p).name for p in args.train], "folds": args.folds, "seed": 0}
    np.savez(args.out, new_text=q[gold], y=y[gold], fold=fold[gold], document=doc[gold],
             meta=json.dumps(meta))
    print(f"{gold.sum()} gold pairs -> {args.out}")


if __name__ == "__main__":
    main()
